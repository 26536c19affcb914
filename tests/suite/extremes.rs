//! Extreme sizes: a 1,000-die Cortex pool in Monte Carlo, memory
//! that stays flat however many trials a run has, `--method exact` refusing
//! what the exact engine cannot do (naming `--method mc`), and a ten-billion
//! trial run that is accepted and shows its progress on a terminal.
//!
//! Speed is measured by criterion (`benches/robustness.rs`), not asserted
//! here; memory is asserted, from the kernel's peak resident size of each
//! child process.

use crate::common;

use std::process::{Command, Stdio};

use oddsmith::dice::Pool;
use oddsmith::distribution::Evaluation;
use oddsmith::engine::exact::{Budget, ExactError};
use oddsmith::engine::monte_carlo::McSettings;
use oddsmith::stats::standard_error;
use oddsmith::systems::cortex::{CortexCase, Opposition, Rules};
use oddsmith::systems::SystemCase;

use common::bin;

fn case(pool: &str, vs: Option<&str>, keep: usize) -> CortexCase {
    CortexCase {
        pool: Pool::parse_cortex(pool).unwrap(),
        opposition: vs.map_or(Opposition::None, |v| {
            Opposition::Pool(Pool::parse_cortex(v).unwrap())
        }),
        rules: Rules {
            keep,
            ..Rules::default()
        },
    }
}

fn metric(e: &Evaluation, name: &str) -> f64 {
    e.metrics
        .iter()
        .find(|m| m.name == name)
        .and_then(|m| m.value)
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_thousand_die_pool_runs_in_monte_carlo() {
    let pool = "200d12 200d10 200d8 200d6 200d4";
    for keep in [2, 5] {
        let c = case(pool, Some("5d12"), keep);
        let trials = 4_000;
        let e = c.monte_carlo(&McSettings::new(trials, 9)).unwrap();
        // E[hitches] = sum of 1/S over the dice, checked against the run.
        let expected: f64 = 200.0 * (1.0 / 12.0 + 0.1 + 0.125 + 1.0 / 6.0 + 0.25);
        let m = e.metrics.iter().find(|m| m.name == "mean_hitches").unwrap();
        let se = standard_error(m, trials).unwrap();
        assert!(
            (m.value.unwrap() - expected).abs() < 5.0 * se,
            "mean_hitches {} vs {expected}",
            m.value.unwrap()
        );
        assert_eq!(metric(&e, "p_botch"), 0.0);
        assert_eq!(metric(&e, "p_hitch"), 1.0);
        // With 200 d12s the best `keep` dice are all 12s (or 11s), and
        // the effect die is a d12 every time.
        assert!(metric(&e, "mean_total") >= 11.0 * keep as f64);
        assert_eq!(metric(&e, "pool_effect_d12"), 1.0);
        // Only two 12s in the 5d12 can tie the action's best (ties go to
        // the reaction): about one roll in ten with keep 2.
        assert!(metric(&e, "p_success") > 0.85);
    }
}

/// Runs the binary under GNU time and returns its peak resident size in
/// KiB, or `None` when /usr/bin/time is missing (see
/// [`common::tool_available`]). (The kernel's rusage of a
/// child spawned from this test process is no use: the peak carries over
/// from the test process's own memory at the spawn.)
fn peak_rss_kib(args: &[&str]) -> Option<u64> {
    let time = std::path::Path::new("/usr/bin/time");
    if !common::tool_available("/usr/bin/time (GNU time)", time.exists()) {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rss");
    let status = Command::new(time)
        .args(["-f", "%M", "-o"])
        .arg(&out)
        .arg(bin())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args:?}");
    Some(
        std::fs::read_to_string(out)
            .unwrap()
            .trim()
            .parse()
            .unwrap(),
    )
}

#[test]
fn monte_carlo_memory_does_not_grow_with_trials() {
    // A hundred times the trials (2 blocks against 153) must not need more
    // memory: tallies are per thread, not per trial.
    let run = |pool: &str, trials: &str| {
        peak_rss_kib(&[
            "cortex", pool, "--vs", "2d6", "--method", "mc", "--trials", trials, "--quiet",
        ])
    };
    let Some(small) = run("d10 2d8 d6", "100000") else {
        return;
    };
    let large = run("d10 2d8 d6", "10000000").unwrap();
    eprintln!("d10 2d8 d6 vs 2d6: peak RSS {small} KiB at 1e5 trials, {large} KiB at 1e7");
    assert!(large <= small + 4096, "{small} KiB -> {large} KiB");
    // A big pool over one block, then over a hundred: a leak of even a few
    // bytes a trial would show as megabytes (6.5 million trials).
    let pool = "20d12 20d10 20d8 20d6 20d4";
    let one_block = oddsmith::engine::monte_carlo::BLOCK_SIZE;
    let small = run(pool, &one_block.to_string()).unwrap();
    let large = run(pool, &(100 * one_block).to_string()).unwrap();
    eprintln!("100 dice vs 2d6: peak RSS {small} KiB over 1 block, {large} KiB over 100");
    assert!(large <= small + 4096, "{small} KiB -> {large} KiB");
}

#[test]
fn exact_refuses_what_it_cannot_do_naming_method_mc() {
    let oversized = [
        case("1000d12", Some("5d12"), 5),
        case("200d12 100d6", None, 5),
        // Small dice keep the DP small; the hitch distribution over
        // 100,000 dice is what must be refused.
        case("100000d4", None, 1),
    ];
    for c in &oversized {
        match c.exact(&mut Budget::interactive()) {
            Err(ExactError::TooLarge(what)) => assert!(!what.is_empty()),
            other => panic!("{} vs {:?}: {:?}", c.pool, c.opposition, other.map(|_| ())),
        }
    }
    for args in [
        &["cortex", "1000d12", "--vs", "5d12", "--keep", "5"][..],
        &["cortex", "100000d4", "--keep", "1"][..],
    ] {
        let out = Command::new(bin())
            .args(args)
            .args(["--method", "exact"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("use --method mc"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_largest_pool_allowed_is_accepted_and_one_more_die_is_refused() {
    let c = case("99999d4 d12", None, 2);
    assert_eq!(c.pool.len(), 100_000);
    let e = c.monte_carlo(&McSettings::new(3, 1)).unwrap();
    assert_eq!(metric(&e, "p_hitch"), 1.0);
    let out = Command::new(bin())
        .args(["cortex", "100000d4 d4", "--trials", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 100000"));
}

/// `--trials 10000000000` on a terminal: the bar appears with the full
/// count, and the run is then interrupted. `script` gives the run a
/// pseudo-terminal; without it (util-linux missing) the test says so and
/// checks nothing, or fails under CI ([`common::tool_available`]).
#[cfg(target_os = "linux")]
#[test]
fn ten_billion_trials_are_accepted_and_show_progress_on_a_terminal() {
    let present = Command::new("script").arg("--version").output().is_ok()
        && Command::new("timeout").arg("--version").output().is_ok();
    if !common::tool_available("`script` and `timeout`", present) {
        return;
    }
    let command = format!(
        "timeout --preserve-status -s INT 4 '{}' cortex 'd10 2d8 d6' --vs 2d6 --method mc --trials 10000000000",
        bin().display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(
        screen.contains("10,000,000,000 trials"),
        "no progress bar on the terminal: {screen:?}"
    );
    assert!(screen.contains("d10 2d8 d6 vs 2d6"), "{screen:?}");
    assert!(screen.contains("interrupted"), "{screen:?}");
    assert_eq!(out.status.code(), Some(130), "{screen:?}");
}
