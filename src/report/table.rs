//! The aligned human table of one quick case: a block per case and method,
//! a row per metric with its 95% interval (Monte Carlo) and its distance
//! from exact in standard errors (`--method both`). Also the pieces the
//! other layouts ([`super::side_by_side`], [`super::compact`]) share:
//! the method and rules in a header, column alignment.

use super::format::{fixed, z_score, LEVEL};
use super::{CaseResult, MethodUsed, Report};

/// How a result was computed, as headers say it.
pub(super) fn method_label(result: &CaseResult) -> String {
    match result.method {
        MethodUsed::Exact => "exact".to_string(),
        MethodUsed::MonteCarlo => format!(
            "monte carlo, {} trials, seed {}",
            result.trials.unwrap_or(0),
            result.seed.unwrap_or(0)
        ),
    }
}

/// The rules in force that differ from the defaults and are the same in
/// every one of `results` (a rule that varies names the cases instead).
pub(super) fn common_rules(results: &[&CaseResult]) -> Vec<String> {
    let Some(first) = results.first() else {
        return Vec::new();
    };
    first
        .system
        .changed_rules(&first.inputs)
        .into_iter()
        .filter(|rule| {
            results[1..]
                .iter()
                .all(|r| r.system.changed_rules(&r.inputs).contains(rule))
        })
        .collect()
}

/// A header's bracket: `[cortex, exact; ties=action, heroic_step=4]`.
pub(super) fn bracket(system: &str, how: &str, rules: &[String]) -> String {
    if rules.is_empty() {
        format!("[{system}, {how}]")
    } else {
        format!("[{system}, {how}; {}]", rules.join(", "))
    }
}

/// Rows of cells aligned in columns two spaces apart, each line indented
/// by two: the first `left` columns flush left, the others flush right.
pub(super) fn aligned(rows: &[Vec<String>], left: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(" ");
        for (c, cell) in row.iter().enumerate() {
            let width = widths[c];
            if c < left {
                line.push_str(&format!(" {cell:<width$}"));
            } else {
                line.push_str(&format!(" {cell:>width$}"));
            }
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One block per case and method: the header, then a row per metric.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for (i, result) in report.results.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let how = method_label(result);
        let rules = result.system.changed_rules(&result.inputs);
        out.push_str(&format!(
            "{}  {}\n",
            result.case,
            bracket(result.system.name(), &how, &rules)
        ));
        let with_ci = result.method == MethodUsed::MonteCarlo;
        let with_z = result.compared;
        let width = result
            .metrics
            .iter()
            .map(|m| m.name().len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut header = format!("  {:<width$}  {:>12}", "metric", "value");
        if with_ci {
            header.push_str(&format!("  {:>27}", format!("{LEVEL} interval")));
        }
        if with_z {
            header.push_str(&format!("  {:>8}", "z"));
        }
        out.push_str(header.trim_end());
        out.push('\n');
        for metric in &result.metrics {
            let value = metric.value().map_or("-".to_string(), fixed);
            let mut line = format!("  {:<width$}  {value:>12}", metric.name());
            if with_ci {
                let ci = metric.ci95.map_or("-".to_string(), |(lo, hi)| {
                    format!("[{}, {}]", fixed(lo), fixed(hi))
                });
                line.push_str(&format!("  {ci:>27}"));
            }
            if with_z {
                line.push_str(&format!("  {:>8}", z_score(metric.z_vs_exact)));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn blocks_align_and_show_intervals() {
        let report = fixture::report_with_an_empty_metric();
        let text = render(&report);
        assert!(text.contains("d8 d6 vs 2d6  [cortex, exact]"));
        assert!(text.contains("d8 d6 vs 2d6  [cortex, monte carlo, 100 trials, seed 7]"));
        let line = |needle: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(needle))
                .unwrap_or_else(|| panic!("no {needle} line in\n{text}"))
        };
        let exact = report.results[0].value("p_success").unwrap();
        assert!(line("p_success").ends_with(&fixed(exact)));
        assert!(line("mean_effect_step").ends_with(" -"));
        let mc = &report.results[1];
        let p = mc.metric("p_success").unwrap();
        let (lo, hi) = p.ci95.unwrap();
        let z = p.z_vs_exact.unwrap();
        assert!(text.contains(&format!(
            "[{}, {}]  {:>8}",
            fixed(lo),
            fixed(hi),
            format!("{z:+.2}")
        )));
    }
}
