//! The HTML writer: a [`Document`] as one self-contained page
//! (`report.html`) a person can upload as it is. The style sheet is inline,
//! charts are inline SVG, tables are HTML tables with the cells report.md
//! has, and nothing is loaded from outside the file: the only links go to
//! the CSV tables beside it. The page needs no script, fits a 390 px-wide
//! phone (wide tables scroll sideways with their first column held in
//! place) and prints without the scrolling. Like every writer it returns
//! text and never touches files.

use std::io::Write;

use super::document::{Align, Block, Document, Inline, Line, NoDeferredRows, RowSource, Table};
use super::format::{html as escape, url_path};

/// The page's style sheet. No `url()` or `@import`: the page must not
/// reach outside itself.
const STYLE: &str = "\
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif; color: #1b1b1b; background: #fff; line-height: 1.5; max-width: 62rem; margin: 0 auto; padding: 0.75rem; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 0.75rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid #ccc; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
ul { padding-left: 1.25rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; background: #f2f2f2; padding: 0 0.2em; border-radius: 3px; }
pre { background: #f2f2f2; padding: 0.5rem 0.75rem; white-space: pre-wrap; overflow-wrap: anywhere; border-radius: 4px; }
pre code { background: none; padding: 0; }
.table { overflow-x: auto; margin: 0.75rem 0 1.25rem; border: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.875rem; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
th { background: #f5f5f5; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr > :first-child { position: sticky; left: 0; background: #fff; box-shadow: 1px 0 0 #e4e4e4; min-width: 11em; }
@media (max-width: 600px) {
  tr > :first-child { min-width: 8.5em; }
  th, td { padding: 0.25rem 0.4rem; }
  /* A chart drawn for 1200 px is unreadable shrunk to a phone: keep it at
     half its size or more (its text 10 px or more) and let it scroll
     sideways, as the wide tables do; --w is the chart's own width. */
  figure { overflow-x: auto; }
  figure svg { min-width: calc(var(--w, 1440px) / 2); }
  p.chart { overflow-x: auto; }
  p.chart img { max-width: none; }
}
tr > th:first-child { background: #f5f5f5; }
figure { margin: 1rem 0 1.5rem; }
figure svg { display: block; width: 100%; height: auto; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  .table { overflow: visible; border: none; }
  table { font-size: 8pt; }
  tr, figure { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  tr > :first-child { position: static; box-shadow: none; min-width: 0; }
  figure { overflow: visible; }
  figure svg { min-width: 0; }
  a { color: inherit; }
}
";

/// Renders a document as a complete page titled `title`. `svgs` holds each
/// chart's SVG text by stem; a chart without one is left out.
pub fn render(title: &str, document: &Document, svgs: &[(String, String)]) -> String {
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(title, document, svgs, &NoDeferredRows, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Renders a document's blocks alone, without the page around them (and
/// without charts): what `oddsmith serve`'s page shows as its table, the
/// same cells as the Markdown output.
pub fn fragment(document: &Document) -> String {
    let mut out = Vec::new();
    for b in document {
        // Writing into memory cannot fail.
        let _ = block(b, &[], &NoDeferredRows, &mut out);
        out.push(b'\n');
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the page as [`render`] makes it, a table row at a time, the
/// tables' deferred rows made by `rows`.
pub fn write(
    title: &str,
    document: &Document,
    svgs: &[(String, String)],
    rows: &dyn RowSource,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    )?;
    for b in document {
        block(b, svgs, rows, out)?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"</body>\n</html>\n")
}

fn block(
    block: &Block,
    svgs: &[(String, String)],
    rows: &dyn RowSource,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let text = match block {
        Block::Heading(level, title) => format!("<h{level}>{}</h{level}>", escape(title)),
        Block::Section { level, title, id } => format!(
            "<h{level} id=\"{}\">{}</h{level}>",
            escape(id),
            escape(title)
        ),
        Block::Paragraph(line) => format!("<p>{}</p>", inline(line)),
        Block::List(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| format!("<li>{}</li>", inline(item)))
                .collect();
            format!("<ul>\n{}\n</ul>", items.join("\n"))
        }
        Block::Table(t) => return table(t, rows, out),
        Block::Chart { stem, title } => match svgs.iter().find(|(s, _)| s == stem) {
            // The chart draws its own title; a caption would repeat it.
            Some((_, svg)) => match svg_width(svg) {
                Some(w) => format!(
                    "<figure style=\"--w: {w}px\">\n{}\n</figure>",
                    inline_svg(svg, title)
                ),
                None => format!("<figure>\n{}\n</figure>", inline_svg(svg, title)),
            },
            None => String::new(),
        },
        Block::Image { path, title, width } => {
            let base = escape(&url_path(path));
            format!(
                "<p class=\"chart\"><a href=\"{base}.svg\"><img src=\"{base}.png\" alt=\"{}\" width=\"{width}\"></a></p>",
                escape(title)
            )
        }
        Block::Command(command) => format!("<pre><code>{}</code></pre>", escape(command)),
    };
    out.write_all(text.as_bytes())
}

/// The chart's SVG document as an element of the page: any XML prolog
/// dropped, and named for screen readers.
/// The pixel width an SVG chart declares on its `<svg>` element.
fn svg_width(svg: &str) -> Option<u32> {
    let start = svg.find("<svg")?;
    let tag = &svg[start..start + svg[start..].find('>')?];
    let value = tag.split(" width=\"").nth(1)?.split('"').next()?;
    value.trim_end_matches("px").parse().ok()
}

fn inline_svg(svg: &str, title: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    let svg = svg[start..].trim_end();
    match svg.strip_prefix("<svg") {
        Some(rest) => format!("<svg role=\"img\" aria-label=\"{}\"{rest}", escape(title)),
        None => svg.to_string(),
    }
}

fn table(t: &Table, rows: &dyn RowSource, out: &mut dyn Write) -> std::io::Result<()> {
    let class = |i: usize| match t.align.get(i) {
        Some(Align::Right) => " class=\"num\"",
        _ => "",
    };
    let mut head = String::from("<div class=\"table\"><table>\n<thead><tr>");
    for (i, cell) in t.header.iter().enumerate() {
        head.push_str(&format!("<th{}>{}</th>", class(i), inline(cell)));
    }
    head.push_str("</tr></thead>\n<tbody>\n");
    out.write_all(head.as_bytes())?;
    t.each_row(rows, |cells| {
        let mut row = String::from("<tr>");
        for (i, cell) in cells.iter().enumerate() {
            row.push_str(&format!("<td{}>{}</td>", class(i), inline(cell)));
        }
        row.push_str("</tr>\n");
        out.write_all(row.as_bytes())
    })?;
    out.write_all(b"</tbody>\n</table></div>")
}

fn inline(line: &Line) -> String {
    line.iter()
        .map(|run| match run {
            Inline::Text(s) => escape(s),
            Inline::Code(s) => format!("<code>{}</code>", escape(s)),
            Inline::Strong(s) => format!("<strong>{}</strong>", escape(s)),
            Inline::InPage { text, id } => {
                format!("<a href=\"#{}\">{}</a>", escape(id), escape(text))
            }
            Inline::Link { text, href } => {
                format!(
                    "<a href=\"{}\">{}</a>",
                    escape(&url_path(href)),
                    escape(text)
                )
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::document::{code, text};

    #[test]
    fn a_page_escapes_text_and_inlines_charts() {
        let doc = vec![
            Block::Heading(1, "pools <& doom>".into()),
            Block::Table(Table {
                header: vec![text("metric"), text("value")],
                align: vec![Align::Left, Align::Right],
                rows: vec![vec![code("p_success"), text("89.79 %")]],
                deferred: None,
            }),
            Block::Chart {
                stem: "c".into(),
                title: "A \"chart\"".into(),
            },
            Block::Chart {
                stem: "missing".into(),
                title: "gone".into(),
            },
        ];
        let svgs = vec![(
            "c".to_string(),
            "<svg width=\"10\"><rect/></svg>\n".to_string(),
        )];
        let page = render("t", &doc, &svgs);
        assert!(page.contains("<h1>pools &lt;&amp; doom&gt;</h1>"));
        assert!(page.contains("<td><code>p_success</code></td><td class=\"num\">89.79 %</td>"));
        assert!(page.contains(
            "<svg role=\"img\" aria-label=\"A &quot;chart&quot;\" width=\"10\"><rect/></svg>"
        ));
        assert!(!page.contains("gone"));
        assert!(page.ends_with("</html>\n"));
    }
}
