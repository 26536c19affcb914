//! The shared currency between the engines and the reports: dense
//! histograms over integer outcomes, the named metrics computed from them,
//! and the rows of the distribution table.
//!
//! Both engines fill the same histogram types (Monte Carlo with integer
//! counts, the exact engine with probabilities), and each system turns a
//! filled set of histograms into [`Metric`]s with one function. Because a
//! metric carries its [`Spread`], the statistics layer can put a Monte Carlo
//! interval on it without knowing what the metric means.

use std::ops::AddAssign;

/// A dense histogram over the integers `offset .. offset + len`. `W` is `u64`
/// for Monte Carlo counts and `f64` for exact probabilities.
#[derive(Debug, Clone, PartialEq)]
pub struct Hist<W> {
    offset: i64,
    weights: Vec<W>,
}

impl<W> Default for Hist<W> {
    fn default() -> Self {
        Hist {
            offset: 0,
            weights: Vec::new(),
        }
    }
}

impl<W: Copy + Default + AddAssign> Hist<W> {
    /// An empty histogram over `lo ..= hi`; it grows if needed.
    pub fn with_range(lo: i64, hi: i64) -> Self {
        let len = (hi - lo + 1).max(0) as usize;
        Hist {
            offset: lo,
            weights: vec![W::default(); len],
        }
    }

    /// Adds `weight` at `outcome`, growing the range when it falls outside.
    #[inline]
    pub fn add(&mut self, outcome: i64, weight: W) {
        let index = outcome - self.offset;
        if index >= 0 && (index as usize) < self.weights.len() {
            self.weights[index as usize] += weight;
        } else {
            self.grow_to(outcome);
            self.weights[(outcome - self.offset) as usize] += weight;
        }
    }

    #[cold]
    fn grow_to(&mut self, outcome: i64) {
        if self.weights.is_empty() {
            self.offset = outcome;
            self.weights.push(W::default());
        } else if outcome < self.offset {
            let extra = (self.offset - outcome) as usize;
            let mut grown = vec![W::default(); extra];
            grown.extend_from_slice(&self.weights);
            self.weights = grown;
            self.offset = outcome;
        } else {
            let len = (outcome - self.offset + 1) as usize;
            self.weights.resize(len, W::default());
        }
    }

    /// Adds every weight of `other` into this one.
    pub fn merge(&mut self, other: &Hist<W>) {
        for (outcome, weight) in other.iter() {
            self.add(outcome, weight);
        }
    }

    /// `(outcome, weight)` for every outcome in the stored range.
    pub fn iter(&self) -> impl Iterator<Item = (i64, W)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .map(move |(i, &w)| (self.offset + i as i64, w))
    }

    /// The weight at `outcome` (zero outside the range).
    pub fn get(&self, outcome: i64) -> W {
        let index = outcome - self.offset;
        if index >= 0 && (index as usize) < self.weights.len() {
            self.weights[index as usize]
        } else {
            W::default()
        }
    }

    /// The same outcomes with each weight converted.
    pub fn map<V: Copy + Default + AddAssign>(&self, f: impl Fn(W) -> V) -> Hist<V> {
        Hist {
            offset: self.offset,
            weights: self.weights.iter().map(|&w| f(w)).collect(),
        }
    }
}

impl Hist<u64> {
    /// Counts divided by the number of trials.
    pub fn to_probabilities(&self, trials: u64) -> Hist<f64> {
        let n = trials as f64;
        self.map(|count| count as f64 / n)
    }
}

impl Hist<f64> {
    /// Total weight.
    pub fn mass(&self) -> f64 {
        self.weights.iter().sum()
    }

    /// Total weight of the outcomes that satisfy `keep`.
    pub fn mass_where(&self, keep: impl Fn(i64) -> bool) -> f64 {
        self.iter().filter(|&(o, _)| keep(o)).map(|(_, w)| w).sum()
    }

    /// Mean and (population) variance of the outcome, the weights taken as
    /// probabilities over the histogram's own mass. `None` for no mass.
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        let mass = self.mass();
        if mass <= 0.0 {
            return None;
        }
        let mean = self.iter().map(|(o, w)| o as f64 * w).sum::<f64>() / mass;
        // One outcome is no spread at all, exactly, not the rounding residue
        // the sum below leaves (a mean of identical samples has no interval).
        if self.iter().filter(|&(_, w)| w > 0.0).count() == 1 {
            return Some((mean, 0.0));
        }
        let variance = self
            .iter()
            .map(|(o, w)| (o as f64 - mean).powi(2) * w)
            .sum::<f64>()
            / mass;
        Some((mean, variance))
    }

    /// The outcomes from the lowest to the highest with any weight, so the
    /// distribution table shows the support without padding.
    pub fn support(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        let first = self.weights.iter().position(|&w| w > 0.0).unwrap_or(0);
        let last = self.weights.iter().rposition(|&w| w > 0.0).unwrap_or(0);
        self.iter()
            .skip(first)
            .take((last + 1).saturating_sub(first))
    }
}

/// How a metric's Monte Carlo uncertainty is estimated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spread {
    /// A probability, estimated as the share of trials (Wilson interval).
    /// `base` is the share of trials it is measured over: 1 for a plain
    /// probability, P(condition) for a conditional one.
    Proportion { base: f64 },
    /// A mean of a per-trial value with this population variance, over the
    /// `base` share of trials.
    Mean { variance: f64, base: f64 },
}

/// One named metric, the same for exact and Monte Carlo results.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    /// `None` when the metric is undefined (e.g. a mean over no successes).
    pub value: Option<f64>,
    pub spread: Spread,
}

impl Metric {
    pub fn probability(name: impl Into<String>, p: f64) -> Metric {
        Metric {
            name: name.into(),
            value: Some(p),
            spread: Spread::Proportion { base: 1.0 },
        }
    }

    /// The mean of a histogram of per-trial values (undefined with no mass).
    /// `base` is the share of all trials the histogram covers.
    pub fn mean_of(name: impl Into<String>, hist: &Hist<f64>, base: f64) -> Metric {
        let (value, variance) = match hist.mean_variance() {
            Some((mean, variance)) => (Some(mean), variance),
            None => (None, 0.0),
        };
        Metric {
            name: name.into(),
            value,
            spread: Spread::Mean { variance, base },
        }
    }
}

/// One row of the distribution table: `variable`, `outcome`, `probability`.
#[derive(Debug, Clone, PartialEq)]
pub struct DistRow {
    pub variable: String,
    pub outcome: String,
    pub probability: f64,
}

impl DistRow {
    pub fn new(variable: &str, outcome: impl ToString, probability: f64) -> DistRow {
        DistRow {
            variable: variable.to_string(),
            outcome: outcome.to_string(),
            probability,
        }
    }
}

/// Rows for every outcome in a histogram's support, labelled by `label`.
pub fn hist_rows(variable: &str, hist: &Hist<f64>, label: impl Fn(i64) -> String) -> Vec<DistRow> {
    hist.support()
        .map(|(outcome, p)| DistRow::new(variable, label(outcome), p))
        .collect()
}

/// Per row, P(variable >= outcome) (docs/reports.md, `at_least`) where the outcome
/// is a whole number (totals, margins, hitches, successes, exchanges, plot
/// points), `None` for outcomes without an order (`fail`, `never`,
/// `ended`, die names, tiers). Every system gets the column from its rows'
/// labels, with nothing to declare.
///
/// The tail runs over the variable's numeric rows only, so a conflict's
/// P(foe out at exchange >= 3) leaves `never` out. Each value is summed
/// from the nearer end, so neither end loses precision: the upper tail
/// from the top while it is under half the numeric mass (a small tail
/// keeps its digits), else the numeric mass less what lies below. The
/// lowest outcome is then the numeric mass itself, exactly 1 for a
/// variable whose rows are a whole distribution, where summing every row
/// would give 0.9999999999999999 from the rows' own rounding.
pub fn at_least(rows: &[DistRow]) -> Vec<Option<f64>> {
    let mut result = vec![None; rows.len()];
    // The numeric rows, lowest outcome first within each variable.
    let mut numeric: Vec<(&str, i64, usize)> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((r.variable.as_str(), r.outcome.parse::<i64>().ok()?, i)))
        .collect();
    numeric.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    for group in numeric.chunk_by(|a, b| a.0 == b.0) {
        let variable = group[0].0;
        let of_variable = rows.iter().filter(|r| r.variable == variable);
        let unordered: f64 = of_variable
            .clone()
            .filter(|r| r.outcome.parse::<i64>().is_err())
            .map(|r| r.probability)
            .sum();
        let numeric_mass = whole_mass(of_variable.map(|r| r.probability)) - unordered;
        let mut above = 0.0;
        let mut from_top = vec![0.0; group.len()];
        for (k, &(_, _, i)) in group.iter().enumerate().rev() {
            above += rows[i].probability;
            from_top[k] = above;
        }
        let mut below = 0.0;
        for (k, &(_, _, i)) in group.iter().enumerate() {
            let tail = nearer_tail(from_top[k], below, numeric_mass);
            result[i] = Some(tail.clamp(0.0, numeric_mass.max(0.0)));
            below += rows[i].probability;
        }
    }
    result
}

/// P(X >= k) summed from the nearer end, the rule [`at_least`] follows and
/// every tail (a system's "at least k successes" metrics among them) uses:
/// `upper` (P(X >= k)) while it is under half of `mass`, so a small tail
/// keeps its digits, else `mass` less `lower` (P(X < k)), so a near-certain
/// one does not collect the rounding of many rows. `mass` is what the
/// outcomes hold: 1, less any truncated tail.
pub fn nearer_tail(upper: f64, lower: f64, mass: f64) -> f64 {
    if upper < mass / 2.0 {
        upper
    } else {
        mass - lower
    }
}

/// The total of a variable's probabilities: 1 when they are a whole
/// distribution, differing from 1 only by their own rounding (half an ulp
/// of 1 per row), else their sum (an exact result's truncated tail is
/// missing mass, not rounding).
fn whole_mass(probabilities: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = probabilities.fold((0.0, 0u32), |(sum, n), p| (sum + p, n + 1));
    if (sum - 1.0).abs() <= f64::EPSILON * f64::from(count.max(1)) {
        1.0
    } else {
        sum
    }
}

/// What one engine found for one case: the metrics, the distribution table,
/// and for exact results the probability mass left out by truncation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Evaluation {
    pub metrics: Vec<Metric>,
    pub rows: Vec<DistRow>,
    pub dropped_mass: Option<f64>,
}

impl Evaluation {
    /// The metric called `name`, if the system computes it.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        metric(&self.metrics, name)
    }

    /// The value of metric `name`; `None` when it is absent or undefined.
    pub fn value(&self, name: &str) -> Option<f64> {
        self.metric(name)?.value
    }
}

/// The metric called `name` among `metrics`: the one search by name every
/// layer uses, so none writes its own.
pub fn metric<'a>(metrics: &'a [Metric], name: &str) -> Option<&'a Metric> {
    metrics.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hist_grows_both_ways_and_merges() {
        let mut h: Hist<u64> = Hist::with_range(2, 3);
        h.add(5, 1);
        h.add(-1, 2);
        h.add(2, 3);
        assert_eq!(h.get(5), 1);
        assert_eq!(h.get(-1), 2);
        assert_eq!(h.get(2), 3);
        assert_eq!(h.get(100), 0);
        let mut other = Hist::default();
        other.add(7, 4);
        h.merge(&other);
        assert_eq!(h.iter().map(|(_, w)| w).sum::<u64>(), 10);
    }

    #[test]
    fn at_least_is_the_upper_tail_of_numeric_rows() {
        let mut h = Hist::default();
        for (outcome, p) in [(0, 0.5), (1, 0.0), (2, 0.25), (3, 0.25)] {
            h.add(outcome, p);
        }
        let mut rows = hist_rows("total", &h, |o| o.to_string());
        rows.push(DistRow::new("win_effect", "d8", 0.5));
        rows.push(DistRow::new("win_effect", "fail", 0.5));
        let at_least = at_least(&rows);
        // P(X >= k) = 1 - P(X < k), for every k in the support.
        for k in 0..4 {
            let below: f64 = rows[..k].iter().map(|r| r.probability).sum();
            assert!((at_least[k].unwrap() - (1.0 - below)).abs() < 1e-12, "{k}");
        }
        assert_eq!(at_least[4..], [None, None]);
    }

    #[test]
    fn at_least_of_the_lowest_outcome_is_the_whole_mass() {
        // Summed from the top, a d6's sixths give 0.9999999999999999 and
        // 2d6's thirty-sixths 1.0000000000000002.
        let d6: Vec<f64> = vec![1.0 / 6.0; 6];
        let two_d6: Vec<f64> = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
            .iter()
            .map(|&k| f64::from(k) / 36.0)
            .collect();
        for probabilities in [d6, two_d6] {
            let naive: f64 = probabilities.iter().rev().sum();
            assert_ne!(naive, 1.0, "the case this test is for");
            let rows: Vec<DistRow> = probabilities
                .iter()
                .enumerate()
                .map(|(k, &p)| DistRow::new("total", k + 2, p))
                .collect();
            let at_least = at_least(&rows);
            assert_eq!(at_least[0], Some(1.0));
            // Never rising, and a small tail keeps its own digits.
            assert!(at_least.windows(2).all(|w| w[0] >= w[1]));
            assert_eq!(
                at_least.last().copied(),
                Some(probabilities.last().copied())
            );
        }
        // A tail far below the rounding of 1 is not lost.
        let rows = vec![
            DistRow::new("total", 0, 1.0 - 1e-18),
            DistRow::new("total", 1, 1e-18),
        ];
        assert_eq!(at_least(&rows), [Some(1.0), Some(1e-18)]);
        // Outcomes without an order are not part of the tail.
        let rows = vec![
            DistRow::new("exchange", 1, 0.5),
            DistRow::new("exchange", 2, 0.25),
            DistRow::new("exchange", "never", 0.25),
        ];
        assert_eq!(at_least(&rows), [Some(0.75), Some(0.25), None]);
    }

    #[test]
    fn metrics_are_found_by_name() {
        let mut h = Hist::default();
        h.add(1, 1.0);
        let evaluation = Evaluation {
            metrics: vec![
                Metric::probability("p_success", 0.25),
                Metric::mean_of("mean_total", &h, 1.0),
                Metric::mean_of("mean_effect_step", &Hist::default(), 0.0),
            ],
            ..Evaluation::default()
        };
        assert_eq!(evaluation.value("p_success"), Some(0.25));
        assert_eq!(evaluation.value("mean_total"), Some(1.0));
        assert_eq!(evaluation.metric("mean_effect_step").unwrap().value, None);
        assert_eq!(evaluation.value("mean_effect_step"), None);
        assert!(evaluation.metric("p_heroic").is_none());
    }

    #[test]
    fn the_nearer_tail_keeps_small_tails_and_the_whole_mass() {
        assert_eq!(nearer_tail(1e-18, 1.0, 1.0), 1e-18);
        assert_eq!(nearer_tail(0.75, 0.25, 1.0), 0.75);
        assert_eq!(nearer_tail(0.9, 0.0, 0.9), 0.9);
    }

    #[test]
    fn mean_and_variance_of_a_die() {
        let mut h = Hist::default();
        for face in 1..=6 {
            h.add(face, 1.0 / 6.0);
        }
        let (mean, variance) = h.mean_variance().unwrap();
        assert!((mean - 3.5).abs() < 1e-12);
        assert!((variance - 35.0 / 12.0).abs() < 1e-12);
        assert_eq!(h.support().count(), 6);
    }
}
