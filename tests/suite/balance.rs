//! CLI tests for the balancing tools: `oddsmith balance`,
//! `policy = "max-effect"`, and `[[balance]]` in scenarios.

use std::path::Path;

use crate::common;

use common::{json_of, oddsmith, refused, scenario};

use predicates::prelude::*;
use serde_json::Value;

#[test]
fn balance_bad_inputs_exit_2() {
    refused(
        &["balance", "d8 d6", "--target", "1.5"],
        &["`--target` must be a number from 0 to 1, not 1.5"],
    );
    refused(
        &["balance", "d8 d6", "--target=-0.1"],
        &["`--target`", "0 to 1"],
    );
    refused(
        &["balance", "d8 d6", "--target-heroic", "2"],
        &["`--target-heroic`", "0 to 1"],
    );
    refused(
        &[
            "balance",
            "d8 d6",
            "--target",
            "0.5",
            "--target-heroic",
            "0.2",
        ],
        &["not both"],
    );
    refused(
        &["balance", "d8 d6", "--ladder", ""],
        &["`--ladder` is empty"],
    );
    refused(
        &["balance", "d8 d6", "--ladder", " , ,"],
        &["`--ladder` is empty"],
    );
    refused(
        &["balance", "d8 d6", "--ladder", "2d6,2d7"],
        &["entry 2 of `--ladder`", "d4, d6, d8, d10 or d12"],
    );
    refused(&["balance", "d8 d3"], &["entry 1 of POOLS", "d3"]);
    refused(&["balance", "d8", "--ties", "hero"], &["`--ties`"]);
    // No pool at all: clap's usage error, also exit 2.
    oddsmith().args(["balance"]).assert().code(2);
}

#[test]
fn max_effect_needs_a_fixed_difficulty() {
    refused(
        &["cortex", "d8 d6", "--policy", "max-effect"],
        &["`--policy` \"max-effect\" needs a fixed `--difficulty`"],
    );
    refused(
        &["cortex", "d8 d6", "--vs", "2d6", "--policy", "max-effect"],
        &["needs a fixed `--difficulty`"],
    );
    refused(
        &[
            "cortex",
            "d8 d6",
            "--difficulty",
            "7",
            "--policy",
            "max-damage",
        ],
        &["allowed: `max-total`, `max-effect`"],
    );
    let v = json_of(&[
        "cortex",
        "d8 d6",
        "--difficulty",
        "7",
        "--policy",
        "max-effect",
        "--format",
        "json",
    ]);
    assert_eq!(v["results"][0]["inputs"]["policy"], "max-effect");
}

#[test]
fn max_effect_monte_carlo_agrees_with_exact() {
    let v = json_of(&[
        "cortex",
        "d12 d10 2d8 d6",
        "--difficulty",
        "11",
        "--policy",
        "max-effect",
        "--method",
        "both",
        "--trials",
        "200000",
        "--quiet",
        "--format",
        "json",
    ]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    common::assert_json_z_small(&results[1]);
    // And max-effect against max-total on the same case: same p_success,
    // a larger mean final effect step.
    let plain = json_of(&[
        "cortex",
        "d12 d10 2d8 d6",
        "--difficulty",
        "11",
        "--format",
        "json",
    ]);
    let (a, b) = (&plain["results"][0]["metrics"], &results[0]["metrics"]);
    assert!((a["p_success"].as_f64().unwrap() - b["p_success"].as_f64().unwrap()).abs() < 1e-12);
    assert!(b["mean_effect_step"].as_f64().unwrap() > a["mean_effect_step"].as_f64().unwrap());
}

#[test]
fn balance_quick_command_json_is_spec_6() {
    let v = json_of(&[
        "balance",
        "d10 2d8 d6",
        "d8 d6 d6",
        "--target",
        "0.6",
        "--format",
        "json",
    ]);
    assert_eq!(v["tool"], "oddsmith");
    assert!(v.get("results").is_none());
    let b = &v["balance"][0];
    assert_eq!(b["pool"], "d10 2d8 d6");
    assert_eq!(b["metric"], "p_success");
    assert_eq!(b["target"], 0.6);
    assert_eq!(b["best"], "3d8");
    assert_eq!(b["best_label"], "global heroic");
    assert!((b["best_value"].as_f64().unwrap() - 0.5816).abs() < 5e-5);
    assert_eq!(b["ladder"].as_array().unwrap().len(), 9);
    assert_eq!(b["ladder"][0]["vs"], "2d6");
    assert_eq!(b["ladder"][0]["label"], "standard");
    assert!((b["ladder"][0]["value"].as_f64().unwrap() - 0.8978587962962963).abs() < 1e-9);
    assert_eq!(v["balance"][1]["pool"], "d8 2d6");
    // A ladder of one's own; known rungs keep their labels.
    let v = json_of(&[
        "balance", "d6 d6", "--ladder", "2d6, 4d4", "--format", "json",
    ]);
    assert_eq!(v["balance"][0]["ladder"][0]["label"], "standard");
    assert_eq!(v["balance"][0]["ladder"][1]["label"], Value::Null);
    // Heroic targets read p_heroic.
    let v = json_of(&[
        "balance",
        "d8 d6 d6",
        "--target-heroic",
        "0.3",
        "--format",
        "json",
    ]);
    assert_eq!(v["balance"][0]["metric"], "p_heroic");
    assert_eq!(v["balance"][0]["best"], "2d6");
}

#[test]
fn balance_table_and_csv() {
    oddsmith()
        .args(["balance", "d10 2d8 d6"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "d10 2d8 d6: p_success closest to 0.6 is 3d8 (global heroic): 0.581557",
        ))
        .stdout(predicate::str::contains("  > 3d8   global heroic"));
    oddsmith()
        .args([
            "balance",
            "d10 2d8 d6",
            "--format",
            "csv",
            "--ties",
            "action",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "pool,metric,target,vs,label,value,best\n",
        ))
        .stdout(predicate::str::contains(
            "d10 2d8 d6,p_success,0.6,2d6,standard,",
        ));
}

#[test]
fn scenario_balances_use_cortex_defaults_and_need_no_cases() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[cortex]\nties = \"action\"\n[[balance]]\npools = [\"d6 d6\"]\nladder = [\"2d6\"]\ntarget = 0.5\n",
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
    // Published figure: d6 d6 against 2d6 with equal totals to the action: 0.5502.
    let value = v["balance"][0]["best_value"].as_f64().unwrap();
    assert!((value - 0.5502).abs() < 5e-5, "{value}");
    assert_eq!(v["results"].as_array().unwrap().len(), 0);
    let csv = std::fs::read_to_string(out.join("balance.csv")).unwrap();
    assert!(
        csv.starts_with("pool,metric,target,vs,label,value,best\n2d6,p_success,0.5,2d6,standard,")
    );
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["balance"][0]["best"], "2d6");
    assert!(run.get("rng").is_some());
}

#[test]
fn scenario_errors_name_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[[balance]]\npools = [\"d8 d6\"]\ntarget = 2\n",
            vec!["s.toml:3:1:", "`target` must be a number from 0 to 1, not 2"],
        ),
        (
            "[[balance]]\npools = [\"d8 d6\"]\nladder = []\n",
            vec!["s.toml:3:1:", "`ladder` is empty"],
        ),
        (
            "[[balance]]\npools = [\"d8 d6\"]\nladder = [\"2d6\", \"3d9\"]\n",
            vec!["s.toml:3:", "entry 2 of `ladder`", "d4, d6, d8, d10 or d12"],
        ),
        (
            "[[balance]]\npools = \"d8 d6\"\n",
            vec!["s.toml:2:1:", "`pools` must be a list of pools"],
        ),
        (
            "[[balance]]\npools = [\"d8\"]\nvs = \"2d6\"\n",
            vec!["s.toml:3:1:", "unknown key `vs` in a [[balance]] table"],
        ),
        ("[[balance]]\ntarget = 0.5\n", vec!["s.toml:1:1:", "needs `pools`"]),
        (
            "[cortex]\npolicy = \"max-effect\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = \"2d6\"\n",
            vec!["s.toml:2:1:", "needs a fixed `difficulty`"],
        ),
        (
            "[[case]]\nsystem = \"cortex-scene\"\npool = \"d8 d6\"\nactions = 0\n",
            vec!["s.toml:4:1:", "`actions` must be a whole number from 1 to 1000"],
        ),
        (
            "[[case]]\nsystem = \"cortex-scene\"\npool = \"d8 d6\"\ndoom = \"2d6 d3\"\n",
            vec!["s.toml:4:1:", "d4, d6, d8, d10 or d12"],
        ),
        (
            "[[case]]\nsystem = \"cortex-scene\"\npool = \"d8 d6\"\nvs = \"2d6\"\n",
            vec!["s.toml:4:1:", "unknown key `vs`", "belongs to cortex"],
        ),
        (
            "[cortex-scene]\ndoom = \"2d6\"\nactoins = 3\n[[case]]\nsystem = \"cortex-scene\"\npool = \"d8\"\n",
            vec!["s.toml:3:1:", "unknown key `actoins` in [cortex-scene]"],
        ),
    ];
    for (text, needles) in cases {
        let path = scenario(dir.path(), text);
        let mut args = vec!["run", path.as_str(), "--no-report"];
        args.push("--quiet");
        let out = oddsmith().args(&args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        for needle in needles {
            assert!(stderr.contains(needle), "{text}\n{stderr}");
        }
    }
}

#[test]
fn bundled_scenarios_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scene");
    let v = json_of(&[
        "run",
        root.join("scenarios/doom-scene.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 22);
    assert!(results.iter().all(|r| r["method"] == "exact"));
    assert_eq!(
        results[0]["case"],
        "d10 2d8 d6 vs 2d6, actions=4, end_at_2d12=false"
    );
    let dist = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(dist.contains(",exact,final_doom,ended,"));
    assert!(dist.contains(",exact,final_doom,d6 2d4,") || dist.contains(",exact,final_doom,2d6,"));

    let out = dir.path().join("balance");
    let v = json_of(&[
        "run",
        root.join("scenarios/balance.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(v["balance"].as_array().unwrap().len(), 12);
    assert_eq!(v["results"].as_array().unwrap().len(), 18);
    assert!(out.join("balance.csv").exists());
    // max-effect never changes p_success and never lowers the mean effect.
    let results = v["results"].as_array().unwrap();
    assert_eq!(results[1]["case"], "d8 2d6 vs 7, policy=max-effect");
    for pair in results.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(a["inputs"]["policy"], "max-total");
        assert_eq!(b["inputs"]["policy"], "max-effect");
        let (ma, mb) = (&a["metrics"], &b["metrics"]);
        let ps = |m: &Value| m["p_success"].as_f64().unwrap();
        assert!((ps(ma) - ps(mb)).abs() < 1e-12);
        if let (Some(x), Some(y)) = (
            ma["mean_effect_step"].as_f64(),
            mb["mean_effect_step"].as_f64(),
        ) {
            assert!(y >= x - 1e-12);
        }
    }
}
