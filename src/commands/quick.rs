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
use super::output::{entries, print_report, roll_rule_flags, values, Flag};
use crate::cli::{AdvantageArgs, ConflictArgs, CortexArgs, SceneArgs, StorytellingArgs};
use crate::errors::input_error;
use crate::options::{key_value_pairs, KeyStyle, RawValue};
use crate::report::{Report, ReportKind, TableLayout};
use crate::scenario::{default_case_name, sweep_cases};
use crate::systems::storytelling::MAX_DICE;
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
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("pool", values(&comma_list(&args.pool), RawValue::Str)),
        ("vs", values(&args.vs, RawValue::Str)),
        ("difficulty", values(&args.difficulty, RawValue::Int)),
        (
            "effect_step_down",
            values(&args.effect_step_down, RawValue::Bool),
        ),
        ("policy", values(&args.policy, RawValue::Str)),
        ("plot_points", values(&args.plot_points, RawValue::Int)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(
        quick_cases(System::Cortex, "pool", flags)?,
        settings,
        cancel,
    )
}

/// `oddsmith scene POOL ...`
pub fn scene(args: &SceneArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("pool", values(&comma_list(&args.pool), RawValue::Str)),
        ("doom", values(&args.doom, RawValue::Str)),
        ("actions", values(&args.actions, RawValue::Int)),
        ("end_at_2d12", values(&args.end_at_2d12, RawValue::Bool)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(
        quick_cases(System::CortexScene, "pool", flags)?,
        settings,
        cancel,
    )
}

/// `oddsmith conflict HERO ...`
pub fn conflict(args: &ConflictArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("hero", values(&comma_list(&args.hero), RawValue::Str)),
        ("foe", values(&args.foe, RawValue::Str)),
        ("mob", values(&args.mob, RawValue::Str)),
        ("exchanges", values(&args.exchanges, RawValue::Int)),
        ("foe_acts", values(&args.foe_acts, RawValue::Bool)),
        (
            "hero_stress_limit",
            values(&args.hero_stress_limit, RawValue::Str),
        ),
        (
            "foe_stress_limit",
            values(&args.foe_stress_limit, RawValue::Str),
        ),
        (
            "effect_step_down",
            values(&args.effect_step_down, RawValue::Bool),
        ),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(
        quick_cases(System::CortexConflict, "hero", flags)?,
        settings,
        cancel,
    )
}

/// `oddsmith advantage ...`. `--gain-on` is a table flag, so its cases are
/// given by repeating it (`--gain-on miss=1 --gain-on miss=0`).
pub fn advantage(args: &AdvantageArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let gain_on = args
        .gain_on
        .iter()
        .map(|text| {
            key_value_pairs(
                text,
                "`--gain-on` takes tier=gain pairs separated by commas, such as miss=1,weak=0,strong=0 (repeat the flag to compare tables)",
            )
            .map_err(input_error)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let flags = vec![
        ("die", values(&args.die, RawValue::Str)),
        ("stat", values(&args.stat, RawValue::Int)),
        ("rolls", values(&args.rolls, RawValue::Int)),
        ("policy", values(&args.policy, RawValue::Str)),
        ("threshold", values(&args.threshold, RawValue::Int)),
        ("gain_on", gain_on),
        ("gain_chance", values(&args.gain_chance, RawValue::Float)),
        (
            "gm_reduce_chance",
            values(&args.gm_reduce_chance, RawValue::Float),
        ),
        ("miss_max", values(&args.miss_max, RawValue::Int)),
        ("strong_min", values(&args.strong_min, RawValue::Int)),
        ("on_use", values(&args.on_use, RawValue::Str)),
        ("counters", values(&args.counters, RawValue::Int)),
        ("party", values(&args.party, RawValue::Int)),
        ("share", values(&args.share, RawValue::Bool)),
    ];
    quick(quick_cases(System::Advantage, "", flags)?, settings, cancel)
}

/// `oddsmith storytelling DICE ...`. `DICE` is read here so a bad count is
/// named as the positional argument it is.
pub fn storytelling(args: &StorytellingArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let allowed =
        format!("DICE must be a whole number from 0 to {MAX_DICE} (the d10s before the modifier)");
    let dice = comma_list(&args.dice)
        .into_iter()
        .map(|text| match text.parse::<i64>() {
            Ok(n) if (0..=MAX_DICE).contains(&n) => Ok(RawValue::Int(n)),
            Ok(n) if n < 0 => Err(input_error(format!(
                "{allowed}, not {n}; a penalty goes in --modifier={n}"
            ))),
            _ => Err(input_error(format!("{allowed}, not \"{text}\""))),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let flags = vec![
        ("dice", dice),
        ("modifier", values(&args.modifier, RawValue::Int)),
        ("target", values(&args.target, RawValue::Int)),
        ("again", values(&args.again, RawValue::Int)),
        ("rote", values(&args.rote, RawValue::Bool)),
        ("need", values(&args.need, RawValue::Int)),
        ("exceptional", values(&args.exceptional, RawValue::Int)),
        (
            "chance_die_explodes",
            values(&args.chance_die_explodes, RawValue::Bool),
        ),
    ];
    quick(
        quick_cases(System::Storytelling, "dice", flags)?,
        settings,
        cancel,
    )
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

/// Evaluates the quick cases and prints them, side by side when there are several.
fn quick(cases: Vec<Case>, settings: Settings, cancel: &AtomicBool) -> anyhow::Result<()> {
    let mut results = Vec::new();
    for case in &cases {
        results.extend(evaluate_case(case, &settings, cancel)?);
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
    };
    print_report(&report, settings.format)
}
