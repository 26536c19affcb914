//! People's terminal tables (docs/reports.md, "Terminal tables"): metrics
//! headed by their phrases, `--names code` keeping code names, CSV and JSON
//! keeping code names always, columns the same in every case said once,
//! metrics that cannot apply left out, wide tables wrapped to 100 columns,
//! and conditional means marked as conditional everywhere people read them.
//! Every value compared here is the same case's JSON value, so no figure is
//! typed in.

use crate::common;

use common::{json_of, oddsmith, scenario};

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

/// The line of `table` whose label (after the indent) is `label`.
fn line<'a>(table: &'a str, label: &str) -> &'a str {
    table
        .lines()
        .find(|l| {
            l.trim_start()
                .strip_prefix(label)
                .is_some_and(|rest| rest.starts_with("  "))
        })
        .unwrap_or_else(|| panic!("no {label} line in\n{table}"))
}

#[test]
fn a_quick_commands_block_names_metrics_in_words_or_code() {
    let args = ["cortex", "d8 d6 d6", "--vs", "2d6"];
    let json = json_of(&[&args[..], &["--format", "json"]].concat());
    let metrics = &json["results"][0]["metrics"];
    let words = stdout_of(&args);
    for (phrase, code) in [
        ("chance of success", "p_success"),
        ("chance of a heroic success", "p_heroic"),
        ("average total", "mean_total"),
        ("chance of success with a d8 effect die", "win_effect_d8"),
    ] {
        let value = format!("{:.6}", metrics[code].as_f64().unwrap());
        assert!(line(&words, phrase).ends_with(&value), "{words}");
        assert!(!words.contains(code), "{words}");
        let code_names = stdout_of(&[&args[..], &["--names", "code"]].concat());
        assert!(line(&code_names, code).ends_with(&value), "{code_names}");
    }
    // CSV and JSON keep code names whatever `--names` says.
    let csv = stdout_of(&[&args[..], &["--format", "csv"]].concat());
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains(",p_success,") && !header.contains("chance"),
        "{header}"
    );
    assert!(metrics.get("p_success").is_some());
}

#[test]
fn side_by_side_rows_read_in_words_and_what_cannot_apply_is_left_out() {
    // A pool of 5 dice cannot fail dramatically (only a chance die can):
    // its block has no such row; the chance die's has, and CSV keeps it.
    let five = stdout_of(&["storytelling", "5"]);
    assert!(!five.contains("dramatic"), "{five}");
    assert!(line(&five, "chance of success").contains("0."), "{five}");
    let chance = json_of(&["storytelling", "0", "--format", "json"]);
    let p = chance["results"][0]["metrics"]["p_dramatic"]
        .as_f64()
        .unwrap();
    let zero = stdout_of(&["storytelling", "0"]);
    assert!(line(&zero, "chance of a dramatic failure").ends_with(&format!("{p:.6}")));
    let csv = stdout_of(&["storytelling", "5", "--format", "csv"]);
    assert!(
        csv.lines().next().unwrap().ends_with(",p_dramatic"),
        "{csv}"
    );
    // Side by side, the row is there and reads "–" where it cannot apply.
    let both = stdout_of(&["storytelling", "0,5"]);
    let cells: Vec<&str> = line(&both, "chance of a dramatic failure")
        .split_whitespace()
        .rev()
        .take(3)
        .collect();
    assert_eq!(cells[1], "–", "{both}");
    assert_eq!(cells[2], format!("{p:.6}"), "{both}");
    let words = stdout_of(&["advantage", "--die", "d4,d8"]);
    assert!(
        line(&words, "strong hits per encounter").contains("0."),
        "{words}"
    );
    let code = stdout_of(&["advantage", "--die", "d4,d8", "--names", "code"]);
    assert!(line(&code, "strong_per_encounter").contains("0."), "{code}");
}

#[test]
fn runs_table_heads_in_words_and_says_what_every_case_shares_once() {
    let dir = tempfile::tempdir().unwrap();
    // One pool against three doom pools: the pool's own hitches are the
    // same in every case (they depend on the pool alone).
    let one_pool = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 d6\"]\nvs = [\"2d6\", \"2d8\", \"3d8\"]\n",
    );
    let json = json_of(&["run", &one_pool, "--no-report", "--format", "json"]);
    let hitch = json["results"][0]["metrics"]["p_hitch"].as_f64().unwrap();
    for r in json["results"].as_array().unwrap() {
        assert_eq!(r["metrics"]["p_hitch"].as_f64().unwrap(), hitch);
    }
    let table = stdout_of(&["run", &one_pool, "--no-report", "--quiet"]);
    let said = format!("  the same in every case: chance of a hitch {hitch:.4}");
    assert!(table.lines().nth(1).unwrap().starts_with(&said), "{table}");
    assert_eq!(table.matches("chance of a hitch").count(), 1, "{table}");
    let head = table.lines().find(|l| l.starts_with("  case ")).unwrap();
    assert!(head.contains("chance of success"), "{table}");
    let code = stdout_of(&[
        "run",
        &one_pool,
        "--no-report",
        "--quiet",
        "--names",
        "code",
    ]);
    assert!(code.contains("the same in every case: p_hitch "), "{code}");
    let head = code.lines().find(|l| l.starts_with("  case ")).unwrap();
    assert!(head.contains("p_success"), "{code}");
    // Two pools by two doom pools: the matrix is titled in words too.
    let grid = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 d6\", \"d10 d8\"]\nvs = [\"2d6\", \"3d8\"]\n",
    );
    let table = stdout_of(&["run", &grid, "--no-report", "--quiet"]);
    assert!(
        table.contains("\nchance of success\n  pool \\ vs"),
        "{table}"
    );
    let code = stdout_of(&["run", &grid, "--no-report", "--quiet", "--names", "code"]);
    assert!(code.contains("\np_success\n  pool \\ vs"), "{code}");
}

#[test]
fn wide_tables_wrap_their_heads_within_100_columns() {
    let table = stdout_of(&["run", "scenarios/conflicts.toml", "--no-report", "--quiet"]);
    assert!(table.lines().all(|l| l.chars().count() <= 100), "{table}");
    // The heads are stacked above the rows: every word of each phrase is
    // there, in the lines before the first row.
    let head: Vec<&str> = table
        .lines()
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("villains:"))
        .flat_map(str::split_whitespace)
        .collect();
    for phrase in [
        "chance the foe is taken out",
        "chance the hero ends stressed or out",
    ] {
        for word in phrase.split(' ') {
            assert!(head.contains(&word), "{word} of {phrase}:\n{table}");
        }
    }
    let unwrapped = stdout_of(&[
        "run",
        "scenarios/conflicts.toml",
        "--no-report",
        "--quiet",
        "--names",
        "code",
    ]);
    assert!(
        unwrapped.lines().nth(1).unwrap().contains("p_foe_out"),
        "{unwrapped}"
    );
}

#[test]
fn conditional_means_say_which_plays_they_are_over() {
    let fight = ["conflict", "d10 2d8 d6", "--foe", "d10 d8 d6"];
    let json = json_of(&[&fight[..], &["--format", "json"]].concat());
    let mean = json["results"][0]["metrics"]["mean_exchanges_to_foe_out"]
        .as_f64()
        .unwrap();
    let words = "average exchanges to take the foe out (of fights where it is)";
    let table = stdout_of(&fight);
    assert!(
        line(&table, words).ends_with(&format!("{mean:.6}")),
        "{table}"
    );
    let markdown = stdout_of(&[&fight[..], &["--format", "markdown"]].concat());
    assert!(markdown.contains(&format!("| {words} |")), "{markdown}");
    let grid = stdout_of(
        &[
            &fight[..],
            &["--rows", "foe", "--metric", "mean_exchanges_to_foe_out"],
        ]
        .concat(),
    );
    assert!(grid.contains(words), "{grid}");
    // A scene's final doom pool is over the scenes that did not end early.
    let scene = stdout_of(&["scene", "d8 d6", "--doom", "2d6", "--actions", "3"]);
    assert!(
        scene.contains("average doom dice at the end (of scenes not ended early)"),
        "{scene}"
    );
    let roll = stdout_of(&["storytelling", "5", "--extended", "5", "--rolls", "3"]);
    assert!(
        roll.contains("average rolls to succeed (of actions that succeed)"),
        "{roll}"
    );
    // The pages, and the chart that draws the final doom pool, say it too.
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex-scene\"\npool = [\"d8 d6\"]\ndoom = [\"2d6\", \"2d8\"]\nactions = 3\nhero_spend = [\"never\", \"add-to-total\"]\ngm_spend = [\"never\", \"to-win\"]\n",
    );
    let out = dir.path().join("out");
    oddsmith()
        .args(["run", &path, "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join("cortex-scene-economy.svg")).unwrap();
    assert!(svg.contains("scenes not ended"), "economy chart");
    let fights = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex-conflict\"\nhero = [\"d10 2d8 d6\"]\nfoe = [\"d8 d6\", \"d10 d8 d6\"]\n",
    );
    let out = dir.path().join("fights");
    oddsmith()
        .args(["run", &fights, "--quiet", "--no-charts", "--out"])
        .arg(&out)
        .assert()
        .success();
    for page in ["report.md", "report.html"] {
        let text = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(text.contains(words), "{page}");
    }
}
