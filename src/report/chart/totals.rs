//! The at-least view of Cortex totals: P(total >= n)
//! against n, one line per hero pool, the view AnyDice and icepool users
//! reach for first. The tail sums are `distributions.csv`'s `at_least`
//! column, read through the one rule that makes it
//! ([`crate::distribution::at_least`]).

use super::model::{line_legend, palette, Axis, Chart, LineSeries, Lines, Plot, Point};
use super::{
    at_least_of, fixed_rules_note, input, label_of, method_note, share, stem, varying_keys,
};
use crate::options::Choice as _;
use crate::report::CaseResult;
use crate::systems::cortex::keys::{Policy, KEEP, POLICY, POOL};
use crate::systems::System;

/// Inputs that change which dice make the total: a line is drawn per
/// distinct set of them. The opposition, ties and effect rules change only
/// what the total does, not the total (docs/cortex.md).
const TOTAL_KEYS: [&str; 3] = [POOL.name, KEEP.name, POLICY.name];

/// `(total, P(total >= total))` of a result, lowest total first.
fn tail(r: &CaseResult) -> Vec<(i64, f64)> {
    at_least_of(r, "total")
}

pub fn chart(results: &[&CaseResult]) -> Option<Chart> {
    // `max-effect` picks its total against a known difficulty, so its
    // totals are not the pool's alone (docs/cortex.md).
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| {
            input(r, &POLICY).as_deref() != Some(Policy::MaxEffect.name()) && !tail(r).is_empty()
        })
        .collect();
    if cases.is_empty() {
        return None;
    }
    let skip: Vec<&str> = cases
        .iter()
        .flat_map(|r| r.inputs.keys())
        .map(String::as_str)
        .filter(|k| !TOTAL_KEYS.contains(k))
        .collect();
    let extra = varying_keys(&cases, &[&skip[..], &[POOL.name]].concat());
    let mut series: Vec<LineSeries> = Vec::new();
    let mut highest = 0;
    for r in &cases {
        let pool = input(r, &POOL).unwrap_or_default();
        let name = match label_of(r, &extra) {
            l if l.is_empty() => pool,
            l => format!("{pool}, {l}"),
        };
        if series.iter().any(|s| s.name == name) {
            continue;
        }
        let points: Vec<Point> = tail(r)
            .into_iter()
            .filter(|(n, _)| *n >= 1)
            .map(|(n, p)| {
                highest = highest.max(n);
                Point {
                    x: n as f64,
                    y: share(r, p),
                }
            })
            .collect();
        let i = series.len();
        series.push(LineSeries {
            name,
            colour: palette(i),
            marker: i,
            points,
        });
    }
    let legend = line_legend(&series);
    let mut chart = Chart::single(
        &stem(System::Cortex, "totals-at-least"),
        "Chance of a total of at least n, per hero pool",
        Plot::Lines(Lines {
            series,
            x_label: "Total n (the kept dice added)".into(),
            x_ticks: (1..=highest).map(|n| (n as f64, n.to_string())).collect(),
            axis: Axis::percent("P(total ≥ n), %"),
            step: false,
        }),
    );
    chart.legend = legend;
    let mut not_rules = skip.clone();
    not_rules.push(POOL.name);
    chart.notes.extend(fixed_rules_note(&cases, &not_rules));
    chart.notes.push(format!(
        "A botch is a total of 0 (always reached); each point is distributions.csv's at_least of the total. {}",
        method_note(&cases, true)
    ));
    Some(chart)
}
