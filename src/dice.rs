//! Dice notation: the `[N]dS` terms a user types (`d10 2d8 d6`, `d10+2d8+d6`,
//! `2D6`), Cortex die sizes with their steps, and pools written back in the
//! canonical form of docs/scenarios.md (sorted largest first, equal sizes merged).
//!
//! Parsing is split in two: [`parse_terms`] reads the notation for any die size,
//! and [`Pool::parse_cortex`] accepts only the sizes Cortex Plus uses (the rules
//! text, "Броски": d4, d6, d8, d10 and d12), so other systems can reuse the
//! notation with their own rules.

use std::fmt;

use thiserror::Error;

use crate::echo::echo;

/// The die sizes Cortex Plus uses, smallest first; a die's index here is its step.
pub const CORTEX_SIZES: [u32; 5] = [4, 6, 8, 10, 12];

/// The most dice one pool may hold; larger pools are refused rather than
/// exhausting memory on a typo such as `1000000000d6`.
pub const MAX_POOL_DICE: u64 = 100_000;

/// What went wrong reading a pool, phrased so the user can fix the input.
/// Text echoed back from the input is cut and escaped ([`echo`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DiceError {
    #[error("the pool is empty: write dice as [N]dS terms, e.g. \"d10 2d8 d6\"")]
    Empty,
    #[error("`{}` is not a dice term: write [N]dS, e.g. d8 or 2d6", echo(.0))]
    BadTerm(String),
    #[error("`{}` has no dice: the count before `d` must be at least 1", echo(.0))]
    ZeroCount(String),
    #[error("{0} is not a Cortex die: use d4, d6, d8, d10 or d12")]
    NotCortex(String),
    /// The number of dice asked for, as given (it may not fit any integer).
    #[error("the pool has {} dice; at most {MAX_POOL_DICE} are allowed", echo(.0))]
    TooMany(String),
    #[error("a `+` must stand between two dice terms, e.g. \"d10+2d8\"")]
    StrayPlus,
}

/// One `[N]dS` term as written: `count` dice with `sides` faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    pub count: u64,
    pub sides: u32,
}

/// The terms of a pool as written, split at spaces and at `+` signs, each
/// `+` standing between two terms (docs/scenarios.md: `d10+2d8+d6`); a leading,
/// trailing or doubled `+` is an error rather than silently dropped.
fn split_terms(text: &str) -> Result<Vec<&str>, DiceError> {
    let mut terms = Vec::new();
    let mut plus_pending = false;
    for spaced in text.split_whitespace() {
        for (i, piece) in spaced.split('+').enumerate() {
            if i > 0 {
                if plus_pending || terms.is_empty() {
                    return Err(DiceError::StrayPlus);
                }
                plus_pending = true;
            }
            if !piece.is_empty() {
                terms.push(piece);
                plus_pending = false;
            }
        }
    }
    if plus_pending {
        return Err(DiceError::StrayPlus);
    }
    Ok(terms)
}

/// The digits of a count without leading zeros, for saying how many dice
/// were asked for when the number fits no integer.
fn as_given(digits: &str) -> String {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() { "0" } else { trimmed }.to_string()
}

/// Reads dice notation into terms, in the order written. Terms are separated
/// by spaces and/or `+`; `d` may be upper case. Any number of sides >= 1 is
/// accepted here; each system checks the sizes it allows. A pool past
/// [`MAX_POOL_DICE`] is read to its end (terms are small) so the error can
/// say how many dice it asked for.
pub fn parse_terms(text: &str) -> Result<Vec<Term>, DiceError> {
    let mut terms = Vec::new();
    // Counted past u64 so a sum of huge terms is reported as given.
    let mut total: u128 = 0;
    let mut too_large_to_count: Option<String> = None;
    let written = split_terms(text)?;
    let term_count = written.len();
    for raw in written {
        let lower = raw.to_ascii_lowercase();
        let (count_text, sides_text) = lower
            .split_once('d')
            .ok_or_else(|| DiceError::BadTerm(raw.to_string()))?;
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !(count_text.is_empty() || all_digits(count_text)) || !all_digits(sides_text) {
            return Err(DiceError::BadTerm(raw.to_string()));
        }
        let count: u128 = if count_text.is_empty() {
            1
        } else {
            match count_text.parse() {
                Ok(count) => count,
                Err(_) => {
                    too_large_to_count.get_or_insert_with(|| as_given(count_text));
                    u128::MAX
                }
            }
        };
        if count == 0 {
            return Err(DiceError::ZeroCount(raw.to_string()));
        }
        let sides: u32 = sides_text
            .parse()
            .map_err(|_| DiceError::BadTerm(raw.to_string()))?;
        total = total.saturating_add(count);
        if total <= u128::from(MAX_POOL_DICE) {
            terms.push(Term {
                count: count as u64,
                sides,
            });
        }
    }
    if total > u128::from(MAX_POOL_DICE) {
        let given = match too_large_to_count {
            Some(count) if term_count == 1 => count,
            Some(count) => format!("more than {count}"),
            None if total == u128::MAX => format!("more than {}", u128::MAX),
            None => total.to_string(),
        };
        return Err(DiceError::TooMany(given));
    }
    if terms.is_empty() {
        return Err(DiceError::Empty);
    }
    Ok(terms)
}

/// A Cortex die, identified by its step (d4 = 0 .. d12 = 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Die {
    step: u8,
}

impl Die {
    pub const D4: Die = Die { step: 0 };
    pub const D6: Die = Die { step: 1 };
    pub const D8: Die = Die { step: 2 };
    pub const D10: Die = Die { step: 3 };
    pub const D12: Die = Die { step: 4 };

    /// The die with this many sides, if Cortex uses it.
    pub fn from_sides(sides: u32) -> Option<Die> {
        CORTEX_SIZES
            .iter()
            .position(|&s| s == sides)
            .map(|step| Die { step: step as u8 })
    }

    /// The die at this step, if it is within d4..d12.
    pub fn from_step(step: u32) -> Option<Die> {
        (step < CORTEX_SIZES.len() as u32).then_some(Die { step: step as u8 })
    }

    pub fn step(self) -> u32 {
        u32::from(self.step)
    }

    pub fn sides(self) -> u32 {
        CORTEX_SIZES[self.step as usize]
    }

    /// One size up; d12 has none (the Cortex Plus rules text: "you cannot raise a trait above d12").
    pub fn step_up(self) -> Option<Die> {
        Die::from_step(self.step() + 1)
    }

    /// One size down; stepping down a d4 leaves no die.
    pub fn step_down(self) -> Option<Die> {
        self.step.checked_sub(1).map(|step| Die { step })
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

/// Names an effect step, including steps beyond d12 (docs/cortex.md: "d12+1", ...).
pub fn effect_step_label(step: u32) -> String {
    match Die::from_step(step) {
        Some(die) => die.to_string(),
        None => format!("d12+{}", step - Die::D12.step()),
    }
}

/// A pool of Cortex dice, kept sorted largest first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pool {
    dice: Vec<Die>,
}

impl Pool {
    /// A pool from any dice; they are sorted largest first.
    pub fn new(mut dice: Vec<Die>) -> Pool {
        dice.sort_unstable_by(|a, b| b.cmp(a));
        Pool { dice }
    }

    /// Reads Cortex notation; any size other than d4..d12 is an error.
    pub fn parse_cortex(text: &str) -> Result<Pool, DiceError> {
        let mut dice = Vec::new();
        for term in parse_terms(text)? {
            let die = Die::from_sides(term.sides)
                .ok_or_else(|| DiceError::NotCortex(format!("d{}", term.sides)))?;
            dice.extend(std::iter::repeat_n(die, term.count as usize));
        }
        Ok(Pool::new(dice))
    }

    /// The dice, largest first.
    pub fn dice(&self) -> &[Die] {
        &self.dice
    }

    pub fn len(&self) -> usize {
        self.dice.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dice.is_empty()
    }

    /// The same pool with one more die.
    pub fn with(&self, die: Die) -> Pool {
        let mut dice = self.dice.clone();
        dice.push(die);
        Pool::new(dice)
    }
}

impl fmt::Display for Pool {
    /// Canonical notation: largest first, equal sizes merged (`d10 2d8 d6`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i = 0;
        while i < self.dice.len() {
            let die = self.dice[i];
            let run = self.dice[i..].iter().take_while(|&&d| d == die).count();
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            if run > 1 {
                write!(f, "{run}{die}")?;
            } else {
                write!(f, "{die}")?;
            }
            i += run;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_form_sorts_and_merges() {
        let pool = Pool::parse_cortex("d6+d8 d10 d8").unwrap();
        assert_eq!(pool.to_string(), "d10 2d8 d6");
        assert_eq!(Pool::parse_cortex("2D6").unwrap().to_string(), "2d6");
        assert_eq!(
            Pool::parse_cortex(" d12 + 3d4 ").unwrap().to_string(),
            "d12 3d4"
        );
    }

    #[test]
    fn bad_terms_are_named() {
        assert_eq!(
            Pool::parse_cortex("d7"),
            Err(DiceError::NotCortex("d7".into()))
        );
        assert_eq!(
            Pool::parse_cortex("d0"),
            Err(DiceError::NotCortex("d0".into()))
        );
        assert_eq!(Pool::parse_cortex("  "), Err(DiceError::Empty));
        assert_eq!(Pool::parse_cortex("x"), Err(DiceError::BadTerm("x".into())));
        assert_eq!(
            Pool::parse_cortex("3d"),
            Err(DiceError::BadTerm("3d".into()))
        );
        assert_eq!(
            Pool::parse_cortex("0d6"),
            Err(DiceError::ZeroCount("0d6".into()))
        );
        assert!(matches!(
            Pool::parse_cortex("999999999999d6"),
            Err(DiceError::TooMany(_))
        ));
        assert!(Pool::parse_cortex("d7")
            .unwrap_err()
            .to_string()
            .contains("d4, d6, d8, d10 or d12"));
    }

    /// A `+` stands between two terms; none may lead, trail or double.
    #[test]
    fn a_plus_stands_between_two_terms() {
        for bad in ["2d6+", "+d6", "d6++d8", "d6 + + d8", "+", "d6 +"] {
            assert_eq!(Pool::parse_cortex(bad), Err(DiceError::StrayPlus), "{bad}");
        }
        for good in ["d6+d8", "d6 + d8", "d6+ d8", "d6 +d8", "d6 d8"] {
            assert_eq!(
                Pool::parse_cortex(good).unwrap().to_string(),
                "d8 d6",
                "{good}"
            );
        }
    }

    /// The count asked for is reported as given, never
    /// saturated or cut off at the first term past the cap.
    #[test]
    fn too_many_dice_are_counted_as_given() {
        let message = |text: &str| Pool::parse_cortex(text).unwrap_err().to_string();
        assert!(message("18446744073709551617d6").contains("has 18446744073709551617 dice"));
        assert!(message(&"d6 ".repeat(350_000)).contains("has 350000 dice"));
        let huge = format!("{}d6", "9".repeat(50));
        assert!(message(&huge).contains(&format!("has {} dice", "9".repeat(50))));
        assert!(message(&format!("d6 {huge}")).contains(&format!("more than {}", "9".repeat(50))));
    }

    #[test]
    fn steps_move_one_size() {
        assert_eq!(Die::D4.step_up(), Some(Die::D6));
        assert_eq!(Die::D12.step_up(), None);
        assert_eq!(Die::D4.step_down(), None);
        assert_eq!(Die::D10.step_down(), Some(Die::D8));
        assert_eq!(effect_step_label(4), "d12");
        assert_eq!(effect_step_label(6), "d12+2");
    }
}
