//! The command line (SPEC 8), as clap derive structs: raw arguments only.
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
    Run(RunArgs),
    /// One Cortex Plus roll: a pool alone, against a pool, or against a difficulty.
    Cortex(CortexArgs),
    /// A doom-pool scene: several actions against a doom pool that grows on hitches.
    Scene(SceneArgs),
    /// A conflict: hero and foe (or mob) trade stress, exchange by exchange, until one is out.
    Conflict(ConflictArgs),
    /// Which rung of a doom-pool ladder gives each hero pool the target chance.
    Balance(BalanceArgs),
    /// 2d6 + stat encounters with an advantage die: a counter that may replace the lower die.
    Advantage(AdvantageArgs),
    /// One Storytelling d10 pool: 10-again (or 9-, 8-again), rote, chance die.
    Storytelling(StorytellingArgs),
    /// Run every scenario of a folder into its report folder, plus index.md and index.html.
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
    /// Monte Carlo trials per case [default: the scenario's, else 1000000].
    #[arg(long)]
    pub trials: Option<u64>,
    /// Random seed [default: the scenario's, else 1].
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
    #[arg(long)]
    pub ties: Option<String>,
    /// Margin per heroic effect step up [default: 5].
    #[arg(long, allow_negative_numbers = true)]
    pub heroic_step: Option<i64>,
    /// Dice summed into the action (hero's) total (1..5) [default: 2].
    #[arg(long, allow_negative_numbers = true)]
    pub keep: Option<i64>,
    /// Dice summed into the reaction (doom pool's) total (1..5) [default: 2].
    #[arg(long, allow_negative_numbers = true)]
    pub reaction_keep: Option<i64>,
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
    #[arg(long)]
    pub vs: Option<String>,
    /// A fixed total to beat (0 or more); not with --vs.
    #[arg(long, allow_negative_numbers = true)]
    pub difficulty: Option<i64>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    /// Step the effect die down when the reaction's effect die is larger.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub effect_step_down: Option<bool>,
    /// How the total dice are chosen: max-total (default), or max-effect with --difficulty.
    #[arg(long)]
    pub policy: Option<String>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SceneArgs {
    /// The player's action pool, e.g. "d10 2d8 d6".
    pub pool: String,
    /// The doom pool the scene starts with [default: 2d6].
    #[arg(long)]
    pub doom: Option<String>,
    /// Player actions in the scene (1..1000) [default: 4].
    #[arg(long, allow_negative_numbers = true)]
    pub actions: Option<i64>,
    /// The GM ends the scene by spending 2d12 as soon as the doom pool holds two.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub end_at_2d12: Option<bool>,
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
    #[arg(long)]
    pub foe: Option<String>,
    /// The foe is a mob with these team dice, all of one size, e.g. "3d8".
    #[arg(long)]
    pub mob: Option<String>,
    /// Exchanges at most (1..100) [default: 5].
    #[arg(long, allow_negative_numbers = true)]
    pub exchanges: Option<i64>,
    /// The foe acts after the hero in each exchange; =false for a foe who only resists [default: true].
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub foe_acts: Option<bool>,
    /// The hero is out past this stress: d6, d8, d10 or d12 [default: d12].
    #[arg(long)]
    pub hero_stress_limit: Option<String>,
    /// The foe is out past this stress: d6 novice, d8 expert, d10 master, d12 [default: d12]; not with --mob.
    #[arg(long)]
    pub foe_stress_limit: Option<String>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    /// Step the effect die down when the reaction's effect die is larger.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub effect_step_down: Option<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct BalanceArgs {
    /// One or more hero pools, e.g. "d10 2d8 d6" "d8 d6 d6".
    #[arg(required = true)]
    pub pools: Vec<String>,
    /// The p_success to aim for, 0..1 [default: 0.6].
    #[arg(long, allow_negative_numbers = true)]
    pub target: Option<f64>,
    /// Aim p_heroic (success by heroic_step or more) at this, 0..1, instead.
    #[arg(long, allow_negative_numbers = true)]
    pub target_heroic: Option<f64>,
    /// The opposing pools to try, comma-separated, e.g. "2d6,3d8" [default: the rules text's nine rungs].
    #[arg(long)]
    pub ladder: Option<String>,
    #[command(flatten)]
    pub rules: RollRuleArgs,
    /// --method (auto answers each rung exactly where it can), --trials,
    /// --seed, --threads, --format, --quiet, as for a quick command.
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct AdvantageArgs {
    /// The advantage die: d4, d6, d8, d10 or d12 [default: d6].
    #[arg(long)]
    pub die: Option<String>,
    /// Added to 2d6, e.g. --stat 2 or --stat=-1 [default: 0].
    #[arg(long, allow_negative_numbers = true)]
    pub stat: Option<i64>,
    /// Rolls per encounter; the counter starts at 1 each encounter [default: 4].
    #[arg(long, allow_negative_numbers = true)]
    pub rolls: Option<i64>,
    /// When the counter replaces the lower die: greedy (default), threshold, last, threshold-or-last or never.
    #[arg(long)]
    pub policy: Option<String>,
    /// With --policy threshold or threshold-or-last: the least counter value worth spending (1..die size).
    #[arg(long, allow_negative_numbers = true)]
    pub threshold: Option<i64>,
    /// Counter gains per tier of a roll, e.g. miss=1,weak=0,strong=0 [default: 0 each].
    #[arg(long, allow_hyphen_values = true)]
    pub gain_on: Option<String>,
    /// Chance the counter gains 1 after each roll (0..1) [default: 0.5].
    #[arg(long, allow_negative_numbers = true)]
    pub gain_chance: Option<f64>,
    /// Chance the GM lowers the counter by 1 after each roll (0..1) [default: 0].
    #[arg(long, allow_negative_numbers = true)]
    pub gm_reduce_chance: Option<f64>,
    /// Highest total that is a miss [default: 6].
    #[arg(long, allow_negative_numbers = true)]
    pub miss_max: Option<i64>,
    /// Lowest total that is a strong hit [default: 10].
    #[arg(long, allow_negative_numbers = true)]
    pub strong_min: Option<i64>,
    /// What a used counter becomes: reset (to 1, default) or swap (the replaced die's value).
    #[arg(long)]
    pub on_use: Option<String>,
    /// Advantage dice the player holds: 1 or 2 [default: 1].
    #[arg(long, allow_negative_numbers = true)]
    pub counters: Option<i64>,
    /// Players rolling in turn, one counter each: 1 to 4; --rolls is the whole party's [default: 1].
    #[arg(long, allow_negative_numbers = true)]
    pub party: Option<i64>,
    /// In a party: players may spend their counter on another player's roll.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub share: Option<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Args)]
pub struct StorytellingArgs {
    /// d10s in the pool before the modifier: a whole number, 0 or more.
    #[arg(allow_negative_numbers = true)]
    pub dice: String,
    /// Dice added to or taken from the pool (the rules text's ladder runs -5..+5); write negatives as --modifier=-2.
    #[arg(long, allow_negative_numbers = true)]
    pub modifier: Option<i64>,
    /// A die at or above it is a success (2..10) [default: 8].
    #[arg(long, allow_negative_numbers = true)]
    pub target: Option<i64>,
    /// A die at or above it is rolled again: 10, 9, 8, or 0 for none [default: 10].
    #[arg(long, allow_negative_numbers = true)]
    pub again: Option<i64>,
    /// Rote action: reroll each die that fails on its first roll, once.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub rote: Option<bool>,
    /// Successes needed for p_success (1 or more) [default: 1].
    #[arg(long, allow_negative_numbers = true)]
    pub need: Option<i64>,
    /// Successes for p_exceptional (0 or more) [default: 5].
    #[arg(long, allow_negative_numbers = true)]
    pub exceptional: Option<i64>,
    /// A chance die's 10 is rolled again (the rules text's rule); =false for the later edition [default: true].
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub chance_die_explodes: Option<bool>,
    #[command(flatten)]
    pub common: CommonArgs,
}
