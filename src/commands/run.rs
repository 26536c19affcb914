//! `oddsmith run SCENARIO.toml` (SPEC 8): evaluate one scenario, write its
//! report folder (unless `--no-report`) and print the report.
//!
//! Everything is evaluated and rendered in memory before the folder is
//! written, so a Ctrl-C (exit 130) or a failure leaves the previous report
//! as it was.

use std::path::{Path, PathBuf};
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
    let mut written_note = None;
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
        written_note = Some(written_to(&dir, &files));
    }
    // The results first, then where the files went, so the note does not
    // scroll away above a long table.
    print_report(&report, settings.format)?;
    if let Some(note) = written_note.filter(|_| !settings.quiet) {
        eprint!("{note}");
    }
    Ok(())
}

/// "report written to DIR", and the charts in it (each PNG also as SVG).
fn written_to(dir: &Path, files: &[(String, Vec<u8>)]) -> String {
    let mut note = format!("report written to {}\n", dir.display());
    let charts: Vec<String> = files
        .iter()
        .filter(|(name, _)| name.ends_with(".png"))
        .map(|(name, _)| dir.join(name).display().to_string())
        .collect();
    if !charts.is_empty() {
        note.push_str("charts (each also as .svg):\n");
        for chart in charts {
            note.push_str(&format!("  {chart}\n"));
        }
    }
    note
}
