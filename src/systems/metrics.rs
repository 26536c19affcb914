//! What a metric is, declared once: every system lists its metrics here as
//! [`MetricDef`]s (a name, the words a designer would use, and what kind of
//! number it is) and its numbered families as [`MetricFamily`]s
//! (`p_success_action_3`, `win_effect_d8`), and its distribution table's
//! variables as [`DistributionDef`]s, ordered or not. Metric construction,
//! headline metrics, the charts' look-ups, the balance's list of metrics
//! and the words charts and pages print all read these, so a metric's name
//! is written once, in its system's `metrics.rs`, and a misspelt one is a
//! compile error. The metric lists themselves are the documented ones
//! (docs/cortex.md, docs/storytelling.md, docs/advantage.md).

use super::System;

/// What kind of number a metric is, which decides how it reads and what
/// values it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricKind {
    /// A chance or a share of rolls, from 0 to 1 (printed as a percentage).
    Probability,
    /// An average of a per-trial value (successes, exchanges, a total).
    Mean,
    /// A whole number of things.
    Count,
}

/// One metric: its name in CSV and JSON, its phrase in words ("chance of
/// success") for charts, pages and table headers, and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricDef {
    pub name: &'static str,
    pub phrase: &'static str,
    pub kind: MetricKind,
    /// For a conditional mean (a mean over only the plays where something
    /// happened: the fights where the foe is out, the scenes that did not
    /// end early), which plays, as words that follow the phrase in
    /// parentheses: "of fights where it is". Every table, page and chart
    /// reads the phrase through [`Declared::describe`], which adds them, so
    /// no reader takes such a mean for one over every play.
    pub over: Option<&'static str>,
}

impl MetricDef {
    pub const fn probability(name: &'static str, phrase: &'static str) -> MetricDef {
        MetricDef {
            name,
            phrase,
            kind: MetricKind::Probability,
            over: None,
        }
    }

    pub const fn mean(name: &'static str, phrase: &'static str) -> MetricDef {
        MetricDef {
            name,
            phrase,
            kind: MetricKind::Mean,
            over: None,
        }
    }

    /// A mean over only the plays `over` names ("of fights where it is").
    pub const fn conditional_mean(
        name: &'static str,
        phrase: &'static str,
        over: &'static str,
    ) -> MetricDef {
        MetricDef {
            name,
            phrase,
            kind: MetricKind::Mean,
            over: Some(over),
        }
    }

    /// Its words as people read them: the phrase, and for a conditional
    /// mean the plays it is over, "average exchanges to take the foe out
    /// (of fights where it is)".
    pub fn words(&self) -> String {
        match self.over {
            Some(over) => format!("{} ({over})", self.phrase),
            None => self.phrase.to_string(),
        }
    }
}

/// What may follow a family's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Members {
    /// A Cortex die size, `d4` .. `d12` (docs/cortex.md's effect dice).
    DieSizes,
    /// A whole number from 1: an action, a count of plot points.
    FromOne,
}

/// The effect die sizes of docs/cortex.md, smallest first.
pub const DIE_SIZES: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];

/// A numbered family of metrics: `prefix` then a member (`win_effect_` and
/// `d8`), its phrase `phrase` with the member in place of `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricFamily {
    pub prefix: &'static str,
    pub phrase: &'static str,
    pub kind: MetricKind,
    pub members: Members,
}

impl MetricFamily {
    /// The member's metric name: `win_effect_d8`.
    pub fn name(&self, member: impl std::fmt::Display) -> String {
        format!("{}{member}", self.prefix)
    }

    /// The member's phrase: "chance of success with a d8 effect die".
    pub fn phrase_of(&self, member: &str) -> String {
        self.phrase.replace("{}", member)
    }

    /// The member `name` is of this family, if it is one: `d8` of
    /// `win_effect_d8`; `None` for `win_effect_beyond`.
    pub fn member<'a>(&self, name: &'a str) -> Option<&'a str> {
        let member = name.strip_prefix(self.prefix)?;
        let fits = match self.members {
            Members::DieSizes => DIE_SIZES.contains(&member),
            Members::FromOne => {
                !member.starts_with('0') && member.parse::<u32>().is_ok_and(|n| n >= 1)
            }
        };
        fits.then_some(member)
    }
}

/// A metric or a whole numbered family, as a chart lists what it draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricRef {
    One(MetricDef),
    Family(MetricFamily),
}

impl MetricRef {
    /// Whether metric `name` is this one or a member of this family.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            MetricRef::One(def) => def.name == name,
            MetricRef::Family(family) => family.member(name).is_some(),
        }
    }
}

/// One variable of a system's distribution table: its name (for a
/// numbered one, the prefix before the number: `tier_roll_` of
/// `tier_roll_2`) and whether its outcomes are ordered numbers, so that
/// "at least" applies (docs/reports.md, `at_least`), or categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DistributionDef {
    pub name: &'static str,
    pub numbered: bool,
    pub ordered: bool,
}

impl DistributionDef {
    pub const fn ordered(name: &'static str) -> DistributionDef {
        DistributionDef {
            name,
            numbered: false,
            ordered: true,
        }
    }

    pub const fn categorical(name: &'static str) -> DistributionDef {
        DistributionDef {
            name,
            numbered: false,
            ordered: false,
        }
    }

    /// A numbered variable's name: `tier_roll_2`.
    pub fn numbered_name(&self, n: impl std::fmt::Display) -> String {
        format!("{}{n}", self.name)
    }

    /// Whether table variable `variable` is this one.
    pub fn is(&self, variable: &str) -> bool {
        if self.numbered {
            variable
                .strip_prefix(self.name)
                .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n >= 1))
        } else {
            variable == self.name
        }
    }
}

/// Everything one system declares about what it measures.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    /// Its plain metrics, in the order the system reports them.
    pub metrics: &'static [MetricDef],
    /// Its numbered families.
    pub families: &'static [MetricFamily],
    /// The variables of its distribution table.
    pub distributions: &'static [DistributionDef],
}

/// A metric as found by name: its name, phrase (a family member's made from
/// the member) and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    pub name: String,
    /// Its words, a conditional mean's plays included ([`MetricDef::words`]).
    pub phrase: String,
    pub kind: MetricKind,
    /// Whether it is a mean over only some of the plays.
    pub conditional: bool,
}

impl Declared {
    /// The metric called `name`, plain metrics before families (so
    /// `win_effect_beyond` is itself, not a member of `win_effect_`).
    pub fn describe(&self, name: &str) -> Option<Described> {
        if let Some(def) = self.metrics.iter().find(|d| d.name == name) {
            return Some(Described {
                name: name.into(),
                phrase: def.words(),
                kind: def.kind,
                conditional: def.over.is_some(),
            });
        }
        self.families.iter().find_map(|family| {
            let member = family.member(name)?;
            Some(Described {
                name: name.into(),
                phrase: family.phrase_of(member),
                kind: family.kind,
                conditional: false,
            })
        })
    }

    /// Whether `name` is a declared probability (a chance or a share of
    /// rolls, which reads as a percentage and lies in [0, 1]).
    pub fn is_probability(&self, name: &str) -> bool {
        self.describe(name)
            .is_some_and(|d| d.kind == MetricKind::Probability)
    }

    /// The distribution variable `variable` is, if declared.
    pub fn distribution(&self, variable: &str) -> Option<&'static DistributionDef> {
        self.distributions.iter().find(|d| d.is(variable))
    }
}

/// The metric called `name` in any system. A name several systems share
/// means the same there and reads the same (Storytelling successes are
/// dice, scene successes are actions: both are successes), which the tests
/// hold them to.
pub fn describe(name: &str) -> Option<Described> {
    System::ALL
        .into_iter()
        .find_map(|system| system.declared().describe(name))
}

#[cfg(test)]
mod tests;
