//! The work of a Storytelling pool's exact convolution, predicted before
//! any of it is done (docs/development.md, "Exact budget"): adding a die
//! costs the pool's width so far times the die's, and the width is where
//! the convolution cuts its ends, the top where its tail falls below the
//! drop share and the bottom where the chance underflows below the smallest
//! normal number. Both ends are read off the die's large-deviation rate
//! (Cramér's theorem: the chance of `x k` successes among `k` dice is about
//! `exp(-k I(x))`), so a pool of thousands of dice is sized in a few
//! milliseconds instead of a second of convolving.

/// Bisection steps for each end (the rate's parameter to about 1e-16 of
/// its range).
const BISECTIONS: usize = 60;

/// Pool sizes at which the width is worked out; between them it is
/// interpolated (the width is smooth in the dice: linear while nothing is
/// cut, then growing as their square root).
const SAMPLES: usize = 48;

/// The natural log of the smallest normal `f64`, where the convolution
/// leaves off the fewest successes.
const LN_MIN_POSITIVE: f64 = -708.396_418_532_264_1;

/// The multiply-adds the convolution of `dice` dice of `die` (a die's
/// success-count chances) does, cutting its top at a tail of `share`, as
/// [`super::StorytellingCase::exact_hists`] does: the sum over the dice of
/// the pool's width before each is added, times the die's width.
pub fn predicted_multiply_adds(die: &[f64], dice: usize, share: f64) -> f64 {
    if dice == 0 || die.len() < 2 {
        return dice as f64 * die.len() as f64;
    }
    let rate = Rate::new(die);
    let top_level = -share.ln();
    // The width after `k` dice.
    let width = |k: f64| -> f64 {
        if k < 1.0 {
            return 1.0;
        }
        let bottom = rate.low_end(-LN_MIN_POSITIVE / k).map_or(0.0, |x| x * k);
        let top = rate
            .high_end(top_level / k)
            .map_or(rate.most * k, |x| x * k);
        (top.ceil() - bottom.floor() + 1.0).max(1.0)
    };
    // The pool before die `k + 1` holds `k` dice: sum the widths at
    // 0 .. dice - 1, sampled and interpolated linearly.
    let last = (dice - 1) as f64;
    let points: Vec<f64> = (0..=SAMPLES)
        .map(|i| (last * i as f64 / SAMPLES as f64).round())
        .collect();
    let mut total = 0.0;
    let mut previous: Option<(f64, f64)> = None;
    for &k in &points {
        let w = width(k);
        match previous {
            None => total += w,
            Some((pk, _)) if pk == k => continue,
            // The widths at pk + 1 ..= k, the segment's trapezoid.
            Some((pk, pw)) => {
                let steps = k - pk;
                total += steps * (pw + w) / 2.0 + (w - pw) / 2.0;
            }
        }
        previous = Some((k, w));
    }
    total * die.len() as f64
}

/// A die's cumulant generating function `L(t) = ln sum p_j e^(t j)` and
/// its rate `I(x) = t x - L(t)` at `x = L'(t)`.
struct Rate {
    /// `(successes, ln chance)` of each possible count.
    faces: Vec<(f64, f64)>,
    /// The most successes one die can have.
    most: f64,
}

impl Rate {
    fn new(die: &[f64]) -> Rate {
        let faces: Vec<(f64, f64)> = die
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(j, &p)| (j as f64, p.ln()))
            .collect();
        let most = faces.last().map_or(0.0, |&(j, _)| j);
        Rate { faces, most }
    }

    /// `(I, x)` at the parameter `t`, summed stably (the largest term
    /// taken out before the exponentials).
    fn at(&self, t: f64) -> (f64, f64) {
        let peak = self
            .faces
            .iter()
            .map(|&(j, lp)| t * j + lp)
            .fold(f64::NEG_INFINITY, f64::max);
        let (mut z, mut first) = (0.0, 0.0);
        for &(j, lp) in &self.faces {
            let w = (t * j + lp - peak).exp();
            z += w;
            first += j * w;
        }
        let x = first / z;
        (t * x - (peak + z.ln()), x)
    }

    /// The success share `x` below the mean where the rate reaches
    /// `level`, or `None` when even no success at all is more likely.
    fn low_end(&self, level: f64) -> Option<f64> {
        self.end(level, -1.0)
    }

    /// The share above the mean where the rate reaches `level`, or `None`
    /// when even every die at its most is more likely.
    fn high_end(&self, level: f64) -> Option<f64> {
        self.end(level, 1.0)
    }

    fn end(&self, level: f64, direction: f64) -> Option<f64> {
        // Far enough out that the rate is within a hair of its limit, the
        // chance of the extreme count.
        let (mut near, mut far) = (0.0, direction * 200.0);
        if self.at(far).0 < level {
            return None;
        }
        for _ in 0..BISECTIONS {
            let mid = (near + far) / 2.0;
            if self.at(mid).0 < level {
                near = mid;
            } else {
                far = mid;
            }
        }
        Some(self.at(near).1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::tests::rules;
    use super::super::rules::Rules;
    use super::super::StorytellingCase;
    use crate::engine::cost::{self, Work};
    use crate::engine::exact::Budget;

    /// The multiply-adds the convolution counted against the prediction.
    fn counted_and_predicted(rules: Rules) -> (f64, f64) {
        let case = StorytellingCase::plain(rules);
        cost::reset_tally();
        case.exact_hists(&mut Budget::unlimited()).unwrap();
        let counted = cost::tally()[Work::MultiplyAdd as usize] as f64;
        (counted, case.predicted_multiply_adds())
    }

    #[test]
    fn the_predicted_work_is_near_the_counted_one() {
        // Pools short of, at and past where the fewest successes start to
        // underflow (about 2,000 of the default dice), and the variants
        // that change the die's width.
        let mut cases: Vec<Rules> = [10, 300, 1500, 2500, 4000].map(rules).to_vec();
        cases.extend([
            Rules {
                rote: true,
                ..rules(3000)
            },
            Rules {
                again: 8,
                ..rules(3000)
            },
            Rules {
                again: 0,
                ..rules(3000)
            },
            Rules {
                target: 6,
                again: 9,
                ..rules(2000)
            },
        ]);
        for rules in cases {
            let (counted, predicted) = counted_and_predicted(rules);
            // Never under (a refusal must not turn away a pool that
            // fits); over by the cut ends' few counts, which the rate's
            // exponent leaves out: 8 % at 10 dice, 2 to 4 % from 300 on.
            let most = if rules.pool < 300 { 1.10 } else { 1.05 };
            let ratio = predicted / counted;
            assert!(
                (1.0..=most).contains(&ratio),
                "{rules:?}: predicted {predicted} against {counted} counted"
            );
        }
    }
}
