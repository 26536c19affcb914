//! The exact distribution of an advantage encounter: a Markov chain over
//! the values of every counter in play (docs/advantage.md), stepped roll by roll over
//! the rule's face table, and the brute-force walk over every path that
//! checks it.

use super::rules::{count_step, flag_tier, RollKind};
use super::states::{Counters, StateSpace};
use super::{AdvantageCase, AdvantageHists, COUNTS, M2S, USES};
use crate::distribution::Hist;
use crate::engine::chain::{self, Pruning, RowMechanic, Rows};
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

/// One move of the chain: to state `.0` with roll flags `.1`, probability `.2`.
type Move = (u32, u8, f64);

/// The encounter as a chain ([`crate::engine::chain`]): the state is the
/// counters' state (its index in the [`StateSpace`]), a step is one roll;
/// each state's row holds, for each per-encounter count (misses, weak hits,
/// strong hits, uses, misses turned strong), the chance of every count so
/// far: `COUNTS` runs of `width` cells.
struct Encounter {
    /// Per distinct roll kind, per state, the moves of one roll.
    tables: Vec<Vec<Row>>,
    /// Per roll, its table.
    table_of: Vec<usize>,
    /// The most a count can grow by in one roll.
    max_step: usize,
    width: usize,
    rolls: usize,
    per_encounter: [Hist<f64>; COUNTS],
    tier_by_roll: Vec<[f64; 3]>,
    /// The slots of a state's targets (reused from state to state).
    slots: Vec<usize>,
    /// What the encounter is called in messages.
    what: String,
}

/// One state's moves for one roll: the states they reach, each once in the
/// order first reached; the moves themselves in order (for the per-roll
/// tiers); and, per tallied count, the moves in the order their terms are
/// summed ([`Step`]), each naming its state by its place in `targets` (so a
/// roll looks each state up once, not once per move).
struct Row {
    targets: Vec<u32>,
    moves: Vec<Move>,
    by_count: [Vec<Step>; COUNTS],
}

/// A move as one count sees it: the target's place, how much the count
/// grows, and the move's probability.
type Step = (u32, u32, f64);

/// States sampled to size a large encounter before its tables are built.
const SAMPLED_STATES: usize = 256;

/// How far past what is left of the budget a sampled estimate must be to
/// refuse before the build (past the sample's own error; the exact count
/// after the build decides the rest).
const ESTIMATE_MARGIN: f64 = 1.1;

/// Works out one state's moves for a roll: its 36 faces, each with every
/// chance branch, merged by (next state, flags) in the order first reached.
struct MoveMaker {
    branches: Vec<(bool, bool, f64)>,
    /// Where (state, flags) sits in a row's moves, by state and flags
    /// (flags fit in [`FLAGS`] values: two bits of tier, two of uses, one of
    /// miss-to-strong); emptied after each row.
    position: Vec<u32>,
    outcomes: Vec<(Counters, f64)>,
    scratch: Vec<(Counters, f64)>,
}

/// The values a roll's packed flags can take.
const FLAGS: usize = 32;

impl MoveMaker {
    fn new(case: &AdvantageCase, space: &StateSpace) -> MoveMaker {
        MoveMaker {
            branches: case.chance_branches(),
            position: vec![u32::MAX; space.len() * FLAGS],
            outcomes: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn of(
        &mut self,
        case: &AdvantageCase,
        space: &StateSpace,
        kind: RollKind,
        state: usize,
    ) -> Vec<Move> {
        let MoveMaker {
            branches,
            position,
            outcomes,
            scratch,
        } = self;
        let mut out: Vec<Move> = Vec::new();
        for (counters, flags) in case.face_row(space.counters(state), kind) {
            case.chance_outcomes_into(counters, kind, branches, outcomes, scratch);
            for &(next, p) in outcomes.iter() {
                let to = space.index(next) as u32;
                let q = p / 36.0;
                let at = &mut position[to as usize * FLAGS + usize::from(flags)];
                if *at == u32::MAX {
                    *at = out.len() as u32;
                    out.push((to, flags, q));
                } else {
                    out[*at as usize].2 += q;
                }
            }
        }
        for &(to, flags, _) in &out {
            position[to as usize * FLAGS + usize::from(flags)] = u32::MAX;
        }
        out
    }
}

impl Row {
    fn new(moves: &[Move], max_step: usize) -> Row {
        let mut targets: Vec<u32> = Vec::new();
        let moves: Vec<Move> = moves
            .iter()
            .map(|&(to, flags, q)| {
                let place = match targets.iter().position(|&t| t == to) {
                    Some(place) => place,
                    None => {
                        targets.push(to);
                        targets.len() - 1
                    }
                };
                (place as u32, flags, q)
            })
            .collect();
        // Larger steps first, then the moves in order, so every cell sums
        // its terms in one fixed order (by count, then by move), whatever
        // the layout of the loops.
        let by_count = std::array::from_fn(|k| {
            (0..=max_step)
                .rev()
                .flat_map(|step| {
                    moves
                        .iter()
                        .filter(move |&&(_, flags, _)| count_step(flags, k) == step)
                        .map(move |&(place, _, q)| (place, step as u32, q))
                })
                .collect()
        });
        Row {
            targets,
            moves,
            by_count,
        }
    }
}

impl RowMechanic for Encounter {
    type Outcome = u32;

    fn steps(&self) -> usize {
        self.rolls
    }

    fn width(&self, _roll: usize) -> usize {
        COUNTS * self.width
    }

    fn initial(&mut self, start: &mut Rows<u32>) {
        let runs = start.to(0);
        for k in 0..COUNTS {
            runs[k * self.width] = 1.0;
        }
    }

    /// Never asked: an encounter spends its work before it starts.
    fn too_large(&self, _roll: usize, _live: usize) -> String {
        self.what.clone()
    }

    /// The first run's cells: the chance of the state.
    fn total(&self, runs: &[f64]) -> f64 {
        runs[..self.width].iter().sum()
    }

    fn next(
        &mut self,
        roll: usize,
        s: u32,
        runs: &[f64],
        next: &mut Rows<u32>,
        _budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let Encounter {
            tables,
            table_of,
            max_step,
            width,
            tier_by_roll,
            slots,
            ..
        } = self;
        let (max_step, width) = (*max_step, *width);
        let row = &tables[table_of[roll]][s as usize];
        let moves = &row.moves;
        let top = roll * max_step;
        // The per-roll tiers come from the counters' distribution before
        // the roll.
        let p: f64 = runs[..=top].iter().sum();
        let tiers = &mut tier_by_roll[roll];
        for &(_, flags, q) in moves {
            tiers[flag_tier(flags)] += p * q;
        }
        slots.clear();
        let row_width = next.width();
        for &to in &row.targets {
            // Where the targets' rows start in the step's buffer.
            slots.push(next.slot(to) * row_width);
        }
        let cells = next.cells();
        for (k, steps) in row.by_count.iter().enumerate() {
            let from = &runs[k * width..=k * width + top];
            if from.iter().all(|&p| p == 0.0) {
                continue;
            }
            for &(place, step, q) in steps {
                let start = slots[place as usize] + k * width + step as usize;
                let target = &mut cells[start..=start + top];
                for (cell, &p) in target.iter_mut().zip(from) {
                    *cell += p * q;
                }
            }
        }
        Ok(())
    }

    fn final_outcome(&self, s: u32) -> u32 {
        s
    }

    fn absorb(&mut self, _s: u32, runs: &[f64]) {
        for (k, hist) in self.per_encounter.iter_mut().enumerate() {
            for count in 0..self.width {
                hist.add(count as i64, runs[k * self.width + count]);
            }
        }
    }
}

/// The count cells the chain's moves add: for every roll, each move of
/// its table adds one run per count, as long as the counts so far.
fn counted_cells(tables: &[Vec<Vec<Move>>], table_of: &[usize], max_step: usize) -> u64 {
    table_of
        .iter()
        .enumerate()
        .map(|(roll, &table)| {
            let moves: u64 = tables[table].iter().map(|t| t.len() as u64).sum();
            COUNTS as u64 * moves * (roll * max_step + 1) as u64
        })
        .fold(0u64, u64::saturating_add)
}

impl AdvantageCase {
    /// The chance steps of one counter as weighted branches `(gained,
    /// reduced, probability)`, leaving out branches that cannot happen.
    fn chance_branches(&self) -> Vec<(bool, bool, f64)> {
        let mut branches = Vec::new();
        for (gained, pg) in [(true, self.gain_chance), (false, 1.0 - self.gain_chance)] {
            for (reduced, pr) in [
                (true, self.gm_reduce_chance),
                (false, 1.0 - self.gm_reduce_chance),
            ] {
                if pg > 0.0 && pr > 0.0 {
                    branches.push((gained, reduced, pg * pr));
                }
            }
        }
        branches
    }

    /// Every way steps 6 and 7 can leave `counters` after a roll of `kind`:
    /// each counter that draws (docs/advantage.md: each of a player's own, a party's
    /// roller only) draws its own branches.
    fn chance_outcomes(
        &self,
        counters: Counters,
        kind: RollKind,
        branches: &[(bool, bool, f64)],
    ) -> Vec<(Counters, f64)> {
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        self.chance_outcomes_into(counters, kind, branches, &mut out, &mut scratch);
        out
    }

    /// [`AdvantageCase::chance_outcomes`] into `out`, drawing holder by
    /// holder through `scratch`: the table of a large party calls it for
    /// every face of every state.
    fn chance_outcomes_into(
        &self,
        counters: Counters,
        kind: RollKind,
        branches: &[(bool, bool, f64)],
        out: &mut Vec<(Counters, f64)>,
        scratch: &mut Vec<(Counters, f64)>,
    ) {
        out.clear();
        out.push((counters, 1.0));
        for holder in self.chance_holders(kind) {
            scratch.clear();
            for &(counters, p) in out.iter() {
                for &(gained, reduced, q) in branches {
                    let mut next = counters;
                    next[holder] = self.after_chances(next[holder], gained, reduced);
                    scratch.push((next, p * q));
                }
            }
            std::mem::swap(out, scratch);
        }
    }

    /// The chain's transitions for a roll of `kind`: per state, every
    /// (next state, flags) with its probability, merged in the order first
    /// reached.
    fn transitions(&self, space: &StateSpace, kind: RollKind) -> Vec<Vec<Move>> {
        let mut moves = MoveMaker::new(self, space);
        (0..space.len())
            .map(|state| moves.of(self, space, kind, state))
            .collect()
    }

    /// The work of the chain's cells estimated from a sample of its
    /// states, before any table is built: per distinct roll kind, the mean
    /// number of moves of [`SAMPLED_STATES`] states spread over the space
    /// (one drawn from each run of neighbouring numbers), times the
    /// states, times each roll's run of counts. `None` for a space small
    /// enough to build at once.
    fn estimated_cells(
        &self,
        space: &StateSpace,
        distinct: &[RollKind],
        table_of: &[usize],
    ) -> Option<f64> {
        let len = space.len();
        if len <= SAMPLED_STATES {
            return None;
        }
        let mut moves = MoveMaker::new(self, space);
        let mean_moves: Vec<f64> = distinct
            .iter()
            .map(|&kind| {
                let total: usize = (0..SAMPLED_STATES)
                    .map(|i| {
                        // A fixed scramble of the sample's index picks the
                        // state within its run, so the sample does not line
                        // up with the counters' digits.
                        let (from, to) = (i * len / SAMPLED_STATES, (i + 1) * len / SAMPLED_STATES);
                        let within = (i.wrapping_mul(0x9E37_79B9) >> 7) % (to - from);
                        moves.of(self, space, kind, from + within).len()
                    })
                    .sum();
                total as f64 / SAMPLED_STATES as f64
            })
            .collect();
        let max_step = usize::from(self.counters);
        Some(
            table_of
                .iter()
                .enumerate()
                .map(|(roll, &table)| {
                    COUNTS as f64 * mean_moves[table] * len as f64 * (roll * max_step + 1) as f64
                })
                .sum(),
        )
    }

    /// The exact histograms: a Markov chain stepped roll by roll. For each
    /// per-encounter count (misses, weak hits, strong hits, uses, misses
    /// turned strong) the state is (counters' state, count so far); the
    /// per-roll tiers come from the counters' distribution before each roll.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<AdvantageHists<f64>, ExactError> {
        let n = self.rolls as usize;
        let what = || {
            let players = match (self.party, self.counters) {
                (1, 1) => String::new(),
                (1, c) => format!(" ({c} counters)"),
                (p, _) => format!(" (a party of {p})"),
            };
            format!(
                "an encounter of {} rolls with a d{}{players}",
                self.rolls, self.die
            )
        };
        let kinds: Vec<RollKind> = (0..n).map(|roll| self.roll_kind(roll)).collect();
        let mut distinct: Vec<RollKind> = Vec::new();
        for kind in &kinds {
            if !distinct.contains(kind) {
                distinct.push(*kind);
            }
        }
        let table_of: Vec<usize> = kinds
            .iter()
            .map(|kind| distinct.iter().position(|d| d == kind).unwrap_or(0))
            .collect();
        // Building a table resolves every face of every state, with every
        // chance branch: counted before it is done.
        let states = (usize::from(self.die) as u64).saturating_pow(self.holders() as u32);
        let draws =
            (self.chance_branches().len() as u64).pow(self.chance_holders(kinds[0]).len() as u32);
        let resolves = (distinct.len() as u64).saturating_mul(states * 36 * draws);
        let space = StateSpace::new(self);
        // A large space is sized from a sample first, so an encounter far
        // past the budget is refused before its tables are built (which
        // alone can take longer than a refusal may).
        let sampled = (distinct.len() * SAMPLED_STATES * 36) as u64 * draws;
        if space.len() > SAMPLED_STATES {
            budget.spend(Work::EncounterResolve.cost(sampled), &what)?;
        }
        if let Some(cells) = self.estimated_cells(&space, &distinct, &table_of) {
            let estimate = Work::EncounterResolve.nanos(resolves) as f64
                + cells * Work::EncounterCell.picos() as f64 / 1000.0;
            if estimate > budget.remaining() as f64 * ESTIMATE_MARGIN {
                return Err(ExactError::TooLarge(what()));
            }
        }
        budget.spend(Work::EncounterResolve.cost(resolves), &what)?;
        let tables: Vec<Vec<Vec<Move>>> = distinct
            .iter()
            .map(|kind| self.transitions(&space, *kind))
            .collect();
        let max_step = usize::from(self.counters);
        // Each move adds a run of counts (one per count so far) in a loop the
        // compiler vectorises, priced as `Work::EncounterCell`.
        let cells = counted_cells(&tables, &table_of, max_step);
        budget.spend(Work::EncounterCell.cost(cells), &what)?;

        let tables = tables
            .iter()
            .map(|table| {
                table
                    .iter()
                    .map(|moves| Row::new(moves, max_step))
                    .collect()
            })
            .collect();
        let mut encounter = Encounter {
            tables,
            table_of,
            max_step,
            width: n * max_step + 1,
            rolls: n,
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, (n * max_step) as i64)),
            tier_by_roll: vec![[0.0; 3]; n],
            slots: Vec::new(),
            what: what(),
        };
        chain::run_rows(&mut encounter, Pruning::NONE, budget)?;
        Ok(AdvantageHists {
            per_encounter: encounter.per_encounter,
            tier_by_roll: encounter.tier_by_roll,
        })
    }

    /// Every path of faces and chance branches, followed one by one: the
    /// slow, obviously correct cross-check of [`AdvantageCase::exact_hists`].
    /// Only for short encounters (36^rolls x branches^rolls paths).
    pub fn brute_force_hists(&self) -> AdvantageHists<f64> {
        let n = self.rolls as usize;
        let top = (n * usize::from(self.counters)) as i64;
        let mut hists = AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, top)),
            tier_by_roll: vec![[0.0; 3]; n],
        };
        let branches = self.chance_branches();
        fn walk(
            case: &AdvantageCase,
            branches: &[(bool, bool, f64)],
            roll: usize,
            (counters, p): (Counters, f64),
            counts: [i64; COUNTS],
            hists: &mut AdvantageHists<f64>,
        ) {
            if roll == case.rolls as usize {
                for (k, &count) in counts.iter().enumerate() {
                    hists.per_encounter[k].add(count, p);
                }
                return;
            }
            let kind = case.roll_kind(roll);
            for first in 1..=6u8 {
                for second in 1..=6u8 {
                    let outcome = case.resolve_roll(counters, kind, (first, second));
                    let p_face = p / 36.0;
                    hists.tier_by_roll[roll][outcome.tier as usize] += p_face;
                    let mut counts = counts;
                    counts[outcome.tier as usize] += 1;
                    counts[USES] += i64::from(outcome.uses);
                    counts[M2S] += i64::from(outcome.miss_to_strong);
                    for (next, q) in case.chance_outcomes(outcome.counters, kind, branches) {
                        walk(case, branches, roll + 1, (next, p_face * q), counts, hists);
                    }
                }
            }
        }
        walk(self, &branches, 0, ([1; 4], 1.0), [0; COUNTS], &mut hists);
        hists
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::Metric;
    use crate::systems::advantage::{OnUse, Policy, Tier};

    fn metric(metrics: &[Metric], name: &str) -> f64 {
        crate::distribution::metric(metrics, name)
            .and_then(|m| m.value)
            .unwrap_or_else(|| panic!("no metric {name}"))
    }

    #[test]
    fn never_reproduces_plain_2d6() {
        // Published figure: 2d6 + stat, out of 36: strong, weak, miss.
        let table = [
            (0, 6, 15, 15),
            (1, 10, 16, 10),
            (2, 15, 15, 6),
            (3, 21, 12, 3),
        ];
        for (stat, strong, weak, miss) in table {
            let case = AdvantageCase {
                stat,
                policy: Policy::Never,
                ..AdvantageCase::default()
            };
            let m = case.metrics(&case.exact_hists(&mut Budget::unlimited()).unwrap());
            assert!((metric(&m, "p_strong") - f64::from(strong) / 36.0).abs() < 1e-9);
            assert!((metric(&m, "p_weak") - f64::from(weak) / 36.0).abs() < 1e-9);
            assert!((metric(&m, "p_miss") - f64::from(miss) / 36.0).abs() < 1e-9);
            assert_eq!(metric(&m, "uses_per_encounter"), 0.0);
            if stat == 0 {
                let expected = 1.0 - (5.0f64 / 6.0).powi(4);
                assert!((metric(&m, "p_encounter_strong") - expected).abs() < 1e-9);
                assert!((metric(&m, "strong_per_encounter") - 4.0 / 6.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_chain_matches_every_path_enumerated() {
        let cases = [
            AdvantageCase {
                die: 8,
                rolls: 2,
                gain_on: [1, 0, 2],
                gm_reduce_chance: 0.3,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 4,
                rolls: 3,
                policy: Policy::Threshold(3),
                on_use: OnUse::Swap,
                gain_on: [1, 1, 0],
                gain_chance: 0.7,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 6,
                rolls: 3,
                stat: -1,
                policy: Policy::Last,
                gain_chance: 1.0,
                ..AdvantageCase::default()
            },
        ];
        for case in cases {
            assert_chain_matches_brute_force(&case);
        }
    }

    #[test]
    fn the_chain_matches_every_path_for_each_variant() {
        // docs/advantage.md: two counters, a party with and without share, the
        // players' own habit; both on_use. Short enough to enumerate.
        let base = AdvantageCase {
            die: 6,
            gain_on: [1, 0, 1],
            gain_chance: 0.4,
            gm_reduce_chance: 0.3,
            ..AdvantageCase::default()
        };
        for on_use in [OnUse::Reset, OnUse::Swap] {
            let variants = [
                AdvantageCase {
                    counters: 2,
                    rolls: 2,
                    die: 4,
                    ..base.clone()
                },
                AdvantageCase {
                    counters: 2,
                    rolls: 2,
                    policy: Policy::ThresholdOrLast(4),
                    gain_chance: 1.0,
                    ..base.clone()
                },
                AdvantageCase {
                    party: 2,
                    rolls: 3,
                    policy: Policy::ThresholdOrLast(5),
                    ..base.clone()
                },
                AdvantageCase {
                    party: 3,
                    share: true,
                    rolls: 3,
                    stat: -1,
                    ..base.clone()
                },
                AdvantageCase {
                    party: 2,
                    share: true,
                    rolls: 3,
                    policy: Policy::Last,
                    die: 8,
                    ..base.clone()
                },
            ];
            for case in variants {
                assert_chain_matches_brute_force(&AdvantageCase { on_use, ..case });
            }
        }
    }

    /// The chain and the path-by-path walk give the same histograms,
    /// per-roll tiers and metrics.
    fn assert_chain_matches_brute_force(case: &AdvantageCase) {
        let chain = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let brute = case.brute_force_hists();
        for (a, b) in chain.per_encounter.iter().zip(&brute.per_encounter) {
            for count in 0..=i64::from(case.rolls) * i64::from(case.counters) {
                assert!(
                    (a.get(count) - b.get(count)).abs() < 1e-10,
                    "{case:?} {count} {} {}",
                    a.get(count),
                    b.get(count)
                );
            }
        }
        for (a, b) in chain.tier_by_roll.iter().zip(&brute.tier_by_roll) {
            for t in 0..3 {
                assert!((a[t] - b[t]).abs() < 1e-10, "{case:?}");
            }
        }
        for (a, b) in case.metrics(&chain).iter().zip(case.metrics(&brute)) {
            assert!((a.value.unwrap() - b.value.unwrap()).abs() < 1e-10);
        }
    }

    #[test]
    fn the_sampled_size_is_near_the_counted_one() {
        // Spaces past the sample: parties of 3 and 4, with and without
        // sharing, chance steps on, two counters of a d12 are only 78
        // states (built at once).
        let cases = [
            AdvantageCase {
                die: 8,
                party: 4,
                rolls: 40,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 10,
                party: 3,
                rolls: 30,
                share: true,
                ..AdvantageCase::default()
            },
            AdvantageCase {
                die: 12,
                party: 4,
                rolls: 9,
                gain_chance: 0.25,
                gm_reduce_chance: 0.5,
                ..AdvantageCase::default()
            },
        ];
        for case in &cases {
            let space = StateSpace::new(case);
            let kinds: Vec<RollKind> = (0..case.rolls as usize)
                .map(|r| case.roll_kind(r))
                .collect();
            let mut distinct: Vec<RollKind> = Vec::new();
            for kind in &kinds {
                if !distinct.contains(kind) {
                    distinct.push(*kind);
                }
            }
            let table_of: Vec<usize> = kinds
                .iter()
                .map(|k| distinct.iter().position(|d| d == k).unwrap())
                .collect();
            let estimated = case
                .estimated_cells(&space, &distinct, &table_of)
                .expect("a space past the sample");
            let tables: Vec<_> = distinct
                .iter()
                .map(|k| case.transitions(&space, *k))
                .collect();
            let counted = counted_cells(&tables, &table_of, usize::from(case.counters)) as f64;
            assert!(
                (estimated / counted - 1.0).abs() < 0.05,
                "{case:?}: estimated {estimated} against {counted} counted"
            );
        }
        let two = AdvantageCase {
            die: 12,
            counters: 2,
            rolls: 5,
            ..AdvantageCase::default()
        };
        assert_eq!(
            two.estimated_cells(&StateSpace::new(&two), &[two.roll_kind(0)], &[0]),
            None
        );
    }

    #[test]
    fn per_roll_tiers_average_to_the_shares() {
        let case = AdvantageCase {
            die: 8,
            rolls: 7,
            gain_on: [1, 0, 0],
            ..AdvantageCase::default()
        };
        let h = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let m = case.metrics(&h);
        for tier in Tier::ALL {
            let average: f64 = h.tier_by_roll.iter().map(|t| t[tier as usize]).sum::<f64>() / 7.0;
            assert!((metric(&m, &format!("p_{}", tier.name())) - average).abs() < 1e-12);
        }
        let rows = case.rows(&h);
        assert_eq!(rows.len(), 21);
        assert_eq!(rows[0].variable, "tier_roll_1");
        assert_eq!(rows[20].variable, "tier_roll_7");
        assert_eq!(rows[20].outcome, "strong");
    }
}
