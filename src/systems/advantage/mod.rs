//! The advantage die (docs/advantage.md; the advantage-die rules text): Powered by the
//! Apocalypse style 2d6 + stat rolls (miss, weak hit, strong hit) over an
//! encounter, with a counter die that grows as the encounter goes on and may
//! replace the lower of the two dice, "up to turning a miss into a 10+".
//!
//! docs/advantage.md's variants from the text's closing paragraphs are keys of the
//! same case: the players' own habit (`threshold-or-last`), two advantage
//! dice (`counters = 2`) and a party whose players may lend their advantage
//! (`party`, `share`).
//!
//! One rule function ([`AdvantageCase::resolve_roll`], steps 2 to 5 of docs/advantage.md
//! and 12, and [`AdvantageCase::after_chances`], steps 6 and 7) decides every
//! roll (`rules.rs`), over the values of every counter in play (`states.rs`
//! numbers those states). The Monte Carlo sampler (`sample.rs`) reads it
//! through a table over the 36 faces of 2d6; the exact method (`exact.rs`)
//! is a Markov chain over the counters' values (and, per metric, the running
//! count the metric needs) stepped roll by roll over the same table; a
//! brute-force enumeration of every path checks the chain. This file holds
//! the case, its options and its metrics.

mod exact;
#[rustfmt::skip]
pub(crate) mod keys;
#[rustfmt::skip]
pub(crate) mod metrics;
mod rules;
mod sample;
mod states;

use serde_json::{json, Map, Value};

use crate::distribution::{DistRow, Evaluation, Hist, Metric, Spread};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{
    allowed, choice_words, did_you_mean, Choice, KeyStyle, OptionError, Options, RawValue,
};

use super::SystemCase;
use keys::{
    COUNTERS, DIE, GAIN_CHANCE, GAIN_ON, GM_REDUCE_CHANCE, MISS_MAX, ON_USE, PARTY, POLICY, ROLLS,
    SHARE, STAT, STRONG_MIN, THRESHOLD,
};
use metrics as m;
pub use rules::RollOutcome;

/// The advantage die sizes docs/advantage.md allows (d4, d6 default, d8; d10 and d12).
pub const DIE_SIZES: &[u8] = &[4, 6, 8, 10, 12];

/// Longest encounter accepted. Far beyond any table's encounter; the exact
/// chain refuses (through its budget) well before this, Monte Carlo answers.
pub const MAX_ROLLS: i64 = 1000;

/// Bound on `stat`, `miss_max` and `strong_min`: 2d6 spans 2..12, so any
/// value this far out already decides every roll.
pub const MAX_MODIFIER: i64 = 100;

/// Largest per-tier gain accepted; anything at or above the die size fills it.
pub const MAX_GAIN: i64 = 1000;

/// Most players in a party (docs/advantage.md), and so most counters in play.
pub const MAX_PARTY: u8 = 4;

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

/// When the player spends the counter (docs/advantage.md, step 2). Every policy uses
/// it only when that raises the tier: spending it for nothing would reset
/// it for nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Whenever it raises the tier.
    Greedy,
    /// Only when the counter is at least this value.
    Threshold(u8),
    /// Only on the encounter's last roll (the rules text: "use it before the end
    /// of the encounter", since it resets then anyway).
    Last,
    /// When the counter is at least this value or on the last roll: the
    /// players' own habit in the rules text ("стоит использовать его до конца
    /// встречи и каждый раз, когда значение достигает пяти или шести"; docs/advantage.md).
    ThresholdOrLast(u8),
    /// Never: plain 2d6 + stat, the baseline.
    Never,
}

/// The word a `policy` key gives, before a threshold policy is given its
/// `threshold`: what the key's choice is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spending {
    Greedy,
    Threshold,
    Last,
    ThresholdOrLast,
    Never,
}

choice_words!(Spending {
    Greedy => "greedy",
    Threshold => "threshold",
    Last => "last",
    ThresholdOrLast => "threshold-or-last",
    Never => "never",
});

impl Policy {
    /// The policy's word, as its key is written.
    pub fn spending(self) -> Spending {
        match self {
            Policy::Greedy => Spending::Greedy,
            Policy::Threshold(_) => Spending::Threshold,
            Policy::Last => Spending::Last,
            Policy::ThresholdOrLast(_) => Spending::ThresholdOrLast,
            Policy::Never => Spending::Never,
        }
    }

    pub fn name(self) -> &'static str {
        self.spending().name()
    }

    /// The threshold of `threshold` and `threshold-or-last`.
    pub fn threshold(self) -> Option<u8> {
        match self {
            Policy::Threshold(t) | Policy::ThresholdOrLast(t) => Some(t),
            _ => None,
        }
    }
}

/// What a used counter becomes (docs/advantage.md, step 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUse {
    /// Back to 1 (the rules text: "после того как игрок его использует" it resets to one).
    Reset,
    /// The value of the die it replaced (the rules text's exchange variant:
    /// "менять значение превосходства на ... значение кубика").
    Swap,
}

choice_words!(OnUse { Reset => "reset", Swap => "swap" });

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
    /// Advantage dice one player holds (1 or 2; docs/advantage.md).
    pub counters: u8,
    /// Players taking the encounter's rolls in turn, one counter each (1..4).
    pub party: u8,
    /// Whether a party's players may spend their counter on another's roll.
    pub share: bool,
}

impl Default for AdvantageCase {
    /// docs/advantage.md's defaults: a case that gives no key, each key at
    /// its declared default (keys.rs).
    fn default() -> Self {
        let none = Options::new("advantage", KeyStyle::Toml, Vec::new());
        AdvantageCase::from_options(none).expect("the declared defaults are a valid case")
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
        let (text, item) = options.text_of(&DIE)?;
        let die = parse_die(&text).ok_or_else(|| {
            options.error_at(
                &item,
                format!(
                    "{} is \"{text}\"; the advantage die is d4, d6, d8, d10 or d12",
                    options.key_name(&DIE)
                ),
            )
        })?;
        let stat = options.int_of(&STAT)? as i32;
        let rolls = options.int_of(&ROLLS)? as u32;
        let policy: Spending = options.choice_of(&POLICY)?;
        let threshold_item = options.take(&THRESHOLD);
        let threshold = match policy {
            Spending::Threshold | Spending::ThresholdOrLast => {
                let Some(item) = threshold_item else {
                    return Err(options.case_error(format!(
                        "{} \"{}\" needs {}, the least counter value worth spending (1 to {}, the die size)",
                        options.key_name(&POLICY),
                        policy.name(),
                        options.key_name(&THRESHOLD),
                        die
                    )));
                };
                match item.value {
                    RawValue::Int(t) if (1..=i64::from(die)).contains(&t) => t as u8,
                    RawValue::Int(t) => {
                        return Err(options.error_at(
                            &item,
                            format!(
                                "{} must be a whole number from 1 to {} (the d{}'s size), not {t}",
                                options.key_name(&THRESHOLD),
                                die,
                                die
                            ),
                        ))
                    }
                    ref other => {
                        return Err(options.error_at(
                            &item,
                            format!(
                                "{} must be a whole number from 1 to {}, not {}",
                                options.key_name(&THRESHOLD),
                                die,
                                other.type_name()
                            ),
                        ))
                    }
                }
            }
            Spending::Greedy | Spending::Last | Spending::Never => {
                // A threshold from the defaults table is simply not used by
                // other policies (as a default `vs` gives way to a case's
                // `difficulty`); one written on the case itself is a mistake.
                if let Some(item) = threshold_item.filter(|i| i.layer > 0) {
                    return Err(options.error_at(
                        &item,
                        format!(
                            "{} only applies with {} \"threshold\" or \"threshold-or-last\", not \"{}\"",
                            options.key_name(&THRESHOLD),
                            options.key_name(&POLICY),
                            policy.name()
                        ),
                    ));
                }
                0
            }
        };
        let policy = match policy {
            Spending::Greedy => Policy::Greedy,
            Spending::Threshold => Policy::Threshold(threshold),
            Spending::Last => Policy::Last,
            Spending::ThresholdOrLast => Policy::ThresholdOrLast(threshold),
            Spending::Never => Policy::Never,
        };
        let (entries, _) = options.table_of(&GAIN_ON)?;
        // A tier the table leaves out gains nothing.
        let mut gain_on = [0; 3];
        for (tier, item) in &entries {
            let Some(index) = Tier::ALL.iter().position(|t| t.name() == tier) else {
                return Err(options.error_at(
                    item,
                    format!(
                        "unknown tier `{tier}` in {}{}; {}",
                        options.key_name(&GAIN_ON),
                        did_you_mean(tier, Tier::ALL.map(Tier::name)),
                        allowed(Tier::ALL.map(Tier::name))
                    ),
                ));
            };
            gain_on[index] = match item.value {
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
        let gain_chance = options.float_of(&GAIN_CHANCE)?;
        let gm_reduce_chance = options.float_of(&GM_REDUCE_CHANCE)?;
        let miss_item = options.take(&MISS_MAX);
        let miss_max = options.int_of(&MISS_MAX)? as i32;
        let strong_min = options.int_of(&STRONG_MIN)? as i32;
        if miss_max >= strong_min {
            let message = format!(
                "{} ({}) must be below {} ({}): a total is a miss at or below the one and a strong hit at or above the other",
                options.key_name(&MISS_MAX),
                miss_max,
                options.key_name(&STRONG_MIN),
                strong_min
            );
            return Err(match miss_item {
                Some(item) => options.error_at(&item, message),
                None => options.case_error(message),
            });
        }
        let on_use = options.choice_of(&ON_USE)?;
        let (counters, party, share) = Self::read_holders(&mut options)?;
        options.finish()?;
        Ok(AdvantageCase {
            die,
            stat,
            rolls,
            policy,
            gain_on,
            gain_chance,
            gm_reduce_chance,
            miss_max,
            strong_min,
            on_use,
            counters,
            party,
            share,
        })
    }

    /// `counters`, `party` and `share` (docs/advantage.md): two advantage dice are one
    /// player's, so they do not go with a party; `share` means something only
    /// in a party (from a defaults table it is skipped for a lone player).
    fn read_holders(options: &mut Options) -> Result<(u8, u8, bool), OptionError> {
        let counters_item = options.take(&COUNTERS);
        let counters = options.int_of(&COUNTERS)? as u8;
        let party_item = options.take(&PARTY);
        let party = options.int_of(&PARTY)? as u8;
        if counters > 1 && party > 1 {
            let message = format!(
                "{} = {} needs {} = 1: two advantage dice are one player's; in a party of {} each player holds one counter",
                options.key_name(&COUNTERS),
                counters,
                options.key_name(&PARTY),
                party
            );
            // Point at whichever of the two the case itself wrote last.
            let at = [counters_item, party_item]
                .into_iter()
                .flatten()
                .max_by_key(|item| (item.layer, item.at.map(|p| (p.line, p.col))));
            return Err(match at {
                Some(item) => options.error_at(&item, message),
                None => options.case_error(message),
            });
        }
        let share_item = options.take(&SHARE);
        let share = options.bool_of(&SHARE)?;
        if party > 1 {
            return Ok((counters, party, share));
        }
        if let Some(item) = share_item.filter(|i| i.layer > 0) {
            return Err(options.error_at(
                &item,
                format!(
                    "{} only applies to a party ({} 2 to {MAX_PARTY}); this case has one player",
                    options.key_name(&SHARE),
                    options.key_name(&PARTY)
                ),
            ));
        }
        // A lone player shares with no one.
        Ok((counters, party, false))
    }

    /// How many counters are in play: a player's one or two, or one per
    /// player of a party.
    pub fn holders(&self) -> usize {
        usize::from(self.counters.max(self.party))
    }
}

impl AdvantageCase {
    /// Every docs/advantage.md metric from the histograms; one function for every
    /// method. The per-roll shares are means of each encounter's share
    /// (count / rolls), so their Monte Carlo intervals are mean +/- z
    /// standard errors over encounters, as docs/advantage.md asks.
    pub fn metrics(&self, h: &AdvantageHists<f64>) -> Vec<Metric> {
        let rolls = f64::from(self.rolls);
        let mut metrics: Vec<Metric> = Tier::ALL
            .iter()
            .map(|tier| {
                let (mean, variance) = h.per_encounter[*tier as usize]
                    .mean_variance()
                    .unwrap_or((0.0, 0.0));
                Metric {
                    name: m::tier_share(*tier).name.into(),
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
            Metric::mean_of(m::STRONG_PER_ENCOUNTER.name, strong, 1.0),
            Metric::probability(m::P_ENCOUNTER_STRONG.name, strong.mass() - strong.get(0)),
            Metric::mean_of(m::USES_PER_ENCOUNTER.name, &h.per_encounter[USES], 1.0),
            Metric::mean_of(
                m::MISS_TO_STRONG_PER_ENCOUNTER.name,
                &h.per_encounter[M2S],
                1.0,
            ),
        ]);
        metrics
    }

    /// The distribution table: `tier_roll_1` .. `tier_roll_<rolls>`, each
    /// with outcomes `miss`, `weak`, `strong` (docs/advantage.md).
    pub fn rows(&self, h: &AdvantageHists<f64>) -> Vec<DistRow> {
        let mut rows = Vec::with_capacity(h.tier_by_roll.len() * 3);
        for (i, tiers) in h.tier_by_roll.iter().enumerate() {
            let variable = m::TIER_ROLL.numbered_name(i + 1);
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

impl AdvantageCase {
    /// `counters` and `party` (every case, docs/advantage.md), `share` in a party.
    fn insert_holders(&self, inputs: &mut Map<String, Value>) {
        inputs.insert(COUNTERS.name.into(), json!(self.counters));
        inputs.insert(PARTY.name.into(), json!(self.party));
        if self.party > 1 {
            inputs.insert(SHARE.name.into(), json!(self.share));
        }
    }
}

impl SystemCase for AdvantageCase {
    fn system(&self) -> super::System {
        super::System::Advantage
    }

    fn inputs(&self) -> Map<String, Value> {
        // With policy "never" the counter is never spent, so the die and
        // the counter's rules do not apply and are left out (docs/reports.md).
        let counter_applies = self.policy != Policy::Never;
        let mut inputs = Map::new();
        if counter_applies {
            inputs.insert(DIE.name.into(), json!(format!("d{}", self.die)));
        }
        inputs.insert(STAT.name.into(), json!(self.stat));
        inputs.insert(ROLLS.name.into(), json!(self.rolls));
        inputs.insert(POLICY.name.into(), json!(self.policy.name()));
        if let Some(t) = self.policy.threshold() {
            inputs.insert(THRESHOLD.name.into(), json!(t));
        }
        inputs.insert(MISS_MAX.name.into(), json!(self.miss_max));
        inputs.insert(STRONG_MIN.name.into(), json!(self.strong_min));
        if !counter_applies {
            self.insert_holders(&mut inputs);
            return inputs;
        }
        let gains: Map<String, Value> = Tier::ALL
            .iter()
            .map(|t| (t.name().to_string(), json!(self.gain_on[*t as usize])))
            .collect();
        inputs.insert(GAIN_ON.name.into(), Value::Object(gains));
        inputs.insert(GAIN_CHANCE.name.into(), json!(self.gain_chance));
        inputs.insert(GM_REDUCE_CHANCE.name.into(), json!(self.gm_reduce_chance));
        inputs.insert(ON_USE.name.into(), json!(self.on_use.name()));
        self.insert_holders(&mut inputs);
        inputs
    }

    fn naming_inputs(&self) -> Map<String, Value> {
        let mut inputs = self.inputs();
        let default = AdvantageCase::default();
        if self.counters == default.counters {
            inputs.remove(COUNTERS.name);
        }
        if self.party == default.party {
            inputs.remove(PARTY.name);
        }
        if !self.share {
            inputs.remove(SHARE.name);
        }
        inputs
    }

    /// 2d6 and the advantage die for every roll of every player.
    fn mc_trial_nanos(&self) -> f64 {
        let rolls = f64::from(self.rolls) * f64::from(self.party.max(1));
        cost::mc_trial_nanos(3.0, rolls, cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        Ok(self.evaluation(&self.exact_hists(budget)?))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?))
    }
}
