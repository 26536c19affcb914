//! The balance answers of a report (SPEC 6) as its writers show them: the
//! human table, `balance.csv`, and the JSON objects under `balance`.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::number;
use super::table::fixed;
use crate::balance::BalanceResult;

/// The SPEC 6 objects, one per hero pool.
pub fn to_json(results: &[BalanceResult]) -> Value {
    Value::Array(
        results
            .iter()
            .map(|r| {
                let best = &r.ladder[r.best];
                json!({
                    "pool": r.pool.to_string(),
                    "metric": r.metric,
                    "target": r.target,
                    "best": best.vs.to_string(),
                    "best_label": best.label,
                    "best_value": best.value,
                    "ladder": r.ladder.iter().map(|rung| json!({
                        "vs": rung.vs.to_string(),
                        "label": rung.label,
                        "value": rung.value,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// `balance.csv`: a row per hero pool and rung, the chosen rung marked.
pub fn to_csv(results: &[BalanceResult]) -> anyhow::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["pool", "metric", "target", "vs", "label", "value", "best"])?;
    for r in results {
        for (i, rung) in r.ladder.iter().enumerate() {
            writer.write_record([
                r.pool.to_string(),
                r.metric.to_string(),
                number(r.target),
                rung.vs.to_string(),
                rung.label.unwrap_or("").to_string(),
                number(rung.value),
                (i == r.best).to_string(),
            ])?;
        }
    }
    writer
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot finish the balance table: {e}"))
}

/// The human table: per hero pool, the answer and the whole ladder around
/// it, the chosen rung marked with `>`.
pub fn to_table(results: &[BalanceResult]) -> String {
    let mut out = String::new();
    for (n, r) in results.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let best = &r.ladder[r.best];
        let label = best.label.map_or(String::new(), |l| format!(" ({l})"));
        let _ = writeln!(
            out,
            "{}: {} closest to {} is {}{label}: {}",
            r.pool,
            r.metric,
            r.target,
            best.vs,
            fixed(best.value)
        );
        let vs_width = r
            .ladder
            .iter()
            .map(|rung| rung.vs.to_string().len())
            .max()
            .unwrap_or(2)
            .max(2);
        let label_width = r
            .ladder
            .iter()
            .map(|rung| rung.label.map_or(1, str::len))
            .max()
            .unwrap_or(5)
            .max(5);
        let _ = writeln!(
            out,
            "    {:<vs_width$}  {:<label_width$}  {:>10}",
            "vs", "label", r.metric
        );
        for (i, rung) in r.ladder.iter().enumerate() {
            let mark = if i == r.best { ">" } else { " " };
            let _ = writeln!(
                out,
                "  {mark} {:<vs_width$}  {:<label_width$}  {:>10}",
                rung.vs.to_string(),
                rung.label.unwrap_or("-"),
                fixed(rung.value)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::BalanceSpec;
    use crate::options::{KeyStyle, RawItem, RawValue};

    fn pools(list: &[&str]) -> RawValue {
        RawValue::Array(
            list.iter()
                .map(|s| RawItem::new(RawValue::Str(s.to_string())))
                .collect(),
        )
    }

    fn spec(entries: Vec<(&str, RawValue)>) -> BalanceSpec {
        let entries = entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), RawItem::new(v)))
            .collect();
        BalanceSpec::from_options(BalanceSpec::options(KeyStyle::Toml, entries)).unwrap()
    }

    #[test]
    fn writers_show_the_choice() {
        let s = spec(vec![
            ("pools", pools(&["d4"])),
            ("ladder", pools(&["2d6", "d4"])),
            ("target", RawValue::Float(0.3)),
        ]);
        let results = s.evaluate().unwrap();
        let v = to_json(&results);
        assert_eq!(v[0]["best"], "d4");
        assert_eq!(v[0]["best_label"], Value::Null);
        assert_eq!(v[0]["ladder"][0]["label"], "standard");
        assert_eq!(v[0]["best_value"], 0.375);
        let csv = String::from_utf8(to_csv(&results).unwrap()).unwrap();
        assert!(csv.starts_with("pool,metric,target,vs,label,value,best\n"));
        assert!(csv.contains("d4,p_success,0.3,d4,,0.375,true\n"), "{csv}");
        let table = to_table(&results);
        assert!(
            table.contains("d4: p_success closest to 0.3 is d4: 0.375000"),
            "{table}"
        );
        assert!(table.contains("  > d4 "), "{table}");
    }
}
