//! A scenario's `[[table]]`s (docs/scenarios.md, "Tables"): pivot tables its
//! report pages show first, each read into a [`PivotSpec`] and checked
//! against the systems of the scenario's cases, so a misspelt key or metric
//! is an error at its line, before anything is evaluated.
//!
//! A table holds `rows` (a key, or a list of keys read together), `cols`
//! (the same, or `"metric"` for a column per metric; left out, a column per
//! metric too), `metrics` (a metric or a tail such as `"successes>=2"`, or
//! a list), `title`, and `where`, a table of inputs a case must hold to be
//! in the grid (`where = { modifier = 0 }`).

use super::reader::{take_string, Reader};
use super::top_level::Tables;
use crate::errors::InputError;
use crate::options::{allowed, did_you_mean, RawItem, RawValue};
use crate::report::pivot::{self, Axis, PivotSpec};
use crate::systems::{Case, System};

/// The keys a `[[table]]` holds.
const TABLE_KEYS: [&str; 5] = ["title", "rows", "cols", "metrics", "where"];

/// The `[[table]]`s, in file order.
pub(super) fn resolve(
    reader: &Reader<'_>,
    tables: Tables,
    cases: &[Case],
) -> Result<Vec<PivotSpec>, InputError> {
    let mut systems: Vec<System> = Vec::new();
    for case in cases {
        if !systems.contains(&case.spec.system()) {
            systems.push(case.spec.system());
        }
    }
    tables
        .into_iter()
        .map(|(entries, at)| {
            let mut spec = PivotSpec::new(Axis::Keys(Vec::new()), None, Vec::new());
            let mut has_rows = false;
            for (key, item) in &entries {
                match key.as_str() {
                    "title" => spec.title = Some(take_string(reader, item, key)?),
                    "rows" => {
                        spec.rows = axis(reader, item, key)?;
                        has_rows = true;
                    }
                    "cols" => spec.cols = Some(axis(reader, item, key)?),
                    "metrics" => spec.metrics = strings(reader, item, key)?,
                    "where" => {
                        let RawValue::Table(pairs) = &item.value else {
                            return Err(reader.error(
                                item.at,
                                "`where` must be a table of inputs, such as `where = { modifier = 0 }`",
                            ));
                        };
                        spec.filter = pairs
                            .iter()
                            .map(|(k, v)| (k.clone(), v.value.to_json()))
                            .collect();
                    }
                    other => {
                        return Err(reader.error(
                            item.at.or(at),
                            format!(
                                "unknown key `{other}` in a [[table]]{}; {}",
                                did_you_mean(other, TABLE_KEYS),
                                allowed(TABLE_KEYS)
                            ),
                        ))
                    }
                }
            }
            if !has_rows {
                return Err(reader.error(
                    at,
                    "each [[table]] needs `rows`, the key whose values label its rows (such as `rows = \"dice\"`)",
                ));
            }
            pivot::check(&spec, &systems).map_err(|e| reader.error(at, e.0.replace("`--metric ", "`metrics = ").replace("`--rows metric`", "`rows = \"metric\"`")))?;
            Ok(spec)
        })
        .collect()
}

/// An axis: a key, `"metric"`, or a list of keys.
fn axis(reader: &Reader<'_>, item: &RawItem, key: &str) -> Result<Axis, InputError> {
    let keys = strings(reader, item, key)?;
    Ok(Axis::parse(&keys.join(",")))
}

/// A string or a list of strings.
fn strings(reader: &Reader<'_>, item: &RawItem, key: &str) -> Result<Vec<String>, InputError> {
    match &item.value {
        RawValue::Array(items) => items.iter().map(|i| take_string(reader, i, key)).collect(),
        _ => Ok(vec![take_string(reader, item, key)?]),
    }
}
