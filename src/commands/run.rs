//! `oddsmith run SCENARIO.toml` (SPEC 8): evaluate one scenario, write its
//! report folder (unless `--no-report`) and print the report.
//!
//! Everything is evaluated and rendered in memory, and the results printed,
//! before the folder is written (as a whole, `report::folder`), so a Ctrl-C
//! (exit 130) or a failure leaves the previous report as it was.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_scenario, Settings};
use super::output::print_report;
use super::reproduce::{run_command, setting_flags};
use crate::cli::RunArgs;
use crate::report;
use crate::scenario;

/// Runs the `run` command.
pub fn run(args: &RunArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let scenario = scenario::load(&args.scenario)?;
    let settings = Settings::resolve(&args.common, scenario.trials, scenario.seed)?;
    let report = evaluate_scenario(&scenario, &settings, cancel)?;
    // The results reach stdout first: a report folder that cannot be
    // written (a full disk, a folder in the way) costs the files, never the
    // results of a long run.
    print_report(&report, settings.format)?;
    if !args.no_report {
        let dir = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("reports").join(&scenario.name));
        let flags = setting_flags(
            args.common.trials,
            args.common.seed,
            args.common.method,
            args.no_charts,
        );
        let command = run_command(&args.scenario, args.out.as_deref(), flags);
        let files = report::folder_files(&report, !args.no_charts, &command)?;
        crate::interrupt::start_writing(cancel)?;
        let written = report::write_folder(&dir, &files, !args.no_charts);
        crate::interrupt::finish_writing();
        written?;
        if !settings.quiet {
            crate::messages::say(format_args!("report written to {}", dir.display()));
        }
    }
    Ok(())
}
