//! The scenario reader's tools and its first phase: the text's values
//! counted ([`prescan`]), then parsed with toml's spanned parser (the
//! syntax, then the case cap and the length of every list), values turned into
//! [`RawValue`]s located at their keys, and every error prefixed with the
//! file, line and column (docs/scenarios.md).

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::prescan::{self, long_list, MAX_ARRAY};
use super::MAX_CASES;
use crate::errors::InputError;
use crate::line_index::LineIndex;
use crate::options::{Entries, Pos, RawItem, RawValue};

/// Byte offset to 1-based line and column (in characters), for a one-off
/// lookup; the reader keeps a [`LineIndex`] for its many.
pub(super) fn position(text: &str, offset: usize) -> Pos {
    LineIndex::new(text).position(offset)
}

/// A scenario's text, its line index and its file name, for errors.
pub(super) struct Reader<'t> {
    text: &'t str,
    lines: LineIndex<'t>,
    file: String,
}

impl<'t> Reader<'t> {
    pub(super) fn new(text: &'t str, file: &str) -> Reader<'t> {
        Reader {
            text,
            lines: LineIndex::new(text),
            file: file.to_string(),
        }
    }

    /// The first phase: the TOML syntax, then the case cap, checked on the
    /// parsed tables before any is converted or resolved, so a file far
    /// past it is refused at once.
    pub(super) fn document(&self) -> Result<Spanned<DeTable<'t>>, InputError> {
        let text = self.text;
        prescan::check(text)
            .map_err(|e| self.error(Some(self.lines.position(e.offset)), e.message))?;
        let document = DeTable::parse(text).map_err(|e| {
            let at = Some(match e.span() {
                Some(s) => self.lines.position(s.start),
                None => locate_spanless(text),
            });
            self.error(at, format!("TOML syntax error: {}", e.message().trim()))
        })?;
        for (key, value) in document.get_ref() {
            // Every `[[case]]` is a case, and every `[[balance]]` a rung at least.
            let key = key.get_ref().as_ref();
            if let ("case" | "balance", DeValue::Array(items)) = (key, value.get_ref()) {
                if let Some(first_past) = items.get(MAX_CASES) {
                    let message = match key {
                        "case" => too_many_cases(),
                        _ => format!("more than {MAX_CASES} [[balance]] tables (each rung is evaluated like a case); split the scenario"),
                    };
                    return Err(self.error(Some(self.at(first_past.span())), message));
                }
            }
        }
        for (_, value) in document.get_ref() {
            self.check_arrays(value)?;
        }
        Ok(document)
    }

    /// Refuses a list of more than [`MAX_ARRAY`] values anywhere in the
    /// file, before any value is converted: exactly, on the parsed tables,
    /// what [`prescan`] looked for in the text.
    fn check_arrays(&self, value: &Spanned<DeValue<'_>>) -> Result<(), InputError> {
        match value.get_ref() {
            DeValue::Array(items) => {
                if let Some(first_past) = items.get(MAX_ARRAY) {
                    return Err(self.error(Some(self.at(first_past.span())), long_list()));
                }
                items.iter().try_for_each(|item| self.check_arrays(item))
            }
            DeValue::Table(table) => table.values().try_for_each(|item| self.check_arrays(item)),
            _ => Ok(()),
        }
    }

    /// The end of the file, where a case would be added.
    pub(super) fn end(&self) -> Pos {
        self.lines.position(self.text.len())
    }

    pub(super) fn at(&self, span: std::ops::Range<usize>) -> Pos {
        self.lines.position(span.start)
    }

    pub(super) fn error(&self, at: Option<Pos>, message: impl std::fmt::Display) -> InputError {
        match at {
            Some(p) => InputError(format!("{}:{}:{}: {message}", self.file, p.line, p.col)),
            None => InputError(format!("{}: {message}", self.file)),
        }
    }

    pub(super) fn raw(
        &self,
        value: &Spanned<DeValue<'_>>,
        layer: u8,
    ) -> Result<RawItem, InputError> {
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
    pub(super) fn entries(
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

    pub(super) fn tables(
        &self,
        key: &str,
        item: &RawItem,
    ) -> Result<Vec<(Entries, Option<Pos>)>, InputError> {
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

pub(super) fn take_string(
    reader: &Reader<'_>,
    item: &RawItem,
    key: &str,
) -> Result<String, InputError> {
    match &item.value {
        RawValue::Str(s) => Ok(s.clone()),
        other => Err(reader.error(
            item.at,
            format!("`{key}` must be a string, not {}", other.type_name()),
        )),
    }
}

pub(super) fn take_count(
    reader: &Reader<'_>,
    item: &RawItem,
    key: &str,
    min: i64,
) -> Result<u64, InputError> {
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

pub(super) fn too_many_cases() -> String {
    format!("more than {MAX_CASES} cases; split the scenario")
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
