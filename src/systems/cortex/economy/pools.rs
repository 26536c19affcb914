//! What the economy's exact chain ([`super::chain`]) knows of the dice
//! (docs/cortex.md, "The scene's economy"): the hero's exact (total, hitch
//! level, spent on the total) distribution for each preparation
//! ([`HeroOutcomes`]), and every doom pool's exact (reaction total, value
//! the GM can add, die that shows it) distribution ([`DoomPools`]), each
//! grown from its parent's (the pool less its smallest die) by one die
//! through the numbered [`DoomDice`] states of a [`DoomTable`].

use std::rc::Rc;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::dice::{Die, Pool};
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

use super::super::scene::{DoomKey, SceneCase};
use super::reaction_memo::{self, Reactions, RuleKey};
use super::rules::{
    action_pool, action_total, settle_doom, DoomDice, HeroDice, Preparation, Reaction,
};
use super::Economy;

/// Hitch levels that matter: 4 or more hitches all add a d12.
pub(super) const HITCH_LEVELS: usize = 5;

/// The hero's roll for one preparation, by (hitch level, spent on the
/// total): its chance, and the chance of each final total or more.
pub(super) struct HeroOutcomes {
    pub(super) combos: Vec<HeroCombo>,
}

pub(super) struct HeroCombo {
    pub(super) level: usize,
    pub(super) spent: bool,
    pub(super) p: f64,
    /// `at_least[t]`: P(this combo and a final total >= t).
    at_least: Vec<f64>,
}

impl HeroCombo {
    pub(super) fn at_least(&self, total: u32) -> f64 {
        self.at_least.get(total as usize).copied().unwrap_or(0.0)
    }
}

impl HeroOutcomes {
    /// A programme over the preparation's pool die by die: the `keep + 1`
    /// best values and the hitches up to 4, then step 4's spend.
    pub(super) fn new(
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
    /// `next[state]`: per step, per face 1..=12 (index 0: whether the
    /// step is filled); empty until first needed.
    next: Vec<Option<Box<[[u32; 13]; 5]>>>,
    /// Per state, the number of its reaction in `reactions`.
    reaction_of: Vec<u32>,
    reactions: Vec<Reaction>,
    reaction_index: FxHashMap<Reaction, u32>,
    /// The numbers of `reactions` in the order of the reactions, sorted
    /// again whenever a new reaction has been met since.
    sorted: Vec<u32>,
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
            sorted: Vec::new(),
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

    /// Puts every reaction's number in `sorted`, in the order of the
    /// reactions, if one has been met since it was last sorted (a pool's
    /// reactions are listed in that order, so a sum over them does not
    /// depend on the order they were met in).
    fn sort_reactions(&mut self) {
        if self.sorted.len() != self.reactions.len() {
            let reactions = &self.reactions;
            self.sorted = (0..reactions.len() as u32).collect();
            self.sorted.sort_unstable_by_key(|&r| reactions[r as usize]);
        }
    }

    /// Fills `state`'s row for one more die of `step`, if not yet filled:
    /// only the steps a pool grows by are ever filled, each face's state
    /// found once. Face 0 of a step's row, which no die shows, marks it
    /// filled.
    fn fill_row(&mut self, state: u32, step: u8) {
        let filled = self.next[state as usize]
            .as_ref()
            .is_some_and(|row| row[usize::from(step)][0] != 0);
        if filled {
            return;
        }
        let sides = Die::from_step(u32::from(step)).expect("d4..d12").sides() as u8;
        let mut faces = [0u32; 13];
        faces[0] = 1;
        for face in 1..=sides {
            let mut dice = self.states[state as usize];
            // Without the GM's spend only values matter: every die
            // counts as one size, so states merge.
            dice.push(self.slots, if self.by_size { step } else { 0 }, face);
            faces[usize::from(face)] = self.id(dice.canonical(self.slots));
        }
        let row = self.next[state as usize].get_or_insert_with(|| Box::new([[0u32; 13]; 5]));
        row[usize::from(step)] = faces;
    }

    /// A sparse distribution with one more die of `step`, in the order its
    /// states are first reached.
    fn add_die(&mut self, dist: &[(u32, f64)], step: u8) -> Vec<(u32, f64)> {
        for &(state, _) in dist {
            self.fill_row(state, step);
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

/// A doom pool's sparse distribution over [`DoomTable`] states.
type Dist = Rc<Vec<(u32, f64)>>;

/// A doom pool's distribution as the chain's bookkeeping holds it: its
/// length always (what growing a pool from it costs), its entries only
/// once some pool the memo does not know had to be grown from them.
#[derive(Clone)]
struct Grown {
    len: usize,
    dist: Option<Dist>,
}

/// The doom pools' distributions kept at once (16 bytes an entry): a long
/// scene meets thousands of pools of thousands of entries each, and a pool's
/// parents are mostly those of the pools met just before it.
const KEPT_DIST_ENTRIES: usize = 1 << 23;

/// The doom pools the chain has met, with what each rolls as a reaction.
pub(super) struct DoomPools {
    table: DoomTable,
    pub(super) keys: Vec<DoomKey>,
    index: FxHashMap<DoomKey, u32>,
    /// Per pool: (reaction, probability), in a fixed order.
    pub(super) reactions: Vec<Reactions>,
    /// Sparse distributions of the pools and their parents, by key, each
    /// with when it was last used; at most about [`KEPT_DIST_ENTRIES`]
    /// entries in all.
    dists: FxHashMap<DoomKey, (Grown, u64)>,
    /// Entries in `dists`, and uses so far.
    dist_entries: usize,
    uses: u64,
    /// The pool a pool becomes: (pool, spent step or 5, hitch level).
    children: FxHashMap<(u32, u8, u8), u32>,
    /// What the run's memo of reactions ([`reaction_memo`]) files them by.
    rules: RuleKey,
}

impl DoomPools {
    pub(super) fn new(reaction_keep: usize, gm_spends: bool) -> DoomPools {
        let mut dists = FxHashMap::default();
        let table = DoomTable::new(reaction_keep, gm_spends);
        let empty = Grown {
            len: 1,
            dist: Some(Rc::new(vec![(0, 1.0)])),
        };
        dists.insert([0; 5], (empty, u64::MAX));
        DoomPools {
            table,
            keys: Vec::new(),
            index: FxHashMap::default(),
            reactions: Vec::new(),
            dists,
            dist_entries: 1,
            uses: 0,
            children: FxHashMap::default(),
            rules: (reaction_keep, gm_spends),
        }
    }

    /// The pool less its smallest die, and that die's step.
    fn parent(key: DoomKey) -> (DoomKey, u8) {
        let step = (0..5).find(|&s| key[s] > 0).expect("a non-empty key");
        let mut parent = key;
        parent[step] -= 1;
        (parent, step as u8)
    }

    /// The distribution of `key`'s dice: its parent's (less its smallest
    /// die) with that die added, charged as that. Its entries are made only
    /// when `need`ed or unknown to the memo; the charges and the choice of
    /// what is kept are the same either way.
    fn grow(&mut self, key: DoomKey, need: bool, budget: &mut Budget) -> Result<Grown, ExactError> {
        self.uses += 1;
        if let Some((grown, used)) = self.dists.get_mut(&key) {
            *used = (*used).max(self.uses);
            let grown = grown.clone();
            if need && grown.dist.is_none() {
                return Ok(self.materialise(key));
            }
            return Ok(grown);
        }
        let (parent, step) = Self::parent(key);
        let known_len = if need {
            None
        } else {
            reaction_memo::len(self.rules, key)
        };
        let from = self.grow(parent, known_len.is_none(), budget)?;
        budget.spend(Work::DoomTableCell.cost(from.len as u64 * 12), &|| {
            format!("the doom pool {}", pool_text(&key))
        })?;
        let grown = match known_len {
            Some(len) => Grown { len, dist: None },
            None => {
                let from = from.dist.as_ref().expect("grown when needed");
                let dist = Rc::new(self.table.add_die(from, step));
                reaction_memo::remember_len(self.rules, key, dist.len());
                Grown {
                    len: dist.len(),
                    dist: Some(dist),
                }
            }
        };
        self.dist_entries += grown.len;
        self.dists.insert(key, (grown.clone(), self.uses));
        if self.dist_entries > KEPT_DIST_ENTRIES {
            self.forget_dists();
        }
        Ok(grown)
    }

    /// The entries of a distribution whose length alone was kept: grown
    /// from the nearest kept parent, outside the charges and the uses (the
    /// work was charged when the length was).
    fn materialise(&mut self, key: DoomKey) -> Grown {
        if let Some((Grown { dist: Some(d), len }, _)) = self.dists.get(&key) {
            return Grown {
                len: *len,
                dist: Some(d.clone()),
            };
        }
        let (parent, step) = Self::parent(key);
        let from = self.materialise(parent).dist.expect("materialised");
        let dist = Rc::new(self.table.add_die(&from, step));
        if let Some((grown, _)) = self.dists.get_mut(&key) {
            grown.dist = Some(dist.clone());
        }
        Grown {
            len: dist.len(),
            dist: Some(dist),
        }
    }

    /// Forgets the distributions least recently used, down to half of
    /// [`KEPT_DIST_ENTRIES`]: one asked for again is grown again, the same
    /// way, so to the same bits.
    fn forget_dists(&mut self) {
        let mut by_use: Vec<(u64, DoomKey, usize)> = self
            .dists
            .iter()
            .map(|(key, (g, used))| (*used, *key, g.len))
            .collect();
        by_use.sort_unstable();
        for (_, key, len) in by_use {
            if self.dist_entries <= KEPT_DIST_ENTRIES / 2 || key == [0; 5] {
                break;
            }
            self.dists.remove(&key);
            self.dist_entries -= len;
        }
    }

    pub(super) fn id(&mut self, key: DoomKey, budget: &mut Budget) -> Result<u32, ExactError> {
        if let Some(&id) = self.index.get(&key) {
            return Ok(id);
        }
        let known = reaction_memo::reactions(self.rules, key);
        let grown = self.grow(key, known.is_none(), budget)?;
        let reactions = match known {
            Some(reactions) => reactions,
            None => {
                let dist = grown.dist.expect("grown when needed");
                self.table.sort_reactions();
                let table = &self.table;
                let mut by_reaction = vec![0.0; table.reactions.len()];
                for &(state, p) in dist.iter() {
                    by_reaction[table.reaction_of[state as usize] as usize] += p;
                }
                // In the reactions' order, each listed once.
                let reactions: Vec<(Reaction, f64)> = table
                    .sorted
                    .iter()
                    .filter(|&&r| by_reaction[r as usize] > 0.0)
                    .map(|&r| (table.reactions[r as usize], by_reaction[r as usize]))
                    .collect();
                let reactions = Arc::new(reactions);
                reaction_memo::remember_reactions(self.rules, key, grown.len, reactions.clone());
                reactions
            }
        };
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.index.insert(key, id);
        self.reactions.push(reactions);
        Ok(id)
    }

    pub(super) fn child(
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
