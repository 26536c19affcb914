//! Cortex Plus pools (SPEC 2; seed `cortex-plus.ru.txt`, "Броски" and
//! "Необязательные условия"): hitches on 1s, the total of the `keep` best
//! live dice, the effect die, and opposed rolls against a reacting pool (the
//! doom pool) or a fixed difficulty, with heroic steps and the optional
//! effect step-down.
//!
//! One scorer ([`Scorer`]) reads a roll die by die; the Monte Carlo sampler
//! and the brute-force enumeration both use it, and the fast exact method
//! ([`pool_outcomes`]) is a dynamic programme over the same insertion rule,
//! so the three can be held against each other.

use rustc_hash::FxHashMap;
use serde_json::{json, Map, Value};

use crate::dice::{effect_step_label, Die, Pool};
use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::options::{OptionError, Options};

use super::SystemCase;

/// The keys a cortex case accepts.
pub const KEYS: &[&str] = &[
    "pool",
    "vs",
    "difficulty",
    "keep",
    "reaction_keep",
    "ties",
    "heroic_step",
    "effect_step_down",
    "policy",
];

/// Most dice a total may sum (SPEC 2: `keep` allowed 1..5).
pub const MAX_KEEP: usize = 5;

/// Who wins equal totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// The seed text: the action succeeds only when the opposing total is lower.
    Reaction,
    /// Marvel Heroic / Cortex Prime table rule: equal totals succeed.
    Action,
}

impl Ties {
    pub fn name(self) -> &'static str {
        match self {
            Ties::Reaction => "reaction",
            Ties::Action => "action",
        }
    }
}

/// How the roller picks the total dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The `keep` highest values; ties keep the larger die free for the effect.
    MaxTotal,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::MaxTotal => "max-total",
        }
    }
}

/// What the action is rolled against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opposition {
    /// A plain roll: no success metrics.
    None,
    /// A reacting pool (e.g. the doom pool), summing `reaction_keep` dice.
    Pool(Pool),
    /// A fixed total to beat.
    Difficulty(u32),
}

/// The roll rules shared by opposed rolls and doom-pool scenes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub keep: usize,
    pub reaction_keep: usize,
    pub ties: Ties,
    pub heroic_step: u32,
    pub effect_step_down: bool,
    pub policy: Policy,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            keep: 2,
            reaction_keep: 2,
            ties: Ties::Reaction,
            heroic_step: 5,
            effect_step_down: false,
            policy: Policy::MaxTotal,
        }
    }
}

impl Rules {
    /// Reads the roll rules (`keep`, `reaction_keep`, `ties`, `heroic_step`,
    /// `effect_step_down`) that scenes share with plain cortex cases.
    pub fn from_options(options: &mut Options) -> Result<Rules, OptionError> {
        let mut rules = Rules::default();
        if let Some(keep) = options.int("keep", 1, MAX_KEEP as i64)? {
            rules.keep = keep as usize;
        }
        if let Some(keep) = options.int("reaction_keep", 1, MAX_KEEP as i64)? {
            rules.reaction_keep = keep as usize;
        }
        if let Some(ties) = options.choice("ties", &["reaction", "action"])? {
            rules.ties = if ties == "action" {
                Ties::Action
            } else {
                Ties::Reaction
            };
        }
        if let Some(step) = options.int("heroic_step", 1, i64::MAX)? {
            // Past u32 no margin can reach a step anyway.
            rules.heroic_step = u32::try_from(step).unwrap_or(u32::MAX);
        }
        if let Some(down) = options.bool("effect_step_down")? {
            rules.effect_step_down = down;
        }
        Ok(rules)
    }

    /// Whether an action with this margin succeeds (SPEC 2; botch against
    /// botch is margin 0, a tie like any other).
    pub fn succeeds(&self, margin: i64) -> bool {
        margin > 0 || (margin == 0 && self.ties == Ties::Action)
    }

    /// The final effect step of a successful action (SPEC 2): the optional
    /// step-down first (seed, "Необязательные условия": a larger opposing
    /// effect die steps yours down, d4 stays d4), then one step up per full
    /// `heroic_step` of margin, past d12 if need be.
    pub fn final_effect_step(
        &self,
        effect_step: u32,
        reaction_effect: Option<u32>,
        margin: i64,
    ) -> u32 {
        let mut step = effect_step;
        if self.effect_step_down && reaction_effect.is_some_and(|r| r > effect_step) {
            step = step.saturating_sub(1);
        }
        step + (margin.max(0) as u64 / u64::from(self.heroic_step)) as u32
    }
}

/// A pool's roll, scored: its total, effect step and hitch count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolRoll {
    pub total: u32,
    pub effect_step: u32,
    pub hitches: u32,
}

/// Scores a roll die by die, the dice given largest first (SPEC 2,
/// `max-total`). A 1 is a hitch and counts for nothing. The `keep` highest
/// live values form the total; among equal values the smaller die goes into
/// the total, which, since dice arrive largest first, means a new die goes in
/// ahead of equal values already held. A die pushed out, or never taken,
/// is free, and the largest free die is the effect die (d4 when none).
#[derive(Debug, Clone, Copy)]
pub struct Scorer {
    keep: usize,
    len: usize,
    faces: [u8; MAX_KEEP],
    steps: [u8; MAX_KEEP],
    /// Largest free die step, -1 for none yet.
    free_step: i8,
    hitches: u32,
}

impl Scorer {
    pub fn new(keep: usize) -> Scorer {
        debug_assert!((1..=MAX_KEEP).contains(&keep));
        Scorer {
            keep,
            len: 0,
            faces: [0; MAX_KEEP],
            steps: [0; MAX_KEEP],
            free_step: -1,
            hitches: 0,
        }
    }

    /// Adds one die of `step` showing `face`. Dice must come largest first.
    #[inline]
    pub fn push(&mut self, step: u8, face: u8) {
        if face == 1 {
            self.hitches += 1;
            return;
        }
        if self.len == self.keep && face < self.faces[self.len - 1] {
            self.free_step = self.free_step.max(step as i8);
            return;
        }
        // First slot whose value is not above the new one: the new (smaller
        // or equal) die goes ahead of equal values.
        let mut slot = 0;
        while slot < self.len && self.faces[slot] > face {
            slot += 1;
        }
        if self.len == self.keep {
            let dropped = self.steps[self.len - 1];
            self.free_step = self.free_step.max(dropped as i8);
        } else {
            self.len += 1;
        }
        let mut i = self.len - 1;
        while i > slot {
            self.faces[i] = self.faces[i - 1];
            self.steps[i] = self.steps[i - 1];
            i -= 1;
        }
        self.faces[slot] = face;
        self.steps[slot] = step;
    }

    pub fn finish(&self) -> PoolRoll {
        PoolRoll {
            total: self.faces[..self.len].iter().map(|&f| u32::from(f)).sum(),
            effect_step: self.free_step.max(0) as u32,
            hitches: self.hitches,
        }
    }
}

/// Scores a whole roll: `dice` largest first, `faces` the values shown.
pub fn score(dice: &[Die], faces: &[u8], keep: usize) -> PoolRoll {
    let mut scorer = Scorer::new(keep);
    for (die, &face) in dice.iter().zip(faces) {
        scorer.push(die.step() as u8, face);
    }
    scorer.finish()
}

/// A resolved cortex case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CortexCase {
    pub pool: Pool,
    pub opposition: Opposition,
    pub rules: Rules,
}

impl CortexCase {
    pub fn from_options(mut options: Options) -> Result<CortexCase, OptionError> {
        let Some(pool) = options.cortex_pool("pool")? else {
            return Err(options.case_error(format!(
                "a cortex case needs {}, a pool such as \"d10 2d8 d6\"",
                options.key_name("pool")
            )));
        };
        let vs_item = options.take("vs");
        let difficulty_item = options.take("difficulty");
        let vs = options.cortex_pool("vs")?;
        let difficulty = options.int("difficulty", 0, 1_000_000)?;
        let opposition = match (vs, difficulty) {
            (Some(vs), Some(d)) => {
                let (a, b) = (vs_item.unwrap(), difficulty_item.unwrap());
                // A case's own key replaces the other one set in the defaults table.
                if a.layer > b.layer {
                    Opposition::Pool(vs)
                } else if b.layer > a.layer {
                    Opposition::Difficulty(d as u32)
                } else {
                    return Err(options.error_at(
                        &b,
                        format!(
                            "give either {} (a reacting pool) or {} (a fixed total), not both",
                            options.key_name("vs"),
                            options.key_name("difficulty")
                        ),
                    ));
                }
            }
            (Some(vs), None) => Opposition::Pool(vs),
            (None, Some(d)) => Opposition::Difficulty(d as u32),
            (None, None) => Opposition::None,
        };
        let rules = Rules::from_options(&mut options)?;
        options.choice("policy", &["max-total"])?;
        options.finish()?;
        Ok(CortexCase {
            pool,
            opposition,
            rules,
        })
    }

    fn is_opposed(&self) -> bool {
        self.opposition != Opposition::None
    }

    /// Plays one trial from sampled pool rolls, shared by every method.
    fn record<W: Copy + Default + std::ops::AddAssign>(
        &self,
        action: PoolRoll,
        reaction: Option<PoolRoll>,
        weight: W,
        hists: &mut CortexHists<W>,
        with_hitches: bool,
    ) {
        hists.total.add(i64::from(action.total), weight);
        if with_hitches {
            hists.hitches.add(i64::from(action.hitches), weight);
        }
        hists.pool_effect.add(i64::from(action.effect_step), weight);
        let (against, reaction_effect) = match (&self.opposition, reaction) {
            (Opposition::None, _) => return,
            (Opposition::Difficulty(d), _) => (i64::from(*d), None),
            (Opposition::Pool(_), Some(r)) => {
                if with_hitches && r.hitches > 0 {
                    hists.reaction_hitch += weight;
                }
                (i64::from(r.total), Some(r.effect_step))
            }
            (Opposition::Pool(_), None) => unreachable!("a pool opposition is always rolled"),
        };
        let margin = i64::from(action.total) - against;
        hists.margin.add(margin, weight);
        if self.rules.succeeds(margin) {
            let step = self
                .rules
                .final_effect_step(action.effect_step, reaction_effect, margin);
            hists.win_effect.add(i64::from(step), weight);
        } else {
            hists.fail += weight;
        }
    }
}

/// The outcome histograms of a cortex case: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CortexHists<W> {
    pub total: Hist<W>,
    pub hitches: Hist<W>,
    /// Effect step of the action pool alone, 0 (d4) .. 4 (d12).
    pub pool_effect: Hist<W>,
    pub margin: Hist<W>,
    /// Final effect step of successful actions (may pass 4, "beyond d12").
    pub win_effect: Hist<W>,
    pub fail: W,
    pub reaction_hitch: W,
}

impl<W: Copy + Default + std::ops::AddAssign> CortexHists<W> {
    fn merge(&mut self, other: &CortexHists<W>) {
        self.total.merge(&other.total);
        self.hitches.merge(&other.hitches);
        self.pool_effect.merge(&other.pool_effect);
        self.margin.merge(&other.margin);
        self.win_effect.merge(&other.win_effect);
        self.fail += other.fail;
        self.reaction_hitch += other.reaction_hitch;
    }
}

impl CortexHists<u64> {
    fn to_probabilities(&self, trials: u64) -> CortexHists<f64> {
        CortexHists {
            total: self.total.to_probabilities(trials),
            hitches: self.hitches.to_probabilities(trials),
            pool_effect: self.pool_effect.to_probabilities(trials),
            margin: self.margin.to_probabilities(trials),
            win_effect: self.win_effect.to_probabilities(trials),
            fail: self.fail as f64 / trials as f64,
            reaction_hitch: self.reaction_hitch as f64 / trials as f64,
        }
    }
}

/// The dice of a pool as (step, sides) pairs, largest first, for the hot loop.
fn dice_table(pool: &Pool) -> Vec<(u8, u8)> {
    pool.dice()
        .iter()
        .map(|d| (d.step() as u8, d.sides() as u8))
        .collect()
}

/// Rolls a pool of (step, sides) dice and scores it. The default `keep = 2`
/// has a branch-light path of its own: it is nearly every roll a user asks
/// about, and the general [`Scorer`] costs half the trial time there.
#[inline]
pub fn roll_pool(dice: &[(u8, u8)], keep: usize, roller: &mut DieRoller<'_>) -> PoolRoll {
    if keep == 2 {
        return roll_pool_keep_two(dice, roller);
    }
    let mut scorer = Scorer::new(keep);
    for &(step, sides) in dice {
        scorer.push(step, roller.roll(u32::from(sides)) as u8);
    }
    scorer.finish()
}

/// [`Scorer`]'s rule for two total dice, with each live die packed into one
/// key, `face * 8 + (7 - step)`: a larger key is a higher value or, for equal
/// values, a smaller die, which is exactly the order in which dice enter the
/// total (SPEC 2, max-total tie-break). Key 0 means "no die yet".
#[inline(always)]
fn roll_pool_keep_two(dice: &[(u8, u8)], roller: &mut DieRoller<'_>) -> PoolRoll {
    let (mut best, mut second) = (0u32, 0u32);
    let mut free_step: i32 = -1;
    let mut hitches = 0;
    for &(step, sides) in dice {
        let face = roller.roll(u32::from(sides));
        if face == 1 {
            hitches += 1;
            continue;
        }
        let key = (face << 3) | (7 - u32::from(step));
        if key > second {
            if second != 0 {
                free_step = free_step.max(7 - (second & 7) as i32);
            }
            if key > best {
                second = best;
                best = key;
            } else {
                second = key;
            }
        } else {
            free_step = free_step.max(i32::from(step));
        }
    }
    PoolRoll {
        total: (best >> 3) + (second >> 3),
        effect_step: free_step.max(0) as u32,
        hitches,
    }
}

/// The Monte Carlo trial of a cortex case.
struct CortexSampler<'a> {
    case: &'a CortexCase,
    action: Vec<(u8, u8)>,
    reaction: Vec<(u8, u8)>,
}

impl Sampler for CortexSampler<'_> {
    type Tally = CortexHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let max_total = (self.case.rules.keep * 12) as i64;
        CortexHists {
            total: Hist::with_range(0, max_total),
            hitches: Hist::with_range(0, self.action.len() as i64),
            pool_effect: Hist::with_range(0, 4),
            margin: Hist::with_range(-24, max_total),
            win_effect: Hist::with_range(0, 8),
            ..CortexHists::default()
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        let action = roll_pool(&self.action, self.case.rules.keep, &mut roller);
        let reaction = match self.case.opposition {
            Opposition::Pool(_) => Some(roll_pool(
                &self.reaction,
                self.case.rules.reaction_keep,
                &mut roller,
            )),
            _ => None,
        };
        self.case.record(action, reaction, 1u64, tally, true);
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.merge(&other);
    }
}

/// The joint distribution of (total, effect step, hitches) for one pool.
/// Hitches are counted up to `hitch_cap` (the last level means "cap or
/// more"); with a cap of 0 they are not tracked at all.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolOutcomes {
    /// `(total, effect_step, hitches)` with its probability, sorted.
    pub outcomes: Vec<((u32, u32, u32), f64)>,
}

/// A DP state: the dice in the total so far (largest value first) with their
/// steps, the largest free step (-1 none) and the hitch count.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct DpState {
    faces: [u8; MAX_KEEP],
    steps: [u8; MAX_KEEP],
    len: u8,
    free_step: i8,
    hitches: u16,
}

impl DpState {
    /// A held die's step only matters if it could still become the effect
    /// die, i.e. if it is larger than the largest free die; otherwise it is
    /// set to 0 so that equivalent states merge.
    fn canonical(mut self) -> DpState {
        if self.free_step >= 0 {
            for i in 0..self.len as usize {
                if self.steps[i] as i8 <= self.free_step {
                    self.steps[i] = 0;
                }
            }
        }
        self
    }

    fn scorer(&self, keep: usize) -> Scorer {
        Scorer {
            keep,
            len: self.len as usize,
            faces: self.faces,
            steps: self.steps,
            free_step: self.free_step,
            hitches: u32::from(self.hitches),
        }
    }

    fn from_scorer(scorer: &Scorer, hitch_cap: u32) -> DpState {
        DpState {
            faces: scorer.faces,
            steps: scorer.steps,
            len: scorer.len as u8,
            free_step: scorer.free_step,
            hitches: scorer.hitches.min(hitch_cap) as u16,
        }
        .canonical()
    }
}

/// Exact (total, effect, hitches) distribution of `pool` summing `keep` dice:
/// a dynamic programme over the dice, largest first, whose state is what the
/// [`Scorer`] holds. Faces that cannot enter a full total are merged into
/// one transition, so the work is about states x (distinct useful faces).
pub fn pool_outcomes(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
) -> Result<PoolOutcomes, ExactError> {
    let what = || format!("the pool {pool}");
    let start = DpState {
        faces: [0; MAX_KEEP],
        steps: [0; MAX_KEEP],
        len: 0,
        free_step: -1,
        hitches: 0,
    };
    let mut states: FxHashMap<DpState, f64> = FxHashMap::default();
    states.insert(start, 1.0);
    let mut sides_left: u64 = pool.dice().iter().map(|d| u64::from(d.sides())).sum();
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        // The state count rarely shrinks, so if even today's count times
        // the faces still to come will not fit, refuse now rather than
        // after a second of work.
        if !budget.allows(states.len() as u64 * sides_left) {
            return Err(ExactError::TooLarge(what()));
        }
        sides_left -= u64::from(sides);
        budget.spend(states.len() as u64 * u64::from(sides), &what)?;
        let p_face = 1.0 / f64::from(sides);
        let mut next: FxHashMap<DpState, f64> =
            FxHashMap::with_capacity_and_hasher(states.len() * 2, Default::default());
        for (state, &p) in &states {
            // A 1: a hitch.
            let mut hitched = *state;
            hitched.hitches = (u32::from(hitched.hitches) + 1).min(hitch_cap) as u16;
            *next.entry(hitched).or_insert(0.0) += p * p_face;
            // Faces below a full total's lowest value: the die is simply free.
            let first_useful = if state.len as usize == keep {
                state.faces[keep - 1].max(2)
            } else {
                2
            };
            let below = first_useful.min(sides + 1) - 2;
            if below > 0 {
                let mut freed = *state;
                freed.free_step = freed.free_step.max(step as i8);
                *next.entry(freed.canonical()).or_insert(0.0) += p * p_face * f64::from(below);
            }
            for face in first_useful..=sides {
                let mut scorer = state.scorer(keep);
                scorer.push(step, face);
                *next
                    .entry(DpState::from_scorer(&scorer, hitch_cap))
                    .or_insert(0.0) += p * p_face;
            }
        }
        states = next;
    }
    let mut joint: FxHashMap<(u32, u32, u32), f64> = FxHashMap::default();
    for (state, p) in states {
        let roll = state.scorer(keep).finish();
        *joint
            .entry((roll.total, roll.effect_step, roll.hitches))
            .or_insert(0.0) += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(PoolOutcomes { outcomes })
}

/// Distribution of the number of hitches: each die is a 1 with chance 1/S,
/// independently (a Poisson-binomial convolution).
pub fn hitch_distribution(pool: &Pool) -> Hist<f64> {
    let mut probs = vec![1.0];
    for die in pool.dice() {
        let q = 1.0 / f64::from(die.sides());
        let mut next = vec![0.0; probs.len() + 1];
        for (h, &p) in probs.iter().enumerate() {
            next[h] += p * (1.0 - q);
            next[h + 1] += p * q;
        }
        probs = next;
    }
    let mut hist = Hist::with_range(0, pool.len() as i64);
    for (h, p) in probs.into_iter().enumerate() {
        hist.add(h as i64, p);
    }
    hist
}

impl CortexCase {
    /// The exact outcome histograms, through the dynamic programme.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<CortexHists<f64>, ExactError> {
        let action = pool_outcomes(&self.pool, self.rules.keep, 0, budget)?;
        // The hitch convolution is quadratic in the number of dice; it is
        // budgeted too, or `100000d4` would pass the DP's check and then
        // spend seconds here.
        let n = self.pool.len() as u64;
        budget.spend(n * (n + 1) / 2, &|| format!("the pool {}", self.pool))?;
        let mut hists = CortexHists {
            hitches: hitch_distribution(&self.pool),
            ..CortexHists::default()
        };
        match &self.opposition {
            Opposition::Pool(vs) => {
                let reaction = pool_outcomes(vs, self.rules.reaction_keep, 0, budget)?;
                budget.spend(
                    (action.outcomes.len() * reaction.outcomes.len()) as u64,
                    &|| format!("{} against {vs}", self.pool),
                )?;
                for &((total, effect, _), p) in &action.outcomes {
                    let a = PoolRoll {
                        total,
                        effect_step: effect,
                        hitches: 0,
                    };
                    for &((r_total, r_effect, _), q) in &reaction.outcomes {
                        let r = PoolRoll {
                            total: r_total,
                            effect_step: r_effect,
                            hitches: 0,
                        };
                        self.record(a, Some(r), p * q, &mut hists, false);
                    }
                }
                // P(no hitch) is a product; the whole distribution is not needed.
                let no_hitch: f64 = vs
                    .dice()
                    .iter()
                    .map(|d| 1.0 - 1.0 / f64::from(d.sides()))
                    .product();
                hists.reaction_hitch = 1.0 - no_hitch;
            }
            _ => {
                for &((total, effect, _), p) in &action.outcomes {
                    let a = PoolRoll {
                        total,
                        effect_step: effect,
                        hitches: 0,
                    };
                    self.record(a, None, p, &mut hists, false);
                }
            }
        }
        Ok(hists)
    }

    /// Every face combination, scored one by one: the slow, obviously
    /// correct cross-check for [`CortexCase::exact_hists`]. Only for small pools.
    pub fn brute_force_hists(&self) -> CortexHists<f64> {
        let reaction_dice: Vec<Die> = match &self.opposition {
            Opposition::Pool(vs) => vs.dice().to_vec(),
            _ => Vec::new(),
        };
        let action_dice = self.pool.dice().to_vec();
        let all: Vec<Die> = action_dice.iter().chain(&reaction_dice).copied().collect();
        let combos: f64 = all.iter().map(|d| f64::from(d.sides())).product();
        let weight = 1.0 / combos;
        let mut faces = vec![1u8; all.len()];
        let mut hists = CortexHists::default();
        loop {
            let (a_faces, r_faces) = faces.split_at(action_dice.len());
            let action = score(&action_dice, a_faces, self.rules.keep);
            let reaction = (!reaction_dice.is_empty())
                .then(|| score(&reaction_dice, r_faces, self.rules.reaction_keep));
            self.record(action, reaction, weight, &mut hists, true);
            // Odometer over every face of every die.
            let mut i = 0;
            loop {
                if i == all.len() {
                    return hists;
                }
                if u32::from(faces[i]) < all[i].sides() {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }

    /// Monte Carlo outcome histograms (probabilities) and the trial count.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<CortexHists<f64>, Interrupted> {
        let reaction = match &self.opposition {
            Opposition::Pool(vs) => dice_table(vs),
            _ => Vec::new(),
        };
        let sampler = CortexSampler {
            case: self,
            action: dice_table(&self.pool),
            reaction,
        };
        let tally = monte_carlo::run(&sampler, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    /// Every SPEC 2 metric from the outcome histograms; one function for
    /// every method.
    pub fn metrics(&self, h: &CortexHists<f64>) -> Vec<Metric> {
        let mut metrics = vec![
            Metric::mean_of("mean_total", &h.total, 1.0),
            Metric::probability("p_hitch", 1.0 - h.hitches.get(0)),
            Metric::mean_of("mean_hitches", &h.hitches, 1.0),
            Metric::probability("p_botch", h.hitches.get(self.pool.len() as i64)),
        ];
        for step in 0..=4 {
            metrics.push(Metric::probability(
                format!("pool_effect_{}", effect_step_label(step)),
                h.pool_effect.get(i64::from(step)),
            ));
        }
        if !self.is_opposed() {
            return metrics;
        }
        let p_success = h.win_effect.mass();
        let heroic = i64::from(self.rules.heroic_step);
        metrics.extend([
            Metric::probability("p_success", p_success),
            Metric::probability("p_tie", h.margin.get(0)),
            Metric::probability("p_heroic", h.margin.mass_where(|m| m >= heroic)),
            Metric::probability("p_reaction_hitch", h.reaction_hitch),
            Metric::mean_of("mean_margin", &h.margin, 1.0),
        ]);
        for step in 0..=4 {
            metrics.push(Metric::probability(
                format!("win_effect_{}", effect_step_label(step)),
                h.win_effect.get(i64::from(step)),
            ));
        }
        metrics.push(Metric::probability(
            "win_effect_beyond",
            h.win_effect.mass_where(|s| s > 4),
        ));
        metrics.push(Metric::mean_of(
            "mean_effect_step",
            &h.win_effect,
            p_success,
        ));
        metrics
    }

    /// The distribution table: `total`, `hitches`, `pool_effect`, and for
    /// opposed rolls `margin` and `win_effect` (SPEC 2).
    pub fn rows(&self, h: &CortexHists<f64>) -> Vec<DistRow> {
        let mut rows = hist_rows("total", &h.total, |o| o.to_string());
        rows.extend(hist_rows("hitches", &h.hitches, |o| o.to_string()));
        for step in 0..=4 {
            rows.push(DistRow::new(
                "pool_effect",
                effect_step_label(step),
                h.pool_effect.get(i64::from(step)),
            ));
        }
        if self.is_opposed() {
            rows.extend(hist_rows("margin", &h.margin, |o| o.to_string()));
            let top = h
                .win_effect
                .support()
                .map(|(s, _)| s)
                .max()
                .unwrap_or(0)
                .max(4);
            for step in 0..=top {
                rows.push(DistRow::new(
                    "win_effect",
                    effect_step_label(step as u32),
                    h.win_effect.get(step),
                ));
            }
            rows.push(DistRow::new("win_effect", "fail", h.fail));
        }
        rows
    }

    fn evaluation(&self, h: &CortexHists<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass: None,
        }
    }
}

impl SystemCase for CortexCase {
    fn system(&self) -> &'static str {
        "cortex"
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = Map::new();
        inputs.insert("pool".into(), json!(self.pool.to_string()));
        match &self.opposition {
            Opposition::None => {}
            Opposition::Pool(vs) => {
                inputs.insert("vs".into(), json!(vs.to_string()));
            }
            Opposition::Difficulty(d) => {
                inputs.insert("difficulty".into(), json!(d));
            }
        }
        inputs.insert("keep".into(), json!(self.rules.keep));
        if let Opposition::Pool(_) = self.opposition {
            inputs.insert("reaction_keep".into(), json!(self.rules.reaction_keep));
        }
        if self.is_opposed() {
            inputs.insert("ties".into(), json!(self.rules.ties.name()));
            inputs.insert("heroic_step".into(), json!(self.rules.heroic_step));
        }
        if let Opposition::Pool(_) = self.opposition {
            inputs.insert(
                "effect_step_down".into(),
                json!(self.rules.effect_step_down),
            );
        }
        inputs.insert("policy".into(), json!(self.rules.policy.name()));
        inputs
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        Ok(self.evaluation(&self.exact_hists(budget)?))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?))
    }

    fn sweep_name(&self, swept: &[String]) -> Option<String> {
        let has = |k: &str| swept.iter().any(|s| s == k);
        if !has("pool") {
            return None;
        }
        let against = match &self.opposition {
            Opposition::Pool(vs) if has("vs") => vs.to_string(),
            Opposition::Difficulty(d) if has("difficulty") => d.to_string(),
            _ => return None,
        };
        Some(format!("{} vs {against}", self.pool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(text: &str) -> Vec<Die> {
        Pool::parse_cortex(text).unwrap().dice().to_vec()
    }

    #[test]
    fn best_two_are_summed_and_the_largest_free_die_is_the_effect() {
        // d10 d8 d6 showing 7, 5, 6: total 7 + 6, the d8 is free.
        let roll = score(&dice("d10 d8 d6"), &[7, 5, 6], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 13,
                effect_step: 2,
                hitches: 0
            }
        );
    }

    #[test]
    fn equal_values_keep_the_larger_die_free() {
        // d12 d8 d6 showing 5, 5, 5: total 10 from the d8 and d6, the d12 is the effect.
        let roll = score(&dice("d12 d8 d6"), &[5, 5, 5], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 10,
                effect_step: 4,
                hitches: 0
            }
        );
        // d10 d6 d6 showing 4, 6, 4: 6 + 4 with the d10's 4 left free.
        let roll = score(&dice("d10 2d6"), &[4, 6, 4], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 10,
                effect_step: 3,
                hitches: 0
            }
        );
    }

    #[test]
    fn hitches_never_count() {
        // d10 d8 d6 showing 1, 8, 3: the d10 is a hitch, total 11, no free die: d4.
        let roll = score(&dice("d10 d8 d6"), &[1, 8, 3], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 11,
                effect_step: 0,
                hitches: 1
            }
        );
        // One live die: its value alone, effect d4.
        let roll = score(&dice("d12 d6"), &[9, 1], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 9,
                effect_step: 0,
                hitches: 1
            }
        );
        // Every die a hitch: a botch, total 0.
        let roll = score(&dice("d8 2d6"), &[1, 1, 1], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 0,
                effect_step: 0,
                hitches: 3
            }
        );
    }

    #[test]
    fn keep_three_sums_three() {
        let roll = score(&dice("d12 d10 d8 d6"), &[2, 9, 8, 6], 3);
        assert_eq!(
            roll,
            PoolRoll {
                total: 23,
                effect_step: 4,
                hitches: 0
            }
        );
    }

    #[test]
    fn heroic_steps_pass_d12_and_step_down_comes_first() {
        let rules = Rules::default();
        assert_eq!(rules.final_effect_step(4, None, 4), 4);
        assert_eq!(rules.final_effect_step(4, None, 5), 5);
        assert_eq!(rules.final_effect_step(4, None, 14), 6);
        let down = Rules {
            effect_step_down: true,
            ..Rules::default()
        };
        // d8 effect against a d10 reaction effect: down to d6, then +1 for margin 5.
        assert_eq!(down.final_effect_step(2, Some(3), 5), 2);
        // d4 stays d4.
        assert_eq!(down.final_effect_step(0, Some(2), 1), 0);
        // Not larger: no step down.
        assert_eq!(down.final_effect_step(2, Some(2), 1), 2);
    }

    #[test]
    fn both_tie_rules() {
        let reaction = Rules::default();
        let action = Rules {
            ties: Ties::Action,
            ..Rules::default()
        };
        assert!(!reaction.succeeds(0));
        assert!(action.succeeds(0));
        assert!(reaction.succeeds(1) && action.succeeds(1));
        assert!(!reaction.succeeds(-1) && !action.succeeds(-1));
    }

    #[test]
    fn the_keep_two_path_scores_like_the_scorer() {
        use crate::engine::rng::block_rng;
        let pool = Pool::parse_cortex("d12 d10 2d8 d6 d4").unwrap();
        let table = dice_table(&pool);
        let mut a = block_rng(5, 0);
        let mut b = block_rng(5, 0);
        let mut fast = DieRoller::new(&mut a);
        let mut slow = DieRoller::new(&mut b);
        for _ in 0..50_000 {
            let quick = roll_pool_keep_two(&table, &mut fast);
            let mut scorer = Scorer::new(2);
            for &(step, sides) in &table {
                scorer.push(step, slow.roll(u32::from(sides)) as u8);
            }
            assert_eq!(quick, scorer.finish());
        }
    }

    #[test]
    fn dp_matches_brute_force_on_a_small_pool() {
        let case = CortexCase {
            pool: Pool::parse_cortex("d10 d8 d6").unwrap(),
            opposition: Opposition::Pool(Pool::parse_cortex("d8 d6").unwrap()),
            rules: Rules {
                effect_step_down: true,
                ..Rules::default()
            },
        };
        let exact = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let brute = case.brute_force_hists();
        for (a, b) in case.metrics(&exact).iter().zip(case.metrics(&brute)) {
            assert!(
                (a.value.unwrap() - b.value.unwrap()).abs() < 1e-12,
                "{}",
                a.name
            );
        }
    }
}
