//! Hardening: inputs found by adversarial testing that crashed
//! the tool, wrote outside the report folder, grew memory without bound or
//! hung. Each test here failed before its fix. Hangs are guarded by a
//! generous timeout, never by a wall-clock assertion.
//!
//! The second adversarial pass's items 8 to 11 (output turned against its
//! reader) and 17 to 20 (messages) are in `hardening_outputs.rs`, listed
//! there by number.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common;

/// Far longer than any of these runs takes; only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// `oddsmith` under the hang guard.
fn oddsmith() -> Command {
    let mut cmd = common::oddsmith();
    cmd.timeout(HANG_GUARD);
    cmd
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

// ---------------------------------------------------------------------------
// Item 4: special files as scenarios

#[cfg(unix)]
#[test]
fn a_device_is_refused_as_a_scenario() {
    oddsmith()
        .args(["run", "/dev/zero", "--no-report"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("/dev/zero")
                .and(predicate::str::contains("not a regular file")),
        );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.toml");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    oddsmith()
        .args(["run", fifo.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a regular file"));
}

#[test]
fn a_folder_is_refused_as_a_scenario() {
    let dir = tempfile::tempdir().unwrap();
    oddsmith()
        .args(["run", dir.path().to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a folder"));
}

#[test]
fn a_scenario_past_16_mb_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    let mut text = String::from("[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
    let comment = format!("# {}\n", "x".repeat(1021));
    while text.len() <= 16 * 1024 * 1024 {
        text.push_str(&comment);
    }
    write(&path, &text);
    oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than 16 MB"));
}

// ---------------------------------------------------------------------------
// Item 6: loading is linear, and the case cap is checked as cases are read

fn numbered_cases(count: usize) -> String {
    (0..count)
        .map(|i| format!("[[case]]\nsystem = \"cortex\"\nname = \"c{i}\"\npool = \"d8\"\n\n"))
        .collect()
}

#[test]
fn twenty_thousand_cases_load_well_within_the_hang_guard() {
    let dir = tempfile::tempdir().unwrap();
    // Written out, one table per case, and all on one line (an inline
    // array): a column must not be counted from the line's start each time.
    let one_line = format!(
        "case = [{}]\n",
        (0..20_000)
            .map(|i| format!("{{ system = \"cortex\", name = \"c{i}\", pool = \"d8\" }}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (name, text) in [
        ("many.toml", numbered_cases(20_000)),
        ("line.toml", one_line),
    ] {
        let path = dir.path().join(name);
        write(&path, &text);
        let out = oddsmith()
            .args([
                "run",
                path.to_str().unwrap(),
                "--no-report",
                "--quiet",
                "--format",
                "csv",
            ])
            .assert()
            .success();
        // A header and one row per case.
        assert_eq!(
            String::from_utf8_lossy(&out.get_output().stdout)
                .lines()
                .count(),
            20_001
        );
    }
}

#[test]
fn one_case_past_the_cap_is_refused_at_the_first_case_too_many() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cap.toml");
    write(&path, &numbered_cases(100_001));
    oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        // 100,000 tables of five lines each come before it.
        .stderr(predicate::str::contains(
            "cap.toml:500001:1: more than 100000 cases",
        ));
}

// ---------------------------------------------------------------------------
// Items 20 and 21, and the `+` rule: what a bad pool is told back

#[test]
fn a_count_past_any_integer_is_reported_as_given() {
    oddsmith()
        .args(["cortex", "18446744073709551617d6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the pool has 18446744073709551617 dice",
        ));
    // Too long for one command-line argument, so from a scenario.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.toml");
    let many_terms = "d6 ".repeat(350_000);
    write(
        &path,
        &format!("[[case]]\nsystem = \"cortex\"\npool = \"{many_terms}\"\n"),
    );
    oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the pool has 350000 dice"));
}

#[test]
fn junk_input_is_echoed_short_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.toml");
    let junk = "x".repeat(1 << 20);
    write(
        &path,
        &format!("[[case]]\nsystem = \"cortex\"\npool = \"{junk}\"\n\n[[case]]\nsystem = \"cortex\"\npool = \"d8\\u0000\\u001b[2J\"\n"),
    );
    let out = oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("characters in all"));
    assert!(
        out.get_output().stderr.len() < 1000,
        "{}",
        out.get_output().stderr.len()
    );
    // The second case: NUL and ESC escaped, not sent to the terminal.
    write(
        &path,
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\\u0000\\u001b[2J\"\n",
    );
    let out = oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\\u{0}\\u{1b}[2J"));
    let stderr = &out.get_output().stderr;
    assert!(!stderr.iter().any(|&b| b == 0 || b == 0x1b));
}

#[test]
fn a_plus_that_joins_nothing_is_refused() {
    for pool in ["2d6+", "+d6", "d6++d8"] {
        oddsmith()
            .args(["cortex", pool])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "`+` must stand between two dice terms",
            ));
    }
}

// ---------------------------------------------------------------------------
// Items 2, 13 and 14, and empty case names: names that would write elsewhere
// or break the outputs are refused at load

/// A scenario file named `file_name` without a `name`, run with the working
/// folder set to a fresh folder holding a user's own chart.
fn run_unnamed(file_name: &str) -> (tempfile::TempDir, assert_cmd::assert::Assert) {
    let dir = tempfile::tempdir().unwrap();
    let scenarios = dir.path().join("scenarios");
    std::fs::create_dir(&scenarios).unwrap();
    write(&dir.path().join("cortex-mine.png"), "a user's picture");
    let path = scenarios.join(file_name);
    write(&path, "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
    let assert = oddsmith()
        .current_dir(dir.path())
        .args(["run", path.to_str().unwrap(), "--out", "reports/x"])
        .assert();
    (dir, assert)
}

#[test]
fn a_folder_name_from_the_file_name_gets_the_same_check() {
    let (dir, assert) = run_unnamed("...toml");
    assert.code(2).stderr(
        predicate::str::contains("named after the file, \"..\"")
            .and(predicate::str::contains("give the scenario a `name`")),
    );
    assert!(dir.path().join("cortex-mine.png").exists());
    let (_dir, assert) = run_unnamed("..toml");
    assert
        .code(2)
        .stderr(predicate::str::contains("named after the file, \".\""));
}

#[test]
fn a_scenario_named_like_the_index_is_refused() {
    let (_dir, assert) = run_unnamed("index.html.toml");
    assert.code(2).stderr(predicate::str::contains(
        "the index of `oddsmith report` has that name",
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    write(
        &path,
        "name = \"INDEX.md\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
    );
    oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("s.toml:1:1").and(predicate::str::contains("index")));
}

#[test]
fn case_names_must_be_printable_and_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    for (name, problem) in [
        ("", "is empty"),
        ("  ", "is empty"),
        ("a\\u0007b", "holds a control character"),
    ] {
        write(
            &path,
            &format!("[[case]]\nsystem = \"cortex\"\nname = \"{name}\"\npool = \"d8\"\n"),
        );
        oddsmith()
            .args(["run", path.to_str().unwrap(), "--no-report"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(problem).and(predicate::str::contains("s.toml:3:1")));
    }
}

// ---------------------------------------------------------------------------
// Item 15: one case under two spellings

#[test]
fn a_sweep_over_two_spellings_of_one_pool_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    write(
        &path,
        "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\", \"1d8\"]\n",
    );
    oddsmith()
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "\"pool=1d8\" is the same case as \"pool=d8\" (one value written two ways)",
        ));
}

// ---------------------------------------------------------------------------
// Items 16 and 17: intervals that do not claim more than the run saw

fn json_results(args: &[&str]) -> Vec<serde_json::Value> {
    let out = oddsmith()
        .args(args)
        .args(["--format", "json"])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    json["results"].as_array().unwrap().clone()
}

#[test]
fn a_mean_of_fourteen_identical_samples_has_no_interval() {
    let results = json_results(&[
        "cortex",
        "d4 d4",
        "--vs",
        "5d12",
        "--reaction-keep",
        "5",
        "--method",
        "both",
        "--trials",
        "100000",
        "--seed",
        "11",
    ]);
    let mc = results
        .iter()
        .find(|r| r["method"] == "monte-carlo")
        .unwrap();
    let exact = results.iter().find(|r| r["method"] == "exact").unwrap();
    // The run saw few successes, all with one effect step, while the exact
    // value is not that step: an interval of width 0 would exclude it.
    assert_ne!(
        mc["metrics"]["mean_effect_step"],
        exact["metrics"]["mean_effect_step"]
    );
    assert_eq!(
        mc["ci95"]["mean_effect_step"],
        serde_json::Value::Null,
        "{mc}"
    );
}

#[test]
fn wilson_bounds_are_exactly_zero_and_one_at_the_ends() {
    let results = json_results(&["cortex", "d8", "--method", "mc", "--trials", "5"]);
    let mut checked = 0;
    for (name, value) in results[0]["metrics"].as_object().unwrap() {
        let ci = &results[0]["ci95"][name];
        match value.as_f64() {
            _ if ci.is_null() => {}
            Some(0.0) => {
                assert_eq!(ci[0].as_f64(), Some(0.0), "{name}: {ci}");
                checked += 1;
            }
            Some(1.0) => {
                assert_eq!(ci[1].as_f64(), Some(1.0), "{name}: {ci}");
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(checked > 0, "no probability at 0 or 1: {}", results[0]);
}

// ---------------------------------------------------------------------------
// Item 5: a full stderr is never fatal

/// Runs `oddsmith` with stderr on `/dev/full`, where every write fails.
#[cfg(target_os = "linux")]
fn with_full_stderr(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    std::process::Command::new(common::bin())
        .args(args)
        .stderr(full)
        .output()
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_keeps_the_exit_code_and_the_results() {
    // Bad input: the message is lost, the exit code is not.
    assert_eq!(with_full_stderr(&["cortex", "d7"]).status.code(), Some(2));
    // A report is written and its results still reach stdout.
    let dir = tempfile::tempdir().unwrap();
    let path = common::scenario(dir.path(), "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
    let out_dir = dir.path().join("out");
    let out = with_full_stderr(&[
        "run",
        &path,
        "--out",
        out_dir.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("pool=d8"));
    assert!(out_dir.join("run.json").is_file());
}

// ---------------------------------------------------------------------------
// Item 11: threads are capped, with a note

#[test]
fn absurd_thread_counts_are_capped_with_a_note() {
    let cores = std::thread::available_parallelism().unwrap().get();
    for threads in ["10000", "4294967295"] {
        let out = oddsmith()
            .args([
                "cortex", "d8", "--vs", "2d6", "--method", "mc", "--trials", "20000",
            ])
            .args(["--threads", threads, "--format", "csv"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "running {} threads",
                4 * cores
            )));
        // The same results as any other thread count (docs/reports.md).
        let one = oddsmith()
            .args([
                "cortex", "d8", "--vs", "2d6", "--method", "mc", "--trials", "20000",
            ])
            .args(["--threads", "1", "--format", "csv"])
            .assert()
            .success();
        assert_eq!(out.get_output().stdout, one.get_output().stdout);
    }
}

// ---------------------------------------------------------------------------
// Item 18: a tiny balance value is printed, not rounded to zero

#[test]
fn tiny_balance_values_print_as_the_quick_commands_do() {
    let out = oddsmith()
        .args([
            "balance",
            "d4",
            "--ladder",
            "2d12,5d12,20d12",
            "--target",
            "0",
        ])
        .assert()
        .success();
    let table = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    // 20d12 leaves d4 a 4.1e-21 chance, as the CSV says.
    assert!(table.contains("is 20d12: 4.108e-21"), "{table}");
    assert!(!table.contains("0.000000"), "{table}");
}

// ---------------------------------------------------------------------------
// Item 19: `balance` takes the `--method` its messages suggest

#[test]
fn balance_accepts_method_mc() {
    let json = common::json_of(&[
        "balance",
        "d10 2d8 d6",
        "--ladder",
        "2d6,3d8",
        "--method",
        "mc",
        "--trials",
        "20000",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let answer = &json["balance"][0];
    assert_eq!(answer["best"], "3d8", "{json}");
    // docs/cortex.md's exact figure for d10 2d8 d6 against 3d8 is 0.5816; 20,000
    // trials put the estimate within 0.02 of it (six standard errors).
    let value = answer["best_value"].as_f64().unwrap();
    assert!((value - 0.5816).abs() < 0.02, "{value}");
}

// ---------------------------------------------------------------------------
// Items 9, 10 and 12: a report folder is replaced as a whole, by one run at
// a time, and the results are printed whatever happens to the folder

const TWO_CASES: &str =
    "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nvs = [\"2d6\", \"2d8\"]\n";

/// Every entry of a folder with its bytes (empty for a folder).
fn contents(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

fn run_into(scenario: &str, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    oddsmith()
        .args([
            "run",
            scenario,
            "--out",
            out.to_str().unwrap(),
            "--format",
            "csv",
        ])
        .args(["--method", "mc", "--trials", "2000", "--quiet"])
        .args(extra)
        .assert()
}

#[test]
fn a_failure_while_writing_leaves_the_old_folder_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    run_into(&scenario, &out, &["--no-charts"]).success();
    // Something that is not a file where this run's chart goes: writing
    // fails after the tables were made.
    std::fs::create_dir(out.join("cortex-p-success.png")).unwrap();
    let before = contents(&out);
    let failed = run_into(&scenario, &out, &["--seed", "2"]).code(1);
    // The tables of the old run, untouched; the results reached stdout.
    assert_eq!(contents(&out), before);
    assert!(String::from_utf8_lossy(&failed.get_output().stdout).contains("vs=2d6,"));
    // Nothing left beside the folder.
    let names: Vec<_> = contents(dir.path()).into_keys().collect();
    assert_eq!(names, ["report", "s.toml"]);
}

#[test]
fn pruning_skips_a_folder_named_like_a_chart_and_results_are_printed() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    run_into(&scenario, &out, &[]).success();
    std::fs::create_dir(out.join("cortex-mine.png")).unwrap();
    std::fs::write(out.join("cortex-mine.png/inside.txt"), "mine").unwrap();
    std::fs::write(out.join("notes.txt"), "my notes").unwrap();
    let rerun = run_into(&scenario, &out, &["--seed", "2"]).success();
    assert!(String::from_utf8_lossy(&rerun.get_output().stdout).contains("vs=2d6,"));
    assert_eq!(
        std::fs::read(out.join("cortex-mine.png/inside.txt")).unwrap(),
        b"mine"
    );
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"my notes");
}

/// A lock held on the report folder's parent, as a running oddsmith holds it.
#[cfg(unix)]
#[test]
fn a_second_run_waits_for_the_folder_lock() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    let parent = std::fs::File::open(dir.path()).unwrap();
    parent.lock().unwrap();
    let mut child = std::process::Command::new(common::bin())
        .args([
            "run",
            &scenario,
            "--out",
            out.to_str().unwrap(),
            "--method",
            "mc",
        ])
        .args(["--trials", "2000", "--no-charts"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("waiting: another oddsmith is writing"),
        "{line}"
    );
    assert!(!out.exists(), "written while another run held the lock");
    parent.unlock().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(out.join("run.json").is_file());
}

#[test]
fn runs_at_once_into_one_folder_leave_the_files_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(dir.path(), TWO_CASES);
    let out = dir.path().join("report");
    let runs: Vec<_> = (0..8)
        .map(|seed| {
            std::process::Command::new(common::bin())
                .args([
                    "run",
                    &scenario,
                    "--out",
                    out.to_str().unwrap(),
                    "--method",
                    "mc",
                ])
                .args(["--trials", "2000", "--quiet", "--format", "csv", "--seed"])
                .arg(seed.to_string())
                .stderr(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let printed: Vec<Vec<u8>> = runs
        .into_iter()
        .map(|child| child.wait_with_output().unwrap().stdout)
        .collect();
    let run_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let seed = run_json["seed"].as_u64().unwrap() as usize;
    // The summary is the one the run of that seed printed.
    assert_eq!(
        std::fs::read(out.join("summary.csv")).unwrap(),
        printed[seed]
    );
}

// ---------------------------------------------------------------------------
// Item 1: charts stay bounded whatever the case count

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn a_sweep_past_the_chart_limit_draws_a_bounded_slice_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let difficulties: Vec<String> = (1..=250).map(|d| d.to_string()).collect();
    let scenario = common::scenario(
        dir.path(),
        &format!(
            "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\ndifficulty = [{}]\n",
            difficulties.join(", ")
        ),
    );
    let out = dir.path().join("report");
    oddsmith()
        .args([
            "run",
            &scenario,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--format",
            "csv",
        ])
        .assert()
        .success();
    // Each chart draws the first 200 cases, or the first half, quarter ...
    // of them where 200 would pass the pixel cap (8 million: a row of 200
    // difficulties is 27,480 pixels wide), and says how many.
    let mut drawn = Vec::new();
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => {
                let svg = std::fs::read_to_string(&path).unwrap();
                let shown = [200, 100, 50, 25, 12, 6, 3, 1]
                    .into_iter()
                    .find(|n| svg.contains(&format!("Only the first {n} of 250 cases")))
                    .unwrap_or_else(|| panic!("{path:?} says no cut"));
                drawn.push(shown);
            }
            Some("png") => {
                let (w, h) = png_size(&std::fs::read(&path).unwrap());
                assert!(
                    u64::from(w) * u64::from(h) <= 8_000_000,
                    "{path:?}: {w} x {h}"
                );
            }
            _ => {}
        }
    }
    assert!(drawn.contains(&200), "{drawn:?}");
    assert!(drawn.iter().any(|&n| n < 200), "{drawn:?}");
}

// ---------------------------------------------------------------------------
// Item 7: the report index is linear in the cases

#[test]
fn the_report_of_a_hundred_thousand_value_sweep_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let scenarios = dir.path().join("scenarios");
    std::fs::create_dir(&scenarios).unwrap();
    let difficulties: Vec<String> = (1..=100_000).map(|d| d.to_string()).collect();
    write(
        &scenarios.join("big.toml"),
        &format!(
            "[[sweep]]\nsystem = \"cortex\"\npool = \"d4\"\ndifficulty = [{}]\n",
            difficulties.join(", ")
        ),
    );
    let out = dir.path().join("reports");
    // About 25 s in a debug build on a busy machine; the quadratic index
    // took over 200 s.
    oddsmith()
        .timeout(Duration::from_secs(120))
        .args([
            "report",
            scenarios.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--no-charts", "--quiet"])
        .assert()
        .success();
    assert!(std::fs::read_to_string(out.join("index.md"))
        .unwrap()
        .contains("100000 values"));
}

// ---------------------------------------------------------------------------
// `report` says what it skips

#[cfg(unix)]
#[test]
fn report_names_the_toml_entries_it_skips() {
    let dir = tempfile::tempdir().unwrap();
    let scenarios = dir.path().join("scenarios");
    std::fs::create_dir(&scenarios).unwrap();
    write(
        &scenarios.join("ok.toml"),
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
    );
    std::os::unix::fs::symlink(
        dir.path().join("gone.toml"),
        scenarios.join("dangling.toml"),
    )
    .unwrap();
    std::fs::create_dir(scenarios.join("folder.toml")).unwrap();
    oddsmith()
        .args(["report", scenarios.to_str().unwrap(), "--out"])
        .arg(dir.path().join("reports"))
        .args(["--no-charts"])
        .assert()
        .success()
        .stderr(predicate::str::contains("skipping").and(predicate::str::contains("dangling.toml")))
        .stderr(predicate::str::contains("folder.toml: it is a folder"));
}

// ---------------------------------------------------------------------------
// Rules of a reacting pool without one are refused, not ignored

#[test]
fn reaction_rules_without_a_reacting_pool_are_refused() {
    for (args, needles) in [
        (
            &["cortex", "d8", "--difficulty", "7", "--effect-step-down"][..],
            &[
                "`--effect-step-down` applies only against a reacting pool",
                "a fixed difficulty",
            ][..],
        ),
        (
            &["cortex", "d8", "--reaction-keep", "3"],
            &["`--reaction-keep`", "no opposition"],
        ),
    ] {
        common::refused(args, needles);
    }
    // A defaults table may hold them for the cases that have a pool.
    let dir = tempfile::tempdir().unwrap();
    let scenario = common::scenario(
        dir.path(),
        "[cortex]\nreaction_keep = 3\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\ndifficulty = 7\n",
    );
    oddsmith()
        .args(["run", &scenario, "--no-report"])
        .assert()
        .success();
}
