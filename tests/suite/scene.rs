//! CLI tests for doom-pool scenes: `oddsmith scene`, `cortex-scene` cases
//! in scenarios, their defaults, bad input, and Monte Carlo against exact.

use crate::common;

use common::{json_of, refused, scenario};
use serde_json::Value;

#[test]
fn scene_bad_inputs_exit_2() {
    refused(
        &["scene", "d8 d6", "--actions", "0"],
        &["`--actions` must be a whole number from 1 to 1000, not 0"],
    );
    refused(&["scene", "d8 d6", "--actions=-2"], &["`--actions`"]);
    refused(
        &["scene", "d8 d6", "--doom", "2d6 d20"],
        &[
            "`--doom`",
            "d20 is not a Cortex die",
            "d4, d6, d8, d10 or d12",
        ],
    );
    refused(
        &["scene", "d8 d6", "--doom", "d2"],
        &["d4, d6, d8, d10 or d12"],
    );
    refused(&["scene", "d8 d7"], &["d4, d6, d8, d10 or d12"]);
    refused(
        &["scene", "d8 d6", "--ties", "doom"],
        &["`--ties`", "allowed: `reaction`, `action`"],
    );
    refused(
        &["scene", "d8 d6", "--heroic-step", "0"],
        &["`--heroic-step`"],
    );
    refused(&["scene", "d8 d6", "--keep", "6"], &["`--keep`", "1 to 5"]);
}

#[test]
fn scene_quick_command_json() {
    let v = json_of(&[
        "scene",
        "d10 2d8 d6",
        "--doom",
        "3d8",
        "--actions",
        "10",
        "--format",
        "json",
    ]);
    let r = &v["results"][0];
    assert_eq!(r["case"], "d10 2d8 d6 vs 3d8, actions=10");
    assert_eq!(r["system"], "cortex-scene");
    assert_eq!(r["method"], "exact");
    assert_eq!(r["inputs"]["end_at_2d12"], false);
    assert_eq!(r["inputs"]["doom"], "3d8");
    let m = &r["metrics"];
    // The first action is the plain roll against 3d8 (docs/cortex.md's example: 0.5816).
    assert!((m["p_success_action_1"].as_f64().unwrap() - 0.5816).abs() < 5e-5);
    assert!(m["p_success_action_10"].as_f64().unwrap() < m["p_success_action_1"].as_f64().unwrap());
    for key in [
        "mean_successes",
        "mean_heroic_successes",
        "mean_plot_points",
        "p_ended_early",
        "mean_final_doom_dice",
    ] {
        assert!(m[key].is_number(), "{key}");
    }
    // All scenes ended at once: the mean over the rest is null.
    let v = json_of(&[
        "scene",
        "d8 d6",
        "--doom",
        "2d12",
        "--end-at-2d12",
        "--format",
        "json",
    ]);
    let m = &v["results"][0]["metrics"];
    assert_eq!(m["p_ended_early"], 1.0);
    assert_eq!(m["mean_final_doom_dice"], Value::Null);
}

#[test]
fn scene_monte_carlo_agrees_and_ignores_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "scene",
            "d8 2d6 2d4",
            "--doom",
            "d12 d10",
            "--actions",
            "6",
            "--end-at-2d12",
            "--method",
            "both",
            "--trials",
            "200000",
            "--threads",
            threads,
            "--quiet",
            "--format",
            "json",
        ]
    };
    let one = json_of(&args("1"));
    common::assert_json_z_small(&one["results"][1]);
    assert_eq!(one, json_of(&args("2")));
}

#[test]
fn scene_defaults_come_from_both_tables() {
    let dir = tempfile::tempdir().unwrap();
    // [cortex] sets the roll rules (its cortex-only keys are skipped for
    // scenes); [cortex-scene] sets scene keys and overrides [cortex].
    let path = scenario(
        dir.path(),
        "[cortex]\nties = \"action\"\nheroic_step = 3\neffect_step_down = true\nvs = \"2d6\"\n\
         [cortex-scene]\nheroic_step = 4\ndoom = \"2d8\"\n\
         [[case]]\nsystem = \"cortex-scene\"\npool = \"d8 d6\"\n",
    );
    let v = json_of(&["run", &path, "--no-report", "--format", "json", "--quiet"]);
    let inputs = &v["results"][0]["inputs"];
    assert_eq!(inputs["ties"], "action");
    assert_eq!(inputs["heroic_step"], 4);
    assert_eq!(inputs["doom"], "2d8");
    assert_eq!(v["results"][0]["case"], "d8 d6 vs 2d8, actions=4");
}
