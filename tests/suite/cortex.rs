//! Cortex engine cross-checks: the published and exact figures of
//! Published figure, the fast exact method against brute force on random small
//! pools, Monte Carlo against exact within 5 standard errors, and identical
//! Monte Carlo results on any thread count.

use crate::common;

use oddsmith::dice::Pool;
use oddsmith::distribution::Metric;
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules, Ties};
use oddsmith::systems::SystemCase;

fn pool(text: &str) -> Pool {
    Pool::parse_cortex(text).unwrap()
}

fn case(action: &str, vs: Option<&str>, rules: Rules) -> CortexCase {
    CortexCase {
        pool: pool(action),
        opposition: vs.map_or(Opposition::None, |v| Opposition::Pool(pool(v))),
        rules,
    }
}

fn metric(metrics: &[Metric], name: &str) -> f64 {
    metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
        .unwrap()
}

fn exact_metrics(c: &CortexCase) -> Vec<Metric> {
    c.exact(&mut Budget::unlimited()).unwrap().metrics
}

#[test]
fn icepool_total_weights() {
    let check = |text: &str, denominator: f64, weights: &[(i64, f64)]| {
        let c = case(text, None, Rules::default());
        let h = c.exact_hists(&mut Budget::unlimited()).unwrap();
        let mut seen = 0.0;
        for &(total, w) in weights {
            // Counts of face combinations: the published weight exactly.
            assert_eq!(
                h.total.get(total) * denominator as u128,
                w as u128 * h.whole,
                "{text}: total {total}"
            );
            seen += w;
        }
        assert_eq!(seen, denominator, "{text}: weights cover every outcome");
    };
    check(
        "3d6",
        216.0,
        &[
            (0, 1.0),
            (2, 3.0),
            (3, 3.0),
            (4, 7.0),
            (5, 12.0),
            (6, 19.0),
            (7, 24.0),
            (8, 34.0),
            (9, 36.0),
            (10, 34.0),
            (11, 27.0),
            (12, 16.0),
        ],
    );
    check(
        "d12 d10 d8 d8 d6",
        46080.0,
        &[
            (0, 1.0),
            (2, 5.0),
            (3, 5.0),
            (4, 31.0),
            (5, 80.0),
            (6, 211.0),
            (7, 404.0),
            (8, 780.0),
            (9, 1262.0),
            (10, 2018.0),
            (11, 2836.0),
            (12, 3863.0),
            (13, 4655.0),
            (14, 5298.0),
            (15, 5368.0),
            (16, 5348.0),
            (17, 4592.0),
            (18, 3845.0),
            (19, 2544.0),
            (20, 1782.0),
            (21, 768.0),
            (22, 384.0),
        ],
    );
}

#[test]
fn published_opposed_success_rates() {
    let table = [
        ("d8 d6 d6", "2d6", 0.7068, 0.7882),
        ("d10 d8 d6 d6", "2d10", 0.5274, 0.6010),
        ("d6 d6", "2d6", 0.4498, 0.5502),
        ("d8 d8 d6", "2d8", 0.5754, 0.6570),
        ("d12 d10 d8 d8 d6", "2d6", 0.9607, 0.9774),
    ];
    for (action, vs, reaction_wins, action_wins) in table {
        let r = exact_metrics(&case(action, Some(vs), Rules::default()));
        let a = exact_metrics(&case(
            action,
            Some(vs),
            Rules {
                ties: Ties::Action,
                ..Rules::default()
            },
        ));
        // Published to four decimals.
        assert!(
            (metric(&r, "p_success") - reaction_wins).abs() < 5e-5,
            "{action} vs {vs}"
        );
        assert!(
            (metric(&a, "p_success") - action_wins).abs() < 5e-5,
            "{action} vs {vs}"
        );
        // The two tie rules differ by exactly the tie probability.
        assert!(
            (metric(&a, "p_success") - metric(&r, "p_success") - metric(&r, "p_tie")).abs() < 1e-12
        );
    }
    let heroic = exact_metrics(&case("d8 d6 d6", Some("2d6"), Rules::default()));
    assert!((metric(&heroic, "p_heroic") - 0.3166).abs() < 5e-5);
}

#[test]
fn exact_single_pool_figures() {
    let m = exact_metrics(&case("d8 d8 d6", None, Rules::default()));
    let expect = [
        ("mean_total", 1945.0 / 192.0),
        ("p_hitch", 139.0 / 384.0),
        ("p_botch", 1.0 / 384.0),
        ("pool_effect_d4", 139.0 / 384.0),
        ("pool_effect_d6", 15.0 / 64.0),
        ("pool_effect_d8", 155.0 / 384.0),
        ("pool_effect_d10", 0.0),
    ];
    for (name, value) in expect {
        assert!((metric(&m, name) - value).abs() < 1e-9, "{name}");
    }
    // p_botch of any pool is the product of 1/S.
    let m = exact_metrics(&case("d12 d10 d4 d4", None, Rules::default()));
    assert!((metric(&m, "p_botch") - 1.0 / (12.0 * 10.0 * 4.0 * 4.0)).abs() < 1e-15);
}

/// A tiny deterministic generator so the random pools are the same every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn pool(&mut self, max_dice: u64) -> String {
        let sizes = ["d4", "d6", "d8", "d10", "d12"];
        let n = 1 + self.next(max_dice);
        (0..n)
            .map(|_| sizes[self.next(5) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[test]
fn fast_exact_equals_brute_force_on_random_small_pools() {
    let mut rng = Lcg(2026);
    for round in 0..60 {
        let action = rng.pool(4);
        let vs = match round % 3 {
            0 => None,
            _ => Some(rng.pool(2)),
        };
        let mut c = case(
            &action,
            vs.as_deref(),
            Rules {
                keep: 1 + rng.next(3) as usize,
                reaction_keep: 1 + rng.next(2) as usize,
                ties: if rng.next(2) == 0 {
                    Ties::Reaction
                } else {
                    Ties::Action
                },
                heroic_step: 1 + rng.next(6) as u32,
                effect_step_down: rng.next(2) == 0,
                ..Rules::default()
            },
        );
        if round % 7 == 3 {
            c.opposition = Opposition::Difficulty(rng.next(20) as u32);
        }
        let fast = c.exact_hists(&mut Budget::unlimited()).unwrap();
        let brute = c.brute_force_hists();
        // Both count face combinations, so every metric, fraction and row
        // is the same number to the last bit.
        assert_eq!(c.metrics(&fast), c.metrics(&brute), "{c:?}");
        assert_eq!(c.fractions(&fast), c.fractions(&brute), "{c:?}");
        assert_eq!(c.rows(&fast), c.rows(&brute), "{c:?}");
    }
}

fn assert_mc_agrees(c: &CortexCase, trials: u64, seed: u64) {
    common::assert_monte_carlo_agrees(c, trials, seed);
}

#[test]
fn monte_carlo_agrees_with_exact() {
    assert_mc_agrees(
        &case("d10 2d8 d6", Some("2d6"), Rules::default()),
        300_000,
        1,
    );
    assert_mc_agrees(
        &case(
            "d12 d6 d4",
            Some("3d8"),
            Rules {
                ties: Ties::Action,
                effect_step_down: true,
                heroic_step: 3,
                keep: 3,
                ..Rules::default()
            },
        ),
        300_000,
        2,
    );
    let mut fixed = case("d8 d8 d6 d4", None, Rules::default());
    fixed.opposition = Opposition::Difficulty(11);
    assert_mc_agrees(&fixed, 300_000, 3);
    assert_mc_agrees(&case("d4 d4", None, Rules::default()), 200_000, 4);
}

#[test]
fn thread_count_never_changes_monte_carlo() {
    let c = case("d10 2d8 d6", Some("3d8"), Rules::default());
    let run = |threads| {
        let workers = Workers::start(Some(threads)).unwrap();
        workers
            .install(|| c.monte_carlo(&McSettings::new(250_000, 42)))
            .unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(5));
}

#[test]
fn seeded_value_is_stable() {
    // Pins one seeded result: a change of generator, seeding or block size
    // shows up here (update deliberately, never silently).
    let c = case("d8 d6 d6", Some("2d6"), Rules::default());
    let m = c
        .monte_carlo(&McSettings::new(100_000, 2026))
        .unwrap()
        .metrics;
    let p = metric(&m, "p_success");
    assert!((p - 0.7068).abs() < 0.01);
    assert_eq!(p, PINNED_P_SUCCESS, "seeded Monte Carlo value changed");
}

const PINNED_P_SUCCESS: f64 = 0.70753;

#[test]
fn twenty_dice_against_5d12_is_exact_within_budget() {
    let c = case("2d12 4d10 6d8 5d6 3d4", Some("5d12"), Rules::default());
    let m = c.exact(&mut Budget::interactive()).unwrap().metrics;
    let p = metric(&m, "p_success");
    assert!(p > 0.0 && p < 1.0);
    let total: f64 = [
        "win_effect_d4",
        "win_effect_d6",
        "win_effect_d8",
        "win_effect_d10",
        "win_effect_d12",
        "win_effect_beyond",
    ]
    .iter()
    .map(|n| metric(&m, n))
    .sum();
    assert!((total - p).abs() < 1e-9);
}
