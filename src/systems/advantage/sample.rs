//! The Monte Carlo sampler of an advantage encounter: each trial is one
//! encounter, read through the rule's face table.

use rand::distr::Bernoulli;
use rand::RngExt;

use super::{AdvantageCase, AdvantageHists, COUNTS, M2S, USES};
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
        let mut table = self.face_table(false);
        table.extend(self.face_table(true));
        let sampler = AdvantageSampler {
            case: self,
            table,
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
    /// [`AdvantageCase::face_table`] for a roll that is not the last, then
    /// for the last (index `die` + counter - 1).
    table: Vec<[(u8, u8); 36]>,
    gain: Option<Bernoulli>,
    reduce: Option<Bernoulli>,
}

impl Sampler for AdvantageSampler<'_> {
    type Tally = AdvantageHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let n = self.case.rolls as usize;
        AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, n as i64)),
            tier_by_roll: vec![[0; 3]; n],
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let n = self.case.rolls as usize;
        let size = usize::from(self.case.die);
        let mut counter = 1u8;
        let mut counts = [0i64; COUNTS];
        for (roll, tiers) in tally.tier_by_roll.iter_mut().enumerate() {
            let last = roll + 1 == n;
            let row = if last { size } else { 0 } + usize::from(counter) - 1;
            let (next, flags) = self.table[row][rng.random_range(0..36usize)];
            let tier = (flags & 7).trailing_zeros() as usize;
            tiers[tier] += 1;
            counts[tier] += 1;
            counts[USES] += i64::from((flags >> USES) & 1);
            counts[M2S] += i64::from((flags >> M2S) & 1);
            if last {
                break;
            }
            let gained = self.gain.is_some_and(|b| rng.sample(b));
            let reduced = self.reduce.is_some_and(|b| rng.sample(b));
            counter = self.case.after_chances(next, gained, reduced);
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
