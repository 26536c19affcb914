//! Advantage-die charts: miss / weak / strong shares as stacked
//! bars per die size beside the no-die baseline, one panel per policy (and
//! whatever else varies), and `miss_to_strong_per_encounter` per die size
//! as grouped bars (die sizes are categories, not points on a line). Metric names are docs/advantage.md's. When the cases hold more than one
//! of docs/advantage.md's setups (one die, two dice, a party with or without
//! `share`), a third chart sets the die sizes side by side per setup: the
//! strong hits each player gains per encounter over the no-die baseline,
//! and the misses each player's advantage turns into strong hits (what
//! tells die sizes apart, rather than near-equal bars).
//!
//! The no-die baseline is plain 2d6 + `stat` (the roll the rules text's counter
//! improves on), computed exactly here from the case's `stat`, `miss_max`
//! and `strong_min` so every panel has it, whether or not the scenario ran
//! a `policy = "never"` case.

use super::model::{
    bar_legend, palette, Axis, BarSeries, Bars, Chart, Panel, Plot, Value, MIN_HEIGHT, MIN_WIDTH,
    PALETTE,
};
use super::{
    fit, fixed_rules_note, input, input_int_or_default, input_on, label_of, method_note,
    metric_value, partial_keys, priority, stem, values_of, varying_keys,
};
use crate::report::CaseResult;
use crate::systems::advantage::keys::{
    COUNTERS, DIE, MISS_MAX, PARTY, POLICY, ROLLS, SHARE, STAT, STRONG_MIN, THRESHOLD,
};
use crate::systems::advantage::metrics::{MISS_TO_STRONG_PER_ENCOUNTER, P_MISS, P_STRONG, P_WEAK};
use crate::systems::advantage::AdvantageCase;
use crate::systems::metrics::MetricRef;
use crate::systems::System;

/// The metrics these charts read (see `super::shows_metric`).
pub const METRICS_DRAWN: &[MetricRef] = &[
    MetricRef::One(P_MISS),
    MetricRef::One(P_WEAK),
    MetricRef::One(P_STRONG),
    MetricRef::One(MISS_TO_STRONG_PER_ENCOUNTER),
];

pub fn charts(results: &[&CaseResult]) -> Vec<Chart> {
    let usable: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| metric_value(r, P_MISS.name).is_some() && faces(r).is_some())
        .collect();
    if usable.is_empty() {
        return Vec::new();
    }
    let mut out = vec![tiers(&usable)];
    out.extend(miss_to_strong(&usable));
    out.extend(setups(&usable));
    out
}

/// The advantage die's faces (`"d6"` -> 6).
fn faces(r: &CaseResult) -> Option<i64> {
    input(r, &DIE)?.trim_start_matches(['d', 'D']).parse().ok()
}

/// The keys of docs/advantage.md that make a setup; at their defaults (one die, one
/// player) they are left out of notes and labels, where they would only
/// repeat what every case has.
const SETUP_KEYS: [&str; 3] = [COUNTERS.name, PARTY.name, SHARE.name];

/// Whether a result is a lone player with one die (docs/advantage.md's defaults).
fn is_lone_single(r: &CaseResult) -> bool {
    input_int_or_default(r, &COUNTERS) == 1 && input_int_or_default(r, &PARTY) == 1
}

/// Most panels (or lines) a chart gets; past it, inputs other than the
/// policy are held at one representative value (`stat` 0, the middle
/// `rolls`), named in the chart's note.
const BUDGET: usize = 8;

/// Cases grouped by every input but the die, with the group's label, and
/// the slice note when some inputs were held at one value to keep the
/// groups within [`BUDGET`].
fn groups<'a>(results: &[&'a CaseResult]) -> (Vec<(String, Vec<&'a CaseResult>)>, Option<String>) {
    let mut keys = varying_keys(results, &[DIE.name]);
    // A `threshold` that only threshold-policy cases have names their panel.
    for k in partial_keys(results) {
        if k != DIE.name && !keys.contains(&k) {
            keys.push(k);
        }
    }
    // A key set per die size (docs/advantage.md's habit: threshold = die size - 1)
    // names the die's bar instead of splitting panels.
    let followers = die_followers(results);
    keys.retain(|k| !followers.contains(k));
    // Panels go per policy (the choice a player makes): split out last.
    let ranked: Vec<(String, u8)> = keys
        .iter()
        .map(|k| {
            let p = if k == POLICY.name {
                4
            } else {
                priority(results, k)
            };
            (k.clone(), p)
        })
        .collect();
    let slice = fit(results, &ranked, BUDGET);
    let mut out: Vec<(String, Vec<&CaseResult>)> = Vec::new();
    for r in &slice.cases {
        let label = label_of(r, &slice.keys);
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, cases)) => cases.push(r),
            None => out.push((label, vec![r])),
        }
    }
    for (_, cases) in &mut out {
        cases.sort_by_key(|r| faces(r).unwrap_or(0));
    }
    (out, slice.note())
}

/// The input keys that follow the die: one value per die size, but not the
/// same for every size (`threshold = 3, 5, 7` for d4, d6, d8).
fn die_followers(results: &[&CaseResult]) -> Vec<String> {
    let mut sizes: Vec<i64> = results.iter().filter_map(|r| faces(r)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut keys: Vec<String> = Vec::new();
    for r in results {
        for k in r.inputs.keys() {
            if k != DIE.name && !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    keys.retain(|key| {
        let per_size: Vec<Vec<serde_json::Value>> = sizes
            .iter()
            .map(|&f| {
                let with: Vec<&CaseResult> = results
                    .iter()
                    .copied()
                    .filter(|r| faces(r) == Some(f))
                    .collect();
                values_of(&with, key)
            })
            .collect();
        sizes.len() > 1
            && per_size.iter().all(|values| values.len() == 1)
            && per_size.windows(2).any(|w| w[0] != w[1])
    });
    keys
}

/// The note naming the keys that follow the die, if any: "Per die: d4
/// threshold=3, d6 threshold=5, d8 threshold=7."
fn followers_note(results: &[&CaseResult]) -> Option<String> {
    let followers = die_followers(results);
    if followers.is_empty() {
        return None;
    }
    let mut sizes: Vec<i64> = results.iter().filter_map(|r| faces(r)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let parts: Vec<String> = sizes
        .iter()
        .filter_map(|&f| {
            let r = results.iter().find(|r| faces(r) == Some(f))?;
            Some(format!("d{f} {}", label_of(r, &followers)))
        })
        .collect();
    Some(format!("Per die: {}.", parts.join(", ")))
}

/// The "Rules:" note: inputs with one value everywhere, leaving out the die
/// (an axis) and options only some cases have (they are in panel names).
fn rules_note(results: &[&CaseResult]) -> Option<String> {
    let partial = partial_keys(results);
    let followers = die_followers(results);
    let mut skip: Vec<&str> = partial.iter().map(String::as_str).collect();
    skip.extend(followers.iter().map(String::as_str));
    skip.push(DIE.name);
    if results.iter().all(|r| is_lone_single(r)) {
        skip.extend(SETUP_KEYS);
    }
    fixed_rules_note(results, &skip)
}

/// Exact miss / weak / strong shares of 2d6 + stat (docs/advantage.md's tiers).
pub fn baseline(stat: i64, miss_max: i64, strong_min: i64) -> [f64; 3] {
    // The tier rule is the system's; inputs are bounded by its validation.
    let case = AdvantageCase {
        stat: stat as i32,
        miss_max: miss_max as i32,
        strong_min: strong_min as i32,
        ..AdvantageCase::default()
    };
    let mut tiers = [0.0; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            tiers[case.tier(a + b + case.stat) as usize] += 1.0 / 36.0;
        }
    }
    tiers
}

fn tier_series() -> Vec<BarSeries> {
    [
        ("miss", PALETTE[1]),
        ("weak hit", PALETTE[4]),
        ("strong hit", PALETTE[2]),
    ]
    .into_iter()
    .map(|(name, colour)| BarSeries {
        name: name.into(),
        colour,
        values: Vec::new(),
    })
    .collect()
}

fn tiers(results: &[&CaseResult]) -> Chart {
    let (groups, slice_note) = groups(results);
    let mut panels = Vec::new();
    for (label, cases) in &groups {
        let first = cases[0];
        let base = baseline(
            input_int_or_default(first, &STAT),
            input_int_or_default(first, &MISS_MAX),
            input_int_or_default(first, &STRONG_MIN),
        );
        let mut series = tier_series();
        let mut categories = vec!["no die".to_string()];
        for (s, p) in series.iter_mut().zip(base) {
            s.values.push(Some(Value::exact(p)));
        }
        for r in cases {
            categories.push(input(r, &DIE).unwrap_or_default());
            let miss = metric_value(r, P_MISS.name);
            let weak = metric_value(r, P_WEAK.name);
            let strong = metric_value(r, P_STRONG.name);
            // Stacked from the bottom: the miss/weak boundary is p_miss;
            // the weak/strong one is 1 - p_strong, whose interval mirrors it.
            let weak_top = strong
                .and_then(|s| s.ci)
                .map(|(lo, hi)| (1.0 - hi, 1.0 - lo));
            series[0].values.push(miss);
            series[1].values.push(weak.map(|w| Value {
                value: w.value,
                ci: weak_top,
            }));
            series[2].values.push(strong.map(|s| Value::exact(s.value)));
        }
        panels.push(Panel {
            caption: (!label.is_empty()).then(|| label.clone()),
            plot: Plot::Bars(Bars {
                horizontal: false,
                stacked: true,
                categories,
                category_label: "Advantage die".into(),
                series,
                axis: Axis::percent("Share of rolls, %"),
                value_labels: true,
            }),
        });
    }
    let columns = match panels.len() {
        1 => 1,
        2 | 4 => 2,
        _ => 3,
    };
    let mut chart = Chart {
        stem: stem(System::Advantage, "tiers"),
        title: "Miss, weak hit and strong hit with the advantage die".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend: bar_legend(&tier_series()),
        panels,
        columns,
        width: MIN_WIDTH.max(if columns == 3 { 1500 } else { 0 }),
        height: MIN_HEIGHT,
    };
    chart.notes.extend(rules_note(results));
    chart.notes.extend(followers_note(results));
    chart.notes.extend(slice_note);
    chart.notes.push(format!(
        "\"no die\" is 2d6 + stat alone (exact). {}",
        method_note(results, true)
    ));
    chart.fit_height(520);
    chart
}

/// Misses turned into strong hits per encounter: the die sizes are
/// categories, so grouped bars (a bar per group of cases in each die's
/// place), with a note for a die that never does it.
fn miss_to_strong(results: &[&CaseResult]) -> Option<Chart> {
    let (groups, slice_note) = groups(results);
    let mut all_faces: Vec<i64> = results.iter().filter_map(|r| faces(r)).collect();
    all_faces.sort_unstable();
    all_faces.dedup();
    let series: Vec<BarSeries> = groups
        .iter()
        .enumerate()
        .map(|(i, (label, cases))| BarSeries {
            name: if label.is_empty() {
                "all cases".into()
            } else {
                label.clone()
            },
            colour: palette(i),
            values: all_faces
                .iter()
                .map(|&f| {
                    let r = cases.iter().find(|r| faces(r) == Some(f))?;
                    metric_value(r, MISS_TO_STRONG_PER_ENCOUNTER.name)
                })
                .collect(),
        })
        .collect();
    if series.iter().all(|s| s.values.iter().all(Option::is_none)) {
        return None;
    }
    // A die whose every bar is zero cannot do it under these rules: say so,
    // rather than leave the reader to look for invisible bars.
    let never: Vec<String> = all_faces
        .iter()
        .enumerate()
        .filter(|(i, _)| all_zero(series.iter().map(|s| &s.values[*i])))
        .map(|(_, f)| format!("d{f}"))
        .collect();
    let legend = bar_legend(&series);
    let mut chart = Chart::single(
        &stem(System::Advantage, "miss-to-strong"),
        "Misses the advantage die turns into strong hits",
        Plot::Bars(Bars {
            horizontal: false,
            stacked: false,
            categories: all_faces.iter().map(|f| format!("d{f}")).collect(),
            category_label: "Advantage die".into(),
            series,
            axis: Axis::number("Misses turned strong, per encounter", 2),
            value_labels: false,
        }),
    );
    chart.legend = legend;
    chart.notes.extend(rules_note(results));
    chart.notes.extend(followers_note(results));
    chart.notes.extend(slice_note);
    chart.notes.extend(never_turns_note(&never));
    chart.notes.push(method_note(results, true));
    chart.fit_height(520);
    Some(chart)
}

/// Whether every drawn value is zero (and at least one is drawn): a die
/// whose bars all sit at zero cannot do it under these rules.
fn all_zero<'a>(values: impl Iterator<Item = &'a Option<Value>>) -> bool {
    let drawn: Vec<&Value> = values.flatten().collect();
    !drawn.is_empty() && drawn.iter().all(|v| v.value == 0.0)
}

/// The note for dice that never turn a miss into a strong hit, so the
/// reader does not look for invisible bars.
fn never_turns_note(dice: &[String]) -> Option<String> {
    (!dice.is_empty()).then(|| {
        format!(
            "No bar for {}: under these rules it never turns a miss into a strong hit (0 in every case).",
            dice.join(", ")
        )
    })
}

/// A case's setup (docs/advantage.md), as a category label: "one die", "two dice",
/// "party of 3", "party of 3, sharing"; with the rolls each player makes
/// when those differ between cases.
fn setup_label(r: &CaseResult, rolls_vary: bool) -> String {
    let party = input_int_or_default(r, &PARTY);
    let mut label = if party > 1 {
        let sharing = input_on(r, &SHARE);
        format!("party of {party}{}", if sharing { ", sharing" } else { "" })
    } else if input_int_or_default(r, &COUNTERS) == 2 {
        "two dice".to_string()
    } else {
        "one die".to_string()
    };
    if rolls_vary {
        label.push_str(&format!(", {} rolls each", rolls_per_player(r)));
    }
    label
}

/// The rolls each player makes in an encounter (a party's `rolls` are the
/// whole party's, docs/advantage.md).
fn rolls_per_player(r: &CaseResult) -> f64 {
    let rolls = input_int_or_default(r, &ROLLS) as f64;
    rolls / input_int_or_default(r, &PARTY) as f64
}

/// Die sizes side by side per setup: strong hits gained per player and
/// encounter over plain 2d6 + stat, and misses turned into strong hits per
/// player and encounter. Built only when the cases hold two setups or more.
fn setups(results: &[&CaseResult]) -> Option<Chart> {
    // Inputs other than the setup and the die (and what follows them: the
    // threshold set per die, the party's rolls) are held at one value.
    let mut keys = varying_keys(results, &[DIE.name, THRESHOLD.name, ROLLS.name]);
    keys.retain(|k| !SETUP_KEYS.contains(&k.as_str()));
    let ranked: Vec<(String, u8)> = keys.iter().map(|k| (k.clone(), 1)).collect();
    let slice = fit(results, &ranked, 1);
    let cases = &slice.cases;
    let mut per_player: Vec<f64> = cases.iter().map(|r| rolls_per_player(r)).collect();
    per_player.sort_by(f64::total_cmp);
    per_player.dedup();
    let rolls_vary = per_player.len() > 1;
    // Setups in a fixed order: one die, two dice, then parties by size,
    // each keeping its counters before sharing them.
    let mut ordered: Vec<&CaseResult> = cases.to_vec();
    ordered.sort_by_key(|r| {
        (
            input_int_or_default(r, &PARTY),
            input_int_or_default(r, &COUNTERS),
            input_on(r, &SHARE),
        )
    });
    let mut categories: Vec<String> = Vec::new();
    for r in ordered {
        let label = setup_label(r, rolls_vary);
        if !categories.contains(&label) {
            categories.push(label);
        }
    }
    let mut setups: Vec<String> = cases.iter().map(|r| setup_label(r, false)).collect();
    setups.sort();
    setups.dedup();
    if setups.len() < 2 {
        return None;
    }
    let mut all_faces: Vec<i64> = cases.iter().filter_map(|r| faces(r)).collect();
    all_faces.sort_unstable();
    all_faces.dedup();
    // Per die size, a bar per setup: `measure` of the case, per player.
    let series_of = |measure: &dyn Fn(&CaseResult) -> Option<Value>| -> Vec<BarSeries> {
        all_faces
            .iter()
            .enumerate()
            .map(|(i, f)| BarSeries {
                name: format!("d{f}"),
                colour: palette(i),
                values: categories
                    .iter()
                    .map(|category| {
                        let r = cases.iter().find(|r| {
                            faces(r) == Some(*f) && setup_label(r, rolls_vary) == *category
                        })?;
                        measure(r)
                    })
                    .collect(),
            })
            .collect()
    };
    let per_player_value = |r: &CaseResult, v: Value, shift: f64| {
        let scale = rolls_per_player(r);
        Value {
            value: (v.value - shift) * scale,
            ci: v
                .ci
                .map(|(lo, hi)| ((lo - shift) * scale, (hi - shift) * scale)),
        }
    };
    let gained = series_of(&|r: &CaseResult| {
        let [_, _, strong] = baseline(
            input_int_or_default(r, &STAT),
            input_int_or_default(r, &MISS_MAX),
            input_int_or_default(r, &STRONG_MIN),
        );
        Some(per_player_value(r, metric_value(r, P_STRONG.name)?, strong))
    });
    let turned = series_of(&|r: &CaseResult| {
        let v = metric_value(r, MISS_TO_STRONG_PER_ENCOUNTER.name)?;
        let party = input_int_or_default(r, &PARTY) as f64;
        Some(Value {
            value: v.value / party,
            ci: v.ci.map(|(lo, hi)| (lo / party, hi / party)),
        })
    });
    let panel = |caption: &str, series: Vec<BarSeries>, axis: &str| Panel {
        caption: Some(caption.to_string()),
        plot: Plot::Bars(Bars {
            horizontal: false,
            stacked: false,
            categories: categories.clone(),
            category_label: "Setup".into(),
            series,
            axis: Axis::number(axis, 2),
            value_labels: true,
        }),
    };
    let never: Vec<String> = turned
        .iter()
        .filter(|s| all_zero(s.values.iter()))
        .map(|s| s.name.clone())
        .collect();
    let legend = bar_legend(&gained);
    let mut chart = Chart {
        stem: stem(System::Advantage, "setups"),
        title: "What each advantage die adds, per setup".into(),
        notes: Vec::new(),
        warnings: Vec::new(),
        legend,
        panels: vec![
            panel(
                "Strong hits gained per player and encounter over no die",
                gained,
                "Extra strong hits",
            ),
            panel(
                "Misses turned into strong hits per player and encounter",
                turned,
                "Misses turned strong",
            ),
        ],
        columns: 1,
        width: MIN_WIDTH,
        height: MIN_HEIGHT,
    };
    let mut skip: Vec<&str> = vec![DIE.name, THRESHOLD.name, ROLLS.name];
    skip.extend(SETUP_KEYS);
    chart.notes.extend(fixed_rules_note(cases, &skip));
    chart.notes.extend(followers_note(cases));
    if !rolls_vary {
        if let Some(rolls) = per_player.first() {
            chart.notes.push(format!(
                "Each player rolls {rolls} times an encounter (a party's rolls are the whole party's)."
            ));
        }
    }
    chart.notes.extend(slice.note());
    chart.notes.extend(never_turns_note(&never));
    chart.notes.push(format!(
        "No die is 2d6 + stat alone (exact). {}",
        method_note(cases, true)
    ));
    chart.fit_height(420);
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::baseline;

    #[test]
    fn baseline_matches_the_reference_table() {
        // Published figure, 2d6 + stat without an advantage die.
        let [miss, weak, strong] = baseline(0, 6, 10);
        assert!((miss - 15.0 / 36.0).abs() < 1e-12);
        assert!((weak - 15.0 / 36.0).abs() < 1e-12);
        assert!((strong - 6.0 / 36.0).abs() < 1e-12);
        let [miss, _, strong] = baseline(3, 6, 10);
        assert!((miss - 3.0 / 36.0).abs() < 1e-12);
        assert!((strong - 21.0 / 36.0).abs() < 1e-12);
    }
}
