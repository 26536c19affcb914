//! A key's descriptor, declared once by the system that owns the key: its
//! name, its kind (with the allowed range or choices), its default, a
//! one-line help text and the words charts use for it. The key lists, the
//! accessors' ranges, the quick commands' flags and their `--help` lines,
//! `balance --set`, chart labels, the naming keys and the fuzz dictionaries
//! all read these (docs/development.md, "Adding a system"), so a key is
//! spelt in one place and a misspelt one does not compile.

use super::raw::RawValue;

/// A choice key's values as an enum: what [`super::Options::choice_of`]
/// returns, so no word is matched back to a value by hand.
pub trait Choice: Copy + Sized + 'static {
    /// Every value, in the order "allowed:" lists them.
    const ALL: &'static [Self];
    /// The word a scenario or a flag writes for the value.
    fn name(self) -> &'static str;
}

/// Implements [`Choice`] for an enum from its values' words, in the order
/// "allowed:" lists them: `choice_words!(Ties { Reaction => "reaction",
/// Action => "action" })`, so each value and its word are written once.
macro_rules! choice_words {
    ($enum:ident { $($value:ident => $word:literal),+ $(,)? }) => {
        impl $crate::options::Choice for $enum {
            const ALL: &'static [$enum] = &[$($enum::$value),+];

            fn name(self) -> &'static str {
                match self {
                    $($enum::$value => $word),+
                }
            }
        }
    };
}
pub(crate) use choice_words;

/// The words of a choice's values, in order: how a descriptor names the
/// enum its key is read as (`Kind::Choice(choice_names::<Ties>)`).
pub fn choice_names<T: Choice>() -> Vec<&'static str> {
    T::ALL.iter().map(|value| value.name()).collect()
}

/// What a key holds.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A pool in Cortex dice notation ("d10 2d8 d6").
    Pool,
    /// One die, written `d6`, of these sizes.
    Die(&'static [u8]),
    /// A whole number in `min ..= max`.
    Int { min: i64, max: i64 },
    /// A number in `min ..= max` (whole numbers accepted).
    Float { min: f64, max: f64 },
    /// A switch.
    Bool,
    /// One of the words of an enum ([`choice_names`]).
    Choice(fn() -> Vec<&'static str>),
    /// A table of these sub-keys, each a whole number in `min ..= max`;
    /// `pair` names an entry in messages ("tier=gain").
    Table {
        keys: &'static [&'static str],
        pair: &'static str,
        min: i64,
        max: i64,
    },
}

/// A key's value when it is left out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fallback {
    /// A case must give it.
    Required,
    /// Left out, the case has none (no opposition, no plot points).
    Nothing,
    /// Left out, the value is worked out from other keys, as these words
    /// say (an extended action's rolls default to its dice); read with a
    /// `maybe_` accessor.
    Derived(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A word, a pool, or a table's entries as written.
    Text(&'static str),
}

/// How a chart shows a value inside a phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// As written ("2d6", "5").
    Plain,
    /// A count with its noun, singular for exactly one ("1 die", "3 dice").
    Count(&'static str, &'static str),
    /// With its sign ("+1", "0", "-2").
    Signed,
    /// A chance as a percentage ("50%").
    Percent,
}

/// The words a chart uses for a key at a value (docs/reports.md): a title,
/// a legend entry or a caption reads "ties go to the reaction", never
/// `ties=reaction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phrase {
    /// The text with `{}` replaced by the value as [`Shown`].
    Value(&'static str, Shown),
    /// A switch: `on` for true, `off` otherwise.
    Switch { on: &'static str, off: &'static str },
    /// Words for some values (as a chart prints them); any other value
    /// reads as `other`.
    Words(&'static [(&'static str, &'static str)], &'static Phrase),
    /// A table of sub-keys: `each` ("{value} on {key}") for every entry
    /// that is not 0, the sub-keys in `keys`' words, joined into `all`
    /// ("{}"); `none` when every entry is 0, `other` for a value that is no
    /// table.
    Table {
        keys: &'static [(&'static str, &'static str)],
        each: &'static str,
        all: &'static str,
        none: &'static str,
        other: &'static str,
    },
}

/// One key of a system.
#[derive(Debug)]
pub struct KeyDef {
    /// The scenario key (`heroic_step`); its flag is `--heroic-step`.
    pub name: &'static str,
    pub kind: Kind,
    pub default: Fallback,
    /// What the key sets, in one line, for `--help`.
    pub help: &'static str,
    /// What `--help` says is allowed, where the kind alone does not say it
    /// (a range that depends on another key).
    pub allowed: Option<&'static str>,
    /// The words charts use for the key at a value.
    pub phrase: Phrase,
    /// The key as the name of what a balance ladder varies ("starting doom
    /// pool").
    pub noun: &'static str,
    /// One of the keys that name a case when none is given (quick commands
    /// and unnamed `[[case]]`s), as a sweep over them would.
    pub main: bool,
    /// Given as the quick command's positional argument (`POOL`), not a flag.
    pub positional: bool,
}

impl AsRef<str> for KeyDef {
    fn as_ref(&self) -> &str {
        self.name
    }
}

/// The constructors the systems declare their keys with, one a kind, so a
/// declaration is a row: name, range or choices, default, help, phrase and
/// noun. A key is neither a naming key nor positional and its kind says
/// what is allowed unless [`KeyDef::main`], [`KeyDef::positional`] or
/// [`KeyDef::allowed`] says otherwise.
impl KeyDef {
    pub const fn new(
        name: &'static str,
        kind: Kind,
        default: Fallback,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        KeyDef {
            name,
            kind,
            default,
            help,
            allowed: None,
            phrase,
            noun,
            main: false,
            positional: false,
        }
    }

    /// A pool in Cortex dice notation.
    pub const fn pool(
        name: &'static str,
        default: Fallback,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        KeyDef::new(name, Kind::Pool, default, help, phrase, noun)
    }

    /// One die of these sizes, `default` written as a die (`d6`).
    pub const fn die(
        name: &'static str,
        sizes: &'static [u8],
        default: &'static str,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        let default = Fallback::Text(default);
        KeyDef::new(name, Kind::Die(sizes), default, help, phrase, noun)
    }

    /// A whole number in `min ..= max`.
    pub const fn int(
        name: &'static str,
        (min, max): (i64, i64),
        default: Fallback,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        KeyDef::new(name, Kind::Int { min, max }, default, help, phrase, noun)
    }

    /// A number in `min ..= max`.
    pub const fn float(
        name: &'static str,
        (min, max): (f64, f64),
        default: f64,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        let default = Fallback::Float(default);
        KeyDef::new(name, Kind::Float { min, max }, default, help, phrase, noun)
    }

    /// A switch, read as `on` when true and `off` otherwise.
    pub const fn switch(
        name: &'static str,
        default: bool,
        help: &'static str,
        (on, off): (&'static str, &'static str),
        noun: &'static str,
    ) -> KeyDef {
        let phrase = Phrase::Switch { on, off };
        KeyDef::new(
            name,
            Kind::Bool,
            Fallback::Bool(default),
            help,
            phrase,
            noun,
        )
    }

    /// One of the words of enum `T`, `default` one of them.
    pub const fn choice<T: Choice>(
        name: &'static str,
        default: &'static str,
        help: &'static str,
        phrase: Phrase,
        noun: &'static str,
    ) -> KeyDef {
        let kind = Kind::Choice(choice_names::<T>);
        KeyDef::new(name, kind, Fallback::Text(default), help, phrase, noun)
    }

    /// The key is one of those that name a case ([`KeyDef::main`]'s field).
    pub const fn main(self) -> KeyDef {
        KeyDef { main: true, ..self }
    }

    /// The key is the quick command's positional argument.
    pub const fn positional(self) -> KeyDef {
        KeyDef {
            positional: true,
            ..self
        }
    }

    /// What `--help` says is allowed, where the kind alone does not say it.
    pub const fn allowed(self, allowed: &'static str) -> KeyDef {
        KeyDef {
            allowed: Some(allowed),
            ..self
        }
    }

    /// The same key with another help line (a scene's pool is the player's).
    pub const fn with_help(self, help: &'static str) -> KeyDef {
        KeyDef { help, ..self }
    }
}

impl KeyDef {
    /// The key as a flag: `--heroic-step`.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// What the key allows, in words: "1 to 5", "`reaction`, `action`".
    pub fn allowed_text(&self) -> String {
        if let Some(allowed) = self.allowed {
            return allowed.to_string();
        }
        match self.kind {
            Kind::Pool => "Cortex dice, d4 to d12".into(),
            Kind::Die(sizes) => sizes
                .iter()
                .map(|s| format!("d{s}"))
                .collect::<Vec<_>>()
                .join(", "),
            Kind::Int { min, max } => int_range(min, max),
            Kind::Float { min, max } => format!("{min} to {max}"),
            Kind::Bool => "true or false".into(),
            Kind::Choice(names) => names().join(", "),
            Kind::Table { keys, min, max, .. } => format!(
                "{} ({})",
                keys.iter()
                    .map(|k| format!("{k}=N"))
                    .collect::<Vec<_>>()
                    .join(","),
                int_range(min, max)
            ),
        }
    }

    /// The default in words.
    pub fn default_text(&self) -> String {
        match self.default {
            Fallback::Required => "none, required".into(),
            Fallback::Nothing => "none".into(),
            Fallback::Derived(words) => words.into(),
            Fallback::Int(i) => i.to_string(),
            Fallback::Float(x) => x.to_string(),
            Fallback::Bool(b) => b.to_string(),
            Fallback::Text(text) => text.into(),
        }
    }

    /// The default as the value a scenario would write for it, read by the
    /// key's kind as a flag's text is ([`KeyDef::read_flag`]): what
    /// [`super::Options`]' accessors give for a key left out. `None` for a
    /// key that is required or has no value when left out.
    pub fn default_value(&self) -> Option<RawValue> {
        match self.default {
            Fallback::Required | Fallback::Nothing | Fallback::Derived(_) => None,
            Fallback::Int(i) => Some(RawValue::Int(i)),
            Fallback::Float(x) => Some(RawValue::Float(x)),
            Fallback::Bool(b) => Some(RawValue::Bool(b)),
            Fallback::Text(text) => Some(
                self.read_flag(text)
                    .unwrap_or_else(|e| panic!("`{}`'s declared default {text:?}: {e}", self.name)),
            ),
        }
    }

    /// The key's `--help` line: what it sets, what it allows, its default.
    pub fn help_line(&self) -> String {
        format!(
            "{} [{}; default: {}]",
            self.help,
            self.allowed_text(),
            self.default_text()
        )
    }

    /// A flag's text as the value a scenario would hold for this key: a
    /// number for a number key, a switch for a switch, `name=value` pairs
    /// for a table, a word or a pool as written; text that is not of the
    /// kind is read as [`RawValue::guess`] reads it, so the key's own check
    /// says what is wrong with it.
    pub fn read_flag(&self, text: &str) -> Result<RawValue, String> {
        let text = text.trim();
        let typed = match self.kind {
            Kind::Int { .. } => text.parse::<i64>().ok().map(RawValue::Int),
            Kind::Float { .. } => text.parse::<f64>().ok().map(RawValue::Float),
            Kind::Bool => text.parse::<bool>().ok().map(RawValue::Bool),
            Kind::Pool | Kind::Die(_) | Kind::Choice(_) => Some(RawValue::Str(text.into())),
            Kind::Table { .. } => None,
        };
        match typed {
            Some(value) => Ok(value),
            None => RawValue::guess(text),
        }
    }
}

/// "1 to 5", "1 or more", "any whole number".
fn int_range(min: i64, max: i64) -> String {
    match (min, max) {
        (i64::MIN, i64::MAX) => "any whole number".into(),
        (min, i64::MAX) => format!("{min} or more"),
        (min, max) => format!("{min} to {max}"),
    }
}

/// The descriptor called `name` among `keys`.
pub fn find(keys: &[&'static KeyDef], name: &str) -> Option<&'static KeyDef> {
    keys.iter().copied().find(|key| key.name == name)
}
