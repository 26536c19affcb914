//! The advantage die (SPEC 4; seed `advantage-die.ru.txt`): Powered by the
//! Apocalypse style 2d6 + stat rolls (miss, weak hit, strong hit) over an
//! encounter, with a counter die that grows as the encounter goes on and may
//! replace the lower of the two dice, "up to turning a miss into a 10+".
//!
//! One rule function ([`AdvantageCase::resolve_roll`], steps 2 to 5 of SPEC 4,
//! and [`AdvantageCase::after_chances`], steps 6 and 7) decides every roll.
//! The Monte Carlo sampler reads it through a table over the 36 faces of 2d6;
//! the exact method is a Markov chain over the counter value (and, per
//! metric, the running count the metric needs) stepped roll by roll over the
//! same table; a brute-force enumeration of every path checks the chain.

use rand::distr::Bernoulli;
use rand::RngExt;
use serde_json::{json, Map, Value};

use crate::distribution::{DistRow, Evaluation, Hist, Metric, Spread};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::DiceRng;
use crate::options::{KeyStyle, OptionError, Options, RawValue};

use super::SystemCase;

/// The keys an advantage case accepts.
pub const KEYS: &[&str] = &[
    "die",
    "stat",
    "rolls",
    "policy",
    "threshold",
    "gain_on",
    "gain_chance",
    "gm_reduce_chance",
    "miss_max",
    "strong_min",
    "on_use",
];

/// The advantage die sizes SPEC 4 allows (d4, d6 default, d8; d10 and d12).
pub const DIE_SIZES: &[u8] = &[4, 6, 8, 10, 12];

/// Longest encounter accepted. Far beyond any table's encounter; the exact
/// chain refuses (through its budget) well before this, Monte Carlo answers.
pub const MAX_ROLLS: i64 = 1000;

/// Bound on `stat`, `miss_max` and `strong_min`: 2d6 spans 2..12, so any
/// value this far out already decides every roll.
pub const MAX_MODIFIER: i64 = 100;

/// Largest per-tier gain accepted; anything at or above the die size fills it.
pub const MAX_GAIN: i64 = 1000;

/// The result of one roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    Miss = 0,
    Weak = 1,
    Strong = 2,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Miss, Tier::Weak, Tier::Strong];

    pub fn name(self) -> &'static str {
        match self {
            Tier::Miss => "miss",
            Tier::Weak => "weak",
            Tier::Strong => "strong",
        }
    }
}

/// When the player spends the counter (SPEC 4, step 2). Every policy uses
/// it only when that raises the tier: spending it for nothing would reset
/// it for nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Whenever it raises the tier.
    Greedy,
    /// Only when the counter is at least this value.
    Threshold(u8),
    /// Only on the encounter's last roll (the seed: "use it before the end
    /// of the encounter", since it resets then anyway).
    Last,
    /// Never: plain 2d6 + stat, the baseline.
    Never,
}

impl Policy {
    pub const NAMES: &'static [&'static str] = &["greedy", "threshold", "last", "never"];

    pub fn name(self) -> &'static str {
        match self {
            Policy::Greedy => "greedy",
            Policy::Threshold(_) => "threshold",
            Policy::Last => "last",
            Policy::Never => "never",
        }
    }
}

/// What a used counter becomes (SPEC 4, step 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUse {
    /// Back to 1 (seed: "после того как игрок его использует" it resets to one).
    Reset,
    /// The value of the die it replaced (the seed's exchange variant:
    /// "менять значение превосходства на ... значение кубика").
    Swap,
}

impl OnUse {
    pub fn name(self) -> &'static str {
        match self {
            OnUse::Reset => "reset",
            OnUse::Swap => "swap",
        }
    }
}

/// What one roll did, before the chance gain and the GM's reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollOutcome {
    pub tier: Tier,
    /// The counter replaced a die.
    pub used: bool,
    /// The dice alone were a miss, and the counter made a strong hit.
    pub miss_to_strong: bool,
    /// The counter after steps 4 and 5 (reset or swap, then the tier gain).
    pub counter: u8,
}

impl RollOutcome {
    /// The roll as bits: one per tier, then used, then miss-to-strong, in
    /// the order of [`Counts`].
    fn flags(self) -> u8 {
        (1 << self.tier as u8)
            | (u8::from(self.used) << USES)
            | (u8::from(self.miss_to_strong) << M2S)
    }
}

/// Indices of the per-encounter counts: one per tier, then uses, then
/// misses turned into strong hits.
const STRONG: usize = 2;
const USES: usize = 3;
const M2S: usize = 4;
const COUNTS: usize = 5;

/// A resolved advantage case.
#[derive(Debug, Clone, PartialEq)]
pub struct AdvantageCase {
    /// Sides of the advantage die: the counter's largest value.
    pub die: u8,
    pub stat: i32,
    pub rolls: u32,
    pub policy: Policy,
    /// Gain per tier of the roll, indexed by [`Tier`].
    pub gain_on: [u32; 3],
    pub gain_chance: f64,
    pub gm_reduce_chance: f64,
    pub miss_max: i32,
    pub strong_min: i32,
    pub on_use: OnUse,
}

impl Default for AdvantageCase {
    /// SPEC 4's defaults.
    fn default() -> Self {
        AdvantageCase {
            die: 6,
            stat: 0,
            rolls: 4,
            policy: Policy::Greedy,
            gain_on: [0; 3],
            gain_chance: 0.5,
            gm_reduce_chance: 0.0,
            miss_max: 6,
            strong_min: 10,
            on_use: OnUse::Reset,
        }
    }
}

/// Parses `d4` .. `d12` (a `D` works too).
fn parse_die(text: &str) -> Option<u8> {
    let sides: u8 = text.trim().strip_prefix(['d', 'D'])?.parse().ok()?;
    DIE_SIZES.contains(&sides).then_some(sides)
}

/// How a sub-key of `gain_on` is named in messages.
fn gain_key(options: &Options, tier: &str) -> String {
    match options.style() {
        KeyStyle::Toml => format!("`gain_on.{tier}`"),
        KeyStyle::Flag => format!("`--gain-on` {tier}"),
    }
}

impl AdvantageCase {
    pub fn from_options(mut options: Options) -> Result<AdvantageCase, OptionError> {
        let mut case = AdvantageCase::default();
        if let Some((text, item)) = options.string("die")? {
            case.die = parse_die(&text).ok_or_else(|| {
                options.error_at(
                    &item,
                    format!(
                        "{} is \"{text}\"; the advantage die is d4, d6, d8, d10 or d12",
                        options.key_name("die")
                    ),
                )
            })?;
        }
        if let Some(stat) = options.int("stat", -MAX_MODIFIER, MAX_MODIFIER)? {
            case.stat = stat as i32;
        }
        if let Some(rolls) = options.int("rolls", 1, MAX_ROLLS)? {
            case.rolls = rolls as u32;
        }
        let policy = options.choice("policy", Policy::NAMES)?.unwrap_or("greedy");
        let threshold_item = options.take("threshold");
        case.policy = match policy {
            "threshold" => {
                let Some(item) = threshold_item else {
                    return Err(options.case_error(format!(
                        "{} \"threshold\" needs {}, the least counter value worth spending (1 to {}, the die size)",
                        options.key_name("policy"),
                        options.key_name("threshold"),
                        case.die
                    )));
                };
                match item.value {
                    RawValue::Int(t) if (1..=i64::from(case.die)).contains(&t) => {
                        Policy::Threshold(t as u8)
                    }
                    RawValue::Int(t) => {
                        return Err(options.error_at(
                            &item,
                            format!(
                                "{} must be a whole number from 1 to {} (the d{}'s size), not {t}",
                                options.key_name("threshold"),
                                case.die,
                                case.die
                            ),
                        ))
                    }
                    ref other => {
                        return Err(options.error_at(
                            &item,
                            format!(
                                "{} must be a whole number from 1 to {}, not {}",
                                options.key_name("threshold"),
                                case.die,
                                other.type_name()
                            ),
                        ))
                    }
                }
            }
            other => {
                // A threshold from the defaults table is simply not used by
                // other policies (as a default `vs` gives way to a case's
                // `difficulty`); one written on the case itself is a mistake.
                if let Some(item) = threshold_item.filter(|i| i.layer > 0) {
                    return Err(options.error_at(
                        &item,
                        format!(
                            "{} only applies with {} \"threshold\", not \"{other}\"",
                            options.key_name("threshold"),
                            options.key_name("policy")
                        ),
                    ));
                }
                match other {
                    "last" => Policy::Last,
                    "never" => Policy::Never,
                    _ => Policy::Greedy,
                }
            }
        };
        if let Some((entries, _)) = options.table("gain_on")? {
            for (tier, item) in &entries {
                let Some(index) = Tier::ALL.iter().position(|t| t.name() == tier) else {
                    return Err(options.error_at(
                        item,
                        format!(
                            "unknown tier `{tier}` in {}; allowed: miss, weak, strong",
                            options.key_name("gain_on")
                        ),
                    ));
                };
                case.gain_on[index] = match item.value {
                    RawValue::Int(g) if (0..=MAX_GAIN).contains(&g) => g as u32,
                    ref other => {
                        let shown = match other {
                            RawValue::Int(g) => g.to_string(),
                            RawValue::Float(x) => x.to_string(),
                            RawValue::Str(text) => format!("\"{text}\""),
                            other => other.type_name().to_string(),
                        };
                        return Err(options.error_at(
                            item,
                            format!(
                                "{} must be a whole number from 0 to {MAX_GAIN}, not {shown}",
                                gain_key(&options, tier)
                            ),
                        ));
                    }
                };
            }
        }
        if let Some(p) = options.float("gain_chance", 0.0, 1.0)? {
            case.gain_chance = p;
        }
        if let Some(p) = options.float("gm_reduce_chance", 0.0, 1.0)? {
            case.gm_reduce_chance = p;
        }
        let miss_item = options.take("miss_max");
        if let Some(m) = options.int("miss_max", -MAX_MODIFIER, MAX_MODIFIER)? {
            case.miss_max = m as i32;
        }
        if let Some(s) = options.int("strong_min", -MAX_MODIFIER, MAX_MODIFIER)? {
            case.strong_min = s as i32;
        }
        if case.miss_max >= case.strong_min {
            let message = format!(
                "{} ({}) must be below {} ({}): a total is a miss at or below the one and a strong hit at or above the other",
                options.key_name("miss_max"),
                case.miss_max,
                options.key_name("strong_min"),
                case.strong_min
            );
            return Err(match miss_item {
                Some(item) => options.error_at(&item, message),
                None => options.case_error(message),
            });
        }
        if let Some(on_use) = options.choice("on_use", &["reset", "swap"])? {
            case.on_use = if on_use == "swap" {
                OnUse::Swap
            } else {
                OnUse::Reset
            };
        }
        options.finish()?;
        Ok(case)
    }

    /// The tier of a total (SPEC 4: `miss_max` or less a miss, `strong_min`
    /// or more a strong hit, a weak hit between).
    pub fn tier(&self, total: i32) -> Tier {
        if total <= self.miss_max {
            Tier::Miss
        } else if total >= self.strong_min {
            Tier::Strong
        } else {
            Tier::Weak
        }
    }

    /// Steps 2 to 5 of SPEC 4 for a roll of `dice` with the counter at
    /// `counter`; `last` is whether this is the encounter's last roll.
    pub fn resolve_roll(&self, counter: u8, dice: (u8, u8), last: bool) -> RollOutcome {
        let (low, high) = (dice.0.min(dice.1), dice.0.max(dice.1));
        let plain = self.tier(i32::from(low) + i32::from(high) + self.stat);
        // Step 2: the counter replaces the lower die (seed: "заменить значение
        // любого брошенного кубика значением своего превосходства"; the lower
        // die is the one worth replacing), if the policy allows and it helps.
        let boosted = self.tier(i32::from(counter) + i32::from(high) + self.stat);
        let allowed = match self.policy {
            Policy::Greedy => true,
            Policy::Threshold(t) => counter >= t,
            Policy::Last => last,
            Policy::Never => false,
        };
        let used = allowed && boosted > plain;
        // Step 3: the tier of the dice as they now stand.
        let tier = if used { boosted } else { plain };
        // Step 4: a used counter resets to 1 (seed: "превосходство
        // сбрасывается до одного, после того как игрок его использует") or
        // swaps with the replaced die. Only a counter above the lower die can
        // raise the tier, so a swapped value is always below the die size.
        let mut next = match (used, self.on_use) {
            (false, _) => counter,
            (true, OnUse::Reset) => 1,
            (true, OnUse::Swap) => low,
        };
        // Step 5: the tier's gain; past the die size it is lost at once
        // (seed: "игнорируй все последующие указания о его повышении").
        next = self.raise(next, self.gain_on[tier as usize]);
        RollOutcome {
            tier,
            used,
            miss_to_strong: used && plain == Tier::Miss && tier == Tier::Strong,
            counter: next,
        }
    }

    /// The counter raised by `gain`, never past the die size.
    fn raise(&self, counter: u8, gain: u32) -> u8 {
        (u32::from(counter) + gain).min(u32::from(self.die)) as u8
    }

    /// Steps 6 and 7: the chance gain (if `gained`), then the GM's reduction
    /// (if `reduced`; seed: "Мастер может уменьшить значение превосходства
    /// на один"), never below 1.
    pub fn after_chances(&self, counter: u8, gained: bool, reduced: bool) -> u8 {
        let counter = if gained {
            self.raise(counter, 1)
        } else {
            counter
        };
        if reduced {
            counter.saturating_sub(1).max(1)
        } else {
            counter
        }
    }

    /// For each counter value (index value - 1) and each of the 36 faces of
    /// 2d6 (index 6 (first - 1) + second - 1): the counter after step 5 and
    /// the roll's flags. `last` selects the encounter's last roll.
    fn face_table(&self, last: bool) -> Vec<[(u8, u8); 36]> {
        (1..=self.die)
            .map(|counter| {
                let mut row = [(0u8, 0u8); 36];
                for (x, slot) in row.iter_mut().enumerate() {
                    let dice = ((x / 6 + 1) as u8, (x % 6 + 1) as u8);
                    let outcome = self.resolve_roll(counter, dice, last);
                    *slot = (outcome.counter, outcome.flags());
                }
                row
            })
            .collect()
    }

    /// The chance steps as weighted branches `(gained, reduced, probability)`,
    /// leaving out branches that cannot happen.
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

    /// The chain's transitions for one roll: per counter value (index value
    /// - 1), every (next counter, flags) with its probability, merged.
    fn transitions(&self, last: bool) -> Vec<Vec<(u8, u8, f64)>> {
        let branches = self.chance_branches();
        self.face_table(last)
            .iter()
            .map(|row| {
                let mut out: Vec<(u8, u8, f64)> = Vec::new();
                for &(counter, flags) in row {
                    for &(gained, reduced, p) in &branches {
                        let next = self.after_chances(counter, gained, reduced);
                        let q = p / 36.0;
                        match out.iter_mut().find(|e| e.0 == next && e.1 == flags) {
                            Some(entry) => entry.2 += q,
                            None => out.push((next, flags, q)),
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// The exact histograms: a Markov chain stepped roll by roll. For each
    /// per-encounter count (misses, weak hits, strong hits, uses, misses
    /// turned strong) the state is (counter value, count so far); the
    /// per-roll tiers come from the counter's distribution before each roll.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<AdvantageHists<f64>, ExactError> {
        let tables = [self.transitions(false), self.transitions(true)];
        let n = self.rolls as usize;
        let size = usize::from(self.die);
        let entries: u64 = tables[0].iter().map(|t| t.len() as u64).sum();
        let steps = (COUNTS as u64 * entries).saturating_mul((n * (n + 1) / 2) as u64);
        budget.spend(steps, &|| {
            format!("an encounter of {} rolls with a d{}", self.rolls, self.die)
        })?;
        let width = n + 1;
        let at = |k: usize, c: usize, count: usize| (k * size + c) * width + count;
        let mut state = vec![0.0f64; COUNTS * size * width];
        for k in 0..COUNTS {
            state[at(k, 0, 0)] = 1.0;
        }
        let mut tier_by_roll = Vec::with_capacity(n);
        for roll in 0..n {
            let table = &tables[usize::from(roll + 1 == n)];
            let mut tiers = [0.0; 3];
            for (c, moves) in table.iter().enumerate() {
                let p: f64 = (0..=roll).map(|count| state[at(0, c, count)]).sum();
                for &(_, flags, q) in moves {
                    tiers[(flags & 7).trailing_zeros() as usize] += p * q;
                }
            }
            tier_by_roll.push(tiers);
            let mut next = vec![0.0f64; state.len()];
            for k in 0..COUNTS {
                for (c, moves) in table.iter().enumerate() {
                    for count in 0..=roll {
                        let p = state[at(k, c, count)];
                        if p == 0.0 {
                            continue;
                        }
                        for &(to, flags, q) in moves {
                            let step = usize::from((flags >> k) & 1);
                            next[at(k, usize::from(to) - 1, count + step)] += p * q;
                        }
                    }
                }
            }
            state = next;
        }
        let per_encounter = std::array::from_fn(|k| {
            let mut hist = Hist::with_range(0, n as i64);
            for c in 0..size {
                for count in 0..=n {
                    hist.add(count as i64, state[at(k, c, count)]);
                }
            }
            hist
        });
        Ok(AdvantageHists {
            per_encounter,
            tier_by_roll,
        })
    }

    /// Every path of faces and chance branches, followed one by one: the
    /// slow, obviously correct cross-check of [`AdvantageCase::exact_hists`].
    /// Only for short encounters (36^rolls x 4^rolls paths).
    pub fn brute_force_hists(&self) -> AdvantageHists<f64> {
        let n = self.rolls as usize;
        let mut hists = AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, n as i64)),
            tier_by_roll: vec![[0.0; 3]; n],
        };
        let branches = self.chance_branches();
        #[allow(clippy::too_many_arguments)]
        fn walk(
            case: &AdvantageCase,
            branches: &[(bool, bool, f64)],
            roll: usize,
            counter: u8,
            p: f64,
            counts: [i64; COUNTS],
            hists: &mut AdvantageHists<f64>,
        ) {
            let n = case.rolls as usize;
            if roll == n {
                for (k, &count) in counts.iter().enumerate() {
                    hists.per_encounter[k].add(count, p);
                }
                return;
            }
            for first in 1..=6u8 {
                for second in 1..=6u8 {
                    let outcome = case.resolve_roll(counter, (first, second), roll + 1 == n);
                    let p_face = p / 36.0;
                    hists.tier_by_roll[roll][outcome.tier as usize] += p_face;
                    let mut counts = counts;
                    counts[outcome.tier as usize] += 1;
                    counts[USES] += i64::from(outcome.used);
                    counts[M2S] += i64::from(outcome.miss_to_strong);
                    for &(gained, reduced, q) in branches {
                        let next = case.after_chances(outcome.counter, gained, reduced);
                        walk(case, branches, roll + 1, next, p_face * q, counts, hists);
                    }
                }
            }
        }
        walk(self, &branches, 0, 1, 1.0, [0; COUNTS], &mut hists);
        hists
    }

    /// Monte Carlo histograms (probabilities): each trial one encounter.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<AdvantageHists<f64>, Interrupted> {
        let bernoulli =
            |p: f64| (p > 0.0).then(|| Bernoulli::new(p).expect("a probability validated to 0..1"));
        let mut table = self.face_table(false);
        table.extend(self.face_table(true));
        let sampler = AdvantageSampler {
            case: self,
            table,
            gain: bernoulli(self.gain_chance),
            reduce: bernoulli(self.gm_reduce_chance),
        };
        let tally = monte_carlo::run(&sampler, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    /// Every SPEC 4 metric from the histograms; one function for every
    /// method. The per-roll shares are means of each encounter's share
    /// (count / rolls), so their Monte Carlo intervals are mean +/- z
    /// standard errors over encounters, as SPEC 4 asks.
    pub fn metrics(&self, h: &AdvantageHists<f64>) -> Vec<Metric> {
        let rolls = f64::from(self.rolls);
        let mut metrics: Vec<Metric> = Tier::ALL
            .iter()
            .map(|tier| {
                let (mean, variance) = h.per_encounter[*tier as usize]
                    .mean_variance()
                    .unwrap_or((0.0, 0.0));
                Metric {
                    name: format!("p_{}", tier.name()),
                    value: Some(mean / rolls),
                    spread: Spread::Mean {
                        variance: variance / (rolls * rolls),
                        base: 1.0,
                    },
                }
            })
            .collect();
        let strong = &h.per_encounter[STRONG];
        metrics.extend([
            Metric::mean_of("strong_per_encounter", strong, 1.0),
            Metric::probability("p_encounter_strong", strong.mass() - strong.get(0)),
            Metric::mean_of("uses_per_encounter", &h.per_encounter[USES], 1.0),
            Metric::mean_of("miss_to_strong_per_encounter", &h.per_encounter[M2S], 1.0),
        ]);
        metrics
    }

    /// The distribution table: `tier_roll_1` .. `tier_roll_<rolls>`, each
    /// with outcomes `miss`, `weak`, `strong` (SPEC 4).
    pub fn rows(&self, h: &AdvantageHists<f64>) -> Vec<DistRow> {
        let mut rows = Vec::with_capacity(h.tier_by_roll.len() * 3);
        for (i, tiers) in h.tier_by_roll.iter().enumerate() {
            let variable = format!("tier_roll_{}", i + 1);
            for tier in Tier::ALL {
                rows.push(DistRow::new(&variable, tier.name(), tiers[tier as usize]));
            }
        }
        rows
    }

    fn evaluation(&self, h: &AdvantageHists<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass: None,
        }
    }
}

/// The outcome histograms of an advantage case: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq)]
pub struct AdvantageHists<W> {
    /// Per encounter, the distribution of the number of misses, weak hits,
    /// strong hits, uses of the counter and misses turned into strong hits.
    pub per_encounter: [Hist<W>; COUNTS],
    /// Per roll, the weight of each tier (indexed by [`Tier`]).
    pub tier_by_roll: Vec<[W; 3]>,
}

impl AdvantageHists<u64> {
    fn to_probabilities(&self, trials: u64) -> AdvantageHists<f64> {
        let n = trials as f64;
        AdvantageHists {
            per_encounter: std::array::from_fn(|k| self.per_encounter[k].to_probabilities(trials)),
            tier_by_roll: self
                .tier_by_roll
                .iter()
                .map(|t| t.map(|c| c as f64 / n))
                .collect(),
        }
    }
}

/// The Monte Carlo trial: one encounter, read through the face tables.
struct AdvantageSampler<'a> {
    case: &'a AdvantageCase,
    /// [`AdvantageCase::face_table`] for a roll that is not the last, then
    /// for the last (index `die` + counter - 1).
    table: Vec<[(u8, u8); 36]>,
    gain: Option<Bernoulli>,
    reduce: Option<Bernoulli>,
}

impl Sampler for AdvantageSampler<'_> {
    type Tally = AdvantageHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let n = self.case.rolls as usize;
        AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, n as i64)),
            tier_by_roll: vec![[0; 3]; n],
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let n = self.case.rolls as usize;
        let size = usize::from(self.case.die);
        let mut counter = 1u8;
        let mut counts = [0i64; COUNTS];
        for (roll, tiers) in tally.tier_by_roll.iter_mut().enumerate() {
            let last = roll + 1 == n;
            let row = if last { size } else { 0 } + usize::from(counter) - 1;
            let (next, flags) = self.table[row][rng.random_range(0..36usize)];
            let tier = (flags & 7).trailing_zeros() as usize;
            tiers[tier] += 1;
            counts[tier] += 1;
            counts[USES] += i64::from((flags >> USES) & 1);
            counts[M2S] += i64::from((flags >> M2S) & 1);
            if last {
                break;
            }
            let gained = self.gain.is_some_and(|b| rng.sample(b));
            let reduced = self.reduce.is_some_and(|b| rng.sample(b));
            counter = self.case.after_chances(next, gained, reduced);
        }
        for (hist, count) in tally.per_encounter.iter_mut().zip(counts) {
            hist.add(count, 1);
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        for (a, b) in into.per_encounter.iter_mut().zip(&other.per_encounter) {
            a.merge(b);
        }
        for (a, b) in into.tier_by_roll.iter_mut().zip(&other.tier_by_roll) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

impl SystemCase for AdvantageCase {
    fn system(&self) -> super::System {
        super::System::Advantage
    }

    fn inputs(&self) -> Map<String, Value> {
        // With policy "never" the counter is never spent, so the die and
        // the counter's rules do not apply and are left out (SPEC 8).
        let counter_applies = self.policy != Policy::Never;
        let mut inputs = Map::new();
        if counter_applies {
            inputs.insert("die".into(), json!(format!("d{}", self.die)));
        }
        inputs.insert("stat".into(), json!(self.stat));
        inputs.insert("rolls".into(), json!(self.rolls));
        inputs.insert("policy".into(), json!(self.policy.name()));
        if let Policy::Threshold(t) = self.policy {
            inputs.insert("threshold".into(), json!(t));
        }
        inputs.insert("miss_max".into(), json!(self.miss_max));
        inputs.insert("strong_min".into(), json!(self.strong_min));
        if !counter_applies {
            return inputs;
        }
        let gains: Map<String, Value> = Tier::ALL
            .iter()
            .map(|t| (t.name().to_string(), json!(self.gain_on[*t as usize])))
            .collect();
        inputs.insert("gain_on".into(), Value::Object(gains));
        inputs.insert("gain_chance".into(), json!(self.gain_chance));
        inputs.insert("gm_reduce_chance".into(), json!(self.gm_reduce_chance));
        inputs.insert("on_use".into(), json!(self.on_use.name()));
        inputs
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        Ok(self.evaluation(&self.exact_hists(budget)?))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric(metrics: &[Metric], name: &str) -> f64 {
        metrics
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.value)
            .unwrap_or_else(|| panic!("no metric {name}"))
    }

    #[test]
    fn a_miss_of_two_and_one_becomes_a_strong_hit_with_counter_eight() {
        // Dice 2 and 1, stat 0: 3, a miss. The d8 counter at 8 replaces the
        // 1: 2 + 8 = 10, a strong hit; the counter resets to 1.
        let case = AdvantageCase {
            die: 8,
            gain_on: [0, 0, 0],
            ..AdvantageCase::default()
        };
        let out = case.resolve_roll(8, (2, 1), false);
        assert_eq!(
            out,
            RollOutcome {
                tier: Tier::Strong,
                used: true,
                miss_to_strong: true,
                counter: 1
            }
        );
        // The dice order does not matter; the lower die is replaced.
        assert_eq!(case.resolve_roll(8, (1, 2), false), out);
        // Swapping takes the replaced die's 1; a strong-hit gain of 2 adds on.
        let swap = AdvantageCase {
            on_use: OnUse::Swap,
            gain_on: [0, 0, 2],
            ..case.clone()
        };
        assert_eq!(swap.resolve_roll(8, (2, 1), false).counter, 3);
        // Never: the miss stands and the counter keeps its 8.
        let never = AdvantageCase {
            policy: Policy::Never,
            ..case.clone()
        };
        let out = never.resolve_roll(8, (2, 1), false);
        assert_eq!((out.tier, out.used, out.counter), (Tier::Miss, false, 8));
    }

    #[test]
    fn the_counter_is_spent_only_when_it_raises_the_tier() {
        let case = AdvantageCase::default();
        // 4 + 1 = 5 miss; counter 5 replaces the 1: 9, a weak hit.
        let out = case.resolve_roll(5, (4, 1), false);
        assert_eq!(
            (out.tier, out.used, out.miss_to_strong),
            (Tier::Weak, true, false)
        );
        // 4 + 3 = 7 weak; counter 5 gives 9, still weak: kept.
        let out = case.resolve_roll(5, (4, 3), false);
        assert_eq!((out.tier, out.used, out.counter), (Tier::Weak, false, 5));
        // 6 + 5 strong already: kept.
        assert!(!case.resolve_roll(6, (6, 5), false).used);
        // Stat -1: 5 + 4 - 1 = 8 weak; counter 6 gives 6 + 5 - 1 = 10 strong.
        let minus = AdvantageCase {
            stat: -1,
            ..case.clone()
        };
        assert_eq!(minus.resolve_roll(6, (5, 4), false).tier, Tier::Strong);
    }

    #[test]
    fn threshold_and_last_policies_wait() {
        let threshold = AdvantageCase {
            policy: Policy::Threshold(5),
            ..AdvantageCase::default()
        };
        // 3 + 1 = 4 miss; counter 4 would give 7 but is below 5.
        assert!(!threshold.resolve_roll(4, (3, 1), false).used);
        assert!(threshold.resolve_roll(5, (3, 1), false).used);
        let last = AdvantageCase {
            policy: Policy::Last,
            ..AdvantageCase::default()
        };
        assert!(!last.resolve_roll(6, (3, 1), false).used);
        let out = last.resolve_roll(6, (3, 1), true);
        assert_eq!((out.tier, out.used), (Tier::Weak, true));
    }

    #[test]
    fn gains_past_the_die_are_lost_and_the_gm_stops_at_one() {
        let case = AdvantageCase {
            die: 4,
            gain_on: [3, 0, 0],
            policy: Policy::Never,
            ..AdvantageCase::default()
        };
        // Counter 3, a miss: +3 caps at 4, the chance gain is lost, the GM
        // then lowers it to 3 (not 4 + 1 - 1 from a saved raise).
        let out = case.resolve_roll(3, (1, 1), false);
        assert_eq!(out.counter, 4);
        assert_eq!(case.after_chances(out.counter, true, true), 3);
        assert_eq!(case.after_chances(1, false, true), 1);
        assert_eq!(case.after_chances(2, true, false), 3);
    }

    #[test]
    fn never_reproduces_plain_2d6() {
        // REFERENCE.md: 2d6 + stat, out of 36: strong, weak, miss.
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
            let chain = case.exact_hists(&mut Budget::unlimited()).unwrap();
            let brute = case.brute_force_hists();
            for (a, b) in chain.per_encounter.iter().zip(&brute.per_encounter) {
                for count in 0..=i64::from(case.rolls) {
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
