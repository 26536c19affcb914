//! Command-line and scenario tests of Cortex conflicts (SPEC 9): the quick
//! command and its flags, JSON with every input, `[cortex]` roll rules in a
//! scenario (keys that do not apply skipped there, refused on a case), sweep
//! names, Monte Carlo against exact, and bad input (exit 2, a message naming
//! what is allowed, never a panic).

use assert_cmd::Command;
use predicates::prelude::*;

fn oddsmith() -> Command {
    Command::cargo_bin("oddsmith").unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = oddsmith()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
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
fn monte_carlo_agrees_with_exact_on_every_metric() {
    let v = json(&[
        "conflict",
        "d10 2d8 d6",
        "--foe",
        "d10 d8 d6",
        "--foe-stress-limit",
        "d10",
        "--exchanges",
        "6",
        "--method",
        "both",
        "--trials",
        "100000",
        "--seed",
        "9",
    ]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results[1]["method"], "monte-carlo");
    let z = results[1]["z_vs_exact"].as_object().unwrap();
    assert_eq!(z.len(), 6);
    for (metric, z) in z {
        assert!(z.as_f64().unwrap().abs() < 5.0, "{metric}: z = {z}");
        let ci = results[1]["ci95"][metric].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    }
}

#[test]
fn a_scenario_reads_cortex_rules_and_names_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(
        &path,
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
    )
    .unwrap();
    let out = oddsmith()
        .arg("run")
        .arg(&path)
        .args(["--no-report", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

fn bad(args: &[&str], message: &str) {
    oddsmith()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn bad_input_is_exit_2_naming_what_is_allowed() {
    bad(
        &["conflict", "d8", "--mob", "2d8 d6"],
        "a mob's team dice are all of one size",
    );
    bad(
        &["conflict", "d8", "--foe", "d8", "--hero-stress-limit", "d4"],
        "allowed: \"d6\" (novice), \"d8\" (expert), \"d10\" (master), \"d12\"",
    );
    bad(
        &["conflict", "d8", "--mob", "3d8", "--foe-stress-limit", "d8"],
        "`--foe-stress-limit` does not apply to a mob",
    );
    bad(
        &["conflict", "d8", "--foe", "d8", "--exchanges", "0"],
        "`--exchanges` must be a whole number from 1 to 100, not 0",
    );
    bad(
        &["conflict", "d8", "--foe", "d8", "--exchanges", "101"],
        "from 1 to 100, not 101",
    );
    bad(&["conflict", "d8"], "needs `--foe`");
    bad(
        &["conflict", "d8", "--foe", "d7"],
        "`--foe`: d7 is not a Cortex die",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(
        &path,
        "[[case]]\nsystem = \"cortex-conflict\"\nhero = \"d8\"\nfoe = \"d8\"\nvs = \"2d6\"\n",
    )
    .unwrap();
    oddsmith()
        .arg("run")
        .arg(&path)
        .arg("--no-report")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":5:1: unknown key `vs`"))
        .stderr(predicate::str::contains("(it belongs to cortex)"));
}
