//! Storytelling d10 pools (docs/storytelling.md; the Storytelling rules text, "Снова-десять"):
//! a pool of `dice + modifier` d10s, a success per die at or above `target`,
//! "снова-десять" (10-again, and the 9-again / 8-again variants) rerolling a
//! die without limit, rote actions rerolling each failed die once, and the
//! chance die a pool of zero or less becomes.
//!
//! One scorer ([`Rules::roll`]) reads a roll face by face in the order the
//! dice are thrown; the Monte Carlo sampler feeds it random faces and the
//! brute-force enumeration feeds it every face sequence, so the two share
//! the rules. The fast exact method builds the success-count distribution of
//! one die (its whole explosion chain, and the rote reroll) and convolves it
//! over the pool, dropping only the improbable high end: never more than
//! [`DROP_LIMIT`] of the pool's probability, reported as the dropped mass.

pub mod metrics;

use serde_json::{json, Map, Value};

use crate::distribution::{hist_rows, DistRow, Evaluation, Hist, Metric, Spread};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::options::{OptionError, Options, RawValue};

use super::SystemCase;
use metrics as m;

/// The keys a storytelling case accepts.
pub const KEYS: &[&str] = &[
    "dice",
    "modifier",
    "target",
    "again",
    "rote",
    "need",
    "exceptional",
    "chance_die_explodes",
];

/// Largest `dice`, and largest pool after the modifier. docs/storytelling.md sets no upper
/// bound; this one only stops a typo (an extra zero or three) from starting
/// a run that would never end. Real pools are a handful of dice.
pub const MAX_DICE: i64 = 1_000_000;

/// The most probability an exact answer may leave out (docs/storytelling.md: truncate
/// explosion chains only where the dropped probability of the whole pool is
/// below 1e-12).
pub const DROP_LIMIT: f64 = 1e-12;

/// What the exact method actually allows itself to drop: far below
/// [`DROP_LIMIT`], so an exact figure reads as the untruncated one to every
/// printed digit (a chance die's `p_success` prints as 0.1, not
/// 0.0999999999997), at the price of a few more terms per die.
pub const DROP_GOAL: f64 = 1e-18;
const _: () = assert!(DROP_GOAL < DROP_LIMIT);

/// Multiply-adds of the convolution per step of the exact budget. A budget
/// step is calibrated on the Cortex programme's hash-map updates (about 25
/// million a second); a multiply-add over two dense arrays is some 30 to 40
/// times cheaper, so a budget's worth is still well under a second.
const MULTIPLY_ADDS_PER_STEP: u64 = 32;

/// Sides of the die; every face is equally likely.
const SIDES: u8 = 10;

/// The rules of one roll, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// `dice + modifier`; zero or less is a chance die.
    pub pool: i64,
    /// A face at or above it is a success (2..=10).
    pub target: u8,
    /// A face at or above it is rolled again; 0 for no rerolls.
    pub again: u8,
    pub rote: bool,
    pub chance_die_explodes: bool,
}

/// One scored roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    pub successes: u32,
    /// The chance die showed 1 (docs/storytelling.md: a dramatic failure).
    pub dramatic: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            pool: 1,
            target: 8,
            again: 10,
            rote: false,
            chance_die_explodes: true,
        }
    }
}

impl Rules {
    pub fn is_chance(&self) -> bool {
        self.pool <= 0
    }

    /// Whether a face is rolled again ("снова-десять": every 10 gives its
    /// success and the die is thrown again, for as long as it keeps coming up).
    #[inline]
    fn explodes(&self, face: u8) -> bool {
        self.again != 0 && face >= self.again
    }

    /// Successes of one die whose first face is `first`, through its whole
    /// chain of rerolls. `None` when `faces` runs out (brute force only).
    #[inline]
    fn chain(&self, first: u8, faces: &mut impl FnMut() -> Option<u8>) -> Option<u32> {
        let mut successes = 0;
        let mut face = first;
        loop {
            // `again` is never below `target`, so a rerolled face was a success.
            successes += u32::from(face >= self.target);
            if !self.explodes(face) {
                return Some(successes);
            }
            face = faces()?;
        }
    }

    /// Scores one roll from its faces in throwing order: each die's chain,
    /// then its rote reroll; or the chance die. `None` when `faces` runs out
    /// before the roll is over.
    #[inline]
    pub fn roll(&self, faces: &mut impl FnMut() -> Option<u8>) -> Option<Roll> {
        if self.is_chance() {
            // docs/storytelling.md / seed, last paragraph: only a 10 succeeds and a 1 is a
            // dramatic failure; "10 always rerolls, even on a chance roll",
            // the reroll counting `target` and `again` as usual. The chance
            // die itself explodes on 10 only, whatever `again` is.
            let face = faces()?;
            if face < SIDES {
                return Some(Roll {
                    successes: 0,
                    dramatic: face == 1,
                });
            }
            let mut successes = 1;
            if self.chance_die_explodes && self.again != 0 {
                let next = faces()?;
                successes += self.chain(next, faces)?;
            }
            return Some(Roll {
                successes,
                dramatic: false,
            });
        }
        let mut successes = 0;
        for _ in 0..self.pool {
            let first = faces()?;
            successes += self.chain(first, faces)?;
            // Rote: an original die with no success on its first roll is
            // thrown once more; that throw may explode but is not rerolled.
            if self.rote && first < self.target {
                let again = faces()?;
                successes += self.chain(again, faces)?;
            }
        }
        Some(Roll {
            successes,
            dramatic: false,
        })
    }

    /// Chance of a face at or above `threshold` (0 for none).
    fn share_at_or_above(threshold: u8) -> f64 {
        if threshold == 0 {
            0.0
        } else {
            f64::from(SIDES + 1 - threshold) / f64::from(SIDES)
        }
    }

    /// The success-count distribution of one exploding die (no rote), cut
    /// where the probability beyond the last entry is at most `tail_goal`,
    /// with that probability. Every throw fails (q), succeeds and stops (p),
    /// or succeeds and is thrown again (a), so P(0) = q, P(1) = p + a q,
    /// P(n) = a P(n - 1) after that, and P(X > m) = P(m) a / (1 - a).
    fn chain_pmf(&self, tail_goal: f64) -> (Vec<f64>, f64) {
        let q = f64::from(self.target - 1) / f64::from(SIDES);
        let a = Self::share_at_or_above(self.again);
        let p = Self::share_at_or_above(self.target) - a;
        let mut pmf = vec![q, p + a * q];
        if a == 0.0 {
            return (pmf, 0.0);
        }
        let ratio = a / (1.0 - a);
        loop {
            let last = *pmf.last().expect("never empty");
            let tail = last * ratio;
            if tail <= tail_goal {
                return (pmf, tail);
            }
            pmf.push(last * a);
        }
    }

    /// The success-count distribution of one die of this roll (an original
    /// die with its rote reroll, or the chance die), cut so that at most
    /// `tail_goal` is left beyond its last entry, with the mass left out.
    pub fn die_pmf(&self, tail_goal: f64) -> (Vec<f64>, f64) {
        if self.is_chance() {
            let win = 1.0 / f64::from(SIDES);
            if !(self.chance_die_explodes && self.again != 0) {
                return (vec![1.0 - win, win], 0.0);
            }
            // A 10, then an ordinary exploding die.
            let (chain, tail) = self.chain_pmf(tail_goal / win);
            let mut pmf = vec![1.0 - win];
            pmf.extend(chain.iter().map(|&x| win * x));
            return (pmf, win * tail);
        }
        let q = f64::from(self.target - 1) / f64::from(SIDES);
        if !self.rote {
            return self.chain_pmf(tail_goal);
        }
        // Rote: a first face below target (q) is followed by a fresh die X';
        // otherwise the die is the chain X given a successful first face.
        // P(Y = n) = q P(X = n) + P(X = n) - q [n = 0].
        let (chain, tail) = self.chain_pmf(tail_goal / (1.0 + q));
        let pmf = chain
            .iter()
            .enumerate()
            .map(|(n, &x)| q * x + x - if n == 0 { q } else { 0.0 })
            .collect();
        (pmf, (1.0 + q) * tail)
    }
}

/// A resolved storytelling case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorytellingCase {
    pub dice: i64,
    pub modifier: i64,
    pub rules: Rules,
    /// Successes needed (`p_success`).
    pub need: i64,
    /// Successes for an exceptional success (`p_exceptional`).
    pub exceptional: i64,
}

impl StorytellingCase {
    pub fn from_options(mut options: Options) -> Result<StorytellingCase, OptionError> {
        let Some(dice) = options.int("dice", 0, MAX_DICE)? else {
            return Err(options.case_error(format!(
                "a storytelling case needs {}, the number of d10s before the modifier (a whole number, 0 or more)",
                options.key_name("dice")
            )));
        };
        let modifier_item = options.take("modifier");
        let modifier = options.int("modifier", i64::MIN, i64::MAX)?.unwrap_or(0);
        let pool = i128::from(dice) + i128::from(modifier);
        if pool > i128::from(MAX_DICE) {
            let message = format!(
                "the pool (dice + modifier) is {pool} dice; at most {MAX_DICE} are allowed"
            );
            return Err(match modifier_item {
                Some(item) => options.error_at(&item, message),
                None => options.case_error(message),
            });
        }
        // Every pool of zero or less is the same chance die.
        let mut rules = Rules {
            pool: pool.max(0) as i64,
            ..Rules::default()
        };
        if let Some(target) = options.int("target", 2, 10)? {
            rules.target = target as u8;
        }
        if let Some(item) = options.take("again") {
            let allowed = || {
                format!(
                    "{} must be 0 (no rerolls) or a value from {} ({}) to 10",
                    options.key_name("again"),
                    options.key_name("target"),
                    rules.target
                )
            };
            match item.value {
                RawValue::Int(0) => rules.again = 0,
                RawValue::Int(v) if v >= i64::from(rules.target) && v <= 10 => {
                    rules.again = v as u8
                }
                RawValue::Int(v) => {
                    return Err(options.error_at(&item, format!("{}, not {v}", allowed())))
                }
                ref other => {
                    return Err(options
                        .error_at(&item, format!("{}, not {}", allowed(), other.type_name())))
                }
            }
        }
        if let Some(rote) = options.bool("rote")? {
            rules.rote = rote;
        }
        if let Some(explodes) = options.bool("chance_die_explodes")? {
            rules.chance_die_explodes = explodes;
        }
        let need = options.int("need", 1, i64::MAX)?.unwrap_or(1);
        let exceptional = options.int("exceptional", 0, i64::MAX)?.unwrap_or(5);
        options.finish()?;
        Ok(StorytellingCase {
            dice,
            modifier,
            rules,
            need,
            exceptional,
        })
    }

    /// The exact outcome histograms and the probability left out. Each die's
    /// chain is cut where its tail is below a share of [`DROP_GOAL`] split
    /// over the dice; after each die is added, the top of the pool's
    /// distribution is cut while the cut stays below another such share, so
    /// the whole drop stays under 0.9 x [`DROP_GOAL`].
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<(StHists<f64>, f64), ExactError> {
        let rules = &self.rules;
        let dice = if rules.is_chance() { 1 } else { rules.pool };
        let share = 0.45 * DROP_GOAL / dice as f64;
        let (die, die_tail) = rules.die_pmf(share);
        let what = || format!("a pool of {} dice", rules.pool);
        let mut pool = vec![1.0];
        let mut dropped = 0.0;
        for added in 0..dice {
            // The pool's support only widens, so the dice still to come cost
            // at least this much: refuse at once rather than after a second.
            let step = (pool.len() * die.len()) as u64;
            let ahead = step.saturating_mul((dice - added) as u64);
            if !budget.allows(ahead / MULTIPLY_ADDS_PER_STEP) {
                return Err(ExactError::TooLarge(what()));
            }
            budget.spend(step.div_ceil(MULTIPLY_ADDS_PER_STEP), &what)?;
            let mut next = vec![0.0; pool.len() + die.len() - 1];
            for (i, &p) in pool.iter().enumerate() {
                for (j, &d) in die.iter().enumerate() {
                    next[i + j] += p * d;
                }
            }
            // The truncated die carries 1 - tail of the mass it is given.
            dropped += (1.0 - dropped) * die_tail;
            let mut cut = 0.0;
            while let Some(&top) = next.last() {
                if next.len() > 1 && cut + top <= share {
                    cut += top;
                    next.pop();
                } else {
                    break;
                }
            }
            dropped += cut;
            pool = next;
        }
        let mut successes = Hist::with_range(0, pool.len() as i64 - 1);
        for (s, &p) in pool.iter().enumerate() {
            successes.add(s as i64, p);
        }
        let dramatic = if rules.is_chance() {
            1.0 / f64::from(SIDES)
        } else {
            0.0
        };
        Ok((
            StHists {
                successes,
                dramatic,
                dropped,
            },
            dropped,
        ))
    }

    /// Every face sequence up to `max_faces` faces, scored one by one: the
    /// slow, obviously correct cross-check for [`Self::exact_hists`]. Returns
    /// the histograms and the mass of rolls still unfinished at the limit.
    /// A roll uses at most `dice x (1 + rote) + successes` faces (every
    /// extra throw follows a success), so success counts up to
    /// `max_faces - dice x (1 + rote)` are complete.
    pub fn brute_force_hists(&self, max_faces: usize) -> (StHists<f64>, f64) {
        fn walk(
            rules: &Rules,
            prefix: &mut Vec<u8>,
            max_faces: usize,
            hists: &mut StHists<f64>,
            unfinished: &mut f64,
        ) {
            let weight = (1.0 / f64::from(SIDES)).powi(prefix.len() as i32);
            let mut next = 0;
            let mut faces = || {
                let face = prefix.get(next).copied();
                next += 1;
                face
            };
            match rules.roll(&mut faces) {
                Some(roll) => record(roll, weight, hists),
                None if prefix.len() == max_faces => *unfinished += weight,
                None => {
                    for face in 1..=SIDES {
                        prefix.push(face);
                        walk(rules, prefix, max_faces, hists, unfinished);
                        prefix.pop();
                    }
                }
            }
        }
        let mut hists = StHists::default();
        let mut unfinished = 0.0;
        walk(
            &self.rules,
            &mut Vec::new(),
            max_faces,
            &mut hists,
            &mut unfinished,
        );
        (hists, unfinished)
    }

    /// Monte Carlo outcome histograms (probabilities).
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<StHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&StSampler { rules: self.rules }, settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    /// Every docs/storytelling.md metric from the outcome histograms; one function for
    /// every method. Nothing is renormalised: an exact answer's dropped mass
    /// simply counts toward no outcome.
    pub fn metrics(&self, h: &StHists<f64>) -> Vec<Metric> {
        let mean: f64 = h.successes.iter().map(|(s, p)| s as f64 * p).sum();
        let variance: f64 = h
            .successes
            .iter()
            .map(|(s, p)| (s as f64 - mean).powi(2) * p)
            .sum();
        vec![
            Metric::probability(m::P_SUCCESS.name, h.at_least(self.need)),
            Metric::probability(m::P_EXCEPTIONAL.name, h.at_least(self.exceptional)),
            Metric {
                name: m::MEAN_SUCCESSES.name.into(),
                value: Some(mean),
                spread: Spread::Mean {
                    variance,
                    base: 1.0,
                },
            },
            Metric::probability(m::P_DRAMATIC.name, h.dramatic),
        ]
    }

    /// The distribution table: `successes`, outcomes 0, 1, ... (docs/storytelling.md).
    pub fn rows(&self, h: &StHists<f64>) -> Vec<DistRow> {
        hist_rows(m::SUCCESSES.name, &h.successes, |s| s.to_string())
    }

    fn evaluation(&self, h: &StHists<f64>, dropped_mass: Option<f64>) -> Evaluation {
        Evaluation {
            metrics: self.metrics(h),
            rows: self.rows(h),
            dropped_mass,
        }
    }
}

/// Adds one scored roll to the histograms.
fn record<W: Copy + Default + std::ops::AddAssign>(roll: Roll, weight: W, h: &mut StHists<W>) {
    h.successes.add(i64::from(roll.successes), weight);
    if roll.dramatic {
        h.dramatic += weight;
    }
}

/// The outcome histograms of a storytelling case: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StHists<W> {
    pub successes: Hist<W>,
    pub dramatic: W,
    /// Probability no outcome holds (exact truncation; 0 in Monte Carlo).
    pub dropped: f64,
}

impl StHists<f64> {
    /// P(successes >= k). Summed over whichever side of `k` is smaller, so
    /// rounding stays small both for a near-certain success (0.83193, not
    /// 0.8319299999999996) and for a tiny tail: the lower side is taken
    /// from the mass the outcomes hold, 1 - dropped.
    pub fn at_least(&self, k: i64) -> f64 {
        let upper = self.successes.mass_where(|s| s >= k);
        if upper < 0.5 {
            upper
        } else {
            (1.0 - self.dropped) - self.successes.mass_where(|s| s < k)
        }
    }
}

impl StHists<u64> {
    fn to_probabilities(&self, trials: u64) -> StHists<f64> {
        StHists {
            successes: self.successes.to_probabilities(trials),
            dramatic: self.dramatic as f64 / trials as f64,
            dropped: 0.0,
        }
    }
}

/// The Monte Carlo trial: real dice, explosions without a depth limit.
struct StSampler {
    rules: Rules,
}

impl Sampler for StSampler {
    type Tally = StHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        StHists {
            successes: Hist::with_range(0, 2 * self.rules.pool.clamp(1, 4096) + 4),
            dramatic: 0,
            dropped: 0.0,
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let mut roller = DieRoller::new(rng);
        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
        let roll = self
            .rules
            .roll(&mut faces)
            .expect("random faces never run out");
        record(roll, 1u64, tally);
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.successes.merge(&other.successes);
        into.dramatic += other.dramatic;
    }
}

impl SystemCase for StorytellingCase {
    fn system(&self) -> super::System {
        super::System::Storytelling
    }

    fn inputs(&self) -> Map<String, Value> {
        let rules = &self.rules;
        let mut inputs = Map::new();
        inputs.insert("dice".into(), json!(self.dice));
        inputs.insert("modifier".into(), json!(self.modifier));
        inputs.insert("target".into(), json!(rules.target));
        inputs.insert("again".into(), json!(rules.again));
        // docs/reports.md: options that do not apply are absent. Rote does not apply
        // to a chance die; `chance_die_explodes` only to a chance die, and
        // not when nothing explodes.
        if !rules.is_chance() {
            inputs.insert("rote".into(), json!(rules.rote));
        }
        inputs.insert("need".into(), json!(self.need));
        inputs.insert("exceptional".into(), json!(self.exceptional));
        if rules.is_chance() && rules.again != 0 {
            inputs.insert(
                "chance_die_explodes".into(),
                json!(rules.chance_die_explodes),
            );
        }
        inputs
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        let (hists, dropped) = self.exact_hists(budget)?;
        Ok(self.evaluation(&hists, Some(dropped)))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        Ok(self.evaluation(&self.monte_carlo_hists(settings)?, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(pool: i64) -> Rules {
        Rules {
            pool,
            ..Rules::default()
        }
    }

    /// Scores a roll from a fixed list of faces, which must all be used.
    fn score(rules: &Rules, faces: &[u8]) -> Roll {
        let mut next = 0;
        let roll = rules
            .roll(&mut || {
                let face = faces.get(next).copied();
                next += 1;
                face
            })
            .expect("enough faces");
        assert_eq!(next, faces.len(), "every face is used");
        roll
    }

    #[test]
    fn the_rules_text_examples() {
        // "Бросок даёт результаты 2,3,5,7,8 и 9, то есть два успеха."
        assert_eq!(score(&rules(6), &[2, 3, 5, 7, 8, 9]).successes, 2);
        // Seven dice 2,4,4,7,8,9,10: three successes, the 10 rerolled; a 5
        // leaves three, an 8 makes four, a 10 makes four and rolls again.
        assert_eq!(score(&rules(7), &[2, 4, 4, 7, 8, 9, 10, 5]).successes, 3);
        assert_eq!(score(&rules(7), &[2, 4, 4, 7, 8, 9, 10, 8]).successes, 4);
        assert_eq!(
            score(&rules(7), &[2, 4, 4, 7, 8, 9, 10, 10, 9]).successes,
            5
        );
    }

    #[test]
    fn nine_again_and_no_rerolls() {
        let nine = Rules {
            again: 9,
            ..rules(2)
        };
        assert_eq!(score(&nine, &[9, 9, 3, 8]).successes, 3);
        let none = Rules {
            again: 0,
            ..rules(2)
        };
        assert_eq!(score(&none, &[10, 10]).successes, 2);
    }

    #[test]
    fn rote_rerolls_each_failed_die_once() {
        let rote = Rules {
            rote: true,
            ..rules(3)
        };
        // 3 fails: reroll 10 (explodes) then 4; 9 is kept; 1 fails: reroll 2, not again.
        assert_eq!(score(&rote, &[3, 10, 4, 9, 1, 2]).successes, 2);
        // A success is never rerolled by rote, even a 10 whose chain ends in a failure.
        assert_eq!(score(&rote, &[10, 2, 8, 8]).successes, 3);
    }

    #[test]
    fn the_chance_die() {
        let chance = rules(0);
        assert_eq!(
            score(&chance, &[1]),
            Roll {
                successes: 0,
                dramatic: true
            }
        );
        assert_eq!(score(&chance, &[9]).successes, 0);
        // A 10 succeeds and is rerolled; the reroll uses target 8 as usual.
        assert_eq!(score(&chance, &[10, 8]).successes, 2);
        assert_eq!(score(&chance, &[10, 10, 3]).successes, 2);
        // With 8-again the chance die itself still succeeds on 10 only...
        let eight = Rules { again: 8, ..chance };
        assert_eq!(score(&eight, &[8]).successes, 0);
        // ...but its rerolls explode on 8.
        assert_eq!(score(&eight, &[10, 8, 2]).successes, 2);
        // The later edition: no reroll; rote never applies.
        let later = Rules {
            chance_die_explodes: false,
            rote: true,
            ..chance
        };
        assert_eq!(score(&later, &[10]).successes, 1);
        assert_eq!(score(&later, &[5]).successes, 0);
    }

    #[test]
    fn one_die_distribution() {
        let (pmf, tail) = rules(1).die_pmf(1e-15);
        assert!((pmf[0] - 0.7).abs() < 1e-15);
        assert!((pmf[1] - 0.27).abs() < 1e-15);
        assert!((pmf[2] - 0.027).abs() < 1e-15);
        assert!(tail <= 1e-15);
        let total: f64 = pmf.iter().sum();
        assert!((total + tail - 1.0).abs() < 1e-14);
    }

    fn case(rules: Rules) -> StorytellingCase {
        StorytellingCase {
            dice: rules.pool,
            modifier: 0,
            rules,
            need: 1,
            exceptional: 5,
        }
    }

    /// Brute force agrees with the exact method: to 1e-12 for every success
    /// count it enumerates completely, never above it, and short of it by
    /// no more than the unfinished mass.
    fn check_against_brute_force(rules: Rules, max_faces: usize) {
        let c = case(rules);
        let (exact, dropped) = c.exact_hists(&mut Budget::unlimited()).unwrap();
        assert!(dropped < DROP_GOAL);
        let (brute, unfinished) = c.brute_force_hists(max_faces);
        let dice = if rules.is_chance() { 1 } else { rules.pool };
        let faces_per_die = if rules.rote && !rules.is_chance() {
            2
        } else {
            1
        };
        let complete = max_faces as i64 - dice * faces_per_die;
        let mut shortfall = 0.0;
        for (s, p) in exact.successes.iter() {
            let b = brute.successes.get(s);
            if s <= complete {
                assert!((p - b).abs() < 1e-12, "{rules:?}: P({s}) {p} vs {b}");
            }
            assert!(b <= p + 1e-12, "{rules:?}: P({s})");
            shortfall += p - b;
        }
        assert!(shortfall <= unfinished + 1e-12, "{rules:?}");
        assert!((exact.dramatic - brute.dramatic).abs() < 1e-15);
    }

    #[test]
    fn exact_matches_brute_force() {
        check_against_brute_force(rules(3), 7);
        check_against_brute_force(
            Rules {
                again: 8,
                rote: true,
                ..rules(2)
            },
            8,
        );
        check_against_brute_force(
            Rules {
                again: 9,
                target: 6,
                ..rules(2)
            },
            7,
        );
        check_against_brute_force(
            Rules {
                again: 0,
                rote: true,
                ..rules(2)
            },
            4,
        );
        check_against_brute_force(
            Rules {
                again: 8,
                ..rules(0)
            },
            8,
        );
        check_against_brute_force(
            Rules {
                chance_die_explodes: false,
                ..rules(0)
            },
            3,
        );
    }
}
