//! Sweeps and case names (docs/scenarios.md): the cases of one `[[sweep]]` (every key
//! holding a list is swept, the cartesian product in key order, the last key
//! varying fastest), each named from its swept values, and the name of an
//! unnamed case (a quick command's, an unnamed `[[case]]`). The scenario
//! loader and the quick commands' comma lists both call these, so a case is
//! named one way wherever it comes from.

use crate::echo::echo;
use crate::options::{combination, combination_count, Entries, OptionError, RawValue};
use crate::systems::{self, Case, System};

/// Sweeps may not expand past this many cases: a typo like a 1,000-value
/// list times another should fail fast, not allocate for minutes.
pub const MAX_CASES: usize = 100_000;

/// A swept value in a case name: `again=9`; a table one pair per entry,
/// named as its summary.csv columns are (`gain_on.miss=1`).
fn swept_label(key: &str, value: &RawValue) -> String {
    match value {
        RawValue::Table(entries) => entries
            .iter()
            .map(|(sub, item)| swept_label(&format!("{key}.{sub}"), &item.value))
            .collect::<Vec<_>>()
            .join(", "),
        other => format!("{key}={other}"),
    }
}

/// The cases of one sweep (docs/scenarios.md): every key whose value is a list is
/// swept, the cartesian product in key order with the last key varying
/// fastest, each case named from its swept values (`prefix: ` first when
/// the sweep has a `name`). A sweep without lists is one case, named like
/// an unnamed `[[case]]`. `resolve` turns one combination's keys into a
/// case. Quick commands given comma lists are named here too.
pub fn sweep_cases(
    system: System,
    prefix: Option<&str>,
    rest: &Entries,
    resolve: impl Fn(Entries) -> Result<Box<dyn systems::SystemCase>, OptionError>,
) -> Result<Vec<Case>, OptionError> {
    let swept: Vec<String> = rest
        .iter()
        .filter(|(_, i)| matches!(i.value, RawValue::Array(_)))
        .map(|(k, _)| k.clone())
        .collect();
    for (key, item) in rest {
        if matches!(&item.value, RawValue::Array(values) if values.is_empty()) {
            return Err(OptionError {
                at: item.at,
                message: format!("the sweep list `{key}` is empty"),
            });
        }
    }
    let count = combination_count(rest);
    if count > MAX_CASES {
        return Err(OptionError {
            at: None,
            message: format!("this sweep expands to {count} cases; at most {MAX_CASES} are allowed: sweep fewer values"),
        });
    }
    let mut cases: Vec<Case> = Vec::with_capacity(count);
    // The first case with each resolved inputs, found by a hash of their
    // JSON text; the earlier case's text, name and swept values are made
    // again when the hash matches (holding them took a kilobyte a case).
    let mut first_with = FirstWith::default();
    let swept_values_of = |index: usize| -> Entries {
        combination(rest, index)
            .into_iter()
            .filter(|(k, _)| swept.contains(k))
            .collect()
    };
    for index in 0..count {
        let chosen = combination(rest, index);
        let label_parts: Vec<String> = chosen
            .iter()
            .filter(|(k, _)| swept.contains(k))
            .map(|(k, i)| swept_label(k, &i.value))
            .collect();
        let main = system.main_keys();
        let other_parts: Vec<String> = chosen
            .iter()
            .filter(|(k, _)| swept.contains(k) && !main.contains(&k.as_str()))
            .map(|(k, i)| swept_label(k, &i.value))
            .collect();
        let swept_values: Entries = chosen
            .iter()
            .filter(|(k, _)| swept.contains(k))
            .cloned()
            .collect();
        let spec = resolve(chosen)?;
        // "pool vs vs" names the pairing; any other swept key follows as
        // key=value so that every combination keeps its own name. A sweep
        // of single values is named from its main keys, as a case is.
        let generated = match spec.sweep_name(&swept) {
            Some(pairing) => std::iter::once(pairing)
                .chain(other_parts)
                .collect::<Vec<_>>()
                .join(", "),
            None if swept.is_empty() => default_case_name(spec.as_ref()),
            None => label_parts.join(", "),
        };
        let name = match prefix {
            Some(p) if swept.is_empty() => p.to_string(),
            Some(p) => format!("{p}: {generated}"),
            None => generated,
        };
        // Two combinations of one sweep differ in some swept value, so
        // equal resolved inputs (every value in canonical form) mean a
        // value listed twice under two spellings, `d8` and `1d8`.
        // But a swept key the case does not read (the die under `policy =
        // "never"`, docs/advantage.md) makes equal cases legitimately: the
        // answer is that it does not matter.
        let resolved = spec.inputs();
        let inputs = serde_json::Value::Object(resolved.clone()).to_string();
        let written_twice = |first: &Case, values: Entries| {
            first.name != name
                && values.iter().zip(&swept_values).all(|((key, a), (_, b))| {
                    a.value == b.value || resolved.contains_key(key.as_str())
                })
        };
        // (A value listed twice as written is a duplicate name, said by the caller.)
        if let Some(first) = first_with.find(&inputs, &cases) {
            if written_twice(&cases[first], swept_values_of(first)) {
                return Err(OptionError {
                    at: None,
                    message: format!(
                        "the sweep's case \"{}\" is the same case as \"{}\" (one value written two ways): list each value once",
                        echo(&name),
                        echo(&cases[first].name)
                    ),
                });
            }
        }
        first_with.add(inputs, index, &cases);
        cases.push(Case { name, spec });
    }
    Ok(cases)
}

/// The first case of a sweep with each resolved inputs, by their JSON
/// text: a hash of the text to the case's index, and the rare text whose
/// hash an earlier, different text already has, in full.
#[derive(Default)]
struct FirstWith {
    by_hash: std::collections::HashMap<u64, usize>,
    collided: std::collections::HashMap<String, usize>,
}

fn inputs_text(case: &Case) -> String {
    serde_json::Value::Object(case.spec.inputs()).to_string()
}

fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

impl FirstWith {
    /// The index in `cases` of the first case whose inputs are `text`.
    fn find(&self, text: &str, cases: &[Case]) -> Option<usize> {
        let first = *self.by_hash.get(&text_hash(text))?;
        if inputs_text(&cases[first]) == text {
            Some(first)
        } else {
            self.collided.get(text).copied()
        }
    }

    /// Notes case `index` (about to be pushed onto `cases`) unless an
    /// earlier case has the same inputs.
    fn add(&mut self, text: String, index: usize, cases: &[Case]) {
        match self.by_hash.entry(text_hash(&text)) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(index);
            }
            std::collections::hash_map::Entry::Occupied(slot) => {
                if inputs_text(&cases[*slot.get()]) != text {
                    self.collided.entry(text).or_insert(index);
                }
            }
        }
    }
}

/// An unnamed case (a quick command's, an unnamed `[[case]]`) named from
/// its system's main inputs, as a sweep over them would name it.
pub fn default_case_name(spec: &dyn systems::SystemCase) -> String {
    let main_keys: Vec<String> = spec
        .system()
        .main_keys()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if let Some(name) = spec.sweep_name(&main_keys) {
        return name;
    }
    let inputs = spec.naming_inputs();
    main_keys
        .iter()
        .filter_map(|k| {
            inputs.get(k).map(|v| match v {
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}
