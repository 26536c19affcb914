//! Cortex charts: the `p_success` heatmap of hero pools against
//! opposing pools (or difficulties), the effect die as stacked bars per case
//! (after opposition: `win_effect_*` with failures; alone: `pool_effect_*`),
//! and hitch and botch frequencies per pool. Metric names are docs/cortex.md's.

use super::model::{
    bar_legend, retain_occurring, sequential, Axis, BarSeries, Bars, Chart, Colour, Heatmap, Panel,
    Plot, Value, GREY, MIN_HEIGHT, MIN_WIDTH, PALETTE,
};
use super::{
    fixed_rules_note, input, label_of, labels, method_note, metric, metric_value, share, stem,
    varying_keys,
};
use crate::balance;
use crate::dice::Pool;
use crate::report::CaseResult;
use crate::systems::cortex::keys::{DIFFICULTY, POOL, VS};
use crate::systems::cortex::metrics::{
    POOL_EFFECT, P_BOTCH, P_HITCH, P_REACTION_HITCH, P_SUCCESS, WIN_EFFECT, WIN_EFFECT_BEYOND,
};
use crate::systems::metrics::{MetricRef, DIE_SIZES};
use crate::systems::System;

/// The effect die sizes of docs/cortex.md, smallest first.
const SIZES: [&str; 5] = DIE_SIZES;

/// The metrics these charts read (see `super::shows_metric`).
pub const METRICS_DRAWN: &[MetricRef] = &[
    MetricRef::One(P_SUCCESS),
    MetricRef::Family(WIN_EFFECT),
    MetricRef::One(WIN_EFFECT_BEYOND),
    MetricRef::Family(POOL_EFFECT),
    MetricRef::One(P_HITCH),
    MetricRef::One(P_BOTCH),
    MetricRef::One(P_REACTION_HITCH),
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let mut out = Vec::new();
    out.extend(heatmap(results));
    out.extend(win_effect(results));
    out.extend(pool_effect(results));
    out.extend(hitches(results));
    out
}

/// The opposition of a case as a column label: the reacting pool with its
/// name on the rules text's difficulty table when it has one ("2d8
/// (heroic)", the Cortex Plus rules text, "Уровни Сложности"), or the
/// fixed difficulty.
fn opposition(r: &CaseResult) -> Option<String> {
    if let Some(vs) = input(r, &VS) {
        let rung = Pool::parse_cortex(&vs)
            .ok()
            .and_then(|pool| balance::label_of(&pool));
        Some(match rung {
            Some(name) => format!("{vs} ({name})"),
            None => vs,
        })
    } else {
        input(r, &DIFFICULTY).map(|d| format!("difficulty {d}"))
    }
}

fn heatmap(results: &[&CaseResult]) -> Option<Chart> {
    let opposed: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| opposition(r).is_some() && metric(r, P_SUCCESS.name).is_some())
        .collect();
    if opposed.is_empty() {
        return None;
    }
    // Rows: the hero pool plus whatever else varies apart from the opposition.
    let row_keys = varying_keys(&opposed, &[POOL.name, VS.name, DIFFICULTY.name]);
    let row_label = |r: &CaseResult| {
        let pool = input(r, &POOL).unwrap_or_default();
        let extra = label_of(r, &row_keys);
        if extra.is_empty() {
            pool
        } else {
            format!("{pool} · {extra}")
        }
    };
    let mut rows: Vec<String> = Vec::new();
    let mut columns: Vec<String> = Vec::new();
    for r in &opposed {
        let row = row_label(r);
        if !rows.contains(&row) {
            rows.push(row);
        }
        let col = opposition(r).unwrap_or_default();
        if !columns.contains(&col) {
            columns.push(col);
        }
    }
    let mut cells = vec![vec![None; columns.len()]; rows.len()];
    for r in &opposed {
        let ri = rows.iter().position(|x| *x == row_label(r)).unwrap_or(0);
        let oc = opposition(r).unwrap_or_default();
        let ci = columns.iter().position(|x| *x == oc).unwrap_or(0);
        if cells[ri][ci].is_none() {
            cells[ri][ci] = metric(r, P_SUCCESS.name);
        }
    }
    let by_pool = opposed.iter().any(|r| input(r, &VS).is_some());
    let by_difficulty = opposed.iter().any(|r| input(r, &DIFFICULTY).is_some());
    let x_label = match (by_pool, by_difficulty) {
        (true, false) => "Opposing pool (dice rolled against the hero)",
        (false, true) => "Difficulty (total to beat)",
        _ => "Opposition (a rolled pool or a fixed difficulty)",
    };
    let mut chart = Chart::single(
        &stem(System::Cortex, "p-success"),
        "Chance the hero's action succeeds",
        Plot::Heatmap(Heatmap {
            rows: rows.clone(),
            columns: columns.clone(),
            cells,
            x_label: x_label.into(),
            y_label: "Hero's pool".into(),
            scale_label: "P(success), %".into(),
        }),
    );
    chart.notes.extend(fixed_rules_note(
        &opposed,
        &[POOL.name, VS.name, DIFFICULTY.name],
    ));
    let mc_note = method_note(&opposed, false);
    let widest = opposed
        .iter()
        .filter_map(|r| metric_value(r, P_SUCCESS.name).and_then(|v| v.ci))
        .map(|(lo, hi)| (hi - lo) / 2.0)
        .fold(0.0, f64::max);
    chart.notes.push(if widest > 0.0 {
        format!(
            "{} {} intervals are within ±{} percentage points.",
            mc_note,
            crate::report::format::LEVEL,
            crate::report::format::decimals(widest * 100.0, 2)
        )
    } else {
        mc_note
    });
    chart.width = MIN_WIDTH.max(480 + 135 * columns.len() as u32);
    chart.height = MIN_HEIGHT.max(300 + 62 * rows.len() as u32);
    Some(chart)
}

/// Running totals across a bar's segments, each with its interval: the
/// first boundary (after "fail") is `1 - p_success`, whose interval is the
/// mirror of `p_success`'s; later ones are shares of all trials.
pub(super) fn stacked_segments(
    r: &CaseResult,
    parts: &[(f64, Option<(f64, f64)>)],
) -> Vec<Option<Value>> {
    let mut out = Vec::new();
    let mut total = 0.0;
    let last = parts.iter().rposition(|(p, _)| *p > 0.0).unwrap_or(0);
    for (i, (p, given)) in parts.iter().enumerate() {
        total += p;
        let ci = if i >= last {
            None
        } else {
            given.or(share(r, total).ci)
        };
        out.push(Some(Value { value: *p, ci }));
    }
    out
}

/// Where d4 .. d12 sit on the sequential scale, d4 dark to d12 light:
/// spread so neighbours, d10 and d12 above all, are told apart.
const EFFECT_SHADES: [f64; 5] = [0.02, 0.26, 0.5, 0.7, 0.93];

/// The colour of an effect outcome (`i` its place after "fail"): fail grey,
/// d4 .. d12 along the sequential scale, and a step beyond d12 (heroic) in
/// vermillion, off the scale, so it never reads as one more die size.
fn effect_colour(name: &str, i: usize) -> Colour {
    match name {
        "fail" => GREY,
        _ => match EFFECT_SHADES.get(i.saturating_sub(1)) {
            Some(&t) => sequential(t),
            None => Colour(213, 94, 0),
        },
    }
}

fn effect_series(names: &[String]) -> Vec<BarSeries> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| BarSeries {
            name: name.clone(),
            colour: effect_colour(name, i),
            values: Vec::new(),
        })
        .collect()
}

fn win_effect(results: &[&CaseResult]) -> Option<Chart> {
    let opposed: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| metric(r, P_SUCCESS.name).is_some())
        .collect();
    if opposed.is_empty() {
        return None;
    }
    let mut names = vec!["fail".to_string()];
    names.extend(SIZES.iter().map(|s| s.to_string()));
    names.push("beyond d12".into());
    let mut template = effect_series(&names);
    for s in &mut template {
        s.name = match s.name.as_str() {
            "fail" => "action fails".into(),
            "beyond d12" => "beyond d12 (heroic)".into(),
            other => format!("succeeds, {other}"),
        };
    }
    // One panel per hero pool (in the scenario's order), a bar per case:
    // the bars of a pool sit together, named by what else varies.
    let others = varying_keys(&opposed, &[POOL.name]);
    let mut pools: Vec<String> = Vec::new();
    for r in &opposed {
        let pool = input(r, &POOL).unwrap_or_default();
        if !pools.contains(&pool) {
            pools.push(pool);
        }
    }
    let mut panels = Vec::new();
    let mut bars_per_panel = Vec::new();
    let mut longest = 0;
    for pool in &pools {
        let mut series = template.clone();
        let mut categories = Vec::new();
        for r in opposed
            .iter()
            .filter(|r| input(r, &POOL).unwrap_or_default() == *pool)
        {
            let label = match label_of(r, &others) {
                l if l.is_empty() => r.case.clone(),
                l => l,
            };
            longest = longest.max(label.chars().count());
            categories.push(label);
            let p_success = metric(r, P_SUCCESS.name).unwrap_or(0.0);
            let fail_ci = metric_value(r, P_SUCCESS.name)
                .and_then(|v| v.ci)
                .map(|(lo, hi)| (1.0 - hi, 1.0 - lo));
            let mut parts = vec![(1.0 - p_success, fail_ci)];
            for size in SIZES {
                parts.push((metric(r, &WIN_EFFECT.name(size)).unwrap_or(0.0), None));
            }
            parts.push((metric(r, WIN_EFFECT_BEYOND.name).unwrap_or(0.0), None));
            for (s, v) in series.iter_mut().zip(stacked_segments(r, &parts)) {
                s.values.push(v);
            }
        }
        bars_per_panel.push(categories.len() as u32);
        panels.push(Panel {
            caption: (pools.len() > 1).then(|| labels::phrase(POOL.name, &pool.as_str().into())),
            plot: Plot::Bars(shares_bars(categories, series)),
        });
    }
    let legend = retain_occurring(&mut panels);
    let mut chart = Chart {
        stem: stem(System::Cortex, "effect-die"),
        title: "Failure, or the effect die on a success".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels,
        columns: 1,
        // Room for the longest bar label beside a readable plot.
        width: MIN_WIDTH.max(760 + 11 * longest as u32),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(
        &opposed,
        &[POOL.name, VS.name, DIFFICULTY.name],
    ));
    chart.notes.push(method_note(&opposed, true));
    // The renderer gives each panel (one a row) height by its bar count,
    // so bars are equally thick in every panel.
    chart.fit_row_heights(bars_per_panel.iter().map(|bars| 110 + 46 * bars));
    Some(chart)
}

/// Horizontal stacked shares of rolls, one bar per case: the shape of both
/// effect-die charts.
fn shares_bars(categories: Vec<String>, series: Vec<BarSeries>) -> Bars {
    Bars {
        horizontal: true,
        stacked: true,
        categories,
        category_label: "Case".into(),
        series,
        axis: Axis::percent("Share of rolls, %"),
        value_labels: true,
    }
}

fn pool_effect(results: &[&CaseResult]) -> Option<Chart> {
    // Only for rolls without opposition: opposed ones have the chart above.
    let alone: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| {
            metric(r, P_SUCCESS.name).is_none() && metric(r, &POOL_EFFECT.name(SIZES[0])).is_some()
        })
        .collect();
    if alone.is_empty() {
        return None;
    }
    let names: Vec<String> = SIZES.iter().map(|s| s.to_string()).collect();
    let mut series = effect_series(&[vec!["fail".to_string()], names.clone()].concat());
    series.remove(0);
    let mut categories = Vec::new();
    for r in &alone {
        categories.push(r.case.clone());
        let parts: Vec<(f64, Option<(f64, f64)>)> = SIZES
            .iter()
            .map(|s| (metric(r, &POOL_EFFECT.name(s)).unwrap_or(0.0), None))
            .collect();
        for (s, v) in series.iter_mut().zip(stacked_segments(r, &parts)) {
            s.values.push(v);
        }
    }
    let n = categories.len() as u32;
    let mut chart = Chart::single(
        &stem(System::Cortex, "pool-effect"),
        "Effect die left after the total dice are chosen",
        Plot::Bars(shares_bars(categories, series)),
    );
    chart.legend = retain_occurring(&mut chart.panels);
    chart
        .notes
        .push("d4 also counts rolls with no live die left for the effect (docs/cortex.md).".into());
    chart.notes.push(method_note(&alone, true));
    chart.fit_height(70 + 46 * n);
    Some(chart)
}

/// A percentage axis whose top follows the data: hitch chances stay well
/// below 100%, and the bars would be cramped on a full scale.
fn auto_percent() -> Axis {
    Axis {
        max: None,
        ..Axis::percent("Share of rolls, %")
    }
}

fn hitches(results: &[&CaseResult]) -> Option<Chart> {
    // Hitches depend on the pool alone, so one bar group per distinct pool.
    let mut pools: Vec<(String, &CaseResult)> = Vec::new();
    for r in results {
        if let Some(pool) = input(r, &POOL) {
            if metric(r, P_HITCH.name).is_some() && !pools.iter().any(|(p, _)| *p == pool) {
                pools.push((pool, r));
            }
        }
    }
    if pools.is_empty() {
        return None;
    }
    let mut hitch = BarSeries {
        name: "at least one hitch (a 1)".into(),
        colour: PALETTE[4],
        values: Vec::new(),
    };
    let mut botch = BarSeries {
        name: "botch (every die a 1)".into(),
        colour: PALETTE[1],
        values: Vec::new(),
    };
    for (_, r) in &pools {
        hitch.values.push(metric_value(r, P_HITCH.name));
        botch.values.push(metric_value(r, P_BOTCH.name));
    }
    let hero = Bars {
        horizontal: true,
        stacked: false,
        categories: pools.iter().map(|(p, _)| p.clone()).collect(),
        category_label: "Hero's pool".into(),
        series: vec![hitch.clone(), botch.clone()],
        axis: auto_percent(),
        value_labels: true,
    };
    let mut panels = vec![Panel {
        caption: Some("The hero's pool".into()),
        plot: Plot::Bars(hero),
    }];
    // The reacting pool's hitches are the player's opportunities.
    let mut reacting: Vec<(String, &CaseResult)> = Vec::new();
    for r in results {
        if let Some(vs) = input(r, &VS) {
            if metric(r, P_REACTION_HITCH.name).is_some() && !reacting.iter().any(|(p, _)| *p == vs)
            {
                reacting.push((vs, r));
            }
        }
    }
    if !reacting.is_empty() {
        panels.push(Panel {
            caption: Some("The opposing pool".into()),
            plot: Plot::Bars(Bars {
                horizontal: true,
                stacked: false,
                categories: reacting.iter().map(|(p, _)| p.clone()).collect(),
                category_label: "Opposing pool".into(),
                series: vec![BarSeries {
                    values: reacting
                        .iter()
                        .map(|(_, r)| metric_value(r, P_REACTION_HITCH.name))
                        .collect(),
                    ..hitch.clone()
                }],
                axis: auto_percent(),
                value_labels: true,
            }),
        });
    }
    let rows = pools.len().max(reacting.len()) as u32;
    let mut chart = Chart {
        stem: stem(System::Cortex, "hitches"),
        title: "Hitches and botches".into(),
        notes: vec![
            "A hitch in the opposing pool is the player's opportunity; a botch leaves the action with total 0.".into(),
            method_note(results, true),
        ],
        warnings: Vec::new(),
        legend: bar_legend(&[hitch, botch]),
        columns: panels.len(),
        panels,
        width: MIN_WIDTH.max(if reacting.is_empty() { 0 } else { 1500 }),
        height: MIN_HEIGHT,
    };
    chart.fit_height(90 + 64 * rows);
    Some(chart)
}
