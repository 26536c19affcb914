//! The Monte Carlo method of Cortex conflicts: whole fights played roll by
//! roll with the Cortex roll scorer, through the shared block-seeded engine.

use super::{stress_code, stress_of, taken_out, with_stress, Actor, ConflictCase, ConflictHists};
use super::{Ending, FoeState, STRESS_CODES};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::systems::cortex::{dice_table, roll_pool};

impl ConflictCase {
    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<ConflictHists<f64>, Interrupted> {
        let team_slots = self.start().team as usize + 1;
        let hero_actions = (0..STRESS_CODES)
            .map(|code| dice_table(&with_stress(&self.hero, stress_of(code))))
            .collect();
        let foe_actions = (0..team_slots)
            .map(|team| {
                let pool = self.foe_pool(team as u32);
                (0..STRESS_CODES)
                    .map(|code| dice_table(&with_stress(&pool, stress_of(code))))
                    .collect()
            })
            .collect();
        let sampler = ConflictSampler {
            case: self,
            hero_actions,
            foe_actions,
        };
        let tally = monte_carlo::run(&sampler, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }
}

/// A pool's dice as (step, sides) pairs, largest first ([`dice_table`]).
type DiceTable = [(u8, u8)];

/// The Monte Carlo trial: one whole fight. The pools are prepared per
/// stress die and team dice left, so a trial only rolls.
struct ConflictSampler<'a> {
    case: &'a ConflictCase,
    /// The hero's pool with each foe stress code's die.
    hero_actions: Vec<Vec<(u8, u8)>>,
    /// Per team dice left, the foe's pool with each hero stress code's die.
    foe_actions: Vec<Vec<Vec<(u8, u8)>>>,
}

impl ConflictSampler<'_> {
    /// The prepared dice of [`ConflictCase::pools`].
    fn pools(&self, actor: Actor, hero: Option<u32>, foe: FoeState) -> (&DiceTable, &DiceTable) {
        let foe_pools = &self.foe_actions[foe.team as usize];
        match actor {
            Actor::Hero => (&self.hero_actions[stress_code(foe.stress)], &foe_pools[0]),
            Actor::Foe => (&foe_pools[stress_code(hero)], &self.hero_actions[0]),
        }
    }

    /// One opposed roll: the final effect step on success.
    fn roll(&self, action: &[(u8, u8)], reaction: &[(u8, u8)], rng: &mut DiceRng) -> Option<u32> {
        let rules = &self.case.rules;
        let mut roller = DieRoller::new(rng);
        let action = roll_pool(action, rules.keep, &mut roller);
        let reaction = roll_pool(reaction, rules.reaction_keep, &mut roller);
        self.case.opposed_effect(action, reaction)
    }
}

impl Sampler for ConflictSampler<'_> {
    type Tally = ConflictHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        ConflictHists::new(self.case.tally_range())
    }

    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
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

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}
