//! The rules of one advantage roll (SPEC 4, steps 2 to 7; the
//! advantage-die rules text): the tier of a total, when the counter replaces
//! the lower die, what the counter becomes, and the chance steps between
//! rolls. The exact chain and the sampler both read the roll through
//! [`AdvantageCase::face_table`], so the rule is written once.

use super::{AdvantageCase, OnUse, Policy, Tier, M2S, USES};

/// What one roll did, before the chance gain and the GM's reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollOutcome {
    pub tier: Tier,
    /// The counter replaced a die.
    pub used: bool,
    /// The dice alone were a miss, and the counter made a strong hit.
    pub miss_to_strong: bool,
    /// The counter after steps 4 and 5 (reset or swap, then the tier gain).
    pub counter: u8,
}

impl RollOutcome {
    /// The roll as bits: one per tier, then used, then miss-to-strong, in
    /// the order of [`Counts`].
    pub(super) fn flags(self) -> u8 {
        (1 << self.tier as u8)
            | (u8::from(self.used) << USES)
            | (u8::from(self.miss_to_strong) << M2S)
    }
}

impl AdvantageCase {
    /// The tier of a total (SPEC 4: `miss_max` or less a miss, `strong_min`
    /// or more a strong hit, a weak hit between).
    pub fn tier(&self, total: i32) -> Tier {
        if total <= self.miss_max {
            Tier::Miss
        } else if total >= self.strong_min {
            Tier::Strong
        } else {
            Tier::Weak
        }
    }

    /// Steps 2 to 5 of SPEC 4 for a roll of `dice` with the counter at
    /// `counter`; `last` is whether this is the encounter's last roll.
    pub fn resolve_roll(&self, counter: u8, dice: (u8, u8), last: bool) -> RollOutcome {
        let (low, high) = (dice.0.min(dice.1), dice.0.max(dice.1));
        let plain = self.tier(i32::from(low) + i32::from(high) + self.stat);
        // Step 2: the counter replaces the lower die (the rules text: "заменить значение
        // любого брошенного кубика значением своего превосходства"; the lower
        // die is the one worth replacing), if the policy allows and it helps.
        let boosted = self.tier(i32::from(counter) + i32::from(high) + self.stat);
        let allowed = match self.policy {
            Policy::Greedy => true,
            Policy::Threshold(t) => counter >= t,
            Policy::Last => last,
            Policy::Never => false,
        };
        let used = allowed && boosted > plain;
        // Step 3: the tier of the dice as they now stand.
        let tier = if used { boosted } else { plain };
        // Step 4: a used counter resets to 1 (the rules text: "превосходство
        // сбрасывается до одного, после того как игрок его использует") or
        // swaps with the replaced die. Only a counter above the lower die can
        // raise the tier, so a swapped value is always below the die size.
        let mut next = match (used, self.on_use) {
            (false, _) => counter,
            (true, OnUse::Reset) => 1,
            (true, OnUse::Swap) => low,
        };
        // Step 5: the tier's gain; past the die size it is lost at once
        // (the rules text: "игнорируй все последующие указания о его повышении").
        next = self.raise(next, self.gain_on[tier as usize]);
        RollOutcome {
            tier,
            used,
            miss_to_strong: used && plain == Tier::Miss && tier == Tier::Strong,
            counter: next,
        }
    }

    /// The counter raised by `gain`, never past the die size.
    fn raise(&self, counter: u8, gain: u32) -> u8 {
        (u32::from(counter) + gain).min(u32::from(self.die)) as u8
    }

    /// Steps 6 and 7: the chance gain (if `gained`), then the GM's reduction
    /// (if `reduced`; the rules text: "Мастер может уменьшить значение превосходства
    /// на один"), never below 1.
    pub fn after_chances(&self, counter: u8, gained: bool, reduced: bool) -> u8 {
        let counter = if gained {
            self.raise(counter, 1)
        } else {
            counter
        };
        if reduced {
            counter.saturating_sub(1).max(1)
        } else {
            counter
        }
    }

    /// For each counter value (index value - 1) and each of the 36 faces of
    /// 2d6 (index 6 (first - 1) + second - 1): the counter after step 5 and
    /// the roll's flags. `last` selects the encounter's last roll.
    pub(super) fn face_table(&self, last: bool) -> Vec<[(u8, u8); 36]> {
        (1..=self.die)
            .map(|counter| {
                let mut row = [(0u8, 0u8); 36];
                for (x, slot) in row.iter_mut().enumerate() {
                    let dice = ((x / 6 + 1) as u8, (x % 6 + 1) as u8);
                    let outcome = self.resolve_roll(counter, dice, last);
                    *slot = (outcome.counter, outcome.flags());
                }
                row
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_of_two_and_one_becomes_a_strong_hit_with_counter_eight() {
        // Dice 2 and 1, stat 0: 3, a miss. The d8 counter at 8 replaces the
        // 1: 2 + 8 = 10, a strong hit; the counter resets to 1.
        let case = AdvantageCase {
            die: 8,
            gain_on: [0, 0, 0],
            ..AdvantageCase::default()
        };
        let out = case.resolve_roll(8, (2, 1), false);
        assert_eq!(
            out,
            RollOutcome {
                tier: Tier::Strong,
                used: true,
                miss_to_strong: true,
                counter: 1
            }
        );
        // The dice order does not matter; the lower die is replaced.
        assert_eq!(case.resolve_roll(8, (1, 2), false), out);
        // Swapping takes the replaced die's 1; a strong-hit gain of 2 adds on.
        let swap = AdvantageCase {
            on_use: OnUse::Swap,
            gain_on: [0, 0, 2],
            ..case.clone()
        };
        assert_eq!(swap.resolve_roll(8, (2, 1), false).counter, 3);
        // Never: the miss stands and the counter keeps its 8.
        let never = AdvantageCase {
            policy: Policy::Never,
            ..case.clone()
        };
        let out = never.resolve_roll(8, (2, 1), false);
        assert_eq!((out.tier, out.used, out.counter), (Tier::Miss, false, 8));
    }

    #[test]
    fn the_counter_is_spent_only_when_it_raises_the_tier() {
        let case = AdvantageCase::default();
        // 4 + 1 = 5 miss; counter 5 replaces the 1: 9, a weak hit.
        let out = case.resolve_roll(5, (4, 1), false);
        assert_eq!(
            (out.tier, out.used, out.miss_to_strong),
            (Tier::Weak, true, false)
        );
        // 4 + 3 = 7 weak; counter 5 gives 9, still weak: kept.
        let out = case.resolve_roll(5, (4, 3), false);
        assert_eq!((out.tier, out.used, out.counter), (Tier::Weak, false, 5));
        // 6 + 5 strong already: kept.
        assert!(!case.resolve_roll(6, (6, 5), false).used);
        // Stat -1: 5 + 4 - 1 = 8 weak; counter 6 gives 6 + 5 - 1 = 10 strong.
        let minus = AdvantageCase {
            stat: -1,
            ..case.clone()
        };
        assert_eq!(minus.resolve_roll(6, (5, 4), false).tier, Tier::Strong);
    }

    #[test]
    fn threshold_and_last_policies_wait() {
        let threshold = AdvantageCase {
            policy: Policy::Threshold(5),
            ..AdvantageCase::default()
        };
        // 3 + 1 = 4 miss; counter 4 would give 7 but is below 5.
        assert!(!threshold.resolve_roll(4, (3, 1), false).used);
        assert!(threshold.resolve_roll(5, (3, 1), false).used);
        let last = AdvantageCase {
            policy: Policy::Last,
            ..AdvantageCase::default()
        };
        assert!(!last.resolve_roll(6, (3, 1), false).used);
        let out = last.resolve_roll(6, (3, 1), true);
        assert_eq!((out.tier, out.used), (Tier::Weak, true));
    }

    #[test]
    fn gains_past_the_die_are_lost_and_the_gm_stops_at_one() {
        let case = AdvantageCase {
            die: 4,
            gain_on: [3, 0, 0],
            policy: Policy::Never,
            ..AdvantageCase::default()
        };
        // Counter 3, a miss: +3 caps at 4, the chance gain is lost, the GM
        // then lowers it to 3 (not 4 + 1 - 1 from a saved raise).
        let out = case.resolve_roll(3, (1, 1), false);
        assert_eq!(out.counter, 4);
        assert_eq!(case.after_chances(out.counter, true, true), 3);
        assert_eq!(case.after_chances(1, false, true), 1);
        assert_eq!(case.after_chances(2, true, false), 3);
    }
}
