//! The Monte Carlo trial of a scene with its economy (docs/cortex.md, "The
//! scene's economy"): one whole scene, die by die, on the shared sampler
//! ([`crate::engine::monte_carlo`]), each action the seven steps of
//! [`super::rules`] in order.

use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, DiceRng, DieRoller};

use super::super::keys::{Distinction, GmSpend};
use super::super::rules::{keep_top, total_rank, value_rank, Rank};
use super::super::sample::dice_table;
use super::super::scene::{dice_in, key_of, DoomKey, SceneCase, SceneHists};
use super::rules::{
    action_pool, action_total, outcome, settle_doom, DoomDice, HeroDice, Preparation,
    MAX_DOOM_HELD, MAX_HERO_HELD,
};
use super::{Economy, EconomyHists, EconomyTally};

/// Sides of the doom dice by step, d4 .. d12.
const DOOM_SIDES: [u32; 5] = [4, 6, 8, 10, 12];

struct EconomySampler<'a> {
    case: &'a SceneCase,
    economy: &'a Economy,
    /// The hero's dice as (step, sides) for each preparation: by d4 and
    /// added d6.
    pools: [[Vec<(u8, u8)>; 2]; 2],
    start: DoomKey,
    /// Doom dice the reaction holds: `reaction_keep`, one more when the GM
    /// may spend.
    slots: usize,
}

impl EconomySampler<'_> {
    fn dice(&self, prep: Preparation) -> &[(u8, u8)] {
        &self.pools[usize::from(prep.d4)][usize::from(prep.add_d6)]
    }
}

impl Sampler for EconomySampler<'_> {
    type Tally = EconomyTally<u64>;

    fn new_tally(&self) -> Self::Tally {
        EconomyTally {
            scene: SceneHists::new(self.case.actions),
            economy: EconomyHists::default(),
        }
    }

    #[inline(always)]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        self.play(&mut |sides| roller.roll(sides), tally);
    }

    /// The trials one after another, drawing from a local copy of the
    /// block's generator ([`rng::with_local`]).
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        rng::with_local(rng, |rng| {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
        });
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.scene.merge(&other.scene);
        into.economy.merge(&other.economy);
    }
}

impl EconomySampler<'_> {
    /// One scene, every die thrown by `die` (its sides in, its face out),
    /// counted into `tally`: [`Self::play_holding`] with as many slots as
    /// the rules hold, known when compiled for the default rules (`keep`
    /// 2, `reaction_keep` 2, with or without the GM's spend), the most
    /// otherwise.
    #[inline(always)]
    fn play(&self, die: &mut impl FnMut(u32) -> u32, tally: &mut EconomyTally<u64>) {
        match (self.case.rules.keep + 1, self.slots) {
            (3, 2) => self.play_holding::<3, 2>(die, tally),
            (3, 3) => self.play_holding::<3, 3>(die, tally),
            _ => self.play_holding::<MAX_HERO_HELD, MAX_DOOM_HELD>(die, tally),
        }
    }

    /// [`Self::play`] with the hero's best `HERO` dice and the doom pool's
    /// best `DOOM` dice held in arrays of that length, which the top-k
    /// selection ([`keep_top`]) unrolls: a run-time length cost the loop
    /// five times the generator's time. The best `HERO` of a roll begin
    /// with its best `keep + 1` (`HERO` is at least that), and the best
    /// `DOOM` with its best `slots`, so [`HeroDice::roll`] and
    /// [`DoomDice::reaction`] read the very dice they read from the
    /// shorter selections.
    #[inline(always)]
    fn play_holding<const HERO: usize, const DOOM: usize>(
        &self,
        die: &mut impl FnMut(u32) -> u32,
        tally: &mut EconomyTally<u64>,
    ) {
        let (case, economy) = (self.case, self.economy);
        let rules = &case.rules;
        let (keep, reaction_keep) = (rules.keep, rules.reaction_keep);
        debug_assert!(keep < HERO && HERO <= MAX_HERO_HELD);
        debug_assert!(self.slots <= DOOM && DOOM <= MAX_DOOM_HELD);
        let mut doom = self.start;
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
            let mut best = [0 as Rank; HERO];
            for &(_, sides) in self.dice(prep) {
                let face = die(u32::from(sides)) as u8;
                keep_top(&mut best, value_rank(face));
                hero.hitches += u32::from(face == 1);
            }
            hero.held[..HERO].copy_from_slice(&best);
            let roll = hero.roll(keep);
            let on_total = economy.spends_on_total(prep, &roll);
            let total = action_total(&roll, on_total);
            // Step 5: the whole doom pool rolls, then the GM may spend.
            let mut best = [0 as Rank; DOOM];
            for step in (0..5u8).rev() {
                let sides = DOOM_SIDES[usize::from(step)];
                for _ in 0..doom[usize::from(step)] {
                    keep_top(&mut best, total_rank(die(sides) as u8, step));
                }
            }
            let mut dice = DoomDice::EMPTY;
            dice.held[..DOOM].copy_from_slice(&best);
            let reaction = dice.reaction(reaction_keep, self.slots);
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
}

/// The Monte Carlo trial of a scene with its economy.
fn sampler<'a>(case: &'a SceneCase, economy: &'a Economy) -> EconomySampler<'a> {
    // A pool with no d8 never swaps one (checked when read): its d4 tables
    // are the plain ones, never used.
    let swaps = economy.distinction == Distinction::D4WhenBroke;
    let table = |d4: bool, add_d6: bool| {
        let prep = Preparation {
            d4: d4 && swaps,
            add_d6,
            holds: false,
        };
        dice_table(&action_pool(&case.pool, prep))
    };
    EconomySampler {
        case,
        economy,
        pools: [
            [table(false, false), table(false, true)],
            [table(true, false), table(true, true)],
        ],
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
    let tally = monte_carlo::run(&sampler(case, economy), settings)?;
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
    let sampler = sampler(case, economy);
    let mut tally = sampler.new_tally();
    super::super::scene_sample::recorded_dice(trials, seed, |mut die| {
        sampler.play(&mut die, &mut tally)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Distinction, GmSpend, HeroSpend};
    use super::*;
    use crate::dice::Pool;
    use crate::engine::rng::{block_rng, DieRoller};
    use crate::systems::cortex::Rules;

    /// The scene as it was played before the selections of a length known
    /// when compiled: the reference the loop above is held to.
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
            for &(_, sides) in sampler.dice(prep) {
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
    /// with and without the GM's spend.
    #[test]
    fn the_play_is_the_old_play() {
        for (keep, reaction_keep, gm_spend) in [
            (2, 2, GmSpend::ToWin),
            (2, 2, GmSpend::Never),
            (3, 1, GmSpend::ToWin),
            (1, 3, GmSpend::Never),
            (5, 5, GmSpend::ToWin),
        ] {
            let economy = Economy {
                start_plot_points: 1,
                hero_spend: HeroSpend::AddToTotal,
                spend_below: Some(12),
                distinction: Distinction::D4WhenBroke,
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
            let sampler = sampler(&case, &economy);
            let (mut new, mut old) = (sampler.new_tally(), sampler.new_tally());
            let (mut a, mut b) = (block_rng(8, 3), block_rng(8, 3));
            for _ in 0..3_000 {
                sampler.trial(&mut a, &mut new);
                let mut roller = DieRoller::new(&mut b);
                old_play(&sampler, &mut |sides| roller.roll(sides), &mut old);
            }
            assert_eq!(new, old, "keep {keep}, reaction_keep {reaction_keep}");
            // A block plays the same trials from the same stream.
            let mut blocked = sampler.new_tally();
            let mut c = block_rng(8, 3);
            sampler.block(&mut c, 3_000, &mut blocked);
            assert_eq!(blocked, new, "keep {keep}, reaction_keep {reaction_keep}");
            let next = rand::Rng::next_u64(&mut b);
            assert_eq!(rand::Rng::next_u64(&mut a), next);
            assert_eq!(rand::Rng::next_u64(&mut c), next);
        }
    }
}
