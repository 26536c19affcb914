//! Doom-pool scene charts: the chance each action succeeds by its
//! number in the scene, one line per case (typically per starting doom
//! pool), and the distribution of the doom pool at the scene's end. Metric
//! and distribution names are docs/cortex.md's (`p_success_action_N`, `final_doom`).

use super::model::{
    bar_legend, line_legend, palette, Axis, BarSeries, Bars, Chart, LegendItem, LineSeries, Lines,
    Panel, Plot, Point, MIN_HEIGHT, MIN_WIDTH,
};
use super::{
    columns_for, distribution, fit, fixed_rules_note, input_on, label_of, method_note,
    metric_value, priority, share, stem, varying_keys, width_for,
};
use crate::dice::Pool;
use crate::report::CaseResult;
use crate::systems::cortex::keys::{ACTIONS, DOOM, END_AT_2D12};
use crate::systems::cortex::scene_metrics as m;
use crate::systems::metrics::MetricRef;
use crate::systems::System;

/// Outcomes shown per final-doom panel; the rest are gathered as "other".
const TOP_OUTCOMES: usize = 10;

/// The metrics these charts read (see `super::shows_metric`).
pub const METRICS_DRAWN: &[MetricRef] = &[MetricRef::Family(m::P_SUCCESS_ACTION)];

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
            metric_value(r, &m::P_SUCCESS_ACTION.name(i)).map(|y| Point { x: i as f64, y })
        })
        .collect()
}

/// Most panels a scene chart gets; past it, inputs are held at one value
/// (named in the chart's note).
const BUDGET: usize = 6;

/// The key each line of a panel stands for: the doom pool when it varies
/// (one line per doom pool), else the first input that does.
fn line_key(keys: &[String]) -> Option<String> {
    keys.iter()
        .find(|k| *k == DOOM.name)
        .or_else(|| keys.first())
        .cloned()
}

/// Whether every value of `line` goes with one value of `key` (like
/// `end_at_2d12` when only one doom pool ends at 2d12): such a key names
/// lines rather than splitting panels.
fn follows(cases: &[&CaseResult], line: &str, key: &str) -> bool {
    cases.iter().all(|a| {
        cases
            .iter()
            .filter(|b| b.inputs.get(line) == a.inputs.get(line))
            .all(|b| b.inputs.get(key) == a.inputs.get(key))
    })
}

/// Of cases that differ only in `actions`, the longest scene: the chance
/// that action i succeeds does not depend on how many actions follow it
/// (docs/cortex.md: the doom pool after action i depends only on actions 1..i), so
/// the shorter scenes' lines would lie under the longest one's.
fn longest_scenes<'a>(cases: &[&'a CaseResult]) -> Vec<&'a CaseResult> {
    let mut out: Vec<&CaseResult> = Vec::new();
    let others = |r: &CaseResult| {
        let mut inputs = r.inputs.clone();
        inputs.remove(ACTIONS.name);
        inputs
    };
    for r in cases {
        match out.iter_mut().find(|o| others(o) == others(r)) {
            Some(o) => {
                if success_points(r).len() > success_points(o).len() {
                    *o = r;
                }
            }
            None => out.push(r),
        }
    }
    out
}

fn by_action(results: &[&CaseResult]) -> Option<Chart> {
    let all: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !success_points(r).is_empty())
        .collect();
    if all.is_empty() {
        return None;
    }
    let cases = longest_scenes(&all);
    let varying = varying_keys(&cases, &[]);
    let line = line_key(&varying);
    // Keys that go with the line key name the lines; the rest split panels.
    let (line_keys, panel_keys): (Vec<String>, Vec<String>) =
        varying.iter().cloned().partition(|k| {
            line.as_ref()
                .is_some_and(|l| l == k || follows(&cases, l, k))
        });
    let ranked: Vec<(String, u8)> = panel_keys
        .iter()
        .map(|k| (k.clone(), priority(&cases, k)))
        .collect();
    let slice = fit(&cases, &ranked, BUDGET);
    let actions = slice
        .cases
        .iter()
        .map(|r| success_points(r).len())
        .max()
        .unwrap_or(1);
    // One colour and marker per line name across all panels, so the
    // shared legend reads for every panel.
    let mut names: Vec<String> = Vec::new();
    let mut panels: Vec<(String, Vec<LineSeries>)> = Vec::new();
    for r in &slice.cases {
        let name = match label_of(r, &line_keys) {
            l if l.is_empty() => "P(action succeeds)".to_string(),
            l => l,
        };
        let i = names.iter().position(|n| *n == name).unwrap_or_else(|| {
            names.push(name.clone());
            names.len() - 1
        });
        let series = LineSeries {
            name,
            colour: palette(i),
            marker: i,
            points: success_points(r),
        };
        let caption = label_of(r, &slice.keys);
        match panels.iter_mut().find(|(c, _)| *c == caption) {
            Some((_, lines)) => lines.push(series),
            None => panels.push((caption, vec![series])),
        }
    }
    let mut legend: Vec<LegendItem> = Vec::new();
    for (_, lines) in &panels {
        for item in line_legend(lines) {
            if !legend.iter().any(|l| l.name == item.name) {
                legend.push(item);
            }
        }
    }
    legend.sort_by_key(|l| l.marker);
    let columns = columns_for(panels.len());
    let mut chart = Chart {
        stem: stem(System::CortexScene, "success-by-action"),
        title: "Success chance of each action as the doom pool grows".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels: panels
            .into_iter()
            .map(|(caption, series)| Panel {
                caption: (!caption.is_empty()).then_some(caption),
                plot: Plot::Lines(Lines {
                    series,
                    x_label: "Action number in the scene".into(),
                    x_ticks: (1..=actions).map(|i| (i as f64, i.to_string())).collect(),
                    axis: Axis::percent("P(action succeeds), %"),
                    step: false,
                }),
            })
            .collect(),
        columns,
        width: width_for(columns),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&all, &[]));
    if cases.len() < all.len() {
        chart.notes.push(
            "An action's chance does not depend on how many actions follow it: \
             each line is the longest scene run."
                .into(),
        );
    }
    chart.notes.extend(slice.note());
    let ends = all.iter().any(|r| input_on(r, &END_AT_2D12));
    let mut method = method_note(&all, true);
    if ends {
        method.push_str(" An action after the scene ended counts as not succeeding.");
    }
    chart.notes.push(method);
    chart.fit_height(460);
    Some(chart)
}

/// Where a final doom pool comes on the chart: smaller pools first, by
/// their largest die, then its count, then the next die (d6 < 2d6 < d8 <
/// d8 d6 < 2d8: `Pool`'s own order, its dice largest first); "ended" and
/// anything else that is not a pool after every pool.
pub(super) fn pool_order(outcome: &str) -> (bool, Option<Pool>) {
    match Pool::parse_cortex(outcome) {
        Ok(pool) => (false, Some(pool)),
        Err(_) => (true, None),
    }
}

fn final_doom(results: &[&CaseResult]) -> Option<Chart> {
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !distribution(r, m::FINAL_DOOM.name).is_empty())
        .collect();
    if cases.is_empty() {
        return None;
    }
    let ranked: Vec<(String, u8)> = varying_keys(&cases, &[])
        .into_iter()
        .map(|k| {
            let p = if k == DOOM.name {
                4
            } else {
                priority(&cases, &k)
            };
            (k, p)
        })
        .collect();
    let slice = fit(&cases, &ranked, BUDGET);
    let names = series_names(&slice.cases);
    let colour = palette(0);
    let mut panels = Vec::new();
    let mut global_max: f64 = 0.0;
    let mut most_bars = 0;
    for (r, name) in slice.cases.iter().zip(names) {
        let mut rows: Vec<(String, f64)> = distribution(r, m::FINAL_DOOM.name)
            .into_iter()
            .map(|(o, p)| (o.to_string(), p))
            .collect();
        // The likeliest pools are kept (the sort is stable, so ties keep
        // table order), then shown in pool order.
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        let rest: f64 = rows.iter().skip(TOP_OUTCOMES).map(|(_, p)| p).sum();
        let others = rows.len().saturating_sub(TOP_OUTCOMES);
        rows.truncate(TOP_OUTCOMES);
        rows.sort_by_key(|(outcome, _)| pool_order(outcome));
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
        stem: stem(System::CortexScene, "final-doom"),
        title: "Doom pool at the end of the scene".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend: bar_legend(&[]),
        panels,
        columns,
        width: MIN_WIDTH.max(if columns == 2 { 1600 } else { 0 }),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&cases, &[]));
    chart.notes.extend(slice.note());
    chart.notes.push(method_note(&cases, true));
    chart.fit_height(110 + 40 * most_bars as u32);
    Some(chart)
}
