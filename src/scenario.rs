//! Scenario files (docs/scenarios.md): TOML with file-level `trials` and `seed`,
//! defaults tables named after systems (`[cortex]`), `[[case]]` and
//! `[[sweep]]` arrays. The file is read with toml's spanned parser so every
//! error names the file, line and column; values become [`RawValue`]s and
//! each system resolves its own keys through [`Options`].

use std::path::Path;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::balance::general::GeneralSpec;
use crate::balance::{self, BalanceQuestion, BalanceSpec};
use crate::echo::echo;
use crate::errors::InputError;
use crate::line_index::LineIndex;
use crate::options::{allowed, did_you_mean, Entries, KeyStyle, Options, Pos, RawItem, RawValue};
use crate::systems::{self, Case, System};

/// The keys a scenario file holds besides its defaults tables (docs/scenarios.md).
const TOP_LEVEL_KEYS: [&str; 7] = [
    "name",
    "description",
    "trials",
    "seed",
    "[[case]]",
    "[[sweep]]",
    "[[balance]]",
];

pub use crate::sweep::{default_case_name, sweep_cases, MAX_CASES};

/// A loaded scenario.
#[derive(Debug)]
pub struct Scenario {
    pub name: String,
    pub description: Option<String>,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    pub cases: Vec<Case>,
    /// `[[balance]]` questions (docs/cortex.md), every rung a case that
    /// `run` evaluates by its method.
    pub balances: Vec<BalanceQuestion>,
}

/// Byte offset to 1-based line and column (in characters), for a one-off
/// lookup; the reader keeps a [`LineIndex`] for its many.
fn position(text: &str, offset: usize) -> Pos {
    LineIndex::new(text).position(offset)
}

struct Reader<'t> {
    lines: LineIndex<'t>,
    file: String,
}

impl Reader<'_> {
    fn at(&self, span: std::ops::Range<usize>) -> Pos {
        self.lines.position(span.start)
    }

    fn error(&self, at: Option<Pos>, message: impl std::fmt::Display) -> InputError {
        match at {
            Some(p) => InputError(format!("{}:{}:{}: {message}", self.file, p.line, p.col)),
            None => InputError(format!("{}: {message}", self.file)),
        }
    }

    fn raw(&self, value: &Spanned<DeValue<'_>>, layer: u8) -> Result<RawItem, InputError> {
        let at = Some(self.at(value.span()));
        let raw = match value.get_ref() {
            DeValue::String(s) => RawValue::Str(s.to_string()),
            DeValue::Integer(i) => {
                let digits = i.as_str().replace('_', "");
                let parsed = i64::from_str_radix(&digits, i.radix())
                    .map_err(|_| self.error(at, format!("the integer {i} is out of range")))?;
                RawValue::Int(parsed)
            }
            DeValue::Float(f) => RawValue::Float(
                f.as_str()
                    .replace('_', "")
                    .parse()
                    .map_err(|_| self.error(at, format!("the number {f} is out of range")))?,
            ),
            DeValue::Boolean(b) => RawValue::Bool(*b),
            DeValue::Datetime(_) => {
                return Err(self.error(at, "dates are not oddsmith options"));
            }
            DeValue::Array(items) => RawValue::Array(
                items
                    .iter()
                    .map(|item| self.raw(item, layer))
                    .collect::<Result<_, _>>()?,
            ),
            DeValue::Table(table) => RawValue::Table(self.entries(table, layer)?),
        };
        Ok(RawItem {
            value: raw,
            at,
            layer,
        })
    }

    /// A table's entries in file order, each located at its key.
    fn entries(
        &self,
        table: &DeTable<'_>,
        layer: u8,
    ) -> Result<Vec<(String, RawItem)>, InputError> {
        let mut entries = Vec::new();
        for (key, value) in table {
            let mut item = self.raw(value, layer)?;
            item.at = Some(self.at(key.span()));
            entries.push((key.get_ref().to_string(), item));
        }
        Ok(entries)
    }

    fn tables(&self, key: &str, item: &RawItem) -> Result<Vec<(Entries, Option<Pos>)>, InputError> {
        let RawValue::Array(items) = &item.value else {
            return Err(self.error(
                item.at,
                format!("`{key}` must be an array of tables: write [[{key}]]"),
            ));
        };
        items
            .iter()
            .map(|i| match &i.value {
                RawValue::Table(entries) => Ok((entries.clone(), i.at)),
                _ => Err(self.error(
                    i.at,
                    format!("each `{key}` must be a table: write [[{key}]]"),
                )),
            })
            .collect()
    }
}

/// The largest scenario file read: the biggest sensible scenario (100,000
/// written-out cases) is a few megabytes, and a cap means a path such as
/// `/dev/zero` is refused instead of filling memory.
pub const MAX_SCENARIO_BYTES: u64 = 16 * 1024 * 1024;

/// Loads and validates a scenario file.
pub fn load(path: &Path) -> Result<Scenario, InputError> {
    let file = path.display().to_string();
    let bytes = read_scenario_file(path, &file)?;
    let default_name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "scenario".into());
    parse_bytes(&bytes, &file, &default_name)
}

/// A scenario file's bytes. Only a regular file is read (a FIFO would block
/// forever, a device such as `/dev/zero` never ends), and at most
/// [`MAX_SCENARIO_BYTES`] of it.
fn read_scenario_file(path: &Path, file: &str) -> Result<Vec<u8>, InputError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| InputError(format!("cannot read scenario {file}: {e}"));
    // Looked at before opening: opening a FIFO for reading already blocks.
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        let kind = if metadata.is_dir() {
            "a folder"
        } else {
            "not a regular file (a device, pipe or socket)"
        };
        return Err(InputError(format!(
            "cannot read scenario {file}: it is {kind}; a scenario is a TOML file"
        )));
    }
    let too_big = || {
        InputError(format!(
            "scenario {file} is larger than {} MB; split it into several scenarios",
            MAX_SCENARIO_BYTES / (1024 * 1024)
        ))
    };
    if metadata.len() > MAX_SCENARIO_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SCENARIO_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    // The file may have grown since it was looked at.
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Parses a scenario file's bytes: UTF-8 (a leading byte-order mark, as some
/// Windows editors write, is skipped); bytes that are not UTF-8 are an error
/// at the line and column where they start.
pub fn parse_bytes(bytes: &[u8], file: &str, default_name: &str) -> Result<Scenario, InputError> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text, file, default_name),
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let p = position(valid, valid.len());
            Err(InputError(format!(
                "{file}:{}:{}: the file is not valid UTF-8 text; save it as UTF-8",
                p.line, p.col
            )))
        }
    }
}

fn take_string(reader: &Reader<'_>, item: &RawItem, key: &str) -> Result<String, InputError> {
    match &item.value {
        RawValue::Str(s) => Ok(s.clone()),
        other => Err(reader.error(
            item.at,
            format!("`{key}` must be a string, not {}", other.type_name()),
        )),
    }
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
    } else if ["index.html", "index.md"].contains(&name.to_lowercase().as_str()) {
        Some("the index of `oddsmith report` has that name")
    } else {
        None
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

/// A case's name appears in tables, charts and messages: it must say
/// something, and hold no control characters (they would break the SVG
/// charts and the terminal).
fn check_case_name(reader: &Reader<'_>, name: &str, at: Option<Pos>) -> Result<(), InputError> {
    let problem = if name.trim().is_empty() {
        "is empty"
    } else if name.chars().any(char::is_control) {
        "holds a control character"
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

fn take_count(reader: &Reader<'_>, item: &RawItem, key: &str, min: i64) -> Result<u64, InputError> {
    match item.value {
        RawValue::Int(i) if i >= min => Ok(i as u64),
        RawValue::Int(i) => Err(reader.error(
            item.at,
            format!("`{key}` must be a whole number of at least {min}, not {i}"),
        )),
        ref other => Err(reader.error(
            item.at,
            format!("`{key}` must be a whole number, not {}", other.type_name()),
        )),
    }
}

/// The line of a TOML error that toml reports without a position (a
/// dotted key nested past its recursion limit): the first line whose prefix
/// of the file already fails that way, found by bisection (a few parses).
fn locate_spanless(text: &str) -> Pos {
    let mut ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
    if ends.last() != Some(&text.len()) {
        ends.push(text.len());
    }
    let fails = |lines: usize| matches!(DeTable::parse(&text[..ends[lines - 1]]), Err(e) if e.span().is_none());
    let (mut lo, mut hi) = (1, ends.len());
    if hi == 0 || !fails(hi) {
        return Pos { line: 1, col: 1 };
    }
    // The smallest number of lines that fails: `hi` always fails.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fails(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Pos { line: hi, col: 1 }
}

/// Parses scenario text; `file` names it in errors.
pub fn parse(text: &str, file: &str, default_name: &str) -> Result<Scenario, InputError> {
    let reader = Reader {
        lines: LineIndex::new(text),
        file: file.to_string(),
    };
    let document = DeTable::parse(text).map_err(|e| {
        let at = Some(match e.span() {
            Some(s) => position(text, s.start),
            None => locate_spanless(text),
        });
        reader.error(at, format!("TOML syntax error: {}", e.message().trim()))
    })?;
    // The case cap is checked on the parsed tables, before any is converted
    // or resolved, so a file far past it is refused at once.
    for (key, value) in document.get_ref() {
        if let ("case", DeValue::Array(items)) = (key.get_ref().as_ref(), value.get_ref()) {
            if let Some(first_past) = items.get(MAX_CASES) {
                return Err(reader.error(Some(reader.at(first_past.span())), too_many_cases()));
            }
        }
    }
    let top = reader.entries(document.get_ref(), 1)?;

    let mut scenario = Scenario {
        name: default_name.to_string(),
        description: None,
        trials: None,
        seed: None,
        cases: Vec::new(),
        balances: Vec::new(),
    };
    let mut defaults: Vec<(System, Entries)> = Vec::new();
    let mut case_tables = Vec::new();
    let mut sweep_tables = Vec::new();
    let mut balance_tables = Vec::new();
    for (key, item) in &top {
        match key.as_str() {
            "name" => scenario.name = folder_name(&reader, item)?,
            "description" => scenario.description = Some(take_string(&reader, item, key)?),
            "trials" => scenario.trials = Some(take_count(&reader, item, key, 1)?),
            "seed" => scenario.seed = Some(take_count(&reader, item, key, 0)?),
            "case" => case_tables = reader.tables(key, item)?,
            "sweep" => sweep_tables = reader.tables(key, item)?,
            "balance" => balance_tables = reader.tables(key, item)?,
            other => {
                let Ok(system) = System::from_name(other) else {
                    let mut keys: Vec<String> =
                        TOP_LEVEL_KEYS.iter().map(|k| k.to_string()).collect();
                    let tables = System::ALL.map(|s| format!("[{s}]"));
                    keys.extend(tables.iter().cloned());
                    let names = TOP_LEVEL_KEYS
                        .iter()
                        .map(|k| k.trim_matches(['[', ']']))
                        .chain(System::ALL.map(System::name));
                    return Err(reader.error(
                        item.at,
                        format!(
                            "unknown top-level key `{other}`{}; {}",
                            did_you_mean(other, names),
                            allowed(keys)
                        ),
                    ));
                };
                let RawValue::Table(entries) = &item.value else {
                    return Err(reader.error(
                        item.at,
                        format!("`{other}` must be a table of defaults: write [{other}]"),
                    ));
                };
                defaults.push((
                    system,
                    entries
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
                        .collect(),
                ));
            }
        }
    }
    if !top.iter().any(|(key, _)| key == "name") {
        if let Some(problem) = folder_name_problem(&scenario.name) {
            return Err(reader.error(
                None,
                format!(
                    "the report folder is named after the file, \"{}\", but {problem}: give the scenario a `name`; {FOLDER_NAME_HINT}",
                    echo(&scenario.name)
                ),
            ));
        }
    }
    // Keys in a defaults table are checked even when no case uses them.
    for (system, entries) in &defaults {
        check_defaults(&reader, *system, entries)?;
    }

    // A map, not a list: a sweep of 100,000 cases must not compare every
    // name with every other.
    let mut names: std::collections::HashMap<String, Option<Pos>> = Default::default();
    let mut add_case = |case: Case, at: Option<Pos>| -> Result<(), InputError> {
        check_case_name(&reader, &case.name, at)?;
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
        scenario.cases.push(case);
        Ok(())
    };

    for (entries, at) in case_tables {
        let (system, name, rest) = split_case(&reader, entries, at, "case")?;
        let options = with_defaults(&defaults, system, rest, at);
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
        let (system, prefix, rest) = split_case(&reader, entries, at, "sweep")?;
        let cases = sweep_cases(system, prefix.as_deref(), &rest, |chosen| {
            system.resolve(with_defaults(&defaults, system, chosen, at))
        })
        .map_err(|e| reader.error(e.at.or(at), e))?;
        for case in cases {
            add_case(case, at)?;
        }
    }
    for (index, (entries, at)) in balance_tables.into_iter().enumerate() {
        let table = index + 1;
        if balance::general::is_general(&entries) {
            let questions = general_balance(&reader, &defaults, entries, at, table)?;
            scenario.balances.extend(questions);
            continue;
        }
        // A balance's opposed rolls follow the scenario's [cortex] roll rules.
        let mut all: Vec<(String, RawItem)> = defaults
            .iter()
            .filter(|(table, _)| *table == System::Cortex)
            .flat_map(|(_, table)| table.iter())
            .filter(|(k, _)| balance::RULE_KEYS.iter().any(|rule| rule.name == k))
            .cloned()
            .collect();
        all.extend(entries);
        let mut options = BalanceSpec::options(KeyStyle::Toml, all);
        options.case_at = at;
        let spec = BalanceSpec::from_options(options).map_err(|e| reader.error(e.at.or(at), e))?;
        scenario.balances.extend(spec.questions(table));
    }
    if scenario.cases.is_empty() && scenario.balances.is_empty() {
        // Located at the end of the file, where a case would be added.
        return Err(reader.error(
            Some(position(text, text.len())),
            "the scenario has no cases: add a [[case]], a [[sweep]] or a [[balance]]",
        ));
    }
    Ok(scenario)
}

/// A general `[[balance]]` (docs/cortex.md): its own keys, then its `case` table
/// of fixed keys, each rung resolved over the defaults tables its system
/// reads, like a `[[case]]`.
fn general_balance(
    reader: &Reader<'_>,
    defaults: &[(System, Entries)],
    entries: Entries,
    at: Option<Pos>,
    table: usize,
) -> Result<Vec<BalanceQuestion>, InputError> {
    let located = |e: crate::options::OptionError| reader.error(e.at.or(at), e);
    let mut options = BalanceSpec::options(KeyStyle::Toml, entries);
    options.case_at = at;
    let spec = GeneralSpec::from_options(&mut options).map_err(located)?;
    let fixed = match options.table("case").map_err(located)? {
        Some((fixed, _)) => fixed,
        None => Vec::new(),
    };
    let system = spec.system;
    let resolve = |entries: Entries| system.resolve(with_defaults(defaults, system, entries, at));
    let questions = spec
        .questions(&options, &fixed, table, &resolve)
        .map_err(located)?;
    options.finish().map_err(|mut e| {
        e.message = e
            .message
            .replace("for system \"balance\"", "in a [[balance]] table");
        located(e)
    })?;
    Ok(questions)
}

fn too_many_cases() -> String {
    format!("more than {MAX_CASES} cases; split the scenario")
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
fn with_defaults(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(position(text, 0), Pos { line: 1, col: 1 });
        assert_eq!(position(text, 9), Pos { line: 2, col: 4 });
    }

    #[test]
    fn sweeps_expand_last_key_fastest_and_are_named() {
        let text = r#"
[[sweep]]
system = "cortex"
pool = ["d8 2d6", "d10 d8 d6"]
vs = ["2d6", "2d8"]
"#;
        let s = parse(text, "t.toml", "t").unwrap();
        let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "d8 2d6 vs 2d6",
                "d8 2d6 vs 2d8",
                "d10 d8 d6 vs 2d6",
                "d10 d8 d6 vs 2d8"
            ]
        );
    }

    #[test]
    fn other_swept_keys_follow_the_pairing() {
        let text = "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\"]\nvs = [\"2d6\"]\nties = [\"reaction\", \"action\"]\n";
        let s = parse(text, "t.toml", "t").unwrap();
        let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["d8 vs 2d6, ties=reaction", "d8 vs 2d6, ties=action"]
        );
    }

    #[test]
    fn a_sweep_of_single_values_is_named_as_its_case_would_be() {
        let text = "[[sweep]]\nsystem = \"storytelling\"\ndice = 5\nagain = 9\n[[sweep]]\nsystem = \"storytelling\"\nname = \"nine\"\ndice = 5\n";
        let s = parse(text, "t.toml", "t").unwrap();
        let case = parse(
            "[[case]]\nsystem = \"storytelling\"\ndice = 5\n",
            "t.toml",
            "t",
        )
        .unwrap();
        assert_eq!(s.cases[0].name, case.cases[0].name);
        assert_ne!(s.cases[0].name, "storytelling");
        assert_eq!(s.cases[1].name, "nine");
    }

    #[test]
    fn other_sweeps_are_named_by_key_value_pairs() {
        let text = "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nkeep = [1, 2]\nties = [\"action\"]\n";
        let s = parse(text, "t.toml", "t").unwrap();
        let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["keep=1, ties=action", "keep=2, ties=action"]);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text = "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\ntiez = \"action\"\n";
        let err = parse(text, "s.toml", "s").unwrap_err().to_string();
        assert!(
            err.starts_with(
                "s.toml:4:1: unknown key `tiez` for system \"cortex\" (did you mean `ties`?)"
            ),
            "{err}"
        );
        let err = parse(
            "[[case]]\nsystem = \"cortex\"\npool = \"d7\"\n",
            "s.toml",
            "s",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("s.toml:3:1:") && err.contains("d4, d6"),
            "{err}"
        );
        let err = parse("trials = -5\n", "s.toml", "s")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("s.toml:1:1") && err.contains("at least 1"),
            "{err}"
        );
        let err = parse("[[case]\n", "s.toml", "s").unwrap_err().to_string();
        assert!(
            err.contains("s.toml:1:") && err.contains("TOML syntax"),
            "{err}"
        );
        let err = parse("[[case]]\nsystem = \"dnd\"\n", "s.toml", "s")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown system \"dnd\"") && err.contains("allowed: `cortex`, "),
            "{err}"
        );
        let err = parse("[[case]]\nsystem = \"cortex\"\npool = 5\n", "s.toml", "s")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("s.toml:3:1") && err.contains("must be a string"),
            "{err}"
        );
    }

    #[test]
    fn defaults_apply_and_a_case_overrides_them() {
        let text = "[cortex]\nties = \"action\"\nvs = \"2d6\"\n[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d8\"\n[[case]]\nsystem = \"cortex\"\nname = \"b\"\npool = \"d8\"\ndifficulty = 7\n";
        let s = parse(text, "t.toml", "t").unwrap();
        assert_eq!(s.cases[0].spec.inputs()["ties"], "action");
        assert_eq!(s.cases[0].spec.inputs()["vs"], "2d6");
        assert_eq!(s.cases[1].spec.inputs()["difficulty"], 7);
        assert!(s.cases[1].spec.inputs().get("vs").is_none());
        let dup = "[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d8\"\n[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d6\"\n";
        let err = parse(dup, "t.toml", "t").unwrap_err().to_string();
        assert!(
            err.contains("t.toml:5:1") && err.contains("duplicate case name"),
            "{err}"
        );
    }
}
