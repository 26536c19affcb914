//! `oddsmith balance POOL...` (SPEC 6): the flags are resolved like a
//! `[[balance]]` table, answered exactly and printed as a report of
//! balances alone.

use super::evaluate::{DEFAULT_SEED, DEFAULT_TRIALS};
use super::output::{entries, print_report, roll_rule_flags};
use crate::balance::BalanceSpec;
use crate::cli::BalanceArgs;
use crate::errors::input_error;
use crate::options::{KeyStyle, RawItem, RawValue};
use crate::report::{Report, ReportKind};

/// A list flag as the array a scenario would hold.
fn string_list<'a>(items: impl Iterator<Item = &'a str>) -> RawValue {
    RawValue::Array(
        items
            .map(|s| RawItem::new(RawValue::Str(s.trim().to_string())))
            .collect(),
    )
}

/// Runs the `balance` command.
pub fn run(args: &BalanceArgs) -> anyhow::Result<()> {
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
    let report = Report {
        kind: ReportKind::BalanceOnly,
        name: "balance".into(),
        description: None,
        seed: DEFAULT_SEED,
        trials: DEFAULT_TRIALS,
        results: Vec::new(),
        balances: spec.evaluate()?,
    };
    print_report(&report, args.format)
}
