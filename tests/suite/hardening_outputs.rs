//! Hardening, second round: output that could be turned against its
//! reader, and messages that misled. Each test here failed before its fix;
//! the items, by their number in the list of the second adversarial pass:
//!
//! - 8: [`index_md_keeps_names_descriptions_and_paths_inert`]: index.md
//!   writes a file path in a code span fenced longer than its backticks, and
//!   no line of a description opens a heading, list or block.
//! - 9: [`report_md_keeps_descriptions_and_the_reproduce_block_inert`]: the
//!   same for report.md, and a file name holding a line break and three
//!   backticks stays inside the Reproduce block (a four-backtick fence).
//! - 10: [`names_with_characters_xml_forbids_are_refused_at_load`]: a case
//!   or scenario name, or a description, holding U+FFFE, U+FFFF or another
//!   noncharacter is refused with exit 2 (and the SVG text escape replaces
//!   them, in src/report/format.rs's tests).
//! - 11: [`csv_cells_that_read_as_formulas_are_quoted_numbers_stay`]: a
//!   text cell beginning with `=`, `+`, `-` or `@` gets a leading `'`; a
//!   negative number stays a number.
//! - 17: [`a_comma_list_with_an_empty_item_says_so`].
//! - 18: [`balance_fixed_keys_take_one_value_and_say_so`].
//! - 19: [`balance_refuses_a_key_given_by_flag_and_by_set`].
//! - 20: [`every_help_lists_markdown_and_cites_no_outside_document`].

use std::path::Path;

use crate::common;

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// A description that would be live Markdown if written as is.
const HOSTILE_DESCRIPTION: &str = "<img src=x onerror=alert(1)>\n# Heading\n  - item\n\n1. first\n===\n[x]: javascript:alert(1)\n```";

/// A scenario whose description is [`HOSTILE_DESCRIPTION`].
fn hostile_scenario(name: Option<&str>) -> String {
    let name = name.map_or(String::new(), |n| format!("name = \"{n}\"\n"));
    format!(
        "{name}description = '''\n{HOSTILE_DESCRIPTION}'''\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n"
    )
}

/// No line of `page` begins a block the description's lines would open.
fn assert_description_inert(page: &str) {
    for line in page.lines() {
        for live in [
            "<img",
            "# Heading",
            "- item",
            "1. first",
            "===",
            "[x]:",
            "```\n",
        ] {
            assert!(
                !line.starts_with(live),
                "live Markdown `{line}` in:\n{page}"
            );
        }
    }
    let guarded = "\\<img src=x onerror=alert(1)>\n\\# Heading\n\\- item\n1\\. first\n\\===\n\\[x]: javascript:alert(1)\n\\`\\`\\`";
    assert!(page.contains(guarded), "{page}");
}

#[test]
fn index_md_keeps_names_descriptions_and_paths_inert() {
    let dir = tempfile::tempdir().unwrap();
    let scenarios = dir.path().join("scenarios");
    std::fs::create_dir(&scenarios).unwrap();
    let file = "x``<img src=x onerror=alert(1)>``.toml";
    write(&scenarios.join(file), &hostile_scenario(None));
    common::oddsmith()
        .current_dir(dir.path())
        .args([
            "report",
            "scenarios",
            "--out",
            "reports",
            "--no-charts",
            "--quiet",
        ])
        .assert()
        .success();
    let index = std::fs::read_to_string(dir.path().join("reports/index.md")).unwrap();
    // The path's code span is fenced by three backticks, so its two cannot
    // close it and leave the <img> as live HTML.
    assert!(
        index.contains(&format!("- Scenario: ``` scenarios/{file} ```\n")),
        "{index}"
    );
    assert!(index.contains("## x\\`\\`\\<img src=x onerror=alert(1)>\\`\\`\n"));
    assert_description_inert(&index);
}

#[cfg(unix)]
#[test]
fn report_md_keeps_descriptions_and_the_reproduce_block_inert() {
    let dir = tempfile::tempdir().unwrap();
    let file = "n\n```\n# x.toml";
    write(&dir.path().join(file), &hostile_scenario(Some("nl")));
    common::oddsmith()
        .current_dir(dir.path())
        .args(["run", file, "--out", "out", "--no-charts", "--quiet"])
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.path().join("out/report.md")).unwrap();
    assert!(
        page.contains("\n````sh\noddsmith run 'n\n```\n# x.toml' --out out --no-charts\n````\n"),
        "{page}"
    );
    assert_description_inert(&page);
}

#[test]
fn names_with_characters_xml_forbids_are_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    for (text, needles) in [
        (
            "[[case]]\nsystem = \"cortex\"\nname = \"a\\uFFFEb\"\npool = \"d8\"\n",
            &[
                "s.toml:3:1",
                "a\\u{fffe}b",
                "character XML forbids",
                "printable",
            ][..],
        ),
        (
            "name = \"x\\uFFFF\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
            &["s.toml:1:1", "character XML forbids"],
        ),
        (
            "description = \"one\\ntwo \\uFDD0\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
            &[
                "s.toml:1:1",
                "U+FDD0",
                "printable characters, line breaks and tabs",
            ],
        ),
    ] {
        let path = common::scenario(dir.path(), text);
        common::refused(&["run", &path, "--no-report"], needles);
    }
    // Line breaks and tabs in a description are fine.
    let path = common::scenario(
        dir.path(),
        "description = \"one\\n\\ttwo\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n",
    );
    common::oddsmith()
        .args(["run", &path, "--no-report", "--quiet"])
        .assert()
        .success();
}

#[test]
fn csv_cells_that_read_as_formulas_are_quoted_numbers_stay() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for name in ["=1+2", "@SUM(A1)", "+1 forward", "-3"] {
        text.push_str(&format!(
            "[[case]]\nsystem = \"storytelling\"\nname = \"{name}\"\ndice = 3\nmodifier = -1\n"
        ));
    }
    let path = common::scenario(dir.path(), &text);
    let out = common::oddsmith()
        .args(["run", &path, "--no-report", "--quiet", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let csv = String::from_utf8(out).unwrap();
    let first_cells: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(
        first_cells,
        ["'=1+2", "'@SUM(A1)", "'+1 forward", "-3"],
        "{csv}"
    );
    // The negative modifier is a number, as written.
    assert!(csv.lines().skip(1).all(|l| l.contains(",-1,")), "{csv}");
}

#[test]
fn a_comma_list_with_an_empty_item_says_so() {
    for (args, needles) in [
        (
            &["cortex", ","][..],
            &["POOL: item 1 of its 2 comma-separated values is empty"][..],
        ),
        (
            &["cortex", "d8", "--vs", "2d6,"],
            &["`--vs`: item 2 of its 2 comma-separated values is empty"],
        ),
        (&["storytelling", "3,,4"], &["DICE: item 2 of its 3"]),
    ] {
        common::refused(args, needles);
        let out = common::oddsmith().args(args).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains("twice"));
    }
}

#[test]
fn balance_fixed_keys_take_one_value_and_say_so() {
    let general = [
        "balance",
        "--system",
        "advantage",
        "--key",
        "die",
        "--ladder",
        "d6,d8",
        "--metric",
        "p_strong",
        "--target",
        "0.3",
    ];
    for extra in [&["--rolls", "6,10"][..], &["--set", "rolls=6,10"]] {
        let args: Vec<&str> = general.iter().chain(extra).copied().collect();
        common::refused(
            &args,
            &[
                "rolls`",
                "takes one value of each fixed key, not the list \"6,10\"",
                "[[balance]]",
            ],
        );
    }
}

#[test]
fn balance_refuses_a_key_given_by_flag_and_by_set() {
    let general = [
        "balance",
        "--system",
        "cortex",
        "--key",
        "vs",
        "--ladder",
        "2d6,3d8",
        "--metric",
        "p_success",
        "--target",
        "0.5",
    ];
    for extra in [
        &["--pool", "d8 d6", "--set", "pool=d10 d10"][..],
        &["--set", "pool=d8", "--set", "pool=d10"],
    ] {
        let args: Vec<&str> = general.iter().chain(extra).copied().collect();
        common::refused(&args, &["`pool` is given twice", "give each key once"]);
    }
}

#[test]
fn every_help_lists_markdown_and_cites_no_outside_document() {
    let commands = [
        "run",
        "report",
        "cortex",
        "scene",
        "conflict",
        "balance",
        "advantage",
        "storytelling",
    ];
    let mut seen_format = 0;
    for command in commands {
        for flag in ["-h", "--help"] {
            let out = common::oddsmith()
                .args([command, flag])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            let help = String::from_utf8(out).unwrap();
            assert!(!help.contains("SPEC"), "{command} {flag}:\n{help}");
            if help.contains("--format") {
                seen_format += 1;
                assert!(
                    help.contains("table, csv, json or markdown"),
                    "{command} {flag}:\n{help}"
                );
            }
        }
    }
    assert!(seen_format >= 12, "{seen_format}");
    let top = common::oddsmith().arg("--help").output().unwrap();
    assert!(!String::from_utf8_lossy(&top.stdout).contains("SPEC"));
}
