//! The invariants every input must keep, checked on arbitrary text by the
//! `cargo fuzz` targets in `fuzz/` and by the proptest suite
//! `tests/fuzzing.rs`: the dice notation parser and the
//! scenario loader never panic and never hang, and either accept the input
//! or refuse it with a message (for scenarios, one that starts with
//! `file:line:col`). Both harnesses call these functions, so the property is
//! written once; a broken invariant is a panic, which is what both catch.
//! Test-only code, so not part of the library: the tests take it as
//! `common::fuzzing`, the fuzz targets by `#[path]`.
//!
//! A loaded scenario is also evaluated, cheaply (a small exact budget, a few
//! Monte Carlo trials on the first cases), so options that parse but make an
//! engine misbehave are found too.

use std::collections::HashSet;

use oddsmith::dice::{self, DiceError, Pool, MAX_POOL_DICE};
use oddsmith::distribution::Evaluation;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::scenario;

/// The file name fuzzed scenarios are reported under.
pub const FUZZ_FILE: &str = "fuzz.toml";

/// Checks the dice notation parser on `text`: no panic; an accepted pool is
/// within the size limit and its canonical form reads back to the same pool;
/// a refusal has a message; the Cortex parser refuses exactly what the
/// generic parser refuses, plus sizes Cortex does not use.
pub fn check_dice(text: &str) {
    let terms = dice::parse_terms(text);
    match &terms {
        Ok(terms) => {
            assert!(!terms.is_empty(), "accepted an empty pool: {text:?}");
            assert!(terms.iter().all(|t| t.count >= 1));
            let total: u64 = terms.iter().map(|t| t.count).sum();
            assert!(total <= MAX_POOL_DICE, "{total} dice accepted: {text:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    match Pool::parse_cortex(text) {
        Ok(pool) => {
            let terms = terms
                .as_ref()
                .expect("cortex accepted what parse_terms refused");
            let total: u64 = terms.iter().map(|t| t.count).sum();
            assert_eq!(pool.len() as u64, total, "{text:?}");
            let canonical = pool.to_string();
            let again = Pool::parse_cortex(&canonical)
                .unwrap_or_else(|e| panic!("canonical {canonical:?} of {text:?} refused: {e}"));
            assert_eq!(again, pool, "{text:?} -> {canonical:?}");
            assert_eq!(again.to_string(), canonical);
        }
        Err(DiceError::NotCortex(size)) => {
            assert!(terms.is_ok(), "{text:?}: NotCortex for a bad term");
            assert!(size.starts_with('d'));
        }
        Err(e) => assert_eq!(Err(e), terms.map(|_| ()), "{text:?}"),
    }
}

/// Splits `file:line:col: message` and checks the position lies in `text`.
fn check_location(text: &str, message: &str) {
    let rest = message
        .strip_prefix(FUZZ_FILE)
        .and_then(|r| r.strip_prefix(':'))
        .unwrap_or_else(|| panic!("error without the file name: {message:?}"));
    let mut parts = rest.splitn(3, ':');
    let (line, col) = match (parts.next(), parts.next(), parts.next()) {
        (Some(line), Some(col), Some(msg)) => {
            assert!(
                msg.starts_with(' ') && msg.len() > 1,
                "no message after the location: {message:?}"
            );
            (line.parse::<usize>(), col.parse::<usize>())
        }
        _ => panic!("error without line and column: {message:?}"),
    };
    let (Ok(line), Ok(col)) = (line, col) else {
        panic!("error without line and column: {message:?}");
    };
    let lines = text.split('\n').count();
    assert!(
        (1..=lines).contains(&line),
        "line {line} outside the text's {lines} lines: {message:?}"
    );
    let width = text
        .split('\n')
        .nth(line - 1)
        .map_or(0, |l| l.chars().count());
    assert!(
        (1..=width + 1).contains(&col),
        "column {col} outside line {line} ({width} characters): {message:?}"
    );
}

/// An evaluation's numbers are all finite; probabilities lie in [0, 1] and
/// every distribution of the table sums to 1.
fn check_evaluation(what: &str, evaluation: &Evaluation) {
    for metric in &evaluation.metrics {
        if let Some(v) = metric.value {
            assert!(v.is_finite(), "{what}: {} = {v}", metric.name);
            if metric.name.starts_with("p_") {
                assert!(
                    (-1e-9..=1.0 + 1e-9).contains(&v),
                    "{what}: {} = {v}",
                    metric.name
                );
            }
        }
    }
    let mut sums: Vec<(&str, f64)> = Vec::new();
    for row in &evaluation.rows {
        assert!(
            row.probability.is_finite() && row.probability >= -1e-12,
            "{what}: {row:?}"
        );
        match sums.iter_mut().find(|(v, _)| *v == row.variable) {
            Some((_, sum)) => *sum += row.probability,
            None => sums.push((&row.variable, row.probability)),
        }
    }
    let dropped = evaluation.dropped_mass.unwrap_or(0.0);
    for (variable, sum) in sums {
        assert!(
            (sum + dropped - 1.0).abs() < 1e-6,
            "{what}: distribution {variable} sums to {sum}"
        );
    }
}

/// Checks the scenario loader on raw bytes, as `oddsmith run` reads a file:
/// no panic; a loaded scenario has between 1 and `MAX_CASES` cases with
/// distinct names, each of which evaluates (exactly within a small budget,
/// and by a few Monte Carlo trials) to sane numbers; a refused one has an
/// error that starts with `fuzz.toml:line:col:` inside the text.
pub fn check_scenario(bytes: &[u8]) {
    match scenario::parse_bytes(bytes, FUZZ_FILE, "fuzz") {
        Ok(s) => {
            assert!(!s.cases.is_empty());
            assert!(s.cases.len() <= scenario::MAX_CASES);
            let mut names = HashSet::new();
            for case in &s.cases {
                assert!(names.insert(case.name.as_str()), "duplicate {}", case.name);
                assert!(!case.spec.inputs().is_empty());
            }
            for case in s.cases.iter().take(2) {
                if let Ok(evaluation) = case.spec.exact(&mut Budget::new(200_000)) {
                    check_evaluation(&case.name, &evaluation);
                }
                match case.spec.monte_carlo(&McSettings::new(8, 1)) {
                    Ok(evaluation) => check_evaluation(&case.name, &evaluation),
                    Err(e) => panic!("{}: {e}", case.name),
                }
            }
        }
        Err(e) => {
            // Invalid UTF-8 is located in the text read as far as it is valid.
            let text = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(bad) => std::str::from_utf8(&bytes[..bad.valid_up_to()]).unwrap_or(""),
            };
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            check_location(text, &e.0);
        }
    }
}
