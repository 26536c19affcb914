//! How large the plot-point programme grows, counted before it runs
//! (docs/development.md, "Exact budget"), so a pool too large to answer
//! exactly is refused at once rather than after a second of work.
//!
//! The programme's state ([`super::plot_points::PlotRoll`]) is the best
//! `keep + plot_points` live dice, largest first, and the largest step
//! among the live dice left out. So the states after some dice are at most
//! the multisets of held faces those dice can show: while fewer live dice
//! than the slots have come, every live die is held and none is free; once
//! the slots are full, the free die's step may be any step met so far, and
//! the held dice no larger than it are merged by face (they can no longer
//! be the effect die). Counting those multisets, step by step of the
//! dice, is a few polynomials of degree at most the slots: nothing beside
//! the programme's own work, and an upper bound of its states (exact for a
//! pool of one size; the test below holds it to the programme).

use crate::dice::{Die, Pool};
use crate::engine::cost::Work;

/// The steps d4..d12.
const STEPS: usize = 5;

/// The work of pushing one die of `sides` into `before` states, making
/// `after`, by kind: the updates themselves, and the time they wait once
/// the map being built outgrows the cache (measured: about 45 ns an update
/// up to 8,000 states, 60 at 27,000, 97 at 73,000, 156 at 260,000;
/// docs/development.md), charged per thousand states it holds up to
/// [`MISSES_LEVEL_OFF`].
pub fn die_work(before: u64, after: u64, sides: u64) -> [(Work, u64); 2] {
    let updates = before.saturating_mul(sides);
    let thousands = after.min(MISSES_LEVEL_OFF) / 1000;
    [
        (Work::PlotPointUpdate, updates),
        (Work::PlotPointMiss, updates.saturating_mul(thousands)),
    ]
}

/// Past this many states an update costs no more: it misses the cache
/// whatever the map's size.
const MISSES_LEVEL_OFF: u64 = 165_000;

/// The predicted nanoseconds of the plot-point programme for `pool` held
/// to `keep + plot_points` slots: each die's [`die_work`] at the states
/// of [`states_after`] the dice before it (an upper bound of what the
/// programme steps).
pub fn predicted_nanos(pool: &Pool, keep: usize, plot_points: usize) -> u64 {
    let slots = keep + plot_points;
    let mut seen = [0usize; STEPS];
    let mut states = 1u64;
    let mut nanos = 0u64;
    for die in pool.dice() {
        let step = die.step() as usize;
        let before = states;
        // Past `slots + 1` dice of a size, more of them change no count:
        // the caps below never pass the slots.
        if seen[step] <= slots {
            seen[step] += 1;
            states = states_after(&seen, slots).min(u64::MAX as f64) as u64;
        }
        for (work, units) in die_work(before, states, u64::from(die.sides())) {
            nanos = nanos.saturating_add(work.nanos(units));
        }
    }
    nanos
}

/// At most how many states the programme holds once `seen[s]` dice of
/// each step `s` have been pushed into `slots` held slots.
pub fn states_after(seen: &[usize; STEPS], slots: usize) -> f64 {
    // Held multisets with each step's dice distinct by step.
    let distinct = (0..STEPS).fold(unit(slots), |acc, s| {
        times(&acc, &faces_of(live_faces(s), seen[s], slots))
    });
    // Not full: every live die held, none free.
    let mut states: f64 = distinct[..slots].iter().sum();
    // Full with none free: exactly `slots` live dice.
    states += distinct[slots];
    let live_dice_can_pass_slots = seen.iter().sum::<usize>() > slots;
    if !live_dice_can_pass_slots {
        return states;
    }
    // Full with a free die of step `free`: the held dice of steps up to
    // it are merged by face (one of them, at least, is the free one).
    for free in (0..STEPS).filter(|&s| seen[s] > 0) {
        let merged: usize = seen[..=free].iter().sum::<usize>() - 1;
        let below = faces_of(live_faces(free), merged, slots);
        let held = (free + 1..STEPS).fold(below, |acc, s| {
            times(&acc, &faces_of(live_faces(s), seen[s], slots))
        });
        states += held[slots];
    }
    states
}

/// The live faces of a die at `step`: 2 up to its sides (a 1 is a hitch).
fn live_faces(step: usize) -> usize {
    let die = Die::from_step(step as u32).expect("a Cortex step");
    die.sides() as usize - 1
}

/// The polynomial 1 (no dice held), up to degree `slots`.
fn unit(slots: usize) -> Vec<f64> {
    let mut p = vec![0.0; slots + 1];
    p[0] = 1.0;
    p
}

/// The multisets of `j` faces out of `faces`, for `j` up to `cap` dice and
/// the slots, as a polynomial in `j`.
fn faces_of(faces: usize, cap: usize, slots: usize) -> Vec<f64> {
    let mut p = vec![0.0; slots + 1];
    // C(faces - 1 + j, j), built up j by j.
    let mut count = 1.0;
    for (j, c) in p.iter_mut().enumerate().take(cap.min(slots) + 1) {
        if j > 0 {
            count *= (faces - 1 + j) as f64 / j as f64;
        }
        *c = count;
    }
    p
}

/// The product of two polynomials, cut at their (common) degree.
fn times(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut p = vec![0.0; a.len()];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate().take(a.len() - i) {
            p[i + j] += x * y;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use rustc_hash::FxHashMap;

    use super::*;
    use crate::engine::exact::Budget;
    use crate::systems::cortex::plot_points::{plot_point_outcomes, PlotRoll};
    use crate::systems::cortex::rules::Rules;

    fn rules(keep: usize) -> Rules {
        Rules {
            keep,
            ..Rules::default()
        }
    }
    use crate::systems::cortex::programme_step::add_die;

    /// The states the programme holds after each die of `pool`.
    fn counted(pool: &Pool, keep: usize, points: usize) -> Vec<usize> {
        let mut states: FxHashMap<PlotRoll, f64> = FxHashMap::default();
        states.insert(PlotRoll::new(keep, points), 1.0);
        let mut counts = Vec::new();
        for die in pool.dice() {
            states = add_die(&states, (), die.step() as u8, die.sides() as u8);
            counts.push(states.len());
        }
        counts
    }

    #[test]
    fn the_count_bounds_the_programme_and_is_exact_for_one_size() {
        for (pool, keep, points, exact) in [
            ("8d12", 4, 5, true),
            ("12d8", 2, 3, true),
            ("6d4", 1, 1, true),
            ("d12 2d10 3d8 2d6", 2, 3, false),
            ("3d10 4d6 d4", 3, 2, false),
            ("2d12 2d4", 2, 1, false),
        ] {
            let pool = Pool::parse_cortex(pool).unwrap();
            let mut seen = [0; STEPS];
            for (die, &count) in pool.dice().iter().zip(&counted(&pool, keep, points)) {
                seen[die.step() as usize] += 1;
                let bound = states_after(&seen, keep + points);
                assert!(
                    bound >= count as f64,
                    "{pool} after {seen:?}: {bound} < {count}"
                );
                if exact {
                    assert_eq!(bound, count as f64, "{pool} after {seen:?}");
                } else {
                    // Merging by face over-counts dice that cannot show a
                    // large face; the bound stays within a few times.
                    assert!(
                        bound <= 4.0 * count as f64,
                        "{pool} after {seen:?}: {bound} vs {count}"
                    );
                }
            }
            // The prediction is what the programme then charges, or more.
            let mut budget = Budget::unlimited();
            plot_point_outcomes::<f64>(&pool, &rules(keep), points, 30, &mut budget).unwrap();
            let predicted = predicted_nanos(&pool, keep, points);
            if exact {
                assert_eq!(predicted, budget.spent(), "{pool}");
            } else {
                assert!(predicted >= budget.spent(), "{pool}");
            }
        }
    }

    #[test]
    fn a_long_pool_is_counted_at_once() {
        // 100,000 dice: the counts stop changing once a size's dice pass
        // the slots, so the prediction grows linearly past them.
        let saturated = states_after(&[0, 0, 0, 0, 10], 9) as u64;
        let per_die: u64 = die_work(saturated, saturated, 12)
            .iter()
            .map(|&(w, n)| w.nanos(n))
            .sum();
        let predicted = predicted_nanos(&Pool::parse_cortex("100000d12").unwrap(), 4, 5);
        assert!(predicted > 99_000 * per_die && predicted <= 100_000 * per_die);
    }
}
