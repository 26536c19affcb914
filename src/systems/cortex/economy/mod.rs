//! The scene's economy (docs/cortex.md, "The scene's economy"; the Cortex Plus
//! rules text, "Сюжетные Очки" and "Запас Рока"): a doom-pool scene whose
//! hero holds and spends plot points (a d6 before the roll, or one more die
//! in the total after it, and the d4 side of a distinction for a point when
//! broke) and whose GM spends doom dice to add one to a reaction and win.
//!
//! [`Economy`] holds the keys; [`rules`] the seven steps of an action, in
//! one place; [`chain`] the exact method, a chain over (doom pool, plot
//! points held, whether the GM has spent) on the chain engine; [`sample`]
//! the Monte Carlo trial on the shared sampler, reading the hero's rolls
//! ([`hero_table`]), the doom pool's ([`doom_pools`]) and the action's
//! verdict ([`verdicts`]) from tables built by those same rules, and
//! counting its scenes flat ([`counts`]). Both fill the scene's own
//! [`SceneHists`] and this module's [`EconomyHists`], so every scene metric
//! is computed one way for both methods. A scene whose economy never plays
//! (nothing spent and no d4 distinction: at most `start_plot_points` set)
//! takes the plain scene's own path, so its numbers stay those of a scene
//! without the keys to the last bit.

pub(crate) mod chain;
mod counts;
mod doom_pools;
mod hero_table;
#[cfg(test)]
mod long_tests;
mod pools;
mod reaction_memo;
pub(crate) mod rules;
mod sample;
#[cfg(test)]
mod tests;
mod verdicts;

use serde_json::{json, Map, Value};

use crate::dice::{Die, Pool};
use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{Choice as _, OptionError, Options};

pub use super::keys::{Distinction, GmSpend, HeroSpend};
use super::keys::{DISTINCTION, GM_SPEND, HERO_SPEND, SPEND_BELOW, START_PLOT_POINTS};
use super::scene::{HeroicMoments, SceneCase, SceneHists};
use super::scene_metrics as m;

/// Forgets the doom pools' reactions remembered across cases
/// ([`super::forget_pools`]).
pub(crate) fn forget_reactions() {
    reaction_memo::forget();
}

/// The economy keys of a scene (docs/cortex.md, "The scene's economy").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Economy {
    pub start_plot_points: u32,
    pub hero_spend: HeroSpend,
    /// With `add-to-total`: the hero spends only below this total.
    pub spend_below: Option<u32>,
    pub distinction: Distinction,
    pub gm_spend: GmSpend,
}

impl Default for Economy {
    /// Every key at its declared default: a scene that only counts plot
    /// points.
    fn default() -> Self {
        let mut none = Options::new("cortex-scene", crate::options::KeyStyle::Toml, Vec::new());
        let pool = Pool::new(vec![Die::D8]);
        Economy::read(&mut none, &pool).expect("the declared defaults are a valid economy")
    }
}

impl Economy {
    /// Reads the economy keys of a scene rolling `pool`, each checked
    /// against the others. A case that gives none of them gets every key at
    /// its default: it still reports the economy's metrics (nothing spent,
    /// the plot points held are those earned), and its scene's own numbers
    /// are the plain scene's to the last bit (docs/cortex.md).
    pub fn from_options(options: &mut Options, pool: &Pool) -> Result<Economy, OptionError> {
        Economy::read(options, pool)
    }

    fn read(options: &mut Options, pool: &Pool) -> Result<Economy, OptionError> {
        let economy = Economy {
            start_plot_points: options.int_of(&START_PLOT_POINTS)? as u32,
            hero_spend: options.choice_of(&HERO_SPEND)?,
            // Past u32 every total is below it anyway.
            spend_below: options
                .maybe_int_of(&SPEND_BELOW)?
                .map(|b| u32::try_from(b).unwrap_or(u32::MAX)),
            distinction: options.choice_of(&DISTINCTION)?,
            gm_spend: options.choice_of(&GM_SPEND)?,
        };
        if economy.spend_below.is_some() && economy.hero_spend != HeroSpend::AddToTotal {
            let item = options.take(&SPEND_BELOW).expect("spend_below was given");
            return Err(options.error_at(
                &item,
                format!(
                    "{} applies only when {} is \"add-to-total\" (the hero spends on the total below it); set that, or leave {} out",
                    options.key_name(&SPEND_BELOW),
                    options.key_name(&HERO_SPEND),
                    options.key_name(&SPEND_BELOW),
                ),
            ));
        }
        if economy.distinction == Distinction::D4WhenBroke && !pool.dice().contains(&Die::D8) {
            let item = options.take(&DISTINCTION).expect("distinction was given");
            return Err(options.error_at(
                &item,
                format!(
                    "{} = \"d4-when-broke\" rolls the pool's d8 (the distinction) as a d4, but the pool {pool} has no d8: add one, or use \"d8\"",
                    options.key_name(&DISTINCTION),
                ),
            ));
        }
        Ok(economy)
    }

    /// Whether anything is ever spent or swapped: without that a scene
    /// plays as a plain one, `start_plot_points` only added to what it holds.
    pub fn plays(&self) -> bool {
        self.hero_spend != HeroSpend::Never
            || self.distinction != Distinction::D8
            || self.gm_spend != GmSpend::Never
    }

    /// Adds the keys to a case's inputs, after the scene's own.
    pub fn insert_inputs(&self, inputs: &mut Map<String, Value>) {
        inputs.insert(START_PLOT_POINTS.name.into(), json!(self.start_plot_points));
        inputs.insert(HERO_SPEND.name.into(), json!(self.hero_spend.name()));
        if let Some(below) = self.spend_below {
            inputs.insert(SPEND_BELOW.name.into(), json!(below));
        }
        inputs.insert(DISTINCTION.name.into(), json!(self.distinction.name()));
        inputs.insert(GM_SPEND.name.into(), json!(self.gm_spend.name()));
    }

    /// The `key=value` parts of a case name for the keys among `named`
    /// that differ from their defaults (docs/cortex.md: a name shows only
    /// those).
    pub fn name_parts(&self, named: impl Fn(&str) -> bool) -> Vec<String> {
        let default = Economy::default();
        let mut parts = Vec::new();
        let mut part = |key: &str, differs: bool, value: String| {
            if differs && named(key) {
                parts.push(format!("{key}={value}"));
            }
        };
        part(
            START_PLOT_POINTS.name,
            self.start_plot_points != default.start_plot_points,
            self.start_plot_points.to_string(),
        );
        part(
            HERO_SPEND.name,
            self.hero_spend != default.hero_spend,
            self.hero_spend.name().into(),
        );
        part(
            SPEND_BELOW.name,
            self.spend_below.is_some(),
            self.spend_below.map_or(String::new(), |b| b.to_string()),
        );
        part(
            DISTINCTION.name,
            self.distinction != default.distinction,
            self.distinction.name().into(),
        );
        part(
            GM_SPEND.name,
            self.gm_spend != default.gm_spend,
            self.gm_spend.name().into(),
        );
        parts
    }
}

/// What the economy tallies beyond the scene's own: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EconomyHists<W> {
    /// Plot points the hero spent per scene.
    pub points_spent: Hist<W>,
    /// Plot points held at the end.
    pub final_points: Hist<W>,
    /// Doom dice the GM spent on reactions per scene.
    pub doom_spent: Hist<W>,
    /// Scenes in which the GM spent at least one.
    pub gm_spent: W,
    /// Exact long scenes only: the doom dice spent by their moments
    /// instead of `doom_spent`, as the scene carries its heroic successes
    /// (docs/cortex.md, "Long scenes").
    pub doom_spent_moments: Option<HeroicMoments>,
}

impl<W: Copy + Default + std::ops::AddAssign> EconomyHists<W> {
    fn merge(&mut self, other: &EconomyHists<W>) {
        self.points_spent.merge(&other.points_spent);
        self.final_points.merge(&other.final_points);
        self.doom_spent.merge(&other.doom_spent);
        self.gm_spent += other.gm_spent;
        if let Some(theirs) = other.doom_spent_moments {
            self.doom_spent_moments
                .get_or_insert_with(HeroicMoments::default)
                .add(&theirs);
        }
    }
}

impl EconomyHists<u64> {
    fn to_probabilities(&self, trials: u64) -> EconomyHists<f64> {
        EconomyHists {
            points_spent: self.points_spent.to_probabilities(trials),
            final_points: self.final_points.to_probabilities(trials),
            doom_spent: self.doom_spent.to_probabilities(trials),
            gm_spent: self.gm_spent as f64 / trials as f64,
            doom_spent_moments: None,
        }
    }
}

impl EconomyHists<f64> {
    /// The economy of a scene in which nothing is spent: every scene ends
    /// holding its start and what it earned.
    fn idle(scene: &SceneHists<f64>, start: u32) -> EconomyHists<f64> {
        let mut final_points = Hist::default();
        for (earned, p) in scene.plot_points.iter() {
            final_points.add(earned + i64::from(start), p);
        }
        let mass = scene.successes.mass();
        let mut none = Hist::with_range(0, 0);
        none.add(0, mass);
        EconomyHists {
            points_spent: none.clone(),
            final_points,
            doom_spent: none,
            gm_spent: 0.0,
            doom_spent_moments: None,
        }
    }
}

/// A scene's tallies with its economy.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EconomyTally<W> {
    pub scene: SceneHists<W>,
    pub economy: EconomyHists<W>,
}

impl SceneCase {
    /// The economy's metrics after the scene's own (docs/cortex.md).
    pub fn economy_metrics(&self, h: &EconomyTally<f64>) -> Vec<Metric> {
        let e = &h.economy;
        let mut metrics = self.metrics(&h.scene);
        metrics.extend([
            Metric::mean_of(m::MEAN_PLOT_POINTS_SPENT.name, &e.points_spent, 1.0),
            Metric::mean_of(m::MEAN_FINAL_PLOT_POINTS.name, &e.final_points, 1.0),
            match e.doom_spent_moments {
                Some(moments) => moments.metric(m::MEAN_DOOM_DICE_SPENT.name),
                None => Metric::mean_of(m::MEAN_DOOM_DICE_SPENT.name, &e.doom_spent, 1.0),
            },
            Metric::probability(m::P_GM_SPENT.name, e.gm_spent),
        ]);
        metrics
    }

    /// The distribution table with `final_plot_points` after the scene's.
    pub fn economy_rows(&self, h: &EconomyTally<f64>) -> Vec<DistRow> {
        let mut rows = self.rows(&h.scene);
        rows.extend(hist_rows(
            m::FINAL_PLOT_POINTS.name,
            &h.economy.final_points,
            |o| o.to_string(),
        ));
        rows
    }

    fn economy_evaluation(&self, h: &EconomyTally<f64>) -> Evaluation {
        Evaluation {
            metrics: self.economy_metrics(h),
            rows: self.economy_rows(h),
            dropped_mass: (h.scene.dropped > 0.0).then_some(h.scene.dropped),
        }
    }

    /// The exact tallies of a scene with `economy`: the plain scene's chain
    /// when the economy never plays, else the economy's own.
    pub fn economy_exact_hists(
        &self,
        economy: &Economy,
        budget: &mut Budget,
    ) -> Result<EconomyTally<f64>, ExactError> {
        if !economy.plays() {
            let scene = self.exact_hists(budget)?;
            let economy = EconomyHists::idle(&scene, economy.start_plot_points);
            return Ok(EconomyTally { scene, economy });
        }
        chain::exact_hists(self, economy, budget)
    }

    /// The Monte Carlo tallies of a scene with `economy`, the plain scene's
    /// sampler when the economy never plays.
    pub fn economy_monte_carlo_hists(
        &self,
        economy: &Economy,
        settings: &McSettings<'_>,
    ) -> Result<EconomyTally<f64>, Interrupted> {
        if !economy.plays() {
            let scene = self.monte_carlo_hists(settings)?;
            let economy = EconomyHists::idle(&scene, economy.start_plot_points);
            return Ok(EconomyTally { scene, economy });
        }
        sample::monte_carlo_hists(self, economy, settings)
    }

    /// The dice each of `trials` scenes with `economy` (one that plays)
    /// throws in block 0 of `seed`, for the benches' generator floor: every
    /// die's sides in throwing order, and each scene's count.
    #[doc(hidden)]
    pub fn economy_floor_dice(
        &self,
        economy: &Economy,
        trials: u64,
        seed: u64,
    ) -> (Vec<u8>, Vec<u32>) {
        sample::floor_dice(self, economy, trials, seed)
    }

    pub(super) fn economy_exact(
        &self,
        economy: &Economy,
        budget: &mut Budget,
    ) -> Result<Evaluation, ExactError> {
        Ok(self.economy_evaluation(&self.economy_exact_hists(economy, budget)?))
    }

    pub(super) fn economy_monte_carlo(
        &self,
        economy: &Economy,
        settings: &McSettings<'_>,
    ) -> Result<Evaluation, Interrupted> {
        Ok(self.economy_evaluation(&self.economy_monte_carlo_hists(economy, settings)?))
    }
}
