//! Cortex conflict charts: per group of cases (a named sweep), the chance
//! that the foe, and that the hero, has been taken out by each exchange, as
//! step curves with one line per foe; and how the fights leave each side's
//! stress. Distribution names are docs/cortex.md's (`foe_out_exchange`,
//! `hero_out_exchange`, `final_foe_stress`, `final_hero_stress`).

use super::cortex::stacked_segments;
use super::model::{
    bar_legend, line_legend, palette, sequential, Axis, BarSeries, Bars, Chart, Colour, LegendItem,
    LineSeries, Lines, Panel, Plot, Point, Value, GREY, MIN_HEIGHT,
};
use super::{distribution, fixed_rules_note, label_of, method_note, share, stem, varying_keys};
use crate::report::CaseResult;
use crate::systems::cortex::conflict::metrics as m;
use crate::systems::metrics::{DistributionDef, MetricRef, DIE_SIZES};
use crate::systems::System;

/// These charts draw the take-out and final-stress distributions; the
/// metrics read off them stand for them in the results tables (see
/// `super::drawn_rank`), the foe's take-out first.
pub const METRICS_DRAWN: &[MetricRef] = &[
    MetricRef::One(m::P_FOE_OUT),
    MetricRef::One(m::P_HERO_OUT),
    MetricRef::One(m::P_NEITHER),
    MetricRef::One(m::MEAN_EXCHANGES),
    MetricRef::One(m::MEAN_EXCHANGES_TO_FOE_OUT),
    MetricRef::One(m::P_HERO_STRESSED),
    MetricRef::One(m::MEAN_TEAM_DICE_LEFT),
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let groups = groups(results);
    let mut out = Vec::new();
    out.extend(takeouts(&groups));
    out.extend(final_stress(results, &groups));
    out
}

/// The take-out curves end at the first exchange after which at most this
/// share of any case's take-outs is still to come (a fight played until one
/// side is out may last long past the exchanges worth reading) ...
const TAKEOUT_TAIL: f64 = 0.001;

/// ... but at this exchange at the latest, which the chart then says.
const MAX_CHARTED_EXCHANGE: usize = 40;

/// The two sides, as captions name them, with their take-out and
/// final-stress distributions.
const SIDES: [(&str, &str, DistributionDef, DistributionDef); 2] = [
    ("foe", "Foe", m::FOE_OUT_EXCHANGE, m::FINAL_FOE_STRESS),
    ("hero", "Hero", m::HERO_OUT_EXCHANGE, m::FINAL_HERO_STRESS),
];

/// Cases grouped by their sweep's name (the text before ": " in a case
/// name), in report order, each case with its line name: the inputs that
/// vary within its group ("foe=d10 d8 d6", "mob=3d8"), else its case name.
struct Group<'a> {
    name: String,
    cases: Vec<(&'a CaseResult, String)>,
}

fn groups<'a>(results: &[&'a CaseResult]) -> Vec<Group<'a>> {
    let prefix = |r: &CaseResult| {
        r.case
            .split_once(": ")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let mut groups: Vec<Group<'a>> = Vec::new();
    for r in results {
        let name = prefix(r);
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) => g.cases.push((r, String::new())),
            None => groups.push(Group {
                name,
                cases: vec![(r, String::new())],
            }),
        }
    }
    for g in &mut groups {
        let members: Vec<&CaseResult> = g.cases.iter().map(|(r, _)| *r).collect();
        let keys = varying_keys(&members, &[]);
        for (r, line) in &mut g.cases {
            *line = match label_of(r, &keys) {
                l if l.is_empty() => r.case.clone(),
                l => l,
            };
        }
    }
    groups
}

fn caption(group: &str, side: &str) -> String {
    if group.is_empty() {
        side.to_string()
    } else {
        format!("{group}: {}", side.to_lowercase())
    }
}

/// P(the side is out by exchange k) for k = 0 .. N: a running total of the
/// `<side>_out_exchange` rows (outcomes 1 .. N; `never` left out).
fn out_by_exchange(r: &CaseResult, out: DistributionDef) -> Vec<Point> {
    let mut points = vec![Point {
        x: 0.0,
        y: Value::exact(0.0),
    }];
    let mut total = 0.0;
    for (outcome, p) in distribution(r, out.name) {
        if let Ok(k) = outcome.parse::<u32>() {
            total += p;
            points.push(Point {
                x: f64::from(k),
                y: share(r, total),
            });
        }
    }
    points
}

/// The exchange the curves of `curves` end at, and the most of any
/// curve's take-outs left after it.
fn charted_exchanges(curves: &[Vec<Point>]) -> (usize, f64) {
    let last = curves.iter().map(|c| c.len() - 1).max().unwrap_or(1).max(1);
    let left_after = |k: usize| {
        curves
            .iter()
            .map(|c| {
                let end = c.last().map_or(0.0, |p| p.y.value);
                let at = c.get(k).map_or(end, |p| p.y.value);
                end - at
            })
            .fold(0.0, f64::max)
    };
    let end = (1..=last)
        .find(|&k| left_after(k) <= TAKEOUT_TAIL)
        .unwrap_or(last)
        .min(MAX_CHARTED_EXCHANGE);
    (end, left_after(end))
}

/// One chart per group (a named sweep), so each has its own legend and no
/// colour stands for two cases in one chart.
fn takeouts(groups: &[Group<'_>]) -> Vec<Chart> {
    let mut charts = Vec::new();
    for (index, g) in groups.iter().enumerate() {
        let members: Vec<&CaseResult> = g.cases.iter().map(|(r, _)| *r).collect();
        let curves: Vec<Vec<Point>> = SIDES
            .iter()
            .flat_map(|side| g.cases.iter().map(|(r, _)| out_by_exchange(r, side.2)))
            .collect();
        let (end, left) = charted_exchanges(&curves);
        let last = curves.iter().map(|c| c.len() - 1).max().unwrap_or(1);
        let mut panels = Vec::new();
        for (side, title, out, _) in SIDES {
            let series: Vec<LineSeries> = g
                .cases
                .iter()
                .enumerate()
                .map(|(i, (r, line))| {
                    let mut points = out_by_exchange(r, out);
                    points.truncate(end + 1);
                    LineSeries {
                        name: line.clone(),
                        colour: palette(i),
                        marker: i,
                        points,
                    }
                })
                .collect();
            // Every exchange up to 20, past that every fifth, so the ticks
            // stay legible.
            let step = if end > 20 { 5 } else { 1 };
            panels.push(Panel {
                caption: Some(format!("{title} taken out")),
                plot: Plot::Lines(Lines {
                    series,
                    x_label: "Exchange".into(),
                    x_ticks: (0..=end)
                        .filter(|k| k % step == 0)
                        .map(|k| (k as f64, k.to_string()))
                        .collect(),
                    axis: Axis::percent(format!("P({} out by this exchange), %", side)),
                    step: true,
                }),
            });
        }
        let legend = match &panels[0].plot {
            Plot::Lines(lines) => line_legend(&lines.series),
            _ => Vec::new(),
        };
        let name = if groups.len() == 1 {
            "takeouts".to_string()
        } else {
            format!("takeouts-{}", index + 1)
        };
        let title = if g.name.is_empty() {
            "Chance each side has been taken out, exchange by exchange".to_string()
        } else {
            format!(
                "{}: chance each side has been taken out, exchange by exchange",
                g.name
            )
        };
        let mut chart = two_columns(&members, &name, &title, (legend, panels), 440);
        if end < last {
            let later = format!(
                "The curves end at exchange {end}; at most {} of any case's take-outs come later (distributions.csv has every exchange).",
                super::super::format::percent(left.max(0.0))
            );
            if left > TAKEOUT_TAIL {
                chart.cut(later);
            } else {
                chart.notes.push(later);
            }
            chart.fit_height(440);
        }
        charts.push(chart);
    }
    charts
}

/// A conflict chart of two panels a row (hero and foe side by side), with
/// the fixed rules and the method in its notes, each row `panel_height`
/// high.
fn two_columns(
    results: &[&CaseResult],
    name: &str,
    title: &str,
    (legend, panels): (Vec<LegendItem>, Vec<Panel>),
    panel_height: u32,
) -> Chart {
    let mut chart = Chart {
        stem: stem(System::CortexConflict, name),
        title: title.into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels,
        columns: 2,
        width: 1600,
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(results, &[]));
    chart.notes.push(method_note(results, true));
    chart.fit_height(panel_height);
    chart
}

/// The outcomes of `final_*_stress` in table order, with their colours:
/// no stress grey, d4 .. d12 dark to light, out vermillion.
fn stress_series() -> Vec<BarSeries> {
    let sizes = DIE_SIZES;
    let mut series = vec![BarSeries {
        name: "none".into(),
        colour: GREY,
        values: Vec::new(),
    }];
    for (i, size) in sizes.iter().enumerate() {
        series.push(BarSeries {
            name: size.to_string(),
            colour: sequential(0.08 + 0.84 * i as f64 / 4.0),
            values: Vec::new(),
        });
    }
    series.push(BarSeries {
        name: "out".into(),
        colour: Colour(213, 94, 0),
        values: Vec::new(),
    });
    series
}

fn final_stress(results: &[&CaseResult], groups: &[Group<'_>]) -> Option<Chart> {
    if results.is_empty() {
        return None;
    }
    let mut panels = Vec::new();
    let mut most_bars = 0;
    for g in groups {
        for (_, title, _, stress) in SIDES {
            let mut series = stress_series();
            let mut categories = Vec::new();
            for (r, line) in &g.cases {
                categories.push(line.clone());
                let rows = distribution(r, stress.name);
                let parts: Vec<(f64, Option<(f64, f64)>)> = series
                    .iter()
                    .map(|s| {
                        let p = rows.iter().find(|(o, _)| *o == s.name).map_or(0.0, |r| r.1);
                        (p, None)
                    })
                    .collect();
                for (s, v) in series.iter_mut().zip(stacked_segments(r, &parts)) {
                    s.values.push(v);
                }
            }
            most_bars = most_bars.max(categories.len());
            panels.push(Panel {
                caption: Some(caption(&g.name, &format!("{title}'s stress at the end"))),
                plot: Plot::Bars(Bars {
                    horizontal: true,
                    stacked: true,
                    categories,
                    category_label: "Case".into(),
                    series,
                    axis: Axis::percent("Share of fights, %"),
                    value_labels: true,
                }),
            });
        }
    }
    Some(two_columns(
        results,
        "final-stress",
        "Stress at the end of the fight",
        (bar_legend(&stress_series()), panels),
        110 + 46 * most_bars as u32,
    ))
}
