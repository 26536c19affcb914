//! Distribution views (`--view exactly | at-least | at-most`,
//! docs/reports.md): every distribution variable of the cases (totals,
//! margins, successes, exchanges to take-out, plot points, ...) as a
//! [`Grid`] with its outcomes as rows and the cases as columns, each cell
//! P(outcome), P(at least the outcome) or P(at most it), AnyDice's three
//! views. "At least" and "at most" are over the whole-number outcomes only
//! (a conflict's `never` is neither), each tail summed from its nearer end
//! as the `at_least` column of distributions.csv is.

use super::pivot::{tail_value, Cell, Grid, GridRow, Names, Tail};
use super::CaseResult;
use crate::systems::metrics::MetricKind;

/// Which of the three views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Exactly,
    AtLeast,
    AtMost,
}

impl View {
    /// The view as `--view` writes it.
    pub fn name(self) -> &'static str {
        match self {
            View::Exactly => "exactly",
            View::AtLeast => "at-least",
            View::AtMost => "at-most",
        }
    }

    fn tail(self) -> Tail {
        match self {
            View::Exactly => Tail::Exactly,
            View::AtLeast => Tail::AtLeast,
            View::AtMost => Tail::AtMost,
        }
    }
}

/// One grid per distribution variable the cases have (in the order first
/// met), a column per case. At least and at most leave out variables
/// without whole-number outcomes (a die name, a tier).
/// With `trim`, the long tail where every case reads under 0.01 % (at
/// most: within 0.01 % of its last value) is cut after its first row and said in a note; CSV
/// keeps every row.
pub fn grids(results: &[CaseResult], view: View, names: Names, trim: bool) -> Vec<Grid> {
    let mut chosen: Vec<&CaseResult> = Vec::new();
    for r in results {
        if !chosen.iter().any(|c| c.case == r.case) {
            chosen.push(r);
        }
    }
    let mut variables: Vec<&str> = Vec::new();
    for r in &chosen {
        for row in &r.rows {
            if !variables.contains(&row.variable.as_str()) {
                variables.push(&row.variable);
            }
        }
    }
    variables
        .into_iter()
        .filter_map(|variable| grid(&chosen, variable, view, names, trim))
        .collect()
}

/// The grid of one variable, `None` when the view does not apply to it.
fn grid(
    chosen: &[&CaseResult],
    variable: &str,
    view: View,
    names: Names,
    trim: bool,
) -> Option<Grid> {
    // Whole-number outcomes in ascending order, then the others as met.
    let mut numeric: Vec<i64> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    for r in chosen {
        for row in r.rows.iter().filter(|row| row.variable == variable) {
            match row.outcome.parse::<i64>() {
                Ok(n) if !numeric.contains(&n) => numeric.push(n),
                Ok(_) => {}
                Err(_) if !other.contains(&row.outcome.as_str()) => other.push(&row.outcome),
                Err(_) => {}
            }
        }
    }
    numeric.sort_unstable();
    if view != View::Exactly && numeric.is_empty() {
        return None;
    }
    let has = |r: &CaseResult| r.rows.iter().any(|row| row.variable == variable);
    let cell = |value: Option<f64>| {
        value.map(|value| Cell {
            value,
            kind: MetricKind::Probability,
        })
    };
    let mut rows: Vec<GridRow> = numeric
        .iter()
        .map(|&n| GridRow {
            label: n.to_string(),
            code: n.to_string(),
            cells: chosen
                .iter()
                .map(|r| cell(tail_value(&r.rows, variable, view.tail(), n).filter(|_| has(r))))
                .collect(),
        })
        .collect();
    if view == View::Exactly {
        rows.extend(other.iter().map(|&outcome| {
            GridRow {
                label: outcome.to_string(),
                code: outcome.to_string(),
                cells: chosen
                    .iter()
                    .map(|r| {
                        let p = r
                            .rows
                            .iter()
                            .filter(|row| row.variable == variable && row.outcome == outcome)
                            .map(|row| row.probability)
                            .sum::<f64>();
                        cell(has(r).then_some(p))
                    })
                    .collect(),
            }
        }));
    }
    let notes = if trim {
        trim_tail(&mut rows, view)
    } else {
        Vec::new()
    };
    let words = variable.replace('_', " ");
    let title = match names {
        Names::Words => format!("{words}: {}", view.name().replace('-', " ")),
        Names::Code => format!("{variable} ({})", view.name()),
    };
    Some(Grid {
        title,
        notes,
        metric: Some(format!("{variable}:{}", view.name())),
        corner: match names {
            Names::Words => words,
            Names::Code => variable.to_string(),
        },
        corner_code: variable.to_string(),
        columns: chosen.iter().map(|r| r.case.clone()).collect(),
        column_codes: chosen.iter().map(|r| r.case.clone()).collect(),
        rows,
    })
}

/// Below this a grid reads "< 0.01 %".
const NEGLIGIBLE: f64 = 0.00005;

/// Cuts the whole-number rows past the first of a final run in which
/// every case is negligible (near 1 for at most), and says so.
fn trim_tail(rows: &mut Vec<GridRow>, view: View) -> Vec<String> {
    let numeric = rows
        .iter()
        .take_while(|r| r.code.parse::<i64>().is_ok())
        .count();
    if numeric == 0 {
        return Vec::new();
    }
    // At most, a row is negligible once it is within a hair of the case's
    // last whole-number row: 100 % for a total, less where outcomes such as
    // "never" (a foe never taken out) hold the rest, so a tail that levels
    // off below 100 % is cut too.
    let finals: Vec<Option<f64>> = rows[numeric - 1]
        .cells
        .iter()
        .map(|c| c.map(|c| c.value))
        .collect();
    let negligible = |row: &GridRow| {
        row.cells.iter().zip(&finals).all(|(c, last)| {
            c.is_none_or(|c| match view {
                View::AtMost => c.value > last.unwrap_or(1.0) - NEGLIGIBLE,
                _ => c.value < NEGLIGIBLE,
            })
        })
    };
    let run = rows[..numeric]
        .iter()
        .rev()
        .take_while(|r| negligible(r))
        .count();
    if run < 2 {
        return Vec::new();
    }
    let keep = numeric - run + 1;
    let last = rows[keep - 1].code.clone();
    rows.drain(keep..numeric);
    let what = match view {
        View::AtMost => "within 0.01 % of their last value",
        _ => "under 0.01 %",
    };
    vec![format!(
        "Outcomes above {last} left out: {what} in every case (every outcome is in the CSV output)."
    )]
}
