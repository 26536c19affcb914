//! Reports for the writers' and the charts' unit tests, built from small
//! real runs: each is a scenario (TOML text, as a user would write it)
//! parsed and evaluated by the same code `oddsmith run` uses. So a report
//! here always has the keys, metric names and distribution rows the
//! engines produce today, and renaming a metric fails the tests that read
//! it. With `mc = true` every result is a Monte Carlo one with a small trial
//! count, so its 95% intervals are wide enough to see as error bars.

use std::sync::atomic::AtomicBool;

use super::{CaseResult, Report, ReportKind, TableLayout};
use crate::cli::{FormatArg, MethodArg};
use crate::commands::evaluate::{evaluate_case, Settings};

/// Trials of the Monte Carlo fixtures: few, so the intervals show.
pub const MC_TRIALS: u64 = 4_000;

/// The seed of every fixture run.
pub const SEED: u64 = 7;

/// Runs scenario `text` by `method` into a report named `name`.
fn run_with(name: &str, text: &str, method: MethodArg, trials: u64) -> Report {
    let scenario = crate::scenario::parse(text, &format!("{name}.toml"), name)
        .unwrap_or_else(|e| panic!("the {name} fixture scenario is invalid: {e}"));
    let settings = Settings {
        trials,
        seed: SEED,
        workers: Default::default(),
        method,
        format: FormatArg::Table,
        quiet: true,
        fractions: false,
    };
    let cancel = AtomicBool::new(false);
    let mut results = Vec::new();
    for case in &scenario.cases {
        results.extend(evaluate_case(case, &settings, &cancel).expect("a fixture case evaluates"));
    }
    Report {
        kind: ReportKind::Cases,
        name: name.into(),
        description: Some(format!("fixture report for {name}")),
        seed: SEED,
        trials,
        results,
        balances: Vec::new(),
        table: TableLayout::SideBySide,
        spilled_distributions: None,
        presentation: Default::default(),
    }
}

/// Runs scenario `text` exactly, or by Monte Carlo with [`MC_TRIALS`].
fn run(name: &str, text: &str, mc: bool) -> Report {
    let method = if mc { MethodArg::Mc } else { MethodArg::Exact };
    run_with(name, text, method, MC_TRIALS)
}

/// The small report the CSV, JSON and table writers are checked against:
/// one Cortex case by both methods (few trials, so the Monte Carlo result
/// differs from the exact one).
pub fn report() -> Report {
    run_with(
        "fixture",
        "[[case]]\nsystem = \"cortex\"\nname = \"d8 d6 vs 2d6\"\npool = \"d8 d6\"\nvs = \"2d6\"\n",
        MethodArg::Both,
        100,
    )
}

/// [`report`] with its exact case's `mean_effect_step` left without a
/// value (a mean over no successes), which the writers print as empty.
pub fn report_with_an_empty_metric() -> Report {
    let mut report = report();
    let empty = metric_index(&report.results[0], "mean_effect_step");
    report.results[0].metrics.set_undefined(empty);
    report
}

/// A sweep of hero pools against opposing pools, plus (with `extras`) a
/// roll against a difficulty and an unopposed roll.
pub fn cortex(mc: bool, extras: bool) -> Report {
    let mut text = String::from(
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 2d6\", \"d10 d8 d6\", \"d12 d10 d8 d6\"]\nvs = [\"2d6\", \"2d8\", \"3d8\", \"2d10\"]\n",
    );
    if extras {
        text.push_str("[[case]]\nsystem = \"cortex\"\npool = \"d10 d8 d6\"\ndifficulty = 11\n");
        text.push_str("[[case]]\nsystem = \"cortex\"\npool = \"d8 d8 d6\"\n");
    }
    run("cortex-fixture", &text, mc)
}

/// Storytelling pools of 0 (the chance die) to 10 dice for 10-, 9- and
/// 8-again, and 10-again with rote.
pub fn storytelling(mc: bool) -> Report {
    let dice = "dice = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
    let text = format!(
        "[[sweep]]\nsystem = \"storytelling\"\nagain = [10, 9, 8]\n{dice}\
         [[sweep]]\nsystem = \"storytelling\"\nname = \"rote\"\nrote = true\n{dice}"
    );
    run("storytelling-fixture", &text, mc)
}

/// Storytelling extended actions (3 and 5 dice gathering 5 and 10
/// successes, 10-again and rote) and contests (1 to 3 dice against 1 and
/// 2, and one even match with ties rolled again).
pub fn storytelling_actions(mc: bool) -> Report {
    let text = "[[sweep]]\nsystem = \"storytelling\"\ndice = [3, 5]\nextended = [5, 10]\nrote = [false, true]\n\
        [[sweep]]\nsystem = \"storytelling\"\ndice = [1, 2, 3]\nvs_dice = [1, 2]\n\
        [[case]]\nsystem = \"storytelling\"\nname = \"even, rerolled\"\ndice = 2\nvs_dice = 2\ncontest_ties = \"reroll\"\n";
    run("storytelling-actions-fixture", text, mc)
}

/// The advantage die: d4, d6 and d8 for the greedy, threshold and last
/// policies, and the no-counter baseline (policy "never").
pub fn advantage(mc: bool) -> Report {
    let text = "[advantage]\ngain_on = { miss = 1, weak = 0, strong = 0 }\n\
        [[sweep]]\nsystem = \"advantage\"\npolicy = [\"greedy\", \"last\"]\ndie = [\"d4\", \"d6\", \"d8\"]\n\
        [[sweep]]\nsystem = \"advantage\"\npolicy = \"threshold\"\nthreshold = 3\ndie = [\"d4\", \"d6\", \"d8\"]\n\
        [[case]]\nsystem = \"advantage\"\nname = \"baseline\"\npolicy = \"never\"\n";
    run("advantage-fixture", text, mc)
}

/// docs/advantage.md's setups under the players' habit (threshold = die size - 1):
/// one die, two dice, and a sharing party of 2 rolling 4 times each.
pub fn advantage_setups() -> Report {
    let text = "[advantage]\ngain_on = { miss = 1 }\npolicy = \"threshold-or-last\"\n\
        [[sweep]]\nsystem = \"advantage\"\nname = \"d4\"\ndie = \"d4\"\nthreshold = 3\ncounters = [1, 2]\n\
        [[sweep]]\nsystem = \"advantage\"\nname = \"d8\"\ndie = \"d8\"\nthreshold = 7\ncounters = [1, 2]\n\
        [[case]]\nsystem = \"advantage\"\nname = \"d4 party\"\ndie = \"d4\"\nthreshold = 3\nparty = 2\nrolls = 8\nshare = true\n\
        [[case]]\nsystem = \"advantage\"\nname = \"d8 party\"\ndie = \"d8\"\nthreshold = 7\nparty = 2\nrolls = 8\nshare = true\n";
    run("advantage-setups-fixture", text, false)
}

/// As [`advantage`], swept like `scenarios/advantage-dice.toml` over stat
/// -1..+2 and encounters of 3, 6 and 10 rolls, with a second threshold.
pub fn many_advantage_cases() -> Report {
    let text = "[advantage]\ngain_on = { miss = 1, weak = 0, strong = 0 }\n\
        [[sweep]]\nsystem = \"advantage\"\nname = \"baseline\"\npolicy = \"never\"\nrolls = [3, 6, 10]\nstat = [-1, 0, 1, 2]\n\
        [[sweep]]\nsystem = \"advantage\"\nrolls = [3, 6, 10]\nstat = [-1, 0, 1, 2]\npolicy = [\"greedy\", \"last\"]\ndie = [\"d4\", \"d6\", \"d8\"]\n\
        [[sweep]]\nsystem = \"advantage\"\npolicy = \"threshold\"\nrolls = [3, 6, 10]\nstat = [-1, 0, 1, 2]\nthreshold = [3, 4]\ndie = [\"d4\", \"d6\", \"d8\"]\n";
    run("advantage-many-fixture", text, false)
}

/// The rules every scene fixture uses (the rules text's: ties go to the reaction).
const SCENE_RULES: &str = "[cortex]\nties = \"reaction\"\nheroic_step = 5\n";

/// Doom-pool scenes of four actions from three doom pools, the largest
/// ending the scene when the doom pool reaches 2d12.
pub fn scene(mc: bool) -> Report {
    let mut text = SCENE_RULES.to_string();
    for (doom, ends) in [("2d6", false), ("2d8", false), ("d12 2d10", true)] {
        text.push_str(&format!(
            "[[case]]\nsystem = \"cortex-scene\"\nname = \"doom={doom}, end_at_2d12={ends}\"\n\
             pool = \"3d6 3d4\"\ndoom = \"{doom}\"\nactions = 4\nend_at_2d12 = {ends}\n"
        ));
    }
    run("scene-fixture", &text, mc)
}

/// Scenes of two hero pools against two doom pools, with nobody spending
/// and with the hero and the GM spending, as `scenarios/economy.toml`.
pub fn economy_scenes() -> Report {
    let text = format!(
        "{SCENE_RULES}[[sweep]]\nsystem = \"cortex-scene\"\npool = [\"d8 2d6\", \"d10 2d8\"]\n\
         doom = [\"2d6\", \"3d8\"]\nactions = 3\nstart_plot_points = 1\n\
         hero_spend = [\"never\", \"add-d6\"]\ngm_spend = [\"never\", \"to-win\"]\n"
    );
    run("economy-fixture", &text, false)
}

/// As [`scene`], swept like `scenarios/doom-scene.toml`: two hero pools,
/// scenes of 4, 6 and 8 actions, with and without ending at 2d12.
pub fn many_scene_cases() -> Report {
    let text = format!(
        "{SCENE_RULES}[[sweep]]\nsystem = \"cortex-scene\"\npool = [\"d10 d8 d6\", \"d8 2d6 2d4\"]\n\
         doom = [\"2d6\", \"2d8\", \"d12 2d10\"]\nactions = [4, 6, 8]\nend_at_2d12 = [false, true]\n"
    );
    run("scene-many-fixture", &text, false)
}

/// The index of metric `name` in a result (panics if the engine no longer
/// produces it, which is the point: a renamed metric fails the tests).
pub fn metric_index(result: &CaseResult, name: &str) -> usize {
    result
        .metrics
        .iter()
        .position(|m| m.name() == name)
        .unwrap_or_else(|| panic!("{} has no metric {name}", result.case))
}
