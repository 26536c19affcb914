//! Command-line and scenario tests of Cortex conflicts (docs/cortex.md): the quick
//! command and its flags, JSON with every input, `[cortex]` roll rules in a
//! scenario (keys that do not apply skipped there, refused on a case), sweep
//! names, Monte Carlo against exact, and bad input (exit 2, a message naming
//! what is allowed, never a panic).

use crate::common;

use common::{assert_json_z_small, assert_monte_carlo_agrees, json_of, refused, scenario};
use oddsmith::dice::{Die, Pool};
use oddsmith::systems::cortex::conflict::{ConflictCase, Mob};
use oddsmith::systems::cortex::{Rules, Ties};

/// `oddsmith ARGS --format json`, expected to succeed, parsed.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    json_of(&all)
}

#[test]
fn the_quick_command_names_the_case_and_lists_every_input() {
    let v = json(&[
        "conflict",
        "d6 d10 2d8",
        "--foe",
        "d6",
        "--mob",
        "3d6",
        "--exchanges",
        "4",
        "--foe-acts=false",
        "--ties",
        "action",
        "--effect-step-down",
    ]);
    let r = &v["results"][0];
    assert_eq!(r["case"], "d10 2d8 d6 vs d6 + 3d6 mob");
    assert_eq!(r["system"], "cortex-conflict");
    assert_eq!(r["method"], "exact");
    let inputs = &r["inputs"];
    assert_eq!(inputs["mob"], "3d6");
    assert_eq!(inputs["exchanges"], 4);
    assert_eq!(inputs["foe_acts"], false);
    assert_eq!(inputs["ties"], "action");
    assert_eq!(inputs["effect_step_down"], true);
    assert_eq!(inputs["hero_stress_limit"], "d12");
    assert!(inputs.get("foe_stress_limit").is_none());
    // A foe that never acts never takes the hero out.
    assert_eq!(r["metrics"]["p_hero_out"], 0.0);
    assert!(r["metrics"]["mean_team_dice_left"].is_number());
    let bare = json(&["conflict", "d10 d8 d6", "--mob", "3d6"]);
    assert_eq!(bare["results"][0]["case"], "d10 d8 d6 vs 3d6 mob");
}

#[test]
fn monte_carlo_agrees_with_exact_on_every_metric_and_row() {
    let pool = |text| Pool::parse_cortex(text).unwrap();
    let specialist = ConflictCase {
        hero: pool("d10 2d8 d6"),
        foe: pool("d10 d8 d6"),
        mob: None,
        exchanges: Some(6),
        foe_acts: true,
        hero_stress_limit: Die::D12,
        foe_stress_limit: Die::D8,
        rules: Rules {
            ties: Ties::Action,
            ..Rules::default()
        },
    };
    let mob = ConflictCase {
        hero: pool("d10 d8 d6"),
        foe: pool("d6"),
        mob: Some(Mob {
            die: Die::D8,
            count: 3,
        }),
        exchanges: Some(8),
        foe_stress_limit: Die::D12,
        rules: Rules {
            effect_step_down: true,
            ..Rules::default()
        },
        ..specialist.clone()
    };
    // Played until one side is out, as by default.
    let uncapped = ConflictCase {
        exchanges: None,
        ..mob.clone()
    };
    for case in [specialist, mob, uncapped] {
        assert_monte_carlo_agrees(&case, 200_000, 11);
    }
    // The command line's --method both, with its intervals.
    let v = json(&[
        "conflict",
        "d10 2d8 d6",
        "--mob",
        "4d6",
        "--exchanges",
        "6",
        "--method",
        "both",
        "--trials",
        "100000",
        "--seed",
        "9",
    ]);
    let mc = &v["results"][1];
    assert_eq!(mc["method"], "monte-carlo");
    assert_json_z_small(mc);
    for (metric, ci) in mc["ci95"].as_object().unwrap() {
        let ci = ci.as_array().unwrap();
        assert!(
            ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap(),
            "{metric}"
        );
    }
}

#[test]
fn a_scenario_reads_cortex_rules_and_names_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        r#"
[cortex]
ties = "action"
vs = "2d6"            # a cortex key: skipped for conflicts
[cortex-conflict]
exchanges = 3
[[sweep]]
name = "mobs"
system = "cortex-conflict"
hero = ["d10 d8 d6"]
mob = ["2d6", "3d8"]
[[sweep]]
system = "cortex-conflict"
hero = ["d8 d6"]
foe = ["d8 d6"]
foe_stress_limit = ["d6", "d10"]
"#,
    );
    let v = json(&["run", &path, "--no-report"]);
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "mobs: d10 d8 d6 vs 2d6 mob",
            "mobs: d10 d8 d6 vs 3d8 mob",
            "d8 d6 vs d8 d6, foe_stress_limit=d6",
            "d8 d6 vs d8 d6, foe_stress_limit=d10",
        ]
    );
    let inputs = &v["results"][0]["inputs"];
    assert_eq!(inputs["ties"], "action");
    assert_eq!(inputs["exchanges"], 3);
    assert!(inputs.get("vs").is_none());
}

#[test]
fn bad_input_is_exit_2_naming_what_is_allowed() {
    refused(
        &["conflict", "d8", "--mob", "2d8 d6"],
        &["a mob's team dice are all of one size"],
    );
    refused(
        &["conflict", "d8", "--foe", "d8", "--hero-stress-limit", "d4"],
        &["allowed: `d6` (novice), `d8` (expert), `d10` (master), `d12`"],
    );
    refused(
        &["conflict", "d8", "--mob", "3d8", "--foe-stress-limit", "d8"],
        &["`--foe-stress-limit` does not apply to a mob"],
    );
    refused(
        &["conflict", "d8", "--foe", "d8", "--exchanges", "0"],
        &["`--exchanges` must be a whole number from 1 to 100, not 0"],
    );
    refused(
        &["conflict", "d8", "--foe", "d8", "--exchanges", "101"],
        &["from 1 to 100, not 101"],
    );
    refused(&["conflict", "d8"], &["needs `--foe`"]);
    refused(
        &["conflict", "d8", "--foe", "d7"],
        &["`--foe`: d7 is not a Cortex die"],
    );
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[case]]\nsystem = \"cortex-conflict\"\nhero = \"d8\"\nfoe = \"d8\"\nvs = \"2d6\"\n",
    );
    refused(
        &["run", &path, "--no-report"],
        &[":5:1: unknown key `vs`", "(it belongs to cortex)"],
    );
}

/// `oddsmith ARGS --quiet`: (stdout, stderr), expected to succeed.
fn quiet_run(args: &[&str]) -> (String, String) {
    let out = common::oddsmith()
        .args(args)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn by_default_a_fight_is_played_until_one_side_is_out() {
    // The README's villain and 3d8 mob: the chain played out, no flag.
    let villain = json(&["conflict", "d10 2d8 d6", "--foe", "d10 d8 d6"]);
    let r = &villain["results"][0];
    assert!(r["inputs"].get("exchanges").is_none(), "{}", r["inputs"]);
    let m = &r["metrics"];
    let to_out = m["mean_exchanges_to_foe_out"].as_f64().unwrap();
    assert!((to_out - 4.5922).abs() < 1e-4, "{to_out}");
    let neither = m["p_neither"].as_f64().unwrap();
    assert!((0.0..=1e-12).contains(&neither), "{neither}");
    let p_out = m["p_foe_out"].as_f64().unwrap() + m["p_hero_out"].as_f64().unwrap();
    assert!((p_out + neither - 1.0).abs() < 1e-12);
    let mob = json(&["conflict", "d10 2d8 d6", "--mob", "3d8"]);
    let to_out = mob["results"][0]["metrics"]["mean_exchanges_to_foe_out"]
        .as_f64()
        .unwrap();
    assert!((to_out - 5.3037).abs() < 1e-4, "{to_out}");
    // Monte Carlo plays its fights out too and agrees.
    let mc = json(&[
        "conflict",
        "d10 2d8 d6",
        "--mob",
        "3d8",
        "--method",
        "both",
        "--trials",
        "100000",
    ]);
    assert_json_z_small(&mc["results"][1]);
    assert_eq!(mc["results"][1]["metrics"]["p_neither"], 0.0);
    // The take-out distribution runs to the last exchange with probability.
    let (_, quiet) = quiet_run(&["conflict", "d10 2d8 d6", "--mob", "3d8"]);
    assert_eq!(quiet, "", "an uncapped fight has nothing to warn of");
}

#[test]
fn a_capped_fight_that_leaves_many_unresolved_says_so_under_quiet() {
    let (out, err) = quiet_run(&[
        "conflict",
        "d10 2d8 d6",
        "--foe",
        "d10 d8 d6",
        "--exchanges",
        "5",
    ]);
    assert!(out.contains("chance neither is taken out"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "warning: case \"d10 2d8 d6 vs d10 d8 d6\" (exact): capped at 5 exchanges: "
        ),
        "{err}"
    );
    assert!(err.contains("conditional"), "{err}");
    // A cap that leaves under 1 % unresolved is quiet.
    let (_, err) = quiet_run(&[
        "conflict",
        "d10 2d8 d6",
        "--foe",
        "d8 d6",
        "--exchanges",
        "12",
    ]);
    assert_eq!(err, "");
}
