//! The options of one case, read key by key by the system that owns them:
//! typed accessors that check a value against its key's kind and range and
//! say what is allowed, and a last check that every key given was read, so a
//! rule is validated once whichever way it was given, and an error points at
//! the file, line and column (or names the flag).

use std::fmt;

use super::key::{Choice, KeyDef, Kind};
use super::messages::{allowed, closest, did_you_mean, key_name, KeyStyle};
use super::raw::{Entries, Pos, RawItem, RawValue};
use crate::dice::{DiceError, Pool};

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

/// What the accessors take as a key: a system's descriptor, or the bare
/// name of a key no system owns (a balance's `target`).
pub trait Key: Copy {
    fn name(self) -> &'static str;
}

impl Key for &'static str {
    fn name(self) -> &'static str {
        self
    }
}

impl Key for &'static KeyDef {
    fn name(self) -> &'static str {
        self.name
    }
}

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
    pub fn key_name(&self, key: impl AsRef<str>) -> String {
        let key = key.as_ref();
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
    pub fn take(&mut self, key: impl Key) -> Option<RawItem> {
        let key = key.name();
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
    pub fn given_by_case(&self, key: impl AsRef<str>) -> Option<&RawItem> {
        let key = key.as_ref();
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

    /// The value given for `key`, else the default its descriptor declares
    /// as a value written nowhere: what every accessor ending in `_of`
    /// reads, so a default is written once, in the descriptor
    /// (docs/development.md, "Adding a system"). For a key checked by hand
    /// because its range depends on another key (`again`); a key that
    /// declares no default is read with a `maybe_` accessor instead.
    pub fn item_of(&mut self, key: &'static KeyDef) -> RawItem {
        let declared = || {
            let value = key.default_value().unwrap_or_else(|| {
                panic!(
                    "`{}` declares no default: read it with a `maybe_` accessor",
                    key.name
                )
            });
            // The layer of a defaults table: no case wrote it.
            RawItem {
                value,
                at: None,
                layer: 0,
            }
        };
        self.take(key).unwrap_or_else(declared)
    }

    /// Reads a key that declares no default: its value only if given.
    fn given_only(&mut self, key: &'static KeyDef) -> Option<RawItem> {
        debug_assert!(
            key.default_value().is_none(),
            "`{}` declares a default: read it with the accessor that applies it",
            key.name
        );
        self.take(key)
    }

    fn string_item(&self, key: &str, item: RawItem) -> Result<(String, RawItem), OptionError> {
        match &item.value {
            RawValue::Str(s) => Ok((s.clone(), item.clone())),
            _ => Err(self.wrong_type(key, &item, "a string")),
        }
    }

    /// A string option.
    pub fn string(&mut self, key: impl Key) -> Result<Option<(String, RawItem)>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.string_item(key, item).map(Some),
        }
    }

    /// A key written as text (a die, a word), given or its declared default,
    /// with the item to point an error at.
    pub fn text_of(&mut self, key: &'static KeyDef) -> Result<(String, RawItem), OptionError> {
        let item = self.item_of(key);
        self.string_item(key.name, item)
    }

    /// A choice key's value as its enum ([`Choice`]), given or its declared
    /// default, or what is allowed.
    pub fn choice_of<T: Choice>(&mut self, key: &'static KeyDef) -> Result<T, OptionError> {
        debug_assert!(
            matches!(key.kind, Kind::Choice(names) if names() == super::key::choice_names::<T>()),
            "`{}` is not declared as this choice",
            key.name
        );
        let (text, item) = self.text_of(key)?;
        match T::ALL.iter().find(|value| value.name() == text) {
            Some(&value) => Ok(value),
            None => {
                let names = super::key::choice_names::<T>();
                Err(self.error_at(
                    &item,
                    format!(
                        "{} is \"{}\"{}; {}",
                        self.key_name(key),
                        crate::echo::echo(&text),
                        did_you_mean(&text, names.iter().copied()),
                        allowed(names)
                    ),
                ))
            }
        }
    }

    fn int_range(key: &'static KeyDef) -> (i64, i64) {
        let Kind::Int { min, max } = key.kind else {
            panic!("`{}` is not declared a whole number", key.name);
        };
        (min, max)
    }

    /// A whole-number key in its declared range, given or its declared default.
    pub fn int_of(&mut self, key: &'static KeyDef) -> Result<i64, OptionError> {
        let (min, max) = Self::int_range(key);
        let item = self.item_of(key);
        self.int_item(key.name, item, min, max)
    }

    /// A whole-number key that declares no default, in its declared range,
    /// if given.
    pub fn maybe_int_of(&mut self, key: &'static KeyDef) -> Result<Option<i64>, OptionError> {
        let (min, max) = Self::int_range(key);
        match self.given_only(key) {
            None => Ok(None),
            Some(item) => self.int_item(key.name, item, min, max).map(Some),
        }
    }

    /// A number key in its declared range, given or its declared default.
    pub fn float_of(&mut self, key: &'static KeyDef) -> Result<f64, OptionError> {
        let Kind::Float { min, max } = key.kind else {
            panic!("`{}` is not declared a number", key.name);
        };
        let item = self.item_of(key);
        self.float_item(key.name, item, min, max)
    }

    /// A switch, given or its declared default.
    pub fn bool_of(&mut self, key: &'static KeyDef) -> Result<bool, OptionError> {
        let item = self.item_of(key);
        self.bool_item(key.name, item)
    }

    /// A Cortex pool in dice notation, if given.
    pub fn cortex_pool(&mut self, key: impl Key) -> Result<Option<Pool>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.pool_item(key, item).map(Some),
        }
    }

    /// A Cortex pool key, given or its declared default.
    pub fn pool_of(&mut self, key: &'static KeyDef) -> Result<Pool, OptionError> {
        let item = self.item_of(key);
        self.pool_item(key.name, item)
    }

    fn pool_item(&self, key: &str, item: RawItem) -> Result<Pool, OptionError> {
        let (text, item) = self.string_item(key, item)?;
        Pool::parse_cortex(&text)
            .map_err(|e: DiceError| self.error_at(&item, format!("{}: {e}", self.key_name(key))))
    }

    /// A whole number in `min ..= max`.
    pub fn int(&mut self, key: impl Key, min: i64, max: i64) -> Result<Option<i64>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.int_item(key, item, min, max).map(Some),
        }
    }

    fn int_item(&self, key: &str, item: RawItem, min: i64, max: i64) -> Result<i64, OptionError> {
        let range = if max == i64::MAX {
            format!("a whole number of at least {min}")
        } else {
            format!("a whole number from {min} to {max}")
        };
        match item.value {
            RawValue::Int(i) if (min..=max).contains(&i) => Ok(i),
            RawValue::Int(i) => Err(self.error_at(
                &item,
                format!("{} must be {range}, not {i}", self.key_name(key)),
            )),
            _ => Err(self.wrong_type(key, &item, &range)),
        }
    }

    /// A number in `min ..= max` (integers accepted).
    pub fn float(&mut self, key: impl Key, min: f64, max: f64) -> Result<Option<f64>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.float_item(key, item, min, max).map(Some),
        }
    }

    fn float_item(&self, key: &str, item: RawItem, min: f64, max: f64) -> Result<f64, OptionError> {
        let value = match item.value {
            RawValue::Float(x) => x,
            RawValue::Int(i) => i as f64,
            _ => return Err(self.wrong_type(key, &item, &format!("a number from {min} to {max}"))),
        };
        if value.is_finite() && (min..=max).contains(&value) {
            Ok(value)
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

    /// A boolean, if given.
    pub fn bool(&mut self, key: impl Key) -> Result<Option<bool>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.bool_item(key, item).map(Some),
        }
    }

    fn bool_item(&self, key: &str, item: RawItem) -> Result<bool, OptionError> {
        match item.value {
            RawValue::Bool(b) => Ok(b),
            _ => Err(self.wrong_type(key, &item, "true or false")),
        }
    }

    /// A table of sub-keys (`gain_on = { miss = 1 }`), as raw entries, if given.
    pub fn table(&mut self, key: impl Key) -> Result<Option<(Entries, RawItem)>, OptionError> {
        let key = key.name();
        match self.take(key) {
            None => Ok(None),
            Some(item) => self.table_item(key, item).map(Some),
        }
    }

    /// A table key's entries, given or its declared default.
    pub fn table_of(&mut self, key: &'static KeyDef) -> Result<(Entries, RawItem), OptionError> {
        let item = self.item_of(key);
        self.table_item(key.name, item)
    }

    fn table_item(&self, key: &str, item: RawItem) -> Result<(Entries, RawItem), OptionError> {
        match &item.value {
            RawValue::Table(entries) => Ok((entries.clone(), item.clone())),
            _ => Err(self.wrong_type(key, &item, "a table")),
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
