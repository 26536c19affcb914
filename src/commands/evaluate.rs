//! Evaluation: the run settings (flags over a scenario's values over the
//! defaults), one case by the chosen method (exact, Monte Carlo, auto or
//! both, with intervals and distances from exact), and a whole scenario,
//! cases and balances, into one [`Report`].

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use crate::balance::{BalanceQuestion, BalanceResult};
use crate::cli::{CommonArgs, FormatArg, MethodArg};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError, INTERACTIVE_NANOS};
use crate::engine::monte_carlo::{McSettings, Workers};
use crate::errors::input_error;
use crate::report::chart::MAX_CHARTED_CASES;
use crate::report::spill::{drop_rows, DistributionSpill};
use crate::report::{
    CaseResult, Inputs, MethodUsed, MetricResult, Metrics, Report, ReportKind, TableLayout,
};
use crate::scenario::Scenario;
use crate::stats;
use crate::systems::Case;

/// Default Monte Carlo trials per case (docs/scenarios.md).
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Default seed: runs are reproducible unless asked otherwise (docs/scenarios.md).
pub const DEFAULT_SEED: u64 = 1;

/// The most worker threads a run starts: four per core. More only cost
/// memory and switching (`--threads 4294967295` started threads until the
/// machine gave out); results do not depend on the count (docs/reports.md).
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(4)
}

/// `RAYON_NUM_THREADS` past [`max_threads`] capped as `--threads` is, with a
/// note (at 100,000 rayon's global pool started threads for minutes); at
/// or under the cap, or not a number, it is left to rayon, which reads it.
fn capped_env_threads(quiet: bool) -> Option<usize> {
    let asked: usize = std::env::var("RAYON_NUM_THREADS")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    if asked <= max_threads() {
        return None;
    }
    if !quiet {
        crate::messages::say(format_args!(
            "note: RAYON_NUM_THREADS={asked} is more than this machine can use; running {} threads (4 per core)",
            max_threads()
        ));
    }
    Some(max_threads())
}

/// Resolved run settings.
#[derive(Debug, Clone)]
pub struct Settings {
    pub trials: u64,
    pub seed: u64,
    /// The run's Monte Carlo workers: started once, shared by every case.
    pub workers: Workers,
    pub method: MethodArg,
    pub format: FormatArg,
    pub quiet: bool,
    /// Exact Cortex results also carry their probabilities as fractions.
    pub fractions: bool,
}

impl Settings {
    /// Flags over the scenario's values over the defaults; starts the
    /// run's workers.
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
        let threads = match common.threads {
            Some(asked) if asked > max_threads() => {
                if !common.quiet {
                    crate::messages::say(format_args!(
                        "note: --threads {asked} is more than this machine can use; running {} threads (4 per core)",
                        max_threads()
                    ));
                }
                Some(max_threads())
            }
            None => capped_env_threads(common.quiet),
            asked => asked,
        };
        Ok(Settings {
            trials,
            seed: common.seed.or(seed).unwrap_or(DEFAULT_SEED),
            workers: Workers::start(threads)?,
            method: common.method,
            format: common.format,
            quiet: common.quiet,
            fractions: common.fractions,
        })
    }

    /// These settings for another scenario of the same run: flags over the
    /// scenario's values over the defaults, on the same workers.
    pub fn for_scenario(
        &self,
        common: &CommonArgs,
        trials: Option<u64>,
        seed: Option<u64>,
    ) -> Settings {
        Settings {
            trials: common.trials.or(trials).unwrap_or(DEFAULT_TRIALS),
            seed: common.seed.or(seed).unwrap_or(DEFAULT_SEED),
            ..self.clone()
        }
    }
}

/// What a scenario's run does with its results' distribution rows, which
/// only `distributions.csv` and some charts read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// A report folder is written: past the cases the charts may draw,
    /// the rows go to its table as each case is evaluated, and only those
    /// a chart may draw are kept. (A smaller scenario keeps them all:
    /// nothing would be dropped, and `oddsmith report` over many small
    /// scenarios opens no file per scenario.)
    Spill,
    /// Nothing reads them (`--no-report`): dropped as they come.
    Drop,
}

/// Evaluates every case of a scenario with `settings`, and answers its
/// balances, into its report. Memory stays bounded by what each result
/// keeps: `rows` says where the distribution rows go, and each case is
/// dropped from the scenario once evaluated (its result holds what the
/// writers read), so the cases and their results are not all held at once.
pub fn evaluate_scenario(
    scenario: &mut Scenario,
    settings: &Settings,
    cancel: &AtomicBool,
    rows: Rows,
) -> anyhow::Result<Report> {
    let cases = std::mem::take(&mut scenario.cases);
    let mut results = Vec::with_capacity(cases.len());
    let mut spill = match rows {
        Rows::Spill if cases.len() > MAX_CHARTED_CASES => Some(DistributionSpill::new()?),
        _ => None,
    };
    for case in cases {
        let mut evaluated = evaluate_case(&case, settings, cancel)?;
        drop(case);
        match (&mut spill, rows) {
            (Some(spill), _) => spill.take(&mut evaluated)?,
            (None, Rows::Drop) => drop_rows(&mut evaluated),
            (None, Rows::Spill) => {}
        }
        results.extend(evaluated);
    }
    let spilled_distributions = match spill {
        Some(spill) => Some(Arc::new(spill.finish()?)),
        None => None,
    };
    let mut balances = Vec::new();
    for question in &scenario.balances {
        balances.push(evaluate_balance(question, settings, cancel)?);
    }
    Ok(Report {
        kind: ReportKind::Cases,
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        seed: settings.seed,
        trials: settings.trials,
        results,
        balances,
        table: TableLayout::Compact,
        spilled_distributions,
        presentation: crate::report::Presentation {
            tables: scenario.tables.clone(),
            ..Default::default()
        },
    })
}

/// Answers a balance question (docs/cortex.md): every rung is evaluated like
/// any case, by the run's method, trials and seed; with `both` the exact
/// value decides.
pub fn evaluate_balance(
    question: &BalanceQuestion,
    settings: &Settings,
    cancel: &AtomicBool,
) -> anyhow::Result<BalanceResult> {
    evaluate_balance_by(question, settings, cancel, &mut |_| {})
}

/// [`evaluate_balance`], telling `used` how each rung's results were
/// computed (`oddsmith serve` shows the method; the outputs do not).
pub fn evaluate_balance_by(
    question: &BalanceQuestion,
    settings: &Settings,
    cancel: &AtomicBool,
    used: &mut dyn FnMut(&CaseResult),
) -> anyhow::Result<BalanceResult> {
    let mut values = Vec::with_capacity(question.rungs.len());
    for rung in &question.rungs {
        let results = evaluate_case(&rung.case, settings, cancel)?;
        results.iter().for_each(&mut *used);
        let value = results
            .first()
            .and_then(|result| result.value(&question.metric));
        values.push(value);
    }
    Ok(question.answer(values))
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
    let exact = |allowance: u64| -> Result<CaseResult, ExactError> {
        let evaluation = case.spec.exact(&mut Budget::new(allowance))?;
        let fractions = if settings.fractions {
            case.spec.exact_fractions(&mut Budget::new(allowance))
        } else {
            None
        };
        let metrics = evaluation
            .metrics
            .into_iter()
            .map(|metric| MetricResult {
                metric,
                ci95: None,
                z_vs_exact: None,
            })
            .collect();
        Ok(CaseResult {
            case: case.name.clone(),
            system: case.spec.system(),
            inputs: Inputs::new(case.spec.inputs()),
            method: MethodUsed::Exact,
            trials: None,
            seed: None,
            metrics: Metrics::new(metrics, None),
            rows: evaluation.rows,
            dropped_mass: evaluation.dropped_mass,
            compared: false,
            fractions,
            warnings: Vec::new(),
        })
    };
    let refuse = |e: ExactError| anyhow::Error::new(e).context(format!("case \"{}\"", case.name));
    let mut results = match settings.method {
        MethodArg::Exact => vec![exact(INTERACTIVE_NANOS).map_err(refuse)?],
        MethodArg::Mc => vec![monte_carlo(case, settings, cancel, None)?],
        MethodArg::Auto => {
            // Exact within about a second, or within what sampling would
            // take when that is longer (docs/reports.md, `--method`).
            let allowance = cost::auto_allowance(mc_nanos(case, settings));
            match exact(allowance) {
                Ok(result) => vec![result],
                Err(why) => {
                    let mut mc = monte_carlo(case, settings, cancel, None)?;
                    mc.warnings
                        .push(fallback_warning(&why, settings.trials, allowance));
                    vec![mc]
                }
            }
        }
        MethodArg::Both => {
            let exact = exact(INTERACTIVE_NANOS).map_err(refuse)?;
            let mc = monte_carlo(case, settings, cancel, Some(&exact))?;
            vec![exact, mc]
        }
    };
    for result in &mut results {
        add_warnings(case, result);
    }
    Ok(results)
}

/// Exact probability left out by a truncated chain above this is said
/// (docs/reports.md, "Nothing silent"); below it the mass cannot move a
/// printed figure, and the pruning of every long chain would be noise.
pub const TRUNCATION_WARNING_MASS: f64 = crate::engine::chain::PROMISED_DROPPED_MASS;

/// The predicted wall time, in nanoseconds, of `case`'s Monte Carlo run
/// at the run's trials on its threads (the cost model's
/// [`crate::systems::SystemCase::mc_trial_nanos`]).
fn mc_nanos(case: &Case, settings: &Settings) -> f64 {
    let threads = settings.workers.threads().max(1) as f64;
    case.spec.mc_trial_nanos() * settings.trials as f64 / threads
}

/// The line a case that fell back from exact to Monte Carlo says
/// (`allowance`: the predicted nanoseconds exact was given).
fn fallback_warning(why: &ExactError, trials: u64, allowance: u64) -> String {
    let why = match why {
        ExactError::TooLarge(what) if allowance > INTERACTIVE_NANOS => format!(
            "{what} is predicted to take the exact engine longer than sampling ({:.1} s)",
            allowance as f64 / 1e9
        ),
        ExactError::TooLarge(what) => {
            format!("{what} is more than the exact engine answers in about a second")
        }
        ExactError::Unsupported(system) => format!("the {system} system has no exact method"),
    };
    format!(
        "fell back to Monte Carlo ({} trials): {why}",
        crate::report::format::thousands(trials)
    )
}

/// Adds what the case's system has to say about the result and any
/// truncation, and says every warning on stderr, which `--quiet` does not
/// hide (it hides progress only).
fn add_warnings(case: &Case, result: &mut CaseResult) {
    if let Some(mass) = result.dropped_mass.filter(|&m| m > TRUNCATION_WARNING_MASS) {
        result.warnings.push(format!(
            "the exact chain left out {mass:.1e} of the probability (states too unlikely to follow)"
        ));
    }
    let metrics: Vec<_> = result.metrics.iter().map(|m| m.metric).collect();
    result.warnings.extend(case.spec.warnings(&metrics));
    for warning in &result.warnings {
        crate::messages::say(format_args!(
            "warning: case \"{}\" ({}): {warning}",
            result.case,
            result.method.name()
        ));
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
        cancel: Some(cancel),
        progress: Some(&counter),
    };
    let evaluation = crate::progress::with_bar(
        &case.name,
        settings.trials,
        crate::progress::wanted(settings.quiet),
        &counter,
        || {
            settings
                .workers
                .install(|| case.spec.monte_carlo(&mc_settings))
        },
    )?;
    let metrics = evaluation
        .metrics
        .into_iter()
        .map(|metric| {
            let ci95 = stats::interval95(&metric, settings.trials);
            let z_vs_exact = exact
                .and_then(|exact| exact.metric(&metric.name))
                .and_then(|e| stats::z_vs_exact(&metric, &e.metric, settings.trials));
            MetricResult {
                metric,
                ci95,
                z_vs_exact,
            }
        })
        .collect();
    Ok(CaseResult {
        case: case.name.clone(),
        system: case.spec.system(),
        inputs: Inputs::new(case.spec.inputs()),
        method: MethodUsed::MonteCarlo,
        trials: Some(settings.trials),
        seed: Some(settings.seed),
        metrics: Metrics::new(metrics, Some(settings.trials)),
        rows: evaluation.rows,
        dropped_mass: evaluation.dropped_mass,
        compared: exact.is_some(),
        fractions: None,
        warnings: Vec::new(),
    })
}
