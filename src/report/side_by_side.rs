//! Several cases of a quick command side by side (`oddsmith advantage
//! --die d4,d8`): a row per metric, a column per case, and with two cases
//! the difference, the right column minus the left, with its 95% interval
//! when a Monte Carlo result takes part. The header names what the cases
//! share: their common main inputs and the rules that differ from the
//! defaults; what varies names the columns.

use super::table::{aligned, bracket, common_rules, fixed, method_label};
use super::{CaseResult, MethodUsed, Report};
use crate::stats::difference95;
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
        for metric in &result.evaluation.metrics {
            if !names.contains(&metric.name) {
                names.push(metric.name.clone());
            }
        }
    }
    names
}

/// Renders the cases side by side.
pub fn render(report: &Report) -> String {
    let results: Vec<&CaseResult> = report.results.iter().collect();
    let both = results.iter().any(|r| r.method != results[0].method);
    let shared = shared_main_inputs(&results);
    let rules = common_rules(&results);
    let mut out = String::new();
    let header = bracket(results[0].system.name(), &methods_label(&results), &rules);
    if shared.is_empty() {
        out.push_str(&format!("{header}\n"));
    } else {
        out.push_str(&format!("{}  {header}\n", shared.join(", ")));
    }
    // The difference of exactly two results, the second minus the first.
    let pair = (results.len() == 2).then(|| (results[0], results[1]));
    let with_interval = pair.is_some_and(|(a, b)| a.trials.is_some() || b.trials.is_some());
    let mut title = vec!["metric".to_string()];
    title.extend(results.iter().map(|r| column_title(r, both)));
    if pair.is_some() {
        title.push("difference".into());
    }
    if with_interval {
        title.push("95% interval".into());
    }
    let mut rows = vec![title];
    for name in metric_names(&results) {
        let metric = |r: &CaseResult| {
            r.evaluation
                .metrics
                .iter()
                .find(|m| m.name == name)
                .cloned()
        };
        let mut row = vec![name.clone()];
        for result in &results {
            row.push(
                metric(result)
                    .and_then(|m| m.value)
                    .map_or("-".into(), fixed),
            );
        }
        if let Some((a, b)) = pair {
            let (ma, mb) = (metric(a), metric(b));
            let difference = ma.as_ref().zip(mb.as_ref()).and_then(|(ma, mb)| {
                Some((
                    mb.value? - ma.value?,
                    difference95(ma, a.trials, mb, b.trials),
                ))
            });
            // Equal values computed along different paths differ in the
            // last bits; that is no difference to show.
            row.push(difference.map_or("-".into(), |(d, _)| {
                fixed(if d.abs() < 1e-12 { 0.0 } else { d })
            }));
            if with_interval {
                row.push(
                    difference
                        .and_then(|(_, interval)| interval)
                        .map_or("-".into(), |(lo, hi)| {
                            format!("[{}, {}]", fixed(lo), fixed(hi))
                        }),
                );
            }
        }
        rows.push(row);
    }
    out.push_str(&aligned(&rows, 1));
    out
}
