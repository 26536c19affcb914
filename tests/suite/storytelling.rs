//! Storytelling d10 pools (docs/storytelling.md): the exact method against published figures
//! and closed forms, Monte Carlo against exact within 5 standard errors for
//! every option, the example scenario, and the quick command's flags and
//! bad input.

use crate::common;

use common::oddsmith;

use predicates::prelude::*;
use serde_json::Value;

use oddsmith::distribution::Evaluation;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::options::{KeyStyle, RawItem, RawValue};
use oddsmith::systems::{storytelling, System, SystemCase};

fn case(pairs: &[(&str, RawValue)]) -> Box<dyn SystemCase> {
    let entries = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v.clone())))
        .collect();
    System::Storytelling
        .resolve(System::Storytelling.options(KeyStyle::Toml, entries))
        .unwrap()
}

fn int(v: i64) -> RawValue {
    RawValue::Int(v)
}

fn exact(pairs: &[(&str, RawValue)]) -> Evaluation {
    case(pairs).exact(&mut Budget::interactive()).unwrap()
}

fn metric(e: &Evaluation, name: &str) -> f64 {
    e.metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
        .unwrap()
}

/// P(at least `need` successes), exact.
fn p_at_least(pairs: &[(&str, RawValue)], need: i64) -> f64 {
    let mut all = pairs.to_vec();
    all.push(("need", int(need)));
    metric(&exact(&all), "p_success")
}

#[test]
fn reference_table_to_six_decimals() {
    // Published figure, "Storytelling, 10-again, P(at least S successes)".
    let table: &[(i64, [f64; 4])] = &[
        (1, [0.300000, 0.030000, 0.003000, 0.000030]),
        (2, [0.510000, 0.132000, 0.021300, 0.000375]),
        (5, [0.831930, 0.507795, 0.225334, 0.020277]),
        (8, [0.942352, 0.764467, 0.506533, 0.119192]),
        (10, [0.971752, 0.862798, 0.662788, 0.233921]),
    ];
    for &(dice, row) in table {
        for (&need, &expected) in [1, 2, 3, 5].iter().zip(&row) {
            let p = p_at_least(&[("dice", int(dice))], need);
            assert!(
                (p - expected).abs() < 5e-7,
                "{dice} dice, S={need}: {p} vs {expected}"
            );
        }
    }
}

#[test]
fn closed_forms_to_1e12() {
    // One die: P(>= n) = 0.3 x 0.1^(n - 1); the pool: P(>= 1) = 1 - 0.7^dice.
    for n in 1..=6 {
        let p = p_at_least(&[("dice", int(1))], n);
        assert!((p - 0.3 * 0.1f64.powi(n as i32 - 1)).abs() < 1e-12);
    }
    for dice in [1, 3, 7, 20, 40] {
        let p = p_at_least(&[("dice", int(dice))], 1);
        assert!((p - (1.0 - 0.7f64.powi(dice as i32))).abs() < 1e-12);
    }
    // Two dice, each 0 (0.7), 1 (0.27), n >= 2 (0.27 x 0.1^(n-1)):
    // P(>= 2) = 1 - 0.49 - 2 x 0.7 x 0.27 = 0.132.
    assert!((p_at_least(&[("dice", int(2))], 2) - 0.132).abs() < 1e-12);
}

#[test]
fn mean_successes_is_a_third_per_die() {
    for dice in [1, 2, 5, 10, 40] {
        let e = exact(&[("dice", int(dice))]);
        let mean = metric(&e, "mean_successes");
        assert!((mean - dice as f64 / 3.0).abs() < 1e-9, "{dice}: {mean}");
    }
    // 9-again: 0.3 / (1 - 0.2) = 0.375 per die; 8-again: 0.3 / 0.7.
    let nine = metric(
        &exact(&[("dice", int(4)), ("again", int(9))]),
        "mean_successes",
    );
    assert!((nine - 4.0 * 0.375).abs() < 1e-9);
    let eight = metric(
        &exact(&[("dice", int(4)), ("again", int(8))]),
        "mean_successes",
    );
    assert!((eight - 4.0 * 0.3 / 0.7).abs() < 1e-9);
}

#[test]
fn nine_again_eight_again_and_rote_figures() {
    // Published figure: 5 dice, P(>= 2) = 54.38 % (9-again), 57.98 % (8-again), 83.95 % (rote).
    let nine = p_at_least(&[("dice", int(5)), ("again", int(9))], 2);
    let eight = p_at_least(&[("dice", int(5)), ("again", int(8))], 2);
    let rote = p_at_least(&[("dice", int(5)), ("rote", RawValue::Bool(true))], 2);
    assert!((nine - 0.5438).abs() < 5e-5, "{nine}");
    assert!((eight - 0.5798).abs() < 5e-5, "{eight}");
    assert!((rote - 0.8395).abs() < 5e-5, "{rote}");
    // Closed forms: per die P(0) = 0.7 and P(1) = 0.1 + 0.2 x 0.7 (9-again),
    // 0.3 x 0.7 (8-again); rote: P(0) = 0.49, P(1) = 1.7 x 0.27.
    let two_plus = |p0: f64, p1: f64| 1.0 - p0.powi(5) - 5.0 * p1 * p0.powi(4);
    assert!((nine - two_plus(0.7, 0.24)).abs() < 1e-12);
    assert!((eight - two_plus(0.7, 0.21)).abs() < 1e-12);
    assert!((rote - two_plus(0.49, 1.7 * 0.27)).abs() < 1e-12);
}

#[test]
fn chance_die_figures() {
    // Published figure: 10 % success, 10 % dramatic failure.
    for pairs in [
        vec![("dice", int(0))],
        vec![("dice", int(3)), ("modifier", int(-3))],
        vec![("dice", int(2)), ("modifier", int(-7))],
        vec![
            ("dice", int(0)),
            ("chance_die_explodes", RawValue::Bool(false)),
        ],
        vec![("dice", int(0)), ("again", int(0))],
        vec![("dice", int(0)), ("rote", RawValue::Bool(true))],
    ] {
        let e = exact(&pairs);
        assert!((metric(&e, "p_success") - 0.1).abs() < 1e-12, "{pairs:?}");
        assert!((metric(&e, "p_dramatic") - 0.1).abs() < 1e-15, "{pairs:?}");
    }
    // The seed's rule: the 10 is rerolled, the reroll an ordinary 10-again die:
    // mean 0.1 x (1 + 1/3), P(>= 2) = 0.1 x 0.3, P(>= 3) = 0.1 x 0.03.
    let e = exact(&[("dice", int(0))]);
    assert!((metric(&e, "mean_successes") - 0.4 / 3.0).abs() < 1e-12);
    assert!((p_at_least(&[("dice", int(0))], 2) - 0.03).abs() < 1e-12);
    assert!((p_at_least(&[("dice", int(0))], 3) - 0.003).abs() < 1e-12);
    // 8-again: the chance die needs its 10, the rerolls explode on 8: P(X >= 2) = 0.09.
    let eight = [("dice", int(0)), ("again", int(8))];
    assert!((p_at_least(&eight, 3) - 0.009).abs() < 1e-12);
    // Later edition, or no rerolls at all: one success at most.
    for off in [
        [
            ("dice", int(0)),
            ("chance_die_explodes", RawValue::Bool(false)),
        ],
        [("dice", int(0)), ("again", int(0))],
    ] {
        assert_eq!(p_at_least(&off, 2), 0.0);
        assert!((metric(&exact(&off), "mean_successes") - 0.1).abs() < 1e-15);
    }
    // A real pool never fails dramatically.
    assert_eq!(metric(&exact(&[("dice", int(1))]), "p_dramatic"), 0.0);
}

#[test]
fn forty_dice_eight_again_rote_drops_less_than_1e12() {
    let c = storytelling::StorytellingCase {
        dice: 40,
        modifier: 0,
        rules: storytelling::Rules {
            pool: 40,
            again: 8,
            rote: true,
            ..storytelling::Rules::default()
        },
        need: 1,
        exceptional: 5,
    };
    let (hists, dropped) = c.exact_hists(&mut Budget::interactive()).unwrap();
    assert!(dropped > 0.0 && dropped < storytelling::DROP_LIMIT);
    // Not renormalised: the outcomes hold exactly what was not dropped.
    let mass: f64 = hists.successes.iter().map(|(_, p)| p).sum();
    assert!((mass + dropped - 1.0).abs() < 1e-14);
    // Per die: P(0) = 0.49, mean = 1.7 x 0.3 / 0.7 (the rote die is (1 + q) X beyond 0).
    assert!((hists.successes.get(0) - 0.49f64.powi(40)).abs() < 1e-25);
    let e = c.exact(&mut Budget::interactive()).unwrap();
    assert_eq!(e.dropped_mass, Some(dropped));
    assert!((metric(&e, "mean_successes") - 40.0 * 1.7 * 0.3 / 0.7).abs() < 1e-9);
}

/// Monte Carlo within 5 standard errors of exact, for every metric and for
/// every success count with probability above 1e-3.
fn check_mc(pairs: &[(&str, RawValue)]) {
    let (_, mc) = common::assert_monte_carlo_agrees(case(pairs).as_ref(), 200_000, 11);
    assert_eq!(mc.dropped_mass, None, "{pairs:?}");
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_option() {
    let yes = RawValue::Bool(true);
    let no = RawValue::Bool(false);
    check_mc(&[("dice", int(5))]);
    check_mc(&[("dice", int(10)), ("need", int(3))]);
    check_mc(&[("dice", int(5)), ("again", int(9)), ("exceptional", int(3))]);
    check_mc(&[("dice", int(4)), ("again", int(8)), ("rote", yes.clone())]);
    check_mc(&[
        ("dice", int(6)),
        ("again", int(0)),
        ("rote", yes.clone()),
        ("target", int(6)),
    ]);
    check_mc(&[
        ("dice", int(3)),
        ("target", int(10)),
        ("again", int(10)),
        ("need", int(2)),
    ]);
    check_mc(&[
        ("dice", int(3)),
        ("target", int(2)),
        ("again", int(2)),
        ("need", int(20)),
    ]);
    check_mc(&[
        ("dice", int(7)),
        ("modifier", int(-2)),
        ("need", int(3)),
        ("exceptional", int(4)),
    ]);
    check_mc(&[
        ("dice", int(2)),
        ("modifier", int(4)),
        ("rote", yes.clone()),
        ("again", int(9)),
    ]);
    // Chance dice: the seed's exploding rule, with 8-again rerolls, the later edition.
    check_mc(&[("dice", int(0))]);
    check_mc(&[
        ("dice", int(1)),
        ("modifier", int(-1)),
        ("again", int(8)),
        ("need", int(2)),
    ]);
    check_mc(&[("dice", int(0)), ("chance_die_explodes", no), ("rote", yes)]);
}

#[test]
fn monte_carlo_does_not_depend_on_threads() {
    let c = case(&[
        ("dice", int(6)),
        ("again", int(8)),
        ("rote", RawValue::Bool(true)),
    ]);
    let settings = McSettings::new(150_000, 5);
    let on = |threads| {
        let workers = Workers::start(Some(threads)).unwrap();
        workers.install(|| c.monte_carlo(&settings)).unwrap()
    };
    assert_eq!(on(1), on(2));
}

/// `oddsmith storytelling ARGS --format json --quiet`.
fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["storytelling"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--quiet"]);
    common::json_of(&all)
}

#[test]
fn quick_command_flags() {
    let v = json_of(&["5", "--need", "2", "--again", "9"]);
    let r = &v["results"][0];
    assert_eq!(r["case"], "dice=5, modifier=0");
    assert_eq!(r["system"], "storytelling");
    assert_eq!(r["method"], "exact");
    assert!((r["metrics"]["p_success"].as_f64().unwrap() - 0.54381).abs() < 1e-12);
    assert_eq!(r["inputs"]["again"], 9);
    assert_eq!(r["inputs"]["need"], 2);
    assert_eq!(r["inputs"]["target"], 8);
    assert_eq!(r["inputs"]["exceptional"], 5);
    assert_eq!(r["inputs"]["rote"], false);
    assert!(r["inputs"].get("chance_die_explodes").is_none());

    let v = json_of(&["5", "--rote", "--need=2"]);
    assert!(
        (v["results"][0]["metrics"]["p_success"].as_f64().unwrap() - 0.83945029215).abs() < 1e-12
    );
    let v = json_of(&["5", "--rote=false", "--need=2", "--again", "10"]);
    assert!((v["results"][0]["metrics"]["p_success"].as_f64().unwrap() - 0.507795).abs() < 5e-7);

    // A modifier taking the pool to 0 or below rolls a chance die.
    let v = json_of(&["3", "--modifier=-4", "--chance-die-explodes=false"]);
    let r = &v["results"][0];
    assert_eq!(r["case"], "dice=3, modifier=-4");
    assert_eq!(r["inputs"]["chance_die_explodes"], false);
    assert!(r["inputs"].get("rote").is_none());
    assert_eq!(r["metrics"]["p_dramatic"], 0.1);
    assert_eq!(r["metrics"]["mean_successes"], 0.1);
    let v = json_of(&["0", "--chance-die-explodes"]);
    assert!(
        (v["results"][0]["metrics"]["mean_successes"]
            .as_f64()
            .unwrap()
            - 0.4 / 3.0)
            .abs()
            < 1e-12
    );

    // Target and exceptional: 4 dice at target 6 without rerolls, P(>= 3).
    let v = json_of(&["4", "--target", "6", "--again", "0", "--exceptional", "3"]);
    let p: f64 = 4.0 * 0.5f64.powi(4) + 0.5f64.powi(4);
    assert!(
        (v["results"][0]["metrics"]["p_exceptional"]
            .as_f64()
            .unwrap()
            - p)
            .abs()
            < 1e-12
    );

    // Monte Carlo and both, with the common flags.
    let v = json_of(&[
        "6",
        "--method",
        "mc",
        "--trials",
        "5000",
        "--seed",
        "3",
        "--threads",
        "1",
    ]);
    let r = &v["results"][0];
    assert_eq!(r["method"], "monte-carlo");
    assert_eq!(r["trials"], 5000);
    assert_eq!(r["seed"], 3);
    assert!(r["ci95"]["p_success"].is_array());
    let v = json_of(&["6", "--method", "both", "--trials", "20000"]);
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert!(
        v["results"][1]["z_vs_exact"]["mean_successes"]
            .as_f64()
            .unwrap()
            .abs()
            < 5.0
    );

    oddsmith()
        .args(["storytelling", "8", "--format", "csv"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "case,system,method,dice,modifier,target,again,rote,need,exceptional,p_success,p_exceptional,mean_successes,p_dramatic\n",
        ));
    oddsmith()
        .args(["storytelling", "8"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("chance of success").and(predicate::str::contains("0.942352")),
        );
}

#[test]
fn quick_command_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["5", "--again", "7"],
            "`--again` must be 0 (no rerolls) or a value from `--target` (8) to 10, not 7",
        ),
        (&["5", "--again", "11"], "`--again` must be 0"),
        (&["5", "--again=-1"], "`--again` must be 0"),
        (
            &["5", "--target", "9", "--again", "8"],
            "from `--target` (9) to 10, not 8",
        ),
        (
            &["5", "--target", "10", "--again", "9"],
            "from `--target` (10) to 10, not 9",
        ),
        (
            &["5", "--target", "1"],
            "`--target` must be a whole number from 2 to 10, not 1",
        ),
        (
            &["5", "--target", "11"],
            "`--target` must be a whole number from 2 to 10, not 11",
        ),
        (
            &["5", "--need", "0"],
            "`--need` must be a whole number of at least 1, not 0",
        ),
        (
            &["5", "--need=-2"],
            "`--need` must be a whole number of at least 1",
        ),
        (
            &["5", "--exceptional=-1"],
            "`--exceptional` must be a whole number of at least 0, not -1",
        ),
        (&["2.5"], "DICE must be a whole number from 0 to 1000000"),
        (&["six"], "DICE must be a whole number from 0 to 1000000"),
        (&["--", "-1"], "a penalty goes in --modifier=-1"),
        (&["5", "--modifier", "2000000"], "at most 1000000"),
        (
            &["2000000"],
            "DICE must be a whole number from 0 to 1000000",
        ),
        (&["5", "--rote=maybe"], "invalid value 'maybe'"),
        (&["5", "--target", "7.5"], "invalid value '7.5'"),
    ];
    for (args, message) in cases {
        oddsmith()
            .arg("storytelling")
            .args(*args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn scenario_file_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad: &[(&str, &str)] = &[
        ("[[case]]\nsystem = \"storytelling\"\ndice = 2.5\n", ":3:1: `dice` must be a whole number from 0 to 1000000, not a float"),
        ("[[case]]\nsystem = \"storytelling\"\ndice = -1\n", ":3:1: `dice` must be a whole number from 0 to 1000000, not -1"),
        ("[[case]]\nsystem = \"storytelling\"\nmodifier = 1\n", "needs `dice`"),
        ("[storytelling]\nagain = 8\n[[case]]\nsystem = \"storytelling\"\ndice = 3\ntarget = 9\n", ":2:1: `again` must be 0 (no rerolls) or a value from `target` (9) to 10, not 8"),
        ("[storytelling]\nrote = \"yes\"\n[[case]]\nsystem = \"storytelling\"\ndice = 3\n", ":2:1: `rote` must be true or false"),
        ("[storytelling]\npool = \"d8\"\n[[case]]\nsystem = \"storytelling\"\ndice = 3\n", "unknown key `pool` in [storytelling] (it belongs to cortex"),
        ("[[case]]\nsystem = \"storytelling\"\ndice = 3\nties = \"action\"\n", ":4:1: unknown key `ties` for system \"storytelling\" (it belongs to cortex"),
    ];
    for (i, (text, message)) in bad.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, text).unwrap();
        oddsmith()
            .arg("run")
            .arg(&path)
            .arg("--no-report")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn defaults_table_applies_and_sweeps_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        "[storytelling]\nagain = 9\nneed = 2\n[[sweep]]\nsystem = \"storytelling\"\ndice = [5, 6]\nrote = [false, true]\n",
    )
    .unwrap();
    let out = oddsmith()
        .arg("run")
        .arg(&path)
        .args(["--no-report", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "dice=5, rote=false",
            "dice=5, rote=true",
            "dice=6, rote=false",
            "dice=6, rote=true"
        ]
    );
    let first = &v["results"][0];
    assert_eq!(first["inputs"]["again"], 9);
    assert!((first["metrics"]["p_success"].as_f64().unwrap() - 0.54381).abs() < 1e-12);
}

#[test]
fn the_ten_again_scenario_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ten-again");
    oddsmith()
        .args([
            "run",
            "scenarios/ten-again.toml",
            "--quiet",
            "--method",
            "exact",
            "--format",
            "csv",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let run: Value = serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let results = run["results"].as_array().unwrap();
    // 3 x 21 reroll rules by pool, 21 rote pools, 11 rungs of the ladder.
    assert_eq!(results.len(), 95);
    for r in results {
        let dropped = r["dropped_mass"].as_f64().unwrap();
        assert!((0.0..1e-12).contains(&dropped), "{}", r["case"]);
    }
    let by_name = |name: &str| {
        results
            .iter()
            .find(|r| r["case"] == name)
            .unwrap_or_else(|| panic!("no case {name}"))
    };
    for label in [
        "Настоящее испытание",
        "Высокие требования",
        "Полноценный вызов",
        "Осложнения",
        "Незначительное препятствие",
        "dice=6, modifier=0",
        "Рука помощи",
        "Прогулка в парке",
        "Ничего сложного",
        "Проще простого",
        "Вы можете сделать это во сне",
    ] {
        assert_eq!(by_name(label)["inputs"]["dice"], 6);
    }
    // -5 on six dice leaves one die; +4 makes ten.
    let one = by_name("Настоящее испытание")["metrics"]["p_success"]
        .as_f64()
        .unwrap();
    assert!((one - 0.3).abs() < 1e-12);
    let ten = by_name("Проще простого")["metrics"]["p_success"]
        .as_f64()
        .unwrap();
    assert!((ten - 0.971752).abs() < 5e-7);
    assert_eq!(by_name("again=8, dice=0")["metrics"]["p_dramatic"], 0.1);
    assert_eq!(by_name("rote: dice=20")["inputs"]["rote"], true);
    let distributions = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(distributions.contains("again=10, dice=1\",exact,successes,0,0.7"));
}
