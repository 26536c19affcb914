//! The Markdown writer: a [`Document`] as GitHub-flavoured Markdown, with
//! pipe tables, ready to paste into a forum post, a wiki page or a README
//! (`--format markdown` on stdout, and `report.md` in a report folder).
//! Like every writer it returns text and never touches files.

use std::io::Write;

use super::document::{Align, Block, Document, Inline, Line, NoDeferredRows, RowSource, Table};
use super::format::{
    markdown as escape, markdown_code, markdown_code_block, markdown_line_start, url_path,
};

/// Renders a document: blocks separated by blank lines, a final newline.
pub fn render(document: &Document) -> String {
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(document, &NoDeferredRows, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes a document as [`render`] makes it, a table row at a time, its
/// deferred rows made by `rows`.
pub fn write(
    document: &Document,
    rows: &dyn RowSource,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for (i, b) in document.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n\n")?;
        }
        block(b, rows, out)?;
    }
    out.write_all(b"\n")
}

fn block(block: &Block, rows: &dyn RowSource, out: &mut dyn Write) -> std::io::Result<()> {
    let text = match block {
        Block::Heading(level, title) => {
            format!("{} {}", "#".repeat(usize::from(*level)), escape(title))
        }
        Block::Paragraph(line) => block_line(line),
        Block::List(items) => items
            .iter()
            .map(|item| format!("- {}", block_line(item)))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Table(t) => {
            out.write_all(table_head(t).as_bytes())?;
            return t.each_row(rows, |cells| write!(out, "\n{}", row(cells)));
        }
        Block::Section { level, title, .. } => {
            format!("{} {}", "#".repeat(usize::from(*level)), escape(title))
        }
        Block::Chart { stem: path, title } | Block::Image { path, title, .. } => {
            let base = url_path(path);
            format!("[![{}]({base}.png)]({base}.svg)", escape(title))
        }
        Block::Command(command) => markdown_code_block("sh", command),
    };
    out.write_all(text.as_bytes())
}

/// A table row; a line break in a cell would end the row, so it is a space.
fn row(cells: &[Line]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|cell| {
            let text = inline(cell);
            if text.contains('\n') {
                text.replace('\n', " ")
            } else {
                text
            }
        })
        .collect();
    format!("| {} |", cells.join(" | "))
}

/// A table's header and rule lines.
fn table_head(t: &Table) -> String {
    let rule: Vec<&str> = t
        .align
        .iter()
        .map(|a| match a {
            Align::Left => "---",
            Align::Right => "--:",
        })
        .collect();
    format!("{}\n| {} |", row(&t.header), rule.join(" | "))
}

/// A line that begins a block (a paragraph, a list item): text there that
/// would open a heading, a quote or a list keeps its first character literal.
fn block_line(line: &Line) -> String {
    let text = inline(line);
    match line.first() {
        Some(Inline::Text(_)) => markdown_line_start(text),
        _ => text,
    }
}

fn inline(line: &Line) -> String {
    line.iter()
        .map(|run| match run {
            Inline::Text(s) => escape(s),
            Inline::Code(s) => markdown_code(s),
            Inline::Strong(s) => format!("**{}**", escape(s)),
            Inline::Link { text, href } => format!("[{}]({})", escape(text), url_path(href)),
            Inline::InPage { text, id } => format!("[{}](#{id})", escape(text)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::document::{code, text};

    #[test]
    fn tables_are_pipe_tables_with_alignment() {
        let t = Table {
            header: vec![text("metric"), text("value")],
            align: vec![Align::Left, Align::Right],
            rows: vec![vec![code("p_success"), text("89.79 %")]],
            deferred: None,
        };
        assert_eq!(
            render(&vec![Block::Table(t)]),
            "| metric | value |\n| --- | --: |\n| `p_success` | 89.79 % |\n"
        );
    }

    #[test]
    fn markup_in_names_is_escaped() {
        let doc = vec![Block::Paragraph(vec![
            Inline::Text("a|b *c* [d]".into()),
            Inline::Strong("3d8".into()),
            Inline::Code("x|y".into()),
        ])];
        assert_eq!(render(&doc), "a\\|b \\*c\\* [d]**3d8**`x\\|y`\n");
        let doc = vec![Block::Paragraph(text("# [a](b)"))];
        assert_eq!(render(&doc), "\\# \\[a\\](b)\n");
    }

    #[test]
    fn charts_embed_the_png_linked_to_the_svg() {
        let doc = vec![Block::Chart {
            stem: "cortex-p-success".into(),
            title: "Chance".into(),
        }];
        assert_eq!(
            render(&doc),
            "[![Chance](cortex-p-success.png)](cortex-p-success.svg)\n"
        );
    }
}
