//! The balance answers of a report (docs/cortex.md) as its writers show them:
//! the human table, `balance.csv`, and the JSON objects under `balance`.
//! Answers asked in docs/cortex.md's form (hero pools) keep docs/cortex.md's shape; the
//! general form adds the system, the fixed inputs and the ladder's key.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::chart::{input_text as text, pairs};
use super::format::fixed;
use super::number;
use crate::balance::{BalanceResult, Form, RungValue};
use crate::systems::cortex::keys::{POOL, VS};
use crate::systems::System;

/// The chosen rung, if any.
fn best(r: &BalanceResult) -> Option<&RungValue> {
    r.best.map(|i| &r.ladder[i])
}

/// Whether any rung of the ladder has a name.
fn named(r: &BalanceResult) -> bool {
    r.ladder.iter().any(|rung| rung.label.is_some())
}

/// The docs/cortex.md objects, one per question.
pub fn to_json(results: &[BalanceResult]) -> Value {
    Value::Array(results.iter().map(answer_json).collect())
}

fn answer_json(r: &BalanceResult) -> Value {
    let chosen = best(r);
    if r.form == Form::Pools {
        return json!({
            "pool": r.inputs.get(POOL.name),
            "metric": r.metric,
            "target": r.target,
            "best": chosen.map(|rung| &rung.value),
            "best_label": chosen.and_then(|rung| rung.label),
            "best_value": chosen.and_then(|rung| rung.metric),
            "ladder": r.ladder.iter().map(|rung| json!({
                "vs": rung.value,
                "label": rung.label,
                "value": rung.metric,
            })).collect::<Vec<_>>(),
        });
    }
    let mut object = Map::new();
    object.insert("system".into(), json!(r.system));
    if r.system == System::Cortex {
        if let Some(pool) = r.inputs.get(POOL.name) {
            object.insert("pool".into(), pool.clone());
        }
    }
    object.insert("inputs".into(), Value::Object(r.inputs.clone()));
    object.insert("key".into(), json!(r.key));
    object.insert("metric".into(), json!(r.metric));
    object.insert("target".into(), json!(r.target));
    object.insert("best".into(), json!(chosen.map(|rung| &rung.value)));
    if named(r) {
        object.insert(
            "best_label".into(),
            json!(chosen.and_then(|rung| rung.label)),
        );
    }
    object.insert(
        "best_value".into(),
        json!(chosen.and_then(|rung| rung.metric)),
    );
    let ladder = r
        .ladder
        .iter()
        .map(|rung| {
            let mut entry = Map::new();
            entry.insert(r.key.clone(), rung.value.clone());
            if named(r) {
                entry.insert("label".into(), json!(rung.label));
            }
            entry.insert("value".into(), json!(rung.metric));
            Value::Object(entry)
        })
        .collect();
    object.insert("ladder".into(), Value::Array(ladder));
    Value::Object(object)
}

/// Adds `name` to `columns` unless it is there.
fn add_column(columns: &mut Vec<String>, name: &str) {
    if !columns.iter().any(|c| c == name) {
        columns.push(name.to_string());
    }
}

/// The columns `balance.csv` names after the balance itself.
const BALANCE_COLUMNS: &[&str] = &["metric", "target", "label", "value", "best"];

/// `balance.csv`: a row per question and rung, the chosen rung marked. The
/// fixed keys' columns (every question's, in first-seen order), `metric`,
/// `target`, the ladder keys' columns, `label`, `value`, `best`; a general
/// balance in the report adds `system` first.
pub fn to_csv(results: &[BalanceResult]) -> anyhow::Result<Vec<u8>> {
    let general = results.iter().any(|r| r.form == Form::General);
    let mut fixed: Vec<String> = Vec::new();
    if general {
        fixed.push("system".into());
    }
    for r in results {
        for key in r.inputs.keys() {
            add_column(&mut fixed, key);
        }
    }
    let mut keys: Vec<String> = Vec::new();
    for r in results {
        if !fixed.contains(&r.key) {
            add_column(&mut keys, &r.key);
        }
    }
    if results.is_empty() {
        keys.push(VS.name.into());
        fixed.push(POOL.name.into());
    }
    // A fixed key named like a balance column (Storytelling's `target`)
    // is headed as in the TOML `case` table: `case.target`.
    let mut header: Vec<String> = fixed
        .iter()
        .map(|c| {
            if BALANCE_COLUMNS.contains(&c.as_str()) {
                format!("case.{c}")
            } else {
                c.clone()
            }
        })
        .collect();
    header.extend(["metric".into(), "target".into()]);
    header.extend(keys.iter().cloned());
    header.extend(["label".into(), "value".into(), "best".into()]);
    let mut writer = csv::Writer::from_writer(Vec::new());
    super::csv::write_row(&mut writer, &header)?;
    for r in results {
        for (i, rung) in r.ladder.iter().enumerate() {
            let cell = |column: &str| -> String {
                if column == "system" {
                    r.system.name().to_string()
                } else if column == r.key {
                    text(&rung.value)
                } else {
                    r.inputs.get(column).map(text).unwrap_or_default()
                }
            };
            let mut row: Vec<String> = fixed.iter().map(|c| cell(c)).collect();
            row.extend([r.metric.clone(), number(r.target)]);
            row.extend(keys.iter().map(|c| cell(c)));
            row.extend([
                rung.label.unwrap_or("").to_string(),
                rung.metric.map(number).unwrap_or_default(),
                (r.best == Some(i)).to_string(),
            ]);
            super::csv::write_row(&mut writer, &row)?;
        }
    }
    writer
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot finish the balance table: {e}"))
}

/// What a question is about, as the table's heading names it: the hero
/// pool (docs/cortex.md), or the system and its fixed keys.
pub fn heading(r: &BalanceResult) -> String {
    if r.form == Form::Pools {
        return r.inputs.get(POOL.name).map(text).unwrap_or_default();
    }
    let fixed: Vec<String> = r.inputs.iter().flat_map(|(k, v)| pairs(k, v)).collect();
    if fixed.is_empty() {
        r.system.name().to_string()
    } else {
        format!("{} ({})", r.system, fixed.join(", "))
    }
}

/// The human table: per question, the answer and the whole ladder around
/// it, the chosen rung marked with `>`; a rung without a value shows
/// `null`, and the table says why it never wins.
pub fn to_table(results: &[BalanceResult]) -> String {
    let mut out = String::new();
    for (n, r) in results.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let rung_text = |rung: &RungValue| match r.form {
            Form::Pools => text(&rung.value),
            Form::General => format!("{}={}", r.key, text(&rung.value)),
        };
        match best(r) {
            Some(rung) => {
                let label = rung.label.map_or(String::new(), |l| format!(" ({l})"));
                let _ = writeln!(
                    out,
                    "{}: {} closest to {} is {}{label}: {}",
                    heading(r),
                    r.metric,
                    r.target,
                    rung_text(rung),
                    rung.metric.map_or_else(|| "null".to_string(), fixed)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{}: no rung is closest to {}: {} is null on every rung (it is not defined there, e.g. a mean over an outcome that never happens)",
                    heading(r),
                    r.target,
                    r.metric
                );
            }
        }
        let key_column = match r.form {
            Form::Pools => VS.name.to_string(),
            Form::General => r.key.clone(),
        };
        let with_labels = r.form == Form::Pools || named(r);
        let key_width = r
            .ladder
            .iter()
            .map(|rung| text(&rung.value).len())
            .chain([key_column.len()])
            .max()
            .unwrap_or(2);
        let label_width = r
            .ladder
            .iter()
            .map(|rung| rung.label.map_or(1, str::len))
            .max()
            .unwrap_or(5)
            .max(5);
        let label_cell = |label: &str| {
            if with_labels {
                format!("  {label:<label_width$}")
            } else {
                String::new()
            }
        };
        let value_width = r.metric.len().max(10);
        let _ = writeln!(
            out,
            "    {:<key_width$}{}  {:>value_width$}",
            key_column,
            label_cell("label"),
            r.metric
        );
        for (i, rung) in r.ladder.iter().enumerate() {
            let mark = if r.best == Some(i) { ">" } else { " " };
            let value = rung.metric.map_or_else(
                || format!("{:>value_width$}", "null"),
                |v| format!("{:>value_width$}", fixed(v)),
            );
            let _ = writeln!(
                out,
                "  {mark} {:<key_width$}{}  {value}",
                text(&rung.value),
                label_cell(rung.label.unwrap_or("-")),
            );
        }
        if r.best.is_some() && r.ladder.iter().any(|rung| rung.metric.is_none()) {
            let _ = writeln!(
                out,
                "    (null: {} is not defined on that rung, which never wins)",
                r.metric
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
        let results: Vec<BalanceResult> = s
            .questions(1)
            .iter()
            .map(|q| q.answer_exactly().unwrap())
            .collect();
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
