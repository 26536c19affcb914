//! Cortex conflicts (docs/cortex.md; the Cortex Plus rules text, "Эффекты:
//! Преимущества, стресс и помехи", "Стресс", "Переизбыток стресса и
//! получение травм" and "Банды и крупномасштабные противники"): a hero and a
//! foe (a single character or a mob with team dice) trade opposed Cortex
//! rolls, exchange by exchange; a successful action's final effect die
//! becomes stress on the other side, a stress die joins every pool acting
//! against its bearer, and the fight ends when one side is stressed out
//! (or, under an explicit `exchanges` cap, when the exchanges run out).
//!
//! Every roll is an opposed Cortex roll scored by the Cortex code
//! (`cortex::pool_outcomes` exactly, `cortex::roll_pool` when sampling)
//! and judged by its [`Rules`] (`succeeds`, `final_effect_step`); this module
//! holds only what a conflict adds: the stress rule, takeouts, mobs losing
//! team dice, and the exchange order. The exact method is a Markov chain
//! over (hero stress, foe stress, team dice left), whose transitions are the
//! opposed rolls' final-effect distributions, memoised per (action pool,
//! reaction pool): a fight meets only a few dozen distinct pools. The Monte
//! Carlo method plays fights die by die (`exact.rs` and `sample.rs`). Both
//! fill one [`ConflictHists`] through one `ConflictHists::record_end`,
//! read by one `metrics()` and one `rows()`.

mod exact;
#[rustfmt::skip]
pub(crate) mod metrics;
mod sample;

use serde_json::{json, Map, Value};

use crate::dice::{effect_step_label, Die, Pool};
use crate::distribution::{DistRow, Evaluation, Hist, Metric};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{KeyDef, Kind, OptionError, Options};

use super::keys::{
    EFFECT_STEP_DOWN, EXCHANGES, FOE, FOE_ACTS, FOE_STRESS_LIMIT, HERO, HERO_STRESS_LIMIT, MOB,
};
use super::{PoolRoll, Rules};
use crate::systems::{System, SystemCase};
use metrics as m;

pub use crate::systems::cortex::keys::{MAX_EXCHANGES, UNCAPPED_EXCHANGES, UNRESOLVED_MASS};

/// A capped fight whose unresolved share (`p_neither`) is above this says
/// so (docs/cortex.md, "Until one side is out"): its conditional means see
/// only the fights that ended early.
pub const CAPPED_WARNING_SHARE: f64 = 0.01;

/// Stress codes in the chain and the tallies: 0 is no stress, `step + 1` a
/// stress die (d4 = 1 .. d12 = 5). A character who is not out never holds
/// more than d12, so six codes cover every state.
const STRESS_CODES: usize = 6;

/// The `final_*_stress` outcome of a character who is out.
const OUT_CODE: i64 = STRESS_CODES as i64;

/// The stress a character holds once an effect die of step `effect` is
/// inflicted on them (the rules text, "Стресс"): the first stress equals the
/// effect die; a larger effect die replaces the stress; an equal or smaller
/// one steps it up once. Steps past d12 (4) are kept as they are.
pub fn inflict_stress(stress: Option<u32>, effect: u32) -> u32 {
    match stress {
        None => effect,
        Some(held) if effect > held => effect,
        Some(held) => held + 1,
    }
}

/// A mob's team dice (the rules text, "Банды и крупномасштабные
/// противники"): `count` dice of one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mob {
    pub die: Die,
    pub count: u32,
}

/// Where the foe stands: its stress and the team dice it has left (0 for a
/// foe who is not a mob).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FoeState {
    stress: Option<u32>,
    team: u32,
}

/// A resolved conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictCase {
    pub hero: Pool,
    /// The foe's own dice; empty for a mob with no other dice.
    pub foe: Pool,
    pub mob: Option<Mob>,
    /// The `exchanges` cap; `None` plays until one side is out.
    pub exchanges: Option<u32>,
    pub foe_acts: bool,
    pub hero_stress_limit: Die,
    /// Ignored for a mob, which has no stress limit.
    pub foe_stress_limit: Die,
    pub rules: Rules,
}

fn stress_code(stress: Option<u32>) -> usize {
    stress.map_or(0, |s| s as usize + 1)
}

fn stress_of(code: usize) -> Option<u32> {
    code.checked_sub(1).map(|s| s as u32)
}

/// The pool with the stress die `stress` added, if any.
fn with_stress(pool: &Pool, stress: Option<u32>) -> Pool {
    match stress.and_then(Die::from_step) {
        Some(die) => pool.with(die),
        None => pool.clone(),
    }
}

impl ConflictCase {
    pub fn from_options(mut options: Options) -> Result<ConflictCase, OptionError> {
        let Some(hero) = options.cortex_pool(&HERO)? else {
            return Err(options.case_error(format!(
                "a cortex-conflict case needs {}, the hero's pool such as \"d10 2d8 d6\"",
                options.key_name(&HERO)
            )));
        };
        let foe = options.cortex_pool(&FOE)?;
        let mob = mob_option(&mut options)?;
        let foe = match (foe, mob) {
            (Some(foe), _) => foe,
            (None, Some(_)) => Pool::new(Vec::new()),
            (None, None) => {
                return Err(options.case_error(format!(
                    "a cortex-conflict case needs {}, the foe's pool such as \"d10 d8\" (or {} alone for a mob, such as \"3d8\")",
                    options.key_name(&FOE),
                    options.key_name(&MOB)
                )))
            }
        };
        let exchanges = options.maybe_int_of(&EXCHANGES)?.map(|n| n as u32);
        let foe_acts = options.bool_of(&FOE_ACTS)?;
        let hero_stress_limit = stress_limit(&mut options, &HERO_STRESS_LIMIT)?;
        let limit_item = options.take(&FOE_STRESS_LIMIT);
        let foe_stress_limit = stress_limit(&mut options, &FOE_STRESS_LIMIT)?;
        if let (Some(item), Some(_)) = (&limit_item, mob) {
            return Err(options.error_at(
                item,
                format!(
                    "{} does not apply to a mob: a mob has no stress limit, it loses a team die whenever its stress passes its team die; leave out {} or {}",
                    options.key_name(&FOE_STRESS_LIMIT),
                    options.key_name(&FOE_STRESS_LIMIT),
                    options.key_name(&MOB)
                ),
            ));
        }
        let mut rules = Rules::from_options(&mut options)?;
        rules.effect_step_down = options.bool_of(&EFFECT_STEP_DOWN)?;
        options.finish()?;
        Ok(ConflictCase {
            hero,
            foe,
            mob,
            exchanges,
            foe_acts,
            hero_stress_limit,
            foe_stress_limit,
            rules,
        })
    }

    /// The most exchanges played: the cap, or the bound of an uncapped
    /// fight.
    fn last_exchange(&self) -> u32 {
        self.exchanges.unwrap_or(UNCAPPED_EXCHANGES)
    }

    /// The foe as the fight starts.
    fn start(&self) -> FoeState {
        FoeState {
            stress: None,
            team: self.mob.map_or(0, |m| m.count),
        }
    }

    /// The foe's pool: its own dice and the team dice it has left.
    fn foe_pool(&self, team: u32) -> Pool {
        let mut dice = self.foe.dice().to_vec();
        if let Some(mob) = self.mob {
            dice.extend(std::iter::repeat_n(mob.die, team as usize));
        }
        Pool::new(dice)
    }

    /// The hero's stress after an effect of step `effect`; `None` when the
    /// hero is stressed out, past the stress limit (the rules text,
    /// "Специалисты": out only when stress exceeds d12, or a specialist's
    /// level).
    fn hero_takes(&self, stress: Option<u32>, effect: u32) -> Option<Option<u32>> {
        let held = inflict_stress(stress, effect);
        (held <= self.hero_stress_limit.step()).then_some(Some(held))
    }

    /// The foe after an effect of step `effect`; `None` when it is out. A
    /// single foe is out past its stress limit. A mob whose stress passes
    /// its team die loses one team die and clears its stress (the rules
    /// text, "Банды и крупномасштабные противники": a 3d8 mob needs d10
    /// stress to drop to 2d8, then clears it); with no team dice left it is
    /// out.
    fn foe_takes(&self, foe: FoeState, effect: u32) -> Option<FoeState> {
        let held = inflict_stress(foe.stress, effect);
        match self.mob {
            None => (held <= self.foe_stress_limit.step()).then_some(FoeState {
                stress: Some(held),
                team: 0,
            }),
            Some(mob) if held > mob.die.step() => (foe.team > 1).then_some(FoeState {
                stress: None,
                team: foe.team - 1,
            }),
            Some(_) => Some(FoeState {
                stress: Some(held),
                team: foe.team,
            }),
        }
    }

    /// The final effect step of an opposed roll, `None` when the action
    /// fails: the Cortex rules decide both (docs/cortex.md).
    fn opposed_effect(&self, action: PoolRoll, reaction: PoolRoll) -> Option<u32> {
        let margin = i64::from(action.total) - i64::from(reaction.total);
        self.rules.succeeds(margin).then(|| {
            self.rules
                .final_effect_step(action.effect_step, Some(reaction.effect_step), margin)
        })
    }
}

/// Who acts in one half of an exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Actor {
    Hero,
    Foe,
}

/// The ending of a fight in which `actor` has just taken the other side out.
fn taken_out(actor: Actor, exchange: u32, hero: Option<u32>, foe: FoeState) -> Ending {
    Ending {
        exchange,
        hero_out: actor == Actor::Foe,
        foe_out: actor == Actor::Hero,
        hero_stress: hero,
        foe,
    }
}

impl ConflictCase {
    /// Who acts in each exchange, in order (docs/cortex.md: the hero, then the foe
    /// unless `foe_acts` is false).
    fn actors(&self) -> &'static [Actor] {
        if self.foe_acts {
            &[Actor::Hero, Actor::Foe]
        } else {
            &[Actor::Hero]
        }
    }

    /// The action and reaction pools when `actor` acts: the actor's pool
    /// plus the other side's stress die, against the other side's pool
    /// (docs/cortex.md; a stress die joins only pools acting against its bearer).
    fn pools(&self, actor: Actor, hero: Option<u32>, foe: FoeState) -> (Pool, Pool) {
        match actor {
            Actor::Hero => (with_stress(&self.hero, foe.stress), self.foe_pool(foe.team)),
            Actor::Foe => (
                with_stress(&self.foe_pool(foe.team), hero),
                self.hero.clone(),
            ),
        }
    }

    /// Both sides after `actor` inflicts an effect of step `effect`; `None`
    /// when that takes the other side out.
    fn inflict(
        &self,
        actor: Actor,
        hero: Option<u32>,
        foe: FoeState,
        effect: u32,
    ) -> Option<(Option<u32>, FoeState)> {
        match actor {
            Actor::Hero => self.foe_takes(foe, effect).map(|foe| (hero, foe)),
            Actor::Foe => self.hero_takes(hero, effect).map(|hero| (hero, foe)),
        }
    }
}

/// Reads `mob`: dice all of one size.
fn mob_option(options: &mut Options) -> Result<Option<Mob>, OptionError> {
    let item = options.take(&MOB);
    let Some(pool) = options.cortex_pool(&MOB)? else {
        return Ok(None);
    };
    let die = pool.dice()[0];
    if pool.dice().iter().any(|&d| d != die) {
        return Err(options.error_at(
            &item.expect("a mob was given"),
            format!(
                "{} is \"{pool}\", but a mob's team dice are all of one size, such as \"3d8\"; give other dice as {}",
                options.key_name(&MOB),
                options.key_name(&FOE)
            ),
        ));
    }
    Ok(Some(Mob {
        die,
        count: pool.len() as u32,
    }))
}

/// Reads a stress limit: d6, d8, d10 or d12 (the default the key declares).
fn stress_limit(options: &mut Options, key: &'static KeyDef) -> Result<Die, OptionError> {
    let (text, item) = options.text_of(key)?;
    // The sizes the key declares (docs/cortex.md: novice d6 .. hero d12).
    let Kind::Die(sizes) = key.kind else {
        panic!("`{}` is not declared a die", key.name);
    };
    let die = sizes
        .iter()
        .filter_map(|&sides| Die::from_sides(u32::from(sides)))
        .find(|d| d.to_string() == text.trim().to_ascii_lowercase());
    die.ok_or_else(|| {
        options.error_at(
            &item,
            format!(
                "{} is \"{text}\"; allowed: `d6` (novice), `d8` (expert), `d10` (master), `d12` (hero or major character, the default)",
                options.key_name(key)
            ),
        )
    })
}

/// The outcome tallies of a conflict: counts in Monte Carlo, probabilities
/// when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConflictHists<W> {
    /// The exchange (1 ..) in which the foe was taken out.
    pub foe_out: Hist<W>,
    /// The exchange (1 ..) in which the hero was taken out.
    pub hero_out: Hist<W>,
    /// Exchanges played, the last one counted in full.
    pub exchanges: Hist<W>,
    /// Stress codes at the end (0 none, 1..=5 d4..d12, 6 out).
    pub final_hero_stress: Hist<W>,
    pub final_foe_stress: Hist<W>,
    /// A mob's team dice at the end (empty for a single foe).
    pub team_dice_left: Hist<W>,
    /// Fights neither side lost, at 0: counted, not found as what the
    /// takeouts leave, so an unresolved share of 1e-13 is not lost to
    /// rounding (nor invented by it).
    pub unresolved: Hist<W>,
}

/// How one fight ended.
#[derive(Debug, Clone, Copy)]
struct Ending {
    exchange: u32,
    hero_out: bool,
    foe_out: bool,
    hero_stress: Option<u32>,
    foe: FoeState,
}

impl<W: Copy + Default + std::ops::AddAssign> ConflictHists<W> {
    /// Empty tallies for `exchanges` exchanges (they grow past it).
    fn new(exchanges: u32) -> Self {
        let n = i64::from(exchanges);
        ConflictHists {
            foe_out: Hist::with_range(1, n),
            hero_out: Hist::with_range(1, n),
            exchanges: Hist::with_range(1, n),
            final_hero_stress: Hist::with_range(0, OUT_CODE),
            final_foe_stress: Hist::with_range(0, OUT_CODE),
            team_dice_left: Hist::default(),
            unresolved: Hist::with_range(0, 0),
        }
    }

    /// Records a fight's end with `weight`; the one place both methods
    /// tally an outcome.
    fn record_end(&mut self, end: Ending, weight: W, mob: bool) {
        let exchange = i64::from(end.exchange);
        self.exchanges.add(exchange, weight);
        if end.foe_out {
            self.foe_out.add(exchange, weight);
        }
        if end.hero_out {
            self.hero_out.add(exchange, weight);
        }
        if !end.foe_out && !end.hero_out {
            self.unresolved.add(0, weight);
        }
        let code = |out: bool, stress: Option<u32>| {
            if out {
                OUT_CODE
            } else {
                stress_code(stress) as i64
            }
        };
        self.final_hero_stress
            .add(code(end.hero_out, end.hero_stress), weight);
        self.final_foe_stress
            .add(code(end.foe_out, end.foe.stress), weight);
        if mob {
            let team = if end.foe_out { 0 } else { end.foe.team };
            self.team_dice_left.add(i64::from(team), weight);
        }
    }

    fn merge(&mut self, other: &ConflictHists<W>) {
        self.foe_out.merge(&other.foe_out);
        self.hero_out.merge(&other.hero_out);
        self.exchanges.merge(&other.exchanges);
        self.final_hero_stress.merge(&other.final_hero_stress);
        self.final_foe_stress.merge(&other.final_foe_stress);
        self.team_dice_left.merge(&other.team_dice_left);
        self.unresolved.merge(&other.unresolved);
    }
}

impl ConflictHists<u64> {
    fn to_probabilities(&self, trials: u64) -> ConflictHists<f64> {
        ConflictHists {
            foe_out: self.foe_out.to_probabilities(trials),
            hero_out: self.hero_out.to_probabilities(trials),
            exchanges: self.exchanges.to_probabilities(trials),
            final_hero_stress: self.final_hero_stress.to_probabilities(trials),
            final_foe_stress: self.final_foe_stress.to_probabilities(trials),
            team_dice_left: self.team_dice_left.to_probabilities(trials),
            unresolved: self.unresolved.to_probabilities(trials),
        }
    }
}

impl ConflictCase {
    /// Every docs/cortex.md metric from the outcome histograms; one function for
    /// every method.
    pub fn metrics(&self, h: &ConflictHists<f64>) -> Vec<Metric> {
        let p_foe_out = h.foe_out.mass();
        let p_hero_out = h.hero_out.mass();
        let mut metrics = vec![
            Metric::probability(m::P_FOE_OUT.name, p_foe_out),
            Metric::probability(m::P_HERO_OUT.name, p_hero_out),
            Metric::probability(m::P_NEITHER.name, h.unresolved.mass()),
            Metric::mean_of(m::MEAN_EXCHANGES.name, &h.exchanges, 1.0),
            Metric::mean_of(m::MEAN_EXCHANGES_TO_FOE_OUT.name, &h.foe_out, p_foe_out),
            Metric::probability(m::P_HERO_STRESSED.name, 1.0 - h.final_hero_stress.get(0)),
        ];
        if self.mob.is_some() {
            metrics.push(Metric::mean_of(
                m::MEAN_TEAM_DICE_LEFT.name,
                &h.team_dice_left,
                1.0,
            ));
        }
        metrics
    }

    /// The distribution table (docs/cortex.md): `foe_out_exchange` and
    /// `hero_out_exchange` (`1` .. `N`, `never`), `final_foe_stress` and
    /// `final_hero_stress` (`none`, `d4` .. `d12`, `out`).
    pub fn rows(&self, h: &ConflictHists<f64>) -> Vec<DistRow> {
        let mut rows = Vec::new();
        for (variable, hist) in [
            (m::FOE_OUT_EXCHANGE.name, &h.foe_out),
            (m::HERO_OUT_EXCHANGE.name, &h.hero_out),
        ] {
            for exchange in 1..=self.last_row(h) {
                rows.push(DistRow::new(variable, exchange, hist.get(exchange)));
            }
            rows.push(DistRow::new(variable, "never", 1.0 - hist.mass()));
        }
        for (variable, hist) in [
            (m::FINAL_FOE_STRESS.name, &h.final_foe_stress),
            (m::FINAL_HERO_STRESS.name, &h.final_hero_stress),
        ] {
            for code in 0..=OUT_CODE {
                let outcome = match code {
                    0 => "none".to_string(),
                    OUT_CODE => "out".to_string(),
                    _ => effect_step_label(code as u32 - 1),
                };
                rows.push(DistRow::new(variable, outcome, hist.get(code)));
            }
        }
        rows
    }

    /// The last exchange the distributions list: the cap, or without one
    /// the last exchange that holds probability (docs/cortex.md).
    fn last_row(&self, h: &ConflictHists<f64>) -> i64 {
        match self.exchanges {
            Some(cap) => i64::from(cap),
            None => h
                .exchanges
                .support()
                .filter(|&(_, p)| p > 0.0)
                .map(|(k, _)| k)
                .last()
                .unwrap_or(1),
        }
    }

    /// The tallies' size before a fight is played: the cap, or one
    /// exchange for an uncapped fight (they grow as fights last).
    fn tally_range(&self) -> u32 {
        self.exchanges.unwrap_or(1)
    }

    /// What a reader must be told about this result (docs/cortex.md, "Until
    /// one side is out"): a capped fight that leaves more than 1 % of the
    /// fights unresolved, whose conditional mean sees only the fast wins,
    /// and an uncapped one stopped at its bound with probability unresolved.
    fn conflict_warnings(&self, metrics: &[Metric]) -> Vec<String> {
        let value = |name: &str| {
            crate::distribution::metric(metrics, name)
                .and_then(|m| m.value)
                .unwrap_or(0.0)
        };
        let neither = value(m::P_NEITHER.name);
        match self.exchanges {
            Some(cap) if neither > CAPPED_WARNING_SHARE => vec![format!(
                "capped at {cap} exchange{}: {:.1} % of fights are unresolved (p_neither), so mean_exchanges_to_foe_out is conditional on the foe going down within the cap; leave out exchanges to play every fight out",
                if cap == 1 { "" } else { "s" },
                neither * 100.0
            )],
            // Above the chain's stopping mass with room for rounding: only
            // a fight stopped at the bound leaves this much.
            None if neither > 10.0 * UNRESOLVED_MASS => vec![format!(
                "stopped after {UNCAPPED_EXCHANGES} exchanges with {neither:e} of the fights unresolved (p_neither)"
            )],
            _ => Vec::new(),
        }
    }

    fn evaluation(&self, h: &ConflictHists<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass: None,
        }
    }

    /// How the foe is written in a case name: "d8 d6", "d6 + 3d6 mob",
    /// "3d6 mob" (docs/cortex.md).
    fn foe_label(&self) -> String {
        match self.mob {
            None => self.foe.to_string(),
            Some(mob) => {
                let team = Pool::new(vec![mob.die; mob.count as usize]);
                if self.foe.is_empty() {
                    format!("{team} mob")
                } else {
                    format!("{} + {team} mob", self.foe)
                }
            }
        }
    }
}

impl SystemCase for ConflictCase {
    fn system(&self) -> System {
        System::CortexConflict
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = Map::new();
        inputs.insert(HERO.name.into(), json!(self.hero.to_string()));
        if !self.foe.is_empty() {
            inputs.insert(FOE.name.into(), json!(self.foe.to_string()));
        }
        if let Some(mob) = self.mob {
            let team = Pool::new(vec![mob.die; mob.count as usize]);
            inputs.insert(MOB.name.into(), json!(team.to_string()));
        }
        if let Some(cap) = self.exchanges {
            inputs.insert(EXCHANGES.name.into(), json!(cap));
        }
        inputs.insert(FOE_ACTS.name.into(), json!(self.foe_acts));
        inputs.insert(
            HERO_STRESS_LIMIT.name.into(),
            json!(self.hero_stress_limit.to_string()),
        );
        if self.mob.is_none() {
            inputs.insert(
                FOE_STRESS_LIMIT.name.into(),
                json!(self.foe_stress_limit.to_string()),
            );
        }
        self.rules.insert_opposed_inputs(&mut inputs);
        inputs.insert(
            EFFECT_STEP_DOWN.name.into(),
            json!(self.rules.effect_step_down),
        );
        inputs
    }

    /// Both pools every half exchange, for the cap or a typical fight of
    /// [`cost::MC_TYPICAL_EXCHANGES`].
    fn mc_trial_nanos(&self) -> f64 {
        let exchanges = self.exchanges.map_or(cost::MC_TYPICAL_EXCHANGES, |cap| {
            f64::from(cap).min(cost::MC_TYPICAL_EXCHANGES)
        });
        let rolls = exchanges * self.actors().len() as f64;
        let dice = (self.hero.len() + self.foe.len()) as f64;
        cost::mc_trial_nanos(dice, rolls, cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        Ok(self.evaluation(&self.exact_hists(budget)?))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?))
    }

    fn warnings(&self, metrics: &[Metric]) -> Vec<String> {
        self.conflict_warnings(metrics)
    }

    /// "d10 2d8 d6 vs d8 d6" (or "... vs d6 + 3d6 mob") when `hero` and the
    /// foe (`foe` or `mob`) are swept (docs/cortex.md).
    fn sweep_name(&self, swept: &[String]) -> Option<String> {
        let has = |k: &str| swept.iter().any(|s| s == k);
        (has(HERO.name) && (has(FOE.name) || has(MOB.name)))
            .then(|| format!("{} vs {}", self.hero, self.foe_label()))
    }
}

#[cfg(test)]
mod tests;
