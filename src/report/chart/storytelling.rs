//! Storytelling charts: P(at least k successes) against the pool
//! size, one line per `again`/rote variant, and the success-count
//! distribution of chosen pools. Both read the `successes` distribution
//! (docs/storytelling.md), so any k can be drawn; the pool size is `dice + modifier`, and
//! a pool of 0 or less is the chance die.

use super::model::{
    self, line_legend, palette, Axis, BarSeries, Bars, Chart, LegendItem, LineSeries, Lines, Panel,
    Plot, Point, MIN_HEIGHT, MIN_WIDTH,
};
use super::{
    at_least_of, columns_for, distribution, fixed_rules_note, input_int, input_int_or_default,
    input_on, labels, method_note, share, stem, tail_from, varying_keys, width_for,
};
use crate::report::CaseResult;
use crate::systems::metrics::MetricRef;
use crate::systems::storytelling::keys::{AGAIN, DICE, EXCEPTIONAL, MODIFIER, NEED, ROTE};
use crate::systems::storytelling::metrics as m;
use crate::systems::System;

/// The k of the P(at least k) panels: the columns of the published
/// 10-again tables (published tables), 5 being the default exceptional success.
const KS: [i64; 4] = [1, 2, 3, 5];

/// Inputs that place a case on the pool-size axis or only change which
/// metric is read, not the distribution of successes.
const NOT_VARIANT: [&str; 4] = [DICE.name, MODIFIER.name, NEED.name, EXCEPTIONAL.name];

/// These charts draw the `successes` distribution rather than metrics; the
/// metrics read off it (at least `need`, at least `exceptional`, and the
/// chance die's dramatic failure) stand for it in the results tables
/// (see `super::shows_metric`).
pub const METRICS_DRAWN: &[MetricRef] = &[
    MetricRef::One(m::P_SUCCESS),
    MetricRef::One(m::P_EXCEPTIONAL),
    MetricRef::One(m::P_DRAMATIC),
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let usable: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| !successes(r).is_empty())
        .collect();
    if usable.is_empty() {
        return Vec::new();
    }
    vec![at_least(&usable), distributions(&usable)]
}

/// `(successes, probability)` of a result.
fn successes(r: &CaseResult) -> Vec<(i64, f64)> {
    distribution(r, m::SUCCESSES.name)
        .into_iter()
        .filter_map(|(o, p)| o.parse::<i64>().ok().map(|k| (k, p)))
        .collect()
}

/// `(k, P(successes >= k))` of a result (`distributions.csv`'s `at_least`).
fn at_least_k(r: &CaseResult) -> Vec<(i64, f64)> {
    at_least_of(r, "successes")
}

/// Dice rolled: `dice + modifier`, 0 for the chance die.
fn pool_size(r: &CaseResult) -> i64 {
    let pool = input_int(r, &DICE).unwrap_or(0) + input_int_or_default(r, &MODIFIER);
    pool.max(0)
}

/// "10-again", "9-again + rote", "no again, a die succeeds on 7+" (other
/// keys in the words of `labels::phrase`).
pub(super) fn variant_label(r: &CaseResult, keys: &[String]) -> String {
    let again = match input_int(r, &AGAIN) {
        Some(0) => "no again".to_string(),
        Some(a) => format!("{a}-again"),
        None => "10-again".to_string(),
    };
    let rote = input_on(r, &ROTE);
    let mut label = if rote {
        format!("{again} + rote")
    } else {
        again
    };
    for k in keys {
        if k == AGAIN.name || k == ROTE.name {
            continue;
        }
        if let Some(v) = r.inputs.get(k) {
            label.push_str(&format!(", {}", labels::phrase(k, v)));
        }
    }
    label
}

/// The variants (cases grouped by every input but the pool size), each
/// with its cases, in first-seen order.
fn variants<'a>(results: &[&'a CaseResult]) -> Vec<(String, Vec<&'a CaseResult>)> {
    let keys = varying_keys(results, &NOT_VARIANT);
    let mut out: Vec<(String, Vec<&CaseResult>)> = Vec::new();
    for r in results {
        let label = variant_label(r, &keys);
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, cases)) => cases.push(r),
            None => out.push((label, vec![r])),
        }
    }
    out
}

fn at_least(results: &[&CaseResult]) -> Chart {
    let groups = variants(results);
    let mut sizes: Vec<i64> = results.iter().map(|r| pool_size(r)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let lo = sizes.first().copied().unwrap_or(0);
    let hi = sizes.last().copied().unwrap_or(0);
    let x_ticks: Vec<(f64, String)> = (lo..=hi)
        .map(|s| {
            let label = if s == 0 {
                "chance".to_string()
            } else {
                s.to_string()
            };
            (s as f64, label)
        })
        .collect();
    let exceptional_is_5 = results
        .iter()
        .all(|r| input_int_or_default(r, &EXCEPTIONAL) == 5);
    let mut panels = Vec::new();
    let mut legend = Vec::new();
    for k in KS {
        let mut series = Vec::new();
        for (i, (label, cases)) in groups.iter().enumerate() {
            let mut points: Vec<Point> = Vec::new();
            for r in cases {
                let x = pool_size(r) as f64;
                // Cases differing only in `need` or `exceptional` share a point.
                if points.iter().any(|p| p.x == x) {
                    continue;
                }
                let p = tail_from(&at_least_k(r), k);
                points.push(Point { x, y: share(r, p) });
            }
            series.push(LineSeries {
                name: label.clone(),
                colour: palette(i),
                marker: i,
                points,
            });
        }
        if legend.is_empty() {
            legend = line_legend(&series);
        }
        let caption = match k {
            1 => "At least 1 success".to_string(),
            5 if exceptional_is_5 => "At least 5 successes (exceptional)".to_string(),
            k => format!("At least {k} successes"),
        };
        panels.push(Panel {
            caption: Some(caption),
            plot: Plot::Lines(Lines {
                series,
                x_label: "Dice in the pool".into(),
                x_ticks: x_ticks.clone(),
                axis: Axis::percent("P(at least k), %"),
                step: false,
            }),
        });
    }
    let mut chart = Chart {
        stem: stem(System::Storytelling, "at-least-k"),
        title: "Chance of at least k successes by pool size".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels,
        columns: 2,
        width: MIN_WIDTH,
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(
        results,
        &[DICE.name, MODIFIER.name, NEED.name, EXCEPTIONAL.name],
    ));
    chart.notes.push(method_note(results, true));
    chart.fit_height(430);
    chart
}

/// Most panels (variants) the success-count chart draws; past it, a note
/// says how many were left out.
const MAX_VARIANT_PANELS: usize = 9;

/// The pool sizes the success-count chart shows: every size when there are
/// at most five, else five evenly spread sizes (the smallest, the largest
/// and three between).
fn chosen_sizes(results: &[&CaseResult]) -> Vec<i64> {
    let mut sizes: Vec<i64> = results.iter().map(|r| pool_size(r)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.len() <= 5 {
        return sizes;
    }
    let last = sizes.len() - 1;
    let mut picks: Vec<usize> = (0..5).map(|i| (i * last + 2) / 4).collect();
    picks.dedup();
    picks.into_iter().map(|i| sizes[i]).collect()
}

/// "chance die", "1 die", "5 dice".
fn size_name(size: i64) -> String {
    match size {
        0 => "chance die".to_string(),
        1 => "1 die".to_string(),
        n => format!("{n} dice"),
    }
}

/// The success-count distribution of a few pool sizes, one panel per
/// variant (every `again`/rote variant is shown, none dropped), the sizes
/// coloured alike in every panel.
fn distributions(results: &[&CaseResult]) -> Chart {
    let groups = variants(results);
    let shown = groups.len().min(MAX_VARIANT_PANELS);
    let sizes = chosen_sizes(results);
    // Per variant, the first case of each chosen size.
    let picked: Vec<(&String, Vec<Option<&CaseResult>>)> = groups[..shown]
        .iter()
        .map(|(label, cases)| {
            let per_size = sizes
                .iter()
                .map(|&size| cases.iter().copied().find(|r| pool_size(r) == size))
                .collect();
            (label, per_size)
        })
        .collect();
    let drawn: Vec<&CaseResult> = picked
        .iter()
        .flat_map(|(_, cases)| cases.iter().flatten().copied())
        .collect();
    // The chance die's 90 % failure would flatten every other bar: beside
    // real pools it gets a panel and a scale of its own.
    let chance_apart = sizes.len() > 1 && sizes[0] == 0;
    let is_pool = |r: &&CaseResult| !chance_apart || pool_size(r) > 0;
    let pools: Vec<&CaseResult> = drawn.iter().copied().filter(is_pool).collect();
    let (categories, top, tail, left) = success_categories(&pools);
    let mut panels = Vec::new();
    let mut top_share: f64 = 0.0;
    for (label, per_size) in &picked {
        let series: Vec<BarSeries> = sizes
            .iter()
            .zip(per_size)
            .enumerate()
            .filter(|(_, (&size, _))| !chance_apart || size > 0)
            .filter_map(|(i, (&size, r))| {
                let values = success_bars(r.as_ref()?, top, tail);
                top_share = values
                    .iter()
                    .flatten()
                    .fold(top_share, |m, v| m.max(v.value));
                Some(BarSeries {
                    name: size_name(size),
                    colour: palette(i),
                    values,
                })
            })
            .collect();
        panels.push(Panel {
            caption: (groups.len() > 1).then(|| (*label).clone()),
            plot: Plot::Bars(Bars {
                horizontal: false,
                stacked: false,
                categories: categories.clone(),
                category_label: "Successes rolled".into(),
                series,
                axis: Axis {
                    max: None,
                    ..Axis::percent("Share of rolls, %")
                },
                value_labels: false,
            }),
        });
    }
    // One scale for every panel, so the variants compare at a glance.
    for panel in &mut panels {
        if let Plot::Bars(b) = &mut panel.plot {
            b.axis.max = Some(((top_share * 1.02 * 10.0).ceil() / 10.0).min(1.0));
        }
    }
    let mut chance_legend = Vec::new();
    if chance_apart {
        let (panel, legend) = chance_panel(&picked, sizes.len());
        panels.insert(0, panel);
        chance_legend = legend;
    }
    let mut legend: Vec<LegendItem> = sizes
        .iter()
        .enumerate()
        .filter(|(_, &size)| !chance_apart || size > 0)
        .map(|(i, &size)| LegendItem {
            name: size_name(size),
            colour: palette(i),
            line: false,
            marker: 0,
        })
        .collect();
    legend.extend(chance_legend);
    // Past a dozen counts a panel needs half a wide canvas for its bars and
    // tick labels to read.
    let many = top > 12;
    let columns = match columns_for(panels.len()) {
        c if many => c.min(2),
        c => c,
    };
    let mut chart = Chart {
        stem: stem(System::Storytelling, "successes"),
        title: "How many successes a roll scores".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels,
        columns,
        width: if many && columns > 1 {
            2000
        } else {
            width_for(columns)
        },
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(&drawn, &NOT_VARIANT));
    if groups.len() > shown {
        chart.notes.push(format!(
            "The first {shown} of {} variants are drawn; summary.csv has every case.",
            groups.len()
        ));
    }
    if chance_apart {
        chart
            .notes
            .push("The chance die has its own panel and scale; the pools share one.".into());
    }
    if left > TAIL_SHARE {
        chart.cut(format!(
            "The last bar, {top}+, holds up to {} of a pool's rolls: the axis stops at {MAX_SHOWN_SUCCESSES} successes.",
            crate::report::format::percent(left)
        ));
    }
    chart.notes.push(method_note(&drawn, true));
    chart.fit_height(if columns == 1 { 600 } else { 420 });
    chart
}

/// The success counts are shown one by one until every drawn pool's
/// chance of more is at most this, and a last bar "N+" gathers the rest ...
const TAIL_SHARE: f64 = 0.005;

/// ... up to this many successes, past which the chart says what its last
/// bar holds.
const MAX_SHOWN_SUCCESSES: i64 = 30;

/// The success-count categories for `results`: `0`, `1`, .. and "N+" if
/// any result has N or more; with N, whether the "N+" bar is there, and
/// the largest share it holds.
fn success_categories(results: &[&CaseResult]) -> (Vec<String>, i64, bool, f64) {
    let tails: Vec<Vec<(i64, f64)>> = results.iter().map(|r| at_least_k(r)).collect();
    let left = |top: i64| tails.iter().map(|t| tail_from(t, top)).fold(0.0, f64::max);
    let mut top = 2;
    while top < MAX_SHOWN_SUCCESSES && left(top) > TAIL_SHARE {
        top += 1;
    }
    let tail = left(top) > 0.0;
    let mut categories: Vec<String> = (0..top).map(|k| k.to_string()).collect();
    if tail {
        categories.push(format!("{top}+"));
    }
    (categories, top, tail, left(top))
}

/// A result's bars over [`success_categories`]: the share of each count
/// below `top`, then (with `tail`) of `top` or more.
fn success_bars(r: &CaseResult, top: i64, tail: bool) -> Vec<Option<model::Value>> {
    let d = successes(r);
    let mut values: Vec<_> = (0..top)
        .map(|k| {
            let p = d.iter().filter(|(o, _)| *o == k).map(|(_, p)| p).sum();
            Some(share(r, p))
        })
        .collect();
    if tail {
        values.push(Some(share(r, tail_from(&at_least_k(r), top))));
    }
    values
}

/// The chance die's panel, on its own scale: one bar series for every
/// variant whose chance die rolls alike ("chance die" when all do), in
/// the chance die's colour and then colours past the pools'
/// `pool_colours`, with their legend entries.
fn chance_panel(
    picked: &[(&String, Vec<Option<&CaseResult>>)],
    pool_colours: usize,
) -> (Panel, Vec<LegendItem>) {
    let chance: Vec<(&String, &CaseResult)> = picked
        .iter()
        .filter_map(|(label, per_size)| Some((*label, per_size.first().copied().flatten()?)))
        .collect();
    let results: Vec<&CaseResult> = chance.iter().map(|c| c.1).collect();
    let (categories, top, tail, _) = success_categories(&results);
    // Variants whose chance die rolls the same share one series.
    let mut series: Vec<(Vec<String>, Vec<Option<model::Value>>)> = Vec::new();
    for (label, r) in &chance {
        let values = success_bars(r, top, tail);
        let same = |other: &Vec<Option<model::Value>>| {
            other.iter().zip(&values).all(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => (a.value - b.value).abs() < 1e-12,
                _ => a.is_none() && b.is_none(),
            })
        };
        match series.iter_mut().find(|(_, v)| same(v)) {
            Some((labels, _)) => labels.push((*label).clone()),
            None => series.push((vec![(*label).clone()], values)),
        }
    }
    let one = series.len() == 1;
    let series: Vec<BarSeries> = series
        .into_iter()
        .enumerate()
        .map(|(i, (labels, values))| BarSeries {
            name: if one {
                "chance die".to_string()
            } else {
                format!("chance die, {}", labels.join(" / "))
            },
            // The chance die's own colour first (the pools' first slot),
            // then colours no pool uses.
            colour: if i == 0 {
                palette(0)
            } else {
                palette(pool_colours + i - 1)
            },
            values,
        })
        .collect();
    let legend = series
        .iter()
        .map(|s| LegendItem {
            name: s.name.clone(),
            colour: s.colour,
            line: false,
            marker: 0,
        })
        .collect();
    let panel = Panel {
        caption: Some("Chance die (own scale)".into()),
        plot: Plot::Bars(Bars {
            horizontal: false,
            stacked: false,
            categories,
            category_label: "Successes rolled".into(),
            series,
            axis: Axis::percent("Share of rolls, %"),
            value_labels: true,
        }),
    };
    (panel, legend)
}
