//! `oddsmith balance POOL...` (SPEC 6): the flags are resolved like a
//! `[[balance]]` table, each rung evaluated as a case by the chosen
//! `--method` (auto: exactly wherever the exact engine can), and printed as
//! a report of balances alone.

use std::sync::atomic::AtomicBool;

use super::evaluate::{evaluate_case, Settings};
use super::output::{entries, print_report, roll_rule_flags};
use crate::balance::BalanceSpec;
use crate::cli::BalanceArgs;
use crate::errors::input_error;
use crate::options::{KeyStyle, RawItem, RawValue};
use crate::report::{MethodUsed, Report, ReportKind};
use crate::systems::Case;

/// A list flag as the array a scenario would hold.
fn string_list<'a>(items: impl Iterator<Item = &'a str>) -> RawValue {
    RawValue::Array(
        items
            .map(|s| RawItem::new(RawValue::Str(s.trim().to_string())))
            .collect(),
    )
}

/// Runs the `balance` command.
pub fn run(args: &BalanceArgs, cancel: &AtomicBool) -> anyhow::Result<()> {
    // `--ladder "2d6,3d8,"`: empty pieces (a trailing comma) are dropped;
    // nothing left is an empty ladder, refused by the balance itself.
    let ladder = args
        .ladder
        .as_ref()
        .map(|text| string_list(text.split(',').filter(|piece| !piece.trim().is_empty())));
    let mut flags = vec![
        (
            "pools",
            Some(string_list(args.pools.iter().map(String::as_str))),
        ),
        ("target", args.target.map(RawValue::Float)),
        ("target_heroic", args.target_heroic.map(RawValue::Float)),
        ("ladder", ladder),
    ];
    flags.extend(roll_rule_flags(&args.rules));
    let options = BalanceSpec::options(KeyStyle::Flag, entries(flags));
    let spec = BalanceSpec::from_options(options).map_err(|e| input_error(e.message))?;
    let settings = Settings::resolve(&args.common, None, None)?;
    let balances = spec.evaluate_with(|rung| {
        let case = Case {
            name: crate::scenario::default_case_name(rung),
            spec: Box::new(rung.clone()),
        };
        // With `--method both` the exact result answers.
        let mut results = evaluate_case(&case, &settings, cancel)?;
        let pick = results
            .iter()
            .position(|r| r.method == MethodUsed::Exact)
            .unwrap_or(0);
        anyhow::Ok(results.swap_remove(pick).evaluation.metrics)
    })?;
    let report = Report {
        kind: ReportKind::BalanceOnly,
        name: "balance".into(),
        description: None,
        seed: settings.seed,
        trials: settings.trials,
        results: Vec::new(),
        balances,
    };
    print_report(&report, args.common.format)
}
