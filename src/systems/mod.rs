//! What a dice system is, and the list of systems oddsmith knows.
//!
//! A system says what is rolled and how the faces are scored, and gives two
//! ways to get the distribution of outcomes: an exact method (within a work
//! budget) and a Monte Carlo method. Both end in the same [`Evaluation`],
//! whose metrics come from one function per system, so every metric is
//! computed by the same code for both methods and tests can hold the two
//! against each other.

pub mod advantage;
pub mod conflict;
pub mod cortex;
pub mod scene;
pub mod storytelling;

use serde_json::{Map, Value};

use crate::distribution::Evaluation;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{OptionError, Options};

/// One resolved case of some system, ready to evaluate.
pub trait SystemCase: Send + Sync + std::fmt::Debug {
    /// The `system` name as written in scenarios and output.
    fn system(&self) -> &'static str;
    /// Every resolved option, defaults included, in a stable order; options
    /// that do not apply are left out (SPEC 8, `inputs`).
    fn inputs(&self) -> Map<String, Value>;
    /// The exact distribution, or why it cannot be had within `budget`.
    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError>;
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

/// Every system: its name and the keys a case of it accepts.
pub const SYSTEMS: &[(&str, &[&str])] = &[
    ("cortex", cortex::KEYS),
    ("cortex-scene", scene::KEYS),
    ("cortex-conflict", conflict::KEYS),
    ("storytelling", storytelling::KEYS),
    ("advantage", advantage::KEYS),
];

/// The systems that accept `key`, for "it belongs to ..." hints.
pub fn systems_with_key(key: &str) -> Vec<&'static str> {
    SYSTEMS
        .iter()
        .filter(|(_, keys)| keys.contains(&key))
        .map(|(name, _)| *name)
        .collect()
}

/// The keys a case of `system` accepts (empty for an unknown system).
pub fn keys_of(system: &str) -> &'static [&'static str] {
    SYSTEMS
        .iter()
        .find(|(name, _)| *name == system)
        .map_or(&[], |(_, keys)| keys)
}

/// The defaults tables a case of `system` reads, lowest precedence first.
pub fn defaults_tables(system: &str) -> Vec<&'static str> {
    match system {
        "cortex" => vec!["cortex"],
        "cortex-scene" => vec!["cortex", "cortex-scene"],
        "cortex-conflict" => vec!["cortex", "cortex-conflict"],
        "advantage" => vec!["advantage"],
        "storytelling" => vec!["storytelling"],
        _ => vec![],
    }
}

/// The keys that name a case of `system` when none is given (quick
/// commands and unnamed `[[case]]`s), as a sweep over them would.
pub fn main_keys(system: &str) -> &'static [&'static str] {
    match system {
        "cortex" => &["pool", "vs", "difficulty"],
        "cortex-scene" => &["pool", "doom", "actions"],
        "cortex-conflict" => &["hero", "foe", "mob"],
        "advantage" => &["die", "stat", "rolls", "policy", "threshold"],
        "storytelling" => &["dice", "modifier"],
        _ => &[],
    }
}

/// The names of every system, for "allowed:" messages.
pub fn system_names() -> Vec<&'static str> {
    SYSTEMS.iter().map(|(name, _)| *name).collect()
}

/// Resolves a case of `system` from its options.
pub fn resolve(system: &str, options: Options) -> Result<Box<dyn SystemCase>, OptionError> {
    match system {
        "cortex" => Ok(Box::new(cortex::CortexCase::from_options(options)?)),
        "cortex-scene" => Ok(Box::new(scene::SceneCase::from_options(options)?)),
        "cortex-conflict" => Ok(Box::new(conflict::ConflictCase::from_options(options)?)),
        "advantage" => Ok(Box::new(advantage::AdvantageCase::from_options(options)?)),
        "storytelling" => Ok(Box::new(storytelling::StorytellingCase::from_options(
            options,
        )?)),
        other => Err(options.case_error(format!(
            "unknown system \"{other}\"; allowed: {}",
            system_names()
                .iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
