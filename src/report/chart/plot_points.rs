//! The value of a plot point at a glance (docs/cortex.md): for Cortex rolls against
//! fixed difficulties with `plot_points`, the chance of success by
//! difficulty, one line per number of plot points available, a panel per
//! hero pool (and whatever else varies).

use super::model::{line_legend, palette, Axis, Chart, LineSeries, Lines, Panel, Plot, Point};
use super::{
    columns_for, fixed_rules_note, input_int, label_of, method_note, metric_value, stem,
    varying_keys, width_for,
};
use crate::report::CaseResult;
use crate::systems::cortex::keys::{DIFFICULTY, PLOT_POINTS, POOL};
use crate::systems::cortex::metrics::P_SUCCESS;
use crate::systems::System;

/// Height of one row of panels.
const PANEL_HEIGHT: u32 = 420;

/// `N plot points`, singular for one.
fn points_name(points: i64) -> String {
    if points == 1 {
        "1 plot point".into()
    } else {
        format!("{points} plot points")
    }
}

/// The chart, when some case spends plot points against a difficulty.
pub fn chart(results: &[&CaseResult]) -> Option<Chart> {
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| {
            input_int(r, &PLOT_POINTS).is_some()
                && input_int(r, &DIFFICULTY).is_some()
                && metric_value(r, P_SUCCESS.name).is_some()
        })
        .collect();
    if cases.is_empty() {
        return None;
    }
    // The values the cases give `key`, each once, smallest first.
    let distinct = |key| {
        let mut values: Vec<i64> = cases.iter().filter_map(|r| input_int(r, key)).collect();
        values.sort_unstable();
        values.dedup();
        values
    };
    let difficulties = distinct(&DIFFICULTY);
    let counts = distinct(&PLOT_POINTS);
    let panel_keys = varying_keys(&cases, &[DIFFICULTY.name, PLOT_POINTS.name]);
    let mut captions: Vec<String> = Vec::new();
    for r in &cases {
        let caption = label_of(r, &panel_keys);
        if !captions.contains(&caption) {
            captions.push(caption);
        }
    }
    let series_of = |caption: &str| -> Vec<LineSeries> {
        counts
            .iter()
            .enumerate()
            .map(|(i, &count)| {
                let mut points: Vec<Point> = cases
                    .iter()
                    .filter(|r| {
                        label_of(r, &panel_keys) == caption
                            && input_int(r, &PLOT_POINTS) == Some(count)
                    })
                    .filter_map(|r| {
                        Some(Point {
                            x: input_int(r, &DIFFICULTY)? as f64,
                            y: metric_value(r, P_SUCCESS.name)?,
                        })
                    })
                    .collect();
                points.sort_by(|a, b| a.x.total_cmp(&b.x));
                LineSeries {
                    name: points_name(count),
                    colour: palette(i),
                    marker: i,
                    points,
                }
            })
            .collect()
    };
    let panels: Vec<Panel> = captions
        .iter()
        .map(|caption| Panel {
            caption: (!caption.is_empty()).then(|| caption.clone()),
            plot: Plot::Lines(Lines {
                step: false,
                series: series_of(caption),
                x_label: "Difficulty (the total to beat)".into(),
                x_ticks: difficulties
                    .iter()
                    .map(|&d| (d as f64, d.to_string()))
                    .collect(),
                axis: Axis::percent("P(success), %"),
            }),
        })
        .collect();
    let columns = columns_for(panels.len());
    let mut chart = Chart {
        stem: stem(System::Cortex, "plot-points"),
        title: "What plot points buy: chance of success by difficulty".into(),
        notes: vec![
            "Each line: that many plot points available, the fewest needed spent after the roll \
             to add dice to the total; lines meet where the pool has no more live dice to add."
                .into(),
        ],
        warnings: Vec::new(),
        legend: line_legend(&series_of(&captions[0])),
        panels,
        columns,
        width: width_for(columns),
        height: super::model::MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(
        &cases,
        &[POOL.name, DIFFICULTY.name, PLOT_POINTS.name],
    ));
    chart.notes.push(method_note(&cases, true));
    chart.fit_height(PANEL_HEIGHT);
    Some(chart)
}
