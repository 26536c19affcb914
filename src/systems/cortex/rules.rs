//! The Cortex Plus roll rules in one place (docs/cortex.md; the Cortex Plus rules
//! text, "Броски" and "Необязательные условия"): who wins equal totals, when
//! a success is heroic, the final effect step (step-down, heroic steps), how
//! the roller picks the total dice, and the one "keep the top k dice"
//! selection ([`keep_top`]) that the scorer, the max-effect choice, the exact
//! programmes and doom-pool scenes all use. Everything else in `cortex/`
//! calls these; nothing restates them. The choices a key is read as (`Ties`,
//! `Policy`) and the `keep` limit are declared with the keys, in `keys.rs`.

use serde_json::{json, Map, Value};

use crate::dice::Pool;
use crate::options::{Choice as _, KeyStyle, OptionError, Options};

pub use super::keys::{Policy, Ties, MAX_KEEP};
use super::keys::{EFFECT_STEP_DOWN, HEROIC_STEP, KEEP, POLICY, REACTION_KEEP, TIES};

/// What the action is rolled against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opposition {
    /// A plain roll: no success metrics.
    None,
    /// A reacting pool (e.g. the doom pool), summing `reaction_keep` dice.
    Pool(Pool),
    /// A fixed total to beat.
    Difficulty(u32),
}

/// The roll rules shared by opposed rolls and doom-pool scenes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub keep: usize,
    pub reaction_keep: usize,
    pub ties: Ties,
    pub heroic_step: u32,
    pub effect_step_down: bool,
    pub policy: Policy,
    /// Plot points to spend after the roll against a fixed difficulty
    /// (docs/cortex.md); `None` when the case does not set them, so its output
    /// carries no plot-point metrics.
    pub plot_points: Option<u32>,
}

impl Default for Rules {
    /// The rules of a case that gives none of the keys: each key's declared
    /// default (keys.rs).
    fn default() -> Self {
        let mut none = Options::new("cortex", KeyStyle::Toml, Vec::new());
        Rules::from_options(&mut none).expect("the declared defaults are valid rules")
    }
}

impl Rules {
    /// Adds the rules of a roll against a pool to a case's inputs, in the
    /// order its report lists them: what scenes and conflicts, always rolled
    /// against a pool, record of the roll rules.
    pub fn insert_opposed_inputs(&self, inputs: &mut Map<String, Value>) {
        inputs.insert(KEEP.name.into(), json!(self.keep));
        inputs.insert(REACTION_KEEP.name.into(), json!(self.reaction_keep));
        inputs.insert(TIES.name.into(), json!(self.ties.name()));
        inputs.insert(HEROIC_STEP.name.into(), json!(self.heroic_step));
    }

    /// Reads the roll rules ([`super::keys::ROLL_RULES`]) that doom-pool scenes and
    /// balances share with plain cortex cases. A scene's success never
    /// depends on the effect die, so `effect_step_down` (and `policy`) are
    /// read by [`super::CortexCase::from_options`] alone (and
    /// `effect_step_down` by a conflict's): here they take their declared
    /// defaults, read from options that give no key, so that a scene is not
    /// taken to accept them.
    pub fn from_options(options: &mut Options) -> Result<Rules, OptionError> {
        let mut unread = Options::new(options.system(), options.style(), Vec::new());
        Ok(Rules {
            keep: options.int_of(&KEEP)? as usize,
            reaction_keep: options.int_of(&REACTION_KEEP)? as usize,
            ties: options.choice_of(&TIES)?,
            // Past u32 no margin can reach a step anyway.
            heroic_step: u32::try_from(options.int_of(&HEROIC_STEP)?).unwrap_or(u32::MAX),
            effect_step_down: unread.bool_of(&EFFECT_STEP_DOWN)?,
            policy: unread.choice_of(&POLICY)?,
            plot_points: None,
        })
    }

    /// The smallest margin (action total minus opposing total) that
    /// succeeds: ties go to the reaction unless `ties = "action"` (docs/cortex.md;
    /// botch against botch is margin 0, a tie like any other).
    pub fn least_succeeding_margin(&self) -> i64 {
        match self.ties {
            Ties::Reaction => 1,
            Ties::Action => 0,
        }
    }

    /// The smallest margin of a heroic success: a success by at least
    /// `heroic_step` (docs/cortex.md).
    pub fn least_heroic_margin(&self) -> i64 {
        i64::from(self.heroic_step).max(self.least_succeeding_margin())
    }

    /// Whether an action with this margin succeeds.
    pub fn succeeds(&self, margin: i64) -> bool {
        margin >= self.least_succeeding_margin()
    }

    /// Whether an action with this margin is a heroic success.
    pub fn is_heroic(&self, margin: i64) -> bool {
        margin >= self.least_heroic_margin()
    }

    /// The final effect step of a successful action (docs/cortex.md): the optional
    /// step-down first (the Cortex Plus rules text, "Необязательные
    /// условия": a larger opposing effect die steps yours down, d4 stays
    /// d4), then one step up per full `heroic_step` of margin, past d12 if
    /// need be.
    pub fn final_effect_step(
        &self,
        effect_step: u32,
        reaction_effect: Option<u32>,
        margin: i64,
    ) -> u32 {
        let mut step = effect_step;
        if self.effect_step_down && reaction_effect.is_some_and(|r| r > effect_step) {
            step = step.saturating_sub(1);
        }
        step + (margin.max(0) as u64 / u64::from(self.heroic_step)) as u32
    }
}

/// A live die's place in the order in which dice are kept, as one byte:
/// the face in the high bits, a tie-break between equal faces in the low
/// three. Rank 0 is an empty slot or a hitch (a 1 counts for nothing,
/// docs/cortex.md), which [`keep_top`] never keeps ahead of a live die.
pub type Rank = u8;

/// Low bits of a [`Rank`]: the tie-break between equal faces.
const TIE_BITS: u8 = 7;

/// The rank for the total (docs/cortex.md, `max-total`): of equal values the
/// smaller die ranks higher and goes into the total, keeping the larger
/// die free for the effect.
#[inline(always)]
pub fn total_rank(face: u8, step: u8) -> Rank {
    if face == 1 {
        0
    } else {
        (face << 3) | (TIE_BITS - step)
    }
}

/// The die step of a rank made by [`total_rank`].
#[inline(always)]
pub fn total_rank_step(rank: Rank) -> u8 {
    TIE_BITS - (rank & TIE_BITS)
}

/// The rank for the max-effect candidates ([`super::max_effect::Choice`]):
/// of equal values the larger die ranks higher, which, dice coming largest
/// first, keeps them in the order they came.
#[inline(always)]
pub fn candidate_rank(face: u8, step: u8) -> Rank {
    if face == 1 {
        0
    } else {
        (face << 3) | step
    }
}

/// The die step of a rank made by [`candidate_rank`].
#[inline(always)]
pub fn candidate_rank_step(rank: Rank) -> u8 {
    rank & TIE_BITS
}

/// The rank of a value alone, for totals that ignore die sizes (a doom
/// pool's total in a scene).
#[inline(always)]
pub fn value_rank(face: u8) -> Rank {
    if face == 1 {
        0
    } else {
        face << 3
    }
}

/// The face a rank stands for (0 for an empty slot or a hitch).
#[inline(always)]
pub fn rank_face(rank: Rank) -> u8 {
    rank >> 3
}

/// "Keep the top k dice": offers a die of rank `rank` to `held`, the k best
/// ranks so far, best first (0 marks an empty slot), and returns the rank
/// that drops out, the offered one or the lowest held (0: none, when a slot
/// was free or the die was a hitch). Equal ranks are the same value on the
/// same size of die, so which of them drops out never matters.
///
/// Each slot is a compare-exchange, so the random faces cost no
/// mispredicted branches; with `held` of a length known when compiled (the
/// Monte Carlo loop) the loop unrolls.
///
/// Generic over the rank's width: the Monte Carlo loop holds ranks widened
/// to `u32`, which the processor compares fastest.
#[inline(always)]
pub fn keep_top<R: Copy + Ord>(held: &mut [R], rank: R) -> R {
    let mut carry = rank;
    for slot in held.iter_mut() {
        let high = (*slot).max(carry);
        carry = (*slot).min(carry);
        *slot = high;
    }
    carry
}

/// The sum of the faces `held` stands for.
#[inline(always)]
pub fn held_total<R: Copy + Into<u32>>(held: &[R]) -> u32 {
    held.iter().map(|&r| r.into() >> 3).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heroic_steps_pass_d12_and_step_down_comes_first() {
        let rules = Rules::default();
        assert_eq!(rules.final_effect_step(4, None, 4), 4);
        assert_eq!(rules.final_effect_step(4, None, 5), 5);
        assert_eq!(rules.final_effect_step(4, None, 14), 6);
        let down = Rules {
            effect_step_down: true,
            ..Rules::default()
        };
        // d8 effect against a d10 reaction effect: down to d6, then +1 for margin 5.
        assert_eq!(down.final_effect_step(2, Some(3), 5), 2);
        // d4 stays d4.
        assert_eq!(down.final_effect_step(0, Some(2), 1), 0);
        // Not larger: no step down.
        assert_eq!(down.final_effect_step(2, Some(2), 1), 2);
    }

    #[test]
    fn both_tie_rules() {
        let reaction = Rules::default();
        let action = Rules {
            ties: Ties::Action,
            ..Rules::default()
        };
        assert!(!reaction.succeeds(0));
        assert!(action.succeeds(0));
        assert!(reaction.succeeds(1) && action.succeeds(1));
        assert!(!reaction.succeeds(-1) && !action.succeeds(-1));
    }

    #[test]
    fn heroic_needs_a_full_step_of_margin() {
        let rules = Rules {
            heroic_step: 3,
            ..Rules::default()
        };
        assert!(!rules.is_heroic(2));
        assert!(rules.is_heroic(3));
        // A step of 1 is still never heroic on a tie, even when ties succeed.
        let one = Rules {
            heroic_step: 1,
            ties: Ties::Action,
            ..Rules::default()
        };
        assert!(one.succeeds(0) && !one.is_heroic(0) && one.is_heroic(1));
    }

    #[test]
    fn keep_top_keeps_the_highest_and_drops_the_rest() {
        let mut held = [0; 3];
        let mut dropped = Vec::new();
        for face in [4, 9, 1, 6, 12, 2] {
            dropped.push(rank_face(keep_top(&mut held, value_rank(face))));
        }
        assert_eq!(held.map(rank_face), [12, 9, 6]);
        // Slots free for the first two live dice, a hitch drops nothing.
        assert_eq!(dropped, [0, 0, 0, 0, 4, 2]);
        assert_eq!(held_total(&held), 27);
    }

    #[test]
    fn ranks_break_ties_by_die_size() {
        // Equal fives: for the total the d6 ranks above the d10, for the
        // max-effect candidates the d10 above the d6.
        assert!(total_rank(5, 1) > total_rank(5, 3));
        assert!(candidate_rank(5, 3) > candidate_rank(5, 1));
        // A higher face outranks any tie-break.
        assert!(total_rank(6, 4) > total_rank(5, 0));
        assert!(candidate_rank(6, 0) > candidate_rank(5, 4));
        assert_eq!(total_rank_step(total_rank(7, 3)), 3);
        assert_eq!(candidate_rank_step(candidate_rank(7, 3)), 3);
        assert_eq!(total_rank(1, 4), 0);
    }
}
