//! The rules of one advantage roll (docs/advantage.md, steps 2 to 7, and docs/advantage.md's
//! variants; the advantage-die rules text): the tier of a total, which
//! counter (if any) replaces which die, what each counter becomes, whose
//! roll it is and whether it counts as the last, and the chance steps
//! between rolls. The exact chain and the sampler both read the roll
//! through [`AdvantageCase::face_table`], so the rule is written once.

use std::cmp::Reverse;
use std::ops::Range;

use super::states::{Counters, StateSpace};
use super::{AdvantageCase, OnUse, Policy, Tier};

/// What one roll did, before the chance gains and the GM's reductions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollOutcome {
    pub tier: Tier,
    /// How many counters replaced a die (0, 1, or 2 with two advantage dice).
    pub uses: u8,
    /// The dice alone were a miss, and the counters made a strong hit.
    pub miss_to_strong: bool,
    /// Every counter after steps 4 and 5 (reset or swap, then the tier gain).
    pub counters: Counters,
}

impl RollOutcome {
    /// The roll packed in a byte: the tier, the uses, then miss-to-strong.
    pub(super) fn flags(self) -> u8 {
        self.tier as u8 | (self.uses << 2) | (u8::from(self.miss_to_strong) << 4)
    }
}

/// The tier (index into [`Tier::ALL`]) of packed flags.
pub(super) fn flag_tier(flags: u8) -> usize {
    usize::from(flags & 3)
}

/// How much a roll with `flags` adds to the per-encounter count `k` (one
/// per tier, then uses, then misses turned strong; see `COUNTS`).
pub(super) fn count_step(flags: u8, k: usize) -> usize {
    match k {
        0..=2 => usize::from(flag_tier(flags) == k),
        3 => usize::from((flags >> 2) & 3),
        _ => usize::from((flags >> 4) & 1),
    }
}

/// Whose roll it is and whether it is "the last roll" for the policies
/// that wait for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollKind {
    /// The rolling player's counter (0 for a lone player).
    pub roller: usize,
    pub last: bool,
}

/// One way a roll may spend counters (docs/advantage.md and docs/cortex.md and 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spend {
    /// This counter replaces the lower die.
    One(usize),
    /// Both of a player's two counters replace both dice.
    Both,
}

/// How docs/advantage.md ranks the spends that raise the tier, best first: the
/// highest tier, the fewest counters, the smallest counter, the roller's own
/// (`false` first), the lowest player.
type SpendRank = (Reverse<Tier>, u8, u8, bool, usize);

impl AdvantageCase {
    /// The tier of a total (docs/advantage.md: `miss_max` or less a miss, `strong_min`
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

    /// Roll `roll` (0-based) of the encounter: a party's players roll in turn
    /// (roll k is player ((k - 1) mod party) + 1's, docs/advantage.md). Without
    /// `share`, "the last roll" is the roller's own last roll; otherwise it
    /// is the encounter's.
    pub fn roll_kind(&self, roll: usize) -> RollKind {
        let party = usize::from(self.party);
        let rolls = self.rolls as usize;
        RollKind {
            roller: roll % party,
            last: if party > 1 && !self.share {
                roll + party >= rolls
            } else {
                roll + 1 == rolls
            },
        }
    }

    /// Whether a counter at `value` may be spent under the policy.
    fn eligible(&self, value: u8, last: bool) -> bool {
        match self.policy {
            Policy::Greedy => true,
            Policy::Threshold(t) => value >= t,
            Policy::Last => last,
            Policy::ThresholdOrLast(t) => value >= t || last,
            Policy::Never => false,
        }
    }

    /// The counters the roller may spend: their own (one or two), or with
    /// `share` every player's.
    fn spendable(&self, kind: RollKind) -> Range<usize> {
        if self.party > 1 && self.share {
            0..usize::from(self.party)
        } else if self.party > 1 {
            kind.roller..kind.roller + 1
        } else {
            0..usize::from(self.counters)
        }
    }

    /// The counters that gain for the roll's tier and draw the chance steps:
    /// each of a player's own counters, but of a party only the roller's
    /// (docs/advantage.md: "steps 5-7 apply to the roller's counter only").
    pub fn chance_holders(&self, kind: RollKind) -> Range<usize> {
        if self.party > 1 {
            kind.roller..kind.roller + 1
        } else {
            0..usize::from(self.counters)
        }
    }

    /// Steps 2 to 5 of docs/advantage.md (with docs/advantage.md's counters and party) for a roll
    /// of `dice` with the counters at `counters`.
    pub fn resolve_roll(&self, counters: Counters, kind: RollKind, dice: (u8, u8)) -> RollOutcome {
        let (low, high) = (dice.0.min(dice.1), dice.0.max(dice.1));
        let (low_i, high_i) = (i32::from(low), i32::from(high));
        let plain = self.tier(low_i + high_i + self.stat);
        // Step 2: a counter replaces the lower die (the rules text: "заменить значение
        // любого брошенного кубика значением своего превосходства"; the lower
        // die is the one worth replacing), or two counters both dice, if the
        // policy allows and it raises the tier. Among such spends: the
        // highest tier, then the fewest counters, then the smallest counter,
        // then the roller's own, then the lowest player (docs/advantage.md).
        let mut best: Option<(SpendRank, Tier, Spend)> = None;
        let mut consider = |tier: Tier, count: u8, value: u8, own: bool, index: usize, spend| {
            let key = (Reverse(tier), count, value, !own, index);
            if tier > plain && best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, tier, spend));
            }
        };
        let spendable = self.spendable(kind);
        for i in spendable.clone() {
            if self.eligible(counters[i], kind.last) {
                let tier = self.tier(i32::from(counters[i]) + high_i + self.stat);
                let own = self.party == 1 || i == kind.roller;
                consider(tier, 1, counters[i], own, i, Spend::One(i));
            }
        }
        if self.counters == 2
            && spendable
                .clone()
                .all(|i| self.eligible(counters[i], kind.last))
        {
            let tier = self.tier(i32::from(counters[0]) + i32::from(counters[1]) + self.stat);
            consider(tier, 2, counters[0].min(counters[1]), true, 0, Spend::Both);
        }
        // Step 3: the tier of the dice as they now stand.
        let (tier, spend) = best.map_or((plain, None), |(_, tier, spend)| (tier, Some(spend)));
        // Step 4: a used counter resets to 1 (the rules text: "превосходство
        // сбрасывается до одного, после того как игрок его использует") or
        // takes the value of the die it replaced. One counter only replaces
        // a lower die below it; of two, the larger took the higher die's
        // place, whose value may pass a small die's size (capped).
        let mut next = counters;
        let swap = self.on_use == OnUse::Swap;
        match spend {
            None => {}
            Some(Spend::One(i)) => next[i] = if swap { low } else { 1 },
            Some(Spend::Both) => {
                let (small, large) = if counters[0] <= counters[1] {
                    (0, 1)
                } else {
                    (1, 0)
                };
                next[small] = if swap { low } else { 1 };
                next[large] = if swap { high.min(self.die) } else { 1 };
            }
        }
        // Step 5: the tier's gain; past the die size it is lost at once
        // (the rules text: "игнорируй все последующие указания о его повышении").
        for i in self.chance_holders(kind) {
            next[i] = self.raise(next[i], self.gain_on[tier as usize]);
        }
        let uses = match spend {
            None => 0,
            Some(Spend::One(_)) => 1,
            Some(Spend::Both) => 2,
        };
        RollOutcome {
            tier,
            uses,
            miss_to_strong: uses > 0 && plain == Tier::Miss && tier == Tier::Strong,
            counters: next,
        }
    }

    /// The counter raised by `gain`, never past the die size.
    fn raise(&self, counter: u8, gain: u32) -> u8 {
        (u32::from(counter) + gain).min(u32::from(self.die)) as u8
    }

    /// Steps 6 and 7 for one counter: the chance gain (if `gained`), then the
    /// GM's reduction (if `reduced`; the rules text: "Мастер может уменьшить значение
    /// превосходства на один"), never below 1.
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

    /// For each state of the counters (numbered by `space`) and each of the
    /// 36 faces of 2d6 (index 6 (first - 1) + second - 1): the counters
    /// after step 5 and the roll's flags, for a roll of `kind`.
    pub(super) fn face_table(
        &self,
        space: &StateSpace,
        kind: RollKind,
    ) -> Vec<[(Counters, u8); 36]> {
        (0..space.len())
            .map(|state| self.face_row(space.counters(state), kind))
            .collect()
    }

    /// One state's row of [`AdvantageCase::face_table`]: for each of the
    /// 36 faces, the counters after step 5 and the roll's flags.
    pub(super) fn face_row(&self, counters: Counters, kind: RollKind) -> [(Counters, u8); 36] {
        let mut row = [([0u8; 4], 0u8); 36];
        for (x, slot) in row.iter_mut().enumerate() {
            let dice = ((x / 6 + 1) as u8, (x % 6 + 1) as u8);
            let outcome = self.resolve_roll(counters, kind, dice);
            *slot = (outcome.counters, outcome.flags());
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone counter's roll.
    fn roll(case: &AdvantageCase, counter: u8, dice: (u8, u8), last: bool) -> RollOutcome {
        case.resolve_roll([counter, 0, 0, 0], RollKind { roller: 0, last }, dice)
    }

    #[test]
    fn a_miss_of_two_and_one_becomes_a_strong_hit_with_counter_eight() {
        // Dice 2 and 1, stat 0: 3, a miss. The d8 counter at 8 replaces the
        // 1: 2 + 8 = 10, a strong hit; the counter resets to 1.
        let case = AdvantageCase {
            die: 8,
            gain_on: [0, 0, 0],
            ..AdvantageCase::default()
        };
        let out = roll(&case, 8, (2, 1), false);
        assert_eq!(
            out,
            RollOutcome {
                tier: Tier::Strong,
                uses: 1,
                miss_to_strong: true,
                counters: [1, 0, 0, 0]
            }
        );
        // The dice order does not matter; the lower die is replaced.
        assert_eq!(roll(&case, 8, (1, 2), false), out);
        // Swapping takes the replaced die's 1; a strong-hit gain of 2 adds on.
        let swap = AdvantageCase {
            on_use: OnUse::Swap,
            gain_on: [0, 0, 2],
            ..case.clone()
        };
        assert_eq!(roll(&swap, 8, (2, 1), false).counters[0], 3);
        // Never: the miss stands and the counter keeps its 8.
        let never = AdvantageCase {
            policy: Policy::Never,
            ..case.clone()
        };
        let out = roll(&never, 8, (2, 1), false);
        assert_eq!((out.tier, out.uses, out.counters[0]), (Tier::Miss, 0, 8));
    }

    #[test]
    fn the_counter_is_spent_only_when_it_raises_the_tier() {
        let case = AdvantageCase::default();
        // 4 + 1 = 5 miss; counter 5 replaces the 1: 9, a weak hit.
        let out = roll(&case, 5, (4, 1), false);
        assert_eq!(
            (out.tier, out.uses, out.miss_to_strong),
            (Tier::Weak, 1, false)
        );
        // 4 + 3 = 7 weak; counter 5 gives 9, still weak: kept.
        let out = roll(&case, 5, (4, 3), false);
        assert_eq!((out.tier, out.uses, out.counters[0]), (Tier::Weak, 0, 5));
        // 6 + 5 strong already: kept.
        assert_eq!(roll(&case, 6, (6, 5), false).uses, 0);
        // Stat -1: 5 + 4 - 1 = 8 weak; counter 6 gives 6 + 5 - 1 = 10 strong.
        let minus = AdvantageCase {
            stat: -1,
            ..case.clone()
        };
        assert_eq!(roll(&minus, 6, (5, 4), false).tier, Tier::Strong);
    }

    #[test]
    fn threshold_and_last_policies_wait() {
        let threshold = AdvantageCase {
            policy: Policy::Threshold(5),
            ..AdvantageCase::default()
        };
        // 3 + 1 = 4 miss; counter 4 would give 7 but is below 5.
        assert_eq!(roll(&threshold, 4, (3, 1), false).uses, 0);
        assert_eq!(roll(&threshold, 5, (3, 1), false).uses, 1);
        let last = AdvantageCase {
            policy: Policy::Last,
            ..AdvantageCase::default()
        };
        assert_eq!(roll(&last, 6, (3, 1), false).uses, 0);
        let out = roll(&last, 6, (3, 1), true);
        assert_eq!((out.tier, out.uses), (Tier::Weak, 1));
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
        let out = roll(&case, 3, (1, 1), false);
        assert_eq!(out.counters[0], 4);
        assert_eq!(case.after_chances(out.counters[0], true, true), 3);
        assert_eq!(case.after_chances(1, false, true), 1);
        assert_eq!(case.after_chances(2, true, false), 3);
    }

    #[test]
    fn two_counters_spend_the_fewest_that_reach_the_best_tier() {
        // docs/advantage.md and docs/cortex.md. Dice 2 and 1, stat 0: 3, a miss.
        let case = AdvantageCase {
            counters: 2,
            gain_on: [0, 0, 0],
            ..AdvantageCase::default()
        };
        let mine = RollKind {
            roller: 0,
            last: false,
        };
        // Counters 3 and 5: the 5 alone makes 2 + 5 = 7, both make 8: weak
        // either way, so the one counter is spent and the 3 is kept.
        let out = case.resolve_roll([3, 5, 0, 0], mine, (2, 1));
        assert_eq!(
            (out.tier, out.uses, out.counters),
            (Tier::Weak, 1, [3, 1, 0, 0])
        );
        // Counters 4 and 6: the 6 alone makes 8, both make 10, a strong hit.
        let out = case.resolve_roll([4, 6, 0, 0], mine, (2, 1));
        assert_eq!(
            (out.tier, out.uses, out.counters),
            (Tier::Strong, 2, [1, 1, 0, 0])
        );
        assert!(out.miss_to_strong);
        // Swapped, the larger counter takes the higher die's 2, the smaller
        // the lower die's 1.
        let swap = AdvantageCase {
            on_use: OnUse::Swap,
            ..case.clone()
        };
        assert_eq!(
            swap.resolve_roll([4, 6, 0, 0], mine, (2, 1)).counters,
            [1, 2, 0, 0]
        );
        // With a threshold of 5 only the 6 may be spent.
        let threshold = AdvantageCase {
            policy: Policy::Threshold(5),
            ..case.clone()
        };
        let out = threshold.resolve_roll([4, 6, 0, 0], mine, (2, 1));
        assert_eq!(
            (out.tier, out.uses, out.counters),
            (Tier::Weak, 1, [4, 1, 0, 0])
        );
        // Each counter gains for the tier: a weak-hit gain of 1 on both.
        let gaining = AdvantageCase {
            gain_on: [0, 1, 0],
            ..case.clone()
        };
        assert_eq!(
            gaining.resolve_roll([3, 5, 0, 0], mine, (2, 1)).counters,
            [4, 2, 0, 0]
        );
    }

    #[test]
    fn a_party_shares_the_best_counter_and_only_the_roller_gains() {
        // docs/advantage.md and docs/storytelling.md. Player 1 rolls 4 and 1: 5, a miss.
        let shared = AdvantageCase {
            party: 3,
            share: true,
            gain_on: [0, 1, 0],
            ..AdvantageCase::default()
        };
        let first = RollKind {
            roller: 0,
            last: false,
        };
        // Own 2 gives 6, still a miss; players 2 and 3 hold 5s (9, weak):
        // equal values, neither the roller's, so the lower player's. The
        // weak hit's gain goes to the roller alone.
        let out = shared.resolve_roll([2, 5, 5, 0], first, (4, 1));
        assert_eq!(
            (out.tier, out.uses, out.counters),
            (Tier::Weak, 1, [3, 1, 5, 0])
        );
        // A higher tier wins over the roller's own counter.
        let out = shared.resolve_roll([5, 6, 1, 0], first, (4, 1));
        assert_eq!((out.tier, out.counters), (Tier::Strong, [5, 1, 1, 0]));
        // Equal counters reaching the same tier: the roller's own first.
        let third = RollKind {
            roller: 2,
            last: false,
        };
        let out = shared.resolve_roll([6, 5, 6, 0], third, (4, 1));
        assert_eq!(out.counters, [6, 5, 1, 0]);
        // Without share only the roller's own counter can be spent.
        let apart = AdvantageCase {
            share: false,
            ..shared.clone()
        };
        let out = apart.resolve_roll([2, 5, 5, 0], first, (4, 1));
        assert_eq!(
            (out.tier, out.uses, out.counters),
            (Tier::Miss, 0, [2, 5, 5, 0])
        );
    }

    #[test]
    fn the_last_roll_is_each_players_own_unless_they_share() {
        // A party of 3 over 7 rolls: players 1, 2, 3, 1, 2, 3, 1.
        let apart = AdvantageCase {
            party: 3,
            rolls: 7,
            policy: Policy::ThresholdOrLast(5),
            ..AdvantageCase::default()
        };
        let kinds: Vec<(usize, bool)> = (0..7)
            .map(|roll| apart.roll_kind(roll))
            .map(|kind| (kind.roller, kind.last))
            .collect();
        let expected = [
            (0, false),
            (1, false),
            (2, false),
            (0, false),
            (1, true),
            (2, true),
            (0, true),
        ];
        assert_eq!(kinds, expected);
        let shared = AdvantageCase {
            share: true,
            ..apart.clone()
        };
        let lasts: Vec<bool> = (0..7).map(|roll| shared.roll_kind(roll).last).collect();
        assert_eq!(lasts, [false, false, false, false, false, false, true]);
        // Threshold-or-last: a 3 waits, unless it is the last roll; a 5 is
        // spent at once.
        let lone = AdvantageCase {
            policy: Policy::ThresholdOrLast(5),
            ..AdvantageCase::default()
        };
        assert_eq!(roll(&lone, 3, (4, 1), false).uses, 0);
        assert_eq!(roll(&lone, 3, (4, 1), true).uses, 1);
        assert_eq!(roll(&lone, 5, (4, 1), false).uses, 1);
    }
}
