//! User input as error messages repeat it: short, and safe for a terminal.
//! Every message that quotes what the user typed or wrote goes through
//! [`echo`], so a megabyte of junk or a NUL is never printed back.

use crate::report::format::printable;

/// The most characters of the user's input an error message repeats.
pub const ECHO_CHARS: usize = 80;

/// User input as an error message repeats it: control characters (and the
/// other characters [`printable`] refuses, such as U+FFFE) escaped
/// (`\0`, `\u{1b}`: a NUL or an escape sequence must not reach the
/// terminal) and cut to about [`ECHO_CHARS`] characters, saying how long it
/// was, so a megabyte of junk is not printed back whole.
pub fn echo(text: &str) -> String {
    let total = text.chars().count();
    let mut out: String = text
        .chars()
        .take(ECHO_CHARS)
        .map(|c| {
            if !printable(c) {
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
