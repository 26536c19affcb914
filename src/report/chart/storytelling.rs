//! Storytelling charts (issue 6): P(at least k successes) against the pool
//! size, one line per `again`/rote variant, and the success-count
//! distribution of chosen pools. Both read the `successes` distribution
//! (SPEC 3), so any k can be drawn; the pool size is `dice + modifier`, and
//! a pool of 0 or less is the chance die.

use super::model::{
    bar_legend, line_legend, palette, Axis, BarSeries, Bars, Chart, LineSeries, Lines, Panel, Plot,
    Point, MIN_HEIGHT, MIN_WIDTH,
};
use super::{
    distribution, fixed_rules_note, input_int, input_text, method_note, share, stem, varying_keys,
};
use crate::report::CaseResult;
use crate::systems::System;

/// The k of the P(at least k) panels: the columns of the published
/// 10-again tables (REFERENCE.md), 5 being the default exceptional success.
const KS: [i64; 4] = [1, 2, 3, 5];

/// Inputs that place a case on the pool-size axis or only change which
/// metric is read, not the distribution of successes.
const NOT_VARIANT: [&str; 4] = ["dice", "modifier", "need", "exceptional"];

/// These charts draw the `successes` distribution rather than metrics; the
/// metrics read off it (at least `need`, at least `exceptional`, and the
/// chance die's dramatic failure) stand for it in the results tables
/// (see `super::shows_metric`).
pub const METRICS_DRAWN: &[&str] = &["p_success", "p_exceptional", "p_dramatic"];

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
    distribution(r, "successes")
        .into_iter()
        .filter_map(|(o, p)| o.parse::<i64>().ok().map(|k| (k, p)))
        .collect()
}

fn at_least_k(dist: &[(i64, f64)], k: i64) -> f64 {
    dist.iter().filter(|(o, _)| *o >= k).map(|(_, p)| p).sum()
}

/// Dice rolled: `dice + modifier`, 0 for the chance die.
fn pool_size(r: &CaseResult) -> i64 {
    let pool = input_int(r, "dice").unwrap_or(0) + input_int(r, "modifier").unwrap_or(0);
    pool.max(0)
}

/// "10-again", "9-again + rote", "no again, target=7".
fn variant_label(r: &CaseResult, keys: &[String]) -> String {
    let again = match input_int(r, "again") {
        Some(0) => "no again".to_string(),
        Some(a) => format!("{a}-again"),
        None => "10-again".to_string(),
    };
    let rote = r.inputs.get("rote").and_then(|v| v.as_bool()) == Some(true);
    let mut label = if rote {
        format!("{again} + rote")
    } else {
        again
    };
    for k in keys {
        if k == "again" || k == "rote" {
            continue;
        }
        if let Some(v) = r.inputs.get(k) {
            label.push_str(&format!(", {k}={}", input_text(v)));
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
        .all(|r| input_int(r, "exceptional").unwrap_or(5) == 5);
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
                let p = at_least_k(&successes(r), k);
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
        legend,
        panels,
        columns: 2,
        width: MIN_WIDTH,
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(
        results,
        &["dice", "modifier", "need", "exceptional"],
    ));
    chart.notes.push(method_note(results, true));
    chart.fit_height(430);
    chart
}

/// Up to six pools: all when there are that few, else five evenly spread
/// sizes of the first variant.
fn chosen_pools<'a>(results: &[&'a CaseResult]) -> Vec<&'a CaseResult> {
    if results.len() <= 6 {
        return results.to_vec();
    }
    let groups = variants(results);
    let mut first: Vec<&CaseResult> = groups
        .into_iter()
        .next()
        .map(|(_, cases)| cases)
        .unwrap_or_default();
    first.sort_by_key(|r| pool_size(r));
    first.dedup_by_key(|r| pool_size(r));
    if first.len() <= 5 {
        return first;
    }
    let last = first.len() - 1;
    let mut picks: Vec<usize> = (0..5).map(|i| (i * last + 2) / 4).collect();
    picks.dedup();
    picks.into_iter().map(|i| first[i]).collect()
}

fn distributions(results: &[&CaseResult]) -> Chart {
    let chosen = chosen_pools(results);
    let dists: Vec<Vec<(i64, f64)>> = chosen.iter().map(|r| successes(r)).collect();
    // Show counts up to where every pool's tail is below half a percent;
    // the last bar gathers the rest ("6+").
    let mut top = 2;
    while top < 12 && dists.iter().any(|d| at_least_k(d, top) > 0.005) {
        top += 1;
    }
    let tail = dists.iter().any(|d| at_least_k(d, top) > 0.0);
    let mut categories: Vec<String> = (0..top).map(|k| k.to_string()).collect();
    if tail {
        categories.push(format!("{top}+"));
    }
    // Name each pool by its size, adding the variant when they differ.
    let variant_keys = varying_keys(&chosen, &NOT_VARIANT);
    let name = |r: &CaseResult| {
        let size = match pool_size(r) {
            0 => "chance die".to_string(),
            1 => "1 die".to_string(),
            n => format!("{n} dice"),
        };
        if variant_keys.is_empty() {
            size
        } else {
            format!("{size}, {}", variant_label(r, &variant_keys))
        }
    };
    let series: Vec<BarSeries> = chosen
        .iter()
        .zip(&dists)
        .enumerate()
        .map(|(i, (r, d))| {
            let mut values: Vec<_> = (0..top)
                .map(|k| {
                    let p = d.iter().filter(|(o, _)| *o == k).map(|(_, p)| p).sum();
                    Some(share(r, p))
                })
                .collect();
            if tail {
                values.push(Some(share(r, at_least_k(d, top))));
            }
            BarSeries {
                name: name(r),
                colour: palette(i),
                values,
            }
        })
        .collect();
    let mut chart = Chart::single(
        &stem(System::Storytelling, "successes"),
        "How many successes a roll scores",
        Plot::Bars(Bars {
            horizontal: false,
            stacked: false,
            categories,
            category_label: "Successes rolled".into(),
            series: series.clone(),
            axis: Axis {
                max: None,
                ..Axis::percent("Share of rolls, %")
            },
            value_labels: false,
        }),
    );
    chart.legend = bar_legend(&series);
    chart.notes.extend(fixed_rules_note(
        &chosen,
        &["dice", "modifier", "need", "exceptional"],
    ));
    chart.notes.push(method_note(&chosen, true));
    chart
}
