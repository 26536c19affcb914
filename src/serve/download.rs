//! The page's downloads of the current result (docs/serve.md): the report
//! as `--format csv`, `json` and `markdown` print it, each chart as SVG or
//! PNG from the chart module, and the calculation as a scenario TOML that
//! `oddsmith run` evaluates to the same cases (one `[[case]]`, or a
//! `[[sweep]]` for comma lists, named by the same rules). Nothing is
//! written to the server's disk: each file is made in memory for its
//! response. File names are made from fixed words only (the command and a
//! chart's stem), never from what the user typed.

use anyhow::Context;

use crate::cli::CommonArgs;
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
    command: &str,
    system: System,
    flags: &[Flag],
    common: &CommonArgs,
    chart_stem: Option<&str>,
) -> anyhow::Result<Option<File>> {
    let base = format!("oddsmith-{}", crate::cli::quick_command(system));
    let named = |bytes: Vec<u8>| File {
        name: format!("{base}.{}", kind.extension()),
        bytes,
    };
    Ok(Some(match kind {
        Kind::Csv => named(report::render(report, Format::Csv)?),
        Kind::Json => named(report::render(report, Format::Json)?),
        Kind::Markdown => named(report::render(report, Format::Markdown)?),
        Kind::Toml => named(scenario_toml(report, command, system, flags, common)?.into_bytes()),
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
    let mut top = toml::Table::new();
    top.insert("name".into(), toml::Value::String(report.name.clone()));
    for (key, value) in [("trials", common.trials), ("seed", common.seed)] {
        if let Some(n) = value {
            let n = i64::try_from(n).context("a number too large for TOML")?;
            top.insert(key.into(), toml::Value::Integer(n));
        }
    }
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
    let body = toml::to_string(&top).context("cannot write the scenario")?;
    let run = crate::commands::reproduce::run_command(
        std::path::Path::new("FILE.toml"),
        None,
        crate::commands::reproduce::setting_flags(None, None, common.method, false),
    );
    Ok(format!(
        "# Made by `oddsmith serve` from: {command}\n# Run it with: {run}\n{body}"
    ))
}
