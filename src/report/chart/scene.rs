//! Doom-pool scene charts (issue 6): the chance each action succeeds by its
//! number in the scene, one line per case (typically per starting doom
//! pool), and the distribution of the doom pool at the scene's end. Metric
//! and distribution names are SPEC 5's (`p_success_action_N`, `final_doom`).

use super::model::{
    bar_legend, line_legend, palette, Axis, BarSeries, Bars, Chart, LineSeries, Lines, Panel, Plot,
    Point, MIN_HEIGHT, MIN_WIDTH,
};
use super::{
    distribution, fixed_rules_note, label_of, method_note, metric_value, share, varying_keys,
};
use crate::report::CaseResult;

/// Outcomes shown per final-doom panel; the rest are gathered as "other".
const TOP_OUTCOMES: usize = 10;

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let mut out = Vec::new();
    out.extend(by_action(results));
    out.extend(final_doom(results));
    out
}

/// A case's line/panel name: what varies between the cases ("doom=2d8"),
/// else the case name.
fn series_names(results: &[&CaseResult]) -> Vec<String> {
    let keys = varying_keys(results, &[]);
    results
        .iter()
        .map(|r| {
            let label = label_of(r, &keys);
            if label.is_empty() {
                r.case.clone()
            } else {
                label
            }
        })
        .collect()
}

fn success_points(r: &CaseResult) -> Vec<Point> {
    (1..)
        .map_while(|i| {
            metric_value(r, &format!("p_success_action_{i}")).map(|y| Point { x: i as f64, y })
        })
        .collect()
}

fn by_action(results: &[&CaseResult]) -> Option<Chart> {
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !success_points(r).is_empty())
        .collect();
    if cases.is_empty() {
        return None;
    }
    let names = series_names(&cases);
    let series: Vec<LineSeries> = cases
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (r, name))| LineSeries {
            name,
            colour: palette(i),
            marker: i,
            points: success_points(r),
        })
        .collect();
    let actions = series.iter().map(|s| s.points.len()).max().unwrap_or(1);
    let mut chart = Chart::single(
        "cortex-scene-success-by-action",
        "Success chance of each action as the doom pool grows",
        Plot::Lines(Lines {
            series: series.clone(),
            x_label: "Action number in the scene".into(),
            x_ticks: (1..=actions).map(|i| (i as f64, i.to_string())).collect(),
            axis: Axis::percent("P(action succeeds), %"),
        }),
    );
    chart.legend = line_legend(&series);
    chart.notes.extend(fixed_rules_note(&cases, &[]));
    let ends = cases
        .iter()
        .any(|r| r.inputs.get("end_at_2d12").and_then(|v| v.as_bool()) == Some(true));
    let mut method = method_note(&cases, true);
    if ends {
        method.push_str(" An action after the scene ended counts as not succeeding.");
    }
    chart.notes.push(method);
    Some(chart)
}

fn final_doom(results: &[&CaseResult]) -> Option<Chart> {
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !distribution(r, "final_doom").is_empty())
        .collect();
    if cases.is_empty() {
        return None;
    }
    let names = series_names(&cases);
    let colour = palette(0);
    let mut panels = Vec::new();
    let mut global_max: f64 = 0.0;
    let mut most_bars = 0;
    for (r, name) in cases.iter().zip(names) {
        let mut rows: Vec<(String, f64)> = distribution(r, "final_doom")
            .into_iter()
            .map(|(o, p)| (o.to_string(), p))
            .collect();
        // Most likely first; the sort is stable, so ties keep table order.
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        let rest: f64 = rows.iter().skip(TOP_OUTCOMES).map(|(_, p)| p).sum();
        let others = rows.len().saturating_sub(TOP_OUTCOMES);
        rows.truncate(TOP_OUTCOMES);
        if others > 0 {
            rows.push((format!("{others} other pools"), rest));
        }
        let mut categories = Vec::new();
        let mut values = Vec::new();
        for (outcome, p) in &rows {
            global_max = global_max.max(*p);
            categories.push(if outcome == "ended" {
                "scene ended early".to_string()
            } else {
                outcome.clone()
            });
            values.push(Some(share(r, *p)));
        }
        most_bars = most_bars.max(categories.len());
        panels.push(Panel {
            caption: Some(name),
            plot: Plot::Bars(Bars {
                horizontal: true,
                stacked: false,
                categories,
                category_label: "Doom pool at the end".into(),
                series: vec![BarSeries {
                    name: "share of scenes".into(),
                    colour,
                    values,
                }],
                axis: Axis::percent("Share of scenes, %"),
                value_labels: true,
            }),
        });
    }
    // One scale for every panel, so bars compare across cases.
    let top = ((global_max * 1.05) * 10.0).ceil() / 10.0;
    for panel in &mut panels {
        if let Plot::Bars(b) = &mut panel.plot {
            b.axis.max = Some(top.clamp(0.1, 1.0));
        }
    }
    let columns = if panels.len() == 1 { 1 } else { 2 };
    let mut chart = Chart {
        stem: "cortex-scene-final-doom".into(),
        title: "Doom pool at the end of the scene".into(),
        notes: Vec::new(),
        legend: bar_legend(&[]),
        panels,
        columns,
        width: MIN_WIDTH.max(if columns == 2 { 1600 } else { 0 }),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&cases, &[]));
    chart.notes.push(method_note(&cases, true));
    chart.fit_height(110 + 40 * most_bars as u32);
    Some(chart)
}
