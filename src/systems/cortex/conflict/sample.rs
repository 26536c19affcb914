//! The Monte Carlo method of Cortex conflicts: whole fights played roll by
//! roll with the Cortex roll scorer, through the shared block-seeded engine.
//!
//! A fight meets few pools (each side's with each stress die, per team
//! dice left), and most are small: each such pool's every roll is scored
//! ahead ([`Prepared`]), so an opposed roll draws its dice as ever (the same
//! stream) and reads its two scores from tables by the faces, instead of
//! running the scorer, most of a fight's time, on every roll.

use super::{stress_code, stress_of, taken_out, with_stress, Actor, ConflictCase, ConflictHists};
use super::{Ending, FoeState, STRESS_CODES};
use std::sync::{Mutex, OnceLock};

use crate::dice::Pool;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::systems::cortex::{dice_table, roll_pool, PoolRoll, Rules, Scorer};

impl ConflictCase {
    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<ConflictHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&self.sampler(settings.trials), settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    /// The sampler, its pools prepared per stress die and team dice left.
    fn sampler(&self, trials: u64) -> ConflictSampler<'_> {
        // Each exchange the hero takes at most one team die, so a fight
        // only meets the last `exchanges + 1` team counts, and a fight
        // without a cap far fewer: each count's pools are prepared when a
        // fight first meets it. A table per count from none made
        // `--mob 100000d4` ask for gigabytes.
        let most = self.start().team;
        let fewest = most.saturating_sub(self.last_exchange());
        let budget = TableBudget::new(trials);
        let hero_actions = (0..STRESS_CODES)
            .map(|code| prepare(self, &self.hero, code, &budget))
            .collect();
        let foe_actions = (fewest..=most).map(|_| OnceLock::new()).collect();
        ConflictSampler {
            case: self,
            fewest,
            budget,
            hero_actions,
            foe_actions,
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
        for _ in 0..trials {
            sampler.fight(&mut rng, &mut tally, &mut |action, reaction| {
                sides.push(0);
                sides.extend(action.dice.iter().chain(&reaction.dice).map(|&(_, s)| s));
            });
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

/// How many more table entries a case may build: no more than its trials
/// (so building costs no more than the fights save), at most
/// [`MAX_TABLES`].
struct TableBudget {
    left: Mutex<u64>,
}

impl TableBudget {
    fn new(trials: u64) -> TableBudget {
        TableBudget {
            left: Mutex::new(trials.min(MAX_TABLES)),
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
        Prepared {
            dice,
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
                for &(_, sides) in &self.dice {
                    let face = roller.roll(u32::from(sides)) - 1;
                    index = index * usize::from(sides) + face as usize;
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

/// Every roll of `dice` scored by the [`Scorer`] (keeping `keep`), packed
/// `total << 8 | effect_step`, in the order of [`Prepared::roll`]'s index.
fn scored_table(dice: &[(u8, u8)], keep: usize, entries: usize) -> Vec<u16> {
    let mut faces = vec![1u8; dice.len()];
    let mut table = Vec::with_capacity(entries);
    for _ in 0..entries {
        let mut scorer = Scorer::new(keep);
        for (&(step, _), &face) in dice.iter().zip(&faces) {
            scorer.push(step, face);
        }
        let roll = scorer.finish();
        table.push(((roll.total as u16) << 8) | roll.effect_step as u16);
        // The next faces: the last die counts fastest.
        for (face, &(_, sides)) in faces.iter_mut().zip(dice).rev() {
            if *face < sides {
                *face += 1;
                break;
            }
            *face = 1;
        }
    }
    table
}

/// The Monte Carlo trial: one whole fight. The pools are prepared per
/// stress die and team dice left, so a trial only rolls.
struct ConflictSampler<'a> {
    case: &'a ConflictCase,
    /// The fewest team dice a fight can leave: `foe_actions[0]`'s count.
    fewest: u32,
    /// The hero's pool with each foe stress code's die.
    hero_actions: Vec<Prepared>,
    /// What the pools prepared later may still spend on tables.
    budget: TableBudget,
    /// Per team dice left (from [`Self::fewest`]), the foe's pool with
    /// each hero stress code's die, once a fight meets that count.
    foe_actions: Vec<OnceLock<Vec<Prepared>>>,
}

impl ConflictSampler<'_> {
    /// The prepared dice of [`ConflictCase::pools`].
    fn pools(&self, actor: Actor, hero: Option<u32>, foe: FoeState) -> (&Prepared, &Prepared) {
        let foe_pools = self.foe_actions[(foe.team - self.fewest) as usize].get_or_init(|| {
            let pool = self.case.foe_pool(foe.team);
            (0..STRESS_CODES)
                .map(|code| prepare(self.case, &pool, code, &self.budget))
                .collect()
        });
        match actor {
            Actor::Hero => (&self.hero_actions[stress_code(foe.stress)], &foe_pools[0]),
            Actor::Foe => (&foe_pools[stress_code(hero)], &self.hero_actions[0]),
        }
    }

    /// One opposed roll: the final effect step on success.
    #[inline(always)]
    fn roll(&self, action: &Prepared, reaction: &Prepared, rng: &mut DiceRng) -> Option<u32> {
        let rules = &self.case.rules;
        let mut roller = DieRoller::new(rng);
        let action = action.roll(action.action.as_deref(), rules.keep, &mut roller);
        let reaction = reaction.roll(
            reaction.reaction.as_deref(),
            rules.reaction_keep,
            &mut roller,
        );
        self.case.opposed_effect(action, reaction)
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

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

impl ConflictSampler<'_> {
    /// One whole fight; `seen` is shown each opposed roll's pools before
    /// they are rolled (a no-op in the Monte Carlo, the dice list of
    /// [`ConflictCase::floor_sides`]).
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
                let Some(step) = self.roll(action, reaction, rng) else {
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

    /// Fights read from the score tables count what fights run through the
    /// scorer count, from the same stream: a case with the table budget
    /// spent (no tables) against the same case with every table.
    #[test]
    fn score_tables_change_nothing() {
        let rules = Rules {
            keep: 3,
            reaction_keep: 2,
            ties: Ties::Action,
            effect_step_down: true,
            ..Rules::default()
        };
        let cases = [
            ConflictCase {
                hero: Pool::parse_cortex("d10 2d8 d6").unwrap(),
                foe: Pool::parse_cortex("d10 d8 d6").unwrap(),
                mob: None,
                exchanges: Some(6),
                foe_acts: true,
                hero_stress_limit: Die::D12,
                foe_stress_limit: Die::D8,
                rules: Rules::default(),
            },
            ConflictCase {
                hero: Pool::parse_cortex("d12 d8 d4").unwrap(),
                foe: Pool::new(Vec::new()),
                mob: Some(Mob {
                    die: Die::D6,
                    count: 4,
                }),
                exchanges: Some(8),
                foe_acts: true,
                hero_stress_limit: Die::D10,
                foe_stress_limit: Die::D12,
                rules,
            },
        ];
        for case in &cases {
            let tabled = case.sampler(MAX_TABLES);
            assert!(tabled.hero_actions.iter().all(|p| p.action.is_some()));
            assert!(tabled.hero_actions[0].reaction.is_some());
            let plain = case.sampler(0);
            assert!(plain.hero_actions.iter().all(|p| p.action.is_none()));
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
}
