//! Hardening, second round: unbounded inputs and the report folder. Each
//! test here failed before its fix; the items, by their number in the list
//! of the second adversarial pass, with the figure after the fix:
//!
//! - 2: [`balance_charts_are_capped_with_a_note`]: a general balance of
//!   3,000 questions draws its first 12 panels (a 1,856 px tall PNG, not
//!   420,176 px), a ladder its first 200 rungs, a scenario its first 20
//!   balance tables, each with a note saying what is left out.
//! - 3: [`balance_rungs_and_tables_count_against_the_case_cap`]: 1,000
//!   pools x 1,000 rungs, 60,000 cases and 60,000 rungs, and 100,001
//!   `[[balance]]` tables are refused with exit 2 at load, "at most 100000"
//!   (0.1 s and 7 MB for the first, was past 120 s).
//! - 4: [`markdown_is_streamed`]: `--format markdown` of a sweep is the
//!   same text as before, written a case at a time (peak memory in
//!   `tests/memory.rs` and docs/development.md).
//! - 5: [`long_arrays_and_big_scenarios_are_refused_before_parsing_them`]:
//!   a list of more than 100,000 values, or more than 1,000,000 keys and
//!   list values in all, is refused with exit 2 before the text is parsed
//!   (the 7-million-value list: 19 MB and 0.3 s, was 2.3 GB and 25 s).
//! - 6: [`rayon_num_threads_is_capped_like_threads`]:
//!   `RAYON_NUM_THREADS=100000` runs 4 threads per core, with a note.
//! - 12: [`a_rerun_keeps_the_folder_its_mode_and_a_shell_inside_it`]: the
//!   folder's inode and its 0700 or 1777 mode stay; a process working
//!   inside it is not left in a deleted folder.
//! - 13: [`files_another_process_creates_during_a_rerun_are_kept`]: of
//!   the files created during eight reruns, none is lost (575 of 6,795
//!   were).
//! - 14: [`ctrl_c_while_waiting_for_the_lock_writes_nothing`]: exit 130,
//!   nothing written.
//! - 15: [`concurrent_reports_leave_the_index_of_the_folders`]: one lock
//!   covers the folders and the index, so the index always names the seed
//!   of the run whose folders are there.
//! - 16: [`an_overlong_name_is_refused_at_load`] (exit 2 before any work)
//!   and [`a_mount_point_is_written_like_any_folder`] (the folder is never
//!   renamed, so EBUSY cannot happen; skipped where a mount namespace
//!   cannot be made).

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common;

/// Far longer than any of these runs takes; only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// `oddsmith` under the hang guard.
fn oddsmith() -> Command {
    let mut cmd = common::oddsmith();
    cmd.timeout(HANG_GUARD);
    cmd
}

const TWO_CASES: &str =
    "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = [\"2d6\", \"2d8\"]\n";

/// `run` of a scenario into `out`, quick.
fn run_into(scenario: &str, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    oddsmith()
        .args(["run", scenario, "--out", out.to_str().unwrap()])
        .args(["--method", "mc", "--trials", "2000", "--quiet"])
        .args(["--format", "csv"])
        .args(extra)
        .assert()
}

// ---------------------------------------------------------------------------
// Items 2 and 3: balances are bounded like sweeps

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// A general Cortex balance over `case`, with `ladder` rungs of `key`.
fn general_balance(key: &str, ladder: &str, case: &str) -> String {
    format!(
        "[[balance]]\nsystem = \"cortex\"\nkey = \"{key}\"\nladder = [{ladder}]\nmetric = \"p_success\"\ntarget = 0.5\ncase = {{ {case} }}\n"
    )
}

fn numbers(range: std::ops::RangeInclusive<usize>) -> String {
    range.map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
}

#[test]
fn balance_charts_are_capped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    // 3,000 questions of two rungs; one question of 250 rungs; then 20
    // small tables: 22 in all.
    let mut text = String::from("name = \"tuning\"\n");
    text.push_str(&general_balance(
        "plot_points",
        "0, 1",
        &format!("pool = \"d8 d6\", difficulty = [{}]", numbers(1..=3000)),
    ));
    text.push_str(&general_balance(
        "difficulty",
        &numbers(1..=250),
        "pool = \"d8 d6\"",
    ));
    for _ in 0..20 {
        text.push_str("[[balance]]\npools = [\"d8 d6\"]\nladder = [\"2d6\"]\n");
    }
    let scenario = common::scenario(dir.path(), &text);
    let out = dir.path().join("r");
    run_into(&scenario, &out, &[]).success();
    let (width, height) = png_size(&std::fs::read(out.join("cortex-balance-1.png")).unwrap());
    assert!(height <= 2500 && width <= 2000, "{width} x {height}");
    let svg =
        |n: usize| std::fs::read_to_string(out.join(format!("cortex-balance-{n}.svg"))).unwrap();
    assert!(svg(1).contains("Only the first 12 of 3,000 balances are drawn"));
    assert!(svg(2).contains("the first 200 of 250 rungs are drawn"));
    assert!(svg(20).contains("the first 20 of 22 balance tables are charted"));
    assert!(!out.join("cortex-balance-21.png").exists());
    // The table holds every rung.
    let csv = std::fs::read_to_string(out.join("balance.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3000 * 2 + 250 + 20);
}

#[test]
fn balance_rungs_and_tables_count_against_the_case_cap() {
    let dir = tempfile::tempdir().unwrap();
    let pools: Vec<String> = (1..=1000).map(|n| format!("\"{n}d8\"")).collect();
    let scenario = common::scenario(
        dir.path(),
        &general_balance(
            "difficulty",
            &numbers(1..=1000),
            &format!("pool = [{}]", pools.join(", ")),
        ),
    );
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("this balance has 1000000 rungs"))
        .stderr(predicate::str::contains("at most 100000 are allowed"));
    // Cases and rungs together: 60,000 of each.
    let text = format!(
        "[[sweep]]\nsystem = \"cortex\"\npool = \"d8\"\ndifficulty = [{}]\n{}",
        numbers(1..=60_000),
        general_balance("difficulty", &numbers(1..=60_000), "pool = \"d6\""),
    );
    let scenario = common::scenario(dir.path(), &text);
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "brings the run to 120000 cases and rungs",
        ));
    // 100,001 tables of a rung each.
    let scenario = common::scenario(
        dir.path(),
        &"[[balance]]\npools = [\"d8\"]\nladder = [\"d6\"]\n".repeat(100_001),
    );
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "more than 100000 [[balance]] tables",
        ));
    // And the command: 1,000 pools and a ladder of 1,000.
    let ladder = (1..=1000)
        .map(|n| format!("{n}d6"))
        .collect::<Vec<_>>()
        .join(",");
    let pools: Vec<String> = (1..=1000).map(|n| format!("{n}d8")).collect();
    oddsmith()
        .arg("balance")
        .args(&pools)
        .args(["--ladder", &ladder])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 100000 are allowed"));
}

// ---------------------------------------------------------------------------
// Item 4: Markdown is written as it is made

#[test]
fn markdown_is_streamed() {
    // A case at a time, but the same text: blocks one blank line apart,
    // one final line break (the peak memory is in tests/memory.rs).
    let out = oddsmith()
        .args([
            "cortex",
            "d8,d10,d12",
            "--vs",
            "2d6",
            "--method",
            "exact",
            "--format",
            "markdown",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.ends_with("|\n") && !text.contains("\n\n\n"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(
        dir.path(),
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\", \"d10\"]\nvs = \"2d6\"\n[[balance]]\npools = [\"d8\"]\n",
    );
    let out = oddsmith()
        .args([
            "run",
            &scenario,
            "--no-report",
            "--format",
            "markdown",
            "--method",
            "exact",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!text.contains("\n\n\n") && text.ends_with("|\n"), "{text}");
    // Two cases, then the balance, each a line and a table.
    assert_eq!(
        text.matches("\n\n| metric | value |\n").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("\n\n| vs | label |").count(), 1, "{text}");
    assert!(text.contains("|\n\n**d8**: the rung"), "{text}");
}

// ---------------------------------------------------------------------------
// Item 5: a scenario's size is bounded before it is parsed

#[test]
fn long_arrays_and_big_scenarios_are_refused_before_parsing_them() {
    let dir = tempfile::tempdir().unwrap();
    // 7 million values in one list, 14 MB.
    let list = format!(
        "[[sweep]]\nsystem = \"cortex\"\npool = \"d8\"\nvs = [{}1]\n",
        "1,".repeat(7_000_000)
    );
    let scenario = common::scenario(dir.path(), &list);
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "this list has more than 100000 values; at most 100000",
        ));
    // 1,100,000 keys.
    let keys: String = (0..1_100_000).map(|i| format!("k{i}=1\n")).collect();
    let scenario = common::scenario(
        dir.path(),
        &format!("{keys}[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n"),
    );
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "more than 1000000 keys and list values",
        ));
}

// ---------------------------------------------------------------------------
// Item 6: RAYON_NUM_THREADS is capped like --threads

#[test]
fn rayon_num_threads_is_capped_like_threads() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let args = [
        "cortex", "d8", "--vs", "2d6", "--method", "mc", "--trials", "20000", "--format", "csv",
    ];
    let out = oddsmith()
        .args(args)
        .env("RAYON_NUM_THREADS", "100000")
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "RAYON_NUM_THREADS=100000 is more than this machine can use; running {} threads",
            4 * cores
        )));
    let one = oddsmith()
        .args(args)
        .args(["--threads", "1"])
        .assert()
        .success();
    assert_eq!(out.get_output().stdout, one.get_output().stdout);
    // At or under the cap it is rayon's, without a note.
    oddsmith()
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

// ---------------------------------------------------------------------------
// Items 12 and 13: the folder is kept, and what oddsmith did not write stays

#[cfg(unix)]
#[test]
fn a_rerun_keeps_the_folder_its_mode_and_a_shell_inside_it() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    for mode in [0o700, 0o1777] {
        let out = dir.path().join(format!("report-{mode:o}"));
        std::fs::create_dir(&out).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
        let inode = std::fs::metadata(&out).unwrap().ino();
        // A process working inside the folder, as a shell would.
        let mut inside = std::process::Command::new("sleep")
            .arg("30")
            .current_dir(&out)
            .spawn()
            .unwrap();
        run_into(&scenario, &out, &["--no-charts"]).success();
        run_into(&scenario, &out, &["--seed", "2"]).success();
        let meta = std::fs::metadata(&out).unwrap();
        assert_eq!(meta.ino(), inode, "the folder was replaced");
        assert_eq!(meta.permissions().mode() & 0o7777, mode);
        let cwd = std::fs::read_link(format!("/proc/{}/cwd", inside.id())).unwrap();
        inside.kill().unwrap();
        inside.wait().unwrap();
        assert_eq!(cwd, out.canonicalize().unwrap(), "left in a deleted folder");
        assert!(out.join("run.json").is_file());
        // No temporary file is left in it.
        for entry in std::fs::read_dir(&out).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "{name} left");
        }
    }
}

#[test]
fn files_another_process_creates_during_a_rerun_are_kept() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    run_into(&scenario, &out, &[]).success();
    let done = AtomicBool::new(false);
    let created = std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let mut created = Vec::new();
            while !done.load(Ordering::SeqCst) {
                // Named like oddsmith's own charts, too.
                let name = if created.len() % 2 == 0 {
                    format!("mine-{}.txt", created.len())
                } else {
                    format!("cortex-mine-{}.png", created.len())
                };
                std::fs::write(out.join(&name), b"mine").unwrap();
                created.push(name);
            }
            created
        });
        for seed in 0..8 {
            run_into(&scenario, &out, &["--seed", &seed.to_string()]).success();
        }
        done.store(true, Ordering::SeqCst);
        writer.join().unwrap()
    });
    assert!(created.len() > 8, "{}", created.len());
    let lost: Vec<&String> = created.iter().filter(|n| !out.join(n).is_file()).collect();
    assert!(lost.is_empty(), "{} of {} lost", lost.len(), created.len());
}

// ---------------------------------------------------------------------------
// Items 14 and 15: the lock

/// Starts `run` into `out` with stderr piped, and reads its first line.
#[cfg(unix)]
fn start_waiting(scenario: &str, out: &Path) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(common::bin())
        .args(["run", scenario, "--out", out.to_str().unwrap()])
        .args(["--method", "mc", "--trials", "2000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    // The rest of stderr is drained so the child never blocks on it.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, line)
}

#[cfg(unix)]
#[test]
fn ctrl_c_while_waiting_for_the_lock_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    let parent = std::fs::File::open(dir.path()).unwrap();
    parent.lock().unwrap();
    let (mut child, line) = start_waiting(&scenario, &out);
    assert!(line.starts_with("waiting: another oddsmith"), "{line}");
    // SAFETY: kill() only sends a signal to our own child process.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("still waiting 30 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    // Still locked: the run did not go on once the lock was free.
    assert_eq!(status.code(), Some(130));
    parent.unlock().unwrap();
    assert!(!out.exists(), "written after Ctrl-C");
}

#[test]
fn concurrent_reports_leave_the_index_of_the_folders() {
    let dir = tempfile::tempdir().unwrap();
    let scenarios = dir.path().join("scenarios");
    std::fs::create_dir(&scenarios).unwrap();
    for name in ["a", "b"] {
        std::fs::write(
            scenarios.join(format!("{name}.toml")),
            format!("name = \"{name}\"\n{TWO_CASES}"),
        )
        .unwrap();
    }
    let out = dir.path().join("reports");
    let runs: Vec<_> = (1..=6)
        .map(|seed| {
            std::process::Command::new(common::bin())
                .arg("report")
                .arg(&scenarios)
                .arg("--out")
                .arg(&out)
                .args(["--method", "mc", "--trials", "2000", "--quiet", "--seed"])
                .arg(seed.to_string())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut run in runs {
        assert!(run.wait().unwrap().success());
    }
    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    for name in ["a", "b"] {
        let run: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(name).join("run.json")).unwrap())
                .unwrap();
        let seed = run["seed"].as_u64().unwrap();
        assert!(
            index.contains(&format!("--seed {seed}")),
            "{name} is of seed {seed}, the index of another run"
        );
    }
}

// ---------------------------------------------------------------------------
// Item 16: names too long for a folder, and a mount point

#[test]
fn an_overlong_name_is_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(250);
    let scenario = common::scenario(dir.path(), &format!("name = \"{long}\"\n{TWO_CASES}"));
    oddsmith()
        .args([
            "run",
            &scenario,
            "--out",
            dir.path().join("r").to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("longer than 200 bytes"));
    assert!(!dir.path().join("r").exists());
    // Named after a long file name, the same.
    let file = dir.path().join(format!("{}.toml", "f".repeat(240)));
    std::fs::write(&file, TWO_CASES).unwrap();
    oddsmith()
        .args(["run", file.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("longer than 200 bytes"));
    // 200 bytes is allowed.
    let scenario = common::scenario(
        dir.path(),
        &format!("name = \"{}\"\n{TWO_CASES}", "n".repeat(200)),
    );
    run_into(&scenario, &dir.path().join("ok"), &[]).success();
}

#[cfg(target_os = "linux")]
#[test]
fn a_mount_point_is_written_like_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("mounted");
    std::fs::create_dir(&out).unwrap();
    // A private mount namespace (as root or through a user namespace), so
    // nothing outside the test sees the mount; first whether one can be made.
    let in_namespace = |script: String| {
        std::process::Command::new("unshare")
            .args(["-rm", "sh", "-c", &script])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let mount = format!("mount -t tmpfs oddsmith-test '{}'", out.display());
    if !in_namespace(format!("{mount} && mountpoint -q '{}'", out.display())) {
        eprintln!("skipped: no mount namespace can be made here");
        return;
    }
    // Two runs: the first into the empty mount point, the second over it.
    let runs = format!(
        "{mount} && for seed in 1 2; do '{bin}' run '{scenario}' --out '{out}' --method mc --trials 2000 --quiet --seed $seed || exit 1; done && test -f '{out}/run.json' && mountpoint -q '{out}'",
        out = out.display(),
        bin = common::bin().display(),
    );
    assert!(in_namespace(runs), "writing into a mount point failed");
}
