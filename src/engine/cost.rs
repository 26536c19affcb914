//! The exact engines' cost model, in one place: each kind of work an exact
//! method charges its [`super::exact::Budget`] for, with what one unit of it
//! costs on the target machine (release build, one core), so a budget is
//! predicted processor time and "about a second" is a second. The rates
//! are measured by `benches/budget.rs`, which times every engine on a few
//! sizes beside what this model predicts for them (docs/development.md,
//! "Exact budget"); the Monte Carlo samplers' cost per trial is modelled
//! here too ([`mc_trial_nanos`]), so `--method auto` can weigh the two.
//!
//! A chain engine cannot size its whole run before it starts (how many
//! states stay in play is what it computes), so it forecasts: after each
//! step, [`Forecast`] extrapolates the work still to come from the growth
//! of the work so far and refuses as soon as the prediction passes what is
//! left of the budget, long before the budget itself would run out.

use super::exact::{Budget, ExactError, INTERACTIVE_NANOS};

/// A kind of work an exact engine charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// One state x face update of a Cortex programme's hash map (the plain
    /// and `max-effect` programmes, the economy's hero dice).
    ProgrammeUpdate,
    /// One state x face update of the plot-point programme, whose states
    /// hold up to 15 dice (larger keys to hash and compare).
    PlotPointUpdate,
    /// The wait of one plot-point update per thousand states in play, as
    /// the programme's map outgrows the cache.
    PlotPointMiss,
    /// One multiply-add on dense vectors (a Storytelling pool's
    /// convolution, a contest's pairs of counts).
    MultiplyAdd,
    /// One entry of the hitch count's convolution, die by die (two
    /// multiply-adds and the entry's weights).
    HitchCell,
    /// One pair of two scored outcome lists tallied into a case's
    /// histograms (action against reaction).
    OutcomePair,
    /// One entry x face of a doom pool's table as a die is added to it
    /// (the scene's and the economy's pools met).
    DoomTableCell,
    /// One cell of the scene's fused count update, per hitch level.
    SceneCell,
    /// One cell of the economy scene's count update (a count vector's
    /// entry moved along one transition).
    EconomyCell,
    /// One state of a conflict stepped through a half exchange.
    ConflictState,
    /// One state x outcome move of an extended Storytelling action.
    ExtendedMove,
    /// One face of one state resolved while an advantage encounter builds
    /// its transition tables.
    EncounterResolve,
    /// One count cell an advantage encounter's move adds.
    EncounterCell,
}

impl Work {
    /// Every kind, in the order the docs' table lists them.
    pub const ALL: [Work; 13] = [
        Work::ProgrammeUpdate,
        Work::PlotPointUpdate,
        Work::PlotPointMiss,
        Work::MultiplyAdd,
        Work::HitchCell,
        Work::OutcomePair,
        Work::DoomTableCell,
        Work::SceneCell,
        Work::EconomyCell,
        Work::ConflictState,
        Work::ExtendedMove,
        Work::EncounterResolve,
        Work::EncounterCell,
    ];

    /// Picoseconds one unit takes (release build, one core of the target
    /// machine), measured by `benches/budget.rs`.
    pub const fn picos(self) -> u64 {
        match self {
            Work::ProgrammeUpdate => 52_000,
            Work::PlotPointUpdate => 45_000,
            Work::PlotPointMiss => 700,
            Work::MultiplyAdd => 420,
            Work::HitchCell => 950,
            Work::OutcomePair => 12_000,
            Work::DoomTableCell => 1_900,
            Work::SceneCell => 1_000,
            Work::EconomyCell => 1_300,
            Work::ConflictState => 134_000,
            Work::ExtendedMove => 6_100,
            Work::EncounterResolve => 18_300,
            Work::EncounterCell => 400,
        }
    }

    /// The kind's name in the docs and the benchmark's output.
    pub const fn name(self) -> &'static str {
        match self {
            Work::ProgrammeUpdate => "programme update",
            Work::PlotPointUpdate => "plot-point update",
            Work::PlotPointMiss => "plot-point miss",
            Work::MultiplyAdd => "multiply-add",
            Work::HitchCell => "hitch cell",
            Work::OutcomePair => "outcome pair",
            Work::DoomTableCell => "doom table cell",
            Work::SceneCell => "scene cell",
            Work::EconomyCell => "economy cell",
            Work::ConflictState => "conflict state",
            Work::ExtendedMove => "extended move",
            Work::EncounterResolve => "encounter face",
            Work::EncounterCell => "encounter cell",
        }
    }

    /// The predicted nanoseconds of `units` of this work (saturating, so a
    /// size past any budget stays past it).
    pub const fn nanos(self, units: u64) -> u64 {
        let picos = units.saturating_mul(self.picos());
        // Rounded up: any work at all costs something.
        picos.div_ceil(1000)
    }

    /// [`Work::nanos`] for work about to be done and charged: the units
    /// are added to this thread's [`tally`], which the calibration reads.
    pub fn cost(self, units: u64) -> u64 {
        TALLY.with(|t| {
            let mut counts = t.get();
            counts[self as usize] = counts[self as usize].saturating_add(units);
            t.set(counts);
        });
        self.nanos(units)
    }
}

thread_local! {
    /// Units of each kind priced on this thread since [`reset_tally`].
    static TALLY: std::cell::Cell<[u64; Work::ALL.len()]> =
        const { std::cell::Cell::new([0; Work::ALL.len()]) };
}

/// The units of each kind of work priced on this thread since the last
/// [`reset_tally`], in [`Work::ALL`]'s order: what a run counted (a
/// refused charge included), for the benchmark's fit and the tests.
pub fn tally() -> [u64; Work::ALL.len()] {
    TALLY.with(|t| t.get())
}

/// Starts this thread's [`tally`] afresh.
pub fn reset_tally() {
    TALLY.with(|t| t.set([0; Work::ALL.len()]));
}

/// A refusal is to be decided within this share of the interactive budget
/// (50 ms): the forecast refuses once the predicted total passes the
/// budget, which it sees long before.
pub const REFUSAL_NANOS: u64 = 50_000_000;

/// The steps of a run played so far and what they cost, to forecast the
/// rest: a chain's steps, or a programme's dice (each as long as its faces).
#[derive(Debug, Clone)]
pub struct Forecast {
    /// The run's whole length, in steps (or faces).
    length: f64,
    /// The budget spent when the run started.
    start: u64,
    /// After each step so far: the length played and the budget spent
    /// since the start.
    played: Vec<(f64, f64)>,
    /// The probability still in play after each step, for chains that end
    /// once little enough is left ([`Forecast::settling`]).
    in_play: Vec<f64>,
    /// Chains that stop once at most this much is in play.
    settles_below: Option<f64>,
    /// The steepest growth believed ([`MAX_POWER`], or 1 for a chain over
    /// a bounded set of states).
    max_power: f64,
    /// The share of the run after which a forecast past the budget
    /// refuses ([`TRUSTED_SHARE`] unless [`Forecast::trusted_from`]).
    trusted_share: f64,
}

/// The steepest growth the forecast believes: the whole run's work as a
/// power of the length played (a scene's is about 3.6; steeper slopes are
/// early noise, from a chain of one state that fans out).
const MAX_POWER: f64 = 5.0;

/// Steps a run plays before its forecast is trusted to refuse.
const MIN_STEPS: usize = 4;

/// A settling chain's end is read from its decay once less than this
/// much is in play.
const SETTLING_READ: f64 = 0.5;

/// The share of a run after which a forecast past the budget refuses ...
const TRUSTED_SHARE: f64 = 0.25;

/// ... and how far past it one must be to refuse before then.
const EARLY_MARGIN: u64 = 4;

impl Forecast {
    /// A forecast for a run of `length` steps (or faces) at most, starting
    /// with `budget` as it is.
    pub fn new(length: f64, budget: &Budget) -> Forecast {
        Forecast {
            length,
            start: budget.spent(),
            played: Vec::new(),
            in_play: Vec::new(),
            settles_below: None,
            max_power: MAX_POWER,
            trusted_share: TRUSTED_SHARE,
        }
    }

    /// For a chain whose growth slows down for longer than most: its
    /// forecast is trusted to refuse only from `share` of the run on (before
    /// that only one [`EARLY_MARGIN`] times past the budget refuses).
    pub fn trusted_from(mut self, share: f64) -> Forecast {
        self.trusted_share = share;
        self
    }

    /// For a chain that ends once at most `mass` is still in play: the
    /// forecast then also extrapolates that mass's decay to find the end.
    pub fn settling(mut self, mass: f64) -> Forecast {
        self.settles_below = Some(mass);
        self
    }

    /// For a chain over a bounded set of states (a fight, an extended
    /// action): the rest of it is forecast at the rate of its latest half,
    /// as its early lumps (the pools a fight meets first) do not recur.
    pub fn bounded(mut self) -> Forecast {
        self.max_power = 1.0;
        self
    }

    /// The work predicted for the whole run, in budget nanoseconds, from
    /// the steps played so far (`None` before there are enough of them).
    ///
    /// The run's cumulative work `C(x)` after a length `x` is taken to grow
    /// as a power of `x`, its exponent read from `C(x)` against `C` at the
    /// last step played by `x / 2`; the run ends at its whole length, or,
    /// for a settling chain, where the geometric decay of the probability
    /// in play reaches its mark.
    pub fn predicted_total(&self) -> Option<u64> {
        let done = self.played.len();
        if done < MIN_STEPS {
            return None;
        }
        let (x, now) = self.played[done - 1];
        let (half_x, before) = self
            .played
            .iter()
            .rev()
            .find(|p| p.0 <= x / 2.0)
            .copied()
            .unwrap_or(self.played[0]);
        let power = if now > 0.0 && before > 0.0 && x > half_x {
            ((now / before).ln() / (x / half_x).ln()).clamp(0.0, self.max_power)
        } else {
            // No work yet at the half: growth as steep as believed.
            self.max_power
        };
        let end = self.end()?.max(x);
        let total = if self.max_power <= 1.0 {
            // A bounded chain: the rest at the rate of the latest half.
            let rate = if x > half_x {
                (now - before) / (x - half_x)
            } else {
                now / x
            };
            now + rate.max(0.0) * (end - x)
        } else {
            now * (end / x).powf(power)
        };
        Some(if total >= u64::MAX as f64 {
            u64::MAX
        } else {
            total as u64
        })
    }

    /// The length after which the run is expected to end: its whole
    /// length, or for a settling chain where the probability in play, as
    /// it decays, reaches its mark (`None` while it is not yet decaying).
    fn end(&self) -> Option<f64> {
        let Some(mark) = self.settles_below else {
            return Some(self.length);
        };
        let done = self.in_play.len();
        if done < 2 {
            return None;
        }
        let half = done / 2;
        let (now, before) = (self.in_play[done - 1], self.in_play[half - 1]);
        if now <= mark {
            return Some(done as f64);
        }
        // Until most plays have ended the decay is not yet its own (no one
        // is taken out in the first exchanges).
        if !(before > now && now > 0.0 && now < SETTLING_READ) {
            return None;
        }
        // The mass in play decays by a factor exp(rate) a step.
        let rate = (now / before).ln() / (done - half) as f64;
        let more = ((mark / now).ln() / rate).ceil();
        (more.is_finite() && more >= 0.0).then(|| (done as f64 + more).min(self.length))
    }

    /// Records a chain's step just played (`in_play`: the probability
    /// still in play, asked only of a settling chain) and refuses, as
    /// `what`, once the work predicted for the rest of the run passes what
    /// is left of `budget`.
    pub fn step(
        &mut self,
        budget: &mut Budget,
        in_play: impl FnOnce() -> f64,
        what: &dyn Fn() -> String,
    ) -> Result<(), ExactError> {
        if self.settles_below.is_some() {
            self.in_play.push(in_play());
        }
        self.played_by(1.0, budget, what)
    }

    /// Records `length` more of the run played (a programme's die, as long
    /// as its faces) and refuses as [`Forecast::step`] does.
    pub fn played_by(
        &mut self,
        length: f64,
        budget: &mut Budget,
        what: &dyn Fn() -> String,
    ) -> Result<(), ExactError> {
        let x = self.played.last().map_or(0.0, |p| p.0) + length;
        let spent = budget.spent() - self.start;
        self.played.push((x, spent as f64));
        if x >= self.length {
            return Ok(());
        }
        let Some(total) = self.predicted_total() else {
            return Ok(());
        };
        let ahead = total.saturating_sub(spent);
        let remaining = budget.remaining();
        // Early on a chain fans out from one state faster than it grows
        // later (a scene's forecast runs up to about three times its total
        // in its first tenth), so the forecast alone refuses there only
        // what it puts far past the budget; from a quarter of the run on,
        // anything past it.
        let trusted = self.end().is_some_and(|end| x >= end * self.trusted_share);
        if trusted {
            budget.note_forecast(total);
        }
        if ahead > remaining.saturating_mul(EARLY_MARGIN) || (trusted && ahead > remaining) {
            return Err(ExactError::TooLarge(what()));
        }
        Ok(())
    }
}

/// Nanoseconds a Monte Carlo sampler spends drawing and counting one die
/// (measured by `benches/budget.rs`; docs/development.md, "Exact budget").
pub const MC_DIE_NANOS: f64 = 3.0;

/// Nanoseconds a sampler spends scoring one roll beyond its dice.
pub const MC_ROLL_NANOS: f64 = 6.0;

/// Exchanges an uncapped fight is taken to last when its Monte Carlo time
/// is predicted (most end within a few).
pub const MC_TYPICAL_EXCHANGES: f64 = 6.0;

/// Predicted nanoseconds of one Monte Carlo trial on one core, from what
/// it throws: `dice` dice per roll, `rolls` rolls per trial (the actions
/// of a scene, the half exchanges of a fight, an encounter's rolls), with
/// `per_roll` nanoseconds of scoring each roll beyond its dice.
pub fn mc_trial_nanos(dice: f64, rolls: f64, per_roll: f64) -> f64 {
    rolls * (dice * MC_DIE_NANOS + per_roll)
}

/// Whether the exact engine is to try `exact_allowance` nanoseconds for a
/// case whose Monte Carlo run would take `mc_nanos` (wall, on `threads`
/// cores): the interactive second, or Monte Carlo's own time when that is
/// longer (then exact, if it fits, is the faster).
pub fn auto_allowance(mc_nanos: f64) -> u64 {
    if mc_nanos >= u64::MAX as f64 {
        u64::MAX
    } else {
        (mc_nanos as u64).max(INTERACTIVE_NANOS)
    }
}

#[cfg(test)]
mod tests;
