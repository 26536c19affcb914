//! Storytelling d10 pools (docs/storytelling.md; the Storytelling rules text, "Снова-десять"):
//! a pool of `dice + modifier` d10s, a success per die at or above `target`,
//! "снова-десять" (10-again, and the 9-again / 8-again variants) rerolling a
//! die without limit, rote actions rerolling each failed die once, and the
//! chance die a pool of zero or less becomes.
//!
//! One scorer ([`Rules::roll`]) reads a roll face by face in the order the
//! dice are thrown; the Monte Carlo sampler feeds it random faces and the
//! brute-force enumeration feeds it every face sequence, so the two share
//! the rules. The fast exact method builds the success-count distribution of
//! one die (its whole explosion chain, and the rote reroll) and convolves it
//! over the pool, dropping only the improbable high end: never more than
//! [`DROP_LIMIT`] of the pool's probability, reported as the dropped mass.
//!
//! The folder, one concern a file: [`rules`] the scorer and one die's
//! distribution, [`exact`] the convolution and its brute-force check,
//! [`sample`] the Monte Carlo trial, [`keys`] the keys; this file holds the case, its options,
//! its histograms and its metrics. A pool rolled more than once has files
//! of its own: [`actions`] reads its keys and picks the case, [`extended`]
//! the extended action, [`contest`] the contested one.

mod actions;
mod contest;
mod exact;
mod extended;
mod pool_size;
#[rustfmt::skip]
pub(crate) mod keys;
#[rustfmt::skip]
pub(crate) mod metrics;
#[cfg(test)]
mod actions_tests;
pub(crate) mod rules;
mod sample;
mod stream;

use serde_json::{json, Map, Value};

use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric, Spread};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{OptionError, Options};

use super::SystemCase;
pub use actions::resolve;
pub use contest::ContestCase;
pub use extended::ExtendedCase;
pub use keys::ContestTies;
use keys::{AGAIN, CHANCE_DIE_EXPLODES, DICE, EXCEPTIONAL, MODIFIER, NEED, ROTE, TARGET};
use metrics as m;
pub use rules::{Roll, Rules};

/// Largest `dice`, and largest pool after the modifier. docs/storytelling.md sets no upper
/// bound; this one only stops a typo (an extra zero or three) from starting
/// a run that would never end. Real pools are a handful of dice.
pub const MAX_DICE: i64 = 1_000_000;

/// The most probability an exact answer may leave out (docs/storytelling.md: truncate
/// explosion chains only where the dropped probability of the whole pool is
/// below 1e-12).
pub const DROP_LIMIT: f64 = 1e-12;

/// What the exact method actually allows itself to drop: far below
/// [`DROP_LIMIT`], so an exact figure reads as the untruncated one to every
/// printed digit (a chance die's `p_success` prints as 0.1, not
/// 0.0999999999997), at the price of a few more terms per die.
pub const DROP_GOAL: f64 = 1e-18;
const _: () = assert!(DROP_GOAL < DROP_LIMIT);

/// A resolved storytelling case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorytellingCase {
    pub dice: i64,
    pub modifier: i64,
    pub rules: Rules,
    /// Successes needed (`p_success`).
    pub need: i64,
    /// Successes for an exceptional success (`p_exceptional`).
    pub exceptional: i64,
}

impl StorytellingCase {
    /// A roll of `rules`' pool with no modifier, succeeding on one success
    /// and exceptional on five (the tests' plain roll).
    #[cfg(test)]
    pub(crate) fn plain(rules: Rules) -> StorytellingCase {
        StorytellingCase {
            dice: rules.pool,
            modifier: 0,
            rules,
            need: 1,
            exceptional: 5,
        }
    }

    pub fn from_options(mut options: Options) -> Result<StorytellingCase, OptionError> {
        let case = Self::read(&mut options)?;
        options.finish()?;
        Ok(case)
    }

    /// Reads one roll's keys, leaving the rest of `options` to the caller
    /// (an extended or contested action reads its own keys after these).
    pub(crate) fn read(options: &mut Options) -> Result<StorytellingCase, OptionError> {
        let Some(dice) = options.maybe_int_of(&DICE)? else {
            return Err(options.case_error(format!(
                "a storytelling case needs {}, the number of d10s before the modifier (a whole number, 0 or more)",
                options.key_name(&DICE)
            )));
        };
        let (modifier, pool) = pool_of(options, dice, &MODIFIER, "the pool")?;
        let rules = Rules::from_options(options, pool)?;
        let need = options.int_of(&NEED)?;
        let exceptional = options.int_of(&EXCEPTIONAL)?;
        Ok(StorytellingCase {
            dice,
            modifier,
            rules,
            need,
            exceptional,
        })
    }

    /// Every docs/storytelling.md metric from the outcome histograms; one function for
    /// every method. Nothing is renormalised: an exact answer's dropped mass
    /// simply counts toward no outcome.
    pub fn metrics(&self, h: &StHists<f64>) -> Vec<Metric> {
        let mean: f64 = h.successes.iter().map(|(s, p)| s as f64 * p).sum();
        let variance: f64 = h
            .successes
            .iter()
            .map(|(s, p)| (s as f64 - mean).powi(2) * p)
            .sum();
        vec![
            Metric::probability(m::P_SUCCESS.name, h.at_least(self.need)),
            Metric::probability(m::P_EXCEPTIONAL.name, h.at_least(self.exceptional)),
            Metric {
                name: m::MEAN_SUCCESSES.name.into(),
                value: Some(mean),
                spread: Spread::Mean {
                    variance,
                    base: 1.0,
                },
            },
            Metric::probability(m::P_DRAMATIC.name, h.dramatic),
        ]
    }

    /// The distribution table: `successes`, outcomes 0, 1, ... (docs/storytelling.md).
    pub fn rows(&self, h: &StHists<f64>) -> Vec<DistRow> {
        hist_rows(m::SUCCESSES.name, &h.successes, |s| s.to_string())
    }

    fn evaluation(&self, h: &StHists<f64>, dropped_mass: Option<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass,
        }
    }
}

/// The modifier read from `modifier_key` and the pool (`what`) it makes of `dice`
/// (every pool of zero or less is the same chance die, pool 0), or an error
/// pointing at the modifier when the sum passes [`MAX_DICE`].
pub(crate) fn pool_of(
    options: &mut Options,
    dice: i64,
    modifier_key: &'static crate::options::KeyDef,
    what: &str,
) -> Result<(i64, i64), OptionError> {
    let modifier_item = options.take(modifier_key);
    let modifier = options.int_of(modifier_key)?;
    let pool = i128::from(dice) + i128::from(modifier);
    if pool > i128::from(MAX_DICE) {
        let message =
            format!("{what} (dice + modifier) is {pool} dice; at most {MAX_DICE} are allowed");
        return Err(match modifier_item {
            Some(item) => options.error_at(&item, message),
            None => options.case_error(message),
        });
    }
    Ok((modifier, pool.max(0) as i64))
}

/// Adds one scored roll to the histograms.
fn record<W: Copy + Default + std::ops::AddAssign>(roll: Roll, weight: W, h: &mut StHists<W>) {
    h.successes.add(i64::from(roll.successes), weight);
    if roll.dramatic {
        h.dramatic += weight;
    }
}

/// The outcome histograms of a storytelling case: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StHists<W> {
    pub successes: Hist<W>,
    pub dramatic: W,
    /// Probability no outcome holds (exact truncation; 0 in Monte Carlo).
    pub dropped: f64,
}

impl StHists<f64> {
    /// P(successes >= k). Summed over whichever side of `k` is smaller, so
    /// rounding stays small both for a near-certain success (0.83193, not
    /// 0.8319299999999996) and for a tiny tail: the lower side is taken
    /// from the mass the outcomes hold, 1 - dropped.
    pub fn at_least(&self, k: i64) -> f64 {
        crate::distribution::nearer_tail(
            self.successes.mass_where(|s| s >= k),
            self.successes.mass_where(|s| s < k),
            1.0 - self.dropped,
        )
    }
}

impl StHists<u64> {
    fn to_probabilities(&self, trials: u64) -> StHists<f64> {
        StHists {
            successes: self.successes.to_probabilities(trials),
            dramatic: self.dramatic as f64 / trials as f64,
            dropped: 0.0,
        }
    }
}

impl SystemCase for StorytellingCase {
    fn system(&self) -> super::System {
        super::System::Storytelling
    }

    fn inputs(&self) -> Map<String, Value> {
        let rules = &self.rules;
        let mut inputs = Map::new();
        inputs.insert(DICE.name.into(), json!(self.dice));
        inputs.insert(MODIFIER.name.into(), json!(self.modifier));
        inputs.insert(TARGET.name.into(), json!(rules.target));
        inputs.insert(AGAIN.name.into(), json!(rules.again));
        // docs/reports.md: options that do not apply are absent. Rote does not apply
        // to a chance die; `chance_die_explodes` only to a chance die, and
        // not when nothing explodes.
        if !rules.is_chance() {
            inputs.insert(ROTE.name.into(), json!(rules.rote));
        }
        inputs.insert(NEED.name.into(), json!(self.need));
        inputs.insert(EXCEPTIONAL.name.into(), json!(self.exceptional));
        if rules.is_chance() && rules.again != 0 {
            inputs.insert(
                CHANCE_DIE_EXPLODES.name.into(),
                json!(rules.chance_die_explodes),
            );
        }
        inputs
    }

    /// The pool's dice (a tenth more for the tens that explode).
    fn mc_trial_nanos(&self) -> f64 {
        cost::mc_trial_nanos(self.rules.pool as f64 * 1.1, 1.0, cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        let (hists, dropped) = self.exact_hists(budget)?;
        Ok(self.evaluation(&hists, Some(dropped)))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?, None))
    }
}
