//! The commands of docs/reports.md. Each turns its parsed arguments into cases and
//! settings, evaluates them into one [`crate::report::Report`] and hands it
//! to the writers: stdout always, the report folder for `run` and `report`.
//! This is the only layer that sees clap's types; exits and the Ctrl-C
//! handler stay in `main.rs`.
//!
//! Modules: [`quick`] (one case from flags), [`balance`] (`oddsmith
//! balance`), [`run`] (one scenario), [`report`] (a folder of scenarios and
//! the index), all on top of [`evaluate`] (settings, methods, a scenario
//! into a report), [`output`] (formats, shared flags, stdout) and
//! [`reproduce`] (the command lines written into reports); `serve` runs
//! the web page of [`crate::serve`], which evaluates through [`quick`].

pub(crate) mod balance;
pub mod evaluate;
pub(crate) mod output;
pub(crate) mod pivot;
pub(crate) mod quick;
pub(crate) mod report;
pub(crate) mod reproduce;
pub mod run;

use std::sync::atomic::AtomicBool;

use crate::cli::{Cli, Command};

/// Runs a parsed command line. `cancel` is set by the Ctrl-C handler.
pub fn run(cli: Cli, cancel: &AtomicBool) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run::run(&args, cancel),
        Command::Cortex(args) => quick::cortex(&args, cancel),
        Command::Scene(args) => quick::scene(&args, cancel),
        Command::Conflict(args) => quick::conflict(&args, cancel),
        Command::Balance(args) => balance::run(&args, cancel),
        Command::Advantage(args) => quick::advantage(&args, cancel),
        Command::Storytelling(args) => quick::storytelling(&args, cancel),
        Command::Report(args) => report::run(&args, cancel),
        Command::Serve(args) => crate::serve::run(&args, cancel),
    }
}
