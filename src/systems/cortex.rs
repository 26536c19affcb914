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
    /// Against a fixed difficulty only: the dice that still beat the number
    /// and leave the largest final effect (free die plus heroic steps), then
    /// the largest total (SPEC 2).
    MaxEffect,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::MaxTotal => "max-total",
            Policy::MaxEffect => "max-effect",
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
    /// Reads the roll rules (`keep`, `reaction_keep`, `ties`, `heroic_step`)
    /// that doom-pool scenes share with plain cortex cases. A scene's
    /// success never depends on the effect die, so `effect_step_down` is
    /// read by [`CortexCase::from_options`] alone.
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

/// Slots a [`Choice`] keeps: one more than the largest total.
const CHOICE_SLOTS: usize = MAX_KEEP + 1;

/// What a roll must remember for the roller to choose the total dice with a
/// known number to beat (`policy = "max-effect"`, SPEC 2): the `keep + 1`
/// highest live values with their dice's steps, and the largest step among
/// the other live dice.
///
/// Why that is enough: whatever the choice, some live die `e` is left free,
/// and the best total with `e` free is the `keep` highest of the other live
/// dice. Leaving free the lowest die of a size costs the least, and removing
/// one die from the live values changes the top `keep` only if the die is
/// among the top `keep + 1`, when the total becomes their sum minus its
/// value. So the best choice is one of `keep + 1` candidates: drop entry i
/// of the top `keep + 1` from the total and leave it free, its effect being
/// at least the larger of its step and the steps left outside. Each
/// candidate's (final effect, total) is what a real choice achieves or
/// beats, and the best real choice is matched by one of them, so the best
/// candidate is the roller's choice. The same memory gives the `max-total`
/// choice (see [`Choice::resolve`]), which the tests hold against [`Scorer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Live values, highest first.
    faces: [u8; CHOICE_SLOTS],
    /// Their dice's steps; 0 where it cannot matter (see `canonical`).
    steps: [u8; CHOICE_SLOTS],
    len: u8,
    /// Largest step among live dice outside `faces`, -1 for none.
    free_step: i8,
    hitches: u16,
}

impl Choice {
    pub fn new() -> Choice {
        Choice {
            faces: [0; CHOICE_SLOTS],
            steps: [0; CHOICE_SLOTS],
            len: 0,
            free_step: -1,
            hitches: 0,
        }
    }

    /// A held die whose step is not above the largest outside step adds
    /// nothing: every candidate leaves the outside dice free too. Zeroing it
    /// lets equivalent states merge in the exact programme.
    fn canonical(mut self) -> Choice {
        if self.free_step >= 0 {
            for i in 0..self.len as usize {
                if self.steps[i] as i8 <= self.free_step {
                    self.steps[i] = 0;
                }
            }
        }
        self
    }

    /// Adds one die of `step` showing `face` (dice may come in any order).
    /// `count_hitches` is false in the exact programme, which takes hitches
    /// from [`hitch_distribution`] instead so that states merge.
    #[inline]
    pub fn push(&mut self, keep: usize, step: u8, face: u8, count_hitches: bool) {
        if face == 1 {
            if count_hitches {
                self.hitches += 1;
            }
            return;
        }
        let slots = keep + 1;
        let len = self.len as usize;
        if len == slots && face <= self.faces[len - 1] {
            self.free_step = self.free_step.max(step as i8);
            return;
        }
        let mut slot = 0;
        while slot < len && self.faces[slot] >= face {
            slot += 1;
        }
        let last = if len == slots {
            self.free_step = self.free_step.max(self.steps[len - 1] as i8);
            len - 1
        } else {
            self.len += 1;
            len
        };
        let mut i = last;
        while i > slot {
            self.faces[i] = self.faces[i - 1];
            self.steps[i] = self.steps[i - 1];
            i -= 1;
        }
        self.faces[slot] = face;
        self.steps[slot] = step;
    }

    /// The roll as scored by `rules.policy`; `difficulty` is the number to
    /// beat (only `max-effect` looks at it). When no choice succeeds the
    /// roll fails as with `max-total` (SPEC 2).
    pub fn resolve(&self, keep: usize, rules: &Rules, difficulty: Option<u32>) -> PoolRoll {
        let len = self.len as usize;
        if len <= keep {
            // Every live die is in the total; no die is free: effect d4.
            return PoolRoll {
                total: self.faces[..len].iter().map(|&f| u32::from(f)).sum(),
                effect_step: 0,
                hitches: u32::from(self.hitches),
            };
        }
        let all: u32 = self.faces[..=keep].iter().map(|&f| u32::from(f)).sum();
        let effect_of = |i: usize| (self.steps[i] as i8).max(self.free_step).max(0) as u32;
        if let (Policy::MaxEffect, Some(d)) = (rules.policy, difficulty) {
            let mut best: Option<(u32, u32, u32)> = None;
            for i in 0..=keep {
                let total = all - u32::from(self.faces[i]);
                let margin = i64::from(total) - i64::from(d);
                if !rules.succeeds(margin) {
                    continue;
                }
                let effect = effect_of(i);
                let last = rules.final_effect_step(effect, None, margin);
                if best.is_none_or(|(f, t, _)| (last, total) > (f, t)) {
                    best = Some((last, total, effect));
                }
            }
            if let Some((_, total, effect_step)) = best {
                return PoolRoll {
                    total,
                    effect_step,
                    hitches: u32::from(self.hitches),
                };
            }
        }
        // max-total: the `keep` highest values; of the dice that can be
        // left free without lowering that total (those showing the lowest
        // of the top `keep + 1` values), the largest is the effect.
        let low = self.faces[keep];
        let effect_step = (0..=keep)
            .filter(|&i| self.faces[i] == low)
            .map(effect_of)
            .max()
            .unwrap_or(0);
        PoolRoll {
            total: all - u32::from(low),
            effect_step,
            hitches: u32::from(self.hitches),
        }
    }
}

impl Default for Choice {
    fn default() -> Self {
        Choice::new()
    }
}

/// Scores a whole roll with a [`Choice`]: `dice` in any order, `faces` the
/// values shown.
pub fn score_choice(
    dice: &[Die],
    faces: &[u8],
    keep: usize,
    rules: &Rules,
    difficulty: Option<u32>,
) -> PoolRoll {
    let mut choice = Choice::new();
    for (die, &face) in dice.iter().zip(faces) {
        choice.push(keep, die.step() as u8, face, true);
    }
    choice.resolve(keep, rules, difficulty)
}

/// `(total, effect step)` outcomes with their probabilities.
pub type TotalEffect = Vec<((u32, u32), f64)>;

/// Exact (total, effect step) distribution of `pool` scored with `rules`
/// against `difficulty`: a dynamic programme over the dice whose state is a
/// [`Choice`]. Faces that cannot enter the top `keep + 1` merge into one
/// transition, as in [`pool_outcomes`].
pub fn choice_outcomes(
    pool: &Pool,
    rules: &Rules,
    difficulty: Option<u32>,
    budget: &mut Budget,
) -> Result<TotalEffect, ExactError> {
    let keep = rules.keep;
    let what = || format!("the pool {pool} with policy \"{}\"", rules.policy.name());
    let mut states: FxHashMap<Choice, f64> = FxHashMap::default();
    states.insert(Choice::new(), 1.0);
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        budget.spend(states.len() as u64 * u64::from(sides), &what)?;
        let p_face = 1.0 / f64::from(sides);
        let mut next: FxHashMap<Choice, f64> =
            FxHashMap::with_capacity_and_hasher(states.len() * 2, Default::default());
        for (state, &p) in &states {
            // A 1 is a hitch and changes nothing else.
            *next.entry(*state).or_insert(0.0) += p * p_face;
            let full = state.len as usize == keep + 1;
            let first_useful = if full { state.faces[keep] + 1 } else { 2 };
            let below = first_useful.min(sides + 1) - 2;
            if below > 0 {
                let mut freed = *state;
                freed.free_step = freed.free_step.max(step as i8);
                *next.entry(freed.canonical()).or_insert(0.0) += p * p_face * f64::from(below);
            }
            for face in first_useful..=sides {
                let mut pushed = *state;
                pushed.push(keep, step, face, false);
                *next.entry(pushed.canonical()).or_insert(0.0) += p * p_face;
            }
        }
        states = next;
    }
    let mut joint: FxHashMap<(u32, u32), f64> = FxHashMap::default();
    for (state, p) in states {
        let roll = state.resolve(keep, rules, difficulty);
        *joint.entry((roll.total, roll.effect_step)).or_insert(0.0) += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(outcomes)
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
        let mut rules = Rules::from_options(&mut options)?;
        if let Some(down) = options.bool("effect_step_down")? {
            rules.effect_step_down = down;
        }
        let policy_item = options.take("policy");
        if options.choice("policy", &["max-total", "max-effect"])? == Some("max-effect") {
            // The roller can only aim for effect when the number to beat is
            // known before choosing (SPEC 2); a reacting pool rolls after.
            if !matches!(opposition, Opposition::Difficulty(_)) {
                return Err(options.error_at(
                    &policy_item.expect("a policy was given"),
                    format!(
                        "{} \"max-effect\" needs a fixed {} (the roller must know the number to beat); against {} or alone use \"max-total\"",
                        options.key_name("policy"),
                        options.key_name("difficulty"),
                        options.key_name("vs")
                    ),
                ));
            }
            rules.policy = Policy::MaxEffect;
        }
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
pub fn dice_table(pool: &Pool) -> Vec<(u8, u8)> {
    pool.dice()
        .iter()
        .map(|d| (d.step() as u8, d.sides() as u8))
        .collect()
}

/// Rolls a pool of (step, sides) dice and scores it. The default `keep = 2`
/// has a branch-light path of its own: it is nearly every roll a user asks
/// about, and the general [`Scorer`] costs half the trial time there.
#[inline(always)]
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

/// [`Scorer`]'s rule for two total dice, branch-free. Each live die becomes
/// one key, `face * 8 + (7 - step)`: a larger key is a higher value or, for
/// equal values, a smaller die, which is exactly the order in which dice
/// enter the total (SPEC 2, max-total tie-break). A hitch is key 0, which
/// never enters the total. Of the two held keys and the new one, the top two
/// stay and the smallest is freed; min/max compile to conditional moves, so
/// the random faces cost no mispredicted branches.
#[inline(always)]
fn roll_pool_keep_two(dice: &[(u8, u8)], roller: &mut DieRoller<'_>) -> PoolRoll {
    let (mut best, mut second) = (0u32, 0u32);
    // Smallest low key bits (7 - step) of a freed die; 8 means none yet.
    let mut free_low = 8u32;
    let mut hitches = 0;
    for &(step, sides) in dice {
        let face = roller.roll(u32::from(sides));
        let hitch = face == 1;
        hitches += u32::from(hitch);
        let key = if hitch {
            0
        } else {
            (face << 3) | (7 - u32::from(step))
        };
        let freed = key.min(second);
        second = second.max(key.min(best));
        best = best.max(key);
        // A freed key of 0 (an empty slot or a hitch) frees no die.
        let low = if freed == 0 { 8 } else { freed & 7 };
        free_low = free_low.min(low);
    }
    PoolRoll {
        total: (best >> 3) + (second >> 3),
        effect_step: if free_low == 8 { 0 } else { 7 - free_low },
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

    #[inline(always)]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let rules = &self.case.rules;
        let mut roller = DieRoller::new(rng);
        let action = match (rules.policy, &self.case.opposition) {
            (Policy::MaxEffect, Opposition::Difficulty(d)) => {
                let mut choice = Choice::new();
                for &(step, sides) in &self.action {
                    choice.push(rules.keep, step, roller.roll(u32::from(sides)) as u8, true);
                }
                choice.resolve(rules.keep, rules, Some(*d))
            }
            _ => roll_pool(&self.action, rules.keep, &mut roller),
        };
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
        // The hitch convolution is quadratic in the number of dice; it is
        // budgeted too, or `100000d4` would pass the DP's check and then
        // spend seconds here.
        let n = self.pool.len() as u64;
        budget.spend(n * (n + 1) / 2, &|| format!("the pool {}", self.pool))?;
        let mut hists = CortexHists {
            hitches: hitch_distribution(&self.pool),
            ..CortexHists::default()
        };
        if let (Policy::MaxEffect, Opposition::Difficulty(d)) =
            (self.rules.policy, &self.opposition)
        {
            for ((total, effect_step), p) in
                choice_outcomes(&self.pool, &self.rules, Some(*d), budget)?
            {
                let roll = PoolRoll {
                    total,
                    effect_step,
                    hitches: 0,
                };
                self.record(roll, None, p, &mut hists, false);
            }
            return Ok(hists);
        }
        let action = pool_outcomes(&self.pool, self.rules.keep, 0, budget)?;
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
            let action = match (self.rules.policy, &self.opposition) {
                (Policy::MaxEffect, Opposition::Difficulty(d)) => score_choice(
                    &action_dice,
                    a_faces,
                    self.rules.keep,
                    &self.rules,
                    Some(*d),
                ),
                _ => score(&action_dice, a_faces, self.rules.keep),
            };
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
    fn system(&self) -> super::System {
        super::System::Cortex
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

    /// Every face combination of `dice`, in odometer order.
    fn every_roll(dice: &[Die], mut f: impl FnMut(&[u8])) {
        let mut faces = vec![1u8; dice.len()];
        loop {
            f(&faces);
            let mut i = 0;
            loop {
                if i == dice.len() {
                    return;
                }
                if u32::from(faces[i]) < dice[i].sides() {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }

    /// The max-effect choice by trying every set of `keep` live dice: slow,
    /// and plainly what SPEC 2 says.
    fn max_effect_by_subsets(
        dice: &[Die],
        faces: &[u8],
        rules: &Rules,
        difficulty: u32,
    ) -> PoolRoll {
        let keep = rules.keep;
        let live: Vec<usize> = (0..dice.len()).filter(|&i| faces[i] != 1).collect();
        let hitches = (dice.len() - live.len()) as u32;
        if live.len() <= keep {
            return score(dice, faces, keep);
        }
        let mut best: Option<(u32, u32, u32)> = None;
        for mask in 0u32..(1 << live.len()) {
            if mask.count_ones() as usize != keep {
                continue;
            }
            let mut total = 0;
            let mut free: Option<u32> = None;
            for (bit, &i) in live.iter().enumerate() {
                if mask & (1 << bit) != 0 {
                    total += u32::from(faces[i]);
                } else {
                    free = free.max(Some(dice[i].step()));
                }
            }
            let effect = free.unwrap_or(0);
            let margin = i64::from(total) - i64::from(difficulty);
            if rules.succeeds(margin) {
                let last = rules.final_effect_step(effect, None, margin);
                if best.is_none_or(|(f, t, _)| (last, total) > (f, t)) {
                    best = Some((last, total, effect));
                }
            }
        }
        match best {
            Some((_, total, effect_step)) => PoolRoll {
                total,
                effect_step,
                hitches,
            },
            None => score(dice, faces, keep),
        }
    }

    #[test]
    fn choice_scores_max_total_like_the_scorer() {
        for (text, keep) in [
            ("d12 d10 d8 d6", 2),
            ("d8 2d6 d4", 1),
            ("d10 2d8 d6", 3),
            ("2d6", 2),
        ] {
            let dice = dice(text);
            let rules = Rules {
                keep,
                ..Rules::default()
            };
            every_roll(&dice, |faces| {
                assert_eq!(
                    score_choice(&dice, faces, keep, &rules, None),
                    score(&dice, faces, keep),
                    "{text} keep {keep} faces {faces:?}"
                );
            });
        }
    }

    #[test]
    fn max_effect_is_the_best_choice_and_never_worse_than_max_total() {
        // SPEC 2: the same faces, the same success, a final effect step at
        // least as large; checked against trying every set of total dice.
        let mut improved = 0;
        for (text, keep) in [
            ("d12 d10 d8 d6", 2),
            ("d10 2d8 d6", 2),
            ("d12 d8 2d6", 3),
            ("d8 d6 d4", 1),
        ] {
            let dice = dice(text);
            for ties in [Ties::Reaction, Ties::Action] {
                for heroic_step in [1, 2, 5] {
                    let rules = Rules {
                        keep,
                        ties,
                        heroic_step,
                        policy: Policy::MaxEffect,
                        ..Rules::default()
                    };
                    let plain = Rules {
                        policy: Policy::MaxTotal,
                        ..rules
                    };
                    for difficulty in [0, 3, 7, 11, 15, 19] {
                        every_roll(&dice, |faces| {
                            let chosen = score_choice(&dice, faces, keep, &rules, Some(difficulty));
                            assert_eq!(
                                chosen,
                                max_effect_by_subsets(&dice, faces, &rules, difficulty),
                                "{text} {faces:?} vs {difficulty}"
                            );
                            let greedy = score(&dice, faces, keep);
                            let margin = |r: PoolRoll| i64::from(r.total) - i64::from(difficulty);
                            let won = rules.succeeds(margin(chosen));
                            assert_eq!(won, plain.succeeds(margin(greedy)));
                            if won {
                                let a = rules.final_effect_step(
                                    chosen.effect_step,
                                    None,
                                    margin(chosen),
                                );
                                let b = plain.final_effect_step(
                                    greedy.effect_step,
                                    None,
                                    margin(greedy),
                                );
                                assert!(a >= b, "{text} {faces:?} vs {difficulty}");
                                improved += usize::from(a > b);
                            } else {
                                assert_eq!(chosen, greedy);
                            }
                        });
                    }
                }
            }
        }
        // The policy does something.
        assert!(improved > 0);
    }

    #[test]
    fn max_effect_hand_checked_roll() {
        // d10 d8 d6 showing 6, 6, 2 against 7 (heroic_step 5). max-total sums
        // the two 6s (12, margin 5) with the d6 free: d6 + 1 step = step 2.
        // The choices: d10 + d8 = 12, d6 free: step 2; d10 + d6 = 8, d8 free:
        // step 2; d8 + d6 = 8, d10 free: step 3. max-effect takes the last.
        let dice = dice("d10 d8 d6");
        let rules = Rules {
            policy: Policy::MaxEffect,
            ..Rules::default()
        };
        let greedy = score(&dice, &[6, 6, 2], 2);
        assert_eq!((greedy.total, greedy.effect_step), (12, 1));
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &rules, Some(7));
        assert_eq!((chosen.total, chosen.effect_step), (8, 3));
        // Against 8 (ties to the reaction) only 6 + 6 succeeds: max-total's choice.
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &rules, Some(8));
        assert_eq!((chosen.total, chosen.effect_step), (12, 1));
        // With equal totals winning, 8 against 8 succeeds with the d10 free
        // (step 3), better than 12 with the d6 free and no heroic step.
        let action_ties = Rules {
            ties: Ties::Action,
            ..rules
        };
        let chosen = score_choice(&dice, &[6, 6, 2], 2, &action_ties, Some(8));
        assert_eq!((chosen.total, chosen.effect_step), (8, 3));
    }

    #[test]
    fn max_effect_dp_matches_brute_force() {
        for (text, difficulty, ties) in [
            ("d10 d8 d6 d6", 9, Ties::Reaction),
            ("d12 d8 d4", 6, Ties::Action),
            ("d6 d4", 3, Ties::Reaction),
        ] {
            let case = CortexCase {
                pool: Pool::parse_cortex(text).unwrap(),
                opposition: Opposition::Difficulty(difficulty),
                rules: Rules {
                    policy: Policy::MaxEffect,
                    ties,
                    heroic_step: 2,
                    ..Rules::default()
                },
            };
            let exact = case.exact_hists(&mut Budget::unlimited()).unwrap();
            let brute = case.brute_force_hists();
            for (a, b) in case.metrics(&exact).iter().zip(case.metrics(&brute)) {
                assert_eq!(a.name, b.name);
                match (a.value, b.value) {
                    (Some(x), Some(y)) => assert!((x - y).abs() < 1e-12, "{text}: {}", a.name),
                    (x, y) => assert_eq!(x, y, "{text}: {}", a.name),
                }
            }
        }
    }

    #[test]
    fn max_effect_keeps_p_success_and_raises_the_mean_effect() {
        let pool = Pool::parse_cortex("d12 d10 d8 d6").unwrap();
        let case = |policy| CortexCase {
            pool: pool.clone(),
            opposition: Opposition::Difficulty(11),
            rules: Rules {
                policy,
                ..Rules::default()
            },
        };
        let get = |policy, name: &str| {
            let c = case(policy);
            let h = c.exact_hists(&mut Budget::unlimited()).unwrap();
            c.metrics(&h)
                .into_iter()
                .find(|m| m.name == name)
                .unwrap()
                .value
                .unwrap()
        };
        let (a, b) = (
            get(Policy::MaxTotal, "p_success"),
            get(Policy::MaxEffect, "p_success"),
        );
        assert!((a - b).abs() < 1e-12);
        assert!(
            get(Policy::MaxEffect, "mean_effect_step") > get(Policy::MaxTotal, "mean_effect_step")
        );
    }
}
