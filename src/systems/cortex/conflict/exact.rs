//! The exact method of Cortex conflicts: a Markov chain over (hero stress,
//! foe stress, team dice left), one half exchange at a time, run on the
//! chain engine ([`crate::engine::chain`]). Its transitions
//! are opposed rolls' final-effect distributions, built from the Cortex
//! engine's exact (total, effect) distribution of each pool and memoised per
//! (action pool, reaction pool).

use rustc_hash::FxHashMap;

use super::UNRESOLVED_MASS;
use super::{stress_code, stress_of};
use super::{taken_out, Actor, ConflictCase, ConflictHists, Ending, FoeState, STRESS_CODES};
use crate::dice::Pool;
use crate::engine::chain::{self, Forecast, Mechanic, Next, Pruning};
use crate::engine::cost::Work;
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
/// pair's final-effect distribution once (numbered in the order met).
struct OpposedRolls<'a> {
    case: &'a ConflictCase,
    pools: FxHashMap<(Pool, usize), Vec<(PoolRoll, f64)>>,
    pairs: FxHashMap<(Pool, Pool), usize>,
    effects: Vec<OpposedEffects>,
}

impl<'a> OpposedRolls<'a> {
    fn new(case: &'a ConflictCase) -> Self {
        OpposedRolls {
            case,
            pools: FxHashMap::default(),
            pairs: FxHashMap::default(),
            effects: Vec::new(),
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

    /// The number of the final-effect distribution of `action` against
    /// `reaction` in `effects`.
    fn effects(
        &mut self,
        action: Pool,
        reaction: Pool,
        budget: &mut Budget,
    ) -> Result<usize, ExactError> {
        let key = (action, reaction);
        if !self.pairs.contains_key(&key) {
            let case = self.case;
            let rules = case.rules;
            let acting = self.outcomes(&key.0, rules.keep, budget)?.to_vec();
            let reacting = self.outcomes(&key.1, rules.reaction_keep, budget)?;
            budget.spend(
                Work::OutcomePair.cost((acting.len() * reacting.len()) as u64),
                &|| format!("{} against {}", key.0, key.1),
            )?;
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
            self.pairs.insert(key.clone(), self.effects.len());
            self.effects.push(OpposedEffects { wins });
        }
        Ok(self.pairs[&key])
    }
}

/// The conflict as a chain ([`crate::engine::chain`]): a step is one half
/// exchange, the hero's action or the foe's; a fight ends when either side
/// is taken out, or else after the last exchange.
struct Fight<'a> {
    case: &'a ConflictCase,
    /// Team dice counts a foe can have left (1 for a foe who is not a mob).
    team_slots: usize,
    rolls: OpposedRolls<'a>,
    /// Per turn (the hero's, the foe's) and standing, the number of its
    /// opposed roll in `rolls` ([`UNMET`]: not met yet), so a standing met
    /// again builds no pools.
    met: Vec<Vec<u32>>,
    hists: ConflictHists<f64>,
    mob: bool,
    /// The exchange being played: the fights still on after the last step
    /// end in it.
    played: u32,
}

/// A standing whose opposed roll on a turn is not known yet.
const UNMET: u32 = u32::MAX;

impl Fight<'_> {
    /// The number in `rolls` of the opposed roll of `turn` (whose actor is
    /// `actor`) from standing `at`, which is `hero` and `foe`.
    fn opposed(
        &mut self,
        turn: usize,
        actor: Actor,
        at: Standing,
        (hero, foe): (Option<u32>, FoeState),
        budget: &mut Budget,
    ) -> Result<usize, ExactError> {
        let met = &mut self.met[turn];
        if met.len() <= at as usize {
            met.resize(at as usize + 1, UNMET);
        }
        if met[at as usize] == UNMET {
            let (action, reaction) = self.case.pools(actor, hero, foe);
            let pair = self.rolls.effects(action, reaction, budget)?;
            self.met[turn][at as usize] = pair as u32;
        }
        Ok(self.met[turn][at as usize] as usize)
    }
}

/// Where a conflict stands between two half exchanges, numbered: (hero
/// stress code, foe stress code, team dice left) in that order of weight,
/// which is the order states are stepped in (no stress before any, then
/// d4 .. d12).
type Standing = u32;

/// The number of a standing, with `team_slots` counts of team dice.
fn standing(team_slots: usize, hero: Option<u32>, foe: FoeState) -> Standing {
    ((stress_code(hero) * STRESS_CODES + stress_code(foe.stress)) * team_slots + foe.team as usize)
        as Standing
}

/// The hero's stress and the foe's state of a standing.
fn parts(team_slots: usize, standing: Standing) -> (Option<u32>, FoeState) {
    let i = standing as usize;
    let team = (i % team_slots) as u32;
    let codes = i / team_slots;
    let foe = FoeState {
        stress: stress_of(codes % STRESS_CODES),
        team,
    };
    (stress_of(codes / STRESS_CODES), foe)
}

impl Mechanic for Fight<'_> {
    type State = Standing;
    type Mass = f64;
    type Outcome = Ending;

    fn steps(&self) -> usize {
        self.case.last_exchange() as usize * self.case.actors().len()
    }

    /// An uncapped fight is over once at most [`UNRESOLVED_MASS`] is still
    /// in play after a whole exchange (docs/cortex.md, "Until one side is
    /// out").
    fn settled(&self, step: usize, live: &[(Standing, f64)]) -> bool {
        let whole_exchange = (step + 1).is_multiple_of(self.case.actors().len());
        self.case.exchanges.is_none()
            && whole_exchange
            && live.iter().map(|s| s.1).sum::<f64>() <= UNRESOLVED_MASS
    }

    /// A fight's states are bounded (stress and team dice), and an
    /// uncapped one ends once little enough is unresolved.
    fn forecast(&self, forecast: Forecast) -> Forecast {
        match self.case.exchanges {
            None => forecast.bounded().settling(UNRESOLVED_MASS),
            Some(_) => forecast.bounded(),
        }
    }

    fn initial(&mut self) -> Vec<(Standing, f64)> {
        vec![(standing(self.team_slots, None, self.case.start()), 1.0)]
    }

    fn work(&self, _step: usize, live: usize) -> u64 {
        Work::ConflictState.cost(live as u64)
    }

    fn too_large(&self, step: usize, _live: usize) -> String {
        match self.case.exchanges {
            Some(cap) => format!("a conflict of {cap} exchanges"),
            None => format!(
                "a conflict still unresolved after {} exchanges",
                step / self.case.actors().len()
            ),
        }
    }

    fn next(
        &mut self,
        step: usize,
        at: Standing,
        p: f64,
        next: &mut Next<Standing, f64, Ending>,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        // The hero acts, then the foe if it acts at all (docs/cortex.md).
        let actors = self.case.actors();
        let exchange = (step / actors.len()) as u32 + 1;
        self.played = exchange;
        let turn = step % actors.len();
        let actor = actors[turn];
        let slots = self.team_slots;
        let (hero, foe) = parts(slots, at);
        let pair = self.opposed(turn, actor, at, (hero, foe), budget)?;
        let mut missed = p;
        for &(effect, q) in &self.rolls.effects[pair].wins {
            missed -= p * q;
            match self.case.inflict(actor, hero, foe, effect) {
                Some((hero, foe)) => next.add(standing(slots, hero, foe), p * q),
                None => next.absorb(taken_out(actor, exchange, hero, foe), p * q),
            }
        }
        next.add(at, missed.max(0.0));
        Ok(())
    }

    fn final_outcome(&self, at: &Standing) -> Ending {
        let (hero_stress, foe) = parts(self.team_slots, *at);
        Ending {
            exchange: self.played,
            hero_out: false,
            foe_out: false,
            hero_stress,
            foe,
        }
    }

    fn absorb(&mut self, end: Ending, p: f64) {
        self.hists.record_end(end, p, self.mob);
    }
}

impl ConflictCase {
    /// The exact tallies: the chain over (hero stress, foe stress, team
    /// dice left), one action at a time; states no play reaches are
    /// dropped.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<ConflictHists<f64>, ExactError> {
        let mut fight = Fight {
            case: self,
            team_slots: self.start().team as usize + 1,
            rolls: OpposedRolls::new(self),
            met: vec![Vec::new(); self.actors().len()],
            hists: ConflictHists::new(self.tally_range()),
            mob: self.mob.is_some(),
            played: 0,
        };
        chain::run(&mut fight, Pruning::NONE.dropping_empty(), budget)?;
        Ok(fight.hists)
    }
}
