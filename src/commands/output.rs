//! What the commands share around evaluation: the `--format` flag as the
//! report's [`Format`], printing a report to stdout (a closed pipe is not an
//! error), and flags turned into the options a scenario would hold, the
//! shared Cortex roll-rule flags among them.

use std::io::Write;

use anyhow::Context;

use crate::cli::{FormatArg, RollRuleArgs};
use crate::options::{Entries, RawItem, RawValue};
use crate::report::{self, Format, Report};

/// A flag as the scenario key of the same name, if it was given.
pub type Flag = (&'static str, Option<RawValue>);

/// The report format `--format` asks for.
pub fn format(format: FormatArg) -> Format {
    match format {
        FormatArg::Table => Format::Table,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
        FormatArg::Markdown => Format::Markdown,
    }
}

/// Prints the report in the chosen format.
pub fn print_report(report: &Report, format_arg: FormatArg) -> anyhow::Result<()> {
    write_stdout(&report::render(report, format(format_arg))?)
}

/// Writes results to stdout. A closed pipe (`| head`) is not an error: the
/// reader has what it wanted.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

/// The flags that were given, as option entries.
pub fn entries(flags: Vec<Flag>) -> Entries {
    flags
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), RawItem::new(v))))
        .collect()
}

/// The shared Cortex roll-rule flags as scenario keys.
pub fn roll_rule_flags(rules: &RollRuleArgs) -> [Flag; 4] {
    [
        ("ties", rules.ties.clone().map(RawValue::Str)),
        ("heroic_step", rules.heroic_step.map(RawValue::Int)),
        ("keep", rules.keep.map(RawValue::Int)),
        ("reaction_keep", rules.reaction_keep.map(RawValue::Int)),
    ]
}
