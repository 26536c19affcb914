//! What a chart shows, independent of how it is drawn: a title, note lines,
//! a shared legend and a grid of panels, each a heatmap, a bar chart or a
//! line chart. The per-system builders fill these from a `Report`; the
//! renderer turns them into SVG and PNG. Keeping the two apart lets each
//! system describe its charts in a few lines and keeps every layout decision
//! (fonts, margins, label widths) in one place.

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// Perceived lightness (0..1), used to pick black or white text on a fill.
    pub fn lightness(self) -> f64 {
        (0.299 * f64::from(self.0) + 0.587 * f64::from(self.1) + 0.114 * f64::from(self.2)) / 255.0
    }
}

/// The Okabe–Ito palette (colour-blind safe), minus its yellow, which is
/// unreadable as a thin line on white, plus two darker extras.
pub const PALETTE: [Colour; 9] = [
    Colour(0, 114, 178),   // blue
    Colour(213, 94, 0),    // vermillion
    Colour(0, 158, 115),   // bluish green
    Colour(204, 121, 167), // reddish purple
    Colour(230, 159, 0),   // orange
    Colour(86, 180, 233),  // sky blue
    Colour(0, 0, 0),       // black
    Colour(136, 34, 85),   // wine
    Colour(68, 119, 170),  // steel blue
];

/// The `i`th categorical colour (cycling).
pub fn palette(i: usize) -> Colour {
    PALETTE[i % PALETTE.len()]
}

/// Light grey for "fail"/"other" segments.
pub const GREY: Colour = Colour(190, 190, 190);

/// A sequential scale (viridis stops) for ordered categories such as effect
/// die sizes and for heatmap cells: `t` in 0..1, dark purple to yellow.
pub fn sequential(t: f64) -> Colour {
    const STOPS: [(u8, u8, u8); 9] = [
        (68, 1, 84),
        (71, 44, 122),
        (59, 81, 139),
        (44, 113, 142),
        (33, 144, 141),
        (39, 173, 129),
        (92, 200, 99),
        (170, 220, 50),
        (253, 231, 37),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let scaled = t * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    let f = scaled - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    Colour(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// How values on a numeric axis are printed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Format {
    /// A probability shown as a percentage (0.25 -> "25%").
    Percent,
    /// A plain number with this many decimals.
    Number(usize),
}

/// A numeric axis: its label (with the unit) and range. `None` bounds are
/// taken from the data (with a little headroom).
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub label: String,
    pub format: Format,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Axis {
    /// A 0..100% probability axis.
    pub fn percent(label: impl Into<String>) -> Axis {
        Axis {
            label: label.into(),
            format: Format::Percent,
            min: Some(0.0),
            max: Some(1.0),
        }
    }

    /// A plain axis starting at zero, its top taken from the data.
    pub fn number(label: impl Into<String>, decimals: usize) -> Axis {
        Axis {
            label: label.into(),
            format: Format::Number(decimals),
            min: Some(0.0),
            max: None,
        }
    }
}

/// A value with its 95% interval (Monte Carlo results only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    pub value: f64,
    pub ci: Option<(f64, f64)>,
}

impl Value {
    pub fn exact(value: f64) -> Value {
        Value { value, ci: None }
    }
}

/// A legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendItem {
    pub name: String,
    pub colour: Colour,
    /// Drawn as a line with a marker (line charts) rather than a filled box.
    pub line: bool,
    /// Marker shape index for line series (see the renderer).
    pub marker: usize,
}

/// A heatmap of probabilities with the value printed in each cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    /// `cells[row][column]`; `None` for a combination not computed.
    pub cells: Vec<Vec<Option<f64>>>,
    pub x_label: String,
    pub y_label: String,
    pub scale_label: String,
}

/// One series of a bar chart: a value per category (`None`: no bar).
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    pub name: String,
    pub colour: Colour,
    pub values: Vec<Option<Value>>,
}

/// A bar chart. Stacked bars add up the series per category; the `ci` of a
/// stacked segment is the interval of the running total at its far end.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub horizontal: bool,
    pub stacked: bool,
    pub categories: Vec<String>,
    pub category_label: String,
    pub series: Vec<BarSeries>,
    pub axis: Axis,
    /// Print each bar's value (at the end of a grouped bar, inside a wide
    /// enough stacked segment).
    pub value_labels: bool,
}

/// A point of a line series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    pub name: String,
    pub colour: Colour,
    pub marker: usize,
    pub points: Vec<Point>,
}

/// A line chart over a numeric x axis with explicit tick labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    pub series: Vec<LineSeries>,
    pub x_label: String,
    /// `(x, label)` for every tick; the x range spans them.
    pub x_ticks: Vec<(f64, String)>,
    pub axis: Axis,
    /// Draw each series as a step curve (flat, then a jump at each point),
    /// for running totals that change only at whole x values.
    pub step: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Plot {
    Heatmap(Heatmap),
    Bars(Bars),
    Lines(Lines),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub caption: Option<String>,
    pub plot: Plot,
}

/// One chart, written as `<stem>.png` and `<stem>.svg`.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub stem: String,
    pub title: String,
    /// Lines under the title: the rules held fixed, the method.
    pub notes: Vec<String>,
    /// What the chart leaves out (cases past the cap, a tail folded into
    /// one bar, exchanges past the axis), each also one of its notes: said
    /// on stderr when the chart is drawn and on the report's page
    /// (docs/reports.md, "Nothing silent").
    pub warnings: Vec<String>,
    /// Shared by every panel; drawn only with two or more entries.
    pub legend: Vec<LegendItem>,
    pub panels: Vec<Panel>,
    /// Panels per row.
    pub columns: usize,
    pub width: u32,
    pub height: u32,
}

/// Charts are at least this big (1200x800 or more: legible when posted).
pub const MIN_WIDTH: u32 = 1200;
pub const MIN_HEIGHT: u32 = 800;

impl Chart {
    /// A chart of one panel at the minimum size.
    pub fn single(stem: &str, title: impl Into<String>, plot: Plot) -> Chart {
        Chart {
            stem: stem.to_string(),
            title: title.into(),
            notes: Vec::new(),
            warnings: Vec::new(),
            legend: Vec::new(),
            panels: vec![Panel {
                caption: None,
                plot,
            }],
            columns: 1,
            width: MIN_WIDTH,
            height: MIN_HEIGHT,
        }
    }

    /// Says the chart leaves something out: a note under its title and a
    /// warning ([`Chart::warnings`]).
    pub fn cut(&mut self, what: String) {
        self.notes.push(what.clone());
        self.warnings.push(what);
    }

    /// Grows the canvas so each panel row gets `panel_height` pixels on top
    /// of room for the title, notes and legend.
    pub fn fit_height(&mut self, panel_height: u32) {
        let rows = self.panels.len().div_ceil(self.columns.max(1));
        self.fit_row_heights(std::iter::repeat_n(panel_height, rows));
    }

    /// Grows the canvas so the panel rows get these heights in total (rows
    /// of different sizes, as the renderer lays out horizontal bars: see
    /// `render::row_heights`) on top of room for the title, notes and legend.
    pub fn fit_row_heights(&mut self, row_heights: impl IntoIterator<Item = u32>) {
        let header = 150 + 26 * self.notes.len() as u32 + 30 * (self.legend.len() as u32 / 4);
        self.height = self
            .height
            .max(header + row_heights.into_iter().sum::<u32>());
    }
}

/// A legend for bar series.
pub fn bar_legend(series: &[BarSeries]) -> Vec<LegendItem> {
    series
        .iter()
        .map(|s| LegendItem {
            name: s.name.clone(),
            colour: s.colour,
            line: false,
            marker: 0,
        })
        .collect()
}

/// Keeps, in every bar panel, only the series that have a bar above zero
/// in some panel (a legend lists only what can occur: a pool without a d12
/// never shows a d12 effect die), and returns the legend of those series
/// in their order.
pub fn retain_occurring(panels: &mut [Panel]) -> Vec<LegendItem> {
    let mut occurring: Vec<String> = Vec::new();
    let mut order: Vec<BarSeries> = Vec::new();
    for panel in panels.iter() {
        if let Plot::Bars(bars) = &panel.plot {
            for s in &bars.series {
                if !order.iter().any(|o| o.name == s.name) {
                    order.push(BarSeries {
                        values: Vec::new(),
                        ..s.clone()
                    });
                }
                let shows = s.values.iter().flatten().any(|v| v.value > 0.0);
                if shows && !occurring.contains(&s.name) {
                    occurring.push(s.name.clone());
                }
            }
        }
    }
    for panel in panels.iter_mut() {
        if let Plot::Bars(bars) = &mut panel.plot {
            bars.series.retain(|s| occurring.contains(&s.name));
        }
    }
    order.retain(|s| occurring.contains(&s.name));
    bar_legend(&order)
}

/// A legend for line series.
pub fn line_legend(series: &[LineSeries]) -> Vec<LegendItem> {
    series
        .iter()
        .map(|s| LegendItem {
            name: s.name.clone(),
            colour: s.colour,
            line: true,
            marker: s.marker,
        })
        .collect()
}

/// Formats a value on an axis of this format (docs/reports.md, "Numbers").
pub fn format_value(format: Format, v: f64) -> String {
    match format {
        Format::Percent => crate::report::format::percent(v),
        Format::Number(d) => crate::report::format::decimals(v, d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_scale_runs_dark_to_light() {
        assert_eq!(sequential(0.0), Colour(68, 1, 84));
        assert_eq!(sequential(1.0), Colour(253, 231, 37));
        assert!(sequential(0.2).lightness() < sequential(0.8).lightness());
    }
}
