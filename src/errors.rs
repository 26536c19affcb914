//! The error kinds that decide the exit code (docs/reports.md): bad input (2), an
//! interrupted run (130), anything else (1). Bad-input errors carry a message
//! that says what is wrong and what is allowed.

use thiserror::Error;

/// Input the user can fix: a bad flag, pool, scenario key or value.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct InputError(pub String);

/// Shorthand for a bad-input error.
pub fn input_error(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(InputError(message.into()))
}

/// The exit code for an error chain.
pub fn exit_code(error: &anyhow::Error) -> i32 {
    use crate::engine::exact::ExactError;
    use crate::engine::monte_carlo::Interrupted;
    if error.chain().any(|e| e.is::<Interrupted>()) {
        130
    } else if error.chain().any(|e| {
        e.is::<InputError>()
            || e.is::<ExactError>()
            || e.is::<crate::options::OptionError>()
            || e.is::<crate::dice::DiceError>()
    }) {
        2
    } else {
        1
    }
}
