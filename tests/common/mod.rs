//! Helpers shared by the integration tests: the binary under test, the one
//! exact-vs-Monte-Carlo agreement check, and the rule for tests that need
//! an outside tool. Each test file takes what it needs with `mod common;`,
//! so a helper one file does not use is not dead code.
#![allow(dead_code)]

pub mod fuzzing;

use std::path::{Path, PathBuf};

use oddsmith::distribution::{Evaluation, Metric};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::stats::standard_error;
use oddsmith::systems::SystemCase;
use serde_json::Value;

/// The built `oddsmith` binary.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_oddsmith"))
}

/// `oddsmith` as an `assert_cmd` command.
pub fn oddsmith() -> assert_cmd::Command {
    assert_cmd::Command::new(bin())
}

/// Runs `oddsmith` with `args`, expects success, and parses its JSON output.
pub fn json_of(args: &[&str]) -> Value {
    let out = oddsmith()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

/// Runs and expects exit 2 with every `needles` in the message.
pub fn refused(args: &[&str], needles: &[&str]) {
    let out = oddsmith().args(args).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.stdout.is_empty(), "{args:?} printed results");
    for needle in needles {
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Writes `text` as `s.toml` in `dir`; returns its path.
pub fn scenario(dir: &Path, text: &str) -> String {
    let path = dir.join("s.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// How far Monte Carlo may stray from exact, in standard errors. Five
/// makes a false alarm about one in two million per comparison.
pub const AGREEMENT_Z: f64 = 5.0;

/// Evaluates `case` both ways and checks that Monte Carlo agrees with
/// exact within [`AGREEMENT_Z`] standard errors: every metric (a metric
/// with no spread must match exactly), and every distribution row with
/// probability above 1e-3 (a row Monte Carlo never saw counts as 0).
/// Returns both evaluations for further checks.
pub fn assert_monte_carlo_agrees(
    case: &dyn SystemCase,
    trials: u64,
    seed: u64,
) -> (Evaluation, Evaluation) {
    let exact = case.exact(&mut Budget::unlimited()).expect("exact result");
    let mc = case
        .monte_carlo(&McSettings::new(trials, seed))
        .expect("Monte Carlo result");
    assert_eq!(exact.metrics.len(), mc.metrics.len(), "{case:?}");
    for (e, m) in exact.metrics.iter().zip(&mc.metrics) {
        assert_eq!(e.name, m.name);
        let (Some(ev), Some(mv)) = (e.value, m.value) else {
            assert_eq!(e.value.is_none(), m.value.is_none(), "{case:?} {}", e.name);
            continue;
        };
        match standard_error(e, trials).filter(|&se| se > 0.0) {
            Some(se) => assert!(
                (mv - ev).abs() <= AGREEMENT_Z * se,
                "{case:?} {}: exact {ev}, mc {mv}, se {se}",
                e.name
            ),
            None => assert!((ev - mv).abs() < 1e-12, "{case:?} {}: {ev} vs {mv}", e.name),
        }
    }
    for row in exact.rows.iter().filter(|r| r.probability > 1e-3) {
        let seen = mc
            .rows
            .iter()
            .find(|r| r.variable == row.variable && r.outcome == row.outcome)
            .map_or(0.0, |r| r.probability);
        let share = Metric::probability("row", row.probability);
        let se = standard_error(&share, trials).expect("a row has a spread");
        assert!(
            (seen - row.probability).abs() <= AGREEMENT_Z * se.max(1e-12),
            "{case:?} {} = {}: mc {seen}, exact {}",
            row.variable,
            row.outcome,
            row.probability
        );
    }
    (exact, mc)
}

/// The same check on a `--method both` result of the JSON output: every
/// metric's `z_vs_exact` within [`AGREEMENT_Z`].
pub fn assert_json_z_small(monte_carlo_result: &Value) {
    let z = monte_carlo_result["z_vs_exact"]
        .as_object()
        .expect("a Monte Carlo result of --method both has z_vs_exact");
    for (name, z) in z {
        if let Some(z) = z.as_f64() {
            assert!(z.abs() < AGREEMENT_Z, "{name}: z = {z}");
        }
    }
}

/// Whether an outside program a test needs (`/usr/bin/time`, `script`) is
/// there. Outside CI a missing tool skips the test with a printed note;
/// under CI (the `CI` variable set, as CI services do) it fails the test,
/// so a missing tool never passes silently where it is meant to exist.
pub fn tool_available(name: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{name} is needed by this test and CI must provide it (CI is set)");
    }
    eprintln!("skipped: {name} is not installed (under CI this fails)");
    false
}
