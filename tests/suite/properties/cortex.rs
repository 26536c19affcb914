//! Cortex (docs/cortex.md). Success depends only on the two totals, and a total
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

pub const FAMILIES: &[Family] = &[Family {
    name: "pool effect die",
    members: &["pool_effect_*"],
}];

/// Success is a margin past the tie rule (docs/cortex.md): P(margin >= 1)
/// when ties go to the reaction, P(margin >= 0) with `ties = "action"`; and
/// a tie is margin 0. `p_success` counts the successes' final effect dice,
/// the margin distribution counts every opposed roll's margin: a tally that
/// scored a tie the wrong way, or lost rolls from either, fails here, by
/// either method.
#[test]
fn success_is_the_margin_past_the_tie_rule() {
    let mut runner = TestRunner::new(config(48));
    let result = runner.run(&case(), |opts| {
        let case = resolve(System::Cortex, &opts);
        let action_ties = opts.contains(&("ties", RawValue::Str("action".into())));
        let threshold = if action_ties { 0 } else { 1 };
        let methods = [
            ("exact", exact(case.as_ref())),
            ("mc", monte_carlo(case.as_ref(), 5_000, 7, 0)),
        ];
        for (method, e) in methods {
            let Some(p_success) = metric(&e, "p_success") else {
                prop_assert!(!has(&opts, "vs") && !has(&opts, "difficulty"));
                return Ok(());
            };
            let margin_at_least = |m: i64| -> f64 {
                e.rows
                    .iter()
                    .filter(|r| r.variable == "margin")
                    .filter(|r| r.outcome.parse::<i64>().expect("a numeric margin") >= m)
                    .map(|r| r.probability)
                    .sum()
            };
            let past_tie_rule = margin_at_least(threshold);
            prop_assert!(
                (p_success - past_tie_rule).abs() < 1e-9,
                "{opts:?} ({method}): p_success {p_success}, P(margin >= {threshold}) {past_tie_rule}"
            );
            let tie = margin_at_least(0) - margin_at_least(1);
            let p_tie = metric(&e, "p_tie").expect("p_tie of an opposed roll");
            prop_assert!(
                (p_tie - tie).abs() < 1e-9,
                "{opts:?} ({method}): p_tie {p_tie}, P(margin = 0) {tie}"
            );
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

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
