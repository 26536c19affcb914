//! The advantage die (docs/advantage.md): exact against Monte Carlo for every
//! policy, every variant (two counters, a party with and without `share`)
//! and both `on_use` values, the quick command's flags and bad input, and
//! the example scenarios.

use crate::common;

use common::oddsmith;

use oddsmith::distribution::Spread;
use oddsmith::engine::exact::Budget;
use oddsmith::systems::advantage::{AdvantageCase, OnUse, Policy};
use oddsmith::systems::SystemCase;
use serde_json::Value;

/// Runs the quick command with `--format json` and returns its one result.
fn advantage_json(args: &[&str]) -> Value {
    let output = oddsmith()
        .arg("advantage")
        .args(args)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json["results"][0].clone()
}

#[test]
fn exact_and_monte_carlo_agree_for_every_policy_and_on_use() {
    let trials = 200_000;
    for policy in [
        Policy::Greedy,
        Policy::Threshold(4),
        Policy::Last,
        Policy::Never,
    ] {
        for on_use in [OnUse::Reset, OnUse::Swap] {
            let case = AdvantageCase {
                die: 8,
                rolls: 5,
                policy,
                on_use,
                gain_on: [1, 0, 1],
                gain_chance: 0.5,
                gm_reduce_chance: 0.2,
                ..AdvantageCase::default()
            };
            let (exact, _) = common::assert_monte_carlo_agrees(&case, trials, 7);
            assert_eq!(exact.rows.len(), 15);
        }
    }
}

#[test]
fn exact_and_monte_carlo_agree_for_every_variant_and_on_use() {
    // docs/advantage.md: the players' habit, two counters, a party apart and sharing.
    let trials = 200_000;
    let base = AdvantageCase {
        die: 8,
        rolls: 6,
        gain_on: [1, 0, 1],
        gain_chance: 0.5,
        gm_reduce_chance: 0.2,
        ..AdvantageCase::default()
    };
    let variants = [
        AdvantageCase {
            policy: Policy::ThresholdOrLast(7),
            ..base.clone()
        },
        AdvantageCase {
            counters: 2,
            ..base.clone()
        },
        AdvantageCase {
            counters: 2,
            policy: Policy::ThresholdOrLast(5),
            stat: -1,
            ..base.clone()
        },
        AdvantageCase {
            party: 3,
            rolls: 9,
            policy: Policy::ThresholdOrLast(6),
            ..base.clone()
        },
        AdvantageCase {
            party: 3,
            share: true,
            rolls: 9,
            policy: Policy::ThresholdOrLast(6),
            ..base.clone()
        },
        AdvantageCase {
            party: 4,
            share: true,
            rolls: 8,
            policy: Policy::Last,
            die: 4,
            ..base.clone()
        },
    ];
    for case in variants {
        for on_use in [OnUse::Reset, OnUse::Swap] {
            let case = AdvantageCase {
                on_use,
                ..case.clone()
            };
            let (exact, _) = common::assert_monte_carlo_agrees(&case, trials, 11);
            assert_eq!(exact.rows.len(), 3 * case.rolls as usize);
        }
    }
}

#[test]
fn a_party_without_share_plays_as_players_alone() {
    // Without share each player's counter sees only their own rolls, so a
    // party of 3 over 9 rolls is three lone players over 3 rolls each: the
    // per-encounter means add up, and roll 3k+1's tiers are a lone
    // player's roll k+1 (docs/advantage.md and docs/storytelling.md).
    let lone = AdvantageCase {
        die: 8,
        rolls: 3,
        gain_on: [1, 0, 0],
        policy: Policy::ThresholdOrLast(6),
        ..AdvantageCase::default()
    };
    let party = AdvantageCase {
        party: 3,
        rolls: 9,
        ..lone.clone()
    };
    let alone = lone.exact(&mut Budget::unlimited()).unwrap();
    let together = party.exact(&mut Budget::unlimited()).unwrap();
    let value = |e: &oddsmith::distribution::Evaluation, name: &str| {
        e.metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
            .value
            .unwrap()
    };
    for name in [
        "strong_per_encounter",
        "uses_per_encounter",
        "miss_to_strong_per_encounter",
    ] {
        assert!((value(&together, name) - 3.0 * value(&alone, name)).abs() < 1e-12);
    }
    let p_none = 1.0 - value(&alone, "p_encounter_strong");
    assert!((value(&together, "p_encounter_strong") - (1.0 - p_none.powi(3))).abs() < 1e-12);
    for (k, row) in together.rows.iter().enumerate() {
        let roll = k / 3;
        let own = &alone.rows[(roll / 3) * 3 + k % 3];
        assert_eq!(row.outcome, own.outcome);
        assert!((row.probability - own.probability).abs() < 1e-12);
    }
    // Sharing lends counters across players, so the party does better.
    let shared = AdvantageCase {
        share: true,
        ..party.clone()
    };
    let shared = shared.exact(&mut Budget::unlimited()).unwrap();
    assert!(value(&shared, "p_strong") > value(&together, "p_strong"));
}

#[test]
fn variant_flags_are_inputs_and_name_the_case_only_when_not_defaults() {
    let lone = advantage_json(&[]);
    assert_eq!(lone["inputs"]["counters"], 1);
    assert_eq!(lone["inputs"]["party"], 1);
    assert!(lone["inputs"].get("share").is_none());
    assert_eq!(lone["case"], "die=d6, stat=0, rolls=4, policy=greedy");
    let party = advantage_json(&["--party", "3", "--rolls", "9", "--share"]);
    assert_eq!(party["inputs"]["party"], 3);
    assert_eq!(party["inputs"]["share"], true);
    assert_eq!(
        party["case"],
        "die=d6, stat=0, rolls=9, policy=greedy, party=3, share=true"
    );
    let apart = advantage_json(&["--party", "2", "--share=false"]);
    assert_eq!(apart["inputs"]["share"], false);
    assert_eq!(
        apart["case"],
        "die=d6, stat=0, rolls=4, policy=greedy, party=2"
    );
    let two = advantage_json(&[
        "--counters",
        "2",
        "--policy",
        "threshold-or-last",
        "--threshold",
        "5",
    ]);
    assert_eq!(two["inputs"]["counters"], 2);
    assert_eq!(two["inputs"]["threshold"], 5);
    assert_eq!(
        two["case"],
        "die=d6, stat=0, rolls=4, policy=threshold-or-last, threshold=5, counters=2"
    );
    // Two counters may be spent together: up to 2 uses a roll.
    let uses = two["metrics"]["uses_per_encounter"].as_f64().unwrap();
    assert!(uses > 0.0 && uses <= 8.0);
}

#[test]
fn shares_carry_the_spread_of_each_encounters_share() {
    // Policy never, stat 0, 4 rolls: the number of strong hits per encounter
    // is binomial(4, 1/6), so the share's variance is (1/6)(5/6)/4.
    let case = AdvantageCase {
        policy: Policy::Never,
        ..AdvantageCase::default()
    };
    let exact = case.exact(&mut Budget::unlimited()).unwrap();
    let p_strong = exact.metrics.iter().find(|m| m.name == "p_strong").unwrap();
    match p_strong.spread {
        Spread::Mean { variance, base } => {
            assert!((variance - (1.0 / 6.0) * (5.0 / 6.0) / 4.0).abs() < 1e-12);
            assert_eq!(base, 1.0);
        }
        other => panic!("p_strong should be a mean, not {other:?}"),
    }
}

#[test]
fn the_quick_command_takes_every_flag() {
    let result = advantage_json(&[
        "--die",
        "d8",
        "--stat=-1",
        "--rolls",
        "6",
        "--policy",
        "threshold",
        "--threshold",
        "5",
        "--gain-on",
        "miss=1,weak=0,strong=2",
        "--gain-chance",
        "0.4",
        "--gm-reduce-chance",
        "0.1",
        "--miss-max",
        "5",
        "--strong-min",
        "11",
        "--on-use",
        "swap",
    ]);
    let inputs = &result["inputs"];
    assert_eq!(inputs["die"], "d8");
    assert_eq!(inputs["stat"], -1);
    assert_eq!(inputs["rolls"], 6);
    assert_eq!(inputs["policy"], "threshold");
    assert_eq!(inputs["threshold"], 5);
    assert_eq!(inputs["gain_on"]["miss"], 1);
    assert_eq!(inputs["gain_on"]["weak"], 0);
    assert_eq!(inputs["gain_on"]["strong"], 2);
    assert_eq!(inputs["gain_chance"], 0.4);
    assert_eq!(inputs["gm_reduce_chance"], 0.1);
    assert_eq!(inputs["miss_max"], 5);
    assert_eq!(inputs["strong_min"], 11);
    assert_eq!(inputs["on_use"], "swap");
    assert_eq!(result["method"], "exact");
    assert_eq!(
        result["case"],
        "die=d8, stat=-1, rolls=6, policy=threshold, threshold=5"
    );
    let metrics = result["metrics"].as_object().unwrap();
    let names: Vec<&str> = metrics.keys().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "p_miss",
            "p_weak",
            "p_strong",
            "strong_per_encounter",
            "p_encounter_strong",
            "uses_per_encounter",
            "miss_to_strong_per_encounter"
        ]
    );
    let shares: f64 = ["p_miss", "p_weak", "p_strong"]
        .iter()
        .map(|k| metrics[*k].as_f64().unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-9);
    // A negative stat also works as two words.
    let spaced = advantage_json(&["--stat", "-1"]);
    assert_eq!(spaced["inputs"]["stat"], -1);
}

#[test]
fn policy_never_gives_plain_2d6() {
    // Published figure: stat 0, 4 rolls: p_encounter_strong = 1 - (5/6)^4.
    let result = advantage_json(&["--policy", "never"]);
    let m = &result["metrics"];
    let expected = 1.0 - (5.0f64 / 6.0).powi(4);
    assert!((m["p_encounter_strong"].as_f64().unwrap() - expected).abs() < 1e-9);
    assert!((m["p_strong"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-9);
    // The counter is never spent: the die is not an input of the case.
    assert!(result["inputs"].get("die").is_none());
    let plus3 = advantage_json(&["--policy", "never", "--stat=3"]);
    let m = &plus3["metrics"];
    assert!((m["p_strong"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-9);
    assert!((m["p_weak"].as_f64().unwrap() - 12.0 / 36.0).abs() < 1e-9);
    assert!((m["p_miss"].as_f64().unwrap() - 3.0 / 36.0).abs() < 1e-9);
}

#[test]
fn a_larger_die_turns_more_misses_into_strong_hits() {
    let m2s = |die: &str| {
        advantage_json(&["--die", die, "--rolls", "10", "--gain-on", "miss=1"])["metrics"]
            ["miss_to_strong_per_encounter"]
            .as_f64()
            .unwrap()
    };
    let (d4, d6, d8) = (m2s("d4"), m2s("d6"), m2s("d8"));
    // A d4 can never lift a miss (high die at most 5) to 10.
    assert_eq!(d4, 0.0);
    assert!(d6 > 0.0 && d8 > d6, "d6 {d6}, d8 {d8}");
}

#[test]
fn csv_flattens_gain_on_and_both_methods_give_z() {
    let output = oddsmith()
        .args(["advantage", "--gain-on", "weak=1", "--format", "csv"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    for column in ["gain_on.miss", "gain_on.weak", "gain_on.strong", "p_strong"] {
        assert!(header.contains(&column), "{header:?}");
    }
    let weak = header.iter().position(|c| *c == "gain_on.weak").unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    // The case name holds commas inside quotes; count from the end instead.
    assert_eq!(row[row.len() - (header.len() - weak)], "1");

    let output = oddsmith()
        .args(["advantage", "--method", "both", "--trials", "50000"])
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[1]["method"], "monte-carlo");
    let z = results[1]["z_vs_exact"].as_object().unwrap();
    assert_eq!(z.len(), 7);
    for (name, z) in z {
        assert!(z.as_f64().unwrap().abs() < 5.0, "{name}: {z}");
    }
    let ci = results[1]["ci95"]["p_strong"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() < ci[1].as_f64().unwrap());
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["--die", "d3"], "d4, d6, d8, d10 or d12"),
        (&["--die", "d7"], "d4, d6, d8, d10 or d12"),
        (&["--die", "d20"], "d4, d6, d8, d10 or d12"),
        (
            &["--gain-chance", "1.5"],
            "`--gain-chance` must be a number from 0 to 1",
        ),
        (
            &["--gain-chance=-0.1"],
            "`--gain-chance` must be a number from 0 to 1",
        ),
        (
            &["--gm-reduce-chance", "2"],
            "`--gm-reduce-chance` must be a number from 0 to 1",
        ),
        (&["--rolls", "0"], "`--rolls` must be a whole number from 1"),
        (
            &["--policy", "yolo"],
            "allowed: `greedy`, `threshold`, `last`, `threshold-or-last`, `never`",
        ),
        (&["--policy", "threshold"], "needs `--threshold`"),
        (
            &["--policy", "threshold", "--threshold", "7"],
            "from 1 to 6 (the d6's size), not 7",
        ),
        (
            &["--die", "d4", "--policy", "threshold", "--threshold", "5"],
            "from 1 to 4",
        ),
        (
            &["--policy", "threshold", "--threshold", "0"],
            "from 1 to 6",
        ),
        (
            &["--threshold", "3"],
            "only applies with `--policy` \"threshold\"",
        ),
        (
            &["--miss-max", "10", "--strong-min", "10"],
            "`--miss-max` (10) must be below `--strong-min` (10)",
        ),
        (&["--miss-max", "12"], "must be below `--strong-min` (10)"),
        (&["--gain-on", "miss"], "tier=gain pairs"),
        (
            &["--gain-on", "miss=-1"],
            "`--gain-on` miss must be a whole number",
        ),
        (&["--gain-on", "miss=x"], "not \"x\""),
        (&["--gain-on", "fail=1"], "unknown tier `fail`"),
        (&["--gain-on", "miss=1,miss=2"], "given twice"),
        (&["--on-use", "keep"], "allowed: `reset`, `swap`"),
        (
            &["--policy", "threshold-or-last"],
            "`--policy` \"threshold-or-last\" needs `--threshold`",
        ),
        (
            &["--policy", "threshold-or-last", "--threshold", "9"],
            "from 1 to 6 (the d6's size), not 9",
        ),
        (
            &["--counters", "2", "--party", "3"],
            "`--counters` = 2 needs `--party` = 1",
        ),
        (
            &["--counters", "3"],
            "`--counters` must be a whole number from 1 to 2",
        ),
        (
            &["--party", "5"],
            "`--party` must be a whole number from 1 to 4, not 5",
        ),
        (
            &["--party", "0"],
            "`--party` must be a whole number from 1 to 4, not 0",
        ),
        (&["--share"], "`--share` only applies to a party"),
        (&["--party", "2", "--share=maybe"], "invalid value"),
    ];
    for (args, message) in cases {
        let output = oddsmith().arg("advantage").args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_example_scenario_runs_and_writes_per_roll_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    oddsmith()
        .args([
            "run",
            "scenarios/advantage-dice.toml",
            "--quiet",
            "--format",
            "csv",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    // 12 baseline cases, 72 greedy and last, 72 threshold, and the header.
    assert_eq!(summary.lines().count(), 157);
    assert!(summary.contains("\"baseline: rolls=3, stat=-1\",advantage,exact"));
    assert!(summary.contains("\"rolls=10, stat=2, policy=last, die=d8\",advantage,exact"));
    let rows = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(rows.contains(",tier_roll_10,strong,"));
    assert!(!rows.contains(",tier_roll_11,"));
}

#[test]
fn the_variants_scenario_compares_setups_and_dice() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    oddsmith()
        .args([
            "run",
            "scenarios/advantage-variants.toml",
            "--quiet",
            "--format",
            "csv",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    // The baseline, 3 dice x (one die, two dice), 3 dice x 2 parties x share.
    assert_eq!(summary.lines().count(), 1 + 1 + 6 + 12);
    assert!(summary.contains("\nd8 party of 4: share=true,advantage,exact,"));
    assert!(out.join("advantage-setups.png").exists());
}

#[test]
fn scenario_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = |text: &str| {
        let path = dir.path().join("s.toml");
        std::fs::write(&path, text).unwrap();
        let output = oddsmith()
            .args(["run", "--no-report", "--quiet"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let err = run("[[case]]\nsystem = \"advantage\"\ngain_on = { miss = 1, fail = 2 }\n");
    assert!(
        err.contains("s.toml:3:") && err.contains("unknown tier `fail` in `gain_on`"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\ngain_on.weak = -1\n");
    assert!(
        err.contains("s.toml:3:") && err.contains("`gain_on.weak` must be"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\ndie = \"d7\"\n");
    assert!(
        err.contains("s.toml:3:1") && err.contains("d4, d6, d8, d10 or d12"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\npolicy = \"greedy\"\nthreshold = 3\n");
    assert!(
        err.contains("s.toml:4:1") && err.contains("only applies"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\nparty = 2\ncounters = 2\n");
    assert!(
        err.contains("s.toml:4:1") && err.contains("`counters` = 2 needs `party` = 1"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\nparty = 7\n");
    assert!(
        err.contains("s.toml:3:1") && err.contains("`party` must be a whole number from 1 to 4"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\nshare = true\n");
    assert!(
        err.contains("s.toml:3:1") && err.contains("`share` only applies to a party"),
        "{err}"
    );
    let err = run("[[case]]\nsystem = \"advantage\"\npolicy = \"threshold-or-last\"\n");
    assert!(
        err.contains("s.toml:1:1") && err.contains("needs `threshold`"),
        "{err}"
    );
    let err = run("[advantage]\npool = \"d6\"\n[[case]]\nsystem = \"advantage\"\n");
    assert!(
        err.contains("s.toml:2:1") && err.contains("belongs to cortex"),
        "{err}"
    );
}

#[test]
fn defaults_table_threshold_is_left_to_threshold_cases() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        "[advantage]\nthreshold = 3\ngain_on.miss = 1\n[[sweep]]\nsystem = \"advantage\"\npolicy = [\"greedy\", \"threshold\"]\n",
    )
    .unwrap();
    let output = oddsmith()
        .args(["run", "--no-report", "--quiet", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let results = json["results"].as_array().unwrap();
    assert!(results[0]["inputs"].get("threshold").is_none());
    assert_eq!(results[1]["inputs"]["threshold"], 3);
    assert_eq!(results[1]["inputs"]["gain_on"]["miss"], 1);
    assert_eq!(results[1]["case"], "policy=threshold");
}

#[test]
fn defaults_table_share_is_left_to_parties() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        "[advantage]\nshare = true\n[[sweep]]\nsystem = \"advantage\"\nparty = [1, 2]\n",
    )
    .unwrap();
    let output = oddsmith()
        .args(["run", "--no-report", "--quiet", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let results = json["results"].as_array().unwrap();
    assert!(results[0]["inputs"].get("share").is_none());
    assert_eq!(results[1]["inputs"]["share"], true);
}
