//! Several cases of a quick command side by side (`oddsmith advantage
//! --die d4,d8`): a row per metric, a column per case, and with two cases
//! the difference, the right column minus the left, with its 95% interval
//! when a Monte Carlo result takes part. The header names what the cases
//! share: their common main inputs and the rules that differ from the
//! defaults; what varies names the columns.

use super::format::{fixed, LEVEL};
use super::table::{aligned_fit, bracket, common_rules, method_label, metric_label};
use super::{CaseResult, MethodUsed, Report};
use crate::distribution::Metric;
use crate::stats::difference95;
use crate::systems::applies::metric_applies;
use crate::systems::input_labels;

/// The main inputs (those that name a case) every result shares and that
/// are not at their defaults, as `key=value` labels, so the header says
/// what the columns have in common.
fn shared_main_inputs(results: &[&CaseResult]) -> Vec<String> {
    let first = results[0];
    first
        .system
        .main_keys()
        .iter()
        .filter_map(|key| first.inputs.get(*key).map(|value| (*key, value)))
        .filter(|(key, value)| results.iter().all(|r| r.inputs.get(*key) == Some(value)))
        .filter(|(key, _)| !first.system.at_default(&first.inputs, key))
        .flat_map(|(key, value)| input_labels(key, value))
        .collect()
}

/// How the results were computed: one method for all, or each named.
fn methods_label(results: &[&CaseResult]) -> String {
    let mut labels: Vec<String> = Vec::new();
    for result in results {
        let label = method_label(result);
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    labels.join(" and ")
}

/// A column's title: the case, and its method when the cases were
/// computed both ways.
fn column_title(result: &CaseResult, both: bool) -> String {
    match (both, result.method) {
        (false, _) => result.case.clone(),
        (true, MethodUsed::Exact) => format!("{} (exact)", result.case),
        (true, MethodUsed::MonteCarlo) => format!("{} (mc)", result.case),
    }
}

/// Every metric name, in the order the results first give them.
fn metric_names(results: &[&CaseResult]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for result in results {
        for metric in &result.metrics {
            if !names.iter().any(|n| n == metric.name()) {
                names.push(metric.name().to_string());
            }
        }
    }
    names
}

/// One metric across the cases: its value in each (none where a case
/// lacks it), and with two cases the difference, the right minus the left,
/// with its 95% interval when a Monte Carlo result takes part.
pub struct ComparedMetric {
    /// The metric as the first case that has it gives it (its name and
    /// kind; the values are in `values`).
    pub metric: Metric,
    pub values: Vec<Option<f64>>,
    /// Per case, whether the metric can apply to it at all
    /// ([`metric_applies`]): a cell where it cannot reads "–", and a metric
    /// that applies to no case has no row.
    pub applies: Vec<bool>,
    pub difference: Option<f64>,
    pub interval: Option<(f64, f64)>,
}

/// Several cases side by side, before any formatting, so the aligned text
/// table and the Markdown table say the same.
pub struct Comparison {
    /// What the cases share: `shared inputs  [system, method; rules]`.
    pub header: String,
    /// A title per case.
    pub columns: Vec<String>,
    /// Whether there is a difference column (exactly two cases).
    pub with_difference: bool,
    /// Whether the difference has an interval (a Monte Carlo case).
    pub with_interval: bool,
    pub rows: Vec<ComparedMetric>,
}

/// The cases of a report side by side.
pub fn compare(report: &Report) -> Comparison {
    let results: Vec<&CaseResult> = report.results.iter().collect();
    let both = results.iter().any(|r| r.method != results[0].method);
    let shared = shared_main_inputs(&results);
    let rules = common_rules(&results);
    let bracketed = bracket(results[0].system.name(), &methods_label(&results), &rules);
    let header = if shared.is_empty() {
        bracketed
    } else {
        format!("{}  {bracketed}", shared.join(", "))
    };
    // The difference of exactly two results, the second minus the first.
    let pair = (results.len() == 2).then(|| (results[0], results[1]));
    let with_interval = pair.is_some_and(|(a, b)| a.trials.is_some() || b.trials.is_some());
    let mut rows = Vec::new();
    for name in metric_names(&results) {
        let find = |r: &CaseResult| r.metric(&name).map(|m| m.metric.clone());
        let Some(metric) = results.iter().find_map(|r| find(r)) else {
            continue;
        };
        let applies: Vec<bool> = results
            .iter()
            .map(|r| metric_applies(r.system, &name, &r.inputs))
            .collect();
        if !applies.contains(&true) {
            continue;
        }
        let values = results.iter().map(|r| r.value(&name)).collect();
        let (difference, interval) = pair
            .and_then(|(a, b)| {
                let (ma, mb) = (find(a)?, find(b)?);
                // Equal values computed along different paths differ in
                // the last bits; that is no difference to show.
                let d = mb.value? - ma.value?;
                let d = if d.abs() < 1e-12 { 0.0 } else { d };
                Some((Some(d), difference95(&ma, a.trials, &mb, b.trials)))
            })
            .unwrap_or((None, None));
        rows.push(ComparedMetric {
            metric,
            values,
            applies,
            difference,
            interval,
        });
    }
    Comparison {
        header,
        columns: results.iter().map(|r| column_title(r, both)).collect(),
        with_difference: pair.is_some(),
        with_interval,
        rows,
    }
}

/// Renders the cases side by side as an aligned text table, the metrics
/// named in words (or by code name under `--names code`), long heads and
/// phrases wrapped to fit the terminal.
pub fn render(report: &Report) -> String {
    let names = report.presentation.names;
    let comparison = compare(report);
    let mut out = format!("{}\n", comparison.header);
    let mut title = vec!["metric".to_string()];
    title.extend(comparison.columns.iter().cloned());
    if comparison.with_difference {
        title.push("difference".into());
    }
    if comparison.with_interval {
        title.push(format!("{LEVEL} interval"));
    }
    let mut rows = vec![title];
    for compared in &comparison.rows {
        let mut row = vec![metric_label(&compared.metric.name, names)];
        row.extend(
            compared
                .values
                .iter()
                .zip(&compared.applies)
                .map(|(v, applies)| match (v, applies) {
                    (_, false) => "–".into(),
                    (v, true) => v.map_or("-".into(), fixed),
                }),
        );
        if comparison.with_difference {
            row.push(compared.difference.map_or("-".into(), fixed));
        }
        if comparison.with_interval {
            row.push(compared.interval.map_or("-".into(), |(lo, hi)| {
                format!("[{}, {}]", fixed(lo), fixed(hi))
            }));
        }
        rows.push(row);
    }
    out.push_str(&aligned_fit(&rows, 1));
    out
}
