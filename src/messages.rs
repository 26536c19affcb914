//! Messages for people on stderr: progress notes, warnings and errors
//! (docs/reports.md: stdout carries results only). A message is a courtesy, never a
//! reason to fail: `eprintln!` panics when stderr is closed or full
//! (`2>/dev/full` ended a run with exit 101 after its report was written but
//! before its results were printed), so every message goes through [`say`],
//! which drops what stderr will not take and keeps the exit code right.

use std::io::Write;

/// Writes one line to stderr; a closed or full stderr drops it.
pub fn say(line: impl std::fmt::Display) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}").and_then(|()| stderr.flush());
}
