//! oddsmith: exact and Monte Carlo odds for tabletop dice mechanics (Cortex
//! Plus pools and doom pools, Storytelling d10 pools, the advantage die),
//! with reports designers can publish.
//!
//! Data flows one way: scenario TOML or command-line flags become validated
//! [`systems::Case`]s ([`scenario`], [`options`]); each case is evaluated by
//! the exact engine or the parallel Monte Carlo engine ([`engine`]) into an
//! [`distribution::Evaluation`]; the [`report`] writers turn evaluations into
//! tables, CSV, JSON and charts. [`balance`] answers the designer's inverse
//! question: which doom pool gives a hero pool the chance they want.
//! [`systems::System`] is the one list of systems. [`commands`] sits on top:
//! it turns the parsed command line ([`cli`]) into cases, evaluates them into
//! one report and writes it; the binary only adds the exit codes and the
//! Ctrl-C handler.

pub mod balance;
pub mod cli;
pub mod commands;
pub mod dice;
pub mod distribution;
pub(crate) mod echo;
pub mod engine;
pub mod errors;
pub mod interrupt;
pub(crate) mod key_flags;
pub(crate) mod line_index;
pub mod messages;
pub mod options;
pub(crate) mod progress;
pub mod report;
pub mod scenario;
pub mod serve;
pub mod stats;
pub(crate) mod sweep;
pub mod systems;
