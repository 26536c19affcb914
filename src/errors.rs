//! The error kinds that decide the exit code (docs/reports.md): bad input (2), an
//! interrupted run (130), anything else (1). Bad-input errors carry a message
//! that says what is wrong and what is allowed.
//!
//! Every error type the crate declares says its [`ErrorKind`] and is listed
//! once, in [`kind_of`]; an error chain exits with the code of the kinds it
//! holds. A unit test finds every error type declared under `src/` and fails
//! for one that is not listed, so a new error type cannot exit 1 by accident.

use thiserror::Error;

use crate::dice::DiceError;
use crate::engine::exact::ExactError;
use crate::engine::monte_carlo::{Interrupted, WorkersError};
use crate::options::OptionError;

/// Input the user can fix: a bad flag, pool, scenario key or value.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct InputError(pub String);

/// Shorthand for a bad-input error.
pub fn input_error(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(InputError(message.into()))
}

/// What went wrong, as the exit code tells it (docs/reports.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ErrorKind {
    /// Anything else: a file that cannot be written, threads the system
    /// refuses.
    Failed,
    /// Input the user can fix.
    Input,
    /// Ctrl-C (or SIGTERM, SIGHUP) stopped the run.
    Interrupted,
}

impl ErrorKind {
    /// The process exit code of this kind.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorKind::Failed => 1,
            ErrorKind::Input => 2,
            ErrorKind::Interrupted => 130,
        }
    }
}

/// Lists the crate's error types with their kinds: [`kind_of`] reads this
/// list, and the test below holds it to the types declared under `src/`.
macro_rules! error_kinds {
    ($($error:ident => $kind:ident),* $(,)?) => {
        /// The kind of one error of a chain; `None` for an error from outside
        /// the crate (I/O, CSV, JSON), which only ever adds context.
        pub fn kind_of(error: &(dyn std::error::Error + 'static)) -> Option<ErrorKind> {
            $(
                if error.is::<$error>() {
                    return Some(ErrorKind::$kind);
                }
            )*
            None
        }

        #[cfg(test)]
        const LISTED: &[&str] = &[$(stringify!($error)),*];
    };
}

error_kinds! {
    InputError => Input,
    OptionError => Input,
    DiceError => Input,
    // `--method exact` refusing a case names `--method mc`: the user's to fix.
    ExactError => Input,
    Interrupted => Interrupted,
    WorkersError => Failed,
}

/// The kind of an error chain: the gravest kind of any error in it
/// (an interruption over bad input over anything else).
pub fn kind(error: &anyhow::Error) -> ErrorKind {
    error
        .chain()
        .filter_map(kind_of)
        .max()
        .unwrap_or(ErrorKind::Failed)
}

/// The exit code for an error chain.
pub fn exit_code(error: &anyhow::Error) -> i32 {
    kind(error).exit_code()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the error types declared under `src/`: a type deriving
    /// `Error` or implementing `std::error::Error`.
    fn declared_error_types() -> Vec<String> {
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let lines: Vec<&str> = text.lines().map(str::trim).collect();
                    for (i, line) in lines.iter().enumerate() {
                        if line.starts_with("#[derive(") && line.contains("Error") {
                            let declared = lines[i + 1..]
                                .iter()
                                .find(|l| !l.starts_with("#[") && !l.starts_with("//"))
                                .unwrap();
                            let name = declared
                                .split_whitespace()
                                .skip_while(|w| *w != "struct" && *w != "enum")
                                .nth(1)
                                .unwrap_or_else(|| panic!("{}: {declared}", path.display()));
                            let name = name.split(['(', '{', '<', ';']).next().unwrap();
                            found.push(name.into());
                        }
                        if let Some(rest) = line.strip_prefix("impl std::error::Error for ") {
                            found.push(rest.trim_end_matches(" {}").trim_end_matches(" {").into());
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        found.sort();
        found.dedup();
        found
    }

    #[test]
    fn every_error_type_of_the_crate_has_a_kind() {
        let declared = declared_error_types();
        assert!(declared.len() >= 6, "{declared:?}");
        for name in &declared {
            assert!(
                LISTED.contains(&name.as_str()),
                "{name} declares an error without a kind: add it to `error_kinds!` in src/errors.rs"
            );
        }
    }

    #[test]
    fn each_kind_has_its_exit_code_wherever_it_sits_in_the_chain() {
        let input = input_error("bad pool").context("case \"a\"");
        assert_eq!(exit_code(&input), 2);
        let interrupted = anyhow::Error::new(Interrupted).context("case \"a\"");
        assert_eq!(exit_code(&interrupted), 130);
        // An interruption while reading input is still an interruption.
        let both = anyhow::Error::new(Interrupted).context(InputError("while reading".into()));
        assert_eq!(exit_code(&both), 130);
        let workers = anyhow::Error::new(WorkersError {
            threads: 8,
            reason: "the system refused".into(),
        });
        assert_eq!(exit_code(&workers), 1);
        assert_eq!(
            workers.to_string(),
            "cannot start 8 worker threads (the system refused); ask for fewer with --threads"
        );
        let io = anyhow::Error::new(std::io::Error::other("disk full")).context("writing report");
        assert_eq!(exit_code(&io), 1);
    }
}
