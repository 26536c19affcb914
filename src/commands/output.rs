//! What the commands share around evaluation: the `--format` flag as the
//! report's [`Format`], printing a report to stdout (a closed pipe is not an
//! error), and flags turned into the options a scenario would hold, the
//! shared Cortex roll-rule flags among them. A flag given several values
//! (a comma list or repetition) becomes the list a `[[sweep]]` would hold.

use std::io::Write;

use anyhow::Context;

use crate::cli::FormatArg;
use crate::errors::InputError;
use crate::key_flags::KeyValues;
use crate::options::{key_name, Entries, KeyStyle, RawItem, RawValue};
use crate::report::{self, Format, Report};

/// A flag as the scenario key of the same name, with every value given:
/// none when it was left out, several for a comparison.
pub type Flag = (&'static str, Vec<RawValue>);

/// The keys given as flags, as [`Flag`]s.
pub fn flags(keys: &KeyValues) -> Vec<Flag> {
    keys.iter()
        .map(|(key, values)| (key.name, values.clone()))
        .collect()
}

/// The report format `--format` asks for.
pub fn format(format: FormatArg) -> Format {
    match format {
        FormatArg::Table => Format::Table,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
        FormatArg::Markdown => Format::Markdown,
    }
}

/// Prints the report in the chosen format, as it is made (CSV and JSON are
/// never whole in memory).
pub fn print_report(report: &Report, format_arg: FormatArg) -> anyhow::Result<()> {
    let mut stdout = std::io::BufWriter::new(Stdout {
        inner: std::io::stdout().lock(),
        closed: false,
    });
    report::write(report, format(format_arg), &mut stdout)?;
    stdout.flush().context("cannot write to stdout")
}

/// Stdout where a closed pipe (`| head`) is not an error: the reader has
/// what it wanted, so the rest is dropped.
struct Stdout {
    inner: std::io::StdoutLock<'static>,
    closed: bool,
}

impl Stdout {
    /// `done` unless the pipe is closed, in which case all is taken.
    fn unless_closed<T>(&mut self, done: std::io::Result<T>, all: T) -> std::io::Result<T> {
        match done {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(all)
            }
            other => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let done = self.inner.write(buf);
        self.unless_closed(done, buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let done = self.inner.flush();
        self.unless_closed(done, ())
    }
}

/// The flags that were given, as option entries: one value as itself,
/// several as a list (swept by the caller). The same value twice would
/// give two cases of one name, so it is refused.
pub fn entries(flags: Vec<Flag>, style: KeyStyle) -> Result<Entries, InputError> {
    let mut entries = Entries::new();
    for (key, mut given) in flags {
        if let Some(error) = empty_item(&key_name(key, style), &given) {
            return Err(error);
        }
        for (i, value) in given.iter().enumerate() {
            if given[..i].contains(value) {
                return Err(InputError(format!(
                    "{} lists {value} twice; give each value once",
                    key_name(key, style)
                )));
            }
        }
        let value = match given.len() {
            0 => continue,
            1 => given.remove(0),
            _ => RawValue::Array(given.into_iter().map(RawItem::new).collect()),
        };
        entries.push((key.to_string(), RawItem::new(value)));
    }
    Ok(entries)
}

/// A comma list with an empty item (`","`, `"d8,,d6"`), said as such: the
/// empty value would otherwise be read as a value (or as the same value
/// twice). `name` is the flag or positional argument as the user knows it.
pub fn empty_item(name: &str, given: &[RawValue]) -> Option<InputError> {
    if given.len() < 2 {
        return None;
    }
    let n = given
        .iter()
        .position(|v| matches!(v, RawValue::Str(s) if s.trim().is_empty()))?;
    Some(InputError(format!(
        "{name}: item {} of its {} comma-separated values is empty; give a value on each side of every comma",
        n + 1,
        given.len()
    )))
}

/// The flags that were given, for a command that takes one value per flag.
pub fn single_entries(flags: Vec<Flag>, command: &str) -> Result<Entries, InputError> {
    if let Some((key, _)) = flags.iter().find(|(_, given)| given.len() > 1) {
        return Err(InputError(format!(
            "`oddsmith {command}` takes one value of {} (comma lists compare cases in the quick commands)",
            key_name(key, KeyStyle::Flag)
        )));
    }
    entries(flags, KeyStyle::Flag)
}
