//! `oddsmith balance`: docs/cortex.md's form (hero pools against a ladder of
//! opposing pools, `oddsmith balance POOL...`) and docs/cortex.md's general form
//! (`--system S --key K --ladder A,B --metric M --target T` and the
//! system's keys as flags). Either is resolved like a `[[balance]]` table,
//! its rungs evaluated like cases by `--method`, and printed as a report of
//! balances alone.

use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_balance_by, Settings};
use super::output::{flags as flags_of, print_report, single_entries};
use crate::balance::general::GeneralSpec;
use crate::balance::{BalanceQuestion, BalanceSpec};
use crate::cli::BalanceArgs;
use crate::echo::echo;
use crate::errors::input_error;
use crate::options::{Entries, KeyStyle, Kind, RawItem, RawValue};
use crate::report::{CaseResult, Report, ReportKind, TableLayout};
use crate::systems::System;

/// A list flag as the array a scenario would hold.
fn string_list<'a>(items: impl Iterator<Item = &'a str>) -> RawValue {
    RawValue::Array(
        items
            .map(|s| RawItem::new(RawValue::Str(s.trim().to_string())))
            .collect(),
    )
}

/// A flag's text as the value a scenario would hold for `key` of `system`:
/// read by the key's kind when the system declares it, else as
/// [`RawValue::guess`] reads it (the system then names the unknown key).
/// A balance's fixed keys take one value each on the command line: a
/// comma list (`--rolls 6,10`) is refused saying so, except in a table
/// key's value, whose entries are separated by commas.
pub(crate) fn flag_value(system: System, key: &str, text: &str) -> Result<RawValue, String> {
    match system.key_def(key) {
        Some(def) if text.contains(',') && !matches!(def.kind, Kind::Table { .. }) => Err(format!(
            "`oddsmith balance` takes one value of each fixed key, not the list \"{}\"; for one balance per value, write a `[[balance]]` table whose `case` lists them (docs/scenarios.md)",
            echo(text)
        )),
        Some(def) => def.read_flag(text),
        None => RawValue::guess(text),
    }
}

/// The system's keys given as flags (`--dice 5`, `--rote`, `--stat=-1`,
/// `--gain-on miss=1`) as the entries a scenario would hold.
fn key_flags(system: System, keys: &[(String, String)]) -> Result<Entries, String> {
    keys.iter()
        .map(|(key, text)| {
            let value = flag_value(system, key, text)
                .map_err(|e| format!("`--{}`: {e}", key.replace('_', "-")))?;
            Ok((key.clone(), RawItem::new(value)))
        })
        .collect()
}

/// docs/cortex.md: one question per hero pool.
fn pool_questions(args: &BalanceArgs) -> anyhow::Result<Vec<BalanceQuestion>> {
    if let Some((key, _)) = args.keys.first() {
        return Err(input_error(format!(
            "`--{}` is a key of a case: it needs --system (docs/cortex.md), e.g. --system storytelling --key dice ...",
            key.replace('_', "-")
        )));
    }
    if args.pools.is_empty() {
        return Err(input_error(
            "give one or more hero pools (oddsmith balance \"d10 2d8 d6\" --target 0.6), or --system, --key, --ladder, --metric and --target to balance any system",
        ));
    }
    if args.key.is_some() || args.metric.is_some() || !args.set.is_empty() {
        return Err(input_error(
            "--key, --metric and --set belong to the general balance: add --system (e.g. --system cortex --key vs)",
        ));
    }
    // `--ladder "2d6,3d8,"`: empty pieces (a trailing comma) are dropped;
    // nothing left is an empty ladder, refused by the balance itself.
    let ladder = args
        .ladder
        .as_ref()
        .map(|text| string_list(text.split(',').filter(|piece| !piece.trim().is_empty())));
    let mut flags = vec![
        (
            "pools",
            vec![string_list(args.pools.iter().map(String::as_str))],
        ),
        (
            "target",
            args.target.map(RawValue::Float).into_iter().collect(),
        ),
        (
            "target_heroic",
            args.target_heroic
                .map(RawValue::Float)
                .into_iter()
                .collect(),
        ),
        ("ladder", ladder.into_iter().collect()),
    ];
    flags.extend(flags_of(&args.rules));
    let options = BalanceSpec::options(KeyStyle::Flag, single_entries(flags, "balance")?)
        .with_positional("pools");
    let spec = BalanceSpec::from_options(options).map_err(|e| input_error(e.message))?;
    crate::balance::count_rungs(0, spec.rungs()).map_err(input_error)?;
    Ok(spec.questions(1))
}

/// docs/cortex.md: one question per combination of the fixed keys.
fn general_questions(args: &BalanceArgs, system: &str) -> anyhow::Result<Vec<BalanceQuestion>> {
    if args.target_heroic.is_some() {
        return Err(input_error(
            "`--target-heroic` is docs/cortex.md's form; with --system give --metric p_heroic --target T",
        ));
    }
    let ladder = match &args.ladder {
        Some(text) => Some(RawValue::Array(
            text.split(',')
                .filter(|piece| !piece.trim().is_empty())
                .map(|piece| RawValue::guess(piece).map(RawItem::new))
                .collect::<Result<_, _>>()
                .map_err(|e| input_error(format!("`--ladder`: {e}")))?,
        )),
        None => None,
    };
    let own: Vec<(&'static str, Vec<RawValue>)> = vec![
        ("system", vec![RawValue::Str(system.to_string())]),
        (
            "key",
            args.key.clone().map(RawValue::Str).into_iter().collect(),
        ),
        ("ladder", ladder.into_iter().collect()),
        (
            "metric",
            args.metric.clone().map(RawValue::Str).into_iter().collect(),
        ),
        (
            "target",
            args.target.map(RawValue::Float).into_iter().collect(),
        ),
    ];
    let mut options = BalanceSpec::options(KeyStyle::Flag, single_entries(own, "balance")?);
    let spec = GeneralSpec::from_options(&mut options).map_err(|e| input_error(e.message))?;
    if let Some(pool) = args.pools.first() {
        return Err(input_error(format!(
            "unexpected \"{pool}\": with --system every key of the case is a flag, e.g. --pool \"d10 2d8 d6\", --dice 5 or --hero \"d10 2d8 d6\""
        )));
    }
    let system = spec.system;
    let mut fixed = key_flags(system, &args.keys).map_err(input_error)?;
    fixed.extend(single_entries(flags_of(&args.rules), "balance")?);
    for set in &args.set {
        let Some((name, value)) = set.split_once('=') else {
            return Err(input_error(format!(
                "`--set` takes NAME=VALUE (e.g. --set target=7), not \"{set}\""
            )));
        };
        let name = name.trim().replace('-', "_");
        let value = flag_value(system, &name, value)
            .map_err(|e| input_error(format!("`--set {name}`: {e}")))?;
        if fixed.iter().any(|(given, _)| *given == name) {
            return Err(input_error(format!(
                "`{name}` is given twice (`--set {name}=...` and `--{}` or another `--set`): give each key once",
                name.replace('_', "-")
            )));
        }
        fixed.push((name, RawItem::new(value)));
    }
    crate::balance::count_rungs(0, spec.rungs(&fixed)).map_err(input_error)?;
    let resolve = |entries: Entries| system.resolve(system.options(KeyStyle::Flag, entries));
    spec.questions(&options, &fixed, 1, &resolve)
        .map_err(|e| input_error(e.message))
}

/// The balance questions of `oddsmith balance`'s flags, in either form
/// (`oddsmith serve` reads its balance form through this too, so the page
/// and the command line say the same).
pub(crate) fn questions_of(args: &BalanceArgs) -> anyhow::Result<Vec<BalanceQuestion>> {
    match &args.system {
        None => pool_questions(args),
        Some(system) => {
            System::from_name(system).map_err(input_error)?;
            general_questions(args, system)
        }
    }
}

/// The questions answered, as a report of balances alone; `used` is told
/// how each rung's results were computed.
pub(crate) fn balance_report(
    questions: &[BalanceQuestion],
    settings: &Settings,
    cancel: &AtomicBool,
    used: &mut dyn FnMut(&CaseResult),
) -> anyhow::Result<Report> {
    let mut balances = Vec::with_capacity(questions.len());
    for question in questions {
        balances.push(evaluate_balance_by(question, settings, cancel, used)?);
    }
    Ok(Report {
        kind: ReportKind::BalanceOnly,
        name: "balance".into(),
        description: None,
        seed: settings.seed,
        trials: settings.trials,
        results: Vec::new(),
        balances,
        table: TableLayout::Compact,
        spilled_distributions: None,
        presentation: Default::default(),
    })
}

/// Runs the `balance` command.
pub fn run(args: &BalanceArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let questions = questions_of(args)?;
    let report = balance_report(&questions, &settings, cancel, &mut |_| {})?;
    print_report(&report, settings.format)
}
