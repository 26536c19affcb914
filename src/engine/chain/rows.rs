//! The chain engine's flat form, for mechanics whose states are numbered
//! densely (0, 1, 2 ...) and whose mass is a row of numbers (a probability,
//! or that probability split by a tally such as the successes so far): a
//! step's rows sit side by side in one buffer, slot after slot, reused from
//! step to step, so a transition reads a state's row and adds into its
//! targets' rows with no allocation, no hashing and no mass moved by a sort.
//! The doom-pool scene and its economy, the conflict and the advantage
//! encounter run on it (docs/cortex.md, docs/advantage.md);
//! [`super::Mechanic`] remains the form for any other state or mass.
//!
//! The order of every sum is the one [`super::run`] keeps: a step's states
//! are stepped in the order of their numbers (or of the ranks the mechanic
//! gives them), each state's moves reach
//! their targets in the order the mechanic makes them, and states are
//! dropped, and their mass summed, in the order they were first reached.

use super::{Pruning, Run};
use crate::engine::cost::Forecast;
use crate::engine::exact::{Budget, ExactError};

/// A mechanic played step by step over densely numbered states, each
/// carrying a row of [`RowMechanic::width`] numbers.
pub trait RowMechanic {
    /// How a play ends: on a move that ends it, or in the state it holds
    /// after the last step ([`RowMechanic::final_outcome`]).
    type Outcome;

    /// Steps to play.
    fn steps(&self) -> usize;

    /// The numbers in the row of a state in play before `step` (at
    /// `steps()`: after the last step).
    fn width(&self, step: usize) -> usize;

    /// Puts the states in play before the first step into `start`
    /// ([`Rows::to`]).
    fn initial(&mut self, start: &mut Rows<Self::Outcome>);

    /// The budget's elementary steps that stepping `live` states at `step`
    /// costs, spent before the step is taken (0: the mechanic spends its
    /// work itself).
    fn work(&self, _step: usize, _live: usize) -> u64 {
        0
    }

    /// What a case refused at `step`, with `live` states in play, is called
    /// in the message.
    fn too_large(&self, step: usize, live: usize) -> String;

    /// The probability of being in a state whose row is `row` (what
    /// [`Pruning`] compares).
    fn total(&self, row: &[f64]) -> f64;

    /// Where `state` comes in the order a step's states are stepped in
    /// (and the last step's states end in): by default its number. A
    /// mechanic that numbers its states in the order met but steps them in
    /// the order of what they stand for (the scene's economy, so that its
    /// sums are those of the chain it replaced) ranks them here; no two
    /// states may share a rank.
    fn rank(&self, state: u32) -> u64 {
        u64::from(state)
    }

    /// What the budget's forecast of the work to come should know of this
    /// chain (as [`super::Mechanic::forecast`]); nothing, unless the
    /// mechanic says so.
    fn forecast(&self, forecast: Forecast) -> Forecast {
        forecast
    }

    /// Plays `step` from `state`, whose row is `row`: adds the row, moved,
    /// to the rows of the states it leads to ([`Rows::to`], [`Rows::slot`])
    /// and passes the rows of the plays that end here to [`Rows::absorb`].
    fn next(
        &mut self,
        step: usize,
        state: u32,
        row: &[f64],
        next: &mut Rows<Self::Outcome>,
        budget: &mut Budget,
    ) -> Result<(), ExactError>;

    /// The outcome of a play still in `state` after the last step.
    fn final_outcome(&self, state: u32) -> Self::Outcome;

    /// Tallies the row of plays that ended with `outcome`, in the order
    /// they ended.
    fn absorb(&mut self, outcome: Self::Outcome, row: &[f64]);
}

/// A slot no state holds yet.
const NO_SLOT: u32 = u32::MAX;

/// The states one step leads to, each with its row (the mass merged into
/// it so far), in the order they were first reached; and the plays the
/// step ended.
pub struct Rows<O> {
    width: usize,
    /// The rows, slot after slot.
    cells: Vec<f64>,
    /// The state in each slot.
    states: Vec<u32>,
    /// Slots by state number ([`NO_SLOT`]: not reached).
    slot_of: Vec<u32>,
    /// Ended plays: the outcome and the place of its row in `ended_cells`.
    ended: Vec<(O, usize, usize)>,
    ended_cells: Vec<f64>,
}

impl<O> Rows<O> {
    fn new(width: usize) -> Self {
        Rows {
            width,
            cells: Vec::new(),
            states: Vec::new(),
            slot_of: Vec::new(),
            ended: Vec::new(),
            ended_cells: Vec::new(),
        }
    }

    /// Forgets every state for a step whose rows hold `width` numbers,
    /// keeping the buffers.
    fn reset(&mut self, width: usize) {
        for &state in &self.states {
            self.slot_of[state as usize] = NO_SLOT;
        }
        self.states.clear();
        self.cells.clear();
        self.width = width;
    }

    /// The numbers in each row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The slot of `state`, whose row starts as zeros the first time the
    /// step reaches it; stable until the step ends.
    pub fn slot(&mut self, state: u32) -> usize {
        let i = state as usize;
        if i >= self.slot_of.len() {
            self.slot_of.resize(i + 1, NO_SLOT);
        }
        let slot = self.slot_of[i];
        if slot != NO_SLOT {
            return slot as usize;
        }
        let slot = self.states.len();
        self.slot_of[i] = slot as u32;
        self.states.push(state);
        self.cells.resize(self.cells.len() + self.width, 0.0);
        slot
    }

    /// The row at `slot`.
    pub fn row(&mut self, slot: usize) -> &mut [f64] {
        let w = self.width;
        &mut self.cells[slot * w..slot * w + w]
    }

    /// Every row reached so far, slot after slot (the row at `slot` starts
    /// at `slot * width()`): for an inner loop that adds into several rows.
    pub fn cells(&mut self) -> &mut [f64] {
        &mut self.cells
    }

    /// The row of `state` (see [`Rows::slot`]).
    pub fn to(&mut self, state: u32) -> &mut [f64] {
        let slot = self.slot(state);
        self.row(slot)
    }

    /// Ends plays whose row is `row` with `outcome`.
    pub fn absorb(&mut self, outcome: O, row: &[f64]) {
        self.ended
            .push((outcome, self.ended_cells.len(), row.len()));
        self.ended_cells.extend_from_slice(row);
    }

    /// The row at `slot`, to read.
    fn get(&self, slot: usize) -> &[f64] {
        &self.cells[slot * self.width..(slot + 1) * self.width]
    }

    /// Passes the plays ended so far to the mechanic, in the order they
    /// ended.
    fn drain_ended<C: RowMechanic<Outcome = O>>(&mut self, mechanic: &mut C) {
        for (outcome, start, len) in self.ended.drain(..) {
            mechanic.absorb(outcome, &self.ended_cells[start..start + len]);
        }
        self.ended_cells.clear();
    }

    /// Into `order`, the slots `pruning` keeps (judged in the order they
    /// were reached, the mass dropped as too unlikely added to `dropped`),
    /// sorted by [`RowMechanic::rank`].
    fn kept<C: RowMechanic<Outcome = O>>(
        &self,
        mechanic: &C,
        pruning: &Pruning,
        order: &mut Vec<u32>,
        dropped: &mut f64,
    ) {
        order.clear();
        let live = self.states.len();
        let prune = live > pruning.beyond;
        if !prune && !pruning.drop_empty {
            order.extend(0..live as u32);
        } else {
            for slot in 0..live {
                if pruning.keeps(prune, mechanic.total(self.get(slot)), dropped) {
                    order.push(slot as u32);
                }
            }
        }
        let states = &self.states;
        order.sort_unstable_by_key(|&slot| mechanic.rank(states[slot as usize]));
    }
}

/// Plays `mechanic` to the end, as [`super::run`] plays a [`super::Mechanic`]:
/// every step charges the budget first ([`RowMechanic::work`]), steps each
/// state in play in the order of their ranks ([`RowMechanic::rank`]: by
/// default their numbers), drops what `pruning` drops,
/// and every state still in play after the last step ends with its
/// [`RowMechanic::final_outcome`]; the work still to come is forecast after
/// each step, as there.
pub fn run_rows<C: RowMechanic>(
    mechanic: &mut C,
    pruning: Pruning,
    budget: &mut Budget,
) -> Result<Run, ExactError> {
    let mut live = Rows::new(mechanic.width(0));
    mechanic.initial(&mut live);
    live.drain_ended(mechanic);
    let mut next = Rows::new(0);
    let mut order: Vec<u32> = (0..live.states.len() as u32).collect();
    let mut dropped = 0.0;
    let mut forecast = mechanic.forecast(Forecast::new(mechanic.steps() as f64, budget));
    for step in 0..mechanic.steps() {
        let count = order.len();
        budget.spend(mechanic.work(step, count), &|| {
            mechanic.too_large(step, count)
        })?;
        next.reset(mechanic.width(step + 1));
        for &slot in &order {
            let slot = slot as usize;
            let state = live.states[slot];
            mechanic.next(step, state, live.get(slot), &mut next, budget)?;
            next.drain_ended(mechanic);
        }
        std::mem::swap(&mut live, &mut next);
        live.kept(mechanic, &pruning, &mut order, &mut dropped);
        let count = order.len();
        forecast.step(budget, || 1.0, &|| mechanic.too_large(step, count))?;
    }
    for &slot in &order {
        let slot = slot as usize;
        let outcome = mechanic.final_outcome(live.states[slot]);
        mechanic.absorb(outcome, live.get(slot));
    }
    Ok(Run { dropped })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk of the chain engine's own tests, on rows of one number:
    /// 0..=3, up one with probability `up`, absorbed on reaching 3.
    struct Walk {
        steps: usize,
        up: f64,
        work: u64,
        ended: Vec<(Option<usize>, f64)>,
    }

    impl RowMechanic for Walk {
        type Outcome = Option<usize>;

        fn steps(&self) -> usize {
            self.steps
        }

        fn width(&self, _step: usize) -> usize {
            1
        }

        fn initial(&mut self, start: &mut Rows<Option<usize>>) {
            start.to(0)[0] += 1.0;
        }

        fn work(&self, _step: usize, live: usize) -> u64 {
            live as u64 * self.work
        }

        fn too_large(&self, step: usize, live: usize) -> String {
            format!("a walk ({live} states at step {step})")
        }

        fn total(&self, row: &[f64]) -> f64 {
            row[0]
        }

        fn next(
            &mut self,
            step: usize,
            state: u32,
            row: &[f64],
            next: &mut Rows<Option<usize>>,
            _budget: &mut Budget,
        ) -> Result<(), ExactError> {
            let p = row[0];
            if state == 2 {
                next.absorb(Some(step + 1), &[p * self.up]);
            } else {
                next.to(state + 1)[0] += p * self.up;
            }
            next.to(state)[0] += p * (1.0 - self.up);
            Ok(())
        }

        fn final_outcome(&self, _state: u32) -> Option<usize> {
            None
        }

        fn absorb(&mut self, outcome: Option<usize>, row: &[f64]) {
            self.ended.push((outcome, row[0]));
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
    fn absorbs_and_ends_every_play_in_state_order() {
        let mut w = walk(3, 0.5, 0);
        let run = run_rows(&mut w, Pruning::NONE, &mut Budget::unlimited()).unwrap();
        assert_eq!(run.dropped, 0.0);
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
    fn prunes_as_the_general_engine_does() {
        let mut kept = walk(3, 0.01, 0);
        run_rows(&mut kept, Pruning::below(1e-3, 3), &mut Budget::unlimited()).unwrap();
        assert_eq!(kept.ended.len(), 4);
        let mut pruned = walk(2, 0.01, 0);
        let r = run_rows(
            &mut pruned,
            Pruning::below(1e-3, 2),
            &mut Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(r.dropped, 0.01 * 0.01);
        assert_eq!(pruned.ended.len(), 2);
        let mut certain = walk(2, 1.0, 0);
        run_rows(
            &mut certain,
            Pruning::NONE.dropping_empty(),
            &mut Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(certain.ended, vec![(None, 1.0)]);
    }

    #[test]
    fn refuses_when_a_step_passes_the_budget() {
        let err = run_rows(&mut walk(3, 0.5, 10), Pruning::NONE, &mut Budget::new(59)).unwrap_err();
        assert_eq!(
            err,
            ExactError::TooLarge("a walk (3 states at step 2)".into())
        );
        run_rows(&mut walk(3, 0.5, 10), Pruning::NONE, &mut Budget::new(60)).unwrap();
    }

    /// Rows wider than one number keep their numbers apart, and a row
    /// reached twice in a step sums in the order of the moves.
    #[test]
    fn wide_rows_merge_cell_by_cell() {
        let mut rows: Rows<()> = Rows::new(3);
        rows.to(5).copy_from_slice(&[1.0, 2.0, 3.0]);
        let slot = rows.slot(2);
        rows.row(slot)[1] = 0.5;
        rows.to(5)[2] += 0.25;
        let five = rows.slot(5);
        assert_eq!(rows.get(five), &[1.0, 2.0, 3.25]);
        assert_eq!(rows.get(slot), &[0.0, 0.5, 0.0]);
        rows.reset(2);
        assert_eq!(rows.to(2), &[0.0, 0.0]);
        assert_eq!(rows.states, vec![2]);
    }
}
