//! The third phase of reading a scenario (docs/scenarios.md): every
//! `[[case]]`, then every `[[sweep]]`, resolved over the defaults tables
//! its system reads, named, and checked for duplicate names and the case cap.

use std::collections::HashMap;

use super::reader::{take_string, too_many_cases, Reader};
use super::top_level::Tables;
use super::{default_case_name, sweep_cases, MAX_CASES};
use crate::echo::echo;
use crate::errors::InputError;
use crate::options::{allowed, Entries, KeyStyle, Options, Pos, RawItem};
use crate::report::format::printable;
use crate::systems::{Case, System};

/// The cases of the `[[case]]` tables, then those of the `[[sweep]]`s, in
/// file order.
pub(super) fn resolve(
    reader: &Reader<'_>,
    defaults: &[(System, Entries)],
    case_tables: Tables,
    sweep_tables: Tables,
) -> Result<Vec<Case>, InputError> {
    let mut cases = Vec::new();
    // A map, not a list: a sweep of 100,000 cases must not compare every
    // name with every other.
    let mut names: HashMap<String, Option<Pos>> = Default::default();
    let mut add_case = |case: Case, at: Option<Pos>| -> Result<(), InputError> {
        check_case_name(reader, &case.name, at)?;
        if let Some(first) = names.get(&case.name) {
            let first = first.map_or(String::new(), |p| format!(" (first at line {})", p.line));
            return Err(reader.error(
                at,
                format!(
                    "duplicate case name \"{}\"{first}: give each case its own `name`",
                    echo(&case.name)
                ),
            ));
        }
        if names.len() >= MAX_CASES {
            return Err(reader.error(at, too_many_cases()));
        }
        names.insert(case.name.clone(), at);
        cases.push(case);
        Ok(())
    };

    for (entries, at) in case_tables {
        let (system, name, rest) = split_case(reader, entries, at, "case")?;
        let options = with_defaults(defaults, system, rest, at);
        let spec = system
            .resolve(options)
            .map_err(|e| reader.error(e.at.or(at), e))?;
        let name = match name {
            Some(name) => name,
            None => default_case_name(spec.as_ref()),
        };
        add_case(Case { name, spec }, at)?;
    }

    for (entries, at) in sweep_tables {
        let (system, prefix, rest) = split_case(reader, entries, at, "sweep")?;
        let swept = sweep_cases(system, prefix.as_deref(), &rest, |chosen| {
            system.resolve(with_defaults(defaults, system, chosen, at))
        })
        .map_err(|e| reader.error(e.at.or(at), e))?;
        for case in swept {
            add_case(case, at)?;
        }
    }
    Ok(cases)
}

/// A case's name appears in tables, charts and messages: it must say
/// something, and hold only [`printable`] characters (a control character
/// or one XML forbids, such as U+FFFE, would break the SVG charts or the
/// terminal).
fn check_case_name(reader: &Reader<'_>, name: &str, at: Option<Pos>) -> Result<(), InputError> {
    let problem = if name.trim().is_empty() {
        "is empty"
    } else if name.chars().any(char::is_control) {
        "holds a control character"
    } else if !name.chars().all(printable) {
        "holds a character XML forbids (a Unicode noncharacter such as U+FFFE)"
    } else {
        return Ok(());
    };
    Err(reader.error(
        at,
        format!(
            "the case name \"{}\" {problem}: give the case a `name` of printable characters",
            echo(name)
        ),
    ))
}

/// Separates `system` and `name` from a case's other keys.
fn split_case(
    reader: &Reader<'_>,
    entries: Vec<(String, RawItem)>,
    at: Option<Pos>,
    what: &str,
) -> Result<(System, Option<String>, Entries), InputError> {
    let mut system = None;
    let mut name = None;
    let mut rest = Vec::new();
    for (key, item) in entries {
        match key.as_str() {
            "system" => system = Some(take_string(reader, &item, "system")?),
            "name" => {
                let text = take_string(reader, &item, "name")?;
                check_case_name(reader, &text, item.at)?;
                name = Some(text);
            }
            _ => rest.push((key, item)),
        }
    }
    let Some(system) = system else {
        return Err(reader.error(
            at,
            format!(
                "each [[{what}]] needs `system`; {}",
                allowed(System::ALL.map(System::name))
            ),
        ));
    };
    let system = System::from_name(&system).map_err(|message| reader.error(at, message))?;
    Ok((system, name, rest))
}

/// A case's options over the defaults tables its system reads.
pub(super) fn with_defaults(
    defaults: &[(System, Entries)],
    system: System,
    entries: Vec<(String, RawItem)>,
    at: Option<Pos>,
) -> Options {
    let mut all: Vec<(String, RawItem)> = Vec::new();
    for &table in system.defaults_tables() {
        for (name, table_entries) in defaults {
            if *name == table {
                // A scene reads [cortex] for its roll rules, but only the keys it knows.
                let keys = system.keys();
                all.extend(
                    table_entries
                        .iter()
                        .filter(|(k, _)| *name == system || keys.contains(&k.as_str()))
                        .cloned(),
                );
            }
        }
    }
    all.extend(entries);
    let mut options = system.options(KeyStyle::Toml, all);
    options.case_at = at;
    options
}
