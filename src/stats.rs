//! Monte Carlo statistics: 95% intervals for every metric (Wilson for
//! probabilities, mean +/- z standard errors for means, as docs/reports.md asks) and
//! the distance of a Monte Carlo value from the exact one in standard errors.

use crate::distribution::{Metric, Spread};

/// The two-sided 95% normal quantile, the standard normal distribution's
/// 0.975 quantile, written to the last bit of what statrs computes (a unit
/// test holds it to statrs, which only the tests depend on).
pub const Z95: f64 = 1.959_963_984_540_053_8;

/// [`Z95`], for the intervals of docs/reports.md.
pub fn z95() -> f64 {
    Z95
}

/// Trials a metric is measured over: its base share of all trials.
fn effective_trials(spread: Spread, trials: u64) -> f64 {
    let base = match spread {
        Spread::Proportion { base } | Spread::Mean { base, .. } => base,
    };
    // The base is a count divided by `trials`, so rounding recovers the count.
    (base * trials as f64).round()
}

/// Wilson score interval for a share `p` of `n` trials. At p = 0 the lower
/// bound is exactly 0 and at p = 1 the upper bound exactly 1 (docs/reports.md): the
/// formula gives them only up to rounding (2.8e-17, 0.9999999999999999).
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// A mean resting on fewer samples than this has no interval (docs/reports.md): the
/// normal approximation behind mean +/- z standard errors is not to be
/// trusted on so few.
pub const MIN_MEAN_SAMPLES: f64 = 30.0;

/// Standard error of a Monte Carlo metric; `None` when undefined.
pub fn standard_error(metric: &Metric, trials: u64) -> Option<f64> {
    let value = metric.value?;
    let n = effective_trials(metric.spread, trials);
    match metric.spread {
        Spread::Proportion { .. } if n >= 1.0 => Some((value * (1.0 - value) / n).max(0.0).sqrt()),
        Spread::Mean { variance, .. } if n >= 2.0 => {
            // Sample standard deviation (n - 1), as docs/reports.md specifies.
            let sample_variance = variance * n / (n - 1.0);
            Some((sample_variance / n).sqrt())
        }
        _ => None,
    }
}

/// The 95% interval of a Monte Carlo metric.
pub fn interval95(metric: &Metric, trials: u64) -> Option<(f64, f64)> {
    let value = metric.value?;
    let z = z95();
    match metric.spread {
        Spread::Proportion { .. } => {
            let n = effective_trials(metric.spread, trials);
            (n >= 1.0).then(|| wilson(value, n, z))
        }
        Spread::Mean { variance, .. } => {
            // Samples with no spread give a zero-width interval that claims
            // a certainty the run does not have: none rather than a false one.
            let n = effective_trials(metric.spread, trials);
            if n < MIN_MEAN_SAMPLES || variance <= 0.0 {
                return None;
            }
            let se = standard_error(metric, trials)?;
            Some((value - z * se, value + z * se))
        }
    }
}

/// How many standard errors the Monte Carlo value lies from the exact one.
/// The standard error is the exact value's own (the spread of the exact
/// distribution), so a Monte Carlo run that happened to see no variation
/// still gets an honest distance. `None` when either value is undefined;
/// zero when both agree on a value with no spread at all.
pub fn z_vs_exact(mc: &Metric, exact: &Metric, trials: u64) -> Option<f64> {
    let mc_value = mc.value?;
    let exact_value = exact.value?;
    let se = standard_error(exact, trials)
        .filter(|&se| se > 0.0)
        .or_else(|| standard_error(mc, trials))?;
    if se > 0.0 {
        Some((mc_value - exact_value) / se)
    } else if (mc_value - exact_value).abs() < 1e-12 {
        Some(0.0)
    } else {
        None
    }
}

/// The 95% interval of the difference `b - a` between two independent
/// results of one metric: normal, with the standard errors added in
/// quadrature; an exact value adds no error. `None` when either value is
/// undefined or a Monte Carlo error is (both exact: no interval either).
pub fn difference95(
    a: &Metric,
    a_trials: Option<u64>,
    b: &Metric,
    b_trials: Option<u64>,
) -> Option<(f64, f64)> {
    if a_trials.is_none() && b_trials.is_none() {
        return None;
    }
    let error = |m: &Metric, trials: Option<u64>| match trials {
        Some(n) => standard_error(m, n),
        None => Some(0.0),
    };
    let se = error(a, a_trials)?.hypot(error(b, b_trials)?);
    let difference = b.value? - a.value?;
    let half = z95() * se;
    Some((difference - half, difference + half))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_is_the_normal_quantile_to_the_bit() {
        use statrs::distribution::{ContinuousCDF, Normal};
        let quantile = Normal::standard().inverse_cdf(0.975);
        assert_eq!(Z95.to_bits(), quantile.to_bits(), "{quantile:?}");
    }

    #[test]
    fn wilson_matches_a_hand_computation() {
        // p = 0.5, n = 100: centre 0.5, half-width z/(1+z²/n)·sqrt(1/400 + z²/40000).
        let z = z95();
        let (lo, hi) = wilson(0.5, 100.0, z);
        let half = z / (1.0 + z * z / 100.0) * (0.0025 + z * z / 40000.0).sqrt();
        assert!((lo - (0.5 - half)).abs() < 1e-12);
        assert!((hi - (0.5 + half)).abs() < 1e-12);
        let (lo0, hi0) = wilson(0.0, 100.0, z);
        assert_eq!(lo0, 0.0);
        assert!(hi0 > 0.03 && hi0 < 0.04);
    }

    /// Exact bounds at the ends, for any number of trials.
    #[test]
    fn wilson_bounds_are_exact_at_zero_and_one() {
        for n in [1.0, 5.0, 7.0, 100.0, 1e6] {
            assert_eq!(wilson(0.0, n, z95()).0, 0.0, "{n}");
            assert_eq!(wilson(1.0, n, z95()).1, 1.0, "{n}");
        }
    }

    fn mean_metric(variance: f64, base: f64) -> Metric {
        Metric {
            name: "m".into(),
            value: Some(1.0),
            spread: Spread::Mean { variance, base },
        }
    }

    /// No interval for a mean of fewer than 30 samples or
    /// of samples with no spread; one from 30 samples with spread.
    #[test]
    fn a_mean_of_few_or_identical_samples_has_no_interval() {
        assert_eq!(interval95(&mean_metric(0.0, 1.0), 100_000), None);
        assert_eq!(
            interval95(&mean_metric(1.0, 14.0 / 100_000.0), 100_000),
            None
        );
        assert_eq!(interval95(&mean_metric(1.0, 29.0 / 100.0), 100), None);
        assert!(interval95(&mean_metric(1.0, 30.0 / 100.0), 100).is_some());
    }

    #[test]
    fn difference_interval_adds_errors_in_quadrature() {
        let a = Metric::probability("p", 0.5);
        let b = Metric::probability("p", 0.6);
        let (lo, hi) = difference95(&a, Some(100), &b, Some(400)).unwrap();
        let se_a = standard_error(&a, 100).unwrap();
        let se_b = standard_error(&b, 400).unwrap();
        assert!(((lo + hi) / 2.0 - 0.1).abs() < 1e-12);
        let half = z95() * (se_a * se_a + se_b * se_b).sqrt();
        assert!((hi - lo - 2.0 * half).abs() < 1e-12);
        // Against an exact value only the Monte Carlo side is uncertain.
        let (lo, hi) = difference95(&a, None, &b, Some(400)).unwrap();
        assert!((hi - lo - 2.0 * z95() * se_b).abs() < 1e-12);
        assert_eq!(difference95(&a, None, &b, None), None);
    }

    #[test]
    fn mean_interval_uses_the_sample_variance() {
        let metric = Metric {
            name: "m".into(),
            value: Some(10.0),
            spread: Spread::Mean {
                variance: 4.0,
                base: 1.0,
            },
        };
        let (lo, hi) = interval95(&metric, 50).unwrap();
        let se = (4.0_f64 * 50.0 / 49.0 / 50.0).sqrt();
        assert!((hi - lo - 2.0 * z95() * se).abs() < 1e-12);
    }
}
