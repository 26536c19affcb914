//! The Monte Carlo method of a Storytelling pool (docs/storytelling.md): real dice
//! through the one scorer, explosions without a depth limit.
//!
//! A pool of dice (not the chance die) is counted by [`StSampler::pool_roll`],
//! branch-free: the throws of one original die (its chain of rerolls, its
//! rote reroll and that one's chain) all follow it before the next original
//! die, and every throw but the original's counts alike, so a counter of
//! throws owed replaces the nested loops of [`Rules::roll`]. It reads the
//! same faces in the same order and gives the same counts (a test holds
//! the two together).

use crate::distribution::Hist;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};

use super::rules::{Rules, SIDES};
use super::stream::{self, D10s};
use super::{record, StHists, StorytellingCase};

impl StorytellingCase {
    /// The number of dice each of `trials` rolls of one Monte Carlo block
    /// (block 0 of `seed`) throws: the benches' generator floor throws
    /// exactly these d10s, a die roller per roll as the trials do.
    #[doc(hidden)]
    pub fn floor_dice(&self, trials: u64, seed: u64) -> Vec<u32> {
        let sampler = StSampler { rules: self.rules };
        let mut rng = crate::engine::rng::block_rng(seed, 0);
        (0..trials)
            .map(|_| {
                let mut roller = DieRoller::new(&mut rng);
                let mut thrown = 0;
                let mut faces = || {
                    thrown += 1;
                    Some(roller.roll(u32::from(SIDES)) as u8)
                };
                sampler
                    .rules
                    .roll(&mut faces)
                    .expect("random faces never run out");
                thrown
            })
            .collect()
    }

    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<StHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&StSampler { rules: self.rules }, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }
}

/// Whether a roll is counted from the draws in bulk ([`D10s::pool`]): a
/// pool of at most [`stream::MAX_FAST_POOL`] dice without rote.
pub(super) fn fast(rules: &Rules) -> bool {
    !rules.is_chance() && !rules.rote && rules.pool <= stream::MAX_FAST_POOL
}

/// The Monte Carlo trial: real dice, explosions without a depth limit.
struct StSampler {
    rules: Rules,
}

impl StSampler {
    /// The successes of a pool (not the chance die), as [`Rules::roll`]
    /// counts them from the same faces: each throw is an original die's
    /// when no throw is owed; a face at or above `again` owes one more
    /// throw, and so does an original die's failure under rote.
    #[inline(always)]
    fn pool_roll(&self, face: &mut impl FnMut() -> u32) -> u64 {
        let rules = &self.rules;
        let target = u32::from(rules.target);
        // No rerolls: a threshold no face reaches.
        let again = if rules.again == 0 {
            u32::from(SIDES) + 1
        } else {
            u32::from(rules.again)
        };
        let rote = u64::from(rules.rote);
        let (mut originals, mut owed, mut successes) = (rules.pool as u64, 0u64, 0u64);
        while originals + owed > 0 {
            let original = u64::from(owed == 0);
            originals -= original;
            owed -= 1 - original;
            let f = face();
            successes += u64::from(f >= target);
            owed += u64::from(f >= again) + (original & rote & u64::from(f < target));
        }
        successes
    }
}

impl Sampler for StSampler {
    type Tally = StHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        StHists {
            successes: Hist::with_range(0, 2 * self.rules.pool.clamp(1, 4096) + 4),
            dramatic: 0,
            dropped: 0.0,
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        if self.rules.is_chance() {
            let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
            let roll = self
                .rules
                .roll(&mut faces)
                .expect("random faces never run out");
            record(roll, 1u64, tally);
        } else {
            let successes = self.pool_roll(&mut || roller.roll(u32::from(SIDES)));
            tally.successes.add(successes as i64, 1);
        }
    }

    /// A plain pool (no rote, no chance die, at most
    /// [`stream::MAX_FAST_POOL`] dice) counted from the block's draws in
    /// bulk ([`D10s`]): the same faces trial after trial, one add a throw.
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        let rules = &self.rules;
        if !fast(rules) {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
            return;
        }
        // Counted here, then added to the histogram once per outcome.
        let mut counts = vec![0u64; 4 * rules.pool as usize + 64];
        let mut draws = D10s::new(rng, rules);
        for _ in 0..trials {
            let successes = draws.pool(rules.pool) as usize;
            if let Some(count) = counts.get_mut(successes) {
                *count += 1;
            } else {
                tally.successes.add(successes as i64, 1);
            }
            draws.next_trial();
        }
        for (successes, &count) in counts.iter().enumerate() {
            if count > 0 {
                tally.successes.add(successes as i64, count);
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.successes.merge(&other.successes);
        into.dramatic += other.dramatic;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::block_rng;

    /// The branch-free count reads the faces [`Rules::roll`] reads, in the
    /// same order, and counts the same successes, for every `again` and
    /// rote: the stream and the results are unchanged.
    #[test]
    fn the_branch_free_count_is_the_rules_roll() {
        for again in [0, 8, 9, 10] {
            for rote in [false, true] {
                for pool in [1, 3, 10] {
                    let rules = Rules {
                        pool,
                        again,
                        rote,
                        ..Rules::default()
                    };
                    let sampler = StSampler { rules };
                    let (mut a, mut b) = (block_rng(4, 1), block_rng(4, 1));
                    for _ in 0..2_000 {
                        let mut roller = DieRoller::new(&mut a);
                        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
                        let expected = rules.roll(&mut faces).unwrap().successes;
                        let mut roller = DieRoller::new(&mut b);
                        let got = sampler.pool_roll(&mut || roller.roll(u32::from(SIDES)));
                        assert_eq!(got, u64::from(expected), "{rules:?}");
                    }
                    assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
                }
            }
        }
    }

    /// A block counted from the draws in bulk gives the histogram of the
    /// same block played trial by trial through [`Rules::roll`], for
    /// every `again`, target and pool size the fast count takes (and the
    /// ones it leaves to the trial), over more draws than one buffer holds.
    #[test]
    fn the_bulk_count_is_the_trial_by_trial_count() {
        for again in [0, 8, 9, 10] {
            for (target, pool) in [(8, 1), (8, 5), (8, 10), (7, 40), (8, 300), (6, 3)] {
                for rote in [false, true] {
                    if again != 0 && again < target {
                        continue;
                    }
                    let rules = Rules {
                        pool,
                        target,
                        again,
                        rote,
                        ..Rules::default()
                    };
                    let sampler = StSampler { rules };
                    let trials = 3_000 / pool.min(30) as u64 + 500;
                    let mut bulk = sampler.new_tally();
                    sampler.block(&mut block_rng(9, 2), trials, &mut bulk);
                    let mut one_by_one = sampler.new_tally();
                    let mut rng = block_rng(9, 2);
                    for _ in 0..trials {
                        let mut roller = DieRoller::new(&mut rng);
                        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
                        record(rules.roll(&mut faces).unwrap(), 1, &mut one_by_one);
                    }
                    assert_eq!(bulk.successes, one_by_one.successes, "{rules:?}");
                }
            }
        }
    }
}
