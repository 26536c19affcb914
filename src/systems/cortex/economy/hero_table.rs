//! The hero's side of an economy action for the Monte Carlo trial
//! ([`super::sample`]): steps 2 to 4 of [`super::rules`] come down to what
//! the rest of the action reads of them, a [`HeroEntry`] (the final total,
//! the hitch level, whether a point went on the total). Steps 2 and 3 read
//! only whether the hero holds no plot point, one, or more
//! ([`holding`]), so each of those three holdings has one pool and one
//! way of spending, and every roll of its pool is scored ahead
//! ([`HeroTable`], as the plain scene's sampler scores the player's pool):
//! the faces, read as digits, index the entry, and an action costs a
//! product a die and one read instead of the top-k selection and the
//! spending rule. Pools too large for a table, or runs too short to repay
//! one, are scored die by die ([`Scored`]). Both call the same rules, so
//! they give the same entries.

use crate::dice::Pool;

use super::super::digits;
use super::super::rules::{keep_top, value_rank, Rank};
use super::super::sample::dice_table;
use super::super::scene::doom_die_step;
use super::counts::Fields;
use super::rules::{action_pool, action_total, HeroDice, Preparation, MAX_HERO_HELD};
use super::Economy;

/// The holdings steps 2 and 3 tell apart: no plot point, one, more.
pub(super) const HOLDINGS: usize = 3;

/// The holding of a hero with `held` plot points: [`Economy::prepare`]
/// reads only whether `held` is 0, 1 or more (the d4 side when broke, the
/// d6 for a point, and a point left for step 4 when one more was held),
/// so `held` and its holding prepare alike (test
/// `a_holding_prepares_as_its_points`).
#[inline(always)]
pub(super) fn holding(held: u32) -> usize {
    held.min(HOLDINGS as u32 - 1) as usize
}

/// What the rest of an action reads of the hero's roll (steps 4 and 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct HeroEntry {
    /// The action's total, after step 4's spend.
    pub total: u8,
    /// The hitches, 4 or more read as 4 (they all add a d12): the step of
    /// the doom die the roll adds, 0 for none. Step 7's rules read no more
    /// of the hitches than that.
    pub level: u8,
    /// The plot points step 7 leaves the hero less those held before
    /// ([`Economy::settle`] adds what was earned and takes what was spent,
    /// whatever was held).
    pub delta: i8,
    /// What the action adds to the scene's points word
    /// ([`Fields::points`]).
    pub points: u32,
}

impl HeroEntry {
    /// Steps 4 and 7 of a hero holding `held` plot points who prepared
    /// `prep` and rolled `hero`, keeping `keep`.
    pub fn of(
        economy: &Economy,
        keep: usize,
        (held, prep): (u32, Preparation),
        fields: Fields,
        hero: &HeroDice,
    ) -> HeroEntry {
        let roll = hero.roll(keep);
        let on_total = economy.spends_on_total(prep, &roll);
        let settled = economy.settle(held, prep, on_total, roll.hitches);
        HeroEntry {
            total: u8::try_from(action_total(&roll, on_total)).expect("at most 6d12"),
            level: doom_die_step(roll.hitches) as u8,
            delta: (i64::from(settled.held) - i64::from(held)) as i8,
            points: fields.points(settled.earned, settled.spent),
        }
    }
}

/// The hero's pool and preparation of each holding.
pub(super) struct Holdings {
    /// Steps 2 and 3 for the holding, and the plot points it stands for.
    pub preps: [(u32, Preparation); HOLDINGS],
    /// Its pool's dice as (step, sides), in the order they are thrown.
    pub dice: [Vec<(u8, u8)>; HOLDINGS],
}

impl Holdings {
    pub fn new(economy: &Economy, pool: &Pool) -> Holdings {
        let preps = [0, 1, 2].map(|held| (held, economy.prepare(held)));
        Holdings {
            preps,
            dice: preps.map(|(_, prep)| dice_table(&action_pool(pool, prep))),
        }
    }
}

/// How an action rolls the hero's pool: its dice thrown by `die` in the
/// pool's order (each face counted from zero, `DieRoller::roll_index`),
/// read as a [`HeroEntry`].
pub(super) trait HeroRolls {
    fn roll(&self, holding: usize, die: &mut impl FnMut(u32) -> u32) -> HeroEntry;
}

/// Most entries of one holding's table.
const MAX_ENTRIES: usize = 1 << 16;
/// Rolls a table entry must save at least: building one costs about one
/// roll scored die by die.
const ROLLS_PER_ENTRY: u64 = 8;

/// One holding's rolls scored ahead.
struct Table {
    /// Each die's sides and place value, the first die's the largest.
    digits: Vec<(u32, u32)>,
    /// By the faces read as digits, each counted from zero as the roller
    /// draws them (`DieRoller::roll_index`), so no face needs one added or
    /// taken off: the entries.
    entries: Vec<HeroEntry>,
}

/// Every roll of each holding's pool scored ahead.
pub(super) struct HeroTable {
    tables: [Table; HOLDINGS],
}

impl HeroTable {
    /// The tables of `holdings` keeping `keep`, when none has more than
    /// [`MAX_ENTRIES`] entries and a run of `rolls` hero's rolls repays
    /// building them.
    pub fn new(
        economy: &Economy,
        keep: usize,
        fields: Fields,
        holdings: &Holdings,
        rolls: u64,
    ) -> Option<Self> {
        let mut entries = 0u64;
        for dice in &holdings.dice {
            let size = dice
                .iter()
                .try_fold(1usize, |n, &(_, sides)| n.checked_mul(usize::from(sides)))
                .filter(|&n| n <= MAX_ENTRIES)?;
            entries += size as u64;
        }
        if entries.saturating_mul(ROLLS_PER_ENTRY) > rolls {
            return None;
        }
        let table = |holding: usize| {
            let dice = &holdings.dice[holding];
            let (digits, rolls) =
                digits::place_values(dice.iter().map(|&(_, sides)| u32::from(sides)));
            let prep = holdings.preps[holding];
            let entries = (0..rolls)
                .map(|index| {
                    let mut hero = HeroDice::EMPTY;
                    for &(sides, weight) in &digits {
                        hero.push(keep, (index / weight % sides + 1) as u8);
                    }
                    HeroEntry::of(economy, keep, prep, fields, &hero)
                })
                .collect();
            Table { digits, entries }
        };
        Some(HeroTable {
            tables: [table(0), table(1), table(2)],
        })
    }

    /// The tables read as [`SameLength`], when every holding's pool has
    /// `N` dice.
    pub fn same_length<const N: usize>(&self) -> Option<SameLength<'_, N>> {
        let mut digits = [[(0, 0); N]; HOLDINGS];
        for (fixed, table) in digits.iter_mut().zip(&self.tables) {
            *fixed = table.digits[..].try_into().ok()?;
        }
        Some(SameLength {
            digits,
            entries: self.tables.each_ref().map(|table| &table.entries[..]),
        })
    }
}

/// A [`HeroTable`] whose holdings' pools all have `N` dice, known when
/// compiled: the index is read without choosing its length each action
/// ([`digits::fixed`]).
pub(super) struct SameLength<'a, const N: usize> {
    digits: [[(u32, u32); N]; HOLDINGS],
    entries: [&'a [HeroEntry]; HOLDINGS],
}

impl<const N: usize> HeroRolls for SameLength<'_, N> {
    #[inline(always)]
    fn roll(&self, holding: usize, die: &mut impl FnMut(u32) -> u32) -> HeroEntry {
        self.entries[holding][digits::fixed(&self.digits[holding], die) as usize]
    }
}

impl HeroRolls for HeroTable {
    #[inline(always)]
    fn roll(&self, holding: usize, die: &mut impl FnMut(u32) -> u32) -> HeroEntry {
        let table = &self.tables[holding];
        table.entries[digits::index(&table.digits, die) as usize]
    }
}

/// The hero's pool scored die by die, its best `HERO` dice held in an
/// array of that length, which the top-k selection ([`keep_top`]) unrolls
/// (a run-time length cost the loop five times the generator's time).
/// The best `HERO` of a roll begin with its best `keep + 1` (`HERO` is at
/// least that), so [`HeroDice::roll`] reads the very dice it reads from
/// the shorter selection.
pub(super) struct Scored<'a, const HERO: usize> {
    pub economy: &'a Economy,
    pub keep: usize,
    pub fields: Fields,
    pub holdings: &'a Holdings,
}

impl<const HERO: usize> HeroRolls for Scored<'_, HERO> {
    #[inline(always)]
    fn roll(&self, holding: usize, die: &mut impl FnMut(u32) -> u32) -> HeroEntry {
        debug_assert!(self.keep < HERO && HERO <= MAX_HERO_HELD);
        let mut hero = HeroDice::EMPTY;
        let mut best = [0 as Rank; HERO];
        for &(_, sides) in &self.holdings.dice[holding] {
            let face = die(u32::from(sides)) as u8 + 1;
            keep_top(&mut best, value_rank(face));
            hero.hitches += u32::from(face == 1);
        }
        hero.held[..HERO].copy_from_slice(&best);
        let prep = self.holdings.preps[holding];
        HeroEntry::of(self.economy, self.keep, prep, self.fields, &hero)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Distinction, GmSpend, HeroSpend};
    use super::*;
    use crate::engine::rng::{block_rng, DiceRng, DieRoller};

    fn economies() -> Vec<Economy> {
        let mut all = Vec::new();
        for hero_spend in [HeroSpend::Never, HeroSpend::AddD6, HeroSpend::AddToTotal] {
            for distinction in [Distinction::D8, Distinction::D4WhenBroke] {
                for spend_below in [None, Some(9)] {
                    if spend_below.is_some() && hero_spend != HeroSpend::AddToTotal {
                        continue;
                    }
                    all.push(Economy {
                        start_plot_points: 0,
                        hero_spend,
                        spend_below,
                        distinction,
                        gm_spend: GmSpend::ToWin,
                    });
                }
            }
        }
        all
    }

    /// Steps 2 and 3 of a hero's points are its holding's, and step 7
    /// moves them as it moves the holding's.
    #[test]
    fn a_holding_prepares_as_its_points() {
        for economy in economies() {
            for held in 0..40 {
                let at = holding(held) as u32;
                let prep = economy.prepare(held);
                assert_eq!(prep, economy.prepare(at), "{economy:?}, {held}");
                for (on_total, hitches) in [(false, 0), (true, 0), (false, 2), (true, 1)] {
                    let settle = |held| economy.settle(held, prep, on_total && prep.holds, hitches);
                    let (mine, its) = (settle(held), settle(at));
                    assert_eq!(
                        i64::from(mine.held) - i64::from(held),
                        i64::from(its.held) - i64::from(at)
                    );
                    assert_eq!((mine.earned, mine.spent), (its.earned, its.spent));
                }
            }
        }
    }

    /// The table reads the entry scoring die by die gives, for every
    /// holding, from the same dice: several pools, `keep`s and ways of
    /// spending.
    #[test]
    fn the_table_is_the_roll_scored_die_by_die() {
        for (pool, keep) in [("d10 2d8 d6", 2), ("d12 d8 d4", 1), ("2d8 d6 d4", 3)] {
            let pool = Pool::parse_cortex(pool).unwrap();
            for economy in economies() {
                let holdings = Holdings::new(&economy, &pool);
                let fields = Fields::new(8);
                let table = HeroTable::new(&economy, keep, fields, &holdings, u64::MAX).unwrap();
                let scored = Scored::<MAX_HERO_HELD> {
                    economy: &economy,
                    keep,
                    fields,
                    holdings: &holdings,
                };
                let label = format!("{pool}, keep {keep}, {economy:?}");
                assert_rolls_alike(&table, &scored, block_rng(2, 5), &label);
            }
        }
    }

    /// `got` and `want` read the same entry from the same dice, holding by
    /// holding in turn over 3,000 rolls, and leave the stream alike.
    fn assert_rolls_alike(got: &impl HeroRolls, want: &impl HeroRolls, rng: DiceRng, label: &str) {
        let (mut a, mut b) = (rng.clone(), rng);
        let (mut ra, mut rb) = (DieRoller::new(&mut a), DieRoller::new(&mut b));
        for i in 0..3_000 {
            let holding = i % HOLDINGS;
            assert_eq!(
                got.roll(holding, &mut |s| ra.roll_index(s)),
                want.roll(holding, &mut |s| rb.roll_index(s)),
                "{label}"
            );
        }
        assert_eq!(ra.roll_index(1_000), rb.roll_index(1_000), "{label}");
    }

    /// A table read at a length known when compiled is there exactly when
    /// every holding's pool has that many dice, and reads the entries the
    /// table reads from the same dice.
    #[test]
    fn the_same_length_table_reads_the_table() {
        fn check<const N: usize>(pool: &str) -> usize {
            let pool = Pool::parse_cortex(pool).unwrap();
            let mut read = 0;
            for economy in economies() {
                let holdings = Holdings::new(&economy, &pool);
                let fields = Fields::new(8);
                let table = HeroTable::new(&economy, 2, fields, &holdings, u64::MAX).unwrap();
                let all_n = holdings.dice.iter().all(|dice| dice.len() == N);
                let Some(same) = table.same_length::<N>() else {
                    assert!(!all_n, "{pool}, {economy:?}");
                    continue;
                };
                assert!(all_n, "{pool}, {economy:?}");
                read += 1;
                assert_rolls_alike(
                    &same,
                    &table,
                    block_rng(3, 1),
                    &format!("{pool}, {economy:?}"),
                );
            }
            read
        }
        assert!(check::<3>("d8 d6 d4") > 0);
        assert!(check::<4>("d10 2d8 d6") > 0);
        assert!(check::<5>("d10 d8 d6 d4 d4") > 0);
        // A d6 for a plot point makes some holding's pool a die longer:
        // of the eight economies, only the six that never add it have two
        // dice in every holding.
        assert_eq!(check::<2>("d10 d8"), 6);
    }

    #[test]
    fn a_table_is_built_only_when_it_fits_and_pays() {
        let economy = economies()[0];
        let pool = Pool::parse_cortex("d10 2d8 d6").unwrap();
        let holdings = Holdings::new(&economy, &pool);
        let entries = 3 * 10 * 8 * 8 * 6;
        let f = Fields::new(8);
        assert!(HeroTable::new(&economy, 2, f, &holdings, entries * ROLLS_PER_ENTRY).is_some());
        assert!(HeroTable::new(&economy, 2, f, &holdings, entries * ROLLS_PER_ENTRY - 1).is_none());
        let big = Pool::parse_cortex("5d12").unwrap();
        let holdings = Holdings::new(&economy, &big);
        assert!(HeroTable::new(&economy, 2, f, &holdings, u64::MAX).is_none());
    }
}
