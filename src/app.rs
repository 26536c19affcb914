//! What a command does: resolve the arguments into cases and settings,
//! evaluate every case with the chosen method, and hand the report to the
//! writers (stdout and, for `run`, the report folder).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};

use anyhow::Context;

use crate::cli::{Cli, Command, CommonArgs, CortexArgs, FormatArg, MethodArg, RunArgs};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::McSettings;
use crate::errors::input_error;
use crate::options::{KeyStyle, Options, RawItem, RawValue};
use crate::report::{self, CaseResult, MethodUsed, Report};
use crate::scenario::{self, default_case_name};
use crate::stats;
use crate::systems::{self, Case};

/// Default Monte Carlo trials per case (SPEC 7).
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Default seed: runs are reproducible unless asked otherwise (SPEC 7).
pub const DEFAULT_SEED: u64 = 1;

/// Resolved run settings.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub trials: u64,
    pub seed: u64,
    pub threads: usize,
    pub method: MethodArg,
    pub format: FormatArg,
    pub quiet: bool,
}

impl Settings {
    /// Flags over the scenario's values over the defaults.
    pub fn resolve(
        common: &CommonArgs,
        trials: Option<u64>,
        seed: Option<u64>,
    ) -> anyhow::Result<Settings> {
        let trials = common.trials.or(trials).unwrap_or(DEFAULT_TRIALS);
        if trials == 0 {
            return Err(input_error("`--trials` must be at least 1"));
        }
        if common.threads == Some(0) {
            return Err(input_error(
                "`--threads` must be at least 1 (leave it out to use every core)",
            ));
        }
        Ok(Settings {
            trials,
            seed: common.seed.or(seed).unwrap_or(DEFAULT_SEED),
            threads: common.threads.unwrap_or(0),
            method: common.method,
            format: common.format,
            quiet: common.quiet,
        })
    }
}

/// Runs a parsed command line. `cancel` is set by the Ctrl-C handler.
pub fn run(cli: Cli, cancel: &AtomicBool) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run_scenario(&args, cancel),
        Command::Cortex(args) => {
            let settings = Settings::resolve(&args.common, None, None)?;
            let case = quick_case("cortex", cortex_flags(&args))?;
            quick(case, settings, cancel)
        }
    }
}

/// Builds a quick command's single case from its flags, named from its main inputs.
pub fn quick_case(
    system: &str,
    flags: Vec<(&'static str, Option<RawValue>)>,
) -> anyhow::Result<Case> {
    let entries = flags
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), RawItem::new(v))))
        .collect();
    let options = Options::new(system, KeyStyle::Flag, entries);
    let spec = systems::resolve(system, options).map_err(|e| input_error(e.message))?;
    let main: Vec<String> = systems::main_keys(system)
        .iter()
        .map(|s| s.to_string())
        .collect();
    let name = default_case_name(spec.as_ref(), &main);
    Ok(Case { name, spec })
}

fn cortex_flags(args: &CortexArgs) -> Vec<(&'static str, Option<RawValue>)> {
    vec![
        ("pool", Some(RawValue::Str(args.pool.clone()))),
        ("vs", args.vs.clone().map(RawValue::Str)),
        ("difficulty", args.difficulty.map(RawValue::Int)),
        ("ties", args.ties.clone().map(RawValue::Str)),
        ("heroic_step", args.heroic_step.map(RawValue::Int)),
        (
            "effect_step_down",
            args.effect_step_down.map(RawValue::Bool),
        ),
        ("keep", args.keep.map(RawValue::Int)),
        ("reaction_keep", args.reaction_keep.map(RawValue::Int)),
        ("policy", args.policy.clone().map(RawValue::Str)),
    ]
}

/// Evaluates one quick case and prints it; no report folder.
pub fn quick(case: Case, settings: Settings, cancel: &AtomicBool) -> anyhow::Result<()> {
    let results = evaluate_case(&case, &settings, cancel)?;
    let report = Report {
        name: case.name.clone(),
        description: None,
        seed: settings.seed,
        trials: settings.trials,
        results,
    };
    print_report(&report, settings.format)
}

fn run_scenario(args: &RunArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let scenario = scenario::load(&args.scenario)?;
    let settings = Settings::resolve(&args.common, scenario.trials, scenario.seed)?;
    let mut results = Vec::new();
    for case in &scenario.cases {
        results.extend(evaluate_case(case, &settings, cancel)?);
    }
    let report = Report {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        seed: settings.seed,
        trials: settings.trials,
        results,
    };
    if !args.no_report {
        let dir = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("reports").join(&scenario.name));
        let files = report::folder_files(&report)?;
        crate::interrupt::start_writing(cancel)?;
        let written = report::write_folder(&dir, &files);
        crate::interrupt::finish_writing();
        written?;
        if !settings.quiet {
            eprintln!("report written to {}", dir.display());
        }
    }
    print_report(&report, settings.format)
}

/// Evaluates a case by the chosen method: one result, or two with `both`.
pub fn evaluate_case(
    case: &Case,
    settings: &Settings,
    cancel: &AtomicBool,
) -> anyhow::Result<Vec<CaseResult>> {
    // Exact methods do not look at the flag; a run of many exact cases
    // stops here, between them.
    crate::interrupt::check(cancel)?;
    let exact = || -> Result<CaseResult, ExactError> {
        let evaluation = case.spec.exact(&mut Budget::interactive())?;
        Ok(CaseResult {
            case: case.name.clone(),
            system: case.spec.system(),
            inputs: case.spec.inputs(),
            method: MethodUsed::Exact,
            trials: None,
            seed: None,
            evaluation,
            ci95: Vec::new(),
            z_vs_exact: None,
        })
    };
    let refuse = |e: ExactError| anyhow::Error::new(e).context(format!("case \"{}\"", case.name));
    match settings.method {
        MethodArg::Exact => Ok(vec![exact().map_err(refuse)?]),
        MethodArg::Mc => Ok(vec![monte_carlo(case, settings, cancel, None)?]),
        MethodArg::Auto => match exact() {
            Ok(result) => Ok(vec![result]),
            Err(_) => Ok(vec![monte_carlo(case, settings, cancel, None)?]),
        },
        MethodArg::Both => {
            let exact = exact().map_err(refuse)?;
            let mc = monte_carlo(case, settings, cancel, Some(&exact))?;
            Ok(vec![exact, mc])
        }
    }
}

fn monte_carlo(
    case: &Case,
    settings: &Settings,
    cancel: &AtomicBool,
    exact: Option<&CaseResult>,
) -> anyhow::Result<CaseResult> {
    let counter = AtomicU64::new(0);
    let mc_settings = McSettings {
        trials: settings.trials,
        seed: settings.seed,
        threads: settings.threads,
        cancel: Some(cancel),
        progress: Some(&counter),
    };
    let evaluation = crate::progress::with_bar(
        &case.name,
        settings.trials,
        crate::progress::wanted(settings.quiet),
        &counter,
        || case.spec.monte_carlo(&mc_settings),
    )?;
    let ci95 = evaluation
        .metrics
        .iter()
        .map(|m| stats::interval95(m, settings.trials))
        .collect();
    let z_vs_exact = exact.map(|exact| {
        evaluation
            .metrics
            .iter()
            .map(|m| {
                let e = exact.evaluation.metrics.iter().find(|e| e.name == m.name)?;
                stats::z_vs_exact(m, e, settings.trials)
            })
            .collect()
    });
    Ok(CaseResult {
        case: case.name.clone(),
        system: case.spec.system(),
        inputs: case.spec.inputs(),
        method: MethodUsed::MonteCarlo,
        trials: Some(settings.trials),
        seed: Some(settings.seed),
        evaluation,
        ci95,
        z_vs_exact,
    })
}

/// Prints the report in the chosen format. A closed pipe (`| head`) is not
/// an error: the reader has what it wanted.
pub fn print_report(report: &Report, format: FormatArg) -> anyhow::Result<()> {
    let bytes = match format {
        FormatArg::Table => report::table::render(report).into_bytes(),
        FormatArg::Csv => report::csv::summary(report)?,
        FormatArg::Json => report::json::to_bytes(&report::json::report_json(report, false)),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}
