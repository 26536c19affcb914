//! Memory of big sweeps: at most a kilobyte a case, whatever the case
//! count. A 24,000-case Cortex sweep is run as a child process, to stdout
//! as JSON and as Markdown, then writing its report folder with charts and
//! its CSV to stdout, after a 400-case sweep as JSON; the children's peak
//! resident memory (`getrusage(RUSAGE_CHILDREN)`, the largest child's so
//! far) must stay under a bound that the build before the fix went past,
//! and what the big JSON run holds beyond the small one must be at most
//! 1 KiB a case (debug build: before the fix about 185 MB for the report
//! folder and 130 MB for the JSON, about 5.4 KiB a case; after it about
//! 81 MB and 25 MB, 0.7 KiB a case). This file holds one test, so no other
//! test's child counts.

use std::process::{Command, Stdio};

/// Pools 1d4..`pools`d4 against 1d6..`against`d6.
fn sweep(pools: usize, against: usize) -> String {
    let list = |count: usize, die: &str| {
        (1..=count)
            .map(|n| format!("\"{n}{die}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "name = \"big\"\n[[sweep]]\nsystem = \"cortex\"\npool = [{}]\nvs = [{}]\n",
        list(pools, "d4"),
        list(against, "d6")
    )
}

/// The largest peak resident memory of any child waited for so far, in KiB.
fn children_peak_kib() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for getrusage to fill.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0);
    // Linux reports ru_maxrss in kilobytes.
    usage.ru_maxrss as f64
}

/// Between the peak after the fix (about 81 MB, the report folder) and
/// the peak before it (185 MB), at this size.
const BOUND_MB: f64 = 130.0;

/// What the big sweep may hold beyond the small one, a case.
const KIB_A_CASE: f64 = 1.0;

fn run(dir: &std::path::Path, file: &str, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .current_dir(dir)
        .args(["run", file, "--method", "mc", "--trials", "1", "--quiet"])
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
    std::fs::write(dir.path().join("small.toml"), sweep(20, 20)).unwrap();
    std::fs::write(dir.path().join("big.toml"), sweep(150, 160)).unwrap();
    let (small_cases, big_cases) = (400.0, 24_000.0);

    run(
        dir.path(),
        "small.toml",
        &["--format", "json", "--no-report"],
    );
    let small = children_peak_kib();
    run(dir.path(), "big.toml", &["--format", "json", "--no-report"]);
    let big = children_peak_kib();
    let per_case = (big - small) / (big_cases - small_cases);
    assert!(
        per_case <= KIB_A_CASE,
        "JSON: {per_case:.2} KiB a case ({small:.0} KiB at 400 cases, {big:.0} KiB at 24,000)"
    );

    // Markdown is written a case at a time too (it was rendered whole:
    // 792 MB at 44,100 cases in a release build).
    run(
        dir.path(),
        "big.toml",
        &["--format", "markdown", "--no-report"],
    );
    let peak = children_peak_kib() / 1024.0;
    assert!(peak < BOUND_MB, "Markdown: peak {peak:.0} MB");

    run(dir.path(), "big.toml", &["--format", "csv"]);
    let folder = dir.path().join("reports/big");
    let metrics = std::fs::read_to_string(folder.join("metrics.csv")).unwrap();
    assert!(metrics.contains("\n150d4 vs 160d6,cortex,monte-carlo,p_success,"));
    assert!(folder.join("cortex-p-success.png").is_file());
    let peak = children_peak_kib() / 1024.0;
    assert!(peak < BOUND_MB, "report folder and CSV: peak {peak:.0} MB");
}
