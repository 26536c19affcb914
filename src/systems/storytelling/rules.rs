//! The Storytelling roll rules in one place (docs/storytelling.md; the Storytelling rules
//! text, "Снова-десять"): one scorer ([`Rules::roll`]) reads a roll face by face in
//! the order the dice are thrown, and [`Rules::die_pmf`] gives one die's
//! success-count distribution (its whole explosion chain, and the rote reroll)
//! that the exact method convolves over the pool.

use super::keys::{AGAIN, CHANCE_DIE_EXPLODES, ROTE, TARGET};
use crate::options::{KeyDef, KeyStyle, OptionError, Options, RawItem, RawValue};

/// Sides of the die; every face is equally likely.
pub(super) const SIDES: u8 = 10;

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
    /// One die under each key's declared default (keys.rs).
    fn default() -> Self {
        let mut none = Options::new("storytelling", KeyStyle::Toml, Vec::new());
        Rules::from_options(&mut none, 1).expect("the declared defaults are valid rules")
    }
}

impl Rules {
    /// Reads the rules of a roll of `pool` dice: `target`, `again` (whose
    /// range starts at the target, so it is checked here, after it), `rote`
    /// and `chance_die_explodes`, each given or its declared default.
    pub fn from_options(options: &mut Options, pool: i64) -> Result<Rules, OptionError> {
        let target = options.int_of(&TARGET)? as u8;
        let item = options.item_of(&AGAIN);
        let again = Self::again_of(options, &AGAIN, &item, target)?;
        Ok(Rules {
            pool,
            target,
            again,
            rote: options.bool_of(&ROTE)?,
            chance_die_explodes: options.bool_of(&CHANCE_DIE_EXPLODES)?,
        })
    }

    /// An `again` value given as `item` for `key` (the roller's or the
    /// opponent's): 0 for no rerolls, or a face from `target` to 10.
    pub(super) fn again_of(
        options: &Options,
        key: &'static KeyDef,
        item: &RawItem,
        target: u8,
    ) -> Result<u8, OptionError> {
        let allowed = || {
            format!(
                "{} must be 0 (no rerolls) or a value from {} ({target}) to 10",
                options.key_name(key),
                options.key_name(&TARGET),
            )
        };
        match item.value {
            RawValue::Int(0) => Ok(0),
            RawValue::Int(v) if v >= i64::from(target) && v <= 10 => Ok(v as u8),
            RawValue::Int(v) => Err(options.error_at(item, format!("{}, not {v}", allowed()))),
            ref other => {
                Err(options.error_at(item, format!("{}, not {}", allowed(), other.type_name())))
            }
        }
    }

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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::systems::storytelling) fn rules(pool: i64) -> Rules {
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
}
