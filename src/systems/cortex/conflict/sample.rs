//! The Monte Carlo method of Cortex conflicts: whole fights played roll by
//! roll with the Cortex roll scorer, through the shared block-seeded engine.
//!
//! A fight meets few pools (each side's with each stress die, per team
//! dice left), and most are small: each such pool's every roll is scored
//! ahead ([`Prepared`], side by side on vector registers), so an opposed
//! roll draws its dice as ever (the same stream) and reads its two scores
//! from tables by the faces, instead of running the scorer on every roll.
//! Where a fight stands is one number ([`Fights`]): each half exchange
//! reads its pools, the opposed roll's outcome and the standing after it
//! from tables, so no branch waits on the dice but the one that ends the
//! fight, and the endings are counted in a flat array, recorded once a
//! block.

use super::{stress_code, stress_of, taken_out, with_stress, Actor, ConflictCase, ConflictHists};
use super::{Ending, FoeState, STRESS_CODES};
use std::sync::{Mutex, OnceLock};

use crate::dice::Pool;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, DiceRng, DieRoller};
use crate::systems::cortex::digits;
use crate::systems::cortex::keys::MAX_KEEP;
use crate::systems::cortex::sample::roll_lanes;
use crate::systems::cortex::score::LANES;
use crate::systems::cortex::{dice_table, roll_pool, PoolRoll, Rules};

impl ConflictCase {
    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<ConflictHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&self.sampler(settings.trials), settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    /// The sampler: its pools prepared per stress die and team dice left,
    /// and where it can, every standing's half exchanges ([`Fights`]).
    fn sampler(&self, trials: u64) -> ConflictSampler<'_> {
        // Each exchange the hero takes at most one team die, so a fight
        // only meets the last `exchanges + 1` team counts, and a fight
        // without a cap far fewer: each count's pools are prepared when a
        // fight first meets it. A table per count from none made
        // `--mob 100000d4` ask for gigabytes.
        let most = self.start().team;
        let fewest = most.saturating_sub(self.last_exchange());
        let budget = TableBudget::new(trials);
        let fights = Fights::new(self, fewest, &budget);
        let foe_actions = (fewest..=most).map(|_| OnceLock::new()).collect();
        ConflictSampler {
            case: self,
            fewest,
            budget,
            hero_actions: OnceLock::new(),
            foe_actions,
            fights,
        }
    }

    /// The sides of every die `trials` fights of one Monte Carlo block
    /// (block 0 of `seed`) draw, in order, each opposed roll's dice after a
    /// 0 (each opposed roll starts a [`DieRoller`]): the benches'
    /// generator floor rolls exactly these dice and does nothing else.
    #[doc(hidden)]
    pub fn floor_sides(&self, trials: u64, seed: u64) -> Vec<u8> {
        let sampler = self.sampler(trials);
        let mut tally = sampler.new_tally();
        let mut rng = crate::engine::rng::block_rng(seed, 0);
        let mut sides = Vec::new();
        let mut seen = |action: &Prepared, reaction: &Prepared| {
            sides.push(0);
            sides.extend(action.dice.iter().chain(&reaction.dice).map(|&(_, s)| s));
        };
        match &sampler.fights {
            Some(fights) => sampler.fights(fights, &mut rng, trials, &mut tally, &mut seen),
            None => {
                for _ in 0..trials {
                    sampler.fight(&mut rng, &mut tally, &mut seen);
                }
            }
        }
        sides
    }
}

/// The pool `pool` with stress code `code`'s die, prepared.
fn prepare(case: &ConflictCase, pool: &Pool, code: usize, budget: &TableBudget) -> Prepared {
    Prepared::new(
        dice_table(&with_stress(pool, stress_of(code))),
        code,
        &case.rules,
        budget,
    )
}

/// Most entries of one pool's score table: a pool of more combinations of
/// faces runs the scorer.
const MAX_TABLE: usize = 1 << 16;
/// Most entries of all of a case's tables together.
const MAX_TABLES: u64 = 1 << 20;
/// Table entries a case may build per trial. Scored side by side, an
/// entry costs about a ninth of one roll through the scorer (about 70
/// against 640 instructions, `callgrind` on the conflict bench), and a
/// fight makes several rolls, each of which a table saves: four entries a
/// fight cost less than half of one fight's scoring.
const ENTRIES_PER_TRIAL: u64 = 4;

/// How many more table entries a case may build: [`ENTRIES_PER_TRIAL`]
/// a trial (so building costs less than the fights save), at most
/// [`MAX_TABLES`].
struct TableBudget {
    left: Mutex<u64>,
}

impl TableBudget {
    fn new(trials: u64) -> TableBudget {
        TableBudget {
            left: Mutex::new(trials.saturating_mul(ENTRIES_PER_TRIAL).min(MAX_TABLES)),
        }
    }

    /// Takes `entries` if they fit.
    fn take(&self, entries: usize) -> bool {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        let fits = entries <= MAX_TABLE && entries as u64 <= *left;
        if fits {
            *left -= entries as u64;
        }
        fits
    }
}

/// A pool ready to roll: its dice as (step, sides) pairs, largest first
/// ([`dice_table`]), and when the budget allows, its every roll scored
/// ahead, as the acting pool (keeping `keep`) and, for the pool with no
/// stress die (the one that reacts), as the reacting pool (keeping
/// `reaction_keep`).
struct Prepared {
    dice: Vec<(u8, u8)>,
    /// Per die, its sides and what each face above 1 adds to the table
    /// index: the faces read as digits, the first die's the most
    /// significant. Weights, not a running `index * sides + face`, so the
    /// dice's products do not wait on each other.
    digits: Vec<(u32, u32)>,
    action: Option<Vec<u16>>,
    reaction: Option<Vec<u16>>,
}

impl Prepared {
    fn new(dice: Vec<(u8, u8)>, code: usize, rules: &Rules, budget: &TableBudget) -> Prepared {
        let entries = dice
            .iter()
            .try_fold(1usize, |n, &(_, sides)| n.checked_mul(usize::from(sides)))
            .unwrap_or(usize::MAX);
        let table = |keep| {
            budget
                .take(entries)
                .then(|| scored_table(&dice, keep, entries))
        };
        let action = table(rules.keep);
        let reaction = if code == 0 {
            table(rules.reaction_keep)
        } else {
            None
        };
        let (digits, _) = digits::place_values(dice.iter().map(|&(_, sides)| u32::from(sides)));
        Prepared {
            dice,
            digits,
            action,
            reaction,
        }
    }

    /// One roll of the pool, scored from `table` when there is one: the
    /// faces, read as digits (the first die's the most significant), are
    /// its index. Its total and effect step only: a conflict never reads
    /// the hitches.
    #[inline(always)]
    fn roll(&self, table: Option<&[u16]>, keep: usize, roller: &mut DieRoller<'_>) -> PoolRoll {
        match table {
            Some(table) => {
                let mut index = 0usize;
                for &(sides, weight) in &self.digits {
                    let face = roller.roll(sides) - 1;
                    index += (face * weight) as usize;
                }
                let entry = table[index];
                PoolRoll {
                    total: u32::from(entry >> 8),
                    effect_step: u32::from(entry & 0xff),
                    hitches: 0,
                }
            }
            None => roll_pool(&self.dice, keep, roller),
        }
    }
}

/// Every roll of `dice` scored as [`roll_pool`] scores it (keeping
/// `keep`), [`LANES`] rolls side by side, packed `total << 8 |
/// effect_step`, in the order of [`Prepared::roll`]'s index.
fn scored_table(dice: &[(u8, u8)], keep: usize, entries: usize) -> Vec<u16> {
    let mut next = vec![1u8; dice.len()];
    let mut faces = vec![[1u8; LANES]; dice.len()];
    let mut table = Vec::with_capacity(entries);
    for start in (0..entries).step_by(LANES) {
        let lanes = LANES.min(entries - start);
        for lane in 0..lanes {
            for (faces, &face) in faces.iter_mut().zip(&next) {
                faces[lane] = face;
            }
            // The next faces: the last die counts fastest.
            for (face, &(_, sides)) in next.iter_mut().zip(dice).rev() {
                if *face < sides {
                    *face += 1;
                    break;
                }
                *face = 1;
            }
        }
        let rolls = roll_lanes(dice, keep, &faces);
        for lane in 0..lanes {
            table.push((u16::from(rolls.total[lane]) << 8) | u16::from(rolls.effect_step[lane]));
        }
    }
    table
}

/// Effect steps a half exchange tells apart: d4 .. d12, and one past d12
/// for every larger step. No stress and no limit is above d12, so a step
/// past it takes a side out, or a mob's team die, as any other past it
/// does (a test holds every larger step to it).
const EFFECT_SLOTS: usize = 6;
/// The standing after a half exchange is at `next[slot]`: slot 0 is a
/// failed action, `1 + step` a success with that final effect step.
const SLOTS: usize = 8;
/// A `next` entry of a half exchange that takes the other side out.
const OUT: u32 = u32::MAX;
/// Most standings (6 hero stress codes x 6 foe codes x team dice counts)
/// for [`Fights`]: past it, fights are played through the pools alone.
const MAX_STANDINGS: usize = 4096;
/// Most cells of the flat ending counts of a block (exchange x how x
/// standing): past it, each fight's end is recorded as it comes.
const MAX_ENDS: usize = 1 << 18;
/// Largest total of a roll: `keep` dice of at most 12.
const MOST_TOTAL: i32 = 12 * MAX_KEEP as i32;
/// Effect steps of a roll (d4 .. d12).
const STEPS: usize = 5;

/// A fight as a walk over standings, each (hero stress code `h`, foe
/// stress code `f`, team dice left `fewest + t`) numbered `(t * 6 + f) * 6
/// + h`. Every table the walk reads is built from the conflict's own rules
/// ([`ConflictCase::opposed_effect`], [`ConflictCase::inflict`]).
struct Fights {
    /// The hero's pool with each foe stress code's die (0 .. 6), then per
    /// team count the foe's pool with each hero stress code's die.
    pools: Vec<Prepared>,
    /// Per standing, per actor (hero, foe): the half exchange.
    halves: Vec<Half>,
    /// Per (margin + [`MOST_TOTAL`], action effect step, reaction effect
    /// step), the slot of the opposed roll's outcome.
    slots: Vec<u8>,
    /// The standing a fight starts at.
    start: u32,
}

/// One half exchange from a standing: who rolls, and where each outcome
/// leads.
#[derive(Debug, Clone, Copy)]
struct Half {
    action: u16,
    reaction: u16,
    next: [u32; SLOTS],
}

impl Fights {
    fn new(case: &ConflictCase, fewest: u32, budget: &TableBudget) -> Option<Fights> {
        let most = case.start().team;
        let teams = (most - fewest + 1) as usize;
        let codes = STRESS_CODES;
        let standings = teams * codes * codes;
        if standings > MAX_STANDINGS {
            return None;
        }
        let mut pools: Vec<Prepared> = (0..codes)
            .map(|code| prepare(case, &case.hero, code, budget))
            .collect();
        for team in fewest..=most {
            let pool = case.foe_pool(team);
            pools.extend((0..codes).map(|code| prepare(case, &pool, code, budget)));
        }
        let standing = |hero: Option<u32>, foe: FoeState| {
            // A mob at the fewest team dice never acts as the hero again:
            // that count is reached only by the last exchange's hero action.
            let t = foe.team.max(fewest) - fewest;
            ((t as usize * codes + stress_code(foe.stress)) * codes + stress_code(hero)) as u32
        };
        let mut halves = Vec::with_capacity(standings * 2);
        for id in 0..standings {
            let hero = stress_of(id % codes);
            let foe = FoeState {
                stress: stress_of(id / codes % codes),
                team: fewest + (id / (codes * codes)) as u32,
            };
            let t = (foe.team - fewest) as usize;
            let foe_pool = |code: usize| (codes * (1 + t) + code) as u16;
            for (actor, action, reaction) in [
                (Actor::Hero, stress_code(foe.stress) as u16, foe_pool(0)),
                (Actor::Foe, foe_pool(stress_code(hero)), 0),
            ] {
                let mut next = [id as u32; SLOTS];
                // A mob with no team dice left is out: never a standing.
                let met = case.mob.is_none() || foe.team > 0;
                for (step, slot) in next.iter_mut().skip(1).take(EFFECT_SLOTS).enumerate() {
                    if !met {
                        break;
                    }
                    *slot = match case.inflict(actor, hero, foe, step as u32) {
                        Some((hero, foe)) => standing(hero, foe),
                        None => OUT,
                    };
                }
                halves.push(Half {
                    action,
                    reaction,
                    next,
                });
            }
        }
        let roll = |total: i32, effect_step: usize| PoolRoll {
            total: total as u32,
            effect_step: effect_step as u32,
            hitches: 0,
        };
        let mut slots = Vec::with_capacity((2 * MOST_TOTAL as usize + 1) * STEPS * STEPS);
        for margin in -MOST_TOTAL..=MOST_TOTAL {
            for action in 0..STEPS {
                for reaction in 0..STEPS {
                    let outcome = case.opposed_effect(
                        roll(MOST_TOTAL + margin, action),
                        roll(MOST_TOTAL, reaction),
                    );
                    slots.push(
                        outcome.map_or(0, |step| 1 + (step as usize).min(EFFECT_SLOTS - 1)) as u8,
                    );
                }
            }
        }
        Some(Fights {
            pools,
            halves,
            slots,
            start: standing(None, case.start()),
        })
    }

    /// The slot of an opposed roll's outcome.
    #[inline(always)]
    fn slot(&self, action: PoolRoll, reaction: PoolRoll) -> usize {
        let margin = action.total as i32 - reaction.total as i32 + MOST_TOTAL;
        let index = (margin as usize * STEPS + action.effect_step as usize) * STEPS
            + reaction.effect_step as usize;
        usize::from(self.slots[index]) & (SLOTS - 1)
    }

    /// The hero's stress and the foe where standing `id` is.
    fn standing(&self, id: usize, fewest: u32) -> (Option<u32>, FoeState) {
        let codes = STRESS_CODES;
        let foe = FoeState {
            stress: stress_of(id / codes % codes),
            team: fewest + (id / (codes * codes)) as u32,
        };
        (stress_of(id % codes), foe)
    }
}

/// The Monte Carlo trial: one whole fight. The pools are prepared per
/// stress die and team dice left, so a trial only rolls.
struct ConflictSampler<'a> {
    case: &'a ConflictCase,
    /// The fewest team dice a fight can leave: `foe_actions[0]`'s count.
    fewest: u32,
    /// The hero's pool with each foe stress code's die, once a fight is
    /// played through the pools.
    hero_actions: OnceLock<Vec<Prepared>>,
    /// What the pools prepared later may still spend on tables.
    budget: TableBudget,
    /// Per team dice left (from [`Self::fewest`]), the foe's pool with
    /// each hero stress code's die, once a fight meets that count.
    foe_actions: Vec<OnceLock<Vec<Prepared>>>,
    /// The walk over standings, unless there are too many.
    fights: Option<Fights>,
}

impl ConflictSampler<'_> {
    /// The prepared dice of [`ConflictCase::pools`].
    fn pools(&self, actor: Actor, hero: Option<u32>, foe: FoeState) -> (&Prepared, &Prepared) {
        let hero_actions = self.hero_actions.get_or_init(|| {
            (0..STRESS_CODES)
                .map(|code| prepare(self.case, &self.case.hero, code, &self.budget))
                .collect()
        });
        let foe_pools = self.foe_actions[(foe.team - self.fewest) as usize].get_or_init(|| {
            let pool = self.case.foe_pool(foe.team);
            (0..STRESS_CODES)
                .map(|code| prepare(self.case, &pool, code, &self.budget))
                .collect()
        });
        match actor {
            Actor::Hero => (&hero_actions[stress_code(foe.stress)], &foe_pools[0]),
            Actor::Foe => (&foe_pools[stress_code(hero)], &hero_actions[0]),
        }
    }

    /// One opposed roll's two scores.
    #[inline(always)]
    fn rolls(
        &self,
        action: &Prepared,
        reaction: &Prepared,
        rng: &mut DiceRng,
    ) -> (PoolRoll, PoolRoll) {
        let rules = &self.case.rules;
        let mut roller = DieRoller::new(rng);
        let action = action.roll(action.action.as_deref(), rules.keep, &mut roller);
        let reaction = reaction.roll(
            reaction.reaction.as_deref(),
            rules.reaction_keep,
            &mut roller,
        );
        (action, reaction)
    }
}

impl Sampler for ConflictSampler<'_> {
    type Tally = ConflictHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        ConflictHists::new(self.case.tally_range())
    }

    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        self.fight(rng, tally, &mut |_, _| {});
    }

    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        match &self.fights {
            Some(fights) => rng::with_local(rng, |rng| {
                self.fights(fights, rng, trials, tally, &mut |_, _| {})
            }),
            None => {
                for _ in 0..trials {
                    self.fight(rng, tally, &mut |_, _| {});
                }
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

/// How a fight ended, in the flat ending counts: the hero took the foe
/// out, the foe took the hero out, or neither by the last exchange.
const HERO_WON: usize = 0;
const FOE_WON: usize = 1;
const UNRESOLVED: usize = 2;

impl ConflictSampler<'_> {
    /// `trials` whole fights as walks over the standings; `seen` as for
    /// [`Self::fight`].
    #[inline(always)]
    fn fights(
        &self,
        f: &Fights,
        rng: &mut DiceRng,
        trials: u64,
        tally: &mut ConflictHists<u64>,
        seen: &mut impl FnMut(&Prepared, &Prepared),
    ) {
        let case = self.case;
        let mob = case.mob.is_some();
        let actors = case.actors();
        let last = case.last_exchange();
        let standings = f.halves.len() / 2;
        let cells = last as usize * 3 * standings;
        let mut ends = if cells <= MAX_ENDS {
            vec![0u32; cells]
        } else {
            Vec::new()
        };
        let ending = |exchange: u32, how: usize, id: usize| {
            let (hero, foe) = f.standing(id, self.fewest);
            match how {
                HERO_WON => taken_out(Actor::Hero, exchange, hero, foe),
                FOE_WON => taken_out(Actor::Foe, exchange, hero, foe),
                _ => Ending {
                    exchange,
                    hero_out: false,
                    foe_out: false,
                    hero_stress: hero,
                    foe,
                },
            }
        };
        let mut end = |tally: &mut ConflictHists<u64>, exchange: u32, how: usize, id: usize| {
            if ends.is_empty() {
                tally.record_end(ending(exchange, how, id), 1, mob);
            } else {
                ends[((exchange as usize - 1) * 3 + how) * standings + id] += 1;
            }
        };
        'fight: for _ in 0..trials {
            let mut id = f.start as usize;
            for exchange in 1..=last {
                for &actor in actors {
                    let half = &f.halves[id * 2 + actor as usize];
                    let action = &f.pools[usize::from(half.action)];
                    let reaction = &f.pools[usize::from(half.reaction)];
                    seen(action, reaction);
                    let (a, r) = self.rolls(action, reaction, rng);
                    let next = half.next[f.slot(a, r)];
                    if next == OUT {
                        let how = if actor == Actor::Hero {
                            HERO_WON
                        } else {
                            FOE_WON
                        };
                        end(tally, exchange, how, id);
                        continue 'fight;
                    }
                    id = next as usize;
                }
            }
            end(tally, last, UNRESOLVED, id);
        }
        for (cell, &count) in ends.iter().enumerate() {
            if count > 0 {
                let id = cell % standings;
                let how = cell / standings % 3;
                let exchange = (cell / standings / 3) as u32 + 1;
                tally.record_end(ending(exchange, how, id), u64::from(count), mob);
            }
        }
    }

    /// One whole fight through the pools; `seen` is shown each opposed
    /// roll's pools before they are rolled (a no-op in the Monte Carlo,
    /// the dice list of [`ConflictCase::floor_sides`]).
    #[inline(always)]
    fn fight(
        &self,
        rng: &mut DiceRng,
        tally: &mut ConflictHists<u64>,
        seen: &mut impl FnMut(&Prepared, &Prepared),
    ) {
        let case = self.case;
        let mob = case.mob.is_some();
        let mut hero: Option<u32> = None;
        let mut foe = case.start();
        // Without a cap, a fight still unresolved at the bound counts as
        // unresolved (docs/cortex.md, "Until one side is out").
        let last = case.last_exchange();
        for exchange in 1..=last {
            for &actor in case.actors() {
                let (action, reaction) = self.pools(actor, hero, foe);
                seen(action, reaction);
                let (a, r) = self.rolls(action, reaction, rng);
                let Some(step) = case.opposed_effect(a, r) else {
                    continue;
                };
                match case.inflict(actor, hero, foe, step) {
                    Some(after) => (hero, foe) = after,
                    None => return tally.record_end(taken_out(actor, exchange, hero, foe), 1, mob),
                }
            }
        }
        let end = Ending {
            exchange: last,
            hero_out: false,
            foe_out: false,
            hero_stress: hero,
            foe,
        };
        tally.record_end(end, 1, mob);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::engine::rng::block_rng;
    use crate::systems::cortex::conflict::Mob;
    use crate::systems::cortex::Ties;

    /// Cases with every rule that moves a fight: single foes with their
    /// stress limits, a mob, a foe that does not act, an uncapped fight
    /// (its endings recorded as they come), kept dice, ties and the
    /// effect step-down.
    fn cases() -> Vec<ConflictCase> {
        let rules = Rules {
            keep: 3,
            reaction_keep: 2,
            ties: Ties::Action,
            effect_step_down: true,
            ..Rules::default()
        };
        let base = ConflictCase {
            hero: Pool::parse_cortex("d10 2d8 d6").unwrap(),
            foe: Pool::parse_cortex("d10 d8 d6").unwrap(),
            mob: None,
            exchanges: Some(6),
            foe_acts: true,
            hero_stress_limit: Die::D12,
            foe_stress_limit: Die::D8,
            rules: Rules::default(),
        };
        vec![
            base.clone(),
            ConflictCase {
                hero: Pool::parse_cortex("d12 d8 d4").unwrap(),
                foe: Pool::new(Vec::new()),
                mob: Some(Mob {
                    die: Die::D6,
                    count: 4,
                }),
                exchanges: Some(8),
                hero_stress_limit: Die::D10,
                foe_stress_limit: Die::D12,
                rules,
                ..base.clone()
            },
            ConflictCase {
                exchanges: None,
                hero_stress_limit: Die::D6,
                ..base.clone()
            },
            ConflictCase {
                foe_acts: false,
                rules: Rules {
                    heroic_step: 3,
                    ..rules
                },
                ..base.clone()
            },
        ]
    }

    /// Fights read from the score tables count what fights run through the
    /// scorer count, from the same stream: a case with the table budget
    /// spent (no tables) against the same case with every table.
    #[test]
    fn score_tables_change_nothing() {
        for case in &cases() {
            let tabled = case.sampler(MAX_TABLES);
            let fights = tabled.fights.as_ref().unwrap();
            assert!(fights.pools.iter().all(|p| p.action.is_some()));
            assert!(fights.pools[0].reaction.is_some());
            let plain = case.sampler(0);
            let fights = plain.fights.as_ref().unwrap();
            assert!(fights.pools.iter().all(|p| p.action.is_none()));
            let (mut a, mut b) = (tabled.new_tally(), plain.new_tally());
            let (mut rng_a, mut rng_b) = (block_rng(3, 4), block_rng(3, 4));
            tabled.block(&mut rng_a, 20_000, &mut a);
            plain.block(&mut rng_b, 20_000, &mut b);
            assert_eq!(a, b);
            assert_eq!(
                rand::Rng::next_u64(&mut rng_a),
                rand::Rng::next_u64(&mut rng_b)
            );
        }
    }

    /// The walk over standings counts what fights played through the
    /// pools and the conflict's rules count, one after another from the
    /// same stream, and leaves the stream where they leave it.
    #[test]
    fn the_walk_counts_what_the_fight_counts() {
        for case in &cases() {
            let sampler = case.sampler(MAX_TABLES);
            assert!(sampler.fights.is_some());
            let (mut walked, mut fought) = (sampler.new_tally(), sampler.new_tally());
            let (mut rng_a, mut rng_b) = (block_rng(5, 1), block_rng(5, 1));
            sampler.block(&mut rng_a, 20_000, &mut walked);
            for _ in 0..20_000 {
                sampler.trial(&mut rng_b, &mut fought);
            }
            assert_eq!(walked, fought, "{case:?}");
            assert_eq!(
                rand::Rng::next_u64(&mut rng_a),
                rand::Rng::next_u64(&mut rng_b)
            );
        }
    }

    /// Every effect step past d12 does to every standing what one past
    /// d12 does, so the walk's last effect slot stands for them all.
    #[test]
    fn steps_past_d12_act_alike() {
        for case in &cases() {
            let most = case.start().team;
            let fewest = most.saturating_sub(case.last_exchange());
            for team in fewest.max(1).min(most)..=most {
                for h in 0..STRESS_CODES {
                    for f in 0..STRESS_CODES {
                        let hero = stress_of(h);
                        let foe = FoeState {
                            stress: stress_of(f),
                            team,
                        };
                        for actor in [Actor::Hero, Actor::Foe] {
                            let past = case.inflict(actor, hero, foe, EFFECT_SLOTS as u32 - 1);
                            for step in EFFECT_SLOTS as u32..30 {
                                assert_eq!(case.inflict(actor, hero, foe, step), past);
                            }
                        }
                    }
                }
            }
        }
    }
}
