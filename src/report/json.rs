//! The JSON output of SPEC 8: `{ tool, version, results: [...] }` (with
//! `balance: [...]` when the run answered balances, SPEC 6), and the
//! `run.json` of a report folder, which adds the run's seed, trials, the
//! generator's name, the block size and each exact case's truncated mass.

use serde_json::{json, Map, Value};

use super::{balance, MethodUsed, Report, ReportKind};
use crate::engine::monte_carlo::BLOCK_SIZE;
use crate::engine::rng::RNG_NAME;

fn number_or_null(x: Option<f64>) -> Value {
    // Adding 0.0 writes -0.0 (an empty float sum) as 0, as the CSV does.
    x.filter(|v| v.is_finite())
        .map_or(Value::Null, |v| json!(v + 0.0))
}

/// The report as the SPEC's JSON object; `run_json` adds the folder-only keys.
pub fn report_json(report: &Report, run_json: bool) -> Value {
    let mut top = Map::new();
    top.insert("tool".into(), json!("oddsmith"));
    top.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    if run_json {
        top.insert("name".into(), json!(report.name));
        if let Some(d) = &report.description {
            top.insert("description".into(), json!(d));
        }
        top.insert("seed".into(), json!(report.seed));
        top.insert("trials".into(), json!(report.trials));
        top.insert("rng".into(), json!(RNG_NAME));
        top.insert("block_size".into(), json!(BLOCK_SIZE));
    }
    let results: Vec<Value> = report
        .results
        .iter()
        .map(|r| {
            let mut o = Map::new();
            o.insert("case".into(), json!(r.case));
            o.insert("system".into(), json!(r.system));
            o.insert("inputs".into(), Value::Object(r.inputs.clone()));
            o.insert("method".into(), json!(r.method.name()));
            o.insert("trials".into(), json!(r.trials));
            o.insert("seed".into(), json!(r.seed));
            let metrics: Map<String, Value> = r
                .evaluation
                .metrics
                .iter()
                .map(|m| (m.name.clone(), number_or_null(m.value)))
                .collect();
            o.insert("metrics".into(), Value::Object(metrics));
            if r.method == MethodUsed::MonteCarlo {
                let ci: Map<String, Value> = r
                    .evaluation
                    .metrics
                    .iter()
                    .zip(&r.ci95)
                    .map(|(m, ci)| {
                        let v = ci.map_or(Value::Null, |(lo, hi)| json!([lo, hi]));
                        (m.name.clone(), v)
                    })
                    .collect();
                o.insert("ci95".into(), Value::Object(ci));
            }
            if let Some(z) = &r.z_vs_exact {
                let z: Map<String, Value> = r
                    .evaluation
                    .metrics
                    .iter()
                    .zip(z)
                    .map(|(m, z)| (m.name.clone(), number_or_null(*z)))
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
                o.insert(
                    "dropped_mass".into(),
                    json!(r.evaluation.dropped_mass.unwrap_or(0.0)),
                );
            }
            Value::Object(o)
        })
        .collect();
    if report.kind == ReportKind::Cases {
        top.insert("results".into(), Value::Array(results));
    }
    if report.shows_balances() {
        top.insert("balance".into(), balance::to_json(&report.balances));
    }
    Value::Object(top)
}

/// Pretty-printed JSON with a final newline.
pub fn to_bytes(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn spec_shape() {
        let mut report = fixture::report();
        let empty = fixture::metric_index(&report.results[0], "mean_effect_step");
        report.results[0].evaluation.metrics[empty].value = None;
        let p = fixture::metric_index(&report.results[0], "p_success");
        let (exact_result, mc_result) = (&report.results[0], &report.results[1]);
        let v = report_json(&report, false);
        assert_eq!(v["tool"], "oddsmith");
        let exact = &v["results"][0];
        assert_eq!(exact["method"], "exact");
        assert_eq!(exact["trials"], Value::Null);
        assert_eq!(
            exact["metrics"]["p_success"],
            json!(exact_result.evaluation.metrics[p].value.unwrap())
        );
        assert_eq!(exact["metrics"]["mean_effect_step"], Value::Null);
        assert!(exact.get("ci95").is_none());
        let mc = &v["results"][1];
        assert_eq!(mc["method"], "monte-carlo");
        assert_eq!(mc["trials"], 100);
        let (lo, hi) = mc_result.ci95[p].unwrap();
        assert_eq!(mc["ci95"]["p_success"], json!([lo, hi]));
        let z = mc_result.z_vs_exact.as_ref().unwrap()[p].unwrap();
        assert_eq!(mc["z_vs_exact"]["p_success"], json!(z));
        assert!(v.get("rng").is_none());
        let run = report_json(&report, true);
        assert_eq!(run["rng"], RNG_NAME);
        // An exact result that dropped nothing says so in run.json.
        assert_eq!(exact_result.evaluation.dropped_mass, None);
        assert_eq!(run["results"][0]["dropped_mass"], 0.0);
    }
}
