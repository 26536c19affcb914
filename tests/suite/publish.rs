//! The publishing pages (docs/reports.md): every report folder has `report.md` and
//! a self-contained `report.html`, linked from the index; the HTML parses
//! without errors, loads nothing from outside the file (only links to the
//! folder's CSV tables), and holds every table row of report.md. Checked on
//! the committed reports of the bundled scenarios and on a fresh run with
//! charts, Monte Carlo cases and a balance. `--format markdown` prints pipe
//! tables.

use crate::common;

use std::path::Path;

use common::{json_of, oddsmith};
use scraper::{Html, Selector};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of a Markdown pipe-table row as a reader sees them: trimmed,
/// code marks, bold marks and backslash escapes removed.
fn markdown_cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    cell.push(next);
                }
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            '`' => {}
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    cells
        .into_iter()
        .map(|c| c.replace("**", "").trim().to_string())
        .collect()
}

/// Every row of every pipe table of a Markdown page, the delimiter rows left out.
fn markdown_rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with('|'))
        .map(markdown_cells)
        .filter(|cells| {
            !cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'))
        })
        .collect()
}

/// The cell texts of every `<tr>` of a page.
fn html_rows(page: &Html) -> Vec<Vec<String>> {
    let tr = Selector::parse("tr").unwrap();
    let cell = Selector::parse("th, td").unwrap();
    page.select(&tr)
        .map(|row| {
            row.select(&cell)
                .map(|c| c.text().collect::<String>().trim().to_string())
                .collect()
        })
        .collect()
}

/// Whether a reference leaves the file: anything but a `#fragment`, except
/// (for links) a CSV table of the same folder.
fn loads_from_outside(target: &str, csv_allowed: bool) -> bool {
    let target = target.trim();
    let local_csv =
        csv_allowed && target.ends_with(".csv") && !target.contains('/') && !target.contains(':');
    !(target.starts_with('#') || local_csv)
}

/// The checks on one folder's pages; `folder` names it in messages.
fn check_pages(dir: &Path) {
    let folder = dir.display();
    let md = read(&dir.join("report.md"));
    let text = read(&dir.join("report.html"));
    let page = Html::parse_document(&text);
    assert!(
        page.errors.is_empty(),
        "{folder}/report.html has HTML errors: {:?}",
        page.errors
    );

    let any = Selector::parse("*").unwrap();
    for element in page.select(&any) {
        let name = element.value().name();
        assert!(
            name != "script" && name != "iframe" && name != "link" && name != "img",
            "{folder}/report.html has a <{name}> element"
        );
        for (attr, value) in element.value().attrs() {
            let is_reference = matches!(
                attr,
                "src" | "href" | "srcset" | "poster" | "data" | "action" | "formaction"
            ) || attr.ends_with(":href");
            if is_reference {
                assert!(
                    !loads_from_outside(value, attr == "href" && name == "a"),
                    "{folder}/report.html: <{name} {attr}=\"{value}\"> reaches outside the file"
                );
                if !value.starts_with('#') {
                    assert!(
                        dir.join(value).is_file(),
                        "{folder}/report.html links {value}, which is not in the folder"
                    );
                }
            }
            if attr == "style" {
                assert!(!value.contains("url("), "{folder}: style=\"{value}\"");
            }
        }
    }
    let style = Selector::parse("style").unwrap();
    for sheet in page.select(&style) {
        let css: String = sheet.text().collect();
        assert!(
            !css.contains("@import"),
            "{folder}: @import in the style sheet"
        );
        for piece in css.split("url(").skip(1) {
            let target = piece.trim_start_matches(['"', '\'', ' ']);
            assert!(
                target.starts_with('#'),
                "{folder}: the style sheet loads url({piece:.40})"
            );
        }
    }

    let rows = html_rows(&page);
    let md_rows = markdown_rows(&md);
    assert!(!md_rows.is_empty(), "{folder}/report.md has no table");
    for row in &md_rows {
        assert!(
            rows.contains(row),
            "{folder}: the report.md row {row:?} is in no <tr> of report.html"
        );
    }

    // The Markdown page's links and images point at files of the folder.
    for piece in md.split("](").skip(1) {
        let target = &piece[..piece.find(')').unwrap_or(piece.len())];
        let target = target.replace("%20", " ");
        assert!(
            dir.join(&target).is_file(),
            "{folder}/report.md links {target}, which is not in the folder"
        );
    }
}

#[test]
fn markdown_rows_are_read_as_a_reader_sees_them() {
    assert_eq!(
        markdown_cells("| `p_success` | **3d8** | a\\|b \\_c |"),
        vec!["p_success", "3d8", "a|b _c"]
    );
    assert_eq!(
        markdown_rows("| a | b |\n| --- | --: |\n| 1 | 2 |\n"),
        vec![vec!["a", "b"], vec!["1", "2"]]
    );
    assert!(loads_from_outside("https://example.org/x.css", false));
    assert!(loads_from_outside("x.png", true));
    assert!(loads_from_outside("../other/summary.csv", true));
    assert!(!loads_from_outside("summary.csv", true));
    assert!(!loads_from_outside("#results", false));
}

#[test]
fn committed_reports_have_both_pages_linked_from_the_index() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let index_md = read(&reports.join("index.md"));
    let index_html = read(&reports.join("index.html"));
    let mut folders = 0;
    for entry in std::fs::read_dir(&reports).unwrap().flatten() {
        if !entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let link = name.replace(' ', "%20");
        assert!(
            index_md.contains(&format!("]({link}/report.md)")),
            "index.md does not link {name}/report.md"
        );
        assert!(
            index_html.contains(&format!("href=\"{link}/report.html\"")),
            "index.html does not link {name}/report.html"
        );
        check_pages(&entry.path());
        let md = read(&entry.path().join("report.md"));
        assert!(
            md.contains("oddsmith run scenarios/"),
            "{name}/report.md has no repository-relative reproduce line"
        );
        folders += 1;
    }
    assert!(folders > 0, "no committed report folders");
}

const MIXED: &str = r#"
name = "mixed pages"
description = "Cortex pools, one sampled, and a balance"
trials = 5000
seed = 3

[[sweep]]
system = "cortex"
pool = ["d8 2d6", "d10 d8 d6"]
vs = ["2d6", "2d8"]

[[case]]
system = "storytelling"
name = "five dice"
dice = 5

[[balance]]
pools = ["d8 d6 d6"]
target = 0.6
"#;

#[test]
fn a_fresh_run_writes_pages_with_inline_charts_and_balances() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mixed.toml");
    std::fs::write(&scenario, MIXED).unwrap();
    let out = dir.path().join("out");
    oddsmith()
        .current_dir(dir.path())
        .args([
            "run",
            "mixed.toml",
            "--out",
            "out",
            "--method",
            "both",
            "--quiet",
        ])
        .assert()
        .success();
    check_pages(&out);
    let md = read(&out.join("report.md"));
    let html = read(&out.join("report.html"));
    // Charts: embedded by relative path in Markdown, inline SVG in HTML.
    assert!(
        md.contains(
            "[![Chance the hero's action succeeds](cortex-p-success.png)](cortex-p-success.svg)"
        ),
        "{md}"
    );
    assert_eq!(
        html.matches("<svg").count(),
        md.matches("[![").count(),
        "one inline SVG per embedded chart"
    );
    // The balance marks its winning rung (balance.csv's `best`) in bold in
    // both pages, and no other.
    let balance = read(&out.join("balance.csv"));
    let best: Vec<&str> = balance
        .lines()
        .filter(|l| l.ends_with(",true"))
        .map(|l| l.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(best.len(), 1, "{balance}");
    assert!(md.contains(&format!("| **{}** |", best[0])), "{md}");
    assert!(html.contains(&format!("<td><strong>{}</strong></td>", best[0])));
    assert_eq!(md.lines().filter(|l| l.contains("| **")).count(), 1);
    // The reproduce line: the command as run, relative paths, no date.
    assert!(
        md.contains("oddsmith run mixed.toml --out out --method both\n"),
        "{md}"
    );
    // Both methods: a row per case and method.
    assert!(
        md.contains("| d8 2d6 vs 2d6 | exact |") && md.contains("| d8 2d6 vs 2d6 | Monte Carlo |")
    );

    // --no-charts: no chart embedded, no SVG inlined.
    oddsmith()
        .current_dir(dir.path())
        .args([
            "run",
            "mixed.toml",
            "--out",
            "bare",
            "--no-charts",
            "--quiet",
        ])
        .assert()
        .success();
    check_pages(&dir.path().join("bare"));
    assert!(!read(&dir.path().join("bare/report.md")).contains("!["));
    assert!(!read(&dir.path().join("bare/report.html")).contains("<svg"));
}

#[test]
fn format_markdown_prints_pipe_tables() {
    let output = oddsmith()
        .args([
            "cortex",
            "d10 2d8 d6",
            "--vs",
            "2d6",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let md = String::from_utf8(output.stdout).unwrap();
    assert!(
        md.starts_with("**d10 2d8 d6 vs 2d6** (cortex): rules "),
        "{md}"
    );
    assert!(md.contains("; exact.\n\n| metric | value |\n| --- | --: |\n"));
    let rows = markdown_rows(&md);
    // People's Markdown names the metric in words (`--names code` keeps `p_success`).
    let p_success = rows.iter().find(|r| r[0] == "chance of success").unwrap();
    // The JSON value of the same run, printed as a percentage with two decimals.
    let json = json_of(&["cortex", "d10 2d8 d6", "--vs", "2d6", "--format", "json"]);
    let p = json["results"][0]["metrics"]["p_success"].as_f64().unwrap();
    assert_eq!(p_success[1], format!("{:.2} %", p * 100.0));

    for format_run in [
        vec!["balance", "d8 d6 d6", "--format", "markdown"],
        vec![
            "storytelling",
            "5",
            "--format",
            "markdown",
            "--method",
            "mc",
            "--trials",
            "2000",
        ],
    ] {
        let output = oddsmith().args(&format_run).output().unwrap();
        assert!(output.status.success(), "{format_run:?}");
        let md = String::from_utf8(output.stdout).unwrap();
        assert!(markdown_rows(&md).len() > 2, "{format_run:?}: {md}");
    }
}
