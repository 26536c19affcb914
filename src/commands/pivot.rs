//! The grid flags of the quick commands and `run` (docs/reports.md, "Pivot
//! tables" and "Distribution views"): `--rows`, `--cols` and `--metric` as
//! a [`PivotSpec`] checked before anything is evaluated, `--view`, `--names`,
//! and `--paired`, which zips comma lists of the same length into one case
//! each instead of forming every combination (`--die d4,d6,d8 --threshold
//! 3,5,7 --paired` is three cases).

use super::output::{empty_item, Flag};
use crate::cli::{NamesArg, PivotArgs, ViewArg};
use crate::errors::{input_error, InputError};
use crate::options::OptionError;
use crate::options::{key_name, Entries, KeyStyle, RawItem, RawValue};
use crate::report::pivot::{self, Axis, Names, PivotSpec};
use crate::report::view::View;
use crate::report::Presentation;
use crate::scenario::sweep_cases;
use crate::systems::{Case, System, SystemCase};

/// The grid the flags ask for, if any, checked against `systems` (the
/// systems of the cases it will read).
pub fn spec(args: &PivotArgs, systems: &[System]) -> Result<Option<PivotSpec>, InputError> {
    let Some(rows) = &args.rows else {
        if args.cols.is_some() {
            return Err(InputError(
                "`--cols` needs `--rows KEY` as well: a grid has both".into(),
            ));
        }
        if !args.metrics.is_empty() {
            return Err(InputError(
                "`--metric` says what a grid's cells show; give `--rows KEY` (and `--cols KEY`) for the grid".into(),
            ));
        }
        return Ok(None);
    };
    let spec = PivotSpec::new(
        Axis::parse(rows),
        args.cols.as_deref().map(Axis::parse),
        args.metrics.iter().map(|m| m.trim().to_string()).collect(),
    );
    pivot::check(&spec, systems)?;
    Ok(Some(spec))
}

/// What people's outputs show: the grid, the view, the names.
pub fn presentation(
    spec: Option<PivotSpec>,
    args: &PivotArgs,
    view: Option<ViewArg>,
) -> Presentation {
    Presentation {
        names: match args.names {
            NamesArg::Words => Names::Words,
            NamesArg::Code => Names::Code,
        },
        tables: Vec::new(),
        pivot: spec,
        view: view.map(|v| match v {
            ViewArg::Exactly => View::Exactly,
            ViewArg::AtLeast => View::AtLeast,
            ViewArg::AtMost => View::AtMost,
        }),
    }
}

/// The cases of `--paired`: comma lists of the same length zipped, one
/// case per position, the groups of different lengths still forming a
/// product; a rows key and a cols key are never zipped together. Each
/// case is named as a sweep names its cases.
pub fn paired_cases(
    system: System,
    flags: Vec<Flag>,
    spec: Option<&PivotSpec>,
    resolve: impl Fn(Entries) -> Result<Box<dyn SystemCase>, OptionError>,
) -> anyhow::Result<Vec<Case>> {
    for (key, given) in &flags {
        if let Some(error) = empty_item(&key_name(key, KeyStyle::Flag), given) {
            return Err(error.into());
        }
    }
    let groups = groups(&flags, spec)?;
    let count: usize = groups.iter().map(|(_, len)| len).product();
    if count > crate::sweep::MAX_CASES {
        return Err(input_error(format!(
            "these lists make {count} cases; at most {} are allowed: give fewer values",
            crate::sweep::MAX_CASES
        )));
    }
    let mut cases: Vec<Case> = Vec::with_capacity(count);
    for index in 0..count {
        // The first group varies slowest, as a sweep's first key does.
        let mut rest = index;
        let mut position = vec![0; flags.len()];
        for (members, len) in groups.iter().rev() {
            for &m in members {
                position[m] = rest % len;
            }
            rest /= len;
        }
        let entries: Entries = flags
            .iter()
            .enumerate()
            .filter(|(_, (_, given))| !given.is_empty())
            .map(|(i, (key, given))| {
                let value = if given.len() == 1 {
                    given[0].clone()
                } else {
                    RawValue::Array(vec![RawItem::new(given[position[i]].clone())])
                };
                (key.to_string(), RawItem::new(value))
            })
            .collect();
        let mut case =
            sweep_cases(system, None, &entries, &resolve).map_err(|e| input_error(e.message))?;
        let case = case.remove(0);
        if cases.iter().any(|c| c.name == case.name) {
            return Err(input_error(format!(
                "the paired lists give the case \"{}\" twice; give each combination once",
                case.name
            )));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// Under `--paired`, a list zipped with a rows or cols key labels that
/// side too (`--die d4,d6 --threshold 3,5 --paired --rows die` gives rows
/// "d4, ..3" and "d6, ..5"), so a zipped value is never hidden.
pub fn widen_axes(spec: &mut PivotSpec, flags: &[Flag]) -> Result<(), InputError> {
    let groups = groups(flags, Some(&*spec))?;
    for axis in [Some(&mut spec.rows), spec.cols.as_mut()]
        .into_iter()
        .flatten()
    {
        let Axis::Keys(keys) = axis else {
            continue;
        };
        for (members, _) in &groups {
            if members
                .iter()
                .any(|&m| keys.iter().any(|k| k == flags[m].0))
            {
                for &m in members {
                    if !keys.iter().any(|k| k == flags[m].0) {
                        keys.push(flags[m].0.to_string());
                    }
                }
            }
        }
    }
    Ok(())
}

/// The zipped groups: each its flags (by index) and its length.
fn groups(
    flags: &[Flag],
    spec: Option<&PivotSpec>,
) -> Result<Vec<(Vec<usize>, usize)>, InputError> {
    let on = |axis: Option<&Axis>, key: &str| matches!(axis, Some(Axis::Keys(keys)) if keys.iter().any(|k| k == key));
    let rows = spec.map(|s| &s.rows);
    let cols = spec.and_then(|s| s.cols.as_ref());
    let lists: Vec<usize> = (0..flags.len()).filter(|&i| flags[i].1.len() > 1).collect();
    let mut groups: Vec<(Vec<usize>, usize)> = Vec::new();
    let axis_group = |axis: Option<&Axis>,
                      groups: &mut Vec<(Vec<usize>, usize)>|
     -> Result<Option<usize>, InputError> {
        let members: Vec<usize> = lists
            .iter()
            .copied()
            .filter(|&i| on(axis, flags[i].0))
            .collect();
        let Some(&first) = members.first() else {
            return Ok(None);
        };
        let len = flags[first].1.len();
        check_lengths(flags, &members, len)?;
        groups.push((members, len));
        Ok(Some(groups.len() - 1))
    };
    let row_group = axis_group(rows, &mut groups)?;
    let col_group = axis_group(cols, &mut groups)?;
    for &i in &lists {
        if on(rows, flags[i].0) || on(cols, flags[i].0) {
            continue;
        }
        let len = flags[i].1.len();
        let fits =
            |g: Option<usize>, groups: &Vec<(Vec<usize>, usize)>| g.filter(|&g| groups[g].1 == len);
        match (fits(row_group, &groups), fits(col_group, &groups)) {
            (Some(_), Some(_)) => {
                return Err(InputError(format!(
                    "with --paired, {} has as many values as both the rows and the columns; put it on one of them (`--cols {},{}`)",
                    key_name(flags[i].0, KeyStyle::Flag),
                    cols.map_or(String::new(), |c| match c {
                        Axis::Keys(keys) => keys.join(","),
                        Axis::Metric => String::new(),
                    }),
                    flags[i].0
                )))
            }
            (Some(g), None) | (None, Some(g)) => groups[g].0.push(i),
            (None, None) => match groups
                .iter_mut()
                .enumerate()
                .find(|(g, group)| Some(*g) != row_group && Some(*g) != col_group && group.1 == len)
            {
                Some((_, group)) => group.0.push(i),
                None => groups.push((vec![i], len)),
            },
        }
    }
    groups.sort_by_key(|(members, _)| members.iter().min().copied());
    Ok(groups)
}

/// Lists zipped together must have as many values each.
fn check_lengths(flags: &[Flag], members: &[usize], len: usize) -> Result<(), InputError> {
    match members.iter().find(|&&m| flags[m].1.len() != len) {
        Some(&m) => Err(InputError(format!(
            "with --paired, {} has {} values and {} has {len}; lists zipped together need as many values each",
            key_name(flags[m].0, KeyStyle::Flag),
            flags[m].1.len(),
            key_name(flags[members[0]].0, KeyStyle::Flag)
        ))),
        None => Ok(()),
    }
}
