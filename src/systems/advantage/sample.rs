//! The Monte Carlo sampler of an advantage encounter: each trial is one
//! encounter, read through the rule's face tables over the counters' states.
//!
//! A roll's draws (the 2d6 face, then each holder's chance gain and GM
//! reduction, docs/advantage.md steps 6 and 7) never depend on the
//! counters, so every (state, face, chance draws) and what follows is one
//! entry of a transition table: a roll is its draws, then one look-up that
//! gives where the next roll reads and what this one adds to the counts,
//! with no branch on the dice. The draws are those of one encounter after
//! another (the same stream as the face-table trial), and one encounter's
//! look-ups overlap the next one's draws. Short encounters, whose tiers
//! roll by roll and counts fit one small array as a single number, go
//! through a roll-by-roll table instead (`codes`): a roll adds one entry,
//! an encounter ends in one increment.

use rand::distr::Bernoulli;
use rand::RngExt;

use super::rules::{count_step, flag_tier, RollKind};
use super::states::{Counters, StateSpace};
use super::{AdvantageCase, AdvantageHists, COUNTS};
use crate::distribution::Hist;
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{self, DiceRng};

mod codes;

use codes::{roll_key, Chance};

impl AdvantageCase {
    /// Monte Carlo histograms (probabilities): each trial one encounter.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<AdvantageHists<f64>, Interrupted> {
        let tally = monte_carlo::run(&self.sampler(), settings)?;
        Ok(tally.to_probabilities(settings.trials))
    }

    fn sampler(&self) -> AdvantageSampler<'_> {
        let bernoulli =
            |p: f64| (p > 0.0).then(|| Bernoulli::new(p).expect("a probability validated to 0..1"));
        let space = StateSpace::new(self);
        let kinds: Vec<RollKind> = (0..self.rolls as usize)
            .map(|roll| self.roll_kind(roll))
            .collect();
        let mut distinct: Vec<RollKind> = Vec::new();
        for kind in &kinds {
            if !distinct.contains(kind) {
                distinct.push(*kind);
            }
        }
        let mut sampler = AdvantageSampler {
            case: self,
            table_of: kinds
                .iter()
                .map(|kind| distinct.iter().position(|d| d == kind).unwrap_or(0))
                .collect(),
            tables: distinct
                .iter()
                .map(|kind| (self.face_table(&space, *kind), self.chance_holders(*kind)))
                .collect(),
            space,
            gain: bernoulli(self.gain_chance),
            reduce: bernoulli(self.gm_reduce_chance),
            chances: [Chance::Never; 2],
            transitions: None,
            codes: None,
        };
        sampler.chances = [Chance::of(sampler.gain), Chance::of(sampler.reduce)];
        sampler.codes = codes::Codes::new(&sampler);
        if sampler.codes.is_none() {
            sampler.transitions = Transitions::new(&sampler);
        }
        sampler
    }
}

/// The Monte Carlo trial: one encounter, read through the face tables.
struct AdvantageSampler<'a> {
    case: &'a AdvantageCase,
    space: StateSpace,
    /// Per roll, its table in `tables`.
    table_of: Vec<usize>,
    /// Per kind of roll (whose, and whether last): the
    /// [`AdvantageCase::face_table`] and the counters that draw the chances.
    tables: Vec<(FaceTable, std::ops::Range<usize>)>,
    gain: Option<Bernoulli>,
    reduce: Option<Bernoulli>,
    /// The gain's and the reduction's draws, as the tables' paths make them.
    chances: [Chance; 2],
    /// The transition table, unless it would be too large or the
    /// encounters are counted as codes.
    transitions: Option<Transitions>,
    /// Short encounters' roll-by-roll table, counted as one code each.
    codes: Option<codes::Codes>,
}

/// Most entries of the transition table (4 bytes each): past it,
/// encounters are played through the face tables.
const MAX_TRANSITIONS: usize = 1 << 20;

/// Most bits of an encounter's counts taken together (all but the strong
/// tier's, which is the rolls less the other two) for a block to count
/// whole encounters in one flat array of `2^bits` cells (256 KB at most);
/// past it, each count goes into its histogram as the encounter ends.
const JOINT_BITS: u32 = 16;

/// Every roll kind's (state, face, chance draws) and what follows, in one
/// table: the next state's row and the roll's flags, packed `row << 8 |
/// flags`. A state's row starts at `state * stride` (the same stride for
/// every kind: 36 faces times the chance draws, as many for every kind),
/// so an entry already holds where the next roll reads; a roll's key is
/// `face << bits | draws`, one bit per chance drawn (each holder's gain,
/// then its reduction; a chance that draws nothing leaves its bit clear),
/// and its entry is at `offset + row + key`.
struct Transitions {
    table: Vec<u32>,
    /// Per roll of an encounter, where its kind's rows start.
    offsets: Vec<u32>,
    /// Counters drawing the chances after each roll but the last: 1 or 2,
    /// the same for every kind (each key has `2 * holders` chance bits).
    holders: usize,
    /// Per flags (5 bits), what the roll adds to the per-encounter counts,
    /// `width` bits per count, in the order of [`FIELDS`].
    increments: [u64; 32],
    /// Bits of each count: enough for the rolls times the most a roll adds.
    width: u32,
    /// Whether a block counts whole encounters in one flat array (the
    /// strong tier left out of the increments), see [`JOINT_BITS`].
    joint: bool,
}

impl Transitions {
    fn new(sampler: &AdvantageSampler<'_>) -> Option<Transitions> {
        let states = sampler.space.len();
        let holders = sampler.tables.first()?.1.len();
        if !(1..=2).contains(&holders) || sampler.tables.iter().any(|t| t.1.len() != holders) {
            return None;
        }
        let bits = 2 * holders as u32;
        let stride = 36usize << bits;
        let [gain, reduce] = sampler.chances;
        let entries = sampler.tables.len() * states * stride;
        if entries > MAX_TRANSITIONS || states * stride >= 1 << 24 {
            return None;
        }
        let case = sampler.case;
        let mut table = vec![0u32; entries];
        for (kind, (faces, holders)) in sampler.tables.iter().enumerate() {
            let rows = &mut table[kind * states * stride..(kind + 1) * states * stride];
            for (row, faces) in rows.chunks_exact_mut(stride).zip(faces) {
                for (face, &(counters, flags)) in faces.iter().enumerate() {
                    // Flags past 5 bits, or a tier past strong, would not
                    // fit the increments.
                    if flags >= 32 || flag_tier(flags) > 2 {
                        return None;
                    }
                    for draws in 0..1u32 << bits {
                        let mut after = counters;
                        for (i, holder) in holders.clone().enumerate() {
                            let gained = gain.happened((draws >> (2 * i)) & 1 == 1);
                            let reduced = reduce.happened((draws >> (2 * i + 1)) & 1 == 1);
                            after[holder] = case.after_chances(after[holder], gained, reduced);
                        }
                        let next = sampler.space.index(after) * stride;
                        row[(face << bits) | draws as usize] =
                            ((next as u32) << 8) | u32::from(flags);
                    }
                }
            }
        }
        let n = case.rolls as usize;
        let offsets = sampler
            .table_of
            .iter()
            .map(|&kind| (kind * states * stride) as u32)
            .collect();
        // The most a count can reach: the rolls times the most any roll
        // adds to any count.
        let most_step = table
            .iter()
            .flat_map(|&entry| (0..COUNTS).map(move |k| count_step(entry as u8, k)))
            .max()
            .unwrap_or(1);
        let top = n as u64 * most_step.max(1) as u64;
        let width = u64::BITS - top.leading_zeros();
        let joint = 4 * width <= JOINT_BITS;
        let fields = if joint { COUNTS - 1 } else { COUNTS };
        let increments = std::array::from_fn(|flags| {
            FIELDS[..fields]
                .iter()
                .enumerate()
                .map(|(j, &k)| (count_step(flags as u8, k) as u64) << (j as u32 * width))
                .sum()
        });
        Some(Transitions {
            table,
            offsets,
            holders,
            increments,
            width,
            joint,
        })
    }
}

impl AdvantageSampler<'_> {
    /// A block's encounters through the transition table, each roll's
    /// draws read as soon as drawn: one look-up a roll, the counts summed
    /// in one word. Nothing waits on a branch that the dice decide, and
    /// one encounter's look-ups overlap the next one's draws.
    fn encounters(&self, rng: &mut DiceRng, trials: u64, tally: &mut AdvantageHists<u64>) {
        let t = self.transitions.as_ref().expect("only with a table");
        let [gain, reduce] = self.chances;
        match (t.holders, gain.drawn(), reduce.drawn()) {
            (1, false, false) => self.encounters_of::<1, false, false>(t, rng, trials, tally),
            (1, false, true) => self.encounters_of::<1, false, true>(t, rng, trials, tally),
            (1, true, false) => self.encounters_of::<1, true, false>(t, rng, trials, tally),
            (1, true, true) => self.encounters_of::<1, true, true>(t, rng, trials, tally),
            (_, false, false) => self.encounters_of::<2, false, false>(t, rng, trials, tally),
            (_, false, true) => self.encounters_of::<2, false, true>(t, rng, trials, tally),
            (_, true, false) => self.encounters_of::<2, true, false>(t, rng, trials, tally),
            (_, true, true) => self.encounters_of::<2, true, true>(t, rng, trials, tally),
        }
    }

    /// [`Self::encounters`] with `HOLDERS` chance holders, drawing the
    /// gains if `GAIN` and the reductions if `REDUCE`: known when compiled,
    /// so a roll's draws are a straight run of compares.
    #[inline(always)]
    fn encounters_of<const HOLDERS: usize, const GAIN: bool, const REDUCE: bool>(
        &self,
        t: &Transitions,
        rng: &mut DiceRng,
        trials: u64,
        tally: &mut AdvantageHists<u64>,
    ) {
        let (width, mask) = (t.width, (1u64 << t.width) - 1);
        let mut joint = vec![0u32; if t.joint { 1 << (4 * width) } else { 0 }];
        let [gain, reduce] = self.chances.map(Chance::threshold);
        let (&last, offsets) = t.offsets.split_last().expect("at least one roll");
        // Per roll, the encounters of each tier: four cells, so that the
        // two bits of the flags' tier index them without a check.
        let mut tier_by_roll = vec![[0u64; 4]; t.offsets.len()];
        let (last_tiers, tiers_before) = tier_by_roll.split_last_mut().expect("at least one roll");
        for _ in 0..trials {
            let mut row = 0usize;
            let mut counts = 0u64;
            for (&offset, tiers) in offsets.iter().zip(tiers_before.iter_mut()) {
                let key = roll_key::<HOLDERS, GAIN, REDUCE>(rng, gain, reduce);
                let entry = t.table[offset as usize + row + key];
                row = (entry >> 8) as usize;
                tiers[usize::from(entry as u8 & 3)] += 1;
                counts += t.increments[usize::from(entry as u8 & 31)];
            }
            // The last roll: no chance follows it.
            let face = rng.random_range(0..36usize);
            let entry = t.table[last as usize + row + (face << (2 * HOLDERS))];
            last_tiers[usize::from(entry as u8 & 3)] += 1;
            counts += t.increments[usize::from(entry as u8 & 31)];
            if t.joint {
                joint[counts as usize] += 1;
            } else {
                for (j, &k) in FIELDS.iter().enumerate() {
                    let count = (counts >> (j as u32 * width)) & mask;
                    tally.per_encounter[k].add(count as i64, 1);
                }
            }
        }
        for (into, tiers) in tally.tier_by_roll.iter_mut().zip(&tier_by_roll) {
            for (a, b) in into.iter_mut().zip(tiers) {
                *a += b;
            }
        }
        // Each cell is one set of counts; the strong tier's is the rolls
        // less the miss and weak ones.
        let rolls = i64::from(self.case.rolls);
        for (cell, &weight) in joint.iter().enumerate() {
            if weight == 0 {
                continue;
            }
            let field = |j: u32| ((cell as u64 >> (j * width)) & mask) as i64;
            let (miss, weak) = (field(0), field(1));
            for (j, &k) in FIELDS[..COUNTS - 1].iter().enumerate() {
                tally.per_encounter[k].add(field(j as u32), u64::from(weight));
            }
            tally.per_encounter[FIELDS[COUNTS - 1]].add(rolls - miss - weak, u64::from(weight));
        }
    }
}

/// The per-encounter counts (see `COUNTS`) in the order the increments
/// pack them: the miss and weak tiers, the uses, the misses turned strong,
/// and last the strong tier, which a joint count leaves out.
const FIELDS: [usize; COUNTS] = [0, 1, 3, 4, 2];

/// Per state, per face of 2d6: the counters after step 5 and the flags.
type FaceTable = Vec<[(Counters, u8); 36]>;

impl Sampler for AdvantageSampler<'_> {
    type Tally = AdvantageHists<u64>;

    fn new_tally(&self) -> Self::Tally {
        let n = self.case.rolls as usize;
        let top = (n * usize::from(self.case.counters)) as i64;
        AdvantageHists {
            per_encounter: std::array::from_fn(|_| Hist::with_range(0, top)),
            tier_by_roll: vec![[0; 3]; n],
        }
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let n = self.case.rolls as usize;
        let mut state = 0usize;
        let mut counts = [0i64; COUNTS];
        for (roll, tiers) in tally.tier_by_roll.iter_mut().enumerate() {
            let (table, holders) = &self.tables[self.table_of[roll]];
            let (mut counters, flags) = table[state][rng.random_range(0..36usize)];
            tiers[flag_tier(flags)] += 1;
            for (k, count) in counts.iter_mut().enumerate() {
                *count += count_step(flags, k) as i64;
            }
            if roll + 1 == n {
                break;
            }
            for holder in holders.clone() {
                let gained = self.gain.is_some_and(|b| rng.sample(b));
                let reduced = self.reduce.is_some_and(|b| rng.sample(b));
                counters[holder] = self.case.after_chances(counters[holder], gained, reduced);
            }
            state = self.space.index(counters);
        }
        for (hist, count) in tally.per_encounter.iter_mut().zip(counts) {
            hist.add(count, 1);
        }
    }

    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        if let Some(codes) = &self.codes {
            rng::with_local(rng, |rng| codes.block(rng, trials, tally));
        } else if self.transitions.is_some() {
            rng::with_local(rng, |rng| self.encounters(rng, trials, tally));
        } else {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        for (a, b) in into.per_encounter.iter_mut().zip(&other.per_encounter) {
            a.merge(b);
        }
        for (a, b) in into.tier_by_roll.iter_mut().zip(&other.tier_by_roll) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::block_rng;
    use crate::systems::advantage::Policy;

    /// The code array and the transition table count what the face-table
    /// trial counts, one encounter after another from the same stream: the
    /// tables change nothing, the stream included.
    #[test]
    fn the_tables_count_what_the_face_table_trial_counts() {
        let base = AdvantageCase {
            die: 8,
            rolls: 6,
            policy: Policy::Greedy,
            gain_on: [1, 0, 0],
            gain_chance: 0.5,
            gm_reduce_chance: 0.1,
            ..AdvantageCase::default()
        };
        let case = |rolls, counters, party, share| AdvantageCase {
            rolls,
            counters,
            party,
            share,
            ..base.clone()
        };
        // Each case, and whether its encounters are counted as codes (past
        // a short encounter's array or table, they are not).
        let cases = [
            (base.clone(), true),
            (case(5, 2, 1, false), true),
            (
                AdvantageCase {
                    die: 6,
                    ..case(5, 1, 3, true)
                },
                true,
            ),
            (
                AdvantageCase {
                    policy: Policy::ThresholdOrLast(5),
                    gm_reduce_chance: 0.0,
                    ..case(6, 1, 2, false)
                },
                true,
            ),
            (
                AdvantageCase {
                    gain_chance: 0.0,
                    ..case(1, 1, 1, false)
                },
                true,
            ),
            // Chances of 1 draw nothing, as their Bernoulli does.
            (
                AdvantageCase {
                    gain_chance: 1.0,
                    gm_reduce_chance: 1.0,
                    ..case(4, 2, 1, false)
                },
                true,
            ),
            (
                AdvantageCase {
                    gain_chance: 1.0,
                    gm_reduce_chance: 0.3,
                    ..base.clone()
                },
                true,
            ),
            (
                AdvantageCase {
                    policy: Policy::Never,
                    ..base.clone()
                },
                true,
            ),
            (case(7, 1, 1, false), false),
            (case(6, 2, 1, false), false),
            (case(6, 1, 3, true), false),
            // Counts too wide for one flat array go to the histograms.
            (case(20, 1, 1, false), false),
        ];
        let trials = 2_000;
        for (case, coded) in &cases {
            let mut sampler = case.sampler();
            assert_eq!(sampler.codes.is_some(), *coded, "{case:?}");
            let mut expected = sampler.new_tally();
            let mut rng = block_rng(9, 2);
            for _ in 0..trials {
                sampler.trial(&mut rng, &mut expected);
            }
            let next = rand::Rng::next_u64(&mut rng);
            let mut ways = Vec::new();
            if sampler.codes.is_some() {
                ways.push("codes");
            }
            ways.push("transitions");
            for way in ways {
                if way == "transitions" {
                    sampler.codes = None;
                    sampler.transitions = Transitions::new(&sampler);
                    let transitions = sampler.transitions.as_ref().unwrap();
                    assert_eq!(transitions.joint, case.rolls < 16, "{case:?}");
                }
                let mut tabled = sampler.new_tally();
                let mut tabled_rng = block_rng(9, 2);
                sampler.block(&mut tabled_rng, trials, &mut tabled);
                assert_eq!(tabled, expected, "{way}: {case:?}");
                // Both left the stream at the same place.
                assert_eq!(rand::Rng::next_u64(&mut tabled_rng), next, "{way}");
            }
        }
    }
}
