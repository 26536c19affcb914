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
    let mut cases = Vec::with_capacity(count);
    // Each resolved case's first name and its swept values as written.
    let mut canonical: std::collections::HashMap<String, (String, Entries)> = Default::default();
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
        let written_twice = |(first, values): &(String, Entries)| {
            *first != name
                && values.iter().zip(&swept_values).all(|((key, a), (_, b))| {
                    a.value == b.value || resolved.contains_key(key.as_str())
                })
        };
        // (A value listed twice as written is a duplicate name, said by the caller.)
        if let Some((first, _)) = canonical.get(&inputs).filter(|f| written_twice(f)) {
            return Err(OptionError {
                at: None,
                message: format!(
                    "the sweep's case \"{}\" is the same case as \"{}\" (one value written two ways): list each value once",
                    echo(&name),
                    echo(first)
                ),
            });
        }
        canonical
            .entry(inputs)
            .or_insert_with(|| (name.clone(), swept_values));
        cases.push(Case { name, spec });
    }
    Ok(cases)
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
