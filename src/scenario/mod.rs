//! Scenario files (docs/scenarios.md): TOML with file-level `trials` and `seed`,
//! defaults tables named after systems (`[cortex]`), `[[case]]` and
//! `[[sweep]]` arrays. The file is read with toml's spanned parser so every
//! error names the file, line and column; values become [`RawValue`]s and
//! each system resolves its own keys through [`Options`].
//!
//! [`parse`] runs the phases in order, each in its module: the syntax and
//! the case cap ([`reader`]), the top-level keys and defaults tables
//! ([`top_level`]), the cases and sweeps ([`cases`]), the balances
//! ([`balances`]).
//!
//! [`RawValue`]: crate::options::RawValue
//! [`Options`]: crate::options::Options

mod balances;
mod cases;
mod reader;
mod tables;
mod top_level;

use std::path::Path;

use crate::balance::BalanceQuestion;
use crate::errors::InputError;
use crate::systems::Case;
use reader::{position, Reader};
use top_level::TopLevel;

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
    /// `[[table]]`s (docs/scenarios.md), which the report pages show first.
    pub tables: Vec<crate::report::pivot::PivotSpec>,
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

/// Parses scenario text; `file` names it in errors. Each phase reports its
/// first error before the next phase starts.
pub fn parse(text: &str, file: &str, default_name: &str) -> Result<Scenario, InputError> {
    let reader = Reader::new(text, file);
    let document = reader.document()?;
    let top = TopLevel::read(&reader, document.get_ref(), default_name)?;
    let cases = cases::resolve(&reader, &top.defaults, top.cases, top.sweeps)?;
    let balances = balances::resolve(&reader, &top.defaults, top.balances)?;
    let tables = tables::resolve(&reader, top.tables, &cases)?;
    if cases.is_empty() && balances.is_empty() {
        // Located at the end of the file, where a case would be added.
        return Err(reader.error(
            Some(reader.end()),
            "the scenario has no cases: add a [[case]], a [[sweep]] or a [[balance]]",
        ));
    }
    Ok(Scenario {
        name: top.name,
        description: top.description,
        trials: top.trials,
        seed: top.seed,
        cases,
        balances,
        tables,
    })
}

#[cfg(test)]
mod tests;
