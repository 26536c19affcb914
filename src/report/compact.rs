//! `run`'s table: per system, a row per case and method with the system's
//! headline metrics (the registry's [`System::headline_metrics`]), and for
//! a Cortex sweep of pools against oppositions a matrix of p_success, pools
//! down and oppositions across, so a 45-case ladder reads on one screen.
//! The full metric list stays in the report files and in `--format csv`
//! and `json`. Values have four decimals here (three in the matrix, so nine
//! rungs fit 80 columns): the table is for reading at a glance. As in the
//! pages, metrics are named in words (code names under `--names code`), a
//! column that reads the same in every case is said once above the table,
//! and a metric that cannot apply to a case reads "–" there (and has no
//! column when it applies to none).

use std::collections::HashMap;

use super::pivot::Names;
use super::table::{aligned, aligned_fit, bracket, common_rules, metric_label};
use super::{CaseResult, Report};
use crate::systems::applies::metric_applies;
use crate::systems::cortex::keys::{DIFFICULTY, POOL, VS};
use crate::systems::cortex::metrics::P_SUCCESS;
use crate::systems::{System, HEADLINE_COLUMNS};

/// A value with `decimals` decimals; `-` for none.
fn short(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".into(), |x| super::format::decimals(x, decimals))
}

/// The value of metric `name` in `result`, if it has one.
fn value_of(result: &CaseResult, name: &str) -> Option<f64> {
    result.value(name)
}

/// How the group was computed: one method (with trials and seed for Monte
/// Carlo), else "several methods" and a column says which.
fn methods(results: &[&CaseResult]) -> (String, bool) {
    let first = super::table::method_label(results[0]);
    let mixed = results
        .iter()
        .any(|r| super::table::method_label(r) != first);
    if mixed {
        ("exact and monte carlo".into(), true)
    } else {
        (first, false)
    }
}

/// A headline cell: four decimals, "–" where the metric cannot apply.
fn cell(result: &CaseResult, name: &str) -> String {
    if metric_applies(result.system, name, &result.inputs) {
        short(value_of(result, name), 4)
    } else {
        "–".into()
    }
}

/// One system's cases: a header, what every case shares, then a row per
/// result.
fn group(system: System, results: &[&CaseResult], names: Names) -> String {
    let mut candidates: Vec<&str> = system
        .headline_metrics()
        .iter()
        .map(|metric| metric.name)
        .filter(|name| {
            results
                .iter()
                .any(|r| value_of(r, name).is_some() && metric_applies(r.system, name, &r.inputs))
        })
        .collect();
    // A column that reads the same in every row (of two or more) says
    // nothing per case: it is said once above the table instead.
    let mut same: Vec<String> = Vec::new();
    if results.len() > 1 {
        candidates.retain(|name| {
            let first = cell(results[0], name);
            let constant = results.iter().all(|r| cell(r, name) == first);
            if constant {
                same.push(format!("{} {first}", metric_label(name, names)));
            }
            !constant
        });
    }
    let headline: Vec<&str> = candidates.into_iter().take(HEADLINE_COLUMNS).collect();
    let (how, mixed) = methods(results);
    let count = results.len();
    let cases = if count == 1 { "case" } else { "cases" };
    let mut out = format!(
        "{count} {cases}  {}\n",
        bracket(system.name(), &how, &common_rules(results))
    );
    if !same.is_empty() {
        out.push_str(&format!("  the same in every case: {}\n", same.join("; ")));
    }
    let mut title = vec!["case".to_string()];
    if mixed {
        title.push("method".into());
    }
    title.extend(headline.iter().map(|m| metric_label(m, names)));
    let mut rows = vec![title];
    for result in results {
        let mut row = vec![result.case.clone()];
        if mixed {
            row.push(result.method.name().into());
        }
        row.extend(headline.iter().map(|m| cell(result, m)));
        rows.push(row);
    }
    out.push_str(&aligned_fit(&rows, if mixed { 2 } else { 1 }));
    if system == System::Cortex {
        if let Some(matrix) = p_success_matrix(results, names) {
            out.push('\n');
            out.push_str(&matrix);
        }
    }
    out
}

/// The opposition a Cortex result rolled against: its `vs` pool or its
/// `difficulty`, as written.
fn opposition(result: &CaseResult) -> Option<String> {
    let value = result
        .inputs
        .get(VS.name)
        .or_else(|| result.inputs.get(DIFFICULTY.name))?;
    Some(match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// p_success with pools down and oppositions across, when the results are
/// exactly a grid of two or more pools by two or more oppositions (each
/// pair once; a sweep of other keys too, or `--method both`, is no grid).
fn p_success_matrix(results: &[&CaseResult], names: Names) -> Option<String> {
    // Indexed by position so a sweep of many thousand cases stays linear
    // (a scan per cell made a 44,100-case table quadratic).
    let mut pools: Vec<String> = Vec::new();
    let mut pool_index: HashMap<String, usize> = HashMap::new();
    let mut against: Vec<String> = Vec::new();
    let mut against_index: HashMap<String, usize> = HashMap::new();
    let mut cells: HashMap<(usize, usize), Option<f64>> = HashMap::new();
    for result in results {
        let pool = result.inputs.get(POOL.name)?.as_str()?.to_string();
        let opposition = opposition(result)?;
        let row = *pool_index.entry(pool.clone()).or_insert_with(|| {
            pools.push(pool);
            pools.len() - 1
        });
        let column = *against_index.entry(opposition.clone()).or_insert_with(|| {
            against.push(opposition);
            against.len() - 1
        });
        if cells
            .insert((row, column), value_of(result, P_SUCCESS.name))
            .is_some()
        {
            return None;
        }
    }
    if pools.len() < 2 || against.len() < 2 || cells.len() != pools.len() * against.len() {
        return None;
    }
    let mut rows = vec![std::iter::once("pool \\ vs".to_string())
        .chain(against.iter().cloned())
        .collect::<Vec<_>>()];
    for (row_index, pool) in pools.iter().enumerate() {
        let mut row = vec![pool.clone()];
        for column_index in 0..against.len() {
            let cell = cells.get(&(row_index, column_index)).copied().flatten();
            row.push(short(cell, 3));
        }
        rows.push(row);
    }
    Some(format!(
        "{}\n{}",
        metric_label(P_SUCCESS.name, names),
        aligned(&rows, 1)
    ))
}

/// Renders the report's cases compactly, one group per system in the order
/// the systems first appear.
pub fn render(report: &Report) -> String {
    let mut systems: Vec<System> = Vec::new();
    for result in &report.results {
        if !systems.contains(&result.system) {
            systems.push(result.system);
        }
    }
    let mut out = String::new();
    for (i, system) in systems.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let results: Vec<&CaseResult> = report
            .results
            .iter()
            .filter(|r| r.system == system)
            .collect();
        out.push_str(&group(system, &results, report.presentation.names));
    }
    out
}
