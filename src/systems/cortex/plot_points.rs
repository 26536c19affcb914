//! Plot points spent after a Cortex roll (docs/cortex.md; the Cortex Plus rules
//! text, "Сюжетные очки": after the roll, "Добавить к результату броска ещё
//! один дайс", each point adds one more rolled die to the total, decided
//! before the effect die is chosen, never a die showing 1).
//!
//! Against a fixed difficulty the roller spends the fewest points k that
//! make the sum of the `keep + k` best live dice beat it, the dice taken in
//! the total's own order ([`total_rank`]); none when even every point
//! fails. The effect die is then the largest live die left out.
//!
//! A roll remembers its `keep + plot_points` best live dice and the largest
//! die below them ([`PlotRoll`], pushed die by die through the scorer's own
//! rule, [`push_die`]); [`PlotRoll::spend`] decides from that. The Monte
//! Carlo trial and the brute-force enumeration push faces into it; the
//! exact programme ([`plot_point_outcomes`]) runs over its states, so the
//! three can be held against each other. It lives apart from the plain
//! programme in [`super::exact`] because it holds up to 15 dice, not 5.

use rustc_hash::FxHashMap;

use crate::dice::Pool;
use crate::engine::exact::{Budget, ExactError};

use super::plot_point_size::{die_work, predicted_nanos};
use super::programme_step::{add_die, first_face_to_hold, ProgrammeState};
use super::rules::{rank_face, total_rank, total_rank_step, Rank, Rules, MAX_KEEP};
use super::score::{push_die, scored, PoolRoll};
use super::weight::Weight;
use super::{CortexCase, CortexHists};

pub use super::keys::MAX_PLOT_POINTS;

/// Most dice a [`PlotRoll`] holds: the largest total plus every point.
const MAX_HELD: usize = MAX_KEEP + MAX_PLOT_POINTS;

/// A roll as plot points see it: the `keep + plot_points` best live dice
/// as [`total_rank`]s, best first (0 for an empty slot), the largest step
/// among the live dice below them (-1 for none) and the hitch count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlotRoll {
    held: [Rank; MAX_HELD],
    len: u8,
    free_step: i8,
    // A pool may hold 100,000 dice, so the count needs more than 16 bits.
    hitches: u32,
}

impl PlotRoll {
    /// An empty roll for a total of `keep` dice with `plot_points` to spend.
    pub fn new(keep: usize, plot_points: usize) -> PlotRoll {
        debug_assert!(keep + plot_points <= MAX_HELD);
        PlotRoll {
            held: [0; MAX_HELD],
            len: (keep + plot_points) as u8,
            free_step: -1,
            hitches: 0,
        }
    }

    /// Adds one die of `step` showing `face`, by the scorer's rule.
    #[inline]
    pub fn push(&mut self, step: u8, face: u8) {
        push_die(
            &mut self.held[..usize::from(self.len)],
            &mut self.free_step,
            &mut self.hitches,
            step,
            face,
        );
    }

    /// The roll scored with the best `count` held dice in the total: the
    /// held dice past them are free, as is everything below.
    fn scored_with(&self, count: usize) -> PoolRoll {
        let (total, left) = self.held[..usize::from(self.len)].split_at(count);
        let left_step = left
            .iter()
            .filter(|&&rank| rank != 0)
            .map(|&rank| total_rank_step(rank) as i8)
            .max()
            .unwrap_or(-1);
        scored(total, self.free_step.max(left_step), self.hitches)
    }

    /// The roll once the roller has spent what it takes to beat
    /// `difficulty` (docs/cortex.md): the scored roll and the points spent.
    pub fn spend(&self, keep: usize, rules: &Rules, difficulty: u32) -> (PoolRoll, u32) {
        let points = usize::from(self.len) - keep;
        for spent in 0..=points {
            let roll = self.scored_with(keep + spent);
            if rules.succeeds(i64::from(roll.total) - i64::from(difficulty)) {
                return (roll, spent as u32);
            }
            // Every live die is in the total: more points add nothing.
            if self.held[..usize::from(self.len)]
                .get(keep + spent)
                .is_none_or(|&rank| rank == 0)
            {
                break;
            }
        }
        (self.scored_with(keep), 0)
    }
}

/// The plot-point programme's state: hitches are counted apart, so a 1
/// changes nothing the roller can spend on.
impl ProgrammeState for PlotRoll {
    type Setting = ();

    fn hitched(self, _: ()) -> PlotRoll {
        self
    }

    /// A face below the lowest of a full set of held dice cannot be held.
    fn first_useful_face(&self, _: ()) -> u8 {
        first_face_to_hold(self.held[usize::from(self.len) - 1])
    }

    fn free_step_mut(&mut self) -> &mut i8 {
        &mut self.free_step
    }

    /// A held die's step only matters while it could still be the effect
    /// die, i.e. while it is larger than the largest free die; otherwise it
    /// is set to 0 so that equivalent states merge. Such a die only moves
    /// ahead of equal faces whose steps are no larger, so no larger die
    /// changes sides.
    fn canonical(mut self) -> PlotRoll {
        if self.free_step >= 0 {
            for rank in &mut self.held[..usize::from(self.len)] {
                if *rank != 0 && total_rank_step(*rank) as i8 <= self.free_step {
                    *rank = total_rank(rank_face(*rank), 0);
                }
            }
        }
        self
    }

    fn pushed(mut self, _: (), step: u8, face: u8) -> PlotRoll {
        self.push(step, face);
        self.hitches = 0;
        self.canonical()
    }
}

/// One outcome of a roll with plot points: `(total, effect step, points
/// spent)`.
pub type Spent = (u32, u32, u32);

/// The exact distribution of (total, effect step, points spent) for `pool`
/// against `difficulty`: a dynamic programme over the dice, largest first,
/// whose state is a [`PlotRoll`] without its hitches (counted apart). Faces
/// below the lowest of a full set of held dice only free their die, so they
/// merge into one transition.
pub fn plot_point_outcomes<W: Weight>(
    pool: &Pool,
    rules: &Rules,
    plot_points: usize,
    difficulty: u32,
    budget: &mut Budget,
) -> Result<Vec<(Spent, W)>, ExactError> {
    let what = || format!("the pool {pool} with {plot_points} plot points");
    let keep = rules.keep;
    let mut states: FxHashMap<PlotRoll, W> = FxHashMap::default();
    states.insert(PlotRoll::new(keep, plot_points), W::ONE);
    // The whole programme counted before it runs (an upper bound of its
    // states), so a pool past the budget is refused before any work.
    if !budget.allows(predicted_nanos(pool, keep, plot_points)) {
        return Err(ExactError::TooLarge(what()));
    }
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        let next = add_die(&states, (), step, sides);
        // Charged once the die is in: its price depends on the map made.
        for (work, units) in die_work(states.len() as u64, next.len() as u64, u64::from(sides)) {
            budget.spend(work.cost(units), &what)?;
        }
        states = next;
    }
    let mut joint: FxHashMap<Spent, W> = FxHashMap::default();
    for (state, p) in states {
        let (roll, spent) = state.spend(keep, rules, difficulty);
        *joint
            .entry((roll.total, roll.effect_step, spent))
            .or_default() += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(outcomes)
}

impl CortexCase {
    /// Records one roll with plot points: the roll as spent, like any
    /// other, and the points spent.
    pub(super) fn record_spent<W: Copy + Default + std::ops::AddAssign>(
        &self,
        action: PoolRoll,
        spent: u32,
        weight: W,
        hists: &mut CortexHists<W>,
        with_hitches: bool,
    ) {
        self.record(action, None, weight, hists, with_hitches);
        hists.plot_points_spent.add(i64::from(spent), weight);
    }

    /// The exact histograms of a roll with plot points against `difficulty`
    /// into `hists` (whose hitches are already there).
    pub(super) fn exact_plot_points<W: Weight>(
        &self,
        plot_points: u32,
        difficulty: u32,
        hists: &mut CortexHists<W>,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let outcomes = plot_point_outcomes::<W>(
            &self.pool,
            &self.rules,
            plot_points as usize,
            difficulty,
            budget,
        )?;
        for ((total, effect_step, spent), p) in outcomes {
            let roll = PoolRoll {
                total,
                effect_step,
                hitches: 0,
            };
            self.record_spent(roll, spent, p, hists, false);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::systems::cortex::rules::Ties;

    fn roll(dice: &[Die], faces: &[u8], keep: usize, points: usize) -> PlotRoll {
        let mut roll = PlotRoll::new(keep, points);
        for (die, &face) in dice.iter().zip(faces) {
            roll.push(die.step() as u8, face);
        }
        roll
    }

    #[test]
    fn the_fewest_points_that_beat_the_difficulty_are_spent() {
        let dice = [Die::D10, Die::D8, Die::D6, Die::D6];
        let rules = Rules::default();
        // 7, 5, 4, 3 against 15: 12 fails, 16 beats it with one point; the
        // d6 showing 3 is left free.
        let (r, spent) = roll(&dice, &[7, 5, 4, 3], 2, 3).spend(2, &rules, 15);
        assert_eq!((r.total, r.effect_step, spent), (16, 1, 1));
        // Against 20 even every live die (19) fails: none spent, the total
        // is the plain 12 and the effect a d6 left out.
        let (r, spent) = roll(&dice, &[7, 5, 4, 3], 2, 3).spend(2, &rules, 20);
        assert_eq!((r.total, r.effect_step, spent), (12, 1, 0));
        // Against 19 with ties to the action, two points reach 19 with
        // every die; the third is never spent and no die is left: d4.
        let action = Rules {
            ties: Ties::Action,
            ..Rules::default()
        };
        let (r, spent) = roll(&dice, &[7, 5, 4, 3], 2, 3).spend(2, &action, 19);
        assert_eq!((r.total, r.effect_step, spent), (19, 0, 2));
    }

    #[test]
    fn hitches_cannot_be_added_and_run_out_the_points() {
        // d12 d8 d6 showing 9, 1, 1 against 10: one live die, nothing to add.
        let dice = [Die::D12, Die::D8, Die::D6];
        let (r, spent) = roll(&dice, &[9, 1, 1], 1, 2).spend(1, &Rules::default(), 10);
        assert_eq!((r.total, r.effect_step, r.hitches, spent), (9, 0, 2, 0));
    }

    #[test]
    fn hitches_past_sixteen_bits_are_counted() {
        // A pool may hold 100,000 dice; the count once saturated at 65,535.
        let dice = vec![Die::D4; 70_000];
        let faces = vec![1u8; 70_000];
        let (r, _) = roll(&dice, &faces, 2, 1).spend(2, &Rules::default(), 0);
        assert_eq!(r.hitches, 70_000);
    }

    #[test]
    fn with_no_points_it_scores_like_the_plain_scorer() {
        let dice = [Die::D12, Die::D8, Die::D6];
        for faces in [[5, 5, 5], [2, 8, 7], [1, 3, 3]] {
            let (r, spent) = roll(&dice, &faces, 2, 0).spend(2, &Rules::default(), 0);
            assert_eq!(r, super::super::score::score(&dice, &faces, 2));
            assert_eq!(spent, 0);
        }
    }
}
