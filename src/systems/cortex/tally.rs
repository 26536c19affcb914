//! The Monte Carlo tally of a cortex case: flat integer counts indexed by a
//! packed outcome, so a trial costs a few array increments, and every
//! histogram and metric is made after the loop, by [`CortexCase::record`]'s
//! own parts, once per distinct outcome rather than once per trial.
//!
//! Three flat tables, each small enough for the first-level cache whatever
//! the pool: the action pool's hitch count; its roll (total, effect step and
//! plot points spent); and, against a reacting pool, the [`Contest`]
//! (margin, both effect steps, whether the reaction hitched). Hitches get a
//! table of their own because a pool may hold up to 100,000 dice: packed
//! with the rest they would multiply its size.

use crate::distribution::Hist;

use super::rules::Opposition;
use super::score::{LaneRolls, PoolRoll, LANES};
use super::{Contest, CortexCase, CortexHists};

/// Effect steps a pool's effect die may take: d4 (0) to d12 (4).
const EFFECT_STEPS: usize = 5;

/// Where each outcome goes in the flat tables of one case.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// Largest action total (plot points included) and action hitch count.
    max_total: usize,
    max_hitches: usize,
    /// Plot points a roll may spend (0 without them).
    points: usize,
    /// Smallest margin (the reacting pool's largest total, negated) and the
    /// number of margins; 0 margins unless a pool reacts.
    min_margin: i64,
    margins: usize,
}

impl Layout {
    pub(super) fn new(case: &CortexCase, action_dice: usize) -> Layout {
        let points = case.rules.plot_points.unwrap_or(0) as usize;
        let max_total = (case.rules.keep + points) * 12;
        let (min_margin, margins) = match case.opposition {
            Opposition::Pool(_) => {
                let max_reaction = (case.rules.reaction_keep * 12) as i64;
                (-max_reaction, max_total + 1 + max_reaction as usize)
            }
            _ => (0, 0),
        };
        Layout {
            max_total,
            max_hitches: action_dice,
            points,
            min_margin,
            margins,
        }
    }

    /// Rolls that spent the same plot points lie together, so that
    /// without them (`spent` 0) the index is `total * 5 + effect_step`.
    #[inline(always)]
    fn roll_index(&self, total: u32, effect_step: u32, spent: u32) -> usize {
        debug_assert!(total as usize <= self.max_total && (effect_step as usize) < EFFECT_STEPS);
        let per_spent = (self.max_total as u32 + 1) * EFFECT_STEPS as u32;
        (spent * per_spent + total * EFFECT_STEPS as u32 + effect_step) as usize
    }

    /// In 32 bits (the tables are far smaller), which the compiler can
    /// work out for many lanes at once.
    #[inline(always)]
    fn contest_index(&self, contest: &Contest) -> usize {
        let margin = (contest.margin - self.min_margin) as u32;
        let reaction_effect = contest.reaction_effect.unwrap_or(0);
        let steps = EFFECT_STEPS as u32;
        ((((margin * steps + contest.effect_step) * steps + reaction_effect) << 1)
            | u32::from(contest.reaction_hitched)) as usize
    }
}

/// One thread's counts, merged by addition.
pub(super) struct PackedTally {
    layout: Layout,
    hitches: Vec<u64>,
    rolls: Vec<u64>,
    contests: Vec<u64>,
}

impl PackedTally {
    pub(super) fn new(layout: Layout) -> PackedTally {
        PackedTally {
            layout,
            hitches: vec![0; layout.max_hitches + 1],
            rolls: vec![0; (layout.max_total + 1) * EFFECT_STEPS * (layout.points + 1)],
            contests: vec![0; layout.margins * EFFECT_STEPS * EFFECT_STEPS * 2],
        }
    }

    /// Counts the action pool's roll, with the plot points it spent.
    #[inline(always)]
    pub(super) fn add_roll(&mut self, roll: PoolRoll, spent: u32) {
        self.hitches[roll.hitches as usize] += 1;
        self.rolls[self.layout.roll_index(roll.total, roll.effect_step, spent)] += 1;
    }

    /// Counts the contest against a reacting pool.
    #[inline(always)]
    pub(super) fn add_contest(&mut self, contest: &Contest) {
        self.add_contest_count(contest, 1);
    }

    /// Counts `count` rolls of the action pool alike, with the plot points
    /// they spent.
    pub(super) fn add_roll_count(&mut self, roll: PoolRoll, spent: u32, count: u64) {
        self.hitches[roll.hitches as usize] += count;
        self.rolls[self.layout.roll_index(roll.total, roll.effect_step, spent)] += count;
    }

    /// Counts `count` contests alike against a reacting pool.
    #[inline(always)]
    pub(super) fn add_contest_count(&mut self, contest: &Contest, count: u64) {
        self.contests[self.layout.contest_index(contest)] += count;
    }

    /// Counts the first `count` of [`LANES`] rolls of the action pool alone.
    #[inline(always)]
    pub(super) fn add_roll_lanes(&mut self, actions: &LaneRolls, count: usize) {
        let rolls = self.roll_lanes(actions);
        for (&hitches, &roll) in actions.hitches.iter().zip(&rolls).take(count) {
            self.hitches[usize::from(hitches)] += 1;
            self.rolls[roll as usize] += 1;
        }
    }

    /// Counts the first `count` of [`LANES`] contests, the action pool's
    /// rolls against the reacting pool's.
    #[inline(always)]
    pub(super) fn add_contest_lanes(
        &mut self,
        actions: &LaneRolls,
        reactions: &LaneRolls,
        count: usize,
    ) {
        let rolls = self.roll_lanes(actions);
        let contests: [u32; LANES] = std::array::from_fn(|lane| {
            let contest = Contest::against_pool(actions.roll(lane), reactions.roll(lane), true);
            self.layout.contest_index(&contest) as u32
        });
        let lanes = actions.hitches.iter().zip(&rolls).zip(&contests);
        for ((&hitches, &roll), &contest) in lanes.take(count) {
            self.hitches[usize::from(hitches)] += 1;
            self.rolls[roll as usize] += 1;
            self.contests[contest as usize] += 1;
        }
    }

    /// The table indices of [`LANES`] rolls without plot points, worked out
    /// before any is counted (lane by lane, so in vector registers).
    #[inline(always)]
    fn roll_lanes(&self, actions: &LaneRolls) -> [u32; LANES] {
        std::array::from_fn(|lane| {
            let roll = actions.roll(lane);
            self.layout.roll_index(roll.total, roll.effect_step, 0) as u32
        })
    }

    pub(super) fn merge(&mut self, other: &PackedTally) {
        for (into, from) in [
            (&mut self.hitches, &other.hitches),
            (&mut self.rolls, &other.rolls),
            (&mut self.contests, &other.contests),
        ] {
            for (a, b) in into.iter_mut().zip(from) {
                *a += b;
            }
        }
    }

    /// The histograms of the counted trials, out of `trials`: each distinct
    /// outcome recorded once, with its count as the weight.
    pub(super) fn to_hists(&self, case: &CortexCase, trials: u64) -> CortexHists<u128> {
        let layout = &self.layout;
        let max_total = layout.max_total as i64;
        let mut hists = CortexHists {
            total: Hist::with_range(0, max_total),
            hitches: Hist::with_range(0, layout.max_hitches as i64),
            pool_effect: Hist::with_range(0, EFFECT_STEPS as i64 - 1),
            // The ranges the histograms have always started from; any margin
            // outside grows them.
            margin: Hist::with_range(-24, max_total),
            win_effect: Hist::with_range(0, 8),
            whole: u128::from(trials),
            ..CortexHists::default()
        };
        for (hitches, &count) in self.hitches.iter().enumerate() {
            hists.hitches.add(hitches as i64, u128::from(count));
        }
        let reacting = matches!(case.opposition, Opposition::Pool(_));
        for total in 0..=layout.max_total as u32 {
            for effect_step in 0..EFFECT_STEPS as u32 {
                for spent in 0..=layout.points as u32 {
                    let count = self.rolls[layout.roll_index(total, effect_step, spent)];
                    if count == 0 {
                        continue;
                    }
                    let roll = PoolRoll {
                        total,
                        effect_step,
                        hitches: 0,
                    };
                    let count = u128::from(count);
                    if reacting {
                        case.record_pool(roll, count, &mut hists, false);
                    } else if case.rules.plot_points.is_some() {
                        case.record_spent(roll, spent, count, &mut hists, false);
                    } else {
                        case.record(roll, None, count, &mut hists, false);
                    }
                }
            }
        }
        for margin in 0..layout.margins as i64 {
            for effect_step in 0..EFFECT_STEPS as u32 {
                for reaction_effect in 0..EFFECT_STEPS as u32 {
                    for reaction_hitched in [false, true] {
                        let contest = Contest {
                            margin: layout.min_margin + margin,
                            effect_step,
                            reaction_effect: Some(reaction_effect),
                            reaction_hitched,
                        };
                        let count = self.contests[layout.contest_index(&contest)];
                        if count > 0 {
                            case.record_contest(contest, u128::from(count), &mut hists);
                        }
                    }
                }
            }
        }
        hists
    }
}
