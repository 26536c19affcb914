//! What a command does: resolve the arguments into cases and settings,
//! evaluate every case with the chosen method, and hand the report to the
//! writers (stdout and, for `run`, the report folder).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};

use anyhow::Context;

use crate::balance::{self, BalanceResult, BalanceSpec};
use crate::cli::{
    AdvantageArgs, BalanceArgs, Cli, Command, CommonArgs, ConflictArgs, CortexArgs, FormatArg,
    MethodArg, RollRuleArgs, RunArgs, SceneArgs,
};
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
        Command::Scene(args) => {
            let settings = Settings::resolve(&args.common, None, None)?;
            let case = quick_case("cortex-scene", scene_flags(&args))?;
            quick(case, settings, cancel)
        }
        Command::Conflict(args) => {
            let settings = Settings::resolve(&args.common, None, None)?;
            let case = quick_case("cortex-conflict", conflict_flags(&args))?;
            quick(case, settings, cancel)
        }
        Command::Balance(args) => quick_balance(&args),
        Command::Advantage(args) => {
            let settings = Settings::resolve(&args.common, None, None)?;
            let case = quick_case("advantage", advantage_flags(&args)?)?;
            quick(case, settings, cancel)
        }
        Command::Storytelling(args) => {
            let settings = Settings::resolve(&args.common, None, None)?;
            let flags = systems::storytelling::quick_flags(&args)?;
            quick(quick_case("storytelling", flags)?, settings, cancel)
        }
        Command::Report(args) => crate::batch::run(&args, cancel),
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

/// The shared Cortex roll-rule flags as scenario keys.
fn roll_rule_flags(rules: &RollRuleArgs) -> [(&'static str, Option<RawValue>); 4] {
    [
        ("ties", rules.ties.clone().map(RawValue::Str)),
        ("heroic_step", rules.heroic_step.map(RawValue::Int)),
        ("keep", rules.keep.map(RawValue::Int)),
        ("reaction_keep", rules.reaction_keep.map(RawValue::Int)),
    ]
}

fn cortex_flags(args: &CortexArgs) -> Vec<(&'static str, Option<RawValue>)> {
    let mut flags = vec![
        ("pool", Some(RawValue::Str(args.pool.clone()))),
        ("vs", args.vs.clone().map(RawValue::Str)),
        ("difficulty", args.difficulty.map(RawValue::Int)),
        (
            "effect_step_down",
            args.effect_step_down.map(RawValue::Bool),
        ),
        ("policy", args.policy.clone().map(RawValue::Str)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    flags
}

fn scene_flags(args: &SceneArgs) -> Vec<(&'static str, Option<RawValue>)> {
    let mut flags = vec![
        ("pool", Some(RawValue::Str(args.pool.clone()))),
        ("doom", args.doom.clone().map(RawValue::Str)),
        ("actions", args.actions.map(RawValue::Int)),
        ("end_at_2d12", args.end_at_2d12.map(RawValue::Bool)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    flags
}

fn conflict_flags(args: &ConflictArgs) -> Vec<(&'static str, Option<RawValue>)> {
    let mut flags = vec![
        ("hero", Some(RawValue::Str(args.hero.clone()))),
        ("foe", args.foe.clone().map(RawValue::Str)),
        ("mob", args.mob.clone().map(RawValue::Str)),
        ("exchanges", args.exchanges.map(RawValue::Int)),
        ("foe_acts", args.foe_acts.map(RawValue::Bool)),
        (
            "hero_stress_limit",
            args.hero_stress_limit.clone().map(RawValue::Str),
        ),
        (
            "foe_stress_limit",
            args.foe_stress_limit.clone().map(RawValue::Str),
        ),
        (
            "effect_step_down",
            args.effect_step_down.map(RawValue::Bool),
        ),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    flags
}

/// A list flag as the array a scenario would hold.
fn string_list<'a>(items: impl Iterator<Item = &'a str>) -> RawValue {
    RawValue::Array(
        items
            .map(|s| RawItem::new(RawValue::Str(s.trim().to_string())))
            .collect(),
    )
}

/// `oddsmith balance`: resolve the flags like a `[[balance]]` table, answer
/// exactly and print.
fn quick_balance(args: &BalanceArgs) -> anyhow::Result<()> {
    // `--ladder "2d6,3d8,"`: empty pieces (a trailing comma) are dropped;
    // nothing left is an empty ladder, refused by the balance itself.
    let ladder = args
        .ladder
        .as_ref()
        .map(|text| string_list(text.split(',').filter(|piece| !piece.trim().is_empty())));
    let mut flags = vec![
        (
            "pools",
            Some(string_list(args.pools.iter().map(String::as_str))),
        ),
        ("target", args.target.map(RawValue::Float)),
        ("target_heroic", args.target_heroic.map(RawValue::Float)),
        ("ladder", ladder),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    let entries = flags
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), RawItem::new(v))))
        .collect();
    let options = Options::new("balance", KeyStyle::Flag, entries);
    let spec = BalanceSpec::from_options(options).map_err(|e| input_error(e.message))?;
    let results = spec.evaluate()?;
    let bytes = match args.format {
        FormatArg::Table => balance::to_table(&results).into_bytes(),
        FormatArg::Csv => balance::to_csv(&results)?,
        FormatArg::Json => {
            let value = serde_json::json!({
                "tool": "oddsmith",
                "version": env!("CARGO_PKG_VERSION"),
                "balance": balance::to_json(&results),
            });
            report::json::to_bytes(&value)
        }
    };
    write_stdout(&bytes)
}

fn advantage_flags(args: &AdvantageArgs) -> anyhow::Result<Vec<(&'static str, Option<RawValue>)>> {
    let gain_on = match &args.gain_on {
        Some(text) => Some(systems::advantage::gain_on_flag(text).map_err(input_error)?),
        None => None,
    };
    Ok(vec![
        ("die", args.die.clone().map(RawValue::Str)),
        ("stat", args.stat.map(RawValue::Int)),
        ("rolls", args.rolls.map(RawValue::Int)),
        ("policy", args.policy.clone().map(RawValue::Str)),
        ("threshold", args.threshold.map(RawValue::Int)),
        ("gain_on", gain_on),
        ("gain_chance", args.gain_chance.map(RawValue::Float)),
        (
            "gm_reduce_chance",
            args.gm_reduce_chance.map(RawValue::Float),
        ),
        ("miss_max", args.miss_max.map(RawValue::Int)),
        ("strong_min", args.strong_min.map(RawValue::Int)),
        ("on_use", args.on_use.clone().map(RawValue::Str)),
    ])
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
    // Balances are exact whatever --method says: each rung is one opposed roll.
    let mut balances = Vec::new();
    for spec in &scenario.balances {
        balances.extend(spec.evaluate()?);
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
        let mut files = report::folder_files(&report, !args.no_charts)?;
        if !balances.is_empty() {
            add_balance_files(&report, &balances, &mut files)?;
        }
        crate::interrupt::start_writing(cancel)?;
        let written = report::write_folder(&dir, &files, !args.no_charts);
        crate::interrupt::finish_writing();
        written?;
        if !settings.quiet {
            eprintln!("report written to {}", dir.display());
        }
    }
    if balances.is_empty() {
        print_report(&report, settings.format)
    } else {
        print_with_balances(&report, &balances, settings.format)
    }
}

/// Adds `balance.csv` to a report folder and the `balance` key to its `run.json`.
pub fn add_balance_files(
    report: &Report,
    balances: &[BalanceResult],
    files: &mut Vec<(String, Vec<u8>)>,
) -> anyhow::Result<()> {
    let mut run_json = report::json::report_json(report, true);
    run_json["balance"] = balance::to_json(balances);
    let bytes = report::json::to_bytes(&run_json);
    match files.iter_mut().find(|(name, _)| name == "run.json") {
        Some(entry) => entry.1 = bytes,
        None => files.push(("run.json".into(), bytes)),
    }
    files.push(("balance.csv".into(), balance::to_csv(balances)?));
    Ok(())
}

/// Prints a run that answered balances: the cases (if any), then the
/// balances; in JSON one object with both `results` and `balance`; in CSV
/// the summary table, a blank line and the balance table (either alone when
/// the other is empty).
fn print_with_balances(
    report: &Report,
    balances: &[BalanceResult],
    format: FormatArg,
) -> anyhow::Result<()> {
    let has_cases = !report.results.is_empty();
    let bytes = match format {
        FormatArg::Table => {
            let mut text = String::new();
            if has_cases {
                text.push_str(&report::table::render(report));
                text.push('\n');
            }
            text.push_str(&balance::to_table(balances));
            text.into_bytes()
        }
        FormatArg::Csv => {
            let mut bytes = Vec::new();
            if has_cases {
                bytes.extend(report::csv::summary(report)?);
                bytes.push(b'\n');
            }
            bytes.extend(balance::to_csv(balances)?);
            bytes
        }
        FormatArg::Json => {
            let mut value = report::json::report_json(report, false);
            value["balance"] = balance::to_json(balances);
            report::json::to_bytes(&value)
        }
    };
    write_stdout(&bytes)
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
    write_stdout(&bytes)
}

/// Writes results to stdout; a closed pipe is not an error.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}
