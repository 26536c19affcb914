//! Line panels: one line per series over numbered x ticks, with markers
//! and error bars.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::axis::{axis_range, nice_ticks, tick_label, Area, Scale};
use super::canvas::{Canvas, Res};
use super::{AXIS, DESC, GRID, TICK};
use crate::report::chart::model::Lines;

pub(super) fn draw_lines<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    lines: &Lines,
    area: Area,
) -> Res
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
    // X tick labels too wide for their spacing wrap (at most two lines)
    // and, when still too wide, alternate between two rows (a ladder's rung
    // names, "3d10 (global catastrophic)"); past that, some are left out.
    let n_ticks = lines.x_ticks.len().max(1);
    let spacing = f64::from(right - left) / n_ticks as f64;
    let mut layout = None;
    for label_rows in [1usize, 2] {
        let room = (spacing * label_rows as f64) as i32 - 12;
        let mut wrapped = Vec::new();
        let mut widest = 0;
        for (_, label) in &lines.x_ticks {
            let parts = canvas.wrap(label, TICK, false, room.max(20))?;
            for part in &parts {
                widest = widest.max(canvas.width(part, TICK, false)?);
            }
            wrapped.push(parts);
        }
        let most = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        let fits = widest <= room && most <= 2;
        if fits || label_rows == 2 {
            let every =
                ((f64::from(widest + 12) / (spacing * label_rows as f64)).ceil() as usize).max(1);
            layout = Some((label_rows, wrapped, most, every));
            break;
        }
    }
    let (label_rows, wrapped, label_lines, every) = layout.unwrap_or((1, Vec::new(), 1, 1));
    let label_height = tick_h * (label_rows * label_lines) as i32;
    let bottom = area.y1 - (8 + label_height + 10 + desc_h + 4);
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
    canvas.value_rows(lines.axis.format, (&ticks, step), &y_scale, (left, right))?;
    for (i, (x, _)) in lines.x_ticks.iter().enumerate() {
        let px = x_scale.px(*x);
        canvas.line(vec![(px, top), (px, bottom)], GRID, 1)?;
        canvas.line(vec![(px, bottom), (px, bottom + 5)], AXIS, 1)?;
        if i % every == 0 {
            let row = (i / every % label_rows) * label_lines;
            for (li, part) in wrapped[i].iter().enumerate() {
                canvas.tick(
                    part,
                    (px, bottom + 8 + (row + li) as i32 * tick_h),
                    (HPos::Center, VPos::Top),
                )?;
            }
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
    canvas.axis_names(
        (
            &lines.x_label,
            ((left + right) / 2, bottom + 8 + label_height + 10),
        ),
        (
            &lines.axis.label,
            (area.x0 + desc_h / 2, (top + bottom) / 2),
            bottom - top,
        ),
    )
}
