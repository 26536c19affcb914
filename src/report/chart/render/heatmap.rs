//! Heatmap panels: a grid of shaded cells with their values, row and
//! column labels, and a colour bar.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::axis::Area;
use super::canvas::{Canvas, Res};
use super::{ink_on, AXIS, DESC, MUTED, TICK};
use crate::report::chart::model::{sequential, Colour, Heatmap};
use crate::report::format::{percent, percent_tick};

pub(super) fn draw_heatmap<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    h: &Heatmap,
    area: Area,
) -> Res
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
    let bar_ticks_w = canvas.width(&percent_tick(1.0, 0), TICK, false)?;
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
        canvas.tick(r, (left - 10, y), (HPos::Right, VPos::Center))?;
    }
    for (ci, lines) in col_lines.iter().enumerate() {
        let x = left + ci as i32 * cell_w + cell_w / 2;
        for (li, line) in lines.iter().enumerate() {
            let y = grid_bottom + 10 + li as i32 * tick_h;
            canvas.tick(line, (x, y), (HPos::Center, VPos::Top))?;
        }
    }
    let under = (left + grid_right) / 2;
    canvas.axis_names(
        (
            &h.x_label,
            (under, grid_bottom + 10 + max_lines * tick_h + 12),
        ),
        (
            &h.y_label,
            (area.x0 + desc_h / 2, (top + grid_bottom) / 2),
            grid_bottom - top,
        ),
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
        canvas.tick(
            &percent_tick(t, 0),
            (bx0 + bar_w + 8, y),
            (HPos::Left, VPos::Center),
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
