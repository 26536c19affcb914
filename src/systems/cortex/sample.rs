//! The Cortex Monte Carlo sampler (SPEC 2): each trial rolls the action
//! pool (and the reacting pool) die by die through the scorer's rule, or the
//! max-effect [`Choice`] against a difficulty, and records it like every
//! other method does ([`CortexCase::record`]).

use crate::dice::Pool;
use crate::distribution::Hist;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};

use super::max_effect::Choice;
use super::plot_points::PlotRoll;
use super::rules::{Opposition, Policy};
use super::score::{score_stream, PoolRoll};
use super::{CortexCase, CortexHists};

/// The dice of a pool as (step, sides) pairs, largest first, for the hot loop.
pub fn dice_table(pool: &Pool) -> Vec<(u8, u8)> {
    pool.dice()
        .iter()
        .map(|d| (d.step() as u8, d.sides() as u8))
        .collect()
}

/// Rolls a pool of (step, sides) dice and scores it like the
/// [`super::score::Scorer`]. Each `keep` gets a loop of its own
/// ([`score_stream`]), so the top-k selection has a length known when
/// compiled: scoring is half the trial time.
#[inline(always)]
pub fn roll_pool(dice: &[(u8, u8)], keep: usize, roller: &mut DieRoller<'_>) -> PoolRoll {
    match keep {
        1 => roll_pool_keeping::<1>(dice, roller),
        2 => roll_pool_keeping::<2>(dice, roller),
        3 => roll_pool_keeping::<3>(dice, roller),
        4 => roll_pool_keeping::<4>(dice, roller),
        _ => roll_pool_keeping::<5>(dice, roller),
    }
}

#[inline(always)]
fn roll_pool_keeping<const KEEP: usize>(dice: &[(u8, u8)], roller: &mut DieRoller<'_>) -> PoolRoll {
    score_stream::<KEEP>(
        dice.iter()
            .map(|&(step, sides)| (step, roller.roll(u32::from(sides)) as u8)),
    )
}

/// The Monte Carlo trial of a cortex case.
struct CortexSampler<'a> {
    case: &'a CortexCase,
    action: Vec<(u8, u8)>,
    reaction: Vec<(u8, u8)>,
}

impl Sampler for CortexSampler<'_> {
    type Tally = CortexHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let points = self.case.rules.plot_points.unwrap_or(0) as usize;
        let max_total = ((self.case.rules.keep + points) * 12) as i64;
        CortexHists {
            total: Hist::with_range(0, max_total),
            hitches: Hist::with_range(0, self.action.len() as i64),
            pool_effect: Hist::with_range(0, 4),
            margin: Hist::with_range(-24, max_total),
            win_effect: Hist::with_range(0, 8),
            ..CortexHists::default()
        }
    }

    #[inline(always)]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let rules = &self.case.rules;
        let mut roller = DieRoller::new(rng);
        if let (Some(points), Opposition::Difficulty(d)) =
            (rules.plot_points, &self.case.opposition)
        {
            let mut roll = PlotRoll::new(rules.keep, points as usize);
            for &(step, sides) in &self.action {
                roll.push(step, roller.roll(u32::from(sides)) as u8);
            }
            let (action, spent) = roll.spend(rules.keep, rules, *d);
            self.case.record_spent(action, spent, 1u64, tally, true);
            return;
        }
        let action = match (rules.policy, &self.case.opposition) {
            (Policy::MaxEffect, Opposition::Difficulty(d)) => {
                let mut choice = Choice::new();
                for &(step, sides) in &self.action {
                    choice.push(rules.keep, step, roller.roll(u32::from(sides)) as u8, true);
                }
                choice.resolve(rules.keep, rules, Some(*d))
            }
            _ => roll_pool(&self.action, rules.keep, &mut roller),
        };
        let reaction = match self.case.opposition {
            Opposition::Pool(_) => Some(roll_pool(
                &self.reaction,
                self.case.rules.reaction_keep,
                &mut roller,
            )),
            _ => None,
        };
        self.case.record(action, reaction, 1u64, tally, true);
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

impl CortexCase {
    /// Monte Carlo outcome counts, out of the trials.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<CortexHists<u128>, Interrupted> {
        let reaction = match &self.opposition {
            Opposition::Pool(vs) => dice_table(vs),
            _ => Vec::new(),
        };
        let sampler = CortexSampler {
            case: self,
            action: dice_table(&self.pool),
            reaction,
        };
        let tally = monte_carlo::run(&sampler, settings)?;
        Ok(tally.to_counts(settings.trials))
    }
}
