//! The Monte Carlo sampler of an advantage encounter: each trial is one
//! encounter, read through the rule's face tables over the counters' states.
//!
//! A roll's draws (the 2d6 face, then each holder's chance gain and GM
//! reduction, docs/advantage.md steps 6 and 7) never depend on the
//! counters, so a block plays [`LANES`] encounters side by side: every draw
//! of the batch first, in the order one encounter after another would draw
//! them (the same stream), then each roll of every lane is one look-up in a
//! transition table over (state, face, chance draws). The lanes' look-ups
//! are independent, so they overlap instead of each waiting on the last.

use rand::distr::Bernoulli;
use rand::RngExt;

use super::rules::{count_step, flag_tier, RollKind};
use super::states::{Counters, StateSpace};
use super::{AdvantageCase, AdvantageHists, COUNTS};
use crate::distribution::Hist;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::DiceRng;

impl AdvantageCase {
    /// Monte Carlo histograms (probabilities): each trial one encounter.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<AdvantageHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&self.sampler(), settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    fn sampler(&self) -> AdvantageSampler<'_> {
        let bernoulli =
            |p: f64| (p > 0.0).then(|| Bernoulli::new(p).expect("a probability validated to 0..1"));
        let space = StateSpace::new(self);
        let kinds: Vec<RollKind> = (0..self.rolls as usize)
            .map(|roll| self.roll_kind(roll))
            .collect();
        let mut distinct: Vec<RollKind> = Vec::new();
        for kind in &kinds {
            if !distinct.contains(kind) {
                distinct.push(*kind);
            }
        }
        let mut sampler = AdvantageSampler {
            case: self,
            table_of: kinds
                .iter()
                .map(|kind| distinct.iter().position(|d| d == kind).unwrap_or(0))
                .collect(),
            tables: distinct
                .iter()
                .map(|kind| (self.face_table(&space, *kind), self.chance_holders(*kind)))
                .collect(),
            space,
            gain: bernoulli(self.gain_chance),
            reduce: bernoulli(self.gm_reduce_chance),
            transitions: None,
        };
        sampler.transitions = Transitions::new(&sampler);
        sampler
    }
}

/// The Monte Carlo trial: one encounter, read through the face tables.
struct AdvantageSampler<'a> {
    case: &'a AdvantageCase,
    space: StateSpace,
    /// Per roll, its table in `tables`.
    table_of: Vec<usize>,
    /// Per kind of roll (whose, and whether last): the
    /// [`AdvantageCase::face_table`] and the counters that draw the chances.
    tables: Vec<(FaceTable, std::ops::Range<usize>)>,
    gain: Option<Bernoulli>,
    reduce: Option<Bernoulli>,
    /// The batched look-up tables, unless they would be too large.
    transitions: Option<Transitions>,
}

/// Encounters played side by side in a batch.
const LANES: usize = 16;

/// Most entries of all transition tables together (4 bytes each): past it,
/// encounters are played one by one through the face tables.
const MAX_TRANSITIONS: usize = 1 << 20;

/// Per kind of roll, every (state, face, chance draws) and what follows:
/// the next state and the roll's flags, packed `state << 8 | flags`. A
/// roll's key is `face << bits | draws`, one bit per chance drawn (each
/// holder's gain, then its reduction); its entry is at
/// `state * stride + key`.
struct Transitions {
    tables: Vec<Vec<u32>>,
    /// Per kind, the chance bits of its rolls but the last.
    bits: Vec<u32>,
}

impl Transitions {
    fn new(sampler: &AdvantageSampler<'_>) -> Option<Transitions> {
        let states = sampler.space.len();
        let bits: Vec<u32> = sampler
            .tables
            .iter()
            .map(|(_, holders)| 2 * holders.len() as u32)
            .collect();
        let entries: usize = bits.iter().map(|&b| states * (36 << b)).sum();
        if entries > MAX_TRANSITIONS || states >= 1 << 24 {
            return None;
        }
        let case = sampler.case;
        let tables = sampler
            .tables
            .iter()
            .zip(&bits)
            .map(|((faces, holders), &bits)| {
                let mut table = Vec::with_capacity(states * (36 << bits));
                for row in faces {
                    for &(counters, flags) in row {
                        for draws in 0..1u32 << bits {
                            let mut after = counters;
                            for (i, holder) in holders.clone().enumerate() {
                                let gained = (draws >> (2 * i)) & 1 == 1;
                                let reduced = (draws >> (2 * i + 1)) & 1 == 1;
                                after[holder] = case.after_chances(after[holder], gained, reduced);
                            }
                            let next = sampler.space.index(after) as u32;
                            table.push((next << 8) | u32::from(flags));
                        }
                    }
                }
                table
            })
            .collect();
        Some(Transitions { tables, bits })
    }
}

impl AdvantageSampler<'_> {
    /// One encounter's draws into `keys[roll]` (see [`Transitions`]), in
    /// the order [`Sampler::trial`] draws them.
    #[inline(always)]
    fn draw(&self, rng: &mut DiceRng, bits: &[u32], keys: &mut [[u16; LANES]], lane: usize) {
        let n = keys.len();
        for (roll, keys) in keys.iter_mut().enumerate() {
            let kind = self.table_of[roll];
            let face = rng.random_range(0..36usize) as u32;
            let mut draws = 0u32;
            if roll + 1 < n {
                for i in 0..self.tables[kind].1.len() as u32 {
                    let gained = self.gain.is_some_and(|b| rng.sample(b));
                    let reduced = self.reduce.is_some_and(|b| rng.sample(b));
                    draws |= (u32::from(gained) << (2 * i)) | (u32::from(reduced) << (2 * i + 1));
                }
            }
            keys[lane] = ((face << bits[kind]) | draws) as u16;
        }
    }

    /// A block's encounters in batches of [`LANES`], the rest one by one.
    fn batches(&self, rng: &mut DiceRng, trials: u64, tally: &mut AdvantageHists<u64>) {
        let transitions = self.transitions.as_ref().expect("batched only with tables");
        let n = self.case.rolls as usize;
        let mut keys = vec![[0u16; LANES]; n];
        for _ in 0..trials / LANES as u64 {
            for lane in 0..LANES {
                self.draw(rng, &transitions.bits, &mut keys, lane);
            }
            let mut state = [0u32; LANES];
            let mut counts = [[0u16; LANES]; COUNTS];
            for (roll, tiers) in tally.tier_by_roll.iter_mut().enumerate() {
                let kind = self.table_of[roll];
                let table = &transitions.tables[kind];
                let stride = 36u32 << transitions.bits[kind];
                let mut flags = [0u8; LANES];
                for ((state, flags), &key) in state.iter_mut().zip(&mut flags).zip(&keys[roll]) {
                    let entry = table[(*state * stride + u32::from(key)) as usize];
                    *state = entry >> 8;
                    *flags = entry as u8;
                }
                for (tier, count) in tiers.iter_mut().enumerate() {
                    *count += flags.iter().filter(|&&f| flag_tier(f) == tier).count() as u64;
                }
                for (k, counts) in counts.iter_mut().enumerate() {
                    for (count, &f) in counts.iter_mut().zip(&flags) {
                        *count += count_step(f, k) as u16;
                    }
                }
            }
            for (hist, counts) in tally.per_encounter.iter_mut().zip(&counts) {
                for &count in counts {
                    hist.add(i64::from(count), 1);
                }
            }
        }
        for _ in 0..trials % LANES as u64 {
            self.trial(rng, tally);
        }
    }
}

/// Per state, per face of 2d6: the counters after step 5 and the flags.
type FaceTable = Vec<[(Counters, u8); 36]>;

impl Sampler for AdvantageSampler<'_> {
    type Tally = AdvantageHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let n = self.case.rolls as usize;
        let top = (n * usize::from(self.case.counters)) as i64;
        AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, top)),
            tier_by_roll: vec![[0; 3]; n],
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let n = self.case.rolls as usize;
        let mut state = 0usize;
        let mut counts = [0i64; COUNTS];
        for (roll, tiers) in tally.tier_by_roll.iter_mut().enumerate() {
            let (table, holders) = &self.tables[self.table_of[roll]];
            let (mut counters, flags) = table[state][rng.random_range(0..36usize)];
            tiers[flag_tier(flags)] += 1;
            for (k, count) in counts.iter_mut().enumerate() {
                *count += count_step(flags, k) as i64;
            }
            if roll + 1 == n {
                break;
            }
            for holder in holders.clone() {
                let gained = self.gain.is_some_and(|b| rng.sample(b));
                let reduced = self.reduce.is_some_and(|b| rng.sample(b));
                counters[holder] = self.case.after_chances(counters[holder], gained, reduced);
            }
            state = self.space.index(counters);
        }
        for (hist, count) in tally.per_encounter.iter_mut().zip(counts) {
            hist.add(count, 1);
        }
    }

    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        if self.transitions.is_some() {
            self.batches(rng, trials, tally);
        } else {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        for (a, b) in into.per_encounter.iter_mut().zip(&other.per_encounter) {
            a.merge(b);
        }
        for (a, b) in into.tier_by_roll.iter_mut().zip(&other.tier_by_roll) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::block_rng;
    use crate::systems::advantage::Policy;

    /// The batches count what one encounter after another from the same
    /// stream counts: batching and the transition tables change nothing,
    /// the stream included (a partial last batch too).
    #[test]
    fn batches_count_what_one_encounter_at_a_time_counts() {
        let base = AdvantageCase {
            die: 8,
            rolls: 7,
            policy: Policy::Greedy,
            gain_on: [1, 0, 0],
            gain_chance: 0.5,
            gm_reduce_chance: 0.1,
            ..AdvantageCase::default()
        };
        let cases = [
            base.clone(),
            AdvantageCase {
                counters: 2,
                ..base.clone()
            },
            AdvantageCase {
                party: 3,
                share: true,
                ..base.clone()
            },
            AdvantageCase {
                gain_chance: 0.0,
                rolls: 1,
                ..base.clone()
            },
        ];
        let trials = 5 * LANES as u64 + 3;
        for case in &cases {
            let sampler = case.sampler();
            assert!(sampler.transitions.is_some());
            let mut batched = sampler.new_tally();
            let mut batched_rng = block_rng(9, 2);
            sampler.block(&mut batched_rng, trials, &mut batched);
            let mut expected = sampler.new_tally();
            let mut rng = block_rng(9, 2);
            for _ in 0..trials {
                sampler.trial(&mut rng, &mut expected);
            }
            assert_eq!(batched, expected, "{case:?}");
            // Both left the stream at the same place.
            assert_eq!(
                rand::Rng::next_u64(&mut batched_rng),
                rand::Rng::next_u64(&mut rng)
            );
        }
    }
}
