//! Cortex Plus pools (docs/cortex.md; the Cortex Plus rules text, "Броски" and
//! "Необязательные условия"): hitches on 1s, the total of the `keep` best
//! live dice, the effect die, and opposed rolls against a reacting pool (the
//! doom pool) or a fixed difficulty, with heroic steps and the optional
//! effect step-down; and doom-pool scenes built on the same rules.
//!
//! This module holds the case: its options, its outcome histograms, its
//! metrics and naming. The rest of the folder, one concern a file:
//! - [`rules`]: ties, policies, heroic steps, the final effect step and the
//!   one "keep the top k dice" selection everything below calls;
//! - [`score`]: a pool's roll scored die by die (`max-total`);
//! - [`max_effect`]: the roller's choice against a known difficulty;
//! - [`plot_points`]: plot points spent after the roll to beat a difficulty;
//! - [`exact`]: the dynamic programmes, the hitch distribution and the
//!   brute-force cross-check; [`weight`]: their counts of face combinations
//!   and the division, once, into probabilities; [`pool_cache`]: each
//!   pool's distribution computed once per run; [`programme_step`]: the one
//!   step, a die added to every state, that the three programmes share;
//! - [`sample`]: the Monte Carlo trial;
//! - [`scene`] and [`doom_chain`]: doom-pool scenes and their exact chain;
//! - [`conflict`]: conflicts, stress exchanged until one side is out.
//!
//! Every method fills one [`CortexHists`] through [`CortexCase::record`],
//! read by one `metrics()` and one `rows()`, so the methods can be held
//! against each other.

pub mod conflict;
mod digits;
pub(crate) mod doom_chain;
pub mod economy;
pub(crate) mod exact;
#[rustfmt::skip]
pub(crate) mod keys;
pub(crate) mod max_effect;
#[rustfmt::skip]
pub(crate) mod metrics;
mod plot_point_size;
pub(crate) mod plot_points;
pub(crate) mod pool_cache;
mod programme_step;
pub(crate) mod rules;
pub(crate) mod sample;
pub mod scene;
#[rustfmt::skip]
pub(crate) mod scene_metrics;
mod scene_counts;
mod scene_rolls;
mod scene_sample;
mod scene_size;
pub(crate) mod score;
mod tally;
pub(crate) mod weight;

use serde_json::{json, Map, Value};

use crate::dice::{effect_step_label, Pool};
use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{Choice as _, OptionError, Options};

use super::SystemCase;
use keys::{
    DIFFICULTY, EFFECT_STEP_DOWN, HEROIC_STEP, KEEP, PLOT_POINTS, POLICY, POOL, REACTION_KEEP,
    TIES, VS,
};
use weight::{count_sum, fraction, ratio, signed_ratio};

pub use exact::{hitch_distribution, pool_outcomes, pool_probabilities};
pub use max_effect::{choice_outcomes, score_choice, Choice, TotalEffect};
pub use pool_cache::PoolOutcomes;
pub use rules::{Opposition, Policy, Rules, Ties, MAX_KEEP};
pub use sample::{dice_table, roll_pool};
pub use score::{score, PoolRoll, Scorer};

/// Empties every memo kept across a run's cases (the pools' outcomes and
/// the economy's doom-pool reactions), so a benchmark times the work rather
/// than the memo (`benches/budget.rs`), as a fresh process would do it.
pub fn forget_pools() {
    pool_cache::forget();
    economy::forget_reactions();
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
        let Some(pool) = options.cortex_pool(&POOL)? else {
            return Err(options.case_error(format!(
                "a cortex case needs {}, a pool such as \"d10 2d8 d6\"",
                options.key_name(&POOL)
            )));
        };
        let vs_item = options.take(&VS);
        let difficulty_item = options.take(&DIFFICULTY);
        let vs = options.cortex_pool(&VS)?;
        let difficulty = options.maybe_int_of(&DIFFICULTY)?;
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
                            options.key_name(&VS),
                            options.key_name(&DIFFICULTY)
                        ),
                    ));
                }
            }
            (Some(vs), None) => Opposition::Pool(vs),
            (None, Some(d)) => Opposition::Difficulty(d as u32),
            (None, None) => Opposition::None,
        };
        // Rules of the reacting pool, given for a case without one, would be
        // ignored in silence (a defaults table may hold them for other cases).
        if !matches!(opposition, Opposition::Pool(_)) {
            for key in [&REACTION_KEEP, &EFFECT_STEP_DOWN] {
                if let Some(item) = options.given_by_case(key) {
                    let against = match opposition {
                        Opposition::Difficulty(_) => "a fixed difficulty",
                        _ => "no opposition",
                    };
                    return Err(options.error_at(
                        item,
                        format!(
                            "{} applies only against a reacting pool ({}), and this case has {against}: leave it out",
                            options.key_name(key),
                            options.key_name(&VS)
                        ),
                    ));
                }
            }
        }
        let mut rules = Rules::from_options(&mut options)?;
        rules.effect_step_down = options.bool_of(&EFFECT_STEP_DOWN)?;
        let policy_item = options.take(&POLICY);
        rules.policy = options.choice_of(&POLICY)?;
        if rules.policy == Policy::MaxEffect {
            // The roller can only aim for effect when the number to beat is
            // known before choosing (docs/cortex.md); a reacting pool rolls after.
            if !matches!(opposition, Opposition::Difficulty(_)) {
                return Err(options.error_at(
                    &policy_item.expect("a policy was given"),
                    format!(
                        "{} \"max-effect\" needs a fixed {} (the roller must know the number to beat); against {} or alone use \"max-total\"",
                        options.key_name(&POLICY),
                        options.key_name(&DIFFICULTY),
                        options.key_name(&VS)
                    ),
                ));
            }
        }
        rules.plot_points = plot_points_that_apply(&mut options, &opposition, &rules)?;
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
        self.record_pool(action, weight, hists, with_hitches);
        if let Some(contest) = self.contest(action, reaction, with_hitches) {
            self.record_contest(contest, weight, hists);
        }
    }

    /// The action pool's own outcomes: its total, hitches and effect die.
    fn record_pool<W: Copy + Default + std::ops::AddAssign>(
        &self,
        action: PoolRoll,
        weight: W,
        hists: &mut CortexHists<W>,
        with_hitches: bool,
    ) {
        hists.total.add(i64::from(action.total), weight);
        if with_hitches {
            hists.hitches.add(i64::from(action.hitches), weight);
        }
        hists.pool_effect.add(i64::from(action.effect_step), weight);
    }

    /// What an opposed roll's outcome depends on beyond the action pool's
    /// own numbers; `None` for a roll without opposition.
    fn contest(
        &self,
        action: PoolRoll,
        reaction: Option<PoolRoll>,
        with_hitches: bool,
    ) -> Option<Contest> {
        let against = match (&self.opposition, reaction) {
            (Opposition::None, _) => return None,
            (Opposition::Difficulty(d), _) => i64::from(*d),
            (Opposition::Pool(_), Some(r)) => {
                return Some(Contest::against_pool(action, r, with_hitches))
            }
            (Opposition::Pool(_), None) => unreachable!("a pool opposition is always rolled"),
        };
        Some(Contest {
            margin: i64::from(action.total) - against,
            effect_step: action.effect_step,
            reaction_effect: None,
            reaction_hitched: false,
        })
    }

    /// An opposed roll's outcomes: the margin, success and the final effect.
    fn record_contest<W: Copy + Default + std::ops::AddAssign>(
        &self,
        contest: Contest,
        weight: W,
        hists: &mut CortexHists<W>,
    ) {
        if contest.reaction_hitched {
            hists.reaction_hitch += weight;
        }
        hists.margin.add(contest.margin, weight);
        if self.rules.succeeds(contest.margin) {
            let step = self.rules.final_effect_step(
                contest.effect_step,
                contest.reaction_effect,
                contest.margin,
            );
            hists.win_effect.add(i64::from(step), weight);
        } else {
            hists.fail += weight;
        }
    }
}

/// An opposed roll as its metrics see it (docs/cortex.md): the margin (action
/// total minus the opposing total), the action's effect step, the reacting
/// pool's effect step (for the optional step-down; `None` against a fixed
/// difficulty) and whether the reacting pool rolled a hitch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Contest {
    margin: i64,
    effect_step: u32,
    reaction_effect: Option<u32>,
    reaction_hitched: bool,
}

impl Contest {
    /// The contest of `action` against the reacting pool's roll `reaction`;
    /// its hitches count unless `with_hitches` is false (the exact
    /// programmes take them apart).
    #[inline(always)]
    fn against_pool(action: PoolRoll, reaction: PoolRoll, with_hitches: bool) -> Contest {
        Contest {
            margin: i64::from(action.total) - i64::from(reaction.total),
            effect_step: action.effect_step,
            reaction_effect: Some(reaction.effect_step),
            reaction_hitched: with_hitches && reaction.hitches > 0,
        }
    }
}

/// Reads `plot_points` (docs/cortex.md): they are spent against a fixed
/// `difficulty` under `max-total`. A case's own points (1 or more) anywhere
/// else are an error saying why; from a defaults table they are left out
/// where they do not apply, as is a case's own 0.
fn plot_points_that_apply(
    options: &mut Options,
    opposition: &Opposition,
    rules: &Rules,
) -> Result<Option<u32>, OptionError> {
    let item = options.take(&PLOT_POINTS);
    let Some(points) = options.maybe_int_of(&PLOT_POINTS)? else {
        return Ok(None);
    };
    let item = item.expect("plot_points was given");
    let why_not = match (opposition, rules.policy) {
        (Opposition::Difficulty(_), Policy::MaxTotal) => return Ok(Some(points as u32)),
        (Opposition::Pool(_), _) => format!(
            "{} needs a fixed {}: against {} the total is set before the reaction rolls, so spending them \"when needed\" has no meaning; give {} instead, or leave {} out",
            options.key_name(&PLOT_POINTS),
            options.key_name(&DIFFICULTY),
            options.key_name(&VS),
            options.key_name(&DIFFICULTY),
            options.key_name(&PLOT_POINTS),
        ),
        (Opposition::None, _) => format!(
            "{} needs a fixed {} to spend them against (e.g. {} 11)",
            options.key_name(&PLOT_POINTS),
            options.key_name(&DIFFICULTY),
            options.key_name(&DIFFICULTY),
        ),
        (Opposition::Difficulty(_), Policy::MaxEffect) => format!(
            "{} works with {} \"max-total\" only: plot points on top of max-effect's choice of dice are not modelled",
            options.key_name(&PLOT_POINTS),
            options.key_name(&POLICY),
        ),
    };
    if item.layer > 0 && points > 0 {
        return Err(options.error_at(&item, why_not));
    }
    Ok(None)
}

/// The outcome histograms of a cortex case, with the weight of every
/// outcome together: trial counts in Monte Carlo, counts of face
/// combinations when exact.
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
    /// Plot points spent (docs/cortex.md); empty when the case has none.
    pub plot_points_spent: Hist<W>,
    /// Every outcome's weight together: the denominator of every metric.
    pub whole: W,
    /// Whether the weights are true counts of face combinations, so that
    /// each metric is an exact fraction (`--fractions`).
    pub counted: bool,
}

/// A metric and, for a probability, its numerator over the whole.
type Measured = (Metric, Option<u128>);

/// A probability: `count` out of `whole`, divided once.
fn probability(name: impl Into<String>, count: u128, whole: u128) -> Measured {
    (Metric::probability(name, ratio(count, whole)), Some(count))
}

/// The mean outcome of `hist`, over its own weight, divided once; its
/// spread (which only Monte Carlo intervals read) from the probabilities.
/// `base` is the share of all rolls it covers.
fn mean(name: &str, hist: &Hist<u128>, whole: u128, base: f64) -> Measured {
    let mut metric = Metric::mean_of(name, &hist.map(|c| c as f64 / whole as f64), base);
    let mass = count_sum(hist);
    if mass > 0 {
        let sum: i128 = hist.iter().map(|(o, c)| i128::from(o) * c as i128).sum();
        metric.value = Some(signed_ratio(sum, mass));
    }
    (metric, None)
}

/// The sum of the counts at the outcomes that satisfy `keep`.
fn count_where(hist: &Hist<u128>, keep: impl Fn(i64) -> bool) -> u128 {
    hist.iter().filter(|&(o, _)| keep(o)).map(|(_, c)| c).sum()
}

impl CortexCase {
    /// Every docs/cortex.md metric from the outcome counts; one function for every
    /// method. Each is one count divided by another, once, so a pool's own
    /// metrics are the same number in every case that rolls it.
    fn measured(&self, h: &CortexHists<u128>) -> Vec<Measured> {
        let whole = h.whole;
        let mut metrics = vec![
            mean(metrics::MEAN_TOTAL.name, &h.total, whole, 1.0),
            // The complement in counts: never below 0.
            probability(metrics::P_HITCH.name, whole - h.hitches.get(0), whole),
            mean(metrics::MEAN_HITCHES.name, &h.hitches, whole, 1.0),
            probability(
                metrics::P_BOTCH.name,
                h.hitches.get(self.pool.len() as i64),
                whole,
            ),
        ];
        for step in 0..=4 {
            metrics.push(probability(
                metrics::POOL_EFFECT.name(effect_step_label(step)),
                h.pool_effect.get(i64::from(step)),
                whole,
            ));
        }
        if !self.is_opposed() {
            return metrics;
        }
        let successes = count_sum(&h.win_effect);
        metrics.extend([
            probability(metrics::P_SUCCESS.name, successes, whole),
            probability(metrics::P_TIE.name, h.margin.get(0), whole),
            probability(
                metrics::P_HEROIC.name,
                count_where(&h.margin, |m| self.rules.is_heroic(m)),
                whole,
            ),
            probability(metrics::P_REACTION_HITCH.name, h.reaction_hitch, whole),
            mean(metrics::MEAN_MARGIN.name, &h.margin, whole, 1.0),
        ]);
        for step in 0..=4 {
            metrics.push(probability(
                metrics::WIN_EFFECT.name(effect_step_label(step)),
                h.win_effect.get(i64::from(step)),
                whole,
            ));
        }
        metrics.push(probability(
            metrics::WIN_EFFECT_BEYOND.name,
            count_where(&h.win_effect, |s| s > 4),
            whole,
        ));
        metrics.push(mean(
            metrics::MEAN_EFFECT_STEP.name,
            &h.win_effect,
            whole,
            ratio(successes, whole),
        ));
        if let Some(points) = self.rules.plot_points {
            metrics.push(mean(
                metrics::MEAN_PLOT_POINTS_SPENT.name,
                &h.plot_points_spent,
                whole,
                1.0,
            ));
            for spent in 1..=points {
                metrics.push(probability(
                    metrics::P_PLOT_POINTS_SPENT.name(spent),
                    h.plot_points_spent.get(i64::from(spent)),
                    whole,
                ));
            }
        }
        metrics
    }

    /// Every docs/cortex.md metric from the outcome counts.
    pub fn metrics(&self, h: &CortexHists<u128>) -> Vec<Metric> {
        self.measured(h).into_iter().map(|(m, _)| m).collect()
    }

    /// Each probability metric as `"numerator/denominator"` in lowest terms
    /// (docs/reports.md, `--fractions`); `None` unless the counts are exact.
    pub fn fractions(&self, h: &CortexHists<u128>) -> Option<Vec<(String, String)>> {
        if !h.counted {
            return None;
        }
        Some(
            self.measured(h)
                .into_iter()
                .filter_map(|(m, count)| Some((m.name, fraction(count?, h.whole))))
                .collect(),
        )
    }

    /// The distribution table: `total`, `hitches`, `pool_effect`, and for
    /// opposed rolls `margin` and `win_effect` (docs/cortex.md); each row one count
    /// divided once.
    pub fn rows(&self, h: &CortexHists<u128>) -> Vec<DistRow> {
        let p = |c: u128| ratio(c, h.whole);
        let mut rows = hist_rows(metrics::TOTAL.name, &h.total.map(p), |o| o.to_string());
        rows.extend(hist_rows(metrics::HITCHES.name, &h.hitches.map(p), |o| {
            o.to_string()
        }));
        for step in 0..=4 {
            rows.push(DistRow::new(
                metrics::POOL_EFFECT_DIE.name,
                effect_step_label(step),
                p(h.pool_effect.get(i64::from(step))),
            ));
        }
        if self.is_opposed() {
            rows.extend(hist_rows(metrics::MARGIN.name, &h.margin.map(p), |o| {
                o.to_string()
            }));
            let top = h
                .win_effect
                .iter()
                .filter(|&(_, c)| c > 0)
                .map(|(s, _)| s)
                .max()
                .unwrap_or(0)
                .max(4);
            for step in 0..=top {
                rows.push(DistRow::new(
                    metrics::WIN_EFFECT_DIE.name,
                    effect_step_label(step as u32),
                    p(h.win_effect.get(step)),
                ));
            }
            rows.push(DistRow::new(
                metrics::WIN_EFFECT_DIE.name,
                "fail",
                p(h.fail),
            ));
        }
        if let Some(points) = self.rules.plot_points {
            for spent in 0..=points {
                rows.push(DistRow::new(
                    metrics::PLOT_POINTS_SPENT.name,
                    spent,
                    p(h.plot_points_spent.get(i64::from(spent))),
                ));
            }
        }
        rows
    }

    fn evaluation(&self, h: &CortexHists<u128>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass: None,
        }
    }
}

impl SystemCase for CortexCase {
    fn system(&self) -> crate::systems::System {
        crate::systems::System::Cortex
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = Map::new();
        inputs.insert(POOL.name.into(), json!(self.pool.to_string()));
        match &self.opposition {
            Opposition::None => {}
            Opposition::Pool(vs) => {
                inputs.insert(VS.name.into(), json!(vs.to_string()));
            }
            Opposition::Difficulty(d) => {
                inputs.insert(DIFFICULTY.name.into(), json!(d));
            }
        }
        inputs.insert(KEEP.name.into(), json!(self.rules.keep));
        if let Opposition::Pool(_) = self.opposition {
            inputs.insert(REACTION_KEEP.name.into(), json!(self.rules.reaction_keep));
        }
        if self.is_opposed() {
            inputs.insert(TIES.name.into(), json!(self.rules.ties.name()));
            inputs.insert(HEROIC_STEP.name.into(), json!(self.rules.heroic_step));
        }
        if let Opposition::Pool(_) = self.opposition {
            inputs.insert(
                EFFECT_STEP_DOWN.name.into(),
                json!(self.rules.effect_step_down),
            );
        }
        inputs.insert(POLICY.name.into(), json!(self.rules.policy.name()));
        if let Some(points) = self.rules.plot_points {
            inputs.insert(PLOT_POINTS.name.into(), json!(points));
        }
        inputs
    }

    /// The pool and any opposing pool, one roll.
    fn mc_trial_nanos(&self) -> f64 {
        let vs = match &self.opposition {
            Opposition::Pool(vs) => vs.len(),
            _ => 0,
        };
        cost::mc_trial_nanos((self.pool.len() + vs) as f64, 1.0, cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        Ok(self.evaluation(&self.exact_hists(budget)?))
    }

    fn exact_fractions(&self, budget: &mut Budget) -> Option<Vec<(String, String)>> {
        self.fractions(&self.exact_hists(budget).ok()?)
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?))
    }

    fn sweep_name(&self, swept: &[String]) -> Option<String> {
        let has = |k: &str| swept.iter().any(|s| s == k);
        if !has(POOL.name) {
            return None;
        }
        let against = match &self.opposition {
            Opposition::Pool(vs) if has(VS.name) => vs.to_string(),
            Opposition::Difficulty(d) if has(DIFFICULTY.name) => d.to_string(),
            _ => return None,
        };
        Some(format!("{} vs {against}", self.pool))
    }
}
