//! Short encounters counted as one code each: every roll's tier, the
//! counters' uses and the misses turned strong, read together as one
//! number, so a trial ends in a single increment of a flat array and the
//! per-roll and per-encounter counts are read off the array once a block.
//!
//! A roll is its draws, one look-up and one addition: the entry both says
//! where the next roll reads and adds what this roll does to the code. The
//! draws are the face-table trial's, one encounter after another, so the
//! stream is the same; the chances are compared with the thresholds their
//! [`Bernoulli`] compares with, so that an always-true chance (which draws
//! nothing) is decided once, not at every draw.

use std::convert::Infallible;

use rand::distr::Bernoulli;
use rand::RngExt;

use super::{AdvantageSampler, FaceTable};
use crate::engine::rng::DiceRng;
use crate::systems::advantage::rules::{count_step, flag_tier};
use crate::systems::advantage::{AdvantageHists, M2S, USES};

/// Most cells of a block's array (4 bytes each, 256 KB): past it, the
/// encounters go through the kind-by-kind transition table.
const MAX_CELLS: usize = 1 << 16;

/// Most entries of the roll-by-roll table (8 bytes each).
const MAX_ENTRIES: usize = 1 << 18;

/// How a chance step draws (this path's and the transition table's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Chance {
    /// Probability 0: nothing drawn, never happens.
    Never,
    /// Probability 1: nothing drawn (as [`Bernoulli`] does), always happens.
    Always,
    /// One word drawn; it happens when the word is below this.
    Below(u64),
}

impl Chance {
    /// What `bernoulli` does with a draw, found through its own sampling so
    /// that the thresholds are the very ones it compares with.
    pub(super) fn of(bernoulli: Option<Bernoulli>) -> Chance {
        let Some(bernoulli) = bernoulli else {
            return Chance::Never;
        };
        let happens = |word: u64| Fixed(word).sample(bernoulli);
        // No word is below u64::MAX + 1: a chance true for the largest word
        // did not compare, it drew nothing.
        if happens(u64::MAX) {
            return Chance::Always;
        }
        // The smallest word for which it does not happen: a draw below it
        // happens.
        let (mut low, mut high) = (0u64, u64::MAX);
        while low < high {
            let mid = low + (high - low) / 2;
            if happens(mid) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        Chance::Below(low)
    }

    pub(super) fn drawn(self) -> bool {
        matches!(self, Chance::Below(_))
    }

    pub(super) fn threshold(self) -> u64 {
        match self {
            Chance::Below(below) => below,
            _ => 0,
        }
    }

    /// Whether it happened, given the key's bit for it (which only a drawn
    /// chance sets).
    pub(super) fn happened(self, bit: bool) -> bool {
        match self {
            Chance::Never => false,
            Chance::Always => true,
            Chance::Below(_) => bit,
        }
    }
}

/// A generator that gives one word: how a chance treats that draw.
struct Fixed(u64);

impl rand::TryRng for Fixed {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.0 >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

/// Roll by roll, every (state, face, chance draws) and what follows. A
/// roll's key is `face << (2 * holders) | draws`, one bit per chance drawn
/// (each holder's gain, then its reduction); its entry is at `row + key`,
/// and holds the next roll's `row` in its low 32 bits and what the roll
/// adds to the encounter's code in its high 32 bits. The code is the rolls'
/// tiers in base 3 (the first roll lowest), then the uses, then the misses
/// turned strong.
pub(super) struct Codes {
    table: Vec<u64>,
    rolls: usize,
    /// Counters drawing the chances after each roll but the last: 1 or 2.
    holders: usize,
    gain: Chance,
    reduce: Chance,
    /// 3 to the rolls: the codes of the tiers.
    patterns: usize,
    /// Values the uses of an encounter can take.
    uses: usize,
    /// Cells of a block's array: `patterns * uses * (rolls + 1)`.
    cells: usize,
}

impl Codes {
    pub(super) fn new(sampler: &AdvantageSampler<'_>) -> Option<Codes> {
        let case = sampler.case;
        let rolls = case.rolls as usize;
        let states = sampler.space.len();
        let holders = sampler.tables.first()?.1.len();
        if !(1..=2).contains(&holders) || sampler.tables.iter().any(|t| t.1.len() != holders) {
            return None;
        }
        let stride = 36usize << (2 * holders);
        let patterns = 3usize.checked_pow(rolls as u32)?;
        let most_uses = sampler
            .tables
            .iter()
            .flat_map(|(faces, _)| faces.iter().flatten())
            .map(|&(_, flags)| count_step(flags, USES))
            .max()
            .unwrap_or(0);
        let uses = rolls * most_uses + 1;
        let cells = patterns
            .checked_mul(uses)?
            .checked_mul(rolls + 1)
            .filter(|&cells| cells <= MAX_CELLS)?;
        let entries = rolls * states * stride;
        // The rows summed with the code stay below its 32 bits.
        if entries > MAX_ENTRIES || (entries as u64) * (rolls as u64) >= 1 << 32 {
            return None;
        }
        let [gain, reduce] = sampler.chances;
        let mut table = vec![0u64; entries];
        let mut place = 1u64;
        for (roll, rows) in table.chunks_exact_mut(states * stride).enumerate() {
            let (faces, chance_holders): &(FaceTable, _) = &sampler.tables[sampler.table_of[roll]];
            let next_base = (roll + 1) * states * stride;
            for (row, faces) in rows.chunks_exact_mut(stride).zip(faces) {
                for (face, &(counters, flags)) in faces.iter().enumerate() {
                    // Flags past 5 bits, or a tier past strong, are not
                    // what the code counts.
                    if flags >= 32 || flag_tier(flags) > 2 {
                        return None;
                    }
                    let adds = place * flag_tier(flags) as u64
                        + patterns as u64
                            * (count_step(flags, USES) + uses * count_step(flags, M2S)) as u64;
                    for draws in 0..1usize << (2 * holders) {
                        // After the last roll nothing follows.
                        let next = if roll + 1 < rolls {
                            let mut after = counters;
                            for (i, holder) in chance_holders.clone().enumerate() {
                                let gained = gain.happened((draws >> (2 * i)) & 1 == 1);
                                let reduced = reduce.happened((draws >> (2 * i + 1)) & 1 == 1);
                                after[holder] = case.after_chances(after[holder], gained, reduced);
                            }
                            next_base + sampler.space.index(after) * stride
                        } else {
                            0
                        };
                        row[(face << (2 * holders)) | draws] = (adds << 32) | next as u64;
                    }
                }
            }
            place *= 3;
        }
        Some(Codes {
            table,
            rolls,
            holders,
            gain,
            reduce,
            patterns,
            uses,
            cells,
        })
    }

    /// A block's encounters, counted in one array of codes, then read off
    /// it into the histograms.
    pub(super) fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut AdvantageHists<u64>) {
        let mut cells = vec![0u32; self.cells];
        let mut left = trials;
        while left > 0 {
            // A cell counts at most this many encounters.
            let now = left.min(u64::from(u32::MAX));
            match (self.holders, self.gain.drawn(), self.reduce.drawn()) {
                (1, false, false) => self.encounters::<1, false, false>(rng, now, &mut cells),
                (1, false, true) => self.encounters::<1, false, true>(rng, now, &mut cells),
                (1, true, false) => self.encounters::<1, true, false>(rng, now, &mut cells),
                (1, true, true) => self.encounters::<1, true, true>(rng, now, &mut cells),
                (_, false, false) => self.encounters::<2, false, false>(rng, now, &mut cells),
                (_, false, true) => self.encounters::<2, false, true>(rng, now, &mut cells),
                (_, true, false) => self.encounters::<2, true, false>(rng, now, &mut cells),
                (_, true, true) => self.encounters::<2, true, true>(rng, now, &mut cells),
            }
            self.read_off(&mut cells, tally);
            left -= now;
        }
    }

    /// `trials` encounters of `HOLDERS` chance holders, drawing the gains
    /// if `GAIN` and the reductions if `REDUCE`: known when compiled, so a
    /// roll's draws are a straight run of compares.
    #[inline(always)]
    fn encounters<const HOLDERS: usize, const GAIN: bool, const REDUCE: bool>(
        &self,
        rng: &mut DiceRng,
        trials: u64,
        cells: &mut [u32],
    ) {
        let table = self.table.as_slice();
        let (gain, reduce) = (self.gain.threshold(), self.reduce.threshold());
        for _ in 0..trials {
            let mut row = 0usize;
            // The entries summed whole: the code gathers in the high half,
            // the rows' sum in the low half never reaches it.
            let mut code = 0u64;
            for _ in 1..self.rolls {
                let key = roll_key::<HOLDERS, GAIN, REDUCE>(rng, gain, reduce);
                let entry = table[row + key];
                code += entry;
                row = entry as u32 as usize;
            }
            let face = rng.random_range(0..36usize);
            code += table[row + (face << (2 * HOLDERS))];
            cells[(code >> 32) as usize] += 1;
        }
    }

    /// Adds the array's encounters to the histograms and clears it.
    fn read_off(&self, cells: &mut [u32], tally: &mut AdvantageHists<u64>) {
        // Per code of the tiers, and per code of the rest, the encounters.
        let mut by_pattern = vec![0u64; self.patterns];
        let mut by_rest = vec![0u64; self.cells / self.patterns];
        for (rest, chunk) in by_rest.iter_mut().zip(cells.chunks_exact(self.patterns)) {
            for (sum, &cell) in by_pattern.iter_mut().zip(chunk) {
                *sum += u64::from(cell);
            }
            *rest = chunk.iter().map(|&cell| u64::from(cell)).sum();
        }
        cells.fill(0);
        for (pattern, &weight) in by_pattern.iter().enumerate() {
            if weight == 0 {
                continue;
            }
            let mut tiers = [0i64; 3];
            let mut code = pattern;
            for by_tier in tally.tier_by_roll.iter_mut().take(self.rolls) {
                by_tier[code % 3] += weight;
                tiers[code % 3] += 1;
                code /= 3;
            }
            for (hist, count) in tally.per_encounter.iter_mut().zip(tiers) {
                hist.add(count, weight);
            }
        }
        for (rest, &weight) in by_rest.iter().enumerate() {
            if weight == 0 {
                continue;
            }
            tally.per_encounter[USES].add((rest % self.uses) as i64, weight);
            tally.per_encounter[M2S].add((rest / self.uses) as i64, weight);
        }
    }
}

/// A roll's look-up key: its 2d6 face (one of 36) above two bits for each
/// chance holder, a gain and a reduction, each drawn only where it can
/// happen (`GAIN`, `REDUCE`), in the order every encounter draws them.
#[inline(always)]
pub(super) fn roll_key<const HOLDERS: usize, const GAIN: bool, const REDUCE: bool>(
    rng: &mut DiceRng,
    gain: u64,
    reduce: u64,
) -> usize {
    let face = rng.random_range(0..36usize);
    let mut key = face << (2 * HOLDERS);
    for i in 0..HOLDERS {
        if GAIN {
            key |= usize::from(rand::Rng::next_u64(rng) < gain) << (2 * i);
        }
        if REDUCE {
            key |= usize::from(rand::Rng::next_u64(rng) < reduce) << (2 * i + 1);
        }
    }
    key
}
