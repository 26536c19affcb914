//! Memory of big sweeps: at most a kilobyte a case, whatever the case
//! count. A 24,000-case Cortex sweep is run as a child process, to stdout
//! as JSON and as Markdown, and writing its report folder with charts and
//! its CSV to stdout, each beside a 400-case sweep that starts with the
//! same 200 cases (so the same charts); each child's own peak resident
//! memory (`wait4`) must stay under a bound that the build before the fix
//! went past, and what the big run holds beyond the small one must be at
//! most 1 KiB a case, as JSON and as a folder with charts (debug build:
//! before the fix about 185 MB for the report folder and 130 MB for the
//! JSON, about 5.4 KiB a case; after it about 81 MB and 25 MB, 0.7 KiB a
//! case as JSON; with each chart's pixels capped, the folder too).

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

/// Between the peak after the fix (about 81 MB, the report folder) and
/// the peak before it (185 MB), at this size.
const BOUND_MB: f64 = 130.0;

/// What the big sweep may hold beyond the small one, a case.
const KIB_A_CASE: f64 = 1.0;

/// Runs `oddsmith run FILE ARGS` in `dir` and returns its own peak
/// resident memory in KiB (from `wait4`, which reports the rusage of the
/// one child it waits for).
fn run(dir: &std::path::Path, file: &str, args: &[&str]) -> f64 {
    // Waited for below by `wait4`, which also gives the child's rusage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .current_dir(dir)
        .args(["run", file, "--method", "mc", "--trials", "1", "--quiet"])
        .args(args)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's, not yet waited for; `status` and
    // `usage` are valid for wait4 to fill.
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{file} {args:?}: {status}"
    );
    // Linux reports ru_maxrss in kilobytes.
    usage.ru_maxrss as f64
}

#[cfg(target_os = "linux")]
#[test]
fn a_big_sweep_stays_within_its_memory_bound() {
    let dir = tempfile::tempdir().unwrap();
    // Both sweeps start with the same 200 cases (1d4 against 1d6 ..
    // 200d6), so their charts are the same and what the big run needs
    // beyond the small one is the cases' own.
    std::fs::write(dir.path().join("small.toml"), sweep(2, 200)).unwrap();
    std::fs::write(dir.path().join("big.toml"), sweep(120, 200)).unwrap();
    let (small_cases, big_cases) = (400.0, 24_000.0);

    let small = run(
        dir.path(),
        "small.toml",
        &["--format", "json", "--no-report"],
    );
    let big = run(dir.path(), "big.toml", &["--format", "json", "--no-report"]);
    let per_case = (big - small) / (big_cases - small_cases);
    assert!(
        per_case <= KIB_A_CASE,
        "JSON: {per_case:.2} KiB a case ({small:.0} KiB at 400 cases, {big:.0} KiB at 24,000)"
    );

    // Markdown is written a case at a time too (it was rendered whole:
    // 792 MB at 44,100 cases in a release build).
    let peak = run(
        dir.path(),
        "big.toml",
        &["--format", "markdown", "--no-report"],
    ) / 1024.0;
    assert!(peak < BOUND_MB, "Markdown: peak {peak:.0} MB");

    // The folder with its charts: each chart's pixels are capped, so the
    // charts cost the same at any size and a case costs what it does in
    // the JSON run.
    let small_folder = run(dir.path(), "small.toml", &["--format", "csv"]);
    let big_folder = run(dir.path(), "big.toml", &["--format", "csv"]);
    let folder = dir.path().join("reports/big");
    let metrics = std::fs::read_to_string(folder.join("metrics.csv")).unwrap();
    assert!(metrics.contains("\n120d4 vs 200d6,cortex,monte-carlo,p_success,"));
    assert!(folder.join("cortex-p-success.png").is_file());
    let per_case = (big_folder - small_folder) / (big_cases - small_cases);
    eprintln!(
        "peak KiB: JSON {small:.0} / {big:.0}, folder and charts {small_folder:.0} / {big_folder:.0} (400 / 24,000 cases)"
    );
    assert!(
        per_case <= KIB_A_CASE,
        "report folder and charts: {per_case:.2} KiB a case ({small_folder:.0} KiB at 400 cases, {big_folder:.0} KiB at 24,000)"
    );
    let peak = big_folder / 1024.0;
    assert!(peak < BOUND_MB, "report folder and CSV: peak {peak:.0} MB");
}
