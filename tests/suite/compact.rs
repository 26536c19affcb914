//! `oddsmith run`'s table (compact rows of headline metrics and the Cortex
//! p_success matrix), the note on where the report went coming after the
//! results, and the report folder's `at_least` column (docs/reports.md).

use crate::common;

use common::{oddsmith, scenario};

#[test]
fn the_doom_ladder_fits_in_80_lines_with_a_p_success_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let out = oddsmith()
        .args(["run", "scenarios/doom-ladder.toml", "--no-charts", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .clone();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.lines().count() <= 80, "{table}");
    assert!(table.lines().all(|l| l.chars().count() <= 100), "{table}");
    assert!(table.starts_with("45 cases  [cortex, exact]\n"), "{table}");
    // The matrix's cell for d10 2d8 d6 against 3d8 is that case's row's p_success.
    let case_row: Vec<&str> = table
        .lines()
        .find(|l| l.trim_start().starts_with("d10 2d8 d6 vs 3d8 "))
        .unwrap()
        .split_whitespace()
        .collect();
    let p: f64 = case_row[5].parse().unwrap();
    let header: Vec<&str> = table
        .lines()
        .find(|l| l.trim_start().starts_with("pool \\ vs"))
        .unwrap()
        .split_whitespace()
        .collect();
    let column = header.iter().position(|h| *h == "3d8").unwrap() - 3;
    let matrix_row: Vec<&str> = table
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("d10 2d8 d6 "))
        .unwrap()
        .split_whitespace()
        .skip(3)
        .collect();
    let cell: f64 = matrix_row[column].parse().unwrap();
    assert!((cell - p).abs() <= 0.0005 + 1e-9, "{cell} vs {p}");
    // The note comes after the results: on stderr, naming the folder.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("report written to "), "{stderr}");
}

#[test]
fn at_least_is_the_upper_tail_for_ordered_outcomes_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[case]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = \"2d6\"\n[[case]]\nsystem = \"storytelling\"\ndice = 3\n",
    );
    let out_dir = dir.path().join("out");
    oddsmith()
        .args(["run", &path, "--no-charts", "--quiet", "--out"])
        .arg(&out_dir)
        .assert()
        .success();
    let text = std::fs::read_to_string(out_dir.join("distributions.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(
        header.iter().collect::<Vec<_>>(),
        [
            "case",
            "method",
            "variable",
            "outcome",
            "probability",
            "at_least"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let mut checked = 0;
    for row in &rows {
        let ordered = row[3].parse::<i64>().is_ok();
        if !ordered {
            assert_eq!(&row[5], "", "{row:?}");
            continue;
        }
        let outcome: i64 = row[3].parse().unwrap();
        let tail: f64 = rows
            .iter()
            .filter(|r| r[0] == row[0] && r[2] == row[2])
            .filter(|r| r[3].parse::<i64>().is_ok_and(|o| o >= outcome))
            .map(|r| r[4].parse::<f64>().unwrap())
            .sum();
        let at_least: f64 = row[5].parse().unwrap();
        assert!((at_least - tail).abs() < 1e-12, "{row:?}");
        checked += 1;
    }
    assert!(rows
        .iter()
        .any(|r| &r[2] == "win_effect" && r[5].is_empty()));
    assert!(rows.iter().any(|r| &r[2] == "successes") && checked > 20);
}

#[test]
fn a_sweep_of_single_values_is_named_from_its_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = \"2d6\"\n",
    );
    let out = oddsmith()
        .args(["run", &path, "--no-report", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .clone();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("d8 d6 vs 2d6,cortex,"),
        "{csv}"
    );
}
