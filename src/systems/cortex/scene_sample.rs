//! The Monte Carlo trial of a doom-pool scene (docs/cortex.md): one whole
//! scene, die by die, each action the player's pool against the whole doom
//! pool, both scored by the Cortex rule ([`score_stream`]) with the number
//! of dice kept known when compiled (a run-time `keep` costs the loop a
//! third of its speed, as in the plain roll's sampler), a block's scenes
//! counted into flat arrays ([`super::scene_counts`]); and the benches'
//! generator floor, the very dice a block's scenes throw.

use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, block_rng, DiceRng, DieRoller};

use super::rules::{held_total, keep_top, value_rank};
use super::sample::dice_table;
use super::scene::{dice_in, doom_die_step, key_of, DoomKey, SceneCase, SceneHists};
use super::scene_counts::{Played, SceneCounts};
use super::score::{score_stream, PoolRoll};

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
/// `die` largest first: the Cortex rule's top-k selection ([`keep_top`])
/// on the values alone ([`value_rank`]), since a reaction needs only the
/// total (the sizes only break ties between equal values, which the sum
/// never sees, and the effect die and hitches of the reaction count for
/// nothing in a scene).
#[inline(always)]
fn doom_total<const KEEP: usize>(doom: &DoomKey, die: &mut impl FnMut(u32) -> u32) -> u32 {
    let mut held = [0u32; KEEP];
    for step in (0..5).rev() {
        for _ in 0..doom[step] {
            let face = die(DOOM_SIDES[step]) as u8;
            keep_top(&mut held, u32::from(value_rank(face)));
        }
    }
    held_total(&held)
}

/// [`doom_total`] keeping two, the default rules' reaction, on two masks
/// of faces instead of a top-two selection: bit `f` of `once` is set when
/// some die shows `f`, of `twice` when a second one does. A die costs a
/// shift, an and and two ors where the selection cost a rank and two
/// compare-and-moves, and the two best values are read once an action
/// from the masks' highest bits. Bit 0, set in both, is the empty slot
/// (a pool of fewer than two live dice); a hitch's bit is cleared, as
/// it counts for nothing.
#[inline(always)]
fn doom_total_two(doom: &DoomKey, die: &mut impl FnMut(u32) -> u32) -> u32 {
    let (mut once, mut twice) = (1u32, 1u32);
    for step in (0..5).rev() {
        for _ in 0..doom[step] {
            let bit = 1u32 << die(DOOM_SIDES[step]);
            twice |= once & bit;
            once |= bit;
        }
    }
    let (once, twice) = (once & !2, twice & !2);
    let top = 31 - once.leading_zeros();
    // With no live die `top` is the empty slot itself; or-ing it back in
    // keeps the rest from being zero, whose leading zeros would be 32.
    let next = 31 - ((once ^ (1 << top)) | 1).leading_zeros();
    top + if twice >> top & 1 == 1 { top } else { next }
}

/// Most entries of the action pool's score table ([`ActionTable`]).
const MAX_ACTION_TABLE: usize = 1 << 16;
/// Trials a table entry must save at least: building one costs about one
/// roll scored die by die, and each trial rolls the pool once an action.
const TRIALS_PER_ENTRY: u64 = 8;

/// Every roll of the player's pool scored ahead, as in a conflict: the
/// faces, read as digits (the first die's the most significant), index
/// the roll's total and the doom die its hitches add, so that an action
/// adds a product a die and reads one entry instead of running the scorer
/// on every die. The dice are thrown as before, in the same order (the
/// same stream).
struct ActionTable {
    /// Per die, its sides and the weight of its face.
    digits: Vec<(u32, u32)>,
    /// Per roll, `total << 8 | step`, `step` the doom die's
    /// ([`doom_die_step`], 0 for none), after as many empty entries as
    /// the weights add up to: the faces count from one, and the padding
    /// saves taking one off each.
    scores: Vec<u16>,
}

impl ActionTable {
    /// The table of `action` keeping `keep`, when it has at most
    /// [`MAX_ACTION_TABLE`] entries and `trials` repay building it.
    fn new(action: &[(u8, u8)], keep: usize, trials: u64) -> Option<ActionTable> {
        let entries = action
            .iter()
            .try_fold(1usize, |n, &(_, sides)| n.checked_mul(usize::from(sides)))?;
        if entries > MAX_ACTION_TABLE || (entries as u64).saturating_mul(TRIALS_PER_ENTRY) > trials
        {
            return None;
        }
        let mut weight = 1u32;
        let mut digits: Vec<(u32, u32)> = action
            .iter()
            .rev()
            .map(|&(_, sides)| {
                let digit = (u32::from(sides), weight);
                weight *= u32::from(sides);
                digit
            })
            .collect();
        digits.reverse();
        let padding = digits.iter().map(|&(_, weight)| weight as usize).sum();
        let rolls = (0..entries as u32).map(|index| {
            let roll = score_keeping(
                keep,
                action
                    .iter()
                    .zip(&digits)
                    .map(|(&(step, _), &(sides, weight))| {
                        (step, (index / weight % sides + 1) as u8)
                    }),
            );
            debug_assert!(roll.total < 256);
            ((roll.total as u16) << 8) | doom_die_step(roll.hitches) as u16
        });
        let scores = std::iter::repeat_n(0, padding).chain(rolls).collect();
        Some(ActionTable { digits, scores })
    }

    /// One roll of the pool, its dice thrown by `die` in the pool's order:
    /// its total and the step of the doom die it adds (0 for none).
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        let mut index = 0u32;
        for &(sides, weight) in &self.digits {
            index += die(sides) * weight;
        }
        let entry = self.scores[index as usize];
        (u32::from(entry >> 8), u32::from(entry & 0xff))
    }
}

/// The Monte Carlo trial: one whole scene.
struct SceneSampler<'a> {
    case: &'a SceneCase,
    /// The player's dice as (step, sides), largest first.
    action: Vec<(u8, u8)>,
    /// Their rolls scored ahead, when the trials repay it.
    table: Option<ActionTable>,
    start: DoomKey,
    /// The least margins of a success and of a heroic one
    /// (`Rules::least_succeeding_margin` and `least_heroic_margin`),
    /// read once instead of every action.
    least_success: i64,
    least_heroic: i64,
}

impl SceneSampler<'_> {
    /// One scene, every die thrown by `die` (its sides in, its face out),
    /// each won action counted into `success_by_action`: the player's pool
    /// rolled by `action`, the doom pool's reaction keeping `REACTION`.
    /// Both are chosen once a block rather than once an action (a choice
    /// an action cost the loop a tenth of its instructions).
    #[inline(always)]
    fn play<A: ActionRoll, const REACTION: usize>(
        &self,
        action: &A,
        die: &mut impl FnMut(u32) -> u32,
        success_by_action: &mut [u64],
    ) -> Played {
        let case = self.case;
        let mut doom = self.start;
        let (mut successes, mut heroics, mut plot_points) = (0, 0, 0);
        let mut ended = false;
        for won in success_by_action.iter_mut() {
            if case.ends(&doom) {
                ended = true;
                break;
            }
            let (total, step) = action.roll(die);
            // The GM rolls the whole doom pool, largest dice first, and
            // sums `reaction_keep` dice.
            let reaction = match REACTION {
                2 => doom_total_two(&doom, die),
                _ => doom_total::<REACTION>(&doom, die),
            };
            let margin = i64::from(total) - i64::from(reaction);
            let (success, heroic) = (margin >= self.least_success, margin >= self.least_heroic);
            successes += u32::from(success);
            *won += u64::from(success);
            heroics += u32::from(heroic);
            if step != 0 {
                doom[step as usize] += 1;
                plot_points += 1;
            }
        }
        Played {
            successes,
            heroics,
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
                    &mut |sides| roller.roll(sides),
                    &mut tally.success_by_action,
                );
                counts.count(&played, tally);
            }
        });
    }
}

/// How an action's pool is rolled: its dice thrown by `die` in the pool's
/// order, giving the total and the step of the doom die the roll adds (0
/// for none).
trait ActionRoll {
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32);
}

impl ActionRoll for ActionTable {
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        ActionTable::roll(self, die)
    }
}

/// The player's pool scored die by die, keeping `keep`.
struct Scored<'a> {
    dice: &'a [(u8, u8)],
    keep: usize,
}

impl ActionRoll for Scored<'_> {
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        let roll = score_keeping(
            self.keep,
            self.dice
                .iter()
                .map(|&(step, sides)| (step, die(u32::from(sides)) as u8)),
        );
        (roll.total, doom_die_step(roll.hitches) as u32)
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
        self.play_into(&mut |sides| roller.roll(sides), tally);
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
            least_success: self.rules.least_succeeding_margin(),
            least_heroic: self.rules.least_heroic_margin(),
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
        recorded_dice(trials, seed, |mut die| {
            sampler.play_into(&mut die, &mut tally)
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

    /// The masks' total keeping two is the top-two selection's, and
    /// they throw the same dice: pools from empty to twenty dice, many
    /// with equal faces and hitches.
    #[test]
    fn the_masks_total_the_top_two() {
        let mut rng = block_rng(5, 1);
        for _ in 0..20_000 {
            let mut doom = [0u32; 5];
            let dice = rand::Rng::next_u32(&mut rng) % 21;
            for _ in 0..dice {
                doom[rand::Rng::next_u32(&mut rng) as usize % 5] += 1;
            }
            let (mut a, mut b) = (rng.clone(), rng.clone());
            let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
            let masks = doom_total_two(&doom, &mut |s| ra.roll(s));
            let selection = doom_total::<2>(&doom, &mut |s| rb.roll(s));
            assert_eq!(masks, selection, "{doom:?}");
            assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
            rng = a;
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
    /// the 2d12 ending.
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
