//! The Cortex Monte Carlo sampler (docs/cortex.md): each trial rolls the action
//! pool (and the reacting pool) die by die through the scorer's rule, or the
//! max-effect [`Choice`] or plot points against a difficulty, and counts
//! the outcome in a flat [`PackedTally`], recorded like every other method
//! does ([`CortexCase::record`]) once after the loop.
//!
//! `max-total` rolls (plain, opposed, against a difficulty), the common and
//! the hot case, go in batches of [`LANES`] trials: every die of the batch
//! is drawn first, in the order trial after trial would draw them, then each
//! pool's rolls are scored side by side ([`score_lanes`]) on vector
//! registers. Drawing stays the generator's bare loop (the benches' floor)
//! and scoring costs a few instructions a trial instead of most of its time.
//! When both pools are small (their sides multiply to a few thousand),
//! their rolls are not scored at all but looked up ([`codes`]), and a
//! trial is counted as one increment.

mod codes;

use crate::dice::Pool;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, DiceRng, DieRoller};

use super::max_effect::Choice;
use super::plot_points::PlotRoll;
use super::rules::{Opposition, Policy};
use super::score::{score_lanes, score_stream, LaneRolls, PoolRoll, LANES, MAX_LANE_DICE};
use super::tally::{Layout, PackedTally};
use super::{CortexCase, CortexHists};
use codes::Codes;

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

/// Scores [`LANES`] rolls of a pool as [`score_lanes`] does, each `keep`
/// with a loop of its own.
pub(crate) fn roll_lanes(dice: &[(u8, u8)], keep: usize, faces: &[[u8; LANES]]) -> LaneRolls {
    match keep {
        1 => score_lanes::<1>(dice, faces),
        2 => score_lanes::<2>(dice, faces),
        3 => score_lanes::<3>(dice, faces),
        4 => score_lanes::<4>(dice, faces),
        _ => score_lanes::<5>(dice, faces),
    }
}

/// How a block's trials go.
enum Path {
    /// One trial after another ([`CortexSampler::trial`]).
    Trials,
    /// In batches of [`LANES`], each pool's rolls scored side by side
    /// ([`score_lanes`]): `max-total` without plot points, on pools of at
    /// most [`MAX_LANE_DICE`] dice.
    Lanes,
    /// In batches of [`LANES`], the rolls looked up: as [`Path::Lanes`], on
    /// pools small enough for [`Codes`].
    Coded(Codes),
}

/// The Monte Carlo trial of a cortex case.
struct CortexSampler<'a> {
    case: &'a CortexCase,
    action: Vec<(u8, u8)>,
    reaction: Vec<(u8, u8)>,
    layout: Layout,
    path: Path,
}

impl CortexSampler<'_> {
    /// A block's trials in batches of [`LANES`]: every die of every trial
    /// drawn first, in the order one trial after another would draw them
    /// (the action pool, then the reacting pool), then scored side by side
    /// or looked up.
    #[inline(always)]
    fn batches(&self, rng: &mut DiceRng, trials: u64, tally: &mut PackedTally) {
        let rules = &self.case.rules;
        let split = self.action.len();
        if let Path::Coded(codes) = &self.path {
            let mut cells = codes.cells();
            self.draw_batches(rng, trials, |faces, count| {
                let (action_faces, reaction_faces) = faces.split_at(split);
                codes.count(action_faces, reaction_faces, count, &mut cells);
            });
            codes.record(&cells, tally);
            return;
        }
        let reacting = matches!(self.case.opposition, Opposition::Pool(_));
        self.draw_batches(rng, trials, |faces, count| {
            let (action_faces, reaction_faces) = faces.split_at(split);
            let actions = roll_lanes(&self.action, rules.keep, action_faces);
            if reacting {
                let reactions = roll_lanes(&self.reaction, rules.reaction_keep, reaction_faces);
                tally.add_contest_lanes(&actions, &reactions, count);
            } else {
                tally.add_roll_lanes(&actions, count);
            }
        });
    }

    /// Draws a block's batches, each handed to `counted` with how many of
    /// its lanes are trials (all but in the last): `faces[die]` holds that
    /// die's face in every lane. Generic, so that each way of counting gets
    /// the drawing loop inlined with it, the die roller in registers.
    #[inline(always)]
    fn draw_batches(
        &self,
        rng: &mut DiceRng,
        trials: u64,
        mut counted: impl FnMut(&[[u8; LANES]], usize),
    ) {
        let dice: Vec<(u8, u8)> = self.action.iter().chain(&self.reaction).copied().collect();
        let mut faces = vec![[0u8; LANES]; dice.len()];
        let mut roller = DieRoller::new(rng);
        let mut left = trials;
        while left > 0 {
            let count = left.min(LANES as u64) as usize;
            for lane in 0..count {
                for (faces, &(_, sides)) in faces.iter_mut().zip(&dice) {
                    faces[lane] = roller.roll(u32::from(sides)) as u8;
                }
            }
            counted(&faces, count);
            left -= count as u64;
        }
    }
}

impl Sampler for CortexSampler<'_> {
    type Tally = PackedTally;

    fn new_tally(&self) -> Self::Tally {
        PackedTally::new(self.layout)
    }

    #[inline(always)]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let case = self.case;
        let rules = &case.rules;
        let mut roller = DieRoller::new(rng);
        let (action, spent) = match (rules.policy, rules.plot_points, &case.opposition) {
            (_, Some(points), Opposition::Difficulty(d)) => {
                let mut roll = PlotRoll::new(rules.keep, points as usize);
                for &(step, sides) in &self.action {
                    roll.push(step, roller.roll(u32::from(sides)) as u8);
                }
                roll.spend(rules.keep, rules, *d)
            }
            (Policy::MaxEffect, _, Opposition::Difficulty(d)) => {
                let mut choice = Choice::new();
                for &(step, sides) in &self.action {
                    choice.push(rules.keep, step, roller.roll(u32::from(sides)) as u8, true);
                }
                (choice.resolve(rules.keep, rules, Some(*d)), 0)
            }
            _ => (roll_pool(&self.action, rules.keep, &mut roller), 0),
        };
        tally.add_roll(action, spent);
        if let Opposition::Pool(_) = case.opposition {
            let reaction = roll_pool(&self.reaction, rules.reaction_keep, &mut roller);
            if let Some(contest) = case.contest(action, Some(reaction), true) {
                tally.add_contest(&contest);
            }
        }
    }

    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        if !matches!(self.path, Path::Trials) {
            rng::with_local(rng, |rng| self.batches(rng, trials, tally));
        } else {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

impl CortexCase {
    fn sampler(&self) -> CortexSampler<'_> {
        let reaction = match &self.opposition {
            Opposition::Pool(vs) => dice_table(vs),
            _ => Vec::new(),
        };
        let action = dice_table(&self.pool);
        let batched = self.rules.policy == Policy::MaxTotal
            && self.rules.plot_points.is_none()
            && action.len().max(reaction.len()) <= MAX_LANE_DICE;
        let path = if batched {
            let reacting = match &self.opposition {
                Opposition::Pool(vs) => Some((vs.dice(), self.rules.reaction_keep)),
                _ => None,
            };
            match Codes::new(self.pool.dice(), self.rules.keep, reacting) {
                Some(codes) => Path::Coded(codes),
                None => Path::Lanes,
            }
        } else {
            Path::Trials
        };
        CortexSampler {
            case: self,
            layout: Layout::new(self, action.len()),
            action,
            reaction,
            path,
        }
    }

    /// Monte Carlo outcome counts, out of the trials.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<CortexHists<u128>, Interrupted> {
        let tally = monte_carlo::run(&self.sampler(), settings)?;
        Ok(tally.to_hists(self, settings.trials))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::Hist;
    use crate::engine::rng::block_rng;
    use crate::systems::cortex::{score, Rules, Ties};

    fn case(pool: &str, opposition: Opposition, rules: Rules) -> CortexCase {
        CortexCase {
            pool: Pool::parse_cortex(pool).unwrap(),
            opposition,
            rules,
        }
    }

    /// The batches give the very histograms of the same dice drawn one
    /// trial after another from the same stream, each roll scored by
    /// [`score`] and recorded by [`CortexCase::record`]: batching, the side
    /// by side scoring, the looked-up codes, the packed tally and its
    /// unpacking change nothing. Each case both ways when its pools are
    /// small enough for codes, and side by side only when they are not.
    #[test]
    fn batches_count_what_one_trial_at_a_time_counts() {
        let keep_three = Rules {
            keep: 3,
            reaction_keep: 1,
            ties: Ties::Action,
            effect_step_down: true,
            ..Rules::default()
        };
        let cases = [
            case(
                "d10 2d8 d6",
                Opposition::Pool(Pool::parse_cortex("2d6").unwrap()),
                Rules::default(),
            ),
            case(
                "d12 d10 2d4",
                Opposition::Pool(Pool::parse_cortex("3d8 d12").unwrap()),
                keep_three,
            ),
            case("d8 2d6", Opposition::Difficulty(9), Rules::default()),
            case("3d12 2d4", Opposition::None, keep_three),
            case(
                "d4",
                Opposition::Pool(Pool::parse_cortex("d12 d4").unwrap()),
                Rules::default(),
            ),
            // Too many rolls for a table: side by side.
            case(
                "12d8",
                Opposition::Pool(Pool::parse_cortex("2d6").unwrap()),
                Rules::default(),
            ),
            case("d12 d10 4d8", Opposition::Difficulty(14), keep_three),
            case("3d4 d12 d6", Opposition::None, keep_three),
        ];
        let coded = |case: &CortexCase| matches!(case.sampler().path, Path::Coded(_));
        assert_eq!(
            cases.iter().map(coded).collect::<Vec<_>>(),
            [true, true, true, false, true, false, false, true]
        );
        // Not a whole number of batches: the last one is partly filled.
        let trials = 3 * LANES as u64 + 7;
        let paths = cases.iter().flat_map(|case| {
            let lanes = CortexSampler {
                path: Path::Lanes,
                ..case.sampler()
            };
            [Some(case.sampler()).filter(|_| coded(case)), Some(lanes)]
                .into_iter()
                .flatten()
                .map(move |sampler| (case, sampler))
        });
        for (case, sampler) in paths {
            let mut tally = sampler.new_tally();
            sampler.block(&mut block_rng(5, 1), trials, &mut tally);
            let batched = tally.to_hists(case, trials);

            let dice = |pool: &Pool| pool.dice().to_vec();
            let mut expected = CortexHists {
                total: Hist::with_range(0, 0),
                ..CortexHists::default()
            };
            let mut rng = block_rng(5, 1);
            let mut roller = DieRoller::new(&mut rng);
            let mut roll = |pool: &Pool, keep: usize| {
                let faces: Vec<u8> = dice(pool)
                    .iter()
                    .map(|d| roller.roll(d.sides()) as u8)
                    .collect();
                score(&dice(pool), &faces, keep)
            };
            for _ in 0..trials {
                let action = roll(&case.pool, case.rules.keep);
                let reaction = match &case.opposition {
                    Opposition::Pool(vs) => Some(roll(vs, case.rules.reaction_keep)),
                    _ => None,
                };
                case.record(action, reaction, 1u128, &mut expected, true);
            }
            let support = |h: &Hist<u128>| h.iter().filter(|&(_, c)| c > 0).collect::<Vec<_>>();
            assert_eq!(support(&batched.total), support(&expected.total));
            assert_eq!(support(&batched.hitches), support(&expected.hitches));
            assert_eq!(
                support(&batched.pool_effect),
                support(&expected.pool_effect)
            );
            assert_eq!(support(&batched.margin), support(&expected.margin));
            assert_eq!(support(&batched.win_effect), support(&expected.win_effect));
            assert_eq!(
                (batched.fail, batched.reaction_hitch),
                (expected.fail, expected.reaction_hitch)
            );
        }
    }
}
