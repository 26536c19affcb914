//! Small pools' rolls as outcome codes: every roll of a pool whose sides
//! multiply to a small number is scored once, before the loop, into a
//! flat table, so a batch's roll is its faces read as one mixed-radix
//! index (worked out lane by lane, on vector registers) and one look-up.
//! The action's code and the reaction's add up to one cell of a flat
//! array, so a trial ends in a single increment, and the [`PackedTally`]
//! is filled from the array once a block, each cell's count at once.
//!
//! The faces are drawn as the side by side batches draw them, so the
//! stream is the same; the table holds what [`score`] gives each roll, so
//! the counts are the same.

use std::collections::HashMap;

use crate::dice::Die;
use crate::systems::cortex::score::{score, PoolRoll, LANES};
use crate::systems::cortex::tally::PackedTally;
use crate::systems::cortex::Contest;

/// Most rolls a pool's table may hold (2 bytes each, 16 KB): a power of
/// two, so that an index masked by it needs no bounds check.
const MAX_ROLLS: usize = 1 << 13;

/// Most cells of a block's count array (8 bytes each, 128 KB); a power of
/// two for the same reason.
const MAX_CELLS: usize = 1 << 14;

/// A pool's every roll, scored and coded.
struct PoolCodes {
    /// Each die's weight in a roll's index: the last die's is 1.
    strides: Vec<u16>,
    /// The sum of the strides: a roll's faces (from 1) times the strides,
    /// less this, is its index (from 0).
    base: u16,
    /// The code of each roll, by index, times `scale`; then 0 up to
    /// [`MAX_ROLLS`].
    table: Box<[u16; MAX_ROLLS]>,
    /// The distinct scored rolls, by code.
    rolls: Vec<PoolRoll>,
}

impl PoolCodes {
    /// The codes of the pool `dice` keeping `keep`, or `None` when its
    /// sides multiply past [`MAX_ROLLS`]. A reacting pool's hitches matter
    /// only as whether there are any (`hitch_counts` false), which makes
    /// fewer codes.
    fn new(dice: &[Die], keep: usize, hitch_counts: bool) -> Option<PoolCodes> {
        let mut size = 1usize;
        let mut strides = vec![0u16; dice.len()];
        for (stride, die) in strides.iter_mut().zip(dice).rev() {
            *stride = size as u16;
            size = size.checked_mul(die.sides() as usize)?;
            if size > MAX_ROLLS {
                return None;
            }
        }
        let base = strides.iter().fold(0u16, |sum, &s| sum.wrapping_add(s));
        let mut table = vec![0u16; MAX_ROLLS].into_boxed_slice();
        let mut rolls = Vec::new();
        let mut codes: HashMap<(u32, u32, u32), u16> = HashMap::new();
        let mut faces = vec![0u8; dice.len()];
        for (index, entry) in table.iter_mut().enumerate().take(size) {
            for ((face, &stride), die) in faces.iter_mut().zip(&strides).zip(dice) {
                *face = (index / usize::from(stride) % die.sides() as usize) as u8 + 1;
            }
            let mut roll = score(dice, &faces, keep);
            if !hitch_counts {
                roll.hitches = roll.hitches.min(1);
            }
            let key = (roll.total, roll.effect_step, roll.hitches);
            *entry = *codes.entry(key).or_insert_with(|| {
                rolls.push(roll);
                (rolls.len() - 1) as u16
            });
        }
        Some(PoolCodes {
            strides,
            base,
            table: table.try_into().expect("the table has MAX_ROLLS entries"),
            rolls,
        })
    }

    /// Multiplies every code by `scale` (the other pool's number of codes),
    /// so that the two pools' codes add up to a cell.
    fn scale(&mut self, scale: u16) {
        for entry in self.table.iter_mut() {
            *entry *= scale;
        }
    }

    /// The codes of [`LANES`] rolls: `faces[die]` holds that die's face in
    /// every roll. In 16 bits, wrapping: the index is below [`MAX_ROLLS`]
    /// once the base is taken off.
    #[inline(always)]
    fn lane_codes(&self, faces: &[[u8; LANES]]) -> [u16; LANES] {
        let mut index = [self.base.wrapping_neg(); LANES];
        for (&stride, faces) in self.strides.iter().zip(faces) {
            for (index, &face) in index.iter_mut().zip(faces) {
                *index = index.wrapping_add(u16::from(face).wrapping_mul(stride));
            }
        }
        let mut codes = [0u16; LANES];
        for (code, &index) in codes.iter_mut().zip(&index) {
            *code = self.table[usize::from(index) & (MAX_ROLLS - 1)];
        }
        codes
    }
}

/// The codes of a case's action pool and, against a pool, its reacting
/// pool; a trial's cell is the sum of the two codes.
pub(super) struct Codes {
    action: PoolCodes,
    reaction: Option<PoolCodes>,
}

impl Codes {
    /// The codes of a `max-total` roll of `action` keeping `keep`, against
    /// `reaction` keeping `reaction_keep` if a pool reacts; `None` when a
    /// pool's table or the cells would be too large.
    pub(super) fn new(
        action: &[Die],
        keep: usize,
        reaction: Option<(&[Die], usize)>,
    ) -> Option<Codes> {
        let mut action = PoolCodes::new(action, keep, true)?;
        let reaction = match reaction {
            Some((dice, keep)) => Some(PoolCodes::new(dice, keep, false)?),
            None => None,
        };
        let reaction_codes = reaction.as_ref().map_or(1, |r| r.rolls.len());
        if action.rolls.len() * reaction_codes > MAX_CELLS {
            return None;
        }
        action.scale(reaction_codes as u16);
        Some(Codes { action, reaction })
    }

    /// The number of cells in use.
    fn used_cells(&self) -> usize {
        self.action.rolls.len() * self.reaction.as_ref().map_or(1, |r| r.rolls.len())
    }

    /// A block's count array, every cell 0.
    pub(super) fn cells(&self) -> Box<[u64; MAX_CELLS]> {
        vec![0u64; MAX_CELLS]
            .into_boxed_slice()
            .try_into()
            .expect("MAX_CELLS cells")
    }

    /// Counts the first `count` of a batch's [`LANES`] trials, each in its
    /// cell: `action[die]` and `reaction[die]` hold that die's face in
    /// every lane.
    #[inline(always)]
    pub(super) fn count(
        &self,
        action: &[[u8; LANES]],
        reaction: &[[u8; LANES]],
        count: usize,
        cells: &mut [u64; MAX_CELLS],
    ) {
        let mut codes = self.action.lane_codes(action);
        if let Some(pool) = &self.reaction {
            let reactions = pool.lane_codes(reaction);
            for (code, reaction) in codes.iter_mut().zip(reactions) {
                *code = code.wrapping_add(reaction);
            }
        }
        for &code in codes.iter().take(count) {
            cells[usize::from(code) & (MAX_CELLS - 1)] += 1;
        }
    }

    /// Adds a block's cells to the tally: each cell's action roll and,
    /// against a pool, the contest, with the cell's count.
    pub(super) fn record(&self, cells: &[u64; MAX_CELLS], tally: &mut PackedTally) {
        let reaction_codes = self.reaction.as_ref().map_or(1, |r| r.rolls.len());
        for (cell, &count) in cells[..self.used_cells()].iter().enumerate() {
            if count == 0 {
                continue;
            }
            let action = self.action.rolls[cell / reaction_codes];
            tally.add_roll_count(action, 0, count);
            if let Some(reaction) = &self.reaction {
                let reaction = reaction.rolls[cell % reaction_codes];
                tally.add_contest_count(&Contest::against_pool(action, reaction, true), count);
            }
        }
    }
}
