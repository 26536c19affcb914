//! Property tests (issue 7) that hold for every system and every case:
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
use oddsmith::engine::monte_carlo::McSettings;
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
    /// A metric whose complement completes the family (`win_effect_*` with
    /// `1 - p_success`).
    complement: Option<&'static str>,
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
            "system {system} has no entry in tests/properties.rs"
        );
    }
}

mod cortex {
    //! Cortex (SPEC 2). Success depends only on the two totals, and a total
    //! is the sum of the `keep` highest live values, so under one roll of
    //! the dice (a coupling) an extra action die, or a larger `keep`, can
    //! only raise the action total; an extra reaction die or a larger
    //! `reaction_keep` can only raise the reaction total; and action-wins
    //! ties only adds successes. Hence `p_success` and `p_heroic` move one
    //! way for every rule combination (any `keep`, either tie rule, with or
    //! without the step-down).
    //!
    //! The final effect die also moves one way when a die is added: the free
    //! dice of the larger pool include every free die of the smaller (a new
    //! die entering the total frees the die it pushes out), so the effect die
    //! can only grow; the margin can only grow; and a larger own effect die
    //! can only avoid the optional step-down. So P(success and final
    //! effect step >= s) never drops for any s when the action pool grows, and never
    //! rises when the reaction pool grows. This does NOT hold for a larger
    //! `keep`: one more die in the total is one fewer free die (d10 d8 d6
    //! showing 7, 5, 6 has a d8 effect with keep 2 and a d4 with keep 3), so
    //! that change only claims `p_success` and `p_heroic` (see
    //! `raising_keep_can_lower_the_effect_die` for a whole-case example).
    use super::*;

    const SIZES: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];

    fn pool(max: usize) -> BoxedStrategy<String> {
        (
            prop::collection::vec(0..5usize, 1..=max),
            prop::sample::select(vec![" ", "+", " + "]),
        )
            .prop_map(|(dice, sep)| dice.iter().map(|&i| SIZES[i]).collect::<Vec<_>>().join(sep))
            .boxed()
    }

    pub fn case() -> BoxedStrategy<Opts> {
        let opposition = prop_oneof![
            1 => Just(None),
            3 => pool(3).prop_map(|p| Some(("vs", RawValue::Str(p)))),
            1 => (0..=25i64).prop_map(|d| Some(("difficulty", RawValue::Int(d)))),
        ];
        (
            pool(4),
            opposition,
            prop::option::of(1..=5i64),
            prop::option::of(1..=3i64),
            prop::option::of(prop::sample::select(vec!["reaction", "action"])),
            prop::option::of(1..=7i64),
            prop::option::of(any::<bool>()),
        )
            .prop_map(|(pool, opposition, keep, rkeep, ties, heroic, down)| {
                let mut opts: Opts = vec![("pool", RawValue::Str(pool))];
                // The reacting pool's rules are refused without one.
                let reacting = matches!(opposition, Some(("vs", _)));
                let rkeep = rkeep.filter(|_| reacting);
                let down = down.filter(|_| reacting);
                opts.extend(opposition);
                opts.extend(keep.map(|k| ("keep", RawValue::Int(k))));
                opts.extend(rkeep.map(|k| ("reaction_keep", RawValue::Int(k))));
                opts.extend(ties.map(|t| ("ties", RawValue::Str(t.into()))));
                opts.extend(heroic.map(|h| ("heroic_step", RawValue::Int(h))));
                opts.extend(down.map(|d| ("effect_step_down", RawValue::Bool(d))));
                opts
            })
            .boxed()
    }

    pub const FAMILIES: &[Family] = &[
        Family {
            name: "pool effect die",
            members: &["pool_effect_*"],
            complement: None,
        },
        Family {
            name: "final effect die of a success, or failure",
            members: &["win_effect_*"],
            complement: Some("p_success"),
        },
    ];

    fn add_die(opts: &Opts, key: &str, choice: u8) -> Option<Opts> {
        let mut opts = opts.clone();
        let (_, value) = opts.iter_mut().find(|(k, _)| *k == key)?;
        let RawValue::Str(text) = value else {
            return None;
        };
        *text = format!("{text} {}", SIZES[usize::from(choice) % 5]);
        Some(opts)
    }

    /// Sets `key` to `to(current or default)`, or `None` past `max`.
    fn raise(opts: &Opts, key: &'static str, default: i64, max: i64) -> Option<Opts> {
        let mut opts = opts.clone();
        let current = opts.iter().find_map(|(k, v)| match v {
            RawValue::Int(i) if *k == key => Some(*i),
            _ => None,
        });
        let next = current.unwrap_or(default) + 1;
        if next > max {
            return None;
        }
        opts.retain(|(k, _)| *k != key);
        opts.push((key, RawValue::Int(next)));
        Some(opts)
    }

    fn has(opts: &Opts, key: &str) -> bool {
        opts.iter().any(|(k, _)| *k == key)
    }

    fn success(e: &Evaluation) -> Vec<(String, f64)> {
        ["p_success", "p_heroic"]
            .iter()
            .filter_map(|name| Some((name.to_string(), metric(e, name)?)))
            .collect()
    }

    /// `p_success`, `p_heroic` and P(success and final effect step >= s)
    /// for every step s, from the `win_effect` rows (`d4` .. `d12`,
    /// `d12+1`, ...).
    fn success_and_effect(e: &Evaluation) -> Vec<(String, f64)> {
        let mut values = success(e);
        let mut by_step: Vec<(u32, f64)> = e
            .rows
            .iter()
            .filter(|r| r.variable == "win_effect" && r.outcome != "fail")
            .map(|r| (effect_step(&r.outcome), r.probability))
            .collect();
        by_step.sort_by_key(|&(s, _)| s);
        let top = by_step.last().map_or(0, |&(s, _)| s);
        // Compare up to a common height: steps are labelled the same in
        // both evaluations, and a tail past the support is 0.
        for s in 0..=top.max(8) {
            let tail: f64 = by_step
                .iter()
                .filter(|&&(t, _)| t >= s)
                .map(|&(_, p)| p)
                .sum();
            values.push((format!("P(success, effect step >= {s})"), tail));
        }
        values
    }

    fn effect_step(label: &str) -> u32 {
        if let Some(beyond) = label.strip_prefix("d12+") {
            return 4 + beyond.parse::<u32>().unwrap();
        }
        SIZES.iter().position(|s| *s == label).unwrap() as u32
    }

    pub const MONOTONE: &[Monotone] = &[
        Monotone {
            what: "adding a die to the action pool",
            change: |o, c| add_die(o, "pool", c),
            values: success_and_effect,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "adding a die to the opposing pool",
            change: |o, c| add_die(o, "vs", c),
            values: success_and_effect,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "raising the difficulty by 1",
            change: |o, _| has(o, "difficulty").then(|| raise(o, "difficulty", 0, 1000))?,
            values: success_and_effect,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "keeping one more action die (keep + 1)",
            change: |o, _| raise(o, "keep", 2, 5),
            values: success,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "keeping one more reaction die (reaction_keep + 1)",
            change: |o, _| has(o, "vs").then(|| raise(o, "reaction_keep", 2, 5))?,
            values: success,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "letting the action win ties",
            change: |o, _| {
                let mut o: Opts = o.iter().filter(|(k, _)| *k != "ties").cloned().collect();
                o.push(("ties", RawValue::Str("action".into())));
                Some(o)
            },
            values: success,
            direction: Direction::NeverLower,
        },
    ];
}

mod storytelling {
    //! Storytelling pools (SPEC 3). The success count of a pool is the sum
    //! of independent per-die counts, so a change that makes one die's count
    //! stochastically larger (or adds a die) makes every tail
    //! P(successes >= s) larger: `p_success`, `p_exceptional` and
    //! `mean_successes` with it, for any `need` and `exceptional`.
    //!
    //! - One more die: a die adds a count >= 0; from pool 0 to pool 1 the
    //!   chance die becomes an ordinary die, and the ordinary die dominates
    //!   it: the chance die succeeds on a 10 only and (with
    //!   `chance_die_explodes` and `again` not 0) then rerolls as an
    //!   ordinary die does; an ordinary die succeeds on that 10 too (10 is at
    //!   or above `target`), explodes on it whenever `again` is not 0, and
    //!   may also succeed on 8 or 9; rote only adds. `p_dramatic` (only a
    //!   chance die's 1) never rises.
    //! - A lower `again` (none -> 10 -> 9 -> 8, never below `target`): on the
    //!   same faces every reroll of the higher value still happens, and
    //!   every extra reroll adds a count >= 0 (induction along the chain).
    //!   Whether a die failed its first roll (rote) does not depend on
    //!   `again`.
    //! - Rote: a reroll of a failed die adds a count >= 0.
    //! - A lower `target` (`again` stays valid, as it was >= the old one):
    //!   without rote, every face that succeeded still does. With rote it
    //!   is less plain, as a 7 that now succeeds is no longer rerolled: a die
    //!   is then the first of two ordinary dice D that scores, so for k >= 1
    //!   P(count >= k) = P(D >= k) x (2 - p) with p = P(D >= 1) and
    //!   P(D >= k) = r^(k-1) p (r = P(face >= again), which `target` does not
    //!   change). Lowering `target` by one raises p by 0.1 to at most 0.9,
    //!   and p (2 - p) and r^(k-1) p (2 - p) grow with p there, so the
    //!   per-die count still dominates. The chance die's rerolls are
    //!   ordinary dice, which dominate too.
    use super::*;

    pub fn case() -> BoxedStrategy<Opts> {
        (
            0..=5i64,
            prop::option::of(-3..=2i64),
            prop::option::of(5..=10i64),
            prop::option::of(prop::sample::select(vec![0i64, 10, 9, 8])),
            prop::option::of(any::<bool>()),
            prop::option::of(1..=4i64),
            prop::option::of(0..=6i64),
            prop::option::of(any::<bool>()),
        )
            .prop_map(
                |(dice, modifier, target, again, rote, need, exceptional, explodes)| {
                    let mut opts: Opts = vec![("dice", RawValue::Int(dice))];
                    opts.extend(modifier.map(|m| ("modifier", RawValue::Int(m))));
                    let target = target.unwrap_or(8);
                    opts.push(("target", RawValue::Int(target)));
                    // `again` must be 0 or between `target` and 10.
                    let again = again.map(|a| if a == 0 { 0 } else { a.max(target) });
                    opts.extend(again.map(|a| ("again", RawValue::Int(a))));
                    opts.extend(rote.map(|r| ("rote", RawValue::Bool(r))));
                    opts.extend(need.map(|n| ("need", RawValue::Int(n))));
                    opts.extend(exceptional.map(|e| ("exceptional", RawValue::Int(e))));
                    opts.extend(explodes.map(|e| ("chance_die_explodes", RawValue::Bool(e))));
                    opts
                },
            )
            .boxed()
    }

    /// The `successes` distribution is checked as every distribution is;
    /// the metrics hold no partition of the outcomes.
    pub const FAMILIES: &[Family] = &[];

    fn int(opts: &Opts, key: &str) -> Option<i64> {
        opts.iter().find_map(|(k, v)| match v {
            RawValue::Int(i) if *k == key => Some(*i),
            _ => None,
        })
    }

    fn set(opts: &Opts, key: &'static str, value: RawValue) -> Opts {
        let mut opts: Opts = opts.iter().filter(|(k, _)| *k != key).cloned().collect();
        opts.push((key, value));
        opts
    }

    /// `p_success`, `p_exceptional`, `mean_successes` and every tail
    /// P(successes >= s) of the `successes` rows.
    fn successes(e: &Evaluation) -> Vec<(String, f64)> {
        let mut values: Vec<(String, f64)> = ["p_success", "p_exceptional", "mean_successes"]
            .iter()
            .map(|name| (name.to_string(), metric(e, name).unwrap()))
            .collect();
        let rows: Vec<(u32, f64)> = e
            .rows
            .iter()
            .filter(|r| r.variable == "successes")
            .map(|r| (r.outcome.parse().unwrap(), r.probability))
            .collect();
        let top = rows.iter().map(|&(s, _)| s).max().unwrap_or(0);
        for s in 0..=top.max(12) {
            let tail: f64 = rows.iter().filter(|&&(t, _)| t >= s).map(|&(_, p)| p).sum();
            values.push((format!("P(successes >= {s})"), tail));
        }
        values
    }

    fn dramatic(e: &Evaluation) -> Vec<(String, f64)> {
        vec![("p_dramatic".into(), metric(e, "p_dramatic").unwrap())]
    }

    /// The next lower `again`: none -> 10 -> 9 -> 8, never below `target`.
    fn lower_again(opts: &Opts) -> Option<Opts> {
        let target = int(opts, "target").unwrap_or(8);
        let next = match int(opts, "again").unwrap_or(10) {
            0 => 10,
            a => a - 1,
        };
        (next >= target.max(8)).then(|| set(opts, "again", RawValue::Int(next)))
    }

    pub const MONOTONE: &[Monotone] = &[
        Monotone {
            what: "adding a die (dice + 1)",
            change: |o, _| Some(set(o, "dice", RawValue::Int(int(o, "dice")? + 1))),
            values: successes,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "adding a die, for p_dramatic",
            change: |o, _| Some(set(o, "dice", RawValue::Int(int(o, "dice")? + 1))),
            values: dramatic,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "a lower again (none -> 10 -> 9 -> 8)",
            change: |o, _| lower_again(o),
            values: successes,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "making the action rote",
            change: |o, _| Some(set(o, "rote", RawValue::Bool(true))),
            values: successes,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "a lower target (target - 1)",
            change: |o, _| {
                let target = int(o, "target").unwrap_or(8);
                (target > 2).then(|| set(o, "target", RawValue::Int(target - 1)))
            },
            values: successes,
            direction: Direction::NeverLower,
        },
    ];
}

mod advantage {
    //! The advantage die (SPEC 4). Every policy replaces the lower die only
    //! when that raises the tier, so under any policy each roll's tier is at
    //! least the tier of its own dice, which is what `never` gives: on the
    //! same dice, switching to `never` can only lower tiers. It never raises
    //! `p_strong`, `strong_per_encounter`, `p_encounter_strong`,
    //! `miss_to_strong_per_encounter` (0 under `never`), each roll's
    //! P(strong) and P(weak or strong).
    //!
    //! Under `never` the counter decides nothing, so a higher `stat` raises
    //! every roll's total and tier. Under the other policies a higher
    //! `stat` does NOT always help: when misses feed the counter
    //! (`gain_on.miss`), fewer misses mean a smaller counter, and
    //! `higher_stat_can_lower_p_strong` shows `p_strong` dropping. With no
    //! gain on misses or weak hits no counterexample turned up in 20,000
    //! random cases, but there is no proof, so it is not claimed.
    //!
    //! One more roll never lowers the per-encounter counts for every policy
    //! but `last`: the first rolls play out exactly as before, and the extra
    //! roll adds a count >= 0. Under `last` the counter moves from the old
    //! last roll to the new one, so the first rolls change. `p_strong` is a
    //! share of the rolls, not a count, so it is not claimed.
    use super::*;

    const POLICIES: [&str; 4] = ["greedy", "threshold", "last", "never"];

    pub fn case() -> BoxedStrategy<Opts> {
        (
            prop::option::of(prop::sample::select(vec![4i64, 6, 8, 10, 12])),
            prop::option::of(-3..=3i64),
            prop::option::of(1..=4i64),
            (0..4usize, 1..=12i64),
            prop::option::of((0..=2i64, 0..=2i64, 0..=2i64)),
            prop::option::of(prop::sample::select(vec![0.0, 0.25, 0.5, 1.0])),
            prop::option::of(prop::sample::select(vec![0.0, 0.3])),
            prop::option::of(prop::sample::select(vec!["reset", "swap"])),
        )
            .prop_map(
                |(die, stat, rolls, (policy, threshold), gains, chance, gm, on_use)| {
                    let mut opts: Opts = Vec::new();
                    opts.extend(die.map(|d| ("die", RawValue::Str(format!("d{d}")))));
                    opts.extend(stat.map(|s| ("stat", RawValue::Int(s))));
                    opts.extend(rolls.map(|r| ("rolls", RawValue::Int(r))));
                    opts.push(("policy", RawValue::Str(POLICIES[policy].into())));
                    if POLICIES[policy] == "threshold" {
                        let size = die.unwrap_or(6);
                        opts.push(("threshold", RawValue::Int((threshold - 1) % size + 1)));
                    }
                    if let Some((miss, weak, strong)) = gains {
                        let entry =
                            |tier: &str, g: i64| (tier.to_string(), RawItem::new(RawValue::Int(g)));
                        opts.push((
                            "gain_on",
                            RawValue::Table(vec![
                                entry("miss", miss),
                                entry("weak", weak),
                                entry("strong", strong),
                            ]),
                        ));
                    }
                    opts.extend(chance.map(|p| ("gain_chance", RawValue::Float(p))));
                    opts.extend(gm.map(|p| ("gm_reduce_chance", RawValue::Float(p))));
                    opts.extend(on_use.map(|u| ("on_use", RawValue::Str(u.into()))));
                    opts
                },
            )
            .boxed()
    }

    /// Each `tier_roll_i` distribution is checked as every distribution is.
    pub const FAMILIES: &[Family] = &[Family {
        name: "share of rolls by tier",
        members: &["p_miss", "p_weak", "p_strong"],
        complement: None,
    }];

    fn policy(opts: &Opts) -> &str {
        opts.iter()
            .find_map(|(k, v)| match v {
                RawValue::Str(p) if *k == "policy" => Some(p.as_str()),
                _ => None,
            })
            .unwrap_or("greedy")
    }

    fn set(opts: &Opts, key: &'static str, value: RawValue) -> Opts {
        let mut opts: Opts = opts.iter().filter(|(k, _)| *k != key).cloned().collect();
        opts.push((key, value));
        opts
    }

    fn int(opts: &Opts, key: &str, default: i64) -> i64 {
        opts.iter()
            .find_map(|(k, v)| match v {
                RawValue::Int(i) if *k == key => Some(*i),
                _ => None,
            })
            .unwrap_or(default)
    }

    /// The strong-hit figures, `1 - p_miss`, and each roll's P(strong) and
    /// P(weak or strong) from the `tier_roll_i` rows.
    fn tiers(e: &Evaluation) -> Vec<(String, f64)> {
        let mut values: Vec<(String, f64)> = [
            "p_strong",
            "strong_per_encounter",
            "p_encounter_strong",
            "miss_to_strong_per_encounter",
        ]
        .iter()
        .map(|name| (name.to_string(), metric(e, name).unwrap()))
        .collect();
        values.push(("1 - p_miss".into(), 1.0 - metric(e, "p_miss").unwrap()));
        for row in e
            .rows
            .iter()
            .filter(|r| r.variable.starts_with("tier_roll_"))
        {
            let name = match row.outcome.as_str() {
                "strong" => format!("P({} strong)", row.variable),
                "miss" => format!("P({} not a miss)", row.variable),
                _ => continue,
            };
            let value = if row.outcome == "miss" {
                1.0 - row.probability
            } else {
                row.probability
            };
            values.push((name, value));
        }
        values
    }

    fn counts(e: &Evaluation) -> Vec<(String, f64)> {
        [
            "strong_per_encounter",
            "p_encounter_strong",
            "uses_per_encounter",
            "miss_to_strong_per_encounter",
        ]
        .iter()
        .map(|name| (name.to_string(), metric(e, name).unwrap()))
        .collect()
    }

    pub const MONOTONE: &[Monotone] = &[
        Monotone {
            what: "switching the policy to never",
            change: |o, _| {
                let o: Opts = o
                    .iter()
                    .filter(|(k, _)| *k != "threshold")
                    .cloned()
                    .collect();
                Some(set(&o, "policy", RawValue::Str("never".into())))
            },
            values: tiers,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "a higher stat under policy never",
            change: |o, _| {
                (policy(o) == "never").then(|| set(o, "stat", RawValue::Int(int(o, "stat", 0) + 1)))
            },
            values: tiers,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "one more roll (any policy but last)",
            change: |o, _| {
                (policy(o) != "last")
                    .then(|| set(o, "rolls", RawValue::Int(int(o, "rolls", 4) + 1)))
            },
            values: counts,
            direction: Direction::NeverLower,
        },
    ];
}

mod scene {
    //! Doom-pool scenes (SPEC 5). An action's hitches are the 1s of the
    //! player's dice alone, so on the same dice the doom pool grows by the
    //! same dice whatever the totals are. Hence:
    //!
    //! - a die added to the starting doom pool stays in it: each action
    //!   meets a doom pool with one more die, whose total (the highest
    //!   `reaction_keep` live values) can only be higher; with
    //!   `end_at_2d12` two d12 can only come sooner, and an action that
    //!   does not happen does not succeed. No action's success or heroic
    //!   success becomes likelier, and plot points (one per action with
    //!   hitches) never rise;
    //! - a larger `keep`, action-wins ties or a smaller `reaction_keep`
    //!   change totals only, so the same in the other direction;
    //! - `end_at_2d12` can only cut a scene short;
    //! - one more action leaves the earlier ones as they were and adds
    //!   counts >= 0 (and one more chance to end early).
    //!
    //! A die added to the PLAYER's pool is not monotone: it raises the
    //! action total but adds hitches, which feed the doom pool that later
    //! actions face (`a_player_die_can_lower_a_later_action`).
    use super::*;

    const SIZES: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];

    fn pool(max: usize) -> BoxedStrategy<String> {
        prop::collection::vec(0..5usize, 1..=max)
            .prop_map(|dice| dice.iter().map(|&i| SIZES[i]).collect::<Vec<_>>().join(" "))
            .boxed()
    }

    pub fn case() -> BoxedStrategy<Opts> {
        // Some doom pools start with a d12, so that two d12 (the end of
        // the scene with `end_at_2d12`) are in reach: the player's three
        // dice can never show the four hitches that add one.
        let doom = prop_oneof![
            1 => Just(None),
            2 => pool(3).prop_map(Some),
            2 => pool(2).prop_map(|p| Some(format!("d12 {p}"))),
        ];
        (
            pool(3),
            doom,
            prop::option::of(1..=4i64),
            prop::option::of(1..=3i64),
            prop::option::of(1..=3i64),
            prop::option::of(prop::sample::select(vec!["reaction", "action"])),
            prop::option::of(1..=7i64),
            prop::option::of(any::<bool>()),
        )
            .prop_map(|(pool, doom, actions, keep, rkeep, ties, heroic, end)| {
                let mut opts: Opts = vec![("pool", RawValue::Str(pool))];
                opts.extend(doom.map(|d| ("doom", RawValue::Str(d))));
                opts.extend(actions.map(|a| ("actions", RawValue::Int(a))));
                opts.extend(keep.map(|k| ("keep", RawValue::Int(k))));
                opts.extend(rkeep.map(|k| ("reaction_keep", RawValue::Int(k))));
                opts.extend(ties.map(|t| ("ties", RawValue::Str(t.into()))));
                opts.extend(heroic.map(|h| ("heroic_step", RawValue::Int(h))));
                opts.extend(end.map(|e| ("end_at_2d12", RawValue::Bool(e))));
                opts
            })
            .boxed()
    }

    /// The `final_doom` distribution is checked as every distribution is.
    pub const FAMILIES: &[Family] = &[];

    fn set(opts: &Opts, key: &'static str, value: RawValue) -> Opts {
        let mut opts: Opts = opts.iter().filter(|(k, _)| *k != key).cloned().collect();
        opts.push((key, value));
        opts
    }

    fn int(opts: &Opts, key: &str, default: i64) -> i64 {
        opts.iter()
            .find_map(|(k, v)| match v {
                RawValue::Int(i) if *k == key => Some(*i),
                _ => None,
            })
            .unwrap_or(default)
    }

    /// The player's figures: each action's success, the mean successes,
    /// heroic successes and plot points.
    fn player(e: &Evaluation) -> Vec<(String, f64)> {
        e.metrics
            .iter()
            .filter(|m| {
                m.name.starts_with("p_success_action_")
                    || [
                        "mean_successes",
                        "mean_heroic_successes",
                        "mean_plot_points",
                    ]
                    .contains(&m.name.as_str())
            })
            .map(|m| (m.name.clone(), m.value.unwrap()))
            .collect()
    }

    /// [`player`] and the chance the scene runs its course.
    fn player_and_full_scene(e: &Evaluation) -> Vec<(String, f64)> {
        let mut values = player(e);
        values.push((
            "1 - p_ended_early".into(),
            1.0 - metric(e, "p_ended_early").unwrap(),
        ));
        values
    }

    pub const MONOTONE: &[Monotone] = &[
        Monotone {
            what: "adding a die to the starting doom pool",
            change: |o, c| {
                let doom = o
                    .iter()
                    .find_map(|(k, v)| match v {
                        RawValue::Str(d) if *k == "doom" => Some(d.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| "2d6".into());
                let die = SIZES[usize::from(c) % 5];
                Some(set(o, "doom", RawValue::Str(format!("{doom} {die}"))))
            },
            values: player_and_full_scene,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "keeping one more action die (keep + 1)",
            change: |o, _| {
                let keep = int(o, "keep", 2) + 1;
                (keep <= 5).then(|| set(o, "keep", RawValue::Int(keep)))
            },
            values: player_and_full_scene,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "keeping one more doom die (reaction_keep + 1)",
            change: |o, _| {
                let keep = int(o, "reaction_keep", 2) + 1;
                (keep <= 5).then(|| set(o, "reaction_keep", RawValue::Int(keep)))
            },
            values: player_and_full_scene,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "letting the action win ties",
            change: |o, _| Some(set(o, "ties", RawValue::Str("action".into()))),
            values: player_and_full_scene,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "ending the scene at 2d12",
            change: |o, _| Some(set(o, "end_at_2d12", RawValue::Bool(true))),
            values: player_and_full_scene,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "one more action",
            change: |o, _| Some(set(o, "actions", RawValue::Int(int(o, "actions", 4) + 1))),
            values: player,
            direction: Direction::NeverLower,
        },
    ];
}

mod conflict {
    //! Cortex conflicts (SPEC 9). The hero's rolls never depend on the
    //! hero's own stress (a stress die joins only pools acting against its
    //! bearer), and the foe's state changes only through the hero's rolls;
    //! so on the same dice two fights that differ only in when one side goes
    //! out play identically until the first of them ends. Hence:
    //!
    //! - a foe who does not act can never take the hero out first, so the
    //!   chance the foe is out by exchange k never drops;
    //! - a higher foe stress limit only lets the foe last longer: P(foe out
    //!   by k) never rises and P(hero out by k) never drops; a higher hero
    //!   stress limit the other way round;
    //! - one more exchange leaves the earlier ones as they were.
    //!
    //! A die added to either pool is not claimed: it also raises that side's
    //! reactions, and a mob losing a team die clears its stress, so a larger
    //! effect can leave the mob with a smaller stress die for the hero's pool.
    use super::*;

    const SIZES: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];
    const LIMITS: [&str; 4] = ["d6", "d8", "d10", "d12"];

    fn pool(max: usize) -> BoxedStrategy<String> {
        prop::collection::vec(0..5usize, 1..=max)
            .prop_map(|dice| dice.iter().map(|&i| SIZES[i]).collect::<Vec<_>>().join(" "))
            .boxed()
    }

    pub fn case() -> BoxedStrategy<Opts> {
        // A single foe with an optional stress limit, or a mob of 1..3 team
        // dice with or without dice of its own.
        let foe = prop_oneof![
            (pool(2), prop::option::of(0..4usize)).prop_map(|(foe, limit)| {
                let mut opts: Opts = vec![("foe", RawValue::Str(foe))];
                opts.extend(limit.map(|l| ("foe_stress_limit", RawValue::Str(LIMITS[l].into()))));
                opts
            }),
            (prop::option::of(pool(1)), 0..5usize, 1..=3usize).prop_map(|(foe, size, n)| {
                let mut opts: Opts = foe.map(|f| ("foe", RawValue::Str(f))).into_iter().collect();
                opts.push(("mob", RawValue::Str(format!("{n}{}", SIZES[size]))));
                opts
            }),
        ];
        (
            pool(3),
            foe,
            prop::option::of(1..=4i64),
            prop::option::of(any::<bool>()),
            prop::option::of(0..4usize),
            prop::option::of(prop::sample::select(vec!["reaction", "action"])),
            prop::option::of(1..=7i64),
            prop::option::of(any::<bool>()),
            prop::option::of(1..=3i64),
        )
            .prop_map(
                |(hero, foe, exchanges, acts, limit, ties, heroic, down, keep)| {
                    let mut opts: Opts = vec![("hero", RawValue::Str(hero))];
                    opts.extend(foe);
                    opts.extend(exchanges.map(|n| ("exchanges", RawValue::Int(n))));
                    opts.extend(acts.map(|a| ("foe_acts", RawValue::Bool(a))));
                    opts.extend(
                        limit.map(|l| ("hero_stress_limit", RawValue::Str(LIMITS[l].into()))),
                    );
                    opts.extend(ties.map(|t| ("ties", RawValue::Str(t.into()))));
                    opts.extend(heroic.map(|h| ("heroic_step", RawValue::Int(h))));
                    opts.extend(down.map(|d| ("effect_step_down", RawValue::Bool(d))));
                    opts.extend(keep.map(|k| ("keep", RawValue::Int(k))));
                    opts
                },
            )
            .boxed()
    }

    /// The four distributions are checked as every distribution is.
    pub const FAMILIES: &[Family] = &[];

    fn set(opts: &Opts, key: &'static str, value: RawValue) -> Opts {
        let mut opts: Opts = opts.iter().filter(|(k, _)| *k != key).cloned().collect();
        opts.push((key, value));
        opts
    }

    fn text<'a>(opts: &'a Opts, key: &str) -> Option<&'a str> {
        opts.iter().find_map(|(k, v)| match v {
            RawValue::Str(s) if *k == key => Some(s.as_str()),
            _ => None,
        })
    }

    /// The next stress limit up, if any (d12 when none is given).
    fn higher_limit(opts: &Opts, key: &'static str) -> Option<Opts> {
        let now = LIMITS
            .iter()
            .position(|l| Some(*l) == text(opts, key))
            .unwrap_or(3);
        LIMITS
            .get(now + 1)
            .map(|l| set(opts, key, RawValue::Str(l.to_string())))
    }

    /// P(`side` out by exchange k) for every k, from `<side>_out_exchange`.
    fn out_by(e: &Evaluation, side: &str) -> Vec<(String, f64)> {
        let variable = format!("{side}_out_exchange");
        let mut total = 0.0;
        e.rows
            .iter()
            .filter(|r| r.variable == variable && r.outcome != "never")
            .map(|r| {
                total += r.probability;
                (format!("P({side} out by {})", r.outcome), total)
            })
            .collect()
    }

    fn foe_out(e: &Evaluation) -> Vec<(String, f64)> {
        out_by(e, "foe")
    }

    fn hero_out(e: &Evaluation) -> Vec<(String, f64)> {
        out_by(e, "hero")
    }

    fn both_out(e: &Evaluation) -> Vec<(String, f64)> {
        let mut values = foe_out(e);
        values.extend(hero_out(e));
        values
    }

    pub const MONOTONE: &[Monotone] = &[
        Monotone {
            what: "the foe not acting",
            change: |o, _| Some(set(o, "foe_acts", RawValue::Bool(false))),
            values: foe_out,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "a higher foe stress limit (foe out)",
            change: |o, _| {
                (text(o, "mob").is_none())
                    .then(|| higher_limit(o, "foe_stress_limit"))
                    .flatten()
            },
            values: foe_out,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "a higher foe stress limit (hero out)",
            change: |o, _| {
                (text(o, "mob").is_none())
                    .then(|| higher_limit(o, "foe_stress_limit"))
                    .flatten()
            },
            values: hero_out,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "a higher hero stress limit (hero out)",
            change: |o, _| higher_limit(o, "hero_stress_limit"),
            values: hero_out,
            direction: Direction::NeverRaise,
        },
        Monotone {
            what: "a higher hero stress limit (foe out)",
            change: |o, _| higher_limit(o, "hero_stress_limit"),
            values: foe_out,
            direction: Direction::NeverLower,
        },
        Monotone {
            what: "one more exchange",
            change: |o, _| {
                let n = o
                    .iter()
                    .find_map(|(k, v)| match v {
                        RawValue::Int(i) if *k == "exchanges" => Some(*i),
                        _ => None,
                    })
                    .unwrap_or(5);
                Some(set(o, "exchanges", RawValue::Int(n + 1)))
            },
            values: both_out,
            direction: Direction::NeverLower,
        },
    ];
}

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

fn monte_carlo(case: &dyn SystemCase, trials: u64, seed: u64, threads: usize) -> Evaluation {
    let mut settings = McSettings::new(trials, seed);
    settings.threads = threads;
    case.monte_carlo(&settings).unwrap()
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
        let mut sum: f64 = members.iter().map(|m| m.value.unwrap_or(0.0)).sum();
        if let Some(c) = family.complement {
            let p = metric(e, c).ok_or_else(|| TestCaseError::fail(format!("no {c}")))?;
            sum += 1.0 - p;
        }
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
