//! The exact Cortex engine (SPEC 2): the joint (total, effect, hitches)
//! distribution of one pool by a dynamic programme over the dice whose state
//! is what the [`Scorer`] holds, the hitch count by a Poisson-binomial
//! convolution, and a case's exact outcome histograms from those (or from
//! [`choice_outcomes`] under `max-effect`). A brute-force enumeration of
//! every face, scored die by die, is the cross-check the tests hold it to.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHashMap;

use crate::dice::{Die, Pool};
use crate::distribution::Hist;
use crate::engine::exact::{Budget, ExactError};

use super::max_effect::{choice_outcomes, score_choice};
use super::plot_points::PlotRoll;
use super::rules::{rank_face, total_rank, total_rank_step, Opposition, Policy, Rank, MAX_KEEP};
use super::score::{score, PoolRoll, Scorer};
use super::{CortexCase, CortexHists};

/// The joint distribution of (total, effect step, hitches) for one pool.
/// Hitches are counted up to `hitch_cap` (the last level means "cap or
/// more"); with a cap of 0 they are not tracked at all.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolOutcomes {
    /// `(total, effect_step, hitches)` with its probability, sorted.
    pub outcomes: Vec<((u32, u32, u32), f64)>,
}

/// A DP state: a [`Scorer`]'s total dice (best first) and largest free step
/// (-1 none), with the hitch count capped.
#[derive(Clone, Copy, PartialEq, Eq)]
struct DpState {
    held: [Rank; MAX_KEEP],
    free_step: i8,
    hitches: u16,
}

/// Hashes the fields this state had before it held ranks (faces, steps,
/// live count, free step, hitches). The programme sums probabilities in the
/// order its hash map iterates, which follows the hashes, so the same bytes
/// keep every probability the same to the last bit.
impl Hash for DpState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let step = |r: Rank| if r == 0 { 0 } else { total_rank_step(r) };
        self.held.map(rank_face).hash(state);
        self.held.map(step).hash(state);
        (self.held.iter().filter(|&&r| r != 0).count() as u8).hash(state);
        self.free_step.hash(state);
        self.hitches.hash(state);
    }
}

impl DpState {
    /// A held die's step only matters if it could still become the effect
    /// die, i.e. if it is larger than the largest free die; otherwise it is
    /// set to 0 so that equivalent states merge.
    fn canonical(mut self) -> DpState {
        if self.free_step >= 0 {
            for rank in &mut self.held {
                if *rank != 0 && total_rank_step(*rank) as i8 <= self.free_step {
                    *rank = total_rank(rank_face(*rank), 0);
                }
            }
        }
        self
    }

    fn scorer(&self, keep: usize) -> Scorer {
        Scorer {
            keep,
            held: self.held,
            free_step: self.free_step,
            hitches: u32::from(self.hitches),
        }
    }

    fn from_scorer(scorer: &Scorer, hitch_cap: u32) -> DpState {
        DpState {
            held: scorer.held,
            free_step: scorer.free_step,
            hitches: scorer.hitches.min(hitch_cap) as u16,
        }
        .canonical()
    }
}

/// Exact (total, effect, hitches) distribution of `pool` summing `keep` dice:
/// a dynamic programme over the dice, largest first, whose state is what the
/// [`Scorer`] holds. Faces that cannot enter a full total are merged into
/// one transition, so the work is about states x (distinct useful faces).
pub fn pool_outcomes(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
) -> Result<PoolOutcomes, ExactError> {
    let what = || format!("the pool {pool}");
    let start = DpState {
        held: [0; MAX_KEEP],
        free_step: -1,
        hitches: 0,
    };
    let mut states: FxHashMap<DpState, f64> = FxHashMap::default();
    states.insert(start, 1.0);
    let mut sides_left: u64 = pool.dice().iter().map(|d| u64::from(d.sides())).sum();
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        // The state count rarely shrinks, so if even today's count times
        // the faces still to come will not fit, refuse now rather than
        // after a second of work.
        if !budget.allows(states.len() as u64 * sides_left) {
            return Err(ExactError::TooLarge(what()));
        }
        sides_left -= u64::from(sides);
        budget.spend(states.len() as u64 * u64::from(sides), &what)?;
        let p_face = 1.0 / f64::from(sides);
        let mut next: FxHashMap<DpState, f64> =
            FxHashMap::with_capacity_and_hasher(states.len() * 2, Default::default());
        for (state, &p) in &states {
            // A 1: a hitch.
            let mut hitched = *state;
            hitched.hitches = (u32::from(hitched.hitches) + 1).min(hitch_cap) as u16;
            *next.entry(hitched).or_insert(0.0) += p * p_face;
            // Faces below a full total's lowest value: the die is simply free.
            let first_useful = if state.held[keep - 1] != 0 {
                rank_face(state.held[keep - 1]).max(2)
            } else {
                2
            };
            let below = first_useful.min(sides + 1) - 2;
            if below > 0 {
                let mut freed = *state;
                freed.free_step = freed.free_step.max(step as i8);
                *next.entry(freed.canonical()).or_insert(0.0) += p * p_face * f64::from(below);
            }
            for face in first_useful..=sides {
                let mut scorer = state.scorer(keep);
                scorer.push(step, face);
                *next
                    .entry(DpState::from_scorer(&scorer, hitch_cap))
                    .or_insert(0.0) += p * p_face;
            }
        }
        states = next;
    }
    let mut joint: FxHashMap<(u32, u32, u32), f64> = FxHashMap::default();
    for (state, p) in states {
        let roll = state.scorer(keep).finish();
        *joint
            .entry((roll.total, roll.effect_step, roll.hitches))
            .or_insert(0.0) += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(PoolOutcomes { outcomes })
}

/// Distribution of the number of hitches: each die is a 1 with chance 1/S,
/// independently (a Poisson-binomial convolution).
pub fn hitch_distribution(pool: &Pool) -> Hist<f64> {
    let mut probs = vec![1.0];
    for die in pool.dice() {
        let q = 1.0 / f64::from(die.sides());
        let mut next = vec![0.0; probs.len() + 1];
        for (h, &p) in probs.iter().enumerate() {
            next[h] += p * (1.0 - q);
            next[h + 1] += p * q;
        }
        probs = next;
    }
    let mut hist = Hist::with_range(0, pool.len() as i64);
    for (h, p) in probs.into_iter().enumerate() {
        hist.add(h as i64, p);
    }
    hist
}

impl CortexCase {
    /// The exact outcome histograms, through the dynamic programme.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<CortexHists<f64>, ExactError> {
        // The hitch convolution is quadratic in the number of dice; it is
        // budgeted too, or `100000d4` would pass the DP's check and then
        // spend seconds here.
        let n = self.pool.len() as u64;
        budget.spend(n * (n + 1) / 2, &|| format!("the pool {}", self.pool))?;
        let mut hists = CortexHists {
            hitches: hitch_distribution(&self.pool),
            ..CortexHists::default()
        };
        if let (Some(points), Opposition::Difficulty(d)) =
            (self.rules.plot_points, &self.opposition)
        {
            self.exact_plot_points(points, *d, &mut hists, budget)?;
            return Ok(hists);
        }
        if let (Policy::MaxEffect, Opposition::Difficulty(d)) =
            (self.rules.policy, &self.opposition)
        {
            for ((total, effect_step), p) in
                choice_outcomes(&self.pool, &self.rules, Some(*d), budget)?
            {
                let roll = PoolRoll {
                    total,
                    effect_step,
                    hitches: 0,
                };
                self.record(roll, None, p, &mut hists, false);
            }
            return Ok(hists);
        }
        let action = pool_outcomes(&self.pool, self.rules.keep, 0, budget)?;
        match &self.opposition {
            Opposition::Pool(vs) => {
                let reaction = pool_outcomes(vs, self.rules.reaction_keep, 0, budget)?;
                budget.spend(
                    (action.outcomes.len() * reaction.outcomes.len()) as u64,
                    &|| format!("{} against {vs}", self.pool),
                )?;
                for &((total, effect, _), p) in &action.outcomes {
                    let a = PoolRoll {
                        total,
                        effect_step: effect,
                        hitches: 0,
                    };
                    for &((r_total, r_effect, _), q) in &reaction.outcomes {
                        let r = PoolRoll {
                            total: r_total,
                            effect_step: r_effect,
                            hitches: 0,
                        };
                        self.record(a, Some(r), p * q, &mut hists, false);
                    }
                }
                // P(no hitch) is a product; the whole distribution is not needed.
                let no_hitch: f64 = vs
                    .dice()
                    .iter()
                    .map(|d| 1.0 - 1.0 / f64::from(d.sides()))
                    .product();
                hists.reaction_hitch = 1.0 - no_hitch;
            }
            _ => {
                for &((total, effect, _), p) in &action.outcomes {
                    let a = PoolRoll {
                        total,
                        effect_step: effect,
                        hitches: 0,
                    };
                    self.record(a, None, p, &mut hists, false);
                }
            }
        }
        Ok(hists)
    }

    /// Every face combination, scored one by one: the slow, obviously
    /// correct cross-check for [`CortexCase::exact_hists`]. Only for small pools.
    pub fn brute_force_hists(&self) -> CortexHists<f64> {
        let reaction_dice: Vec<Die> = match &self.opposition {
            Opposition::Pool(vs) => vs.dice().to_vec(),
            _ => Vec::new(),
        };
        let action_dice = self.pool.dice().to_vec();
        let all: Vec<Die> = action_dice.iter().chain(&reaction_dice).copied().collect();
        let combos: f64 = all.iter().map(|d| f64::from(d.sides())).product();
        let weight = 1.0 / combos;
        let mut faces = vec![1u8; all.len()];
        let mut hists = CortexHists::default();
        loop {
            let (a_faces, r_faces) = faces.split_at(action_dice.len());
            if let (Some(points), Opposition::Difficulty(d)) =
                (self.rules.plot_points, &self.opposition)
            {
                let mut roll = PlotRoll::new(self.rules.keep, points as usize);
                for (die, &face) in action_dice.iter().zip(a_faces) {
                    roll.push(die.step() as u8, face);
                }
                let (action, spent) = roll.spend(self.rules.keep, &self.rules, *d);
                self.record_spent(action, spent, weight, &mut hists, true);
            } else {
                let action = match (self.rules.policy, &self.opposition) {
                    (Policy::MaxEffect, Opposition::Difficulty(d)) => score_choice(
                        &action_dice,
                        a_faces,
                        self.rules.keep,
                        &self.rules,
                        Some(*d),
                    ),
                    _ => score(&action_dice, a_faces, self.rules.keep),
                };
                let reaction = (!reaction_dice.is_empty())
                    .then(|| score(&reaction_dice, r_faces, self.rules.reaction_keep));
                self.record(action, reaction, weight, &mut hists, true);
            }
            // Odometer over every face of every die.
            let mut i = 0;
            loop {
                if i == all.len() {
                    return hists;
                }
                if u32::from(faces[i]) < all[i].sides() {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cortex::rules::Rules;

    #[test]
    fn dp_matches_brute_force_on_a_small_pool() {
        let case = CortexCase {
            pool: Pool::parse_cortex("d10 d8 d6").unwrap(),
            opposition: Opposition::Pool(Pool::parse_cortex("d8 d6").unwrap()),
            rules: Rules {
                effect_step_down: true,
                ..Rules::default()
            },
        };
        let exact = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let brute = case.brute_force_hists();
        for (a, b) in case.metrics(&exact).iter().zip(case.metrics(&brute)) {
            assert!(
                (a.value.unwrap() - b.value.unwrap()).abs() < 1e-12,
                "{}",
                a.name
            );
        }
    }
}
