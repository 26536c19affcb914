//! A look over a scenario's text before it is parsed (docs/scenarios.md):
//! how many values it holds, so a file that could only pass the case cap is
//! refused before the parser holds all of it (a 14 MB file of one
//! 7-million-value list took 2.3 GB and 25 s to read; parsing alone costs
//! about 200 bytes a value).
//!
//! It is a light lexer: it skips comments and strings of every TOML kind,
//! tells a `[table]` header from a list, and counts the values of each list
//! and the `key = value` pairs of the file. It only ever counts what is
//! there, never more, so a file it passes is then checked exactly on the
//! parsed tables ([`super::reader`]); one it refuses holds at least that
//! many values.

/// The most `key = value` pairs and list values a scenario may hold in
/// all: ten for every case of the case cap.
pub const MAX_VALUES: usize = 10 * super::MAX_CASES;

/// The most values one list may hold: the case cap, since a sweep or
/// ladder of a longer list could only pass it.
pub const MAX_ARRAY: usize = super::MAX_CASES;

/// What a list longer than [`MAX_ARRAY`] is told.
pub fn long_list() -> String {
    format!(
        "this list has more than {MAX_ARRAY} values; at most {MAX_ARRAY} are allowed (each would be a case): split the scenario"
    )
}

/// A bracket the scan is inside: a list, with its values so far, or an
/// inline table.
enum Open {
    List { values: usize, empty: bool },
    Table,
}

/// Where the text passes a limit, and what it says.
#[derive(Debug, PartialEq, Eq)]
pub struct TooMany {
    pub offset: usize,
    pub message: String,
}

/// Checks the text against [`MAX_ARRAY`] and [`MAX_VALUES`].
pub fn check(text: &str) -> Result<(), TooMany> {
    let bytes = text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut values = 0usize;
    let mut line_start = true;
    let mut i = 0;
    let too_many_values = |offset: usize| {
        TooMany {
        offset,
        message: format!(
            "the scenario holds more than {MAX_VALUES} keys and list values; at most {MAX_VALUES} are allowed (ten a case at the case cap): split it"
        ),
    }
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' => i = skip_to(bytes, i, b"\n").saturating_sub(1),
            b'"' | b'\'' => {
                i = skip_string(bytes, i).saturating_sub(1);
                mark_value(&mut open);
                line_start = false;
            }
            b'[' if open.is_empty() && line_start => {
                // A `[table]` or `[[table]]` header: one line.
                i = skip_to(bytes, i, b"\n").saturating_sub(1);
            }
            b'[' => {
                mark_value(&mut open);
                open.push(Open::List {
                    values: 0,
                    empty: true,
                });
            }
            b'{' => {
                mark_value(&mut open);
                open.push(Open::Table);
            }
            b']' | b'}' => {
                if let Some(Open::List { values: n, empty }) = open.pop() {
                    values += n + usize::from(!empty);
                    if values > MAX_VALUES {
                        return Err(too_many_values(i));
                    }
                }
            }
            b',' => {
                if let Some(Open::List { values: n, .. }) = open.last_mut() {
                    *n += 1;
                    if *n >= MAX_ARRAY {
                        return Err(TooMany {
                            offset: i,
                            message: long_list(),
                        });
                    }
                }
            }
            b'=' => {
                values += 1;
                if values > MAX_VALUES {
                    return Err(too_many_values(i));
                }
            }
            _ => mark_value(&mut open),
        }
        if !matches!(c, b'\n' | b' ' | b'\t' | b'\r') {
            line_start = false;
        }
        i += 1;
    }
    Ok(())
}

/// Something stands in the innermost list: it has a value.
fn mark_value(open: &mut [Open]) {
    if let Some(Open::List { empty, .. }) = open.last_mut() {
        *empty = false;
    }
}

/// The offset of the next `end` at or after `from` (the text's end if none).
fn skip_to(bytes: &[u8], from: usize, end: &[u8]) -> usize {
    bytes[from..]
        .windows(end.len())
        .position(|w| w == end)
        .map_or(bytes.len(), |at| from + at)
}

/// The offset just past the string that opens at `at`: basic (`"`, with
/// backslash escapes) or literal (`'`), on one line or, tripled, several.
fn skip_string(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let triple = bytes[at..].starts_with(&[quote; 3]);
    let mut i = at + if triple { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 1,
            b'\n' if !triple => return i,
            q if q == quote => {
                if !triple {
                    return i + 1;
                }
                if bytes[i..].starts_with(&[quote; 3]) {
                    // A closing `"""` may be followed by one or two more quotes.
                    let mut end = i + 3;
                    while end < bytes.len() && bytes[end] == quote && end < i + 5 {
                        end += 1;
                    }
                    return end;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> String {
        format!("x = [{}]\n", vec!["1"; n].join(","))
    }

    #[test]
    fn a_list_at_the_cap_passes_one_past_it_does_not() {
        assert_eq!(check(&list(MAX_ARRAY)), Ok(()));
        let refused = check(&list(MAX_ARRAY + 1)).unwrap_err();
        assert!(
            refused.message.contains("at most 100000"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn commas_in_strings_comments_and_headers_are_not_values() {
        let commas = ",".repeat(MAX_ARRAY + 5);
        for text in [
            format!("x = [\"{commas}\"]\n"),
            format!("x = ['{commas}']\n"),
            format!("x = [\"\"\"\n{commas}\n\"\"\"]\n"),
            format!("x = ['''{commas}''']\n"),
            format!("# [{commas}]\nx = 1\n"),
            format!("x = [1] # {commas}\n"),
            format!("x = [\"\\\"{commas}\"]\n"),
            format!("x = [{{ a = \"{commas}\" }}]\n"),
        ] {
            assert_eq!(check(&text), Ok(()), "{}", &text[..12]);
        }
    }

    #[test]
    fn many_keys_and_lists_count_together() {
        let keys: String = (0..MAX_VALUES / 2).map(|i| format!("k{i} = 1\n")).collect();
        assert_eq!(check(&keys), Ok(()));
        let lists: String = (0..MAX_VALUES / 2 / 1000 + 1)
            .map(|i| format!("l{i} = [{}]\n", vec!["1"; 999].join(",")))
            .collect();
        assert!(check(&format!("{keys}{lists}")).is_err());
        // A header's brackets are not a list.
        assert_eq!(check("[[case]]\nx = [1, 2]\n[t]\ny = {a = [3]}\n"), Ok(()));
    }
}
