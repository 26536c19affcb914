//! The chain engine: exact answers for mechanics played over several steps
//! (the actions of a doom-pool scene, the half exchanges of a conflict, the
//! rolls of an advantage encounter; docs/cortex.md, docs/advantage.md). A
//! mechanic says what a state is, what each state carries, how one step
//! moves a state to its weighted next states or ends it, and what a state
//! still in play after the last step amounts to ([`Mechanic`]); [`run`] keeps
//! the states in play, merges the mass that reaches the same state, drops
//! the states too unlikely to matter (reporting their mass) and charges the
//! exact work budget step by step, so an exact method built on it refuses a
//! case it cannot finish ([`ExactError::TooLarge`]) and `--method auto` falls
//! back to Monte Carlo.
//!
//! The order of every sum is fixed, so a chain's answer does not depend on
//! hashing: the states of a step are stepped in their `Ord` order, each
//! state's moves reach their targets in the order the mechanic makes them,
//! and states are dropped in the order they were first reached.
//!
//! A mechanic whose states are numbered densely and whose mass is a row of
//! numbers can instead implement [`RowMechanic`] and be played by
//! [`run_rows`], which keeps every row in one flat buffer (the scene, the
//! conflict and the encounter do: their steps are cheap, so where the mass
//! lives is most of the time).

use std::hash::Hash;

use rustc_hash::FxHashMap;

pub use super::cost::Forecast;
use super::exact::{Budget, ExactError};

mod rows;
pub use rows::{run_rows, RowMechanic, Rows};

/// What a state in play carries: its probability, possibly split further by
/// what the mechanic tallies alongside (for example the successes so far).
pub trait Mass {
    /// The probability of being in the state.
    fn total(&self) -> f64;
}

impl Mass for f64 {
    fn total(&self) -> f64 {
        *self
    }
}

/// A state of a chain. Its `Ord` is the order in which the states of a step
/// are stepped.
pub trait State: Copy + Eq + Hash + Ord {
    /// The state's number when the mechanic numbers its states densely
    /// (0, 1, 2 ... up to about the states it can reach): the engine then
    /// finds where a state's mass is merged by array instead of by hash,
    /// which chains whose steps are cheap notice.
    fn dense_index(&self) -> Option<usize> {
        None
    }
}

/// States numbered by the mechanic (a doom pool in the order met, the
/// counters' state in their state space).
impl State for u32 {
    fn dense_index(&self) -> Option<usize> {
        Some(*self as usize)
    }
}

/// The most probability a pruned chain of the bundled mechanics leaves out
/// that their docs promise (docs/cortex.md, "Long scenes"): a result that
/// drops more says so in a warning on stderr.
pub const PROMISED_DROPPED_MASS: f64 = 1e-9;

/// Which states the engine drops after each step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pruning {
    /// States whose [`Mass::total`] is below this are dropped, their mass
    /// added to [`Run::dropped`] ...
    pub below: f64,
    /// ... but only while more than this many states are in play, so a
    /// short chain keeps every state it reaches.
    pub beyond: usize,
    /// Whether states whose mass is exactly zero (reached only by moves of
    /// no weight) are dropped at once, whatever their number.
    pub drop_empty: bool,
}

impl Pruning {
    /// Every state reached stays in play.
    pub const NONE: Pruning = Pruning {
        below: 0.0,
        beyond: usize::MAX,
        drop_empty: false,
    };

    /// Drops states less likely than `below` once more than `beyond` are in
    /// play.
    pub const fn below(below: f64, beyond: usize) -> Pruning {
        Pruning {
            below,
            beyond,
            drop_empty: false,
        }
    }

    /// The same, dropping states of zero mass too.
    pub const fn dropping_empty(self) -> Pruning {
        Pruning {
            drop_empty: true,
            ..self
        }
    }

    /// Drops from `live` (in the order its states were reached) what this
    /// pruning drops, adding the mass it drops as too unlikely to `dropped`.
    fn apply<S, M: Mass>(&self, live: &mut Vec<(S, M)>, dropped: &mut f64) {
        let prune = live.len() > self.beyond;
        if !prune && !self.drop_empty {
            return;
        }
        live.retain(|(_, mass)| self.keeps(prune, mass.total(), dropped));
    }

    /// Whether a state of probability `total` stays in play (`prune`: more
    /// than `beyond` are), adding its mass to `dropped` when it goes as too
    /// unlikely.
    fn keeps(&self, prune: bool, total: f64, dropped: &mut f64) -> bool {
        let reached = total > 0.0;
        if self.drop_empty && !reached {
            return false;
        }
        if prune && total < self.below {
            *dropped += total;
            return false;
        }
        true
    }
}

/// A mechanic played step by step: the state type and its transition.
pub trait Mechanic {
    /// Where a play stands between two steps.
    type State: State;
    /// What each state in play carries.
    type Mass: Mass;
    /// How a play ends: on a move that ends it, or in the state it holds
    /// after the last step ([`Mechanic::final_outcome`]).
    type Outcome;

    /// Steps to play.
    fn steps(&self) -> usize;

    /// The states in play before the first step.
    fn initial(&mut self) -> Vec<(Self::State, Self::Mass)>;

    /// The budget's elementary steps that stepping `live` states at `step`
    /// costs, spent before the step is taken (0: the mechanic spends its
    /// work itself).
    fn work(&self, _step: usize, _live: usize) -> u64 {
        0
    }

    /// What a case refused at `step`, with `live` states in play, is called
    /// in the message ("a scene of 60 actions ...").
    fn too_large(&self, step: usize, live: usize) -> String;

    /// Plays `step` from `state`: adds the state's mass, moved, to the
    /// states it leads to ([`Next::to`], [`Next::slot`]) and passes the mass
    /// of the plays that end here to [`Next::absorb`]. Work that only the
    /// step itself can size may be charged to `budget`.
    fn next(
        &mut self,
        step: usize,
        state: Self::State,
        mass: Self::Mass,
        next: &mut Next<Self::State, Self::Mass, Self::Outcome>,
        budget: &mut Budget,
    ) -> Result<(), ExactError>;

    /// Whether the plays still in `live` after `step` may end there, before
    /// the last step, as if it were the last (a chain run until too little
    /// is left in play to matter); never, unless the mechanic says so.
    fn settled(&self, _step: usize, _live: &[(Self::State, Self::Mass)]) -> bool {
        false
    }

    /// What the budget's forecast of the work to come should know of this
    /// chain ([`Forecast::settling`], [`Forecast::bounded`]); nothing,
    /// unless the mechanic says so.
    fn forecast(&self, forecast: Forecast) -> Forecast {
        forecast
    }

    /// The outcome of a play still in `state` after the last step.
    fn final_outcome(&self, state: &Self::State) -> Self::Outcome;

    /// Tallies the mass of plays that ended with `outcome`, in the order
    /// they ended.
    fn absorb(&mut self, outcome: Self::Outcome, mass: Self::Mass);
}

/// The states one step leads to, each with the mass merged into it so far,
/// in the order they were first reached; and the plays the step ended.
pub struct Next<S, M, O> {
    states: Vec<(S, M)>,
    /// Slots of states without a dense number.
    slots: FxHashMap<S, usize>,
    /// Slots by dense number ([`NO_SLOT`]: not reached yet).
    dense: Vec<u32>,
    absorbed: Vec<(O, M)>,
}

/// A dense number whose state the step has not reached.
const NO_SLOT: u32 = u32::MAX;

impl<S: State, M, O> Next<S, M, O> {
    fn new() -> Self {
        Next {
            states: Vec::new(),
            slots: FxHashMap::default(),
            dense: Vec::new(),
            absorbed: Vec::new(),
        }
    }

    /// The slot of `state`, which starts with `fresh()` (a mass of zero) the
    /// first time the step reaches it; stable until the step ends.
    pub fn slot(&mut self, state: S, fresh: impl FnOnce() -> M) -> usize {
        let states = &mut self.states;
        let Some(i) = state.dense_index() else {
            return *self.slots.entry(state).or_insert_with(|| {
                states.push((state, fresh()));
                states.len() - 1
            });
        };
        if i >= self.dense.len() {
            self.dense.resize(i + 1, NO_SLOT);
        }
        let slot = self.dense[i];
        if slot != NO_SLOT {
            return slot as usize;
        }
        self.dense[i] = states.len() as u32;
        states.push((state, fresh()));
        states.len() - 1
    }

    /// Forgets every state reached, for the next step: `live` holds them.
    fn clear<T>(&mut self, live: &[(S, T)]) {
        for (state, _) in live {
            if let Some(i) = state.dense_index() {
                self.dense[i] = NO_SLOT;
            }
        }
        self.slots.clear();
    }

    /// The mass merged into the state at `slot` so far.
    pub fn mass(&mut self, slot: usize) -> &mut M {
        &mut self.states[slot].1
    }

    /// The mass merged into `state` so far (see [`Next::slot`]).
    pub fn to(&mut self, state: S, fresh: impl FnOnce() -> M) -> &mut M {
        let slot = self.slot(state, fresh);
        self.mass(slot)
    }

    /// Ends plays of mass `mass` with `outcome`.
    pub fn absorb(&mut self, outcome: O, mass: M) {
        self.absorbed.push((outcome, mass));
    }
}

impl<S: State, O> Next<S, f64, O> {
    /// Adds probability `p` to `state`.
    pub fn add(&mut self, state: S, p: f64) {
        *self.to(state, || 0.0) += p;
    }
}

/// What a finished run reports beyond the mechanic's own tallies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// The mass of the states dropped as too unlikely ([`Pruning`]).
    pub dropped: f64,
}

/// Plays `mechanic` to the end: every step charges the budget first
/// ([`Mechanic::work`]), steps each state in play in `Ord` order, drops what
/// `pruning` drops, and every state still in play after the last step (or
/// once the mechanic has [`Mechanic::settled`]) ends with its
/// [`Mechanic::final_outcome`]. After each step the work still to come is
/// forecast from the work so far ([`Forecast`]), and a run predicted past
/// the budget is refused then, not when the budget runs out.
pub fn run<C: Mechanic>(
    mechanic: &mut C,
    pruning: Pruning,
    budget: &mut Budget,
) -> Result<Run, ExactError> {
    let mut live = mechanic.initial();
    let mut next = Next::new();
    let mut dropped = 0.0;
    let mut forecast = mechanic.forecast(Forecast::new(mechanic.steps() as f64, budget));
    for step in 0..mechanic.steps() {
        let count = live.len();
        budget.spend(mechanic.work(step, count), &|| {
            mechanic.too_large(step, count)
        })?;
        for (state, mass) in live.drain(..) {
            mechanic.next(step, state, mass, &mut next, budget)?;
            for (outcome, mass) in next.absorbed.drain(..) {
                mechanic.absorb(outcome, mass);
            }
        }
        std::mem::swap(&mut live, &mut next.states);
        next.clear(&live);
        pruning.apply(&mut live, &mut dropped);
        live.sort_unstable_by_key(|a| a.0);
        if mechanic.settled(step, &live) {
            break;
        }
        let count = live.len();
        forecast.step(
            budget,
            || live.iter().map(|(_, mass)| mass.total()).sum(),
            &|| mechanic.too_large(step, count),
        )?;
    }
    for (state, mass) in live {
        let outcome = mechanic.final_outcome(&state);
        mechanic.absorb(outcome, mass);
    }
    Ok(Run { dropped })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk on 0..=3 that moves up one with probability `up`, absorbed on
    /// reaching 3; the outcome is the step it arrived at (or `None`).
    struct Walk {
        steps: usize,
        up: f64,
        work: u64,
        ended: Vec<(Option<usize>, f64)>,
    }

    /// Hashed, not numbered densely.
    impl State for u8 {}

    impl Mechanic for Walk {
        type State = u8;
        type Mass = f64;
        type Outcome = Option<usize>;

        fn steps(&self) -> usize {
            self.steps
        }

        fn initial(&mut self) -> Vec<(u8, f64)> {
            vec![(0, 1.0)]
        }

        fn work(&self, _step: usize, live: usize) -> u64 {
            live as u64 * self.work
        }

        fn too_large(&self, step: usize, live: usize) -> String {
            format!("a walk ({live} states at step {step})")
        }

        fn next(
            &mut self,
            step: usize,
            state: u8,
            p: f64,
            next: &mut Next<u8, f64, Option<usize>>,
            _budget: &mut Budget,
        ) -> Result<(), ExactError> {
            if state == 2 {
                next.absorb(Some(step + 1), p * self.up);
            } else {
                next.add(state + 1, p * self.up);
            }
            next.add(state, p * (1.0 - self.up));
            Ok(())
        }

        fn final_outcome(&self, _state: &u8) -> Option<usize> {
            None
        }

        fn absorb(&mut self, outcome: Option<usize>, p: f64) {
            self.ended.push((outcome, p));
        }
    }

    fn walk(steps: usize, up: f64, work: u64) -> Walk {
        Walk {
            steps,
            up,
            work,
            ended: Vec::new(),
        }
    }

    #[test]
    fn absorbs_and_ends_every_play() {
        let mut w = walk(3, 0.5, 0);
        let run = run(&mut w, Pruning::NONE, &mut Budget::unlimited()).unwrap();
        assert_eq!(run.dropped, 0.0);
        // Three ups in a row, at the third step; the rest still walking, in
        // state order 0, 1, 2.
        assert_eq!(
            w.ended,
            vec![
                (Some(3), 0.125),
                (None, 0.125),
                (None, 0.375),
                (None, 0.375)
            ]
        );
    }

    #[test]
    fn prunes_only_beyond_the_stated_count_and_reports_the_mass() {
        let mut kept = walk(3, 0.01, 0);
        run(&mut kept, Pruning::below(1e-3, 3), &mut Budget::unlimited()).unwrap();
        assert_eq!(kept.ended.len(), 4);

        let mut pruned = walk(2, 0.01, 0);
        let r = run(
            &mut pruned,
            Pruning::below(1e-3, 2),
            &mut Budget::unlimited(),
        )
        .unwrap();
        // After the second step the three states are 0 (0.9801), 1 (0.0198)
        // and 2 (1e-4): the last goes.
        assert_eq!(r.dropped, 0.01 * 0.01);
        let total: f64 = pruned.ended.iter().map(|e| e.1).sum::<f64>() + r.dropped;
        assert!((total - 1.0).abs() < 1e-15);
        assert_eq!(pruned.ended.len(), 2);
    }

    #[test]
    fn empty_states_go_only_when_asked() {
        let mut certain = walk(2, 1.0, 0);
        run(&mut certain, Pruning::NONE, &mut Budget::unlimited()).unwrap();
        assert_eq!(certain.ended, vec![(None, 0.0), (None, 0.0), (None, 1.0)]);
        let mut certain = walk(2, 1.0, 0);
        run(
            &mut certain,
            Pruning::NONE.dropping_empty(),
            &mut Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(certain.ended, vec![(None, 1.0)]);
    }

    #[test]
    fn refuses_when_a_step_passes_the_budget() {
        // Steps cost 10 per state: 1 state, then 2, then 3 (60 in all).
        let mut w = walk(3, 0.5, 10);
        let mut budget = Budget::new(59);
        let err = run(&mut w, Pruning::NONE, &mut budget).unwrap_err();
        assert_eq!(
            err,
            ExactError::TooLarge("a walk (3 states at step 2)".into())
        );
        assert!(!budget.allows(1));
        let mut budget = Budget::new(60);
        run(&mut walk(3, 0.5, 10), Pruning::NONE, &mut budget).unwrap();
        assert!(budget.allows(0) && !budget.allows(1));
    }
}
