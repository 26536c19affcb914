//! The quick commands (`cortex`, `scene`, `conflict`, `advantage`,
//! `storytelling`): one
//! case from flags, each flag turned into the scenario key of the same name
//! so the system validates it exactly as it would in a file, evaluated and
//! printed; no report folder.

use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_case, Settings};
use super::output::{entries, print_report, roll_rule_flags, Flag};
use crate::cli::{AdvantageArgs, ConflictArgs, CortexArgs, SceneArgs, StorytellingArgs};
use crate::errors::input_error;
use crate::options::{key_value_pairs, KeyStyle, RawValue};
use crate::report::{Report, ReportKind};
use crate::scenario::default_case_name;
use crate::systems::storytelling::MAX_DICE;
use crate::systems::{Case, System};

/// `oddsmith cortex POOL ...`
pub fn cortex(args: &CortexArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("pool", Some(RawValue::Str(args.pool.clone()))),
        ("vs", args.vs.clone().map(RawValue::Str)),
        ("difficulty", args.difficulty.map(RawValue::Int)),
        (
            "effect_step_down",
            args.effect_step_down.map(RawValue::Bool),
        ),
        ("policy", args.policy.clone().map(RawValue::Str)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(quick_case(System::Cortex, flags)?, settings, cancel)
}

/// `oddsmith scene POOL ...`
pub fn scene(args: &SceneArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("pool", Some(RawValue::Str(args.pool.clone()))),
        ("doom", args.doom.clone().map(RawValue::Str)),
        ("actions", args.actions.map(RawValue::Int)),
        ("end_at_2d12", args.end_at_2d12.map(RawValue::Bool)),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(quick_case(System::CortexScene, flags)?, settings, cancel)
}

/// `oddsmith conflict HERO ...`
pub fn conflict(args: &ConflictArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let mut flags = vec![
        ("hero", Some(RawValue::Str(args.hero.clone()))),
        ("foe", args.foe.clone().map(RawValue::Str)),
        ("mob", args.mob.clone().map(RawValue::Str)),
        ("exchanges", args.exchanges.map(RawValue::Int)),
        ("foe_acts", args.foe_acts.map(RawValue::Bool)),
        (
            "hero_stress_limit",
            args.hero_stress_limit.clone().map(RawValue::Str),
        ),
        (
            "foe_stress_limit",
            args.foe_stress_limit.clone().map(RawValue::Str),
        ),
        (
            "effect_step_down",
            args.effect_step_down.map(RawValue::Bool),
        ),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    quick(quick_case(System::CortexConflict, flags)?, settings, cancel)
}

/// `oddsmith advantage ...`
pub fn advantage(args: &AdvantageArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let gain_on = match &args.gain_on {
        Some(text) => Some(
            key_value_pairs(
                text,
                "`--gain-on` takes tier=gain pairs separated by commas, such as miss=1,weak=0,strong=0",
            )
            .map_err(input_error)?,
        ),
        None => None,
    };
    let flags = vec![
        ("die", args.die.clone().map(RawValue::Str)),
        ("stat", args.stat.map(RawValue::Int)),
        ("rolls", args.rolls.map(RawValue::Int)),
        ("policy", args.policy.clone().map(RawValue::Str)),
        ("threshold", args.threshold.map(RawValue::Int)),
        ("gain_on", gain_on),
        ("gain_chance", args.gain_chance.map(RawValue::Float)),
        (
            "gm_reduce_chance",
            args.gm_reduce_chance.map(RawValue::Float),
        ),
        ("miss_max", args.miss_max.map(RawValue::Int)),
        ("strong_min", args.strong_min.map(RawValue::Int)),
        ("on_use", args.on_use.clone().map(RawValue::Str)),
        ("counters", args.counters.map(RawValue::Int)),
        ("party", args.party.map(RawValue::Int)),
        ("share", args.share.map(RawValue::Bool)),
    ];
    quick(quick_case(System::Advantage, flags)?, settings, cancel)
}

/// `oddsmith storytelling DICE ...`. `DICE` is read here so a bad count is
/// named as the positional argument it is.
pub fn storytelling(args: &StorytellingArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    let settings = Settings::resolve(&args.common, None, None)?;
    let allowed =
        format!("DICE must be a whole number from 0 to {MAX_DICE} (the d10s before the modifier)");
    let dice = match args.dice.trim().parse::<i64>() {
        Ok(n) if (0..=MAX_DICE).contains(&n) => n,
        Ok(n) if n < 0 => {
            return Err(input_error(format!(
                "{allowed}, not {n}; a penalty goes in --modifier={n}"
            )))
        }
        _ => return Err(input_error(format!("{allowed}, not \"{}\"", args.dice))),
    };
    let flags = vec![
        ("dice", Some(RawValue::Int(dice))),
        ("modifier", args.modifier.map(RawValue::Int)),
        ("target", args.target.map(RawValue::Int)),
        ("again", args.again.map(RawValue::Int)),
        ("rote", args.rote.map(RawValue::Bool)),
        ("need", args.need.map(RawValue::Int)),
        ("exceptional", args.exceptional.map(RawValue::Int)),
        (
            "chance_die_explodes",
            args.chance_die_explodes.map(RawValue::Bool),
        ),
    ];
    quick(quick_case(System::Storytelling, flags)?, settings, cancel)
}

/// A quick command's single case, named from its main inputs as an unnamed
/// scenario case would be.
fn quick_case(system: System, flags: Vec<Flag>) -> anyhow::Result<Case> {
    let options = system.options(KeyStyle::Flag, entries(flags));
    let spec = system
        .resolve(options)
        .map_err(|e| input_error(e.message))?;
    let name = default_case_name(spec.as_ref());
    Ok(Case { name, spec })
}

/// Evaluates one quick case and prints it.
fn quick(case: Case, settings: Settings, cancel: &AtomicBool) -> anyhow::Result<()> {
    let results = evaluate_case(&case, &settings, cancel)?;
    let report = Report {
        kind: ReportKind::Cases,
        name: case.name.clone(),
        description: None,
        seed: settings.seed,
        trials: settings.trials,
        results,
        balances: Vec::new(),
    };
    print_report(&report, settings.format)
}
