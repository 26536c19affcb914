//! Command-line tests: output formats, report folders, and every bad input
//! of the command line (exit 2 with a message, never a panic).

use crate::common;

use common::oddsmith;

use std::io::Read;
use std::process::Stdio;

use predicates::prelude::*;

fn scenario(dir: &tempfile::TempDir, text: &str) -> std::path::PathBuf {
    let path = dir.path().join("s.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn table_is_the_default_format() {
    oddsmith()
        .args(["cortex", "d8 d6 d6", "--vs", "2d6"])
        .assert()
        .success()
        .stdout(predicate::str::contains("d8 2d6 vs 2d6  [cortex, exact]"))
        .stdout(predicate::function(|out: &str| {
            out.lines()
                .any(|l| l.starts_with("  chance of success ") && l.ends_with(" 0.706790"))
        }));
}

#[test]
fn json_has_the_spec_shape() {
    let out = oddsmith()
        .args([
            "cortex", "d8 d6 d6", "--vs", "2d6", "--format", "json", "--method", "both",
            "--trials", "20000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tool"], "oddsmith");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["method"], "exact");
    assert_eq!(results[0]["inputs"]["ties"], "reaction");
    assert!((results[0]["metrics"]["p_success"].as_f64().unwrap() - 0.7068).abs() < 1e-4);
    assert_eq!(results[1]["method"], "monte-carlo");
    assert_eq!(results[1]["trials"], 20000);
    assert_eq!(results[1]["seed"], 1);
    let ci = results[1]["ci95"]["p_success"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() < ci[1].as_f64().unwrap());
    assert!(
        results[1]["z_vs_exact"]["p_success"]
            .as_f64()
            .unwrap()
            .abs()
            < 5.0
    );
}

#[test]
fn csv_is_the_summary_table() {
    oddsmith()
        .args([
            "cortex",
            "d10 2d8 d6",
            "--difficulty",
            "11",
            "--format",
            "csv",
            "--ties",
            "action",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "case,system,method,pool,difficulty,keep,ties,heroic_step,policy,mean_total,",
        ))
        .stdout(predicate::str::contains(
            "d10 2d8 d6 vs 11,cortex,exact,d10 2d8 d6,11,2,action,5,max-total,",
        ));
}

#[test]
fn same_seed_same_numbers_on_any_thread_count() {
    let run = |threads: &str| {
        oddsmith()
            .args([
                "cortex",
                "d10 2d8 d6",
                "--vs",
                "3d8",
                "--method",
                "mc",
                "--trials",
                "150000",
                "--seed",
                "9",
                "--format",
                "json",
                "--threads",
                threads,
            ])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn run_writes_the_report_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        &dir,
        "name = \"t\"\ntrials = 5000\n[[sweep]]\nsystem = \"cortex\"\npool = [\"d8 d6\", \"d10 d6\"]\nvs = [\"2d6\"]\n",
    );
    let out = dir.path().join("out");
    oddsmith()
        .args([
            "run",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--method",
            "both",
            "--quiet",
            "--no-charts",
        ])
        .assert()
        .success();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 5, "{summary}");
    let metrics = std::fs::read_to_string(out.join("metrics.csv")).unwrap();
    assert!(metrics.contains("d8 d6 vs 2d6,cortex,monte-carlo,p_success,"));
    assert!(metrics
        .lines()
        .any(|l| l.starts_with("d8 d6 vs 2d6,cortex,exact,p_success,") && l.ends_with(",,,")));
    let dist = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(dist.contains("d10 d6 vs 2d6,exact,win_effect,fail,"));
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["seed"], 1);
    assert_eq!(run["trials"], 5000);
    assert_eq!(run["rng"], "Xoshiro256PlusPlus");
    assert_eq!(run["block_size"], 65536);
    assert_eq!(run["results"][0]["dropped_mass"], 0.0);
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("tmp")),
        "{names:?}"
    );
}

#[test]
fn no_report_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(&dir, "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
    oddsmith()
        .current_dir(dir.path())
        .args(["run", path.to_str().unwrap(), "--no-report"])
        .assert()
        .success()
        .stdout(predicate::str::contains("pool=d8"));
    assert!(!dir.path().join("reports").exists());
}

#[test]
fn unwritable_output_folder_is_exit_1_with_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(&dir, "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    oddsmith()
        .args([
            "run",
            path.to_str().unwrap(),
            "--out",
            blocker.join("sub").to_str().unwrap(),
            "--no-charts",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: cannot create the report folder",
        ));
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "not a folder");
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("oddsmith"))
        .args([
            "cortex",
            "d10 2d8 d6",
            "--vs",
            "2d6",
            "--method",
            "both",
            "--trials",
            "70000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then hang up.
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

fn bad(args: &[&str], message: &str) {
    oddsmith()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn bad_pools_are_exit_2() {
    bad(
        &["cortex", "d7"],
        "d7 is not a Cortex die: use d4, d6, d8, d10 or d12",
    );
    bad(&["cortex", "d0"], "d0 is not a Cortex die");
    bad(&["cortex", ""], "the pool is empty");
    bad(&["cortex", "x"], "`x` is not a dice term");
    bad(&["cortex", "3d"], "`3d` is not a dice term");
    bad(
        &["cortex", "d8", "--vs", "2d7"],
        "`--vs`: d7 is not a Cortex die",
    );
}

#[test]
fn bad_flags_are_exit_2() {
    bad(
        &["cortex", "d8", "--trials=0"],
        "`--trials` must be at least 1",
    );
    bad(&["cortex", "d8", "--trials=-5"], "--trials");
    bad(
        &["cortex", "d8", "--keep=0"],
        "`--keep` must be a whole number from 1 to 5, not 0",
    );
    bad(
        &["cortex", "d8", "--vs", "2d6", "--difficulty", "7"],
        "not both",
    );
    bad(
        &["cortex", "d8", "--difficulty=-1"],
        "`--difficulty` must be a whole number",
    );
    bad(
        &["cortex", "d8", "--ties", "gm"],
        "`--ties` is \"gm\"; allowed: `reaction`, `action`",
    );
    bad(
        &["cortex", "d8", "--heroic-step=0"],
        "`--heroic-step` must be a whole number of at least 1",
    );
    bad(
        &["cortex", "d8", "--threads=0"],
        "`--threads` must be at least 1",
    );
    bad(&["cortex", "d8", "--method", "magic"], "--method");
}

#[test]
fn too_large_for_exact_refuses_naming_mc() {
    bad(
        &[
            "cortex", "1000d12", "--vs", "5d12", "--keep", "5", "--method", "exact",
        ],
        "use --method mc",
    );
    // auto falls back to Monte Carlo.
    oddsmith()
        .args([
            "cortex", "1000d12", "--keep", "5", "--trials", "1000", "--format", "csv",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("monte-carlo"));
}

#[test]
fn bad_scenarios_are_exit_2_with_locations() {
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str, message: &str| {
        let path = scenario(&dir, text);
        oddsmith()
            .args(["run", path.to_str().unwrap(), "--no-report"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("panicked").not());
    };
    check("[[case]\n", "s.toml:1:");
    check(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\nbogus = 1\n",
        "s.toml:4:1: unknown key `bogus`",
    );
    check(
        "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\nkeep = \"two\"\n",
        "s.toml:4:1: `keep` must be a whole number from 1 to 5, not a string",
    );
    check(
        "trials = -5\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
        "s.toml:1:1: `trials` must be a whole number of at least 1, not -5",
    );
    check(
        "[[case]]\nsystem = \"poker\"\npool = \"d8\"\n",
        "unknown system \"poker\"",
    );
    check(
        "[cortex]\nagain = 10\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
        "s.toml:2:1: unknown key `again` in [cortex]",
    );
    bad(
        &["run", "/nonexistent/scenario.toml"],
        "cannot read scenario /nonexistent/scenario.toml",
    );
}

#[test]
fn every_subcommand_help_ends_with_two_examples() {
    for command in [
        "run",
        "cortex",
        "scene",
        "balance",
        "advantage",
        "storytelling",
        "report",
    ] {
        let out = oddsmith().args([command, "--help"]).assert().success();
        let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let lines: Vec<&str> = help.trim_end().lines().collect();
        let n = lines.len();
        assert_eq!(lines[n - 3], "Examples:", "{command}:\n{help}");
        for example in &lines[n - 2..] {
            assert!(
                example.starts_with(&format!("  oddsmith {command} "))
                    || *example == "  oddsmith report",
                "{command}: {example}"
            );
        }
    }
}

#[test]
fn misspelt_flags_get_a_suggestion() {
    oddsmith()
        .args(["cortex", "d8", "--tiez", "action"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "similar argument exists: '--ties'",
        ));
}

/// `--help` with runs of white space made one space, so a wrapped line
/// reads as one.
fn help_of(args: &[&str]) -> String {
    let out = oddsmith().args(args).assert().success();
    let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    help.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_quick_command_describes_every_key_flag() {
    use oddsmith::cli::quick_command;
    use oddsmith::systems::System;
    for system in System::ALL {
        let command = quick_command(system);
        let help = help_of(&[command, "--help"]);
        for key in system.key_defs() {
            let line = key
                .help_line()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                help.contains(&line),
                "{command} --help lacks `{}`'s line {line:?}:\n{help}",
                key.name
            );
            let shown = if key.positional {
                format!("<{}>", key.name.to_uppercase())
            } else {
                key.flag()
            };
            assert!(help.contains(&shown), "{command} --help lacks {shown}");
        }
    }
}

#[test]
fn balance_help_describes_every_key_flag() {
    use oddsmith::systems::System;
    let help = help_of(&["balance", "--help"]);
    for system in System::ALL {
        for key in system.key_defs() {
            let flag = key.flag();
            // Balance's own `--target` is the metric's target; a key of that
            // name is given with `--set`.
            if flag == "--target" {
                continue;
            }
            let at = help
                .find(&format!("{flag} "))
                .unwrap_or_else(|| panic!("balance --help lacks {flag}"));
            let line = key
                .help_line()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                help[at..].contains(&line),
                "balance --help lacks {flag}'s line {line:?}"
            );
        }
    }
}

#[test]
fn key_flags_keep_their_values_and_errors() {
    // A bad whole number is clap's usage error, naming the flag.
    oddsmith()
        .args(["cortex", "d8", "--keep", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'--keep <KEEP>'"));
    // A switch alone is true; `=false` turns it off.
    oddsmith()
        .args([
            "storytelling",
            "3",
            "--rote=false",
            "--format",
            "json",
            "--quiet",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"rote\": false"));
    oddsmith()
        .args([
            "balance",
            "--system",
            "storytelling",
            "--key",
            "dice",
            "--ladder",
            "1,2",
        ])
        .args([
            "--metric",
            "p_success",
            "--target",
            "0.5",
            "--set",
            "again=9",
            "--quiet",
        ])
        .assert()
        .success();
    oddsmith()
        .args([
            "balance",
            "--system",
            "storytelling",
            "--key",
            "dice",
            "--ladder",
            "1,2",
        ])
        .args([
            "--metric",
            "p_success",
            "--target",
            "0.5",
            "--set",
            "agian=9",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `--again`?"));
}
