//! The exact Cortex engine (docs/cortex.md): the joint (total, effect, hitches)
//! distribution of one pool by a dynamic programme over the dice whose state
//! is what the [`Scorer`] holds, the hitch count by a Poisson-binomial
//! convolution, and a case's exact outcome histograms from those (or from
//! [`choice_outcomes`] under `max-effect`). The programmes count face
//! combinations ([`super::weight`]), so a case's histograms are integers
//! over one whole and every metric is divided once; pool distributions are
//! memoised for the run ([`super::pool_cache`]). A brute-force enumeration
//! of every face, scored die by die, is the cross-check the tests hold it to.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::dice::{Die, Pool};
use crate::distribution::Hist;
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

use super::max_effect::{choice_outcomes, score_choice};
use super::plot_points::PlotRoll;
use super::pool_cache::{memoised, Cached, PoolOutcomes};
use super::programme_step::{add_die, first_face_to_hold, ProgrammeState};
use super::rules::{rank_face, total_rank, total_rank_step, Opposition, Policy, Rank, MAX_KEEP};
use super::score::{score, PoolRoll, Scorer};
use super::weight::{count_sum, exact_whole, quantise, ratio, Weight, FALLBACK_WHOLE};
use super::{CortexCase, CortexHists};

/// A DP state: a [`Scorer`]'s total dice (best first) and largest free step
/// (-1 none), with the hitch count capped.
#[derive(Clone, Copy, PartialEq, Eq)]
struct DpState {
    held: [Rank; MAX_KEEP],
    free_step: i8,
    hitches: u16,
}

/// Hashes the fields this state had before it held ranks (faces, steps,
/// live count, free step, hitches). The programme sums probabilities in the
/// order its hash map iterates, which follows the hashes, so the same bytes
/// keep every probability the same to the last bit.
impl Hash for DpState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let step = |r: Rank| if r == 0 { 0 } else { total_rank_step(r) };
        self.held.map(rank_face).hash(state);
        self.held.map(step).hash(state);
        (self.held.iter().filter(|&&r| r != 0).count() as u8).hash(state);
        self.free_step.hash(state);
        self.hitches.hash(state);
    }
}

impl DpState {
    fn scorer(&self, keep: usize) -> Scorer {
        Scorer {
            keep,
            held: self.held,
            free_step: self.free_step,
            hitches: u32::from(self.hitches),
        }
    }

    fn from_scorer(scorer: &Scorer, hitch_cap: u32) -> DpState {
        DpState {
            held: scorer.held,
            free_step: scorer.free_step,
            hitches: scorer.hitches.min(hitch_cap) as u16,
        }
        .canonical()
    }
}

/// What the plain programme fixes for every [`DpState`]: the total's size
/// and the cap on the hitch count.
#[derive(Clone, Copy)]
struct DpSetting {
    keep: usize,
    hitch_cap: u32,
}

impl ProgrammeState for DpState {
    type Setting = DpSetting;

    fn hitched(mut self, setting: DpSetting) -> DpState {
        self.hitches = (u32::from(self.hitches) + 1).min(setting.hitch_cap) as u16;
        self
    }

    /// A face below the lowest of a full total cannot enter it.
    fn first_useful_face(&self, setting: DpSetting) -> u8 {
        first_face_to_hold(self.held[setting.keep - 1])
    }

    fn free_step_mut(&mut self) -> &mut i8 {
        &mut self.free_step
    }

    /// A held die's step only matters if it could still become the effect
    /// die, i.e. if it is larger than the largest free die; otherwise it is
    /// set to 0 so that equivalent states merge.
    fn canonical(mut self) -> DpState {
        if self.free_step >= 0 {
            for rank in &mut self.held {
                if *rank != 0 && total_rank_step(*rank) as i8 <= self.free_step {
                    *rank = total_rank(rank_face(*rank), 0);
                }
            }
        }
        self
    }

    fn pushed(self, setting: DpSetting, step: u8, face: u8) -> DpState {
        let mut scorer = self.scorer(setting.keep);
        scorer.push(step, face);
        DpState::from_scorer(&scorer, setting.hitch_cap)
    }
}

/// Exact (total, effect, hitches) distribution of `pool` summing `keep` dice,
/// memoised for the run: counts of face combinations (`u128`) or
/// probabilities (`f64`, past [`super::weight::EXACT_LIMIT`]).
pub fn pool_outcomes<W: Cached>(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
) -> Result<Arc<PoolOutcomes<W>>, ExactError> {
    memoised(pool, keep, hitch_cap, budget, |budget| {
        pool_programme(pool, keep, hitch_cap, budget)
    })
}

/// A pool's scored roll: (total, effect step, hitches).
pub type Outcome = (u32, u32, u32);

/// The (total, effect, hitches) probabilities of `pool`: from the counts
/// while they fit, else from the `f64` programme. For the scene chain.
pub fn pool_probabilities(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
) -> Result<Vec<(Outcome, f64)>, ExactError> {
    Ok(match exact_whole([pool]) {
        Some(whole) => pool_outcomes::<u128>(pool, keep, hitch_cap, budget)?
            .outcomes
            .iter()
            .map(|&(outcome, count)| (outcome, ratio(count, whole)))
            .collect(),
        None => pool_outcomes::<f64>(pool, keep, hitch_cap, budget)?
            .outcomes
            .clone(),
    })
}

/// The dynamic programme over the dice, largest first, whose state is what
/// the [`Scorer`] holds. Faces that cannot enter a full total are merged
/// into one transition, so the work is about states x (distinct useful faces).
fn pool_programme<W: Weight>(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
) -> Result<PoolOutcomes<W>, ExactError> {
    let what = || format!("the pool {pool}");
    let start = DpState {
        held: [0; MAX_KEEP],
        free_step: -1,
        hitches: 0,
    };
    let setting = DpSetting { keep, hitch_cap };
    let mut states: FxHashMap<DpState, W> = FxHashMap::default();
    states.insert(start, W::ONE);
    let mut sides_left: u64 = pool.dice().iter().map(|d| u64::from(d.sides())).sum();
    let (mut cost, mut peak) = (0u64, 0u64);
    for die in pool.dice() {
        let step = die.step() as u8;
        let sides = die.sides() as u8;
        // The state count rarely shrinks, so if even today's count times
        // the faces still to come will not fit, refuse now rather than
        // after a second of work.
        let ahead = Work::ProgrammeUpdate.nanos(states.len() as u64 * sides_left);
        peak = peak.max(cost.saturating_add(ahead));
        if !budget.allows(ahead) {
            return Err(ExactError::TooLarge(what()));
        }
        sides_left -= u64::from(sides);
        let work = Work::ProgrammeUpdate.cost(states.len() as u64 * u64::from(sides));
        budget.spend(work, &what)?;
        cost += work;
        states = add_die(&states, setting, step, sides);
    }
    let mut joint: FxHashMap<(u32, u32, u32), W> = FxHashMap::default();
    for (state, p) in states {
        let roll = state.scorer(keep).finish();
        *joint
            .entry((roll.total, roll.effect_step, roll.hitches))
            .or_default() += p;
    }
    let mut outcomes: Vec<_> = joint.into_iter().collect();
    outcomes.sort_by_key(|a| a.0);
    Ok(PoolOutcomes {
        outcomes,
        cost,
        peak,
    })
}

/// Distribution of the number of hitches: each die is a 1 on one face of
/// its S, independently (a Poisson-binomial convolution).
pub fn hitch_distribution<W: Weight>(pool: &Pool) -> Hist<W> {
    // `weights[i]` is the weight of `fewest + i` hitches: the counts whose
    // weights underflow ([`Weight::negligible`]) are left off either end, so
    // a pool of thousands of dice convolves only the band that carries its
    // probability, at full speed.
    let mut weights = vec![W::ONE];
    let mut fewest = 0;
    for die in pool.dice() {
        let sides = die.sides();
        let mut next = vec![W::default(); weights.len() + 1];
        for (h, &p) in weights.iter().enumerate() {
            next[h] += p.faces(sides - 1, sides);
            next[h + 1] += p.faces(1, sides);
        }
        let last = next.iter().rposition(|w| !w.negligible()).unwrap_or(0);
        next.truncate(last + 1);
        let first = next.iter().position(|w| !w.negligible()).unwrap_or(0);
        next.drain(..first);
        fewest += first;
        weights = next;
    }
    let mut hist = Hist::with_range(0, pool.len() as i64);
    for (h, p) in weights.into_iter().enumerate() {
        hist.add((fewest + h) as i64, p);
    }
    hist
}

/// Integer histograms from `f64` ones on the [`FALLBACK_WHOLE`] grid. The
/// whole is at least every histogram's own sum, so no probability can pass 1.
fn quantised(h: CortexHists<f64>) -> CortexHists<u128> {
    let mut counts = CortexHists {
        total: quantise(&h.total),
        hitches: quantise(&h.hitches),
        pool_effect: quantise(&h.pool_effect),
        margin: quantise(&h.margin),
        win_effect: quantise(&h.win_effect),
        fail: h.fail.to_count(),
        reaction_hitch: h.reaction_hitch.to_count(),
        plot_points_spent: quantise(&h.plot_points_spent),
        whole: 0,
        counted: false,
    };
    counts.whole = [
        FALLBACK_WHOLE,
        count_sum(&counts.total),
        count_sum(&counts.hitches),
        count_sum(&counts.pool_effect),
        count_sum(&counts.margin),
        count_sum(&counts.win_effect) + counts.fail,
        count_sum(&counts.plot_points_spent),
    ]
    .into_iter()
    .max()
    .expect("several sums");
    counts
}

impl CortexCase {
    /// The exact outcome histograms as counts of face combinations over
    /// their whole; past [`super::weight::EXACT_LIMIT`] combinations, the
    /// `f64` programme's probabilities on the fallback grid.
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<CortexHists<u128>, ExactError> {
        let reaction = match &self.opposition {
            Opposition::Pool(vs) => Some(vs),
            _ => None,
        };
        match exact_whole(std::iter::once(&self.pool).chain(reaction)) {
            Some(whole) => {
                let mut hists = self.weighted_hists::<u128>(budget)?;
                hists.whole = whole;
                hists.counted = true;
                Ok(hists)
            }
            None => Ok(quantised(self.weighted_hists::<f64>(budget)?)),
        }
    }

    /// The outcome histograms in weights `W`, through the programmes.
    fn weighted_hists<W: Cached>(&self, budget: &mut Budget) -> Result<CortexHists<W>, ExactError> {
        // The hitch convolution takes n (n + 1) / 2 entries of a dense
        // vector for n dice; it is budgeted too, or `100000d4` would pass
        // the DP's check and then spend seconds here.
        let n = self.pool.len() as u64;
        budget.spend(Work::HitchCell.cost(n * (n + 1) / 2), &|| {
            format!("the pool {}", self.pool)
        })?;
        let reaction_whole = match &self.opposition {
            Opposition::Pool(vs) => W::whole_of(vs),
            _ => W::ONE,
        };
        let mut hists = CortexHists {
            hitches: hitch_distribution::<W>(&self.pool).map(|w| w.times(reaction_whole)),
            ..CortexHists::default()
        };
        if let (Some(points), Opposition::Difficulty(d)) =
            (self.rules.plot_points, &self.opposition)
        {
            self.exact_plot_points(points, *d, &mut hists, budget)?;
            return Ok(hists);
        }
        if let (Policy::MaxEffect, Opposition::Difficulty(d)) =
            (self.rules.policy, &self.opposition)
        {
            for ((total, effect_step), p) in
                choice_outcomes::<W>(&self.pool, &self.rules, Some(*d), budget)?
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
        let action = by_total_and_effect(
            &pool_outcomes::<W>(&self.pool, self.rules.keep, 0, budget)?.outcomes,
        );
        match &self.opposition {
            Opposition::Pool(vs) => {
                let mut reaction = pool_outcomes::<W>(vs, self.rules.reaction_keep, 0, budget)?
                    .outcomes
                    .clone();
                if !self.rules.effect_step_down {
                    // Only the step-down looks at the reaction's effect die
                    // (docs/cortex.md), so without it the reaction's totals suffice.
                    for (outcome, _) in &mut reaction {
                        outcome.1 = 0;
                    }
                }
                let reaction = by_total_and_effect(&reaction);
                budget.spend(
                    Work::OutcomePair.cost((action.len() * reaction.len()) as u64),
                    &|| format!("{} against {vs}", self.pool),
                )?;
                for &(a, p) in &action {
                    for &(r, q) in &reaction {
                        self.record(a, Some(r), p.times(q), &mut hists, false);
                    }
                }
                // P(no hitch) is a product; the whole distribution is not needed.
                let no_hitch = vs
                    .dice()
                    .iter()
                    .fold(W::ONE, |w, d| w.faces(d.sides() - 1, d.sides()));
                let action_whole = W::whole_of(&self.pool);
                hists.reaction_hitch = (reaction_whole - no_hitch).times(action_whole);
            }
            _ => {
                for &(a, p) in &action {
                    self.record(a, None, p, &mut hists, false);
                }
            }
        }
        Ok(hists)
    }

    /// Every face combination, scored one by one: the slow, obviously
    /// correct cross-check for [`CortexCase::exact_hists`]. Only for small pools.
    pub fn brute_force_hists(&self) -> CortexHists<u128> {
        let reaction_dice: Vec<Die> = match &self.opposition {
            Opposition::Pool(vs) => vs.dice().to_vec(),
            _ => Vec::new(),
        };
        let action_dice = self.pool.dice().to_vec();
        let all: Vec<Die> = action_dice.iter().chain(&reaction_dice).copied().collect();
        let mut faces = vec![1u8; all.len()];
        let mut hists = CortexHists {
            whole: all.iter().map(|d| u128::from(d.sides())).product(),
            counted: true,
            ..CortexHists::default()
        };
        loop {
            let (a_faces, r_faces) = faces.split_at(action_dice.len());
            if let (Some(points), Opposition::Difficulty(d)) =
                (self.rules.plot_points, &self.opposition)
            {
                let mut roll = PlotRoll::new(self.rules.keep, points as usize);
                for (die, &face) in action_dice.iter().zip(a_faces) {
                    roll.push(die.step() as u8, face);
                }
                let (action, spent) = roll.spend(self.rules.keep, &self.rules, *d);
                self.record_spent(action, spent, 1, &mut hists, true);
            } else {
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
                self.record(action, reaction, 1, &mut hists, true);
            }
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
}

/// A pool's outcomes as scored rolls, hitches dropped and equal
/// (total, effect) merged, in order.
fn by_total_and_effect<W: Weight>(outcomes: &[((u32, u32, u32), W)]) -> Vec<(PoolRoll, W)> {
    let mut merged: Vec<(PoolRoll, W)> = Vec::with_capacity(outcomes.len());
    let mut sorted: Vec<_> = outcomes.iter().map(|&((t, e, _), w)| ((t, e), w)).collect();
    sorted.sort_by_key(|a| a.0);
    for ((total, effect_step), w) in sorted {
        match merged.last_mut() {
            Some((roll, sum)) if (roll.total, roll.effect_step) == (total, effect_step) => {
                *sum += w
            }
            _ => merged.push((
                PoolRoll {
                    total,
                    effect_step,
                    hitches: 0,
                },
                w,
            )),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cortex::rules::Rules;

    #[test]
    fn dp_matches_brute_force_on_a_small_pool() {
        for effect_step_down in [false, true] {
            let case = CortexCase {
                pool: Pool::parse_cortex("d10 d8 d6").unwrap(),
                opposition: Opposition::Pool(Pool::parse_cortex("d8 d6").unwrap()),
                rules: Rules {
                    effect_step_down,
                    ..Rules::default()
                },
            };
            let exact = case.exact_hists(&mut Budget::unlimited()).unwrap();
            let brute = case.brute_force_hists();
            // Counts, not probabilities: equal to the last combination.
            assert_eq!(exact.whole, brute.whole);
            assert_eq!(case.metrics(&exact), case.metrics(&brute));
            assert_eq!(case.fractions(&exact), case.fractions(&brute));
        }
    }

    #[test]
    fn the_fallback_agrees_with_the_counts() {
        // A pool past the exact limit goes through f64; below it, the same
        // rolls through f64 must land within rounding of the counts.
        let case = CortexCase {
            pool: Pool::parse_cortex("d12 d10 2d8 d6").unwrap(),
            opposition: Opposition::Pool(Pool::parse_cortex("3d8").unwrap()),
            rules: Rules::default(),
        };
        let counts = case.exact_hists(&mut Budget::unlimited()).unwrap();
        let floats = quantised(
            case.weighted_hists::<f64>(&mut Budget::unlimited())
                .unwrap(),
        );
        assert!(!floats.counted && counts.counted);
        for (a, b) in case.metrics(&counts).iter().zip(case.metrics(&floats)) {
            assert!(
                (a.value.unwrap() - b.value.unwrap()).abs() < 1e-13,
                "{}",
                a.name
            );
        }
        let big = CortexCase {
            pool: Pool::parse_cortex("30d12").unwrap(),
            opposition: Opposition::Pool(Pool::parse_cortex("10d12").unwrap()),
            rules: Rules::default(),
        };
        let h = big.exact_hists(&mut Budget::unlimited()).unwrap();
        assert!(!h.counted);
        assert!(big.fractions(&h).is_none());
    }

    /// A large pool's hitch counts leave off only the counts whose chance
    /// underflows: every other count is its binomial chance, computed in
    /// logarithms (to 1e-7 of itself: the logarithms of chances near 1e-300
    /// are near -690, and rounding there moves the chance by about 1e-9),
    /// and the counts still sum to 1.
    #[test]
    fn a_large_pool_drops_only_the_hitch_counts_that_underflow() {
        let n = 3000;
        let hist = hitch_distribution::<f64>(&Pool::new(vec![crate::dice::Die::D4; n]));
        let ln_fact: Vec<f64> = (0..=n)
            .scan(0.0, |acc, k| {
                if k > 0 {
                    *acc += (k as f64).ln();
                }
                Some(*acc)
            })
            .collect();
        let mut total = 0.0;
        let mut kept = 0;
        for k in 0..=n {
            let ln = ln_fact[n] - ln_fact[k] - ln_fact[n - k]
                + k as f64 * 0.25f64.ln()
                + (n - k) as f64 * 0.75f64.ln();
            let want = ln.exp();
            let got = hist.get(k as i64);
            total += got;
            if want >= 1e-300 {
                assert!(
                    (got / want - 1.0).abs() < 1e-7,
                    "{k}: {got:e} against {want:e}"
                );
                kept += 1;
            } else if got > 0.0 {
                kept += 1;
            }
            assert!(got == 0.0 || got >= f64::MIN_POSITIVE, "{k}: {got}");
        }
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // (Both ends are left off: 0.75^3000 and 0.25^3000 underflow.)
        assert!(hist.get(0) == 0.0 && hist.get(n as i64) == 0.0 && kept > 100);
    }

    #[test]
    fn the_hitch_convolution_is_charged_at_the_dense_rate() {
        // The nanoseconds charged for n small dice, fitted on two sizes as
        // a n + c n^2: the programme's share is linear, the convolution's
        // n (n + 1) / 2 entries are priced as hitch cells.
        let spent = |n: usize| {
            let case = CortexCase {
                pool: Pool::new(vec![crate::dice::Die::D4; n]),
                opposition: Opposition::Difficulty(5),
                rules: Rules {
                    keep: 1,
                    ..Rules::default()
                },
            };
            let mut budget = Budget::unlimited();
            case.exact_hists(&mut budget).unwrap();
            budget.spent() as f64
        };
        let n = 2000.0;
        let c = (spent(4000) - 2.0 * spent(2000)) / (2.0 * n * n);
        let want = Work::HitchCell.picos() as f64 / 1000.0 / 2.0;
        assert!((c / want - 1.0).abs() < 0.01, "{c} against {want}");
        // So 10,000 dice against 2d6 fit the interactive budget (a fraction
        // of a second), and 100,000 are still refused before the work.
        let large = CortexCase {
            pool: Pool::parse_cortex("10000d8").unwrap(),
            opposition: Opposition::Pool(Pool::parse_cortex("2d6").unwrap()),
            rules: Rules::default(),
        };
        assert!(large.exact_hists(&mut Budget::interactive()).is_ok());
        let huge = CortexCase {
            pool: Pool::new(vec![crate::dice::Die::D4; 100_000]),
            ..large
        };
        assert!(matches!(
            huge.exact_hists(&mut Budget::interactive()),
            Err(ExactError::TooLarge(_))
        ));
    }
}
