//! Doom-pool scenes (docs/cortex.md). An action's hitches are the 1s of the
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
