//! Ctrl-C (SIGINT), docs/reports.md: the run stops within a second, exits with 130
//! and leaves the previous report folder as it was.
//!
//! The normal way out is cooperative: the handler sets the cancel flag, the
//! Monte Carlo engine checks it before every block (a few milliseconds of
//! work) and [`crate::commands::evaluate::evaluate_case`] before every case,
//! and the run returns an interrupted error before anything is written. An
//! exact method does not look at the flag, though (it may take up to about a
//! second, and a system's exact code may never check it), so the handler also
//! keeps a watchdog: if the process is still running [`GRACE`] after the
//! signal, the binary ends it with 130 itself.
//!
//! The only thing the watchdog must never cut short is the report folder
//! being written. [`start_writing`] and the watchdog take the same lock:
//! either the run was interrupted before writing began (nothing is written),
//! or writing began first and is finished (each file is replaced whole).
//! The library never ends the process: [`on_interrupt`] and [`ending`]
//! return an [`Ending`], the held lock, and `main.rs` prints [`MESSAGE`] and
//! exits while holding it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use crate::engine::monte_carlo::Interrupted;

/// How long the cooperative stop may take before the watchdog ends the process.
pub const GRACE: Duration = Duration::from_millis(500);

/// The message printed when a run is interrupted.
pub const MESSAGE: &str = "interrupted: no report files were written";

/// Whether the report folder is being written (the results are complete).
static WRITING: Mutex<bool> = Mutex::new(false);

fn writing_lock() -> MutexGuard<'static, bool> {
    WRITING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Permission to end the process as interrupted: while it is held, no
/// report writing can begin, and whoever holds it prints [`MESSAGE`] once.
pub struct Ending {
    _writing: MutexGuard<'static, bool>,
}

/// The Ctrl-C handler's work: asks the run to stop, waits [`GRACE`], and
/// then, unless the report is being written (its results were complete
/// before Ctrl-C, so the files are let finish), says the process must end
/// now with 130.
pub fn on_interrupt(cancel: &AtomicBool) -> Option<Ending> {
    cancel.store(true, Ordering::SeqCst);
    std::thread::sleep(GRACE);
    let writing = writing_lock();
    if *writing {
        return None;
    }
    Some(Ending { _writing: writing })
}

/// For a run that returned interrupted: the lock the watchdog takes too, so
/// the message is printed once even if both end the process.
pub fn ending() -> Ending {
    Ending {
        _writing: writing_lock(),
    }
}

/// Called just before the report folder is written: an interrupted run
/// stops here with nothing written; otherwise writing is marked as begun so
/// the watchdog lets it finish.
pub fn start_writing(cancel: &AtomicBool) -> Result<(), Interrupted> {
    let mut writing = writing_lock();
    if cancel.load(Ordering::SeqCst) {
        return Err(Interrupted);
    }
    *writing = true;
    Ok(())
}

/// Marks the report folder as written (for processes that go on to other work).
pub fn finish_writing() {
    *writing_lock() = false;
}

/// The flag as an error: `Err(Interrupted)` once Ctrl-C was pressed.
pub fn check(cancel: &AtomicBool) -> Result<(), Interrupted> {
    if cancel.load(Ordering::Relaxed) {
        Err(Interrupted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_starts_only_when_not_interrupted() {
        let flag = AtomicBool::new(true);
        assert_eq!(start_writing(&flag), Err(Interrupted));
        assert!(!*writing_lock());
        assert_eq!(check(&flag), Err(Interrupted));
        let flag = AtomicBool::new(false);
        assert_eq!(start_writing(&flag), Ok(()));
        assert!(*writing_lock());
        finish_writing();
        assert!(!*writing_lock());
        assert_eq!(check(&flag), Ok(()));
    }
}
