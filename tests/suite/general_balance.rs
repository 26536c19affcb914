//! The general balance (docs/cortex.md): for each system, the rung `oddsmith
//! balance --system` picks is the one found by running the ladder's cases
//! one by one with the quick command and taking the closest; `[[balance]]`
//! tables with fixed lists, `null` metrics, JSON and CSV shapes, and the
//! refusals.

use crate::common;

use common::{json_of, oddsmith, refused, scenario};
use serde_json::Value;

/// The metric of a quick command's single result.
fn quick_metric(args: &[&str], metric: &str) -> Option<f64> {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--format", "json", "--quiet"]);
    json_of(&all)["results"][0]["metrics"][metric].as_f64()
}

/// Runs the balance and the ladder's quick cases one by one; both must
/// choose the same rung, with the same values.
fn same_rung_as_one_by_one(
    balance: &[&str],
    ladder: &[&str],
    metric: &str,
    target: f64,
    quick: impl Fn(&str) -> Vec<String>,
) {
    let mut args: Vec<&str> = balance.to_vec();
    args.extend(["--format", "json", "--quiet"]);
    let v = json_of(&args);
    let answer = &v["balance"][0];
    let values: Vec<Option<f64>> = ladder
        .iter()
        .map(|rung| {
            let args = quick(rung);
            quick_metric(&args.iter().map(String::as_str).collect::<Vec<_>>(), metric)
        })
        .collect();
    let mut best: Option<usize> = None;
    for (i, value) in values.iter().enumerate() {
        if let Some(x) = value {
            if best.is_none_or(|b| (x - target).abs() < (values[b].unwrap() - target).abs()) {
                best = Some(i);
            }
        }
    }
    let best = best.expect("some rung has a value");
    assert_eq!(text(&answer["best"]), ladder[best], "{answer}");
    for (i, rung) in answer["ladder"].as_array().unwrap().iter().enumerate() {
        assert_eq!(rung["value"].as_f64(), values[i], "rung {i}");
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[test]
fn advantage_by_die() {
    let ladder = ["d4", "d6", "d8", "d10", "d12"];
    same_rung_as_one_by_one(
        &[
            "balance",
            "--system",
            "advantage",
            "--key",
            "die",
            "--ladder",
            "d4,d6,d8,d10,d12",
            "--metric",
            "strong_per_encounter",
            "--target",
            "1.3",
            "--rolls",
            "6",
            "--gain-on",
            "miss=1",
        ],
        &ladder,
        "strong_per_encounter",
        1.3,
        |die| {
            [
                "advantage",
                "--die",
                die,
                "--rolls",
                "6",
                "--gain-on",
                "miss=1",
            ]
            .map(String::from)
            .to_vec()
        },
    );
}

#[test]
fn storytelling_by_dice() {
    let ladder = ["1", "2", "3", "4", "5", "6", "7", "8"];
    same_rung_as_one_by_one(
        &[
            "balance",
            "--system",
            "storytelling",
            "--key",
            "dice",
            "--ladder",
            "1,2,3,4,5,6,7,8",
            "--metric",
            "p_success",
            "--target",
            "0.9",
            "--again",
            "9",
            "--set",
            "target=7",
        ],
        &ladder,
        "p_success",
        0.9,
        |dice| {
            ["storytelling", dice, "--again", "9", "--target", "7"]
                .map(String::from)
                .to_vec()
        },
    );
}

#[test]
fn scenes_by_doom() {
    let ladder = ["2d6", "2d8", "3d8", "2d10", "3d10"];
    same_rung_as_one_by_one(
        &[
            "balance",
            "--system",
            "cortex-scene",
            "--key",
            "doom",
            "--ladder",
            "2d6,2d8,3d8,2d10,3d10",
            "--metric",
            "mean_successes",
            "--target",
            "2.5",
            "--pool",
            "d10 2d8 d6",
            "--actions",
            "4",
        ],
        &ladder,
        "mean_successes",
        2.5,
        |doom| {
            ["scene", "d10 2d8 d6", "--doom", doom, "--actions", "4"]
                .map(String::from)
                .to_vec()
        },
    );
}

#[test]
fn methods_trials_and_seed_are_those_of_the_run() {
    let args = |method: &str| {
        json_of(&[
            "balance",
            "--system",
            "storytelling",
            "--key",
            "dice",
            "--ladder",
            "3,5",
            "--metric",
            "p_success",
            "--target",
            "0.8",
            "--method",
            method,
            "--trials",
            "20000",
            "--seed",
            "9",
            "--format",
            "json",
            "--quiet",
        ])
    };
    let exact = args("exact")["balance"][0]["ladder"][0]["value"]
        .as_f64()
        .unwrap();
    let mc = args("mc")["balance"][0]["ladder"][0]["value"]
        .as_f64()
        .unwrap();
    let mc_again = args("mc")["balance"][0]["ladder"][0]["value"]
        .as_f64()
        .unwrap();
    assert_ne!(exact, mc);
    assert_eq!(mc, mc_again);
    assert!((exact - mc).abs() < 0.02);
}

#[test]
fn scenario_balances_expand_fixed_lists_and_write_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        r#"
[storytelling]
rote = false

[[balance]]
system = "storytelling"
key = "dice"
ladder = [1, 2, 3, 4, 5, 6]
metric = "p_success"
target = 0.75
case = { again = [10, 8], target = 8 }

[[balance]]
system = "cortex"
key = "vs"
ladder = ["2d6", "2d8", "4d4"]
metric = "mean_margin"
target = 2.0
case = { pool = "d10 2d8 d6" }
"#,
    );
    let out = dir.path().join("out");
    let v = json_of(&[
        "run",
        &path,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    let balances = v["balance"].as_array().unwrap();
    assert_eq!(balances.len(), 3);
    assert_eq!(balances[0]["inputs"]["again"], 10);
    assert_eq!(balances[1]["inputs"]["again"], 8);
    assert_eq!(balances[0]["system"], "storytelling");
    assert_eq!(balances[0]["key"], "dice");
    assert!(balances[0]["ladder"][0].get("dice").is_some());
    assert!(balances[0].get("best_label").is_none());
    // 8-again never lowers the chance: it needs no more dice.
    assert!(balances[1]["best"].as_i64() <= balances[0]["best"].as_i64());
    // A target above 1 for a mean; labels where the ladder has names.
    assert_eq!(balances[2]["pool"], "d10 2d8 d6");
    assert_eq!(balances[2]["ladder"][0]["label"], "standard");
    assert_eq!(balances[2]["ladder"][2]["label"], Value::Null);
    let csv = std::fs::read_to_string(out.join("balance.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "system,again,case.target,pool,metric,target,dice,vs,label,value,best"
    );
    assert_eq!(csv.lines().filter(|l| l.ends_with(",true")).count(), 3);
}

#[test]
fn a_null_metric_never_wins() {
    // d6 d6 cannot beat 12, 20 or 30: no success, no mean effect step.
    let v = json_of(&[
        "balance",
        "--system",
        "cortex",
        "--key",
        "difficulty",
        "--ladder",
        "20,5,30",
        "--metric",
        "mean_effect_step",
        "--target",
        "9",
        "--pool",
        "d6 d6",
        "--format",
        "json",
    ]);
    let b = &v["balance"][0];
    assert_eq!(b["best"], 5);
    assert_eq!(b["ladder"][0]["value"], Value::Null);
    let v = json_of(&[
        "balance",
        "--system",
        "cortex",
        "--key",
        "difficulty",
        "--ladder",
        "20,30",
        "--metric",
        "mean_effect_step",
        "--target",
        "1",
        "--pool",
        "d6 d6",
        "--format",
        "json",
    ]);
    assert_eq!(v["balance"][0]["best"], Value::Null);
    assert_eq!(v["balance"][0]["best_value"], Value::Null);
    let out = oddsmith()
        .args([
            "balance",
            "--system",
            "cortex",
            "--key",
            "difficulty",
            "--ladder",
            "20,30",
            "--metric",
            "mean_effect_step",
            "--target",
            "1",
            "--pool",
            "d6 d6",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let table = String::from_utf8(out).unwrap();
    assert!(table.contains("null on every rung"), "{table}");
}

#[test]
fn bad_general_balances_say_what_is_allowed() {
    let base = |extra: &[&str]| {
        let mut args = vec![
            "balance",
            "--system",
            "storytelling",
            "--key",
            "dice",
            "--ladder",
            "1,2",
        ];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>, needles: &[&str]| {
        refused(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            needles,
        )
    };
    run(
        base(&["--metric", "p_win", "--target", "0.5"]),
        &["unknown metric \"p_win\"", "p_success", "p_exceptional"],
    );
    run(
        base(&["--metric", "p_success", "--target", "1.5"]),
        &["p_success is a probability", "from 0 to 1"],
    );
    run(
        base(&["--metric", "p_success", "--target", "0.5", "--dice", "3"]),
        &["`--dice` is the ladder's key"],
    );
    run(
        base(&[
            "--metric",
            "p_success",
            "--target",
            "0.5",
            "--ties",
            "action",
        ]),
        &["unknown key `--ties` for system \"storytelling\""],
    );
    refused(
        &[
            "balance",
            "--system",
            "storytelling",
            "--key",
            "die",
            "--ladder",
            "1",
            "--metric",
            "p_success",
            "--target",
            "0.5",
        ],
        &["not a key of system \"storytelling\"", "dice"],
    );
    refused(
        &["balance", "--system", "dnd", "--key", "dice"],
        &["unknown system \"dnd\"", "`storytelling`"],
    );
    refused(&["balance", "--dice", "3"], &["needs --system"]);
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[balance]]\nsystem = \"advantage\"\nkey = \"gain_on\"\nladder = [{ miss = 1 }]\nmetric = \"p_strong\"\ntarget = 0.3\n",
    );
    refused(
        &["run", &path, "--no-report"],
        &["s.toml:4:", "cannot be laddered"],
    );
    let path = scenario(
        dir.path(),
        "[[balance]]\nsystem = \"storytelling\"\nkey = \"dice\"\nladder = [1]\nmetric = \"p_success\"\ntarget = 0.5\npools = [\"d8\"]\n",
    );
    refused(
        &["run", &path, "--no-report"],
        &["unknown key `pools` in a [[balance]] table"],
    );
}

#[test]
fn conflicts_by_foe() {
    let ladder = ["d8 2d6", "d10 d8 d6", "d10 2d8 d6"];
    same_rung_as_one_by_one(
        &[
            "balance",
            "--system",
            "cortex-conflict",
            "--key",
            "foe",
            "--ladder",
            "d8 2d6,d10 d8 d6,d10 2d8 d6",
            "--metric",
            "mean_exchanges_to_foe_out",
            "--target",
            "4.5",
            "--hero",
            "d10 2d8 d6",
            "--exchanges",
            "8",
        ],
        &ladder,
        "mean_exchanges_to_foe_out",
        4.5,
        |foe| {
            ["conflict", "d10 2d8 d6", "--foe", foe, "--exchanges", "8"]
                .map(String::from)
                .to_vec()
        },
    );
}
