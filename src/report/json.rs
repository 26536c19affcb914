//! The JSON output of docs/reports.md: `{ tool, version, results: [...] }` (with
//! `balance: [...]` when the run answered balances, docs/cortex.md), and the
//! `run.json` of a report folder, which adds the run's seed, trials, the
//! generator's name, the block size and each exact case's truncated mass.

use std::io::Write;

use anyhow::Context;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{json, Map, Value};

use super::{balance, CaseResult, MethodUsed, Report, ReportKind};
use crate::engine::monte_carlo::BLOCK_SIZE;
use crate::engine::rng::RNG_NAME;

fn number_or_null(x: Option<f64>) -> Value {
    // Adding 0.0 writes -0.0 (an empty float sum) as 0, as the CSV does.
    x.filter(|v| v.is_finite())
        .map_or(Value::Null, |v| json!(v + 0.0))
}

/// The report as the documented JSON object, pretty-printed with a final
/// newline, written straight to `out`; `run_json` adds the folder-only keys.
/// Only one result's object exists at a time: the whole report as one
/// [`Value`] took several times the size of its text.
pub fn write_report(report: &Report, run_json: bool, mut out: impl Write) -> anyhow::Result<()> {
    // The grids a pivot or a view asked for follow the results on stdout;
    // `run.json` keeps the documented shape.
    let grids = match run_json {
        true => None,
        false => report.asked_grids(false)?,
    };
    let grids = grids.as_deref().map(super::grid::to_json);
    serde_json::to_writer_pretty(
        &mut out,
        &ReportJson {
            report,
            run_json,
            grids,
        },
    )
    .context("cannot write the JSON report")?;
    out.write_all(b"\n")
        .context("cannot write the JSON report")?;
    Ok(())
}

/// The top-level object, its keys in the documented order.
struct ReportJson<'a> {
    report: &'a Report,
    run_json: bool,
    grids: Option<Value>,
}

impl Serialize for ReportJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.report;
        let mut top = serializer.serialize_map(None)?;
        top.serialize_entry("tool", "oddsmith")?;
        top.serialize_entry("version", env!("CARGO_PKG_VERSION"))?;
        if self.run_json {
            top.serialize_entry("name", &report.name)?;
            if let Some(d) = &report.description {
                top.serialize_entry("description", d)?;
            }
            top.serialize_entry("seed", &report.seed)?;
            top.serialize_entry("trials", &report.trials)?;
            top.serialize_entry("rng", RNG_NAME)?;
            top.serialize_entry("block_size", &BLOCK_SIZE)?;
        }
        if report.kind == ReportKind::Cases {
            top.serialize_entry("results", &Results(self))?;
        }
        if let Some(grids) = &self.grids {
            top.serialize_entry("grids", grids)?;
        }
        if report.shows_balances() {
            top.serialize_entry("balance", &balance::to_json(&report.balances))?;
        }
        top.end()
    }
}

/// The `results` array, each result made into an object as it is written.
struct Results<'a>(&'a ReportJson<'a>);

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let results = &self.0.report.results;
        let mut array = serializer.serialize_seq(Some(results.len()))?;
        for r in results {
            array.serialize_element(&result_json(r, self.0.run_json))?;
        }
        array.end()
    }
}

/// One result's object.
fn result_json(r: &CaseResult, run_json: bool) -> Value {
    let mut o = Map::new();
    o.insert("case".into(), json!(r.case));
    o.insert("system".into(), json!(r.system));
    o.insert("inputs".into(), Value::Object(r.inputs.to_map()));
    o.insert("method".into(), json!(r.method.name()));
    o.insert("trials".into(), json!(r.trials));
    o.insert("seed".into(), json!(r.seed));
    let metrics: Map<String, Value> = r
        .metrics
        .iter()
        .map(|m| (m.name().to_string(), number_or_null(m.value())))
        .collect();
    o.insert("metrics".into(), Value::Object(metrics));
    if r.method == MethodUsed::MonteCarlo {
        let ci: Map<String, Value> = r
            .metrics
            .iter()
            .map(|m| {
                let v = m.ci95.map_or(Value::Null, |(lo, hi)| json!([lo, hi]));
                (m.name().to_string(), v)
            })
            .collect();
        o.insert("ci95".into(), Value::Object(ci));
    }
    if r.compared {
        let z: Map<String, Value> = r
            .metrics
            .iter()
            .map(|m| (m.name().to_string(), number_or_null(m.z_vs_exact)))
            .collect();
        o.insert("z_vs_exact".into(), Value::Object(z));
    }
    if let Some(fractions) = &r.fractions {
        let fractions: Map<String, Value> = fractions
            .iter()
            .map(|(name, f)| (name.clone(), json!(f)))
            .collect();
        o.insert("fractions".into(), Value::Object(fractions));
    }
    if run_json && r.method == MethodUsed::Exact {
        o.insert("dropped_mass".into(), json!(r.dropped_mass.unwrap_or(0.0)));
    }
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    fn report_json(report: &Report, run_json: bool) -> Value {
        let mut bytes = Vec::new();
        write_report(report, run_json, &mut bytes).unwrap();
        assert_eq!(bytes.last(), Some(&b'\n'));
        serde_json::from_slice(&bytes).unwrap()
    }

    #[test]
    fn spec_shape() {
        let report = fixture::report_with_an_empty_metric();
        let (exact_result, mc_result) = (&report.results[0], &report.results[1]);
        let v = report_json(&report, false);
        assert_eq!(v["tool"], "oddsmith");
        let exact = &v["results"][0];
        assert_eq!(exact["method"], "exact");
        assert_eq!(exact["trials"], Value::Null);
        assert_eq!(
            exact["metrics"]["p_success"],
            json!(exact_result.value("p_success").unwrap())
        );
        assert_eq!(exact["metrics"]["mean_effect_step"], Value::Null);
        assert!(exact.get("ci95").is_none());
        assert!(exact.get("z_vs_exact").is_none());
        let mc = &v["results"][1];
        assert_eq!(mc["method"], "monte-carlo");
        assert_eq!(mc["trials"], 100);
        let p = mc_result.metric("p_success").unwrap();
        let (lo, hi) = p.ci95.unwrap();
        assert_eq!(mc["ci95"]["p_success"], json!([lo, hi]));
        assert_eq!(mc["z_vs_exact"]["p_success"], json!(p.z_vs_exact.unwrap()));
        assert!(v.get("rng").is_none());
        let run = report_json(&report, true);
        assert_eq!(run["rng"], RNG_NAME);
        // An exact result that dropped nothing says so in run.json.
        assert_eq!(exact_result.dropped_mass, None);
        assert_eq!(run["results"][0]["dropped_mass"], 0.0);
    }
}
