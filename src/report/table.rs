//! The aligned human table of one quick case: a block per case and method,
//! a row per metric with its 95% interval (Monte Carlo) and its distance
//! from exact in standard errors (`--method both`). Also the pieces the
//! other layouts ([`super::side_by_side`], [`super::compact`]) share:
//! the method and rules in a header, column alignment.

use super::format::{fixed, z_score, LEVEL};
use super::pivot::Names;
use super::{CaseResult, MethodUsed, Report};
use crate::systems::applies::metric_applies;

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

/// The width people's terminal tables keep within where they can
/// (docs/reports.md, "Terminal tables"): long phrases wrap onto more lines.
pub(super) const TERMINAL_WIDTH: usize = 100;

/// Rows of cells aligned in columns two spaces apart, each line indented
/// by two: the first `left` columns flush left, the others flush right.
pub(super) fn aligned(rows: &[Vec<String>], left: usize) -> String {
    let lines: Vec<Vec<String>> = rows.to_vec();
    let widths = widths_of(&lines);
    render_lines(&lines, &widths, left)
}

/// [`aligned`], kept within [`TERMINAL_WIDTH`] where it can be: a wider
/// table has its head cells (the first row) wrapped at spaces, bottom
/// aligned, then its first column (the row labels) wrapped too, each
/// label's values on its first line. A table that fits is laid out as
/// [`aligned`] lays it out; numbers are never wrapped.
pub(super) fn aligned_fit(rows: &[Vec<String>], left: usize) -> String {
    let Some((head, body)) = rows.split_first() else {
        return String::new();
    };
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let body_width = |c: usize| -> usize {
        body.iter()
            .filter_map(|r| r.get(c))
            .map(|cell| cell.chars().count())
            .max()
            .unwrap_or(0)
    };
    let fits = |widths: &[usize]| widths.iter().sum::<usize>() + 2 * widths.len() <= TERMINAL_WIDTH;
    if fits(&widths_of(rows)) {
        return aligned(rows, left);
    }
    // Column 0 wraps (head and labels) at `limits[0]`, the other heads at
    // theirs (never below their widest value).
    let layout = |limits: &[usize]| -> (Vec<Vec<String>>, Vec<usize>) {
        let wrapped: Vec<Vec<String>> = (0..columns)
            .map(|c| wrap(head.get(c).map_or("", String::as_str), limits[c]))
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        let mut lines: Vec<Vec<String>> = (0..height)
            .map(|line| {
                wrapped
                    .iter()
                    .map(|pieces| {
                        // Bottom aligned: the last piece sits on the last line.
                        let skip = height - pieces.len();
                        line.checked_sub(skip)
                            .map_or(String::new(), |i| pieces[i].clone())
                    })
                    .collect()
            })
            .collect();
        for row in body {
            let label = wrap(row.first().map_or("", String::as_str), limits[0]);
            for (i, piece) in label.into_iter().enumerate() {
                let mut line = vec![if i == 0 { piece } else { format!("  {piece}") }];
                if i == 0 {
                    line.extend(row.iter().skip(1).cloned());
                }
                lines.push(line);
            }
        }
        let widths = widths_of(&lines);
        (lines, widths)
    };
    // The widest head narrows first, a step at a time, down to its widest
    // value or `MIN_HEAD`; the row labels (case names people search for)
    // wrap only when every head is as narrow as it goes.
    const MIN_HEAD: usize = 10;
    const MIN_LABEL: usize = 24;
    let mut limits: Vec<usize> = widths_of(rows);
    let mut stuck = vec![false; columns];
    loop {
        let (lines, widths) = layout(&limits);
        if fits(&widths) {
            return render_lines(&lines, &widths, left);
        }
        let narrowable = |c: usize| {
            let floor = if c == 0 {
                MIN_LABEL
            } else {
                MIN_HEAD.max(body_width(c))
            };
            !stuck[c] && widths[c] > floor
        };
        let next = (1..columns)
            .filter(|&c| narrowable(c))
            .max_by_key(|&c| (widths[c], std::cmp::Reverse(c)))
            .or_else(|| narrowable(0).then_some(0));
        let Some(c) = next else {
            return render_lines(&lines, &widths, left);
        };
        limits[c] = widths[c] - 1;
        if layout(&limits).1[c] >= widths[c] {
            // No break fits the narrower width: a word as wide as the column.
            stuck[c] = true;
        }
    }
}

/// `text` in lines of at most `width` characters, broken at spaces (a
/// longer word keeps its own line whole); a parenthesis (a conditional
/// mean's "(of fights where it is)") starts a line of its own when the
/// text does not fit on one.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    if text.chars().count() > width {
        if let Some(at) = text.find(" (").filter(|&at| at > 0) {
            let mut lines = wrap(&text[..at], width);
            lines.extend(wrap(&text[at + 1..], width));
            return lines;
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Each column's widest cell.
fn widths_of(rows: &[Vec<String>]) -> Vec<usize> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Lines of cells in columns of `widths`, as [`aligned`] lays them out.
fn render_lines(rows: &[Vec<String>], widths: &[usize], left: usize) -> String {
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

/// A metric as people's terminal tables name it: its phrase, or its code
/// name under `--names code`.
pub(super) fn metric_label(name: &str, names: Names) -> String {
    match names {
        Names::Words => super::chart::labels::metric_phrase(name),
        Names::Code => name.to_string(),
    }
}

/// One block per case and method: the header, then a row per metric that
/// can apply to the case (docs/reports.md, "Terminal tables"), named in
/// words or, under `--names code`, by its code name.
pub fn render(report: &Report) -> String {
    let names = report.presentation.names;
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
        let shown: Vec<(String, super::MetricResult)> = result
            .metrics
            .iter()
            .filter(|m| metric_applies(result.system, m.name(), &result.inputs))
            .map(|m| (metric_label(m.name(), names), m))
            .collect();
        // The columns right of the labels, and the width left for them:
        // a longer label wraps onto the lines below its values.
        let rest = 16 + if with_ci { 29 } else { 0 } + if with_z { 10 } else { 0 };
        let natural = shown
            .iter()
            .map(|(label, _)| label.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let limit = natural.min(TERMINAL_WIDTH.saturating_sub(rest).max(24));
        let wrapped: Vec<Vec<String>> = shown.iter().map(|(label, _)| wrap(label, limit)).collect();
        let width = wrapped
            .iter()
            .flatten()
            .map(|piece| piece.chars().count())
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
        for ((_, metric), pieces) in shown.iter().zip(&wrapped) {
            let value = metric.value().map_or("-".to_string(), fixed);
            let mut line = format!("  {:<width$}  {value:>12}", pieces[0]);
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
            for piece in &pieces[1..] {
                out.push_str(&format!("    {piece}\n"));
            }
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
        let mut report = fixture::report_with_an_empty_metric();
        report.presentation.names = Names::Code;
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

    #[test]
    fn metrics_read_in_words_unless_code_names_are_asked() {
        let report = fixture::report_with_an_empty_metric();
        let text = render(&report);
        let exact = report.results[0].value("p_success").unwrap();
        assert!(text
            .lines()
            .any(|l| l.starts_with("  chance of success ") && l.ends_with(&fixed(exact))));
        assert!(!text.contains("p_success"), "{text}");
        // A conditional mean says which rolls it is over.
        assert!(text.contains("average effect step, d4 = 0 (of rolls that succeed)"));
    }

    #[test]
    fn long_heads_wrap_to_fit_the_terminal() {
        let head = |s: &str| s.to_string();
        let rows = vec![
            vec![
                head("case"),
                head("chance of a heroic success"),
                head("average exchanges to take the foe out (of fights where it is)"),
                head("chance of success with an effect beyond d12"),
                head("average doom dice at the end (of scenes not ended early)"),
            ],
            vec![
                head("d12 d10 d8 d6 vs 3d10"),
                head("0.1234"),
                head("4.5900"),
                head("0.0001"),
                head("12.0000"),
            ],
        ];
        let text = aligned_fit(&rows, 1);
        assert!(
            text.lines().all(|l| l.chars().count() <= TERMINAL_WIDTH),
            "{text}"
        );
        // Every word of every head is there, in order, the values on the last line.
        let words: Vec<&str> = text.split_whitespace().collect();
        assert!(words.contains(&"(of") && words.contains(&"early)"));
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("  d12 d10 d8 d6 vs 3d10") && last.ends_with("12.0000"));
        // A table that fits is laid out as before.
        let small = vec![vec![head("a"), head("b")], vec![head("x"), head("1.0")]];
        assert_eq!(aligned_fit(&small, 1), aligned(&small, 1));
        assert_eq!(
            wrap("at least 2 successes", 9),
            ["at least", "2", "successes"]
        );
    }
}
