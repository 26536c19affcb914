//! Ctrl-C (docs/reports.md): SIGINT during a long run stops it, exits 130, and leaves the previous report folder exactly as it
//! was (same files, same bytes, same modification times, no temporary
//! files). Each test spawns the real binary and sends it the signal.
//!
//! No timing is asserted beyond a hang guard (30 s after the signal, where
//! a run that ignores it would take minutes): wall-clock bounds fail on a
//! busy machine. The seconds measured are printed; on an idle machine they
//! are well under one.

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use common::bin;

/// Every file of a folder with its bytes and modification time.
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let modified = e.metadata().unwrap().modified().unwrap();
            (name, (std::fs::read(e.path()).unwrap(), modified))
        })
        .collect()
}

/// The process's thread count, from /proc.
fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Waits until the child has at least `n` threads (the Ctrl-C handler's
/// thread exists from the start; the Monte Carlo workers once sampling has
/// begun), so the signal lands in the middle of the work.
fn wait_for_threads(child: &mut Child, n: usize) {
    let start = Instant::now();
    while threads(child.id()) < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was interrupted"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends SIGINT and returns the exit code, the seconds until exit and stderr.
fn interrupt(child: Child) -> (Option<i32>, f64, String) {
    signal(child, libc::SIGINT)
}

/// Sends `signal` and returns the exit code, the seconds until exit and stderr.
fn signal(mut child: Child, signal: libc::c_int) -> (Option<i32>, f64, String) {
    let pid = child.id() as libc::pid_t;
    let sent = Instant::now();
    // SAFETY: kill() only sends a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("still running 30 s after signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = sent.elapsed().as_secs_f64();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status.code(), seconds, stderr)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs a scenario to completion into `out`, returning the folder's snapshot.
fn old_report(scenario: &Path, out: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    let status = Command::new(bin())
        .args([
            "run",
            scenario.to_str().unwrap(),
            "--quiet",
            "--trials",
            "2000",
        ])
        .stdout(Stdio::null())
        .arg("--out")
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success());
    let before = snapshot(out);
    for table in [
        "distributions.csv",
        "metrics.csv",
        "run.json",
        "summary.csv",
    ] {
        assert!(
            before.contains_key(table),
            "{table} missing: {:?}",
            before.keys()
        );
    }
    // Let any rewrite show in the modification times.
    std::thread::sleep(Duration::from_millis(20));
    before
}

fn spawn(args: &[&str], out: &Path) -> Child {
    Command::new(bin())
        .args(args)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn check_interrupted(code: Option<i32>, seconds: f64, stderr: &str) {
    eprintln!("stopped {seconds:.3} s after SIGINT");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted: no report files were written"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn sigint_during_monte_carlo_exits_130_and_keeps_the_old_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let scenario = write(
        dir.path(),
        "s.toml",
        "[[case]]\nsystem = \"cortex\"\npool = \"d10 2d8 d6\"\nvs = \"2d6\"\n",
    );
    let before = old_report(&scenario, &out);
    // Ten billion trials: hours of work, so only the signal can end it.
    let mut child = spawn(
        &[
            "run",
            scenario.to_str().unwrap(),
            "--method",
            "mc",
            "--trials",
            "10000000000",
        ],
        &out,
    );
    wait_for_threads(&mut child, 3);
    std::thread::sleep(Duration::from_millis(300));
    let (code, seconds, stderr) = interrupt(child);
    check_interrupted(code, seconds, &stderr);
    assert_eq!(snapshot(&out), before, "the old report folder changed");
}

/// SIGTERM (a `kill`, a service stopping) and SIGHUP (the
/// terminal closing) end a run as Ctrl-C does: no temporary file, no
/// half-new folder.
#[test]
fn sigterm_and_sighup_are_handled_like_ctrl_c() {
    for sig in [libc::SIGTERM, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        let scenario = write(
            dir.path(),
            "s.toml",
            "[[case]]\nsystem = \"cortex\"\npool = \"d10 2d8 d6\"\nvs = \"2d6\"\n",
        );
        let before = old_report(&scenario, &out);
        let mut child = spawn(
            &[
                "run",
                scenario.to_str().unwrap(),
                "--method",
                "mc",
                "--trials",
                "10000000000",
            ],
            &out,
        );
        wait_for_threads(&mut child, 3);
        std::thread::sleep(Duration::from_millis(300));
        let (code, seconds, stderr) = signal(child, sig);
        check_interrupted(code, seconds, &stderr);
        assert_eq!(
            snapshot(&out),
            before,
            "signal {sig}: the old report folder changed"
        );
    }
}

#[test]
fn sigint_between_exact_cases_exits_130_and_keeps_the_old_report() {
    // Exact methods never look at the cancel flag; a run of thousands of
    // exact cases must still stop at once (between cases, or by the
    // watchdog in the middle of one).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let quick = write(
        dir.path(),
        "quick.toml",
        "[[case]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = \"2d6\"\n",
    );
    let before = old_report(&quick, &out);
    let pools: Vec<String> = (1..=40)
        .map(|n| format!("\"{n}d12 4d10 6d8 5d6 3d4\""))
        .collect();
    let vs: Vec<String> = (1..=60).map(|n| format!("\"{n}d8 5d12\"")).collect();
    let long = write(
        dir.path(),
        "long.toml",
        &format!(
            "[[sweep]]\nsystem = \"cortex\"\nkeep = 3\npool = [{}]\nvs = [{}]\n",
            pools.join(", "),
            vs.join(", ")
        ),
    );
    let mut child = spawn(&["run", long.to_str().unwrap(), "--method", "exact"], &out);
    wait_for_threads(&mut child, 2);
    std::thread::sleep(Duration::from_millis(1500));
    let (code, seconds, stderr) = interrupt(child);
    check_interrupted(code, seconds, &stderr);
    assert_eq!(snapshot(&out), before, "the old report folder changed");
}

#[test]
fn sigint_during_a_quick_command_exits_130() {
    let mut child = Command::new(bin())
        .args([
            "cortex",
            "d12 d10 d8 d6",
            "--vs",
            "3d10",
            "--method",
            "mc",
            "--trials",
            "10000000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_threads(&mut child, 3);
    std::thread::sleep(Duration::from_millis(300));
    let mut stdout = child.stdout.take().unwrap();
    let (code, seconds, stderr) = interrupt(child);
    eprintln!("stopped {seconds:.3} s after SIGINT");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(seconds < 3.0, "took {seconds} s to stop");
    let mut printed = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut printed).unwrap();
    assert_eq!(printed, "", "an interrupted run prints no results");
}
