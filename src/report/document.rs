//! The publishing pages' shared shape: a small document (headings,
//! paragraphs, lists, tables, charts, a command line) built once from a
//! report and rendered by two writers, [`super::markdown`] (GitHub-flavoured
//! Markdown) and [`super::html`] (one self-contained page). Because both
//! render the same [`Document`], report.md and report.html cannot drift
//! apart: every table cell is one [`Inline`] run, written twice.
//! Numbers and text are written by [`super::format`], as everywhere else.

use super::{format, CaseResult, MethodUsed};

/// A run of text with its one mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    /// Names the reader may type: metric names, rule keys, commands.
    Code(String),
    /// The winning rung of a balance.
    Strong(String),
    /// A link to a file of the report folder (the CSV tables), or from the
    /// index to a file of a folder.
    Link {
        text: String,
        href: String,
    },
    /// A link to a [`Block::Section`] of the same page, by its `id`.
    InPage {
        text: String,
        id: String,
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
    /// A heading that [`Inline::InPage`] links reach by `id` (the index's
    /// entries); `id` is the anchor GitHub gives the heading.
    Section {
        level: u8,
        title: String,
        id: String,
    },
    Paragraph(Line),
    List(Vec<Line>),
    Table(Table),
    /// A chart of the report folder: Markdown embeds `<stem>.png` linked to
    /// `<stem>.svg`; HTML inlines the SVG itself.
    Chart {
        stem: String,
        title: String,
    },
    /// A chart of another folder (the index): Markdown embeds
    /// `<path>.png` linked to `<path>.svg`, as for [`Block::Chart`]; HTML
    /// shows the PNG at `width` pixels at most, linked to the SVG.
    Image {
        path: String,
        title: String,
        width: u32,
    },
    /// A command to copy, on a line of its own.
    Command(String),
}

/// A page or a piece of one.
pub type Document = Vec<Block>;

/// How a result was found, for the line above its table: "exact", or
/// "Monte Carlo, 1,000,000 trials, seed 1, 95 % intervals".
pub fn method_phrase(result: &CaseResult) -> String {
    match result.method {
        MethodUsed::Exact => "exact".into(),
        MethodUsed::MonteCarlo => format!(
            "Monte Carlo, {} trials, seed {}, {} intervals",
            format::thousands(result.trials.unwrap_or(0)),
            result.seed.unwrap_or(0),
            format::LEVEL
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
