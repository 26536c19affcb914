//! Weights of the Cortex exact engine (exact means exact): the
//! programmes count face combinations in `u128` while every count fits, so
//! a probability is one integer divided by another, divided once and
//! correctly rounded ([`ratio`]), and written as a fraction in lowest terms
//! on request ([`fraction`]). Beyond [`EXACT_LIMIT`] combinations the same
//! programmes run on `f64` probabilities, and [`quantise`] puts those on an
//! integer grid of [`FALLBACK_WHOLE`], so every metric is still computed
//! one way, from integers, and stays in [0, 1]; only then the last digits
//! carry the programme's rounding (about 1e-15) and no fractions are given.

use std::ops::{AddAssign, Sub};

use crate::dice::Pool;
use crate::distribution::Hist;

/// The largest number of face combinations counted exactly. Means multiply
/// a count by an outcome (at most 60, five d12s) and [`ratio`] doubles a
/// remainder, so 2^120 leaves room for both in a `u128`.
pub const EXACT_LIMIT: u128 = 1 << 120;

/// The integer grid of the `f64` fallback: a probability p becomes the
/// count round(p * 2^100).
pub const FALLBACK_WHOLE: u128 = 1 << 100;

/// What the programmes add up: a count of face combinations (`u128`) or a
/// probability (`f64`, the fallback).
pub trait Weight:
    Copy + Default + AddAssign + Sub<Output = Self> + PartialEq + Send + Sync + 'static
{
    /// The weight of the empty roll.
    const ONE: Self;
    /// This weight times `count` faces out of a die's `sides`.
    fn faces(self, count: u32, sides: u32) -> Self;
    /// The weight of two independent rolls together.
    fn times(self, other: Self) -> Self;
    /// The weight of every roll of `pool` (its face combinations, or 1).
    fn whole_of(pool: &Pool) -> Self;
    /// This weight as a count on a grid where `whole` (every roll) is
    /// [`FALLBACK_WHOLE`] or the exact count.
    fn to_count(self) -> u128;
    /// Whether this weight is too small to carry on: an `f64` below the
    /// smallest normal number (about 2.2e-308), whose arithmetic runs many
    /// times slower on some processors and whose share no output can show;
    /// never an exact count.
    fn negligible(self) -> bool;
}

impl Weight for u128 {
    const ONE: u128 = 1;
    #[inline]
    fn faces(self, count: u32, _sides: u32) -> u128 {
        self * u128::from(count)
    }
    #[inline]
    fn times(self, other: u128) -> u128 {
        self * other
    }
    fn whole_of(pool: &Pool) -> u128 {
        pool.dice().iter().map(|d| u128::from(d.sides())).product()
    }
    fn negligible(self) -> bool {
        false
    }
    fn to_count(self) -> u128 {
        self
    }
}

impl Weight for f64 {
    const ONE: f64 = 1.0;
    #[inline]
    fn faces(self, count: u32, sides: u32) -> f64 {
        self * (1.0 / f64::from(sides)) * f64::from(count)
    }
    #[inline]
    fn times(self, other: f64) -> f64 {
        self * other
    }
    fn whole_of(_pool: &Pool) -> f64 {
        1.0
    }
    fn to_count(self) -> u128 {
        (self.max(0.0) * FALLBACK_WHOLE as f64).round() as u128
    }
    fn negligible(self) -> bool {
        self < f64::MIN_POSITIVE
    }
}

/// The face combinations of `pools` rolled together, or `None` when they
/// pass [`EXACT_LIMIT`] (then the `f64` fallback answers).
pub fn exact_whole<'a>(pools: impl IntoIterator<Item = &'a Pool>) -> Option<u128> {
    let mut whole: u128 = 1;
    for pool in pools {
        for die in pool.dice() {
            whole = whole.checked_mul(u128::from(die.sides()))?;
            if whole > EXACT_LIMIT {
                return None;
            }
        }
    }
    Some(whole)
}

/// A histogram of weights as counts ([`Weight::to_count`]).
pub fn quantise<W: Weight>(hist: &Hist<W>) -> Hist<u128> {
    hist.map(Weight::to_count)
}

/// The sum of a histogram's counts.
pub fn count_sum(hist: &Hist<u128>) -> u128 {
    hist.iter().map(|(_, c)| c).sum()
}

/// `numerator / denominator`, correctly rounded to the nearest `f64` (ties
/// to even), for `denominator` below 2^127. Dividing two `f64`s would round
/// twice whenever either passes 2^53; this divides once, bit by bit.
pub fn ratio(numerator: u128, denominator: u128) -> f64 {
    assert!(denominator > 0 && denominator < 1 << 127);
    if numerator == 0 {
        return 0.0;
    }
    if numerator < 1 << 53 && denominator < 1 << 53 {
        // Both exact as f64, and IEEE division rounds correctly.
        return numerator as f64 / denominator as f64;
    }
    let integer = numerator / denominator;
    let mut remainder = numerator % denominator;
    if integer >= 1 << 53 {
        // Outside every use here (probabilities and means of small totals).
        return numerator as f64 / denominator as f64;
    }
    // Quotient bits until 55 significant ones (53, a guard bit and one
    // more), then the remainder as the sticky bit.
    let mut quotient = integer;
    let mut exponent: i32 = 0;
    while quotient < 1 << 54 {
        remainder <<= 1;
        quotient <<= 1;
        if remainder >= denominator {
            remainder -= denominator;
            quotient |= 1;
        }
        exponent -= 1;
    }
    while quotient >= 1 << 55 {
        // Only when the integer part alone had more bits than needed.
        remainder |= quotient & 1;
        quotient >>= 1;
        exponent += 1;
    }
    let sticky = remainder != 0 || quotient & 1 != 0;
    let guard = quotient & 2 != 0;
    let mut mantissa = (quotient >> 2) as u64;
    if guard && (sticky || mantissa & 1 != 0) {
        mantissa += 1;
    }
    // Exact: a 54-bit integer times a power of two in the normal range.
    mantissa as f64 * 2f64.powi(exponent + 2)
}

/// A signed numerator over a positive denominator, correctly rounded.
pub fn signed_ratio(numerator: i128, denominator: u128) -> f64 {
    let magnitude = ratio(numerator.unsigned_abs(), denominator);
    if numerator < 0 {
        -magnitude
    } else {
        magnitude
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `"numerator/denominator"` in lowest terms (`"0/1"` for zero), the form
/// icepool users publish (docs/reports.md, `--fractions`).
pub fn fraction(numerator: u128, denominator: u128) -> String {
    let common = gcd(numerator, denominator).max(1);
    let (n, d) = (numerator / common, denominator / common);
    if n == 0 {
        "0/1".to_string()
    } else {
        format!("{n}/{d}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest f64 to n/d found another way: the candidate from f64
    /// division and its neighbours, compared exactly by cross-multiplying
    /// in u128 (all values here are small enough).
    fn nearest(n: u128, d: u128) -> f64 {
        let guess = n as f64 / d as f64;
        let candidates = [guess.next_down(), guess, guess.next_up()];
        // |c - n/d| = |c*d - n| / d; with c = m * 2^e, compare m*d against n*2^-e.
        let error = |c: f64| -> (u128, u128) {
            let bits = c.to_bits();
            let exponent = ((bits >> 52) & 0x7ff) as i32 - 1075;
            let mantissa = u128::from((bits & ((1 << 52) - 1)) | (1 << 52));
            let shift = (-exponent) as u32;
            let lhs = mantissa * d;
            let rhs = n << shift;
            (lhs.abs_diff(rhs), mantissa & 1)
        };
        *candidates
            .iter()
            .min_by_key(|&&c| error(c))
            .expect("three candidates")
    }

    #[test]
    fn ratio_is_the_nearest_double() {
        // Denominators past 2^53 (where f64 division rounds twice) and small ones.
        let denominators = [
            3u128,
            7,
            384,
            46_080,
            (1 << 60) + 1,
            3u128.pow(40),
            6u128.pow(22),
        ];
        for &d in &denominators {
            for n in [1, 2, d / 3, d / 2, d - 1, d / 7 + 5, d] {
                if n == 0 || n > d {
                    continue;
                }
                assert_eq!(ratio(n, d), nearest(n, d), "{n}/{d}");
            }
        }
        assert_eq!(ratio(0, 5), 0.0);
        assert_eq!(ratio(5, 5), 1.0);
        assert_eq!(ratio(1945, 192), 1945.0 / 192.0);
        assert_eq!(signed_ratio(-3, 4), -0.75);
    }

    #[test]
    fn fractions_are_in_lowest_terms() {
        assert_eq!(fraction(278, 768), "139/384");
        assert_eq!(fraction(0, 36), "0/1");
        assert_eq!(fraction(36, 36), "1/1");
    }

    #[test]
    fn wholes_stop_at_the_limit() {
        let small = Pool::parse_cortex("d10 2d8 d6").unwrap();
        assert_eq!(exact_whole([&small, &small]), Some(3840 * 3840));
        let big = Pool::parse_cortex("40d12").unwrap();
        assert_eq!(exact_whole([&big]), None);
    }
}
