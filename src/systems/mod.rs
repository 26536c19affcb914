//! What a dice system is, and the list of systems oddsmith knows.
//!
//! A system says what is rolled and how the faces are scored, and gives two
//! ways to get the distribution of outcomes: an exact method (within a work
//! budget) and a Monte Carlo method. Both end in the same [`Evaluation`],
//! whose metrics come from one function per system, so every metric is
//! computed by the same code for both methods and tests can hold the two
//! against each other.

pub mod advantage;
pub mod applies;
pub mod cortex;
#[cfg(test)]
mod key_tests;
pub(crate) mod metrics;
pub mod storytelling;

use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::distribution::{Evaluation, Metric};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{
    allowed, did_you_mean, Entries, KeyDef, KeyStyle, OptionError, Options, RawItem, RawValue,
};
use metrics::MetricDef;

/// One resolved case of some system, ready to evaluate.
pub trait SystemCase: Send + Sync + std::fmt::Debug {
    /// The system this is a case of.
    fn system(&self) -> System;
    /// Every resolved option, defaults included, in a stable order; options
    /// that do not apply are left out (docs/reports.md, `inputs`).
    fn inputs(&self) -> Map<String, Value>;
    /// The inputs a generated case name may show: all of them, unless a
    /// system leaves out main keys at their defaults (docs/advantage.md: an advantage
    /// case names `counters` and `party` only when they differ from 1).
    fn naming_inputs(&self) -> Map<String, Value> {
        self.inputs()
    }
    /// The exact distribution, or why it cannot be had within `budget`.
    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError>;
    /// The exact probability metrics as `"numerator/denominator"` in lowest
    /// terms (docs/reports.md, `--fractions`), for engines that count outcomes
    /// exactly; `None` otherwise or when exact cannot answer.
    fn exact_fractions(&self, _budget: &mut Budget) -> Option<Vec<(String, String)>> {
        None
    }
    /// The predicted nanoseconds of one Monte Carlo trial on one core
    /// (the cost model, [`crate::engine::cost::mc_trial_nanos`]), so
    /// `--method auto` can weigh exact against sampling.
    fn mc_trial_nanos(&self) -> f64;
    /// A Monte Carlo estimate.
    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted>;
    /// The names of the metrics this case reports, in order (what a
    /// balance may aim at). The names never depend on the numbers, so one
    /// Monte Carlo trial tells them.
    fn metric_names(&self) -> Vec<String> {
        let one_trial = McSettings {
            trials: 1,
            seed: 0,
            cancel: None,
            progress: None,
        };
        self.monte_carlo(&one_trial)
            .map(|e| e.metrics.into_iter().map(|m| m.name).collect())
            .unwrap_or_default()
    }
    /// What a reader of this case's `metrics` must be told, one line each
    /// (docs/reports.md, "Nothing silent"): a capped conflict that leaves
    /// many fights unresolved. Most systems have nothing to say.
    fn warnings(&self, _metrics: &[Metric]) -> Vec<String> {
        Vec::new()
    }
    /// The keys that name a case of this system when they are swept together
    /// (`pool` and `vs` give "d10 2d8 d6 vs 2d6"); `None` for key=value names.
    fn sweep_name(&self, _swept: &[String]) -> Option<String> {
        None
    }
}

/// A named case.
#[derive(Debug)]
pub struct Case {
    pub name: String,
    pub spec: Box<dyn SystemCase>,
}

/// Every dice system oddsmith knows: the one registry. Each per-system
/// `match` below is exhaustive, so adding a variant makes the compiler list
/// what a new system must say (its name, keys, defaults tables, naming keys,
/// how a case resolves), and likewise for the chart builders
/// (`report::chart::charts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum System {
    /// One Cortex Plus roll (docs/cortex.md).
    Cortex,
    /// A doom-pool scene of several Cortex actions (docs/cortex.md).
    CortexScene,
    /// A hero and a foe trading stress, exchange by exchange (docs/cortex.md).
    CortexConflict,
    /// One Storytelling d10 pool (docs/storytelling.md).
    Storytelling,
    /// 2d6 + stat encounters with an advantage die (docs/advantage.md).
    Advantage,
}

impl System {
    /// Every system, in the order "allowed:" messages list them.
    pub const ALL: [System; 5] = [
        System::Cortex,
        System::CortexScene,
        System::CortexConflict,
        System::Storytelling,
        System::Advantage,
    ];

    /// The `system` name as written in scenarios, defaults tables (`[cortex]`),
    /// chart file names and output.
    pub fn name(self) -> &'static str {
        match self {
            System::Cortex => "cortex",
            System::CortexScene => "cortex-scene",
            System::CortexConflict => "cortex-conflict",
            System::Storytelling => "storytelling",
            System::Advantage => "advantage",
        }
    }

    /// The system called `name`, or a message naming every allowed one.
    pub fn from_name(name: &str) -> Result<System, String> {
        System::ALL
            .into_iter()
            .find(|system| system.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown system \"{name}\"{}; {}",
                    did_you_mean(name, System::ALL.map(System::name)),
                    allowed(System::ALL.map(System::name))
                )
            })
    }

    /// The descriptors of the keys a case of this system accepts, each
    /// declared once in the system's `keys.rs`, in the order its quick
    /// command reads them.
    pub fn key_defs(self) -> &'static [&'static KeyDef] {
        match self {
            System::Cortex => cortex::keys::KEYS,
            System::CortexScene => cortex::keys::SCENE_KEYS,
            System::CortexConflict => cortex::keys::CONFLICT_KEYS,
            System::Storytelling => storytelling::keys::KEYS,
            System::Advantage => advantage::keys::KEYS,
        }
    }

    /// The names of the keys a case of this system accepts.
    pub fn keys(self) -> &'static [&'static str] {
        self.names(&KEY_NAMES, |_| true)
    }

    /// The descriptor of this system's key `name`, if it has one.
    pub fn key_def(self, name: &str) -> Option<&'static KeyDef> {
        crate::options::key::find(self.key_defs(), name)
    }

    /// The key given as the quick command's positional argument (`POOL`).
    pub fn positional_key(self) -> Option<&'static KeyDef> {
        self.key_defs().iter().copied().find(|key| key.positional)
    }

    /// The names of the keys `pick` selects, worked out once per run.
    fn names(
        self,
        cache: &'static [OnceLock<Vec<&'static str>>; SYSTEMS],
        pick: fn(&KeyDef) -> bool,
    ) -> &'static [&'static str] {
        let index = System::ALL
            .iter()
            .position(|&system| system == self)
            .expect("every system is in ALL");
        cache[index].get_or_init(|| {
            self.key_defs()
                .iter()
                .filter(|key| pick(key))
                .map(|key| key.name)
                .collect()
        })
    }

    /// The defaults tables a case of this system reads, lowest precedence
    /// first: a scene and a conflict read `[cortex]` for their roll rules (docs/scenarios.md).
    pub fn defaults_tables(self) -> &'static [System] {
        match self {
            System::Cortex => &[System::Cortex],
            System::CortexScene => &[System::Cortex, System::CortexScene],
            System::CortexConflict => &[System::Cortex, System::CortexConflict],
            System::Storytelling => &[System::Storytelling],
            System::Advantage => &[System::Advantage],
        }
    }

    /// The keys that name a case when none is given (quick commands and
    /// unnamed `[[case]]`s), as a sweep over them would: the keys declared
    /// `main`, in declaration order.
    pub fn main_keys(self) -> &'static [&'static str] {
        self.names(&MAIN_KEY_NAMES, |key| key.main)
    }

    /// The metrics `run` shows per case in its compact table (at most
    /// [`HEADLINE_COLUMNS`] of them, the first any case has); every metric
    /// stays in the report files and in CSV and JSON.
    pub fn headline_metrics(self) -> &'static [MetricDef] {
        use advantage::metrics as encounter;
        use cortex::conflict::metrics as conflict;
        use cortex::metrics as roll;
        use cortex::scene_metrics as scene;
        use storytelling::metrics as pool;
        match self {
            // An unopposed roll has no p_success: its total and hitches lead.
            System::Cortex => &[
                roll::P_SUCCESS,
                roll::P_HEROIC,
                roll::P_HITCH,
                roll::MEAN_EFFECT_STEP,
                roll::MEAN_TOTAL,
            ],
            System::CortexScene => &[
                scene::MEAN_SUCCESSES,
                scene::MEAN_PLOT_POINTS,
                scene::P_ENDED_EARLY,
                scene::MEAN_FINAL_DOOM_DICE,
            ],
            System::CortexConflict => &[
                conflict::P_FOE_OUT,
                conflict::P_HERO_OUT,
                conflict::MEAN_EXCHANGES,
                conflict::P_HERO_STRESSED,
            ],
            // An extended or contested action leads with its own answer.
            System::Storytelling => &[
                pool::P_EXTENDED_SUCCESS,
                pool::MEAN_ROLLS_TO_SUCCESS,
                pool::P_WIN,
                pool::P_TIE,
                pool::P_SUCCESS,
                pool::P_EXCEPTIONAL,
                pool::MEAN_SUCCESSES,
                pool::P_DRAMATIC,
            ],
            System::Advantage => &[
                encounter::P_STRONG,
                encounter::P_MISS,
                encounter::STRONG_PER_ENCOUNTER,
                encounter::P_ENCOUNTER_STRONG,
            ],
        }
    }

    /// What this system measures: its metrics, numbered metric families
    /// and distribution variables, declared once in its `metrics.rs`.
    pub fn declared(self) -> metrics::Declared {
        match self {
            System::Cortex => cortex::metrics::DECLARED,
            System::CortexScene => cortex::scene_metrics::DECLARED,
            System::CortexConflict => cortex::conflict::metrics::DECLARED,
            System::Storytelling => storytelling::metrics::DECLARED,
            System::Advantage => advantage::metrics::DECLARED,
        }
    }

    /// The inputs of a case of this system that differ from the system's
    /// defaults, as `key=value` labels (tables as `gain_on.miss=1`), its
    /// main keys aside (they name the case). The defaults are found by
    /// resolving a case from the main keys alone, so no default is restated
    /// here.
    pub fn changed_rules(self, inputs: &impl applies::InputLookup) -> Vec<String> {
        let main = self.main_keys();
        let entries: Entries = inputs
            .entries()
            .filter(|(k, _)| main.contains(&k.as_str()))
            .filter_map(|(k, v)| Some((k.clone(), RawItem::new(RawValue::from_json(v)?))))
            .collect();
        let Ok(defaults) = self.resolve(self.options(KeyStyle::Toml, entries)) else {
            return Vec::new();
        };
        let defaults: Vec<String> = defaults
            .inputs()
            .iter()
            .flat_map(|(k, v)| input_labels(k, v))
            .collect();
        inputs
            .entries()
            .filter(|(k, _)| !main.contains(&k.as_str()))
            .flat_map(|(k, v)| input_labels(k, v))
            .filter(|label| !defaults.contains(label))
            .collect()
    }

    /// Whether the input `key` holds the value the system would give it
    /// if it were left out (the case resolved again without it); a key
    /// that cannot be left out is never at a default.
    pub fn at_default(self, inputs: &impl applies::InputLookup, key: &str) -> bool {
        let entries: Entries = inputs
            .entries()
            .filter(|(k, _)| k.as_str() != key)
            .filter_map(|(k, v)| Some((k.clone(), RawItem::new(RawValue::from_json(v)?))))
            .collect();
        self.resolve(self.options(KeyStyle::Toml, entries))
            .is_ok_and(|case| case.inputs().get(key) == inputs.input(key))
    }

    /// Resolves a case of this system from its options.
    pub fn resolve(self, options: Options) -> Result<Box<dyn SystemCase>, OptionError> {
        Ok(match self {
            System::Cortex => Box::new(cortex::CortexCase::from_options(options)?),
            System::CortexScene => Box::new(cortex::scene::SceneCase::from_options(options)?),
            System::CortexConflict => {
                Box::new(cortex::conflict::ConflictCase::from_options(options)?)
            }
            System::Storytelling => storytelling::resolve(options)?,
            System::Advantage => Box::new(advantage::AdvantageCase::from_options(options)?),
        })
    }

    /// Options for a case of this system, whose unknown-key errors name the
    /// other systems a stray key belongs to.
    pub fn options(self, style: KeyStyle, entries: Entries) -> Options {
        Options::new(self.name(), style, entries).with_key_owners(systems_with_key)
    }
}

impl std::fmt::Display for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for System {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A compile-time guard: a new variant fails to compile here until it is
/// matched, which is the reminder to list it in [`System::ALL`] too.
const _: () = match System::Cortex {
    System::Cortex
    | System::CortexScene
    | System::CortexConflict
    | System::Storytelling
    | System::Advantage => {}
};

/// How many systems there are.
const SYSTEMS: usize = System::ALL.len();

/// Each system's key names and main key names, made from its descriptors
/// the first time they are asked for.
static KEY_NAMES: [OnceLock<Vec<&'static str>>; SYSTEMS] = [const { OnceLock::new() }; SYSTEMS];
static MAIN_KEY_NAMES: [OnceLock<Vec<&'static str>>; SYSTEMS] =
    [const { OnceLock::new() }; SYSTEMS];

/// Every system's descriptor of key `name` (a key several systems share,
/// such as `pool` or the roll rules, has one per system), in system order.
pub fn key_defs_named(name: &str) -> Vec<&'static KeyDef> {
    System::ALL
        .into_iter()
        .filter_map(|system| system.key_def(name))
        .collect()
}

/// At most this many headline metrics are shown per case, so a compact row
/// fits an 80-column terminal.
pub const HEADLINE_COLUMNS: usize = 4;

/// An input as `key=value` labels, as people write it: strings unquoted,
/// numbers in their shortest form, a table one label per entry
/// (`gain_on.miss=1`).
pub fn input_labels(key: &str, value: &Value) -> Vec<String> {
    match value {
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| input_labels(&format!("{key}.{k}"), v))
            .collect(),
        Value::String(s) => vec![format!("{key}={s}")],
        other => vec![format!("{key}={other}")],
    }
}

/// The names of the systems that accept `key`, for "it belongs to ..." hints.
pub fn systems_with_key(key: &str) -> Vec<&'static str> {
    System::ALL
        .into_iter()
        .filter(|system| system.keys().contains(&key))
        .map(System::name)
        .collect()
}
