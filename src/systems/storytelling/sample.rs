//! The Monte Carlo method of a Storytelling pool (docs/storytelling.md): real dice
//! through the one scorer, explosions without a depth limit.

use crate::distribution::Hist;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};

use super::rules::{Rules, SIDES};
use super::{record, StHists, StorytellingCase};

impl StorytellingCase {
    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<StHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&StSampler { rules: self.rules }, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }
}

/// The Monte Carlo trial: real dice, explosions without a depth limit.
struct StSampler {
    rules: Rules,
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
        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
        let roll = self
            .rules
            .roll(&mut faces)
            .expect("random faces never run out");
        record(roll, 1u64, tally);
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.successes.merge(&other.successes);
        into.dramatic += other.dramatic;
    }
}
