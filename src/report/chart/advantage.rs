//! Advantage-die charts (issue 6): miss / weak / strong shares as stacked
//! bars per die size beside the no-die baseline, one panel per policy (and
//! whatever else varies), and `miss_to_strong_per_encounter` against the
//! die size. Metric names are SPEC 4's.
//!
//! The no-die baseline is plain 2d6 + `stat` (the roll the rules text's counter
//! improves on), computed exactly here from the case's `stat`, `miss_max`
//! and `strong_min` so every panel has it, whether or not the scenario ran
//! a `policy = "never"` case.

use super::model::{
    bar_legend, line_legend, palette, Axis, BarSeries, Bars, Chart, LineSeries, Lines, Panel, Plot,
    Point, Value, MIN_HEIGHT, MIN_WIDTH, PALETTE,
};
use super::{
    fit, fixed_rules_note, input, input_int, label_of, method_note, metric_value, partial_keys,
    priority, stem, varying_keys,
};
use crate::report::CaseResult;
use crate::systems::advantage::AdvantageCase;
use crate::systems::System;

/// The metrics these charts read (see `super::shows_metric`).
pub const METRICS_DRAWN: &[&str] = &[
    "p_miss",
    "p_weak",
    "p_strong",
    "miss_to_strong_per_encounter",
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let usable: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| metric_value(r, "p_miss").is_some() && faces(r).is_some())
        .collect();
    if usable.is_empty() {
        return Vec::new();
    }
    let mut out = vec![tiers(&usable)];
    out.extend(miss_to_strong(&usable));
    out
}

/// The advantage die's faces (`"d6"` -> 6).
fn faces(r: &CaseResult) -> Option<i64> {
    input(r, "die")?.trim_start_matches(['d', 'D']).parse().ok()
}

/// Most panels (or lines) a chart gets; past it, inputs other than the
/// policy are held at one representative value (`stat` 0, the middle
/// `rolls`), named in the chart's note.
const BUDGET: usize = 8;

/// Cases grouped by every input but the die, with the group's label, and
/// the slice note when some inputs were held at one value to keep the
/// groups within [`BUDGET`].
fn groups<'a>(results: &[&'a CaseResult]) -> (Vec<(String, Vec<&'a CaseResult>)>, Option<String>) {
    let mut keys = varying_keys(results, &["die"]);
    // A `threshold` that only threshold-policy cases have names their panel.
    for k in partial_keys(results) {
        if k != "die" && !keys.contains(&k) {
            keys.push(k);
        }
    }
    // The issue asks for panels per policy: the policy is split out last.
    let ranked: Vec<(String, u8)> = keys
        .iter()
        .map(|k| {
            let p = if k == "policy" {
                4
            } else {
                priority(results, k)
            };
            (k.clone(), p)
        })
        .collect();
    let slice = fit(results, &ranked, BUDGET);
    let mut out: Vec<(String, Vec<&CaseResult>)> = Vec::new();
    for r in &slice.cases {
        let label = label_of(r, &slice.keys);
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, cases)) => cases.push(r),
            None => out.push((label, vec![r])),
        }
    }
    for (_, cases) in &mut out {
        cases.sort_by_key(|r| faces(r).unwrap_or(0));
    }
    (out, slice.note())
}

/// The "Rules:" note: inputs with one value everywhere, leaving out the die
/// (an axis) and options only some cases have (they are in panel names).
fn rules_note(results: &[&CaseResult]) -> Option<String> {
    let partial = partial_keys(results);
    let mut skip: Vec<&str> = partial.iter().map(String::as_str).collect();
    skip.push("die");
    fixed_rules_note(results, &skip)
}

/// Exact miss / weak / strong shares of 2d6 + stat (SPEC 4's tiers).
pub fn baseline(stat: i64, miss_max: i64, strong_min: i64) -> [f64; 3] {
    // The tier rule is the system's; inputs are bounded by its validation.
    let case = AdvantageCase {
        stat: stat as i32,
        miss_max: miss_max as i32,
        strong_min: strong_min as i32,
        ..AdvantageCase::default()
    };
    let mut tiers = [0.0; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            tiers[case.tier(a + b + case.stat) as usize] += 1.0 / 36.0;
        }
    }
    tiers
}

fn tier_series() -> Vec<BarSeries> {
    [
        ("miss", PALETTE[1]),
        ("weak hit", PALETTE[4]),
        ("strong hit", PALETTE[2]),
    ]
    .into_iter()
    .map(|(name, colour)| BarSeries {
        name: name.into(),
        colour,
        values: Vec::new(),
    })
    .collect()
}

fn tiers(results: &[&CaseResult]) -> Chart {
    let (groups, slice_note) = groups(results);
    let mut panels = Vec::new();
    for (label, cases) in &groups {
        let first = cases[0];
        let base = baseline(
            input_int(first, "stat").unwrap_or(0),
            input_int(first, "miss_max").unwrap_or(6),
            input_int(first, "strong_min").unwrap_or(10),
        );
        let mut series = tier_series();
        let mut categories = vec!["no die".to_string()];
        for (s, p) in series.iter_mut().zip(base) {
            s.values.push(Some(Value::exact(p)));
        }
        for r in cases {
            categories.push(input(r, "die").unwrap_or_default());
            let miss = metric_value(r, "p_miss");
            let weak = metric_value(r, "p_weak");
            let strong = metric_value(r, "p_strong");
            // Stacked from the bottom: the miss/weak boundary is p_miss;
            // the weak/strong one is 1 - p_strong, whose interval mirrors it.
            let weak_top = strong
                .and_then(|s| s.ci)
                .map(|(lo, hi)| (1.0 - hi, 1.0 - lo));
            series[0].values.push(miss);
            series[1].values.push(weak.map(|w| Value {
                value: w.value,
                ci: weak_top,
            }));
            series[2].values.push(strong.map(|s| Value::exact(s.value)));
        }
        panels.push(Panel {
            caption: (!label.is_empty()).then(|| label.clone()),
            plot: Plot::Bars(Bars {
                horizontal: false,
                stacked: true,
                categories,
                category_label: "Advantage die".into(),
                series,
                axis: Axis::percent("Share of rolls, %"),
                value_labels: true,
            }),
        });
    }
    let columns = match panels.len() {
        1 => 1,
        2 | 4 => 2,
        _ => 3,
    };
    let mut chart = Chart {
        stem: stem(System::Advantage, "tiers"),
        title: "Miss, weak hit and strong hit with the advantage die".into(),
        notes: Vec::new(),
        legend: bar_legend(&tier_series()),
        panels,
        columns,
        width: MIN_WIDTH.max(if columns == 3 { 1500 } else { 0 }),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(rules_note(results));
    chart.notes.extend(slice_note);
    chart.notes.push(format!(
        "\"no die\" is 2d6 + stat alone (exact). {}",
        method_note(results, true)
    ));
    chart.fit_height(520);
    chart
}

fn miss_to_strong(results: &[&CaseResult]) -> Option<Chart> {
    let (groups, slice_note) = groups(results);
    let mut all_faces: Vec<i64> = results.iter().filter_map(|r| faces(r)).collect();
    all_faces.sort_unstable();
    all_faces.dedup();
    let series: Vec<LineSeries> = groups
        .iter()
        .enumerate()
        .map(|(i, (label, cases))| LineSeries {
            name: if label.is_empty() {
                "all cases".into()
            } else {
                label.clone()
            },
            colour: palette(i),
            marker: i,
            points: cases
                .iter()
                .filter_map(|r| {
                    Some(Point {
                        x: faces(r)? as f64,
                        y: metric_value(r, "miss_to_strong_per_encounter")?,
                    })
                })
                .collect(),
        })
        .collect();
    if series.iter().all(|s| s.points.is_empty()) {
        return None;
    }
    let mut chart = Chart::single(
        &stem(System::Advantage, "miss-to-strong"),
        "Misses the advantage die turns into strong hits",
        Plot::Lines(Lines {
            series: series.clone(),
            x_label: "Advantage die".into(),
            x_ticks: all_faces
                .iter()
                .map(|f| (*f as f64, format!("d{f}")))
                .collect(),
            axis: Axis::number("Misses turned strong, per encounter", 2),
            step: false,
        }),
    );
    chart.legend = line_legend(&series);
    chart.notes.extend(rules_note(results));
    chart.notes.extend(slice_note);
    chart.notes.push(method_note(results, true));
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::baseline;

    #[test]
    fn baseline_matches_the_reference_table() {
        // REFERENCE.md, 2d6 + stat without an advantage die.
        let [miss, weak, strong] = baseline(0, 6, 10);
        assert!((miss - 15.0 / 36.0).abs() < 1e-12);
        assert!((weak - 15.0 / 36.0).abs() < 1e-12);
        assert!((strong - 6.0 / 36.0).abs() < 1e-12);
        let [miss, _, strong] = baseline(3, 6, 10);
        assert!((miss - 3.0 / 36.0).abs() < 1e-12);
        assert!((strong - 21.0 / 36.0).abs() < 1e-12);
    }
}
