//! The page's forms, as `GET /api/systems` serves them: for each quick
//! command, its title (its `--help` line) and a field per key of its
//! system, made from the key descriptors as the command's flags are
//! ([`crate::key_flags`]), with the key's help text, its default, what it
//! allows in words, and its choices or range where the kind has them; then
//! the settings every evaluating command takes (`--method`, `--trials`,
//! `--seed`) and the quick commands' table layout (`--rows`, `--cols`,
//! `--metric`, `--paired`, `--names`, docs/reports.md). A new key is a field of the page without a line here.

use clap::CommandFactory;
use serde_json::{json, Value as Json};

use super::query::commands;
use crate::cli::Cli;
use crate::options::{Fallback, KeyDef, Kind};

/// A key's field.
fn field(key: &KeyDef) -> Json {
    let (kind, choices, min, max) = match key.kind {
        Kind::Pool => ("pool", Vec::new(), None, None),
        Kind::Die(sizes) => (
            "die",
            sizes.iter().map(|s| format!("d{s}")).collect(),
            None,
            None,
        ),
        Kind::Int { min, max } => ("int", Vec::new(), Some(min as f64), Some(max as f64)),
        Kind::Float { min, max } => ("float", Vec::new(), Some(min), Some(max)),
        Kind::Bool => ("bool", vec!["true".into(), "false".into()], None, None),
        Kind::Choice(names) => (
            "choice",
            names().iter().map(|s| s.to_string()).collect(),
            None,
            None,
        ),
        Kind::Table { .. } => ("table", Vec::new(), None, None),
    };
    let default = match key.default {
        Fallback::Required | Fallback::Nothing => None,
        _ => Some(key.default_text()),
    };
    json!({
        "name": key.name,
        "flag": key.flag(),
        "kind": kind,
        "help": key.help,
        "allowed": key.allowed_text(),
        "default": default,
        "required": key.default == Fallback::Required,
        "choices": choices,
        "min": min,
        "max": max,
        "positional": key.positional,
        // The keys that name a case are the form's first fields; the
        // rules below them fold away.
        "main": key.main || key.positional,
        "label": if key.positional { key.name.to_uppercase() } else { key.flag() },
        // A table's cases are given by repeating its flag; the page takes
        // one table per field.
        "lists": !matches!(key.kind, Kind::Table { .. }),
        "group": if key.main || key.positional { None } else { Some("rules") },
    })
}

/// The settings every quick command takes, by name.
const QUICK_SETTINGS: &[&str] = &[
    "method", "trials", "seed", "rows", "cols", "metric", "paired", "names",
];

/// The settings `oddsmith balance` takes (its `--metric` is its own).
const BALANCE_SETTINGS: &[&str] = &["method", "trials", "seed"];

/// A field of `oddsmith balance`'s own, from its command-line argument:
/// its help line is the flag's `--help` line.
struct BalanceField {
    name: &'static str,
    kind: &'static str,
    allowed: String,
    default: Option<String>,
    choices: Vec<String>,
    group: Option<&'static str>,
}

/// `oddsmith balance`'s form (docs/serve.md): the hero pools (a comma
/// list, one balance per pool), the target and the ladder; under
/// "General form" the system, key, metric and `--set` of any system's
/// balance, whose keys the page adds as fields once a system is chosen
/// (from that system's form); the Cortex roll rules from their
/// descriptors. Help lines are the command's `--help` lines.
fn balance_form(balance: &clap::Command) -> Json {
    use crate::balance::DEFAULT_LADDER;
    use crate::systems::System;
    let ladder: Vec<&str> = DEFAULT_LADDER.iter().map(|(pool, _)| *pool).collect();
    let own = [
        BalanceField {
            name: "pools",
            kind: "pool",
            allowed: "Cortex pools such as d10 2d8 d6, comma-separated: one balance per pool"
                .into(),
            default: None,
            choices: Vec::new(),
            group: None,
        },
        BalanceField {
            name: "target",
            kind: "float",
            allowed: "0 to 1 for a chance (p_*); any number for another metric".into(),
            default: Some(crate::balance::DEFAULT_TARGET.to_string()),
            choices: Vec::new(),
            group: None,
        },
        BalanceField {
            name: "target_heroic",
            kind: "float",
            allowed: "0 to 1".into(),
            default: None,
            choices: Vec::new(),
            group: None,
        },
        BalanceField {
            name: "ladder",
            kind: "text",
            allowed: "rungs, comma-separated, tried in order".into(),
            default: Some(ladder.join(",")),
            choices: Vec::new(),
            group: None,
        },
        BalanceField {
            name: "system",
            kind: "choice",
            allowed: "a system's name".into(),
            default: None,
            choices: System::ALL.iter().map(|s| s.name().to_string()).collect(),
            group: Some("general"),
        },
        BalanceField {
            name: "key",
            kind: "text",
            allowed: "a key of the system that takes one value".into(),
            default: None,
            choices: Vec::new(),
            group: Some("general"),
        },
        BalanceField {
            name: "metric",
            kind: "text",
            allowed: "a numeric metric of the system".into(),
            default: None,
            choices: Vec::new(),
            group: Some("general"),
        },
        BalanceField {
            name: "set",
            kind: "text",
            allowed: "NAME=VALUE".into(),
            default: None,
            choices: Vec::new(),
            group: Some("general"),
        },
    ];
    let help = |name: &str| {
        balance
            .get_arguments()
            .find(|arg| arg.get_id() == name)
            .and_then(|arg| arg.get_help())
            .map_or(String::new(), |help| help.to_string())
    };
    let mut fields: Vec<Json> = own
        .iter()
        .map(|f| {
            let positional = f.name == "pools";
            json!({
                "name": f.name,
                "flag": format!("--{}", f.name.replace('_', "-")),
                "kind": f.kind,
                "help": help(f.name),
                "allowed": f.allowed,
                "default": f.default,
                "required": false,
                "choices": f.choices,
                "min": null,
                "max": null,
                "positional": positional,
                "main": f.group.is_none(),
                "label": if positional { "POOLS".to_string() } else { format!("--{}", f.name.replace('_', "-")) },
                // The pools' comma list is no comparison: `allowed` says so.
                "lists": false,
                "group": f.group,
            })
        })
        .collect();
    fields.extend(crate::balance::RULE_KEYS.iter().map(|key| field(key)));
    json!({
        "cmd": "balance",
        "system": null,
        "title": balance.get_about().map_or(String::new(), |about| about.to_string()),
        "fields": fields,
        "settings": BALANCE_SETTINGS,
        "system_keys": true,
    })
}

/// The settings every quick command takes, as fields.
fn settings() -> Json {
    json!([
        {
            "name": "method", "flag": "--method", "kind": "choice", "label": "--method",
            "help": "How to compute: exact where it takes about a second or less, else Monte Carlo (auto); exact only; Monte Carlo only; or both",
            "allowed": "auto, exact, mc, both", "default": "auto", "required": false,
            "choices": ["auto", "exact", "mc", "both"], "min": null, "max": null,
            "positional": false, "lists": false,
        },
        {
            "name": "trials", "flag": "--trials", "kind": "int", "label": "--trials",
            "help": "Monte Carlo trials per case",
            "allowed": "1 or more", "default": "1000000", "required": false,
            "choices": [], "min": 1, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "seed", "flag": "--seed", "kind": "int", "label": "--seed",
            "help": "Random seed: the same seed and trials give the same numbers",
            "allowed": "0 or more", "default": "1", "required": false,
            "choices": [], "min": 0, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "rows", "flag": "--rows", "kind": "text", "label": "--rows",
            "help": "One grid: the key whose values label the rows (several as again,rote; `metric` for a row per metric)",
            "allowed": "a key of the system, or metric", "default": null, "required": false,
            "choices": [], "min": null, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "cols", "flag": "--cols", "kind": "text", "label": "--cols",
            "help": "The key whose values label the grid's columns",
            "allowed": "a key of the system, or metric", "default": null, "required": false,
            "choices": [], "min": null, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "metric", "flag": "--metric", "kind": "text", "label": "--metric",
            "help": "What the grid's cells show: a metric, or a tail such as successes>=2",
            "allowed": "metric names, comma-separated", "default": null, "required": false,
            "choices": [], "min": null, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "paired", "flag": "--paired", "kind": "bool", "label": "--paired",
            "help": "Zip comma lists of the same length instead of forming their product",
            "allowed": "true or false", "default": "false", "required": false,
            "choices": ["true", "false"], "min": null, "max": null, "positional": false, "lists": false,
        },
        {
            "name": "names", "flag": "--names", "kind": "choice", "label": "--names",
            "help": "How the tables name metrics and keys: in words, or as code names",
            "allowed": "words, code", "default": "words", "required": false,
            "choices": ["words", "code"], "min": null, "max": null, "positional": false, "lists": false,
        },
    ])
}

/// Every quick command's form, the balance's, and the shared settings
/// (each form names the ones it takes).
pub fn systems() -> Json {
    let cli = Cli::command();
    let forms: Vec<Json> = commands()
        .map(|(cmd, system)| {
            let title = cli
                .find_subcommand(cmd)
                .and_then(|c| c.get_about())
                .map_or(String::new(), |about| about.to_string());
            json!({
                "cmd": cmd,
                "system": system.name(),
                "title": title,
                "fields": system.key_defs().iter().map(|key| field(key)).collect::<Vec<_>>(),
                "settings": QUICK_SETTINGS,
                "system_keys": false,
            })
        })
        .chain(cli.find_subcommand("balance").map(balance_form))
        .collect();
    json!({ "systems": forms, "settings": settings() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_every_system_is_a_field() {
        let all = systems();
        let forms = all["systems"].as_array().unwrap();
        assert_eq!(forms.len(), crate::systems::System::ALL.len() + 1);
        assert_eq!(forms.last().unwrap()["cmd"], "balance");
        for (form, system) in forms.iter().zip(crate::systems::System::ALL) {
            let names: Vec<&str> = form["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, system.keys(), "{}", form["cmd"]);
            assert!(!form["title"].as_str().unwrap().is_empty());
        }
    }
}
