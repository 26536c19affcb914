//! The descriptors against what the systems produce: every metric and
//! distribution variable of every bundled scenario's cases and balance
//! rungs, by both methods, is declared by its system with the right kind
//! and order, and every declaration has words.

use super::*;
use crate::distribution::{Evaluation, Spread};
use crate::engine::exact::Budget;
use crate::engine::monte_carlo::McSettings;
use crate::systems::SystemCase;

/// Every case of every bundled scenario, balance rungs included.
fn bundled_cases() -> Vec<(String, Box<dyn SystemCase>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let scenario = crate::scenario::load(&path).unwrap();
        for case in scenario.cases {
            cases.push((format!("{}: {}", scenario.name, case.name), case.spec));
        }
        for question in scenario.balances {
            for rung in question.rungs {
                cases.push((
                    format!("{}: {}", scenario.name, rung.case.name),
                    rung.case.spec,
                ));
            }
        }
    }
    cases
}

/// Every metric and row of `evaluation` is declared by `system`, a
/// probability lies in [0, 1] and a proportion is declared a probability;
/// an ordered variable has numeric outcomes, a categorical one none.
fn assert_declared(what: &str, system: System, evaluation: &Evaluation) {
    let declared = system.declared();
    for metric in &evaluation.metrics {
        let described = declared
            .describe(&metric.name)
            .unwrap_or_else(|| panic!("{what}: {} has no descriptor in {system}", metric.name));
        if let Spread::Proportion { .. } = metric.spread {
            assert_eq!(
                described.kind,
                MetricKind::Probability,
                "{what}: {}",
                metric.name
            );
        }
        if let (MetricKind::Probability, Some(p)) = (described.kind, metric.value) {
            assert!((0.0..=1.0).contains(&p), "{what}: {} = {p}", metric.name);
        }
        if let (MetricKind::Count, Some(n)) = (described.kind, metric.value) {
            assert!(
                n >= 0.0 && n.fract() == 0.0,
                "{what}: {} = {n}",
                metric.name
            );
        }
    }
    for row in &evaluation.rows {
        let variable = declared
            .distribution(&row.variable)
            .unwrap_or_else(|| panic!("{what}: {} is not declared in {system}", row.variable));
        if !variable.ordered {
            assert!(
                row.outcome.parse::<i64>().is_err(),
                "{what}: categorical {} has the number {}",
                row.variable,
                row.outcome
            );
        }
    }
    for variable in declared.distributions.iter().filter(|d| d.ordered) {
        let rows: Vec<_> = evaluation
            .rows
            .iter()
            .filter(|r| variable.is(&r.variable))
            .collect();
        assert!(
            rows.is_empty() || rows.iter().any(|r| r.outcome.parse::<i64>().is_ok()),
            "{what}: ordered {} has no numeric outcome",
            variable.name
        );
    }
}

#[test]
fn every_metric_a_bundled_case_produces_is_declared() {
    let mut seen = [0usize; System::ALL.len()];
    for (what, case) in bundled_cases() {
        let system = case.system();
        if let Ok(exact) = case.exact(&mut Budget::interactive()) {
            assert_declared(&format!("{what} (exact)"), system, &exact);
        }
        let mc = case.monte_carlo(&McSettings::new(200, 5)).unwrap();
        assert_declared(&format!("{what} (monte carlo)"), system, &mc);
        // What a balance may aim at is what the case reports.
        let names: Vec<String> = mc.metrics.iter().map(|m| m.name.clone()).collect();
        assert_eq!(case.metric_names(), names, "{what}");
        seen[System::ALL.iter().position(|s| *s == system).unwrap()] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "a system with no bundled case: {seen:?}"
    );
}

#[test]
fn every_descriptor_has_words_and_one_meaning() {
    let mut all: Vec<(System, &str, &str, MetricKind)> = Vec::new();
    for system in System::ALL {
        let declared = system.declared();
        for def in declared.metrics {
            all.push((system, def.name, def.phrase, def.kind));
        }
        for family in declared.families {
            assert!(family.phrase.contains("{}"), "{}", family.prefix);
            all.push((system, family.prefix, family.phrase, family.kind));
        }
        for variable in declared.distributions {
            assert!(!variable.name.is_empty());
        }
        for headline in system.headline_metrics() {
            assert!(
                declared.metrics.contains(headline),
                "{system}: {}",
                headline.name
            );
        }
    }
    for (i, &(system, name, phrase, kind)) in all.iter().enumerate() {
        assert!(!phrase.trim().is_empty(), "{system}: {name}");
        assert!(!phrase.contains('_'), "{system}: {name} reads {phrase}");
        for &(other, other_name, other_phrase, other_kind) in &all[i + 1..] {
            if name == other_name {
                assert!(system != other, "{system} declares {name} twice");
                // One name, one meaning, wherever it appears.
                assert_eq!((phrase, kind), (other_phrase, other_kind), "{name}");
            }
        }
    }
}

#[test]
fn a_family_member_has_its_own_name_and_words() {
    let cortex = System::Cortex.declared();
    let d8 = cortex.describe("win_effect_d8").unwrap();
    assert_eq!(d8.phrase, "chance of success with a d8 effect die");
    assert_eq!(d8.kind, MetricKind::Probability);
    // A plain metric that shares a family's prefix is itself.
    assert_eq!(
        cortex.describe("win_effect_beyond").unwrap().phrase,
        "chance of success with an effect beyond d12"
    );
    assert_eq!(cortex.describe("win_effect_d7"), None);
    assert_eq!(cortex.describe("p_plot_points_spent_0"), None);
    let scene = System::CortexScene.declared();
    assert_eq!(
        scene.describe("p_success_action_3").unwrap().phrase,
        "chance action 3 succeeds"
    );
    assert_eq!(scene.describe("p_success_action_03"), None);
    assert_eq!(describe("no_such_metric"), None);
    let tier = System::Advantage.declared().distribution("tier_roll_2");
    assert_eq!(tier.map(|d| d.ordered), Some(false));
    assert_eq!(
        System::Advantage.declared().distribution("tier_roll_"),
        None
    );
}

/// The means docs/cortex.md and docs/storytelling.md define over only some
/// plays ("given success", "over scenes not ended early", "given the foe
/// is out") are the ones declared conditional, and their words say so.
#[test]
fn conditional_means_are_declared_and_say_which_plays() {
    let mut conditional: Vec<&str> = Vec::new();
    for system in System::ALL {
        for def in system.declared().metrics {
            let described = system.declared().describe(def.name).unwrap();
            assert_eq!(described.conditional, def.over.is_some(), "{}", def.name);
            if let Some(over) = def.over {
                assert_eq!(def.kind, MetricKind::Mean, "{}", def.name);
                assert!(
                    described.phrase.ends_with(&format!(" ({over})")),
                    "{}",
                    described.phrase
                );
                assert!(!conditional.contains(&def.name));
                conditional.push(def.name);
            }
        }
    }
    conditional.sort_unstable();
    assert_eq!(
        conditional,
        [
            "mean_effect_step",
            "mean_exchanges_to_foe_out",
            "mean_final_doom_dice",
            "mean_rolls_to_success"
        ]
    );
    assert_eq!(
        describe("mean_exchanges_to_foe_out").unwrap().phrase,
        "average exchanges to take the foe out (of fights where it is)"
    );
}
