//! A contested action (docs/storytelling.md, "Contested actions"): the
//! roller's pool against the opponent's, each rolled once by the
//! single-roll rules; more successes wins, a dramatic failure counts as no
//! successes, and `contest_ties` says who wins equal successes (the
//! opponent, the roller, or both roll again until one side has more).
//!
//! The exact method takes the two single-roll distributions and convolves
//! them into the distribution of the difference; a rerolled tie is its
//! limit, P(win) / (1 - P(tie)). The Monte Carlo method rolls both pools
//! through the one scorer ([`Rules::roll`]) and, for `reroll`, literally
//! rolls both again while they tie.

use serde_json::{json, Map, Value};

use crate::distribution::{hist_rows, nearer_tail, DistRow, Evaluation, Hist, Metric};
use crate::engine::cost::{self, Work};
use crate::engine::exact::{Budget, ExactError};
use crate::engine::monte_carlo::{self, Interrupted, McSettings, Sampler};
use crate::engine::rng::{DiceRng, DieRoller};
use crate::options::Choice;
use crate::systems::SystemCase;

use super::keys::{
    ContestTies, CHANCE_DIE_EXPLODES, CONTEST_TIES, VS_AGAIN, VS_DICE, VS_MODIFIER, VS_ROTE,
};
use super::metrics as m;
use super::rules::{Roll, Rules, SIDES};
use super::stream::D10s;
use super::{record, StHists, StorytellingCase};

/// A resolved contested action: the roller's single-roll case and the
/// opponent's pool and rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContestCase {
    pub base: StorytellingCase,
    pub vs_dice: i64,
    pub vs_modifier: i64,
    /// The opponent's roll: the roller's `target` and chance-die rule, its
    /// own pool, `again` and rote.
    pub opponent: Rules,
    pub ties: ContestTies,
}

/// The outcome histograms of contests: counts in Monte Carlo,
/// probabilities when exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContestHists<W> {
    /// Roller's successes less the opponent's, on the first pair of rolls.
    pub net: Hist<W>,
    /// Contests the roller wins under `contest_ties`.
    pub win: W,
}

/// Pairs of rolls a Monte Carlo `reroll` contest makes at most before it
/// calls the contest for the opponent. Never reached: a tie is at most
/// about 82% likely (two chance dice), and 0.82 to this power is zero in
/// any float.
const MAX_REROLLS: u32 = 100_000;

impl ContestCase {
    /// The opponent's roll as a single-roll case.
    fn opponent_case(&self) -> StorytellingCase {
        StorytellingCase {
            dice: self.vs_dice,
            modifier: self.vs_modifier,
            rules: self.opponent,
            need: 1,
            exceptional: 5,
        }
    }

    /// The contest's metrics (docs/storytelling.md) from its histograms;
    /// one function for every method.
    pub fn metrics(&self, h: &ContestHists<f64>) -> Vec<Metric> {
        vec![
            Metric::probability(m::P_WIN.name, h.win),
            Metric::probability(m::P_TIE.name, h.net.get(0)),
            Metric::mean_of(m::MEAN_NET_SUCCESSES.name, &h.net, 1.0),
        ]
    }

    /// The `net_successes` rows, lowest first.
    pub fn rows(&self, h: &ContestHists<f64>) -> Vec<DistRow> {
        hist_rows(m::NET_SUCCESSES.name, &h.net, |k| k.to_string())
    }

    fn evaluation(
        &self,
        single: &StHists<f64>,
        h: &ContestHists<f64>,
        dropped: Option<f64>,
    ) -> Evaluation {
        let mut metrics = self.base.metrics(single);
        metrics.extend(self.metrics(h));
        let mut rows = self.base.rows(single);
        rows.extend(self.rows(h));
        Evaluation {
            metrics,
            rows,
            dropped_mass: dropped,
        }
    }

    /// P(the roller wins) from the distribution of the difference, under
    /// `contest_ties`; `held` is the probability the outcomes hold.
    pub fn win_of(ties: ContestTies, net: &Hist<f64>, held: f64) -> f64 {
        let above = nearer_tail(net.mass_where(|k| k > 0), net.mass_where(|k| k <= 0), held);
        let tie = net.get(0);
        match ties {
            ContestTies::Opponent => above,
            ContestTies::Roller => nearer_tail(above + tie, net.mass_where(|k| k < 0), held),
            // Rolling again until one side has more: the first pair that
            // differs is the roller's with P(above) / (1 - P(tie)).
            ContestTies::Reroll => above / (held - tie),
        }
    }

    /// The exact histograms of the roller's single roll and of the contest,
    /// and the probability they leave out (either roll's truncated tail).
    pub fn exact_hists(
        &self,
        budget: &mut Budget,
    ) -> Result<(StHists<f64>, ContestHists<f64>, f64), ExactError> {
        let what = || {
            format!(
                "a contest of {} dice against {}",
                self.base.rules.pool, self.opponent.pool
            )
        };
        // Both pools sized before either is convolved: each alone may fit
        // what the other then leaves too little of.
        let opponent = self.opponent_case();
        let tight_from = budget.remaining() / 4;
        let both = self
            .base
            .predicted_nanos(tight_from)
            .saturating_add(opponent.predicted_nanos(tight_from));
        if !budget.allows(both) {
            return Err(ExactError::TooLarge(what()));
        }
        let (mine, my_dropped) = self.base.exact_hists(budget)?;
        let (theirs, their_dropped) = opponent.exact_hists(budget)?;
        let products =
            mine.successes.iter().count() as u64 * theirs.successes.iter().count() as u64;
        budget.spend(Work::MultiplyAdd.cost(products), &what)?;
        let mut net = Hist::default();
        for (a, p) in mine.successes.iter() {
            for (b, q) in theirs.successes.iter() {
                net.add(a - b, p * q);
            }
        }
        let dropped = my_dropped + their_dropped - my_dropped * their_dropped;
        let win = Self::win_of(self.ties, &net, 1.0 - dropped);
        Ok((mine, ContestHists { net, win }, dropped))
    }

    /// The number of dice each of `trials` contests of one Monte Carlo
    /// block (block 0 of `seed`) throws, both pools and any rerolled
    /// pairs, for the benches' generator floor (a die roller per contest,
    /// as the trials have).
    #[doc(hidden)]
    pub fn floor_dice(&self, trials: u64, seed: u64) -> Vec<u32> {
        let sampler = ContestSampler { case: *self };
        let mut tally = sampler.new_tally();
        let (mine, theirs) = (self.base.rules, self.opponent);
        let mut rng = crate::engine::rng::block_rng(seed, 0);
        (0..trials)
            .map(|_| {
                let mut roller = DieRoller::new(&mut rng);
                let mut thrown = 0;
                let mut faces = || {
                    thrown += 1;
                    Some(roller.roll(u32::from(SIDES)) as u8)
                };
                sampler.play(
                    &mut || {
                        let a = mine.roll(&mut faces).expect("random faces never run out");
                        let b = theirs.roll(&mut faces).expect("random faces never run out");
                        (a, b)
                    },
                    &mut tally,
                );
                thrown
            })
            .collect()
    }

    /// Monte Carlo histograms: each trial one contest rolled die by die;
    /// the roller's first roll is also a sample of the single roll.
    pub fn monte_carlo_hists(
        &self,
        settings: &McSettings<'_>,
    ) -> Result<(StHists<f64>, ContestHists<f64>), Interrupted> {
        let (single, contest) = monte_carlo::run(&ContestSampler { case: *self }, settings)?;
        let n = settings.trials as f64;
        Ok((
            single.to_probabilities(settings.trials),
            ContestHists {
                net: contest.net.to_probabilities(settings.trials),
                win: contest.win as f64 / n,
            },
        ))
    }
}

/// The Monte Carlo trial: both pools rolled with real dice.
struct ContestSampler {
    case: ContestCase,
}

impl ContestSampler {
    /// One contest, each pair of rolls (the roller's, the opponent's) made
    /// by `pair`, counted into the tally: the roller's first roll is also a
    /// sample of the single roll.
    #[inline(always)]
    fn play(
        &self,
        pair: &mut impl FnMut() -> (Roll, Roll),
        (single, contest): &mut (StHists<u64>, ContestHists<u64>),
    ) {
        let (a, b) = pair();
        record(a, 1u64, single);
        let net = i64::from(a.successes) - i64::from(b.successes);
        contest.net.add(net, 1);
        let won = match self.case.ties {
            ContestTies::Opponent => net > 0,
            ContestTies::Roller => net >= 0,
            ContestTies::Reroll => {
                let mut net = net;
                let mut pairs = 1;
                while net == 0 && pairs < MAX_REROLLS {
                    let (a, b) = pair();
                    net = i64::from(a.successes) - i64::from(b.successes);
                    pairs += 1;
                }
                net > 0
            }
        };
        contest.win += u64::from(won);
    }
}

/// Successes of one pool a block's array keeps apart
/// ([`ContestSampler::block`]): up to a little past the pool's dice.
fn pair_width(pool: i64) -> usize {
    pool as usize + 16
}

impl Sampler for ContestSampler {
    type Tally = (StHists<u64>, ContestHists<u64>);

    fn new_tally(&self) -> Self::Tally {
        let mine = self.case.base.rules.pool.clamp(1, 4096);
        let theirs = self.case.opponent.pool.clamp(1, 4096);
        let single = StHists {
            successes: Hist::with_range(0, 2 * mine + 4),
            dramatic: 0,
            dropped: 0.0,
        };
        let contest = ContestHists {
            net: Hist::with_range(-2 * theirs - 4, 2 * mine + 4),
            win: 0,
        };
        (single, contest)
    }

    #[inline]
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally) {
        let (mine, theirs) = (&self.case.base.rules, &self.case.opponent);
        let mut roller = DieRoller::new(rng);
        let mut faces = || Some(roller.roll(u32::from(SIDES)) as u8);
        self.play(
            &mut || {
                let a = mine.roll(&mut faces).expect("random faces never run out");
                let b = theirs.roll(&mut faces).expect("random faces never run out");
                (a, b)
            },
            tally,
        );
    }

    /// Two plain pools ([`super::sample::fast`]) under the same target and
    /// `again` rolled from the block's draws in bulk ([`D10s`]): the same
    /// faces, pool after pool.
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        let (mine, theirs) = (self.case.base.rules, self.case.opponent);
        let alike = (mine.target, mine.again) == (theirs.target, theirs.again);
        if !(alike && super::sample::fast(&mine) && super::sample::fast(&theirs)) {
            for _ in 0..trials {
                self.trial(rng, tally);
            }
            return;
        }
        let (single, contest) = tally;
        // Counted here, one increment a trial, and read into the
        // histograms once a block: the first pair's successes as
        // `a * wide_b + b`. A pair past the widths (a roll of very many
        // successes) goes to the histograms at once.
        let (wide_a, wide_b) = (pair_width(mine.pool), pair_width(theirs.pool));
        let mut counts = vec![0u32; wide_a * wide_b];
        let reroll = self.case.ties == ContestTies::Reroll;
        // Won at a net of at least this: 1 when the opponent takes ties
        // (a rerolled tie is settled below), 0 when the roller does.
        let wins_at = i64::from(self.case.ties != ContestTies::Roller);
        let mut draws = D10s::new(rng, &mine);
        let mut won = 0u64;
        for _ in 0..trials {
            let a = draws.pool(mine.pool);
            let b = draws.pool(theirs.pool);
            let mut net = i64::from(a) - i64::from(b);
            if reroll && net == 0 {
                let mut pairs = 1;
                while net == 0 && pairs < MAX_REROLLS {
                    let a = draws.pool(mine.pool);
                    net = i64::from(a) - i64::from(draws.pool(theirs.pool));
                    pairs += 1;
                }
            }
            draws.next_trial();
            won += u64::from(net >= wins_at);
            let (a, b) = (a as usize, b as usize);
            if a < wide_a && b < wide_b {
                counts[a * wide_b + b] += 1;
            } else {
                single.successes.add(a as i64, 1);
                contest.net.add(a as i64 - b as i64, 1);
            }
        }
        contest.win += won;
        for (cell, &count) in counts.iter().enumerate() {
            if count > 0 {
                let (a, b) = ((cell / wide_b) as i64, (cell % wide_b) as i64);
                single.successes.add(a, u64::from(count));
                contest.net.add(a - b, u64::from(count));
            }
        }
    }

    fn merge(&self, into: &mut Self::Tally, other: Self::Tally) {
        into.0.successes.merge(&other.0.successes);
        into.0.dramatic += other.0.dramatic;
        into.1.net.merge(&other.1.net);
        into.1.win += other.1.win;
    }
}

impl SystemCase for ContestCase {
    fn system(&self) -> crate::systems::System {
        crate::systems::System::Storytelling
    }

    fn inputs(&self) -> Map<String, Value> {
        let mut inputs = self.base.inputs();
        let them = &self.opponent;
        // docs/reports.md: options that do not apply are absent. The chance
        // die's reroll applies when either side rolls one.
        if them.is_chance() && them.again != 0 && !inputs.contains_key(CHANCE_DIE_EXPLODES.name) {
            inputs.insert(
                CHANCE_DIE_EXPLODES.name.into(),
                json!(them.chance_die_explodes),
            );
        }
        inputs.insert(VS_DICE.name.into(), json!(self.vs_dice));
        inputs.insert(VS_MODIFIER.name.into(), json!(self.vs_modifier));
        inputs.insert(VS_AGAIN.name.into(), json!(them.again));
        if !them.is_chance() {
            inputs.insert(VS_ROTE.name.into(), json!(them.rote));
        }
        inputs.insert(CONTEST_TIES.name.into(), json!(self.ties.name()));
        inputs
    }

    /// Both pools, once.
    fn mc_trial_nanos(&self) -> f64 {
        let dice = (self.base.rules.pool + self.opponent.pool) as f64 * 1.1;
        cost::mc_trial_nanos(dice, 1.0, cost::MC_ROLL_NANOS)
    }

    fn exact(&self, budget: &mut Budget) -> Result<Evaluation, ExactError> {
        let (single, contest, dropped) = self.exact_hists(budget)?;
        Ok(self.evaluation(&single, &contest, Some(dropped)))
    }

    fn monte_carlo(&self, settings: &McSettings<'_>) -> Result<Evaluation, Interrupted> {
        let (single, contest) = self.monte_carlo_hists(settings)?;
        Ok(self.evaluation(&single, &contest, None))
    }

    /// docs/storytelling.md: "dice=5 vs 4" when `dice` and `vs_dice` are
    /// swept; a modifier other than 0 shows with the roller's dice.
    fn sweep_name(&self, swept: &[String]) -> Option<String> {
        let has = |k: &str| swept.iter().any(|s| s == k);
        if !(has(super::keys::DICE.name) && has(VS_DICE.name)) {
            return None;
        }
        let modifier = match self.base.modifier {
            0 => String::new(),
            m => format!(", modifier={m}"),
        };
        Some(format!(
            "dice={}{modifier} vs {}",
            self.base.dice, self.vs_dice
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::monte_carlo::block_and_one_at_a_time;

    /// A block of `trials` contests counts what the same contests played
    /// one at a time count, from the block generator `seed`.
    fn assert_block_plays_as_trials(
        mine: Rules,
        theirs: Rules,
        ties: ContestTies,
        trials: u64,
        seed: (u64, u64),
    ) {
        let base = StorytellingCase::plain(mine);
        let sampler = ContestSampler {
            case: ContestCase {
                base,
                vs_dice: theirs.pool,
                vs_modifier: 0,
                opponent: theirs,
                ties,
            },
        };
        let (block, one_at_a_time) = block_and_one_at_a_time(&sampler, trials, seed);
        assert_eq!(block, one_at_a_time, "{mine:?} vs {theirs:?}, {ties:?}");
    }

    /// A block rolled from the draws in bulk counts what the same block
    /// counts played contest by contest through [`Rules::roll`], for each
    /// way of settling ties (rerolled pairs included), and for opponents
    /// under other rules, which the trial plays.
    #[test]
    fn the_bulk_block_is_the_trial_by_trial_block() {
        let rules = |pool, again| Rules {
            pool,
            again,
            ..Rules::default()
        };
        for (mine, theirs) in [
            (rules(5, 10), rules(4, 10)),
            (rules(1, 8), rules(2, 8)),
            (rules(3, 10), rules(3, 9)),
            (rules(2, 10), rules(0, 10)),
        ] {
            for ties in [
                ContestTies::Opponent,
                ContestTies::Roller,
                ContestTies::Reroll,
            ] {
                assert_block_plays_as_trials(mine, theirs, ties, 5_000, (6, 1));
            }
        }
    }

    /// The block's flat counts give exactly the histograms of the same
    /// block played one contest at a time, for pools inside and past the
    /// stream's window, other targets and `again`s, and lopsided pools.
    #[test]
    fn the_flat_counts_are_the_one_at_a_time_counts() {
        let rules = |pool, target, again| Rules {
            pool,
            target,
            again,
            ..Rules::default()
        };
        for (mine, theirs) in [
            (rules(8, 8, 10), rules(9, 8, 10)),
            (rules(12, 7, 0), rules(7, 7, 0)),
            (rules(1, 6, 8), rules(30, 6, 8)),
            (rules(20, 9, 9), rules(1, 9, 9)),
        ] {
            for ties in [ContestTies::Opponent, ContestTies::Reroll] {
                assert_block_plays_as_trials(mine, theirs, ties, 3_000, (2, 7));
            }
        }
    }
}
