//! The error kinds that decide the exit code (SPEC 8): bad input (2), an
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

/// The most characters of the user's input an error message repeats.
pub const ECHO_CHARS: usize = 80;

/// User input as an error message repeats it: control characters escaped
/// (`\0`, `\u{1b}`: a NUL or an escape sequence must not reach the
/// terminal) and cut to about [`ECHO_CHARS`] characters, saying how long it
/// was, so a megabyte of junk is not printed back whole.
pub fn echo(text: &str) -> String {
    let total = text.chars().count();
    let mut out: String = text
        .chars()
        .take(ECHO_CHARS)
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    if total > ECHO_CHARS {
        out.push_str(&format!("... ({total} characters in all)"));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_escaped_and_cut() {
        assert_eq!(echo("d8 x"), "d8 x");
        assert_eq!(echo("a\0b\u{1b}[31m"), "a\\u{0}b\\u{1b}[31m");
        let long = "x".repeat(1_000_000);
        let echoed = echo(&long);
        assert!(echoed.starts_with(&"x".repeat(ECHO_CHARS)));
        assert!(
            echoed.ends_with("... (1000000 characters in all)"),
            "{echoed}"
        );
        assert!(echoed.len() < 2 * ECHO_CHARS);
    }
}
