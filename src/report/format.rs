//! How every number people read is written, and how text is escaped for
//! the formats it lands in: one module, so a value reads the same in the
//! terminal tables, the pages (report.md, report.html), the charts and the
//! index (docs/reports.md, "Numbers").
//!
//! - Probabilities are percentages with two decimals and a space before
//!   the sign ("70.68 %"); a non-zero value below 0.01 % or above 99.99 %
//!   keeps three significant digits of its distance from 0 or 100 %, and
//!   exactly 0 and 1 are "0 %" and "100 %" ([`percent`]). Chart axis ticks
//!   use the same unit with the decimals their step needs ("20 %", "2.5 %").
//! - Means print with six decimals ([`mean`]), z-scores signed with two
//!   ([`z_score`]), counts with thousands separators ([`thousands`]).
//! - The terminal tables print values as plain numbers, six decimals or
//!   three significant digits in scientific form below 1e-4 ([`fixed`]),
//!   four (three in the matrix) in `run`'s compact table ([`decimals`]).
//! - No number reads as a negative zero.
//! - CSV and JSON are for machines: the shortest text that reads back to
//!   the same f64 ([`number`]).

use std::borrow::Cow;

use crate::distribution::{Metric, Spread};

/// The shortest form that reads back to the same f64 (CSV and JSON); empty
/// for a value that is not finite.
pub fn number(x: f64) -> String {
    if x.is_finite() {
        // Adding 0.0 turns -0.0 (an empty float sum) into 0.
        let x = x + 0.0;
        let mut buffer = ryu::Buffer::new();
        let text = buffer.format_finite(x);
        text.strip_suffix(".0").unwrap_or(text).to_string()
    } else {
        String::new()
    }
}

/// `x` with `places` decimals; a value that rounds to zero has no minus
/// sign (rounding noise reads as a sign error to people); "-" when not finite.
pub fn decimals(x: f64, places: usize) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let text = format!("{x:.places$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// A mean (or any plain number on a page) with six decimals.
pub fn mean(x: f64) -> String {
    decimals(x, 6)
}

/// A number in the terminal tables: six decimals, or three significant
/// digits in scientific form below 1e-4 so a tiny value never reads as zero.
pub fn fixed(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    if x != 0.0 && x.abs() < 1e-4 {
        format!("{x:.3e}")
    } else {
        decimals(x, 6)
    }
}

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

/// A chance in a grid (pivot tables and distribution views): always two
/// decimals, so a column reads at one precision ("0.04 %" beside "2.03 %",
/// never "0.00300 %"); a non-zero value that two decimals would round to 0
/// or 100 reads "< 0.01 %" or "> 99.99 %", so it never reads as certain.
pub fn grid_percent(p: f64) -> String {
    if !p.is_finite() {
        return "-".into();
    }
    let pct = p * 100.0;
    if p <= 0.0 {
        "0 %".into()
    } else if p >= 1.0 {
        "100 %".into()
    } else if pct < 0.005 {
        "< 0.01 %".into()
    } else if pct >= 99.995 {
        "> 99.99 %".into()
    } else {
        format!("{pct:.2} %")
    }
}

/// A mean in a grid: two decimals ("4.59" exchanges).
pub fn grid_mean(x: f64) -> String {
    decimals(x, 2)
}

/// A chance a rule states (an input such as `gain_chance = 0.5`, a
/// balance's target) as a percentage in [`percent`]'s unit, with the
/// decimals it needs up to four: 0.5 -> "50 %", 0.125 -> "12.5 %". A
/// measured probability is [`percent`]'s, with its fixed two decimals.
pub fn stated_percent(p: f64) -> String {
    let text = decimals(p * 100.0, 4);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("{text} %")
}

/// The confidence level of every interval, as prose and headers write it
/// ("95 % interval"), in [`percent`]'s unit.
pub const LEVEL: &str = "95 %";

/// A share on a chart's percentage axis: `p` as a percentage with `places`
/// decimals, in [`percent`]'s unit ("20 %", "2.5 %").
pub fn percent_tick(p: f64, places: usize) -> String {
    format!("{} %", decimals(p * 100.0, places))
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

/// Whether a metric reads as a percentage: the probabilities (those with a
/// Wilson interval); means and counts are plain numbers.
pub fn is_probability(metric: &Metric) -> bool {
    matches!(metric.spread, Spread::Proportion { .. })
}

/// A metric's value as people read it: probabilities as percentages,
/// means with six decimals, "-" when undefined.
pub fn metric_value(metric: &Metric, value: Option<f64>) -> String {
    match value {
        None => "-".into(),
        Some(v) if is_probability(metric) => percent(v),
        Some(v) => mean(v),
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

/// A difference in a metric's units with its sign ("+1.25 %", "-0.500000");
/// one that rounds to nothing has none.
pub fn signed(metric: &Metric, difference: f64) -> String {
    let magnitude = metric_value(metric, Some(difference.abs()));
    let nothing = !magnitude.chars().any(|c| c.is_ascii_digit() && c != '0');
    match difference.partial_cmp(&0.0) {
        _ if nothing => magnitude,
        Some(std::cmp::Ordering::Greater) => format!("+{magnitude}"),
        Some(std::cmp::Ordering::Less) => format!("-{magnitude}"),
        _ => magnitude,
    }
}

/// A distance from exact in standard errors, signed, two decimals.
pub fn z_score(z: Option<f64>) -> String {
    z.filter(|z| z.is_finite())
        .map_or("-".into(), |z| format!("{:+.2}", z + 0.0))
}

/// `1000000` as "1,000,000".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Percent-encodes a relative link path (spaces and the like), keeping `/`.
pub fn url_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Text for HTML, in element content and in quoted attribute values.
pub fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Backslash-escapes the characters Markdown would read as markup, the
/// table's `|` among them, so names from scenario files print as written.
/// Brackets only matter as a link (`](`), so an interval's `[a, b]` stays
/// as it reads. A line break (a multi-line description) stays one, but the
/// line after it is trimmed and guarded by [`markdown_line_start`], so it
/// cannot open a heading, a list, a quote or a code block; blank lines are
/// dropped, so the text stays one paragraph (as in HTML).
pub fn markdown(text: &str) -> String {
    let link_like = text.contains("](");
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split(['\n', '\r']).enumerate() {
        let line = if i == 0 { line } else { line.trim_start() };
        if i > 0 && line.is_empty() {
            continue;
        }
        let mut escaped = String::with_capacity(line.len());
        for c in line.chars() {
            if matches!(c, '\\' | '`' | '*' | '_' | '<' | '|' | '~')
                || (link_like && matches!(c, '[' | ']'))
            {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        if i > 0 {
            out.push('\n');
            out.push_str(&markdown_line_start(escaped));
        } else {
            out.push_str(&escaped);
        }
    }
    out
}

/// Markdown text (already escaped by [`markdown`]) that begins a line of a
/// block keeps its first character literal where it would open a heading
/// (`#`, or `=` and `-` under a line), a quote, a list item (`-`, `+`,
/// `1.`, `1)`) or a link definition (`[x]: url`).
pub fn markdown_line_start(text: String) -> String {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(text.as_bytes().get(digits), Some(b'.' | b')')) {
        return format!("{}\\{}", &text[..digits], &text[digits..]);
    }
    match text.chars().next() {
        Some('#' | '>' | '-' | '+' | '=' | '[') => format!("\\{text}"),
        _ => text,
    }
}

/// A Markdown code span: fenced by more backticks than the longest run in
/// the text, so a name holding backticks cannot close it early; a line
/// break becomes the space Markdown shows for it anyway, so the span cannot
/// end the block it sits in. A `|` keeps the backslash a GFM table cell needs.
pub fn markdown_code(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let fence = "`".repeat(longest_backtick_run(&text) + 1);
    if fence.len() > 1 {
        format!("{fence} {text} {fence}")
    } else {
        format!("`{text}`")
    }
}

/// A Markdown fenced code block holding `text` as written (a command whose
/// quoted path holds line breaks): the fence is longer than any run of
/// backticks in the text, so no line of it can close the block early.
pub fn markdown_code_block(info: &str, text: &str) -> String {
    let fence = "`".repeat((longest_backtick_run(text) + 1).max(3));
    format!("{fence}{info}\n{text}\n{fence}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Whether text from a scenario file (a case's or the scenario's name) may
/// hold `c`: no control character (they break the terminal, and XML 1.0
/// forbids all but tab and line breaks, even escaped) and no Unicode
/// noncharacter (XML 1.0 forbids U+FFFE and U+FFFF, so an SVG holding one
/// is not well-formed; the others, U+FDD0 to U+FDEF and the last two of
/// each plane, are for a program's own use). Names holding one are refused
/// when the scenario is read (docs/scenarios.md); [`svg`] replaces them too.
pub fn printable(c: char) -> bool {
    let code = u32::from(c);
    !(c.is_control() || (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE)
}

/// A CSV cell a spreadsheet would not run as a formula: text that begins
/// with `=`, `+`, `-` or `@` (a case's name from a shared scenario file)
/// gets a leading `'`, which spreadsheets read as "this is text", unless it
/// is a plain number ("-0.5", "1e-13"), which stays a number
/// (docs/reports.md, "CSV tables").
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@') if !plain_number(text) => format!("'{text}").into(),
        _ => text.into(),
    }
}

/// Digits with an optional sign, point and exponent, as [`number`] writes them.
fn plain_number(text: &str) -> bool {
    let text = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (text, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty())
        && digits(whole)
        && digits(fraction)
        && exponent.is_none_or(|e| !e.is_empty() && digits(e))
}

/// Text as a chart's SVG may hold it: a character [`printable`] refuses
/// (XML 1.0 allows no control character but tab, newline and carriage
/// return, even escaped, nor U+FFFE and U+FFFF) becomes U+FFFD, so the SVG
/// stays well-formed whatever a label holds. The SVG backend (plotters)
/// escapes `<`, `>`, `&` and quotes itself.
pub fn svg(text: &str) -> Cow<'_, str> {
    if text.chars().all(printable) {
        text.into()
    } else {
        text.chars()
            .map(|c| if printable(c) { c } else { '\u{fffd}' })
            .collect::<String>()
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_shortest_round_trip() {
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(1e-13), "1e-13");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(f64::NAN), "");
        let x = 0.8978587962962963;
        assert_eq!(number(x).parse::<f64>().unwrap(), x);
    }

    #[test]
    fn ordinary_probabilities_have_two_decimals() {
        assert_eq!(percent(0.8978587962962963), "89.79 %");
        assert_eq!(percent(0.7068), "70.68 %");
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
    fn stated_chances_keep_the_decimals_they_need() {
        assert_eq!(stated_percent(0.5), "50 %");
        assert_eq!(stated_percent(0.125), "12.5 %");
        assert_eq!(stated_percent(0.0), "0 %");
        assert_eq!(stated_percent(1.0), "100 %");
        assert_eq!(stated_percent(1.0 / 3.0), "33.3333 %");
    }

    #[test]
    fn ticks_share_the_percent_unit() {
        assert_eq!(percent_tick(0.2, 0), "20 %");
        assert_eq!(percent_tick(0.025, 1), "2.5 %");
        assert_eq!(percent_tick(0.0, 0), "0 %");
    }

    #[test]
    fn means_have_six_decimals_and_no_negative_zero() {
        assert_eq!(mean(3.366215973821198), "3.366216");
        assert_eq!(mean(-0.0), "0.000000");
        assert_eq!(mean(-0.0000001), "0.000000");
        assert_eq!(mean(-1.5), "-1.500000");
        assert_eq!(decimals(-0.00001, 4), "0.0000");
        assert_eq!(z_score(Some(-0.0)), "+0.00");
        assert_eq!(z_score(Some(1.234)), "+1.23");
        assert_eq!(z_score(None), "-");
    }

    #[test]
    fn terminal_numbers_never_read_as_zero() {
        assert_eq!(fixed(0.8978587962962963), "0.897859");
        assert_eq!(fixed(0.0000123), "1.230e-5");
        assert_eq!(fixed(-0.0), "0.000000");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn text_is_escaped_for_each_format() {
        assert_eq!(html("a <&> \"b\""), "a &lt;&amp;&gt; &quot;b&quot;");
        assert_eq!(markdown("a|b *c* [d]"), "a\\|b \\*c\\* [d]");
        assert_eq!(markdown("[a](b)"), "\\[a\\](b)");
        assert_eq!(svg("a\u{7}b"), "a\u{fffd}b");
        assert_eq!(url_path("my folder/a.csv"), "my%20folder/a.csv");
        assert!(matches!(svg("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn characters_xml_forbids_are_replaced_in_svg_text() {
        assert_eq!(
            svg("a\u{fffe}b\u{ffff}c\u{10ffff}"),
            "a\u{fffd}b\u{fffd}c\u{fffd}"
        );
        assert!(!printable('\u{fdd0}'));
        assert!(printable('\u{fffd}') && printable('é') && printable('\u{e000}'));
    }

    #[test]
    fn markdown_lines_code_spans_and_blocks_stay_inert() {
        assert_eq!(
            markdown("a\n# h\n  - i\n\n1. x\n==\n[r]: u"),
            "a\n\\# h\n\\- i\n1\\. x\n\\==\n\\[r]: u"
        );
        assert_eq!(markdown_code("a``b"), "``` a``b ```");
        assert_eq!(markdown_code("a`b"), "`` a`b ``");
        assert_eq!(markdown_code("a\nb|c"), "`a b\\|c`");
        assert_eq!(markdown_code_block("sh", "x"), "```sh\nx\n```");
        assert_eq!(
            markdown_code_block("sh", "'a\n```\nb'"),
            "````sh\n'a\n```\nb'\n````"
        );
    }

    #[test]
    fn csv_cells_that_read_as_formulas_are_quoted_but_numbers_stay() {
        assert_eq!(csv_cell("=1+2"), "'=1+2");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("+x"), "'+x");
        assert_eq!(csv_cell("-inf"), "'-inf");
        assert_eq!(csv_cell("-"), "'-");
        for n in ["-3", "-0.5", "-1.5e-7", "+2", "1e-13", "-.5", "d8 d6", ""] {
            assert_eq!(csv_cell(n), n);
        }
    }
}
