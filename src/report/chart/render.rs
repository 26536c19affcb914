//! Draws a [`Chart`] with plotters, as SVG text or PNG bytes.
//!
//! Plotters supplies the backends, the primitives and text measurement; the
//! layout is done here by hand (title, notes, legend, a grid of panels, each
//! with its axes) so that label areas are sized from the labels themselves
//! and nothing overlaps or is cut off, whatever the case names are.
//!
//! Text is drawn from the DejaVu Sans font bundled in `assets/fonts/`
//! (registered with plotters' `ab_glyph` feature), never from system fonts,
//! so a PNG looks the same on any machine, with or without fontconfig. The
//! SVG names the family `sans-serif`, which every viewer has; its layout was
//! measured with DejaVu's metrics. Rendering is deterministic: the same chart
//! gives the same bytes.

use std::sync::OnceLock;

use anyhow::{anyhow, Context};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::model::{
    format_value, percent, sequential, Axis, Bars, Chart, Colour, Format, Heatmap, LegendItem,
    Lines, Panel, Plot,
};

/// The family name the fonts are registered under; SVG viewers fall back to
/// their own sans-serif face for it.
const FAMILY: &str = "sans-serif";

static FONT_REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static FONT_BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

fn register_fonts() -> anyhow::Result<()> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    let ok = *LOADED.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, FONT_REGULAR).is_ok()
            && plotters::style::register_font(FAMILY, FontStyle::Bold, FONT_BOLD).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(anyhow!("the bundled chart font could not be loaded"))
    }
}

// Text sizes in pixels (plotters' size is the font's full height; DejaVu's
// em is about 86% of it). Chosen so a 1200-pixel chart shown at half size in
// a README still reads comfortably.
const TITLE: f64 = 36.0;
const NOTE: f64 = 21.0;
const LEGEND: f64 = 21.0;
const CAPTION: f64 = 24.0;
const DESC: f64 = 22.0;
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
    register_fonts()?;
    let size = canvas_size(chart)?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root, chart).with_context(|| format!("cannot draw the chart {}", chart.stem))?;
        root.present()?;
    }
    Ok(text)
}

/// Renders the chart as a PNG image (8-bit RGB).
pub fn png(chart: &Chart) -> anyhow::Result<Vec<u8>> {
    register_fonts()?;
    let (w, h) = canvas_size(chart)?;
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        draw(&root, chart).with_context(|| format!("cannot draw the chart {}", chart.stem))?;
        root.present()?;
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
        writer.finish()?;
    }
    Ok(out)
}

/// Absolute-pixel drawing helpers over the whole canvas.
struct Canvas<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
}

type Res = anyhow::Result<()>;

fn text_style(size: f64, bold: bool, colour: Colour, h: HPos, v: VPos) -> TextStyle<'static> {
    let style = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    TextStyle {
        font: (FAMILY, size, style).into_font(),
        color: rgb(colour).to_backend_color(),
        pos: Pos::new(h, v),
    }
}

impl<DB: DrawingBackend> Canvas<'_, DB>
where
    DB::ErrorType: 'static,
{
    fn measure(&self, text: &str, size: f64, bold: bool) -> anyhow::Result<(i32, i32)> {
        let style = text_style(size, bold, INK, HPos::Left, VPos::Top);
        let (w, h) = self.root.estimate_text_size(text, &style)?;
        Ok((w as i32, h as i32))
    }

    fn width(&self, text: &str, size: f64, bold: bool) -> anyhow::Result<i32> {
        Ok(self.measure(text, size, bold)?.0)
    }

    /// Line height for a font size.
    fn line_height(size: f64) -> i32 {
        (size * 1.05).round() as i32
    }

    #[allow(clippy::too_many_arguments)]
    fn text(
        &self,
        text: &str,
        at: (i32, i32),
        size: f64,
        bold: bool,
        colour: Colour,
        h: HPos,
        v: VPos,
    ) -> Res {
        let style = text_style(size, bold, colour, h, v);
        self.root.draw_text(text, &style, at)?;
        Ok(())
    }

    /// Text turned to read bottom to top, centred on `at`.
    fn vertical_text(&self, text: &str, at: (i32, i32), size: f64) -> Res {
        let style = text_style(size, false, INK, HPos::Center, VPos::Center)
            .transform(FontTransform::Rotate270);
        self.root.draw_text(text, &style, at)?;
        Ok(())
    }

    fn fill(&self, a: (i32, i32), b: (i32, i32), colour: Colour) -> Res {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        self.root
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], rgb(colour).filled()))?;
        Ok(())
    }

    fn outline(&self, a: (i32, i32), b: (i32, i32), colour: Colour) -> Res {
        self.root
            .draw(&Rectangle::new([a, b], rgb(colour).stroke_width(1)))?;
        Ok(())
    }

    fn line(&self, points: Vec<(i32, i32)>, colour: Colour, width: u32) -> Res {
        self.root
            .draw(&PathElement::new(points, rgb(colour).stroke_width(width)))?;
        Ok(())
    }

    fn marker(&self, at: (i32, i32), shape: usize, colour: Colour) -> Res {
        let style = rgb(colour).filled();
        let (x, y) = at;
        let r = 7;
        match shape % 4 {
            0 => self.root.draw(&Circle::new(at, r, style))?,
            1 => self.root.draw(&Rectangle::new(
                [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
                style,
            ))?,
            2 => self.root.draw(&Polygon::new(
                vec![(x, y - r - 1), (x + r, y + r - 2), (x - r, y + r - 2)],
                style,
            ))?,
            _ => self.root.draw(&Polygon::new(
                vec![
                    (x, y - r - 1),
                    (x + r + 1, y),
                    (x, y + r + 1),
                    (x - r - 1, y),
                ],
                style,
            ))?,
        }
        // A white rim keeps overlapping markers apart.
        if shape.is_multiple_of(4) {
            self.root
                .draw(&Circle::new(at, r, RGBColor(255, 255, 255).stroke_width(1)))?;
        }
        Ok(())
    }

    /// An error bar from `a` to `b` (pixels along one axis) with caps.
    fn whisker(&self, a: (i32, i32), b: (i32, i32), colour: Colour, horizontal: bool) -> Res {
        let cap = 5;
        self.line(vec![a, b], colour, 2)?;
        for p in [a, b] {
            let ends = if horizontal {
                vec![(p.0, p.1 - cap), (p.0, p.1 + cap)]
            } else {
                vec![(p.0 - cap, p.1), (p.0 + cap, p.1)]
            };
            self.line(ends, colour, 2)?;
        }
        Ok(())
    }

    /// Splits `text` at spaces into lines no wider than `max` pixels (a
    /// single word wider than that keeps its own line).
    fn wrap(&self, text: &str, size: f64, bold: bool, max: i32) -> anyhow::Result<Vec<String>> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for word in text.split(' ') {
            let candidate = if current.is_empty() {
                word.to_string()
            } else {
                format!("{current} {word}")
            };
            if !current.is_empty() && self.width(&candidate, size, bold)? > max {
                lines.push(std::mem::take(&mut current));
                current = word.to_string();
            } else {
                current = candidate;
            }
        }
        if !current.is_empty() || lines.is_empty() {
            lines.push(current);
        }
        Ok(lines)
    }
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
    register_fonts()?;
    let mut scratch = String::new();
    let header = {
        let root =
            SVGBackend::with_string(&mut scratch, (chart.width, chart.height)).into_drawing_area();
        draw_header(&Canvas { root: &root }, chart, chart.width as i32, false)?
    };
    let rows = chart.panels.len().div_ceil(chart.columns.max(1)).max(1) as i32;
    let needed = header + rows * MIN_PANEL_HEIGHT + ROW_GAP * (rows - 1) + MARGIN / 2;
    Ok((chart.width, chart.height.max(needed.max(0) as u32)))
}

/// Draws the whole chart.
fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Res
where
    DB::ErrorType: 'static,
{
    let canvas = Canvas { root };
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
    let panel_h = (height - y - MARGIN / 2 - row_gap * (rows as i32 - 1)) / rows as i32;
    let gap = if columns > 1 { 24 } else { 0 };
    // Every caption gets the height of the tallest, so the plots of a row line up.
    let mut caption_lines = 0;
    for panel in &chart.panels {
        if let Some(caption) = &panel.caption {
            let n = canvas.wrap(caption, CAPTION, true, panel_w - gap)?.len();
            caption_lines = caption_lines.max(n);
        }
    }
    for (i, panel) in chart.panels.iter().enumerate() {
        let col = (i % columns) as i32;
        let row = (i / columns) as i32;
        let x0 = MARGIN + col * panel_w;
        let y0 = y + row * (panel_h + row_gap);
        draw_panel(
            &canvas,
            panel,
            caption_lines,
            (x0, y0),
            (x0 + panel_w - gap, y0 + panel_h),
        )?;
    }
    Ok(())
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
    let y0 = if caption_lines > 0 {
        top + caption_lines as i32 * line_h + 8
    } else {
        top
    };
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

/// A pixel rectangle.
#[derive(Debug, Clone, Copy)]
struct Area {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

/// A linear map from data values to pixels.
#[derive(Debug, Clone, Copy)]
struct Scale {
    lo: f64,
    hi: f64,
    p0: i32,
    p1: i32,
}

impl Scale {
    /// The pixel of `v`, held inside the axis so an interval reaching past
    /// it (a mean's interval below zero) stops at the frame.
    fn px(&self, v: f64) -> i32 {
        let t = if self.hi > self.lo {
            ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (f64::from(self.p0) + t * f64::from(self.p1 - self.p0)).round() as i32
    }
}

/// Round tick positions covering `lo..=hi` with about `target` steps, and
/// the (possibly raised) top so the last tick sits on the frame.
fn nice_ticks(lo: f64, hi: f64, target: usize, extend_top: bool) -> (Vec<f64>, f64, f64) {
    let span = (hi - lo).max(1e-12);
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * magnitude);
    let top = if extend_top {
        (hi / step - 1e-9).ceil() * step
    } else {
        hi
    };
    let mut ticks = Vec::new();
    let mut i = (lo / step - 1e-9).ceil() as i64;
    loop {
        let t = i as f64 * step;
        if t > top + step * 1e-6 {
            break;
        }
        ticks.push(t);
        i += 1;
    }
    (ticks, step, top)
}

/// Tick label text: percentages with only the decimals the step needs.
fn tick_label(format: Format, v: f64, step: f64) -> String {
    // The fewest decimals that write the step exactly (2.5 -> 1, 20 -> 0).
    let decimals_for = |step: f64| {
        (0..4)
            .find(|d| {
                let scaled = step * 10f64.powi(*d);
                (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
            })
            .unwrap_or(4) as usize
    };
    match format {
        Format::Percent => {
            let d = decimals_for(step * 100.0);
            format!("{:.d$}%", v * 100.0)
        }
        Format::Number(_) => {
            let d = decimals_for(step);
            format!("{v:.d$}")
        }
    }
}

/// The numeric range an axis covers for this data: its fixed bounds, else
/// the data's with headroom for labels and error bars.
fn axis_range(axis: &Axis, data_max: f64, data_min: f64) -> (f64, f64, bool) {
    let lo = axis.min.unwrap_or(data_min.min(0.0));
    match axis.max {
        Some(hi) => (lo, hi, false),
        None => {
            let hi = if data_max > lo {
                data_max * 1.08
            } else {
                lo + 1.0
            };
            (lo, hi, true)
        }
    }
}

fn draw_heatmap<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, h: &Heatmap, area: Area) -> Res
where
    DB::ErrorType: 'static,
{
    let n_rows = h.rows.len().max(1) as i32;
    let n_cols = h.columns.len().max(1) as i32;
    let desc_h = Canvas::<DB>::line_height(DESC);
    let mut label_w = 0;
    for r in &h.rows {
        label_w = label_w.max(canvas.width(r, TICK, false)?);
    }
    let bar_w = 26;
    let bar_ticks_w = canvas.width("100%", TICK, false)?;
    let left = area.x0 + desc_h + 14 + label_w + 12;
    let right = area.x1 - (24 + bar_w + 8 + bar_ticks_w + 14 + desc_h);
    let cell_w = (right - left) / n_cols;
    // Column labels wrap to the cell width.
    let mut col_lines = Vec::new();
    for c in &h.columns {
        col_lines.push(canvas.wrap(c, TICK, false, cell_w - 8)?);
    }
    let max_lines = col_lines.iter().map(Vec::len).max().unwrap_or(1) as i32;
    let tick_h = Canvas::<DB>::line_height(TICK);
    let top = area.y0 + 4;
    let bottom = area.y1 - (10 + max_lines * tick_h + 12 + desc_h + 6);
    let cell_h = (bottom - top) / n_rows;
    let grid_right = left + cell_w * n_cols;
    let grid_bottom = top + cell_h * n_rows;

    let value_size = (f64::from(cell_h) * 0.42).clamp(14.0, 24.0);
    for (ri, row) in h.cells.iter().enumerate() {
        for (ci, cell) in row.iter().enumerate() {
            let a = (left + ci as i32 * cell_w, top + ri as i32 * cell_h);
            let b = (a.0 + cell_w, a.1 + cell_h);
            match cell {
                Some(v) => {
                    let fill = sequential(*v);
                    canvas.fill(a, b, fill)?;
                    let ink = ink_on(fill);
                    let text = percent(*v);
                    let mut size = value_size;
                    while size > 10.0 && canvas.width(&text, size, true)? > cell_w - 8 {
                        size -= 1.0;
                    }
                    canvas.text(
                        &text,
                        ((a.0 + b.0) / 2, (a.1 + b.1) / 2),
                        size,
                        true,
                        ink,
                        HPos::Center,
                        VPos::Center,
                    )?;
                }
                None => {
                    canvas.fill(a, b, Colour(245, 245, 245))?;
                    canvas.text(
                        "not run",
                        ((a.0 + b.0) / 2, (a.1 + b.1) / 2),
                        TICK,
                        false,
                        MUTED,
                        HPos::Center,
                        VPos::Center,
                    )?;
                }
            }
        }
    }
    // White separators between cells.
    for ci in 1..n_cols {
        let x = left + ci * cell_w;
        canvas.line(vec![(x, top), (x, grid_bottom)], Colour(255, 255, 255), 2)?;
    }
    for ri in 1..n_rows {
        let y = top + ri * cell_h;
        canvas.line(vec![(left, y), (grid_right, y)], Colour(255, 255, 255), 2)?;
    }
    for (ri, r) in h.rows.iter().enumerate() {
        let y = top + ri as i32 * cell_h + cell_h / 2;
        canvas.text(
            r,
            (left - 10, y),
            TICK,
            false,
            INK,
            HPos::Right,
            VPos::Center,
        )?;
    }
    for (ci, lines) in col_lines.iter().enumerate() {
        let x = left + ci as i32 * cell_w + cell_w / 2;
        for (li, line) in lines.iter().enumerate() {
            let y = grid_bottom + 10 + li as i32 * tick_h;
            canvas.text(line, (x, y), TICK, false, INK, HPos::Center, VPos::Top)?;
        }
    }
    canvas.text(
        &h.x_label,
        (
            (left + grid_right) / 2,
            grid_bottom + 10 + max_lines * tick_h + 12,
        ),
        DESC,
        false,
        INK,
        HPos::Center,
        VPos::Top,
    )?;
    canvas.vertical_text(
        &h.y_label,
        (area.x0 + desc_h / 2, (top + grid_bottom) / 2),
        DESC,
    )?;

    // Colour bar: 0% at the bottom, 100% at the top.
    let bx0 = grid_right + 24;
    let steps = 100;
    let span = grid_bottom - top;
    for i in 0..steps {
        let y_hi = grid_bottom - span * (i + 1) / steps;
        let y_lo = grid_bottom - span * i / steps;
        let t = (f64::from(i) + 0.5) / f64::from(steps);
        canvas.fill((bx0, y_hi), (bx0 + bar_w, y_lo), sequential(t))?;
    }
    canvas.outline((bx0, top), (bx0 + bar_w, grid_bottom), AXIS)?;
    for k in 0..=4 {
        let t = f64::from(k) / 4.0;
        let y = grid_bottom - (f64::from(span) * t).round() as i32;
        canvas.line(vec![(bx0 + bar_w, y), (bx0 + bar_w + 5, y)], AXIS, 1)?;
        canvas.text(
            &format!("{}%", k * 25),
            (bx0 + bar_w + 8, y),
            TICK,
            false,
            INK,
            HPos::Left,
            VPos::Center,
        )?;
    }
    canvas.vertical_text(
        &h.scale_label,
        (
            bx0 + bar_w + 8 + bar_ticks_w + 14 + desc_h / 2,
            (top + grid_bottom) / 2,
        ),
        DESC,
    )?;
    Ok(())
}

fn draw_bars<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, bars: &Bars, area: Area) -> Res
where
    DB::ErrorType: 'static,
{
    let n = bars.categories.len().max(1) as i32;
    let s = bars.series.len().max(1) as i32;
    // The data extent, including interval ends.
    let mut data_max = 0f64;
    for c in 0..bars.categories.len() {
        let mut stack = 0.0;
        for series in &bars.series {
            if let Some(Some(v)) = series.values.get(c) {
                let top = if bars.stacked {
                    stack + v.value
                } else {
                    v.value
                };
                data_max = data_max.max(top).max(v.ci.map_or(0.0, |c| c.1));
                if bars.stacked {
                    stack += v.value;
                }
            }
        }
    }
    let (lo, hi_raw, extend) = axis_range(&bars.axis, data_max, 0.0);
    let target = if bars.horizontal { 8 } else { 6 };
    let (ticks, step, hi) = nice_ticks(lo, hi_raw, target, extend);
    let tick_h = Canvas::<DB>::line_height(TICK);
    let desc_h = Canvas::<DB>::line_height(DESC);
    // Room past the end of grouped bars for their value labels.
    let value_room = if bars.value_labels && !bars.stacked {
        canvas.width(">99.9%", VALUE, false)? + 12
    } else {
        0
    };

    if bars.horizontal {
        let mut label_w = 0;
        for c in &bars.categories {
            label_w = label_w.max(canvas.width(c, TICK, false)?);
        }
        let mut tick_w = 0;
        for t in &ticks {
            tick_w =
                tick_w.max(canvas.width(&tick_label(bars.axis.format, *t, step), TICK, false)?);
        }
        let left = area.x0 + desc_h + 12 + label_w + 12;
        let right = area.x1 - value_room.max(tick_w / 2 + 4);
        let top = area.y0 + 4;
        let bottom = area.y1 - (8 + tick_h + 10 + desc_h + 4);
        let scale = Scale {
            lo,
            hi,
            p0: left,
            p1: right,
        };
        for t in &ticks {
            let x = scale.px(*t);
            canvas.line(vec![(x, top), (x, bottom)], GRID, 1)?;
            canvas.text(
                &tick_label(bars.axis.format, *t, step),
                (x, bottom + 8),
                TICK,
                false,
                INK,
                HPos::Center,
                VPos::Top,
            )?;
        }
        let band = f64::from(bottom - top) / f64::from(n);
        for (ci, label) in bars.categories.iter().enumerate() {
            let b0 = f64::from(top) + band * ci as f64;
            let mid = (b0 + band / 2.0).round() as i32;
            canvas.text(
                label,
                (left - 10, mid),
                TICK,
                false,
                INK,
                HPos::Right,
                VPos::Center,
            )?;
            if bars.stacked {
                let thick = (band * 0.72).min(70.0);
                let y_a = (b0 + (band - thick) / 2.0).round() as i32;
                let y_b = (b0 + (band + thick) / 2.0).round() as i32;
                let mut stack = 0.0;
                let mut whiskers = Vec::new();
                for series in &bars.series {
                    let Some(Some(v)) = series.values.get(ci) else {
                        continue;
                    };
                    let (xa, xb) = (scale.px(stack), scale.px(stack + v.value));
                    canvas.fill((xa, y_a), (xb, y_b), series.colour)?;
                    if bars.value_labels {
                        let text = percent(v.value);
                        let size = VALUE.min(f64::from(y_b - y_a) * 0.6);
                        if canvas.width(&text, size, false)? + 8 < xb - xa {
                            let ink = ink_on(series.colour);
                            canvas.text(
                                &text,
                                ((xa + xb) / 2, (y_a + y_b) / 2),
                                size,
                                false,
                                ink,
                                HPos::Center,
                                VPos::Center,
                            )?;
                        }
                    }
                    stack += v.value;
                    if let Some((l, h)) = v.ci {
                        whiskers.push((l, h));
                    }
                }
                for (l, h) in whiskers {
                    let y = (y_a + y_b) / 2;
                    canvas.whisker((scale.px(l), y), (scale.px(h), y), INK, true)?;
                }
            } else {
                let inner = band * 0.8;
                let thick = (inner / f64::from(s)).min(44.0);
                let start = b0 + (band - thick * f64::from(s)) / 2.0;
                for (si, series) in bars.series.iter().enumerate() {
                    let Some(Some(v)) = series.values.get(ci) else {
                        continue;
                    };
                    let y_a = (start + thick * si as f64).round() as i32;
                    let y_b = (start + thick * (si as f64 + 1.0)).round() as i32 - 1;
                    let xb = scale.px(v.value);
                    canvas.fill((left, y_a), (xb.max(left + 1), y_b), series.colour)?;
                    let y = (y_a + y_b) / 2;
                    let mut end = xb;
                    if let Some((l, h)) = v.ci {
                        canvas.whisker((scale.px(l), y), (scale.px(h), y), INK, true)?;
                        end = end.max(scale.px(h));
                    }
                    if bars.value_labels {
                        let size = VALUE.min(f64::from(y_b - y_a) * 0.9).max(12.0);
                        canvas.text(
                            &format_value(bars.axis.format, v.value),
                            (end + 6, y),
                            size,
                            false,
                            INK,
                            HPos::Left,
                            VPos::Center,
                        )?;
                    }
                }
            }
        }
        canvas.line(vec![(left, top), (left, bottom)], AXIS, 1)?;
        canvas.line(vec![(left, bottom), (right, bottom)], AXIS, 1)?;
        canvas.text(
            &bars.axis.label,
            ((left + right) / 2, bottom + 8 + tick_h + 10),
            DESC,
            false,
            INK,
            HPos::Center,
            VPos::Top,
        )?;
        canvas.vertical_text(
            &bars.category_label,
            (area.x0 + desc_h / 2, (top + bottom) / 2),
            DESC,
        )?;
    } else {
        let mut tick_w = 0;
        for t in &ticks {
            tick_w =
                tick_w.max(canvas.width(&tick_label(bars.axis.format, *t, step), TICK, false)?);
        }
        let left = area.x0 + desc_h + 12 + tick_w + 10;
        let right = area.x1 - 10;
        let band = f64::from(right - left) / f64::from(n);
        let mut cat_lines = Vec::new();
        for c in &bars.categories {
            cat_lines.push(canvas.wrap(c, TICK, false, (band as i32 - 6).max(20))?);
        }
        let max_lines = cat_lines.iter().map(Vec::len).max().unwrap_or(1) as i32;
        let top = area.y0 + 4 + if bars.value_labels { tick_h } else { 0 };
        let bottom = area.y1 - (8 + max_lines * tick_h + 10 + desc_h + 4);
        let scale = Scale {
            lo,
            hi,
            p0: bottom,
            p1: top,
        };
        for t in &ticks {
            let y = scale.px(*t);
            canvas.line(vec![(left, y), (right, y)], GRID, 1)?;
            canvas.text(
                &tick_label(bars.axis.format, *t, step),
                (left - 8, y),
                TICK,
                false,
                INK,
                HPos::Right,
                VPos::Center,
            )?;
        }
        for (ci, lines) in cat_lines.iter().enumerate() {
            let b0 = f64::from(left) + band * ci as f64;
            let mid = (b0 + band / 2.0).round() as i32;
            for (li, line) in lines.iter().enumerate() {
                canvas.text(
                    line,
                    (mid, bottom + 8 + li as i32 * tick_h),
                    TICK,
                    false,
                    INK,
                    HPos::Center,
                    VPos::Top,
                )?;
            }
            if bars.stacked {
                let thick = (band * 0.62).min(150.0);
                let x_a = (b0 + (band - thick) / 2.0).round() as i32;
                let x_b = (b0 + (band + thick) / 2.0).round() as i32;
                let mut stack = 0.0;
                let mut whiskers = Vec::new();
                for series in &bars.series {
                    let Some(Some(v)) = series.values.get(ci) else {
                        continue;
                    };
                    let (ya, yb) = (scale.px(stack), scale.px(stack + v.value));
                    canvas.fill((x_a, ya), (x_b, yb), series.colour)?;
                    if bars.value_labels {
                        let text = percent(v.value);
                        let size = VALUE;
                        if f64::from(ya - yb) > size * 1.1
                            && canvas.width(&text, size, false)? + 6 < x_b - x_a
                        {
                            let ink = ink_on(series.colour);
                            canvas.text(
                                &text,
                                ((x_a + x_b) / 2, (ya + yb) / 2),
                                size,
                                false,
                                ink,
                                HPos::Center,
                                VPos::Center,
                            )?;
                        }
                    }
                    stack += v.value;
                    if let Some((l, h)) = v.ci {
                        whiskers.push((l, h));
                    }
                }
                for (l, h) in whiskers {
                    let x = (x_a + x_b) / 2;
                    canvas.whisker((x, scale.px(l)), (x, scale.px(h)), INK, false)?;
                }
            } else {
                let inner = band * 0.84;
                let thick = (inner / f64::from(s)).min(90.0);
                let start = b0 + (band - thick * f64::from(s)) / 2.0;
                for (si, series) in bars.series.iter().enumerate() {
                    let Some(Some(v)) = series.values.get(ci) else {
                        continue;
                    };
                    let x_a = (start + thick * si as f64).round() as i32 + 1;
                    let x_b = (start + thick * (si as f64 + 1.0)).round() as i32 - 1;
                    let yb = scale.px(v.value);
                    canvas.fill((x_a, bottom), (x_b, yb.min(bottom - 1)), series.colour)?;
                    let x = (x_a + x_b) / 2;
                    if let Some((l, h)) = v.ci {
                        canvas.whisker((x, scale.px(l)), (x, scale.px(h)), INK, false)?;
                    }
                }
            }
        }
        canvas.line(vec![(left, top), (left, bottom)], AXIS, 1)?;
        canvas.line(vec![(left, bottom), (right, bottom)], AXIS, 1)?;
        canvas.text(
            &bars.category_label,
            ((left + right) / 2, bottom + 8 + max_lines * tick_h + 10),
            DESC,
            false,
            INK,
            HPos::Center,
            VPos::Top,
        )?;
        canvas.vertical_text(
            &bars.axis.label,
            (area.x0 + desc_h / 2, (top + bottom) / 2),
            DESC,
        )?;
    }
    Ok(())
}

fn draw_lines<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, lines: &Lines, area: Area) -> Res
where
    DB::ErrorType: 'static,
{
    let mut data_max = 0f64;
    for s in &lines.series {
        for p in &s.points {
            data_max = data_max.max(p.y.value).max(p.y.ci.map_or(0.0, |c| c.1));
        }
    }
    let (lo, hi_raw, extend) = axis_range(&lines.axis, data_max, 0.0);
    let (ticks, step, hi) = nice_ticks(lo, hi_raw, 6, extend);
    let tick_h = Canvas::<DB>::line_height(TICK);
    let desc_h = Canvas::<DB>::line_height(DESC);
    let mut tick_w = 0;
    for t in &ticks {
        tick_w = tick_w.max(canvas.width(&tick_label(lines.axis.format, *t, step), TICK, false)?);
    }
    let left = area.x0 + desc_h + 12 + tick_w + 10;
    let right = area.x1 - 16;
    let top = area.y0 + 8;
    let bottom = area.y1 - (8 + tick_h + 10 + desc_h + 4);
    let y_scale = Scale {
        lo,
        hi,
        p0: bottom,
        p1: top,
    };
    let xs: Vec<f64> = lines.x_ticks.iter().map(|(x, _)| *x).collect();
    let x_min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let x_max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (x_min, x_max) = if x_min.is_finite() {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    // Half a step of padding so end points and their bars are not on the frame.
    let pad = if xs.len() > 1 {
        (x_max - x_min) / (xs.len() - 1) as f64 * 0.5
    } else {
        0.5
    };
    let x_scale = Scale {
        lo: x_min - pad,
        hi: x_max + pad,
        p0: left,
        p1: right,
    };
    for t in &ticks {
        let y = y_scale.px(*t);
        canvas.line(vec![(left, y), (right, y)], GRID, 1)?;
        canvas.text(
            &tick_label(lines.axis.format, *t, step),
            (left - 8, y),
            TICK,
            false,
            INK,
            HPos::Right,
            VPos::Center,
        )?;
    }
    // Thin out x tick labels that would collide.
    let mut widest = 0;
    for (_, label) in &lines.x_ticks {
        widest = widest.max(canvas.width(label, TICK, false)?);
    }
    let spacing = if xs.len() > 1 {
        f64::from(right - left) / (xs.len() as f64)
    } else {
        f64::from(right - left)
    };
    let every = ((f64::from(widest + 12) / spacing).ceil() as usize).max(1);
    for (i, (x, label)) in lines.x_ticks.iter().enumerate() {
        let px = x_scale.px(*x);
        canvas.line(vec![(px, top), (px, bottom)], GRID, 1)?;
        canvas.line(vec![(px, bottom), (px, bottom + 5)], AXIS, 1)?;
        if i % every == 0 {
            canvas.text(
                label,
                (px, bottom + 8),
                TICK,
                false,
                INK,
                HPos::Center,
                VPos::Top,
            )?;
        }
    }
    canvas.line(vec![(left, top), (left, bottom)], AXIS, 1)?;
    canvas.line(vec![(left, bottom), (right, bottom)], AXIS, 1)?;
    for s in &lines.series {
        let mut pts: Vec<_> = s.points.clone();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x));
        let path: Vec<(i32, i32)> = pts
            .iter()
            .map(|p| (x_scale.px(p.x), y_scale.px(p.y.value)))
            .collect();
        if path.len() > 1 {
            let mut drawn = path.clone();
            if lines.step {
                // Flat to the next x, then straight up or down at it.
                drawn = Vec::with_capacity(path.len() * 2);
                for (i, &(x, y)) in path.iter().enumerate() {
                    if i > 0 {
                        drawn.push((x, path[i - 1].1));
                    }
                    drawn.push((x, y));
                }
            }
            canvas.line(drawn, s.colour, 3)?;
        }
        for p in &pts {
            if let Some((l, h)) = p.y.ci {
                let x = x_scale.px(p.x);
                canvas.whisker((x, y_scale.px(l)), (x, y_scale.px(h)), s.colour, false)?;
            }
        }
        for at in path {
            canvas.marker(at, s.marker, s.colour)?;
        }
    }
    canvas.text(
        &lines.x_label,
        ((left + right) / 2, bottom + 8 + tick_h + 10),
        DESC,
        false,
        INK,
        HPos::Center,
        VPos::Top,
    )?;
    canvas.vertical_text(
        &lines.axis.label,
        (area.x0 + desc_h / 2, (top + bottom) / 2),
        DESC,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (ticks, step, top) = nice_ticks(0.0, 1.0, 5, false);
        assert_eq!(step, 0.2);
        assert_eq!(ticks.len(), 6);
        assert_eq!(top, 1.0);
        let (ticks, step, top) = nice_ticks(0.0, 0.37, 6, true);
        assert_eq!(step, 0.1);
        assert!((top - 0.4).abs() < 1e-12);
        assert_eq!(ticks.len(), 5);
        assert_eq!(tick_label(Format::Percent, 0.2, 0.2), "20%");
        assert_eq!(tick_label(Format::Percent, 0.025, 0.025), "2.5%");
        assert_eq!(tick_label(Format::Number(2), 0.5, 0.5), "0.5");
    }
}
