//! Balance charts (docs/cortex.md): for each `[[balance]]`, the metric
//! on every rung of the ladder as a dot per rung (the rungs are
//! categories, so no line joins them), the target as a flat line and the
//! chosen rung marked, on the plot and under the axis; one panel per set of fixed keys (docs/cortex.md's doom-pool
//! balances: one per hero pool, the rungs named from the rules text's
//! difficulty table).

use super::model::{
    line_legend, palette, Axis, Chart, LegendItem, LineSeries, Lines, Panel, Plot, Point, Value,
};
use super::{columns_for, labels, stem, width_for};
use crate::balance::{BalanceResult, Form};

/// Height of one row of panels.
const PANEL_HEIGHT: u32 = 420;

/// A chart per balance table, in report order.
pub fn charts(balances: &[BalanceResult]) -> Vec<Chart> {
    let mut tables: Vec<usize> = Vec::new();
    for b in balances {
        if !tables.contains(&b.table) {
            tables.push(b.table);
        }
    }
    tables
        .into_iter()
        .map(|table| {
            let answers: Vec<&BalanceResult> =
                balances.iter().filter(|b| b.table == table).collect();
            chart(table, &answers)
        })
        .collect()
}

/// What the ladder's key is, in words: docs/cortex.md's ladder is the opposing
/// (doom) pool.
fn key_name(answer: &BalanceResult) -> String {
    match answer.form {
        Form::Pools => "doom pool".into(),
        Form::General => labels::key_noun(&answer.key),
    }
}

/// The series of one answer: the metric, a dot per rung (a series of one
/// point draws no line); the target; the chosen rung.
fn series(answer: &BalanceResult) -> Vec<LineSeries> {
    let rungs = answer.ladder.len();
    let at = |i: usize, value: f64| Point {
        x: (i + 1) as f64,
        y: Value::exact(value),
    };
    let metric: Vec<Point> = answer
        .ladder
        .iter()
        .enumerate()
        .filter_map(|(i, rung)| Some(at(i, rung.metric?)))
        .collect();
    let target = vec![at(0, answer.target), at(rungs - 1, answer.target)];
    let chosen: Vec<Point> = answer
        .best
        .and_then(|i| Some(at(i, answer.ladder[i].metric?)))
        .into_iter()
        .collect();
    let mut series: Vec<LineSeries> = metric
        .into_iter()
        .map(|point| LineSeries {
            name: labels::metric_phrase(&answer.metric),
            colour: palette(0),
            marker: 0,
            points: vec![point],
        })
        .collect();
    series.extend([
        LineSeries {
            name: format!("target {}", target_text(answer)),
            colour: palette(1),
            marker: 5,
            points: target,
        },
        LineSeries {
            name: "closest rung".into(),
            colour: palette(6),
            marker: 2,
            points: chosen,
        },
    ]);
    series
}

/// The legend of [`series`]: each name once.
fn legend(answer: &BalanceResult) -> Vec<LegendItem> {
    let mut legend: Vec<LegendItem> = Vec::new();
    for item in line_legend(&series(answer)) {
        if !legend.iter().any(|l| l.name == item.name) {
            legend.push(item);
        }
    }
    legend
}

/// The target as the chart prints it: a chance as a percentage.
fn target_text(answer: &BalanceResult) -> String {
    if answer.system.declared().is_probability(&answer.metric) {
        labels::chance(&answer.target.into())
    } else {
        crate::report::format::number(answer.target)
    }
}

fn chart(table: usize, answers: &[&BalanceResult]) -> Chart {
    let first = answers[0];
    let probability = first.system.declared().is_probability(&first.metric);
    let panels: Vec<Panel> = answers
        .iter()
        .map(|answer| {
            let fixed: Vec<String> = answer
                .inputs
                .iter()
                .map(|(k, v)| labels::phrase(k, v))
                .collect();
            let ticks = answer
                .ladder
                .iter()
                .enumerate()
                .map(|(i, rung)| {
                    let text = labels::value_text(&rung.value);
                    let text = match rung.label {
                        Some(label) => format!("{text} ({label})"),
                        None => text,
                    };
                    let text = if answer.best == Some(i) {
                        format!("{text} [closest]")
                    } else {
                        text
                    };
                    ((i + 1) as f64, text)
                })
                .collect();
            Panel {
                caption: (!fixed.is_empty()).then(|| fixed.join(", ")),
                plot: Plot::Lines(Lines {
                    step: false,
                    series: series(answer),
                    x_label: format!("{} (the ladder, in order)", key_name(answer)),
                    x_ticks: ticks,
                    axis: if probability {
                        Axis::percent(format!("{}, %", labels::metric_phrase(&answer.metric)))
                    } else {
                        Axis::number(labels::metric_phrase(&answer.metric), 2)
                    },
                }),
            }
        })
        .collect();
    // A ladder's rung names ("cosmic catastrophic") need the chart's width
    // under the axis; plain rungs fit two or three panels a row.
    let named = answers
        .iter()
        .any(|a| a.ladder.iter().any(|r| r.label.is_some()));
    let columns = if named { 1 } else { columns_for(panels.len()) };
    let mut chart = Chart {
        stem: stem(first.system, &format!("balance-{table}")),
        title: format!(
            "Balance: which {} brings the {} closest to {}",
            key_name(first),
            labels::metric_phrase(&first.metric),
            target_text(first)
        ),
        // The metric's own name once, so a reader finds its rows in
        // balance.csv (its `metric` column).
        notes: vec![format!(
            "{}: each rung of the {} evaluated like a case; the marked rung is closest to the target (a rung where the metric is undefined never wins). Metric: {} in balance.csv.",
            first.system,
            key_name(first),
            first.metric
        )],
        warnings: Vec::new(),
        legend: legend(first),
        panels,
        columns,
        width: width_for(columns),
        height: super::model::MIN_HEIGHT,
    };
    chart.fit_height(if named {
        PANEL_HEIGHT + 80
    } else {
        PANEL_HEIGHT
    });
    chart
}
