//! Charts of Storytelling pools rolled more than once (docs/storytelling.md):
//! for extended actions, the chance the action has succeeded by roll k (the
//! running total of the `success_roll` distribution), one line per pool,
//! one panel per number of successes and reroll rule; for contested
//! actions, a heat map of the roller's chance to win, the roller's dice
//! down and the opponent's across.

use super::model::{sequential, Axis, Chart, Heatmap, LineSeries, Lines, Panel, Plot, Point};
use super::{
    columns_for, distribution, fixed_rules_note, input_int, input_int_or_default, label_of,
    method_note, metric, share, stem, varying_keys, width_for,
};
use crate::report::CaseResult;
use crate::systems::metrics::MetricRef;
use crate::systems::storytelling::keys::{
    DICE, EXCEPTIONAL, EXTENDED, MODIFIER, NEED, ROLLS, VS_DICE, VS_MODIFIER,
};
use crate::systems::storytelling::metrics as m;
use crate::systems::System;

/// The metrics these charts draw (the success curves' heights at the last
/// roll, the heat map's cells) and stand for.
pub const METRICS_DRAWN: &[MetricRef] = &[
    MetricRef::One(m::P_EXTENDED_SUCCESS),
    MetricRef::One(m::MEAN_ROLLS_TO_SUCCESS),
    MetricRef::One(m::P_EXTENDED_DRAMATIC),
    MetricRef::One(m::P_WIN),
    MetricRef::One(m::P_TIE),
    MetricRef::One(m::MEAN_NET_SUCCESSES),
];

/// Where `metric` comes among the Storytelling charts' metrics: these
/// charts' first (each report's results table shows those its cases have,
/// in this order), then the single-roll charts'.
pub fn drawn_rank(metric: &str) -> Option<usize> {
    METRICS_DRAWN
        .iter()
        .chain(super::storytelling::METRICS_DRAWN)
        .position(|d| d.matches(metric))
}

/// Whether a result is an extended or a contested action, which these
/// charts draw and the single-roll charts leave out.
pub fn is_action(r: &CaseResult) -> bool {
    r.inputs.contains_key(EXTENDED.name) || r.inputs.contains_key(VS_DICE.name)
}

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let extended: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| r.inputs.contains_key(EXTENDED.name))
        .filter(|r| !distribution(r, m::SUCCESS_ROLL.name).is_empty())
        .collect();
    let contests: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| r.inputs.contains_key(VS_DICE.name))
        .filter(|r| metric(r, m::P_WIN.name).is_some())
        .collect();
    let mut out = Vec::new();
    if !extended.is_empty() {
        out.push(by_roll(&extended));
    }
    if !contests.is_empty() {
        out.push(contest(&contests));
    }
    out
}

/// Dice rolled: `dice + modifier`, 0 for the chance die.
fn pool_size(
    r: &CaseResult,
    dice: &crate::options::KeyDef,
    modifier: &crate::options::KeyDef,
) -> i64 {
    (input_int(r, dice).unwrap_or(0) + input_int_or_default(r, modifier)).max(0)
}

/// "chance die", "1 die", "5 dice".
fn dice_words(size: i64) -> String {
    match size {
        0 => "chance die".to_string(),
        1 => "1 die".to_string(),
        n => format!("{n} dice"),
    }
}

/// `(k, P(succeeded by roll k))` for k = 1 .. rolls.
fn by_roll_points(r: &CaseResult) -> Vec<(i64, f64)> {
    let mut total = 0.0;
    distribution(r, m::SUCCESS_ROLL.name)
        .into_iter()
        .filter_map(|(o, p)| {
            let k = o.parse::<i64>().ok()?;
            total += p;
            Some((k, total))
        })
        .collect()
}

/// Inputs that place an extended action on a line (the pool, its rolls)
/// or only change a single-roll metric.
const NOT_PANEL: [&str; 6] = [
    DICE.name,
    MODIFIER.name,
    ROLLS.name,
    NEED.name,
    EXCEPTIONAL.name,
    EXTENDED.name,
];

/// The chance an extended action has succeeded by each roll: one panel per
/// number of successes to gather and per variant of the other rules, a
/// line per pool, darker for smaller pools.
fn by_roll(results: &[&CaseResult]) -> Chart {
    let keys = varying_keys(results, &NOT_PANEL);
    // Panels: the successes to gather, then the variant, in first-seen order.
    let mut panels_of: Vec<(i64, String, Vec<&CaseResult>)> = Vec::new();
    for &r in results {
        let extended = input_int(r, &EXTENDED).unwrap_or(0);
        let variant = super::storytelling::variant_label(r, &keys);
        match panels_of
            .iter_mut()
            .find(|(e, v, _)| *e == extended && *v == variant)
        {
            Some((_, _, cases)) => cases.push(r),
            None => panels_of.push((extended, variant, vec![r])),
        }
    }
    panels_of.sort_by_key(|(e, _, _)| *e);
    let mut sizes: Vec<i64> = results
        .iter()
        .map(|r| pool_size(r, &DICE, &MODIFIER))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let colour = |size: i64| {
        let i = sizes.iter().position(|&s| s == size).unwrap_or(0);
        let t = if sizes.len() > 1 {
            0.85 * i as f64 / (sizes.len() - 1) as f64
        } else {
            0.0
        };
        sequential(t)
    };
    let most_rolls = results
        .iter()
        .filter_map(|r| input_int(r, &ROLLS))
        .max()
        .unwrap_or(1);
    let x_ticks: Vec<(f64, String)> = (1..=most_rolls)
        .map(|k| (k as f64, k.to_string()))
        .collect();
    // Rolls shown in a line's name only where they are not the pool's own
    // default (docs/storytelling.md: as many rolls as dice).
    let rolls_follow_dice = results
        .iter()
        .all(|r| input_int(r, &ROLLS) == Some(input_int(r, &DICE).unwrap_or(0).clamp(1, 100)));
    let mut panels = Vec::new();
    let mut legend_series: Vec<LineSeries> = Vec::new();
    for (extended, variant, cases) in &panels_of {
        let mut series: Vec<LineSeries> = Vec::new();
        for r in cases {
            let size = pool_size(r, &DICE, &MODIFIER);
            let rolls = input_int(r, &ROLLS).unwrap_or(1);
            let name = if rolls_follow_dice {
                dice_words(size)
            } else {
                format!("{}, {rolls} rolls", dice_words(size))
            };
            if series.iter().any(|s| s.name == name) {
                continue;
            }
            let points = by_roll_points(r)
                .into_iter()
                .map(|(k, p)| Point {
                    x: k as f64,
                    y: share(r, p),
                })
                .collect();
            series.push(LineSeries {
                name,
                colour: colour(size),
                marker: sizes.iter().position(|&s| s == size).unwrap_or(0),
                points,
            });
        }
        for s in &series {
            if !legend_series.iter().any(|l| l.name == s.name) {
                legend_series.push(s.clone());
            }
        }
        let successes = if *extended == 1 {
            "1 success".to_string()
        } else {
            format!("{extended} successes")
        };
        let caption = if variant.is_empty() {
            format!("Gather {successes}")
        } else {
            format!("Gather {successes} · {variant}")
        };
        panels.push(Panel {
            caption: Some(caption),
            plot: Plot::Lines(Lines {
                series,
                x_label: "Roll".into(),
                x_ticks: x_ticks.clone(),
                axis: Axis::percent("Succeeded by this roll, %"),
                step: false,
            }),
        });
    }
    // Legend: pools smallest first, whatever order the panels met them in.
    legend_series.sort_by_key(|s| s.marker);
    let legend = super::model::line_legend(&legend_series);
    let variants = group_count(&panels_of);
    let columns = if (2..=4).contains(&variants) {
        variants
    } else {
        columns_for(panels.len())
    };
    let mut chart = Chart {
        stem: stem(System::Storytelling, "extended-by-roll"),
        title: "Extended actions: chance to have gathered the successes by roll k".into(),
        notes: vec![
            "Each line ends at its last roll allowed (as many rolls as dice unless set); its height there is the chance the action succeeds. A dramatic failure ends an action.".into(),
        ],
        warnings: Vec::new(),
        legend,
        panels,
        columns,
        width: if columns >= 4 { 2200 } else { width_for(columns) },
        height: super::model::MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(results, &NOT_PANEL));
    chart.notes.push(method_note(results, true));
    chart.fit_height(if columns == 1 { 560 } else { 400 });
    chart
}

/// How many variants (panels per number of successes) there are.
fn group_count(panels: &[(i64, String, Vec<&CaseResult>)]) -> usize {
    let mut variants: Vec<&String> = panels.iter().map(|(_, v, _)| v).collect();
    variants.sort();
    variants.dedup();
    variants.len()
}

/// Inputs that place a contest on the heat map's grid, or only change a
/// single-roll metric.
const NOT_ROW: [&str; 6] = [
    DICE.name,
    MODIFIER.name,
    VS_DICE.name,
    VS_MODIFIER.name,
    NEED.name,
    EXCEPTIONAL.name,
];

/// The roller's chance to win, roller's pools down, opponent's across: a
/// heat map per variant of the other rules that spans a grid (two pools or
/// more each way); contests off any grid (one even match under another tie
/// rule) are named in a note and stay in the tables.
fn contest(results: &[&CaseResult]) -> Chart {
    let keys = varying_keys(results, &NOT_ROW);
    let mut variants: Vec<(String, Vec<&CaseResult>)> = Vec::new();
    for &r in results {
        let variant = label_of(r, &keys);
        match variants.iter_mut().find(|(v, _)| *v == variant) {
            Some((_, cases)) => cases.push(r),
            None => variants.push((variant, vec![r])),
        }
    }
    let mine = |r: &CaseResult| pool_size(r, &DICE, &MODIFIER);
    let theirs = |r: &CaseResult| pool_size(r, &VS_DICE, &VS_MODIFIER);
    let sizes = |cases: &[&CaseResult], of: &dyn Fn(&CaseResult) -> i64| {
        let mut all: Vec<i64> = cases.iter().map(|r| of(r)).collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    let on_grid =
        |cases: &[&CaseResult]| sizes(cases, &mine).len() >= 2 && sizes(cases, &theirs).len() >= 2;
    let any_grid = variants.iter().any(|(_, cases)| on_grid(cases));
    let mut panels = Vec::new();
    let mut off_grid: Vec<&str> = Vec::new();
    let mut widest = 0;
    let mut tallest = 0;
    for (variant, cases) in &variants {
        if any_grid && !on_grid(cases) {
            off_grid.extend(cases.iter().map(|r| r.case.as_str()));
            continue;
        }
        let rows = sizes(cases, &mine);
        let columns = sizes(cases, &theirs);
        let mut cells = vec![vec![None; columns.len()]; rows.len()];
        for r in cases {
            let ri = rows.iter().position(|&x| x == mine(r)).unwrap_or(0);
            let ci = columns.iter().position(|&c| c == theirs(r)).unwrap_or(0);
            if cells[ri][ci].is_none() {
                cells[ri][ci] = metric(r, m::P_WIN.name);
            }
        }
        widest = widest.max(columns.len() as u32);
        tallest = tallest.max(rows.len() as u32);
        panels.push(Panel {
            caption: (!variant.is_empty()).then(|| variant.clone()),
            plot: Plot::Heatmap(Heatmap {
                rows: rows.into_iter().map(dice_words).collect(),
                columns: columns.into_iter().map(dice_words).collect(),
                cells,
                x_label: "Opponent's pool".into(),
                y_label: "Roller's pool".into(),
                scale_label: "P(roller wins), %".into(),
            }),
        });
    }
    // One grid needs no caption: the rules note says what it holds.
    if let [only] = panels.as_mut_slice() {
        only.caption = None;
    }
    let drawn: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !off_grid.contains(&r.case.as_str()))
        .collect();
    let columns = columns_for(panels.len()).min(2);
    let mut chart = Chart {
        stem: stem(System::Storytelling, "contest"),
        title: "Contested actions: chance the roller wins".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend: Vec::new(),
        panels,
        columns,
        width: super::model::MIN_WIDTH.max(columns as u32 * (420 + 100 * widest)),
        height: super::model::MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&drawn, &NOT_ROW));
    if !off_grid.is_empty() {
        chart.notes.push(format!(
            "Not on the grid, in the tables: {}.",
            off_grid.join("; ")
        ));
    }
    chart.notes.push(method_note(&drawn, false));
    chart.fit_height(200 + 56 * tallest);
    chart
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    fn find(charts: &[Chart], stem: &str) -> Chart {
        charts
            .iter()
            .find(|c| c.stem == stem)
            .cloned()
            .unwrap_or_else(|| panic!("no chart {stem}"))
    }

    #[test]
    fn actions_get_their_charts_and_not_the_single_roll_ones() {
        for mc in [false, true] {
            let report = fixture::storytelling_actions(mc);
            let charts = super::super::charts(&report);
            let stems: Vec<&str> = charts.iter().map(|c| c.stem.as_str()).collect();
            assert_eq!(
                stems,
                ["storytelling-extended-by-roll", "storytelling-contest"]
            );
            for chart in &charts {
                let png = super::super::render::png(chart).unwrap();
                assert!(png.len() > 10_000, "{}", chart.stem);
            }
        }
    }

    #[test]
    fn each_line_climbs_to_the_chance_the_action_succeeds() {
        let report = fixture::storytelling_actions(false);
        let chart = find(
            &super::super::charts(&report),
            "storytelling-extended-by-roll",
        );
        // Two numbers of successes by two variants; a line per pool.
        assert_eq!(chart.panels.len(), 4);
        assert_eq!(chart.columns, 2);
        for panel in &chart.panels {
            let Plot::Lines(lines) = &panel.plot else {
                panic!("a line chart")
            };
            assert_eq!(lines.series.len(), 2);
            for s in &lines.series {
                let ys: Vec<f64> = s.points.iter().map(|p| p.y.value).collect();
                assert!(ys.windows(2).all(|w| w[0] <= w[1]), "{ys:?}");
            }
        }
        // The 5-dice, 10-success, 10-again line ends at its p_extended_success.
        let case = report
            .results
            .iter()
            .find(|r| r.case == "dice=5, extended=10, rote=false")
            .unwrap();
        let p = metric(case, m::P_EXTENDED_SUCCESS.name).unwrap();
        let panel = chart
            .panels
            .iter()
            .find(|p| p.caption.as_deref() == Some("Gather 10 successes · 10-again"))
            .unwrap();
        let Plot::Lines(lines) = &panel.plot else {
            unreachable!()
        };
        let five = lines.series.iter().find(|s| s.name == "5 dice").unwrap();
        assert_eq!(five.points.len(), 5);
        let last = five.points.last().unwrap().y.value;
        assert!((last - p).abs() < 1e-12, "{last} vs {p}");
    }

    #[test]
    fn the_heat_map_holds_each_p_win_and_names_the_contest_off_the_grid() {
        let report = fixture::storytelling_actions(false);
        let chart = find(&super::super::charts(&report), "storytelling-contest");
        assert_eq!(chart.panels.len(), 1);
        let Plot::Heatmap(h) = &chart.panels[0].plot else {
            panic!("a heat map")
        };
        assert_eq!(h.rows, ["1 die", "2 dice", "3 dice"]);
        assert_eq!(h.columns, ["1 die", "2 dice"]);
        let case = report
            .results
            .iter()
            .find(|r| r.case == "dice=3 vs 2")
            .unwrap();
        assert_eq!(h.cells[2][1], metric(case, m::P_WIN.name));
        assert!(
            chart.notes.iter().any(|n| n.contains("even, rerolled")),
            "{:?}",
            chart.notes
        );
    }
}
