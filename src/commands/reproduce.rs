//! The command lines a report writes into itself so a reader can make it
//! again: the index's `oddsmith report ...` and each report page's
//! `oddsmith run ...`. Paths are written relative to the folder the command
//! ran in (the repository, for the committed reports) and no date or
//! machine path goes in, so committed reports reproduce byte for byte.

use std::path::Path;

use crate::cli::MethodArg;

/// The flags that change what a report holds, as a command line writes them.
pub fn setting_flags(
    trials: Option<u64>,
    seed: Option<u64>,
    method: MethodArg,
    no_charts: bool,
) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(t) = trials {
        flags.push(format!("--trials {t}"));
    }
    if let Some(s) = seed {
        flags.push(format!("--seed {s}"));
    }
    let method = match method {
        MethodArg::Auto => None,
        MethodArg::Exact => Some("exact"),
        MethodArg::Mc => Some("mc"),
        MethodArg::Both => Some("both"),
    };
    if let Some(m) = method {
        flags.push(format!("--method {m}"));
    }
    if no_charts {
        flags.push("--no-charts".into());
    }
    flags
}

/// A path for a command written into a report: relative to the folder the
/// command ran in when it lies inside it, so no machine's absolute path
/// lands in a committed file; quoted for the shell when it needs to be.
pub fn shell_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    let text = relative.display().to_string();
    let plain = text
        .chars()
        .all(|c| c.is_alphanumeric() || "-_./+,=:@".contains(c));
    if plain && !text.is_empty() {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `oddsmith run SCENARIO --out FOLDER [flags]`: what makes one report
/// folder again.
pub fn run_command(scenario: &Path, out: Option<&Path>, flags: Vec<String>) -> String {
    let mut parts = vec!["oddsmith run".to_string(), shell_path(scenario)];
    if let Some(out) = out {
        parts.push(format!("--out {}", shell_path(out)));
    }
    parts.extend(flags);
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_and_quoted_when_needed() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            shell_path(&cwd.join("scenarios/doom-ladder.toml")),
            "scenarios/doom-ladder.toml"
        );
        assert_eq!(
            shell_path(Path::new("my scenarios/it's.toml")),
            "'my scenarios/it'\\''s.toml'"
        );
        assert_eq!(
            run_command(
                Path::new("a.toml"),
                Some(Path::new("out")),
                setting_flags(Some(10), None, MethodArg::Both, true)
            ),
            "oddsmith run a.toml --out out --trials 10 --method both --no-charts"
        );
    }
}
