//! Storytelling extended and contested actions (docs/storytelling.md): Monte
//! Carlo, which rolls every action and contest die by die, against exact
//! within 5 standard errors on every metric and row; the same numbers on
//! any thread count; the quick command's flags and case names; and bad
//! input refused with exit 2, at the file, line and column in a scenario.

use crate::common;

use common::{json_of, refused};

use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::options::{KeyStyle, RawItem, RawValue};
use oddsmith::scenario;
use oddsmith::systems::{System, SystemCase};

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

fn text(v: &str) -> RawValue {
    RawValue::Str(v.into())
}

fn check_mc(pairs: &[(&str, RawValue)]) {
    let (exact, mc) = common::assert_monte_carlo_agrees(case(pairs).as_ref(), 200_000, 3);
    assert!(exact.dropped_mass.is_some_and(|d| d < 1e-12), "{pairs:?}");
    assert_eq!(mc.dropped_mass, None, "{pairs:?}");
}

#[test]
fn extended_monte_carlo_agrees_with_exact() {
    let yes = RawValue::Bool(true);
    check_mc(&[
        ("dice", int(7)),
        ("again", int(9)),
        ("extended", int(10)),
        ("rolls", int(6)),
    ]);
    check_mc(&[("dice", int(5)), ("extended", int(10))]);
    check_mc(&[
        ("dice", int(4)),
        ("rote", yes),
        ("again", int(8)),
        ("extended", int(15)),
    ]);
    // Chance dice, where dramatic failures end actions.
    check_mc(&[("dice", int(0)), ("extended", int(2)), ("rolls", int(8))]);
    check_mc(&[
        ("dice", int(2)),
        ("modifier", int(-3)),
        ("extended", int(1)),
    ]);
    check_mc(&[
        ("dice", int(3)),
        ("target", int(6)),
        ("again", int(0)),
        ("extended", int(4)),
    ]);
}

#[test]
fn contest_monte_carlo_agrees_with_exact() {
    for ties in ["opponent", "roller", "reroll"] {
        check_mc(&[
            ("dice", int(5)),
            ("vs_dice", int(4)),
            ("contest_ties", text(ties)),
        ]);
        // Two chance dice tie four times in five: the reroll rule at its busiest.
        check_mc(&[
            ("dice", int(0)),
            ("vs_dice", int(0)),
            ("contest_ties", text(ties)),
        ]);
    }
    check_mc(&[
        ("dice", int(6)),
        ("again", int(8)),
        ("vs_dice", int(6)),
        ("vs_modifier", int(2)),
        ("vs_again", int(10)),
        ("vs_rote", RawValue::Bool(true)),
    ]);
}

#[test]
fn monte_carlo_does_not_depend_on_threads() {
    for pairs in [
        vec![("dice", int(6)), ("extended", int(12))],
        vec![
            ("dice", int(4)),
            ("vs_dice", int(4)),
            ("contest_ties", text("reroll")),
        ],
    ] {
        let c = case(&pairs);
        let settings = McSettings::new(150_000, 9);
        let on = |threads| {
            let workers = Workers::start(Some(threads)).unwrap();
            workers.install(|| c.monte_carlo(&settings)).unwrap()
        };
        assert_eq!(on(1), on(3), "{pairs:?}");
    }
}

#[test]
fn the_quick_command_takes_the_flags() {
    let out = json_of(&[
        "storytelling",
        "7",
        "--again",
        "9",
        "--extended",
        "10",
        "--rolls",
        "6",
        "--format",
        "json",
    ]);
    let r = &out["results"][0];
    assert_eq!(r["case"], "dice=7, modifier=0, extended=10");
    assert_eq!(r["inputs"]["rolls"], 6);
    assert!(r["metrics"]["p_extended_success"].as_f64().unwrap() > 0.9);
    let out = json_of(&[
        "storytelling",
        "5",
        "--vs-dice",
        "4",
        "--contest-ties",
        "reroll",
        "--format",
        "json",
    ]);
    let r = &out["results"][0];
    assert_eq!(r["case"], "dice=5 vs 4");
    assert_eq!(r["inputs"]["contest_ties"], "reroll");
    assert_eq!(r["inputs"]["vs_again"], 10);
    assert!(r["inputs"].get("extended").is_none());
    // The rolls default to the unmodified pool.
    let out = json_of(&[
        "storytelling",
        "4",
        "--modifier=-2",
        "--extended",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(out["results"][0]["inputs"]["rolls"], 4);
    // Both methods: Monte Carlo's distance from exact is small on every metric.
    let out = json_of(&[
        "storytelling",
        "3",
        "--vs-dice",
        "3",
        "--method",
        "both",
        "--trials",
        "100000",
        "--format",
        "json",
    ]);
    common::assert_json_z_small(&out["results"][1]);
}

#[test]
fn bad_flags_are_refused() {
    refused(
        &["storytelling", "5", "--rolls", "3"],
        &[
            "`--rolls` applies only to an extended action",
            "`--extended`",
        ],
    );
    refused(
        &["storytelling", "5", "--vs-rote"],
        &["`--vs-rote` applies only to a contested action"],
    );
    refused(
        &["storytelling", "5", "--contest-ties", "roller"],
        &["`--vs-dice`"],
    );
    refused(
        &["storytelling", "5", "--extended", "3", "--vs-dice", "2"],
        &["cannot be combined"],
    );
    refused(&["storytelling", "5", "--extended", "0"], &["1 to 100"]);
    refused(
        &["storytelling", "5", "--extended", "3", "--rolls", "101"],
        &["1 to 100"],
    );
    refused(&["storytelling", "5", "--vs-dice=-1"], &["0 to"]);
    refused(
        &["storytelling", "5", "--vs-dice", "2", "--vs-again", "7"],
        &["`--vs-again` must be 0", "(8)"],
    );
    refused(
        &[
            "storytelling",
            "5",
            "--vs-dice",
            "2",
            "--contest-ties",
            "draw",
        ],
        &["allowed: `opponent`, `roller`, `reroll`"],
    );
}

fn error(text: &str) -> String {
    scenario::parse(text, "s.toml", "s").unwrap_err().0
}

#[test]
fn bad_scenario_keys_name_the_place() {
    let case = "[[case]]\nsystem = \"storytelling\"\ndice = 5\n";
    let cases = [
        (
            "rolls = 3\n",
            "s.toml:4:1: `rolls` applies only to an extended action",
        ),
        (
            "vs_modifier = 1\n",
            "s.toml:4:1: `vs_modifier` applies only to a contested action",
        ),
        (
            "extended = 4\nvs_dice = 3\n",
            "s.toml:5:1: `vs_dice` (a contested action) and `extended`",
        ),
        (
            "extended = 101\n",
            "s.toml:4:1: `extended` must be a whole number from 1 to 100",
        ),
        (
            "vs_dice = 3\nvs_again = 5\n",
            "s.toml:5:1: `vs_again` must be 0 (no rerolls) or a value from `target` (8) to 10",
        ),
        (
            "vs_dice = 3\ncontest_ties = \"both\"\n",
            "s.toml:5:1: `contest_ties` is \"both\"",
        ),
    ];
    for (keys, starts) in cases {
        let e = error(&format!("{case}{keys}"));
        assert!(e.starts_with(starts), "expected {starts:?}: {e}");
    }
    // A defaults table may hold either kind's keys for the cases of that kind.
    let text = "[storytelling]\nrolls = 3\nvs_rote = true\n[[case]]\nsystem = \"storytelling\"\nname = \"a\"\ndice = 5\nextended = 4\n[[case]]\nsystem = \"storytelling\"\nname = \"b\"\ndice = 5\nvs_dice = 2\n";
    let parsed = scenario::parse(text, "s.toml", "s")
        .map_err(|e| e.0)
        .unwrap();
    let inputs: Vec<_> = parsed.cases.iter().map(|c| c.spec.inputs()).collect();
    assert_eq!(inputs[0]["rolls"], 3);
    assert_eq!(inputs[1]["vs_rote"], true);
    assert!(inputs[1].get("rolls").is_none());
}

#[test]
fn sweeps_name_cases_as_documented() {
    let text = "[[sweep]]\nsystem = \"storytelling\"\ndice = [5, 6]\nvs_dice = [4]\n[[sweep]]\nsystem = \"storytelling\"\ndice = [6]\nextended = [10, 12]\n";
    let parsed = scenario::parse(text, "s.toml", "s")
        .map_err(|e| e.0)
        .unwrap();
    let names: Vec<&str> = parsed.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "dice=5 vs 4",
            "dice=6 vs 4",
            "dice=6, extended=10",
            "dice=6, extended=12"
        ]
    );
}
