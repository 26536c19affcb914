//! Reports: everything a run produced (evaluated cases and balance answers),
//! built once as a [`Report`] value, and the writers that turn it into bytes
//! (JSON, CSV, the aligned table, charts). [`render`] is what stdout shows,
//! [`folder_files`] what a report folder holds; both read the same report.
//! Writers never touch files; [`write_atomic`] is the one function that
//! does, writing a temporary file and renaming it so a file is whole or absent.

pub(crate) mod balance;
pub mod chart;
pub(crate) mod compact;
pub(crate) mod csv;
pub(crate) mod document;
pub(crate) mod folder;
pub(crate) mod format;
pub mod grid;
pub(crate) mod html;
pub(crate) mod index;
pub(crate) mod json;
pub(crate) mod markdown;
pub mod measure;
pub(crate) mod page;
pub mod pivot;
pub(crate) mod side_by_side;
pub(crate) mod spill;
pub mod stored;
pub(crate) mod table;
pub mod view;

pub use folder::write_folder;
pub use format::number;
pub use stored::{Inputs, Metrics};

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::balance::BalanceResult;
use crate::distribution::{DistRow, Metric};
use crate::systems::System;

/// Which engine produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodUsed {
    Exact,
    MonteCarlo,
}

impl MethodUsed {
    pub fn name(self) -> &'static str {
        match self {
            MethodUsed::Exact => "exact",
            MethodUsed::MonteCarlo => "monte-carlo",
        }
    }
}

/// One metric of one result, with what the statistics layer added to it:
/// its 95 % interval (Monte Carlo) and its distance from the exact value
/// (`--method both`). Every writer reads a metric through this one record,
/// so a value never travels apart from its interval.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricResult {
    pub metric: Metric,
    /// The 95 % interval of a Monte Carlo result (docs/reports.md, `ci95`);
    /// `None` for exact results and where no honest interval exists.
    pub ci95: Option<(f64, f64)>,
    /// The distance from exact in standard errors, for a Monte Carlo result
    /// compared with the exact one; `None` otherwise or where undefined.
    pub z_vs_exact: Option<f64>,
}

impl MetricResult {
    pub fn name(&self) -> &str {
        &self.metric.name
    }

    /// `None` when the metric is undefined (a mean over no successes).
    pub fn value(&self) -> Option<f64> {
        self.metric.value
    }
}

/// One case evaluated by one method.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub case: String,
    pub system: System,
    /// Shared with every case that has the same key and value ([`stored`]).
    pub inputs: Inputs,
    pub method: MethodUsed,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    /// One record per metric, in the system's order, held as a column
    /// ([`stored`]).
    pub metrics: Metrics,
    /// The distribution table (`distributions.csv`).
    pub rows: Vec<DistRow>,
    /// For exact results, the probability mass truncation left out.
    pub dropped_mass: Option<f64>,
    /// Whether this Monte Carlo result was compared with the exact one
    /// (`--method both`), so its records carry `z_vs_exact`.
    pub compared: bool,
    /// Exact Cortex results under `--fractions`: each probability metric
    /// as "numerator/denominator" in lowest terms (docs/reports.md).
    pub fractions: Option<Vec<(String, String)>>,
    /// What a reader must be told about this result, one line each: a
    /// fallback to Monte Carlo, a truncated chain, a capped conflict
    /// (docs/reports.md, "Nothing silent"). Said on stderr when evaluated
    /// and on the report's page.
    pub warnings: Vec<String>,
}

impl CaseResult {
    /// The record of metric `name`, if the case's system computes it.
    pub fn metric(&self, name: &str) -> Option<MetricResult> {
        self.metrics.get(self.metrics.position(name)?)
    }

    /// The value of metric `name`; `None` when absent or undefined.
    pub fn value(&self, name: &str) -> Option<f64> {
        self.metrics.value_at(self.metrics.position(name)?)
    }
}

/// What a run was asked: cases (a scenario or a quick command, whose
/// output always carries its `results`, even none), or balance questions
/// alone (`oddsmith balance`, whose JSON is docs/cortex.md's `{ tool, version,
/// balance }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    Cases,
    BalanceOnly,
}

/// How the aligned table (`--format table`) lays out the cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableLayout {
    /// The quick commands: one case as a block of metrics; several cases
    /// (comma lists) side by side, a row per metric and a column per case,
    /// with the difference when there are two.
    SideBySide,
    /// `run`: a row per case with its system's headline metrics, and for a
    /// Cortex sweep of pools against oppositions a matrix of p_success; the
    /// full metric list stays in the files and in CSV and JSON.
    Compact,
}

/// Everything a run found, ready for the writers.
#[derive(Debug, Clone)]
pub struct Report {
    pub kind: ReportKind,
    pub name: String,
    pub description: Option<String>,
    pub seed: u64,
    pub trials: u64,
    pub results: Vec<CaseResult>,
    /// `[[balance]]` answers (docs/cortex.md), exact whatever the method.
    pub balances: Vec<BalanceResult>,
    /// How `--format table` shows the cases.
    pub table: TableLayout,
    /// `distributions.csv`, when it was written as the cases were
    /// evaluated ([`spill`]); the results then keep only the rows a chart
    /// may draw.
    pub spilled_distributions: Option<std::sync::Arc<spill::SpilledTable>>,
    /// Grids asked for and the words people's tables use.
    pub presentation: Presentation,
}

/// What people's outputs show besides the case tables (docs/reports.md,
/// "Pivot tables" and "Distribution views"). JSON's `results` are the
/// same whatever this holds; the grids asked for follow as `grids`.
#[derive(Debug, Clone, Default)]
pub struct Presentation {
    /// Words or code names in people's tables (`--names`).
    pub names: pivot::Names,
    /// A scenario's `[[table]]`s, which its pages show first.
    pub tables: Vec<pivot::PivotSpec>,
    /// `--rows`/`--cols`: stdout shows this grid instead of the case tables,
    /// and the pages show it first.
    pub pivot: Option<pivot::PivotSpec>,
    /// `--view`: stdout shows every distribution in this view.
    pub view: Option<view::View>,
}

impl Report {
    /// The grids stdout shows in place of the case tables, when a pivot
    /// or a view was asked for.
    /// `trim` cuts a view's negligible tail (not in CSV).
    pub fn asked_grids(
        &self,
        trim: bool,
    ) -> Result<Option<Vec<pivot::Grid>>, crate::errors::InputError> {
        let names = self.presentation.names;
        if let Some(spec) = &self.presentation.pivot {
            return pivot::grids(&self.results, spec, names).map(Some);
        }
        Ok(self
            .presentation
            .view
            .map(|v| view::grids(&self.results, v, names, trim)))
    }

    /// The grids a report page shows first: the scenario's tables, then
    /// the command line's pivot. A table whose cases are not in this
    /// report (none of its keys fit) is left out rather than failing a
    /// page that is written after the run.
    pub fn page_grids(&self) -> Vec<pivot::Grid> {
        let names = self.presentation.names;
        self.presentation
            .tables
            .iter()
            .chain(&self.presentation.pivot)
            .flat_map(|spec| pivot::grids(&self.results, spec, names).unwrap_or_default())
            .collect()
    }
}

impl Report {
    /// Whether the output has a section for balance answers.
    pub fn shows_balances(&self) -> bool {
        self.kind == ReportKind::BalanceOnly || !self.balances.is_empty()
    }
}

/// What stdout carries (docs/reports.md, `--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The aligned table for people.
    Table,
    /// The summary table as CSV.
    Csv,
    /// One JSON object.
    Json,
    /// GitHub-flavoured Markdown: a line and a pipe table per case (the
    /// cases a quick command compares in one table, side by side), then
    /// the balances (winning rung in bold).
    Markdown,
}

/// Writes the report as stdout shows it. Cases and balances each have
/// their table; when a run has both, the case table comes first, then a
/// blank line, then the balances (in CSV too); in JSON one object holds
/// both `results` and `balance`. CSV and JSON are written as they are made
/// (a sweep of 100,000 cases is never whole in memory as text).
pub fn write(report: &Report, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    let show_cases = report.kind == ReportKind::Cases
        && (!report.results.is_empty() || report.balances.is_empty());
    let show_balances = report.shows_balances();
    let gap: &[u8] = if show_cases && show_balances {
        b"\n"
    } else {
        b""
    };
    let context = "cannot write the report";
    if format != Format::Json {
        if let Some(grids) = report.asked_grids(format != Format::Csv)? {
            match format {
                Format::Csv => grid::write_csv(&grids, &mut *out)?,
                Format::Markdown => out
                    .write_all(markdown::render(&grid::to_document(&grids, 3)).as_bytes())
                    .context(context)?,
                _ => out
                    .write_all(grid::to_text(&grids).as_bytes())
                    .context(context)?,
            }
            return Ok(());
        }
    }
    match format {
        Format::Table => {
            if show_cases {
                out.write_all(laid_out(report).as_bytes())
                    .context(context)?;
            }
            out.write_all(gap).context(context)?;
            if show_balances {
                out.write_all(balance::to_table(&report.balances).as_bytes())
                    .context(context)?;
            }
        }
        Format::Csv => {
            if show_cases {
                csv::summary(report, &mut *out)?;
            }
            out.write_all(gap).context(context)?;
            if show_balances {
                out.write_all(&balance::to_csv(&report.balances)?)
                    .context(context)?;
            }
        }
        Format::Json => json::write_report(report, false, &mut *out)?,
        Format::Markdown => {
            // Written a case (or a balance) at a time: the same text as the
            // whole document rendered at once, its blocks separated by a
            // blank line, never all in memory (792 MB at 44,100 cases).
            let mut started = false;
            let mut emit = |blocks: document::Document| -> std::io::Result<()> {
                if started {
                    out.write_all(b"\n")?;
                }
                started = true;
                markdown::write(&blocks, &document::NoDeferredRows, &mut *out)
            };
            if show_cases && compares_cases(report) {
                emit(page::comparison(report)).context(context)?;
            } else if show_cases {
                page::each_result(report, &mut emit).context(context)?;
            }
            if show_balances {
                for b in &report.balances {
                    emit(page::balances(std::slice::from_ref(b))).context(context)?;
                }
            }
            if !started {
                out.write_all(b"\n").context(context)?;
            }
        }
    }
    Ok(())
}

/// The cases as `--format markdown` shows them: one table, or the cases
/// side by side when a quick command compares several.
pub fn cases_document(report: &Report) -> document::Document {
    if compares_cases(report) {
        return page::comparison(report);
    }
    let mut doc = Vec::new();
    page::each_result(report, &mut |blocks| {
        doc.extend(blocks);
        Ok(())
    })
    .expect("collecting blocks in memory cannot fail");
    doc
}

/// The cases' table as an HTML fragment, as `oddsmith serve`'s page shows
/// it: the pivot grid when `--rows`/`--cols` ask for one, else the
/// Markdown output's case table (a balance's tables for `oddsmith
/// balance`); the same cells either way.
pub fn cases_html(report: &Report) -> anyhow::Result<String> {
    if report.kind == ReportKind::BalanceOnly {
        // `oddsmith balance`: its balances, as `--format markdown` prints them.
        return Ok(html::fragment(&page::balances(&report.balances)));
    }
    let names = report.presentation.names;
    if let Some(spec) = &report.presentation.pivot {
        let grids = pivot::grids(&report.results, spec, names)?;
        return Ok(html::fragment(&grid::to_document(&grids, 3)));
    }
    Ok(html::fragment(&cases_document(report)))
}

/// Every distribution in `view` (`--view`) as an HTML fragment, the grids
/// `--format markdown --view` prints.
pub fn view_html(report: &Report, view: view::View) -> String {
    let grids = view::grids(&report.results, view, report.presentation.names, true);
    html::fragment(&grid::to_document(&grids, 3))
}

/// The report as stdout shows it, as bytes ([`write`]).
pub fn render(report: &Report, format: Format) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    write(report, format, &mut bytes)?;
    Ok(bytes)
}

/// The aligned table of the cases, in the report's layout: a quick
/// command's single case as a block, its several cases side by side, a
/// scenario's cases compactly.
fn laid_out(report: &Report) -> String {
    match report.table {
        _ if compares_cases(report) => side_by_side::render(report),
        TableLayout::SideBySide => table::render(report),
        TableLayout::Compact => compact::render(report),
    }
}

/// Whether a quick command compares several cases, shown side by side.
fn compares_cases(report: &Report) -> bool {
    report.table == TableLayout::SideBySide
        && report
            .results
            .iter()
            .any(|r| r.case != report.results[0].case)
}

/// Writes `bytes` to `path` whole or not at all: a temporary file in the same
/// folder, then a rename over the target. The temporary file is created
/// exclusively under a random name (O_EXCL, through `tempfile`), so a file or
/// symlink someone planted under a guessable name is never written through.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let context = || format!("cannot write {}", path.display());
    let prefix = format!(".{file_name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Report files are for publishing: readable as `fs::write` would make
    // them (0666 less the umask), not tempfile's private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // Dropping the temporary file on any error below removes it.
    let mut temp = builder.tempfile_in(dir).with_context(context)?;
    temp.write_all(bytes).with_context(context)?;
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(context)?;
    Ok(())
}

/// How a file of a report folder gets its bytes.
pub enum FileBody<'a> {
    /// Rendered already: the charts, small and bounded, which the HTML
    /// page also inlines.
    Bytes(Vec<u8>),
    /// Written straight into the new folder when it is made: the tables,
    /// `run.json` and the pages, which grow with the case count and would
    /// otherwise all sit in memory at once.
    Stream(WriteFile<'a>),
}

/// Writes a file's bytes to the writer it is given.
pub type WriteFile<'a> = Box<dyn Fn(&mut dyn Write) -> anyhow::Result<()> + 'a>;

/// A file of a report folder: its name and how it is written.
pub struct FolderFile<'a> {
    pub name: String,
    pub body: FileBody<'a>,
}

impl<'a> FolderFile<'a> {
    fn bytes(name: &str, bytes: Vec<u8>) -> FolderFile<'a> {
        FolderFile {
            name: name.into(),
            body: FileBody::Bytes(bytes),
        }
    }

    fn stream(
        name: &str,
        write: impl Fn(&mut dyn Write) -> anyhow::Result<()> + 'a,
    ) -> FolderFile<'a> {
        FolderFile {
            name: name.into(),
            body: FileBody::Stream(Box::new(write)),
        }
    }

    /// Writes the file's bytes to `out`.
    pub fn write_to(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        match &self.body {
            FileBody::Bytes(bytes) => out
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", self.name)),
            FileBody::Stream(write) => write(out),
        }
    }
}

/// The files of a report folder: the tables and `run.json`; the charts
/// (PNG and SVG, drawn here, so a failure in drawing writes nothing)
/// unless `charts` is false (`--no-charts`); last the publishing pages
/// (`report.md`, `report.html`), which link the tables, show the charts
/// and give `command` as the way to make the folder again. The tables,
/// `run.json` and the pages are written when the folder is
/// ([`write_folder`]), each under a temporary name until all are written,
/// so a failure still leaves the old files as they were.
pub fn folder_files<'a>(
    report: &'a Report,
    charts: bool,
    command: &str,
) -> anyhow::Result<Vec<FolderFile<'a>>> {
    let mut files = vec![
        FolderFile::stream("summary.csv", move |out| csv::summary(report, out)),
        FolderFile::stream("metrics.csv", move |out| csv::metrics(report, out)),
        FolderFile::stream("distributions.csv", move |out| {
            csv::distributions(report, out)
        }),
        FolderFile::stream("run.json", move |out| json::write_report(report, true, out)),
    ];
    if charts {
        for (name, bytes) in chart::files(report)? {
            files.push(FolderFile::bytes(&name, bytes));
        }
    }
    if report.shows_balances() {
        files.push(FolderFile::bytes(
            "balance.csv",
            balance::to_csv(&report.balances)?,
        ));
    }
    let pages = page::folder_pages(report, command, &files);
    files.extend(pages);
    Ok(files)
}

#[cfg(test)]
pub(crate) mod fixture;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(write_atomic(&dir.path().join("missing/a.csv"), b"x").is_err());
    }

    /// A symlink planted under the temporary name the
    /// writer once used (`.<file>.<pid>.tmp`) must not be written through.
    #[cfg(unix)]
    #[test]
    fn atomic_write_never_follows_a_planted_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, b"precious").unwrap();
        let planted = dir
            .path()
            .join(format!(".a.csv.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let path = dir.path().join("a.csv");
        write_atomic(&path, b"report").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&path).unwrap(), b"report");
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(!meta.file_type().is_symlink());
        // Readable by others, as before, for publishing (under the usual umask 022).
        use std::os::unix::fs::PermissionsExt;
        assert_ne!(meta.permissions().mode() & 0o044, 0);
    }
}
