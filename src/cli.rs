//! The command line (docs/reports.md), as clap derive structs: raw arguments only.
//! Turning them into cases and settings, and every check on their values,
//! happens in [`crate::commands`] and the systems, so a flag is validated exactly
//! like the scenario key of the same name.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every case of a scenario file and write its report folder.
    #[command(
        after_help = "Examples:\n  oddsmith run scenarios/doom-ladder.toml\n  oddsmith run my.toml --method mc --trials 100000 --format csv --no-report"
    )]
    Run(RunArgs),
    /// One Cortex Plus roll: a pool alone, against a pool, or against a difficulty.
    #[command(
        after_help = "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n  oddsmith cortex \"d10 2d8 d6\" --vs 2d6 --ties action\n  oddsmith cortex \"d8 2d6,d10 2d8 d6\" --vs 2d6,3d8"
    )]
    Cortex(CortexArgs),
    /// A doom-pool scene: several actions against a doom pool that grows on hitches.
    #[command(
        after_help = "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n  oddsmith scene \"d10 2d8 d6\" --doom 2d6 --actions 4\n  oddsmith scene \"d8 2d6\" --actions 3,6 --end-at-2d12"
    )]
    Scene(SceneArgs),
    /// A conflict: hero and foe (or mob) trade stress, exchange by exchange, until one is out.
    #[command(
        after_help = "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n  oddsmith conflict \"d10 2d8 d6\" --foe \"d10 d8\" --exchanges 5\n  oddsmith conflict \"d10 2d8 d6\" --mob 3d8,4d8"
    )]
    Conflict(ConflictArgs),
    /// Which rung of a doom-pool ladder gives each hero pool the target chance.
    #[command(
        after_help = "Examples:\n  oddsmith balance \"d8 2d6\" \"d10 2d8 d6\" --target 0.6\n  oddsmith balance \"d10 2d8 d6\" --target-heroic 0.3 --ladder \"2d6,3d8,4d10\""
    )]
    Balance(BalanceArgs),
    /// 2d6 + stat encounters with an advantage die: a counter that may replace the lower die.
    #[command(
        after_help = "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n  oddsmith advantage --die d8 --stat 1 --rolls 6\n  oddsmith advantage --die d4,d8 --rolls 6"
    )]
    Advantage(AdvantageArgs),
    /// One Storytelling d10 pool: 10-again (or 9-, 8-again), rote, chance die.
    #[command(
        after_help = "Give a flag (or the positional argument) a comma list, or repeat a flag, to compare one case per value side by side; lists in two flags give every combination.\n\nExamples:\n  oddsmith storytelling 5 --rote\n  oddsmith storytelling 5 --again 10,9,8"
    )]
    Storytelling(StorytellingArgs),
    /// Run every scenario of a folder into its report folder, plus index.md and index.html.
    #[command(
        after_help = "Examples:\n  oddsmith report\n  oddsmith report scenarios/ --out reports/ --no-charts"
    )]
    Report(ReportArgs),
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
    /// table, csv or json.
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

/// The Cortex roll rules shared by `cortex`, `scene`, `conflict` and `balance`.
#[derive(Debug, Clone, Args, Default)]
pub struct RollRuleArgs {
    /// Who wins equal totals: reaction (default, the rules text's rule) or action.
    #[arg(long, value_delimiter = ',')]
    pub ties: Vec<String>,
    /// Margin per heroic effect step up [default: 5].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub heroic_step: Vec<i64>,
    /// Dice summed into the action (hero's) total (1..5) [default: 2].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub keep: Vec<i64>,
    /// Dice summed into the reaction (doom pool's) total (1..5) [default: 2].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub reaction_keep: Vec<i64>,
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
pub struct CortexArgs {
    /// The action pool, e.g. "d10 2d8 d6".
    pub pool: String,
    /// A reacting pool to roll against, e.g. the doom pool "2d6".
    #[arg(long, value_delimiter = ',')]
    pub vs: Vec<String>,
    /// A fixed total to beat (0 or more); not with --vs.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub difficulty: Vec<i64>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    /// Step the effect die down when the reaction's effect die is larger.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub effect_step_down: Vec<bool>,
    /// How the total dice are chosen: max-total (default), or max-effect with --difficulty.
    #[arg(long, value_delimiter = ',')]
    pub policy: Vec<String>,
    /// Plot points (0..10) spent after the roll, as few as needed, to beat --difficulty.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub plot_points: Vec<i64>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SceneArgs {
    /// The player's action pool, e.g. "d10 2d8 d6".
    pub pool: String,
    /// The doom pool the scene starts with [default: 2d6].
    #[arg(long, value_delimiter = ',')]
    pub doom: Vec<String>,
    /// Player actions in the scene (1..1000) [default: 4].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub actions: Vec<i64>,
    /// The GM ends the scene by spending 2d12 as soon as the doom pool holds two.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub end_at_2d12: Vec<bool>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ConflictArgs {
    /// The hero's pool, e.g. "d10 2d8 d6".
    pub hero: String,
    /// The foe's own dice, e.g. "d10 d8" (may be left out with --mob).
    #[arg(long, value_delimiter = ',')]
    pub foe: Vec<String>,
    /// The foe is a mob with these team dice, all of one size, e.g. "3d8".
    #[arg(long, value_delimiter = ',')]
    pub mob: Vec<String>,
    /// Exchanges at most (1..100) [default: 5].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub exchanges: Vec<i64>,
    /// The foe acts after the hero in each exchange; =false for a foe who only resists [default: true].
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub foe_acts: Vec<bool>,
    /// The hero is out past this stress: d6, d8, d10 or d12 [default: d12].
    #[arg(long, value_delimiter = ',')]
    pub hero_stress_limit: Vec<String>,
    /// The foe is out past this stress: d6 novice, d8 expert, d10 master, d12 [default: d12]; not with --mob.
    #[arg(long, value_delimiter = ',')]
    pub foe_stress_limit: Vec<String>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    /// Step the effect die down when the reaction's effect die is larger.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub effect_step_down: Vec<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}

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
    #[command(flatten)]
    pub rules: RollRuleArgs,
    #[command(flatten)]
    pub common: CommonArgs,
    /// The systems' keys given as flags (`--dice 5`, `--rote`), in the
    /// order given: flags [`Cli::parse_args`] adds at run time, one per key
    /// of every system, so a new system's keys need no change here.
    #[arg(skip)]
    pub keys: Vec<(String, String)>,
}

/// The id of a flag [`Cli::parse_args`] adds for a system's key.
fn key_flag_id(key: &str) -> String {
    format!("system-key:{key}")
}

/// Adds to `oddsmith balance` a flag for every key of every system that it
/// does not already have (docs/cortex.md: "the system's keys are flags as in its
/// quick command"), each taking one value (none: `true`).
fn with_system_key_flags(mut command: clap::Command) -> clap::Command {
    let mut seen: Vec<&str> = Vec::new();
    for system in crate::systems::System::ALL {
        for &key in system.keys() {
            let flag = key.replace('_', "-");
            let taken = command
                .get_arguments()
                .any(|arg| arg.get_long() == Some(flag.as_str()));
            if taken || seen.contains(&key) {
                continue;
            }
            seen.push(key);
            // clap keeps flag names for the whole run; these few are made once.
            let long: &'static str = Box::leak(flag.into_boxed_str());
            let id: &'static str = Box::leak(key_flag_id(key).into_boxed_str());
            command = command.arg(
                clap::Arg::new(id)
                    .long(long)
                    .num_args(0..=1)
                    .default_missing_value("true")
                    .allow_negative_numbers(true)
                    .action(clap::ArgAction::Set)
                    .help_heading("Keys of the system (with --system)")
                    .hide_short_help(true),
            );
        }
    }
    command
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
        let mut command = Cli::command().mut_subcommand("balance", with_system_key_flags);
        let matches = command.try_get_matches_from_mut(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if let (Command::Balance(args), Some(("balance", sub))) =
            (&mut cli.command, matches.subcommand())
        {
            let mut given: Vec<(usize, String, String)> = Vec::new();
            for id in sub.ids() {
                let Some(key) = id.as_str().strip_prefix("system-key:") else {
                    continue;
                };
                if let (Some(value), Some(index)) = (
                    sub.get_one::<String>(id.as_str()),
                    sub.index_of(id.as_str()),
                ) {
                    given.push((index, key.to_string(), value.clone()));
                }
            }
            given.sort();
            args.keys = given.into_iter().map(|(_, k, v)| (k, v)).collect();
        }
        Ok(cli)
    }
}

#[derive(Debug, Clone, Args)]
pub struct AdvantageArgs {
    /// The advantage die: d4, d6, d8, d10 or d12 [default: d6].
    #[arg(long, value_delimiter = ',')]
    pub die: Vec<String>,
    /// Added to 2d6, e.g. --stat 2 or --stat=-1 [default: 0].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub stat: Vec<i64>,
    /// Rolls per encounter; the counter starts at 1 each encounter [default: 4].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub rolls: Vec<i64>,
    /// When the counter replaces the lower die: greedy (default), threshold, last, threshold-or-last or never.
    #[arg(long, value_delimiter = ',')]
    pub policy: Vec<String>,
    /// With --policy threshold or threshold-or-last: the least counter value worth spending (1..die size).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub threshold: Vec<i64>,
    /// Counter gains per tier of a roll, e.g. miss=1,weak=0,strong=0 [default: 0 each].
    #[arg(long, allow_hyphen_values = true)]
    pub gain_on: Vec<String>,
    /// Chance the counter gains 1 after each roll (0..1) [default: 0.5].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub gain_chance: Vec<f64>,
    /// Chance the GM lowers the counter by 1 after each roll (0..1) [default: 0].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub gm_reduce_chance: Vec<f64>,
    /// Highest total that is a miss [default: 6].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub miss_max: Vec<i64>,
    /// Lowest total that is a strong hit [default: 10].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub strong_min: Vec<i64>,
    /// What a used counter becomes: reset (to 1, default) or swap (the replaced die's value).
    #[arg(long, value_delimiter = ',')]
    pub on_use: Vec<String>,
    /// Advantage dice the player holds: 1 or 2 [default: 1].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub counters: Vec<i64>,
    /// Players rolling in turn, one counter each: 1 to 4; --rolls is the whole party's [default: 1].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub party: Vec<i64>,
    /// In a party: players may spend their counter on another player's roll.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub share: Vec<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct StorytellingArgs {
    /// d10s in the pool before the modifier: a whole number, 0 or more.
    #[arg(allow_negative_numbers = true)]
    pub dice: String,
    /// Dice added to or taken from the pool (the rules text's ladder runs -5..+5); write negatives as --modifier=-2.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub modifier: Vec<i64>,
    /// A die at or above it is a success (2..10) [default: 8].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub target: Vec<i64>,
    /// A die at or above it is rolled again: 10, 9, 8, or 0 for none [default: 10].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub again: Vec<i64>,
    /// Rote action: reroll each die that fails on its first roll, once.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub rote: Vec<bool>,
    /// Successes needed for p_success (1 or more) [default: 1].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub need: Vec<i64>,
    /// Successes for p_exceptional (0 or more) [default: 5].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub exceptional: Vec<i64>,
    /// A chance die's 10 is rolled again (the rules text's rule); =false for the later edition [default: true].
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub chance_die_explodes: Vec<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}
