//! Scenario validation (docs/scenarios.md): duplicate case names, sweeps that
//! expand past 100,000 cases, and options given to the wrong system are
//! errors that name the file, the line and column, and what to do.
//!
//! The wrong-system checks run over the system registry, so they cover
//! every system the crate has: each needs a minimal case in [`MINIMAL`].

use assert_cmd::Command;
use oddsmith::scenario::{self, MAX_CASES};
use oddsmith::systems::System;
use predicates::prelude::*;

/// The smallest valid case body of each system (the lines after `system`).
fn minimal(system: System) -> &'static str {
    match system {
        System::Cortex | System::CortexScene => "pool = \"d8\"\n",
        System::CortexConflict => "hero = \"d8\"\nfoe = \"d8\"\n",
        System::Storytelling => "dice = 3\n",
        // Every advantage key has a default; `stat` is the one a case names.
        System::Advantage => "stat = 1\n",
    }
}

fn error(text: &str) -> String {
    scenario::parse(text, "s.toml", "s").unwrap_err().0
}

fn assert_error(text: &str, starts: &str, contains: &[&str]) {
    let e = error(text);
    assert!(e.starts_with(starts), "expected {starts:?}: {e}");
    for c in contains {
        assert!(e.contains(c), "expected {c:?}: {e}");
    }
}

#[test]
fn every_system_has_a_minimal_case() {
    for system in System::ALL {
        let text = format!("[[case]]\nsystem = \"{system}\"\n{}", minimal(system));
        scenario::parse(&text, "s.toml", "s").unwrap();
    }
}

// ---------------------------------------------------------------------------
// Duplicate case names

#[test]
fn two_cases_with_one_name() {
    assert_error(
        "[[case]]\nsystem = \"cortex\"\nname = \"hero\"\npool = \"d8\"\n\n[[case]]\nsystem = \"cortex\"\nname = \"hero\"\npool = \"d10\"\n",
        "s.toml:6:1: duplicate case name \"hero\" (first at line 1)",
        &["give each case its own `name`"],
    );
}

#[test]
fn unnamed_cases_named_alike() {
    // Both are named from their inputs, in canonical notation.
    assert_error(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = \"2d6\"\n[[case]]\nsystem = \"cortex\"\npool = \"d6+d8\"\nvs = \"d6 d6\"\n",
        "s.toml:5:1: duplicate case name \"d8 d6 vs 2d6\" (first at line 1)",
        &["give each case its own `name`"],
    );
}

#[test]
fn a_sweep_repeating_a_value_or_a_case_name() {
    // "d8" and "1d8" are the same pool.
    assert_error(
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\", \"d6\", \"1d8\"]\nvs = [\"2d6\"]\n",
        "s.toml:1:1: duplicate case name \"d8 vs 2d6\"",
        &["give each case its own `name`"],
    );
    assert_error(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\nvs = \"2d6\"\n[[sweep]]\nsystem = \"cortex\"\npool = [\"d6\", \"d8\"]\nvs = [\"2d6\"]\n",
        "s.toml:5:1: duplicate case name \"d8 vs 2d6\" (first at line 1)",
        &[],
    );
    // Two unnamed sweeps over the same values; a `name` prefix separates them.
    let sweep = "[[sweep]]\nsystem = \"cortex\"\npool = [\"d6\", \"d8\"]\nties = [\"action\"]\n";
    assert_error(
        &format!("{sweep}{sweep}"),
        "s.toml:5:1: duplicate case name \"pool=d6, ties=action\"",
        &[],
    );
    let named = "[[sweep]]\nname = \"b\"\nsystem = \"cortex\"\npool = [\"d6\", \"d8\"]\nties = [\"action\"]\n";
    let s = scenario::parse(&format!("{sweep}{named}"), "s.toml", "s").unwrap();
    assert_eq!(s.cases[3].name, "b: pool=d8, ties=action");
}

// ---------------------------------------------------------------------------
// Sweep size

fn values(n: usize, f: impl Fn(usize) -> String) -> String {
    (0..n).map(f).collect::<Vec<_>>().join(", ")
}

#[test]
fn a_sweep_past_the_limit_is_refused_before_expanding() {
    // 101 pools x 1,000 difficulties = 101,000 cases.
    let text = format!(
        "name = \"big\"\n\n[[sweep]]\nsystem = \"cortex\"\npool = [{}]\ndifficulty = [{}]\n",
        values(101, |i| format!("\"{}d6\"", i + 1)),
        values(1000, |i| i.to_string())
    );
    assert_error(
        &text,
        "s.toml:3:1: this sweep expands to 101000 cases; at most 100000 are allowed",
        &["sweep fewer values"],
    );
    // So large a product that it overflows: still refused, at once.
    let keys: String = (0..8)
        .map(|k| format!("k{k} = [{}]\n", values(500, |i| i.to_string())))
        .collect();
    let text = format!("[[sweep]]\nsystem = \"cortex\"\npool = \"d8\"\n{keys}");
    assert_error(
        &text,
        "s.toml:1:1: this sweep expands to",
        &["at most 100000"],
    );
}

#[test]
fn sweeps_together_past_the_limit_are_refused() {
    let sweep = |name: &str| {
        format!(
            "[[sweep]]\nname = \"{name}\"\nsystem = \"cortex\"\npool = [{}]\ndifficulty = [{}]\n",
            values(250, |i| format!("\"{}d6\"", i + 1)),
            values(250, |i| i.to_string())
        )
    };
    // 62,500 + 62,500 cases: each sweep is allowed, the scenario is not.
    let text = format!("{}{}", sweep("a"), sweep("b"));
    assert_error(
        &text,
        "s.toml:6:1: more than 100000 cases",
        &["split the scenario"],
    );
}

#[test]
fn a_sweep_of_exactly_the_limit_loads() {
    // 100 x 1,000 = 100,000: allowed, and loaded without comparing every
    // name with every other or copying the value lists per case.
    let text = format!(
        "[[sweep]]\nsystem = \"cortex\"\npool = [{}]\ndifficulty = [{}]\n",
        values(100, |i| format!("\"{}d6\"", i + 1)),
        values(1000, |i| i.to_string())
    );
    let s = scenario::parse(&text, "s.toml", "s").unwrap();
    assert_eq!(s.cases.len(), MAX_CASES);
    assert_eq!(s.cases[0].name, "d6 vs 0");
    assert_eq!(s.cases[MAX_CASES - 1].name, "100d6 vs 999");
}

#[test]
fn an_empty_sweep_list_is_refused() {
    assert_error(
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\"]\nvs = []\n",
        "s.toml:4:1: the sweep list `vs` is empty",
        &[],
    );
}

// ---------------------------------------------------------------------------
// Options given to the wrong system

/// Checks that `e` names `system` among the systems its key belongs to:
/// "(it belongs to cortex, advantage)" (a key such as `policy` may belong to
/// several).
fn assert_belongs_to(e: &str, system: &str) {
    let owners = e
        .split_once("(it belongs to ")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(owners, _)| owners)
        .unwrap_or_else(|| panic!("expected \"(it belongs to ...)\": {e}"));
    assert!(
        owners.split(", ").any(|o| o == system),
        "expected {system} among the owners: {e}"
    );
}

/// A key of another system in a case, in a sweep, and in a defaults table:
/// each an error at its line naming the key, the system it belongs to, and
/// the keys allowed. Runs for every pair of systems the registry has.
#[test]
fn a_key_of_another_system_is_refused_everywhere() {
    for system in System::ALL {
        for other in System::ALL {
            for key in other.keys().iter().filter(|k| !system.keys().contains(k)) {
                let case = format!(
                    "[[case]]\nsystem = \"{system}\"\n{}{key} = 1\n",
                    minimal(system)
                );
                let line = case.lines().count();
                assert_error(
                    &case,
                    &format!("s.toml:{line}:1: unknown key `{key}` for system \"{system}\""),
                    &["allowed:"],
                );
                assert_belongs_to(&error(&case), other.name());
                let table = format!(
                    "[{system}]\n{key} = 1\n[[case]]\nsystem = \"{system}\"\n{}",
                    minimal(system)
                );
                assert_error(
                    &table,
                    &format!("s.toml:2:1: unknown key `{key}` in [{system}]"),
                    &["allowed:"],
                );
                assert_belongs_to(&error(&table), other.name());
            }
        }
    }
}

#[test]
fn keys_no_system_has_are_refused_with_what_is_allowed() {
    assert_error(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\nagain = 9\n",
        "s.toml:4:1: unknown key `again` for system \"cortex\"",
        &["allowed: `difficulty`, `effect_step_down`, `heroic_step`, `keep`"],
    );
    assert_error(
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\", \"d6\"]\nagian = [8, 9]\n",
        // A swept key's errors point at the value of the case being made.
        "s.toml:4:10: unknown key `agian` for system \"cortex\"",
        &["allowed: `difficulty`"],
    );
    // Checked even when no case uses the table.
    assert_error(
        "[cortex]\ntiez = \"action\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
        "s.toml:2:1: unknown key `tiez` in [cortex] (did you mean `ties`?)",
        &["allowed: `pool`, `vs`, `difficulty`"],
    );
    // A defaults table of a system that does not exist.
    assert_error(
        "[dnd]\nadvantage = true\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
        "s.toml:1:2: unknown top-level key `dnd`",
        &["[cortex]"],
    );
}

#[test]
fn a_case_without_or_with_an_unknown_system_says_which_exist() {
    assert_error(
        "[[case]]\npool = \"d8\"\n",
        "s.toml:1:1: each [[case]] needs `system`; allowed: `cortex`",
        &[],
    );
    assert_error(
        "[[sweep]]\nsystem = \"dnd\"\npool = [\"d8\"]\n",
        "s.toml:1:1: unknown system \"dnd\"; allowed: `cortex`",
        &[],
    );
}

#[test]
fn both_oppositions_in_one_case_are_refused() {
    assert_error(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\nvs = \"2d6\"\ndifficulty = 7\n",
        "s.toml:5:1: give either `vs` (a reacting pool) or `difficulty` (a fixed total), not both",
        &[],
    );
}

#[test]
fn the_command_line_reports_them_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.toml");
    std::fs::write(
        &path,
        "[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d8\"\n[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d6\"\n",
    )
    .unwrap();
    Command::cargo_bin("oddsmith")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:5:1: duplicate case name \"a\" (first at line 1)",
            path.display()
        )))
        .stderr(predicate::str::contains("panicked").not());
}
