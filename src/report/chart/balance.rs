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
use crate::report::format::thousands;

/// Height of one row of panels.
const PANEL_HEIGHT: u32 = 420;

/// The most balance tables charted, the most panels (questions) a balance
/// chart draws and the most rungs a panel does. Like a sweep's cases
/// (`MAX_CHARTED_CASES`), the first are drawn with a note, the tables
/// hold every one: 3,000 pools in one balance drew a 420,176 px tall PNG
/// at 2.2 GB, and 8,000 crashed the renderer. (The bundled scenarios stay
/// below every limit.)
pub const MAX_BALANCE_CHARTS: usize = 20;
pub const MAX_BALANCE_PANELS: usize = 12;
pub const MAX_BALANCE_RUNGS: usize = super::MAX_CHARTED_CASES;

/// A chart per balance table, in report order: the first
/// [`MAX_BALANCE_CHARTS`], each of its first [`MAX_BALANCE_PANELS`]
/// questions and their first [`MAX_BALANCE_RUNGS`] rungs.
pub fn charts(balances: &[BalanceResult]) -> Vec<Chart> {
    let mut tables: Vec<usize> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for b in balances {
        if seen.insert(b.table) {
            tables.push(b.table);
        }
    }
    let all_tables = tables.len();
    tables.truncate(MAX_BALANCE_CHARTS);
    tables
        .into_iter()
        .map(|table| {
            let asked = balances.iter().filter(|b| b.table == table);
            let questions = asked.clone().count();
            let most_rungs = asked.clone().map(|b| b.ladder.len()).max().unwrap_or(0);
            let drawn: Vec<BalanceResult> =
                asked.take(MAX_BALANCE_PANELS).map(first_rungs).collect();
            let answers: Vec<&BalanceResult> = drawn.iter().collect();
            let mut chart = chart(table, &answers);
            let mut cut = Vec::new();
            if questions > MAX_BALANCE_PANELS {
                cut.push(format!(
                    "Only the first {MAX_BALANCE_PANELS} of {} balances are drawn",
                    thousands(questions as u64)
                ));
            }
            if most_rungs > MAX_BALANCE_RUNGS {
                cut.push(format!(
                    "only the first {MAX_BALANCE_RUNGS} of {} rungs are drawn",
                    thousands(most_rungs as u64)
                ));
            }
            if all_tables > MAX_BALANCE_CHARTS {
                cut.push(format!(
                    "only the first {MAX_BALANCE_CHARTS} of {} balance tables are charted",
                    thousands(all_tables as u64)
                ));
            }
            if !cut.is_empty() {
                let mut note = cut.join("; ");
                note[..1].make_ascii_uppercase();
                chart
                    .notes
                    .push(format!("{note}; balance.csv holds every one."));
            }
            chart
        })
        .collect()
}

/// An answer with only the rungs a chart draws (the chosen rung left out
/// if it comes later).
fn first_rungs(answer: &BalanceResult) -> BalanceResult {
    BalanceResult {
        form: answer.form,
        table: answer.table,
        system: answer.system,
        inputs: answer.inputs.clone(),
        key: answer.key.clone(),
        metric: answer.metric.clone(),
        target: answer.target,
        best: answer.best.filter(|&i| i < MAX_BALANCE_RUNGS),
        ladder: answer
            .ladder
            .iter()
            .take(MAX_BALANCE_RUNGS)
            .cloned()
            .collect(),
    }
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
