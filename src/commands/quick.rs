//! The quick commands (`cortex`, `scene`, `conflict`, `advantage`,
//! `storytelling`):
//! cases from flags, each flag turned into the scenario key of the same
//! name so the system validates it exactly as it would in a file,
//! evaluated and printed; no report folder. A flag (or the positional pool
//! or dice) given a comma list, or given again, compares one case per
//! value: the lists are swept and named as a scenario's `[[sweep]]` would
//! be, and the table shows the cases side by side.

use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_case, Settings};
use super::output::{empty_item, entries, print_report, Flag};
use crate::cli::{AdvantageArgs, ConflictArgs, CortexArgs, QuickArgs, SceneArgs, StorytellingArgs};
use crate::errors::input_error;
use crate::options::{key_value_pairs, KeyDef, KeyStyle, Kind, RawValue};
use crate::report::{Presentation, Report, ReportKind, TableLayout};
use crate::scenario::{default_case_name, sweep_cases};
use crate::systems::{Case, System};

/// A positional argument's comma list: Cortex pools hold spaces but never
/// commas, so a comma always separates two pools.
fn comma_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(|piece| piece.trim().to_string())
        .collect()
}

/// `oddsmith cortex POOL ...`
pub fn cortex(args: &CortexArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    quick_command(System::Cortex, args, cancel)
}

/// `oddsmith scene POOL ...`
pub fn scene(args: &SceneArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    quick_command(System::CortexScene, args, cancel)
}

/// `oddsmith conflict HERO ...`
pub fn conflict(args: &ConflictArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    quick_command(System::CortexConflict, args, cancel)
}

/// `oddsmith advantage ...`
pub fn advantage(args: &AdvantageArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    quick_command(System::Advantage, args, cancel)
}

/// `oddsmith storytelling DICE ...`
pub fn storytelling(args: &StorytellingArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    quick_command(System::Storytelling, args, cancel)
}

/// A quick command: every key given as a flag (or the positional
/// argument) is the scenario key of the same name.
fn quick_command(system: System, args: &QuickArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let (cases, presentation) = cases_of(system, args)?;
    let report = quick_report(&cases, &settings, presentation, cancel)?;
    print_report(&report, settings.format)
}

/// A quick command's cases from its parsed flags, each checked as the
/// scenario key of the same name (`oddsmith serve` reads its query strings
/// through this too, so the page and the command line say the same).
pub(crate) fn cases_of(
    system: System,
    args: &QuickArgs,
) -> anyhow::Result<(Vec<Case>, Presentation)> {
    cases_from(system, args, flags_of(args)?)
}

/// The cases of a quick command's [`flags_of`], and how its tables are
/// laid out (`--rows`/`--cols`, `--view`, `--paired`).
pub(crate) fn cases_from(
    system: System,
    args: &QuickArgs,
    flags: Vec<Flag>,
) -> anyhow::Result<(Vec<Case>, Presentation)> {
    let positional = system.positional_key().map_or("", |key| key.name);
    let mut spec = super::pivot::spec(&args.pivot, &[system])?;
    let cases = if args.pivot.paired {
        if let Some(spec) = spec.as_mut() {
            super::pivot::widen_axes(spec, &flags)?;
        }
        let resolve = |chosen| {
            system.resolve(
                system
                    .options(KeyStyle::Flag, chosen)
                    .with_positional(positional),
            )
        };
        super::pivot::paired_cases(system, flags, spec.as_ref(), resolve)?
    } else {
        quick_cases(system, positional, flags)?
    };
    let presentation = super::pivot::presentation(spec, &args.pivot, args.view);
    Ok((cases, presentation))
}

/// A quick command's flags as the scenario keys of the same name, each
/// with every value given (a comma list in the positional argument split,
/// a table's `name=value` pairs read).
pub(crate) fn flags_of(args: &QuickArgs) -> anyhow::Result<Vec<Flag>> {
    let mut flags = Vec::new();
    for (key, given) in &args.keys {
        let values = if key.positional {
            given
                .iter()
                .map(|value| positional_values(key, &value.to_string()))
                .collect::<anyhow::Result<Vec<_>>>()?
                .concat()
        } else if let Kind::Table { pair, .. } = key.kind {
            // A table's entries are separated by commas, so its cases are
            // given by repeating the flag (`--gain-on miss=1 --gain-on miss=0`).
            given
                .iter()
                .map(|text| {
                    key_value_pairs(
                        &text.to_string(),
                        &format!(
                            "`{}` takes {pair} pairs separated by commas, such as {} (repeat the flag to compare tables)",
                            key.flag(),
                            table_example(key)
                        ),
                    )
                    .map_err(input_error)
                })
                .collect::<anyhow::Result<Vec<_>>>()?
        } else {
            given.clone()
        };
        flags.push((key.name, values));
    }
    Ok(flags)
}

/// A table key's example, `miss=1,weak=0,strong=0`: its first sub-key 1,
/// the others 0.
fn table_example(key: &KeyDef) -> String {
    let Kind::Table { keys, .. } = key.kind else {
        return String::new();
    };
    keys.iter()
        .enumerate()
        .map(|(i, k)| format!("{k}={}", u8::from(i == 0)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The positional argument's values (a comma list compares cases). A
/// whole-number key (Storytelling's `DICE`) is read here, so a bad count is
/// named as the positional argument it is.
fn positional_values(key: &KeyDef, text: &str) -> anyhow::Result<Vec<RawValue>> {
    let pieces: Vec<RawValue> = comma_list(text).into_iter().map(RawValue::Str).collect();
    if let Some(error) = empty_item(&key.name.to_uppercase(), &pieces) {
        return Err(error.into());
    }
    let Kind::Int { min, max } = key.kind else {
        return Ok(pieces);
    };
    let allowed = format!(
        "{} must be a whole number from {min} to {max} ({})",
        key.name.to_uppercase(),
        key.help
    );
    comma_list(text)
        .into_iter()
        .map(|text| match text.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(RawValue::Int(n)),
            Ok(n) if n < min => Err(input_error(format!(
                "{allowed}, not {n}; a penalty goes in --modifier={n}"
            ))),
            _ => Err(input_error(format!("{allowed}, not \"{text}\""))),
        })
        .collect()
}

/// A quick command's cases: one named from its main inputs as an unnamed
/// scenario case would be, or with lists one per combination, named as a
/// sweep's cases are. `positional` is the key given as the command's
/// positional argument, named as such in messages ("" for none).
fn quick_cases(
    system: System,
    positional: &'static str,
    flags: Vec<Flag>,
) -> anyhow::Result<Vec<Case>> {
    let entries = entries(flags, KeyStyle::Flag)?;
    let resolve = |chosen| {
        system.resolve(
            system
                .options(KeyStyle::Flag, chosen)
                .with_positional(positional),
        )
    };
    let compared = entries
        .iter()
        .any(|(_, item)| matches!(item.value, RawValue::Array(_)));
    if !compared {
        let spec = resolve(entries).map_err(|e| input_error(e.message))?;
        let name = default_case_name(spec.as_ref());
        return Ok(vec![Case { name, spec }]);
    }
    sweep_cases(system, None, &entries, resolve).map_err(|e| input_error(e.message))
}

/// Evaluates the quick cases into their report, side by side when there
/// are several.
pub(crate) fn quick_report(
    cases: &[Case],
    settings: &Settings,
    presentation: Presentation,
    cancel: &AtomicBool,
) -> anyhow::Result<Report> {
    let mut results = Vec::new();
    for case in cases {
        results.extend(evaluate_case(case, settings, cancel)?);
    }
    let report = Report {
        kind: ReportKind::Cases,
        name: cases[0].name.clone(),
        description: None,
        seed: settings.seed,
        trials: settings.trials,
        results,
        balances: Vec::new(),
        table: TableLayout::SideBySide,
        spilled_distributions: None,
        presentation,
    };
    Ok(report)
}
