//! Comparisons in the quick commands: comma lists (and repeated flags) give
//! one case per value, named as a scenario sweep names them, printed side by
//! side with the difference; JSON and CSV carry one result per case. Each
//! case is checked against the same case asked alone, so no figure here is
//! typed in.

use crate::common;

use common::{json_of, oddsmith, refused};
use serde_json::Value;

/// The metric `name` of a JSON result.
fn metric(result: &Value, name: &str) -> f64 {
    result["metrics"][name].as_f64().unwrap()
}

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

/// The cells of the table row that starts with `name`.
fn row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no {name} row in\n{table}"));
    line.split_whitespace().collect()
}

#[test]
fn a_die_list_answers_in_one_side_by_side_table() {
    let table = stdout_of(&[
        "advantage",
        "--die",
        "d4,d8",
        "--rolls",
        "6",
        "--names",
        "code",
    ]);
    let lines: Vec<&str> = table.lines().collect();
    // What the cases share heads the table; the varied key names the columns.
    assert_eq!(lines[0], "rolls=6  [advantage, exact]");
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["metric", "die=d4", "die=d8", "difference"]
    );
    for die in ["d4", "d8"] {
        let alone = json_of(&[
            "advantage",
            "--die",
            die,
            "--rolls",
            "6",
            "--format",
            "json",
        ]);
        let column = if die == "d4" { 1 } else { 2 };
        let p = metric(&alone["results"][0], "p_strong");
        assert_eq!(row(&table, "p_strong")[column], format!("{p:.6}"));
    }
    let cells = row(&table, "p_strong");
    let (d4, d8, difference): (f64, f64, f64) = (
        cells[1].parse().unwrap(),
        cells[2].parse().unwrap(),
        cells[3].parse().unwrap(),
    );
    // The difference is the right column minus the left (to the printed digits).
    assert!((difference - (d8 - d4)).abs() <= 1.5e-6, "{table}");
}

#[test]
fn monte_carlo_differences_carry_an_interval_that_holds_the_difference() {
    let table = stdout_of(&[
        "storytelling",
        "5",
        "--again",
        "10,8",
        "--method",
        "mc",
        "--trials",
        "20000",
        "--names",
        "code",
    ]);
    assert!(table
        .lines()
        .next()
        .unwrap()
        .contains("monte carlo, 20000 trials, seed 1"));
    let cells = row(&table, "mean_successes");
    let difference: f64 = cells[3].parse().unwrap();
    let lo: f64 = cells[4].trim_matches(['[', ',']).parse().unwrap();
    let hi: f64 = cells[5].trim_matches(']').parse().unwrap();
    assert!(lo < difference && difference < hi, "{table}");
    // 8-again explodes more, so it has more successes beyond doubt.
    assert!(lo > 0.0, "{table}");
}

#[test]
fn lists_in_two_flags_give_their_product_named_as_a_sweep() {
    let json = json_of(&[
        "cortex",
        "d8 d6,d10 d8",
        "--vs",
        "2d6,3d8",
        "--format",
        "json",
    ]);
    let names: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "d8 d6 vs 2d6",
            "d8 d6 vs 3d8",
            "d10 d8 vs 2d6",
            "d10 d8 vs 3d8"
        ]
    );
    let alone = json_of(&["cortex", "d10 d8", "--vs", "3d8", "--format", "json"]);
    assert_eq!(
        json["results"][3]["metrics"],
        alone["results"][0]["metrics"]
    );
    // CSV: a row per case.
    let csv = stdout_of(&[
        "cortex",
        "d8 d6,d10 d8",
        "--vs",
        "2d6,3d8",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().count(), 1 + 4);
}

#[test]
fn table_flags_vary_by_repetition() {
    let json = json_of(&[
        "advantage",
        "--gain-on",
        "miss=1",
        "--gain-on",
        "miss=0",
        "--format",
        "json",
    ]);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["case"], "gain_on.miss=1");
    assert_eq!(results[1]["inputs"]["gain_on"]["miss"], 0);
}

#[test]
fn a_header_names_the_rules_that_differ_from_the_defaults() {
    let table = stdout_of(&[
        "cortex",
        "d10 2d8 d6",
        "--vs",
        "2d6",
        "--ties",
        "action",
        "--heroic-step",
        "4",
    ]);
    assert_eq!(
        table.lines().next().unwrap(),
        "d10 2d8 d6 vs 2d6  [cortex, exact; ties=action, heroic_step=4]"
    );
    // The defaults written out are no change.
    let table = stdout_of(&["cortex", "d8", "--vs", "2d6", "--ties", "reaction"]);
    assert_eq!(table.lines().next().unwrap(), "d8 vs 2d6  [cortex, exact]");
}

#[test]
fn bad_lists_are_refused() {
    refused(
        &["cortex", "d8", "--vs", "2d6,2d6"],
        &["`--vs` lists 2d6 twice"],
    );
    refused(
        &["cortex", "d8,d7", "--vs", "2d6"],
        &["POOL: d7 is not a Cortex die"],
    );
    refused(
        &["storytelling", "5,x"],
        &["DICE must be a whole number", "\"x\""],
    );
    refused(
        &["balance", "d8 d6", "--ties", "action,reaction"],
        &["takes one value of `--ties`"],
    );
}

#[test]
fn markdown_shows_compared_cases_in_one_table_like_the_text() {
    let args = ["advantage", "--die", "d4,d8", "--rolls", "6"];
    let text = stdout_of(&[&args[..], &["--names", "code"]].concat());
    // People's Markdown names metrics in words; `--names code` keeps the
    // code names, as the text table under `--names code` shows them.
    let words = stdout_of(&[&args[..], &["--format", "markdown"]].concat());
    assert!(
        words.contains("| strong hits per encounter |") && !words.contains("| `"),
        "{words}"
    );
    let markdown = stdout_of(&[&args[..], &["--format", "markdown", "--names", "code"]].concat());
    // One pipe table, opened by the text table's own first line.
    assert_eq!(markdown.lines().next(), text.lines().next());
    let table: Vec<&str> = markdown.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(
        table[0], "| metric | die=d4 | die=d8 | difference |",
        "{markdown}"
    );
    assert_eq!(markdown.matches("| metric |").count(), 1, "{markdown}");
    // A row per metric of the text table, in its order.
    let text_metrics: Vec<&str> = text
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let markdown_metrics: Vec<String> = table[2..]
        .iter()
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .trim_matches('`')
                .replace("\\_", "_")
        })
        .collect();
    assert_eq!(markdown_metrics, text_metrics);
    // The signed difference agrees with the text table's.
    let cells: Vec<&str> = table[2].split('|').map(str::trim).collect();
    let text_difference: f64 = row(&text, text_metrics[0])[3].parse().unwrap();
    let markdown_difference: f64 = cells[4].parse().unwrap();
    assert_eq!(markdown_difference, text_difference, "{markdown}");
}
