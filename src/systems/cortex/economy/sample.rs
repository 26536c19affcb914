//! The Monte Carlo trial of a scene with its economy (docs/cortex.md, "The
//! scene's economy"): one whole scene, die by die, on the shared sampler
//! ([`crate::engine::monte_carlo`]), each action the seven steps of
//! [`super::rules`] in order. The hero's roll is read through its
//! holding's table of scored rolls when the run repays one
//! ([`super::hero_table`]), the doom pool by its number among the pools
//! the block met ([`super::doom_pools`]); which ways of rolling both sides
//! take is chosen once a block, not once an action.

use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, DiceRng, DieRoller};

use super::super::keys::GmSpend;
use super::super::scene::{key_of, DoomKey, SceneCase, SceneHists};
use super::counts::{EconomyCounts, Fields};
use super::doom_pools::{DoomRolls, Masks, PoolsMet, Selected};
use super::hero_table::{holding, HeroRolls, HeroTable, Holdings, Scored};
use super::rules::{MAX_DOOM_HELD, MAX_HERO_HELD};
use super::verdicts::Verdicts;
use super::{Economy, EconomyHists, EconomyTally};

struct EconomySampler<'a> {
    case: &'a SceneCase,
    economy: &'a Economy,
    /// The hero's pool and preparation by holding.
    holdings: Holdings,
    /// Their rolls scored ahead, when the run repays it.
    table: Option<HeroTable>,
    /// Steps 5 and 6 read ahead.
    verdicts: Verdicts,
    /// The fields of a scene's counts.
    fields: Fields,
    start: DoomKey,
    /// Doom dice the reaction holds: `reaction_keep`, one more when the GM
    /// may spend.
    slots: usize,
}

/// What to do with the ways of rolling a block's scenes take
/// ([`EconomySampler::dispatch`]): the hero's `H` and the doom pool's `D`,
/// both known when compiled.
trait WithRolls {
    fn with<H: HeroRolls, D: DoomRolls>(self, sampler: &EconomySampler<'_>, hero: &H, doom: &D);
}

impl EconomySampler<'_> {
    /// Calls `work` with the hero's way of rolling (the table, else die by
    /// die with the `keep` of the default rules known when compiled, else
    /// the most) and the doom pool's (the masks for the default rules'
    /// two dice summed, else the top-k selection).
    #[inline(always)]
    fn dispatch(&self, work: impl WithRolls) {
        let keep = self.case.rules.keep;
        let (economy, holdings, fields) = (self.economy, &self.holdings, self.fields);
        match &self.table {
            // The lengths hero pools have most, three to five dice.
            Some(table) => {
                if let Some(same) = table.same_length::<3>() {
                    self.dispatch_doom(&same, work)
                } else if let Some(same) = table.same_length::<4>() {
                    self.dispatch_doom(&same, work)
                } else if let Some(same) = table.same_length::<5>() {
                    self.dispatch_doom(&same, work)
                } else {
                    self.dispatch_doom(table, work)
                }
            }
            None if keep == 2 => self.dispatch_doom(
                &Scored::<3> {
                    economy,
                    keep,
                    fields,
                    holdings,
                },
                work,
            ),
            None => self.dispatch_doom(
                &Scored::<MAX_HERO_HELD> {
                    economy,
                    keep,
                    fields,
                    holdings,
                },
                work,
            ),
        }
    }

    #[inline(always)]
    fn dispatch_doom<H: HeroRolls>(&self, hero: &H, work: impl WithRolls) {
        let reaction_keep = self.case.rules.reaction_keep;
        match (reaction_keep, self.slots) {
            (2, 2) => work.with(self, hero, &Masks::<false>),
            (2, 3) => work.with(self, hero, &Masks::<true>),
            (_, slots) => work.with(
                self,
                hero,
                &Selected::<MAX_DOOM_HELD> {
                    reaction_keep,
                    slots,
                },
            ),
        }
    }

    /// One scene, every die thrown by `die` (its sides in, its face out),
    /// counted into `counts` and `tally` (its final pool into `pools`'
    /// counts), the hero rolling by `hero` and the doom pool by `doom`.
    #[inline(always)]
    fn play<H: HeroRolls, D: DoomRolls>(
        &self,
        (hero, doom): (&H, &D),
        pools: &mut PoolsMet<'_>,
        die: &mut impl FnMut(u32) -> u32,
        (counts, tally): (&mut EconomyCounts, &mut EconomyTally<u64>),
    ) {
        pools.make_room(&mut tally.scene);
        let mut pool = PoolsMet::START;
        let mut held = self.economy.start_plot_points;
        // The scene's outcome and points words (`Fields`).
        let (mut outcomes, mut points) = (0u64, 0u64);
        let mut ended = false;
        for won in tally.scene.success_by_action.iter_mut() {
            let next = pools.act(
                pool,
                doom,
                die,
                // Steps 2 to 4, and step 7's plot points.
                |die| {
                    let roll = hero.roll(holding(held), die);
                    held = held.wrapping_add_signed(i32::from(roll.delta));
                    points += u64::from(roll.points);
                    roll
                },
                // Step 5: the whole doom pool rolled, then the GM may
                // spend; step 6, and what step 7 reads.
                |roll, reaction| {
                    let outcome = self.verdicts.read(u32::from(roll.total), reaction);
                    outcomes += outcome;
                    *won += u64::from(Fields::success(outcome));
                    let spend = if self.fields.gm_spent(outcome) {
                        reaction.spend()
                    } else {
                        0
                    };
                    (spend, roll.level)
                },
            );
            // Step 1: the GM ends the scene before the action.
            let Some(next) = next else {
                ended = true;
                break;
            };
            pool = next;
        }
        if ended {
            tally.scene.ended += 1;
        } else {
            pools.finish(pool);
        }
        counts.count(outcomes, points, tally);
    }

    /// The counts of `scenes` scenes.
    fn counts(&self, scenes: u64) -> EconomyCounts {
        EconomyCounts::new(self.fields, self.economy.start_plot_points, scenes)
    }

    /// Scenes played one by one by `die`, counted into `tally`, the pools
    /// met into `pools`: a trial on its own, and the benches' floor.
    fn play_alone(
        &self,
        scenes: u64,
        die: &mut impl FnMut(u32) -> u32,
        pools: &mut PoolsMet<'_>,
        tally: &mut EconomyTally<u64>,
    ) {
        struct Alone<'p, 'a, 't, F> {
            scenes: u64,
            die: F,
            pools: &'p mut PoolsMet<'a>,
            tally: &'t mut EconomyTally<u64>,
        }
        impl<F: FnMut(u32) -> u32> WithRolls for Alone<'_, '_, '_, F> {
            fn with<H: HeroRolls, D: DoomRolls>(
                mut self,
                sampler: &EconomySampler<'_>,
                hero: &H,
                doom: &D,
            ) {
                let mut counts = sampler.counts(self.scenes);
                for _ in 0..self.scenes {
                    let tallies = (&mut counts, &mut *self.tally);
                    sampler.play((hero, doom), self.pools, &mut self.die, tallies);
                }
                self.pools.add_to(&mut self.tally.scene);
                counts.add_to(self.tally);
            }
        }
        self.dispatch(Alone {
            scenes,
            die,
            pools,
            tally,
        });
    }
}

impl<'a> EconomySampler<'a> {
    /// The pools of a worker's first block.
    fn pools(&self) -> PoolsMet<'a> {
        PoolsMet::new(self.case, self.start, self.slots)
    }
}

/// A block's scenes, one after another, drawing from a local copy of the
/// block's generator ([`rng::with_local`]), a die roller a scene.
struct Block<'r, 'p, 'a, 't> {
    rng: &'r mut DiceRng,
    trials: u64,
    pools: &'p mut PoolsMet<'a>,
    tally: &'t mut EconomyTally<u64>,
}

impl WithRolls for Block<'_, '_, '_, '_> {
    fn with<H: HeroRolls, D: DoomRolls>(self, sampler: &EconomySampler<'_>, hero: &H, doom: &D) {
        let mut counts = sampler.counts(self.trials);
        let (pools, tally) = (self.pools, self.tally);
        rng::with_local(self.rng, |rng| {
            for _ in 0..self.trials {
                let mut roller = DieRoller::new(rng);
                let die = &mut |sides| roller.roll_index(sides);
                let tallies = (&mut counts, &mut *tally);
                sampler.play((hero, doom), pools, die, tallies);
            }
        });
        pools.add_to(&mut tally.scene);
        counts.add_to(tally);
    }
}

/// A worker's counts, and the pools its blocks met: kept from block to
/// block, so that a pool's table is built once a worker, not once a
/// block (the counts never depend on which pools have tables).
struct WorkerTally<'a> {
    counts: EconomyTally<u64>,
    pools: Option<PoolsMet<'a>>,
}

impl<'a> Sampler for EconomySampler<'a> {
    type Tally = WorkerTally<'a>;

    fn new_tally(&self) -> Self::Tally {
        WorkerTally {
            counts: EconomyTally {
                scene: SceneHists::new(self.case.actions),
                economy: EconomyHists::default(),
            },
            pools: None,
        }
    }

    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        let pools = tally.pools.get_or_insert_with(|| self.pools());
        self.play_alone(
            1,
            &mut |sides| roller.roll_index(sides),
            pools,
            &mut tally.counts,
        );
    }

    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        let pools = tally.pools.get_or_insert_with(|| self.pools());
        self.dispatch(Block {
            rng,
            trials,
            pools,
            tally: &mut tally.counts,
        });
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        let (into, other) = (&mut into.counts, other.counts);
        into.scene.merge(&other.scene);
        into.economy.merge(&other.economy);
    }
}

/// The Monte Carlo trial of a scene with its economy, for a run of
/// `trials`.
fn sampler<'a>(case: &'a SceneCase, economy: &'a Economy, trials: u64) -> EconomySampler<'a> {
    let holdings = Holdings::new(economy, &case.pool);
    let fields = Fields::new(case.actions);
    // Each scene rolls the hero once an action.
    let rolls = trials.saturating_mul(u64::from(case.actions));
    EconomySampler {
        case,
        economy,
        table: HeroTable::new(economy, case.rules.keep, fields, &holdings, rolls),
        holdings,
        verdicts: Verdicts::new(economy, &case.rules, fields),
        fields,
        start: key_of(&case.doom),
        slots: case.rules.reaction_keep + usize::from(economy.gm_spend == GmSpend::ToWin),
    }
}

/// Monte Carlo tallies as probabilities.
pub fn monte_carlo_hists(
    case: &SceneCase,
    economy: &Economy,
    settings: &McSettings<'_>,
) -> Result<EconomyTally<f64>, Interrupted> {
    let tally = monte_carlo::run(&sampler(case, economy, settings.trials), settings)?.counts;
    Ok(EconomyTally {
        scene: tally.scene.to_probabilities(settings.trials),
        economy: tally.economy.to_probabilities(settings.trials),
    })
}

/// The dice each of `trials` scenes of one Monte Carlo block (block 0 of
/// `seed`) throws, for the benches' generator floor: every die's sides in
/// throwing order, and how many dice each scene throws (a die roller per
/// scene, as the trials have).
pub fn floor_dice(
    case: &SceneCase,
    economy: &Economy,
    trials: u64,
    seed: u64,
) -> (Vec<u8>, Vec<u32>) {
    let sampler = sampler(case, economy, trials);
    let mut tally = sampler.new_tally();
    let mut pools = sampler.pools();
    super::super::scene_sample::recorded_dice(trials, seed, |die| {
        // The recorder's die gives faces from one, the scene reads them
        // from zero.
        sampler.play_alone(
            1,
            &mut |sides| die(sides) - 1,
            &mut pools,
            &mut tally.counts,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::super::sample::dice_table;
    use super::super::super::scene::dice_in;
    use super::super::rules::{
        action_pool, action_total, outcome, settle_doom, DoomDice, HeroDice,
    };
    use super::super::{Distinction, GmSpend, HeroSpend};
    use super::*;
    use crate::dice::Pool;
    use crate::engine::rng::{block_rng, DieRoller};
    use crate::systems::cortex::Rules;

    /// The scene as it was played before the tables, the numbered pools
    /// and the selections of a length known when compiled: the reference
    /// the loop above is held to.
    fn old_play(
        sampler: &EconomySampler<'_>,
        die: &mut impl FnMut(u32) -> u32,
        tally: &mut EconomyTally<u64>,
    ) {
        let (case, economy) = (sampler.case, sampler.economy);
        let rules = &case.rules;
        let (keep, reaction_keep) = (rules.keep, rules.reaction_keep);
        let mut doom = sampler.start;
        let mut held = economy.start_plot_points;
        let (mut successes, mut heroics, mut earned, mut spent, mut doom_spent) = (0, 0, 0, 0, 0);
        let mut ended = false;
        for i in 0..case.actions as usize {
            // Step 1.
            if case.ends(&doom) {
                ended = true;
                break;
            }
            // Steps 2 and 3.
            let prep = economy.prepare(held);
            // Step 4.
            let mut hero = HeroDice::EMPTY;
            for &(_, sides) in &dice_table(&action_pool(&case.pool, prep)) {
                hero.push(keep, die(u32::from(sides)) as u8);
            }
            let roll = hero.roll(keep);
            let on_total = economy.spends_on_total(prep, &roll);
            let total = action_total(&roll, on_total);
            // Step 5: the whole doom pool rolls, then the GM may spend.
            let mut dice = DoomDice::EMPTY;
            for step in (0..5u8).rev() {
                let sides = crate::dice::Die::from_step(u32::from(step))
                    .expect("d4..d12")
                    .sides();
                for _ in 0..doom[usize::from(step)] {
                    dice.push(sampler.slots, step, die(sides) as u8);
                }
            }
            let reaction = dice.reaction(reaction_keep, sampler.slots);
            let gm = economy.gm_spends(rules, total, &reaction);
            let added = match (gm, reaction.added) {
                (Some(_), Some((value, _))) => value,
                _ => 0,
            };
            // Step 6.
            let (success, heroic) = outcome(rules, total, reaction.total + added);
            if success {
                successes += 1;
                tally.scene.success_by_action[i] += 1;
            }
            heroics += u32::from(heroic);
            // Step 7.
            let settled = economy.settle(held, prep, on_total, roll.hitches);
            held = settled.held;
            earned += settled.earned;
            spent += settled.spent;
            settle_doom(&mut doom, gm, roll.hitches);
            doom_spent += u32::from(gm.is_some());
        }
        let scene = &mut tally.scene;
        scene.successes.add(successes, 1);
        scene.heroics.add(i64::from(heroics), 1);
        scene.plot_points.add(i64::from(earned), 1);
        if ended {
            scene.ended += 1;
        } else {
            *scene.final_doom.entry(doom).or_insert(0) += 1;
            scene.final_dice.add(dice_in(&doom) as i64, 1);
        }
        let e = &mut tally.economy;
        e.points_spent.add(i64::from(spent), 1);
        e.final_points.add(i64::from(held), 1);
        e.doom_spent.add(i64::from(doom_spent), 1);
        e.gm_spent += u64::from(doom_spent > 0);
    }

    /// The same scenes, the same counts and the same stream position as
    /// the old play, for the `keep`s known when compiled and for others,
    /// with and without the GM's spend, each way the hero spends; and two
    /// blocks into one worker's tally (the second reading the tables the
    /// first built) count what the old play counts of both streams.
    #[test]
    fn the_play_is_the_old_play() {
        for (keep, reaction_keep, gm_spend, hero_spend, distinction) in [
            (
                2,
                2,
                GmSpend::ToWin,
                HeroSpend::AddToTotal,
                Distinction::D4WhenBroke,
            ),
            (
                2,
                2,
                GmSpend::Never,
                HeroSpend::AddD6,
                Distinction::D4WhenBroke,
            ),
            (3, 1, GmSpend::ToWin, HeroSpend::AddD6, Distinction::D8),
            (1, 3, GmSpend::Never, HeroSpend::AddToTotal, Distinction::D8),
            (
                5,
                5,
                GmSpend::ToWin,
                HeroSpend::Never,
                Distinction::D4WhenBroke,
            ),
        ] {
            let economy = Economy {
                start_plot_points: 1,
                hero_spend,
                spend_below: (hero_spend == HeroSpend::AddToTotal).then_some(12),
                distinction,
                gm_spend,
            };
            let case = SceneCase {
                pool: Pool::parse_cortex("d10 2d8 d6").unwrap(),
                doom: Pool::parse_cortex("2d6").unwrap(),
                actions: 8,
                rules: Rules {
                    keep,
                    reaction_keep,
                    ..Rules::default()
                },
                end_at_2d12: true,
                economy: Some(economy),
            };
            // With the hero's table and without (too few trials).
            for trials in [u64::MAX, 1] {
                let sampler = sampler(&case, &economy, trials);
                assert_eq!(sampler.table.is_some(), trials > 1);
                let (mut new, mut old) = (sampler.new_tally(), sampler.new_tally());
                let (mut a, mut b) = (block_rng(8, 3), block_rng(8, 3));
                for _ in 0..3_000 {
                    sampler.trial(&mut a, &mut new);
                    let mut roller = DieRoller::new(&mut b);
                    old_play(&sampler, &mut |sides| roller.roll(sides), &mut old.counts);
                }
                let what = format!("keep {keep}, reaction_keep {reaction_keep}, {trials}");
                assert_eq!(new.counts, old.counts, "{what}");
                // A block plays the same trials from the same stream.
                let mut blocked = sampler.new_tally();
                let mut c = block_rng(8, 3);
                sampler.block(&mut c, 3_000, &mut blocked);
                assert_eq!(blocked.counts, new.counts, "{what}");
                let next = rand::Rng::next_u64(&mut b);
                assert_eq!(rand::Rng::next_u64(&mut a), next);
                assert_eq!(rand::Rng::next_u64(&mut c), next);
                // A second block of the same worker.
                let (mut c, mut b) = (block_rng(8, 4), block_rng(8, 4));
                sampler.block(&mut c, 3_000, &mut blocked);
                for _ in 0..3_000 {
                    let mut roller = DieRoller::new(&mut b);
                    old_play(&sampler, &mut |sides| roller.roll(sides), &mut old.counts);
                }
                assert_eq!(blocked.counts, old.counts, "{what}, two blocks");
            }
        }
    }

    /// The benches' floor throws the very dice the trials throw: played by
    /// the old reference from the same stream (faces from one), each scene
    /// throws as many dice, of the same sides, as the floor records.
    #[test]
    fn the_floor_throws_the_trials_dice() {
        let economy = Economy {
            start_plot_points: 1,
            hero_spend: HeroSpend::AddToTotal,
            spend_below: Some(12),
            distinction: Distinction::D4WhenBroke,
            gm_spend: GmSpend::ToWin,
        };
        let case = SceneCase {
            pool: Pool::parse_cortex("d10 2d8 d6").unwrap(),
            doom: Pool::parse_cortex("2d6").unwrap(),
            actions: 8,
            rules: Rules::default(),
            end_at_2d12: true,
            economy: Some(economy),
        };
        let (sides, counts) = floor_dice(&case, &economy, 2_000, 7);
        let sampler = sampler(&case, &economy, 2_000);
        let mut tally = sampler.new_tally();
        let mut rng = block_rng(7, 0);
        let (mut thrown, mut per_scene) = (Vec::new(), Vec::new());
        for _ in 0..2_000 {
            let before = thrown.len();
            let mut roller = DieRoller::new(&mut rng);
            let die = &mut |s: u32| {
                thrown.push(s as u8);
                roller.roll(s)
            };
            old_play(&sampler, die, &mut tally.counts);
            per_scene.push((thrown.len() - before) as u32);
        }
        assert_eq!(counts, per_scene);
        assert_eq!(sides, thrown);
    }
}
