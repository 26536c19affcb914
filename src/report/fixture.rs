//! Fixed reports for the writers' and the charts' unit tests.
//!
//! [`report`] is the small two-row report the CSV and JSON writers are
//! checked against. The others are one per system, shaped as SPEC 2-5 name
//! things (inputs, metric names, distribution variables), so the charts can
//! be tested for systems whatever engine code exists: Cortex results come
//! from the Cortex engine; Storytelling, advantage and scene results are
//! built by hand (Storytelling from the closed form of one die's successes).
//! With `mc = true` every result is a Monte Carlo one with a small trial
//! count, so its 95% intervals are wide enough to see as error bars.

use std::sync::atomic::AtomicBool;

use serde_json::{json, Map, Value};

use super::*;
use crate::distribution::{DistRow, Metric, Spread};

pub fn report() -> Report {
    let mut inputs = Map::new();
    inputs.insert("pool".into(), json!("d8 d6"));
    inputs.insert("vs".into(), json!("2d6"));
    let evaluation = Evaluation {
        metrics: vec![
            Metric::probability("p_success", 0.25),
            Metric {
                name: "mean_effect_step".into(),
                value: None,
                spread: Spread::Mean {
                    variance: 0.0,
                    base: 0.0,
                },
            },
        ],
        rows: vec![DistRow::new("total", 3, 0.5), DistRow::new("total", 4, 0.5)],
        dropped_mass: Some(0.0),
    };
    let exact = CaseResult {
        case: "d8 d6 vs 2d6".into(),
        system: System::Cortex,
        inputs: inputs.clone(),
        method: MethodUsed::Exact,
        trials: None,
        seed: None,
        evaluation: evaluation.clone(),
        ci95: vec![],
        z_vs_exact: None,
    };
    let mc = CaseResult {
        method: MethodUsed::MonteCarlo,
        trials: Some(100),
        seed: Some(1),
        ci95: vec![Some((0.2, 0.3)), None],
        z_vs_exact: Some(vec![Some(0.5), None]),
        evaluation: Evaluation {
            dropped_mass: None,
            ..evaluation
        },
        ..exact.clone()
    };
    Report {
        kind: ReportKind::Cases,
        name: "fixture".into(),
        description: None,
        seed: 1,
        trials: 100,
        results: vec![exact, mc],
        balances: Vec::new(),
    }
}

/// Trials of the Monte Carlo fixtures: few, so the intervals show.
pub const MC_TRIALS: u64 = 4_000;

fn wrap(name: &str, results: Vec<CaseResult>) -> Report {
    Report {
        kind: ReportKind::Cases,
        name: name.into(),
        description: Some(format!("fixture report for {name}")),
        seed: 7,
        trials: MC_TRIALS,
        results,
        balances: Vec::new(),
    }
}

/// A result from its parts; for Monte Carlo the intervals come from the
/// stats layer as the app computes them.
fn result(
    case: &str,
    system: System,
    inputs: Value,
    metrics: Vec<Metric>,
    rows: Vec<DistRow>,
    mc: bool,
) -> CaseResult {
    let Value::Object(inputs) = inputs else {
        panic!("fixture inputs must be an object")
    };
    let ci95 = if mc {
        metrics
            .iter()
            .map(|m| crate::stats::interval95(m, MC_TRIALS))
            .collect()
    } else {
        Vec::new()
    };
    CaseResult {
        case: case.into(),
        system,
        inputs,
        method: if mc {
            MethodUsed::MonteCarlo
        } else {
            MethodUsed::Exact
        },
        trials: mc.then_some(MC_TRIALS),
        seed: mc.then_some(7),
        evaluation: Evaluation {
            metrics,
            rows,
            dropped_mass: (!mc).then_some(0.0),
        },
        ci95,
        z_vs_exact: None,
    }
}

fn mean(name: &str, value: f64, variance: f64) -> Metric {
    Metric {
        name: name.into(),
        value: Some(value),
        spread: Spread::Mean {
            variance,
            base: 1.0,
        },
    }
}

/// Cortex cases through the real engine: a sweep of hero pools against
/// opposing pools, plus (with `extras`) a roll against a difficulty and an
/// unopposed roll.
pub fn cortex(mc: bool, extras: bool) -> Report {
    let mut text = String::from(
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 2d6\", \"d10 d8 d6\", \"d12 d10 d8 d6\"]\nvs = [\"2d6\", \"2d8\", \"3d8\", \"2d10\"]\n",
    );
    if extras {
        text.push_str("[[case]]\nsystem = \"cortex\"\npool = \"d10 d8 d6\"\ndifficulty = 11\n");
        text.push_str("[[case]]\nsystem = \"cortex\"\npool = \"d8 d8 d6\"\n");
    }
    let scenario = crate::scenario::parse(&text, "fixture.toml", "cortex-fixture")
        .expect("the fixture scenario is valid");
    let settings = crate::commands::evaluate::Settings {
        trials: MC_TRIALS,
        seed: 7,
        threads: 1,
        method: if mc {
            crate::cli::MethodArg::Mc
        } else {
            crate::cli::MethodArg::Exact
        },
        format: crate::cli::FormatArg::Table,
        quiet: true,
    };
    let cancel = AtomicBool::new(false);
    let mut results = Vec::new();
    for case in &scenario.cases {
        results.extend(
            crate::commands::evaluate::evaluate_case(case, &settings, &cancel)
                .expect("fixture case"),
        );
    }
    wrap("cortex-fixture", results)
}

/// One die's success distribution (SPEC 3): with `e` = P(explode), `s` =
/// P(success without exploding), `f` = P(no success), P(0) = f and
/// P(k) = e^(k-1) s + e^k f; rote rerolls a first-roll failure once.
fn one_die(target: i64, again: i64, rote: bool) -> Vec<f64> {
    let e = if again == 0 {
        0.0
    } else {
        (11 - again) as f64 / 10.0
    };
    let success = (11 - target) as f64 / 10.0;
    let s = success - e;
    let f = 1.0 - success;
    let mut dist = vec![f];
    for k in 1..40 {
        dist.push(e.powi(k - 1) * s + e.powi(k) * f);
    }
    if rote {
        // A failure (probability f) rolls once more, with the same chances.
        let mut with = vec![f * f];
        with.extend(dist.iter().skip(1).map(|p| p * (1.0 + f)));
        dist = with;
    }
    dist
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; (a.len() + b.len()).min(60)];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            if i + j < out.len() {
                out[i + j] += x * y;
            }
        }
    }
    out
}

/// The successes distribution of a Storytelling pool (chance die at 0).
pub fn storytelling_successes(dice: i64, again: i64, rote: bool) -> Vec<f64> {
    if dice <= 0 {
        // Only a 10 succeeds; it explodes on 10 and its rerolls count as usual.
        let reroll = one_die(8, again, false);
        let mut dist = vec![0.9];
        for k in 1..40 {
            dist.push(0.1 * reroll[k - 1]);
        }
        return dist;
    }
    let die = one_die(8, again, rote);
    let mut dist = vec![1.0];
    for _ in 0..dice {
        dist = convolve(&dist, &die);
    }
    dist
}

/// Storytelling sweeps: dice 0..=10 for 10-, 9- and 8-again and 10-again
/// with rote.
pub fn storytelling(mc: bool) -> Report {
    let mut results = Vec::new();
    for (again, rote) in [(10, false), (9, false), (8, false), (10, true)] {
        for dice in 0..=10 {
            let dist = storytelling_successes(dice, again, rote);
            let at_least = |k: usize| dist.iter().skip(k).sum::<f64>();
            let mean_successes: f64 = dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
            let metrics = vec![
                Metric::probability("p_success", at_least(1)),
                Metric::probability("p_exceptional", at_least(5)),
                mean("mean_successes", mean_successes, 1.0),
                Metric::probability("p_dramatic", if dice == 0 { 0.1 } else { 0.0 }),
            ];
            let rows = dist
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 1e-12)
                .map(|(k, p)| DistRow::new("successes", k, *p))
                .collect();
            let name = format!("dice={dice}, again={again}, rote={rote}");
            let inputs = json!({
                "dice": dice, "modifier": 0, "target": 8, "again": again, "rote": rote,
                "chance_die_explodes": true, "need": 1, "exceptional": 5,
            });
            results.push(result(
                &name,
                System::Storytelling,
                inputs,
                metrics,
                rows,
                mc,
            ));
        }
    }
    wrap("storytelling-fixture", results)
}

/// Advantage cases for four policies and three dice, with made-up but
/// plausible shares (each result's tiers add up to 1).
pub fn advantage(mc: bool) -> Report {
    let mut results = Vec::new();
    let policies = [
        ("greedy", 1.0),
        ("threshold", 0.7),
        ("last", 0.35),
        ("never", 0.0),
    ];
    for (policy, strength) in policies {
        for (die, size) in [("d4", 4.0), ("d6", 6.0), ("d8", 8.0)] {
            let lift = strength * (0.06 + 0.018 * size);
            let p_miss = 15.0 / 36.0 - lift * 0.8;
            let p_strong = 6.0 / 36.0 + lift * 0.9;
            let p_weak = 1.0 - p_miss - p_strong;
            let rolls = 4.0;
            let metrics = vec![
                Metric::probability("p_miss", p_miss),
                Metric::probability("p_weak", p_weak),
                Metric::probability("p_strong", p_strong),
                mean("strong_per_encounter", p_strong * rolls, 0.8),
                Metric::probability("p_encounter_strong", 1.0 - (1.0 - p_strong).powi(4)),
                mean("uses_per_encounter", strength * 1.2, 0.6),
                mean(
                    "miss_to_strong_per_encounter",
                    strength * size * 0.045,
                    strength * 0.3,
                ),
            ];
            let rows = (1..=4)
                .flat_map(|i| {
                    let v = format!("tier_roll_{i}");
                    [
                        DistRow::new(&v, "miss", p_miss),
                        DistRow::new(&v, "weak", p_weak),
                        DistRow::new(&v, "strong", p_strong),
                    ]
                })
                .collect();
            let mut inputs = json!({
                "die": die, "stat": 0, "rolls": 4, "policy": policy,
                "on_use": "reset", "gain_on": {"miss": 0, "weak": 0, "strong": 0},
                "gain_chance": 0.5, "gm_reduce_chance": 0.0,
            });
            if policy == "threshold" {
                inputs["threshold"] = json!(3);
            }
            let name = format!("die={die}, policy={policy}");
            results.push(result(&name, System::Advantage, inputs, metrics, rows, mc));
        }
    }
    wrap("advantage-fixture", results)
}

/// Doom-pool scenes starting from three doom pools, one of them ending at
/// 2d12; hand-built success chances falling as the doom pool grows.
pub fn scene(mc: bool) -> Report {
    let finals: [&[(&str, f64)]; 3] = [
        &[
            ("2d6", 0.12),
            ("3d6", 0.2),
            ("d8 2d6", 0.16),
            ("4d6", 0.1),
            ("d8 3d6", 0.1),
            ("2d8 2d6", 0.06),
            ("d10 2d6", 0.05),
            ("5d6", 0.04),
            ("d10 3d6", 0.04),
            ("d8 4d6", 0.035),
            ("2d8 3d6", 0.03),
            ("d10 d8 2d6", 0.025),
            ("6d6", 0.02),
            ("d12 2d6", 0.02),
        ],
        &[
            ("2d8", 0.15),
            ("2d8 d6", 0.25),
            ("3d8", 0.2),
            ("2d8 2d6", 0.15),
            ("3d8 d6", 0.12),
            ("d10 2d8", 0.08),
            ("4d8", 0.05),
        ],
        &[
            ("ended", 0.3),
            ("2d10 d12", 0.2),
            ("d12 2d10 d6", 0.25),
            ("d12 2d10 d8", 0.15),
            ("d12 3d10", 0.1),
        ],
    ];
    let mut results = Vec::new();
    for (i, (doom, start)) in [("2d6", 0.72), ("2d8", 0.6), ("d12 2d10", 0.38)]
        .into_iter()
        .enumerate()
    {
        let ends = i == 2;
        let mut metrics = Vec::new();
        let mut p = start;
        let mut total = 0.0;
        for action in 1..=4 {
            metrics.push(Metric::probability(format!("p_success_action_{action}"), p));
            total += p;
            p *= if ends { 0.8 } else { 0.94 };
        }
        metrics.push(mean("mean_successes", total, 1.1));
        metrics.push(mean("mean_plot_points", 1.4, 0.9));
        metrics.push(Metric::probability(
            "p_ended_early",
            if ends { 0.3 } else { 0.0 },
        ));
        metrics.push(mean("mean_final_doom_dice", 3.4, 0.7));
        let rows = finals[i]
            .iter()
            .map(|(o, p)| DistRow::new("final_doom", o, *p))
            .collect();
        let inputs = json!({
            "pool": "d10 d8 d6", "doom": doom, "actions": 4, "end_at_2d12": ends,
            "keep": 2, "ties": "reaction", "heroic_step": 5,
        });
        let name = format!("doom={doom}, end_at_2d12={ends}");
        results.push(result(
            &name,
            System::CortexScene,
            inputs,
            metrics,
            rows,
            mc,
        ));
    }
    wrap("scene-fixture", results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storytelling_fixture_matches_the_reference_table() {
        // REFERENCE.md, 10-again: 5 dice P(>=2) = 0.507795, 8 dice P(>=3) = 0.506533;
        // 5 dice P(>=2) with 9-again 54.38 %, 8-again 57.98 %, rote 83.95 %.
        let at_least = |d: &[f64], k: usize| d.iter().skip(k).sum::<f64>();
        assert!((at_least(&storytelling_successes(5, 10, false), 2) - 0.507795).abs() < 1e-6);
        assert!((at_least(&storytelling_successes(8, 10, false), 3) - 0.506533).abs() < 1e-6);
        assert!((at_least(&storytelling_successes(5, 9, false), 2) - 0.5438).abs() < 1e-4);
        assert!((at_least(&storytelling_successes(5, 8, false), 2) - 0.5798).abs() < 1e-4);
        assert!((at_least(&storytelling_successes(5, 10, true), 2) - 0.8395).abs() < 1e-4);
        assert!((at_least(&storytelling_successes(0, 10, false), 1) - 0.1).abs() < 1e-12);
    }
}
