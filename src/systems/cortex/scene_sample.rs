//! The Monte Carlo trial of a doom-pool scene (docs/cortex.md): one whole
//! scene, die by die, each action the player's pool against the whole doom
//! pool, both rolled as [`super::scene_rolls`] rolls them (the number of
//! dice kept known when compiled: a run-time `keep` costs the loop a third
//! of its speed, as in the plain roll's sampler), a block's scenes counted
//! into flat arrays ([`super::scene_counts`]); and the benches' generator
//! floor, the very dice a block's scenes throw.

use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, block_rng, DiceRng, DieRoller};

use super::sample::dice_table;
use super::scene::{dice_in, key_of, DoomKey, SceneCase, SceneHists};
use super::scene_counts::{Played, SceneCounts};
use super::scene_rolls::{
    doom_total, doom_total_two, ActionRoll, ActionTable, OutcomeTable, Scored,
};

/// The Monte Carlo trial: one whole scene.
struct SceneSampler<'a> {
    case: &'a SceneCase,
    /// The player's dice as (step, sides), largest first.
    action: Vec<(u8, u8)>,
    /// Their rolls scored ahead, when the trials repay it.
    table: Option<ActionTable>,
    start: DoomKey,
    /// Each margin's outcome, read once a run instead of two comparisons
    /// an action.
    outcomes: OutcomeTable,
}

impl SceneSampler<'_> {
    /// One scene, every die thrown by `die` (its sides in, its face less
    /// one out), each won action counted into `success_by_action`: the
    /// player's pool rolled by `action`, the doom pool's reaction keeping
    /// `REACTION`. Both are chosen once a block rather than once an
    /// action (a choice an action cost the loop a tenth of its
    /// instructions).
    #[inline(always)]
    fn play<A: ActionRoll, const REACTION: usize>(
        &self,
        action: &A,
        die: &mut impl FnMut(u32) -> u32,
        success_by_action: &mut [u64],
    ) -> Played {
        let case = self.case;
        let mut doom = self.start;
        // The successes in the high half, the heroic ones in the low: one
        // add an action ([`OutcomeTable`]).
        let mut wins = 0u64;
        let mut plot_points = 0;
        // Only a hitch adding a d12 can end the scene, so the ending is
        // asked once at the start and then after such a hitch, when an
        // action is left, rather than before every action.
        let mut ended = case.ends(&doom) && !success_by_action.is_empty();
        if !ended {
            let last = success_by_action.len() - 1;
            for (action_index, won) in success_by_action.iter_mut().enumerate() {
                let (total, step) = action.roll(die);
                // The GM rolls the whole doom pool, largest dice first, and
                // sums `reaction_keep` dice.
                let reaction = match REACTION {
                    2 => doom_total_two(&doom, die),
                    _ => doom_total::<REACTION>(&doom, die),
                };
                let outcome = self.outcomes.of(total, reaction);
                wins += outcome;
                *won += outcome >> 32;
                if step != 0 {
                    doom[step as usize] += 1;
                    plot_points += 1;
                    if step == 4 && action_index < last && case.ends(&doom) {
                        ended = true;
                        break;
                    }
                }
            }
        }
        Played {
            successes: (wins >> 32) as u32,
            heroics: wins as u32,
            plot_points,
            ended,
            doom,
        }
    }

    /// One scene into `tally`, its pool into the map and each count into
    /// its histogram.
    fn play_into(&self, die: &mut impl FnMut(u32) -> u32, tally: &mut SceneHists<u64>) {
        let won = &mut tally.success_by_action;
        let played = match (&self.table, self.case.rules.reaction_keep) {
            (Some(table), 1) => self.play::<_, 1>(table, die, won),
            (Some(table), 2) => self.play::<_, 2>(table, die, won),
            (Some(table), 3) => self.play::<_, 3>(table, die, won),
            (Some(table), 4) => self.play::<_, 4>(table, die, won),
            (Some(table), _) => self.play::<_, 5>(table, die, won),
            (None, 1) => self.play::<_, 1>(&self.scored(), die, won),
            (None, 2) => self.play::<_, 2>(&self.scored(), die, won),
            (None, 3) => self.play::<_, 3>(&self.scored(), die, won),
            (None, 4) => self.play::<_, 4>(&self.scored(), die, won),
            (None, _) => self.play::<_, 5>(&self.scored(), die, won),
        };
        tally.count(&played);
    }

    /// The player's pool scored die by die, for want of a table.
    fn scored(&self) -> Scored<'_> {
        Scored {
            dice: &self.action,
            keep: self.case.rules.keep,
        }
    }

    /// A block's scenes, each counted into `counts` ([`Sampler::block`]).
    fn block_counted<A: ActionRoll, const REACTION: usize>(
        &self,
        action: &A,
        rng: &mut DiceRng,
        trials: u64,
        counts: &mut SceneCounts,
        tally: &mut SceneHists<u64>,
    ) {
        rng::with_local(rng, |rng| {
            for _ in 0..trials {
                let mut roller = DieRoller::new(rng);
                let played = self.play::<A, REACTION>(
                    action,
                    &mut |sides| roller.roll_index(sides),
                    &mut tally.success_by_action,
                );
                counts.count(&played, tally);
            }
        });
    }
}

impl SceneHists<u64> {
    /// Counts one scene's tallies but the actions it won (counted as it
    /// played): its pool into the map and each count into its histogram.
    #[inline(always)]
    pub(super) fn count(&mut self, played: &Played) {
        self.successes.add(i64::from(played.successes), 1);
        self.heroics.add(i64::from(played.heroics), 1);
        self.plot_points.add(i64::from(played.plot_points), 1);
        if played.ended {
            self.ended += 1;
        } else {
            *self.final_doom.entry(played.doom).or_insert(0) += 1;
            self.final_dice.add(dice_in(&played.doom) as i64, 1);
        }
    }
}

impl Sampler for SceneSampler<'_> {
    type Tally = SceneHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        SceneHists::new(self.case.actions)
    }

    #[inline(always)]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        self.play_into(&mut |sides| roller.roll_index(sides), tally);
    }

    /// The trials one after another, drawing from a local copy of the
    /// block's generator ([`rng::with_local`]), each scene counted into
    /// the block's flat arrays ([`SceneCounts`]) when they fit.
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        let Some(mut counts) = SceneCounts::new(self.case.actions, self.start, trials) else {
            rng::with_local(rng, |rng| {
                for _ in 0..trials {
                    self.trial(rng, tally);
                }
            });
            return;
        };
        let c = &mut counts;
        match (&self.table, self.case.rules.reaction_keep) {
            // The default rules' reaction, with the pool's dice known
            // when compiled for pools up to six dice: the other keeps,
            // rarely chosen, keep the loop, so that fewer copies of the
            // scene are compiled.
            (Some(table), 2) if table.dice() <= 6 => match table.dice() {
                1 => self.block_counted::<_, 2>(&table.unrolled::<1>(), rng, trials, c, tally),
                2 => self.block_counted::<_, 2>(&table.unrolled::<2>(), rng, trials, c, tally),
                3 => self.block_counted::<_, 2>(&table.unrolled::<3>(), rng, trials, c, tally),
                4 => self.block_counted::<_, 2>(&table.unrolled::<4>(), rng, trials, c, tally),
                5 => self.block_counted::<_, 2>(&table.unrolled::<5>(), rng, trials, c, tally),
                _ => self.block_counted::<_, 2>(&table.unrolled::<6>(), rng, trials, c, tally),
            },
            (Some(table), 1) => self.block_counted::<_, 1>(table, rng, trials, c, tally),
            (Some(table), 2) => self.block_counted::<_, 2>(table, rng, trials, c, tally),
            (Some(table), 3) => self.block_counted::<_, 3>(table, rng, trials, c, tally),
            (Some(table), 4) => self.block_counted::<_, 4>(table, rng, trials, c, tally),
            (Some(table), _) => self.block_counted::<_, 5>(table, rng, trials, c, tally),
            (None, 1) => self.block_counted::<_, 1>(&self.scored(), rng, trials, c, tally),
            (None, 2) => self.block_counted::<_, 2>(&self.scored(), rng, trials, c, tally),
            (None, 3) => self.block_counted::<_, 3>(&self.scored(), rng, trials, c, tally),
            (None, 4) => self.block_counted::<_, 4>(&self.scored(), rng, trials, c, tally),
            (None, _) => self.block_counted::<_, 5>(&self.scored(), rng, trials, c, tally),
        }
        counts.add_to(tally);
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

impl SceneCase {
    /// Monte Carlo tallies as probabilities.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<SceneHists<f64>, Interrupted> {
        Ok(monte_carlo::run(&self.sampler(settings.trials), settings)?
            .to_probabilities(settings.trials))
    }

    /// The Monte Carlo trial of this scene, for a run of `trials`.
    fn sampler(&self, trials: u64) -> SceneSampler<'_> {
        let action = dice_table(&self.pool);
        SceneSampler {
            case: self,
            table: ActionTable::new(&action, self.rules.keep, trials),
            action,
            start: key_of(&self.doom),
            outcomes: OutcomeTable::new(
                self.rules.least_succeeding_margin(),
                self.rules.least_heroic_margin(),
            ),
        }
    }

    /// The dice each of `trials` scenes of one Monte Carlo block (block 0
    /// of `seed`) throws, for the benches' generator floor: every die's
    /// sides in throwing order, and how many dice each scene throws (a
    /// die roller per scene, as the trials have).
    #[doc(hidden)]
    pub fn floor_dice(&self, trials: u64, seed: u64) -> (Vec<u8>, Vec<u32>) {
        let sampler = self.sampler(trials);
        let mut tally = sampler.new_tally();
        recorded_dice(trials, seed, |die| {
            sampler.play_into(&mut |sides| die(sides) - 1, &mut tally)
        })
    }
}

/// What `trials` scenes of block 0 of `seed` throw, each played by `play`
/// with a die that records its sides: every die's sides in throwing order,
/// and how many dice each scene throws (a die roller per scene, as the
/// trials have). The scene's floor and the economy's share it.
pub(super) fn recorded_dice(
    trials: u64,
    seed: u64,
    mut play: impl FnMut(&mut dyn FnMut(u32) -> u32),
) -> (Vec<u8>, Vec<u32>) {
    let mut rng = block_rng(seed, 0);
    let mut sides = Vec::new();
    let counts = (0..trials)
        .map(|_| {
            let before = sides.len();
            let mut roller = DieRoller::new(&mut rng);
            play(&mut |s| {
                sides.push(s as u8);
                roller.roll(s)
            });
            (sides.len() - before) as u32
        })
        .collect();
    (sides, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Die, Pool};
    use crate::systems::cortex::scene::doom_die_step;
    use crate::systems::cortex::{Rules, Scorer};

    /// The trial as it was written before (die by die through the
    /// run-time [`Scorer`]): the reference the loop above is held to.
    fn old_trial(sampler: &SceneSampler<'_>, rng: &mut DiceRng, tally: &mut SceneHists<u64>) {
        let case = sampler.case;
        let mut doom = sampler.start;
        let (mut successes, mut heroics, mut plot_points) = (0, 0, 0);
        let mut ended = false;
        let mut roller = DieRoller::new(rng);
        for i in 0..case.actions as usize {
            if case.ends(&doom) {
                ended = true;
                break;
            }
            let mut action = Scorer::new(case.rules.keep);
            for &(step, sides) in &sampler.action {
                action.push(step, roller.roll(u32::from(sides)) as u8);
            }
            let action = action.finish();
            let mut reaction = Scorer::new(case.rules.reaction_keep);
            for step in (0..5).rev() {
                let sides = Die::from_step(step as u32).unwrap().sides();
                for _ in 0..doom[step] {
                    reaction.push(step as u8, roller.roll(sides) as u8);
                }
            }
            let (success, heroic) = case.outcome(action.total, reaction.finish().total);
            if success {
                successes += 1;
                tally.success_by_action[i] += 1;
            }
            heroics += u32::from(heroic);
            if action.hitches >= 1 {
                doom[doom_die_step(action.hitches)] += 1;
                plot_points += 1;
            }
        }
        tally.successes.add(successes, 1);
        tally.heroics.add(i64::from(heroics), 1);
        tally.plot_points.add(plot_points, 1);
        if ended {
            tally.ended += 1;
        } else {
            *tally.final_doom.entry(doom).or_insert(0) += 1;
            tally.final_dice.add(dice_in(&doom) as i64, 1);
        }
    }

    /// A plain scene (no economy) of `pool` against `doom`, keeping
    /// `keeps` (the action's, the reaction's).
    fn scene(pool: &str, doom: &str, actions: u32, keeps: (usize, usize), end: bool) -> SceneCase {
        SceneCase {
            pool: Pool::parse_cortex(pool).unwrap(),
            doom: Pool::parse_cortex(doom).unwrap(),
            actions,
            rules: Rules {
                keep: keeps.0,
                reaction_keep: keeps.1,
                ..Rules::default()
            },
            end_at_2d12: end,
            economy: None,
        }
    }

    /// The same scenes, the same counts and the same stream position as
    /// the old trial, for several `keep`s on both sides.
    #[test]
    fn the_trial_plays_what_the_old_trial_played() {
        for (pool, doom, keep, reaction_keep, end) in [
            ("d10 2d8 d6", "3d8", 2, 2, true),
            ("d12 d10 d8 d6 d4", "2d6", 3, 1, false),
            ("d8 d6", "d12 d10 2d4", 1, 3, true),
        ] {
            let case = scene(pool, doom, 8, (keep, reaction_keep), end);
            // With the pool's score table and without (too few trials).
            for trials in [u64::MAX, 1] {
                let sampler = case.sampler(trials);
                assert_eq!(sampler.table.is_some(), trials > 1);
                let (mut new, mut old) = (sampler.new_tally(), sampler.new_tally());
                let (mut a, mut b) = (block_rng(8, 3), block_rng(8, 3));
                for _ in 0..3_000 {
                    sampler.trial(&mut a, &mut new);
                    old_trial(&sampler, &mut b, &mut old);
                }
                assert_eq!(new, old, "{pool} vs {doom}");
                // A block plays the same trials from the same stream.
                let mut blocked = sampler.new_tally();
                let mut c = block_rng(8, 3);
                sampler.block(&mut c, 3_000, &mut blocked);
                assert_eq!(blocked, new, "{pool} vs {doom}");
                let next = rand::Rng::next_u64(&mut b);
                assert_eq!(rand::Rng::next_u64(&mut a), next);
                assert_eq!(rand::Rng::next_u64(&mut c), next);
            }
        }
    }

    /// A block counted into the flat arrays ([`SceneCounts`]) gives the
    /// very tallies of the old trial played scene by scene: short scenes
    /// (both arrays), long ones (the final pools through the map, 16 and
    /// 30 actions) and longer (no arrays, 32 and 40), with and without
    /// the 2d12 ending; pools of one to seven dice against the default
    /// keep of two (each unrolled roll, and the loop past six dice).
    #[test]
    fn the_flat_counts_are_the_old_trials_counts() {
        for (pool, doom, actions, keep, reaction_keep, end) in [
            ("d10 2d8 d6", "3d8", 10, 2, 2, true),
            ("d10 2d8 d6", "3d8", 10, 2, 2, false),
            ("4d4", "d12", 4, 2, 2, true),
            ("d12 d10 d8 d6 d4", "2d6", 1, 3, 1, false),
            ("2d6", "d4", 15, 1, 3, false),
            ("d8 d6", "d12 d10 2d4", 16, 2, 2, true),
            ("d10 2d8 d6", "2d6", 30, 2, 4, false),
            ("3d4", "d4", 31, 2, 2, false),
            ("d10 2d8 d6", "d6", 32, 2, 2, true),
            ("d12 d8", "2d6", 40, 1, 5, false),
            ("d12", "2d8", 6, 1, 2, false),
            ("d12 d10 d8 d6 d4", "d6", 5, 2, 2, true),
            ("2d6 2d4 d8 d6", "d8", 8, 3, 2, false),
            ("4d4 3d6", "2d10", 7, 2, 2, true),
        ] {
            let case = scene(pool, doom, actions, (keep, reaction_keep), end);
            let trials = 2_000;
            assert_eq!(
                SceneCounts::new(actions, key_of(&case.doom), trials).is_some(),
                actions <= 31
            );
            let sampler = case.sampler(u64::MAX);
            let (mut flat, mut old) = (sampler.new_tally(), sampler.new_tally());
            let (mut a, mut b) = (block_rng(4, 9), block_rng(4, 9));
            sampler.block(&mut a, trials, &mut flat);
            for _ in 0..trials {
                old_trial(&sampler, &mut b, &mut old);
            }
            assert_eq!(flat, old, "{pool} vs {doom}, {actions} actions");
            assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
        }
    }
}
