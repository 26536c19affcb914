//! Pins the pivot layout, the measures' words, the distribution views
//! (against the distributions' own sums) and the messages of bad grids.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::cli::{FormatArg, MethodArg};
use crate::commands::evaluate::{evaluate_case, Settings};
use crate::report::grid;
use crate::report::view::{self, View};

/// The results of scenario `text`, evaluated exactly.
fn results(text: &str) -> Vec<CaseResult> {
    let scenario = crate::scenario::parse(text, "t.toml", "t").expect("a valid scenario");
    let settings = Settings {
        trials: 1000,
        seed: 1,
        workers: Default::default(),
        method: MethodArg::Exact,
        format: FormatArg::Table,
        quiet: true,
        fractions: false,
    };
    let cancel = AtomicBool::new(false);
    scenario
        .cases
        .iter()
        .flat_map(|case| evaluate_case(case, &settings, &cancel).unwrap())
        .collect()
}

const POOLS: &str = r#"
[[sweep]]
system = "storytelling"
again = [10, 9]
dice = [0, 1, 2, 5]

[[sweep]]
system = "storytelling"
name = "rote"
rote = true
dice = [0, 1, 2, 5]

[[case]]
system = "storytelling"
dice = 2
modifier = 1
"#;

fn spec(rows: &str, cols: Option<&str>, metrics: &[&str]) -> PivotSpec {
    PivotSpec::new(
        Axis::parse(rows),
        cols.map(Axis::parse),
        metrics.iter().map(|m| m.to_string()).collect(),
    )
}

fn value(grid: &Grid, row: &str, col: usize) -> Option<f64> {
    let row = grid.rows.iter().find(|r| r.code == row).unwrap();
    row.cells[col].map(|c| c.value)
}

#[test]
fn a_grid_has_a_row_per_value_and_a_column_per_variant() {
    let results = results(POOLS);
    let mut spec = spec("dice", Some("again,rote"), &["p_success", "successes>=2"]);
    spec.filter = vec![("modifier".into(), serde_json::json!(0))];
    let grids = grids(&results, &spec, Names::Words).unwrap();
    assert_eq!(grids.len(), 2, "a grid per measure");
    let g = &grids[0];
    assert_eq!(
        g.title,
        "chance of success by number of dice and again, rote"
    );
    assert_eq!(g.corner, "number of dice");
    assert_eq!(g.columns, ["10-again", "9-again", "10-again, rote action"]);
    assert_eq!(
        g.column_codes,
        [
            "again=10 rote=false",
            "again=9 rote=false",
            "again=10 rote=true"
        ]
    );
    let rows: Vec<&str> = g.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(rows, ["0", "1", "2", "5"]);
    // Each cell is its case's own number.
    let case = |name: &str| results.iter().find(|r| r.case == name).unwrap();
    assert_eq!(value(g, "5", 1), case("again=9, dice=5").value("p_success"));
    assert_eq!(value(g, "1", 2), case("rote: dice=1").value("p_success"));
    // A chance die has no rote: its one case fills the rote column too.
    assert_eq!(
        value(g, "0", 2),
        case("again=10, dice=0").value("p_success")
    );
    // What every case shares is said once, above the table.
    assert!(
        g.notes[0].starts_with("Every case: modifier 0; a die succeeds on 8+"),
        "{:?}",
        g.notes
    );
    assert_eq!(
        grids[1].title,
        "at least 2 successes by number of dice and again, rote"
    );
    let text = grid::to_text(&grids);
    assert!(
        text.contains("number of dice  10-again  9-again  10-again, rote action"),
        "{text}"
    );
}

#[test]
fn code_names_and_csv_keep_the_code() {
    let results = results(POOLS);
    let mut spec = spec("dice", Some("again,rote"), &["p_success"]);
    spec.filter = vec![("modifier".into(), serde_json::json!(0))];
    let grids = grids(&results, &spec, Names::Code).unwrap();
    assert_eq!(grids[0].title, "p_success by dice and again, rote");
    assert_eq!(grids[0].columns[0], "again=10 rote=false");
    let mut csv = Vec::new();
    grid::write_csv(&grids, &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("metric,dice,again=10 rote=false,again=9 rote=false,again=10 rote=true")
    );
    let first: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .skip(2)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|p| (p - 0.1).abs() < 1e-12), "{first:?}");
}

#[test]
fn measures_read_in_words() {
    let words = |m: &str| Measure::parse(m).phrase();
    assert_eq!(words("p_success"), "chance of success");
    assert_eq!(words("successes>=2"), "at least 2 successes");
    assert_eq!(words("successes>=1"), "at least 1 success");
    assert_eq!(words("hitches=1"), "exactly 1 hitch");
    assert_eq!(words("total<=7"), "total at most 7");
    assert_eq!(Measure::parse("successes>=2").code(), "successes>=2");
}

#[test]
fn a_metric_that_cannot_apply_is_left_out() {
    let results = results(POOLS);
    let mut spec = spec("dice", Some("again"), &["p_dramatic"]);
    spec.filter = vec![
        ("modifier".into(), serde_json::json!(0)),
        ("again".into(), serde_json::json!(9)),
    ];
    let grids = grids(&results, &spec, Names::Words).unwrap();
    assert_eq!(value(&grids[0], "0", 0), Some(0.1));
    assert_eq!(value(&grids[0], "5", 0), None);
    assert!(grid::to_text(&grids).contains('–'));
}

#[test]
fn a_column_per_metric_without_cols() {
    let results = results(POOLS);
    let mut spec = spec("dice", None, &["p_success", "mean_successes"]);
    spec.filter = vec![
        ("modifier".into(), serde_json::json!(0)),
        ("again".into(), serde_json::json!(9)),
    ];
    let grids = grids(&results, &spec, Names::Words).unwrap();
    assert_eq!(grids.len(), 1);
    assert_eq!(
        grids[0].columns,
        ["chance of success", "average number of successes"]
    );
    let doc = grid::to_document(&grids, 3);
    let md = crate::report::markdown::render(&doc);
    assert!(
        md.contains("| number of dice | chance of success | average number of successes |"),
        "{md}"
    );
    assert!(md.contains("| 5 | 83.19 % | 1.87 |"), "{md}");
}

#[test]
fn bad_grids_say_what_is_allowed() {
    let results = results(POOLS);
    let systems = [System::Storytelling];
    let e = check(&spec("dise", None, &[]), &systems).unwrap_err().0;
    assert!(
        e.contains("(did you mean `dice`?)") && e.contains("`again`"),
        "{e}"
    );
    let e = check(&spec("dice", None, &["p_sucess"]), &systems)
        .unwrap_err()
        .0;
    assert!(
        e.contains("(did you mean `p_success`?)") && e.contains("`p_dramatic`"),
        "{e}"
    );
    let e = check(&spec("dice", None, &["succeses>=2"]), &systems)
        .unwrap_err()
        .0;
    assert!(
        e.contains("did you mean `successes`") && e.contains("`successes>=N`"),
        "{e}"
    );
    // Two different cases in one cell: the key that tells them apart is named.
    let e = grids(&results, &spec("dice", Some("again"), &[]), Names::Words)
        .unwrap_err()
        .0;
    assert!(
        e.contains("fall in the same cell") && e.contains("they differ in `modifier`"),
        "{e}"
    );
}

#[test]
fn views_are_the_distributions_own_sums() {
    let results = results(POOLS);
    let dist = |r: &CaseResult, k: i64, keep: &dyn Fn(i64, i64) -> bool| -> f64 {
        r.rows
            .iter()
            .filter(|row| row.variable == "successes")
            .filter(|row| keep(row.outcome.parse().unwrap(), k))
            .map(|row| row.probability)
            .sum()
    };
    for (view, keep) in [
        (
            View::Exactly,
            &(|o: i64, k: i64| o == k) as &dyn Fn(i64, i64) -> bool,
        ),
        (View::AtLeast, &|o, k| o >= k),
        (View::AtMost, &|o, k| o <= k),
    ] {
        let grids = view::grids(&results, view, Names::Words, false);
        assert_eq!(grids.len(), 1, "one variable: successes");
        let g = &grids[0];
        assert_eq!(g.columns.len(), results.len());
        for row in &g.rows {
            let k: i64 = row.code.parse().unwrap();
            for (c, r) in results.iter().enumerate() {
                let want = dist(r, k, keep);
                let got = row.cells[c].map_or(0.0, |c| c.value);
                assert!(
                    (got - want).abs() < 1e-12,
                    "{view:?} {k} {}: {got} vs {want}",
                    r.case
                );
            }
        }
    }
    let at_least = &view::grids(&results, View::AtLeast, Names::Words, false)[0];
    assert!(at_least.rows[0]
        .cells
        .iter()
        .all(|c| c.unwrap().value == 1.0));
    // People's tables cut the negligible tail and say so.
    let trimmed = &view::grids(&results, View::AtLeast, Names::Words, true)[0];
    assert!(trimmed.rows.len() < at_least.rows.len());
    assert!(
        trimmed.notes[0].contains("under 0.01 %"),
        "{:?}",
        trimmed.notes
    );
}

#[test]
fn a_scenario_declares_its_tables() {
    let text = format!("{POOLS}\n[[table]]\nrows = \"dice\"\ncols = [\"again\", \"rote\"]\nmetrics = \"successes>=2\"\nwhere = {{ modifier = 0 }}\n");
    let scenario = crate::scenario::parse(&text, "t.toml", "t").unwrap();
    assert_eq!(scenario.tables.len(), 1);
    assert_eq!(scenario.tables[0].metrics, ["successes>=2"]);
    let bad = format!("{POOLS}\n[[table]]\nrows = \"dice\"\nmetric = \"p_success\"\n");
    let e = crate::scenario::parse(&bad, "t.toml", "t").unwrap_err().0;
    assert!(
        e.contains("unknown key `metric` in a [[table]] (did you mean `metrics`?)"),
        "{e}"
    );
    let bad = format!("{POOLS}\n[[table]]\nrows = \"dise\"\n");
    let e = crate::scenario::parse(&bad, "t.toml", "t").unwrap_err().0;
    assert!(e.contains("did you mean `dice`"), "{e}");
}

#[test]
fn grid_numbers_have_one_precision() {
    use crate::report::format::grid_percent;
    assert_eq!(grid_percent(0.00003), "< 0.01 %");
    assert_eq!(grid_percent(0.0004), "0.04 %");
    assert_eq!(grid_percent(0.999999), "> 99.99 %");
    assert_eq!(grid_percent(0.0), "0 %");
    assert_eq!(grid_percent(1.0), "100 %");
}
