//! `oddsmith run SCENARIO.toml` (docs/reports.md): evaluate one scenario, write its
//! report folder (unless `--no-report`) and print the report.
//!
//! Everything is evaluated, and the results printed, before the folder is
//! written (`report::folder`: every new file is written whole under a
//! temporary name before any replaces its old version), so a Ctrl-C (exit
//! 130) or a failure leaves the previous report as it was.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_scenario, Rows, Settings};
use super::output::print_report;
use super::reproduce::{run_command, setting_flags};
use crate::cli::RunArgs;
use crate::report;
use crate::scenario;

/// Runs the `run` command.
pub fn run(args: &RunArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let mut scenario = scenario::load(&args.scenario)?;
    let settings = Settings::resolve(&args.common, scenario.trials, scenario.seed)?;
    let mut systems = Vec::new();
    for case in &scenario.cases {
        if !systems.contains(&case.spec.system()) {
            systems.push(case.spec.system());
        }
    }
    let spec = super::pivot::spec(&args.pivot, &systems)?;
    // A grid's tails (`successes>=2`) read the distribution rows.
    let rows = if args.no_report && spec.is_none() {
        Rows::Drop
    } else {
        Rows::Spill
    };
    let mut report = evaluate_scenario(&mut scenario, &settings, cancel, rows)?;
    let tables = std::mem::take(&mut report.presentation.tables);
    report.presentation = super::pivot::presentation(spec, &args.pivot, None);
    report.presentation.tables = tables;
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
        let written = report::write_folder(&dir, &files, !args.no_charts, None, cancel);
        crate::interrupt::finish_writing();
        written?;
        if !settings.quiet {
            crate::messages::say(written_to(&dir, &files));
        }
    }
    Ok(())
}

/// "report written to DIR", and the charts in it (each PNG also as SVG),
/// said after the results so it does not scroll away above a long table.
fn written_to(dir: &Path, files: &[report::FolderFile<'_>]) -> String {
    let mut note = format!("report written to {}", dir.display());
    let charts: Vec<String> = files
        .iter()
        .filter(|file| file.name.ends_with(".png"))
        .map(|file| dir.join(&file.name).display().to_string())
        .collect();
    if !charts.is_empty() {
        note.push_str("\ncharts (each also as .svg):");
        for chart in charts {
            note.push_str(&format!("\n  {chart}"));
        }
    }
    note
}
