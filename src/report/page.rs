//! What the publishing outputs say, as [`Document`]s for the Markdown and
//! HTML writers: the results of a command as one table per case
//! (`--format markdown`), a balance with its winning rung in bold, and the
//! page of a report folder (`report.md`, `report.html`): title and
//! description, the rules in force, one results table per system (a row
//! per case and method, the metrics its charts draw), the charts, the
//! balances and how to reproduce it. Nothing here reads a clock or the
//! machine's paths, so committed pages reproduce byte for byte.

use anyhow::Context;
use serde_json::Value as Json;

use super::balance;
use super::chart::{self, input_text};
use super::document::{
    code, method_phrase, text, with_code_spans, Align, Block, DeferredRows, Document, Inline, Line,
    RowSource, Table,
};
use super::format::{interval, mean, metric_value, percent, signed, z_score, LEVEL};
use super::index;
use super::pivot::Names;
use super::side_by_side;
use super::{CaseResult, FileBody, FolderFile, MethodUsed, Report};
use crate::balance::{BalanceResult, Form};
use crate::systems::cortex::keys::VS;
use crate::systems::System;

/// The line above a case's table: the case, its system, the rules in force
/// (every input but those the case is named from) and the method.
fn case_line(result: &CaseResult, method: String) -> Line {
    let mut line = vec![
        Inline::Strong(result.case.clone()),
        Inline::Text(format!(" ({}): ", result.system.name())),
    ];
    let main = result.system.main_keys();
    let rules: Vec<(&String, &Json)> = result
        .inputs
        .iter()
        .filter(|(k, _)| !main.contains(&k.as_str()))
        .collect();
    if !rules.is_empty() {
        line.push(Inline::Text("rules ".into()));
        for (i, (k, v)) in rules.iter().enumerate() {
            if i > 0 {
                line.push(Inline::Text(", ".into()));
            }
            line.push(Inline::Code(format!("{k} = {}", input_text(v))));
        }
        line.push(Inline::Text("; ".into()));
    }
    line.push(Inline::Text(format!("{method}.")));
    line
}

/// A metric as a page names it: its phrase ("chance of success"), or its
/// code name under `--names code` (docs/reports.md, "Words").
fn metric_head(name: &str, names: Names) -> Line {
    match names {
        Names::Words => text(chart::labels::metric_phrase(name)),
        Names::Code => code(name),
    }
}

/// One result's metrics: `metric | value`, with the 95 % interval for a
/// Monte Carlo result.
fn single_table(result: &CaseResult, names: Names) -> Table {
    let mc = result.method == MethodUsed::MonteCarlo;
    let mut header = vec![text("metric"), text("value")];
    let mut align = vec![Align::Left, Align::Right];
    if mc {
        header.push(text(format!("{LEVEL} interval")));
        align.push(Align::Right);
    }
    let rows = result
        .metrics
        .iter()
        .filter(|m| {
            crate::systems::applies::metric_applies(result.system, m.name(), &result.inputs)
        })
        .map(|m| {
            let mut row = vec![
                metric_head(m.name(), names),
                text(metric_value(&m.metric, m.value())),
            ];
            if mc {
                row.push(text(interval(&m.metric, m.ci95)));
            }
            row
        })
        .collect();
    Table {
        header,
        align,
        rows,
        deferred: None,
    }
}

/// `--method both`: one table, `metric | exact | Monte Carlo | 95 % interval | z`.
fn both_table(exact: &CaseResult, mc: &CaseResult, names: Names) -> Table {
    let rows = mc
        .metrics
        .iter()
        .filter(|m| crate::systems::applies::metric_applies(mc.system, m.name(), &mc.inputs))
        .map(|m| {
            let kind = &m.metric;
            vec![
                metric_head(m.name(), names),
                text(metric_value(kind, exact.value(m.name()))),
                text(metric_value(kind, m.value())),
                text(interval(kind, m.ci95)),
                text(z_score(m.z_vs_exact)),
            ]
        })
        .collect();
    Table {
        header: vec![
            text("metric"),
            text("exact"),
            text("Monte Carlo"),
            text(format!("{LEVEL} interval")),
            text("z"),
        ],
        align: vec![
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ],
        rows,
        deferred: None,
    }
}

/// The results of a command (`--format markdown`): per case a line naming
/// it, its rules and method, and its table; with `--method both` the exact
/// and Monte Carlo results of a case share one table.
/// Each case's blocks (its line and table, or the exact and Monte Carlo
/// pair's) are given to `emit` as they are made, so a sweep's text is never
/// whole in memory.
pub fn each_result(
    report: &Report,
    emit: &mut dyn FnMut(Document) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let names = report.presentation.names;
    let mut i = 0;
    while i < report.results.len() {
        let result = &report.results[i];
        let pair = report.results.get(i + 1).filter(|next| {
            result.method == MethodUsed::Exact
                && next.method == MethodUsed::MonteCarlo
                && next.case == result.case
                && next.compared
        });
        match pair {
            Some(mc) => {
                let method = format!(
                    "exact and {}; z is the Monte Carlo value's distance from exact in standard errors",
                    method_phrase(mc)
                );
                emit(vec![
                    Block::Paragraph(case_line(result, method)),
                    Block::Table(both_table(result, mc, names)),
                ])?;
                i += 2;
            }
            None => {
                emit(vec![
                    Block::Paragraph(case_line(result, method_phrase(result))),
                    Block::Table(single_table(result, names)),
                ])?;
                i += 1;
            }
        }
    }
    Ok(())
}

/// Several cases of a quick command (`--format markdown` of `oddsmith
/// advantage --die d4,d8`): the line the text table opens with, then one
/// table, a row per metric and a column per case, and with two cases the
/// difference (the right column minus the left) and, with a Monte Carlo
/// case, its 95 % interval.
pub fn comparison(report: &Report) -> Document {
    let comparison = side_by_side::compare(report);
    let mut header = vec![text("metric")];
    header.extend(comparison.columns.iter().map(|c| text(c.as_str())));
    if comparison.with_difference {
        header.push(text("difference"));
    }
    if comparison.with_interval {
        header.push(text(format!("{LEVEL} interval")));
    }
    let mut align = vec![Align::Left];
    align.resize(header.len(), Align::Right);
    let rows =
        comparison
            .rows
            .iter()
            .map(|compared| {
                let m = &compared.metric;
                let mut row = vec![metric_head(&m.name, report.presentation.names)];
                row.extend(
                    compared.values.iter().zip(&compared.applies).map(
                        |(v, applies)| match applies {
                            true => text(metric_value(m, *v)),
                            false => text("–"),
                        },
                    ),
                );
                if comparison.with_difference {
                    row.push(text(
                        compared.difference.map_or("-".into(), |d| signed(m, d)),
                    ));
                }
                if comparison.with_interval {
                    row.push(text(compared.interval.map_or("-".into(), |(lo, hi)| {
                        format!("[{}, {}]", signed(m, lo), signed(m, hi))
                    })));
                }
                row
            })
            .collect();
    vec![
        Block::Paragraph(text(comparison.header)),
        Block::Table(Table {
            header,
            align,
            rows,
            deferred: None,
        }),
    ]
}

/// Balances: per question the answer, then the ladder with the winning
/// rung in bold. A probability shows as a percentage, any other metric as
/// a number; a rung without a value as `null`.
pub fn balances(balances: &[BalanceResult]) -> Document {
    let mut doc = Document::new();
    for b in balances {
        let shown = |value: Option<f64>| match value {
            Some(x) if b.system.declared().is_probability(&b.metric) => percent(x),
            Some(x) => mean(x),
            None => "null".to_string(),
        };
        let target = if b.system.declared().is_probability(&b.metric) {
            percent(b.target)
        } else {
            b.target.to_string()
        };
        let pools = b.form == Form::Pools;
        let with_labels = pools || b.ladder.iter().any(|rung| rung.label.is_some());
        let answer = match b.best.map(|i| &b.ladder[i]) {
            Some(best) => {
                let label = best.label.map_or(String::new(), |l| format!(" ({l})"));
                let rung = input_text(&best.value);
                let rung = if pools { rung } else { format!("{}={rung}", b.key) };
                format!(
                    " is closest to {target} is {rung}{label}, at {}.",
                    shown(best.metric)
                )
            }
            None => format!(
                " is closest to {target}: none, it is null on every rung (not defined there, e.g. a mean over an outcome that never happens)."
            ),
        };
        doc.push(Block::Paragraph(vec![
            Inline::Strong(balance::heading(b)),
            Inline::Text(": the rung whose ".into()),
            Inline::Code(b.metric.to_string()),
            Inline::Text(answer),
        ]));
        let rows = b
            .ladder
            .iter()
            .enumerate()
            .map(|(i, rung)| {
                let mut cells = vec![input_text(&rung.value)];
                if with_labels {
                    cells.push(rung.label.unwrap_or("-").to_string());
                }
                cells.push(shown(rung.metric));
                cells
                    .into_iter()
                    .map(|c| {
                        if b.best == Some(i) {
                            vec![Inline::Strong(c)]
                        } else {
                            text(c)
                        }
                    })
                    .collect()
            })
            .collect();
        let mut header = vec![text(if pools { VS.name } else { b.key.as_str() })];
        let mut align = vec![Align::Left];
        if with_labels {
            header.push(text("label"));
            align.push(Align::Left);
        }
        header.push(code(b.metric.as_str()));
        align.push(Align::Right);
        doc.push(Block::Table(Table {
            header,
            align,
            rows,
            deferred: None,
        }));
    }
    doc
}

/// What a report page needs beyond the report: what the folder holds and
/// how it was made.
pub struct PageInputs {
    /// The charts written beside the page, `(stem, title)`; empty under
    /// `--no-charts`.
    pub charts: Vec<(String, String)>,
    /// The CSV tables written beside the page, linked from it.
    pub tables: Vec<String>,
    /// What the charts written beside the page leave out, one line each
    /// with its chart's stem ([`super::chart::Chart::warnings`]).
    pub chart_warnings: Vec<String>,
    /// The command that makes the folder again, paths relative to the
    /// repository (or the folder the command ran in).
    pub command: String,
}

/// Systems in the order they first appear in the report.
fn systems(report: &Report) -> Vec<System> {
    let mut out: Vec<System> = Vec::new();
    for r in &report.results {
        if !out.contains(&r.system) {
            out.push(r.system);
        }
    }
    out
}

/// The metric columns of a system's results table: those its charts draw
/// that some result has a value for, in the charts' order (the headline
/// first, then the metrics' own order); every metric when its charts draw
/// none.
fn columns(results: &[&CaseResult], system: System) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for r in results {
        for m in &r.metrics {
            if m.value().is_some() && !all.iter().any(|n| n == m.name()) {
                all.push(m.name().to_string());
            }
        }
    }
    let mut shown: Vec<(usize, String)> = all
        .iter()
        .filter_map(|name| Some((chart::drawn_rank(system, name)?, name.clone())))
        .collect();
    if shown.is_empty() {
        return all;
    }
    // A stable sort keeps the metrics' own order within one listed name.
    shown.sort_by_key(|(rank, _)| *rank);
    shown.into_iter().map(|(_, name)| name).collect()
}

/// A cell of the results table: the value, and for Monte Carlo its 95 %
/// interval.
fn cell(result: &CaseResult, name: &str) -> String {
    let Some(m) = result.metric(name) else {
        return "-".into();
    };
    if !crate::systems::applies::metric_applies(result.system, name, &result.inputs) {
        return "–".into();
    }
    // One precision down a column (docs/reports.md, "Precision"): a chance
    // with two decimals, as the grids write it.
    let value = match m.value() {
        Some(p) if super::format::is_probability(&m.metric) => super::format::grid_percent(p),
        _ => metric_value(&m.metric, m.value()),
    };
    match m.ci95 {
        Some(ci) if m.value().is_some() => format!("{value} {}", interval(&m.metric, Some(ci))),
        _ => value,
    }
}

/// The report page's results tables, one per system: which results and
/// which metric columns each has. Their rows (a row per case and method)
/// are made as the page is written ([`RowSource`]), so a sweep's rows are
/// never all in memory as page cells.
pub struct ResultsTables<'a> {
    tables: Vec<(Vec<&'a CaseResult>, Vec<String>)>,
    /// Per table, the columns with one value in every row, said once above it.
    same: Vec<Vec<(String, String)>>,
    names: Names,
}

impl<'a> ResultsTables<'a> {
    /// A table per system, in the order the systems first appear.
    pub fn new(report: &'a Report) -> ResultsTables<'a> {
        let tables = systems(report)
            .into_iter()
            .map(|system| {
                let results: Vec<&CaseResult> = report
                    .results
                    .iter()
                    .filter(|r| r.system == system)
                    .collect();
                let columns = columns(&results, system);
                (results, columns)
            })
            .collect::<Vec<_>>();
        // A column that reads the same in every row (of two or more) says
        // nothing per case: it is stated once above the table instead.
        let mut tables = tables;
        let mut same = Vec::new();
        for (results, columns) in &mut tables {
            let mut once = Vec::new();
            if results.len() > 1 {
                columns.retain(|c| {
                    let first = cell(results[0], c);
                    let constant = results.iter().all(|r| cell(r, c) == first);
                    if constant {
                        once.push((c.clone(), first));
                    }
                    !constant
                });
            }
            same.push(once);
        }
        ResultsTables {
            tables,
            same,
            names: report.presentation.names,
        }
    }

    /// The line above table `index`: what every row of it shares.
    fn same_line(&self, index: usize) -> Option<Line> {
        let once = &self.same[index];
        if once.is_empty() {
            return None;
        }
        let mut line = text("The same in every case: ");
        for (i, (name, value)) in once.iter().enumerate() {
            if i > 0 {
                line.push(Inline::Text("; ".into()));
            }
            line.extend(metric_head(name, self.names));
            line.push(Inline::Text(format!(" {value}")));
        }
        line.push(Inline::Text(".".into()));
        Some(line)
    }

    /// Table `index`: its header, its rows deferred.
    fn table(&self, index: usize) -> Table {
        let (results, columns) = &self.tables[index];
        let mut header = vec![text("case"), text("method")];
        header.extend(columns.iter().map(|c| metric_head(c, self.names)));
        let mut align = vec![Align::Left, Align::Left];
        align.extend(columns.iter().map(|_| Align::Right));
        Table {
            header,
            align,
            rows: Vec::new(),
            deferred: Some(DeferredRows {
                table: index,
                count: results.len(),
            }),
        }
    }
}

impl RowSource for ResultsTables<'_> {
    fn row(&self, table: usize, index: usize) -> Vec<Line> {
        let (results, columns) = &self.tables[table];
        let r = results[index];
        let method = match r.method {
            MethodUsed::Exact => "exact",
            MethodUsed::MonteCarlo => "Monte Carlo",
        };
        let mut row = vec![text(&r.case), text(method)];
        row.extend(columns.iter().map(|c| text(cell(r, c))));
        row
    }
}

/// The page of a report folder (`report.md`, `report.html`); its results
/// tables' rows come from `tables`.
pub fn report_page(report: &Report, inputs: &PageInputs, tables: &ResultsTables<'_>) -> Document {
    let mut doc = vec![Block::Heading(1, report.name.clone())];
    if let Some(d) = &report.description {
        doc.push(Block::Paragraph(text(d)));
    }
    // The tables the scenario declares come first: they are what its
    // readers came for (docs/scenarios.md, "Tables").
    let grids = report.page_grids();
    if !grids.is_empty() {
        doc.push(Block::Heading(2, "Tables".into()));
        doc.extend(super::grid::to_document(&grids, 3));
    }
    if !report.results.is_empty() {
        doc.push(Block::Heading(2, "Rules in force".into()));
        let mut items: Vec<Line> = index::rule_lines(report)
            .iter()
            .map(|l| with_code_spans(l))
            .collect();
        items.push(text(format!("{}.", index::method_line(report))));
        doc.push(Block::List(items));
    }
    let warnings = warning_lines(report, &inputs.chart_warnings);
    if !warnings.is_empty() {
        doc.push(Block::Heading(2, "Warnings".into()));
        doc.push(Block::List(warnings));
    }
    if !report.results.is_empty() {
        doc.push(Block::Heading(2, "Results".into()));
        let systems = systems(report);
        for (index, &system) in systems.iter().enumerate() {
            if systems.len() > 1 {
                doc.push(Block::Heading(3, system.name().to_string()));
            }
            if let Some(line) = tables.same_line(index) {
                doc.push(Block::Paragraph(line));
            }
            doc.push(Block::Table(tables.table(index)));
        }
        let mut note = text(format!(
            "Probabilities are percentages, means plain numbers; a Monte Carlo value is followed by its {LEVEL} interval. Every metric of every case is in ",
        ));
        note.extend(links(&inputs.tables));
        note.push(Inline::Text(".".into()));
        doc.push(Block::Paragraph(note));
    }
    if !inputs.charts.is_empty() {
        doc.push(Block::Heading(2, "Charts".into()));
        // Each chart draws its own title, so no heading repeats it.
        for (stem, title) in &inputs.charts {
            doc.push(Block::Chart {
                stem: stem.clone(),
                title: title.clone(),
            });
        }
    }
    if !report.balances.is_empty() {
        doc.push(Block::Heading(2, "Balance".into()));
        doc.extend(balances(&report.balances));
    }
    doc.push(Block::Heading(2, "Reproduce".into()));
    doc.push(Block::Command(inputs.command.clone()));
    doc.push(Block::Paragraph(text(format!(
        "Seed {}, oddsmith {}. The same command, seed and version give the same numbers.",
        report.seed,
        env!("CARGO_PKG_VERSION")
    ))));
    doc
}

/// The page's warnings (docs/reports.md, "Nothing silent"): each case's
/// (a fallback to Monte Carlo, a truncated chain, a capped conflict), then
/// what each chart leaves out.
fn warning_lines(report: &Report, chart_warnings: &[String]) -> Vec<Line> {
    let mut lines: Vec<Line> = report
        .results
        .iter()
        .flat_map(|r| {
            r.warnings.iter().map(move |w| {
                vec![
                    Inline::Strong(r.case.clone()),
                    Inline::Text(format!(" ({}): {w}", r.method.name())),
                ]
            })
        })
        .collect();
    lines.extend(chart_warnings.iter().map(text));
    lines
}

/// "a, b and c" of links to the folder's files.
fn links(files: &[String]) -> Line {
    let mut line = Line::new();
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            let sep = if i + 1 == files.len() { " and " } else { ", " };
            line.push(Inline::Text(sep.into()));
        }
        line.push(Inline::Link {
            text: f.clone(),
            href: f.clone(),
        });
    }
    if line.is_empty() {
        line.push(Inline::Text("the report folder's tables".into()));
    }
    line
}

/// `report.md` and `report.html` for a report folder whose other files
/// are `files`: the pages link the CSV tables there and show the charts
/// there (the HTML inlines their SVG text). Each page is made when it is
/// written and dropped after, so a big sweep's results table is in memory
/// once at most.
pub fn folder_pages<'a>(
    report: &'a Report,
    command: &str,
    files: &[FolderFile<'_>],
) -> Vec<FolderFile<'a>> {
    let written = |name: &str| {
        files
            .iter()
            .find(|f| f.name == name)
            .map(|f| match &f.body {
                FileBody::Bytes(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                FileBody::Stream(_) => String::new(),
            })
    };
    let drawn: Vec<chart::Chart> = chart::charts(report)
        .into_iter()
        .filter(|c| written(&format!("{}.svg", c.stem)).is_some())
        .collect();
    let chart_warnings = drawn
        .iter()
        .flat_map(|c| {
            c.warnings
                .iter()
                .map(move |w| format!("Chart {}: {w}", c.stem))
        })
        .collect();
    let charts: Vec<(String, String)> = drawn.into_iter().map(|c| (c.stem, c.title)).collect();
    let svgs: Vec<(String, String)> = charts
        .iter()
        .filter_map(|(stem, _)| Some((stem.clone(), written(&format!("{stem}.svg"))?)))
        .collect();
    let tables = files
        .iter()
        .map(|f| f.name.clone())
        .filter(|f| f.ends_with(".csv"))
        .collect();
    let inputs = std::rc::Rc::new(PageInputs {
        charts,
        tables,
        chart_warnings,
        command: command.to_string(),
    });
    let md_inputs = inputs.clone();
    vec![
        FolderFile {
            name: "report.md".into(),
            body: FileBody::Stream(Box::new(move |out| {
                let tables = ResultsTables::new(report);
                let doc = report_page(report, &md_inputs, &tables);
                super::markdown::write(&doc, &tables, out).context("cannot write report.md")
            })),
        },
        FolderFile {
            name: "report.html".into(),
            body: FileBody::Stream(Box::new(move |out| {
                let tables = ResultsTables::new(report);
                let doc = report_page(report, &inputs, &tables);
                let title = format!("{} (oddsmith)", report.name);
                super::html::write(&title, &doc, &svgs, &tables, out)
                    .context("cannot write report.html")
            })),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case's blocks, as `--format markdown` writes them one by one.
    fn results(report: &Report) -> Document {
        let mut doc = Document::new();
        each_result(report, &mut |blocks| {
            doc.extend(blocks);
            Ok(())
        })
        .unwrap();
        doc
    }
    use crate::report::{fixture, markdown};

    #[test]
    fn a_case_gets_a_line_and_a_table() {
        let mut report = fixture::cortex(false, false);
        let words = markdown::render(&results(&report));
        assert!(words.contains("| chance of success | "), "{words}");
        report.presentation.names = Names::Code;
        let md = markdown::render(&results(&report));
        assert!(
            md.contains("**d8 2d6 vs 2d6** (cortex): rules `keep = 2`"),
            "{md}"
        );
        assert!(md.contains("; exact.\n\n| metric | value |\n| --- | --: |\n"));
        assert!(md.contains("| `p_success` | "));
    }

    #[test]
    fn both_methods_share_one_table() {
        let mut report = fixture::report();
        report.presentation.names = Names::Code;
        let (exact, mc) = (&report.results[0], &report.results[1]);
        let md = markdown::render(&results(&report));
        assert!(
            md.contains("| metric | exact | Monte Carlo | 95 % interval | z |"),
            "{md}"
        );
        assert_eq!(md.matches("| metric |").count(), 1);
        // Each metric's row puts the two methods' values side by side.
        let m = mc.metric("p_success").unwrap();
        let row = format!(
            "| `p_success` | {} | {} | {} | {} |",
            percent(exact.value("p_success").unwrap()),
            percent(m.value().unwrap()),
            interval(&m.metric, m.ci95),
            z_score(m.z_vs_exact)
        );
        assert!(md.contains(&row), "{row}\n{md}");
        // A mean prints with six decimals.
        let mean_row = md
            .lines()
            .find(|l| l.starts_with("| `mean_total` |"))
            .unwrap();
        assert!(
            mean_row
                .split('|')
                .nth(2)
                .unwrap()
                .trim()
                .split('.')
                .nth(1)
                .unwrap()
                .len()
                == 6
        );
    }

    #[test]
    fn page_tables_show_what_the_charts_draw() {
        let mut report = fixture::cortex(true, true);
        report.presentation.names = Names::Code;
        let tables = ResultsTables::new(&report);
        let table = tables.table(0);
        let names: Vec<String> = table.header[2..]
            .iter()
            .map(|c| match &c[0] {
                Inline::Code(s) => s.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(names.contains(&"p_success".to_string()));
        assert!(names.contains(&"pool_effect_d8".to_string()));
        assert!(!names.contains(&"mean_total".to_string()));
        // Monte Carlo cells carry their interval.
        assert!(matches!(&tables.row(0, 0)[2][0], Inline::Text(t) if t.contains(" %, ")));
    }
}
