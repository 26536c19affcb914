//! The distributions of a report as the page shows them: one table per
//! variable (a row per outcome, a column per case), in one of three views,
//! the chance of exactly that outcome, of at least it or of at most it
//! (docs/serve.md). "At least" is `distributions.csv`'s `at_least` column,
//! from the one rule that makes it ([`crate::distribution::at_least`]);
//! "at most" is its mirror, 1 minus at least the next outcome up.

use serde_json::{json, Value as Json};

use crate::distribution::at_least;
use crate::report::{CaseResult, MethodUsed, Report};

/// A distribution view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Exactly,
    AtLeast,
    AtMost,
}

impl View {
    pub const ALL: [View; 3] = [View::Exactly, View::AtLeast, View::AtMost];

    pub fn name(self) -> &'static str {
        match self {
            View::Exactly => "exactly",
            View::AtLeast => "at-least",
            View::AtMost => "at-most",
        }
    }
}

/// One outcome's chance in each view, for one result's variable.
struct Chances {
    outcome: String,
    exactly: f64,
    at_least: Option<f64>,
    at_most: Option<f64>,
}

/// The chances of one variable of one result, in its rows' order.
fn chances(result: &CaseResult, variable: &str) -> Vec<Chances> {
    let tails = at_least(&result.rows);
    let mut out: Vec<Chances> = result
        .rows
        .iter()
        .zip(tails)
        .filter(|(row, _)| row.variable == variable)
        .map(|(row, tail)| Chances {
            outcome: row.outcome.clone(),
            exactly: row.probability,
            at_least: tail,
            at_most: None,
        })
        .collect();
    // At most n is 1 - P(at least the next whole outcome above n); the
    // highest outcome's is the whole numeric mass, P(at least the lowest).
    let mut numeric: Vec<(i64, usize)> = out
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((c.outcome.parse().ok()?, i)))
        .collect();
    numeric.sort();
    let whole = numeric.first().and_then(|&(_, i)| out[i].at_least);
    for (k, &(_, i)) in numeric.iter().enumerate() {
        let at_most = match numeric.get(k + 1) {
            Some(&(_, next)) => whole.zip(out[next].at_least).map(|(w, a)| (w - a).max(0.0)),
            None => whole,
        };
        out[i].at_most = at_most;
    }
    out
}

/// The results a distribution table shows: the exact one of each case when
/// there is one (with `--method both` a case appears twice).
fn shown(report: &Report) -> Vec<&CaseResult> {
    let mut out: Vec<&CaseResult> = Vec::new();
    for r in &report.results {
        match out.iter().position(|o| o.case == r.case) {
            Some(i) if out[i].method == MethodUsed::MonteCarlo && r.method == MethodUsed::Exact => {
                out[i] = r;
            }
            Some(_) => {}
            None => out.push(r),
        }
    }
    out
}

/// Every variable's table in every view, as the page's JSON: `{variable,
/// cases, rows: [{outcome, exactly: [..], "at-least": [..], "at-most":
/// [..]}]}`, a value per case (`null` where a case lacks the outcome or a
/// view does not apply, as for an outcome that is no number).
pub fn distributions(report: &Report) -> Json {
    let results = shown(report);
    let mut variables: Vec<&str> = Vec::new();
    for r in &results {
        for row in &r.rows {
            if !variables.contains(&row.variable.as_str()) {
                variables.push(&row.variable);
            }
        }
    }
    let tables: Vec<Json> = variables
        .iter()
        .map(|variable| {
            let per_case: Vec<Vec<Chances>> =
                results.iter().map(|r| chances(r, variable)).collect();
            let mut outcomes: Vec<&str> = Vec::new();
            for case in &per_case {
                for c in case {
                    if !outcomes.contains(&c.outcome.as_str()) {
                        outcomes.push(&c.outcome);
                    }
                }
            }
            if outcomes.iter().all(|o| o.parse::<i64>().is_ok()) {
                outcomes.sort_by_key(|o| o.parse::<i64>().unwrap_or(0));
            }
            let rows: Vec<Json> = outcomes
                .iter()
                .map(|outcome| {
                    let find =
                        |case: &Vec<Chances>| case.iter().position(|c| c.outcome == *outcome);
                    let column = |pick: fn(&Chances) -> Option<f64>| -> Vec<Option<f64>> {
                        per_case
                            .iter()
                            .map(|case| find(case).and_then(|i| pick(&case[i])))
                            .collect()
                    };
                    json!({
                        "outcome": outcome,
                        "exactly": column(|c| Some(c.exactly)),
                        "at-least": column(|c| c.at_least),
                        "at-most": column(|c| c.at_most),
                    })
                })
                .collect();
            json!({
                "variable": variable,
                "cases": results.iter().map(|r| r.case.as_str()).collect::<Vec<_>>(),
                "rows": rows,
            })
        })
        .collect();
    Json::Array(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::DistRow;

    fn result(rows: &[(&str, f64)]) -> CaseResult {
        let mut r = crate::report::fixture::report_with_an_empty_metric().results[0].clone();
        r.rows = rows
            .iter()
            .map(|(outcome, p)| DistRow {
                variable: "total".into(),
                outcome: outcome.to_string(),
                probability: *p,
            })
            .collect();
        r
    }

    #[test]
    fn at_least_and_at_most_are_the_two_tails() {
        let r = result(&[("2", 0.25), ("3", 0.5), ("4", 0.25)]);
        let c = chances(&r, "total");
        let at_least: Vec<f64> = c.iter().map(|c| c.at_least.unwrap()).collect();
        let at_most: Vec<f64> = c.iter().map(|c| c.at_most.unwrap()).collect();
        assert_eq!(at_least, [1.0, 0.75, 0.25]);
        assert_eq!(at_most, [0.25, 0.75, 1.0]);
    }
}
