//! A Monte Carlo block's d10s read in bulk (docs/benchmarks.md):
//! the very faces the die roller ([`crate::engine::rng::DieRoller`]) would
//! give, from the same 32-bit halves of the same generator words, but with
//! the words drawn a buffer at a time and each half classified for the
//! counting loop ahead of it, so that counting a pool is one load and one
//! add a throw (its own dice, for a small pool, a few vector additions).
//!
//! The roller splits a word into two 32-bit draws, low half first, and maps
//! a draw `x` to the face `(10 x >> 32) + 1`, rejecting the six draws whose
//! `10 x mod 2^32` is below 6 (Lemire's method). A face is at or above `f`
//! exactly when `x` is at or above [`draw_at_least`]`(f)`, so a success and
//! an explosion are each one comparison of the draw, no face computed. A
//! new roller (a new trial) starts at a word's low half: [`D10s::next_trial`]
//! skips the spare high half, as dropping the old roller does.
//!
//! A buffer holding a rejected draw (about one in 700,000) is counted by the
//! plain path, face by face with the roller's own rejection loop; so is a
//! roll that runs past the end of the buffer, after a refill. Both paths
//! read the same halves in the same order, so the counts and the stream's
//! position are the die roller's (tests below, and in `sample.rs`).

use crate::engine::rng::DiceRng;

use super::rules::{Rules, SIDES};

/// Halves the buffer holds: a power of two, so an index masked by it needs
/// no bounds check.
const CAPACITY: usize = 2048;
/// Halves drawn at most per fill; the one slot left holds the sentinel.
const FILL: usize = CAPACITY - 2;

/// Added for a throw that ends its chain (no explosion): one chain fewer owed
/// (the owed chains count in the high 16 bits of the accumulator).
const ENDS: u32 = 0xFFFF_0000;
/// The code past the buffer's last half: makes the accumulator negative as
/// an `i32`, which stops the counting loop and tells it why.
const SENTINEL: u32 = 0x8000_0000;
/// Throws past a pool's own dice added without a branch ([`D10s::pool`]).
const BRANCH_FREE_THROWS: usize = 2;
/// The largest pool the fast count takes: its owed chains and successes
/// stay within 16 bits, and it fits a buffer many times over.
pub(super) const MAX_FAST_POOL: i64 = 256;
/// Codes held: past the sentinel, zeros (no success, no end) for a pool's
/// own dice to run into without wrapping, so that they are read as one
/// slice from where the roll starts.
const CODES: usize = CAPACITY + MAX_FAST_POOL as usize;
/// Pools up to this many dice add their own dice as one masked window of
/// this many codes, a few vector additions.
const WINDOW: usize = 8;
/// By pool size, the lanes of the window its own dice take.
const WINDOW_MASKS: [[u32; WINDOW]; WINDOW + 1] = {
    let mut masks = [[0; WINDOW]; WINDOW + 1];
    let mut pool = 0;
    while pool <= WINDOW {
        let mut lane = 0;
        while lane < pool {
            masks[pool][lane] = u32::MAX;
            lane += 1;
        }
        pool += 1;
    }
    masks
};

/// The smallest 32-bit draw whose face is at least `face` (1..=11; 11 for
/// "never", `2^32`): `(10 x >> 32) + 1 >= face` exactly when
/// `10 x >= (face - 1) 2^32`.
pub(super) fn draw_at_least(face: u8) -> u64 {
    ((u64::from(face) - 1) << 32).div_ceil(u64::from(SIDES))
}

/// A threshold of [`draw_at_least`] (`0 ..= 2^32`) as a 32-bit draw and a
/// mask, all ones when some draw reaches it: a draw `x` is at or above it
/// exactly when `x >= draw` and the mask is set.
fn lane_threshold(at: u64) -> (u32, u32) {
    match u32::try_from(at) {
        Ok(draw) => (draw, u32::MAX),
        Err(_) => (u32::MAX, 0),
    }
}

/// Whether the roller rejects the draw `x` and draws again (Lemire: the low
/// 32 bits of `10 x` below `2^32 mod 10 = 6`).
#[inline(always)]
fn rejected(x: u32) -> bool {
    // 10 x as two shifts and an add: a 32-bit multiply is no single
    // instruction on the vector registers of every x86-64.
    const _: () = assert!(SIDES == 10);
    (x << 3).wrapping_add(x << 1) < (1u64 << 32).rem_euclid(u64::from(SIDES)) as u32
}

/// A block's d10 draws, buffered and classified for one set of [`Rules`]
/// (a pool's target and `again`).
pub(super) struct D10s<'a> {
    rng: &'a mut DiceRng,
    halves: Box<[u32; CAPACITY]>,
    /// Per half: +1 for a success, plus [`ENDS`] when the throw does not
    /// explode; [`SENTINEL`] at `len`, zeros past it.
    codes: Box<[u32; CODES]>,
    len: usize,
    /// The next half to read; `halves[0]` is always a word's low half.
    at: usize,
    /// No rejected draw in `halves[..len]`: the fast count applies.
    clean: bool,
    success_at: u64,
    again_at: u64,
    /// The faces those draws stand for (`again` 11 for no rerolls).
    target: u8,
    again: u8,
}

impl<'a> D10s<'a> {
    pub(super) fn new(rng: &'a mut DiceRng, rules: &Rules) -> D10s<'a> {
        let again = if rules.again == 0 {
            SIDES + 1
        } else {
            rules.again
        };
        let mut stream = D10s {
            rng,
            halves: Box::new([0; CAPACITY]),
            codes: Box::new([0; CODES]),
            len: 0,
            at: 0,
            clean: true,
            success_at: draw_at_least(rules.target),
            again_at: draw_at_least(again),
            target: rules.target,
            again,
        };
        stream.refill();
        stream
    }

    /// Keeps the unread halves (from the word `at` is in, so the halves
    /// stay word-aligned), draws words up to [`FILL`] and classifies them.
    fn refill(&mut self) {
        let keep = self.at & !1;
        self.halves.copy_within(keep..self.len, 0);
        self.at -= keep;
        self.len -= keep;
        // The generator's state in registers while it fills (through the
        // `&mut` it would go to memory and back each word); the same words.
        let mut rng = self.rng.clone();
        while self.len + 2 <= FILL {
            let word = rand::Rng::next_u64(&mut rng);
            self.halves[self.len] = word as u32;
            self.halves[self.len + 1] = (word >> 32) as u32;
            self.len += 2;
        }
        *self.rng = rng;
        // Classified in 32-bit lanes with no branch, so that the loop runs
        // on vector registers (four halves at a time on any x86-64): a
        // threshold is a 32-bit draw and whether any draw reaches it.
        let (success_at, can_succeed) = lane_threshold(self.success_at);
        let (again_at, can_explode) = lane_threshold(self.again_at);
        let mut any_rejected = 0u32;
        for (code, &x) in self.codes.iter_mut().zip(&self.halves[..self.len]) {
            let success = u32::from(x >= success_at) & can_succeed;
            let explodes = (u32::from(x >= again_at) & can_explode).wrapping_neg();
            *code = success + (ENDS & !explodes);
            any_rejected |= u32::from(rejected(x));
        }
        let clean = any_rejected == 0;
        // `len` is always FILL here (both it and `keep` are even), so the
        // one sentinel sits at FILL and a count that runs past it reads
        // only the zeros after it (a pool's own dice run into them; the
        // throws they owe are not added once it is negative): it stays
        // negative, with no second sentinel to undo the first.
        debug_assert_eq!(self.len, FILL);
        self.codes[self.len] = SENTINEL;
        self.clean = clean;
    }

    /// The next 32-bit draw, refilling when the buffer is spent.
    #[inline]
    fn half(&mut self) -> u32 {
        if self.at == self.len {
            self.refill();
        }
        let x = self.halves[self.at & (CAPACITY - 1)];
        self.at += 1;
        x
    }

    /// The next face, as [`crate::engine::rng::DieRoller::roll`] makes it.
    #[inline]
    pub(super) fn face(&mut self) -> u8 {
        loop {
            let x = self.half();
            if !rejected(x) {
                return ((u64::from(x) * u64::from(SIDES)) >> 32) as u8 + 1;
            }
        }
    }

    /// The successes of a pool of `pool` dice (1..=[`MAX_FAST_POOL`], no
    /// rote) under the rules the stream classifies for: every chain thrown
    /// to its end, as [`Rules::roll`] counts them from the same faces.
    #[inline(always)]
    pub(super) fn pool(&mut self, pool: i64) -> u32 {
        debug_assert!((1..=MAX_FAST_POOL).contains(&pool));
        if self.clean {
            if let Some(successes) = self.pool_fast(pool) {
                return successes;
            }
            // The roll runs past the buffer: count it again from its first
            // half after a refill (once: a roll longer than a whole buffer
            // goes face by face).
            self.refill();
            if self.clean {
                if let Some(successes) = self.pool_fast(pool) {
                    return successes;
                }
            }
        }
        self.pool_face_by_face(pool)
    }

    /// The count of [`Self::pool`]: one add a throw. `None`, the stream
    /// not moved, when the roll reaches the sentinel past the buffer.
    ///
    /// Every pool throws at least its `pool` dice, so those are added
    /// without a branch on the dice: up to [`WINDOW`] of them as one
    /// masked window (a few vector additions), more in a loop of a fixed
    /// length; the throws their explosions owe follow, the
    /// first [`BRANCH_FREE_THROWS`] of them added under a mask (a throw
    /// added only while a chain is still owed), so that a trial with few
    /// explosions (nearly every one) takes no branch that depends on its
    /// dice; only longer trials loop.
    #[inline(always)]
    fn pool_fast(&mut self, pool: i64) -> Option<u32> {
        // High 16 bits: chains still owed; low 16: successes.
        let mut acc = (pool as u32) << 16;
        let mut at = self.at;
        // `at` is at most `len` (FILL), so the pool's own dice lie within
        // the codes: the sentinel and the zeros after it at the end.
        let dice = pool as usize;
        if dice <= WINDOW {
            let window: &[u32; WINDOW] = self.codes[at..at + WINDOW]
                .try_into()
                .expect("a window of the codes");
            let lanes = &WINDOW_MASKS[dice];
            acc = (0..WINDOW).fold(acc, |acc, k| acc.wrapping_add(window[k] & lanes[k]));
        } else {
            acc = self.codes[at..at + dice]
                .iter()
                .fold(acc, |acc, &code| acc.wrapping_add(code));
        }
        at += dice;
        for _ in 0..BRANCH_FREE_THROWS {
            let owed = u32::from((acc as i32) >= 0x1_0000);
            acc = acc.wrapping_add(self.codes[at & (CAPACITY - 1)] & owed.wrapping_neg());
            at += owed as usize;
        }
        while (acc as i32) >= 0x1_0000 {
            acc = acc.wrapping_add(self.codes[at & (CAPACITY - 1)]);
            at += 1;
        }
        if (acc as i32) < 0 {
            return None;
        }
        self.at = at;
        Some(acc & 0xFFFF)
    }

    /// [`Self::pool`] face by face, through the roller's rejection loop.
    #[cold]
    fn pool_face_by_face(&mut self, pool: i64) -> u32 {
        let (mut owed, mut successes) = (pool as u64, 0u32);
        while owed > 0 {
            let face = self.face();
            successes += u32::from(face >= self.target);
            owed -= u64::from(face < self.again);
        }
        successes
    }

    /// Ends a trial: the next one starts at a new word, as a new die
    /// roller does (the spare high half of this one's last word is dropped).
    #[inline(always)]
    pub(super) fn next_trial(&mut self) {
        self.at = (self.at + 1) & !1;
        if self.at >= self.len {
            self.refill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::block_rng;

    /// Block 0 of seed 627,856 holds a draw the roller rejects (half
    /// 1,998: found by a search over seeds, and checked here), inside the
    /// first buffer: its rolls are counted face by face, through the
    /// rejection, and the counts and stream stay the roller's.
    #[test]
    fn a_rejected_draw_is_redrawn_as_the_roller_does() {
        let mut rng = block_rng(627_856, 0);
        let words: Vec<u64> = (0..1_000).map(|_| rand::Rng::next_u64(&mut rng)).collect();
        let halves: Vec<u32> = words
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        let at: Vec<usize> = (0..halves.len()).filter(|&h| rejected(halves[h])).collect();
        assert_eq!(at, [1_998]);
        for (pool, again) in [(5, 10), (10, 8), (1, 9)] {
            let rules = Rules {
                pool,
                again,
                ..Rules::default()
            };
            let mut rng = block_rng(627_856, 0);
            let mut draws = D10s::new(&mut rng, &rules);
            let mut bulk = Vec::new();
            for _ in 0..3_000 {
                bulk.push(draws.pool(pool));
                draws.next_trial();
            }
            let mut rng = block_rng(627_856, 0);
            let one_by_one: Vec<u32> = (0..3_000)
                .map(|_| {
                    let mut roller = crate::engine::rng::DieRoller::new(&mut rng);
                    let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
                    rules.roll(&mut faces).unwrap().successes
                })
                .collect();
            assert_eq!(bulk, one_by_one, "{rules:?}");
        }
    }

    /// The draw thresholds stand for their faces: the last draw below
    /// each shows the face below, the threshold itself the face.
    #[test]
    fn draw_thresholds_are_the_faces() {
        let face = |x: u64| ((x * u64::from(SIDES)) >> 32) + 1;
        for f in 2..=10u8 {
            let t = draw_at_least(f);
            assert_eq!(face(t), u64::from(f));
            assert_eq!(face(t - 1), u64::from(f) - 1);
        }
        assert_eq!(draw_at_least(1), 0);
        assert_eq!(draw_at_least(11), 1 << 32);
    }

    /// A threshold in 32-bit lanes tells the draws apart as the 64-bit
    /// comparison does, "never" (`2^32`) and "always" (0) included.
    #[test]
    fn lane_thresholds_compare_as_the_draws_do() {
        for face in 1..=11u8 {
            let at = draw_at_least(face);
            let (draw, mask) = lane_threshold(at);
            for x in [
                0,
                1,
                5,
                6,
                at.saturating_sub(1),
                at,
                at + 1,
                u64::from(u32::MAX),
            ] {
                let Ok(x) = u32::try_from(x) else { continue };
                assert_eq!(
                    (x >= draw) && mask == u32::MAX,
                    u64::from(x) >= at,
                    "face {face}, draw {x}"
                );
            }
        }
    }
}
