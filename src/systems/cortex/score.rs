//! Scoring one pool's roll the `max-total` way (docs/cortex.md; the Cortex Plus
//! rules text, "Броски"): a 1 is a hitch and counts for nothing, the `keep`
//! highest live values form the total, and the largest die left out is the
//! effect die (d4 when none). [`Scorer`] reads a roll die by die through
//! [`keep_top`]; the Monte Carlo sampler, the brute-force enumeration and
//! the exact programme ([`super::exact::pool_outcomes`]) all go through it,
//! so the three can be held against each other. [`score_lanes`] applies the
//! same rule ([`push_die`]) to many rolls side by side, for the Monte Carlo
//! batches.

use crate::dice::Die;

use super::rules::{held_total, keep_top, total_rank, total_rank_step, Rank, MAX_KEEP};

/// A pool's roll, scored: its total, effect step and hitch count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolRoll {
    pub total: u32,
    pub effect_step: u32,
    pub hitches: u32,
}

/// Scores a roll die by die. The `keep` best [`total_rank`]s form the total:
/// the highest values and, among equal values, the smaller dice, so the
/// larger die stays free for the effect. A die pushed out, or never taken,
/// is free, and the largest free die is the effect die. Dice may come in any
/// order.
#[derive(Debug, Clone, Copy)]
pub struct Scorer {
    pub(super) keep: usize,
    /// The total's dice, best first; 0 for an empty slot.
    pub(super) held: [Rank; MAX_KEEP],
    /// Largest free die step, -1 for none yet.
    pub(super) free_step: i8,
    pub(super) hitches: u32,
}

impl Scorer {
    pub fn new(keep: usize) -> Scorer {
        debug_assert!((1..=MAX_KEEP).contains(&keep));
        Scorer {
            keep,
            held: [0; MAX_KEEP],
            free_step: -1,
            hitches: 0,
        }
    }

    /// Adds one die of `step` showing `face`.
    #[inline(always)]
    pub fn push(&mut self, step: u8, face: u8) {
        push_die(
            &mut self.held[..self.keep],
            &mut self.free_step,
            &mut self.hitches,
            step,
            face,
        );
    }

    pub fn finish(&self) -> PoolRoll {
        scored(&self.held[..self.keep], self.free_step, self.hitches)
    }
}

/// The scorer's rule for one die, on the total's dice `held` (exactly
/// `keep` slots), the largest free step and the hitch count. Branch-light:
/// the Monte Carlo loop spends most of its time here.
///
/// Generic over the widths of ranks and of the hitch count, so that
/// [`score_lanes`] can keep both in bytes, many rolls to a vector register.
#[inline(always)]
pub(super) fn push_die<R, H>(
    held: &mut [R],
    free_step: &mut i8,
    hitches: &mut H,
    step: u8,
    face: u8,
) where
    R: Copy + Ord + From<Rank> + Into<u32>,
    H: std::ops::AddAssign + From<bool>,
{
    *hitches += H::from(face == 1);
    let dropped: u32 = keep_top(held, R::from(total_rank(face, step))).into();
    // Rank 0 (an empty slot or a hitch) frees no die.
    let freed = if dropped == 0 {
        -1
    } else {
        total_rank_step(dropped as Rank) as i8
    };
    *free_step = (*free_step).max(freed);
}

#[inline(always)]
pub(super) fn scored<R: Copy + Into<u32>>(held: &[R], free_step: i8, hitches: u32) -> PoolRoll {
    PoolRoll {
        total: held_total(held),
        effect_step: free_step.max(0) as u32,
        hitches,
    }
}

/// Scores `(step, face)` dice as they come, like [`Scorer`], with `KEEP`
/// known when compiled: the total's dice are then a fixed array the
/// compiler keeps in registers and [`keep_top`] unrolls, which the Monte
/// Carlo loop needs (a run-time `keep` costs it a third of its speed).
#[inline(always)]
pub fn score_stream<const KEEP: usize>(dice: impl Iterator<Item = (u8, u8)>) -> PoolRoll {
    let mut held = [0u32; KEEP];
    let (mut free_step, mut hitches) = (-1, 0);
    for (step, face) in dice {
        push_die(&mut held, &mut free_step, &mut hitches, step, face);
    }
    scored(&held, free_step, hitches)
}

/// Rolls scored side by side by [`score_lanes`]: 32 bytes, two 16-byte
/// vector registers (SSE2, every x86-64) or one 32-byte one (AVX2).
pub const LANES: usize = 32;
/// Most dice a pool may hold to be scored side by side: its hitch count
/// is kept in a byte.
pub const MAX_LANE_DICE: usize = u8::MAX as usize;

/// The scores of [`LANES`] rolls of one pool, lane by lane, in bytes (a
/// total is at most 5 x 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneRolls {
    pub total: [u8; LANES],
    pub effect_step: [u8; LANES],
    pub hitches: [u8; LANES],
}

impl LaneRolls {
    /// Roll `lane`, scored.
    #[inline(always)]
    pub fn roll(&self, lane: usize) -> PoolRoll {
        PoolRoll {
            total: u32::from(self.total[lane]),
            effect_step: u32::from(self.effect_step[lane]),
            hitches: u32::from(self.hitches[lane]),
        }
    }
}

/// Scores [`LANES`] rolls of the pool `dice` ((step, sides) pairs) at once,
/// by [`push_die`] and [`scored`], each lane its own roll: `faces[die]`
/// holds that die's face in every roll. The same rule as [`score_stream`],
/// applied across the lanes so the compiler can run it on vector
/// registers, a register of bytes scoring 16 or 32 rolls at a time; the
/// pool has at most [`MAX_LANE_DICE`] dice.
#[inline(always)]
pub fn score_lanes<const KEEP: usize>(dice: &[(u8, u8)], faces: &[[u8; LANES]]) -> LaneRolls {
    debug_assert!(dice.len() <= MAX_LANE_DICE && faces.len() == dice.len());
    let mut held = [[0 as Rank; LANES]; KEEP];
    let mut free_step = [-1i8; LANES];
    let mut hitches = [0u8; LANES];
    for (&(step, _), faces) in dice.iter().zip(faces) {
        for (lane, &face) in faces.iter().enumerate() {
            let mut lane_held: [Rank; KEEP] = std::array::from_fn(|k| held[k][lane]);
            push_die(
                &mut lane_held,
                &mut free_step[lane],
                &mut hitches[lane],
                step,
                face,
            );
            for (k, rank) in lane_held.into_iter().enumerate() {
                held[k][lane] = rank;
            }
        }
    }
    let mut rolls = LaneRolls {
        total: [0; LANES],
        effect_step: [0; LANES],
        hitches,
    };
    for lane in 0..LANES {
        let lane_held: [Rank; KEEP] = std::array::from_fn(|k| held[k][lane]);
        let roll = scored(&lane_held, free_step[lane], 0);
        rolls.total[lane] = roll.total as u8;
        rolls.effect_step[lane] = roll.effect_step as u8;
    }
    rolls
}

/// Scores a whole roll: `dice` and `faces` the values shown.
pub fn score(dice: &[Die], faces: &[u8], keep: usize) -> PoolRoll {
    let mut scorer = Scorer::new(keep);
    for (die, &face) in dice.iter().zip(faces) {
        scorer.push(die.step() as u8, face);
    }
    scorer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Pool;

    fn dice(text: &str) -> Vec<Die> {
        Pool::parse_cortex(text).unwrap().dice().to_vec()
    }

    #[test]
    fn best_two_are_summed_and_the_largest_free_die_is_the_effect() {
        // d10 d8 d6 showing 7, 5, 6: total 7 + 6, the d8 is free.
        let roll = score(&dice("d10 d8 d6"), &[7, 5, 6], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 13,
                effect_step: 2,
                hitches: 0
            }
        );
    }

    #[test]
    fn equal_values_keep_the_larger_die_free() {
        // d12 d8 d6 showing 5, 5, 5: total 10 from the d8 and d6, the d12 is the effect.
        let roll = score(&dice("d12 d8 d6"), &[5, 5, 5], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 10,
                effect_step: 4,
                hitches: 0
            }
        );
        // d10 d6 d6 showing 4, 6, 4: 6 + 4 with the d10's 4 left free.
        let roll = score(&dice("d10 2d6"), &[4, 6, 4], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 10,
                effect_step: 3,
                hitches: 0
            }
        );
    }

    #[test]
    fn the_order_of_the_dice_does_not_matter() {
        // The d6 first this time: the d12 is still the one left free.
        let dice = [Die::D6, Die::D8, Die::D12];
        let roll = score(&dice, &[5, 5, 5], 2);
        assert_eq!((roll.total, roll.effect_step), (10, 4));
    }

    #[test]
    fn hitches_never_count() {
        // d10 d8 d6 showing 1, 8, 3: the d10 is a hitch, total 11, no free die: d4.
        let roll = score(&dice("d10 d8 d6"), &[1, 8, 3], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 11,
                effect_step: 0,
                hitches: 1
            }
        );
        // One live die: its value alone, effect d4.
        let roll = score(&dice("d12 d6"), &[9, 1], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 9,
                effect_step: 0,
                hitches: 1
            }
        );
        // Every die a hitch: a botch, total 0.
        let roll = score(&dice("d8 2d6"), &[1, 1, 1], 2);
        assert_eq!(
            roll,
            PoolRoll {
                total: 0,
                effect_step: 0,
                hitches: 3
            }
        );
    }

    /// Side by side scoring agrees with [`score`] on every roll of a
    /// mixed pool (10 x 8 x 6 x 4 rolls, in batches of [`LANES`]), for
    /// every `keep` up to the pool's size.
    #[test]
    fn lanes_score_every_roll_as_the_scorer_does() {
        let pool = dice("d10 d8 d6 d4");
        let table: Vec<(u8, u8)> = pool
            .iter()
            .map(|d| (d.step() as u8, d.sides() as u8))
            .collect();
        let mut rolls: Vec<Vec<u8>> = vec![Vec::new()];
        for die in &pool {
            rolls = rolls
                .iter()
                .flat_map(|roll| {
                    (1..=die.sides() as u8).map(move |face| {
                        let mut next = roll.clone();
                        next.push(face);
                        next
                    })
                })
                .collect();
        }
        assert_eq!(rolls.len() % LANES, 0);
        fn check<const KEEP: usize>(pool: &[Die], table: &[(u8, u8)], rolls: &[Vec<u8>]) {
            for batch in rolls.chunks(LANES) {
                let mut faces = vec![[0u8; LANES]; pool.len()];
                for (lane, roll) in batch.iter().enumerate() {
                    for (die, &face) in roll.iter().enumerate() {
                        faces[die][lane] = face;
                    }
                }
                let lanes = score_lanes::<KEEP>(table, &faces);
                for (lane, roll) in batch.iter().enumerate() {
                    assert_eq!(lanes.roll(lane), score(pool, roll, KEEP), "{roll:?}");
                }
            }
        }
        check::<1>(&pool, &table, &rolls);
        check::<2>(&pool, &table, &rolls);
        check::<3>(&pool, &table, &rolls);
        check::<4>(&pool, &table, &rolls);
    }

    #[test]
    fn keep_three_sums_three() {
        let roll = score(&dice("d12 d10 d8 d6"), &[2, 9, 8, 6], 3);
        assert_eq!(
            roll,
            PoolRoll {
                total: 23,
                effect_step: 4,
                hitches: 0
            }
        );
    }
}
