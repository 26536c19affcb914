//! The `max-effect` policy (docs/cortex.md): against a known number to beat, the
//! roller picks the total dice that still succeed and leave the largest
//! final effect. [`Choice`] is what a roll must remember for that choice;
//! [`choice_outcomes`] is the exact programme over it, the Monte Carlo
//! sampler and the brute-force enumeration push dice into it one by one.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHashMap;

use crate::dice::{Die, Pool};
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};
use crate::options::Choice as _;

use super::programme_step::{add_die, ProgrammeState};
use super::rules::{
    candidate_rank, candidate_rank_step, held_total, keep_top, rank_face, Policy, Rank, Rules,
    MAX_KEEP,
};
use super::score::PoolRoll;
use super::weight::Weight;

/// Slots a [`Choice`] keeps: one more than the largest total.
const CHOICE_SLOTS: usize = MAX_KEEP + 1;

/// What a roll must remember for the roller to choose the total dice with a
/// known number to beat (`policy = "max-effect"`, docs/cortex.md): the `keep + 1`
/// highest live values with their dice's steps, and the largest step among
/// the other live dice.
///
/// Why that is enough: whatever the choice, some live die `e` is left free,
/// and the best total with `e` free is the `keep` highest of the other live
/// dice. Leaving free the lowest die of a size costs the least, and removing
/// one die from the live values changes the top `keep` only if the die is
/// among the top `keep + 1`, when the total becomes their sum minus its
/// value. So the best choice is one of `keep + 1` candidates: drop entry i
/// of the top `keep + 1` from the total and leave it free, its effect being
/// at least the larger of its step and the steps left outside. Each
/// candidate's (final effect, total) is what a real choice achieves or
/// beats, and the best real choice is matched by one of them, so the best
/// candidate is the roller's choice. The same memory gives the `max-total`
/// choice (see [`Choice::resolve`]), which the tests hold against
/// [`super::score::Scorer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The top live dice as [`candidate_rank`]s, best first; 0 for an empty
    /// slot. A step of 0 where it cannot matter (see `canonical`).
    held: [Rank; CHOICE_SLOTS],
    /// Largest step among live dice outside `held`, -1 for none.
    free_step: i8,
    hitches: u16,
}

/// Hashes the fields this state had before it held ranks (faces, steps,
/// live count, free step, hitches). The exact programme sums probabilities
/// in the order its hash map iterates, which follows the hashes, so the
/// same bytes keep every probability the same to the last bit.
impl Hash for Choice {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.held.map(rank_face).hash(state);
        self.held.map(candidate_rank_step).hash(state);
        (self.len() as u8).hash(state);
        self.free_step.hash(state);
        self.hitches.hash(state);
    }
}

impl Choice {
    pub fn new() -> Choice {
        Choice {
            held: [0; CHOICE_SLOTS],
            free_step: -1,
            hitches: 0,
        }
    }

    /// How many live dice are held.
    fn len(&self) -> usize {
        self.held.iter().filter(|&&r| r != 0).count()
    }

    fn face(&self, i: usize) -> u8 {
        rank_face(self.held[i])
    }

    fn step(&self, i: usize) -> u8 {
        candidate_rank_step(self.held[i])
    }

    /// Adds one die of `step` showing `face` (dice may come in any order).
    /// `count_hitches` is false in the exact programme, which takes hitches
    /// from [`super::exact::hitch_distribution`] instead so that states merge.
    #[inline]
    pub fn push(&mut self, keep: usize, step: u8, face: u8, count_hitches: bool) {
        if face == 1 {
            if count_hitches {
                self.hitches += 1;
            }
            return;
        }
        let dropped = keep_top(&mut self.held[..=keep], candidate_rank(face, step));
        if dropped != 0 {
            self.free_step = self.free_step.max(candidate_rank_step(dropped) as i8);
        }
    }

    /// The roll as scored by `rules.policy`; `difficulty` is the number to
    /// beat (only `max-effect` looks at it). When no choice succeeds the
    /// roll fails as with `max-total` (docs/cortex.md).
    pub fn resolve(&self, keep: usize, rules: &Rules, difficulty: Option<u32>) -> PoolRoll {
        let hitches = u32::from(self.hitches);
        if self.len() <= keep {
            // Every live die is in the total; no die is free: effect d4.
            return PoolRoll {
                total: held_total(&self.held),
                effect_step: 0,
                hitches,
            };
        }
        let all = held_total(&self.held[..=keep]);
        let effect_of = |i: usize| (self.step(i) as i8).max(self.free_step).max(0) as u32;
        if let (Policy::MaxEffect, Some(d)) = (rules.policy, difficulty) {
            let mut best: Option<(u32, u32, u32)> = None;
            for i in 0..=keep {
                let total = all - u32::from(self.face(i));
                let margin = i64::from(total) - i64::from(d);
                if !rules.succeeds(margin) {
                    continue;
                }
                let effect = effect_of(i);
                let last = rules.final_effect_step(effect, None, margin);
                if best.is_none_or(|(f, t, _)| (last, total) > (f, t)) {
                    best = Some((last, total, effect));
                }
            }
            if let Some((_, total, effect_step)) = best {
                return PoolRoll {
                    total,
                    effect_step,
                    hitches,
                };
            }
        }
        // max-total: the `keep` highest values; of the dice that can be
        // left free without lowering that total (those showing the lowest
        // of the top `keep + 1` values), the largest is the effect.
        let low = self.face(keep);
        let effect_step = (0..=keep)
            .filter(|&i| self.face(i) == low)
            .map(effect_of)
            .max()
            .unwrap_or(0);
        PoolRoll {
            total: all - u32::from(low),
            effect_step,
            hitches,
        }
    }
}

/// The `max-effect` programme's state: hitches come from
/// [`super::exact::hitch_distribution`] instead, so a 1 changes nothing.
impl ProgrammeState for Choice {
    /// The total's size, `keep`.
    type Setting = usize;

    fn hitched(self, _keep: usize) -> Choice {
        self
    }

    /// Once `keep + 1` dice are held, a face must beat the lowest of them
    /// to enter.
    fn first_useful_face(&self, keep: usize) -> u8 {
        if self.len() == keep + 1 {
            self.face(keep) + 1
        } else {
            2
        }
    }

    fn free_step_mut(&mut self) -> &mut i8 {
        &mut self.free_step
    }

    /// A held die whose step is not above the largest outside step adds
    /// nothing: every candidate leaves the outside dice free too. Zeroing it
    /// lets equivalent states merge in the exact programme.
    fn canonical(mut self) -> Choice {
        if self.free_step >= 0 {
            for rank in &mut self.held {
                if *rank != 0 && candidate_rank_step(*rank) as i8 <= self.free_step {
                    *rank = candidate_rank(rank_face(*rank), 0);
                }
            }
        }
        self
    }

    fn pushed(mut self, keep: usize, step: u8, face: u8) -> Choice {
        self.push(keep, step, face, false);
        self.canonical()
    }
}

impl Default for Choice {
    fn default() -> Self {
        Choice::new()
    }
}

/// Scores a whole roll with a [`Choice`]: `dice` in any order, `faces` the
/// values shown.
pub fn score_choice(
    dice: &[Die],
    faces: &[u8],
    keep: usize,
    rules: &Rules,
    difficulty: Option<u32>,
) -> PoolRoll {
    let mut choice = Choice::new();
    for (die, &face) in dice.iter().zip(faces) {
        choice.push(keep, die.step() as u8, face, true);
    }
    choice.resolve(keep, rules, difficulty)
}

/// `(total, effect step)` outcomes with their weights (counts of face
/// combinations, or probabilities past the exact limit).
pub type TotalEffect<W> = Vec<((u32, u32), W)>;

/// Exact (total, effect step) distribution of `pool` scored with `rules`
/// against `difficulty`: a dynamic programme over the dice whose state is a
/// [`Choice`]. Faces that cannot enter the top `keep + 1` merge into one
/// transition, as in [`super::exact::pool_outcomes`].
pub fn choice_outcomes<W: Weight>(
    pool: &Pool,
    rules: &Rules,
    difficulty: Option<u32>,
    budget: &mut Budget,
) -> Result<TotalEffect<W>, ExactError> {
    let keep = rules.keep;
    let what = || format!("the pool {pool} with policy \"{}\"", rules.policy.name());
    let mut states: FxHashMap<Choice, W> = FxHashMap::default();
    states.insert(Choice::new(), W::ONE);
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        budget.spend(
            Work::ProgrammeUpdate.cost(states.len() as u64 * u64::from(sides)),
            &what,
        )?;
        states = add_die(&states, keep, step, sides);
    }
    let mut joint: FxHashMap<(u32, u32), W> = FxHashMap::default();
    for (state, p) in states {
        let roll = state.resolve(keep, rules, difficulty);
        *joint.entry((roll.total, roll.effect_step)).or_default() += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cortex::rules::Ties;
    use crate::systems::cortex::score::score;
    use crate::systems::cortex::{CortexCase, Opposition};

    fn dice(text: &str) -> Vec<Die> {
        Pool::parse_cortex(text).unwrap().dice().to_vec()
    }

    /// Every face combination of `dice`, in odometer order.
    fn every_roll(dice: &[Die], mut f: impl FnMut(&[u8])) {
        let mut faces = vec![1u8; dice.len()];
        loop {
            f(&faces);
            let mut i = 0;
            loop {
                if i == dice.len() {
                    return;
                }
                if u32::from(faces[i]) < dice[i].sides() {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }

    /// The max-effect choice by trying every set of `keep` live dice: slow,
    /// and plainly what docs/cortex.md says.
    fn max_effect_by_subsets(
        dice: &[Die],
        faces: &[u8],
        rules: &Rules,
        difficulty: u32,
    ) -> PoolRoll {
        let keep = rules.keep;
        let live: Vec<usize> = (0..dice.len()).filter(|&i| faces[i] != 1).collect();
        let hitches = (dice.len() - live.len()) as u32;
        if live.len() <= keep {
            return score(dice, faces, keep);
        }
        let mut best: Option<(u32, u32, u32)> = None;
        for mask in 0u32..(1 << live.len()) {
            if mask.count_ones() as usize != keep {
                continue;
            }
            let mut total = 0;
            let mut free: Option<u32> = None;
            for (bit, &i) in live.iter().enumerate() {
                if mask & (1 << bit) != 0 {
                    total += u32::from(faces[i]);
                } else {
                    free = free.max(Some(dice[i].step()));
                }
            }
            let effect = free.unwrap_or(0);
            let margin = i64::from(total) - i64::from(difficulty);
            if rules.succeeds(margin) {
                let last = rules.final_effect_step(effect, None, margin);
                if best.is_none_or(|(f, t, _)| (last, total) > (f, t)) {
                    best = Some((last, total, effect));
                }
            }
        }
        match best {
            Some((_, total, effect_step)) => PoolRoll {
                total,
                effect_step,
                hitches,
            },
            None => score(dice, faces, keep),
        }
    }

    #[test]
    fn choice_scores_max_total_like_the_scorer() {
        for (text, keep) in [
            ("d12 d10 d8 d6", 2),
            ("d8 2d6 d4", 1),
            ("d10 2d8 d6", 3),
            ("2d6", 2),
        ] {
            let dice = dice(text);
            let rules = Rules {
                keep,
                ..Rules::default()
            };
            every_roll(&dice, |faces| {
                assert_eq!(
                    score_choice(&dice, faces, keep, &rules, None),
                    score(&dice, faces, keep),
                    "{text} keep {keep} faces {faces:?}"
                );
            });
        }
    }

    #[test]
    fn max_effect_is_the_best_choice_and_never_worse_than_max_total() {
        // docs/cortex.md: the same faces, the same success, a final effect step at
        // least as large; checked against trying every set of total dice.
        let mut improved = 0;
        for (text, keep) in [
            ("d12 d10 d8 d6", 2),
            ("d10 2d8 d6", 2),
            ("d12 d8 2d6", 3),
            ("d8 d6 d4", 1),
        ] {
            let dice = dice(text);
            for ties in [Ties::Reaction, Ties::Action] {
                for heroic_step in [1, 2, 5] {
                    let rules = Rules {
                        keep,
                        ties,
                        heroic_step,
                        policy: Policy::MaxEffect,
                        ..Rules::default()
                    };
                    let plain = Rules {
                        policy: Policy::MaxTotal,
                        ..rules
                    };
                    for difficulty in [0, 3, 7, 11, 15, 19] {
                        every_roll(&dice, |faces| {
                            let chosen = score_choice(&dice, faces, keep, &rules, Some(difficulty));
                            assert_eq!(
                                chosen,
                                max_effect_by_subsets(&dice, faces, &rules, difficulty),
                                "{text} {faces:?} vs {difficulty}"
                            );
                            let greedy = score(&dice, faces, keep);
                            let margin = |r: PoolRoll| i64::from(r.total) - i64::from(difficulty);
                            let won = rules.succeeds(margin(chosen));
                            assert_eq!(won, plain.succeeds(margin(greedy)));
                            if won {
                                let a = rules.final_effect_step(
                                    chosen.effect_step,
                                    None,
                                    margin(chosen),
                                );
                                let b = plain.final_effect_step(
                                    greedy.effect_step,
                                    None,
                                    margin(greedy),
                                );
                                assert!(a >= b, "{text} {faces:?} vs {difficulty}");
                                improved += usize::from(a > b);
                            } else {
                                assert_eq!(chosen, greedy);
                            }
                        });
                    }
                }
            }
        }
        // The policy does something.
        assert!(improved > 0);
    }

    #[test]
    fn max_effect_hand_checked_roll() {
        // d10 d8 d6 showing 6, 6, 2 against 7 (heroic_step 5). max-total sums
        // the two 6s (12, margin 5) with the d6 free: d6 + 1 step = step 2.
        // The choices: d10 + d8 = 12, d6 free: step 2; d10 + d6 = 8, d8 free:
        // step 2; d8 + d6 = 8, d10 free: step 3. max-effect takes the last.
        let dice = dice("d10 d8 d6");
        let rules = Rules {
            policy: Policy::MaxEffect,
            ..Rules::default()
        };
        let greedy = score(&dice, &[6, 6, 2], 2);
        assert_eq!((greedy.total, greedy.effect_step), (12, 1));
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &rules, Some(7));
        assert_eq!((chosen.total, chosen.effect_step), (8, 3));
        // Against 8 (ties to the reaction) only 6 + 6 succeeds: max-total's choice.
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &rules, Some(8));
        assert_eq!((chosen.total, chosen.effect_step), (12, 1));
        // With equal totals winning, 8 against 8 succeeds with the d10 free
        // (step 3), better than 12 with the d6 free and no heroic step.
        let action_ties = Rules {
            ties: Ties::Action,
            ..rules
        };
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &action_ties, Some(8));
        assert_eq!((chosen.total, chosen.effect_step), (8, 3));
    }

    #[test]
    fn max_effect_dp_matches_brute_force() {
        for (text, difficulty, ties) in [
            ("d10 d8 d6 d6", 9, Ties::Reaction),
            ("d12 d8 d4", 6, Ties::Action),
            ("d6 d4", 3, Ties::Reaction),
        ] {
            let case = CortexCase {
                pool: Pool::parse_cortex(text).unwrap(),
                opposition: Opposition::Difficulty(difficulty),
                rules: Rules {
                    policy: Policy::MaxEffect,
                    ties,
                    heroic_step: 2,
                    ..Rules::default()
                },
            };
            let exact = case.exact_hists(&mut Budget::unlimited()).unwrap();
            let brute = case.brute_force_hists();
            // Counts of face combinations: equal to the last one.
            assert_eq!(case.metrics(&exact), case.metrics(&brute), "{text}");
        }
    }

    #[test]
    fn max_effect_keeps_p_success_and_raises_the_mean_effect() {
        let pool = Pool::parse_cortex("d12 d10 d8 d6").unwrap();
        let case = |policy| CortexCase {
            pool: pool.clone(),
            opposition: Opposition::Difficulty(11),
            rules: Rules {
                policy,
                ..Rules::default()
            },
        };
        let get = |policy, name: &str| {
            let c = case(policy);
            let h = c.exact_hists(&mut Budget::unlimited()).unwrap();
            crate::distribution::metric(&c.metrics(&h), name)
                .unwrap()
                .value
                .unwrap()
        };
        let (a, b) = (
            get(Policy::MaxTotal, "p_success"),
            get(Policy::MaxEffect, "p_success"),
        );
        assert_eq!(a, b);
        assert!(
            get(Policy::MaxEffect, "mean_effect_step") > get(Policy::MaxTotal, "mean_effect_step")
        );
    }
}
