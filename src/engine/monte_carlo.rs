//! The parallel Monte Carlo engine. Trials are cut into fixed-size blocks;
//! block i draws from its own stream seeded from (seed, i) and adds into an
//! integer tally; tallies are merged by addition. Integer addition does not
//! care about order or grouping, so the result is identical for any thread
//! count, and memory is one tally per thread whatever the number of trials.
//! The blocks run on the caller's rayon pool: rayon's global pool (every
//! core), or the run's pool of `--threads` workers, which the commands start
//! once per run and install around the cases (`commands::evaluate::Workers`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use thiserror::Error;

use super::rng::{block_rng, DiceRng};

/// Trials per block. Small enough that cancellation and progress are
/// responsive (a block of Cortex rolls takes a few milliseconds), large
/// enough that per-block overhead is invisible. Reported in `run.json`.
pub const BLOCK_SIZE: u64 = 1 << 16;

/// A system's trial, as the engine sees it.
pub trait Sampler: Sync {
    /// Integer counts of outcomes; merged by addition.
    type Tally: Send;
    fn new_tally(&self) -> Self::Tally;
    /// Plays one trial and records its outcome.
    fn trial(&self, rng: &mut DiceRng, tally: &mut Self::Tally);
    /// Plays `trials` trials of one block, all from the block's stream
    /// `rng`. One by one unless a sampler knows better (a batch of trials
    /// drawn first and scored together); either way the counts depend on
    /// the block's stream alone, never on the thread that runs it.
    fn block(&self, rng: &mut DiceRng, trials: u64, tally: &mut Self::Tally) {
        for _ in 0..trials {
            self.trial(rng, tally);
        }
    }
    /// Adds `other` into `into`.
    fn merge(&self, into: &mut Self::Tally, other: Self::Tally);
}

/// What `sampler` counts over `trials` trials as its own block, and as the
/// same trials played one at a time, from the same block stream `seed`:
/// the two must agree exactly, which a sampler's tests hold it to.
#[cfg(test)]
pub(crate) fn block_and_one_at_a_time<S: Sampler>(
    sampler: &S,
    trials: u64,
    seed: (u64, u64),
) -> (S::Tally, S::Tally) {
    let mut block = sampler.new_tally();
    sampler.block(&mut block_rng(seed.0, seed.1), trials, &mut block);
    let mut one_at_a_time = sampler.new_tally();
    let mut rng = block_rng(seed.0, seed.1);
    for _ in 0..trials {
        sampler.trial(&mut rng, &mut one_at_a_time);
    }
    (block, one_at_a_time)
}

/// The run was stopped (Ctrl-C) before it finished.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("interrupted")]
pub struct Interrupted;

/// The worker threads Monte Carlo runs on: rayon's global pool (every
/// core), or a pool of a set size started once for a whole run and shared by
/// its cases (a pool started per case made a 10,000-case sweep with
/// `--threads 8` seven times slower). Results never depend on which.
#[derive(Debug, Clone, Default)]
pub struct Workers {
    pool: Option<Arc<rayon::ThreadPool>>,
}

/// A pool of worker threads could not be started: the system refused the
/// threads.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cannot start {threads} worker threads ({reason}); ask for fewer with --threads")]
pub struct WorkersError {
    pub threads: usize,
    pub reason: String,
}

impl Workers {
    /// `threads` workers, or rayon's global pool for `None`.
    pub fn start(threads: Option<usize>) -> Result<Workers, WorkersError> {
        let Some(threads) = threads else {
            return Ok(Workers::default());
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| WorkersError {
                threads,
                reason: e.to_string(),
            })?;
        Ok(Workers {
            pool: Some(Arc::new(pool)),
        })
    }

    /// The threads a Monte Carlo run on these workers uses.
    pub fn threads(&self) -> usize {
        match &self.pool {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Runs `work` with its Monte Carlo runs on these workers.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

/// How to run: trials, seed, and the hooks for progress and Ctrl-C.
pub struct McSettings<'a> {
    pub trials: u64,
    pub seed: u64,
    /// Set from outside (the Ctrl-C handler) to stop at the next block.
    pub cancel: Option<&'a AtomicBool>,
    /// Trials finished so far, for a progress bar.
    pub progress: Option<&'a AtomicU64>,
}

impl McSettings<'_> {
    pub fn new(trials: u64, seed: u64) -> McSettings<'static> {
        McSettings {
            trials,
            seed,
            cancel: None,
            progress: None,
        }
    }
}

fn run_block<S: Sampler>(sampler: &S, settings: &McSettings<'_>, block: u64, tally: &mut S::Tally) {
    let start = block * BLOCK_SIZE;
    let n = BLOCK_SIZE.min(settings.trials - start);
    let mut rng = block_rng(settings.seed, block);
    sampler.block(&mut rng, n, tally);
    if let Some(progress) = settings.progress {
        progress.fetch_add(n, Ordering::Relaxed);
    }
}

/// Runs `settings.trials` trials and returns the merged tally.
pub fn run<S: Sampler>(sampler: &S, settings: &McSettings<'_>) -> Result<S::Tally, Interrupted> {
    let blocks = settings.trials.div_ceil(BLOCK_SIZE);
    let cancelled = || settings.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    // `try_fold` stops every worker at its next block once one sees the
    // flag: merely skipping the remaining blocks would still walk through
    // them, which for `--trials` near 2^64 is 2^48 blocks.
    let work = || {
        (0..blocks)
            .into_par_iter()
            .try_fold(
                || sampler.new_tally(),
                |mut tally, block| {
                    if cancelled() {
                        return Err(Interrupted);
                    }
                    run_block(sampler, settings, block, &mut tally);
                    Ok(tally)
                },
            )
            .try_reduce(
                || sampler.new_tally(),
                |mut a, b| {
                    sampler.merge(&mut a, b);
                    Ok(a)
                },
            )
    };
    let tally = work()?;
    if cancelled() {
        return Err(Interrupted);
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Counts faces of a d6; the simplest possible sampler.
    struct D6;
    impl Sampler for D6 {
        type Tally = [u64; 6];
        fn new_tally(&self) -> [u64; 6] {
            [0; 6]
        }
        fn trial(&self, rng: &mut DiceRng, tally: &mut [u64; 6]) {
            tally[rng.random_range(0..6usize)] += 1;
        }
        fn merge(&self, into: &mut [u64; 6], other: [u64; 6]) {
            for (a, b) in into.iter_mut().zip(other) {
                *a += b;
            }
        }
    }

    fn on(threads: usize) -> Workers {
        Workers::start(Some(threads)).unwrap()
    }

    #[test]
    fn thread_count_does_not_change_the_result() {
        let settings = McSettings::new(300_001, 7);
        let a = on(1).install(|| run(&D6, &settings)).unwrap();
        let b = on(3).install(|| run(&D6, &settings)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.iter().sum::<u64>(), 300_001);
    }

    #[test]
    fn cancelling_a_near_endless_run_returns_at_once() {
        // 2^64 - 1 trials is 2^48 blocks: the run only ends because the
        // workers stop at the flag instead of walking past every block.
        let flag = AtomicBool::new(false);
        let mut settings = McSettings::new(u64::MAX, 1);
        settings.cancel = Some(&flag);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                flag.store(true, Ordering::Relaxed);
            });
            assert_eq!(on(2).install(|| run(&D6, &settings)), Err(Interrupted));
        });
    }

    #[test]
    fn a_set_cancel_flag_interrupts() {
        let flag = AtomicBool::new(true);
        let mut settings = McSettings::new(1_000_000, 1);
        settings.cancel = Some(&flag);
        assert_eq!(run(&D6, &settings), Err(Interrupted));
    }

    #[test]
    fn workers_of_a_run_are_its_threads() {
        let workers = on(3);
        assert_eq!(workers.install(rayon::current_num_threads), 3);
        // A clone shares the pool: one pool however many cases use it.
        let again = workers.clone();
        let id = |w: &Workers| w.install(|| rayon::current_thread_index().is_some());
        assert!(id(&workers) && id(&again));
        assert!(Arc::ptr_eq(
            workers.pool.as_ref().unwrap(),
            again.pool.as_ref().unwrap()
        ));
        let global = Workers::start(None).unwrap();
        assert_eq!(
            global.install(rayon::current_num_threads),
            rayon::current_num_threads()
        );
    }
}
