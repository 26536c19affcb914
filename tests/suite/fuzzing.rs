//! The fuzz targets' invariants (`common/fuzzing.rs`) in the normal test
//! suite: the dice notation parser and the scenario loader on
//! random text and bytes, on text made of scenario words, and on the
//! committed seed corpus (`fuzz/seeds/`) with random edits. The long
//! libFuzzer run is the documented command in the README; this keeps the
//! same properties checked on every `cargo test`.
//!
//! Below the properties, every input the fuzzers found a problem with,
//! as a regression test.

use crate::common;

use common::fuzzing::{check_dice, check_scenario, FUZZ_FILE};
use oddsmith::options::Kind;
use oddsmith::scenario;
use oddsmith::systems::System;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(7),
        ..Config::default()
    }
}

/// The keys a scenario is made of: its own, and every key of every system
/// (from the systems' descriptors, so a new key is fuzzed at once).
fn scenario_keys() -> Vec<String> {
    let mut keys: Vec<String> = [
        "system",
        "name",
        "description",
        "trials",
        "seed",
        "case",
        "sweep",
        "cortex",
        "cortex.ties",
    ]
    .map(String::from)
    .to_vec();
    for system in System::ALL {
        for key in system.keys() {
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
    }
    keys
}

/// Every word a choice key of some system allows.
fn choice_words() -> Vec<&'static str> {
    let mut words = Vec::new();
    for system in System::ALL {
        for key in system.key_defs() {
            if let Kind::Choice(names) = key.kind {
                for word in names() {
                    if !words.contains(&word) {
                        words.push(word);
                    }
                }
            }
        }
    }
    words
}

/// Words scenarios are made of, so random lines often parse as TOML and
/// reach the loader's own checks rather than the TOML parser's.
fn scenario_line() -> impl Strategy<Value = String> {
    let header = prop::sample::select(vec![
        "[[case]]",
        "[[sweep]]",
        "[cortex]",
        "[storytelling]",
        "[[balance]]",
        "[case]",
        "[cortex.keep]",
    ])
    .prop_map(String::from);
    let key = prop::sample::select(scenario_keys());
    let value = prop_oneof![
        prop::sample::select(choice_words()).prop_map(|w| format!("\"{w}\"")),
        prop::sample::select(vec![
            "\"cortex\"",
            "\"d10 2d8 d6\"",
            "\"2d6\"",
            "\"d7\"",
            "\"100000d4\"",
            "\"\"",
            "\"action\"",
            "\"reaction\"",
            "\"max-total\"",
            "\"..\"",
            "true",
            "false",
            "1979-05-27",
            "inf",
            "nan",
            "-0.0",
            "1e400",
            "0x7fffffffffffffff",
            "-9223372036854775808",
            "9223372036854775808",
            "[\"d8\", \"d6\"]",
            "[1, 2, 3]",
            "[]",
            "[[1]]",
            "{ miss = 1 }",
            "{}",
        ])
        .prop_map(String::from),
        any::<i64>().prop_map(|i| i.to_string()),
        (-3i64..30).prop_map(|i| i.to_string()),
        "\"[ d+0-9D]{0,12}\"",
    ];
    prop_oneof![
        1 => header,
        4 => (key, value).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => "[ -~]{0,20}",
    ]
}

/// The committed seed corpus of the scenario fuzzer.
fn seeds() -> Vec<Vec<u8>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/scenario");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// One random edit of a byte string: insert, delete or replace a byte, or
/// duplicate a slice (how libFuzzer mutates, roughly).
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
    Duplicate(usize, usize),
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let n = bytes.len().max(1);
    match *edit {
        Edit::Insert(at, b) => bytes.insert(at % (n + 1).min(bytes.len() + 1), b),
        Edit::Delete(at) if !bytes.is_empty() => {
            bytes.remove(at % n);
        }
        Edit::Replace(at, b) if !bytes.is_empty() => bytes[at % n] = b,
        Edit::Duplicate(at, len) if !bytes.is_empty() => {
            let start = at % n;
            let end = (start + len % 64).min(bytes.len());
            let slice = bytes[start..end].to_vec();
            bytes.splice(start..start, slice);
        }
        _ => {}
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"[]=\"\n .,{}d0123456789#'".to_vec())
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(a, b)| Edit::Insert(a, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), byte).prop_map(|(a, b)| Edit::Replace(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, l)| Edit::Duplicate(a, l)),
    ]
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn dice_notation_never_panics_on_any_text(text in any::<String>()) {
        check_dice(&text);
    }

    #[test]
    fn dice_notation_never_panics_on_notation_like_text(text in "[ +dD0-9\t]{0,24}") {
        check_dice(&text);
    }

    #[test]
    fn dice_notation_reads_any_well_formed_pool(
        terms in prop::collection::vec((prop::option::of(0u64..40), 0u32..14), 1..6),
        sep in prop::sample::select(vec![" ", "+", " + ", "  "]),
    ) {
        let text = terms
            .iter()
            .map(|(count, sides)| match count {
                Some(c) => format!("{c}d{sides}"),
                None => format!("D{sides}"),
            })
            .collect::<Vec<_>>()
            .join(sep);
        check_dice(&text);
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn scenario_loader_never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_scenario(&bytes);
    }

    #[test]
    fn scenario_loader_never_panics_on_any_text(text in any::<String>()) {
        check_scenario(text.as_bytes());
    }

    #[test]
    fn scenario_loader_never_panics_on_scenario_words(
        lines in prop::collection::vec(scenario_line(), 0..16)
    ) {
        check_scenario(lines.join("\n").as_bytes());
    }

    #[test]
    fn scenario_loader_never_panics_on_edited_seeds(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let seeds = seeds();
        let mut bytes = seed.get(&seeds).clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        check_scenario(&bytes);
    }
}

#[test]
fn every_seed_loads_or_fails_with_a_location() {
    let seeds = seeds();
    assert!(seeds.len() >= 5);
    for seed in &seeds {
        check_scenario(seed);
    }
    let dice_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/dice");
    for entry in std::fs::read_dir(dice_dir).unwrap() {
        check_dice(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
}

// ---------------------------------------------------------------------------
// Regressions: inputs that once broke an invariant, and inputs built to.

fn error(text: &str) -> String {
    scenario::parse_bytes(text.as_bytes(), FUZZ_FILE, "fuzz")
        .unwrap_err()
        .0
}

/// Deep nesting is refused by toml's recursion limit, with a position, and
/// never overflows the stack (every form of nesting TOML has).
#[test]
fn deep_nesting_is_an_error_with_a_location() {
    let depth = 50_000;
    let cases = [
        format!("a = {}{}", "[".repeat(depth), "]".repeat(depth)),
        format!("a = {}1{}", "{a = ".repeat(depth), "}".repeat(depth)),
        format!("[{}]", vec!["a"; depth].join(".")),
        format!("[[{}]]", vec!["a"; depth].join(".")),
        format!("{} = 1", vec!["a"; depth].join(".")),
        format!(
            "[[case]]\nsystem = \"cortex\"\npool = {}\"d8\"{}",
            "[".repeat(3000),
            "]".repeat(3000)
        ),
    ];
    for text in &cases {
        check_scenario(text.as_bytes());
        assert!(error(text).contains("TOML syntax error"));
    }
}

/// toml reports a dotted key past its recursion limit without a position;
/// the loader finds the line itself.
#[test]
fn a_key_too_deep_is_located_on_its_line() {
    let text = format!(
        "name = \"x\"\n\n[[case]]\nsystem = \"cortex\"\n{} = 1\npool = \"d8\"\n",
        vec!["k"; 100].join(".")
    );
    let message = error(&text);
    assert!(
        message.starts_with("fuzz.toml:5:1: TOML syntax error"),
        "{message}"
    );
    check_scenario(text.as_bytes());
}

/// Bytes that are not UTF-8 are located where they start; a byte-order
/// mark is skipped.
#[test]
fn non_utf8_is_located_and_a_bom_is_skipped() {
    let mut bytes = b"name = \"x\"\n[[case]]\nsys\xfftem = 1\n".to_vec();
    let message = scenario::parse_bytes(&bytes, "s.toml", "s").unwrap_err().0;
    assert!(
        message.starts_with("s.toml:3:4: the file is not valid UTF-8"),
        "{message}"
    );
    check_scenario(&bytes);
    bytes = "\u{feff}[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n"
        .as_bytes()
        .to_vec();
    let s = scenario::parse_bytes(&bytes, "s.toml", "s").unwrap();
    assert_eq!(s.cases.len(), 1);
}

/// A file with no case points at its end, where a case would go.
#[test]
fn no_cases_is_located_at_the_end() {
    assert_eq!(
        error("name = \"x\"\ntrials = 5\n"),
        "fuzz.toml:3:1: the scenario has no cases: add a [[case]], a [[sweep]] or a [[balance]]"
    );
    assert!(error("").starts_with("fuzz.toml:1:1: the scenario has no cases"));
}

/// Numbers at the edges of what TOML and i64 hold.
#[test]
fn extreme_numbers_are_errors_with_locations() {
    for (value, message) in [
        (
            "9223372036854775808",
            "fuzz.toml:3:15: the integer 9223372036854775808 is out of range",
        ),
        (
            "-9223372036854775808",
            "fuzz.toml:4:1: `keep` must be a whole number from 1 to 5, not -9223372036854775808",
        ),
        // 1e400 reads as infinity: a float where a whole number belongs.
        (
            "1e400",
            "fuzz.toml:4:1: `keep` must be a whole number from 1 to 5, not a float",
        ),
        (
            "nan",
            "fuzz.toml:4:1: `keep` must be a whole number from 1 to 5, not a float",
        ),
        (
            "0x7fffffffffffffff",
            "fuzz.toml:4:1: `keep` must be a whole number from 1 to 5, not 9223372036854775807",
        ),
        ("-0x1", "fuzz.toml:3:15: TOML syntax error"),
    ] {
        let text = format!(
            "[[case]]\nsystem = \"cortex\"\nheroic_step = {value}\nkeep = {value}\npool = \"d8\"\n"
        );
        let e = error(&text);
        assert!(e.starts_with(message), "{value}: {e}");
        check_scenario(text.as_bytes());
    }
}

/// A scenario's name is its report folder: it must stay one plain folder.
#[test]
fn a_name_that_would_leave_the_reports_folder_is_refused() {
    for name in [
        "..",
        ".",
        "",
        "  ",
        "a/b",
        "../../etc",
        "a\\\\b",
        "tab\\there",
    ] {
        let text = format!("name = \"{name}\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n");
        let e = error(&text);
        assert!(
            e.starts_with("fuzz.toml:1:1: `name` is") && e.contains("report folder"),
            "{name}: {e}"
        );
    }
    let ok = "name = \"doom ladder (v2)\"\n[[case]]\nsystem = \"cortex\"\npool = \"d8\"\n";
    assert_eq!(
        scenario::parse(ok, "s.toml", "s").unwrap().name,
        "doom ladder (v2)"
    );
}

/// The libFuzzer dictionary (`fuzz/scenario.dict`) holds every system's name
/// and table, every key of every system and every word a choice key allows.
#[test]
fn the_fuzz_dictionary_knows_every_key() {
    let dict = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/scenario.dict"))
        .unwrap();
    let entries: Vec<&str> = dict
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::trim)
        .collect();
    let mut wanted: Vec<String> = ["system", "name", "description", "trials", "seed"]
        .iter()
        .map(|k| format!("\"{k}\""))
        .collect();
    for system in System::ALL {
        wanted.extend(system.keys().iter().map(|k| format!("\"{k}\"")));
    }
    wanted.extend(
        choice_words()
            .into_iter()
            .map(|w| format!("\"\\\"{w}\\\"\"")),
    );
    for system in System::ALL {
        wanted.push(format!("\"\\\"{}\\\"\"", system.name()));
        wanted.push(format!("\"[{}]\"", system.name()));
    }
    for word in wanted {
        assert!(
            entries.contains(&word.as_str()),
            "fuzz/scenario.dict lacks {word}"
        );
    }
}
