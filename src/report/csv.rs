//! The three CSV tables of docs/reports.md: `summary.csv` (a row per case and method,
//! inputs then metrics as columns), `metrics.csv` (long form with intervals)
//! and `distributions.csv` (every outcome's probability).
//!
//! Each table is written row by row to a writer (a file, stdout), never
//! built whole in memory: a 100,000-case sweep's tables run to hundreds
//! of megabytes.

use std::io::Write;

use serde_json::Value;

use super::format::csv_cell;
use super::{number, CaseResult, Report};
use crate::distribution::at_least;

/// Writes everything through to the writer, which is handed back.
fn finish<W: Write>(writer: csv::Writer<W>) -> anyhow::Result<W> {
    writer
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot finish a CSV table: {e}"))
}

/// Writes one row, each cell through [`csv_cell`], so no text a scenario
/// gave (a case's name) runs as a formula in a spreadsheet; numbers stay.
pub(crate) fn write_row<W: Write, T: AsRef<str>>(
    writer: &mut csv::Writer<W>,
    cells: impl IntoIterator<Item = T>,
) -> csv::Result<()> {
    for cell in cells {
        writer.write_field(csv_cell(cell.as_ref()).as_bytes())?;
    }
    writer.write_record(None::<&[u8]>)
}

/// A table written into memory, for callers that want its bytes.
#[cfg(test)]
pub fn to_bytes(table: impl FnOnce(&mut Vec<u8>) -> anyhow::Result<()>) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    table(&mut bytes)?;
    Ok(bytes)
}

/// Flattens an input value: tables become `key.sub` columns (docs/reports.md).
fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{prefix}.{k}"), v, out);
            }
        }
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        Value::Number(n) => out.push((
            prefix.to_string(),
            n.as_f64()
                .filter(|_| n.is_f64())
                .map_or_else(|| n.to_string(), number),
        )),
        Value::Null => out.push((prefix.to_string(), String::new())),
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// A result's inputs as `(column, cell)` pairs.
fn flat_inputs(result: &CaseResult) -> Vec<(String, String)> {
    let mut flat = Vec::new();
    for (k, v) in &result.inputs {
        flatten(k, v, &mut flat);
    }
    flat
}

fn push_unique(columns: &mut Vec<String>, seen: &mut rustc_hash::FxHashSet<String>, name: &str) {
    if !seen.contains(name) {
        seen.insert(name.to_string());
        columns.push(name.to_string());
    }
}

/// `summary.csv`: `case, system, method`, the inputs, then every metric.
/// Columns are the union over the results, in first-seen order; a column a
/// result lacks (another system's) is empty. The inputs are flattened once
/// for the columns and again for each row, so no flattened copy of every
/// result is held at once.
pub fn summary(report: &Report, out: impl Write) -> anyhow::Result<()> {
    let mut input_columns = Vec::new();
    let mut metric_columns = Vec::new();
    let mut seen_inputs: rustc_hash::FxHashSet<String> = Default::default();
    let mut seen_metrics: rustc_hash::FxHashSet<String> = Default::default();
    for result in &report.results {
        for (k, _) in &flat_inputs(result) {
            push_unique(&mut input_columns, &mut seen_inputs, k);
        }
        for m in &result.metrics {
            push_unique(&mut metric_columns, &mut seen_metrics, m.name());
        }
    }
    let mut writer = csv::Writer::from_writer(out);
    let mut header = vec!["case".to_string(), "system".into(), "method".into()];
    header.extend(input_columns.iter().cloned());
    header.extend(metric_columns.iter().cloned());
    write_row(&mut writer, &header)?;
    for result in &report.results {
        let flat = flat_inputs(result);
        let mut row = vec![
            result.case.clone(),
            result.system.to_string(),
            result.method.name().to_string(),
        ];
        for column in &input_columns {
            row.push(
                flat.iter()
                    .find(|(k, _)| k == column)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default(),
            );
        }
        for column in &metric_columns {
            row.push(result.value(column).map(number).unwrap_or_default());
        }
        write_row(&mut writer, &row)?;
    }
    finish(writer).map(|_| ())
}

/// `metrics.csv`: `case, system, method, metric, value, ci_low, ci_high,
/// trials`; exact rows leave the last three empty.
pub fn metrics(report: &Report, out: impl Write) -> anyhow::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    write_row(
        &mut writer,
        [
            "case", "system", "method", "metric", "value", "ci_low", "ci_high", "trials",
        ],
    )?;
    for result in &report.results {
        for metric in &result.metrics {
            let ci = metric.ci95;
            write_row(
                &mut writer,
                [
                    result.case.as_str(),
                    result.system.name(),
                    result.method.name(),
                    metric.name(),
                    &metric.value().map(number).unwrap_or_default(),
                    &ci.map(|c| number(c.0)).unwrap_or_default(),
                    &ci.map(|c| number(c.1)).unwrap_or_default(),
                    &result.trials.map(|t| t.to_string()).unwrap_or_default(),
                ],
            )?;
        }
    }
    finish(writer).map(|_| ())
}

/// `distributions.csv`: `case, method, variable, outcome, probability,
/// at_least`; `at_least` is empty for outcomes without an order. A report
/// whose rows went to a spilled table as they were made (a scenario run
/// writing a folder) is copied from it.
pub fn distributions(report: &Report, mut out: impl Write) -> anyhow::Result<()> {
    if let Some(spilled) = &report.spilled_distributions {
        return spilled.copy_to(&mut out);
    }
    let mut table = DistributionsWriter::new(out)?;
    for result in &report.results {
        table.add(result)?;
    }
    table.finish().map(|_| ())
}

/// `distributions.csv` written one result at a time.
pub struct DistributionsWriter<W: Write> {
    writer: csv::Writer<W>,
}

impl<W: Write> DistributionsWriter<W> {
    /// The table with its header.
    pub fn new(out: W) -> anyhow::Result<Self> {
        let mut writer = csv::Writer::from_writer(out);
        write_row(
            &mut writer,
            [
                "case",
                "method",
                "variable",
                "outcome",
                "probability",
                "at_least",
            ],
        )?;
        Ok(DistributionsWriter { writer })
    }

    /// A result's rows.
    pub fn add(&mut self, result: &CaseResult) -> anyhow::Result<()> {
        let at_least = at_least(&result.rows);
        for (row, at_least) in result.rows.iter().zip(at_least) {
            write_row(
                &mut self.writer,
                [
                    result.case.as_str(),
                    result.method.name(),
                    row.variable.as_str(),
                    row.outcome.as_str(),
                    &number(row.probability),
                    &at_least.map(number).unwrap_or_default(),
                ],
            )?;
        }
        Ok(())
    }

    /// Everything written through to the writer, which is handed back.
    pub fn finish(self) -> anyhow::Result<W> {
        finish(self.writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn tables_have_the_spec_columns() {
        // A metric without a value (a mean over no successes) leaves its cell empty.
        let report = fixture::report_with_an_empty_metric();
        let (exact, mc) = (&report.results[0], &report.results[1]);
        let p_exact = exact.value("p_success").unwrap();

        let summary = String::from_utf8(to_bytes(|w| summary(&report, w)).unwrap()).unwrap();
        let mut lines = summary.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(header[..5], ["case", "system", "method", "pool", "vs"]);
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(
            row[..5],
            ["d8 d6 vs 2d6", "cortex", "exact", "d8 d6", "2d6"]
        );
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
        assert_eq!(row[column("p_success")], number(p_exact));
        assert_eq!(row[column("mean_effect_step")], "");

        let metrics = String::from_utf8(to_bytes(|w| metrics(&report, w)).unwrap()).unwrap();
        assert!(metrics.starts_with("case,system,method,metric,value,ci_low,ci_high,trials\n"));
        assert!(metrics.contains(&format!(
            "d8 d6 vs 2d6,cortex,exact,p_success,{},,,\n",
            number(p_exact)
        )));
        let (lo, hi) = mc.metric("p_success").unwrap().ci95.unwrap();
        assert!(metrics.contains(&format!(
            "d8 d6 vs 2d6,cortex,monte-carlo,p_success,{},{},{},100\n",
            number(mc.value("p_success").unwrap()),
            number(lo),
            number(hi)
        )));

        let dist = String::from_utf8(to_bytes(|w| distributions(&report, w)).unwrap()).unwrap();
        assert!(dist.starts_with("case,method,variable,outcome,probability,at_least\n"));
        let first = &exact.rows[0];
        assert!(dist.contains(&format!(
            "d8 d6 vs 2d6,exact,{},{},{},{}\n",
            first.variable,
            first.outcome,
            number(first.probability),
            number(at_least(&exact.rows)[0].unwrap())
        )));
        assert!(dist.contains("d8 d6 vs 2d6,exact,win_effect,fail,"));
        assert!(dist
            .lines()
            .filter(|l| l.contains(",win_effect,"))
            .all(|l| l.ends_with(',')));
    }
}
