//! CLI tests for the scene's economy (docs/cortex.md, "The scene's
//! economy"): its flags and scenario keys, bad input refused with exit 2
//! and the place it was written, names that show only the keys that
//! differ from their defaults, and Monte Carlo against exact.

use crate::common;

use common::{json_of, refused, scenario};

#[test]
fn economy_bad_inputs_exit_2() {
    refused(
        &["scene", "d10 d6", "--distinction", "d4-when-broke"],
        &["`--distinction`", "no d8", "d10 d6"],
    );
    refused(
        &["scene", "d10 d8", "--spend-below", "9"],
        &["`--spend-below` applies only when `--hero-spend` is \"add-to-total\""],
    );
    refused(
        &[
            "scene",
            "d10 d8",
            "--hero-spend",
            "add-to-total",
            "--spend-below",
            "0",
        ],
        &["`--spend-below`", "at least 1"],
    );
    refused(
        &["scene", "d10 d8", "--start-plot-points", "11"],
        &["`--start-plot-points`", "0 to 10"],
    );
    refused(
        &["scene", "d10 d8", "--hero-spend", "always"],
        &["`--hero-spend`", "`never`, `add-d6`, `add-to-total`"],
    );
    refused(
        &["scene", "d10 d8", "--gm-spend", "yes"],
        &["`--gm-spend`", "`to-win`"],
    );
}

#[test]
fn economy_errors_in_scenarios_name_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[case]]\nsystem = \"cortex-scene\"\npool = \"d10 d6\"\ndistinction = \"d4-when-broke\"\n",
    );
    refused(&["run", &path], &["s.toml:4:1:", "`distinction`", "no d8"]);
    let path = scenario(
        dir.path(),
        "[cortex-scene]\nspend_below = 10\n[[case]]\nsystem = \"cortex-scene\"\npool = \"d10 d8\"\n",
    );
    refused(
        &["run", &path],
        &["s.toml:2:1:", "`spend_below` applies only"],
    );
}

#[test]
fn names_show_only_keys_off_their_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex-scene\"\npool = [\"d8 d6\"]\ndoom = [\"2d6\"]\n\
         hero_spend = [\"never\", \"add-to-total\"]\ngm_spend = [\"never\", \"to-win\"]\nstart_plot_points = 1\n\
         [[sweep]]\nsystem = \"cortex-scene\"\nname = \"gm\"\npool = \"d8 d6\"\ngm_spend = [\"never\", \"to-win\"]\n",
    );
    let v = json_of(&["run", &path, "--no-report", "--format", "json", "--quiet"]);
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "d8 d6 vs 2d6",
            "d8 d6 vs 2d6, gm_spend=to-win",
            "d8 d6 vs 2d6, hero_spend=add-to-total",
            "d8 d6 vs 2d6, hero_spend=add-to-total, gm_spend=to-win",
            "gm: d8 d6 vs 2d6",
            "gm: d8 d6 vs 2d6, gm_spend=to-win",
        ]
    );
    let inputs = &v["results"][0]["inputs"];
    assert_eq!(inputs["start_plot_points"], 1);
    assert_eq!(inputs["hero_spend"], "never");
    assert_eq!(inputs["gm_spend"], "never");
    let v = json_of(&[
        "scene",
        "d8 d6",
        "--hero-spend",
        "add-to-total",
        "--spend-below",
        "9",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["results"][0]["case"],
        "d8 d6 vs 2d6, actions=4, hero_spend=add-to-total, spend_below=9"
    );
}

#[test]
fn a_scene_at_the_defaults_keeps_its_numbers() {
    let plain = json_of(&["scene", "d10 2d8 d6", "--doom", "3d8", "--format", "json"]);
    let given = json_of(&[
        "scene",
        "d10 2d8 d6",
        "--doom",
        "3d8",
        "--start-plot-points",
        "0",
        "--format",
        "json",
    ]);
    let (plain, given) = (&plain["results"][0], &given["results"][0]);
    assert_eq!(plain["case"], given["case"]);
    let metrics = plain["metrics"].as_object().unwrap();
    for (name, value) in metrics {
        assert_eq!(&given["metrics"][name], value, "{name}");
    }
    // Every scene reports the economy: with nothing spent, the plot points
    // held at the end are the ones earned, and their distribution is the
    // earned one's.
    for case in [plain, given] {
        assert_eq!(case["metrics"]["p_gm_spent"], 0.0);
        assert_eq!(case["metrics"]["mean_plot_points_spent"], 0.0);
        assert_eq!(case["metrics"]["mean_doom_dice_spent"], 0.0);
        assert_eq!(
            case["metrics"]["mean_final_plot_points"],
            case["metrics"]["mean_plot_points"]
        );
    }
    let csv = common::oddsmith()
        .args(["scene", "d10 2d8 d6", "--doom", "3d8"])
        .args(["--view", "exactly", "--format", "csv"])
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    let rows = |distribution: &str| -> Vec<String> {
        let prefix = format!("{distribution}:exactly,");
        csv.lines()
            .filter_map(|line| line.strip_prefix(&prefix).map(str::to_owned))
            .collect()
    };
    assert!(rows("plot_points").len() >= 2, "{csv}");
    assert_eq!(rows("plot_points"), rows("final_plot_points"));
    // Plot points held at the start are still held at the end.
    let two = json_of(&[
        "scene",
        "d10 2d8 d6",
        "--doom",
        "3d8",
        "--start-plot-points",
        "2",
        "--format",
        "json",
    ]);
    let earned = plain["metrics"]["mean_plot_points"].as_f64().unwrap();
    let held = two["results"][0]["metrics"]["mean_final_plot_points"]
        .as_f64()
        .unwrap();
    assert!(
        (held - (earned + 2.0)).abs() < 1e-12,
        "{held} vs {earned} + 2"
    );
}

#[test]
fn economy_monte_carlo_agrees_and_ignores_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "scene",
            "d10 2d8 d6",
            "--doom",
            "d10 2d6",
            "--actions",
            "5",
            "--start-plot-points",
            "1",
            "--hero-spend",
            "add-d6",
            "--distinction",
            "d4-when-broke",
            "--gm-spend",
            "to-win",
            "--end-at-2d12",
            "--method",
            "both",
            "--trials",
            "200000",
            "--threads",
            threads,
            "--quiet",
            "--format",
            "json",
        ]
    };
    let one = json_of(&args("1"));
    common::assert_json_z_small(&one["results"][1]);
    assert_eq!(one, json_of(&args("2")));
}
