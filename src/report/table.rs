//! The aligned human table printed by default: one block per case and
//! method, a row per metric with its 95% interval (Monte Carlo) and its
//! distance from exact in standard errors (`--method both`).

use super::{MethodUsed, Report};

/// A number for people: six decimals, or three significant digits in
/// scientific form below 1e-4 so a tiny value never reads as zero. Every
/// human table (cases and balances) prints numbers this way.
pub fn fixed(x: f64) -> String {
    // -0.0 from rounding noise reads as a sign error to people.
    let x = if x == 0.0 { 0.0 } else { x };
    if x != 0.0 && x.abs() < 1e-4 {
        format!("{x:.3e}")
    } else {
        format!("{x:.6}")
    }
}

/// Renders the report as text.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for (i, result) in report.results.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let how = match result.method {
            MethodUsed::Exact => "exact".to_string(),
            MethodUsed::MonteCarlo => format!(
                "monte carlo, {} trials, seed {}",
                result.trials.unwrap_or(0),
                result.seed.unwrap_or(0)
            ),
        };
        out.push_str(&format!("{}  [{}, {how}]\n", result.case, result.system));
        let with_ci = !result.ci95.is_empty();
        let with_z = result.z_vs_exact.is_some();
        let width = result
            .evaluation
            .metrics
            .iter()
            .map(|m| m.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut header = format!("  {:<width$}  {:>12}", "metric", "value");
        if with_ci {
            header.push_str(&format!("  {:>27}", "95% interval"));
        }
        if with_z {
            header.push_str(&format!("  {:>8}", "z"));
        }
        out.push_str(header.trim_end());
        out.push('\n');
        for (j, metric) in result.evaluation.metrics.iter().enumerate() {
            let value = metric.value.map_or("-".to_string(), fixed);
            let mut line = format!("  {:<width$}  {value:>12}", metric.name);
            if with_ci {
                let ci = result
                    .ci95
                    .get(j)
                    .copied()
                    .flatten()
                    .map_or("-".to_string(), |(lo, hi)| {
                        format!("[{}, {}]", fixed(lo), fixed(hi))
                    });
                line.push_str(&format!("  {ci:>27}"));
            }
            if let Some(z) = &result.z_vs_exact {
                let z = z
                    .get(j)
                    .copied()
                    .flatten()
                    .map_or("-".to_string(), |z| format!("{z:+.2}"));
                line.push_str(&format!("  {z:>8}"));
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
        let mut report = fixture::report();
        let empty = fixture::metric_index(&report.results[0], "mean_effect_step");
        report.results[0].evaluation.metrics[empty].value = None;
        let p = fixture::metric_index(&report.results[0], "p_success");
        let text = render(&report);
        assert!(text.contains("d8 d6 vs 2d6  [cortex, exact]"));
        assert!(text.contains("d8 d6 vs 2d6  [cortex, monte carlo, 100 trials, seed 7]"));
        let line = |needle: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(needle))
                .unwrap_or_else(|| panic!("no {needle} line in\n{text}"))
        };
        let exact = report.results[0].evaluation.metrics[p].value.unwrap();
        assert!(line("p_success").ends_with(&fixed(exact)));
        assert!(line("mean_effect_step").ends_with(" -"));
        let mc = &report.results[1];
        let (lo, hi) = mc.ci95[p].unwrap();
        let z = mc.z_vs_exact.as_ref().unwrap()[p].unwrap();
        assert!(text.contains(&format!(
            "[{}, {}]  {:>8}",
            fixed(lo),
            fixed(hi),
            format!("{z:+.2}")
        )));
    }
}
