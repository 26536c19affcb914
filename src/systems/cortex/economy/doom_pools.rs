//! The doom pool's side of an economy action for the Monte Carlo trial
//! ([`super::sample`]). A worker's scenes meet a few pools over and over,
//! so each pool met gets a number ([`PoolsMet`]): its dice as one flat
//! list in the order the pool rolls (largest first), whether it ends the
//! scene, and the pool each spend and hitch level turns it into, worked
//! out by [`settle_doom`] the first time and read after; the scenes that
//! finish on it are counted by number and go into the tally's map once a
//! block. The roll itself is read as the GM reads it ([`Reaction`], as an
//! action reads it a [`ReactionKey`]): from
//! the pool's table of every roll read ahead ([`PoolTable`], built by
//! [`DoomDice::reaction`] once the pool has been met about as often as
//! the table has entries, for pools of at most four dice), else by the
//! top-k selection ([`Selected`]) or, for the default rules' two dice
//! summed, by masks of the faces shown ([`Masks`]).

use rustc_hash::FxHashMap;

use super::super::digits;
use super::super::rules::{keep_top, total_rank, Rank};
use super::super::scene::{dice_in, DoomKey, SceneCase, SceneHists};
use super::rules::{settle_doom, DoomDice, Reaction, MAX_DOOM_HELD};
use super::verdicts::ReactionKey;

/// Sides of the doom dice by step, d4 .. d12.
const DOOM_SIDES: [u8; 5] = [4, 6, 8, 10, 12];

/// The hitch levels of [`super::hero_table::HeroEntry`]: none, then one
/// to four or more.
const LEVELS: usize = 5;
/// A move not yet worked out.
const UNKNOWN: u32 = u32::MAX;
/// Slots of a pool's successors: a power of two at least as many as the
/// spends (none, or a die of each step) times the hitch levels, so that
/// an index masked to it needs no bounds check.
const NEXT_SLOTS: usize = ((1 + DOOM_SIDES.len()) * LEVELS).next_power_of_two();

/// The slot of the successor after spend `spend` (the step of the die
/// the GM spent, plus one; 0: none) and hitch level `level`.
#[inline(always)]
fn next_slot(spend: u8, level: u8) -> usize {
    debug_assert!(usize::from(spend) <= DOOM_SIDES.len() && usize::from(level) < LEVELS);
    (usize::from(spend) * LEVELS + usize::from(level)) & (NEXT_SLOTS - 1)
}
/// Pools and listed dice past which the numbers start over (between
/// scenes), so that long scenes, which rarely meet a pool twice, hold
/// bounded memory.
const MAX_POOLS: usize = 1 << 16;
const MAX_DICE: usize = 1 << 22;
/// Most entries of a pool's table of rolls ([`PoolTable`]): four d12.
const MAX_TABLE: usize = 12 * 12 * 12 * 12;
/// Most entries of all tables together (about 12 MB).
const MAX_TABLED: usize = 1 << 22;
/// Actions from a pool, per entry of its table, before the table is
/// built: building an entry costs about as much as an action saves by
/// reading one, so a pool met that often has paid for it.
const VISITS_PER_ENTRY: u32 = 1;

/// A pool's rolls read ahead: its faces, read as digits (the first die's
/// the most significant), index the reaction, so that a die costs a
/// product and an action one read instead of the masks' or the
/// selection's work.
struct PoolTable {
    /// Each die's sides and place value.
    digits: Box<[(u32, u32)]>,
    /// By the faces, each counted from zero as the roller draws them
    /// (`DieRoller::roll_index`), so no face needs one added or taken
    /// off: the reaction as an action reads it ([`ReactionKey`]).
    entries: Box<[ReactionKey]>,
}

impl PoolTable {
    /// The table of `dice` (sides, step) read by `reaction_keep` and
    /// `slots` ([`DoomDice::reaction`]).
    fn new(dice: &[[u8; 2]], reaction_keep: usize, slots: usize) -> PoolTable {
        let (digits, rolls) = digits::place_values(dice.iter().map(|&[sides, _]| u32::from(sides)));
        let entries = (0..rolls)
            .map(|index| {
                let mut held = DoomDice::EMPTY;
                for (&(sides, weight), &[_, step]) in digits.iter().zip(dice) {
                    held.push(slots, step, (index / weight % sides + 1) as u8);
                }
                ReactionKey::of(&held.reaction(reaction_keep, slots))
            })
            .collect();
        PoolTable {
            digits: digits.into(),
            entries,
        }
    }

    #[inline(always)]
    fn roll(&self, die: &mut impl FnMut(u32) -> u32) -> ReactionKey {
        self.entries[digits::index(&self.digits, die) as usize]
    }
}

/// A pool met, and what is known of it.
struct Met {
    key: DoomKey,
    /// Its dice as (sides, step), largest first.
    dice: Box<[[u8; 2]]>,
    /// Whether the GM ends the scene before an action from it.
    ends: bool,
    /// Its rolls read ahead, once it has been met often enough.
    table: Option<PoolTable>,
    /// Actions from it so far, and how many build its table
    /// ([`u32::MAX`]: never, too many rolls).
    visits: u32,
    table_at: u32,
    /// By the step of the die the GM spent, plus one (0: none), and by
    /// the hitch level ([`next_slot`]): the pool step 7 leaves, or
    /// [`UNKNOWN`].
    next: [u32; NEXT_SLOTS],
    /// Scenes of the block that finished on it.
    finals: u64,
}

impl Met {
    /// The pool step 7 leaves after spend `spend` and hitch level
    /// `level` ([`next_slot`]), once it has been worked out.
    #[inline(always)]
    fn known_next(&self, spend: u8, level: u8) -> Option<u32> {
        let next = self.next[next_slot(spend, level)];
        (next != UNKNOWN).then_some(next)
    }
}

/// The pools a block's scenes met, numbered from the pool they start with
/// ([`PoolsMet::START`]).
pub(super) struct PoolsMet<'a> {
    case: &'a SceneCase,
    /// Doom dice the reaction holds (`reaction_keep`, one more when the GM
    /// may spend).
    slots: usize,
    start: DoomKey,
    met: Vec<Met>,
    /// Dice listed by the pools met.
    dice: usize,
    numbers: FxHashMap<DoomKey, u32>,
    /// Entries of the tables built.
    tabled: usize,
    /// Scratch of the rolls' own.
    shown: Shown,
}

impl<'a> PoolsMet<'a> {
    /// The number of the pool every scene starts with.
    pub const START: u32 = 0;

    pub fn new(case: &'a SceneCase, start: DoomKey, slots: usize) -> PoolsMet<'a> {
        let mut pools = PoolsMet {
            case,
            slots,
            start,
            met: Vec::new(),
            dice: 0,
            numbers: FxHashMap::default(),
            tabled: 0,
            shown: [0; 16],
        };
        pools.number(start);
        pools
    }

    /// The number of `key`, given it the first time.
    fn number(&mut self, key: DoomKey) -> u32 {
        if let Some(&n) = self.numbers.get(&key) {
            return n;
        }
        let n = u32::try_from(self.met.len()).expect("bounded by MAX_POOLS");
        let dice: Box<[[u8; 2]]> = (0..DOOM_SIDES.len())
            .rev()
            .flat_map(|step| {
                std::iter::repeat_n([DOOM_SIDES[step], step as u8], key[step] as usize)
            })
            .collect();
        self.dice += dice.len();
        let entries = dice
            .iter()
            .try_fold(1usize, |n, &[sides, _]| n.checked_mul(usize::from(sides)))
            .filter(|&n| n <= MAX_TABLE);
        let table_at = entries.map_or(u32::MAX, |n| n as u32 * VISITS_PER_ENTRY);
        self.met.push(Met {
            key,
            dice,
            ends: self.case.ends(&key),
            table: None,
            visits: 0,
            table_at,
            next: [UNKNOWN; NEXT_SLOTS],
            finals: 0,
        });
        self.numbers.insert(key, n);
        n
    }

    /// Whether the GM ends the scene before an action from pool `pool`.
    #[cfg(test)]
    fn ends(&self, pool: u32) -> bool {
        self.met[pool as usize].ends
    }

    /// One action from pool `pool` (steps 1 to 7), or `None` when the GM
    /// ends the scene before it: the hero rolls by `hero`, then the pool
    /// by its table when it has one, else by `doom`, every die thrown by
    /// `die` (the pool's largest first); `verdict` reads both and tells
    /// the GM's spend (as [`ReactionKey::spend`] tells it, 0 for none) and
    /// the hero's hitch level. The pool step 7 leaves, read with the pool
    /// looked up once when it has a table.
    #[inline(always)]
    pub fn act<F: FnMut(u32) -> u32, R>(
        &mut self,
        pool: u32,
        doom: &impl DoomRolls,
        die: &mut F,
        hero: impl FnOnce(&mut F) -> R,
        verdict: impl FnOnce(R, ReactionKey) -> (u8, u8),
    ) -> Option<u32> {
        let met = &self.met[pool as usize];
        if met.ends {
            return None;
        }
        let rolled = hero(die);
        if let Some(table) = &met.table {
            let (spend, level) = verdict(rolled, table.roll(die));
            return Some(
                met.known_next(spend, level)
                    .unwrap_or_else(|| self.settle_first(pool, spend, level)),
            );
        }
        let reaction = self.roll_untabled(pool, doom, die);
        let (spend, level) = verdict(rolled, reaction);
        Some(self.settle(pool, spend, level))
    }

    /// Pool `pool`'s roll by `doom`, for a pool with no table yet: counts
    /// the visit, and builds the table once the visits repay it.
    #[inline(always)]
    fn roll_untabled(
        &mut self,
        pool: u32,
        doom: &impl DoomRolls,
        die: &mut impl FnMut(u32) -> u32,
    ) -> ReactionKey {
        let met = &mut self.met[pool as usize];
        met.visits += 1;
        if met.visits == met.table_at {
            self.tabulate(pool);
        }
        ReactionKey::of(&doom.roll(&self.met[pool as usize].dice, &mut self.shown, die))
    }

    /// Pool `pool`'s dice as (sides, step), largest first.
    #[cfg(test)]
    fn dice(&self, pool: u32) -> &[[u8; 2]] {
        &self.met[pool as usize].dice
    }

    #[cold]
    #[inline(never)]
    fn tabulate(&mut self, pool: u32) {
        let met = &mut self.met[pool as usize];
        let entries = met.table_at / VISITS_PER_ENTRY;
        if self.tabled + entries as usize > MAX_TABLED {
            return;
        }
        self.tabled += entries as usize;
        let reaction_keep = self.case.rules.reaction_keep;
        met.table = Some(PoolTable::new(&met.dice, reaction_keep, self.slots));
    }

    /// The pool step 7 leaves of pool `pool` ([`settle_doom`]): the GM
    /// spent a die of step `spend - 1`, if `spend` is not 0 (as
    /// [`ReactionKey::spend`] tells it), and the hero's roll showed hitch
    /// level `level`.
    #[inline(always)]
    fn settle(&mut self, pool: u32, spend: u8, level: u8) -> u32 {
        self.met[pool as usize]
            .known_next(spend, level)
            .unwrap_or_else(|| self.settle_first(pool, spend, level))
    }

    #[cold]
    #[inline(never)]
    fn settle_first(&mut self, pool: u32, spend: u8, level: u8) -> u32 {
        let mut key = self.met[pool as usize].key;
        settle_doom(&mut key, spend.checked_sub(1), u32::from(level));
        let next = self.number(key);
        self.met[pool as usize].next[next_slot(spend, level)] = next;
        next
    }

    /// Counts a scene that ran to the end on pool `pool`.
    #[inline(always)]
    pub fn finish(&mut self, pool: u32) {
        self.met[pool as usize].finals += 1;
    }

    /// Between scenes: when the pools met hold too much, moves their
    /// counts into `tally` and starts the numbers over.
    #[inline(always)]
    pub fn make_room(&mut self, tally: &mut SceneHists<u64>) {
        if self.met.len() > MAX_POOLS || self.dice > MAX_DICE {
            self.start_over(tally);
        }
    }

    #[cold]
    #[inline(never)]
    fn start_over(&mut self, tally: &mut SceneHists<u64>) {
        self.add_to(tally);
        self.met.clear();
        self.dice = 0;
        self.tabled = 0;
        self.numbers.clear();
        self.number(self.start);
    }

    /// Moves the finished scenes' counts into `tally`: each pool any
    /// scene finished on into the map and its dice into the histogram
    /// (the map never holds an empty count, and the histogram spans the
    /// counts met).
    pub fn add_to(&mut self, tally: &mut SceneHists<u64>) {
        for met in &mut self.met {
            let n = std::mem::take(&mut met.finals);
            if n == 0 {
                continue;
            }
            *tally.final_doom.entry(met.key).or_insert(0) += n;
            tally.final_dice.add(dice_in(&met.key) as i64, n);
        }
    }
}

/// How an action reads the doom pool's roll (step 5): its dice, (sides,
/// step) largest first, thrown by `die` (each face counted from zero),
/// read as the GM reads them. `shown` is scratch of the rolls' own, kept
/// between actions.
pub(super) trait DoomRolls {
    fn roll(
        &self,
        dice: &[[u8; 2]],
        shown: &mut Shown,
        die: &mut impl FnMut(u32) -> u32,
    ) -> Reaction;
}

/// Scratch for [`Masks`]: by face, the step of the last die thrown that
/// showed it.
pub(super) type Shown = [u8; 16];

/// The reaction by the top-k selection ([`keep_top`] on [`total_rank`],
/// read by [`DoomDice::reaction`]), the best `DOOM` dice held in an array
/// of that length, which the selection unrolls. The best `DOOM` begin with
/// the best `slots` (`DOOM` is at least that), so the reaction reads the
/// very dice it reads from the shorter selection.
pub(super) struct Selected<const DOOM: usize> {
    pub reaction_keep: usize,
    pub slots: usize,
}

impl<const DOOM: usize> DoomRolls for Selected<DOOM> {
    #[inline(always)]
    fn roll(&self, dice: &[[u8; 2]], _: &mut Shown, die: &mut impl FnMut(u32) -> u32) -> Reaction {
        debug_assert!(self.slots <= DOOM && DOOM <= MAX_DOOM_HELD);
        let mut best = [0 as Rank; DOOM];
        for &[sides, step] in dice {
            keep_top(&mut best, total_rank(die(u32::from(sides)) as u8 + 1, step));
        }
        let mut held = DoomDice::EMPTY;
        held.held[..DOOM].copy_from_slice(&best);
        held.reaction(self.reaction_keep, self.slots)
    }
}

/// The reaction of the default rules (two dice summed; with `SPEND`, the
/// GM's spend, a third die held) on masks of faces instead of a top-k
/// selection: bit `f` of `once` is set when some die shows `f`, of
/// `twice` when a second one does, of `thrice` when a third does. A die
/// costs a shift and a few ands and ors, and, with `SPEND`, the step it
/// shows its face on noted in [`Shown`] (the dice come largest first, so
/// the last noted is the smallest die showing the face, the one
/// [`DoomDice::reaction`] reads). The three best values are read once an
/// action from the masks' highest bits; bit 0, set in every mask, is the
/// empty slot (a pool of too few live dice), and a hitch's bit is
/// cleared, as it counts for nothing. Held to [`Selected`] by test
/// `the_masks_read_what_the_selection_reads`.
pub(super) struct Masks<const SPEND: bool>;

impl<const SPEND: bool> DoomRolls for Masks<SPEND> {
    #[inline(always)]
    fn roll(
        &self,
        dice: &[[u8; 2]],
        shown: &mut Shown,
        die: &mut impl FnMut(u32) -> u32,
    ) -> Reaction {
        let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
        for &[sides, step] in dice {
            let face = die(u32::from(sides)) + 1;
            let bit = 1u32 << face;
            if SPEND {
                thrice |= twice & bit;
                shown[(face & 15) as usize] = step;
            }
            twice |= once & bit;
            once |= bit;
        }
        let live = |mask: u32| (mask & !2) | 1;
        let (once, twice, thrice) = (live(once), live(twice), live(thrice));
        let highest = |mask: u32| 31 - mask.leading_zeros();
        let has = |mask: u32, value: u32| mask >> value & 1 == 1;
        let first = highest(once);
        // The highest value below the first: or-ing the empty slot back in
        // keeps the rest from being zero, whose leading zeros would be 32.
        let below = (once ^ (1 << first)) | 1;
        let next = highest(below);
        let second = if has(twice, first) { first } else { next };
        let total = first + second;
        if !SPEND {
            return Reaction { total, added: None };
        }
        let third = if has(thrice, first) {
            first
        } else if has(twice, first) || has(twice, next) {
            next
        } else {
            highest((below ^ (1 << next)) | 1)
        };
        let added = (third != 0).then(|| (third, shown[(third & 15) as usize]));
        Reaction { total, added }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Pool;
    use crate::engine::rng::{block_rng, DieRoller};
    use crate::systems::cortex::Rules;

    /// A flat list of `key`'s dice, as a pool met lists them.
    fn listed(key: &DoomKey) -> Vec<[u8; 2]> {
        let case = SceneCase {
            pool: Pool::parse_cortex("d8").unwrap(),
            doom: Pool::parse_cortex("d4").unwrap(),
            actions: 1,
            rules: Rules::default(),
            end_at_2d12: false,
            economy: None,
        };
        PoolsMet::new(&case, *key, 3).dice(PoolsMet::START).to_vec()
    }

    /// The masks' reaction, with the GM's spend and without, is the top-k
    /// selection's, from the same dice: pools from empty to twenty dice,
    /// many with equal faces and hitches.
    #[test]
    fn the_masks_read_what_the_selection_reads() {
        let mut rng = block_rng(5, 2);
        let mut shown = [0; 16];
        for _ in 0..20_000 {
            let mut key = [0u32; 5];
            for _ in 0..rand::Rng::next_u32(&mut rng) % 21 {
                key[rand::Rng::next_u32(&mut rng) as usize % 5] += 1;
            }
            let dice = listed(&key);
            for slots in [2, 3] {
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
                let selected = Selected::<MAX_DOOM_HELD> {
                    reaction_keep: 2,
                    slots,
                };
                let want = selected.roll(&dice, &mut shown, &mut |s| ra.roll_index(s));
                let got = if slots == 3 {
                    Masks::<true>.roll(&dice, &mut shown, &mut |s| rb.roll_index(s))
                } else {
                    Masks::<false>.roll(&dice, &mut shown, &mut |s| rb.roll_index(s))
                };
                assert_eq!(got, want, "{key:?}, {slots} slots");
                assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
            }
            rand::Rng::next_u64(&mut rng);
        }
    }

    /// A pool's table reads what the selection reads, from the same
    /// dice, for several `reaction_keep`s with the GM's spend and without.
    #[test]
    fn the_table_reads_what_the_selection_reads() {
        let mut rng = block_rng(6, 1);
        let mut shown = [0; 16];
        for key in [
            [0, 2, 0, 0, 0],
            [1, 0, 1, 0, 2],
            [0, 1, 1, 1, 1],
            [0, 0, 0, 0, 0],
        ] {
            let dice = listed(&key);
            for (reaction_keep, slots) in [(2, 3), (2, 2), (1, 2), (3, 3), (3, 4)] {
                let table = PoolTable::new(&dice, reaction_keep, slots);
                let selected = Selected::<MAX_DOOM_HELD> {
                    reaction_keep,
                    slots,
                };
                for _ in 0..2_000 {
                    let (mut a, mut b) = (rng.clone(), rng.clone());
                    let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
                    let want = selected.roll(&dice, &mut shown, &mut |s| ra.roll_index(s));
                    let got = table.roll(&mut |s| rb.roll_index(s));
                    let want = ReactionKey::of(&want);
                    assert_eq!(got, want, "{key:?}, keeping {reaction_keep} of {slots}");
                    assert_eq!(rand::Rng::next_u64(&mut a), rand::Rng::next_u64(&mut b));
                    rng = a;
                }
            }
        }
    }

    /// Pools are listed largest die first, moves lead where
    /// [`settle_doom`] does, and the counts of scenes finished survive a
    /// start over.
    #[test]
    fn pools_are_numbered_listed_and_counted() {
        let case = SceneCase {
            pool: Pool::parse_cortex("d8").unwrap(),
            doom: Pool::parse_cortex("d4").unwrap(),
            actions: 1,
            rules: Rules::default(),
            end_at_2d12: true,
            economy: None,
        };
        let start = [1, 2, 0, 0, 1];
        let mut pools = PoolsMet::new(&case, start, 3);
        assert_eq!(
            pools.dice(PoolsMet::START),
            [[12, 4], [6, 1], [6, 1], [4, 0]]
        );
        assert!(!pools.ends(PoolsMet::START));
        let d12 = pools.settle(PoolsMet::START, 2, 4);
        assert_eq!(pools.met[d12 as usize].key, [1, 1, 0, 0, 2]);
        assert!(pools.ends(d12));
        assert_eq!(pools.settle(PoolsMet::START, 2, 4), d12);
        assert_eq!(pools.settle(d12, 0, 0), d12);
        let back = pools.settle(d12, 5, 1);
        assert_eq!(pools.met[back as usize].key, start);
        assert_eq!(back, PoolsMet::START);
        pools.finish(d12);
        pools.finish(PoolsMet::START);
        pools.finish(PoolsMet::START);
        let mut tally = SceneHists::new(1);
        pools.start_over(&mut tally);
        assert_eq!(pools.met.len(), 1);
        pools.finish(PoolsMet::START);
        pools.add_to(&mut tally);
        assert_eq!(tally.final_doom[&start], 3);
        assert_eq!(tally.final_doom[&[1, 1, 0, 0, 2]], 1);
        assert_eq!(tally.final_dice.iter().collect::<Vec<_>>(), [(4, 4)]);
    }
}
