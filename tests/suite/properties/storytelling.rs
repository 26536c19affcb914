//! Storytelling pools (docs/storytelling.md). The success count of a pool is the sum
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
