//! The index of `oddsmith report`: `index.md` and `index.html`
//! listing every scenario's report folder with its description, the seed,
//! trials and methods used, the rule switches (inputs held fixed, and the
//! ones swept with their values), links to its tables and its charts
//! embedded. Like the other writers these return bytes; they hold no date or
//! path of the machine, so the index is reproducible byte for byte.

use serde_json::Value as Json;

use super::chart::{self, input_text, thousands};
use super::{MethodUsed, Report};
use crate::systems::System;

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

/// Percent-encodes a relative link path (spaces and the like), keeping `/`.
pub fn url_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Per system in the report: the inputs held at one value and the swept ones.
pub fn rule_lines(report: &Report) -> Vec<String> {
    let mut systems: Vec<System> = Vec::new();
    for r in &report.results {
        if !systems.contains(&r.system) {
            systems.push(r.system);
        }
    }
    let mut lines = Vec::new();
    for system in systems {
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

/// `index.md`.
pub fn markdown(entries: &[IndexEntry<'_>], command: &str) -> Vec<u8> {
    let mut out = String::from("# oddsmith reports\n\n");
    out.push_str(&format!(
        "Generated by `{command}` (oddsmith {}). Each folder holds the scenario's \
         tables (`summary.csv`, `metrics.csv`, `distributions.csv`, `run.json`) and its \
         charts as PNG and SVG; run the same command again to regenerate them.\n\n",
        env!("CARGO_PKG_VERSION")
    ));
    for entry in entries {
        out.push_str(&format!(
            "- [{}](#{})\n",
            entry.report.name,
            anchor(&entry.report.name)
        ));
    }
    for entry in entries {
        let report = entry.report;
        out.push_str(&format!("\n## {}\n\n", report.name));
        if let Some(d) = &report.description {
            out.push_str(&format!("{d}\n\n"));
        }
        out.push_str(&format!("- Scenario: `{}`\n", entry.source));
        out.push_str(&format!("- {}\n", method_line(report)));
        for line in rule_lines(report) {
            out.push_str(&format!("- {line}\n"));
        }
        let tables: Vec<String> = TABLES
            .iter()
            .filter(|t| entry.files.iter().any(|f| f == *t))
            .map(|t| format!("[{t}]({}/{t})", url_path(&entry.folder)))
            .collect();
        out.push_str(&format!("- Tables: {}\n", tables.join(" · ")));
        if entry.files.iter().any(|f| f == "report.md") {
            out.push_str(&format!(
                "- Page to post: [report.md]({}/report.md)\n",
                url_path(&entry.folder)
            ));
        }
        for c in chart::charts(report) {
            let png = format!("{}.png", c.stem);
            if !entry.files.contains(&png) {
                continue;
            }
            let base = url_path(&format!("{}/{}", entry.folder, c.stem));
            out.push_str(&format!(
                "\n### {}\n\n[![{}]({base}.png)]({base}.svg)\n",
                c.title, c.title
            ));
        }
    }
    out.into_bytes()
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

/// Inline code spans (`x`) of the markdown lines as HTML.
fn code_spans(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", html_escape(part)));
        } else {
            out.push_str(&html_escape(part));
        }
    }
    out
}

/// `index.html`: the same content as a standalone page.
pub fn html(entries: &[IndexEntry<'_>], command: &str) -> Vec<u8> {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>oddsmith reports</title>\n<style>\n\
         body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }\n\
         img { max-width: 100%; height: auto; border: 1px solid #ddd; }\n\
         code { background: #f3f3f3; padding: 0 0.2em; }\n\
         h2 { border-bottom: 1px solid #ccc; margin-top: 2.5em; }\n\
         </style>\n</head>\n<body>\n<h1>oddsmith reports</h1>\n",
    );
    out.push_str(&format!(
        "<p>Generated by <code>{}</code> (oddsmith {}). Each folder holds the scenario's tables \
         and its charts as PNG and SVG; run the same command again to regenerate them.</p>\n<ul>\n",
        html_escape(command),
        env!("CARGO_PKG_VERSION")
    ));
    for entry in entries {
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>\n",
            html_escape(&anchor(&entry.report.name)),
            html_escape(&entry.report.name)
        ));
    }
    out.push_str("</ul>\n");
    for entry in entries {
        let report = entry.report;
        out.push_str(&format!(
            "<h2 id=\"{}\">{}</h2>\n",
            html_escape(&anchor(&report.name)),
            html_escape(&report.name)
        ));
        if let Some(d) = &report.description {
            out.push_str(&format!("<p>{}</p>\n", html_escape(d)));
        }
        out.push_str("<ul>\n");
        out.push_str(&format!(
            "<li>Scenario: <code>{}</code></li>\n",
            html_escape(&entry.source)
        ));
        out.push_str(&format!("<li>{}</li>\n", html_escape(&method_line(report))));
        for line in rule_lines(report) {
            out.push_str(&format!("<li>{}</li>\n", code_spans(&line)));
        }
        let tables: Vec<String> = TABLES
            .iter()
            .filter(|t| entry.files.iter().any(|f| f == *t))
            .map(|t| {
                format!(
                    "<a href=\"{}/{t}\">{t}</a>",
                    html_escape(&url_path(&entry.folder))
                )
            })
            .collect();
        out.push_str(&format!("<li>Tables: {}</li>\n", tables.join(" · ")));
        if entry.files.iter().any(|f| f == "report.html") {
            out.push_str(&format!(
                "<li>Page to post: <a href=\"{}/report.html\">report.html</a></li>\n",
                html_escape(&url_path(&entry.folder))
            ));
        }
        out.push_str("</ul>\n");
        for c in chart::charts(report) {
            let png = format!("{}.png", c.stem);
            if !entry.files.contains(&png) {
                continue;
            }
            let base = html_escape(&url_path(&format!("{}/{}", entry.folder, c.stem)));
            out.push_str(&format!(
                "<h3>{t}</h3>\n<p><a href=\"{base}.svg\"><img src=\"{base}.png\" alt=\"{t}\" width=\"{w}\"></a></p>\n",
                t = html_escape(&c.title),
                w = c.width.min(1000)
            ));
        }
    }
    out.push_str("</body>\n</html>\n");
    out.into_bytes()
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
