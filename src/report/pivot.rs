//! Pivot tables (docs/reports.md, "Pivot tables"): one grid of evaluated
//! cases, its rows labelled with one key's values (or several keys'
//! together, `again` and `rote`), its columns with another's, each cell one
//! measure of the case at that row and column. A measure is a metric
//! (`p_success`) or a tail of an ordered distribution variable
//! (`successes>=2`, `successes<=1`, `successes=3`), so "at least 2
//! successes" is a column even where no metric names it.
//!
//! [`grids`] is the library's one entry: from evaluated results and a
//! [`PivotSpec`] to [`Grid`]s, which [`super::grid`] writes as the aligned
//! table, Markdown, CSV and the pages' documents. The quick commands, `run`,
//! a scenario's `[[table]]`s and the web calculator all go through it, so a
//! grid is laid out one way.

use serde_json::Value as Json;

use super::chart::labels;
use super::document::method_phrase;
use super::measure::check_measure;
pub use super::measure::{tail_value, Measure, Names, Tail};
use super::CaseResult;
use crate::errors::InputError;
use crate::options::{allowed, did_you_mean, Phrase, Shown};
use crate::systems::metrics::MetricKind;
use crate::systems::System;

/// What labels one side of a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Axis {
    /// The values of these keys, taken together (`again` and `rote` give
    /// "10-again", "10-again, rote action").
    Keys(Vec<String>),
    /// One row (or column) per measure.
    Metric,
}

/// The word that puts the measures on an axis (`--cols metric`).
pub const METRIC_AXIS: &str = "metric";

impl Axis {
    /// An axis as written: `metric`, or keys separated by commas or `+`.
    pub fn parse(text: &str) -> Axis {
        if text.trim() == METRIC_AXIS {
            return Axis::Metric;
        }
        Axis::Keys(
            text.split([',', '+'])
                .map(|k| k.trim().replace('-', "_"))
                .filter(|k| !k.is_empty())
                .collect(),
        )
    }

    fn keys(&self) -> &[String] {
        match self {
            Axis::Keys(keys) => keys,
            Axis::Metric => &[],
        }
    }
}

/// One grid (or a grid per measure) asked for: by `--rows`, `--cols` and
/// `--metric`, or by a scenario's `[[table]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PivotSpec {
    /// The heading; by default the measure's phrase.
    pub title: Option<String>,
    pub rows: Axis,
    /// `None`: a column per measure.
    pub cols: Option<Axis>,
    /// Measures as written (`p_success`, `successes>=2`); none: the
    /// system's headline metric.
    pub metrics: Vec<String>,
    /// Only the cases whose inputs hold these values (a `[[table]]`'s `where`).
    pub filter: Vec<(String, Json)>,
}

impl PivotSpec {
    /// A grid of `rows` by `cols` of the cases' `metrics`.
    pub fn new(rows: Axis, cols: Option<Axis>, metrics: Vec<String>) -> PivotSpec {
        PivotSpec {
            title: None,
            rows,
            cols,
            metrics,
            filter: Vec::new(),
        }
    }

    /// The keys its axes name.
    pub fn axis_keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self.rows.keys().iter().map(String::as_str).collect();
        if let Some(cols) = &self.cols {
            keys.extend(cols.keys().iter().map(String::as_str));
        }
        keys
    }
}

/// One cell's number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub value: f64,
    pub kind: MetricKind,
}

/// A row of a grid: its labels (words and code) and a cell per column;
/// `None` where the case is missing, the measure is undefined or cannot
/// apply (a chance die's dramatic failure in a pool of 5).
#[derive(Debug, Clone, PartialEq)]
pub struct GridRow {
    pub label: String,
    pub code: String,
    pub cells: Vec<Option<Cell>>,
}

/// One grid, ready for the writers ([`super::grid`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub title: String,
    /// What every case of the grid shares, said once above it.
    pub notes: Vec<String>,
    /// The measure every cell shows (code name), when one is.
    pub metric: Option<String>,
    /// What the row labels name ("number of dice"), in words and code.
    pub corner: String,
    pub corner_code: String,
    pub columns: Vec<String>,
    pub column_codes: Vec<String>,
    pub rows: Vec<GridRow>,
}

/// A point of an axis: the values of its keys in one case.
type Point = Vec<Json>;

/// The grids `spec` asks of `results` (one per measure, unless an axis is
/// the measures), or why they cannot be made: a key the cases lack, a
/// measure they do not compute, two different cases in one cell.
pub fn grids(
    results: &[CaseResult],
    spec: &PivotSpec,
    names: Names,
) -> Result<Vec<Grid>, InputError> {
    let Some(system) = grid_system(results, spec)? else {
        return Ok(Vec::new());
    };
    let chosen = chosen_results(results, system, spec);
    let measures = measures(&chosen, system, spec)?;
    let row_keys = spec.rows.keys().to_vec();
    let col_keys = spec.cols.as_ref().map_or(Vec::new(), |c| c.keys().to_vec());
    let rows = points(&chosen, &row_keys);
    let cols = points(&chosen, &col_keys);
    let cell_case = cell_cases(&chosen, &row_keys, &col_keys, &rows, &cols, names)?;
    let notes = shared_notes(&chosen, system, &spec.axis_keys(), names);
    let row_labels: Vec<(String, String)> = rows
        .iter()
        .map(|p| point_label(&row_keys, p, names))
        .collect();
    let col_labels: Vec<(String, String)> = cols
        .iter()
        .map(|p| point_label(&col_keys, p, names))
        .collect();
    let corner = |keys: &[String]| -> (String, String) {
        match names {
            Names::Words => (axis_noun(keys), keys.join(" ")),
            Names::Code => (keys.join(", "), keys.join(" ")),
        }
    };
    let value = |r: usize, c: usize, m: &Measure| -> Option<Cell> {
        let result = cell_case[r * cols.len() + c]?;
        measure_value(chosen[result], system, m)
    };
    let mut out = Vec::new();
    match (&spec.rows, spec.cols.as_ref()) {
        (Axis::Metric, Some(Axis::Keys(_))) => {
            // A row per measure, a column per point of the column keys; the
            // row keys are none, so every case is in row 0.
            let grid_rows = measures
                .iter()
                .map(|m| GridRow {
                    label: m.label(names),
                    code: m.code(),
                    cells: (0..cols.len()).map(|c| value(0, c, m)).collect(),
                })
                .collect();
            let (corner_words, corner_code) = corner(&col_keys);
            out.push(Grid {
                title: spec.title.clone().unwrap_or_else(|| format!("by {corner_words}")),
                notes,
                metric: None,
                corner: METRIC_AXIS.into(),
                corner_code: METRIC_AXIS.into(),
                columns: col_labels.iter().map(|l| l.0.clone()).collect(),
                column_codes: col_labels.iter().map(|l| l.1.clone()).collect(),
                rows: grid_rows,
            });
            let _ = corner_code;
        }
        (Axis::Keys(_), None | Some(Axis::Metric)) => {
            let (corner_words, corner_code) = corner(&row_keys);
            let what = match measures.as_slice() {
                [one] => format!("{} ", one.label(names)),
                _ => String::new(),
            };
            let grid_rows = rows
                .iter()
                .enumerate()
                .map(|(r, _)| GridRow {
                    label: row_labels[r].0.clone(),
                    code: row_labels[r].1.clone(),
                    cells: measures.iter().map(|m| value(r, 0, m)).collect(),
                })
                .collect();
            out.push(Grid {
                title: spec.title.clone().unwrap_or_else(|| format!("{what}by {corner_words}")),
                notes,
                metric: None,
                corner: corner_words,
                corner_code,
                columns: measures.iter().map(|m| m.label(names)).collect(),
                column_codes: measures.iter().map(Measure::code).collect(),
                rows: grid_rows,
            });
        }
        (Axis::Keys(_), Some(Axis::Keys(_))) => {
            let (corner_words, corner_code) = corner(&row_keys);
            let (col_words, _) = corner(&col_keys);
            for m in &measures {
                let grid_rows = rows
                    .iter()
                    .enumerate()
                    .map(|(r, _)| GridRow {
                        label: row_labels[r].0.clone(),
                        code: row_labels[r].1.clone(),
                        cells: (0..cols.len()).map(|c| value(r, c, m)).collect(),
                    })
                    .collect();
                let title = match (&spec.title, measures.len()) {
                    (Some(t), 1) => t.clone(),
                    (Some(t), _) => format!("{t}: {}", m.label(names)),
                    (None, _) => format!("{} by {corner_words} and {col_words}", m.label(names)),
                };
                out.push(Grid {
                    title,
                    notes: notes.clone(),
                    metric: Some(m.code()),
                    corner: corner_words.clone(),
                    corner_code: corner_code.clone(),
                    columns: col_labels.iter().map(|l| l.0.clone()).collect(),
                    column_codes: col_labels.iter().map(|l| l.1.clone()).collect(),
                    rows: grid_rows,
                });
            }
        }
        (Axis::Metric, _) => {
            return Err(InputError(
                "`--rows metric` needs `--cols KEY`: the measures take one side, a key's values the other"
                    .into(),
            ))
        }
    }
    Ok(out)
}

/// Checks `spec` before anything is evaluated, against the systems of the
/// cases it will read: its axis keys and its measures as the systems
/// declare them, so a typo costs no run.
pub fn check(spec: &PivotSpec, systems: &[System]) -> Result<(), InputError> {
    let keys = spec.axis_keys();
    let Some(system) = systems
        .iter()
        .copied()
        .find(|s| keys.iter().all(|k| s.key_def(k).is_some()))
    else {
        let Some(&first) = systems.first() else {
            return Ok(());
        };
        let bad = keys
            .iter()
            .find(|k| first.key_def(k).is_none())
            .copied()
            .unwrap_or_default();
        return Err(axis_key_error(first, bad));
    };
    if matches!(spec.rows, Axis::Metric) && !matches!(spec.cols, Some(Axis::Keys(_))) {
        return Err(InputError(
            "`--rows metric` needs `--cols KEY`: the measures take one side, a key's values the other".into(),
        ));
    }
    if let Axis::Keys(keys) = &spec.rows {
        if keys.is_empty() {
            return Err(InputError(
                "`--rows` names no key; give a key such as `--rows dice`".into(),
            ));
        }
    }
    let declared: Vec<&str> = system.declared().metrics.iter().map(|d| d.name).collect();
    for text in &spec.metrics {
        let measure = Measure::parse(text);
        if let Measure::Metric(name) = &measure {
            if system.declared().describe(name).is_some() {
                continue;
            }
        }
        check_measure(&measure, text, system, &declared)?;
    }
    Ok(())
}

/// The system whose cases the grid shows: the first (in the report's
/// order) that has every key the axes name. An axis key no system of
/// the results has is an error naming the keys allowed.
fn grid_system(results: &[CaseResult], spec: &PivotSpec) -> Result<Option<System>, InputError> {
    let mut systems: Vec<System> = Vec::new();
    for r in results {
        if !systems.contains(&r.system) {
            systems.push(r.system);
        }
    }
    let keys = spec.axis_keys();
    if let Some(system) = systems
        .iter()
        .copied()
        .find(|s| keys.iter().all(|k| s.key_def(k).is_some()))
    {
        return Ok(Some(system));
    }
    let Some(&first) = systems.first() else {
        return Ok(None);
    };
    let bad = keys
        .iter()
        .find(|k| first.key_def(k).is_none())
        .copied()
        .unwrap_or_default();
    Err(axis_key_error(first, bad))
}

/// "`--rows dise` is no key of storytelling cases (did you mean `dice`?); allowed: ..."
pub fn axis_key_error(system: System, key: &str) -> InputError {
    let mut keys: Vec<&str> = system.keys().to_vec();
    keys.push(METRIC_AXIS);
    InputError(format!(
        "`{key}` is no key of {} cases{}; rows and columns take a key or `metric`: {}",
        system.name(),
        did_you_mean(key, keys.iter().copied()),
        allowed(keys)
    ))
}

/// The results a grid shows: of `system`, passing the filter, one per case
/// (the first method's, so `--method both` is read once).
fn chosen_results<'a>(
    results: &'a [CaseResult],
    system: System,
    spec: &PivotSpec,
) -> Vec<&'a CaseResult> {
    let mut chosen: Vec<&CaseResult> = Vec::new();
    for r in results.iter().filter(|r| r.system == system) {
        // A switch a case does not have is off (rote for a chance die).
        let passes = spec.filter.iter().all(|(k, v)| match r.inputs.get(k) {
            Some(value) => value == v,
            None => is_switch(k) && *v == Json::Bool(false),
        });
        if passes && !chosen.iter().any(|c| c.case == r.case) {
            chosen.push(r);
        }
    }
    chosen
}

/// The measures asked for, checked against what the cases compute: a
/// metric some case reports, or a tail of an ordered variable the system
/// declares. None asked: the system's first headline metric the cases have.
fn measures(
    chosen: &[&CaseResult],
    system: System,
    spec: &PivotSpec,
) -> Result<Vec<Measure>, InputError> {
    let computed: Vec<&str> = {
        let mut names: Vec<&str> = Vec::new();
        for r in chosen {
            for name in r.metrics.names() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    };
    if spec.metrics.is_empty() {
        let headline = system
            .headline_metrics()
            .iter()
            .find(|d| computed.contains(&d.name))
            .map_or_else(
                || computed.first().copied().unwrap_or("p_success"),
                |d| d.name,
            );
        return Ok(vec![Measure::Metric(headline.to_string())]);
    }
    spec.metrics
        .iter()
        .map(|text| {
            let measure = Measure::parse(text);
            check_measure(&measure, text, system, &computed)?;
            Ok(measure)
        })
        .collect()
}

/// The distinct points of `keys` over the cases: a single whole-number
/// key in ascending order, anything else in the order first met. A switch
/// a case does not have (rote for a chance die) is no point of its own: the
/// case fills every point it fits ([`fits`]).
fn points(chosen: &[&CaseResult], keys: &[String]) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    let wild = |p: &Point| keys.iter().zip(p).any(|(k, v)| v.is_null() && is_switch(k));
    let all_wild = chosen.iter().all(|r| wild(&point_of(r, keys)));
    for r in chosen {
        let point = point_of(r, keys);
        if (all_wild || !wild(&point)) && !points.contains(&point) {
            points.push(point);
        }
    }
    if keys.len() == 1 && points.iter().all(|p| p[0].is_i64()) {
        points.sort_by_key(|p| p[0].as_i64());
    }
    points
}

/// Whether `key` is a switch, which a case that lacks it fits either way.
fn is_switch(key: &str) -> bool {
    crate::systems::key_defs_named(key)
        .first()
        .is_some_and(|d| matches!(d.kind, crate::options::Kind::Bool))
}

/// Whether a case's values `case` fit the axis point `point`.
fn fits(keys: &[String], point: &Point, case: &Point) -> bool {
    keys.iter()
        .zip(point.iter().zip(case))
        .all(|(k, (p, c))| p == c || (c.is_null() && is_switch(k)))
}

/// The values of `keys` in a case (`null` for one it does not have).
fn point_of(r: &CaseResult, keys: &[String]) -> Point {
    keys.iter()
        .map(|k| r.inputs.get(k).cloned().unwrap_or(Json::Null))
        .collect()
}

/// Which case fills each cell (row-major), or the two cases that would
/// share one, said with the keys that tell them apart.
fn cell_cases(
    chosen: &[&CaseResult],
    row_keys: &[String],
    col_keys: &[String],
    rows: &[Point],
    cols: &[Point],
    names: Names,
) -> Result<Vec<Option<usize>>, InputError> {
    let mut cells: Vec<Option<usize>> = vec![None; rows.len() * cols.len().max(1)];
    let width = cols.len().max(1);
    for (i, r) in chosen.iter().enumerate() {
        let (row_point, col_point) = (point_of(r, row_keys), point_of(r, col_keys));
        let at: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, p)| fits(row_keys, p, &row_point))
            .flat_map(|(row, _)| {
                cols.iter()
                    .enumerate()
                    .filter(|(_, p)| fits(col_keys, p, &col_point))
                    .map(move |(col, _)| row * width + col)
            })
            .collect();
        let at = if cols.is_empty() {
            rows.iter()
                .position(|p| fits(row_keys, p, &row_point))
                .into_iter()
                .collect()
        } else {
            at
        };
        for at in at {
            match cells[at] {
                None => cells[at] = Some(i),
                // The same case twice (a `[[case]]` a sweep repeats) fills it once.
                Some(first) if chosen[first].inputs == r.inputs => {}
                Some(first) => {
                    let differ: Vec<&String> = r
                        .inputs
                        .keys()
                        .chain(chosen[first].inputs.keys())
                        .filter(|k| r.inputs.get(*k) != chosen[first].inputs.get(*k))
                        .collect();
                    let mut differ: Vec<&str> = differ.iter().map(|k| k.as_str()).collect();
                    differ.dedup();
                    let _ = names;
                    return Err(InputError(format!(
                    "the cases \"{}\" and \"{}\" fall in the same cell; they differ in {}: put it on the rows or the columns (`--cols {}` or a `[[table]]`'s `where`)",
                    chosen[first].case,
                    r.case,
                    differ.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "),
                    col_keys
                        .iter()
                        .map(String::as_str)
                        .chain(differ.first().copied())
                        .collect::<Vec<_>>()
                        .join(",")
                )));
                }
            }
        }
    }
    Ok(cells)
}

/// A cell's number, `None` when the case lacks it, it is undefined or it
/// cannot apply to the case.
fn measure_value(r: &CaseResult, system: System, m: &Measure) -> Option<Cell> {
    let kind = m.kind();
    let value = match m {
        Measure::Metric(name) => {
            if !crate::systems::applies::metric_applies(system, name, &r.inputs) {
                return None;
            }
            r.value(name)?
        }
        Measure::Tail { variable, tail, n } => tail_value(&r.rows, variable, *tail, *n)?,
    };
    Some(Cell { value, kind })
}

/// What every case of a grid shares, besides the axes: the method, and
/// each input at one value, in words ("a die succeeds on 8+") or code.
fn shared_notes(
    chosen: &[&CaseResult],
    _system: System,
    axis_keys: &[&str],
    names: Names,
) -> Vec<String> {
    let Some(first) = chosen.first() else {
        return Vec::new();
    };
    let shared: Vec<String> = first
        .inputs
        .iter()
        .filter(|(k, _)| !axis_keys.contains(&k.as_str()))
        .filter(|(k, v)| chosen.iter().all(|r| r.inputs.get(*k) == Some(v)))
        .map(|(k, v)| match names {
            Names::Words => labels::phrase(k, v),
            Names::Code => format!("{k} = {}", super::chart::input_text(v)),
        })
        .collect();
    let mut notes = Vec::new();
    if !shared.is_empty() {
        notes.push(format!("Every case: {}.", shared.join("; ")));
    }
    let methods: Vec<String> = {
        let mut m: Vec<String> = chosen.iter().map(|r| method_phrase(r)).collect();
        m.dedup();
        m
    };
    if methods.len() == 1 {
        notes.push(format!("Computed {}.", methods[0]));
    }
    notes
}

/// An axis's name in words: the keys' nouns ("number of dice", "again, rote").
fn axis_noun(keys: &[String]) -> String {
    keys.iter()
        .map(|k| labels::key_noun(k))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A point's label in words and in code: a key whose words only wrap the
/// value ("hero pool {}", "{} dice") shows the value (the corner names the
/// key); any other its phrase ("10-again", "rote action"). Of several keys,
/// a switch that is off is left out ("10-again", "10-again, rote action").
fn point_label(keys: &[String], point: &Point, names: Names) -> (String, String) {
    if keys.is_empty() {
        return (String::new(), String::new());
    }
    let code = if keys.len() == 1 {
        super::chart::input_text(&point[0])
    } else {
        keys.iter()
            .zip(point)
            .map(|(k, v)| format!("{k}={}", super::chart::input_text(v)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if names == Names::Code {
        return (code.clone(), code);
    }
    let parts: Vec<String> = keys
        .iter()
        .zip(point)
        .filter(|(_, v)| keys.len() == 1 || *v != &Json::Bool(false))
        .map(|(k, v)| value_words(k, v))
        .collect();
    let words = if parts.is_empty() {
        value_words(&keys[0], &point[0])
    } else {
        parts.join(", ")
    };
    (words, code)
}

/// A key's value as a grid's label shows it.
fn value_words(key: &str, value: &Json) -> String {
    if value.is_null() {
        return "none".into();
    }
    let def = crate::systems::key_defs_named(key).into_iter().next();
    match def.map(|d| d.phrase) {
        Some(Phrase::Value(_, Shown::Plain | Shown::Count(..))) => labels::value_text(value),
        Some(Phrase::Value(_, Shown::Signed)) => match value.as_f64() {
            Some(v) if v > 0.0 => format!("+{}", labels::value_text(value)),
            _ => labels::value_text(value),
        },
        _ => labels::phrase(key, value),
    }
}

#[cfg(test)]
#[path = "pivot_tests.rs"]
mod tests;
