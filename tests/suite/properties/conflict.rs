//! Cortex conflicts (docs/cortex.md). The hero's rolls never depend on the
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
                opts.extend(limit.map(|l| ("hero_stress_limit", RawValue::Str(LIMITS[l].into()))));
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
        // Only a capped fight has one more exchange to play: without a
        // cap it is played until one side is out.
        change: |o, _| {
            let n = o.iter().find_map(|(k, v)| match v {
                RawValue::Int(i) if *k == "exchanges" => Some(*i),
                _ => None,
            })?;
            Some(set(o, "exchanges", RawValue::Int(n + 1)))
        },
        values: both_out,
        direction: Direction::NeverLower,
    },
];
