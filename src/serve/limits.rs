//! What one request may ask of `oddsmith serve` (docs/serve.md, "Limits"),
//! so the server is safe to leave running for a group: request bodies and
//! query strings are capped (413), each request's work is bounded by the
//! exact engine's budget, a Monte Carlo trials cap, a case cap and a
//! deadline (422, with a message saying which limit and what to do), and
//! at most [`Limits::concurrent`] evaluations run at once. The rest are
//! answered 503 with `Retry-After` straight away: a permit is taken with
//! `try_acquire`, never waited for, so no queue can grow without bound.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The caps of one server.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Bytes a request body may hold (a POSTed form).
    pub max_body: usize,
    /// Bytes a query string may hold.
    pub max_query: usize,
    /// Cases one request may compare (the product of its comma lists).
    pub max_cases: usize,
    /// Rungs one balance may evaluate (hero pools times the ladder).
    pub max_rungs: usize,
    /// Monte Carlo trials per case.
    pub max_trials: u64,
    /// How long one evaluation may run before it is stopped.
    pub deadline: Duration,
    /// Evaluations at once; more are answered 503.
    pub concurrent: usize,
}

impl Default for Limits {
    /// One evaluation per core (each already uses the exact engine's
    /// budget of about a second, or every core for Monte Carlo), 24 cases
    /// (a 4 x 6 comparison), 90 rungs (ten hero pools on the nine-rung
    /// default ladder), the command line's default of 1,000,000 trials,
    /// and 10 seconds.
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            max_body: 16 * 1024,
            max_query: 4 * 1024,
            max_cases: 24,
            max_rungs: 90,
            max_trials: 1_000_000,
            deadline: Duration::from_secs(10),
            concurrent: cores,
        }
    }
}

/// The permits for evaluations in flight.
#[derive(Debug, Clone)]
pub struct Gate {
    permits: Arc<Semaphore>,
}

/// Seconds a client is told to wait after a 503.
pub const RETRY_AFTER_SECONDS: u64 = 1;

impl Gate {
    pub fn new(concurrent: usize) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
        }
    }

    /// A permit to evaluate now, or `None` when every permit is taken: the
    /// caller answers 503 rather than wait. The permit is held until the
    /// evaluation's thread ends, even if the client has gone.
    pub fn try_enter(&self) -> Option<OwnedSemaphorePermit> {
        self.permits.clone().try_acquire_owned().ok()
    }
}

/// The message for a query string past the cap.
pub fn query_too_long(len: usize, max: usize) -> String {
    format!("the query string is {len} bytes; at most {max} are taken: compare fewer cases")
}

/// The message for more cases than a request may compare.
pub fn too_many_cases(count: usize, max: usize) -> String {
    format!(
        "these lists compare {count} cases; the page evaluates at most {max} per request: give fewer values (the command line takes more)"
    )
}

/// The message for a balance past the rung cap.
pub fn too_many_rungs(count: usize, max: usize) -> String {
    format!(
        "this balance evaluates {count} rungs (hero pools times the ladder); the page evaluates at most {max} per request: give fewer pools or a shorter ladder (the command line takes more)"
    )
}

/// The message for trials past the cap.
pub fn too_many_trials(trials: u64, max: u64) -> String {
    format!(
        "`--trials` is {trials}; the page runs at most {max} per case: ask for fewer (the command line takes more)"
    )
}

/// The message for an evaluation stopped at the deadline.
pub fn past_deadline(deadline: Duration) -> String {
    format!(
        "this took longer than the {} seconds a request may run, and was stopped: give fewer cases or `--trials`, or run it on the command line",
        deadline.as_secs()
    )
}

/// The message for a 503.
pub fn busy(concurrent: usize) -> String {
    format!(
        "the server is evaluating {concurrent} requests already; try again in {RETRY_AFTER_SECONDS} second"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_refuses_past_its_permits_and_frees_them_on_drop() {
        let gate = Gate::new(2);
        let a = gate.try_enter().unwrap();
        let _b = gate.try_enter().unwrap();
        assert!(gate.try_enter().is_none());
        drop(a);
        assert!(gate.try_enter().is_some());
    }
}
