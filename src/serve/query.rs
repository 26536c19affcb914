//! A page's query string as the quick command's flags (docs/serve.md): `cmd`
//! names the command, the positional key (`pool`, `dice`, `hero`) is its
//! positional argument and every other name is the flag of that name
//! (`vs=2d6` is `--vs 2d6`, `heroic_step` or `heroic-step` is
//! `--heroic-step`). The words are parsed by the command line's own parser,
//! so a misspelt flag or a bad value gets the command line's message, with
//! its "did you mean", and nothing here knows a system's keys. The same
//! pairs give the equivalent `oddsmith ...` line and the link that reopens
//! the page.

use crate::cli::{quick_command, Cli, Command, QuickArgs};
use crate::options::did_you_mean;
use crate::systems::System;

/// Names the page itself uses, that are no flag: the display (`show`:
/// table or chart) and a download's chart. (`view` is `--view`.)
const PAGE_ONLY: &[&str] = &["show", "chart"];

/// Flags of the command line that make no sense on a page that answers in
/// JSON on the server's own workers.
const NOT_ON_THE_PAGE: &[&str] = &["format", "threads", "quiet"];

/// A query string read as a quick command.
#[derive(Debug, Clone)]
pub struct Asked {
    pub system: System,
    pub args: QuickArgs,
    /// The equivalent command line.
    pub command: String,
    /// The query string that reopens the page on this calculation.
    pub query: String,
}

/// Input the page can fix: the command line's message and, where it names
/// one, the field it is about (a key's name, or `cmd`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput {
    pub message: String,
    pub field: Option<String>,
}

impl BadInput {
    fn new(message: impl Into<String>, field: Option<&str>) -> BadInput {
        BadInput {
            message: message.into(),
            field: field.map(str::to_string),
        }
    }
}

/// The quick commands, by their command-line names.
pub fn commands() -> impl Iterator<Item = (&'static str, System)> {
    System::ALL.into_iter().map(|s| (quick_command(s), s))
}

/// The pairs of a query string as a quick command, parsed by the command
/// line's parser. Empty values are left out (a field left empty takes its
/// default).
pub fn read(pairs: &[(String, String)]) -> Result<Asked, BadInput> {
    let given: Vec<(String, &str)> = pairs
        .iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(name, value)| (name.trim().replace('-', "_"), value.as_str()))
        .collect();
    let cmd = given
        .iter()
        .find(|(name, _)| name == "cmd")
        .map(|(_, value)| value.trim())
        .ok_or_else(|| {
            BadInput::new(format!("`cmd` is missing: {}", command_list()), Some("cmd"))
        })?;
    let Some(system) = commands().find(|(name, _)| *name == cmd).map(|(_, s)| s) else {
        let hint = did_you_mean(cmd, commands().map(|(name, _)| name));
        return Err(BadInput::new(
            format!("`cmd` is \"{cmd}\"{hint}; {}", command_list()),
            Some("cmd"),
        ));
    };
    let positional = system.positional_key().map(|key| key.name);
    let mut words = vec!["oddsmith".to_string(), cmd.to_string()];
    let mut shown = vec!["oddsmith".to_string(), cmd.to_string()];
    let mut flags_shown = Vec::new();
    let mut positionals = Vec::new();
    let mut query = vec![("cmd".to_string(), cmd.to_string())];
    for (name, value) in &given {
        if name == "cmd" || PAGE_ONLY.contains(&name.as_str()) {
            continue;
        }
        if NOT_ON_THE_PAGE.contains(&name.as_str()) {
            return Err(BadInput::new(
                format!("`--{name}` is a command-line flag the page does not take"),
                None,
            ));
        }
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(BadInput::new(
                format!("\"{name}\" is no setting: names are letters, digits and `_`"),
                None,
            ));
        }
        query.push((name.clone(), value.to_string()));
        if Some(name.as_str()) == positional {
            positionals.push(value.trim().to_string());
            continue;
        }
        let flag = format!("--{}", name.replace('_', "-"));
        words.push(format!("{flag}={value}"));
        flags_shown.push(format!("{flag} {}", shell_word(value)));
    }
    if !positionals.is_empty() {
        let joined = positionals.join(",");
        shown.push(shell_word(&joined));
        // After `--`, a value that starts with `-` (a negative dice count)
        // is the positional argument, as the shell user would mean it.
        words.push("--".into());
        words.push(joined);
    }
    shown.extend(flags_shown);
    let cli = Cli::parse_from_args(&words).map_err(|e| clap_message(&e, system))?;
    let (Command::Cortex(args)
    | Command::Scene(args)
    | Command::Conflict(args)
    | Command::Advantage(args)
    | Command::Storytelling(args)) = cli.command
    else {
        return Err(BadInput::new("not a quick command", Some("cmd")));
    };
    Ok(Asked {
        system,
        args,
        command: shown.join(" "),
        query: encode_query(&query),
    })
}

fn command_list() -> String {
    let names: Vec<String> = commands().map(|(name, _)| format!("`{name}`")).collect();
    format!("give one of {}", names.join(", "))
}

/// Clap's message without its usage lines, with the field it names.
fn clap_message(error: &clap::Error, system: System) -> BadInput {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return BadInput::new(
            "`help` and `version` are no settings of the page".to_string(),
            None,
        );
    }
    let text = error.render().to_string();
    let kept: Vec<&str> = text
        .lines()
        .take_while(|line| !line.starts_with("Usage:"))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    let message = kept.join("; ");
    let message = message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string();
    let field = field_named(&message, system);
    BadInput { message, field }
}

/// The field a message is about: the first of the system's keys (or of
/// the settings every command takes) whose flag, or whose positional name
/// (`POOL`), it names.
pub fn field_named(message: &str, system: System) -> Option<String> {
    let mut found: Option<(usize, String)> = None;
    let mut consider = |at: Option<usize>, name: &str| {
        if let Some(at) = at {
            if found.as_ref().is_none_or(|(best, _)| at < *best) {
                found = Some((at, name.to_string()));
            }
        }
    };
    for key in system.key_defs() {
        let name = if key.positional {
            key.name.to_uppercase()
        } else {
            key.flag()
        };
        consider(find_word(message, &name), key.name);
    }
    for setting in ["method", "trials", "seed"] {
        consider(find_word(message, &format!("--{setting}")), setting);
    }
    found.map(|(_, name)| name)
}

/// Where `word` stands in `text` as a whole word (not `--vs` inside
/// `--vs-x`), if it does.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// A word as the shell takes it: bare when plain, else in single quotes.
pub fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+,=:@".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Pairs as a query string, every byte but the unreserved ones
/// percent-encoded (a space as `%20`).
pub fn encode_query(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", percent(k), percent(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_query_is_the_quick_command_it_spells() {
        let asked = read(&pairs(&[
            ("cmd", "cortex"),
            ("pool", "d10 2d8 d6"),
            ("vs", "2d6,3d8"),
            ("heroic-step", "4"),
            ("ties", ""),
            ("show", "chart"),
        ]))
        .unwrap();
        assert_eq!(asked.system, System::Cortex);
        assert_eq!(
            asked.command,
            "oddsmith cortex 'd10 2d8 d6' --vs 2d6,3d8 --heroic-step 4"
        );
        assert_eq!(
            asked.query,
            "cmd=cortex&pool=d10%202d8%20d6&vs=2d6%2C3d8&heroic_step=4"
        );
    }

    #[test]
    fn bad_names_get_the_command_lines_message_and_their_field() {
        let bad = read(&pairs(&[("cmd", "cortex"), ("pool", "d8"), ("tiez", "x")])).unwrap_err();
        assert!(bad.message.contains("'--tiez'"), "{bad:?}");
        assert!(
            bad.message.contains("a similar argument exists: '--ties'"),
            "{bad:?}"
        );
        assert!(!bad.message.contains("Usage"), "{bad:?}");
        let bad = read(&pairs(&[("cmd", "cortx")])).unwrap_err();
        assert_eq!(bad.field.as_deref(), Some("cmd"));
        assert!(bad.message.contains("did you mean `cortex`"), "{bad:?}");
        let bad = read(&pairs(&[("cmd", "cortex"), ("threads", "3")])).unwrap_err();
        assert!(bad.message.contains("--threads"), "{bad:?}");
    }

    #[test]
    fn a_negative_positional_is_the_positional() {
        let asked = read(&pairs(&[("cmd", "storytelling"), ("dice", "-1")])).unwrap();
        assert_eq!(asked.command, "oddsmith storytelling -1");
    }

    #[test]
    fn fields_are_found_by_their_flag_or_positional_name() {
        let field = |m| field_named(m, System::Cortex);
        assert_eq!(
            field("POOL: d7 is not a Cortex die").as_deref(),
            Some("pool")
        );
        assert_eq!(
            field("`--vs`: `x9` is not a dice term").as_deref(),
            Some("vs")
        );
        assert_eq!(
            field("`--trials` must be at least 1").as_deref(),
            Some("trials")
        );
        assert_eq!(field("nothing here"), None);
    }
}
