//! The exact method for a scene with its economy (docs/cortex.md, "The
//! scene's economy"): a chain on the chain engine ([`crate::engine::chain`])
//! whose state is the doom pool, the plot points the hero holds and
//! whether the GM has spent yet, one step an action, each step the seven
//! steps of [`super::rules`].
//!
//! Each (doom pool, hero's preparation) pair is worked out once: the hero's
//! exact (total, hitch level, spent on the total) distribution for the
//! preparation's pool ([`HeroOutcomes`]), against the doom pool's exact
//! (reaction total, value the GM can add, die that shows it) distribution
//! ([`DoomTable`]), gives the chance of each (hitch level, spend) with
//! success, heroic success and each doom die the GM spends. A doom pool's
//! distribution is its parent's (the pool less its smallest die) with one
//! die more, kept sparse; the mass of every state carries the counts of
//! successes, heroic successes, plot points earned and doom dice spent, so
//! their means come with exact variances.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::dice::{Die, Pool};
use crate::engine::chain::{self, Mass, Mechanic, Next, Pruning, State};
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

use super::super::doom_chain::{PRUNE_BELOW, PRUNE_FROM};
use super::super::keys::GmSpend;
use super::super::scene::{dice_in, key_of, DoomKey, SceneCase, SceneHists};
use super::rules::{
    action_pool, action_total, settle_doom, DoomDice, HeroDice, Preparation, Reaction,
};
use super::{Economy, EconomyHists, EconomyTally};

/// Hitch levels that matter: 4 or more hitches all add a d12.
const HITCH_LEVELS: usize = 5;

/// The hero's roll for one preparation, by (hitch level, spent on the
/// total): its chance, and the chance of each final total or more.
struct HeroOutcomes {
    combos: Vec<HeroCombo>,
}

struct HeroCombo {
    level: usize,
    spent: bool,
    p: f64,
    /// `at_least[t]`: P(this combo and a final total >= t).
    at_least: Vec<f64>,
}

impl HeroCombo {
    fn at_least(&self, total: u32) -> f64 {
        self.at_least.get(total as usize).copied().unwrap_or(0.0)
    }
}

impl HeroOutcomes {
    /// A programme over the preparation's pool die by die: the `keep + 1`
    /// best values and the hitches up to 4, then step 4's spend.
    fn new(
        case: &SceneCase,
        economy: &Economy,
        prep: Preparation,
        budget: &mut Budget,
    ) -> Result<HeroOutcomes, ExactError> {
        let pool = action_pool(&case.pool, prep);
        let keep = case.rules.keep;
        let mut states: FxHashMap<HeroDice, f64> = FxHashMap::default();
        states.insert(HeroDice::EMPTY, 1.0);
        for die in pool.dice() {
            let sides = die.sides() as u8;
            budget.spend(
                Work::ProgrammeUpdate.cost(states.len() as u64 * u64::from(sides)),
                &|| format!("the pool {pool}"),
            )?;
            let p_face = 1.0 / f64::from(sides);
            let mut next: FxHashMap<HeroDice, f64> = FxHashMap::default();
            for (state, &p) in &states {
                for face in 1..=sides {
                    let mut s = *state;
                    s.push(keep, face);
                    s.hitches = s.hitches.min((HITCH_LEVELS - 1) as u32);
                    *next.entry(s).or_insert(0.0) += p * p_face;
                }
            }
            states = next;
        }
        // Summed in a fixed order, so the answer does not hang on hashing.
        let mut states: Vec<(HeroDice, f64)> = states.into_iter().collect();
        states.sort_by_key(|a| (a.0.held, a.0.hitches));
        let mut combos: Vec<HeroCombo> = Vec::new();
        let mut density: FxHashMap<(usize, bool), Vec<f64>> = FxHashMap::default();
        for (dice, p) in states {
            let roll = dice.roll(keep);
            let spent = economy.spends_on_total(prep, &roll);
            let total = action_total(&roll, spent) as usize;
            let d = density.entry((roll.hitches as usize, spent)).or_default();
            if d.len() <= total {
                d.resize(total + 1, 0.0);
            }
            d[total] += p;
        }
        let mut keys: Vec<(usize, bool)> = density.keys().copied().collect();
        keys.sort();
        for (level, spent) in keys {
            let d = &density[&(level, spent)];
            let mut at_least = vec![0.0; d.len() + 1];
            for t in (0..d.len()).rev() {
                at_least[t] = at_least[t + 1] + d[t];
            }
            combos.push(HeroCombo {
                level,
                spent,
                p: at_least[0],
                at_least,
            });
        }
        Ok(HeroOutcomes { combos })
    }
}

/// Every [`DoomDice`] state the doom pools reach, numbered, with the state
/// each (step, face) leads to, filled in as states are met, and the
/// reaction each state stands for (numbered too), so a pool's
/// distributions are dense vector updates with no hashing inside.
struct DoomTable {
    slots: usize,
    reaction_keep: usize,
    /// Whether die sizes matter (the GM spends the die that shows a value).
    by_size: bool,
    states: Vec<DoomDice>,
    index: FxHashMap<DoomDice, u32>,
    /// `next[state]`: per step, per face 1..=12 (index 0 unused); empty
    /// until first needed.
    next: Vec<Option<Box<[[u32; 13]; 5]>>>,
    /// Per state, the number of its reaction in `reactions`.
    reaction_of: Vec<u32>,
    reactions: Vec<Reaction>,
    reaction_index: FxHashMap<Reaction, u32>,
    /// A zeroed vector as long as `states`, lent to [`DoomTable::add_die`].
    scratch: Vec<f64>,
}

impl DoomTable {
    fn new(reaction_keep: usize, gm_spends: bool) -> DoomTable {
        let mut table = DoomTable {
            slots: reaction_keep + usize::from(gm_spends),
            reaction_keep,
            by_size: gm_spends,
            states: Vec::new(),
            index: FxHashMap::default(),
            next: Vec::new(),
            reaction_of: Vec::new(),
            reactions: Vec::new(),
            reaction_index: FxHashMap::default(),
            scratch: Vec::new(),
        };
        table.id(DoomDice::EMPTY);
        table
    }

    fn id(&mut self, dice: DoomDice) -> u32 {
        if let Some(&id) = self.index.get(&dice) {
            return id;
        }
        let id = self.states.len() as u32;
        self.states.push(dice);
        self.index.insert(dice, id);
        self.next.push(None);
        let reaction = dice.reaction(self.reaction_keep, self.slots);
        let reactions = &mut self.reactions;
        let r = *self.reaction_index.entry(reaction).or_insert_with(|| {
            reactions.push(reaction);
            (reactions.len() - 1) as u32
        });
        self.reaction_of.push(r);
        id
    }

    fn fill_row(&mut self, state: u32) {
        if self.next[state as usize].is_some() {
            return;
        }
        let mut row = Box::new([[0u32; 13]; 5]);
        for step in 0..5u8 {
            let sides = Die::from_step(u32::from(step)).expect("d4..d12").sides() as u8;
            for face in 1..=sides {
                let mut dice = self.states[state as usize];
                // Without the GM's spend only values matter: every die
                // counts as one size, so states merge.
                dice.push(self.slots, if self.by_size { step } else { 0 }, face);
                let to = self.id(dice.canonical(self.slots));
                row[usize::from(step)][usize::from(face)] = to;
            }
        }
        self.next[state as usize] = Some(row);
    }

    /// A sparse distribution with one more die of `step`, in the order its
    /// states are first reached.
    fn add_die(&mut self, dist: &[(u32, f64)], step: u8) -> Vec<(u32, f64)> {
        for &(state, _) in dist {
            self.fill_row(state);
        }
        let sides = Die::from_step(u32::from(step)).expect("d4..d12").sides() as usize;
        let p_face = 1.0 / sides as f64;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(self.states.len(), 0.0);
        let mut order = Vec::new();
        for &(state, p) in dist {
            let row = &self.next[state as usize].as_ref().expect("filled above")[usize::from(step)];
            let q = p * p_face;
            for &to in &row[1..=sides] {
                let slot = &mut scratch[to as usize];
                if *slot == 0.0 {
                    order.push(to);
                }
                *slot += q;
            }
        }
        let out = order
            .into_iter()
            .map(|s| {
                let p = std::mem::take(&mut scratch[s as usize]);
                (s, p)
            })
            .collect();
        self.scratch = scratch;
        out
    }
}

/// The doom pools the chain has met, with what each rolls as a reaction.
struct DoomPools {
    table: DoomTable,
    keys: Vec<DoomKey>,
    index: FxHashMap<DoomKey, u32>,
    /// Per pool: (reaction, probability), in a fixed order.
    reactions: Vec<Rc<Vec<(Reaction, f64)>>>,
    /// Sparse distributions of the pools and their parents, by key.
    dists: FxHashMap<DoomKey, Rc<Vec<(u32, f64)>>>,
    /// The pool a pool becomes: (pool, spent step or 5, hitch level).
    children: FxHashMap<(u32, u8, u8), u32>,
}

impl DoomPools {
    fn new(reaction_keep: usize, gm_spends: bool) -> DoomPools {
        let mut dists = FxHashMap::default();
        let table = DoomTable::new(reaction_keep, gm_spends);
        dists.insert([0; 5], Rc::new(vec![(0, 1.0)]));
        DoomPools {
            table,
            keys: Vec::new(),
            index: FxHashMap::default(),
            reactions: Vec::new(),
            dists,
            children: FxHashMap::default(),
        }
    }

    /// The distribution of `key`'s dice: its parent's (less its smallest
    /// die) with that die added.
    fn dist(
        &mut self,
        key: DoomKey,
        budget: &mut Budget,
    ) -> Result<Rc<Vec<(u32, f64)>>, ExactError> {
        if let Some(d) = self.dists.get(&key) {
            return Ok(d.clone());
        }
        let step = (0..5).find(|&s| key[s] > 0).expect("a non-empty key");
        let mut parent = key;
        parent[step] -= 1;
        let from = self.dist(parent, budget)?;
        budget.spend(Work::DoomTableCell.cost(from.len() as u64 * 12), &|| {
            format!("the doom pool {}", pool_text(&key))
        })?;
        let dist = Rc::new(self.table.add_die(&from, step as u8));
        self.dists.insert(key, dist.clone());
        Ok(dist)
    }

    fn id(&mut self, key: DoomKey, budget: &mut Budget) -> Result<u32, ExactError> {
        if let Some(&id) = self.index.get(&key) {
            return Ok(id);
        }
        let dist = self.dist(key, budget)?;
        let table = &self.table;
        let mut by_reaction = vec![0.0; table.reactions.len()];
        for &(state, p) in dist.iter() {
            by_reaction[table.reaction_of[state as usize] as usize] += p;
        }
        let mut reactions: Vec<(Reaction, f64)> = by_reaction
            .into_iter()
            .enumerate()
            .filter(|&(_, p)| p > 0.0)
            .map(|(r, p)| (table.reactions[r], p))
            .collect();
        reactions.sort_by_key(|a| a.0);
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.index.insert(key, id);
        self.reactions.push(Rc::new(reactions));
        Ok(id)
    }

    fn child(
        &mut self,
        id: u32,
        spent: Option<u8>,
        level: usize,
        budget: &mut Budget,
    ) -> Result<u32, ExactError> {
        let slot = (id, spent.unwrap_or(5), level as u8);
        if let Some(&child) = self.children.get(&slot) {
            return Ok(child);
        }
        let mut key = self.keys[id as usize];
        settle_doom(&mut key, spent, level as u32);
        let child = self.id(key, budget)?;
        self.children.insert(slot, child);
        Ok(child)
    }
}

fn pool_text(key: &DoomKey) -> Pool {
    let mut dice = Vec::new();
    for (step, &count) in key.iter().enumerate() {
        let die = Die::from_step(step as u32).expect("five sizes");
        dice.extend(std::iter::repeat_n(die, count as usize));
    }
    Pool::new(dice)
}

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

/// A state of the chain: the doom pool (its number), the plot points held
/// and whether the GM has spent a doom die yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Play {
    pool: u32,
    held: u32,
    gm_spent: bool,
}

impl State for Play {}

/// What a state carries: four marginals of one mass, the chance of each
/// count so far of successes, heroic successes, plot points earned and
/// doom dice spent.
struct Counts {
    successes: Vec<f64>,
    heroics: Vec<f64>,
    earned: Vec<f64>,
    doom_spent: Vec<f64>,
}

impl Mass for Counts {
    fn total(&self) -> f64 {
        self.successes.iter().sum()
    }
}

/// How a play ends: its state, and whether the GM ended the scene.
type Ending = (Play, bool);

struct Scene<'a> {
    case: &'a SceneCase,
    economy: &'a Economy,
    pools: DoomPools,
    heroes: FxHashMap<Preparation, Rc<HeroOutcomes>>,
    transitions: FxHashMap<(u32, Preparation), Rc<Vec<Transition>>>,
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
}

/// A count vector of `width` zeros.
fn zeros(width: usize) -> Vec<f64> {
    vec![0.0; width]
}

impl Mechanic for Scene<'_> {
    type State = Play;
    type Mass = Counts;
    type Outcome = Ending;

    fn steps(&self) -> usize {
        self.case.actions as usize
    }

    fn initial(&mut self) -> Vec<(Play, Counts)> {
        let play = Play {
            pool: 0,
            held: self.economy.start_plot_points,
            gm_spent: false,
        };
        let one = || vec![1.0];
        vec![(
            play,
            Counts {
                successes: one(),
                heroics: one(),
                earned: one(),
                doom_spent: one(),
            },
        )]
    }

    fn work(&self, action: usize, live: usize) -> u64 {
        Work::EconomyCell.cost(live as u64 * 2 * HITCH_LEVELS as u64 * 5 * (action as u64 + 2))
    }

    fn too_large(&self, action: usize, live: usize) -> String {
        format!(
            "a scene of {} actions with its economy (by action {}, {live} states are each more likely than {PRUNE_BELOW:e})",
            self.case.actions,
            action + 1,
        )
    }

    fn next(
        &mut self,
        action: usize,
        play: Play,
        state: Counts,
        next: &mut Next<Play, Counts, Ending>,
        budget: &mut Budget,
    ) -> Result<(), ExactError> {
        let key = self.pools.keys[play.pool as usize];
        if self.case.ends(&key) {
            // Step 1: the GM spends 2d12 and the scene ends.
            next.absorb((play, true), state);
            return Ok(());
        }
        let mass = state.total();
        let prep = self.economy.prepare(play.held);
        let transitions = self.transitions(play.pool, prep, budget)?;
        let width = action + 2;
        let fresh = || Counts {
            successes: zeros(width),
            heroics: zeros(width),
            earned: zeros(2 * width - 1),
            doom_spent: zeros(width),
        };
        for t in transitions.iter() {
            if t.p == 0.0 {
                continue;
            }
            let settled = self
                .economy
                .settle(play.held, prep, t.spent, t.level as u32);
            let inc = settled.earned as usize;
            self.tally.scene.success_by_action[action] += mass * t.success;
            let spent_doom: f64 = t.gm.iter().sum();
            let kept = t.p - spent_doom;
            if kept > 0.0 {
                let child = self.pools.child(play.pool, None, t.level, budget)?;
                let to = Play {
                    pool: child,
                    held: settled.held,
                    gm_spent: play.gm_spent,
                };
                let target = next.to(to, fresh);
                for c in 0..=action {
                    let (s, h) = (state.successes[c], state.heroics[c]);
                    target.successes[c + 1] += s * t.success;
                    target.successes[c] += s * (kept - t.success);
                    target.heroics[c + 1] += h * t.heroic;
                    target.heroics[c] += h * (kept - t.heroic);
                    target.doom_spent[c] += state.doom_spent[c] * kept;
                }
                for (c, &e) in state.earned.iter().enumerate() {
                    target.earned[c + inc] += e * kept;
                }
            }
            for (step, &g) in t.gm.iter().enumerate() {
                if g <= 0.0 {
                    continue;
                }
                let child = self
                    .pools
                    .child(play.pool, Some(step as u8), t.level, budget)?;
                let to = Play {
                    pool: child,
                    held: settled.held,
                    gm_spent: true,
                };
                let target = next.to(to, fresh);
                for c in 0..=action {
                    target.successes[c] += state.successes[c] * g;
                    target.heroics[c] += state.heroics[c] * g;
                    target.doom_spent[c + 1] += state.doom_spent[c] * g;
                }
                for (c, &e) in state.earned.iter().enumerate() {
                    target.earned[c + inc] += e * g;
                }
            }
        }
        Ok(())
    }

    fn final_outcome(&self, play: &Play) -> Ending {
        (*play, false)
    }

    fn absorb(&mut self, (play, ended): Ending, state: Counts) {
        let start = i64::from(self.economy.start_plot_points);
        let held = i64::from(play.held);
        let key = self.pools.keys[play.pool as usize];
        let scene = &mut self.tally.scene;
        let economy = &mut self.tally.economy;
        let mass = state.total();
        for (c, (&s, &h)) in state.successes.iter().zip(&state.heroics).enumerate() {
            scene.successes.add(c as i64, s);
            scene.heroics.add(c as i64, h);
        }
        for (c, &e) in state.earned.iter().enumerate() {
            if e != 0.0 {
                scene.plot_points.add(c as i64, e);
                // Spent is what was held and earned but is no longer held.
                economy.points_spent.add(start + c as i64 - held, e);
            }
        }
        for (c, &d) in state.doom_spent.iter().enumerate() {
            economy.doom_spent.add(c as i64, d);
        }
        economy.final_points.add(held, mass);
        if play.gm_spent {
            economy.gm_spent += mass;
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
    let mut pools = DoomPools::new(case.rules.reaction_keep, economy.gm_spend == GmSpend::ToWin);
    let start = pools.id(key_of(&case.doom), budget)?;
    debug_assert_eq!(start, 0);
    let mut scene = Scene {
        case,
        economy,
        pools,
        heroes: FxHashMap::default(),
        transitions: FxHashMap::default(),
        tally: EconomyTally {
            scene: SceneHists::new(case.actions),
            economy: EconomyHists {
                points_spent: Default::default(),
                final_points: Default::default(),
                doom_spent: Default::default(),
                gm_spent: 0.0,
            },
        },
    };
    let run = chain::run(&mut scene, Pruning::below(PRUNE_BELOW, PRUNE_FROM), budget)?;
    scene.tally.scene.dropped = run.dropped;
    Ok(scene.tally)
}
