//! `run`'s table: per system, a row per case and method with the system's
//! headline metrics (the registry's [`System::headline_metrics`]), and for
//! a Cortex sweep of pools against oppositions a matrix of p_success, pools
//! down and oppositions across, so a 45-case ladder reads on one screen.
//! The full metric list stays in the report files and in `--format csv`
//! and `json`. Values have four decimals here (three in the matrix, so nine
//! rungs fit 80 columns): the table is for reading at a glance.

use std::collections::HashMap;

use super::table::{aligned, bracket, common_rules};
use super::{CaseResult, Report};
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

/// One system's cases: a header, then a row per result.
fn group(system: System, results: &[&CaseResult]) -> String {
    let headline: Vec<&str> = system
        .headline_metrics()
        .iter()
        .map(|metric| metric.name)
        .filter(|name| results.iter().any(|r| value_of(r, name).is_some()))
        .take(HEADLINE_COLUMNS)
        .collect();
    let (how, mixed) = methods(results);
    let count = results.len();
    let cases = if count == 1 { "case" } else { "cases" };
    let mut out = format!(
        "{count} {cases}  {}\n",
        bracket(system.name(), &how, &common_rules(results))
    );
    let mut title = vec!["case".to_string()];
    if mixed {
        title.push("method".into());
    }
    title.extend(headline.iter().map(|m| m.to_string()));
    let mut rows = vec![title];
    for result in results {
        let mut row = vec![result.case.clone()];
        if mixed {
            row.push(result.method.name().into());
        }
        row.extend(headline.iter().map(|m| short(value_of(result, m), 4)));
        rows.push(row);
    }
    out.push_str(&aligned(&rows, if mixed { 2 } else { 1 }));
    if system == System::Cortex {
        if let Some(matrix) = p_success_matrix(results) {
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
fn p_success_matrix(results: &[&CaseResult]) -> Option<String> {
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
    Some(format!("{}\n{}", P_SUCCESS.name, aligned(&rows, 1)))
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
        out.push_str(&group(system, &results));
    }
    out
}
