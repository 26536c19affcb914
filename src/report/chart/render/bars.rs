//! Bar panels, horizontal or vertical, grouped or stacked.
//!
//! One drawing routine serves both orientations: each lays out its own frame
//! (where the value axis and the category labels go, [`Frame`]), and the
//! bars, their value labels and their error bars are drawn once, in
//! (value, across) coordinates that [`Frame::point`] turns into pixels.
//! The proportions that differ by orientation (how much of a category's band
//! the bars fill, how thick a bar may get) live in [`Proportions`].

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::axis::{axis_range, nice_ticks, tick_label, Area, Scale};
use super::canvas::{Canvas, Res};
use super::{ink_on, AXIS, DESC, GRID, INK, TICK, VALUE};
use crate::report::chart::model::{format_value, Bars};
use crate::report::format::percent;

/// How bars fill their category's band in one orientation.
struct Proportions {
    /// Share of the band a stacked bar fills, and its largest thickness.
    stacked: (f64, f64),
    /// Share of the band a group of bars fills, and the largest thickness
    /// of one bar in it.
    grouped: (f64, f64),
    /// Pixels left open at the start of each grouped bar (its end always
    /// leaves one), so neighbours in a group stay apart.
    grouped_gap: i32,
}

const HORIZONTAL: Proportions = Proportions {
    stacked: (0.72, 70.0),
    grouped: (0.8, 44.0),
    grouped_gap: 0,
};

const VERTICAL: Proportions = Proportions {
    stacked: (0.62, 150.0),
    grouped: (0.84, 90.0),
    grouped_gap: 1,
};

/// Where a bar panel's plot sits, once its labels have been measured.
struct Frame {
    horizontal: bool,
    /// The value axis, from the bars' base to their far end.
    scale: Scale,
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    /// The category labels, one entry (of wrapped lines) per category.
    category_lines: Vec<Vec<String>>,
    /// Rows of tick-sized text under the plot: the value ticks when
    /// horizontal, the wrapped category labels when vertical.
    lines_below: i32,
}

impl Frame {
    /// A pixel from a position along the value axis and one across it.
    fn point(&self, along: i32, across: i32) -> (i32, i32) {
        if self.horizontal {
            (along, across)
        } else {
            (across, along)
        }
    }

    /// Where the category bands start across the value axis, and how wide
    /// each is.
    fn bands(&self, categories: usize) -> (f64, f64) {
        let n = categories.max(1) as i32;
        if self.horizontal {
            (
                f64::from(self.top),
                f64::from(self.bottom - self.top) / f64::from(n),
            )
        } else {
            (
                f64::from(self.left),
                f64::from(self.right - self.left) / f64::from(n),
            )
        }
    }

    fn proportions(&self) -> &'static Proportions {
        if self.horizontal {
            &HORIZONTAL
        } else {
            &VERTICAL
        }
    }
}

pub(super) fn draw_bars<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, bars: &Bars, area: Area) -> Res
where
    DB::ErrorType: 'static,
{
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
    let frame = if bars.horizontal {
        horizontal_frame(canvas, bars, area, (lo, hi), &ticks, step)?
    } else {
        vertical_frame(canvas, bars, area, (lo, hi), &ticks, step)?
    };
    let (bands_start, band) = frame.bands(bars.categories.len());
    for (ci, lines) in frame.category_lines.iter().enumerate() {
        let b0 = bands_start + band * ci as f64;
        draw_category_label(canvas, &frame, lines, (b0 + band / 2.0).round() as i32)?;
        if bars.stacked {
            draw_stack(canvas, bars, &frame, ci, b0, band)?;
        } else {
            draw_group(canvas, bars, &frame, ci, b0, band)?;
        }
    }
    let (left, right, top, bottom) = (frame.left, frame.right, frame.top, frame.bottom);
    canvas.line(vec![(left, top), (left, bottom)], AXIS, 1)?;
    canvas.line(vec![(left, bottom), (right, bottom)], AXIS, 1)?;
    let desc_h = Canvas::<DB>::line_height(DESC);
    let tick_h = Canvas::<DB>::line_height(TICK);
    let (below, beside) = if frame.horizontal {
        (&bars.axis.label, &bars.category_label)
    } else {
        (&bars.category_label, &bars.axis.label)
    };
    let under = (left + right) / 2;
    canvas.axis_names(
        (below, (under, bottom + 8 + frame.lines_below * tick_h + 10)),
        (
            beside,
            (area.x0 + desc_h / 2, (top + bottom) / 2),
            bottom - top,
        ),
    )
}

/// The pixels a horizontal bar panel keeps above its bars and below them
/// (the value ticks and the axis description): what is left of its height
/// is shared out among its bars, which is how the layout gives panels of
/// different bar counts equally thick bars (see `super::row_heights`).
pub(super) fn horizontal_padding<DB: DrawingBackend>() -> (i32, i32)
where
    DB::ErrorType: 'static,
{
    let tick_h = Canvas::<DB>::line_height(TICK);
    let desc_h = Canvas::<DB>::line_height(DESC);
    (4, 8 + tick_h + 10 + desc_h + 4)
}

/// Categories down the left, values along the bottom; draws the value grid.
fn horizontal_frame<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    bars: &Bars,
    area: Area,
    (lo, hi): (f64, f64),
    ticks: &[f64],
    step: f64,
) -> anyhow::Result<Frame>
where
    DB::ErrorType: 'static,
{
    let desc_h = Canvas::<DB>::line_height(DESC);
    // Room past the end of grouped bars for their value labels.
    let value_room = if bars.value_labels && !bars.stacked {
        canvas.width(&percent(0.9999), VALUE, false)? + 12
    } else {
        0
    };
    let mut label_w = 0;
    for c in &bars.categories {
        label_w = label_w.max(canvas.width(c, TICK, false)?);
    }
    let mut tick_w = 0;
    for t in ticks {
        tick_w = tick_w.max(canvas.width(&tick_label(bars.axis.format, *t, step), TICK, false)?);
    }
    let left = area.x0 + desc_h + 12 + label_w + 12;
    let right = area.x1 - value_room.max(tick_w / 2 + 4);
    let (above, below) = horizontal_padding::<DB>();
    let top = area.y0 + above;
    let bottom = area.y1 - below;
    let scale = Scale {
        lo,
        hi,
        p0: left,
        p1: right,
    };
    for t in ticks {
        let x = scale.px(*t);
        canvas.line(vec![(x, top), (x, bottom)], GRID, 1)?;
        canvas.tick(
            &tick_label(bars.axis.format, *t, step),
            (x, bottom + 8),
            (HPos::Center, VPos::Top),
        )?;
    }
    Ok(Frame {
        horizontal: true,
        scale,
        left,
        right,
        top,
        bottom,
        category_lines: bars.categories.iter().map(|c| vec![c.clone()]).collect(),
        lines_below: 1,
    })
}

/// Categories (wrapped) along the bottom, values up the left; draws the
/// value grid.
fn vertical_frame<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    bars: &Bars,
    area: Area,
    (lo, hi): (f64, f64),
    ticks: &[f64],
    step: f64,
) -> anyhow::Result<Frame>
where
    DB::ErrorType: 'static,
{
    let tick_h = Canvas::<DB>::line_height(TICK);
    let desc_h = Canvas::<DB>::line_height(DESC);
    let n = bars.categories.len().max(1) as i32;
    let mut tick_w = 0;
    for t in ticks {
        tick_w = tick_w.max(canvas.width(&tick_label(bars.axis.format, *t, step), TICK, false)?);
    }
    let left = area.x0 + desc_h + 12 + tick_w + 10;
    let right = area.x1 - 10;
    let band = f64::from(right - left) / f64::from(n);
    let mut category_lines = Vec::new();
    for c in &bars.categories {
        category_lines.push(canvas.wrap(c, TICK, false, (band as i32 - 6).max(20))?);
    }
    let max_lines = category_lines.iter().map(Vec::len).max().unwrap_or(1) as i32;
    let top = area.y0 + 4 + if bars.value_labels { tick_h } else { 0 };
    let bottom = area.y1 - (8 + max_lines * tick_h + 10 + desc_h + 4);
    let scale = Scale {
        lo,
        hi,
        p0: bottom,
        p1: top,
    };
    canvas.value_rows(bars.axis.format, (ticks, step), &scale, (left, right))?;
    Ok(Frame {
        horizontal: false,
        scale,
        left,
        right,
        top,
        bottom,
        category_lines,
        lines_below: max_lines,
    })
}

/// A category's label: left of its band when horizontal, wrapped under it
/// when vertical.
fn draw_category_label<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    frame: &Frame,
    lines: &[String],
    mid: i32,
) -> Res
where
    DB::ErrorType: 'static,
{
    let tick_h = Canvas::<DB>::line_height(TICK);
    for (li, line) in lines.iter().enumerate() {
        if frame.horizontal {
            canvas.tick(line, (frame.left - 10, mid), (HPos::Right, VPos::Center))?;
        } else {
            canvas.tick(
                line,
                (mid, frame.bottom + 8 + li as i32 * tick_h),
                (HPos::Center, VPos::Top),
            )?;
        }
    }
    Ok(())
}

/// The size a stacked segment's value label is drawn at, if it fits inside
/// the segment: `length` along the value axis, `thickness` across it.
fn stacked_label_size<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    frame: &Frame,
    text: &str,
    length: i32,
    thickness: i32,
) -> anyhow::Result<Option<f64>>
where
    DB::ErrorType: 'static,
{
    if frame.horizontal {
        // Text runs along the segment, scaled to the bar's thickness.
        let size = VALUE.min(f64::from(thickness) * 0.6);
        Ok((canvas.width(text, size, false)? + 8 < length).then_some(size))
    } else {
        // Text runs across the bar; the segment must be taller than a line.
        let size = VALUE;
        let fits =
            f64::from(length) > size * 1.1 && canvas.width(text, size, false)? + 6 < thickness;
        Ok(fits.then_some(size))
    }
}

/// How far past a stacked bar's edge its intervals are drawn: the
/// whisker's cap (5 pixels each way) then just touches the bar.
const WHISKER_OFFSET: i32 = 6;

/// One category's stacked bar, its segments' labels, then the intervals
/// beside it.
fn draw_stack<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    bars: &Bars,
    frame: &Frame,
    ci: usize,
    b0: f64,
    band: f64,
) -> Res
where
    DB::ErrorType: 'static,
{
    let (share, most) = frame.proportions().stacked;
    let thick = (band * share).min(most);
    let a = (b0 + (band - thick) / 2.0).round() as i32;
    let b = (b0 + (band + thick) / 2.0).round() as i32;
    let across = (a + b) / 2;
    let mut stack = 0.0;
    let mut whiskers = Vec::new();
    for series in &bars.series {
        let Some(Some(v)) = series.values.get(ci) else {
            continue;
        };
        let (start, end) = (frame.scale.px(stack), frame.scale.px(stack + v.value));
        canvas.fill(frame.point(start, a), frame.point(end, b), series.colour)?;
        if bars.value_labels {
            let text = percent(v.value);
            // Pixels along the value axis, counted in its direction.
            let length = if frame.horizontal {
                end - start
            } else {
                start - end
            };
            if let Some(size) = stacked_label_size(canvas, frame, &text, length, b - a)? {
                canvas.text(
                    &text,
                    frame.point((start + end) / 2, across),
                    size,
                    false,
                    ink_on(series.colour),
                    HPos::Center,
                    VPos::Center,
                )?;
            }
        }
        stack += v.value;
        if let Some(ci) = v.ci {
            whiskers.push(ci);
        }
    }
    // Beside the bar, just past its edge, so an interval never covers a
    // thin segment.
    for (l, h) in whiskers {
        draw_whisker(canvas, frame, b + WHISKER_OFFSET, (l, h))?;
    }
    Ok(())
}

/// One category's bars side by side, each with its interval and (when
/// horizontal) its value past the end.
fn draw_group<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    bars: &Bars,
    frame: &Frame,
    ci: usize,
    b0: f64,
    band: f64,
) -> Res
where
    DB::ErrorType: 'static,
{
    let proportions = frame.proportions();
    let (share, most) = proportions.grouped;
    let s = bars.series.len().max(1) as i32;
    let thick = (band * share / f64::from(s)).min(most);
    let start = b0 + (band - thick * f64::from(s)) / 2.0;
    let base = frame.scale.p0;
    for (si, series) in bars.series.iter().enumerate() {
        let Some(Some(v)) = series.values.get(ci) else {
            continue;
        };
        let a = (start + thick * si as f64).round() as i32 + proportions.grouped_gap;
        let b = (start + thick * (si as f64 + 1.0)).round() as i32 - 1;
        let end = frame.scale.px(v.value);
        // At least one pixel, so a zero still shows as a bar.
        let end = if frame.horizontal {
            end.max(base + 1)
        } else {
            end.min(base - 1)
        };
        canvas.fill(frame.point(base, a), frame.point(end, b), series.colour)?;
        let across = (a + b) / 2;
        let mut reach = frame.scale.px(v.value);
        if let Some((l, h)) = v.ci {
            draw_whisker(canvas, frame, across, (l, h))?;
            reach = reach.max(frame.scale.px(h));
        }
        // Only horizontal grouped bars print their value past the end;
        // vertical ones are read against the value grid.
        if bars.value_labels && frame.horizontal {
            let size = VALUE.min(f64::from(b - a) * 0.9).max(12.0);
            canvas.text(
                &format_value(bars.axis.format, v.value),
                (reach + 6, across),
                size,
                false,
                INK,
                HPos::Left,
                VPos::Center,
            )?;
        }
    }
    Ok(())
}

/// An interval's error bar at `across`.
fn draw_whisker<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    frame: &Frame,
    across: i32,
    (lo, hi): (f64, f64),
) -> Res
where
    DB::ErrorType: 'static,
{
    canvas.whisker(
        frame.point(frame.scale.px(lo), across),
        frame.point(frame.scale.px(hi), across),
        INK,
        frame.horizontal,
    )
}
