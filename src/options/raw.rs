//! Raw values: what a scenario file or a command-line flag gave, before a
//! system gives it a meaning. Every value carries where it was written, and
//! `key=value` flags are read into the same table a scenario's inline table
//! gives, so one validator reads both.

use std::fmt;

/// Reads a `key=value,key=value` flag (such as `--gain-on miss=1,weak=0`)
/// into the table a scenario's `{ key = value, ... }` gives, so one
/// validator reads both. Values are integers, numbers or else strings;
/// `usage` opens every error and says what the flag takes.
pub fn key_value_pairs(text: &str, usage: &str) -> Result<RawValue, String> {
    let mut entries: Entries = Vec::new();
    for part in text.split(',') {
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("{usage}; \"{}\" has no `=`", part.trim()));
        };
        let key = key.trim().to_string();
        let value = value.trim();
        if entries.iter().any(|(k, _)| *k == key) {
            return Err(format!("{usage}; `{key}` is given twice"));
        }
        let raw = if let Ok(i) = value.parse::<i64>() {
            RawValue::Int(i)
        } else if let Ok(x) = value.parse::<f64>() {
            RawValue::Float(x)
        } else {
            RawValue::Str(value.to_string())
        };
        entries.push((key, RawItem::new(raw)));
    }
    Ok(RawValue::Table(entries))
}

/// A 1-based line and column in a scenario file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// A value as written, before a system gives it a meaning.
#[derive(Debug, Clone, PartialEq)]
pub enum RawValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<RawItem>),
    Table(Entries),
}

impl RawValue {
    /// A flag's text as the value a scenario would hold, when no key says
    /// what it is: a whole number, a number, true or false, `name=value`
    /// pairs (a table), else a string.
    pub fn guess(text: &str) -> Result<RawValue, String> {
        let text = text.trim();
        Ok(if let Ok(i) = text.parse::<i64>() {
            RawValue::Int(i)
        } else if let Ok(x) = text.parse::<f64>() {
            RawValue::Float(x)
        } else if text == "true" || text == "false" {
            RawValue::Bool(text == "true")
        } else if text.contains('=') {
            key_value_pairs(
                text,
                "a table value takes name=value pairs separated by commas",
            )?
        } else {
            RawValue::Str(text.to_string())
        })
    }

    /// The TOML name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            RawValue::Str(_) => "a string",
            RawValue::Int(_) => "an integer",
            RawValue::Float(_) => "a float",
            RawValue::Bool(_) => "a boolean",
            RawValue::Array(_) => "an array",
            RawValue::Table(_) => "a table",
        }
    }
}

impl RawValue {
    /// A resolved input (docs/reports.md, `inputs`) as the value that would give it,
    /// so a case can be resolved again from its inputs.
    pub fn from_json(value: &serde_json::Value) -> Option<RawValue> {
        use serde_json::Value;
        Some(match value {
            Value::String(s) => RawValue::Str(s.clone()),
            Value::Bool(b) => RawValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => RawValue::Int(i),
                None => RawValue::Float(n.as_f64()?),
            },
            Value::Object(map) => RawValue::Table(
                map.iter()
                    .map(|(k, v)| Some((k.clone(), RawItem::new(RawValue::from_json(v)?))))
                    .collect::<Option<_>>()?,
            ),
            Value::Null | Value::Array(_) => return None,
        })
    }
}

impl fmt::Display for RawValue {
    /// The value as a person would write it (strings without quotes), used
    /// to name sweep cases.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawValue::Str(s) => f.write_str(s),
            RawValue::Int(i) => write!(f, "{i}"),
            RawValue::Float(x) => write!(f, "{x}"),
            RawValue::Bool(b) => write!(f, "{b}"),
            RawValue::Array(items) => {
                let parts: Vec<String> = items.iter().map(|i| i.value.to_string()).collect();
                write!(f, "[{}]", parts.join(", "))
            }
            RawValue::Table(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, i)| format!("{k}={}", i.value))
                    .collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

impl RawValue {
    /// The value as JSON, as a result's `inputs` would show it.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            RawValue::Str(s) => Value::String(s.clone()),
            RawValue::Int(i) => Value::from(*i),
            RawValue::Float(x) => {
                serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number)
            }
            RawValue::Bool(b) => Value::Bool(*b),
            RawValue::Array(items) => {
                Value::Array(items.iter().map(|i| i.value.to_json()).collect())
            }
            RawValue::Table(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, i)| (k.clone(), i.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// How many combinations the lists among `entries` make (a sweep's cases,
/// a balance's fixed cases): the product of their lengths, saturating.
pub fn combination_count(entries: &[(String, RawItem)]) -> usize {
    entries
        .iter()
        .filter_map(|(_, item)| match &item.value {
            RawValue::Array(values) => Some(values.len()),
            _ => None,
        })
        .fold(1usize, |count, n| count.saturating_mul(n))
}

/// Combination `index` of the lists among `entries` (docs/scenarios.md: keys in file
/// order, the last list varying fastest): each list replaced by its picked
/// value, as a case's own key. Only the picked value is copied, never a
/// whole list (a 100,000-value list copied per case would take minutes).
pub fn combination(entries: &[(String, RawItem)], index: usize) -> Entries {
    let mut rem = index;
    let mut chosen: Entries = Vec::with_capacity(entries.len());
    for (key, item) in entries.iter().rev() {
        let item = match &item.value {
            RawValue::Array(values) => {
                let pick = values[rem % values.len()].clone();
                rem /= values.len();
                RawItem { layer: 1, ..pick }
            }
            _ => item.clone(),
        };
        chosen.push((key.clone(), item));
    }
    chosen.reverse();
    chosen
}

/// A value with where it was written. `layer` orders defaults (0, from a
/// `[system]` table) below a case's own keys (1).
#[derive(Debug, Clone, PartialEq)]
pub struct RawItem {
    pub value: RawValue,
    pub at: Option<Pos>,
    pub layer: u8,
}

impl RawItem {
    pub fn new(value: RawValue) -> RawItem {
        RawItem {
            value,
            at: None,
            layer: 1,
        }
    }
}

/// A table's keys and values, in file order.
pub type Entries = Vec<(String, RawItem)>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_flags_become_a_table() {
        let usage = "`--gain-on` takes tier=gain pairs";
        let RawValue::Table(entries) = key_value_pairs("miss=1, strong=2.5, x=y", usage).unwrap()
        else {
            panic!("not a table");
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["miss", "strong", "x"]);
        assert_eq!(entries[0].1.value, RawValue::Int(1));
        assert_eq!(entries[1].1.value, RawValue::Float(2.5));
        assert_eq!(entries[2].1.value, RawValue::Str("y".into()));
        let err = key_value_pairs("miss", usage).unwrap_err();
        assert!(
            err.starts_with(usage) && err.contains("\"miss\" has no `=`"),
            "{err}"
        );
        let err = key_value_pairs("miss=1,miss=2", usage).unwrap_err();
        assert!(err.contains("`miss` is given twice"), "{err}");
    }
}
