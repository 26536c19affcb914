//! The exact method of Cortex conflicts: a Markov chain over (hero stress,
//! foe stress, team dice left), one half exchange at a time. Its transitions
//! are opposed rolls' final-effect distributions, built from the Cortex
//! engine's exact (total, effect) distribution of each pool and memoised per
//! (action pool, reaction pool).

use rustc_hash::FxHashMap;

use super::{stress_code, stress_of};
use super::{taken_out, ConflictCase, ConflictHists, Ending, FoeState, STRESS_CODES};
use crate::dice::Pool;
use crate::engine::exact::{Budget, ExactError};
use crate::systems::cortex::{self, PoolRoll};

/// An opposed roll's outcome: the chance it fails, and the chance of each
/// final effect step on success.
#[derive(Debug, Clone, PartialEq)]
struct OpposedEffects {
    wins: Vec<(u32, f64)>,
}

/// The exact opposed rolls a conflict meets, memoised: every pool's
/// (total, effect) distribution once per `keep`, every (action, reaction)
/// pair's final-effect distribution once.
struct OpposedRolls<'a> {
    case: &'a ConflictCase,
    pools: FxHashMap<(Pool, usize), Vec<(PoolRoll, f64)>>,
    pairs: FxHashMap<(Pool, Pool), OpposedEffects>,
}

impl<'a> OpposedRolls<'a> {
    fn new(case: &'a ConflictCase) -> Self {
        OpposedRolls {
            case,
            pools: FxHashMap::default(),
            pairs: FxHashMap::default(),
        }
    }

    /// The pool's (total, effect) distribution from the Cortex engine.
    fn outcomes(
        &mut self,
        pool: &Pool,
        keep: usize,
        budget: &mut Budget,
    ) -> Result<&[(PoolRoll, f64)], ExactError> {
        let key = (pool.clone(), keep);
        if !self.pools.contains_key(&key) {
            let outcomes = cortex::pool_probabilities(pool, keep, 0, budget)?
                .into_iter()
                .map(|((total, effect_step, hitches), p)| {
                    let roll = PoolRoll {
                        total,
                        effect_step,
                        hitches,
                    };
                    (roll, p)
                })
                .collect();
            self.pools.insert(key.clone(), outcomes);
        }
        Ok(&self.pools[&key])
    }

    /// The final-effect distribution of `action` against `reaction`.
    fn effects(
        &mut self,
        action: Pool,
        reaction: Pool,
        budget: &mut Budget,
    ) -> Result<&OpposedEffects, ExactError> {
        let key = (action, reaction);
        if !self.pairs.contains_key(&key) {
            let case = self.case;
            let rules = case.rules;
            let acting = self.outcomes(&key.0, rules.keep, budget)?.to_vec();
            let reacting = self.outcomes(&key.1, rules.reaction_keep, budget)?;
            budget.spend((acting.len() * reacting.len()) as u64, &|| {
                format!("{} against {}", key.0, key.1)
            })?;
            let mut wins: FxHashMap<u32, f64> = FxHashMap::default();
            for &(a, p) in &acting {
                for &(r, q) in reacting {
                    if let Some(step) = case.opposed_effect(a, r) {
                        *wins.entry(step).or_insert(0.0) += p * q;
                    }
                }
            }
            let mut wins: Vec<_> = wins.into_iter().collect();
            wins.sort_by_key(|w| w.0);
            self.pairs.insert(key.clone(), OpposedEffects { wins });
        }
        Ok(&self.pairs[&key])
    }
}

/// The chain's live states: (hero stress code, foe stress code, team dice)
/// to probability, dense.
struct Chain {
    team_slots: usize,
    p: Vec<f64>,
}

impl Chain {
    fn new(team_slots: usize) -> Chain {
        Chain {
            team_slots,
            p: vec![0.0; STRESS_CODES * STRESS_CODES * team_slots],
        }
    }

    fn add(&mut self, hero: Option<u32>, foe: FoeState, p: f64) {
        let i = self.index(hero, foe);
        self.p[i] += p;
    }

    fn index(&self, hero: Option<u32>, foe: FoeState) -> usize {
        (stress_code(hero) * STRESS_CODES + stress_code(foe.stress)) * self.team_slots
            + foe.team as usize
    }

    /// Every state with its probability.
    fn states(&self) -> Vec<(Option<u32>, FoeState, f64)> {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, &p)| p > 0.0)
            .map(|(i, &p)| {
                let team = (i % self.team_slots) as u32;
                let codes = i / self.team_slots;
                let foe = FoeState {
                    stress: stress_of(codes % STRESS_CODES),
                    team,
                };
                (stress_of(codes / STRESS_CODES), foe, p)
            })
            .collect()
    }
}

impl ConflictCase {
    /// The exact tallies: the Markov chain over (hero stress, foe stress,
    /// team dice left), one action at a time.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<ConflictHists<f64>, ExactError> {
        let what = || format!("a conflict of {} exchanges", self.exchanges);
        let mob = self.mob.is_some();
        let mut rolls = OpposedRolls::new(self);
        let mut hists = ConflictHists::new(self.exchanges);
        let team_slots = self.start().team as usize + 1;
        let mut chain = Chain::new(team_slots);
        chain.add(None, self.start(), 1.0);
        for exchange in 1..=self.exchanges {
            // The hero acts, then the foe if it acts at all (docs/cortex.md).
            for &actor in self.actors() {
                let mut next = Chain::new(team_slots);
                let states = chain.states();
                budget.spend(states.len() as u64 * 16, &what)?;
                for (hero, foe, p) in states {
                    let (action, reaction) = self.pools(actor, hero, foe);
                    let effects = rolls.effects(action, reaction, budget)?;
                    let mut missed = p;
                    for &(step, q) in &effects.wins {
                        missed -= p * q;
                        match self.inflict(actor, hero, foe, step) {
                            Some((hero, foe)) => next.add(hero, foe, p * q),
                            None => {
                                hists.record_end(taken_out(actor, exchange, hero, foe), p * q, mob)
                            }
                        }
                    }
                    next.add(hero, foe, missed.max(0.0));
                }
                chain = next;
            }
        }
        for (hero, foe, p) in chain.states() {
            let end = Ending {
                exchange: self.exchanges,
                hero_out: false,
                foe_out: false,
                hero_stress: hero,
                foe,
            };
            hists.record_end(end, p, mob);
        }
        Ok(hists)
    }
}
