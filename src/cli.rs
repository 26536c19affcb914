//! The command line (docs/reports.md), as clap derive structs: raw arguments only.
//! The systems' keys are not fields here: their flags, positional arguments
//! and help lines are made from the keys' descriptors (`key_flags`) and added
//! to the quick commands and `balance` as the command line is parsed.
//! Turning them into cases and settings, and every check on their values,
//! happens in [`crate::commands`] and the systems, so a flag is validated exactly
//! like the scenario key of the same name.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::key_flags::{self, KeyValues};
use crate::systems::System;

#[derive(Debug, Parser)]
#[command(
    name = "oddsmith",
    version,
    about = "Exact and Monte Carlo odds for Cortex Plus pools, Storytelling d10 pools and the advantage die",
    after_help = "Examples:\n  oddsmith cortex \"d10 2d8 d6\" --vs 2d6\n  oddsmith run scenarios/doom-ladder.toml"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// A quick command's `--help` closing: how to compare cases, then its
/// examples (one line each, indented).
macro_rules! compare_help {
    ($examples:literal) => {
        concat!(
            "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n",
            $examples
        )
    };
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every case of a scenario file and write its report folder.
    #[command(
        after_help = "Examples:\n  oddsmith run scenarios/doom-ladder.toml\n  oddsmith run my.toml --method mc --trials 100000 --format csv --no-report"
    )]
    Run(RunArgs),
    /// One Cortex Plus roll: a pool alone, against a pool, or against a difficulty.
    #[command(
        after_help = compare_help!("  oddsmith cortex \"d10 2d8 d6\" --vs 2d6 --ties action\n  oddsmith cortex \"d8 2d6,d10 2d8 d6\" --vs 2d6,3d8")
    )]
    Cortex(CortexArgs),
    /// A doom-pool scene: several actions against a doom pool that grows on hitches.
    #[command(
        after_help = compare_help!("  oddsmith scene \"d10 2d8 d6\" --doom 2d6 --actions 4\n  oddsmith scene \"d8 2d6\" --actions 3,6 --end-at-2d12")
    )]
    Scene(SceneArgs),
    /// A conflict: hero and foe (or mob) trade stress, exchange by exchange, until one is out.
    #[command(
        after_help = compare_help!("  oddsmith conflict \"d10 2d8 d6\" --foe \"d10 d8\" --exchanges 5\n  oddsmith conflict \"d10 2d8 d6\" --mob 3d8,4d8")
    )]
    Conflict(ConflictArgs),
    /// Which rung of a doom-pool ladder gives each hero pool the target chance.
    #[command(
        after_help = "Examples:\n  oddsmith balance \"d8 2d6\" \"d10 2d8 d6\" --target 0.6\n  oddsmith balance \"d10 2d8 d6\" --target-heroic 0.3 --ladder \"2d6,3d8,4d10\""
    )]
    Balance(BalanceArgs),
    /// 2d6 + stat encounters with an advantage die: a counter that may replace the lower die.
    #[command(
        after_help = compare_help!("  oddsmith advantage --die d8 --stat 1 --rolls 6\n  oddsmith advantage --die d4,d8 --rolls 6")
    )]
    Advantage(AdvantageArgs),
    /// One Storytelling d10 pool: 10-again (or 9-, 8-again), rote, chance die.
    #[command(
        after_help = compare_help!("  oddsmith storytelling 5 --rote\n  oddsmith storytelling 5 --again 10,9,8")
    )]
    Storytelling(StorytellingArgs),
    /// Run every scenario of a folder into its report folder, plus index.md and index.html.
    #[command(
        after_help = "Examples:\n  oddsmith report\n  oddsmith report scenarios/ --out reports/ --no-charts"
    )]
    Report(ReportArgs),
    /// The calculator in the browser: a local page that answers as you type (docs/serve.md).
    #[command(
        after_help = "Examples:\n  oddsmith serve\n  oddsmith serve --bind 127.0.0.1:8080 --open"
    )]
    Serve(ServeArgs),
}

/// How to compute a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum MethodArg {
    /// Exact where it takes about a second or less, Monte Carlo otherwise.
    #[default]
    Auto,
    /// Exact only; refuses cases too large for the exact engine.
    Exact,
    /// Monte Carlo only.
    Mc,
    /// Both, with each Monte Carlo metric's distance from exact in standard errors.
    Both,
}

/// What stdout carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum FormatArg {
    /// An aligned table for people.
    #[default]
    Table,
    /// The summary table as CSV.
    Csv,
    /// One JSON object.
    Json,
    /// GitHub-flavoured Markdown tables, ready to post.
    Markdown,
}

/// Flags every evaluating command takes.
#[derive(Debug, Clone, Args, Default)]
pub struct CommonArgs {
    /// Monte Carlo trials per case [default: 1000000; in `run`, the scenario's `trials` first].
    #[arg(long)]
    pub trials: Option<u64>,
    /// Random seed [default: 1; in `run`, the scenario's `seed` first].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores]; results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// auto, exact, mc or both.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// table, csv, json or markdown.
    #[arg(long, value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
    /// No progress bar or notes on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// JSON: each exact Cortex result also carries `fractions`, every
    /// probability as "numerator/denominator" in lowest terms.
    #[arg(long)]
    pub fractions: bool,
}

/// How people's tables name metrics and keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum NamesArg {
    /// In words: "chance of success", "10-again".
    #[default]
    Words,
    /// As code names: `p_success`, `again=10` (CSV and JSON always are).
    Code,
}

/// A distribution view (`--view`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    /// P(outcome).
    Exactly,
    /// P(outcome or more).
    AtLeast,
    /// P(outcome or less).
    AtMost,
}

/// Flags that lay the cases out as one grid (docs/reports.md, "Pivot tables").
#[derive(Debug, Clone, Args, Default)]
pub struct PivotArgs {
    /// One grid: the key whose values label the rows (several as again,rote; `metric` for a row per metric).
    #[arg(long, value_name = "KEY")]
    pub rows: Option<String>,
    /// The key whose values label the grid's columns (several as again,rote; `metric` for a column per metric).
    #[arg(long, value_name = "KEY")]
    pub cols: Option<String>,
    /// What the grid's cells show: a metric, or a tail such as successes>=2 (repeat or comma list for several).
    #[arg(long = "metric", value_name = "NAME", value_delimiter = ',')]
    pub metrics: Vec<String>,
    /// Zip comma lists of the same length instead of forming their product (a rows key and a cols key still form one).
    #[arg(long)]
    pub paired: bool,
    /// words or code: how people's tables name metrics and keys.
    #[arg(long, value_enum, default_value_t = NamesArg::Words)]
    pub names: NamesArg,
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    #[command(flatten)]
    pub common: CommonArgs,
    /// Report folder [default: reports/<scenario name>/].
    #[arg(long, conflicts_with = "no_report")]
    pub out: Option<PathBuf>,
    /// Print results only; write no report folder.
    #[arg(long)]
    pub no_report: bool,
    /// Write CSV and JSON but no charts.
    #[arg(long)]
    pub no_charts: bool,
    #[command(flatten)]
    pub pivot: PivotArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// The folder of scenario files (every *.toml in it).
    #[arg(default_value = "scenarios")]
    pub scenarios: PathBuf,
    /// Where the report folders and the index go.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Monte Carlo trials per case [default: each scenario's, else 1000000].
    #[arg(long)]
    pub trials: Option<u64>,
    /// Random seed [default: each scenario's, else 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores]; results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// auto, exact, mc or both.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Write CSV and JSON but no charts.
    #[arg(long)]
    pub no_charts: bool,
    /// No progress bar or notes on stderr.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on; loopback unless you say otherwise (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub bind: String,
    /// Open the page in the default browser once listening.
    #[arg(long)]
    pub open: bool,
}

/// A quick command's arguments: its system's keys, as flags (and one as the
/// positional argument) made from the descriptors by [`Cli::parse_from_args`]
/// (`key_flags`), and the flags every evaluating command takes.
#[derive(Debug, Clone, Args)]
pub struct QuickArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub pivot: PivotArgs,
    /// Every distribution as a table, outcomes as rows and cases as columns: exactly, at-least or at-most.
    #[arg(long, value_enum, value_name = "VIEW")]
    pub view: Option<ViewArg>,
    /// The keys given, in the order of the system's descriptors.
    #[arg(skip)]
    pub keys: KeyValues,
}

pub type CortexArgs = QuickArgs;
pub type SceneArgs = QuickArgs;
pub type ConflictArgs = QuickArgs;
pub type AdvantageArgs = QuickArgs;
pub type StorytellingArgs = QuickArgs;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Any system (docs/cortex.md):\n  oddsmith balance --system storytelling --key dice --ladder 1,2,3,4,5,6 --metric p_success --target 0.9 --again 9\n  The system's keys are flags (a positional key is --pool, --dice, --hero); --set NAME=VALUE gives any key."
)]
pub struct BalanceArgs {
    /// One or more hero pools, e.g. "d10 2d8 d6" "d8 d6 d6" (docs/cortex.md). With --system, give the case's keys as flags instead.
    pub pools: Vec<String>,
    /// The p_success to aim for, 0..1 [default: 0.6]; with --system, the metric's target (0..1 for a p_* metric).
    #[arg(long, allow_negative_numbers = true)]
    pub target: Option<f64>,
    /// Aim p_heroic (success by heroic_step or more) at this, 0..1, instead.
    #[arg(long, allow_negative_numbers = true)]
    pub target_heroic: Option<f64>,
    /// The rungs to try, comma-separated, e.g. "2d6,3d8" [default: the rules text's nine rungs]; with --system, values of --key.
    #[arg(long, allow_hyphen_values = true)]
    pub ladder: Option<String>,
    /// Balance a case of any system (docs/cortex.md): cortex, cortex-scene, storytelling, advantage, ...
    #[arg(long)]
    pub system: Option<String>,
    /// With --system: the key the ladder varies, e.g. dice, die, doom.
    #[arg(long)]
    pub key: Option<String>,
    /// With --system: the metric to aim at, e.g. p_success, strong_per_encounter.
    #[arg(long)]
    pub metric: Option<String>,
    /// With --system: any key of the system as NAME=VALUE (e.g. --set target=7 for Storytelling's success number).
    #[arg(long, allow_hyphen_values = true)]
    pub set: Vec<String>,
    /// The Cortex roll rules given as flags (`--ties`, `--keep`, ...),
    /// made from their descriptors by [`Cli::parse_from_args`].
    #[arg(skip)]
    pub rules: KeyValues,
    #[command(flatten)]
    pub common: CommonArgs,
    /// The systems' keys given as flags (`--dice 5`, `--rote`), in the
    /// order given: flags [`Cli::parse_args`] adds at run time, one per key
    /// of every system, so a new system's keys need no change here.
    #[arg(skip)]
    pub keys: Vec<(String, String)>,
}

/// The quick command of each system.
pub fn quick_command(system: System) -> &'static str {
    match system {
        System::Cortex => "cortex",
        System::CortexScene => "scene",
        System::CortexConflict => "conflict",
        System::Storytelling => "storytelling",
        System::Advantage => "advantage",
    }
}

impl Cli {
    /// Parses the process's command line (exiting with clap's message and
    /// code 2 on a usage error), with `balance`'s system-key flags.
    pub fn parse_args() -> Cli {
        Cli::parse_from_args(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` (the program name first), with `balance`'s
    /// system-key flags.
    pub fn parse_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches};
        let mut command = Cli::command().mut_subcommand("balance", |balance| {
            key_flags::with_balance_key_flags(key_flags::with_roll_rule_args(balance))
        });
        for system in System::ALL {
            command = command.mut_subcommand(quick_command(system), |quick| {
                key_flags::with_quick_args(quick, system)
            });
        }
        let matches = command.try_get_matches_from_mut(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        let Some((name, sub)) = matches.subcommand() else {
            return Ok(cli);
        };
        match &mut cli.command {
            Command::Balance(args) => {
                args.rules = key_flags::roll_rule_values(sub);
                args.keys = key_flags::balance_values(sub);
            }
            Command::Cortex(args)
            | Command::Scene(args)
            | Command::Conflict(args)
            | Command::Advantage(args)
            | Command::Storytelling(args) => {
                if let Some(system) = System::ALL
                    .into_iter()
                    .find(|&system| quick_command(system) == name)
                {
                    args.keys = key_flags::quick_values(sub, system);
                }
            }
            Command::Run(_) | Command::Report(_) | Command::Serve(_) => {}
        }
        Ok(cli)
    }
}
