//! Doom-pool scenes (docs/cortex.md; the Cortex Plus rules text, "Запас Рока" and
//! "Уровни Сложности"): a run of player actions, each an opposed Cortex roll
//! against the whole doom pool, where every action that shows hitches feeds
//! the doom pool one die (a d6 stepped up once per extra hitch) and earns the
//! player a plot point; optionally the GM ends the scene by spending 2d12.
//!
//! This module holds the case, its options, tallies and metrics; the Monte
//! Carlo trial, which plays scenes die by die with the rule every Cortex
//! roll is scored by, is [`super::scene_sample`], and the exact method the
//! chain in [`super::doom_chain`]. Both fill one [`SceneHists`], read by one
//! `metrics()` and one `rows()`. Success and heroic success are the Cortex
//! [`Rules`]' own.

use rustc_hash::FxHashMap;
use serde_json::{json, Map, Value};

use crate::dice::{Die, Pool};
use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric, Spread};
use crate::engine::cost;
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{Interrupted, McSettings};
use crate::options::{OptionError, Options};

use super::economy::Economy;
use super::keys::{ACTIONS, DOOM, ECONOMY_KEYS, END_AT_2D12, SCENE_POOL};
use super::rules::Rules;
use super::scene_metrics as m;
use crate::systems::SystemCase;

pub use super::keys::MAX_ACTIONS;

/// A doom pool's contents: how many dice of each size, d4 .. d12.
pub(super) type DoomKey = [u32; 5];

pub(super) fn key_of(pool: &Pool) -> DoomKey {
    let mut key = [0; 5];
    for die in pool.dice() {
        key[die.step() as usize] += 1;
    }
    key
}

fn pool_of(key: &DoomKey) -> Pool {
    let mut dice = Vec::new();
    for (step, &count) in key.iter().enumerate() {
        let die = Die::from_step(step as u32).expect("a doom key has five sizes");
        dice.extend(std::iter::repeat_n(die, count as usize));
    }
    Pool::new(dice)
}

pub(super) fn dice_in(key: &DoomKey) -> u64 {
    key.iter().map(|&c| u64::from(c)).sum()
}

/// The doom die an action with `hitches` (>= 1) adds (docs/cortex.md; the Cortex Plus
/// rules text, "Запас Рока": a d6, stepped up one step per extra hitch): 1 hitch d6, 2 d8,
/// 3 d10, 4 or more d12.
pub fn doom_die_step(hitches: u32) -> usize {
    (hitches as usize).min(4)
}

/// A resolved doom-pool scene.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneCase {
    pub pool: Pool,
    pub doom: Pool,
    pub actions: u32,
    pub rules: Rules,
    pub end_at_2d12: bool,
    /// The plot points and doom dice spent (docs/cortex.md, "The scene's
    /// economy"). A case read from options always has one (every key at
    /// its default when none is given); `None`, for tests and benchmarks,
    /// is the plain scene without the economy's metrics.
    pub economy: Option<Economy>,
}

impl SceneCase {
    pub fn from_options(mut options: Options) -> Result<SceneCase, OptionError> {
        let Some(pool) = options.cortex_pool(&SCENE_POOL)? else {
            return Err(options.case_error(format!(
                "a cortex-scene case needs {}, the player's pool such as \"d10 2d8 d6\"",
                options.key_name(&SCENE_POOL)
            )));
        };
        let doom = options.pool_of(&DOOM)?;
        let actions = options.int_of(&ACTIONS)? as u32;
        let rules = Rules::from_options(&mut options)?;
        let end_at_2d12 = options.bool_of(&END_AT_2D12)?;
        let economy = Some(Economy::from_options(&mut options, &pool)?);
        options.finish()?;
        Ok(SceneCase {
            pool,
            doom,
            actions,
            rules,
            end_at_2d12,
            economy,
        })
    }

    /// Whether the GM ends the scene before an action (docs/cortex.md; the Cortex
    /// Plus rules text, "Запас Рока": "spend 2d12 to end the scene at once").
    pub(super) fn ends(&self, doom: &DoomKey) -> bool {
        self.end_at_2d12 && doom[4] >= 2
    }

    /// Whether an action totalling `action` beats a doom total of `reaction`,
    /// and whether it does so heroically: the reference the sampler's
    /// margins, read once a scene, are held to.
    #[cfg(test)]
    pub(super) fn outcome(&self, action: u32, reaction: u32) -> (bool, bool) {
        let margin = i64::from(action) - i64::from(reaction);
        (self.rules.succeeds(margin), self.rules.is_heroic(margin))
    }
}

/// The outcome tallies of a scene: counts in Monte Carlo, probabilities
/// when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneHists<W> {
    /// Per action, the scenes in which it happened and succeeded.
    pub success_by_action: Vec<W>,
    /// Successes per scene.
    pub successes: Hist<W>,
    /// Successes with margin >= heroic_step per scene.
    pub heroics: Hist<W>,
    /// Plot points earned per scene (one per action with hitches).
    pub plot_points: Hist<W>,
    /// Scenes the GM ended early.
    pub ended: W,
    /// The final doom pool of scenes that ran to the end.
    pub final_doom: FxHashMap<DoomKey, W>,
    /// Dice in that final pool (its mass is the share not ended early).
    pub final_dice: Hist<W>,
    /// Exact only: the mass of the doom pools dropped as too unlikely.
    pub dropped: W,
    /// Exact long scenes only: heroic successes by their moments (the
    /// chance, and the sums of count and count squared weighted by it)
    /// instead of `heroics`, whose mean and variance are all a metric
    /// reads ([`HeroicMoments`]).
    pub heroic_moments: Option<HeroicMoments>,
}

/// The heroic successes of the scenes tallied, by moments: `mass` =
/// sum p, `first` = sum p c, `second` = sum p c^2 over scenes with c
/// heroic successes. A long scene's exact chain carries these two sums
/// per doom pool instead of a count per number of heroic successes
/// (docs/cortex.md), halving its rows; the economy's chain carries the doom
/// dice spent the same way.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HeroicMoments {
    pub mass: f64,
    pub first: f64,
    pub second: f64,
}

impl HeroicMoments {
    /// The mean and variance, `None` with no mass.
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        if self.mass <= 0.0 {
            return None;
        }
        let mean = self.first / self.mass;
        // E[c^2] - mean^2 can round below zero when there is no spread.
        let variance = (self.second / self.mass - mean * mean).max(0.0);
        Some((mean, variance))
    }

    /// The mean as the metric `name`, with its variance.
    pub fn metric(&self, name: &str) -> Metric {
        let (value, variance) = self.mean_variance().unzip();
        Metric {
            name: name.into(),
            value,
            spread: Spread::Mean {
                variance: variance.unwrap_or(0.0),
                base: 1.0,
            },
        }
    }

    /// Adds the sums of `other`.
    pub fn add(&mut self, other: &HeroicMoments) {
        self.mass += other.mass;
        self.first += other.first;
        self.second += other.second;
    }
}

impl<W: Copy + Default + std::ops::AddAssign> SceneHists<W> {
    pub(crate) fn new(actions: u32) -> Self {
        let n = i64::from(actions);
        SceneHists {
            success_by_action: vec![W::default(); actions as usize],
            successes: Hist::with_range(0, n),
            heroics: Hist::with_range(0, n),
            plot_points: Hist::with_range(0, n),
            ..SceneHists::default()
        }
    }

    pub(crate) fn merge(&mut self, other: &SceneHists<W>) {
        for (a, &b) in self
            .success_by_action
            .iter_mut()
            .zip(&other.success_by_action)
        {
            *a += b;
        }
        self.successes.merge(&other.successes);
        self.heroics.merge(&other.heroics);
        self.plot_points.merge(&other.plot_points);
        self.ended += other.ended;
        for (key, &w) in &other.final_doom {
            *self.final_doom.entry(*key).or_default() += w;
        }
        self.final_dice.merge(&other.final_dice);
        if let Some(theirs) = other.heroic_moments {
            self.heroic_moments
                .get_or_insert_with(HeroicMoments::default)
                .add(&theirs);
        }
    }
}

impl SceneHists<u64> {
    pub(crate) fn to_probabilities(&self, trials: u64) -> SceneHists<f64> {
        let n = trials as f64;
        SceneHists {
            success_by_action: self
                .success_by_action
                .iter()
                .map(|&c| c as f64 / n)
                .collect(),
            successes: self.successes.to_probabilities(trials),
            heroics: self.heroics.to_probabilities(trials),
            plot_points: self.plot_points.to_probabilities(trials),
            ended: self.ended as f64 / n,
            final_doom: self
                .final_doom
                .iter()
                .map(|(k, &c)| (*k, c as f64 / n))
                .collect(),
            final_dice: self.final_dice.to_probabilities(trials),
            dropped: 0.0,
            heroic_moments: None,
        }
    }
}

impl SceneCase {
    /// Every docs/cortex.md metric from the tallies; one function for both methods.
    pub fn metrics(&self, h: &SceneHists<f64>) -> Vec<Metric> {
        let mut metrics: Vec<Metric> = h
            .success_by_action
            .iter()
            .enumerate()
            .map(|(i, &p)| Metric::probability(m::P_SUCCESS_ACTION.name(i + 1), p))
            .collect();
        metrics.extend([
            Metric::mean_of(m::MEAN_SUCCESSES.name, &h.successes, 1.0),
            match h.heroic_moments {
                Some(moments) => moments.metric(m::MEAN_HEROIC_SUCCESSES.name),
                None => Metric::mean_of(m::MEAN_HEROIC_SUCCESSES.name, &h.heroics, 1.0),
            },
            Metric::mean_of(m::MEAN_PLOT_POINTS.name, &h.plot_points, 1.0),
            Metric::probability(m::P_ENDED_EARLY.name, h.ended),
            // Over the scenes that ran to the end only (docs/cortex.md).
            Metric::mean_of(m::MEAN_FINAL_DOOM_DICE.name, &h.final_dice, 1.0 - h.ended),
        ]);
        metrics
    }

    /// The distribution table: `final_doom` (each pool in canonical notation,
    /// fewest dice first, then `ended`), `successes` and `plot_points`.
    pub fn rows(&self, h: &SceneHists<f64>) -> Vec<DistRow> {
        let mut pools: Vec<(Pool, f64)> = h
            .final_doom
            .iter()
            .map(|(key, &p)| (pool_of(key), p))
            .collect();
        pools.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
        let mut rows: Vec<DistRow> = pools
            .into_iter()
            .map(|(pool, p)| DistRow::new(m::FINAL_DOOM.name, pool, p))
            .collect();
        rows.push(DistRow::new(m::FINAL_DOOM.name, "ended", h.ended));
        rows.extend(hist_rows(m::SUCCESSES.name, &h.successes, |o| {
            o.to_string()
        }));
        rows.extend(hist_rows(m::PLOT_POINTS.name, &h.plot_points, |o| {
            o.to_string()
        }));
        rows
    }

    fn evaluation(&self, h: &SceneHists<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass: (h.dropped > 0.0).then_some(h.dropped),
        }
    }
}

impl SystemCase for SceneCase {
    fn system(&self) -> crate::systems::System {
        crate::systems::System::CortexScene
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = Map::new();
        inputs.insert(SCENE_POOL.name.into(), json!(self.pool.to_string()));
        inputs.insert(DOOM.name.into(), json!(self.doom.to_string()));
        inputs.insert(ACTIONS.name.into(), json!(self.actions));
        self.rules.insert_opposed_inputs(&mut inputs);
        inputs.insert(END_AT_2D12.name.into(), json!(self.end_at_2d12));
        if let Some(economy) = &self.economy {
            economy.insert_inputs(&mut inputs);
        }
        inputs
    }

    /// An action's pool against the doom pool (a few dice larger on
    /// average than it starts) for every action.
    fn mc_trial_nanos(&self) -> f64 {
        let dice = self.pool.len() + self.doom.len() + 2;
        cost::mc_trial_nanos(dice as f64, f64::from(self.actions), cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        match &self.economy {
            None => Ok(self.evaluation(&self.exact_hists(budget)?)),
            Some(economy) => self.economy_exact(economy, budget),
        }
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        match &self.economy {
            None => Ok(self.evaluation(&self.monte_carlo_hists(settings)?)),
            Some(economy) => self.economy_monte_carlo(economy, settings),
        }
    }

    /// "d10 2d8 d6 vs 2d6" when `pool` and `doom` are swept, with
    /// ", actions=6" when `actions` is too (the scenario loader adds any
    /// other swept key the same way). The economy's keys follow only
    /// where they differ from their defaults (docs/cortex.md).
    fn sweep_name(&self, swept: &[String]) -> Option<String> {
        let has = |k: &str| swept.iter().any(|s| s == k);
        let economy_swept = ECONOMY_KEYS.iter().any(|key| has(key.name));
        if !(economy_swept || has(SCENE_POOL.name) && has(DOOM.name)) {
            return None;
        }
        let mut name = format!("{} vs {}", self.pool, self.doom);
        if has(ACTIONS.name) {
            name.push_str(&format!(", actions={}", self.actions));
        }
        for part in self.economy.iter().flat_map(|e| e.name_parts(has)) {
            name.push_str(", ");
            name.push_str(&part);
        }
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cortex::{CortexCase, Opposition, Ties};

    fn scene(pool: &str, doom: &str, actions: u32) -> SceneCase {
        SceneCase {
            pool: Pool::parse_cortex(pool).unwrap(),
            doom: Pool::parse_cortex(doom).unwrap(),
            actions,
            rules: Rules::default(),
            end_at_2d12: false,
            economy: None,
        }
    }

    fn exact(case: &SceneCase) -> (Vec<Metric>, Vec<DistRow>) {
        let h = case.exact_hists(&mut Budget::unlimited()).unwrap();
        (case.metrics(&h), case.rows(&h))
    }

    fn value(metrics: &[Metric], name: &str) -> Option<f64> {
        crate::distribution::metric(metrics, name)
            .unwrap_or_else(|| panic!("no metric {name}"))
            .value
    }

    fn row(rows: &[DistRow], variable: &str, outcome: &str) -> f64 {
        rows.iter()
            .find(|r| r.variable == variable && r.outcome == outcome)
            .map_or(0.0, |r| r.probability)
    }

    #[test]
    fn one_action_is_the_plain_opposed_roll() {
        for (pool, doom, ties, heroic_step) in [
            ("d10 2d8 d6", "2d6", Ties::Reaction, 5),
            ("d8 d6 d6", "3d8", Ties::Action, 3),
            ("d12 d4", "d10 d6 d4", Ties::Reaction, 1),
        ] {
            let mut case = scene(pool, doom, 1);
            case.rules.ties = ties;
            case.rules.heroic_step = heroic_step;
            let (metrics, _) = exact(&case);
            let roll = CortexCase {
                pool: case.pool.clone(),
                opposition: Opposition::Pool(case.doom.clone()),
                rules: case.rules,
            };
            let plain = roll.metrics(&roll.exact_hists(&mut Budget::unlimited()).unwrap());
            let close = |a: Option<f64>, b: Option<f64>| (a.unwrap() - b.unwrap()).abs() < 1e-12;
            // One action: a plot point exactly when it shows a hitch.
            for (scene, roll) in [
                ("p_success_action_1", "p_success"),
                ("mean_successes", "p_success"),
                ("mean_heroic_successes", "p_heroic"),
                ("mean_plot_points", "p_hitch"),
            ] {
                assert!(
                    close(value(&metrics, scene), value(&plain, roll)),
                    "{scene}"
                );
            }
        }
        // Published figure: d8 d6 d6 against 2d6 succeeds 0.7068 of the time.
        let (metrics, _) = exact(&scene("d8 d6 d6", "2d6", 1));
        assert!((value(&metrics, "p_success_action_1").unwrap() - 0.7068).abs() < 5e-5);
    }

    #[test]
    fn two_actions_by_hand() {
        // d4 against a d4 doom pool. Each shows 0 (a hitch), 2, 3 or 4.
        // Action 1 wins 3/8 (the chance the two differ, halved). A hitch
        // (1/4) adds a d6. Against d4 + d6 the doom total R is 0 with 1/24,
        // 2 with 2/24, 3 with 2/24, so the action's 2, 3, 4 win with
        // (1/24 + 3/24 + 5/24) / 4 = 3/32. Action 2: 3/4 * 3/8 + 1/4 * 3/32.
        let mut case = scene("d4", "d4", 2);
        case.rules.heroic_step = 2;
        let (metrics, rows) = exact(&case);
        let expect = |name: &str, x: f64| {
            let got = value(&metrics, name).unwrap();
            assert!((got - x).abs() < 1e-12, "{name}: {got} vs {x}");
        };
        expect("p_success_action_1", 3.0 / 8.0);
        expect("p_success_action_2", 39.0 / 128.0);
        expect("mean_successes", 3.0 / 8.0 + 39.0 / 128.0);
        // Margin >= 2: against d4, 2 and 3 beat a hitch, 4 beats 0 and 2:
        // 4/16; against d4 + d6, R <= a - 2: (1/24 + 1/24 + 3/24) / 4.
        expect(
            "mean_heroic_successes",
            1.0 / 4.0 + (3.0 / 4.0 / 4.0 + 5.0 / 96.0 / 4.0),
        );
        expect("mean_plot_points", 0.5);
        expect("p_ended_early", 0.0);
        expect("mean_final_doom_dice", 1.5);
        assert!((row(&rows, "final_doom", "d4") - 9.0 / 16.0).abs() < 1e-12);
        assert!((row(&rows, "final_doom", "d6 d4") - 6.0 / 16.0).abs() < 1e-12);
        assert!((row(&rows, "final_doom", "2d6 d4") - 1.0 / 16.0).abs() < 1e-12);
        assert_eq!(row(&rows, "final_doom", "ended"), 0.0);
        let order: Vec<&str> = rows
            .iter()
            .filter(|r| r.variable == "final_doom")
            .map(|r| r.outcome.as_str())
            .collect();
        assert_eq!(order, ["d4", "d6 d4", "2d6 d4", "ended"]);
    }

    #[test]
    fn hitches_grow_the_doom_die() {
        assert_eq!(doom_die_step(1), 1);
        assert_eq!(doom_die_step(2), 2);
        assert_eq!(doom_die_step(3), 3);
        assert_eq!(doom_die_step(4), 4);
        assert_eq!(doom_die_step(7), 4);
        // d6 d6 against d4, one action: two hitches (1/36) add a d8, one
        // hitch (10/36) a d6.
        let (_, rows) = exact(&scene("2d6", "d4", 1));
        assert!((row(&rows, "final_doom", "d8 d4") - 1.0 / 36.0).abs() < 1e-12);
        assert!((row(&rows, "final_doom", "d6 d4") - 10.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn the_gm_ends_the_scene_with_2d12() {
        // Two d12 before the first action: nothing happens.
        let mut case = scene("d10 2d8 d6", "2d12 d6", 3);
        case.end_at_2d12 = true;
        let (metrics, rows) = exact(&case);
        assert_eq!(value(&metrics, "p_ended_early"), Some(1.0));
        assert_eq!(value(&metrics, "mean_successes"), Some(0.0));
        assert_eq!(value(&metrics, "p_success_action_1"), Some(0.0));
        assert_eq!(value(&metrics, "mean_final_doom_dice"), None);
        assert_eq!(row(&rows, "final_doom", "ended"), 1.0);
        // Without the rule the scene plays on.
        case.end_at_2d12 = false;
        let (metrics, _) = exact(&case);
        assert_eq!(value(&metrics, "p_ended_early"), Some(0.0));
        // 4d4 against d12: four hitches (1/256) add the second d12, and the
        // GM ends the scene before action 2.
        let mut case = scene("4d4", "d12", 2);
        case.end_at_2d12 = true;
        let (metrics, _) = exact(&case);
        assert!((value(&metrics, "p_ended_early").unwrap() - 1.0 / 256.0).abs() < 1e-15);
        // Reaching 2d12 after the last action does not end anything.
        let mut case = scene("4d4", "d12", 1);
        case.end_at_2d12 = true;
        let (metrics, rows) = exact(&case);
        assert_eq!(value(&metrics, "p_ended_early"), Some(0.0));
        assert!((row(&rows, "final_doom", "2d12") - 1.0 / 256.0).abs() < 1e-15);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let trials = 200_000;
        let mut end = scene("d6 3d4", "d12 d8", 5);
        end.end_at_2d12 = true;
        end.rules.ties = Ties::Action;
        for case in [scene("d10 2d8 d6", "3d8", 6), end] {
            let exact = case.metrics(&case.exact_hists(&mut Budget::unlimited()).unwrap());
            let mc = case.metrics(&case.monte_carlo_hists(&McSettings::new(trials, 7)).unwrap());
            for (e, m) in exact.iter().zip(&mc) {
                assert_eq!(e.name, m.name);
                let z = crate::stats::z_vs_exact(m, e, trials).unwrap();
                assert!(z.abs() < 5.0, "{}: z = {z}", e.name);
            }
        }
    }

    #[test]
    fn options_are_checked() {
        use crate::options::{KeyStyle, RawItem, RawValue};
        let build = |entries: Vec<(&str, RawValue)>| {
            let entries = entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), RawItem::new(v)))
                .collect();
            SceneCase::from_options(
                crate::systems::System::CortexScene.options(KeyStyle::Flag, entries),
            )
        };
        let pool = || ("pool", RawValue::Str("d8 d6".into()));
        let ok = build(vec![pool()]).unwrap();
        assert_eq!(ok.doom.to_string(), "2d6");
        assert_eq!(ok.actions, 4);
        assert!(!ok.end_at_2d12);
        let err = |entries| build(entries).unwrap_err().message;
        assert!(err(vec![pool(), ("actions", RawValue::Int(0))])
            .contains("`--actions` must be a whole number from 1"));
        assert!(err(vec![pool(), ("doom", RawValue::Str("2d20".into()))])
            .contains("d4, d6, d8, d10 or d12"));
        assert!(err(vec![("doom", RawValue::Str("2d6".into()))]).contains("needs `--pool`"));
        assert!(
            err(vec![pool(), ("effect_step_down", RawValue::Bool(true))])
                .contains("belongs to cortex")
        );
    }
}
