//! Charts of a report (docs/reports.md: "charts as PNG and SVG"), built from the
//! [`Report`] value alone: each system's results are found by their
//! `system` name and read through their inputs, metric names, distribution
//! rows and 95% intervals, so the charts work for any report that follows
//! the documented names, whichever engine produced it.
//!
//! Every system has one arm in [`charts`] (the `match` is exhaustive, so a
//! new system is flagged here); a system without charts returns none. Chart
//! files are named `<system>-<what>` ([`stem`]), which is how a report
//! folder's old charts are recognised ([`is_chart_file`]).
//!
//! Which result a chart draws for a case: the exact one when there is one
//! (with `--method both` a case appears twice), else the Monte Carlo one,
//! whose 95% intervals are drawn as error bars.

pub(crate) mod model;
pub mod render;

mod advantage;
mod balance;
mod conflict;
mod cortex;
mod economy;
pub(crate) mod labels;
mod plot_points;
mod scene;
mod storytelling;
mod storytelling_actions;
mod totals;

use serde_json::Value as Json;

use super::format::{thousands, LEVEL};
use super::{CaseResult, MethodUsed, Report};
use crate::options::{KeyDef, RawValue};
use crate::stats;
use crate::systems::advantage::keys::STAT;
use crate::systems::metrics::MetricRef;
use crate::systems::System;
pub use model::Chart;

/// The systems of the report's cases, each once, in the order they first
/// appear.
pub fn systems_in(report: &Report) -> Vec<System> {
    let mut systems: Vec<System> = Vec::new();
    for r in &report.results {
        if !systems.contains(&r.system) {
            systems.push(r.system);
        }
    }
    systems
}

/// Every chart of the report, in a fixed order: systems as they first
/// appear in the report, each system's charts in its builder's order.
pub fn charts(report: &Report) -> Vec<Chart> {
    let mut out = Vec::new();
    for system in systems_in(report) {
        let mut results = chosen(report, system);
        let all = results.len();
        results.truncate(MAX_CHARTED_CASES);
        let mut drawn = system_charts(system, &results);
        for chart in &mut drawn {
            let shown = fit_in_pixels(chart, system, &results);
            if shown < all {
                chart.cut(format!(
                    "Only the first {} of {} cases are drawn; the tables hold every case.",
                    thousands(shown as u64),
                    thousands(all as u64)
                ));
            }
        }
        out.extend(drawn);
    }
    out.extend(balance::charts(&report.balances));
    out
}

/// The charts of `results`, all of `system`.
fn system_charts(system: System, results: &[&CaseResult]) -> Vec<Chart> {
    match system {
        System::Cortex => {
            let mut charts = cortex::charts(results);
            charts.extend(totals::chart(results));
            charts.extend(plot_points::chart(results));
            charts
        }
        System::CortexScene => {
            let mut charts = scene::charts(results);
            charts.extend(economy::charts(results));
            charts
        }
        System::CortexConflict => conflict::charts(results),
        System::Storytelling => {
            // Extended and contested actions have charts of their own.
            let (actions, rolls): (Vec<&CaseResult>, Vec<&CaseResult>) = results
                .iter()
                .copied()
                .partition(|r| storytelling_actions::is_action(r));
            let mut charts = storytelling::charts(&rolls);
            charts.extend(storytelling_actions::charts(&actions));
            charts
        }
        System::Advantage => advantage::charts(results),
    }
}

/// The most pixels one chart's canvas may hold: twice the largest bundled
/// chart (about 4 million), legible when posted, and 24 MB of pixels while
/// it is drawn. A chart of 200 cases of one shape can be far larger (a row
/// of 200 doom pools is 27,480 pixels wide, 66 MB), which a reader cannot
/// take in and a big sweep's memory should not carry.
pub const MAX_CHART_PIXELS: u64 = 8_000_000;

/// Draws `chart` again from the first half, quarter, ... of `results`
/// until its canvas holds at most [`MAX_CHART_PIXELS`]; returns the cases
/// it draws.
fn fit_in_pixels(chart: &mut Chart, system: System, results: &[&CaseResult]) -> usize {
    let pixels =
        |chart: &Chart| render::canvas_size(chart).map_or(0, |(w, h)| u64::from(w) * u64::from(h));
    let mut shown = results.len();
    while shown > 1 && pixels(chart) > MAX_CHART_PIXELS {
        let half = shown / 2;
        let Some(smaller) = system_charts(system, &results[..half])
            .into_iter()
            .find(|c| c.stem == chart.stem)
        else {
            break;
        };
        *chart = smaller;
        shown = half;
    }
    shown
}

/// The most cases of one system a report draws. Every chart grows with its
/// cases (a row, a bar or a panel each): a 210 x 210 sweep asked for a
/// 28,830 x 13,320 pixel heatmap and crashed plotters at 2.3 GB, and 5,000
/// scenes a 820,123 pixel tall image. The first cases are drawn, with a
/// note; past this many a chart is no longer readable anyway. (The bundled
/// scenarios stay below it.)
pub const MAX_CHARTED_CASES: usize = 200;

/// Whether the charts may draw a case that comes after `earlier` cases of
/// its system: only a system's first [`MAX_CHARTED_CASES`] are drawn.
pub fn may_draw(earlier: usize) -> bool {
    earlier < MAX_CHARTED_CASES
}

/// A chart's file stem: the system's name, then what the chart shows.
pub fn stem(system: System, what: &str) -> String {
    format!("{}-{what}", system.name())
}

/// Whether a file in a report folder is one of oddsmith's charts: a PNG or
/// SVG named after a system ([`stem`]).
pub fn is_chart_file(name: &str) -> bool {
    let Some(stem) = name
        .strip_suffix(".png")
        .or_else(|| name.strip_suffix(".svg"))
    else {
        return false;
    };
    System::ALL
        .iter()
        .any(|system| stem.starts_with(&format!("{}-", system.name())))
}

/// Where `metric` comes among the metrics a system's charts draw (its
/// builder's list, the headline first), or `None` when they do not draw
/// it; the publishing pages' results tables show these, in this order.
/// A listed family stands for every metric of it.
pub fn drawn_rank(system: System, metric: &str) -> Option<usize> {
    let drawn: &[MetricRef] = match system {
        System::Cortex => cortex::METRICS_DRAWN,
        System::CortexScene => scene::METRICS_DRAWN,
        System::Storytelling => return storytelling_actions::drawn_rank(metric),
        System::Advantage => advantage::METRICS_DRAWN,
        System::CortexConflict => conflict::METRICS_DRAWN,
    };
    drawn.iter().position(|d| d.matches(metric))
}

/// The chart files of a report: `<stem>.png` and `<stem>.svg` per chart.
/// What a chart leaves out is said on stderr, one line per chart, which
/// `--quiet` does not hide (docs/reports.md, "Nothing silent").
pub fn files(report: &Report) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for chart in charts(report) {
        for warning in &chart.warnings {
            crate::messages::say(format_args!(
                "warning: chart {} of {}: {warning}",
                chart.stem, report.name
            ));
        }
        files.push((format!("{}.png", chart.stem), render::png(&chart)?));
        files.push((
            format!("{}.svg", chart.stem),
            render::svg(&chart)?.into_bytes(),
        ));
    }
    Ok(files)
}

/// Per case of `system`, in report order: the exact result if there is one,
/// else the Monte Carlo one.
pub fn chosen(report: &Report, system: System) -> Vec<&CaseResult> {
    let mut out: Vec<&CaseResult> = Vec::new();
    // Each case's place in `out`, so 100,000 cases are not each compared
    // with every case before them.
    let mut place: std::collections::HashMap<&str, usize> = Default::default();
    for r in report.results.iter().filter(|r| r.system == system) {
        match place.get(r.case.as_str()) {
            Some(&i) => {
                if out[i].method != MethodUsed::Exact && r.method == MethodUsed::Exact {
                    out[i] = r;
                }
            }
            None => {
                place.insert(&r.case, out.len());
                out.push(r);
            }
        }
    }
    out
}

/// A metric's value.
pub fn metric(r: &CaseResult, name: &str) -> Option<f64> {
    r.value(name)
}

/// A metric's value with its 95% interval (Monte Carlo only).
pub fn metric_value(r: &CaseResult, name: &str) -> Option<model::Value> {
    let m = r.metric(name)?;
    Some(model::Value {
        value: m.value()?,
        ci: m.ci95,
    })
}

/// A proportion of all trials with its Wilson 95% interval when the result
/// is a Monte Carlo one (distribution rows and running totals are shares of
/// all trials, as docs/reports.md's intervals for probabilities are).
pub fn share(r: &CaseResult, p: f64) -> model::Value {
    let ci = match (r.method, r.trials) {
        (MethodUsed::MonteCarlo, Some(n)) if n > 0 => {
            Some(stats::wilson(p.clamp(0.0, 1.0), n as f64, stats::z95()))
        }
        _ => None,
    };
    model::Value { value: p, ci }
}

/// The rows of one distribution variable: `(outcome, probability)`.
pub fn distribution<'a>(r: &'a CaseResult, variable: &str) -> Vec<(&'a str, f64)> {
    r.rows
        .iter()
        .filter(|row| row.variable == variable)
        .map(|row| (row.outcome.as_str(), row.probability))
        .collect()
}

/// `(n, P(variable >= n))` for each whole-number outcome of a variable,
/// lowest first: `distributions.csv`'s `at_least` column, from the one rule
/// that makes it ([`crate::distribution::at_least`]), so a chart's tail is
/// the table's to the last bit.
pub fn at_least_of(r: &CaseResult, variable: &str) -> Vec<(i64, f64)> {
    let rows = &r.rows;
    let mut out: Vec<(i64, f64)> = rows
        .iter()
        .zip(crate::distribution::at_least(rows))
        .filter(|(row, _)| row.variable == variable)
        .filter_map(|(row, p)| Some((row.outcome.parse().ok()?, p?)))
        .collect();
    out.sort_by_key(|(n, _)| *n);
    out
}

/// P(X >= k) read from a variable's [`at_least_of`]: the tail at the lowest
/// outcome from `k` up, 0 past the highest.
pub fn tail_from(at_least: &[(i64, f64)], k: i64) -> f64 {
    at_least
        .iter()
        .find(|(n, _)| *n >= k)
        .map_or(0.0, |&(_, p)| p)
}

/// An input as text: strings bare, numbers and booleans as written, tables
/// as `key=value` pairs.
pub fn input_text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k}={}", input_text(v)))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// An input of a result as text.
pub fn input(r: &CaseResult, key: &KeyDef) -> Option<String> {
    r.inputs.get(key.name).map(input_text)
}

/// An integer input.
pub fn input_int(r: &CaseResult, key: &KeyDef) -> Option<i64> {
    r.inputs.get(key.name).and_then(Json::as_i64)
}

/// An integer input, or where the result does not show it (an option that
/// does not apply to the case) the default its key declares.
pub fn input_int_or_default(r: &CaseResult, key: &KeyDef) -> i64 {
    input_int(r, key).unwrap_or_else(|| match key.default_value() {
        Some(RawValue::Int(i)) => i,
        _ => panic!("`{}` declares no whole-number default", key.name),
    })
}

/// Whether a switch input is on (a result without it has it off).
pub fn input_on(r: &CaseResult, key: &KeyDef) -> bool {
    r.inputs.get(key.name).and_then(Json::as_bool) == Some(true)
}

/// The input keys, other than `skip`, whose values differ between results,
/// in first-seen order.
pub fn varying_keys(results: &[&CaseResult], skip: &[&str]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for r in results {
        for k in r.inputs.keys() {
            if !skip.contains(&k.as_str()) && !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    keys.retain(|k| !is_fixed(results, k));
    keys
}

/// Whether every result that has input `key` has the same value for it
/// (options that do not apply to a case are absent from its inputs, docs/reports.md,
/// and do not count as a difference).
fn is_fixed(results: &[&CaseResult], key: &str) -> bool {
    let mut values = results.iter().filter_map(|r| r.inputs.get(key));
    match values.next() {
        Some(first) => values.all(|v| v == first),
        None => true,
    }
}

/// `key=value`, a table flattened to `key.sub=value` pairs as in
/// `summary.csv` (docs/reports.md).
pub fn pairs(key: &str, value: &Json) -> Vec<String> {
    match value {
        Json::Object(map) => map
            .iter()
            .flat_map(|(k, v)| pairs(&format!("{key}.{k}"), v))
            .collect(),
        other => vec![format!("{key}={}", input_text(other))],
    }
}

/// The phrases ([`labels::phrase`]) of the given keys of a result, joined
/// by ", ": "doom pool starts at 2d8, 6 actions".
pub fn label_of(r: &CaseResult, keys: &[String]) -> String {
    keys.iter()
        .filter_map(|k| r.inputs.get(k).map(|v| labels::phrase(k, v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The input keys some results have and others lack (options that apply
/// to some cases only, like `threshold` with `policy = "threshold"`).
pub fn partial_keys(results: &[&CaseResult]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for r in results {
        for k in r.inputs.keys() {
            if !keys.contains(k) && results.iter().any(|o| !o.inputs.contains_key(k)) {
                keys.push(k.clone());
            }
        }
    }
    keys
}

/// Cases cut down to at most a budget of panels (or lines): the inputs
/// still split into groups, and those held at one representative value.
pub struct Slice<'a> {
    pub cases: Vec<&'a CaseResult>,
    /// The keys that still split the cases, in the order given.
    pub keys: Vec<String>,
    /// `(key, value shown, every value the report has)`.
    pub held: Vec<(String, Json, Vec<Json>)>,
}

impl Slice<'_> {
    /// The note naming the slice shown, if anything was held:
    /// "Shown: stat 0 (of -1, 0, 1, 2), 6 rolls an encounter (of 3, 6,
    /// 10); summary.csv has every case."
    pub fn note(&self) -> Option<String> {
        if self.held.is_empty() {
            return None;
        }
        let parts: Vec<String> = self
            .held
            .iter()
            .map(|(k, v, all)| {
                let all: Vec<String> = all.iter().map(labels::value_text).collect();
                format!("{} (of {})", labels::phrase(k, v), all.join(", "))
            })
            .collect();
        Some(format!(
            "Shown: {}; summary.csv has every case.",
            parts.join(", ")
        ))
    }
}

/// How many distinct groups `keys` split the cases into.
pub fn group_count(cases: &[&CaseResult], keys: &[String]) -> usize {
    let mut labels: Vec<String> = cases.iter().map(|r| label_of(r, keys)).collect();
    labels.sort();
    labels.dedup();
    labels.len()
}

/// The distinct values of an input, in first-seen order.
pub fn values_of(cases: &[&CaseResult], key: &str) -> Vec<Json> {
    let mut out: Vec<Json> = Vec::new();
    for r in cases {
        if let Some(v) = r.inputs.get(key) {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
    }
    out
}

/// The value of `key` that stands for the rest when it cannot be split out,
/// given the `others` keys that still split the cases. First the value
/// found with the most combinations of the others, so holding it loses as
/// few of them as it can (a pool run only at `actions = 8` stays); among
/// those, for a modifier (`stat`, or any range reaching below zero) 0 or
/// the value nearest it, for other numbers the middle value (the lower of
/// two), for anything else the first value the scenario lists.
pub fn representative(cases: &[&CaseResult], key: &str, others: &[String]) -> Option<Json> {
    let values = values_of(cases, key);
    let coverage = |v: &Json| {
        let with: Vec<&CaseResult> = cases
            .iter()
            .copied()
            .filter(|r| r.inputs.get(key) == Some(v))
            .collect();
        group_count(&with, others)
    };
    let most = values.iter().map(coverage).max()?;
    let values: Vec<Json> = values.into_iter().filter(|v| coverage(v) == most).collect();
    let numbers: Option<Vec<f64>> = values.iter().map(Json::as_f64).collect();
    match numbers {
        Some(mut nums) if !nums.is_empty() => {
            nums.sort_by(f64::total_cmp);
            let pick = if key == STAT.name || nums[0] < 0.0 {
                // The smaller of two equally near values (-1 before +1).
                nums.iter()
                    .copied()
                    .min_by(|a, b| a.abs().total_cmp(&b.abs()).then(a.total_cmp(b)))?
            } else {
                nums[(nums.len() - 1) / 2]
            };
            values.into_iter().find(|v| v.as_f64() == Some(pick))
        }
        _ => values.into_iter().next(),
    }
}

/// Keeps the keys that split the cases (`keys`: key and priority, higher
/// kept longer) while they make more than `budget` groups, holding the
/// lowest-priority key at its [`representative`] value; among keys of equal
/// priority the one whose loss leaves the most groups goes first (the later
/// key on a tie). Cases without a held key (an option that does not apply
/// to them) stay.
pub fn fit<'a>(cases: &[&'a CaseResult], keys: &[(String, u8)], budget: usize) -> Slice<'a> {
    let mut cases: Vec<&CaseResult> = cases.to_vec();
    let mut keys: Vec<(String, u8)> = keys.to_vec();
    let mut held = Vec::new();
    let names = |keys: &[(String, u8)]| keys.iter().map(|k| k.0.clone()).collect::<Vec<_>>();
    while keys.len() > 1 && group_count(&cases, &names(&keys)) > budget.max(1) {
        let lowest = keys.iter().map(|k| k.1).min().unwrap_or(0);
        let mut best: Option<(usize, usize)> = None;
        for (i, _) in keys.iter().enumerate().filter(|(_, k)| k.1 == lowest) {
            let mut rest = keys.clone();
            let (key, _) = rest.remove(i);
            let Some(value) = representative(&cases, &key, &names(&rest)) else {
                continue;
            };
            let kept: Vec<&CaseResult> = cases
                .iter()
                .copied()
                .filter(|r| r.inputs.get(&key).is_none_or(|v| *v == value))
                .collect();
            let n = group_count(&kept, &names(&rest));
            if best.is_none_or(|(_, m)| n >= m) {
                best = Some((i, n));
            }
        }
        let Some((i, _)) = best else { break };
        let (key, _) = keys.remove(i);
        let all = values_of(&cases, &key);
        if let Some(value) = representative(&cases, &key, &names(&keys)) {
            cases.retain(|r| r.inputs.get(&key).is_none_or(|v| *v == value));
            held.push((key, value, all));
        }
    }
    Slice {
        cases,
        keys: names(&keys),
        held,
    }
}

/// The default priority of a key for [`fit`]: numbers are held first,
/// then text and switches; options only some cases have (a policy's
/// `threshold`) name variants and are kept longest.
pub fn priority(cases: &[&CaseResult], key: &str) -> u8 {
    if cases.iter().any(|r| !r.inputs.contains_key(key)) {
        3
    } else if values_of(cases, key).iter().all(Json::is_number) {
        1
    } else {
        2
    }
}

/// The note line of rules held fixed across the results (inputs with one
/// value wherever they apply, other than `skip`), in words: "Rules: 2 dice
/// kept for the total, ties go to the reaction, ...".
pub fn fixed_rules_note(results: &[&CaseResult], skip: &[&str]) -> Option<String> {
    let mut fixed: Vec<String> = Vec::new();
    let mut seen: Vec<&String> = Vec::new();
    for r in results {
        for (k, v) in &r.inputs {
            if skip.contains(&k.as_str()) || seen.contains(&k) {
                continue;
            }
            seen.push(k);
            if is_fixed(results, k) {
                fixed.push(labels::phrase(k, v));
            }
        }
    }
    (!fixed.is_empty()).then(|| format!("Rules: {}", fixed.join(", ")))
}

/// The note line saying how the numbers were found.
pub fn method_note(results: &[&CaseResult], error_bars: bool) -> String {
    let mc: Vec<&&CaseResult> = results
        .iter()
        .filter(|r| r.method == MethodUsed::MonteCarlo)
        .collect();
    let sampled = |r: &CaseResult| {
        format!(
            "{} trials per case, seed {}",
            thousands(r.trials.unwrap_or(0)),
            r.seed.unwrap_or(0)
        )
    };
    let bars = if error_bars {
        format!("; error bars show {LEVEL} intervals")
    } else {
        String::new()
    };
    match mc.first() {
        None => "Exact probabilities.".into(),
        Some(first) if mc.len() == results.len() => {
            format!("Monte Carlo, {}{bars}.", sampled(first))
        }
        Some(first) => format!(
            "Exact where feasible; Monte Carlo for {} of {} cases ({}){bars}.",
            mc.len(),
            results.len(),
            sampled(first)
        ),
    }
}

/// Panels per row for `n` panels.
pub fn columns_for(n: usize) -> usize {
    match n {
        0 | 1 => 1,
        2 | 4 => 2,
        _ => 3,
    }
}

/// The canvas width for that many panels per row.
pub fn width_for(columns: usize) -> u32 {
    match columns {
        1 => model::MIN_WIDTH,
        2 => 1600,
        _ => 1800,
    }
}

#[cfg(test)]
mod economy_tests;
#[cfg(test)]
mod tests;
