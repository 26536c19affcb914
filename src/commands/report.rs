//! `oddsmith report [scenarios/] [--out reports/]` (docs/reports.md): runs
//! every scenario file of a folder into `<out>/<scenario name>/` and writes
//! `<out>/index.md` and `<out>/index.html` linking each folder's tables and
//! embedding its charts.
//!
//! Every scenario is loaded before any is run, so a bad file stops the
//! command (exit 2) before any work; every scenario is run and its charts
//! drawn before any file is written, so a Ctrl-C (exit 130) or a failure
//! leaves the previous reports as they were; each folder is replaced as a
//! file by file (`report::folder`) and each index file written whole or not at
//! all (`report::write_atomic`). One lock on the output folder is held over
//! all the folders and the index, so two runs at once never leave an index
//! of one beside folders of the other.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;

use super::evaluate::{evaluate_scenario, Rows, Settings};
use super::reproduce::{run_command, setting_flags};
use crate::cli::{CommonArgs, ReportArgs};
use crate::engine::monte_carlo::Interrupted;
use crate::errors::input_error;
use crate::report::index::{self, IndexEntry};
use crate::report::{self, Report};
use crate::scenario::{self, Scenario};

/// The scenario files of a folder: every `*.toml`, by file name.
pub fn scenario_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        input_error(format!(
            "cannot read the scenarios folder {}: {e}",
            dir.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        // A `*.toml` that cannot be read as a scenario is said, not
        // skipped in silence: a dangling symlink, a folder, a device.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => files.push(path),
            Ok(meta) => crate::messages::say(format_args!(
                "note: skipping {}: it is {}, not a scenario file",
                path.display(),
                if meta.is_dir() {
                    "a folder"
                } else {
                    "not a regular file"
                }
            )),
            Err(e) => crate::messages::say(format_args!(
                "note: skipping {}: {e} (a symlink to nothing?)",
                path.display()
            )),
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(input_error(format!(
            "no scenario files (*.toml) in {}",
            dir.display()
        )));
    }
    Ok(files)
}

/// The command line that regenerates the index, written into it.
fn command_line(args: &ReportArgs) -> String {
    let mut parts = vec![
        "oddsmith report".to_string(),
        args.scenarios.display().to_string(),
        format!("--out {}", args.out.display()),
    ];
    parts.extend(flags(args));
    parts.join(" ")
}

/// The flags given that change what the reports hold.
fn flags(args: &ReportArgs) -> Vec<String> {
    setting_flags(args.trials, args.seed, args.method, args.no_charts)
}

/// Runs the `report` command.
pub fn run(args: &ReportArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let files = scenario_files(&args.scenarios)?;
    let mut scenarios: Vec<(PathBuf, Scenario)> = Vec::new();
    for file in files {
        let loaded = scenario::load(&file)?;
        // The loader has already refused names that are not one plain folder name.
        if let Some((other, _)) = scenarios.iter().find(|(_, s)| s.name == loaded.name) {
            return Err(input_error(format!(
                "{} and {} are both named \"{}\": report folders are named after scenarios, so give each its own `name`",
                other.display(),
                file.display(),
                loaded.name
            )));
        }
        scenarios.push((file, loaded));
    }

    let common = CommonArgs {
        trials: args.trials,
        seed: args.seed,
        threads: args.threads,
        method: args.method,
        quiet: args.quiet,
        ..CommonArgs::default()
    };
    // One set of workers for every scenario of the run.
    let run = Settings::resolve(&common, None, None)?;
    let mut reports: Vec<(PathBuf, Report)> = Vec::new();
    for (file, scenario) in &mut scenarios {
        let settings = run.for_scenario(&common, scenario.trials, scenario.seed);
        if !args.quiet {
            crate::messages::say(format_args!(
                "running {} ({} cases)",
                file.display(),
                scenario.cases.len()
            ));
        }
        let report = evaluate_scenario(scenario, &settings, cancel, Rows::Spill)
            .with_context(|| format!("scenario {}", file.display()))?;
        reports.push((file.clone(), report));
    }

    // Everything but the files that grow with the case count (streamed into
    // each new folder as it is written) is rendered before anything is written.
    let charts = !args.no_charts;
    let mut folders = Vec::new();
    for (file, report) in &reports {
        // Each page says how to make its folder alone: `run` on its scenario.
        let folder = args.out.join(&report.name);
        let command = run_command(file, Some(&folder), flags(args));
        folders.push(report::folder_files(report, charts, &command)?);
    }
    let entries: Vec<IndexEntry<'_>> = reports
        .iter()
        .zip(&folders)
        .map(|((file, report), files)| IndexEntry {
            source: file.display().to_string(),
            folder: report.name.clone(),
            report,
            files: files.iter().map(|file| file.name.clone()).collect(),
        })
        .collect();
    let command = command_line(args);
    let index_md = index::markdown(&entries, &command);
    let index_html = index::html(&entries, &command);
    if cancel.load(Ordering::SeqCst) {
        return Err(Interrupted.into());
    }

    // From here on Ctrl-C waits for the writing to finish, so the folders
    // and the index stay consistent with one another.
    crate::interrupt::start_writing(cancel)?;
    let written = (|| -> anyhow::Result<()> {
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        let lock = report::folder::ParentLock::take(&args.out, &args.out, cancel)?;
        for ((_, report), files) in reports.iter().zip(&folders) {
            report::write_folder(
                &args.out.join(&report.name),
                files,
                charts,
                Some(&lock),
                cancel,
            )?;
        }
        report::write_atomic(&args.out.join("index.md"), &index_md)?;
        report::write_atomic(&args.out.join("index.html"), &index_html)
    })();
    crate::interrupt::finish_writing();
    written?;
    if !args.quiet {
        crate::messages::say(format_args!(
            "wrote {} report folders, index.md and index.html to {}",
            reports.len(),
            args.out.display()
        ));
    }
    Ok(())
}
