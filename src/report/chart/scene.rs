//! Doom-pool scene charts: the chance each action succeeds by its
//! number in the scene, one line per case (typically per starting doom
//! pool), and how many doom dice the GM adds over the scene. Metric
//! and distribution names are docs/cortex.md's (`p_success_action_N`, `final_doom`).

use super::model::{
    bar_legend, line_legend, palette, Axis, BarSeries, Bars, Chart, LegendItem, LineSeries, Lines,
    Panel, Plot, Point, MIN_HEIGHT,
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
        let mut inputs = r.inputs.to_map();
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

/// The doom dice a final doom pool holds beyond the starting pool (`None`
/// for "ended" and anything else that is not a pool).
fn dice_added(r: &CaseResult, outcome: &str) -> Option<i64> {
    let start = super::input(r, &DOOM)
        .and_then(|d| Pool::parse_cortex(&d).ok())
        .map_or(2, |p| p.len() as i64);
    let end = Pool::parse_cortex(outcome).ok()?;
    Some(end.len() as i64 - start)
}

/// How many doom dice the GM adds over the scene, one bar per case in each
/// count: the final pools themselves are too many to compare (hundreds of
/// pools, the likeliest a few percent each), and whatever the starting
/// pool, the hitches that add the dice come from the hero's pool alone, so
/// cases that differ only in it stand side by side, alike.
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
    // Per case: the share of scenes by dice added, and of scenes ended early.
    let tallies: Vec<(Vec<(i64, f64)>, f64)> = slice
        .cases
        .iter()
        .map(|r| {
            let mut added: Vec<(i64, f64)> = Vec::new();
            let mut ended = 0.0;
            for (outcome, p) in distribution(r, m::FINAL_DOOM.name) {
                match dice_added(r, outcome) {
                    Some(k) => match added.iter_mut().find(|(n, _)| *n == k) {
                        Some((_, q)) => *q += p,
                        None => added.push((k, p)),
                    },
                    None => ended += p,
                }
            }
            (added, ended)
        })
        .collect();
    // Fewer than none when the GM spends doom dice (docs/cortex.md).
    let counts = || {
        tallies
            .iter()
            .flat_map(|(added, _)| added.iter().filter(|(_, p)| *p > 0.0).map(|(k, _)| *k))
    };
    let most = counts().max().unwrap_or(0).max(0);
    let least = counts().min().unwrap_or(0).min(0);
    let any_ended = tallies.iter().any(|(_, ended)| *ended > 0.0);
    let mut categories: Vec<String> = (least..=most).map(|k| k.to_string()).collect();
    if any_ended {
        categories.push("scene ended early".into());
    }
    let series: Vec<BarSeries> = slice
        .cases
        .iter()
        .zip(&tallies)
        .zip(names)
        .enumerate()
        .map(|(i, ((r, (added, ended)), name))| {
            let mut values: Vec<_> = (least..=most)
                .map(|k| {
                    let p = added.iter().filter(|(n, _)| *n == k).map(|(_, p)| p).sum();
                    Some(share(r, p))
                })
                .collect();
            if any_ended {
                values.push(Some(share(r, *ended)));
            }
            BarSeries {
                name,
                colour: palette(i),
                values,
            }
        })
        .collect();
    let legend = bar_legend(&series);
    let few = series.len() <= 2;
    let highest = series
        .iter()
        .flat_map(|s| s.values.iter().flatten().map(|v| v.value))
        .fold(0.0, f64::max);
    let panel = Panel {
        caption: None,
        plot: Plot::Bars(Bars {
            horizontal: false,
            stacked: false,
            categories,
            category_label: "Doom dice added over the scene".into(),
            series,
            axis: Axis {
                max: Some((((highest * 1.05) * 10.0).ceil() / 10.0).clamp(0.1, 1.0)),
                ..Axis::percent("Share of scenes, %")
            },
            value_labels: few,
        }),
    };
    let mut chart = Chart {
        stem: stem(System::CortexScene, "final-doom"),
        title: "Doom dice the GM adds over the scene".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels: vec![panel],
        columns: 1,
        width: 1600,
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&cases, &[]));
    chart.notes.extend(slice.note());
    chart.notes.push(
        "Each die comes from an action's hitches; the pools themselves are final_doom in distributions.csv."
            .into(),
    );
    chart.notes.push(method_note(&cases, true));
    chart.fit_height(560);
    Some(chart)
}
