//! The page's downloads of the current result (docs/serve.md): the report
//! as `--format csv`, `json` and `markdown` print it, each chart as SVG or
//! PNG from the chart module, and the calculation as a scenario TOML that
//! `oddsmith run` evaluates to the same cases (one `[[case]]`, or a
//! `[[sweep]]` for comma lists, named by the same rules). Nothing is
//! written to the server's disk: each file is made in memory for its
//! response. File names are made from fixed words only (the command and a
//! chart's stem), never from what the user typed.

use anyhow::Context;

use super::query::{Args, Asked, Cmd};
use crate::cli::{BalanceArgs, CommonArgs};
use crate::commands::balance::flag_value;
use crate::commands::output::Flag;
use crate::options::RawValue;
use crate::report::chart::{self, render};
use crate::report::{self, Format, Report};
use crate::systems::System;

/// What a download holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Csv,
    Json,
    Markdown,
    Svg,
    Png,
    Toml,
}

impl Kind {
    /// The kind a download's path names (`/api/download/csv`).
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "csv" => Kind::Csv,
            "json" => Kind::Json,
            "md" | "markdown" => Kind::Markdown,
            "svg" => Kind::Svg,
            "png" => Kind::Png,
            "toml" => Kind::Toml,
            _ => return None,
        })
    }

    pub fn extension(self) -> &'static str {
        match self {
            Kind::Csv => "csv",
            Kind::Json => "json",
            Kind::Markdown => "md",
            Kind::Svg => "svg",
            Kind::Png => "png",
            Kind::Toml => "toml",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Kind::Csv => "text/csv; charset=utf-8",
            Kind::Json => "application/json",
            Kind::Markdown => "text/markdown; charset=utf-8",
            Kind::Svg => "image/svg+xml",
            Kind::Png => "image/png",
            Kind::Toml => "application/toml",
        }
    }
}

/// A file to send: its name and its bytes.
pub struct File {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The download of `kind` of a report (a chart's by its stem, the first
/// chart when `chart` is `None`), or `Ok(None)` when there is no such chart.
pub fn file(
    kind: Kind,
    report: &Report,
    asked: &Asked,
    flags: &[Flag],
    chart_stem: Option<&str>,
) -> anyhow::Result<Option<File>> {
    let base = format!("oddsmith-{}", asked.cmd.name());
    let named = |bytes: Vec<u8>| File {
        name: format!("{base}.{}", kind.extension()),
        bytes,
    };
    Ok(Some(match kind {
        Kind::Csv => named(report::render(report, Format::Csv)?),
        Kind::Json => named(report::render(report, Format::Json)?),
        Kind::Markdown => named(report::render(report, Format::Markdown)?),
        Kind::Toml => named(
            match (&asked.args, asked.cmd) {
                (Args::Quick(args), Cmd::Quick(system)) => {
                    scenario_toml(report, &asked.command, system, flags, &args.common)?
                }
                (Args::Balance(args), _) => balance_toml(&asked.command, args)?,
                _ => unreachable!("a quick command's arguments are its own"),
            }
            .into_bytes(),
        ),
        Kind::Svg | Kind::Png => {
            let charts = chart::charts(report);
            let found = match chart_stem {
                Some(stem) => charts.iter().find(|c| c.stem == stem),
                None => charts.first(),
            };
            let Some(found) = found else {
                return Ok(None);
            };
            let bytes = if kind == Kind::Svg {
                render::svg(found)?.into_bytes()
            } else {
                render::png(found)?
            };
            File {
                name: format!("{}.{}", found.stem, kind.extension()),
                bytes,
            }
        }
    }))
}

/// A flag's value as TOML.
fn toml_value(value: &RawValue) -> toml::Value {
    match value {
        RawValue::Str(s) => toml::Value::String(s.clone()),
        RawValue::Int(i) => toml::Value::Integer(*i),
        RawValue::Float(x) => toml::Value::Float(*x),
        RawValue::Bool(b) => toml::Value::Boolean(*b),
        RawValue::Array(items) => {
            toml::Value::Array(items.iter().map(|item| toml_value(&item.value)).collect())
        }
        RawValue::Table(entries) => toml::Value::Table(
            entries
                .iter()
                .map(|(k, item)| (k.clone(), toml_value(&item.value)))
                .collect(),
        ),
    }
}

/// The calculation as a scenario file (docs/scenarios.md): the given keys
/// of one `[[case]]`, or of a `[[sweep]]` when a key lists several values,
/// with the seed and trials that were given (the method is a flag of
/// `oddsmith run`, not a scenario key, so the comment names it).
pub fn scenario_toml(
    report: &Report,
    command: &str,
    system: System,
    flags: &[Flag],
    common: &CommonArgs,
) -> anyhow::Result<String> {
    let mut top = scenario_top(&report.name, common)?;
    let mut case = toml::Table::new();
    case.insert("system".into(), toml::Value::String(system.name().into()));
    let mut swept = false;
    for (key, values) in flags {
        let value = match values.as_slice() {
            [] => continue,
            [one] => toml_value(one),
            many => {
                swept = true;
                toml::Value::Array(many.iter().map(toml_value).collect())
            }
        };
        case.insert(key.to_string(), value);
    }
    let table = if swept { "sweep" } else { "case" };
    top.insert(
        table.into(),
        toml::Value::Array(vec![toml::Value::Table(case)]),
    );
    finish(command, common, &top)
}

/// A scenario's name and the seed and trials that were given.
fn scenario_top(name: &str, common: &CommonArgs) -> anyhow::Result<toml::Table> {
    let mut top = toml::Table::new();
    top.insert("name".into(), toml::Value::String(name.to_string()));
    for (key, value) in [("trials", common.trials), ("seed", common.seed)] {
        if let Some(n) = value {
            let n = i64::try_from(n).context("a number too large for TOML")?;
            top.insert(key.into(), toml::Value::Integer(n));
        }
    }
    Ok(top)
}

/// The scenario's text, headed by the command it came from and the
/// `oddsmith run` line that evaluates it.
fn finish(command: &str, common: &CommonArgs, top: &toml::Table) -> anyhow::Result<String> {
    let body = toml::to_string(top).context("cannot write the scenario")?;
    let run = crate::commands::reproduce::run_command(
        std::path::Path::new("FILE.toml"),
        None,
        crate::commands::reproduce::setting_flags(None, None, common.method, false),
    );
    Ok(format!(
        "# Made by `oddsmith serve` from: {command}\n# Run it with: {run}\n{body}"
    ))
}

/// A balance as a scenario (docs/scenarios.md): one `[[balance]]` table
/// holding the flags given, in the Cortex form (`pools`, `target`,
/// `ladder` and the roll rules) or the general form (`system`, `key`,
/// `ladder`, `metric`, `target` and the fixed keys in its `case`). The
/// flags were read by the command line's parser and the balance was
/// answered, so every value here is one the balance took.
pub fn balance_toml(command: &str, args: &BalanceArgs) -> anyhow::Result<String> {
    let mut top = scenario_top("balance", &args.common)?;
    let mut table = toml::Table::new();
    let text = |s: &str| toml::Value::String(s.trim().to_string());
    let pieces = |list: &str| -> Vec<String> {
        list.split(',')
            .map(str::trim)
            .filter(|piece| !piece.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut rules = toml::Table::new();
    for (key, values) in &args.rules {
        if let [one] = values.as_slice() {
            rules.insert(key.name.to_string(), toml_value(one));
        }
    }
    match &args.system {
        None => {
            let pools = args.pools.iter().map(|p| text(p)).collect();
            table.insert("pools".into(), toml::Value::Array(pools));
            if let Some(t) = args.target {
                table.insert("target".into(), toml::Value::Float(t));
            }
            if let Some(t) = args.target_heroic {
                table.insert("target_heroic".into(), toml::Value::Float(t));
            }
            if let Some(ladder) = &args.ladder {
                let rungs = pieces(ladder).iter().map(|p| text(p)).collect();
                table.insert("ladder".into(), toml::Value::Array(rungs));
            }
            table.extend(rules);
        }
        Some(name) => {
            let system = System::from_name(name).map_err(anyhow::Error::msg)?;
            table.insert("system".into(), text(system.name()));
            for (key, value) in [("key", &args.key), ("metric", &args.metric)] {
                if let Some(value) = value {
                    table.insert(key.into(), text(value));
                }
            }
            if let Some(ladder) = &args.ladder {
                let rungs = pieces(ladder)
                    .iter()
                    .map(|p| RawValue::guess(p).map(|v| toml_value(&v)))
                    .collect::<Result<_, _>>()
                    .map_err(anyhow::Error::msg)?;
                table.insert("ladder".into(), toml::Value::Array(rungs));
            }
            if let Some(t) = args.target {
                table.insert("target".into(), toml::Value::Float(t));
            }
            let mut case = rules;
            let set = args.set.iter().filter_map(|s| s.split_once('='));
            for (key, value) in args
                .keys
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .chain(set)
            {
                let key = key.trim().replace('-', "_");
                let value = flag_value(system, &key, value).map_err(anyhow::Error::msg)?;
                case.insert(key, toml_value(&value));
            }
            table.insert("case".into(), toml::Value::Table(case));
        }
    }
    top.insert(
        "balance".into(),
        toml::Value::Array(vec![toml::Value::Table(table)]),
    );
    finish(command, &args.common, &top)
}
