//! Raw options, the one shape both scenario files and command-line flags are
//! turned into before a system reads them. A system resolves its case from an
//! [`Options`] with typed accessors that check ranges and say what is
//! allowed, so a rule is validated once whichever way it was given, and an
//! error points at the file, line and column (or names the flag).
//!
//! This module knows no system: the caller names the owner of the options
//! and may say which systems own a stray key (`systems::System::options`
//! does), so options sit below the systems that read them.

use std::fmt;

use crate::dice::{DiceError, Pool};

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

/// Whether keys are shown as scenario keys (`heroic_step`) or flags (`--heroic-step`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStyle {
    Toml,
    Flag,
}

/// A key as the user wrote it: `heroic_step` in a file, `--heroic-step` on
/// the command line.
pub fn key_name(key: &str, style: KeyStyle) -> String {
    match style {
        KeyStyle::Toml => format!("`{key}`"),
        KeyStyle::Flag => format!("`--{}`", key.replace('_', "-")),
    }
}

/// The one form of every "allowed" list in messages: `allowed: `a`, `b``.
pub fn allowed<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| format!("`{i}`")).collect();
    format!("allowed: {}", items.join(", "))
}

/// The candidate closest to a misspelt `word`, if one is close enough to
/// be what was meant: at most one edit in four letters (and at least one).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = word.chars().count();
    let limit = (length / 4).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length, so a long
        // junk key costs nothing here.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// " (did you mean `ties`?)" for a misspelt `word`, or nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
}

/// Edit distance in characters: insertions, deletions, substitutions and
/// swaps of two neighbours (`actoin`), each one edit (optimal string
/// alignment distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between the first i chars of a and j of b.
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// A bad option: what is wrong and what is allowed, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    pub at: Option<Pos>,
    pub message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionError {}

/// Which systems accept a key, for "it belongs to ..." hints.
pub type KeyOwners = fn(&str) -> Vec<&'static str>;

/// The options of one case, read key by key by the system that owns them.
#[derive(Debug, Clone)]
pub struct Options {
    system: String,
    key_owners: Option<KeyOwners>,
    style: KeyStyle,
    entries: Vec<(String, RawItem)>,
    used: Vec<bool>,
    asked: Vec<&'static str>,
    /// The key given as a command's positional argument (`POOL`), if any.
    positional: Option<&'static str>,
    /// Where the case itself starts, for errors about the case as a whole.
    pub case_at: Option<Pos>,
}

impl Options {
    pub fn new(system: &str, style: KeyStyle, entries: Vec<(String, RawItem)>) -> Options {
        let used = vec![false; entries.len()];
        Options {
            system: system.to_string(),
            key_owners: None,
            style,
            entries,
            used,
            asked: Vec::new(),
            positional: None,
            case_at: None,
        }
    }

    /// Names `key` in messages as the positional argument it was given as
    /// (`POOL`, not `--pool`), in flag style.
    pub fn with_positional(mut self, key: &'static str) -> Options {
        self.positional = Some(key);
        self
    }

    /// Names the systems a stray key belongs to in [`Options::finish`]'s error.
    pub fn with_key_owners(mut self, key_owners: KeyOwners) -> Options {
        self.key_owners = Some(key_owners);
        self
    }

    pub fn system(&self) -> &str {
        &self.system
    }

    /// Whether keys are shown as scenario keys or as flags.
    pub fn style(&self) -> KeyStyle {
        self.style
    }

    /// The key as the user wrote it: `heroic_step` or `--heroic-step`.
    pub fn key_name(&self, key: &str) -> String {
        match self.positional {
            Some(positional) if self.style == KeyStyle::Flag && positional == key => {
                positional.to_uppercase()
            }
            _ => key_name(key, self.style),
        }
    }

    /// An error about `key`, located where it was written.
    pub fn error_at(&self, item: &RawItem, message: String) -> OptionError {
        OptionError {
            at: item.at,
            message,
        }
    }

    /// An error about the case as a whole.
    pub fn case_error(&self, message: String) -> OptionError {
        OptionError {
            at: self.case_at,
            message,
        }
    }

    /// The value given for `key`: the case's own over a default. Marks every
    /// occurrence as used.
    pub fn take(&mut self, key: &'static str) -> Option<RawItem> {
        if !self.asked.contains(&key) {
            self.asked.push(key);
        }
        let mut found: Option<RawItem> = None;
        for (i, (k, item)) in self.entries.iter().enumerate() {
            if k == key {
                self.used[i] = true;
                if found.as_ref().is_none_or(|f| item.layer >= f.layer) {
                    found = Some(item.clone());
                }
            }
        }
        found
    }

    /// The value the case itself gives for `key` (not a defaults table's),
    /// without taking it: for checking that a key applies to the case.
    pub fn given_by_case(&self, key: &str) -> Option<&RawItem> {
        self.entries
            .iter()
            .filter(|(k, item)| k == key && item.layer > 0)
            .map(|(_, item)| item)
            .next_back()
    }

    fn wrong_type(&self, key: &str, item: &RawItem, wanted: &str) -> OptionError {
        self.error_at(
            item,
            format!(
                "{} must be {wanted}, not {}",
                self.key_name(key),
                item.value.type_name()
            ),
        )
    }

    /// A string option.
    pub fn string(&mut self, key: &'static str) -> Result<Option<(String, RawItem)>, OptionError> {
        match self.take(key) {
            None => Ok(None),
            Some(item) => match &item.value {
                RawValue::Str(s) => Ok(Some((s.clone(), item.clone()))),
                _ => Err(self.wrong_type(key, &item, "a string")),
            },
        }
    }

    /// One of a fixed set of words.
    pub fn choice(
        &mut self,
        key: &'static str,
        allowed: &[&'static str],
    ) -> Result<Option<&'static str>, OptionError> {
        let Some((text, item)) = self.string(key)? else {
            return Ok(None);
        };
        match allowed.iter().find(|&&a| a == text) {
            Some(&word) => Ok(Some(word)),
            None => Err(self.error_at(
                &item,
                format!(
                    "{} is \"{}\"{}; {}",
                    self.key_name(key),
                    crate::echo::echo(&text),
                    did_you_mean(&text, allowed.iter().copied()),
                    self::allowed(allowed)
                ),
            )),
        }
    }

    /// A Cortex pool in dice notation.
    pub fn cortex_pool(&mut self, key: &'static str) -> Result<Option<Pool>, OptionError> {
        let Some((text, item)) = self.string(key)? else {
            return Ok(None);
        };
        Pool::parse_cortex(&text)
            .map(Some)
            .map_err(|e: DiceError| self.error_at(&item, format!("{}: {e}", self.key_name(key))))
    }

    /// A whole number in `min ..= max`.
    pub fn int(
        &mut self,
        key: &'static str,
        min: i64,
        max: i64,
    ) -> Result<Option<i64>, OptionError> {
        let Some(item) = self.take(key) else {
            return Ok(None);
        };
        let range = if max == i64::MAX {
            format!("a whole number of at least {min}")
        } else {
            format!("a whole number from {min} to {max}")
        };
        match item.value {
            RawValue::Int(i) if (min..=max).contains(&i) => Ok(Some(i)),
            RawValue::Int(i) => Err(self.error_at(
                &item,
                format!("{} must be {range}, not {i}", self.key_name(key)),
            )),
            _ => Err(self.wrong_type(key, &item, &range)),
        }
    }

    /// A number in `min ..= max` (integers accepted).
    pub fn float(
        &mut self,
        key: &'static str,
        min: f64,
        max: f64,
    ) -> Result<Option<f64>, OptionError> {
        let Some(item) = self.take(key) else {
            return Ok(None);
        };
        let value = match item.value {
            RawValue::Float(x) => x,
            RawValue::Int(i) => i as f64,
            _ => return Err(self.wrong_type(key, &item, &format!("a number from {min} to {max}"))),
        };
        if value.is_finite() && (min..=max).contains(&value) {
            Ok(Some(value))
        } else {
            Err(self.error_at(
                &item,
                format!(
                    "{} must be a number from {min} to {max}, not {value}",
                    self.key_name(key)
                ),
            ))
        }
    }

    /// A boolean.
    pub fn bool(&mut self, key: &'static str) -> Result<Option<bool>, OptionError> {
        match self.take(key) {
            None => Ok(None),
            Some(RawItem {
                value: RawValue::Bool(b),
                ..
            }) => Ok(Some(b)),
            Some(item) => Err(self.wrong_type(key, &item, "true or false")),
        }
    }

    /// A table of sub-keys (`gain_on = { miss = 1 }`), as raw entries.
    pub fn table(&mut self, key: &'static str) -> Result<Option<(Entries, RawItem)>, OptionError> {
        match self.take(key) {
            None => Ok(None),
            Some(item) => match &item.value {
                RawValue::Table(entries) => Ok(Some((entries.clone(), item.clone()))),
                _ => Err(self.wrong_type(key, &item, "a table")),
            },
        }
    }

    /// Fails on the first key no accessor asked for, naming the keys the
    /// system does accept (and the system a stray key belongs to).
    pub fn finish(self) -> Result<(), OptionError> {
        for (i, (key, item)) in self.entries.iter().enumerate() {
            if self.used[i] {
                continue;
            }
            let owner = self
                .key_owners
                .map_or_else(Vec::new, |owners| owners(key))
                .into_iter()
                .filter(|s| *s != self.system)
                .collect::<Vec<_>>();
            let belongs = if owner.is_empty() {
                String::new()
            } else {
                format!(" (it belongs to {})", owner.join(", "))
            };
            let mut keys: Vec<&str> = self.asked.clone();
            keys.sort();
            let suggestion = closest(key, keys.iter().copied()).map_or(String::new(), |k| {
                format!(" (did you mean {}?)", self.key_name(k))
            });
            let names: Vec<String> = keys
                .iter()
                .map(|k| self.key_name(k).trim_matches('`').to_string())
                .collect();
            return Err(self.error_at(
                item,
                format!(
                    "unknown key {} for system \"{}\"{belongs}{suggestion}; {}",
                    self.key_name(key),
                    self.system,
                    allowed(names)
                ),
            ));
        }
        Ok(())
    }
}

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

    #[test]
    fn misspellings_get_the_closest_key() {
        let keys = ["ties", "heroic_step", "keep", "reaction_keep"];
        assert_eq!(closest("tiez", keys), Some("ties"));
        assert_eq!(closest("heroicstep", keys), Some("heroic_step"));
        assert_eq!(closest("reaction_kep", keys), Some("reaction_keep"));
        // Too far from every key to be a slip of the finger.
        assert_eq!(closest("pool", keys), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("actoin", "action"), 1);
        assert_eq!(
            did_you_mean("actoin", ["reaction", "action"]),
            " (did you mean `action`?)"
        );
    }
}
