//! How large a doom-pool scene's exact chain grows, counted before it runs
//! (docs/development.md, "Exact budget"), so the budget can price a long
//! scene whole and refuse it at once rather than part of the way through.
//!
//! Which doom pool a scene is in depends only on the hitches its actions
//! rolled, never on who won them (docs/cortex.md, "Doom-pool scenes"):
//! each action at a hitch level that adds a die grows the pool by that
//! level's die. So the chain's pools, and which of them it keeps, can be
//! played with each pool's chance alone: one number where the chain
//! carries a row of counts as long as the actions played, and no doom-pool
//! totals to build, a small share of the chain's work. A pool is named by
//! how many actions fell at each level that adds a die; pools are kept in
//! runs along the likeliest such level.

use rustc_hash::FxHashMap;

use super::scene::{doom_die_step, key_of, DoomKey, SceneCase};

/// Hitch levels 0 (no hitch) .. 4 (four or more).
const LEVELS: usize = 5;

/// The counts of actions at each hitch level that adds a die (index 0,
/// no hitch, unused: it is what is left of the actions).
type Cell = [u32; LEVELS];

/// The growth of a scene's doom pool: the chance of each hitch level and
/// what ends a scene.
pub(super) struct Growth<'a> {
    /// Each hitch level's chance.
    p: [f64; LEVELS],
    /// The levels that add a die and can be rolled, the rarest first; the
    /// last, the likeliest, is the one counted along an interval.
    dims: Vec<usize>,
    /// The scene, whose rules say when it ends, and its starting pool.
    case: &'a SceneCase,
    start: DoomKey,
    /// The pruning mark, and the states in play beyond which the chain
    /// prunes.
    mark: f64,
    beyond: u64,
}

/// What a chain's steps cost, the states it holds last and the pools it
/// meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ChainSize {
    /// The steps' cost, as `step_cost` priced them.
    pub steps_cost: u64,
    /// States in play before the last step.
    pub last_live: u64,
    /// Every doom pool met, the starting one with those any step reached
    /// (kept or pruned).
    pub pools_met: u64,
}

impl<'a> Growth<'a> {
    /// The growth of `case`'s doom pool, its actions rolling each hitch
    /// level with the chances `levels`, pruned below `mark` once more than
    /// `beyond` pools are in play.
    pub(super) fn new(
        levels: &[f64; LEVELS],
        case: &'a SceneCase,
        mark: f64,
        beyond: usize,
    ) -> Growth<'a> {
        let mut dims: Vec<usize> = (1..LEVELS).filter(|&l| levels[l] > 0.0).collect();
        dims.sort_by(|&a, &b| levels[a].total_cmp(&levels[b]));
        Growth {
            p: *levels,
            dims,
            case,
            start: key_of(&case.doom),
            mark,
            beyond: beyond as u64,
        }
    }

    /// The chain's size over `actions` actions: the states it steps and
    /// the pools it meets. The pools are played as the chain plays them,
    /// each with its chance alone instead of a row of counts, as runs
    /// along the likeliest level: each step moves every pool in play to
    /// what one action makes of it (the same pool, or one die more); while
    /// at most `beyond` pools are reached all stay in play, else only those
    /// at or above the mark. `step_cost(step, live)` prices a step;
    /// counting stops once the steps priced so far pass `limit` (the size
    /// is then `None`), so a scene far past the budget is not played whole.
    pub(super) fn size(
        &self,
        actions: u32,
        limit: u64,
        step_cost: impl Fn(usize, u64) -> u64,
    ) -> Option<ChainSize> {
        let Some((&inner, outer)) = self.dims.split_last() else {
            // No hitch adds a die: the one starting pool throughout.
            let steps_cost = (0..actions as usize).map(|step| step_cost(step, 1)).sum();
            return Some(ChainSize {
                steps_cost,
                last_live: 1,
                pools_met: 1,
            });
        };
        let p = self.p;
        let mut in_play: FxHashMap<Cell, Run> = FxHashMap::default();
        in_play.insert(
            [0; LEVELS],
            Run {
                lo: 0,
                chance: vec![1.0],
            },
        );
        let mut last_live = 1;
        let mut priced = step_cost(0, 1);
        let mut met: Hulls = FxHashMap::default();
        met.insert([0; LEVELS], (0, 0));
        for a in 1..=actions {
            // Where the runs reach, then what reaches them.
            let mut hulls: Hulls = FxHashMap::default();
            for (cell, run) in &in_play {
                if self.ended(cell) {
                    // The GM spent 2d12: this scene is over.
                    continue;
                }
                let (lo, hi) = run.span();
                widen(&mut hulls, *cell, a, lo, hi + 1);
                for &l in outer {
                    widen(&mut hulls, grown(cell, l), a, lo, hi);
                }
            }
            let mut reached: FxHashMap<Cell, Run> = hulls
                .iter()
                .map(|(cell, &(lo, hi))| {
                    let chance = vec![0.0; (hi - lo + 1) as usize];
                    (*cell, Run { lo, chance })
                })
                .collect();
            for (cell, run) in &in_play {
                if self.ended(cell) {
                    continue;
                }
                let to = reached.get_mut(cell).expect("a run reaches itself");
                to.add(run, 0, p[0]);
                to.add(run, 1, p[inner]);
                for &l in outer {
                    if let Some(to) = reached.get_mut(&grown(cell, l)) {
                        to.add(run, 0, p[l]);
                    }
                }
            }
            for (cell, &(lo, hi)) in &hulls {
                widen(&mut met, *cell, a, lo, hi);
            }
            let mut count: u64 = hulls.values().map(|&(lo, hi)| u64::from(hi - lo + 1)).sum();
            if count > self.beyond {
                // Pruned as the chain prunes: a pool below the mark is
                // dropped, so what it would have passed on is lost.
                let mark = self.mark;
                count = 0;
                for run in reached.values_mut() {
                    for c in run.chance.iter_mut() {
                        if *c < mark {
                            *c = 0.0;
                        } else {
                            count += 1;
                        }
                    }
                }
                reached.retain(|_, run| run.trim());
            }
            in_play = reached;
            if a < actions {
                last_live = count;
                priced = priced.saturating_add(step_cost(a as usize, count));
                if priced > limit {
                    return None;
                }
            }
        }
        Some(ChainSize {
            steps_cost: priced,
            last_live,
            pools_met: met.values().map(|&(lo, hi)| u64::from(hi - lo + 1)).sum(),
        })
    }

    /// Whether a scene in the pool `cell` grew ends there (the scene's own
    /// rule, [`SceneCase::ends`]).
    fn ended(&self, cell: &Cell) -> bool {
        let mut pool = self.start;
        for &l in &self.dims {
            pool[doom_die_step(l as u32)] += cell[l];
        }
        self.case.ends(&pool)
    }
}

/// A run of pools along the likeliest level: the other levels' counts key
/// it (that level's own left 0); it holds the chance of each count from
/// `lo` on (0: not in play).
struct Run {
    lo: u32,
    chance: Vec<f64>,
}

impl Run {
    /// The counts the run covers.
    fn span(&self) -> (u32, u32) {
        (self.lo, self.lo + self.chance.len() as u32 - 1)
    }

    /// Drops the counts out of play at either end; false if none is left.
    fn trim(&mut self) -> bool {
        let Some(first) = self.chance.iter().position(|&c| c > 0.0) else {
            return false;
        };
        let last = self.chance.iter().rposition(|&c| c > 0.0).unwrap_or(first);
        self.chance.truncate(last + 1);
        self.chance.drain(..first);
        self.lo += first as u32;
        true
    }

    /// Adds `from`'s chances, each `shift` counts further along and times
    /// `p`, to this run (which covers them).
    fn add(&mut self, from: &Run, shift: u32, p: f64) {
        let start = (from.lo + shift - self.lo) as usize;
        let end = (start + from.chance.len()).min(self.chance.len());
        for (to, &c) in self.chance[start..end].iter_mut().zip(&from.chance) {
            *to += c * p;
        }
    }
}

/// The intervals of counts runs cover, by their other levels' counts.
type Hulls = FxHashMap<Cell, (u32, u32)>;

/// The pool `cell` with one more action at level `l`.
fn grown(cell: &Cell, l: usize) -> Cell {
    let mut grown = *cell;
    grown[l] += 1;
    grown
}

/// Adds the counts `lo..=hi` at `cell` to `hulls`, as the hull with what
/// is there (runs of neighbouring pools overlap), keeping only what `a`
/// actions can have grown.
fn widen(hulls: &mut Hulls, cell: Cell, a: u32, lo: u32, hi: u32) {
    let used: u32 = cell[1..].iter().sum();
    if used > a {
        return;
    }
    let hi = hi.min(a - used);
    if lo > hi {
        return;
    }
    let run = hulls.entry(cell).or_insert((lo, hi));
    *run = (run.0.min(lo), run.1.max(hi));
}

#[cfg(test)]
mod tests {
    use crate::dice::Pool;
    use crate::engine::cost::REFUSAL_NANOS;
    use crate::engine::exact::{Budget, ExactError};
    use crate::systems::cortex::scene::SceneCase;
    use crate::systems::cortex::Rules;

    fn scene(pool: &str, doom: &str, actions: u32, end_at_2d12: bool) -> SceneCase {
        SceneCase {
            pool: Pool::parse_cortex(pool).unwrap(),
            doom: Pool::parse_cortex(doom).unwrap(),
            actions,
            rules: Rules::default(),
            end_at_2d12,
            economy: None,
        }
    }

    /// The work priced before a scene runs is the work its run then
    /// counts, within a percent (the steps agree to the state; a run's
    /// hull may hold a pool no step reached), for pools whose dice add
    /// one, two and four kinds of doom die, with and without the 2d12
    /// ending, pruned and not.
    #[test]
    fn the_counted_size_predicts_the_work() {
        for (pool, doom, actions, end) in [
            ("d10 2d8 d6", "2d6", 8, false),
            ("d10 2d8 d6", "2d6", 30, false),
            ("d10 2d8 d6", "2d6", 30, true),
            ("d10 2d8 d6", "d12", 24, true),
            ("d8 d6", "2d6", 60, false),
            ("d6", "2d6", 120, false),
            ("d12 d10 2d8 2d6", "3d8", 20, true),
            ("4d4", "2d6", 20, false),
        ] {
            let case = scene(pool, doom, actions, end);
            let mut budget = Budget::unlimited();
            case.exact_hists(&mut budget).unwrap();
            let predicted = budget.trusted_forecast().unwrap() as f64;
            let spent = budget.spent() as f64;
            assert!(
                (predicted / spent - 1.0).abs() < 0.01,
                "{pool} against {doom}, {actions} actions, ending at 2d12 {end}: \
                 {predicted} predicted, {spent} counted"
            );
        }
    }

    /// A scene the budget cannot hold is refused before the chain runs:
    /// with next to nothing spent, however long it is.
    #[test]
    fn a_scene_past_the_budget_is_refused_before_the_work() {
        for actions in [110, 400, 1000] {
            let mut budget = Budget::interactive();
            let refused = scene("d10 2d8 d6", "2d6", actions, false).exact_hists(&mut budget);
            assert!(matches!(refused, Err(ExactError::TooLarge(_))), "{actions}");
            assert!(budget.spent() < REFUSAL_NANOS / 10, "{}", budget.spent());
        }
    }
}
