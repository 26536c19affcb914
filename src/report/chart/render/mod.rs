//! Draws a [`Chart`] with plotters, as SVG text or PNG bytes.
//!
//! Plotters supplies the backends and the primitives; the
//! layout is done here by hand (title, notes, legend, a grid of panels, each
//! with its axes) so that label areas are sized from the labels themselves
//! and nothing overlaps or is cut off, whatever the case names are.
//!
//! Text is drawn from the DejaVu Sans font bundled in `assets/fonts/`, never
//! from system fonts, so a PNG looks the same on any machine, with or
//! without fontconfig: `glyphs` measures it and rasterises it for the PNG;
//! the SVG names the font (with `sans-serif` after it) at the same whole-pixel
//! sizes, so a viewer with DejaVu Sans draws what the layout measured.
//! Rendering is deterministic: the same chart gives the same bytes.
//!
//! One module per concern: `canvas` (pixel drawing, text as SVG or pixels),
//! `glyphs` (the bundled font: sizes, measurement, rasterising),
//! `axis` (scales and ticks), and one per kind of panel (`heatmap`, `bars`,
//! `lines`); this file lays out the title, notes, legend and grid of panels.

mod axis;
mod bars;
mod canvas;
mod glyphs;
mod heatmap;
mod lines;

use anyhow::Context;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use self::axis::Area;
use self::bars::{draw_bars, horizontal_padding};
use self::canvas::{Canvas, Res, TextOutput};
use self::heatmap::draw_heatmap;
use self::lines::draw_lines;
use super::model::{Chart, Colour, LegendItem, Panel, Plot};

// Text sizes in pixels (plotters' size is the font's full height; DejaVu's
// em is about 86% of it, rounded to a whole pixel by `glyphs::em_pixels`).
// Chosen so a 1200-pixel chart shown at half size in a README still reads
// comfortably.
const TITLE: f64 = 36.0;
const NOTE: f64 = 21.0;
const LEGEND: f64 = 21.0;
const CAPTION: f64 = 24.0;
const DESC: f64 = 22.0;
/// The smallest an axis description is shrunk to fit beside its plot.
const MIN_DESC: f64 = 15.0;
const TICK: f64 = 20.0;
const VALUE: f64 = 19.0;
const MARGIN: i32 = 30;

const INK: Colour = Colour(34, 34, 34);

/// Text colour that reads on `fill`: white on dark fills, ink on light ones.
fn ink_on(fill: Colour) -> Colour {
    if fill.lightness() < 0.55 {
        Colour(255, 255, 255)
    } else {
        INK
    }
}
const MUTED: Colour = Colour(90, 90, 90);
const GRID: Colour = Colour(225, 225, 225);
const AXIS: Colour = Colour(120, 120, 120);

fn rgb(c: Colour) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// Renders the chart as an SVG document.
pub fn svg(chart: &Chart) -> anyhow::Result<String> {
    let size = canvas_size(chart)?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root, chart, TextOutput::Svg)
            .with_context(|| format!("cannot draw the chart {}", chart.stem))?;
        root.present()?;
    }
    Ok(text)
}

/// Renders the chart as a PNG image (8-bit RGB).
pub fn png(chart: &Chart) -> anyhow::Result<Vec<u8>> {
    let (w, h) = canvas_size(chart)?;
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        draw(&root, chart, TextOutput::Pixels)
            .with_context(|| format!("cannot draw the chart {}", chart.stem))?;
        root.present()?;
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        // Compression chosen by measurement over every bundled report's
        // charts (docs/benchmarks.md): png's default level spent
        // most of a `run`'s time here; the fast level with the adaptive
        // filter is about 15 times quicker for files 1.7 times the size. A
        // palette image does not apply: anti-aliased text gives every chart
        // over 220 colours, most of them over 256.
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::Filter::Adaptive);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
        writer.finish()?;
    }
    Ok(out)
}

/// The title, notes and legend (drawn when `paint`); returns the y where
/// the panels start.
fn draw_header<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    chart: &Chart,
    width: i32,
    paint: bool,
) -> anyhow::Result<i32>
where
    DB::ErrorType: 'static,
{
    let mut y = 22;
    for line in canvas.wrap(&chart.title, TITLE, true, width - 2 * MARGIN)? {
        if paint {
            canvas.text(
                &line,
                (width / 2, y),
                TITLE,
                true,
                INK,
                HPos::Center,
                VPos::Top,
            )?;
        }
        y += Canvas::<DB>::line_height(TITLE) + 4;
    }
    y += 6;
    for note in &chart.notes {
        for line in canvas.wrap(note, NOTE, false, width - 2 * MARGIN)? {
            if paint {
                canvas.text(
                    &line,
                    (width / 2, y),
                    NOTE,
                    false,
                    MUTED,
                    HPos::Center,
                    VPos::Top,
                )?;
            }
            y += Canvas::<DB>::line_height(NOTE) + 4;
        }
    }
    if chart.legend.len() >= 2 {
        y += 8;
        y = draw_legend(canvas, &chart.legend, y, width, paint)?;
    }
    Ok(y + 14)
}

/// The least height a row of panels gets, caption included: below it axes
/// and labels would overlap (or a scale turn over).
const MIN_PANEL_HEIGHT: i32 = 300;
/// The gap between rows of panels.
const ROW_GAP: i32 = 28;

/// The canvas size a chart is drawn at: its own, grown taller when the
/// title, notes and legend would leave a row of panels less than
/// [`MIN_PANEL_HEIGHT`], so a long legend pushes the plots down rather
/// than squashing them.
pub fn canvas_size(chart: &Chart) -> anyhow::Result<(u32, u32)> {
    let mut scratch = String::new();
    let header = {
        let root =
            SVGBackend::with_string(&mut scratch, (chart.width, chart.height)).into_drawing_area();
        let canvas = Canvas {
            root: &root,
            text_output: TextOutput::Svg,
        };
        draw_header(&canvas, chart, chart.width as i32, false)?
    };
    let rows = chart.panels.len().div_ceil(chart.columns.max(1)).max(1) as i32;
    let needed = header + rows * MIN_PANEL_HEIGHT + ROW_GAP * (rows - 1) + MARGIN / 2;
    Ok((chart.width, chart.height.max(needed.max(0) as u32)))
}

/// Draws the whole chart.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    text_output: TextOutput,
) -> Res
where
    DB::ErrorType: 'static,
{
    let canvas = Canvas { root, text_output };
    root.fill(&WHITE)?;
    let (width, height) = root.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    let y = draw_header(&canvas, chart, width, true)?;

    let columns = chart.columns.max(1);
    let rows = chart.panels.len().div_ceil(columns).max(1);
    let panel_w = (width - 2 * MARGIN) / columns as i32;
    // Rows of panels are kept apart so a caption never touches the axis
    // label of the panel above.
    let row_gap = ROW_GAP;
    let panels_h = height - y - MARGIN / 2 - row_gap * (rows as i32 - 1);
    let gap = if columns > 1 { 24 } else { 0 };
    // Every caption gets the height of the tallest, so the plots of a row line up.
    let mut caption_lines = 0;
    for panel in &chart.panels {
        if let Some(caption) = &panel.caption {
            let n = canvas.wrap(caption, CAPTION, true, panel_w - gap)?.len();
            caption_lines = caption_lines.max(n);
        }
    }
    let (above, below) = horizontal_padding::<DB>();
    let chrome = caption_height::<DB>(caption_lines) + above + below;
    let heights = row_heights(chart, panels_h, chrome);
    let mut row_top = y;
    for (i, panel) in chart.panels.iter().enumerate() {
        let col = (i % columns) as i32;
        let row = i / columns;
        if col == 0 && row > 0 {
            row_top += heights[row - 1] + row_gap;
        }
        let x0 = MARGIN + col * panel_w;
        draw_panel(
            &canvas,
            panel,
            caption_lines,
            (x0, row_top),
            (x0 + panel_w - gap, row_top + heights[row]),
        )?;
    }
    Ok(())
}

/// The height of each row of panels, sharing out `space` pixels. Rows of
/// horizontal bars (the effect-die charts, a panel per hero pool with as
/// many bars as it has cases) keep `chrome` pixels each for the caption,
/// ticks and axis description and share the rest by their largest bar
/// count, so a bar is as thick in a panel of two as in a panel of eight;
/// any other chart's rows are equal (as are bar rows of equal counts: the
/// integer arithmetic gives the same pixels).
fn row_heights(chart: &Chart, space: i32, chrome: i32) -> Vec<i32> {
    let columns = chart.columns.max(1);
    let rows = chart.panels.len().div_ceil(columns).max(1);
    let equal = vec![space / rows as i32; rows];
    let bars_per_row: Option<Vec<i32>> = chart
        .panels
        .chunks(columns)
        .map(|row| {
            row.iter().try_fold(1, |most, panel| match &panel.plot {
                Plot::Bars(bars) if bars.horizontal => Some(most.max(bars.categories.len() as i32)),
                _ => None,
            })
        })
        .collect();
    let Some(bars_per_row) = bars_per_row else {
        return equal;
    };
    let total_bars: i32 = bars_per_row.iter().sum();
    let bar_space = space - chrome * rows as i32;
    if bar_space <= 0 || total_bars <= 0 {
        return equal;
    }
    bars_per_row
        .iter()
        .map(|bars| chrome + bar_space * bars / total_bars)
        .collect()
}

/// The pixels a panel's captions take above its plot, for `lines` lines
/// of caption (none without a caption).
fn caption_height<DB: DrawingBackend>(lines: usize) -> i32
where
    DB::ErrorType: 'static,
{
    if lines > 0 {
        lines as i32 * (Canvas::<DB>::line_height(CAPTION) + 2) + 8
    } else {
        0
    }
}

/// Legend entries laid out in centred rows; returns the y below them.
fn draw_legend<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    items: &[LegendItem],
    mut y: i32,
    width: i32,
    paint: bool,
) -> anyhow::Result<i32>
where
    DB::ErrorType: 'static,
{
    let swatch = 34;
    let gap = 28;
    let mut sized = Vec::new();
    for item in items {
        let w = canvas.width(&item.name, LEGEND, false)?;
        sized.push((item, swatch + 8 + w));
    }
    // Greedy rows that fit the canvas width.
    let mut rows: Vec<Vec<(&LegendItem, i32)>> = vec![Vec::new()];
    let mut used = 0;
    for (item, w) in sized {
        let row = rows.last_mut().expect("rows is never empty");
        if !row.is_empty() && used + gap + w > width - 2 * MARGIN {
            rows.push(vec![(item, w)]);
            used = w;
        } else {
            used += if row.is_empty() { w } else { gap + w };
            row.push((item, w));
        }
    }
    let line_h = Canvas::<DB>::line_height(LEGEND) + 8;
    for row in rows {
        let total: i32 = row.iter().map(|(_, w)| *w).sum::<i32>() + gap * (row.len() as i32 - 1);
        let mut x = (width - total) / 2;
        let mid = y + line_h / 2;
        // Measuring only (see `canvas_size`): the rows' height is all we need.
        let row = if paint { row } else { Vec::new() };
        for (item, w) in row {
            if item.line {
                canvas.line(vec![(x, mid), (x + swatch, mid)], item.colour, 3)?;
                canvas.marker((x + swatch / 2, mid), item.marker, item.colour)?;
            } else {
                canvas.fill((x + 4, mid - 9), (x + swatch - 4, mid + 9), item.colour)?;
                canvas.outline((x + 4, mid - 9), (x + swatch - 4, mid + 9), AXIS)?;
            }
            canvas.text(
                &item.name,
                (x + swatch + 8, mid),
                LEGEND,
                false,
                INK,
                HPos::Left,
                VPos::Center,
            )?;
            x += w + gap;
        }
        y += line_h;
    }
    Ok(y)
}

fn draw_panel<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    panel: &Panel,
    caption_lines: usize,
    top_left: (i32, i32),
    bottom_right: (i32, i32),
) -> Res
where
    DB::ErrorType: 'static,
{
    let (x0, top) = top_left;
    let line_h = Canvas::<DB>::line_height(CAPTION) + 2;
    if let Some(caption) = &panel.caption {
        let mid = (x0 + bottom_right.0) / 2;
        let lines = canvas.wrap(caption, CAPTION, true, bottom_right.0 - x0)?;
        for (i, line) in lines.iter().enumerate() {
            let y = top + i as i32 * line_h;
            canvas.text(line, (mid, y), CAPTION, true, INK, HPos::Center, VPos::Top)?;
        }
    }
    let y0 = top + caption_height::<DB>(caption_lines);
    let area = Area {
        x0,
        y0,
        x1: bottom_right.0,
        y1: bottom_right.1,
    };
    match &panel.plot {
        Plot::Heatmap(h) => draw_heatmap(canvas, h, area),
        Plot::Bars(b) => draw_bars(canvas, b, area),
        Plot::Lines(l) => draw_lines(canvas, l, area),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::chart::model::{Axis, Bars};

    fn chart_of(plots: Vec<Plot>, columns: usize) -> Chart {
        let mut chart = Chart::single("test", "test", plots[0].clone());
        chart.panels = plots
            .into_iter()
            .map(|plot| Panel {
                caption: None,
                plot,
            })
            .collect();
        chart.columns = columns;
        chart
    }

    fn bars(horizontal: bool, count: usize) -> Plot {
        Plot::Bars(Bars {
            horizontal,
            stacked: true,
            categories: (0..count).map(|i| i.to_string()).collect(),
            category_label: "Case".into(),
            series: Vec::new(),
            axis: Axis::percent("Share, %"),
            value_labels: false,
        })
    }

    #[test]
    fn horizontal_bar_rows_share_height_by_bar_count() {
        let chart = chart_of(vec![bars(true, 2), bars(true, 8)], 1);
        let heights = row_heights(&chart, 1100, 100);
        // What is left after each row's chrome goes 2 : 8.
        assert_eq!(heights, vec![100 + 180, 100 + 720]);
    }

    #[test]
    fn a_row_is_as_tall_as_its_longest_panel_needs() {
        let chart = chart_of(
            vec![bars(true, 1), bars(true, 3), bars(true, 3), bars(true, 3)],
            2,
        );
        assert_eq!(row_heights(&chart, 800, 100), vec![400, 400]);
    }

    /// The font size of the SVG text element that reads `text` (plotters
    /// writes the text on a line of its own).
    fn font_size_of(svg: &str, text: &str) -> f64 {
        let end = svg
            .find(&format!(">\n{text}\n</text>"))
            .unwrap_or_else(|| panic!("{text:?} is not drawn"));
        let start = svg[..end].rfind("<text").unwrap();
        let size = svg[start..end].split("font-size=\"").nth(1).unwrap();
        size[..size.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn an_axis_description_longer_than_its_plot_is_set_smaller() {
        let described = |label: &str| {
            let mut plot = bars(false, 3);
            if let Plot::Bars(bars) = &mut plot {
                bars.axis = Axis::number(label, 1);
            }
            svg(&chart_of(vec![plot], 1)).unwrap()
        };
        // plotters writes sizes in its own unit, so compare the two.
        let short = font_size_of(&described("Successes"), "Successes");
        let long = "average exchanges to take the foe out (of fights where it is), \
                    counted over every exchange of the conflict";
        let size = font_size_of(&described(long), long);
        assert!(
            size < short && size >= (short * MIN_DESC / DESC).floor(),
            "{size} against {short}"
        );
    }

    #[test]
    fn other_charts_keep_equal_rows() {
        let chart = chart_of(vec![bars(false, 2), bars(false, 8)], 1);
        assert_eq!(row_heights(&chart, 1000, 100), vec![500, 500]);
        let mixed = chart_of(vec![bars(true, 2), bars(false, 8)], 1);
        assert_eq!(row_heights(&mixed, 1000, 100), vec![500, 500]);
    }
}
