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
/// as it reads.
pub fn markdown(text: &str) -> String {
    let link_like = text.contains("](");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '<' | '|' | '~')
            || (link_like && matches!(c, '[' | ']'))
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text as a chart's SVG may hold it: a control character (XML 1.0 allows
/// none but tab, newline and carriage return, even escaped) becomes U+FFFD,
/// so the SVG stays well-formed whatever a label holds. The SVG backend
/// (plotters) escapes `<`, `>`, `&` and quotes itself.
pub fn svg(text: &str) -> Cow<'_, str> {
    if text.chars().any(char::is_control) {
        text.chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
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
}
