//! The exact method for a scene with its economy (docs/cortex.md, "The
//! scene's economy"): a chain on the chain engine's flat rows
//! ([`crate::engine::chain::run_rows`]) whose state is the doom pool, the
//! plot points the hero holds and whether the GM has spent yet, one step an
//! action, each step the seven steps of [`super::rules`].
//!
//! Each (doom pool, hero's preparation) pair is worked out once
//! ([`super::pools`]): the hero's exact (total, hitch level, spent on the
//! total) distribution for the preparation's pool against the doom pool's
//! exact (reaction total, value the GM can add, die that shows it)
//! distribution gives the chance of each (hitch level, spend) with success,
//! heroic success and each doom die the GM spends. The row of every state
//! carries the chance of each count so far of successes and of plot points
//! spent (the successes and the points earned are distributions the scene
//! reports; the points earned are those held, less those the scene started
//! with, plus those spent), and of heroic successes and doom dice spent,
//! count by count in a short scene and by their first two moments in a
//! long one (only their means and variances are reported), so every mean
//! comes with its exact variance. A long
//! scene drops, as the plain scene does, the states less likely than
//! [`PRUNE_BELOW`] once more than [`PRUNE_FROM`] are in play, and reports
//! their mass (docs/cortex.md, "Long scenes").

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::engine::chain::{self, Pruning, RowMechanic, Rows};
use crate::engine::cost::{Forecast, Work};
use crate::engine::exact::{Budget, ExactError};

use super::super::doom_chain::{
    count_into, moments_into, HEROIC_COUNTS_UP_TO, PRUNE_BELOW, PRUNE_FROM,
};
use super::super::keys::GmSpend;
use super::super::scene::{dice_in, key_of, HeroicMoments, SceneCase, SceneHists};
use super::pools::{DoomPools, HeroOutcomes, HITCH_LEVELS};
use super::rules::Preparation;
use super::{Economy, EconomyHists, EconomyTally};

/// The share of an economy scene after which its forecast may refuse.
const ECONOMY_TRUSTED_SHARE: f64 = 0.5;

/// One (hitch level, spend on the total) of an action from a state: its
/// chance, and within it success, heroic success and each doom die spent.
#[derive(Debug, Clone, Copy)]
struct Transition {
    level: usize,
    spent: bool,
    p: f64,
    success: f64,
    heroic: f64,
    gm: [f64; 5],
}

/// One way an action moves a state's row into the row of the state it
/// leads to, in the order the chain makes them: what the hero did not lose
/// to the GM's spend (`gm == false`: chance `p`, of it `success` and
/// `heroic` succeeding), or a doom die the GM spent (`gm`: chance `p`).
#[derive(Debug, Clone, Copy)]
struct Move {
    to: u32,
    /// Plot points spent (at most one an action).
    spent: u8,
    gm: bool,
    p: f64,
    success: f64,
    heroic: f64,
}

/// What an action does from a state, worked out the first time the state
/// is played: its transitions (for the chance of success) and its moves.
struct Moves {
    transitions: Rc<Vec<Transition>>,
    moves: Vec<Move>,
}

/// A state of the chain: the doom pool (its number), the plot points held
/// and whether the GM has spent a doom die yet. The chain numbers them in
/// the order met and steps them in this order ([`Play::rank`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Play {
    pool: u32,
    held: u32,
    gm_spent: bool,
}

impl Play {
    /// The order of (pool, held, spent): the order the chain on the general
    /// engine stepped its states in, so a short scene's sums are the ones
    /// the bundled reports were computed with, to the last bit.
    fn rank(&self) -> u64 {
        (u64::from(self.pool) << 33) | (u64::from(self.held) << 1) | u64::from(self.gm_spent)
    }
}

/// Where a row's numbers sit. Before action `a` (`n = a + 1` counts, 0 to
/// `a`) a row holds the chance of each count of successes (`n` numbers),
/// of plot points spent (`n`: at most one an action; the points earned,
/// up to two an action, follow from them and the points the state holds,
/// and counted themselves would take `2n - 1`), then of heroic successes
/// and of doom dice spent: `n` numbers each when counted. A long
/// scene carries those two by moments (two numbers each, the
/// chance-weighted sums of the count and of its square), and with them
/// whether the GM has spent as one more number, the chance that it has,
/// instead of in the state: the two states of a pool and plot points held
/// that differ only there play alike, so they merge, halving the states.
#[derive(Debug, Clone, Copy)]
struct Layout {
    moments: bool,
}

/// A row cut into its parts (`gm_spent` empty when counted).
struct Parts<T> {
    successes: T,
    spent: T,
    heroics: T,
    doom_spent: T,
    gm_spent: T,
}

impl Layout {
    /// The numbers of a row before action `a`.
    fn width(&self, a: usize) -> usize {
        let n = a + 1;
        if self.moments {
            2 * n + 5
        } else {
            4 * n
        }
    }

    /// The counts a row of `len` numbers holds (`n` above).
    fn counts(&self, len: usize) -> usize {
        if self.moments {
            (len - 5) / 2
        } else {
            len / 4
        }
    }

    /// The ends of the parts of a row holding `n` counts.
    fn cuts(&self, n: usize) -> [usize; 4] {
        let spent = 2 * n;
        if self.moments {
            [n, spent, spent + 2, spent + 4]
        } else {
            [n, spent, spent + n, spent + 2 * n]
        }
    }

    fn split<'r>(&self, row: &'r [f64]) -> Parts<&'r [f64]> {
        let [a, b, c, d] = self.cuts(self.counts(row.len()));
        let (successes, rest) = row.split_at(a);
        let (spent, rest) = rest.split_at(b - a);
        let (heroics, rest) = rest.split_at(c - b);
        let (doom_spent, gm_spent) = rest.split_at(d - c);
        Parts {
            successes,
            spent,
            heroics,
            doom_spent,
            gm_spent,
        }
    }

    fn split_mut<'r>(&self, row: &'r mut [f64]) -> Parts<&'r mut [f64]> {
        let [a, b, c, d] = self.cuts(self.counts(row.len()));
        let (successes, rest) = row.split_at_mut(a);
        let (spent, rest) = rest.split_at_mut(b - a);
        let (heroics, rest) = rest.split_at_mut(c - b);
        let (doom_spent, gm_spent) = rest.split_at_mut(d - c);
        Parts {
            successes,
            spent,
            heroics,
            doom_spent,
            gm_spent,
        }
    }
}

/// How a play ends: its state, and whether the GM ended the scene.
type Ending = (Play, bool);

struct Scene<'a> {
    case: &'a SceneCase,
    economy: &'a Economy,
    layout: Layout,
    pools: DoomPools,
    heroes: FxHashMap<Preparation, Rc<HeroOutcomes>>,
    transitions: FxHashMap<(u32, Preparation), Rc<Vec<Transition>>>,
    /// Every state met, by number, and the number of each.
    plays: Vec<Play>,
    play_ids: FxHashMap<Play, u32>,
    /// By state number, its moves once played (a state is played at most
    /// once an action, and most are played in several).
    moves: Vec<Option<Rc<Moves>>>,
    tally: EconomyTally<f64>,
}

impl Scene<'_> {
    fn transitions(
        &mut self,
        pool: u32,
        prep: Preparation,
        budget: &mut Budget,
    ) -> Result<Rc<Vec<Transition>>, ExactError> {
        if let Some(t) = self.transitions.get(&(pool, prep)) {
            return Ok(t.clone());
        }
        let hero = match self.heroes.get(&prep) {
            Some(h) => h.clone(),
            None => {
                let h = Rc::new(HeroOutcomes::new(self.case, self.economy, prep, budget)?);
                self.heroes.insert(prep, h.clone());
                h
            }
        };
        let reactions = self.pools.reactions[pool as usize].clone();
        budget.spend(
            Work::OutcomePair.cost((hero.combos.len() * reactions.len()) as u64),
            &|| self.too_large_text(),
        )?;
        let rules = &self.case.rules;
        let least = rules.least_succeeding_margin() as u32;
        let heroic_least = rules.least_heroic_margin() as u32;
        let gm = self.economy.gm_spend == GmSpend::ToWin;
        let mut out = Vec::with_capacity(hero.combos.len());
        for combo in &hero.combos {
            let mut t = Transition {
                level: combo.level,
                spent: combo.spent,
                p: combo.p,
                success: 0.0,
                heroic: 0.0,
                gm: [0.0; 5],
            };
            for &(reaction, q) in reactions.iter() {
                let wins = combo.at_least(reaction.total + least);
                match reaction.added.filter(|_| gm) {
                    // The GM spends exactly when the action wins against the
                    // reaction but not against it with the added value.
                    Some((value, step)) => {
                        let holds = combo.at_least(reaction.total + value + least);
                        t.success += q * holds;
                        t.gm[usize::from(step)] += q * (wins - holds);
                        let heroic =
                            (reaction.total + heroic_least).max(reaction.total + value + least);
                        t.heroic += q * combo.at_least(heroic);
                    }
                    None => {
                        t.success += q * wins;
                        t.heroic += q * combo.at_least(reaction.total + heroic_least);
                    }
                }
            }
            out.push(t);
        }
        let out = Rc::new(out);
        self.transitions.insert((pool, prep), out.clone());
        Ok(out)
    }

    fn too_large_text(&self) -> String {
        format!(
            "a scene of {} actions with its economy (the doom pools it reaches above {PRUNE_BELOW:e}: {} met so far)",
            self.case.actions,
            self.pools.keys.len()
        )
    }

    /// The number of `play`, met now if not before.
    fn play_id(&mut self, play: Play) -> u32 {
        let plays = &mut self.plays;
        let moves = &mut self.moves;
        *self.play_ids.entry(play).or_insert_with(|| {
            plays.push(play);
            moves.push(None);
            (plays.len() - 1) as u32
        })
    }

    /// The moves of state `id` (not one the GM ends), worked out once.
    fn moves(&mut self, id: u32, budget: &mut Budget) -> Result<Rc<Moves>, ExactError> {
        if let Some(moves) = &self.moves[id as usize] {
            return Ok(moves.clone());
        }
        let play = self.plays[id as usize];
        let prep = self.economy.prepare(play.held);
        let transitions = self.transitions(play.pool, prep, budget)?;
        let mut moves = Vec::new();
        for t in transitions.iter() {
            if t.p == 0.0 {
                continue;
            }
            let settled = self
                .economy
                .settle(play.held, prep, t.spent, t.level as u32);
            debug_assert!(settled.spent <= 1, "one point an action at most");
            let spent = settled.spent as u8;
            let spent_doom: f64 = t.gm.iter().sum();
            let kept = t.p - spent_doom;
            if kept > 0.0 {
                let child = self.pools.child(play.pool, None, t.level, budget)?;
                let to = self.play_id(Play {
                    pool: child,
                    held: settled.held,
                    gm_spent: play.gm_spent,
                });
                moves.push(Move {
                    to,
                    spent,
                    gm: false,
                    p: kept,
                    success: t.success,
                    heroic: t.heroic,
                });
            }
            for (step, &g) in t.gm.iter().enumerate() {
                if g <= 0.0 {
                    continue;
                }
                let child = self
                    .pools
                    .child(play.pool, Some(step as u8), t.level, budget)?;
                let to = self.play_id(Play {
                    pool: child,
                    held: settled.held,
                    // A long scene's row carries it.
                    gm_spent: !self.layout.moments,
                });
                moves.push(Move {
                    to,
                    spent,
                    gm: true,
                    p: g,
                    success: 0.0,
                    heroic: 0.0,
                });
            }
        }
        let moves = Rc::new(Moves { transitions, moves });
        self.moves[id as usize] = Some(moves.clone());
        Ok(moves)
    }
}

/// Adds the counts `from` after a move of chance `p` that adds `by` to
/// every count.
fn shift_into(to: &mut [f64], from: &[f64], by: usize, p: f64) {
    for (cell, &f) in to[by..by + from.len()].iter_mut().zip(from) {
        *cell += f * p;
    }
}

impl RowMechanic for Scene<'_> {
    type Outcome = Ending;

    fn steps(&self) -> usize {
        self.case.actions as usize
    }

    fn width(&self, action: usize) -> usize {
        self.layout.width(action)
    }

    fn initial(&mut self, start: &mut Rows<Ending>) {
        let play = Play {
            pool: 0,
            held: self.economy.start_plot_points,
            gm_spent: false,
        };
        let id = self.play_id(play);
        let row = start.to(id);
        // One scene of chance 1 with every count at 0.
        if self.layout.moments {
            row[..2].copy_from_slice(&[1.0, 1.0]);
        } else {
            row.fill(1.0);
        }
    }

    fn work(&self, action: usize, live: usize) -> u64 {
        Work::EconomyCell
            .cost(live as u64 * 2 * HITCH_LEVELS as u64 * self.layout.width(action + 1) as u64)
    }

    fn too_large(&self, action: usize, live: usize) -> String {
        format!(
            "a scene of {} actions with its economy (by action {}, {live} states are each more likely than {PRUNE_BELOW:e})",
            self.case.actions,
            action + 1,
        )
    }

    /// The chance of the state: its success counts' sum.
    fn total(&self, row: &[f64]) -> f64 {
        self.layout.split(row).successes.iter().sum()
    }

    fn rank(&self, state: u32) -> u64 {
        self.plays[state as usize].rank()
    }

    /// The economy's growth slows for longer than a scene's (its doom pools
    /// and plot points spread out first, then settle): a power law read a
    /// quarter of the way in runs up to two and a half times past the work
    /// to come, half-way in 1.6 times (docs/development.md, "Exact
    /// budget"), so its forecast is trusted from half-way.
    fn forecast(&self, forecast: Forecast) -> Forecast {
        forecast.trusted_from(ECONOMY_TRUSTED_SHARE)
    }

    fn next(
        &mut self,
        action: usize,
        id: u32,
        row: &[f64],
        next: &mut Rows<Ending>,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let play = self.plays[id as usize];
        let key = self.pools.keys[play.pool as usize];
        if self.case.ends(&key) {
            // Step 1: the GM spends 2d12 and the scene ends.
            next.absorb((play, true), row);
            return Ok(());
        }
        let mass = self.total(row);
        let moves = self.moves(id, budget)?;
        for t in moves.transitions.iter().filter(|t| t.p != 0.0) {
            self.tally.scene.success_by_action[action] += mass * t.success;
        }
        let layout = self.layout;
        let from = layout.split(row);
        for m in &moves.moves {
            let to = layout.split_mut(next.to(m.to));
            let spent = usize::from(m.spent);
            if m.gm {
                // The GM's die turns a success into a failure.
                shift_into(to.successes, from.successes, 0, m.p);
                shift_into(to.heroics, from.heroics, 0, m.p);
                shift_into(to.spent, from.spent, spent, m.p);
                if layout.moments {
                    moments_into(to.doom_spent, from.doom_spent, mass, m.p, m.p);
                    to.gm_spent[0] += mass * m.p;
                } else {
                    shift_into(to.doom_spent, from.doom_spent, 1, m.p);
                }
            } else {
                count_into(to.successes, from.successes, m.success, m.p);
                shift_into(to.spent, from.spent, spent, m.p);
                if layout.moments {
                    moments_into(to.heroics, from.heroics, mass, m.heroic, m.p);
                } else {
                    count_into(to.heroics, from.heroics, m.heroic, m.p);
                }
                // Counts or moments, what the GM did not spend stays.
                shift_into(to.doom_spent, from.doom_spent, 0, m.p);
                shift_into(to.gm_spent, from.gm_spent, 0, m.p);
            }
        }
        Ok(())
    }

    fn final_outcome(&self, id: u32) -> Ending {
        (self.plays[id as usize], false)
    }

    fn absorb(&mut self, (play, ended): Ending, row: &[f64]) {
        let start = i64::from(self.economy.start_plot_points);
        let held = i64::from(play.held);
        let key = self.pools.keys[play.pool as usize];
        let mass = self.total(row);
        let parts = self.layout.split(row);
        let scene = &mut self.tally.scene;
        let economy = &mut self.tally.economy;
        for (c, &s) in parts.successes.iter().enumerate() {
            scene.successes.add(c as i64, s);
        }
        for (spent, &e) in parts.spent.iter().enumerate() {
            if e != 0.0 {
                // Earned is what is held and was spent but was not held
                // at the start.
                scene.plot_points.add(held + spent as i64 - start, e);
                economy.points_spent.add(spent as i64, e);
            }
        }
        match (
            scene.heroic_moments.as_mut(),
            economy.doom_spent_moments.as_mut(),
        ) {
            (Some(heroics), Some(doom_spent)) => {
                for (moments, part) in [(heroics, parts.heroics), (doom_spent, parts.doom_spent)] {
                    moments.mass += mass;
                    moments.first += part[0];
                    moments.second += part[1];
                }
            }
            _ => {
                for (c, &h) in parts.heroics.iter().enumerate() {
                    scene.heroics.add(c as i64, h);
                }
                for (c, &d) in parts.doom_spent.iter().enumerate() {
                    economy.doom_spent.add(c as i64, d);
                }
            }
        }
        economy.final_points.add(held, mass);
        if play.gm_spent {
            economy.gm_spent += mass;
        }
        if let Some(&spent) = parts.gm_spent.first() {
            economy.gm_spent += spent;
        }
        if ended {
            scene.ended += mass;
        } else {
            *scene.final_doom.entry(key).or_insert(0.0) += mass;
            scene.final_dice.add(dice_in(&key) as i64, mass);
        }
    }
}

/// The exact tallies of a scene with an economy that plays.
pub fn exact_hists(
    case: &SceneCase,
    economy: &Economy,
    budget: &mut Budget,
) -> Result<EconomyTally<f64>, ExactError> {
    exact_hists_with(
        case,
        economy,
        Pruning::below(PRUNE_BELOW, PRUNE_FROM),
        case.actions > HEROIC_COUNTS_UP_TO,
        budget,
    )
}

/// The chain with another pruning, heroic successes and doom dice spent by
/// `moments` or count by count (tests hold one to the other).
pub(super) fn exact_hists_with(
    case: &SceneCase,
    economy: &Economy,
    pruning: Pruning,
    moments: bool,
    budget: &mut Budget,
) -> Result<EconomyTally<f64>, ExactError> {
    let mut pools = DoomPools::new(case.rules.reaction_keep, economy.gm_spend == GmSpend::ToWin);
    let start = pools.id(key_of(&case.doom), budget)?;
    debug_assert_eq!(start, 0);
    let mut tally = EconomyTally {
        scene: SceneHists::new(case.actions),
        economy: EconomyHists::default(),
    };
    if moments {
        tally.scene.heroic_moments = Some(HeroicMoments::default());
        tally.economy.doom_spent_moments = Some(HeroicMoments::default());
    }
    let mut scene = Scene {
        case,
        economy,
        layout: Layout { moments },
        pools,
        heroes: FxHashMap::default(),
        transitions: FxHashMap::default(),
        plays: Vec::new(),
        play_ids: FxHashMap::default(),
        moves: Vec::new(),
        tally,
    };
    let run = chain::run_rows(&mut scene, pruning, budget)?;
    scene.tally.scene.dropped = run.dropped;
    Ok(scene.tally)
}
