//! The counts of a block of economy scenes for the Monte Carlo trial
//! ([`super::sample`]): a scene adds up its successes, heroic successes
//! and doom dice spent as the fields of one word, and its plot points
//! earned and spent as the fields of another ([`Fields`]), one addition an
//! action each; at its end each word, read as a number, is one cell of a
//! flat array ([`EconomyCounts`]), so that a scene costs two increments
//! instead of six histogram adds. The histograms are filled from the
//! arrays once a block, with the very counts the scene-by-scene tally
//! would have. Scenes too long for the arrays read the fields into the
//! histograms scene by scene.

use super::{EconomyHists, EconomyTally};

/// The fields of a scene's two words: each of `bits` bits, enough for
/// the most any count reaches (two points an action).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fields {
    bits: u32,
}

impl Fields {
    /// The fields of scenes of `actions`.
    pub fn new(actions: u32) -> Fields {
        Fields {
            bits: u32::BITS - (2 * actions).leading_zeros(),
        }
    }

    /// What an action adds to the outcome word: a success, a heroic
    /// success, a doom die spent, each 0 or 1.
    pub fn outcome(self, success: bool, heroic: bool, gm_spent: bool) -> u64 {
        u64::from(success) | u64::from(heroic) << self.bits | u64::from(gm_spent) << (2 * self.bits)
    }

    /// Whether an action's outcome word shows the GM's spend.
    #[inline(always)]
    pub fn gm_spent(self, outcome: u64) -> bool {
        outcome >> (2 * self.bits) & 1 == 1
    }

    /// Whether an action's outcome word shows a success.
    #[inline(always)]
    pub fn success(outcome: u64) -> bool {
        outcome & 1 == 1
    }

    /// What an action adds to the points word.
    pub fn points(self, earned: u32, spent: u32) -> u32 {
        earned | spent << self.bits
    }

    /// Field `i` of `word`.
    fn read(self, word: u64, i: u32) -> u64 {
        word >> (i * self.bits) & ((1 << self.bits) - 1)
    }
}

/// Most cells of the outcome array: fields of up to 6 bits, to 31
/// actions.
const MAX_CELLS: u64 = 1 << 18;
/// Cells a scene repays at most: reading a cell into the histograms costs
/// a few instructions, counting a scene into them without the arrays
/// about a hundred and thirty.
const CELLS_PER_SCENE: u64 = 16;

/// A block's counts of scenes.
pub(super) struct EconomyCounts {
    fields: Fields,
    start_points: u32,
    /// Per outcome word, the scenes; `None` when too long for an array.
    outcomes: Option<Vec<u32>>,
    /// Per points word, the scenes.
    points: Option<Vec<u32>>,
}

impl EconomyCounts {
    /// The counts of a block of `scenes` scenes read by `fields`, each
    /// starting with `start_points`: in arrays when they are small enough
    /// and the scenes repay them.
    pub fn new(fields: Fields, start_points: u32, scenes: u64) -> EconomyCounts {
        let cells = 1u64 << (3 * fields.bits);
        let arrays = cells <= MAX_CELLS && cells <= scenes.saturating_mul(CELLS_PER_SCENE);
        EconomyCounts {
            fields,
            start_points,
            outcomes: arrays.then(|| vec![0; cells as usize]),
            points: arrays.then(|| vec![0; 1 << (2 * fields.bits)]),
        }
    }

    /// Counts one scene's two words (the actions it won and its final
    /// pool are counted as it played).
    #[inline(always)]
    pub fn count(&mut self, outcome: u64, points: u64, tally: &mut EconomyTally<u64>) {
        match (&mut self.outcomes, &mut self.points) {
            (Some(outcomes), Some(by_points)) => {
                outcomes[outcome as usize] += 1;
                by_points[points as usize] += 1;
            }
            _ => {
                self.add_outcome(outcome, 1, tally);
                self.add_points(points, 1, tally);
            }
        }
    }

    fn add_outcome(&self, word: u64, n: u64, tally: &mut EconomyTally<u64>) {
        let f = self.fields;
        let scene = &mut tally.scene;
        scene.successes.add(f.read(word, 0) as i64, n);
        scene.heroics.add(f.read(word, 1) as i64, n);
        let doom_spent = f.read(word, 2);
        let e: &mut EconomyHists<u64> = &mut tally.economy;
        e.doom_spent.add(doom_spent as i64, n);
        if doom_spent > 0 {
            e.gm_spent += n;
        }
    }

    fn add_points(&self, word: u64, n: u64, tally: &mut EconomyTally<u64>) {
        let f = self.fields;
        let (earned, spent) = (f.read(word, 0) as i64, f.read(word, 1) as i64);
        tally.scene.plot_points.add(earned, n);
        let e = &mut tally.economy;
        e.points_spent.add(spent, n);
        e.final_points
            .add(i64::from(self.start_points) + earned - spent, n);
    }

    /// Adds the block's counts to `tally`: each histogram gets every count
    /// the scenes made, only those above zero (a histogram spans the
    /// counts met).
    pub fn add_to(self, tally: &mut EconomyTally<u64>) {
        for (word, &n) in self.outcomes.iter().flatten().enumerate() {
            if n > 0 {
                self.add_outcome(word as u64, u64::from(n), tally);
            }
        }
        for (word, &n) in self.points.iter().flatten().enumerate() {
            if n > 0 {
                self.add_points(word as u64, u64::from(n), tally);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cortex::scene::SceneHists;

    fn tally(actions: u32) -> EconomyTally<u64> {
        EconomyTally {
            scene: SceneHists::new(actions),
            economy: EconomyHists::default(),
        }
    }

    /// Scenes counted into the arrays and read into the histograms at the
    /// end give the histograms scene-by-scene adds give, for scenes short
    /// enough for the arrays and longer.
    #[test]
    fn the_arrays_count_what_the_histograms_count() {
        for actions in [1, 8, 31, 32, 1_000] {
            let f = Fields::new(actions);
            let mut counts = EconomyCounts::new(f, 3, 1 << 16);
            assert_eq!(counts.outcomes.is_some(), actions <= 31);
            let (mut flat, mut direct) = (tally(actions), tally(actions));
            for i in 0..500u32 {
                let (s, h, d) = (
                    i % (actions + 1),
                    i % 3 % (actions + 1),
                    i * 7 % (actions + 1),
                );
                let (earned, spent) = (i * 5 % (2 * actions + 1), i % (2 * actions + 1));
                let outcome = u64::from(s) * f.outcome(true, false, false)
                    + u64::from(h) * f.outcome(false, true, false)
                    + u64::from(d) * f.outcome(false, false, true);
                let points = u64::from(f.points(earned, spent));
                counts.count(outcome, points, &mut flat);
                direct.scene.successes.add(i64::from(s), 1);
                direct.scene.heroics.add(i64::from(h), 1);
                direct.scene.plot_points.add(i64::from(earned), 1);
                let e = &mut direct.economy;
                e.points_spent.add(i64::from(spent), 1);
                e.final_points
                    .add(3 + i64::from(earned) - i64::from(spent), 1);
                e.doom_spent.add(i64::from(d), 1);
                e.gm_spent += u64::from(d > 0);
            }
            counts.add_to(&mut flat);
            assert_eq!(flat, direct, "{actions} actions");
        }
    }
}
