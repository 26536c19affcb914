//! Shared pieces of the exact engine: the work budget that lets `--method
//! exact` refuse a case it cannot finish in about a second (before spending
//! that second), and the error it refuses with.

use thiserror::Error;

/// Elementary steps (state x face updates) an exact method may take. The
/// Cortex programme manages about 25 million a second in a release build on
/// one core of the target machine (measured on `200d12 100d6`, keep 5), so
/// this is a little under a second of work.
pub const DEFAULT_EXACT_STEPS: u64 = 20_000_000;

/// Multiply-adds on dense vectors per elementary step: the budget counts
/// hash-map updates, and a loop of plain array arithmetic is far cheaper
/// (measured: a 60-action scene of `d10 2d8 d6`, about 415 million of them,
/// in about a second of release build on the shared target machine). The
/// doom-pool chain and the hitch convolution charge their work in these.
pub const DENSE_OPS_PER_STEP: u64 = 32;

/// Why an exact answer was not given.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExactError {
    #[error("{0} is too large for the exact engine (it would take more than about a second); use --method mc")]
    TooLarge(String),
    #[error("the {0} system has no exact method; use --method mc")]
    Unsupported(String),
}

/// A countdown of elementary steps.
#[derive(Debug, Clone)]
pub struct Budget {
    remaining: u64,
}

impl Budget {
    pub fn new(steps: u64) -> Budget {
        Budget { remaining: steps }
    }

    /// The default budget for interactive use.
    pub fn interactive() -> Budget {
        Budget::new(DEFAULT_EXACT_STEPS)
    }

    /// A budget that never runs out (tests and benchmarks).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX)
    }

    /// Takes `steps` from the budget, or reports `what` as too large.
    pub fn spend(&mut self, steps: u64, what: &dyn Fn() -> String) -> Result<(), ExactError> {
        if steps > self.remaining {
            self.remaining = 0;
            return Err(ExactError::TooLarge(what()));
        }
        self.remaining -= steps;
        Ok(())
    }

    /// The steps left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Whether `steps` more would still fit.
    pub fn allows(&self, steps: u64) -> bool {
        steps <= self.remaining
    }
}
