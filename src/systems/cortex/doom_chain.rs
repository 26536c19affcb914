//! The exact method for doom-pool scenes (docs/cortex.md): a Markov chain
//! over the doom pool's contents, run on the chain engine
//! ([`crate::engine::chain`]). The pool only grows, by one die of four sizes
//! per action, so the states stay few; each state's chance of success is
//! computed once (memoised per doom pool) from the action's exact (total,
//! hitches) distribution ([`pool_probabilities`]) and the doom pool's exact
//! total distribution, itself built from its parent pool's by adding one
//! die through the same [`keep_top`] selection as every Cortex total.

use rustc_hash::FxHashMap;

use crate::dice::Die;
#[cfg(test)]
use crate::engine::chain::PROMISED_DROPPED_MASS;
use crate::engine::chain::{self, Pruning, RowMechanic, Rows};
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

use super::exact::pool_probabilities;
use super::rules::{held_total, keep_top, value_rank, Rank, MAX_KEEP};
use super::scene::{dice_in, doom_die_step, key_of, DoomKey, HeroicMoments, SceneCase, SceneHists};
use super::scene_size::{ChainSize, Growth};

/// Doom pools whose chance of being in play falls below this are dropped,
/// their mass reported as `dropped_mass` (as Storytelling does): a long
/// scene then follows the pools that matter instead of every pool the
/// dice could build, which grow as actions^4.
pub const PRUNE_BELOW: f64 = 1e-15;

/// Pools in play before any is dropped: a short scene keeps every pool
/// (and every row of its `final_doom` table), only long ones are pruned.
pub const PRUNE_FROM: usize = 1024;

/// Highest hitch level that matters: 4 or more hitches all add a d12.
const HITCH_LEVELS: usize = 5;

/// The `reaction_keep` highest live values of a pool, highest first: all
/// a total needs. Unlike the action's state it ignores die sizes
/// ([`value_rank`]), so dice may be added in any order, and a grown doom
/// pool's distribution is its parent's with one more die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct TopValues {
    held: [Rank; MAX_KEEP],
}

impl TopValues {
    const EMPTY: TopValues = TopValues {
        held: [0; MAX_KEEP],
    };

    fn push(mut self, keep: usize, face: u8) -> TopValues {
        keep_top(&mut self.held[..keep], value_rank(face));
        self
    }

    fn total(&self) -> u32 {
        held_total(&self.held)
    }
}

/// Every [`TopValues`] a doom pool can reach, numbered, with the state each
/// face leads to: adding a die is then a dense vector update, with no
/// hashing in the inner loop (78 states when the GM sums two dice).
struct TopTable {
    /// `next[state][face]`, faces 1..=12 (index 0 unused).
    next: Vec<[u32; 13]>,
    total: Vec<u32>,
}

impl TopTable {
    fn new(keep: usize) -> TopTable {
        let mut states = vec![TopValues::EMPTY];
        let mut index: FxHashMap<TopValues, u32> = FxHashMap::default();
        index.insert(TopValues::EMPTY, 0);
        let mut next = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let mut row = [0u32; 13];
            for face in 1..=12u8 {
                let to = states[i].push(keep, face);
                let id = *index.entry(to).or_insert_with(|| {
                    states.push(to);
                    (states.len() - 1) as u32
                });
                row[face as usize] = id;
            }
            next.push(row);
            i += 1;
        }
        let total = states.iter().map(TopValues::total).collect();
        TopTable { next, total }
    }

    fn len(&self) -> usize {
        self.total.len()
    }

    /// The distribution after one more die with `sides` faces.
    fn add_die(&self, dist: &[f64], sides: u32) -> Vec<f64> {
        let p_face = 1.0 / f64::from(sides);
        let mut out = vec![0.0; dist.len()];
        for (state, &p) in dist.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let row = &self.next[state];
            let q = p * p_face;
            for &to in &row[1..=sides as usize] {
                out[to as usize] += q;
            }
        }
        out
    }
}

/// The doom pools the chain has met, numbered in the order met.
struct DoomPools<'a> {
    case: &'a SceneCase,
    table: TopTable,
    /// The action's (total, hitch level) distribution.
    action: Vec<((u32, usize), f64)>,
    /// The action's hitch level distribution (0 .. 4 or more).
    hitch_levels: [f64; HITCH_LEVELS],
    keys: Vec<DoomKey>,
    index: FxHashMap<DoomKey, u32>,
    /// Per pool and hitch level: [P(level and success), P(level and heroic)].
    joint: Vec<[[f64; 2]; HITCH_LEVELS]>,
    /// Per pool, the pool each hitch level leads to (`u32::MAX`: not yet met).
    children: Vec<[u32; HITCH_LEVELS]>,
    /// Top-values distributions of the pools whose children are not known
    /// yet; each is dropped once they are (all at once, the first time the
    /// pool is played), so memory follows the newest pools only.
    tops: FxHashMap<u32, Vec<f64>>,
}

impl<'a> DoomPools<'a> {
    fn new(case: &'a SceneCase, budget: &mut Budget) -> Result<DoomPools<'a>, ExactError> {
        let outcomes = pool_probabilities(
            &case.pool,
            case.rules.keep,
            (HITCH_LEVELS - 1) as u32,
            budget,
        )?;
        let mut joint: FxHashMap<(u32, usize), f64> = FxHashMap::default();
        let mut hitch_levels = [0.0; HITCH_LEVELS];
        for &((total, _effect, hitches), p) in &outcomes {
            let level = hitches as usize;
            *joint.entry((total, level)).or_insert(0.0) += p;
            hitch_levels[level] += p;
        }
        let mut action: Vec<_> = joint.into_iter().collect();
        action.sort_by_key(|a| a.0);
        let mut pools = DoomPools {
            case,
            table: TopTable::new(case.rules.reaction_keep),
            action,
            hitch_levels,
            keys: Vec::new(),
            index: FxHashMap::default(),
            joint: Vec::new(),
            children: Vec::new(),
            tops: FxHashMap::default(),
        };
        // The starting pool from nothing, one die at a time.
        let mut dist = vec![0.0; pools.table.len()];
        dist[0] = 1.0;
        for die in case.doom.dice() {
            pools.spend_die(budget, &|| format!("the doom pool {}", case.doom))?;
            dist = pools.table.add_die(&dist, die.sides());
        }
        pools.insert(key_of(&case.doom), dist, budget)?;
        Ok(pools)
    }

    fn spend_die(&self, budget: &mut Budget, what: &dyn Fn() -> String) -> Result<(), ExactError> {
        budget.spend(Work::DoomTableCell.cost(self.die_units()), what)
    }

    /// The table cells adding a die to a pool's top values moves.
    fn die_units(&self) -> u64 {
        self.table.len() as u64 * 12
    }

    /// The cells [`DoomPools::insert`] reads to tally a new pool's chances.
    fn insert_units(&self) -> u64 {
        (self.table.len() + self.action.len()) as u64
    }

    /// What a scene that runs out of budget while meeting pools is refused as.
    fn scene_limit(&self) -> String {
        format!(
            "a scene of {} actions (the doom pools it reaches above {PRUNE_BELOW:e}: {} met so far)",
            self.case.actions,
            self.keys.len()
        )
    }

    /// Records a pool met for the first time, with its chances of success.
    fn insert(
        &mut self,
        key: DoomKey,
        dist: Vec<f64>,
        budget: &mut Budget,
    ) -> Result<u32, ExactError> {
        debug_assert_eq!(dist.len(), self.table.len());
        budget.spend(Work::DoomTableCell.cost(self.insert_units()), &|| {
            self.scene_limit()
        })?;
        let max_total = MAX_KEEP * 12;
        // below[t] = P(doom total < t).
        let mut density = vec![0.0; max_total + 1];
        for (state, &p) in dist.iter().enumerate() {
            density[self.table.total[state] as usize] += p;
        }
        let mut below = vec![0.0; max_total + 2];
        for t in 0..=max_total {
            below[t + 1] = below[t] + density[t];
        }
        let at_most = |t: i64| -> f64 {
            if t < 0 {
                0.0
            } else {
                below[(t as usize + 1).min(max_total + 1)]
            }
        };
        let mut joint = [[0.0; 2]; HITCH_LEVELS];
        for &((total, level), p) in &self.action {
            // The highest doom totals this action still beats, and beats
            // heroically, by the rules' least such margins.
            let rules = &self.case.rules;
            let win_up_to = i64::from(total) - rules.least_succeeding_margin();
            let heroic_up_to = i64::from(total) - rules.least_heroic_margin();
            joint[level][0] += p * at_most(win_up_to);
            joint[level][1] += p * at_most(heroic_up_to);
        }
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.index.insert(key, id);
        self.joint.push(joint);
        let mut children = [u32::MAX; HITCH_LEVELS];
        children[0] = id;
        self.children.push(children);
        self.tops.insert(id, dist);
        Ok(id)
    }

    /// The pool that `id` becomes after an action with this hitch level.
    fn child(&mut self, id: u32, level: usize, budget: &mut Budget) -> Result<u32, ExactError> {
        let known = self.children[id as usize][level];
        if known != u32::MAX {
            return Ok(known);
        }
        let step = doom_die_step(level as u32);
        let mut key = self.keys[id as usize];
        key[step] += 1;
        let child = match self.index.get(&key) {
            Some(&child) => child,
            None => {
                self.spend_die(budget, &|| self.scene_limit())?;
                let sides = Die::from_step(step as u32)
                    .expect("a doom die is d4..d12")
                    .sides();
                let dist = self.table.add_die(&self.tops[&id], sides);
                self.insert(key, dist, budget)?
            }
        };
        self.children[id as usize][level] = child;
        Ok(child)
    }
}

/// Scenes of up to this many actions count heroic successes cell by cell
/// in every pool's row; longer ones carry only the two sums their mean and
/// variance need ([`HeroicMoments`]), which halves the rows of a long
/// scene. The two agree to rounding; the cut keeps the short scenes of the
/// bundled reports on the sums they were computed with, to the last bit.
pub const HEROIC_COUNTS_UP_TO: u32 = 12;

/// The scene as a chain ([`crate::engine::chain`]): the state is the doom
/// pool (its number in [`DoomPools`]), a step is one action, and a scene
/// ends early when the GM spends 2d12, or else in the pool it finishes with.
/// A pool's row holds, for scenes in it, the chance of each count of
/// successes so far (`action + 1` numbers before `action`) and then the
/// heroic successes: the chance of each count likewise, or in a long scene
/// ([`HEROIC_COUNTS_UP_TO`]) their first and second moments (two numbers).
struct Scene<'a> {
    pools: DoomPools<'a>,
    /// The hitch levels the action can roll.
    levels: Vec<usize>,
    /// Dice in the starting doom pool.
    start: u64,
    /// Whether heroic successes are carried by moments.
    moments: bool,
    hists: SceneHists<f64>,
}

impl Scene<'_> {
    /// The numbers of a row given to the heroic successes before `action`.
    fn heroic_cells(&self, action: usize) -> usize {
        if self.moments {
            2
        } else {
            action + 1
        }
    }

    /// The success counts of a row `len` numbers long.
    fn success_cells(&self, len: usize) -> usize {
        if self.moments {
            len - 2
        } else {
            len / 2
        }
    }
}

impl Scene<'_> {
    /// Counts the chain's states before it runs ([`Growth`]) and refuses
    /// the scene at once if they would cost more than is left of `budget`:
    /// a long scene is then refused in milliseconds instead of after most
    /// of its budget (docs/development.md, "Exact budget").
    fn refuse_if_predicted_past(
        &self,
        pruning: Pruning,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let case = self.pools.case;
        let growth = Growth::new(
            &self.pools.hitch_levels,
            case,
            pruning.below,
            pruning.beyond,
        );
        let levels = self.levels.len();
        let step_nanos = |step: usize, live: u64| {
            Work::SceneCell.nanos(scene_step_units(live, levels, self.width(step + 1)))
        };
        let remaining = budget.remaining();
        let refused = |size: Option<&ChainSize>| {
            ExactError::TooLarge(match size.map(|s| s.last_live) {
                Some(live) => format!(
                    "a scene of {} actions (its doom pools, counted before the work: {live} each more likely than {PRUNE_BELOW:e} by its last action)",
                    case.actions
                ),
                None => format!(
                    "a scene of {} actions (its doom pools, counted before the work, pass the budget part of the way in)",
                    case.actions
                ),
            })
        };
        let Some(size) = growth.size(case.actions, remaining, step_nanos) else {
            return Err(refused(None));
        };
        let per_pool = self.pools.die_units() + self.pools.insert_units();
        let pools = Work::DoomTableCell.nanos(size.pools_met.saturating_mul(per_pool));
        let predicted = size.steps_cost.saturating_add(pools);
        // Noted as the whole case's work, what it has spent included.
        budget.note_forecast(budget.spent().saturating_add(predicted));
        if predicted > remaining {
            return Err(refused(Some(&size)));
        }
        Ok(())
    }
}

/// The budget's nanoseconds that stepping `live` doom pools through an
/// action costs, each with `levels` hitch levels to move by and rows of
/// `cells` numbers: each cell is two multiply-adds per level in one fused
/// pass, priced as [`Work::SceneCell`] (docs/development.md, "Exact budget").
pub fn scene_step_cost(live: usize, levels: usize, cells: usize) -> u64 {
    Work::SceneCell.cost(scene_step_units(live as u64, levels, cells))
}

/// The [`Work::SceneCell`] units of [`scene_step_cost`].
fn scene_step_units(live: u64, levels: usize, cells: usize) -> u64 {
    live * levels as u64 * cells as u64
}

impl RowMechanic for Scene<'_> {
    /// The doom pool the scene ended with, and whether the GM ended it.
    type Outcome = (DoomKey, bool);

    fn steps(&self) -> usize {
        self.pools.case.actions as usize
    }

    fn width(&self, action: usize) -> usize {
        action + 1 + self.heroic_cells(action)
    }

    fn initial(&mut self, start: &mut Rows<(DoomKey, bool)>) {
        if self.moments {
            // One scene of chance 1 with no heroic success yet.
            start.to(0).copy_from_slice(&[1.0, 0.0, 0.0]);
        } else {
            start.to(0).copy_from_slice(&[1.0, 1.0]);
        }
    }

    fn work(&self, action: usize, live: usize) -> u64 {
        scene_step_cost(live, self.levels.len(), self.width(action + 1))
    }

    fn too_large(&self, action: usize, live: usize) -> String {
        format!(
            "a scene of {} actions (by action {}, {live} doom pools are each more likely than {PRUNE_BELOW:e})",
            self.pools.case.actions,
            action + 1,
        )
    }

    /// The chance of the pool: its success counts' sum.
    fn total(&self, row: &[f64]) -> f64 {
        row[..self.success_cells(row.len())].iter().sum()
    }

    fn next(
        &mut self,
        action: usize,
        id: u32,
        row: &[f64],
        next: &mut Rows<(DoomKey, bool)>,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let key = self.pools.keys[id as usize];
        if self.pools.case.ends(&key) {
            // The GM spends 2d12: this and every later action does not
            // happen, and counts as not succeeding (docs/cortex.md).
            next.absorb((key, true), row);
            self.pools.tops.remove(&id);
            return Ok(());
        }
        let mass = self.total(row);
        let Scene {
            pools,
            levels,
            hists,
            moments,
            ..
        } = self;
        let (successes, heroics) = row.split_at(action + 1);
        let joint = pools.joint[id as usize];
        for &level in levels.iter() {
            let child = pools.child(id, level, budget)?;
            let p_level = pools.hitch_levels[level];
            let [p_success, p_heroic] = joint[level];
            hists.success_by_action[action] += mass * p_success;
            let (to_successes, to_heroics) = next.to(child).split_at_mut(action + 2);
            count_into(to_successes, successes, p_success, p_level);
            if *moments {
                moments_into(to_heroics, heroics, mass, p_heroic, p_level);
            } else {
                count_into(to_heroics, heroics, p_heroic, p_level);
            }
        }
        // Every pool this one can become is now known.
        pools.tops.remove(&id);
        Ok(())
    }

    fn final_outcome(&self, id: u32) -> (DoomKey, bool) {
        (self.pools.keys[id as usize], false)
    }

    /// Adds the scenes that end in a pool to the tallies.
    fn absorb(&mut self, (key, ended): (DoomKey, bool), row: &[f64]) {
        let (successes, heroics) = row.split_at(self.success_cells(row.len()));
        let hists = &mut self.hists;
        let mut mass = 0.0;
        for (c, &s) in successes.iter().enumerate() {
            hists.successes.add(c as i64, s);
            mass += s;
        }
        match hists.heroic_moments.as_mut() {
            Some(moments) => {
                moments.mass += mass;
                moments.first += heroics[0];
                moments.second += heroics[1];
            }
            None => {
                for (c, &h) in heroics.iter().enumerate() {
                    hists.heroics.add(c as i64, h);
                }
            }
        }
        hists
            .plot_points
            .add((dice_in(&key) - self.start) as i64, mass);
        if ended {
            hists.ended += mass;
        } else {
            *hists.final_doom.entry(key).or_insert(0.0) += mass;
            hists.final_dice.add(dice_in(&key) as i64, mass);
        }
    }
}

/// Adds the counts `from` after one action at this hitch level to `to`
/// (one longer): a count grows by one with chance `p_more`, stays with the
/// rest of `p_level`. Each cell takes the count below's share, then its
/// own: the order of sums of two passes (every share of the count below,
/// then every own share), in one pass over the cells, which halves the
/// memory a long scene's step moves. The economy's chain moves its counts
/// with it too.
pub(super) fn count_into(to: &mut [f64], from: &[f64], p_more: f64, p_level: f64) {
    let p_same = p_level - p_more;
    let n = from.len();
    let to = &mut to[..n + 1];
    to[0] += from[0] * p_same;
    for (cell, pair) in to[1..n].iter_mut().zip(from.windows(2)) {
        *cell = *cell + pair[0] * p_more + pair[1] * p_same;
    }
    to[n] += from[n - 1] * p_more;
}

/// Adds the moments `from` (sum p c, sum p c^2 over scenes of chance
/// `mass`) after a move of chance `p_level` to `to`: the count grows by
/// one with chance `p_more` (a heroic success, a doom die spent), so c^2
/// becomes c^2 + 2c + 1, and stays with the rest.
pub(super) fn moments_into(to: &mut [f64], from: &[f64], mass: f64, p_more: f64, p_level: f64) {
    let (first, second) = (from[0], from[1]);
    to[0] += first * p_level + mass * p_more;
    to[1] += second * p_level + (2.0 * first + mass) * p_more;
}

impl SceneCase {
    /// The exact tallies: the chain over doom pools, one action at a time,
    /// tracking success and heroic-success counts alongside. Once more
    /// than [`PRUNE_FROM`] pools are in play, pools less likely than
    /// [`PRUNE_BELOW`] are dropped and their mass tallied. The work is
    /// spent action by action, so a scene is refused as soon as the pools
    /// it keeps in play pass the budget; the count vectors grow with the
    /// actions played, so memory follows the budget too.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<SceneHists<f64>, ExactError> {
        self.exact_hists_pruned(Pruning::below(PRUNE_BELOW, PRUNE_FROM), budget)
    }

    /// [`SceneCase::exact_hists`] with another pruning (a test holds the
    /// pruned chain to the unpruned one).
    pub(crate) fn exact_hists_pruned(
        &self,
        pruning: Pruning,
        budget: &mut Budget,
    ) -> Result<SceneHists<f64>, ExactError> {
        self.exact_hists_with(pruning, self.actions > HEROIC_COUNTS_UP_TO, budget)
    }

    /// The chain, heroic successes by `moments` or count by count.
    fn exact_hists_with(
        &self,
        pruning: Pruning,
        moments: bool,
        budget: &mut Budget,
    ) -> Result<SceneHists<f64>, ExactError> {
        let pools = DoomPools::new(self, budget)?;
        let levels: Vec<usize> = (0..HITCH_LEVELS)
            .filter(|&l| pools.hitch_levels[l] > 0.0)
            .collect();
        let mut hists = SceneHists::new(self.actions);
        if moments {
            hists.heroic_moments = Some(HeroicMoments::default());
        }
        let mut scene = Scene {
            pools,
            levels,
            start: dice_in(&key_of(&self.doom)),
            moments,
            hists,
        };
        scene.refuse_if_predicted_past(pruning, budget)?;
        // A dropped pool keeps its top values: a likelier path may reach it
        // again.
        let run = chain::run_rows(&mut scene, pruning, budget)?;
        scene.hists.dropped = run.dropped;
        Ok(scene.hists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Pool;
    use crate::distribution::Spread;

    #[test]
    fn grown_doom_totals_match_the_cortex_engine() {
        // The doom pool's totals, grown die by die in the order the chain
        // adds them, against the cortex programme on the finished pool.
        for keep in [1, 2, 3] {
            let table = TopTable::new(keep);
            let mut dist = vec![0.0; table.len()];
            dist[0] = 1.0;
            for die in [Die::D6, Die::D4, Die::D12, Die::D6, Die::D10, Die::D8] {
                dist = table.add_die(&dist, die.sides());
            }
            let pool = Pool::parse_cortex("d12 d10 d8 2d6 d4").unwrap();
            let reference = pool_probabilities(&pool, keep, 0, &mut Budget::unlimited()).unwrap();
            let mut want = [0.0; 40];
            for ((total, _, _), p) in reference {
                want[total as usize] += p;
            }
            let mut got = [0.0; 40];
            for (state, p) in dist.iter().enumerate() {
                got[table.total[state] as usize] += p;
            }
            for (a, b) in got.iter().zip(&want) {
                assert!((a - b).abs() < 1e-12);
            }
        }
        // Two summed dice: the empty state, 11 singles, 66 pairs.
        assert_eq!(TopTable::new(2).len(), 78);
    }

    fn long_scene(actions: u32) -> SceneCase {
        SceneCase {
            pool: Pool::parse_cortex("d10 2d8 d6").unwrap(),
            doom: Pool::parse_cortex("2d6").unwrap(),
            actions,
            rules: crate::systems::cortex::Rules::default(),
            end_at_2d12: false,
            economy: None,
        }
    }

    /// Every probability of the pruned chain within the mass it dropped of
    /// the unpruned chain's, every mean within that mass times the most the
    /// count can be (the dropped scenes could have had any count).
    #[test]
    fn a_pruned_scene_stays_within_its_dropped_mass_of_the_whole_chain() {
        let case = long_scene(20);
        let whole = case
            .exact_hists_pruned(Pruning::NONE, &mut Budget::unlimited())
            .unwrap();
        assert_eq!(whole.dropped, 0.0);
        // Pruned hard, so it drops something measurable.
        let pruned = case
            .exact_hists_pruned(Pruning::below(1e-9, 64), &mut Budget::unlimited())
            .unwrap();
        let dropped = pruned.dropped;
        assert!(dropped > 1e-12 && dropped < 1e-6, "dropped {dropped:e}");
        let (a, b) = (case.metrics(&whole), case.metrics(&pruned));
        // Counts here are at most the actions played plus the starting pool.
        let most = f64::from(case.actions + 2);
        for (x, y) in a.iter().zip(&b) {
            let (name, x, y) = (&x.name, x.value.unwrap(), y.value.unwrap());
            if name.starts_with("p_") {
                // A probability only loses the scenes dropped.
                assert!(
                    y <= x + 1e-12 && x - y <= dropped + 1e-12,
                    "{name}: {x} against {y}"
                );
            } else {
                // A mean over what is left moves by at most the dropped share
                // of the largest count, either way.
                let slack = 2.0 * dropped * most / (1.0 - dropped) + 1e-12;
                assert!((x - y).abs() <= slack, "{name}: {x} against {y}");
            }
        }
        // The pruned chain loses mass, never gains it.
        let total: f64 = pruned.successes.iter().map(|(_, p)| p).sum();
        assert!((total + dropped - 1.0).abs() < 1e-12);
        assert!(pruned.final_doom.len() < whole.final_doom.len());
    }

    /// Heroic successes by moments give the mean and variance that the
    /// count by count gives.
    #[test]
    fn heroic_moments_match_the_counts() {
        let case = long_scene(16);
        let run = |moments| {
            let h = case
                .exact_hists_with(Pruning::NONE, moments, &mut Budget::unlimited())
                .unwrap();
            case.metrics(&h)
                .into_iter()
                .find(|m| m.name == "mean_heroic_successes")
                .unwrap()
        };
        let (counts, moments) = (run(false), run(true));
        let (Spread::Mean { variance: v1, .. }, Spread::Mean { variance: v2, .. }) =
            (counts.spread, moments.spread)
        else {
            panic!("means carry a variance");
        };
        assert!((counts.value.unwrap() - moments.value.unwrap()).abs() < 1e-9);
        assert!((v1 - v2).abs() < 1e-9 && v1 > 0.1);
    }

    /// The long scenes of docs/cortex.md drop less than the docs promise
    /// (and the stderr warning's level): 60 actions of `d10 2d8 d6`.
    #[test]
    fn a_60_action_scene_drops_less_than_the_promised_mass() {
        let h = long_scene(60)
            .exact_hists(&mut Budget::interactive())
            .unwrap();
        assert!(h.dropped > 0.0 && h.dropped < PROMISED_DROPPED_MASS);
        assert!(h.heroic_moments.is_some());
    }
}
