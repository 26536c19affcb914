//! What a dice system is, and the list of systems oddsmith knows.
//!
//! A system says what is rolled and how the faces are scored, and gives two
//! ways to get the distribution of outcomes: an exact method (within a work
//! budget) and a Monte Carlo method. Both end in the same [`Evaluation`],
//! whose metrics come from one function per system, so every metric is
//! computed by the same code for both methods and tests can hold the two
//! against each other.

pub mod advantage;
pub mod cortex;
pub use cortex::scene;
pub mod storytelling;

use serde_json::{Map, Value};

use crate::distribution::Evaluation;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{Entries, KeyStyle, OptionError, Options};

/// One resolved case of some system, ready to evaluate.
pub trait SystemCase: Send + Sync + std::fmt::Debug {
    /// The system this is a case of.
    fn system(&self) -> System;
    /// Every resolved option, defaults included, in a stable order; options
    /// that do not apply are left out (SPEC 8, `inputs`).
    fn inputs(&self) -> Map<String, Value>;
    /// The inputs a generated case name may show: all of them, unless a
    /// system leaves out main keys at their defaults (SPEC 12: an advantage
    /// case names `counters` and `party` only when they differ from 1).
    fn naming_inputs(&self) -> Map<String, Value> {
        self.inputs()
    }
    /// The exact distribution, or why it cannot be had within `budget`.
    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError>;
    /// The exact probability metrics as `"numerator/denominator"` in lowest
    /// terms (SPEC 8, `--fractions`), for engines that count outcomes
    /// exactly; `None` otherwise or when exact cannot answer.
    fn exact_fractions(&self, _budget: &mut Budget) -> Option<Vec<(String, String)>> {
        None
    }
    /// A Monte Carlo estimate.
    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted>;
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
    /// One Cortex Plus roll (SPEC 2).
    Cortex,
    /// A doom-pool scene of several Cortex actions (SPEC 5).
    CortexScene,
    /// A hero and a foe trading stress, exchange by exchange (SPEC 9).
    CortexConflict,
    /// One Storytelling d10 pool (SPEC 3).
    Storytelling,
    /// 2d6 + stat encounters with an advantage die (SPEC 4).
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
                    "unknown system \"{name}\"; allowed: {}",
                    System::ALL
                        .iter()
                        .map(|s| format!("\"{s}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }

    /// The keys a case of this system accepts.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            System::Cortex => cortex::KEYS,
            System::CortexScene => scene::KEYS,
            System::CortexConflict => cortex::conflict::KEYS,
            System::Storytelling => storytelling::KEYS,
            System::Advantage => advantage::KEYS,
        }
    }

    /// The defaults tables a case of this system reads, lowest precedence
    /// first: a scene and a conflict read `[cortex]` for their roll rules (SPEC 7).
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
    /// unnamed `[[case]]`s), as a sweep over them would.
    pub fn main_keys(self) -> &'static [&'static str] {
        match self {
            System::Cortex => &["pool", "vs", "difficulty"],
            System::CortexScene => &["pool", "doom", "actions"],
            System::CortexConflict => &["hero", "foe", "mob"],
            System::Storytelling => &["dice", "modifier"],
            System::Advantage => &[
                "die",
                "stat",
                "rolls",
                "policy",
                "threshold",
                "counters",
                "party",
                "share",
            ],
        }
    }

    /// Resolves a case of this system from its options.
    pub fn resolve(self, options: Options) -> Result<Box<dyn SystemCase>, OptionError> {
        Ok(match self {
            System::Cortex => Box::new(cortex::CortexCase::from_options(options)?),
            System::CortexScene => Box::new(scene::SceneCase::from_options(options)?),
            System::CortexConflict => {
                Box::new(cortex::conflict::ConflictCase::from_options(options)?)
            }
            System::Storytelling => {
                Box::new(storytelling::StorytellingCase::from_options(options)?)
            }
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

/// The names of the systems that accept `key`, for "it belongs to ..." hints.
pub fn systems_with_key(key: &str) -> Vec<&'static str> {
    System::ALL
        .into_iter()
        .filter(|system| system.keys().contains(&key))
        .map(System::name)
        .collect()
}
