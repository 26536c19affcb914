//! The index of `oddsmith report`: `index.md` and `index.html`
//! listing every scenario's report folder with its description, the seed,
//! trials and methods used, the rule switches (inputs held fixed, and the
//! ones swept with their values), links to its tables and its charts
//! embedded. It is a [`Document`] like the report pages, rendered by the
//! same Markdown and HTML writers, so its escaping, numbers and style are
//! theirs. Like the other writers these return bytes; they hold no date or
//! path of the machine, so the index is reproducible byte for byte.

use serde_json::Value as Json;

use super::chart::{self, input_text};
use super::document::{text, with_code_spans, Block, Document, Inline};
use super::format::thousands;
use super::{html, markdown, MethodUsed, Report};

/// One scenario's entry.
pub struct IndexEntry<'a> {
    /// The scenario file, as found in the scenarios folder (`scenarios/x.toml`).
    pub source: String,
    /// Its report folder, relative to the index.
    pub folder: String,
    pub report: &'a Report,
    /// The files written in the folder.
    pub files: Vec<String>,
}

/// The tables a report folder links to, in this order.
const TABLES: [&str; 5] = [
    "summary.csv",
    "metrics.csv",
    "distributions.csv",
    "run.json",
    "balance.csv",
];

/// At most this many values of a swept input are listed.
const MAX_VALUES: usize = 8;

/// Per system in the report: the inputs held at one value and the swept ones.
pub fn rule_lines(report: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    for system in chart::systems_in(report) {
        let results = chart::chosen(report, system);
        let mut keys: Vec<&String> = Vec::new();
        for r in &results {
            for k in r.inputs.keys() {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let mut fixed = Vec::new();
        let mut swept = Vec::new();
        for key in keys {
            // Distinct values in first-seen order, found through a set of
            // their JSON text: a list search made a 100,000-value sweep's
            // index take minutes.
            let mut values: Vec<&Json> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for r in &results {
                if let Some(v) = r.inputs.get(key) {
                    if seen.insert(v.to_string()) {
                        values.push(v);
                    }
                }
            }
            let having = results
                .iter()
                .filter(|r| r.inputs.contains_key(key))
                .count();
            if values.len() == 1 && having == results.len() {
                fixed.push(format!("`{key} = {}`", input_text(values[0])));
            } else if values.len() == 1 {
                fixed.push(format!(
                    "`{key} = {}` ({having} of {} cases)",
                    input_text(values[0]),
                    results.len()
                ));
            } else {
                let shown: Vec<String> = values
                    .iter()
                    .take(MAX_VALUES)
                    .map(|v| format!("`{}`", input_text(v)))
                    .collect();
                let more = if values.len() > MAX_VALUES {
                    ", …"
                } else {
                    ""
                };
                swept.push(format!(
                    "`{key}` ({} values: {}{more})",
                    values.len(),
                    shown.join(", ")
                ));
            }
        }
        let mut line = format!("{system} rules: ");
        line.push_str(&if fixed.is_empty() {
            "none fixed".to_string()
        } else {
            fixed.join(", ")
        });
        if !swept.is_empty() {
            line.push_str(&format!("; varied: {}", swept.join(", ")));
        }
        lines.push(line);
    }
    lines
}

/// "Seed 2026; 18 cases: 18 exact" or "...: 3 Monte Carlo (1,000,000 trials each)".
pub fn method_line(report: &Report) -> String {
    let exact = report
        .results
        .iter()
        .filter(|r| r.method == MethodUsed::Exact)
        .count();
    let mc = report.results.len() - exact;
    let mut parts = Vec::new();
    if exact > 0 {
        parts.push(format!("{exact} exact"));
    }
    if mc > 0 {
        parts.push(format!(
            "{mc} Monte Carlo ({} trials each)",
            thousands(report.trials)
        ));
    }
    let mut line = if report.results.is_empty() {
        format!("Seed {}; no cases", report.seed)
    } else {
        format!(
            "Seed {}; {} results: {}",
            report.seed,
            report.results.len(),
            parts.join(", ")
        )
    };
    if report.results.is_empty() && !report.balances.is_empty() {
        line.push_str(&format!(
            "; {} balance answers (balance.csv)",
            report.balances.len()
        ));
    }
    line
}

/// The index as a document, for the same writers as the report pages: a
/// title, how it was made, a list of the scenarios linking their sections,
/// then per scenario its description, facts and links (to `page`, its page
/// to post, among them: report.md from index.md, report.html from
/// index.html), and its charts.
pub fn document(entries: &[IndexEntry<'_>], command: &str, page: &str) -> Document {
    let mut doc = vec![Block::Heading(1, "oddsmith reports".into())];
    let mut about = text("Generated by ");
    about.push(Inline::Code(command.to_string()));
    about.push(Inline::Text(format!(
        " (oddsmith {}). Each folder holds the scenario's tables (",
        env!("CARGO_PKG_VERSION")
    )));
    for (i, t) in TABLES[..4].iter().enumerate() {
        if i > 0 {
            about.push(Inline::Text(", ".into()));
        }
        about.push(Inline::Code(t.to_string()));
    }
    about.push(Inline::Text(
        ") and its charts as PNG and SVG; run the same command again to regenerate them.".into(),
    ));
    doc.push(Block::Paragraph(about));
    doc.push(Block::List(
        entries
            .iter()
            .map(|entry| {
                vec![Inline::InPage {
                    text: entry.report.name.clone(),
                    id: anchor(&entry.report.name),
                }]
            })
            .collect(),
    ));
    for entry in entries {
        let report = entry.report;
        doc.push(Block::Section {
            level: 2,
            title: report.name.clone(),
            id: anchor(&report.name),
        });
        if let Some(d) = &report.description {
            doc.push(Block::Paragraph(text(d)));
        }
        let mut items = vec![
            vec![
                Inline::Text("Scenario: ".into()),
                Inline::Code(entry.source.clone()),
            ],
            text(method_line(report)),
        ];
        items.extend(rule_lines(report).iter().map(|l| with_code_spans(l)));
        let mut tables = text("Tables: ");
        for (i, t) in TABLES
            .iter()
            .filter(|t| entry.files.iter().any(|f| f == *t))
            .enumerate()
        {
            if i > 0 {
                tables.push(Inline::Text(" · ".into()));
            }
            tables.push(Inline::Link {
                text: t.to_string(),
                href: format!("{}/{t}", entry.folder),
            });
        }
        items.push(tables);
        if entry.files.iter().any(|f| f == page) {
            items.push(vec![
                Inline::Text("Page to post: ".into()),
                Inline::Link {
                    text: page.to_string(),
                    href: format!("{}/{page}", entry.folder),
                },
            ]);
        }
        doc.push(Block::List(items));
        for c in chart::charts(report) {
            if !entry.files.contains(&format!("{}.png", c.stem)) {
                continue;
            }
            doc.push(Block::Heading(3, c.title.clone()));
            doc.push(Block::Image {
                path: format!("{}/{}", entry.folder, c.stem),
                title: c.title,
                width: c.width.min(1000),
            });
        }
    }
    doc
}

/// `index.md`.
pub fn markdown(entries: &[IndexEntry<'_>], command: &str) -> Vec<u8> {
    markdown::render(&document(entries, command, "report.md")).into_bytes()
}

/// `index.html`: the same content as a standalone page, written like a
/// report page.
pub fn html(entries: &[IndexEntry<'_>], command: &str) -> Vec<u8> {
    let doc = document(entries, command, "report.html");
    html::render("oddsmith reports", &doc, &[]).into_bytes()
}

/// A GitHub-style heading anchor.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    fn entry(report: &Report, files: Vec<String>) -> IndexEntry<'_> {
        IndexEntry {
            source: "scenarios/cortex fixture.toml".into(),
            folder: "cortex fixture".into(),
            report,
            files,
        }
    }

    #[test]
    fn markdown_links_tables_embeds_charts_and_lists_rules() {
        let report = fixture::cortex(false, false);
        let mut files: Vec<String> = TABLES.iter().map(|t| t.to_string()).collect();
        files.push("cortex-p-success.png".into());
        files.push("cortex-p-success.svg".into());
        let md = String::from_utf8(markdown(&[entry(&report, files)], "oddsmith report")).unwrap();
        assert!(
            md.contains("[summary.csv](cortex%20fixture/summary.csv)"),
            "{md}"
        );
        assert!(md.contains(
            "[![Chance the hero's action succeeds](cortex%20fixture/cortex-p-success.png)](cortex%20fixture/cortex-p-success.svg)"
        ));
        // Charts not written (here: all but one) are not embedded.
        assert!(!md.contains("cortex-hitches"));
        assert!(md.contains("Seed 7; 12 results: 12 exact"));
        // No page written, no link to one.
        assert!(!md.contains("report.md"));
        assert!(md.contains("cortex rules: `keep = 2`"), "{md}");
        assert!(md.contains("varied: `pool` (3 values: `d8 2d6`, `d10 d8 d6`, `d12 d10 d8 d6`)"));
    }

    #[test]
    fn html_is_escaped_and_mirrors_the_markdown() {
        let mut report = fixture::cortex(false, false);
        report.description = Some("pools <& doom>".into());
        let mut files: Vec<String> = TABLES.iter().map(|t| t.to_string()).collect();
        files.push("report.html".into());
        let html = String::from_utf8(html(&[entry(&report, files)], "oddsmith report")).unwrap();
        assert!(html.contains("<a href=\"cortex%20fixture/report.html\">report.html</a>"));
        assert!(html.contains("<p>pools &lt;&amp; doom&gt;</p>"));
        assert!(html.contains("<a href=\"cortex%20fixture/metrics.csv\">metrics.csv</a>"));
        assert!(html.contains("<code>keep = 2</code>"));
        assert!(html.ends_with("</html>\n"));
    }

    #[test]
    fn monte_carlo_runs_name_their_trials() {
        let report = fixture::scene(true);
        assert_eq!(
            method_line(&report),
            "Seed 7; 3 results: 3 Monte Carlo (4,000 trials each)"
        );
    }
}
