//! The Monte Carlo trial of a doom-pool scene (docs/cortex.md): one whole
//! scene, die by die, each action the player's pool against the whole doom
//! pool, both scored by the Cortex rule ([`score_stream`]) with the number
//! of dice kept known when compiled (a run-time `keep` costs the loop a
//! third of its speed, as in the plain roll's sampler); and the benches'
//! generator floor, the very dice a block's scenes throw.

use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{block_rng, DiceRng, DieRoller};

use super::rules::{held_total, Rank};
use super::sample::dice_table;
use super::scene::{dice_in, doom_die_step, key_of, DoomKey, SceneCase, SceneHists};
use super::score::{push_die, score_stream, PoolRoll};

/// Sides of the doom dice by step, d4 .. d12.
const DOOM_SIDES: [u32; 5] = [4, 6, 8, 10, 12];

/// Scores `(step, face)` dice keeping `keep` of them, each `keep` with a
/// loop of its own.
#[inline(always)]
fn score_keeping(keep: usize, dice: impl Iterator<Item = (u8, u8)>) -> PoolRoll {
    match keep {
        1 => score_stream::<1>(dice),
        2 => score_stream::<2>(dice),
        3 => score_stream::<3>(dice),
        4 => score_stream::<4>(dice),
        _ => score_stream::<5>(dice),
    }
}

/// The total of a doom pool's roll keeping `KEEP` dice, the dice thrown by
/// `die` largest first: the Cortex rule ([`push_die`]), of which a
/// reaction needs only the total.
#[inline(always)]
fn doom_total<const KEEP: usize>(doom: &DoomKey, die: &mut impl FnMut(u32) -> u32) -> u32 {
    let mut held = [0 as Rank; KEEP];
    let (mut free_step, mut hitches) = (-1, 0u32);
    for step in (0..5).rev() {
        for _ in 0..doom[step] {
            let face = die(DOOM_SIDES[step]) as u8;
            push_die(&mut held, &mut free_step, &mut hitches, step as u8, face);
        }
    }
    held_total(&held)
}

/// The Monte Carlo trial: one whole scene.
struct SceneSampler<'a> {
    case: &'a SceneCase,
    /// The player's dice as (step, sides), largest first.
    action: Vec<(u8, u8)>,
    start: DoomKey,
}

impl SceneSampler<'_> {
    /// One scene, every die thrown by `die` (its sides in, its face out),
    /// counted into `tally`.
    #[inline(always)]
    fn play(&self, die: &mut impl FnMut(u32) -> u32, tally: &mut SceneHists<u64>) {
        let case = self.case;
        let mut doom = self.start;
        let (mut successes, mut heroics, mut plot_points) = (0, 0, 0);
        let mut ended = false;
        for i in 0..case.actions as usize {
            if case.ends(&doom) {
                ended = true;
                break;
            }
            let action = score_keeping(
                case.rules.keep,
                self.action
                    .iter()
                    .map(|&(step, sides)| (step, die(u32::from(sides)) as u8)),
            );
            // The GM rolls the whole doom pool, largest dice first, and
            // sums `reaction_keep` dice.
            let reaction = match case.rules.reaction_keep {
                1 => doom_total::<1>(&doom, die),
                2 => doom_total::<2>(&doom, die),
                3 => doom_total::<3>(&doom, die),
                4 => doom_total::<4>(&doom, die),
                _ => doom_total::<5>(&doom, die),
            };
            let (success, heroic) = case.outcome(action.total, reaction);
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
}

impl Sampler for SceneSampler<'_> {
    type Tally = SceneHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        SceneHists::new(self.case.actions)
    }

    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        self.play(&mut |sides| roller.roll(sides), tally);
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
        Ok(monte_carlo::run(&self.sampler(), settings)?.to_probabilities(settings.trials))
    }

    /// The Monte Carlo trial of this scene.
    fn sampler(&self) -> SceneSampler<'_> {
        SceneSampler {
            case: self,
            action: dice_table(&self.pool),
            start: key_of(&self.doom),
        }
    }

    /// The dice each of `trials` scenes of one Monte Carlo block (block 0
    /// of `seed`) throws, for the benches' generator floor: every die's
    /// sides in throwing order, and how many dice each scene throws (a
    /// die roller per scene, as the trials have).
    #[doc(hidden)]
    pub fn floor_dice(&self, trials: u64, seed: u64) -> (Vec<u8>, Vec<u32>) {
        let sampler = self.sampler();
        let mut tally = sampler.new_tally();
        recorded_dice(trials, seed, |mut die| sampler.play(&mut die, &mut tally))
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

    /// The same scenes, the same counts and the same stream position as
    /// the old trial, for several `keep`s on both sides.
    #[test]
    fn the_trial_plays_what_the_old_trial_played() {
        for (pool, doom, keep, reaction_keep, end) in [
            ("d10 2d8 d6", "3d8", 2, 2, true),
            ("d12 d10 d8 d6 d4", "2d6", 3, 1, false),
            ("d8 d6", "d12 d10 2d4", 1, 3, true),
        ] {
            let case = SceneCase {
                pool: Pool::parse_cortex(pool).unwrap(),
                doom: Pool::parse_cortex(doom).unwrap(),
                actions: 8,
                rules: Rules {
                    keep,
                    reaction_keep,
                    ..Rules::default()
                },
                end_at_2d12: end,
                economy: None,
            };
            let sampler = case.sampler();
            let (mut new, mut old) = (sampler.new_tally(), sampler.new_tally());
            let (mut a, mut b) = (block_rng(8, 3), block_rng(8, 3));
            for _ in 0..3_000 {
                sampler.trial(&mut a, &mut new);
                old_trial(&sampler, &mut b, &mut old);
            }
            assert_eq!(new, old, "{pool} vs {doom}");
            assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
        }
    }
}
