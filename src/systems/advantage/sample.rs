//! The Monte Carlo sampler of an advantage encounter: each trial is one
//! encounter, read through the rule's face tables over the counters' states.

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
        let sampler = AdvantageSampler {
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
        };
        let tally = monte_carlo::run(&sampler, settings)?;
        Ok(tally.to_probabilities(settings.trials))
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
