//! Probabilities stay in [0, 1]: every probability metric and
//! every distribution row of every bundled scenario, by every method, and of
//! the quick commands that once printed `pool_effect_d4 = 1.0000000000000004`.

use oddsmith::distribution::{Evaluation, Spread};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::options::{KeyStyle, RawItem, RawValue};
use oddsmith::systems::{System, SystemCase};

/// Checks every probability metric and row of `evaluation`.
fn assert_in_range(what: &str, evaluation: &Evaluation) {
    for metric in &evaluation.metrics {
        if let (Spread::Proportion { .. }, Some(p)) = (metric.spread, metric.value) {
            assert!(
                (0.0..=1.0).contains(&p),
                "{what}: {} = {p} is outside [0, 1]",
                metric.name
            );
        }
    }
    for row in &evaluation.rows {
        assert!(
            (0.0..=1.0).contains(&row.probability),
            "{what}: {} {} = {} is outside [0, 1]",
            row.variable,
            row.outcome,
            row.probability
        );
    }
    if let Some(dropped) = evaluation.dropped_mass {
        assert!((0.0..=1.0).contains(&dropped), "{what}: dropped {dropped}");
    }
}

/// Both methods, exact where the interactive budget allows it.
fn check_case(what: &str, case: &dyn SystemCase) {
    if let Ok(exact) = case.exact(&mut Budget::interactive()) {
        assert_in_range(&format!("{what} (exact)"), &exact);
    }
    let mc = case.monte_carlo(&McSettings::new(20_000, 3)).unwrap();
    assert_in_range(&format!("{what} (monte carlo)"), &mc);
}

#[test]
fn every_bundled_scenario_stays_in_range() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let scenario = oddsmith::scenario::load(&path).unwrap();
        for case in &scenario.cases {
            check_case(&format!("{}: {}", scenario.name, case.name), &*case.spec);
            seen += 1;
        }
    }
    assert!(seen > 50, "only {seen} bundled cases");
}

fn resolve(system: System, opts: &[(&str, RawValue)]) -> Box<dyn SystemCase> {
    let entries = opts
        .iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v.clone())))
        .collect();
    system
        .resolve(system.options(KeyStyle::Toml, entries))
        .unwrap()
}

fn text(s: &str) -> RawValue {
    RawValue::Str(s.into())
}

#[test]
fn quick_commands_stay_in_range() {
    let cases = [
        resolve(
            System::Cortex,
            &[("pool", text("d8 d6")), ("vs", text("2d6"))],
        ),
        resolve(
            System::Cortex,
            &[("pool", text("3d4")), ("vs", text("2d6"))],
        ),
        resolve(System::Cortex, &[("pool", text("3d4"))]),
        resolve(
            System::Cortex,
            &[("pool", text("d10 2d8 d6")), ("vs", text("2d6"))],
        ),
        resolve(
            System::Cortex,
            &[
                ("pool", text("d12 d10 d8")),
                ("difficulty", RawValue::Int(11)),
                ("policy", text("max-effect")),
            ],
        ),
        resolve(
            System::CortexScene,
            &[("pool", text("d10 2d8 d6")), ("actions", RawValue::Int(24))],
        ),
        resolve(
            System::CortexScene,
            &[
                ("pool", text("d8 d6")),
                ("actions", RawValue::Int(8)),
                ("end_at_2d12", RawValue::Bool(true)),
            ],
        ),
        resolve(System::Storytelling, &[("dice", RawValue::Int(12))]),
        resolve(System::Advantage, &[("rolls", RawValue::Int(10))]),
    ];
    for case in &cases {
        check_case(&format!("{case:?}"), &**case);
    }
}
