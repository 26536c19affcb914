//! Memory of big sweeps: it stays under about 1 GB whatever the case
//! count. A 24,000-case Cortex sweep is run as a
//! child process, writing its report folder with charts and its CSV to
//! stdout, then again with JSON, then Markdown, to stdout; the children's peak resident
//! memory (`getrusage(RUSAGE_CHILDREN)`, the largest child's) must stay
//! under a bound that the build before the fix went past (debug build:
//! about 600 MB for the report folder, 540 MB for the JSON; after the fix
//! about 185 MB and 130 MB). This file holds one test, so no other test's
//! child counts.

use std::process::{Command, Stdio};

/// Pools 1d4..150d4 against 1d6..160d6: 24,000 cases.
fn big_sweep() -> String {
    let list = |count: usize, die: &str| {
        (1..=count)
            .map(|n| format!("\"{n}{die}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "name = \"big\"\n[[sweep]]\nsystem = \"cortex\"\npool = [{}]\nvs = [{}]\n",
        list(150, "d4"),
        list(160, "d6")
    )
}

/// The largest peak resident memory of any child waited for so far, in MB.
fn children_peak_mb() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for getrusage to fill.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0);
    // Linux reports ru_maxrss in kilobytes.
    usage.ru_maxrss as f64 / 1024.0
}

/// Between the peak after the fix and the peak before it, at this size.
const BOUND_MB: f64 = 400.0;

fn run(dir: &std::path::Path, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .current_dir(dir)
        .args([
            "run", "big.toml", "--method", "mc", "--trials", "1", "--quiet",
        ])
        .args(args)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

#[cfg(target_os = "linux")]
#[test]
fn a_big_sweep_stays_within_its_memory_bound() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.toml"), big_sweep()).unwrap();

    run(dir.path(), &["--format", "csv"]);
    let folder = dir.path().join("reports/big");
    let metrics = std::fs::read_to_string(folder.join("metrics.csv")).unwrap();
    assert!(metrics.contains("\n150d4 vs 160d6,cortex,monte-carlo,p_success,"));
    assert!(folder.join("cortex-p-success.png").is_file());
    let peak = children_peak_mb();
    assert!(peak < BOUND_MB, "report folder and CSV: peak {peak:.0} MB");

    run(dir.path(), &["--format", "json", "--no-report"]);
    let peak = children_peak_mb();
    assert!(peak < BOUND_MB, "JSON: peak {peak:.0} MB");

    // Markdown is written a case at a time too (it was rendered whole:
    // 792 MB at 44,100 cases in a release build).
    run(dir.path(), &["--format", "markdown", "--no-report"]);
    let peak = children_peak_mb();
    assert!(peak < BOUND_MB, "Markdown: peak {peak:.0} MB");
}
