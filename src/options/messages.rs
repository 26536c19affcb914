//! The words of option errors, one form for all: a key as the user wrote it
//! (`heroic_step` in a file, `--heroic-step` on the command line), the
//! "allowed: ..." list and the "did you mean" hint for a misspelt word.

use std::fmt;

/// Whether keys are shown as scenario keys (`heroic_step`) or flags (`--heroic-step`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStyle {
    Toml,
    Flag,
}

/// A key as the user wrote it: `heroic_step` in a file, `--heroic-step` on
/// the command line.
pub fn key_name(key: &str, style: KeyStyle) -> String {
    match style {
        KeyStyle::Toml => format!("`{key}`"),
        KeyStyle::Flag => format!("`--{}`", key.replace('_', "-")),
    }
}

/// The one form of every "allowed" list in messages: `allowed: `a`, `b``.
pub fn allowed<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| format!("`{i}`")).collect();
    format!("allowed: {}", items.join(", "))
}

/// The candidate closest to a misspelt `word`, if one is close enough to
/// be what was meant: at most one edit in four letters (and at least one).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = word.chars().count();
    let limit = (length / 4).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length, so a long
        // junk key costs nothing here.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// " (did you mean `ties`?)" for a misspelt `word`, or nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
}

/// Edit distance in characters: insertions, deletions, substitutions and
/// swaps of two neighbours (`actoin`), each one edit (optimal string
/// alignment distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between the first i chars of a and j of b.
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_get_the_closest_key() {
        let keys = ["ties", "heroic_step", "keep", "reaction_keep"];
        assert_eq!(closest("tiez", keys), Some("ties"));
        assert_eq!(closest("heroicstep", keys), Some("heroic_step"));
        assert_eq!(closest("reaction_kep", keys), Some("reaction_keep"));
        // Too far from every key to be a slip of the finger.
        assert_eq!(closest("pool", keys), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("actoin", "action"), 1);
        assert_eq!(
            did_you_mean("actoin", ["reaction", "action"]),
            " (did you mean `action`?)"
        );
    }
}
