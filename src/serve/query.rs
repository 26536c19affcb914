//! A page's query string as the quick command's flags (docs/serve.md): `cmd`
//! names the command, the positional key (`pool`, `dice`, `hero`) is its
//! positional argument and every other name is the flag of that name
//! (`vs=2d6` is `--vs 2d6`, `heroic_step` or `heroic-step` is
//! `--heroic-step`). The words are parsed by the command line's own parser,
//! so a misspelt flag or a bad value gets the command line's message, with
//! its "did you mean", and nothing here knows a system's keys. The same
//! pairs give the equivalent `oddsmith ...` line and the link that reopens
//! the page.

use crate::cli::{quick_command, BalanceArgs, Cli, Command, CommonArgs, QuickArgs};
use crate::options::did_you_mean;
use crate::systems::cortex::keys::ROLL_RULES;
use crate::systems::System;

/// Names the page itself uses, that are no flag: the display (`show`:
/// table or chart) and a download's chart. (`view` is `--view`.)
const PAGE_ONLY: &[&str] = &["show", "chart"];

/// Flags of the command line that make no sense on a page that answers in
/// JSON on the server's own workers.
const NOT_ON_THE_PAGE: &[&str] = &["format", "threads", "quiet"];

/// The command `cmd` names: a system's quick command, or `balance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmd {
    Quick(System),
    Balance,
}

impl Cmd {
    /// Its command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Cmd::Quick(system) => quick_command(system),
            Cmd::Balance => "balance",
        }
    }

    /// The name of its positional argument's field (`pool`, `hero`,
    /// `dice`; `pools` for the balance's hero pools).
    fn positional(self) -> Option<&'static str> {
        match self {
            Cmd::Quick(system) => system.positional_key().map(|key| key.name),
            Cmd::Balance => Some("pools"),
        }
    }

    /// What names each field in the command line's messages (a flag, or
    /// the positional argument's name in capitals), with the field.
    fn labels(self) -> Vec<(String, &'static str)> {
        let keys = match self {
            Cmd::Quick(system) => system.key_defs().to_vec(),
            Cmd::Balance => System::ALL
                .into_iter()
                .flat_map(|s| s.key_defs().iter().copied())
                .chain(ROLL_RULES.iter().copied())
                .collect(),
        };
        let mut labels: Vec<(String, &'static str)> = keys
            .into_iter()
            .map(|key| {
                let label = if key.positional && self != Cmd::Balance {
                    key.name.to_uppercase()
                } else {
                    key.flag()
                };
                (label, key.name)
            })
            .collect();
        if self == Cmd::Balance {
            // The balance's own flags come before any system's key of
            // the same name (`--target`).
            let own = BALANCE_FLAGS
                .iter()
                .map(|&name| (format!("--{}", name.replace('_', "-")), name));
            labels.splice(0..0, own);
            labels.insert(0, ("POOLS".into(), "pools"));
            // The general balance names a metric it does not know so.
            labels.push(("unknown metric".into(), "metric"));
        }
        labels.extend(
            ["method", "trials", "seed"]
                .into_iter()
                .map(|setting| (format!("--{setting}"), setting)),
        );
        labels
    }
}

/// The balance's own flags, by field name (docs/serve.md).
pub const BALANCE_FLAGS: &[&str] = &[
    "target",
    "target_heroic",
    "ladder",
    "system",
    "key",
    "metric",
    "set",
];

/// What a query asks, parsed by the command line's parser.
#[derive(Debug, Clone)]
pub enum Args {
    Quick(QuickArgs),
    Balance(Box<BalanceArgs>),
}

/// A query string read as a quick command or a balance.
#[derive(Debug, Clone)]
pub struct Asked {
    pub cmd: Cmd,
    pub args: Args,
    /// The equivalent command line.
    pub command: String,
    /// The query string that reopens the page on this calculation.
    pub query: String,
}

impl Asked {
    /// The flags every evaluating command takes.
    pub fn common(&self) -> &CommonArgs {
        match &self.args {
            Args::Quick(args) => &args.common,
            Args::Balance(args) => &args.common,
        }
    }

    /// The field a message about this calculation is about.
    pub fn field_of(&self, message: &str) -> Option<String> {
        field_in(message, self.cmd)
    }
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

/// Every command the page takes: the quick commands, then `balance`.
pub fn every_cmd() -> impl Iterator<Item = Cmd> {
    System::ALL
        .into_iter()
        .map(Cmd::Quick)
        .chain(std::iter::once(Cmd::Balance))
}

/// The pairs of a query string as a quick command (or `balance`), parsed
/// by the command line's parser. Empty values are left out (a field left
/// empty takes its default).
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
    let Some(found) = every_cmd().find(|c| c.name() == cmd) else {
        let hint = did_you_mean(cmd, every_cmd().map(Cmd::name));
        return Err(BadInput::new(
            format!("`cmd` is \"{cmd}\"{hint}; {}", command_list()),
            Some("cmd"),
        ));
    };
    let positional = found.positional();
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
        // After `--`, a value that starts with `-` (a negative dice count)
        // is the positional argument, as the shell user would mean it.
        words.push("--".into());
        if found == Cmd::Balance {
            // The balance takes one hero pool per argument; the page's
            // field takes them as a comma list (a pool holds no comma).
            for pool in joined.split(',').map(str::trim) {
                shown.push(shell_word(pool));
                words.push(pool.to_string());
            }
        } else {
            shown.push(shell_word(&joined));
            words.push(joined);
        }
    }
    shown.extend(flags_shown);
    let cli = Cli::parse_from_args(&words).map_err(|e| clap_message(&e, found))?;
    let args = match cli.command {
        Command::Cortex(args)
        | Command::Scene(args)
        | Command::Conflict(args)
        | Command::Advantage(args)
        | Command::Storytelling(args) => Args::Quick(args),
        Command::Balance(args) => Args::Balance(Box::new(args)),
        _ => return Err(BadInput::new("not a command of the page", Some("cmd"))),
    };
    Ok(Asked {
        cmd: found,
        args,
        command: shown.join(" "),
        query: encode_query(&query),
    })
}

fn command_list() -> String {
    let names: Vec<String> = every_cmd().map(|c| format!("`{}`", c.name())).collect();
    format!("give one of {}", names.join(", "))
}

/// Clap's message without its usage lines, with the field it names.
fn clap_message(error: &clap::Error, cmd: Cmd) -> BadInput {
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
    let field = field_in(&message, cmd);
    BadInput { message, field }
}

/// The field a message is about: the first of the system's keys (or of
/// the settings every command takes) whose flag, or whose positional name
/// (`POOL`), it names.
pub fn field_named(message: &str, system: System) -> Option<String> {
    field_in(message, Cmd::Quick(system))
}

/// The field of `cmd`'s form a message is about: the one whose flag or
/// positional name it names first.
pub fn field_in(message: &str, cmd: Cmd) -> Option<String> {
    let mut found: Option<(usize, &str)> = None;
    for (label, name) in cmd.labels() {
        if let Some(at) = find_word(message, &label) {
            if found.is_none_or(|(best, _)| at < best) {
                found = Some((at, name));
            }
        }
    }
    found.map(|(_, name)| name.to_string())
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
        assert_eq!(asked.cmd, Cmd::Quick(System::Cortex));
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
