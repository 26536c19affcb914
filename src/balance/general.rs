//! The general balance (docs/cortex.md): for any system, a ladder of values of one
//! of its keys, a metric and a target. "Which doom pool ends a scene early
//! 20% of the time", "how many 9-again dice give 90%", "which advantage die
//! gives 1.5 strong hits per encounter". The case's other keys are fixed; a
//! fixed key holding a list gives one question per combination, as a sweep
//! does. Each rung is an ordinary case of the system, evaluated later by
//! the run's method like any case.
//!
//! Both a `[[balance]]` table (fixed keys in its `case` table) and `oddsmith
//! balance --system ...` (fixed keys as flags) come here as [`Options`] for
//! the balance's own keys plus the fixed entries.

use serde_json::{Map, Value};

use super::{label_of, BalanceQuestion, Form, Rung};
use crate::dice::Pool;
use crate::options::{
    combination, combination_count, Entries, OptionError, Options, RawItem, RawValue,
};
use crate::systems::cortex::keys::{DOOM, VS};
use crate::systems::{Case, System, SystemCase};

/// The keys of a general balance besides the fixed case (`case` in TOML).
pub const KEYS: &[&str] = &["system", "key", "ladder", "metric", "target"];

/// Whether a `[[balance]]` table asks the general form (it names a system,
/// a key or a metric) rather than docs/cortex.md's `pools`.
pub fn is_general(entries: &[(String, RawItem)]) -> bool {
    entries
        .iter()
        .any(|(k, _)| matches!(k.as_str(), "system" | "key" | "metric"))
}

/// Most questions one balance may expand to, like a sweep's cases.
const MAX_QUESTIONS: usize = 10_000;

/// A general balance's own keys, read and checked.
#[derive(Debug, Clone)]
pub struct GeneralSpec {
    pub system: System,
    pub key: &'static str,
    pub ladder: Vec<RawItem>,
    pub metric: String,
    metric_item: RawItem,
    pub target: f64,
}

/// Reads a required string key.
fn required_string(
    options: &mut Options,
    key: &'static str,
    what: &str,
) -> Result<(String, RawItem), OptionError> {
    options.string(key)?.ok_or_else(|| {
        options.case_error(format!(
            "a general balance needs {} ({what}); it takes {}",
            options.key_name(key),
            KEYS.iter()
                .map(|k| options.key_name(k))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

impl GeneralSpec {
    /// Reads `system`, `key`, `ladder`, `metric` and `target` from
    /// `options` (the caller reads the fixed case and finishes them).
    pub fn from_options(options: &mut Options) -> Result<GeneralSpec, OptionError> {
        let (name, system_item) = required_string(options, "system", "the system to balance")?;
        let system =
            System::from_name(&name).map_err(|message| options.error_at(&system_item, message))?;
        let (key_name, key_item) = required_string(options, "key", "the key the ladder varies")?;
        let Some(&key) = system.keys().iter().find(|&&k| k == key_name) else {
            return Err(options.error_at(
                &key_item,
                format!(
                    "{} is \"{key_name}\", which is not a key of system \"{system}\"; allowed: {}",
                    options.key_name("key"),
                    system.keys().join(", ")
                ),
            ));
        };
        let ladder = ladder_items(options, key)?;
        let (metric, metric_item) =
            required_string(options, "metric", "the metric to aim, e.g. p_success")?;
        let Some(target_item) = options.take("target") else {
            return Err(options.case_error(format!(
                "a general balance needs {}, the value of {metric} to aim for",
                options.key_name("target")
            )));
        };
        let target = match target_item.value {
            RawValue::Float(x) if x.is_finite() => x,
            RawValue::Int(i) => i as f64,
            _ => {
                return Err(options.error_at(
                    &target_item,
                    format!(
                        "{} must be a finite number, not {}",
                        options.key_name("target"),
                        target_item.value
                    ),
                ))
            }
        };
        if system.declared().is_probability(&metric) && !(0.0..=1.0).contains(&target) {
            return Err(options.error_at(
                &target_item,
                format!(
                    "{} is {target}, but {metric} is a probability: give a target from 0 to 1",
                    options.key_name("target")
                ),
            ));
        }
        Ok(GeneralSpec {
            system,
            key,
            ladder,
            metric,
            metric_item,
            target,
        })
    }

    /// How many rungs [`Self::questions`] makes of `fixed`: the ladder
    /// for every combination of the fixed keys.
    pub fn rungs(&self, fixed: &[(String, RawItem)]) -> usize {
        combination_count(fixed).saturating_mul(self.ladder.len())
    }

    /// One question per combination of the fixed keys (`fixed`, lists
    /// allowed), every rung resolved by `resolve` (which lays a scenario's
    /// defaults tables under the entries). `options` locates and words the
    /// errors; `table` numbers the balance for its chart.
    pub fn questions(
        &self,
        options: &Options,
        fixed: &[(String, RawItem)],
        table: usize,
        resolve: &dyn Fn(Entries) -> Result<Box<dyn SystemCase>, OptionError>,
    ) -> Result<Vec<BalanceQuestion>, OptionError> {
        if let Some((_, item)) = fixed.iter().find(|(k, _)| k == self.key) {
            return Err(options.error_at(
                item,
                format!(
                    "{} is the ladder's key ({} {}): give its values in {} and leave it out of the fixed keys",
                    options.key_name(self.key),
                    options.key_name("key"),
                    self.key,
                    options.key_name("ladder"),
                ),
            ));
        }
        for (key, item) in fixed {
            if matches!(&item.value, RawValue::Array(values) if values.is_empty()) {
                return Err(
                    options.error_at(item, format!("the list {} is empty", options.key_name(key)))
                );
            }
        }
        let count = combination_count(fixed);
        if count > MAX_QUESTIONS {
            return Err(options.case_error(format!(
                "the fixed keys' lists make {count} balances; at most {MAX_QUESTIONS} are allowed"
            )));
        }
        let mut questions = Vec::with_capacity(count);
        let mut known_metrics: Vec<String> = Vec::new();
        for index in 0..count {
            let chosen = combination(fixed, index);
            let inputs: Map<String, Value> = chosen
                .iter()
                .map(|(k, item)| (k.clone(), item.value.to_json()))
                .collect();
            let mut rungs = Vec::with_capacity(self.ladder.len());
            for rung in &self.ladder {
                let mut entries = chosen.clone();
                entries.push((self.key.to_string(), rung.clone()));
                let spec = resolve(entries)?;
                if known_metrics.is_empty() || !known_metrics.contains(&self.metric) {
                    for name in spec.metric_names() {
                        if !known_metrics.contains(&name) {
                            known_metrics.push(name);
                        }
                    }
                }
                rungs.push(Rung {
                    value: rung.value.to_json(),
                    label: self.label(&rung.value),
                    case: Case {
                        name: format!("{} {}={}", self.system, self.key, rung.value),
                        spec,
                    },
                });
            }
            if !known_metrics.contains(&self.metric) {
                return Err(options.error_at(
                    &self.metric_item,
                    format!(
                        "unknown metric \"{}\" for system \"{}\" here; its metrics: {}",
                        self.metric,
                        self.system,
                        known_metrics.join(", ")
                    ),
                ));
            }
            questions.push(BalanceQuestion {
                form: Form::General,
                table,
                system: self.system,
                inputs,
                key: self.key.to_string(),
                metric: self.metric.clone(),
                target: self.target,
                rungs,
            });
        }
        Ok(questions)
    }

    /// The rules text's name of a doom pool on its difficulty table, for a
    /// ladder of opposing pools (`vs`) or starting doom pools (`doom`).
    fn label(&self, value: &RawValue) -> Option<&'static str> {
        match value {
            RawValue::Str(text) if [VS.name, DOOM.name].contains(&self.key) => {
                Pool::parse_cortex(text)
                    .ok()
                    .and_then(|pool| label_of(&pool))
            }
            _ => None,
        }
    }
}

/// Reads the `ladder`: a non-empty list of single values of `key`.
fn ladder_items(options: &mut Options, key: &str) -> Result<Vec<RawItem>, OptionError> {
    let Some(item) = options.take("ladder") else {
        return Err(options.case_error(format!(
            "a general balance needs {}, the values of `{key}` to try in order",
            options.key_name("ladder")
        )));
    };
    let RawValue::Array(items) = &item.value else {
        return Err(options.error_at(
            &item,
            format!(
                "{} must be a list of values of `{key}`, not {}",
                options.key_name("ladder"),
                item.value.type_name()
            ),
        ));
    };
    if items.is_empty() {
        return Err(options.error_at(
            &item,
            format!(
                "{} is empty: give at least one value of `{key}`",
                options.key_name("ladder")
            ),
        ));
    }
    let mut rungs = Vec::with_capacity(items.len());
    for (i, entry) in items.iter().enumerate() {
        let at = RawItem {
            at: entry.at.or(item.at),
            layer: 1,
            ..entry.clone()
        };
        if matches!(entry.value, RawValue::Array(_) | RawValue::Table(_)) {
            return Err(options.error_at(
                &at,
                format!(
                    "entry {} of {} is {}: a ladder holds single values of `{key}` (table keys such as `gain_on` cannot be laddered)",
                    i + 1,
                    options.key_name("ladder"),
                    entry.value.type_name()
                ),
            ));
        }
        rungs.push(at);
    }
    Ok(rungs)
}
