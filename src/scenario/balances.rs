//! The last phase of reading a scenario: its `[[balance]]` tables
//! (docs/cortex.md), each a doom-pool ladder or a general balance, every
//! rung a case resolved like a `[[case]]`.

use super::cases::with_defaults;
use super::reader::Reader;
use super::top_level::Tables;
use crate::balance::general::GeneralSpec;
use crate::balance::{self, BalanceQuestion, BalanceSpec};
use crate::errors::InputError;
use crate::options::{Entries, KeyStyle, Pos, RawItem};
use crate::systems::System;

/// Every balance table's questions, numbered from 1 in file order; their
/// rungs and the scenario's `cases` count against the case cap, each
/// table's before its rungs are resolved.
pub(super) fn resolve(
    reader: &Reader<'_>,
    defaults: &[(System, Entries)],
    balance_tables: Tables,
    cases: usize,
) -> Result<Vec<BalanceQuestion>, InputError> {
    let mut balances = Vec::new();
    let mut counted = cases;
    for (index, (entries, at)) in balance_tables.into_iter().enumerate() {
        let table = index + 1;
        if balance::general::is_general(&entries) {
            let questions = general_balance(reader, defaults, entries, at, table, &mut counted)?;
            balances.extend(questions);
            continue;
        }
        // A balance's opposed rolls follow the scenario's [cortex] roll rules.
        let mut all: Vec<(String, RawItem)> = defaults
            .iter()
            .filter(|(table, _)| *table == System::Cortex)
            .flat_map(|(_, table)| table.iter())
            .filter(|(k, _)| balance::RULE_KEYS.iter().any(|rule| rule.name == k))
            .cloned()
            .collect();
        all.extend(entries);
        let mut options = BalanceSpec::options(KeyStyle::Toml, all);
        options.case_at = at;
        let spec = BalanceSpec::from_options(options).map_err(|e| reader.error(e.at.or(at), e))?;
        counted = balance::count_rungs(counted, spec.rungs()).map_err(|e| reader.error(at, e))?;
        balances.extend(spec.questions(table));
    }
    Ok(balances)
}

/// A general `[[balance]]` (docs/cortex.md): its own keys, then its `case` table
/// of fixed keys, each rung resolved over the defaults tables its system
/// reads, like a `[[case]]`.
fn general_balance(
    reader: &Reader<'_>,
    defaults: &[(System, Entries)],
    entries: Entries,
    at: Option<Pos>,
    table: usize,
    counted: &mut usize,
) -> Result<Vec<BalanceQuestion>, InputError> {
    let located = |e: crate::options::OptionError| reader.error(e.at.or(at), e);
    let mut options = BalanceSpec::options(KeyStyle::Toml, entries);
    options.case_at = at;
    let spec = GeneralSpec::from_options(&mut options).map_err(located)?;
    let fixed = match options.table("case").map_err(located)? {
        Some((fixed, _)) => fixed,
        None => Vec::new(),
    };
    *counted =
        balance::count_rungs(*counted, spec.rungs(&fixed)).map_err(|e| reader.error(at, e))?;
    let system = spec.system;
    let resolve = |entries: Entries| system.resolve(with_defaults(defaults, system, entries, at));
    let questions = spec
        .questions(&options, &fixed, table, &resolve)
        .map_err(located)?;
    options.finish().map_err(|mut e| {
        e.message = e
            .message
            .replace("for system \"balance\"", "in a [[balance]] table");
        located(e)
    })?;
    Ok(questions)
}
