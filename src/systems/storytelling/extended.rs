//! An extended action (docs/storytelling.md, "Extended actions"): the pool
//! is rolled up to `rolls` times and its successes add up; the action
//! succeeds on the roll at which the running total reaches `extended`, and
//! a dramatic failure (the chance die showing 1) ends it at once as a
//! failure. Every roll is one roll of the pool by the single-roll rules.
//!
//! The exact method plays the rolls on the chain engine, a state being the
//! successes gathered so far, each roll moving it by the single roll's
//! exact success distribution; the Monte Carlo method rolls the dice,
//! roll after roll, through the one scorer ([`Rules::roll`]). Both fill the
//! same histograms, and one function turns them into the metrics.

use serde_json::{json, Map, Value};

use crate::distribution::{nearer_tail, DistRow, Evaluation, Hist, Metric};
use crate::engine::chain::{self, Forecast, Mechanic, Next, Pruning};
use crate::engine::cost::{self, Work};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::systems::SystemCase;

use super::keys::{EXTENDED, ROLLS};
use super::metrics as m;
use super::rules::{Roll, Rules, SIDES};
use super::stream::D10s;
use super::{record, StHists, StorytellingCase};

/// A resolved extended action: the pool's single-roll case and the action's
/// two numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtendedCase {
    pub base: StorytellingCase,
    /// Successes to gather (1..=100).
    pub extended: u32,
    /// The most rolls (1..=100).
    pub rolls: u32,
}

/// How one extended action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The running total reached `extended` on this roll (1-based).
    Success { roll: u32, total: u32 },
    /// A dramatic failure on this roll ended it.
    Dramatic { roll: u32, total: u32 },
    /// Every roll was made without reaching `extended`.
    OutOfRolls { total: u32 },
}

/// The outcome histograms of extended actions: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExtHists<W> {
    /// The roll the action succeeded on.
    pub success_roll: Hist<W>,
    /// Actions that did not succeed (ended by a dramatic failure or out of rolls).
    pub never: W,
    /// Actions a dramatic failure ended.
    pub dramatic: W,
    /// Rolls made, the dramatic one included.
    pub rolls: Hist<W>,
    /// Successes gathered when rolling stopped.
    pub total: Hist<W>,
}

impl<W: Copy + Default + std::ops::AddAssign> ExtHists<W> {
    pub(super) fn record(&mut self, end: End, rolls: u32, weight: W) {
        let (made, total) = match end {
            End::Success { roll, total } => {
                self.success_roll.add(i64::from(roll), weight);
                (roll, total)
            }
            End::Dramatic { roll, total } => {
                self.never += weight;
                self.dramatic += weight;
                (roll, total)
            }
            End::OutOfRolls { total } => {
                self.never += weight;
                (rolls, total)
            }
        };
        self.rolls.add(i64::from(made), weight);
        self.total.add(i64::from(total), weight);
    }
}

impl ExtHists<u64> {
    fn to_probabilities(&self, trials: u64) -> ExtHists<f64> {
        let n = trials as f64;
        ExtHists {
            success_roll: self.success_roll.to_probabilities(trials),
            never: self.never as f64 / n,
            dramatic: self.dramatic as f64 / n,
            rolls: self.rolls.to_probabilities(trials),
            total: self.total.to_probabilities(trials),
        }
    }
}

impl ExtendedCase {
    /// The extended action's metrics (docs/storytelling.md), from its
    /// histograms; `held` is the probability the outcomes hold (1 less any
    /// mass an exact answer dropped). One function for every method.
    pub fn metrics(&self, h: &ExtHists<f64>, held: f64) -> Vec<Metric> {
        let success = nearer_tail(h.success_roll.mass(), h.never, held);
        vec![
            Metric::probability(m::P_EXTENDED_SUCCESS.name, success),
            Metric::probability(m::P_EXTENDED_DRAMATIC.name, h.dramatic),
            Metric::mean_of(m::MEAN_ROLLS.name, &h.rolls, 1.0),
            Metric::mean_of(m::MEAN_ROLLS_TO_SUCCESS.name, &h.success_roll, success),
            Metric::mean_of(m::MEAN_TOTAL_SUCCESSES.name, &h.total, 1.0),
        ]
    }

    /// The `success_roll` rows: every roll `1` .. `rolls`, then `never`.
    pub fn rows(&self, h: &ExtHists<f64>) -> Vec<DistRow> {
        let name = m::SUCCESS_ROLL.name;
        let mut rows: Vec<DistRow> = (1..=self.rolls)
            .map(|k| DistRow::new(name, k, h.success_roll.get(i64::from(k))))
            .collect();
        rows.push(DistRow::new(name, "never", h.never));
        rows
    }

    fn evaluation(
        &self,
        single: &StHists<f64>,
        h: &ExtHists<f64>,
        dropped: Option<f64>,
    ) -> Evaluation {
        let mut metrics = self.base.metrics(single);
        metrics.extend(self.metrics(h, 1.0 - dropped.unwrap_or(0.0)));
        let mut rows = self.base.rows(single);
        rows.extend(self.rows(h));
        Evaluation {
            metrics,
            rows,
            dropped_mass: dropped,
        }
    }

    /// The exact histograms of the single roll and of the action, and the
    /// probability the action's answer leaves out: each roll's truncated
    /// tail (docs/storytelling.md), weighted by the chance the roll is made.
    pub fn exact_hists(
        &self,
        budget: &mut Budget,
    ) -> Result<(StHists<f64>, ExtHists<f64>, f64), ExactError> {
        let (single, single_dropped) = self.base.exact_hists(budget)?;
        let mut roll: Vec<f64> = single.successes.iter().map(|(_, p)| p).collect();
        // A dramatic failure scores no success but ends the action, so it
        // leaves the 0 entry and moves no state.
        if let Some(zero) = roll.first_mut() {
            *zero = (*zero - single.dramatic).max(0.0);
        }
        let mut action = Action {
            case: self,
            roll,
            dramatic: single.dramatic,
            roll_dropped: single_dropped,
            hists: ExtHists::default(),
            dropped: 0.0,
        };
        let run = chain::run(&mut action, Pruning::NONE, budget)?;
        let dropped = action.dropped + run.dropped;
        Ok((single, action.hists, dropped))
    }

    /// The number of dice each of `trials` actions of one Monte Carlo
    /// block (block 0 of `seed`) throws, for the benches' generator floor
    /// (a die roller per action, as the trials have).
    #[doc(hidden)]
    pub fn floor_dice(&self, trials: u64, seed: u64) -> Vec<u32> {
        let sampler = ExtSampler { case: *self };
        let mut tally = sampler.new_tally();
        let mut rng = crate::engine::rng::block_rng(seed, 0);
        (0..trials)
            .map(|_| {
                let mut roller = DieRoller::new(&mut rng);
                let mut thrown = 0;
                let mut faces = || {
                    thrown += 1;
                    Some(roller.roll(u32::from(SIDES)) as u8)
                };
                let rules = self.base.rules;
                sampler.play(&mut || rules_roll(&rules, &mut faces), &mut tally);
                thrown
            })
            .collect()
    }

    /// Monte Carlo histograms: each trial one extended action rolled die by
    /// die; its first roll is also a sample of the single roll.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<(StHists<f64>, ExtHists<f64>), Interrupted> {
        let sampler = ExtSampler { case: *self };
        let (single, action) = monte_carlo::run(&sampler, settings)?;
        Ok((
            single.to_probabilities(settings.trials),
            action.to_probabilities(settings.trials),
        ))
    }
}

/// The exact play of an extended action on the chain engine.
struct Action<'a> {
    case: &'a ExtendedCase,
    /// P(a roll scores k successes and is no dramatic failure), by k.
    roll: Vec<f64>,
    /// P(a roll is a dramatic failure).
    dramatic: f64,
    /// The probability a roll's truncated distribution leaves out.
    roll_dropped: f64,
    hists: ExtHists<f64>,
    /// Truncated mass, summed over the rolls made.
    dropped: f64,
}

impl Mechanic for Action<'_> {
    /// Successes gathered so far, below `extended`.
    type State = u32;
    type Mass = f64;
    type Outcome = End;

    fn steps(&self) -> usize {
        self.case.rolls as usize
    }

    fn initial(&mut self) -> Vec<(u32, f64)> {
        vec![(0, 1.0)]
    }

    /// The successes gathered are below `extended`: a bounded chain.
    fn forecast(&self, forecast: Forecast) -> Forecast {
        forecast.bounded()
    }

    fn work(&self, _step: usize, live: usize) -> u64 {
        Work::ExtendedMove.cost(live as u64 * self.roll.len() as u64)
    }

    fn too_large(&self, step: usize, _live: usize) -> String {
        format!(
            "an extended action of {} rolls of {} dice (at roll {})",
            self.case.rolls,
            self.case.base.rules.pool,
            step + 1
        )
    }

    fn next(
        &mut self,
        step: usize,
        gathered: u32,
        p: f64,
        next: &mut Next<u32, f64, End>,
        _budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let roll = step as u32 + 1;
        self.dropped += p * self.roll_dropped;
        if self.dramatic > 0.0 {
            let total = gathered;
            next.absorb(End::Dramatic { roll, total }, p * self.dramatic);
        }
        for (k, &q) in self.roll.iter().enumerate() {
            let total = gathered + k as u32;
            if total >= self.case.extended {
                next.absorb(End::Success { roll, total }, p * q);
            } else {
                next.add(total, p * q);
            }
        }
        Ok(())
    }

    fn final_outcome(&self, gathered: &u32) -> End {
        End::OutOfRolls { total: *gathered }
    }

    fn absorb(&mut self, end: End, p: f64) {
        self.hists.record(end, self.case.rolls, p);
    }
}

/// The Monte Carlo trial: one extended action, real dice, roll by roll.
struct ExtSampler {
    case: ExtendedCase,
}

/// One roll of `rules` from `faces`, which never run out.
#[inline(always)]
fn rules_roll(rules: &Rules, faces: &mut impl FnMut() -> Option<u8>) -> Roll {
    rules.roll(faces).expect("random faces never run out")
}

impl ExtSampler {
    /// One extended action, its rolls made by `roll`, counted into the
    /// tally: the first roll is also a sample of the single roll.
    #[inline(always)]
    fn play(
        &self,
        roll: &mut impl FnMut() -> Roll,
        (single, action): &mut (StHists<u64>, ExtHists<u64>),
    ) {
        let mut total = 0;
        for made in 1..=self.case.rolls {
            let scored = roll();
            if made == 1 {
                record(scored, 1u64, single);
            }
            if scored.dramatic {
                action.record(End::Dramatic { roll: made, total }, self.case.rolls, 1);
                return;
            }
            total += scored.successes;
            if total >= self.case.extended {
                action.record(End::Success { roll: made, total }, self.case.rolls, 1);
                return;
            }
        }
        action.record(End::OutOfRolls { total }, self.case.rolls, 1);
    }
}

/// The flat counts of a block of plain-pool actions ([`ExtSampler::block`]).
struct Ext;

impl Ext {
    /// Totals a block's array keeps apart: any total short of `extended`
    /// and what a last roll of up to about twice its dice adds to it.
    fn width(extended: u32, pool: i64) -> usize {
        extended as usize + 2 * pool as usize + 16
    }

    /// How an action with no dramatic failure ended, from the rolls made
    /// and the successes gathered: it stops at the roll that reaches
    /// `extended`, or runs out of rolls short of it.
    fn end(made: u32, total: u32, extended: u32) -> End {
        if total >= extended {
            End::Success { roll: made, total }
        } else {
            End::OutOfRolls { total }
        }
    }
}

impl Sampler for ExtSampler {
    type Tally = (StHists<u64>, ExtHists<u64>);

    fn new_tally(&self) -> Self::Tally {
        let pool = self.case.base.rules.pool.clamp(1, 4096);
        let single = StHists {
            successes: Hist::with_range(0, 2 * pool + 4),
            dramatic: 0,
            dropped: 0.0,
        };
        let rolls = i64::from(self.case.rolls);
        let action = ExtHists {
            success_roll: Hist::with_range(1, rolls),
            never: 0,
            dramatic: 0,
            rolls: Hist::with_range(1, rolls),
            total: Hist::with_range(0, i64::from(self.case.extended) + 2 * pool + 4),
        };
        (single, action)
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
        self.play(&mut || rules_roll(&self.case.base.rules, &mut faces), tally);
    }

    /// A plain pool ([`super::sample::fast`]) rolled from the block's
    /// draws in bulk ([`D10s`]): the same faces, roll after roll.
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        let rules = self.case.base.rules;
        if !super::sample::fast(&rules) {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
            return;
        }
        let (single, action) = tally;
        let (rolls, extended) = (self.case.rolls, self.case.extended);
        // Counted here, one increment a trial, and read into the
        // histograms once a block: the first roll's successes, and the
        // action's end as `made * width + total` (the rolls made, the
        // successes gathered; it succeeded exactly when the total reached
        // `extended`). A total past the width (a roll of very many
        // successes) goes to the histograms at once.
        let width = Ext::width(extended, rules.pool);
        let mut first_counts = vec![0u32; width];
        let mut end_counts = vec![0u32; (rolls as usize + 1) * width];
        let mut draws = D10s::new(rng, &rules);
        for _ in 0..trials {
            let first = draws.pool(rules.pool);
            let (mut made, mut total) = (1, first);
            while made < rolls && total < extended {
                total += draws.pool(rules.pool);
                made += 1;
            }
            draws.next_trial();
            match first_counts.get_mut(first as usize) {
                Some(count) => *count += 1,
                None => single.successes.add(i64::from(first), 1),
            }
            match end_counts.get_mut(made as usize * width + total as usize) {
                Some(count) if (total as usize) < width => *count += 1,
                _ => action.record(Ext::end(made, total, extended), rolls, 1),
            }
        }
        for (first, &count) in first_counts.iter().enumerate() {
            if count > 0 {
                single.successes.add(first as i64, u64::from(count));
            }
        }
        for (cell, &count) in end_counts.iter().enumerate() {
            if count > 0 {
                let (made, total) = ((cell / width) as u32, (cell % width) as u32);
                action.record(Ext::end(made, total, extended), rolls, u64::from(count));
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.0.successes.merge(&other.0.successes);
        into.0.dramatic += other.0.dramatic;
        let (a, b) = (&mut into.1, other.1);
        a.success_roll.merge(&b.success_roll);
        a.never += b.never;
        a.dramatic += b.dramatic;
        a.rolls.merge(&b.rolls);
        a.total.merge(&b.total);
    }
}

impl SystemCase for ExtendedCase {
    fn system(&self) -> crate::systems::System {
        crate::systems::System::Storytelling
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = self.base.inputs();
        inputs.insert(EXTENDED.name.into(), json!(self.extended));
        inputs.insert(ROLLS.name.into(), json!(self.rolls));
        inputs
    }

    /// The pool for every roll (a whole action at most).
    fn mc_trial_nanos(&self) -> f64 {
        let dice = self.base.rules.pool as f64 * 1.1;
        cost::mc_trial_nanos(dice, f64::from(self.rolls), cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        let (single, action, dropped) = self.exact_hists(budget)?;
        Ok(self.evaluation(&single, &action, Some(dropped)))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        let (single, action) = self.monte_carlo_hists(settings)?;
        Ok(self.evaluation(&single, &action, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::monte_carlo::block_and_one_at_a_time;

    /// A block of `trials` actions counts what the same actions played one
    /// at a time count, from the block generator `seed`.
    fn assert_block_plays_as_trials(
        rules: Rules,
        extended: u32,
        rolls: u32,
        trials: u64,
        seed: (u64, u64),
    ) {
        let base = StorytellingCase::plain(rules);
        let case = ExtendedCase {
            base,
            extended,
            rolls,
        };
        let sampler = ExtSampler { case };
        let (block, one_at_a_time) = block_and_one_at_a_time(&sampler, trials, seed);
        assert_eq!(block, one_at_a_time, "{:?}", sampler.case);
    }

    /// A block rolled from the draws in bulk counts what the same block
    /// counts played action by action through [`Rules::roll`] (plain
    /// pools, and the rote and chance-die ones left to the trial), over
    /// more draws than one buffer holds.
    #[test]
    fn the_bulk_block_is_the_trial_by_trial_block() {
        for (pool, again, rote, extended, rolls) in [
            (5, 10, false, 8, 4),
            (10, 8, false, 30, 6),
            (1, 10, false, 3, 60),
            (3, 9, true, 5, 5),
            (0, 10, false, 2, 3),
        ] {
            let rules = Rules {
                pool,
                again,
                rote,
                ..Rules::default()
            };
            assert_block_plays_as_trials(rules, extended, rolls, 4_000, (3, 4));
        }
    }

    /// The block's flat counts give exactly the histograms of the same
    /// block played one action at a time, for pools inside and past the
    /// stream's window, other targets and `again`s, actions that mostly
    /// succeed, mostly run out of rolls, or take a single roll.
    #[test]
    fn the_flat_counts_are_the_one_at_a_time_counts() {
        for (pool, target, again, extended, rolls) in [
            (8, 8, 10, 10, 5),
            (9, 8, 9, 12, 4),
            (2, 6, 8, 100, 100),
            (30, 7, 8, 50, 3),
            (4, 8, 0, 1, 1),
            (6, 10, 10, 20, 7),
        ] {
            let rules = Rules {
                pool,
                target,
                again,
                ..Rules::default()
            };
            assert_block_plays_as_trials(rules, extended, rolls, 3_000, (8, 5));
        }
    }
}
