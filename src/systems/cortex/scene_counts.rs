//! The flat counts of a block of doom-pool scenes ([`super::scene_sample`]):
//! a scene's successes, heroic successes and plot points are one cell of
//! a small array, and the doom pool it finished with, told by the dice the
//! scene added to the starting pool, one cell of another, so that a scene
//! costs two increments instead of three histogram adds and a hash-map
//! insert. The histograms and the map are filled from the arrays once a
//! block, with the very counts the scene-by-scene tally would have.

use super::scene::{dice_in, DoomKey, SceneHists};

/// What one scene came to, beside the actions it won (counted as it
/// plays): what the tallies count once a scene.
pub(super) struct Played {
    pub successes: u32,
    pub heroics: u32,
    pub plot_points: u32,
    /// Whether the GM ended the scene early.
    pub ended: bool,
    /// The doom pool it finished with.
    pub doom: DoomKey,
}

/// Most cells of the outcome array: up to 31 actions.
const MAX_OUTCOME_CELLS: usize = 1 << 15;
/// Most cells of the doom array: up to 15 actions. Past that the final
/// pools go to the map scene by scene, as before.
const MAX_DOOM_CELLS: usize = 1 << 16;

/// A block's counts, each scene one cell of each array.
pub(super) struct SceneCounts {
    /// The actions a scene plays, plus one: the radix of every digit
    /// (no count of a scene exceeds its actions).
    radix: usize,
    /// The doom pool a scene starts with.
    start: DoomKey,
    /// Per `(successes * radix + heroics) * radix + plot points`, the
    /// scenes.
    outcomes: Vec<u32>,
    /// Per doom pool a scene ran to the end with, the scenes: the pool
    /// read as the d12, d10, d8 and d6 it gained over `start` (a hitch
    /// never adds a d4), the d12s the most significant digit. `None`
    /// when the array would be too large.
    dooms: Option<Vec<u32>>,
    /// Scenes the GM ended early.
    ended: u64,
}

impl SceneCounts {
    /// The arrays of a block of `trials` scenes of `actions` from `start`,
    /// when the outcomes' array is small enough and each cell's count
    /// fits.
    pub(super) fn new(actions: u32, start: DoomKey, trials: u64) -> Option<SceneCounts> {
        let radix = actions as usize + 1;
        let cells = radix.checked_pow(3)?;
        if cells > MAX_OUTCOME_CELLS || trials > u64::from(u32::MAX) {
            return None;
        }
        let dooms = radix
            .checked_pow(4)
            .filter(|&cells| cells <= MAX_DOOM_CELLS)
            .map(|cells| vec![0; cells]);
        Some(SceneCounts {
            radix,
            start,
            outcomes: vec![0; cells],
            dooms,
            ended: 0,
        })
    }

    /// Counts one scene but the actions it won (counted as it played);
    /// its final pool goes straight to `tally` when there is no doom
    /// array.
    #[inline(always)]
    pub(super) fn count(&mut self, played: &Played, tally: &mut SceneHists<u64>) {
        let radix = self.radix;
        let cell = (played.successes as usize * radix + played.heroics as usize) * radix
            + played.plot_points as usize;
        self.outcomes[cell] += 1;
        if played.ended {
            self.ended += 1;
            return;
        }
        match &mut self.dooms {
            Some(dooms) => {
                let (doom, start) = (&played.doom, &self.start);
                let gained = |step: usize| (doom[step] - start[step]) as usize;
                let cell =
                    ((gained(4) * radix + gained(3)) * radix + gained(2)) * radix + gained(1);
                dooms[cell] += 1;
            }
            None => {
                *tally.final_doom.entry(played.doom).or_insert(0) += 1;
                tally.final_dice.add(dice_in(&played.doom) as i64, 1);
            }
        }
    }

    /// Adds the block's counts to `tally`: each histogram and the map get
    /// every count the scenes made, only those above zero (the map never
    /// held an empty pool, and the final dice's histogram spans the counts
    /// met).
    pub(super) fn add_to(self, tally: &mut SceneHists<u64>) {
        let radix = self.radix;
        for (cell, &n) in self.outcomes.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let n = u64::from(n);
            tally.plot_points.add((cell % radix) as i64, n);
            tally.heroics.add((cell / radix % radix) as i64, n);
            tally.successes.add((cell / radix / radix) as i64, n);
        }
        tally.ended += self.ended;
        for (cell, &n) in self.dooms.iter().flatten().enumerate() {
            if n == 0 {
                continue;
            }
            let mut doom = self.start;
            let mut rest = cell;
            for count in &mut doom[1..] {
                *count += (rest % radix) as u32;
                rest /= radix;
            }
            let n = u64::from(n);
            *tally.final_doom.entry(doom).or_insert(0) += n;
            tally.final_dice.add(dice_in(&doom) as i64, n);
        }
    }
}
