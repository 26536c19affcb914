//! The systems' keys as command-line arguments, made from their descriptors
//! ([`crate::options::KeyDef`]): each quick command's flags (and its
//! positional argument) and `balance`'s key flags, with their `--help`
//! lines, and the values given read back as the values a scenario would
//! hold. A new key is a flag of its system's quick command, described in
//! `--help`, without a line here (docs/development.md, "Adding a system").

use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};

use crate::options::{KeyDef, Kind, RawValue};
use crate::systems::cortex::keys::ROLL_RULES;
use crate::systems::System;

/// Each key given, with every value given for it: none when it was left
/// out, several for a comparison. In the order of the system's descriptors.
pub type KeyValues = Vec<(&'static KeyDef, Vec<RawValue>)>;

/// The id of the argument made for a key (its flag without the dashes).
fn arg_id(key: &KeyDef) -> &'static str {
    key.name
}

/// A quick command's argument for `key`: the positional argument, or a
/// flag that takes a comma list or is repeated (a switch alone is true).
fn quick_arg(key: &'static KeyDef) -> Arg {
    let arg = Arg::new(arg_id(key)).help(key.help_line());
    if key.positional {
        let arg = arg.required(true).value_name(key.name.to_uppercase());
        return match key.kind {
            Kind::Int { .. } => arg.allow_negative_numbers(true),
            _ => arg,
        };
    }
    let arg = arg
        .long(key.flag()[2..].to_string())
        .value_name(key.name.to_uppercase())
        .action(ArgAction::Append);
    match key.kind {
        Kind::Int { .. } => arg
            .value_parser(value_parser!(i64))
            .value_delimiter(',')
            .allow_hyphen_values(true),
        Kind::Float { .. } => arg
            .value_parser(value_parser!(f64))
            .value_delimiter(',')
            .allow_hyphen_values(true),
        Kind::Bool => arg
            .value_parser(value_parser!(bool))
            .value_delimiter(',')
            .num_args(0..=1)
            .require_equals(true)
            .default_missing_value("true"),
        Kind::Pool | Kind::Die(_) | Kind::Choice(_) => arg.value_delimiter(','),
        // A table's entries are separated by commas, so its cases are given
        // by repeating the flag.
        Kind::Table { .. } => arg.allow_hyphen_values(true),
    }
}

/// How far the flags every command takes are moved down `--help`, below
/// any system's keys (and above `--help` itself, which clap puts at 999).
const KEYS_FIRST: usize = 100;

/// The quick command `name`'s arguments, one per key of `system`, listed
/// in `--help` ahead of the flags every command takes.
pub fn with_quick_args(command: Command, system: System) -> Command {
    let mut command = command.mut_args(|arg| {
        let order = arg.get_display_order();
        arg.display_order(order + KEYS_FIRST)
    });
    for (order, &key) in system.key_defs().iter().enumerate() {
        command = command.arg(quick_arg(key).display_order(order));
    }
    command
}

/// The values given for each key of `system`, as scenario values
/// (`--again 10,9` is `[10, 9]`); the positional argument as written.
pub fn quick_values(matches: &ArgMatches, system: System) -> KeyValues {
    values_of(matches, system.key_defs())
}

/// `balance`'s Cortex roll-rule flags (docs/cortex.md), as a quick command takes them.
pub fn with_roll_rule_args(mut command: Command) -> Command {
    for &key in ROLL_RULES {
        command = command.arg(quick_arg(key));
    }
    command
}

/// The roll-rule flags given to `balance`.
pub fn roll_rule_values(matches: &ArgMatches) -> KeyValues {
    values_of(matches, ROLL_RULES)
}

fn values_of(matches: &ArgMatches, keys: &[&'static KeyDef]) -> KeyValues {
    keys.iter()
        .map(|&key| {
            let id = arg_id(key);
            let values = match key.kind {
                _ if key.positional => strings(matches, id),
                Kind::Int { .. } => typed(matches, id, RawValue::Int),
                Kind::Float { .. } => typed(matches, id, RawValue::Float),
                Kind::Bool => typed(matches, id, RawValue::Bool),
                Kind::Pool | Kind::Die(_) | Kind::Choice(_) | Kind::Table { .. } => {
                    strings(matches, id)
                }
            };
            (key, values)
        })
        .collect()
}

fn typed<T: Clone + Send + Sync + 'static>(
    matches: &ArgMatches,
    id: &str,
    raw: fn(T) -> RawValue,
) -> Vec<RawValue> {
    matches
        .get_many::<T>(id)
        .map_or_else(Vec::new, |values| values.cloned().map(raw).collect())
}

fn strings(matches: &ArgMatches, id: &str) -> Vec<RawValue> {
    typed(matches, id, RawValue::Str)
}

/// The id of a flag [`with_balance_key_flags`] adds for a system's key.
fn balance_flag_id(key: &str) -> String {
    format!("system-key:{key}")
}

/// `balance`'s help for a key several systems declare: one system's line,
/// or each system's line after its name where they differ.
fn balance_help(name: &str) -> String {
    let mut lines: Vec<(Vec<&str>, String)> = Vec::new();
    for system in System::ALL {
        if let Some(key) = system.key_def(name) {
            let line = key.help_line();
            match lines.iter_mut().find(|(_, l)| *l == line) {
                Some((systems, _)) => systems.push(system.name()),
                None => lines.push((vec![system.name()], line)),
            }
        }
    }
    if lines.len() == 1 {
        return lines.remove(0).1;
    }
    lines
        .iter()
        .map(|(systems, line)| format!("{}: {line}", systems.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Adds to `oddsmith balance` a flag for every key of every system that it
/// does not already have (docs/cortex.md: "the system's keys are flags as in its
/// quick command"), each taking one value (none: `true`).
pub fn with_balance_key_flags(mut command: Command) -> Command {
    let mut seen: Vec<&str> = Vec::new();
    for system in System::ALL {
        for &key in system.key_defs() {
            let flag = key.flag();
            let taken = command
                .get_arguments()
                .any(|arg| arg.get_long() == Some(&flag[2..]));
            if taken || seen.contains(&key.name) {
                continue;
            }
            seen.push(key.name);
            command = command.arg(
                Arg::new(balance_flag_id(key.name))
                    .long(flag[2..].to_string())
                    .value_name(key.name.to_uppercase())
                    .num_args(0..=1)
                    .default_missing_value("true")
                    .allow_negative_numbers(true)
                    .action(ArgAction::Set)
                    .help(balance_help(key.name))
                    .help_heading("Keys of the system (with --system)")
                    .hide_short_help(true),
            );
        }
    }
    command
}

/// The system-key flags given to `balance`, as (key, text), in the order given.
pub fn balance_values(matches: &ArgMatches) -> Vec<(String, String)> {
    let mut given: Vec<(usize, String, String)> = Vec::new();
    for id in matches.ids() {
        let Some(key) = id.as_str().strip_prefix("system-key:") else {
            continue;
        };
        if let (Some(value), Some(index)) = (
            matches.get_one::<String>(id.as_str()),
            matches.index_of(id.as_str()),
        ) {
            given.push((index, key.to_string(), value.clone()));
        }
    }
    given.sort();
    given.into_iter().map(|(_, k, v)| (k, v)).collect()
}
