//! The scene's economy at a glance (docs/cortex.md, "The scene's economy"):
//! for each hero pool (a column), by starting doom pool (the categories), one
//! bar per way of spending (nobody, the hero, the GM, both): the
//! successes the scene brings, the doom dice left at its end and the doom
//! dice the GM spent. The hero spends blind, before the doom pool rolls, so
//! the plot points spent do not depend on the doom pool: a note gives them
//! per hero pool. Drawn for scene cases that report the economy's metrics
//! (`mean_plot_points_spent`, `p_gm_spent`).

use super::model::{
    bar_legend, palette, Axis, BarSeries, Bars, Chart, LegendItem, Panel, Plot, MIN_HEIGHT,
};
use super::{fixed_rules_note, input, method_note, metric_value, stem, width_for};
use crate::report::CaseResult;
use crate::systems::cortex::keys::{DOOM, GM_SPEND, HERO_SPEND, SCENE_POOL};
use crate::systems::cortex::scene_metrics as m;
use crate::systems::System;

/// Who spends in a case, as a series: its name and place in the legend.
fn spending(r: &CaseResult) -> (usize, &'static str) {
    let hero = input(r, &HERO_SPEND).is_some_and(|h| h != "never");
    let gm = input(r, &GM_SPEND).is_some_and(|g| g != "never");
    match (hero, gm) {
        (false, false) => (0, "nobody spends"),
        (true, false) => (1, "the hero spends plot points"),
        (false, true) => (2, "the GM spends doom dice"),
        (true, true) => (3, "both spend"),
    }
}

/// The rows of panels: a metric, its axis, its caption, and whether it is drawn for
/// cases where the GM never spends (the doom dice spent are 0 throughout).
const ROWS: [(&str, &str, &str, bool); 3] = [
    (
        m::MEAN_SUCCESSES.name,
        "Successes in the scene",
        "successes in the scene",
        true,
    ),
    (
        // A mean over the scenes that did not end early, which the axis
        // and caption say (docs/reports.md, "Conditional means").
        m::MEAN_FINAL_DOOM_DICE.name,
        "Doom dice (scenes not ended)",
        "doom dice at the end (of scenes not ended early)",
        true,
    ),
    (
        m::MEAN_DOOM_DICE_SPENT.name,
        "Doom dice the GM spent",
        "doom dice the GM spent",
        false,
    ),
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let cases: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| metric_value(r, m::P_GM_SPENT.name).is_some())
        .collect();
    // Every scene reports the economy's metrics; the chart is for scenarios
    // that compare ways of spending, so it needs a case in which someone spends.
    if !cases.iter().any(|r| spending(r).0 > 0) {
        return Vec::new();
    }
    let mut pools: Vec<String> = Vec::new();
    let mut dooms: Vec<String> = Vec::new();
    for r in &cases {
        for (list, key) in [(&mut pools, &SCENE_POOL), (&mut dooms, &DOOM)] {
            let value = input(r, key).unwrap_or_default();
            if !list.contains(&value) {
                list.push(value);
            }
        }
    }
    let mut panels = Vec::new();
    for (metric, label, caption, idle_drawn) in ROWS {
        for pool in &pools {
            // The doom pools are categories, not a scale: grouped bars, one
            // per way of spending, side by side at each starting pool.
            let mut series: Vec<(usize, BarSeries)> = Vec::new();
            for r in cases
                .iter()
                .filter(|r| input(r, &SCENE_POOL).as_ref() == Some(pool))
            {
                let (i, name) = spending(r);
                if !idle_drawn && i < 2 {
                    continue;
                }
                let x = dooms
                    .iter()
                    .position(|d| Some(d) == input(r, &DOOM).as_ref())
                    .unwrap_or(0);
                let Some(y) = metric_value(r, metric) else {
                    continue;
                };
                let at = match series.iter().position(|(j, _)| *j == i) {
                    Some(at) => at,
                    None => {
                        series.push((
                            i,
                            BarSeries {
                                name: name.into(),
                                colour: palette(i),
                                values: vec![None; dooms.len()],
                            },
                        ));
                        series.len() - 1
                    }
                };
                // A case repeating a (pool, doom, spending) the chart has,
                // such as another scene length, is not drawn twice.
                series[at].1.values[x].get_or_insert(y);
            }
            series.sort_by_key(|(i, _)| *i);
            panels.push(Panel {
                caption: Some(format!("hero pool {pool}: {caption}")),
                plot: Plot::Bars(Bars {
                    horizontal: false,
                    stacked: false,
                    categories: dooms.clone(),
                    category_label: "Doom pool at the start".into(),
                    series: series.into_iter().map(|(_, s)| s).collect(),
                    axis: Axis::number(label, 1),
                    value_labels: false,
                }),
            });
        }
    }
    let mut legend: Vec<LegendItem> = Vec::new();
    for panel in &panels {
        if let Plot::Bars(bars) = &panel.plot {
            for item in bar_legend(&bars.series) {
                if !legend.iter().any(|l| l.name == item.name) {
                    legend.push(item);
                }
            }
        }
    }
    // In spending order (nobody, the hero, the GM, both), as the bars stand.
    legend.sort_by_key(|l| {
        ["nobody", "the hero", "the GM", "both"]
            .iter()
            .position(|p| l.name.starts_with(p))
    });
    let columns = pools.len().clamp(1, 3);
    let mut chart = Chart {
        stem: stem(System::CortexScene, "economy"),
        title: "What spending does to a scene: successes, doom dice and plot points".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels,
        columns,
        width: width_for(columns),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(fixed_rules_note(
        &cases,
        &[SCENE_POOL.name, DOOM.name, HERO_SPEND.name, GM_SPEND.name],
    ));
    chart.notes.extend(hero_spending_note(&cases, &pools));
    chart.notes.push(method_note(&cases, true));
    chart.fit_height(360);
    vec![chart]
}

/// The plot points the hero spends in a scene, per hero pool: the same
/// against every doom pool, since the hero spends before it rolls.
fn hero_spending_note(cases: &[&CaseResult], pools: &[String]) -> Option<String> {
    let spent: Vec<String> = pools
        .iter()
        .filter_map(|pool| {
            let r = cases
                .iter()
                .find(|r| input(r, &SCENE_POOL).as_ref() == Some(pool) && spending(r).0 % 2 == 1)?;
            let spent = metric_value(r, m::MEAN_PLOT_POINTS_SPENT.name)?.value;
            Some(format!("{pool} {spent:.1}"))
        })
        .collect();
    (!spent.is_empty()).then(|| {
        format!(
            "Plot points a spending hero burns a scene, whatever the doom pool: {}.",
            spent.join(", ")
        )
    })
}
