//! The rolls of a doom-pool scene's Monte Carlo trial
//! ([`super::scene_sample`]): the player's pool, scored ahead in a table
//! ([`ActionTable`]) or die by die ([`Scored`]); the doom pool's reaction,
//! its total kept on the values alone ([`doom_total`], and for the default
//! rules' keep of two on masks of faces, [`doom_total_two`]); and the
//! action's outcome read from its margin ([`OutcomeTable`]). Every die is
//! thrown by a `die` closure that takes its sides and gives its face less
//! one (`DieRoller::roll_index`): the faces are read as indices, so no one
//! is added a die only to be taken off again.

use super::digits;
use super::rules::{held_total, keep_top, value_rank};
use super::scene::{doom_die_step, DoomKey};
use super::score::{score_stream, PoolRoll};

/// Sides of the doom dice by step, d4 .. d12.
pub(super) const DOOM_SIDES: [u32; 5] = [4, 6, 8, 10, 12];

/// Scores `(step, face)` dice keeping `keep` of them, each `keep` with a
/// loop of its own.
#[inline(always)]
pub(super) fn score_keeping(keep: usize, dice: impl Iterator<Item = (u8, u8)>) -> PoolRoll {
    match keep {
        1 => score_stream::<1>(dice),
        2 => score_stream::<2>(dice),
        3 => score_stream::<3>(dice),
        4 => score_stream::<4>(dice),
        _ => score_stream::<5>(dice),
    }
}

/// The total of a doom pool's roll keeping `KEEP` dice, the dice thrown by
/// `die` largest first: the Cortex rule's top-k selection ([`keep_top`])
/// on the values alone ([`value_rank`]), since a reaction needs only the
/// total (the sizes only break ties between equal values, which the sum
/// never sees, and the effect die and hitches of the reaction count for
/// nothing in a scene).
#[inline(always)]
pub(super) fn doom_total<const KEEP: usize>(
    doom: &DoomKey,
    die: &mut impl FnMut(u32) -> u32,
) -> u32 {
    let mut held = [0u32; KEEP];
    for step in (0..5).rev() {
        for _ in 0..doom[step] {
            let face = die(DOOM_SIDES[step]) as u8 + 1;
            keep_top(&mut held, u32::from(value_rank(face)));
        }
    }
    held_total(&held)
}

/// Masks of faces: bit `k` stands for face `k + 1`, d4 to d12.
const MASKS: usize = 1 << 12;

/// Per mask of the faces some die shows, the sum of its two highest
/// values: a hitch (bit 0) and a missing second value count nothing.
static TOP_TWO: [u8; MASKS] = mask_totals(false);
/// Per mask of the faces a second die shows, twice its highest value (a
/// hitch counts nothing).
static TOP_TWICE: [u8; MASKS] = mask_totals(true);

/// [`TOP_TWO`] (`twice` false) or [`TOP_TWICE`] (`twice` true), worked
/// out when compiled.
const fn mask_totals(twice: bool) -> [u8; MASKS] {
    let mut table = [0u8; MASKS];
    let mut mask = 0;
    while mask < MASKS {
        // The hitch's bit cleared; a value is its bit's place plus one,
        // and 32 less the leading zeros is the highest one (0 for none).
        let live = mask as u32 & !1;
        let top = 32 - live.leading_zeros();
        table[mask] = if twice {
            2 * top
        } else if top == 0 {
            0
        } else {
            top + (32 - (live & !(1 << (top - 1))).leading_zeros())
        } as u8;
        mask += 1;
    }
    table
}

/// [`doom_total`] keeping two, the default rules' reaction, on two masks
/// of faces instead of a top-two selection: bit `k` of `once` is set when
/// some die shows face `k + 1`, of `twice` when a second one does. A die
/// costs a shift, an and and two ors where the selection cost a rank and
/// two compare-and-moves. The total is then two loads and a larger of
/// two: when the highest face shown once is shown twice, twice it is the
/// larger; otherwise twice any face shown twice is at most twice the
/// second highest value shown, so the two highest values are.
#[inline(always)]
pub(super) fn doom_total_two(doom: &DoomKey, die: &mut impl FnMut(u32) -> u32) -> u32 {
    let (mut once, mut twice) = (0u32, 0u32);
    for step in (0..5).rev() {
        for _ in 0..doom[step] {
            let bit = 1u32 << die(DOOM_SIDES[step]);
            twice |= once & bit;
            once |= bit;
        }
    }
    // No face is above 12, so the masks' mask only spares a bounds check.
    let mask = MASKS as u32 - 1;
    u32::from(TOP_TWO[(once & mask) as usize].max(TOP_TWICE[(twice & mask) as usize]))
}

/// How an action's pool is rolled: its dice thrown by `die` in the pool's
/// order, giving the total and the step of the doom die the roll adds (0
/// for none).
pub(super) trait ActionRoll {
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32);
}

/// Most entries of the action pool's score table ([`ActionTable`]).
const MAX_ACTION_TABLE: usize = 1 << 16;
/// Trials a table entry must save at least: building one costs about one
/// roll scored die by die, and each trial rolls the pool once an action.
const TRIALS_PER_ENTRY: u64 = 8;

/// Every roll of the player's pool scored ahead, as in a conflict: the
/// faces less one, read as digits (the first die's the most significant),
/// index the roll's total and the doom die its hitches add, so that an
/// action adds a product a die and reads one entry instead of running the
/// scorer on every die. The dice are thrown as before, in the same order
/// (the same stream).
pub(super) struct ActionTable {
    /// Per die, its sides and the weight of its face.
    digits: Vec<(u32, u32)>,
    /// Per roll, `total << 8 | step`, `step` the doom die's
    /// ([`doom_die_step`], 0 for none); as long as the largest table, so
    /// that an index masked to its length needs no bounds check.
    scores: Box<[u16; MAX_ACTION_TABLE]>,
}

impl ActionTable {
    /// The table of `action` keeping `keep`, when it has at most
    /// [`MAX_ACTION_TABLE`] entries and `trials` repay building it.
    pub(super) fn new(action: &[(u8, u8)], keep: usize, trials: u64) -> Option<ActionTable> {
        let entries = action
            .iter()
            .try_fold(1usize, |n, &(_, sides)| n.checked_mul(usize::from(sides)))?;
        if entries > MAX_ACTION_TABLE || (entries as u64).saturating_mul(TRIALS_PER_ENTRY) > trials
        {
            return None;
        }
        let (digits, _) = digits::place_values(action.iter().map(|&(_, sides)| u32::from(sides)));
        let mut scores: Box<[u16; MAX_ACTION_TABLE]> = vec![0; MAX_ACTION_TABLE]
            .into_boxed_slice()
            .try_into()
            .expect("the table is MAX_ACTION_TABLE long");
        for (index, entry) in scores[..entries].iter_mut().enumerate() {
            let index = index as u32;
            let roll = score_keeping(
                keep,
                action
                    .iter()
                    .zip(&digits)
                    .map(|(&(step, _), &(sides, weight))| {
                        (step, (index / weight % sides + 1) as u8)
                    }),
            );
            debug_assert!(roll.total < 256);
            *entry = ((roll.total as u16) << 8) | doom_die_step(roll.hitches) as u16;
        }
        Some(ActionTable { digits, scores })
    }

    /// The dice of the pool.
    pub(super) fn dice(&self) -> usize {
        self.digits.len()
    }

    /// The table with its `N` dice known when compiled (`N` must be
    /// [`ActionTable::dice`]).
    pub(super) fn unrolled<const N: usize>(&self) -> Unrolled<'_, N> {
        Unrolled {
            digits: self.digits[..].try_into().expect("a table of N dice"),
            scores: &self.scores,
        }
    }
}

/// The roll whose faces less one, weighted, add up to `index`: its total
/// and the step of the doom die it adds.
#[inline(always)]
fn entry_of(scores: &[u16; MAX_ACTION_TABLE], index: u32) -> (u32, u32) {
    let entry = scores[index as usize & (MAX_ACTION_TABLE - 1)];
    (u32::from(entry >> 8), u32::from(entry & 0xff))
}

impl ActionRoll for ActionTable {
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        let mut index = 0u32;
        for &(sides, weight) in &self.digits {
            index += die(sides) * weight;
        }
        entry_of(&self.scores, index)
    }
}

/// An [`ActionTable`] with its `N` dice known when compiled: the roll's
/// loop is unrolled, which spares the loop's count and test on every die
/// (about a tenth of a scene's instructions over its generator's).
pub(super) struct Unrolled<'a, const N: usize> {
    digits: [(u32, u32); N],
    scores: &'a [u16; MAX_ACTION_TABLE],
}

impl<const N: usize> ActionRoll for Unrolled<'_, N> {
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        let mut index = 0u32;
        for &(sides, weight) in &self.digits {
            index += die(sides) * weight;
        }
        entry_of(self.scores, index)
    }
}

/// The player's pool scored die by die, keeping `keep`.
pub(super) struct Scored<'a> {
    pub dice: &'a [(u8, u8)],
    pub keep: usize,
}

impl ActionRoll for Scored<'_> {
    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> (u32, u32) {
        let roll = score_keeping(
            self.keep,
            self.dice
                .iter()
                .map(|&(step, sides)| (step, die(u32::from(sides)) as u8 + 1)),
        );
        (roll.total, doom_die_step(roll.hitches) as u32)
    }
}

/// Margins an [`OutcomeTable`] covers: every total of at most five dice
/// kept, either side.
const MARGINS: usize = 512;

/// Per margin of an action over the reaction, its outcome as one word:
/// whether it succeeds in the high half, whether heroically in the low.
/// An action adds the word to the scene's count of both (each half sums
/// to at most the actions, so no carry crosses) and its high half to the
/// action's own, where two comparisons with the least margins cost the
/// loop twice the instructions. The margin is read wrapped: `total -
/// reaction` masked to the table, a negative margin near its end.
pub(super) struct OutcomeTable(Box<[u64; MARGINS]>);

impl OutcomeTable {
    /// The outcomes of the least margins of a success and of a heroic one
    /// (`Rules::least_succeeding_margin` and `least_heroic_margin`).
    pub(super) fn new(least_success: i64, least_heroic: i64) -> OutcomeTable {
        let mut table = Box::new([0u64; MARGINS]);
        for (index, outcome) in table.iter_mut().enumerate() {
            let margin = if index < MARGINS / 2 {
                index as i64
            } else {
                index as i64 - MARGINS as i64
            };
            *outcome = u64::from(margin >= least_success) << 32 | u64::from(margin >= least_heroic);
        }
        OutcomeTable(table)
    }

    /// The outcome of an action totalling `total` against a reaction of
    /// `reaction` (both at most 255).
    #[inline(always)]
    pub(super) fn of(&self, total: u32, reaction: u32) -> u64 {
        debug_assert!(total < 256 && reaction < 256);
        self.0[total.wrapping_sub(reaction) as usize & (MARGINS - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{block_rng, DieRoller};

    /// The masks' total keeping two is the top-two selection's, and
    /// they throw the same dice: pools from empty to twenty dice, many
    /// with equal faces and hitches.
    #[test]
    fn the_masks_total_the_top_two() {
        let mut rng = block_rng(5, 1);
        for _ in 0..20_000 {
            let mut doom = [0u32; 5];
            let dice = rand::Rng::next_u32(&mut rng) % 21;
            for _ in 0..dice {
                doom[rand::Rng::next_u32(&mut rng) as usize % 5] += 1;
            }
            let (mut a, mut b) = (rng.clone(), rng.clone());
            let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
            let masks = doom_total_two(&doom, &mut |s| ra.roll_index(s));
            let selection = doom_total::<2>(&doom, &mut |s| rb.roll_index(s));
            assert_eq!(masks, selection, "{doom:?}");
            assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
            rng = a;
        }
    }

    /// Every mask's totals against the faces it stands for, summed by
    /// hand: the two highest values shown, and twice the highest shown
    /// twice.
    #[test]
    fn the_mask_tables_hold_their_totals() {
        for mask in 0..MASKS {
            let mut values: Vec<u32> = (1..12)
                .filter(|&k| mask >> k & 1 == 1)
                .map(|k| k as u32 + 1)
                .collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            values.extend([0, 0]);
            assert_eq!(u32::from(TOP_TWO[mask]), values[0] + values[1], "{mask:b}");
            assert_eq!(u32::from(TOP_TWICE[mask]), 2 * values[0], "{mask:b}");
        }
    }

    /// The outcome words against the rules' own test of a margin, for
    /// every margin the sampler can meet and both tie rules and several
    /// heroic steps.
    #[test]
    fn the_outcome_table_reads_the_rules() {
        for (least_success, least_heroic) in [(1, 5), (0, 5), (1, 1), (0, 3), (1, 12)] {
            let table = OutcomeTable::new(least_success, least_heroic);
            for total in 0..=60u32 {
                for reaction in 0..=60u32 {
                    let margin = i64::from(total) - i64::from(reaction);
                    let outcome = table.of(total, reaction);
                    assert_eq!(outcome >> 32, u64::from(margin >= least_success));
                    assert_eq!(outcome & 0xffff_ffff, u64::from(margin >= least_heroic));
                }
            }
        }
    }
}
