//! The second phase of reading a scenario (docs/scenarios.md): its top-level
//! keys (`name`, `description`, `trials`, `seed`), its defaults tables
//! (`[cortex]`, each checked on its own so a typo is caught even when no
//! case uses it) and its `[[case]]`, `[[sweep]]` and `[[balance]]` arrays,
//! not yet resolved.

use toml::de::DeTable;

use super::reader::{take_count, take_string, Reader};
use crate::echo::echo;
use crate::errors::InputError;
use crate::options::{allowed, did_you_mean, Entries, Pos, RawItem, RawValue};
use crate::report::format::printable;
use crate::systems::{self, System};

/// The keys a scenario file holds besides its defaults tables (docs/scenarios.md).
const TOP_LEVEL_KEYS: [&str; 8] = [
    "name",
    "description",
    "trials",
    "seed",
    "[[case]]",
    "[[sweep]]",
    "[[balance]]",
    "[[table]]",
];

/// Tables of an array (`[[case]]`, ...), each with where it starts.
pub(super) type Tables = Vec<(Entries, Option<Pos>)>;

/// A scenario's top level, read but not resolved.
pub(super) struct TopLevel {
    pub name: String,
    pub description: Option<String>,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    /// The defaults tables in file order, each entry at layer 0 (under
    /// every case's own keys).
    pub defaults: Vec<(System, Entries)>,
    pub cases: Tables,
    pub sweeps: Tables,
    pub balances: Tables,
    /// `[[table]]`s (docs/scenarios.md, "Tables").
    pub tables: Tables,
}

impl TopLevel {
    /// Reads the top-level keys in file order; the scenario is named
    /// `default_name` (the file's stem) unless it has a `name`.
    pub(super) fn read(
        reader: &Reader<'_>,
        document: &DeTable<'_>,
        default_name: &str,
    ) -> Result<TopLevel, InputError> {
        let entries = reader.entries(document, 1)?;
        let mut top = TopLevel {
            name: default_name.to_string(),
            description: None,
            trials: None,
            seed: None,
            defaults: Vec::new(),
            cases: Vec::new(),
            sweeps: Vec::new(),
            balances: Vec::new(),
            tables: Vec::new(),
        };
        for (key, item) in &entries {
            match key.as_str() {
                "name" => top.name = folder_name(reader, item)?,
                "description" => top.description = Some(description(reader, item)?),
                "trials" => top.trials = Some(take_count(reader, item, key, 1)?),
                "seed" => top.seed = Some(take_count(reader, item, key, 0)?),
                "case" => top.cases = reader.tables(key, item)?,
                "sweep" => top.sweeps = reader.tables(key, item)?,
                "balance" => top.balances = reader.tables(key, item)?,
                "table" => top.tables = reader.tables(key, item)?,
                other => top.defaults.push(defaults_table(reader, other, item)?),
            }
        }
        if !entries.iter().any(|(key, _)| key == "name") {
            if let Some(problem) = folder_name_problem(&top.name) {
                return Err(reader.error(
                    None,
                    format!(
                        "the report folder is named after the file, \"{}\", but {problem}: give the scenario a `name`; {FOLDER_NAME_HINT}",
                        echo(&top.name)
                    ),
                ));
            }
        }
        for (system, entries) in &top.defaults {
            check_defaults(reader, *system, entries)?;
        }
        Ok(top)
    }
}

/// A top-level key that is none of [`TOP_LEVEL_KEYS`]: a system's defaults
/// table, its entries moved to layer 0.
fn defaults_table(
    reader: &Reader<'_>,
    key: &str,
    item: &RawItem,
) -> Result<(System, Entries), InputError> {
    let Ok(system) = System::from_name(key) else {
        let mut keys: Vec<String> = TOP_LEVEL_KEYS.iter().map(|k| k.to_string()).collect();
        let tables = System::ALL.map(|s| format!("[{s}]"));
        keys.extend(tables.iter().cloned());
        let names = TOP_LEVEL_KEYS
            .iter()
            .map(|k| k.trim_matches(['[', ']']))
            .chain(System::ALL.map(System::name));
        return Err(reader.error(
            item.at,
            format!(
                "unknown top-level key `{key}`{}; {}",
                did_you_mean(key, names),
                allowed(keys)
            ),
        ));
    };
    let RawValue::Table(entries) = &item.value else {
        return Err(reader.error(
            item.at,
            format!("`{key}` must be a table of defaults: write [{key}]"),
        ));
    };
    let entries = entries
        .iter()
        .map(|(k, i)| {
            (
                k.clone(),
                RawItem {
                    layer: 0,
                    ..i.clone()
                },
            )
        })
        .collect();
    Ok((system, entries))
}

/// Why `name` cannot name a report folder, if it cannot. The scenario's
/// name is its report folder's name (`reports/<name>/`), whether written as
/// `name` or taken from the file's name, so it must be one plain folder
/// name: `..` or `a/b` would write the report somewhere else, and
/// `index.html` or `index.md` would collide with the index `oddsmith report`
/// writes beside the folders (refused in any letter case, for file systems
/// that ignore it).
fn folder_name_problem(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() || name == "." || name == ".." {
        Some("it is not a folder name")
    } else if name.chars().any(|c| c == '/' || c == '\\') {
        Some("it holds / or \\")
    } else if name.chars().any(char::is_control) {
        Some("it holds a control character")
    } else if !name.chars().all(printable) {
        Some("it holds a character XML forbids (a Unicode noncharacter such as U+FFFE)")
    } else if ["index.html", "index.md"].contains(&name.to_lowercase().as_str()) {
        Some("the index of `oddsmith report` has that name")
    } else {
        None
    }
}

/// The scenario's description: any text, on several lines if need be, but
/// no other control character nor a character XML forbids (the pages and
/// JSON carry it; see [`printable`]).
fn description(reader: &Reader<'_>, item: &RawItem) -> Result<String, InputError> {
    let text = take_string(reader, item, "description")?;
    match text.chars().find(|&c| !printable(c) && !matches!(c, '\n' | '\r' | '\t')) {
        Some(c) => Err(reader.error(
            item.at,
            format!(
                "the description holds the character U+{:04X}: use printable characters, line breaks and tabs",
                u32::from(c)
            ),
        )),
        None => Ok(text),
    }
}

const FOLDER_NAME_HINT: &str = "use one plain folder name, without / or \\ (e.g. \"doom-ladder\")";

fn folder_name(reader: &Reader<'_>, item: &RawItem) -> Result<String, InputError> {
    let name = take_string(reader, item, "name")?;
    match folder_name_problem(&name) {
        Some(problem) => Err(reader.error(
            item.at,
            format!("`name` is \"{}\", but it is also the report folder's name and {problem}: {FOLDER_NAME_HINT}", echo(&name)),
        )),
        None => Ok(name),
    }
}

/// Validates a defaults table on its own by resolving it with a stand-in
/// for every required key, so typos are caught even if no case uses them.
fn check_defaults(
    reader: &Reader<'_>,
    system: System,
    entries: &[(String, RawItem)],
) -> Result<(), InputError> {
    let keys = system.keys();
    for (key, item) in entries {
        if !keys.contains(&key.as_str()) {
            let owners = systems::systems_with_key(key);
            let hint = if owners.is_empty() {
                String::new()
            } else {
                format!(" (it belongs to {})", owners.join(", "))
            };
            return Err(reader.error(
                item.at,
                format!(
                    "unknown key `{key}` in [{system}]{hint}{}; {}",
                    did_you_mean(key, keys.iter().copied()),
                    allowed(keys)
                ),
            ));
        }
    }
    Ok(())
}
