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

/// Every quick command's form, and the shared settings.
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
            })
        })
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
        assert_eq!(forms.len(), crate::systems::System::ALL.len());
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
