//! The writers of [`Grid`]s (pivot tables and distribution views,
//! docs/reports.md): the aligned terminal table, the pages' [`Document`]
//! blocks (report.md, report.html and `--format markdown` all render
//! these) and CSV. Every grid is laid out one way: a title, what its cases
//! share said once, then the table, its corner naming the rows.
//! Numbers are [`super::format`]'s grid forms, one precision per table;
//! CSV keeps code names and full precision for scripts.

use std::io::Write;

use anyhow::Context;

use super::document::{text, Align, Block, Document, Line, Table};
use super::format::{csv_cell, grid_mean, grid_percent, number};
use super::pivot::{Cell, Grid};
use super::table::aligned_fit;
use crate::systems::metrics::MetricKind;

/// A cell as people read it; "–" where there is no number.
pub fn cell_text(cell: Option<Cell>) -> String {
    match cell {
        Some(Cell {
            value,
            kind: MetricKind::Probability,
        }) => grid_percent(value),
        Some(Cell { value, .. }) => grid_mean(value),
        None => "–".into(),
    }
}

/// The grids as the terminal shows them: each its title, notes and
/// aligned table, a blank line between grids.
pub fn to_text(grids: &[Grid]) -> String {
    let mut out = String::new();
    for (i, grid) in grids.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&grid.title);
        out.push('\n');
        for note in &grid.notes {
            out.push_str(&format!("  {note}\n"));
        }
        let mut rows = vec![std::iter::once(grid.corner.clone())
            .chain(grid.columns.iter().cloned())
            .collect::<Vec<_>>()];
        for row in &grid.rows {
            rows.push(
                std::iter::once(row.label.clone())
                    .chain(row.cells.iter().map(|c| cell_text(*c)))
                    .collect(),
            );
        }
        out.push_str(&aligned_fit(&rows, 1));
    }
    out
}

/// The grids as page blocks: a heading (at `level`), the notes as a
/// paragraph, the table.
pub fn to_document(grids: &[Grid], level: u8) -> Document {
    let mut doc = Document::new();
    for grid in grids {
        doc.push(Block::Heading(level, grid.title.clone()));
        if !grid.notes.is_empty() {
            doc.push(Block::Paragraph(text(grid.notes.join(" "))));
        }
        doc.push(Block::Table(table(grid)));
    }
    doc
}

/// One grid as a page table.
pub fn table(grid: &Grid) -> Table {
    let mut header: Vec<Line> = vec![text(&grid.corner)];
    header.extend(grid.columns.iter().map(text));
    let mut align = vec![Align::Left];
    align.extend(grid.columns.iter().map(|_| Align::Right));
    let rows = grid
        .rows
        .iter()
        .map(|row| {
            std::iter::once(text(&row.label))
                .chain(row.cells.iter().map(|c| text(cell_text(*c))))
                .collect()
        })
        .collect();
    Table {
        header,
        align,
        rows,
        deferred: None,
    }
}

/// The grids as CSV, in code names: per grid a header (`metric`, the row
/// keys, then a column per column value) and a row per grid row, numbers
/// at full precision (probabilities from 0 to 1); a blank line between grids.
pub fn write_csv(grids: &[Grid], out: &mut dyn Write) -> anyhow::Result<()> {
    let context = "cannot write the table";
    for (i, grid) in grids.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n").context(context)?;
        }
        let lead = grid.metric.is_some();
        let mut header: Vec<String> = Vec::new();
        if lead {
            header.push("metric".into());
        }
        header.push(grid.corner_code.clone());
        header.extend(grid.column_codes.iter().cloned());
        writeln!(out, "{}", csv_line(&header)).context(context)?;
        for row in &grid.rows {
            let mut cells: Vec<String> = Vec::new();
            if let Some(metric) = &grid.metric {
                cells.push(metric.clone());
            }
            cells.push(row.code.clone());
            cells.extend(
                row.cells
                    .iter()
                    .map(|c| c.map_or(String::new(), |c| number(c.value))),
            );
            writeln!(out, "{}", csv_line(&cells)).context(context)?;
        }
    }
    Ok(())
}

/// The grids as JSON for scripts (`--format json` with `--rows`/`--cols`
/// or `--view`): code names as CSV has them, probabilities from 0 to 1, an
/// empty cell `null`; one object per grid with its measure, the key its
/// rows name, its columns and its rows (docs/reports.md).
pub fn to_json(grids: &[Grid]) -> serde_json::Value {
    let grid_json = |grid: &Grid| {
        let rows: Vec<serde_json::Value> = grid
            .rows
            .iter()
            .map(|row| {
                let values: Vec<serde_json::Value> = row
                    .cells
                    .iter()
                    .map(|c| {
                        c.filter(|c| c.value.is_finite())
                            .map_or(serde_json::Value::Null, |c| {
                                serde_json::json!(c.value + 0.0)
                            })
                    })
                    .collect();
                serde_json::json!({ "row": row.code, "values": values })
            })
            .collect();
        serde_json::json!({
            "metric": grid.metric,
            "rows_key": grid.corner_code,
            "columns": grid.column_codes,
            "rows": rows,
        })
    };
    serde_json::Value::Array(grids.iter().map(grid_json).collect())
}

fn csv_line(cells: &[String]) -> String {
    cells
        .iter()
        .map(|c| csv_cell(c).into_owned())
        .collect::<Vec<_>>()
        .join(",")
}
