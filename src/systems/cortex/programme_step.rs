//! One step of the Cortex exact programmes: adding one die to every state
//! of a distribution. The plain programme ([`super::exact`]), the plot-point
//! programme ([`super::plot_points`]) and the `max-effect` programme
//! ([`super::max_effect`]) differ only in what their state remembers; each
//! state type says what a hitch does to it, which face is the first that can
//! still enter what it holds, and how it takes a face, through
//! [`ProgrammeState`], and [`add_die`] owns the loop over faces and their
//! weighting, so the rule that low faces only free their die lives here.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::rules::{rank_face, Rank};
use super::weight::Weight;

/// A state of an exact programme: what a roll must remember so far, with
/// the largest step among its free dice.
pub(super) trait ProgrammeState: Copy + Eq + Hash {
    /// What the programme fixes for every state: the total's size, a hitch
    /// cap, or nothing.
    type Setting: Copy;

    /// The state after one more die shows 1 (a hitch).
    fn hitched(self, setting: Self::Setting) -> Self;

    /// The lowest face (at least 2) that can still change the dice held;
    /// every face from 2 up to it only frees its die.
    fn first_useful_face(&self, setting: Self::Setting) -> u8;

    /// The largest step among the free dice, -1 for none.
    fn free_step_mut(&mut self) -> &mut i8;

    /// The state with whatever can no longer matter cleared, so that
    /// equivalent states merge.
    fn canonical(self) -> Self;

    /// The state after one more die of `step` shows `face` (from
    /// [`ProgrammeState::first_useful_face`] up), canonical.
    fn pushed(self, setting: Self::Setting, step: u8, face: u8) -> Self;
}

/// Every state of `states` with one more die of `step` and `sides` faces
/// added, weighted by how many faces lead to each new state.
///
/// The new states are entered in one fixed order (the hitch, then the freed
/// die, then each useful face upward): the sums' order pins their last bits
/// in `f64`, and the committed reports hold them.
#[inline]
pub(super) fn add_die<S: ProgrammeState, W: Weight>(
    states: &FxHashMap<S, W>,
    setting: S::Setting,
    step: u8,
    sides: u8,
) -> FxHashMap<S, W> {
    let sides_u32 = u32::from(sides);
    let mut next: FxHashMap<S, W> =
        FxHashMap::with_capacity_and_hasher(states.len() * 2, Default::default());
    for (state, &p) in states {
        *next.entry(state.hitched(setting)).or_default() += p.faces(1, sides_u32);
        // The Cortex Plus rules text, "Броски": any die not in the total may
        // be the effect die. A face below the lowest the state can still take
        // only leaves its die free, whichever face it is, so those faces
        // merge into one transition.
        let first_useful = state.first_useful_face(setting);
        let below = first_useful.min(sides + 1) - 2;
        if below > 0 {
            let mut freed = *state;
            let free_step = freed.free_step_mut();
            *free_step = (*free_step).max(step as i8);
            *next.entry(freed.canonical()).or_default() += p.faces(u32::from(below), sides_u32);
        }
        for face in first_useful..=sides {
            *next.entry(state.pushed(setting, step, face)).or_default() += p.faces(1, sides_u32);
        }
    }
    next
}

/// The first face that can enter dice held as [`super::rules::total_rank`]s
/// whose last slot holds `lowest` (0 while a slot is empty): a face equal to
/// the lowest still can, a smaller die going ahead of a larger one.
pub(super) fn first_face_to_hold(lowest: Rank) -> u8 {
    match lowest {
        0 => 2,
        lowest => rank_face(lowest).max(2),
    }
}
