//! The publishing pages' shared shape: a small document (headings,
//! paragraphs, lists, tables, charts, a command line) built once from a
//! report and rendered by two writers, [`super::markdown`] (GitHub-flavoured
//! Markdown) and [`super::html`] (one self-contained page). Because both
//! render the same [`Document`], report.md and report.html cannot drift
//! apart: every table cell is one [`Inline`] run, written twice.
//!
//! It also holds how numbers read on those pages ([`percent`], [`mean`]),
//! the one place the publishing rule for probabilities lives.

use super::{CaseResult, MethodUsed};
use crate::distribution::{Metric, Spread};

/// A run of text with its one mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    /// Names the reader may type: metric names, rule keys, commands.
    Code(String),
    /// The winning rung of a balance.
    Strong(String),
    /// A link to a file of the report folder (the CSV tables).
    Link {
        text: String,
        href: String,
    },
}

/// A table cell or a line of text: inline runs side by side.
pub type Line = Vec<Inline>;

/// Plain text as a line.
pub fn text(s: impl Into<String>) -> Line {
    vec![Inline::Text(s.into())]
}

/// Code as a line.
pub fn code(s: impl Into<String>) -> Line {
    vec![Inline::Code(s.into())]
}

/// Text with `backtick` spans (as the index's rule lines are written) as a line.
pub fn with_code_spans(s: &str) -> Line {
    s.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| {
            if i % 2 == 1 {
                Inline::Code(part.to_string())
            } else {
                Inline::Text(part.to_string())
            }
        })
        .collect()
}

/// How a column's cells line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table: a header row and body rows of the same width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<Line>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<Line>>,
    /// More rows, after `rows`, made one at a time as the table is written
    /// (a [`RowSource`]): a report page's results table has a row per case,
    /// and 100,000 of them held at once took hundreds of megabytes.
    pub deferred: Option<DeferredRows>,
}

/// A table's rows that a [`RowSource`] makes: which of its tables, and how
/// many rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeferredRows {
    pub table: usize,
    pub count: usize,
}

/// Makes the deferred rows of a document's tables as a writer writes them.
pub trait RowSource {
    /// Row `index` of deferred table `table`.
    fn row(&self, table: usize, index: usize) -> Vec<Line>;
}

/// For documents whose tables hold all their rows.
pub struct NoDeferredRows;

impl RowSource for NoDeferredRows {
    fn row(&self, _table: usize, _index: usize) -> Vec<Line> {
        Vec::new()
    }
}

impl Table {
    /// Calls `each` with every row, those held and then the deferred ones.
    pub fn each_row<E>(
        &self,
        source: &dyn RowSource,
        mut each: impl FnMut(&[Line]) -> Result<(), E>,
    ) -> Result<(), E> {
        for row in &self.rows {
            each(row)?;
        }
        if let Some(deferred) = self.deferred {
            for index in 0..deferred.count {
                each(&source.row(deferred.table, index))?;
            }
        }
        Ok(())
    }
}

/// One block of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Level 1 to 3.
    Heading(u8, String),
    Paragraph(Line),
    List(Vec<Line>),
    Table(Table),
    /// A chart of the report folder: Markdown embeds `<stem>.png` linked to
    /// `<stem>.svg`; HTML inlines the SVG itself.
    Chart {
        stem: String,
        title: String,
    },
    /// A command to copy, on a line of its own.
    Command(String),
}

/// A page or a piece of one.
pub type Document = Vec<Block>;

/// A probability as a percentage for people: two decimals; a non-zero value
/// below 0.01 % or above 99.99 % keeps three significant digits of its
/// distance from 0 or 100 % (0.00123 %, 99.99877 %), so a rare outcome never
/// reads as impossible nor a near-certain one as certain; exactly 0 and 1
/// are "0 %" and "100 %".
pub fn percent(p: f64) -> String {
    if !p.is_finite() {
        return "-".into();
    }
    if p <= 0.0 {
        return "0 %".into();
    }
    if p >= 1.0 {
        return "100 %".into();
    }
    let pct = p * 100.0;
    if pct < 0.01 {
        match three_digits(pct) {
            Some((digits, decimals)) => format!("{} %", decimal(digits, decimals)),
            None => "0.01 %".into(),
        }
    } else if pct > 99.99 {
        // 1 - p is exact for p in [0.5, 1] (Sterbenz), so the distance keeps
        // its digits even where p * 100 would have lost them.
        match three_digits((1.0 - p) * 100.0) {
            Some((digits, decimals)) => {
                let hundred = 100 * 10u128.pow(decimals);
                format!("{} %", decimal(hundred - digits, decimals))
            }
            None => "99.99 %".into(),
        }
    } else {
        format!("{pct:.2} %")
    }
}

/// A positive distance below 0.01 (in percent) rounded to three
/// significant digits, as an integer and its number of decimals
/// (0.00123 -> (123, 5)); `None` when it rounds up to 0.01 or more.
fn three_digits(distance: f64) -> Option<(u128, u32)> {
    let exponent = distance.log10().floor() as i32;
    let decimals = u32::try_from(2 - exponent).ok()?;
    let text = format!("{distance:.prec$}", prec = decimals as usize);
    let digits: u128 = text.replace('.', "").trim_start_matches('0').parse().ok()?;
    if digits >= 1000 {
        // Rounded up to the next power of ten (0.000999 -> 0.00100).
        return if decimals > 3 {
            Some((digits / 10, decimals - 1))
        } else {
            None
        };
    }
    Some((digits, decimals))
}

/// `digits` / 10^decimals written out ("0.00123").
fn decimal(digits: u128, decimals: u32) -> String {
    let text = format!("{digits:0>width$}", width = decimals as usize + 1);
    let (whole, fraction) = text.split_at(text.len() - decimals as usize);
    if fraction.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{fraction}")
    }
}

/// A mean (or any plain number) with six decimals; -0 reads as 0.
pub fn mean(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let x = if x == 0.0 { 0.0 } else { x };
    let text = format!("{x:.6}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_string()
    } else {
        text
    }
}

/// A metric's value as the pages print it: probabilities as percentages,
/// means with six decimals, "-" when undefined.
pub fn metric_value(metric: &Metric, value: Option<f64>) -> String {
    match value {
        None => "-".into(),
        Some(v) => match metric.spread {
            Spread::Proportion { .. } => percent(v),
            Spread::Mean { .. } => mean(v),
        },
    }
}

/// A 95 % interval as "[low, high]" in the metric's units.
pub fn interval(metric: &Metric, ci: Option<(f64, f64)>) -> String {
    match ci {
        None => "-".into(),
        Some((lo, hi)) => format!(
            "[{}, {}]",
            metric_value(metric, Some(lo)),
            metric_value(metric, Some(hi))
        ),
    }
}

/// A distance from exact in standard errors, signed, two decimals.
pub fn z_score(z: Option<f64>) -> String {
    z.filter(|z| z.is_finite())
        .map_or("-".into(), |z| format!("{:+.2}", z + 0.0))
}

/// `1000000` as "1,000,000".
pub fn thousands(n: u64) -> String {
    super::chart::thousands(n)
}

/// How a result was found, for the line above its table: "exact", or
/// "Monte Carlo, 1,000,000 trials, seed 1, 95 % intervals".
pub fn method_phrase(result: &CaseResult) -> String {
    match result.method {
        MethodUsed::Exact => "exact".into(),
        MethodUsed::MonteCarlo => format!(
            "Monte Carlo, {} trials, seed {}, 95 % intervals",
            thousands(result.trials.unwrap_or(0)),
            result.seed.unwrap_or(0)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_probabilities_have_two_decimals() {
        assert_eq!(percent(0.8978587962962963), "89.79 %");
        assert_eq!(percent(0.5), "50.00 %");
        assert_eq!(percent(0.0001), "0.01 %");
        assert_eq!(percent(0.9999), "99.99 %");
        assert_eq!(percent(0.99989), "99.99 %");
    }

    #[test]
    fn exactly_zero_and_one_are_whole() {
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(1.0), "100 %");
        assert_eq!(percent(f64::NAN), "-");
    }

    #[test]
    fn tiny_values_keep_three_significant_digits() {
        assert_eq!(percent(0.0000123), "0.00123 %");
        assert_eq!(percent(0.000029999999999999997), "0.00300 %");
        assert_eq!(percent(0.00000004), "0.00000400 %");
        assert_eq!(percent(0.00005), "0.00500 %");
        // Just below 0.01 % but rounding up to it at three digits.
        assert_eq!(percent(0.00009999999), "0.0100 %");
        // 1e-298 %: 297 zeros after the point, then the three digits.
        assert_eq!(percent(1e-300), format!("0.{}100 %", "0".repeat(297)));
    }

    #[test]
    fn near_certain_values_keep_three_digits_of_their_distance() {
        assert_eq!(percent(0.9999877), "99.99877 %");
        assert_eq!(percent(0.99995), "99.99500 %");
        assert_eq!(percent(0.99994), "99.99400 %");
        assert_eq!(percent(1.0 - f64::EPSILON), "99.9999999999999778 %");
        assert_eq!(percent(1.0 - 0.0000999999999), "99.9900 %");
    }

    #[test]
    fn means_have_six_decimals_and_no_negative_zero() {
        assert_eq!(mean(3.366215973821198), "3.366216");
        assert_eq!(mean(-0.0), "0.000000");
        assert_eq!(mean(-0.0000001), "0.000000");
        assert_eq!(mean(-1.5), "-1.500000");
        assert_eq!(z_score(Some(-0.0)), "+0.00");
        assert_eq!(z_score(Some(1.234)), "+1.23");
    }

    #[test]
    fn code_spans_split_into_runs() {
        assert_eq!(
            with_code_spans("rules: `keep = 2`, x"),
            vec![
                Inline::Text("rules: ".into()),
                Inline::Code("keep = 2".into()),
                Inline::Text(", x".into())
            ]
        );
    }
}
