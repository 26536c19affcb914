//! Shared pieces of the exact engine: the work budget that lets `--method
//! exact` refuse a case it cannot finish in about a second (before spending
//! that second), and the error it refuses with. The budget counts predicted
//! nanoseconds of processor time, each kind of work priced by the cost
//! model ([`super::cost`]).

use thiserror::Error;

/// Predicted processor time an interactive exact answer may take: the
/// contract's "about a second" (docs/reports.md, `--method`).
pub const INTERACTIVE_NANOS: u64 = 1_000_000_000;

/// Why an exact answer was not given.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExactError {
    #[error("{0} is too large for the exact engine (it would take more than about a second); use --method mc")]
    TooLarge(String),
    #[error("the {0} system has no exact method; use --method mc")]
    Unsupported(String),
}

/// A countdown of predicted nanoseconds ([`super::cost::Work::nanos`]).
#[derive(Debug, Clone)]
pub struct Budget {
    remaining: u64,
    /// The nanoseconds of the charges granted: the work counted (a charge
    /// refused is not done, so not counted).
    spent: u64,
    /// The first whole-run prediction a chain's forecast trusted, against
    /// which the tests hold the work the run then counted.
    trusted_forecast: Option<u64>,
}

impl Budget {
    pub fn new(nanos: u64) -> Budget {
        Budget {
            remaining: nanos,
            spent: 0,
            trusted_forecast: None,
        }
    }

    /// The default budget for interactive use: about a second.
    pub fn interactive() -> Budget {
        Budget::new(INTERACTIVE_NANOS)
    }

    /// A budget that never runs out (tests and benchmarks).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX)
    }

    /// Takes `nanos` from the budget, or reports `what` as too large.
    pub fn spend(&mut self, nanos: u64, what: &dyn Fn() -> String) -> Result<(), ExactError> {
        if nanos > self.remaining {
            self.remaining = 0;
            return Err(ExactError::TooLarge(what()));
        }
        self.remaining -= nanos;
        self.spent += nanos;
        Ok(())
    }

    /// The nanoseconds left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// The nanoseconds spent so far: the work the run has counted.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// The first prediction of a chain's whole work (nanoseconds from its
    /// start) that its forecast trusted, if one did.
    pub fn trusted_forecast(&self) -> Option<u64> {
        self.trusted_forecast
    }

    /// Records a trusted prediction (the first one only).
    pub(crate) fn note_forecast(&mut self, nanos: u64) {
        self.trusted_forecast.get_or_insert(nanos);
    }

    /// Whether `nanos` more would still fit.
    pub fn allows(&self, nanos: u64) -> bool {
        nanos <= self.remaining
    }
}
