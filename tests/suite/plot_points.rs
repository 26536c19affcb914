//! Plot points on a Cortex roll (docs/cortex.md): the exact programme against the
//! brute-force enumeration and against an independent count of every roll
//! in the test, p_success against a plain roll keeping more dice, Monte
//! Carlo against exact, and the cases where plot points are refused or
//! skipped.

use crate::common;

use common::{assert_monte_carlo_agrees, json_of, refused, scenario};
use oddsmith::dice::{Die, Pool};
use oddsmith::distribution::Evaluation;
use oddsmith::engine::exact::Budget;
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules, Ties};
use oddsmith::systems::SystemCase;

fn case(pool: &str, difficulty: u32, keep: usize, points: u32, ties: Ties) -> CortexCase {
    CortexCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        opposition: Opposition::Difficulty(difficulty),
        rules: Rules {
            keep,
            ties,
            plot_points: Some(points),
            ..Rules::default()
        },
    }
}

fn value(evaluation: &Evaluation, name: &str) -> f64 {
    evaluation
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
        .unwrap_or(f64::NAN)
}

const SMALL: [&str; 4] = ["d10 d8 d6", "d8 2d6 d4", "d12 d6 2d4", "d6"];

#[test]
fn exact_equals_brute_force_on_small_pools() {
    for pool in SMALL {
        for keep in 1..=2 {
            for points in 0..=3 {
                for difficulty in [0, 3, 7, 11, 15] {
                    for ties in [Ties::Reaction, Ties::Action] {
                        let c = case(pool, difficulty, keep, points, ties);
                        let exact = c.exact(&mut Budget::unlimited()).unwrap();
                        let brute = c.brute_force_hists();
                        let metrics = c.metrics(&brute);
                        assert_eq!(exact.metrics.len(), metrics.len());
                        for (a, b) in exact.metrics.iter().zip(&metrics) {
                            assert_eq!(a.name, b.name);
                            match (a.value, b.value) {
                                (Some(x), Some(y)) => {
                                    assert!((x - y).abs() < 1e-12, "{c:?} {}: {x} vs {y}", a.name)
                                }
                                (x, y) => assert_eq!(x.is_none(), y.is_none(), "{}", a.name),
                            }
                        }
                        let rows = c.rows(&brute);
                        for row in &exact.rows {
                            let other = rows
                                .iter()
                                .find(|r| r.variable == row.variable && r.outcome == row.outcome)
                                .map_or(0.0, |r| r.probability);
                            assert!((row.probability - other).abs() < 1e-12, "{c:?} {row:?}");
                        }
                    }
                }
            }
        }
    }
}

/// The rule read straight from docs/cortex.md, one roll at a time, apart from the
/// code under test: live dice sorted by value (higher first, the smaller
/// die first on equal values), the fewest extra dice whose sum beats the
/// difficulty, the largest die left out as the effect.
fn by_hand(
    dice: &[Die],
    faces: &[u32],
    keep: usize,
    points: usize,
    beat: impl Fn(u32) -> bool,
) -> (u32, u32, usize, bool) {
    let mut live: Vec<(u32, u32)> = dice
        .iter()
        .zip(faces)
        .filter(|(_, &f)| f > 1)
        .map(|(d, &f)| (f, d.sides()))
        .collect();
    live.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let take = |n: usize| -> (u32, u32) {
        let n = n.min(live.len());
        let total = live[..n].iter().map(|d| d.0).sum();
        let effect = live[n..].iter().map(|d| d.1).max().unwrap_or(4);
        (total, effect)
    };
    for k in 0..=points {
        let (total, effect) = take(keep + k);
        if beat(total) {
            return (total, effect, k, true);
        }
    }
    let (total, effect) = take(keep);
    (total, effect, 0, false)
}

#[test]
fn exact_equals_an_independent_count_of_every_roll() {
    for pool in ["d10 d8 d6 d6", "d12 d8 d4"] {
        let dice = Pool::parse_cortex(pool).unwrap().dice().to_vec();
        for (keep, points, difficulty) in [(2, 2, 15), (2, 1, 11), (1, 3, 9), (2, 3, 19)] {
            let c = case(pool, difficulty, keep, points, Ties::Reaction);
            let exact = c.exact(&mut Budget::unlimited()).unwrap();
            let combos: u32 = dice.iter().map(|d| d.sides()).product();
            let (mut success, mut spent, mut total, mut effect_d12) = (0.0, 0.0, 0.0, 0.0);
            let mut faces = vec![1u32; dice.len()];
            for _ in 0..combos {
                let (t, e, k, won) =
                    by_hand(&dice, &faces, keep, points as usize, |t| t > difficulty);
                let p = 1.0 / f64::from(combos);
                success += if won { p } else { 0.0 };
                spent += k as f64 * p;
                total += f64::from(t) * p;
                effect_d12 += if e == 12 { p } else { 0.0 };
                for (i, d) in dice.iter().enumerate() {
                    if faces[i] < d.sides() {
                        faces[i] += 1;
                        break;
                    }
                    faces[i] = 1;
                }
            }
            let label = format!("{pool} keep {keep} points {points} vs {difficulty}");
            assert!(
                (value(&exact, "p_success") - success).abs() < 1e-12,
                "{label}"
            );
            assert!(
                (value(&exact, "mean_plot_points_spent") - spent).abs() < 1e-12,
                "{label}"
            );
            assert!(
                (value(&exact, "mean_total") - total).abs() < 1e-12,
                "{label}"
            );
            assert!(
                (value(&exact, "pool_effect_d12") - effect_d12).abs() < 1e-12,
                "{label}"
            );
        }
    }
}

#[test]
fn success_with_points_is_success_keeping_that_many_more_dice() {
    // Spending as needed succeeds exactly when the keep + N best dice do.
    for (pool, keep, points, difficulty) in [
        ("d10 2d8 d6", 2, 1, 11),
        ("d12 d10 d8 d8 d6", 2, 3, 19),
        ("d8 d6 d6", 1, 2, 7),
    ] {
        let with_points = case(pool, difficulty, keep, points, Ties::Action);
        let plain = CortexCase {
            rules: Rules {
                keep: keep + points as usize,
                plot_points: None,
                ..with_points.rules
            },
            ..with_points.clone()
        };
        let a = with_points.exact(&mut Budget::unlimited()).unwrap();
        let b = plain.exact(&mut Budget::unlimited()).unwrap();
        assert!((value(&a, "p_success") - value(&b, "p_success")).abs() < 1e-12);
        // More points never lower the chance, and spending is never more than needed.
        let fewer = case(pool, difficulty, keep, points - 1, Ties::Action);
        let c = fewer.exact(&mut Budget::unlimited()).unwrap();
        assert!(value(&a, "p_success") >= value(&c, "p_success"));
        assert!(
            value(&a, "p_success") - value(&c, "p_success")
                <= value(&a, &format!("p_plot_points_spent_{points}")) + 1e-12
        );
    }
}

#[test]
fn monte_carlo_agrees_with_exact() {
    for (i, (pool, keep, points, difficulty)) in [
        ("d10 2d8 d6", 2, 2, 11),
        ("d12 d10 d8 d6", 2, 3, 19),
        ("d8 d6 d6", 1, 1, 7),
    ]
    .into_iter()
    .enumerate()
    {
        let c = case(pool, difficulty, keep, points, Ties::Reaction);
        assert_monte_carlo_agrees(&c, 200_000, 7 + i as u64);
    }
}

#[test]
fn refused_where_plot_points_have_no_meaning() {
    refused(
        &["cortex", "d10 2d8 d6", "--vs", "2d6", "--plot-points", "1"],
        &[
            "`--plot-points` needs a fixed `--difficulty`",
            "before the reaction rolls",
        ],
    );
    refused(
        &[
            "cortex",
            "d10 2d8 d6",
            "--difficulty",
            "11",
            "--policy",
            "max-effect",
            "--plot-points",
            "2",
        ],
        &["\"max-total\" only", "not modelled"],
    );
    refused(
        &["cortex", "d10 2d8 d6", "--plot-points", "1"],
        &["needs a fixed `--difficulty`"],
    );
    refused(
        &[
            "cortex",
            "d10 2d8 d6",
            "--difficulty",
            "11",
            "--plot-points",
            "11",
        ],
        &["from 0 to 10"],
    );
}

#[test]
fn from_the_defaults_table_they_apply_only_where_they_can() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "[cortex]\nplot_points = 2\n\n[[case]]\nsystem = \"cortex\"\nname = \"vs pool\"\npool = \"d8 d6\"\nvs = \"2d6\"\n\n[[case]]\nsystem = \"cortex\"\nname = \"vs 9\"\npool = \"d8 d6\"\ndifficulty = 9\n\n[[case]]\nsystem = \"cortex\"\nname = \"effect\"\npool = \"d8 d6\"\ndifficulty = 9\npolicy = \"max-effect\"\n",
    );
    let json = json_of(&["run", &path, "--no-report", "--format", "json"]);
    let results = json["results"].as_array().unwrap();
    let has = |i: usize| {
        results[i]["metrics"]
            .get("mean_plot_points_spent")
            .is_some()
    };
    assert!(!has(0) && results[0]["inputs"].get("plot_points").is_none());
    assert!(has(1) && results[1]["inputs"]["plot_points"] == 2);
    assert!(results[1]["metrics"].get("p_plot_points_spent_2").is_some());
    assert!(!has(2));
}
