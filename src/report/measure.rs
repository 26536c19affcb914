//! What a grid's cell shows (docs/reports.md, "Pivot tables"): a metric
//! (`p_success`) or a tail of an ordered distribution variable
//! (`successes>=2`, `successes<=1`, `successes=3`), its code name and its
//! words ("at least 2 successes"), its value from a case's distribution
//! rows, and the message for one the cases cannot show.

use super::chart::labels;
use crate::distribution::{nearer_tail, DistRow};
use crate::errors::InputError;
use crate::options::{allowed, did_you_mean};
use crate::systems::metrics::MetricKind;
use crate::systems::System;

/// Whether people's tables say metrics and keys in words or as the code
/// names scripts use (`--names code`); CSV and JSON keep code names always.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Names {
    #[default]
    Words,
    Code,
}

/// How a tail compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    AtLeast,
    AtMost,
    Exactly,
}

impl Tail {
    fn words(self) -> &'static str {
        match self {
            Tail::AtLeast => "at least",
            Tail::AtMost => "at most",
            Tail::Exactly => "exactly",
        }
    }

    fn sign(self) -> &'static str {
        match self {
            Tail::AtLeast => ">=",
            Tail::AtMost => "<=",
            Tail::Exactly => "=",
        }
    }
}

/// What a cell shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Measure {
    Metric(String),
    /// P(`variable` compared with `n`), from the distribution table.
    Tail {
        variable: String,
        tail: Tail,
        n: i64,
    },
}

impl Measure {
    /// A measure as written: `p_success`, `successes>=2`.
    pub fn parse(text: &str) -> Measure {
        let text = text.trim();
        for (sign, tail) in [
            (">=", Tail::AtLeast),
            ("<=", Tail::AtMost),
            ("=", Tail::Exactly),
        ] {
            if let Some((variable, n)) = text.split_once(sign) {
                if let Ok(n) = n.trim().parse::<i64>() {
                    return Measure::Tail {
                        variable: variable.trim().to_string(),
                        tail,
                        n,
                    };
                }
            }
        }
        Measure::Metric(text.to_string())
    }

    /// Its code name: `p_success`, `successes>=2`.
    pub fn code(&self) -> String {
        match self {
            Measure::Metric(name) => name.clone(),
            Measure::Tail { variable, tail, n } => format!("{variable}{}{n}", tail.sign()),
        }
    }

    /// Its words: the metric's phrase, or "at least 2 successes" (a
    /// variable named as a plural noun) and "total at least 7" (any other).
    pub fn phrase(&self) -> String {
        match self {
            Measure::Metric(name) => labels::metric_phrase(name),
            Measure::Tail { variable, tail, n } => tail_phrase(variable, *tail, *n),
        }
    }

    /// Its name as `names` asks.
    pub fn label(&self, names: Names) -> String {
        match names {
            Names::Words => self.phrase(),
            Names::Code => self.code(),
        }
    }

    /// Whether it reads as a chance (a percentage) or a plain number.
    pub fn kind(&self) -> MetricKind {
        match self {
            Measure::Metric(name) => {
                crate::systems::metrics::describe(name).map_or(MetricKind::Mean, |d| d.kind)
            }
            Measure::Tail { .. } => MetricKind::Probability,
        }
    }
}

/// "at least 2 successes", "exactly 1 hitch", "total at most 7".
fn tail_phrase(variable: &str, tail: Tail, n: i64) -> String {
    let words = variable.replace('_', " ");
    if let Some(stem) = words
        .strip_suffix("es")
        .filter(|s| s.ends_with("ss") || s.ends_with("ch"))
    {
        let noun = if n == 1 {
            stem.to_string()
        } else {
            words.clone()
        };
        return format!("{} {n} {noun}", tail.words());
    }
    if let Some(stem) = words.strip_suffix('s') {
        let noun = if n == 1 {
            stem.to_string()
        } else {
            words.clone()
        };
        return format!("{} {n} {noun}", tail.words());
    }
    format!("{words} {} {n}", tail.words())
}

/// P(`variable` >= / <= / = `n`) over the variable's whole-number rows,
/// each tail summed from its nearer end ([`nearer_tail`]); `None` when the
/// case has no rows of the variable.
pub fn tail_value(rows: &[DistRow], variable: &str, tail: Tail, n: i64) -> Option<f64> {
    let numeric: Vec<(i64, f64)> = rows
        .iter()
        .filter(|r| r.variable == variable)
        .filter_map(|r| Some((r.outcome.parse::<i64>().ok()?, r.probability)))
        .collect();
    if numeric.is_empty() {
        return None;
    }
    let mass: f64 = numeric.iter().map(|(_, p)| p).sum();
    let mass = if (mass - 1.0).abs() < 1e-12 {
        1.0
    } else {
        mass
    };
    let sum = |keep: &dyn Fn(i64) -> bool| -> f64 {
        numeric
            .iter()
            .filter(|(o, _)| keep(*o))
            .map(|(_, p)| p)
            .sum()
    };
    Some(
        match tail {
            Tail::Exactly => sum(&|o| o == n),
            Tail::AtLeast => nearer_tail(sum(&|o| o >= n), sum(&|o| o < n), mass),
            Tail::AtMost => nearer_tail(sum(&|o| o <= n), sum(&|o| o > n), mass),
        }
        .clamp(0.0, mass),
    )
}

/// A measure the cases cannot show, said with what they can.
pub(super) fn check_measure(
    measure: &Measure,
    text: &str,
    system: System,
    computed: &[&str],
) -> Result<(), InputError> {
    let variables: Vec<&str> = system
        .declared()
        .distributions
        .iter()
        .filter(|d| d.ordered && !d.numbered)
        .map(|d| d.name)
        .collect();
    let tails: Vec<String> = variables.iter().map(|v| format!("{v}>=N")).collect();
    match measure {
        Measure::Metric(name) if computed.contains(&name.as_str()) => Ok(()),
        Measure::Metric(name) => {
            let mut names: Vec<String> = computed.iter().map(|s| s.to_string()).collect();
            names.extend(tails.iter().cloned());
            let why = if system.declared().describe(name).is_some() {
                " is not computed by these cases"
            } else {
                " is no metric of these cases"
            };
            Err(InputError(format!(
                "`--metric {text}`{why}{}; {} (a tail `VARIABLE>=N`, `<=N` or `=N` of {})",
                did_you_mean(name, computed.iter().copied()),
                allowed(computed.iter()),
                variables.join(", ")
            )))
        }
        Measure::Tail { variable, .. } if variables.contains(&variable.as_str()) => Ok(()),
        Measure::Tail { variable, .. } => Err(InputError(format!(
            "`--metric {text}`: `{variable}` is no ordered outcome of {} cases{}; {}",
            system.name(),
            did_you_mean(variable, variables.iter().copied()),
            allowed(tails)
        ))),
    }
}
