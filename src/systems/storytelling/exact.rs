//! The exact method of a Storytelling pool (docs/storytelling.md): one die's
//! success-count distribution convolved over the pool, dropping only the
//! improbable high end (never more than [`super::DROP_LIMIT`] of the pool's
//! probability, reported as the dropped mass), and the brute-force
//! enumeration of every face sequence that checks it.

use crate::distribution::Hist;
use crate::engine::cost::Work;
use crate::engine::exact::{Budget, ExactError};

use super::rules::{Rules, SIDES};
use super::{pool_size, record, StHists, StorytellingCase, DROP_GOAL};

/// The most multiply-adds `dice` dice of `width` counts can take: the
/// pool's width grows by the die's less one each die when nothing is cut.
fn naive_multiply_adds(width: usize, dice: usize) -> u64 {
    let (width, dice) = (width as u64, dice as u64);
    let growth = width.saturating_sub(1);
    // The sum over k < dice of (k growth + 1) width.
    let sum = (dice.saturating_mul(dice.saturating_sub(1)) / 2)
        .saturating_mul(growth)
        .saturating_add(dice);
    sum.saturating_mul(width)
}

impl StorytellingCase {
    /// The dice the convolution adds, the drop share each end may cut, and
    /// one die's success-count chances with its tail left out.
    fn convolution(&self) -> (i64, f64, (Vec<f64>, f64)) {
        let rules = &self.rules;
        let dice = if rules.is_chance() { 1 } else { rules.pool };
        let share = 0.45 * DROP_GOAL / dice as f64;
        (dice, share, rules.die_pmf(share))
    }

    /// The multiply-adds [`Self::exact_hists`] is predicted to do
    /// ([`pool_size::predicted_multiply_adds`]).
    #[cfg(test)]
    pub(super) fn predicted_multiply_adds(&self) -> f64 {
        let (dice, share, (die, _)) = self.convolution();
        pool_size::predicted_multiply_adds(&die, dice as usize, share)
    }

    /// The budget nanoseconds [`Self::exact_hists`] will take: the bound
    /// of a convolution that cuts nothing while that is at most `tight_from`,
    /// past it the prediction from the die's rate (2 to 4 % over the work,
    /// never under it).
    pub(super) fn predicted_nanos(&self, tight_from: u64) -> u64 {
        let (dice, share, (die, _)) = self.convolution();
        let bound = Work::MultiplyAdd.nanos(naive_multiply_adds(die.len(), dice as usize));
        if bound <= tight_from {
            return bound;
        }
        let predicted = pool_size::predicted_multiply_adds(&die, dice as usize, share);
        (predicted * Work::MultiplyAdd.picos() as f64 / 1000.0).min(u64::MAX as f64) as u64
    }

    /// The exact outcome histograms and the probability left out. Each die's
    /// chain is cut where its tail is below a share of [`DROP_GOAL`] split
    /// over the dice; after each die is added, the top of the pool's
    /// distribution is cut while the cut stays below another such share, so
    /// the whole drop stays under 0.9 x [`DROP_GOAL`].
    pub fn exact_hists(&self, budget: &mut Budget) -> Result<(StHists<f64>, f64), ExactError> {
        let rules = &self.rules;
        let (dice, share, (die, die_tail)) = self.convolution();
        let what = || format!("a pool of {} dice", rules.pool);
        // A large pool is sized before its first die is added, so a pool
        // past the budget is refused at once, not a fifth of a second in.
        if !budget.allows(self.predicted_nanos(budget.remaining())) {
            return Err(ExactError::TooLarge(what()));
        }
        // `pool[lo + i]` is the chance of `fewest + i` successes. Two rows
        // are kept and swapped, and the underflowed bottom is skipped by
        // `lo`, not moved: a large pool's rows pass the allocator's mapped
        // size, and a fresh row each die (zeroed pages, a shift of the
        // whole row) cost half again the multiply-adds.
        let smallest_face = die.iter().copied().filter(|&d| d > 0.0).fold(1.0, f64::min);
        let normal_products_from = f64::MIN_POSITIVE / smallest_face;
        let mut pool = vec![1.0];
        let mut next: Vec<f64> = Vec::new();
        let mut lo = 0;
        let mut fewest = 0;
        let mut dropped = 0.0;
        for added in 0..dice {
            let row = &pool[lo..];
            // The pool's support only widens, so the dice still to come cost
            // at least this much: refuse at once rather than after a second.
            let step = (row.len() * die.len()) as u64;
            let ahead = step.saturating_mul((dice - added) as u64);
            if !budget.allows(Work::MultiplyAdd.nanos(ahead)) {
                return Err(ExactError::TooLarge(what()));
            }
            budget.spend(Work::MultiplyAdd.cost(step), &what)?;
            next.clear();
            next.resize(row.len() + die.len() - 1, 0.0);
            for (i, &p) in row.iter().enumerate() {
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
            // The fewest successes of a large pool underflow: below the
            // smallest normal number (about 2.2e-308) arithmetic runs many
            // times slower on some processors and no output can show such
            // chances, so a chance whose product with some face of the die
            // would fall there is left off, its mass counted as dropped.
            let first = next[..next.len() - 1]
                .iter()
                .position(|&p| p >= normal_products_from)
                .unwrap_or(next.len() - 1);
            dropped += next[..first].iter().sum::<f64>();
            fewest += first;
            lo = first;
            std::mem::swap(&mut pool, &mut next);
        }
        let pool = &pool[lo..];
        let mut successes = Hist::with_range(0, (fewest + pool.len()) as i64 - 1);
        for (s, &p) in pool.iter().enumerate() {
            successes.add((fewest + s) as i64, p);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::storytelling::rules::tests::rules;

    fn case(rules: Rules) -> StorytellingCase {
        StorytellingCase::plain(rules)
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

    /// A pool large enough that its fewest successes underflow leaves
    /// them off and counts them as dropped: its chances and the dropped
    /// mass still sum to 1, and its mean is the dice times one die's mean
    /// (a third of a success: a 10-again die succeeds 0.3 of the time and
    /// rolls again 0.1 of it).
    #[test]
    fn a_large_pool_leaves_off_the_counts_that_underflow() {
        let dice = 2500;
        let (exact, dropped) = case(rules(dice))
            .exact_hists(&mut Budget::unlimited())
            .unwrap();
        assert!(dropped < DROP_GOAL);
        assert_eq!(exact.successes.get(0), 0.0);
        let total: f64 = exact.successes.iter().map(|(_, p)| p).sum();
        assert!((total + dropped - 1.0).abs() < 1e-12, "{total} + {dropped}");
        let mean: f64 = exact.successes.iter().map(|(s, p)| s as f64 * p).sum();
        let want = dice as f64 / 3.0;
        assert!((mean / want - 1.0).abs() < 1e-9, "{mean} against {want}");
        assert!(exact
            .successes
            .iter()
            .all(|(_, p)| p == 0.0 || p >= f64::MIN_POSITIVE));
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
