//! Pivot tables and distribution views from the command line: the README's
//! Chronicles of Darkness grid as one Markdown table, `--paired`, the views
//! in CSV and JSON, and the exit-2 messages of bad grids.

use crate::common;

use common::{json_of, oddsmith, refused};

/// The stdout of a successful run.
fn stdout_of(args: &[&str]) -> String {
    let out = oddsmith()
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap()
}

const COFD: [&str; 14] = [
    "storytelling",
    "1,2,3,4,5,6,7,8,9,10",
    "--again",
    "10,9,8,10",
    "--rote=false,false,false,true",
    "--paired",
    "--rows",
    "dice",
    "--cols",
    "again,rote",
    "--format",
    "markdown",
    "--quiet",
    "--method=exact",
];

#[test]
fn the_readme_grid_is_one_markdown_table() {
    let md = stdout_of(&COFD);
    assert_eq!(md.matches("| --- |").count(), 1, "{md}");
    assert!(
        md.contains("| number of dice | 10-again | 9-again | 8-again | 10-again, rote action |"),
        "{md}"
    );
    // Each cell is the case asked alone.
    let alone = json_of(&["storytelling", "5", "--rote", "--format", "json"]);
    let p = alone["results"][0]["metrics"]["p_success"]
        .as_f64()
        .unwrap();
    let row = md.lines().find(|l| l.starts_with("| 5 |")).unwrap();
    assert!(row.ends_with(&format!("| {:.2} % |", p * 100.0)), "{row}");
    // JSON is the same as without the grid flags: one result per case.
    let mut json_args: Vec<&str> = COFD[..10].to_vec();
    json_args.extend(["--format", "json"]);
    assert_eq!(json_of(&json_args)["results"].as_array().unwrap().len(), 40);
}

#[test]
fn paired_lists_zip_and_label_the_rows() {
    let text = stdout_of(&[
        "advantage",
        "--die",
        "d4,d6,d8",
        "--threshold",
        "3,5,7",
        "--policy",
        "threshold",
        "--paired",
        "--rows",
        "die",
        "--metric",
        "p_strong",
    ]);
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with('d'))
            .count(),
        3,
        "{text}"
    );
    let csv = stdout_of(&[
        "advantage",
        "--die",
        "d4,d6,d8",
        "--threshold",
        "3,5,7",
        "--policy",
        "threshold",
        "--paired",
        "--rows",
        "die",
        "--metric",
        "p_strong",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().next(), Some("die threshold,p_strong"), "{csv}");
    assert!(csv.contains("die=d8 threshold=7,"), "{csv}");
}

#[test]
fn a_view_in_csv_keeps_every_outcome() {
    let csv = stdout_of(&[
        "storytelling",
        "3,5",
        "--view",
        "at-least",
        "--format",
        "csv",
    ]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("metric,successes,dice=3,dice=5"));
    assert_eq!(lines.next(), Some("successes:at-least,0,1,1"));
    let text = stdout_of(&["storytelling", "3,5", "--view", "at-least"]);
    assert!(
        text.contains("left out: under 0.01 % in every case"),
        "{text}"
    );
}

/// `--format json` keeps its results and adds the grids asked for: a
/// pivot's cells are the results' own metrics, a view's rows the
/// distribution's tails.
#[test]
fn json_carries_the_grids_beside_the_results() {
    let v = json_of(&[
        "storytelling",
        "3,5,7",
        "--again",
        "10,8",
        "--rows",
        "dice",
        "--cols",
        "again",
        "--metric",
        "p_success",
        "--format",
        "json",
    ]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    let grid = &v["grids"][0];
    assert_eq!(grid["metric"], "p_success");
    assert_eq!(grid["rows_key"], "dice");
    let columns: Vec<&str> = grid["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(columns.len(), 2, "{grid}");
    let rows = grid["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let mut checked = 0;
    for r in results {
        let dice = r["inputs"]["dice"].to_string();
        let again = r["inputs"]["again"].to_string();
        let row = rows
            .iter()
            .find(|row| row["row"].to_string().trim_matches('"') == dice)
            .unwrap();
        let col = columns.iter().position(|c| c.ends_with(&again)).unwrap();
        assert_eq!(
            row["values"][col], r["metrics"]["p_success"],
            "{dice} {again}"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);

    let v = json_of(&[
        "storytelling",
        "4",
        "--view",
        "at-least",
        "--format",
        "json",
    ]);
    assert_eq!(v["results"].as_array().unwrap().len(), 1);
    let grid = &v["grids"][0];
    assert_eq!(grid["metric"], "successes:at-least");
    let tail: Vec<f64> = grid["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["values"][0].as_f64().unwrap())
        .collect();
    // P(at least 0) is 1 and the tail never grows; P(at least 1) is the
    // chance of success.
    assert_eq!(tail[0], 1.0);
    assert!(tail.windows(2).all(|w| w[1] <= w[0]));
    let p_success = v["results"][0]["metrics"]["p_success"].as_f64().unwrap();
    assert!((tail[1] - p_success).abs() < 1e-12, "{tail:?} {p_success}");
}

/// A take-out tail levels off below 100 % (the rest is "never"): the
/// people's view cuts the plateau, and what it keeps is the CSV's rows.
#[test]
fn an_at_most_view_cuts_a_plateau_below_one() {
    let args = [
        "conflict",
        "d10 2d8 d6",
        "--foe",
        "d10 d8 d6",
        "--view",
        "at-most",
    ];
    let text = stdout_of(&args);
    assert!(text.contains("within 0.01 % of their last value"), "{text}");
    let csv = stdout_of(&[&args[..], &["--format", "csv"]].concat());
    let tail: Vec<(i64, f64)> = csv
        .lines()
        .filter_map(|l| l.strip_prefix("foe_out_exchange:at-most,"))
        .filter_map(|l| {
            let (k, p) = l.split_once(',')?;
            Some((k.parse().ok()?, p.parse().ok()?))
        })
        .collect();
    let last = tail.last().unwrap().1;
    assert!(last < 0.99, "the foe is not always taken out: {last}");
    // Printed rows: the grid's whole-number rows under the title.
    let printed: Vec<i64> = text
        .split("foe out exchange: at most")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(
        printed.len() < tail.len(),
        "{} of {}",
        printed.len(),
        tail.len()
    );
    let cut = *printed.last().unwrap();
    let at_cut = tail.iter().find(|(k, _)| *k == cut).unwrap().1;
    assert!(last - at_cut < 0.00005, "{at_cut} vs {last}");
    // The row before the cut was not yet within a hair of the end.
    let before = tail.iter().find(|(k, _)| *k == cut - 1).unwrap().1;
    assert!(last - before >= 0.00005, "{before} vs {last}");
}

#[test]
fn bad_grids_exit_2_with_what_is_allowed() {
    refused(
        &["storytelling", "5", "--rows", "dise"],
        &["did you mean `dice`", "`again`"],
    );
    refused(
        &[
            "storytelling",
            "5",
            "--rows",
            "dice",
            "--metric",
            "p_sucess",
        ],
        &["did you mean `p_success`", "`successes>=N`"],
    );
    refused(
        &["storytelling", "5", "--cols", "again"],
        &["`--cols` needs `--rows KEY`"],
    );
    refused(
        &[
            "storytelling",
            "1,2",
            "--again",
            "10,9,8",
            "--rote=false,true",
            "--paired",
            "--cols",
            "again,rote",
            "--rows",
            "dice",
        ],
        &["with --paired", "as many values each"],
    );
}
