//! Property tests that hold for every system and every case:
//!
//! - each metric family's probabilities sum to 1, and so does every
//!   distribution of the table, exact and Monte Carlo;
//! - changes that can only help the action (a die added to the action pool,
//!   a lower `again`, a policy that may use the advantage die, ...) never
//!   lower its chances, changes that can only help the opposition (a die
//!   added to the doom pool, ...) never raise them;
//! - exact and Monte Carlo agree within 5 standard errors on random small cases;
//! - the thread count never changes a Monte Carlo result.
//!
//! Systems are entries of [`systems_under_test`]: a random small case
//! written as scenario options (so it is resolved exactly as a scenario file
//! would be), the system's metric families and its monotone changes. A new
//! system is one more entry. Every property runs a fixed proptest seed, so
//! the suite is reproducible, and few cases, so it stays fast.

use oddsmith::distribution::{Evaluation, Metric, Spread};
use oddsmith::engine::exact::Budget;
use oddsmith::engine::monte_carlo::{McSettings, Workers};
use oddsmith::options::{KeyStyle, RawItem, RawValue};
use oddsmith::stats::standard_error;
use oddsmith::systems::{System, SystemCase};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use statrs::distribution::{Binomial, DiscreteCDF};

/// A case as scenario options: `(key, value)` in file order.
type Opts = Vec<(&'static str, RawValue)>;

/// Probabilities that together cover every outcome.
struct Family {
    name: &'static str,
    /// Metric names; a trailing `*` matches every metric with that prefix.
    members: &'static [&'static str],
}

/// Whether a change may only raise or only lower some values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    NeverLower,
    NeverRaise,
}

/// A change of a case whose effect on some values has a known sign.
struct Monotone {
    what: &'static str,
    /// The changed options (`choice` picks e.g. a die size), or `None` when
    /// the change does not apply to this case.
    change: fn(&Opts, u8) -> Option<Opts>,
    /// The values that must move only one way, by name.
    values: fn(&Evaluation) -> Vec<(String, f64)>,
    direction: Direction,
}

struct SystemUnderTest {
    system: System,
    /// A random case small enough for an exact answer in milliseconds.
    case: fn() -> BoxedStrategy<Opts>,
    families: &'static [Family],
    monotone: &'static [Monotone],
}

/// Every system the crate has. Add an entry per new system.
fn systems_under_test() -> Vec<SystemUnderTest> {
    vec![
        SystemUnderTest {
            system: System::Cortex,
            case: cortex::case,
            families: cortex::FAMILIES,
            monotone: cortex::MONOTONE,
        },
        SystemUnderTest {
            system: System::Storytelling,
            case: storytelling::case,
            families: storytelling::FAMILIES,
            monotone: storytelling::MONOTONE,
        },
        SystemUnderTest {
            system: System::Advantage,
            case: advantage::case,
            families: advantage::FAMILIES,
            monotone: advantage::MONOTONE,
        },
        SystemUnderTest {
            system: System::CortexScene,
            case: scene::case,
            families: scene::FAMILIES,
            monotone: scene::MONOTONE,
        },
        SystemUnderTest {
            system: System::CortexConflict,
            case: conflict::case,
            families: conflict::FAMILIES,
            monotone: conflict::MONOTONE,
        },
    ]
}

/// Every system of the registry has an entry here: a system added to
/// `System::ALL` without one fails this test.
#[test]
fn every_system_is_under_test() {
    let tested: Vec<System> = systems_under_test().iter().map(|s| s.system).collect();
    for system in System::ALL {
        assert!(
            tested.contains(&system),
            "system {system} has no entry in tests/suite/properties.rs"
        );
    }
}

#[path = "properties/cortex.rs"]
mod cortex;

#[path = "properties/storytelling.rs"]
mod storytelling;

#[path = "properties/advantage.rs"]
mod advantage;

#[path = "properties/scene.rs"]
mod scene;

#[path = "properties/conflict.rs"]
mod conflict;

// ---------------------------------------------------------------------------
// Helpers

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(2026),
        ..Config::default()
    }
}

fn resolve(system: System, opts: &Opts) -> Box<dyn SystemCase> {
    let entries = opts
        .iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v.clone())))
        .collect();
    let options = system.options(KeyStyle::Toml, entries);
    system
        .resolve(options)
        .unwrap_or_else(|e| panic!("{system} {opts:?} does not resolve: {e}"))
}

fn exact(case: &dyn SystemCase) -> Evaluation {
    case.exact(&mut Budget::unlimited())
        .unwrap_or_else(|e| panic!("{case:?}: {e}"))
}

/// A Monte Carlo run on `threads` workers, or rayon's global pool for 0.
fn monte_carlo(case: &dyn SystemCase, trials: u64, seed: u64, threads: usize) -> Evaluation {
    let workers = Workers::start((threads > 0).then_some(threads)).unwrap();
    workers
        .install(|| case.monte_carlo(&McSettings::new(trials, seed)))
        .unwrap()
}

fn metric(e: &Evaluation, name: &str) -> Option<f64> {
    e.metrics.iter().find(|m| m.name == name)?.value
}

fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == pattern,
    }
}

/// Runs `property` on random cases of every system.
fn for_every_system(
    cases: u32,
    property: impl Fn(&SystemUnderTest, Opts) -> Result<(), TestCaseError>,
) {
    for sut in systems_under_test() {
        let mut runner = TestRunner::new(config(cases));
        if let Err(e) = runner.run(&(sut.case)(), |opts| property(&sut, opts)) {
            panic!("{}: {e}", sut.system);
        }
    }
}

/// Checks every family and every distribution of one evaluation.
fn check_sums(sut: &SystemUnderTest, e: &Evaluation, tolerance: f64) -> Result<(), TestCaseError> {
    for family in sut.families {
        let members: Vec<&Metric> = e
            .metrics
            .iter()
            .filter(|m| family.members.iter().any(|p| matches(p, &m.name)))
            .collect();
        if members.is_empty() {
            continue; // the family does not apply (e.g. win_effect_* unopposed)
        }
        let sum: f64 = members.iter().map(|m| m.value.unwrap_or(0.0)).sum();
        prop_assert!(
            (sum - 1.0).abs() < tolerance,
            "{}: family \"{}\" sums to {sum}",
            sut.system,
            family.name
        );
    }
    let mut variables: Vec<(&str, f64)> = Vec::new();
    for row in &e.rows {
        prop_assert!(row.probability >= 0.0, "{row:?}");
        match variables.iter_mut().find(|(v, _)| *v == row.variable) {
            Some((_, sum)) => *sum += row.probability,
            None => variables.push((&row.variable, row.probability)),
        }
    }
    let dropped = e.dropped_mass.unwrap_or(0.0);
    for (variable, sum) in variables {
        prop_assert!(
            (sum + dropped - 1.0).abs() < tolerance,
            "{}: distribution {variable} sums to {sum}",
            sut.system
        );
    }
    Ok(())
}

/// Two-sided tail probability of a 5-standard-error deviation.
const FIVE_SIGMA_TAIL: f64 = 5.733e-7;

/// Whether `observed` of `n` trials is consistent with probability `p`:
/// within 5 standard errors where the normal approximation holds (at least
/// 20 expected trials on each side), otherwise no less likely than a
/// 5-standard-error deviation under the exact binomial distribution (the
/// normal approximation understates the spread of rare events).
fn proportion_agrees(p: f64, observed: f64, n: u64) -> Result<(), String> {
    let nf = n as f64;
    if p * nf >= 20.0 && (1.0 - p) * nf >= 20.0 {
        let z = (observed - p) / (p * (1.0 - p) / nf).sqrt();
        return if z.abs() <= 5.0 {
            Ok(())
        } else {
            Err(format!("z = {z:.2}"))
        };
    }
    let p = p.clamp(0.0, 1.0);
    let k = (observed * nf).round() as u64;
    if p == 0.0 || p == 1.0 {
        let expected = (p * nf) as u64;
        return if k == expected {
            Ok(())
        } else {
            Err(format!("{k} of {n} for an impossible outcome"))
        };
    }
    let binomial = Binomial::new(p, n).unwrap();
    let tail = if observed >= p {
        if k == 0 {
            1.0
        } else {
            binomial.sf(k - 1)
        }
    } else {
        binomial.cdf(k)
    };
    if 2.0 * tail >= FIVE_SIGMA_TAIL {
        Ok(())
    } else {
        Err(format!("{k} of {n}, binomial tail {tail:.3e}"))
    }
}

// ---------------------------------------------------------------------------
// Properties

#[test]
fn metric_families_and_distributions_sum_to_one() {
    for_every_system(32, |sut, opts| {
        let case = resolve(sut.system, &opts);
        check_sums(sut, &exact(case.as_ref()), 1e-9)?;
        check_sums(sut, &monte_carlo(case.as_ref(), 5_000, 3, 0), 1e-9)
    });
}

#[test]
fn monotone_changes_move_their_metrics_one_way() {
    for sut in systems_under_test() {
        for m in sut.monotone {
            let mut runner = TestRunner::new(config(32));
            let strategy = ((sut.case)(), any::<u8>());
            let result = runner.run(&strategy, |(opts, choice)| {
                let Some(changed) = (m.change)(&opts, choice) else {
                    return Ok(());
                };
                let before = (m.values)(&exact(resolve(sut.system, &opts).as_ref()));
                let after = (m.values)(&exact(resolve(sut.system, &changed).as_ref()));
                for (name, b) in &before {
                    let a = after
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or(0.0, |&(_, v)| v);
                    let ok = match m.direction {
                        Direction::NeverLower => a >= b - 1e-12,
                        Direction::NeverRaise => a <= b + 1e-12,
                    };
                    prop_assert!(
                        ok,
                        "{}: {} changed {name} from {b} to {a} ({opts:?} -> {changed:?})",
                        sut.system,
                        m.what
                    );
                }
                Ok(())
            });
            if let Err(e) = result {
                panic!("{}, {}: {e}", sut.system, m.what);
            }
        }
    }
}

#[test]
fn exact_and_monte_carlo_agree_within_five_standard_errors() {
    const TRIALS: u64 = 40_000;
    for_every_system(32, |sut, opts| {
        let case = resolve(sut.system, &opts);
        let exact = exact(case.as_ref());
        let seed = opts.len() as u64 * 7919 + format!("{opts:?}").len() as u64;
        let mc = monte_carlo(case.as_ref(), TRIALS, seed, 0);
        prop_assert_eq!(exact.metrics.len(), mc.metrics.len());
        for (e, m) in exact.metrics.iter().zip(&mc.metrics) {
            prop_assert_eq!(&e.name, &m.name);
            match (e.spread, e.value, m.value) {
                (_, None, None) => {}
                (Spread::Proportion { .. }, Some(p), Some(observed)) => {
                    if let Err(why) = proportion_agrees(p, observed, TRIALS) {
                        prop_assert!(
                            false,
                            "{opts:?} {}: exact {p}, mc {observed}: {why}",
                            e.name
                        );
                    }
                }
                (Spread::Mean { base, .. }, Some(ev), mv) => {
                    // A mean over a rare condition (e.g. the effect of rare
                    // successes) has too few trials for a normal standard
                    // error; below 20 expected trials it is not compared.
                    if base * TRIALS as f64 >= 20.0 {
                        let mv =
                            mv.ok_or_else(|| TestCaseError::fail(format!("{} undefined", m.name)))?;
                        let se = standard_error(e, TRIALS).unwrap_or(0.0);
                        if se == 0.0 {
                            prop_assert!(
                                (ev - mv).abs() < 1e-9,
                                "{opts:?} {}: {ev} vs {mv}",
                                e.name
                            );
                        } else {
                            let z = (mv - ev) / se;
                            prop_assert!(
                                z.abs() <= 5.0,
                                "{opts:?} {}: exact {ev}, mc {mv}, z {z}",
                                e.name
                            );
                        }
                    }
                }
                (_, e_value, m_value) => {
                    prop_assert!(
                        false,
                        "{opts:?} {}: exact {e_value:?}, mc {m_value:?}",
                        e.name
                    )
                }
            }
        }
        // Every outcome of the distribution table, as a proportion; an
        // outcome the exact answer calls impossible must never be sampled.
        for row in &mc.rows {
            let p = exact
                .rows
                .iter()
                .find(|r| r.variable == row.variable && r.outcome == row.outcome)
                .map_or(0.0, |r| r.probability);
            if let Err(why) = proportion_agrees(p, row.probability, TRIALS) {
                prop_assert!(
                    false,
                    "{opts:?} {} = {}: exact {p}, mc {}: {why}",
                    row.variable,
                    row.outcome,
                    row.probability
                );
            }
        }
        for row in &exact.rows {
            let sampled = mc
                .rows
                .iter()
                .find(|r| r.variable == row.variable && r.outcome == row.outcome)
                .map_or(0.0, |r| r.probability);
            if let Err(why) = proportion_agrees(row.probability, sampled, TRIALS) {
                prop_assert!(
                    false,
                    "{opts:?} {} = {}: exact {}, mc {sampled}: {why}",
                    row.variable,
                    row.outcome,
                    row.probability
                );
            }
        }
        Ok(())
    });
}

#[test]
fn thread_count_never_changes_a_monte_carlo_result() {
    for sut in systems_under_test() {
        let mut runner = TestRunner::new(config(16));
        // Trial counts that end mid-block and span up to four blocks.
        let strategy = ((sut.case)(), 1..200_000u64, any::<u64>());
        let result = runner.run(&strategy, |(opts, trials, seed)| {
            let case = resolve(sut.system, &opts);
            let one = monte_carlo(case.as_ref(), trials, seed, 1);
            for threads in [2, 3] {
                let other = monte_carlo(case.as_ref(), trials, seed, threads);
                prop_assert_eq!(
                    &one,
                    &other,
                    "{:?}: {} threads, {} trials",
                    opts,
                    threads,
                    trials
                );
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", sut.system);
        }
    }
}

/// The counterexample behind the restriction of "keep + 1" to `p_success`
/// and `p_heroic`: one more die in the total is one fewer free die, so the
/// effect die of a success can shrink. d12 d10 d8 against d12 d10 (heroic
/// steps out of reach): with keep 2 a success has a d8 effect or better
/// 45% of the time; with keep 3 every die is in the total and the effect is
/// always d4, although more rolls succeed.
#[test]
fn raising_keep_can_lower_the_effect_die() {
    let opts = |keep: i64| -> Opts {
        vec![
            ("pool", RawValue::Str("d12 d10 d8".into())),
            ("vs", RawValue::Str("d12 d10".into())),
            ("keep", RawValue::Int(keep)),
            ("heroic_step", RawValue::Int(100)),
        ]
    };
    let two = exact(resolve(System::Cortex, &opts(2)).as_ref());
    let three = exact(resolve(System::Cortex, &opts(3)).as_ref());
    let d8_or_better = |e: &Evaluation| {
        ["win_effect_d8", "win_effect_d10", "win_effect_d12"]
            .iter()
            .map(|n| metric(e, n).unwrap())
            .sum::<f64>()
    };
    assert!(metric(&three, "p_success") > metric(&two, "p_success"));
    assert!(d8_or_better(&two) > 0.45);
    assert_eq!(d8_or_better(&three), 0.0);
}

/// Why "a higher stat" is claimed only under policy `never`: when misses
/// feed the counter (`gain_on.miss`), a worse stat misses more, fills the
/// counter and turns later rolls into strong hits. A d10 counter over four
/// rolls, 3 on a miss, always +1: stat -4 gives a larger `p_strong` than
/// stat -3.
#[test]
fn higher_stat_can_lower_p_strong() {
    let p_strong = |stat: i64| {
        let opts: Opts = vec![
            ("die", RawValue::Str("d10".into())),
            ("stat", RawValue::Int(stat)),
            ("rolls", RawValue::Int(4)),
            (
                "gain_on",
                RawValue::Table(vec![("miss".into(), RawItem::new(RawValue::Int(3)))]),
            ),
            ("gain_chance", RawValue::Float(1.0)),
        ];
        metric(
            &exact(resolve(System::Advantage, &opts).as_ref()),
            "p_strong",
        )
        .unwrap()
    };
    assert!(p_strong(-4) > p_strong(-3) + 0.01);
}

/// Why a die added to a scene's player pool is not a monotone change: the
/// d4 added to d4 d4 shows more 1s, whose hitches grow the doom pool, and
/// the fourth action against it succeeds less often (keep 1 against a d6).
#[test]
fn a_player_die_can_lower_a_later_action() {
    let fourth = |pool: &str| {
        let opts: Opts = vec![
            ("pool", RawValue::Str(pool.into())),
            ("doom", RawValue::Str("d6".into())),
            ("keep", RawValue::Int(1)),
            ("reaction_keep", RawValue::Int(1)),
        ];
        metric(
            &exact(resolve(System::CortexScene, &opts).as_ref()),
            "p_success_action_4",
        )
        .unwrap()
    };
    assert!(fourth("d4 d4 d4") < fourth("d4 d4") - 0.02);
}
