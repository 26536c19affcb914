//! Scenario reading: positions, sweeps and their names, errors at file, line
//! and column, defaults under each case.

use super::*;
use crate::options::Pos;

#[test]
fn positions_are_one_based() {
    let text = "a = 1\nbb = 2\n";
    assert_eq!(position(text, 0), Pos { line: 1, col: 1 });
    assert_eq!(position(text, 9), Pos { line: 2, col: 4 });
}

#[test]
fn sweeps_expand_last_key_fastest_and_are_named() {
    let text = r#"
[[sweep]]
system = "cortex"
pool = ["d8 2d6", "d10 d8 d6"]
vs = ["2d6", "2d8"]
"#;
    let s = parse(text, "t.toml", "t").unwrap();
    let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "d8 2d6 vs 2d6",
            "d8 2d6 vs 2d8",
            "d10 d8 d6 vs 2d6",
            "d10 d8 d6 vs 2d8"
        ]
    );
}

#[test]
fn other_swept_keys_follow_the_pairing() {
    let text = "[[sweep]]\nsystem = \"cortex\"\npool = [\"d8\"]\nvs = [\"2d6\"]\nties = [\"reaction\", \"action\"]\n";
    let s = parse(text, "t.toml", "t").unwrap();
    let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["d8 vs 2d6, ties=reaction", "d8 vs 2d6, ties=action"]
    );
}

#[test]
fn a_sweep_of_single_values_is_named_as_its_case_would_be() {
    let text = "[[sweep]]\nsystem = \"storytelling\"\ndice = 5\nagain = 9\n[[sweep]]\nsystem = \"storytelling\"\nname = \"nine\"\ndice = 5\n";
    let s = parse(text, "t.toml", "t").unwrap();
    let case = parse(
        "[[case]]\nsystem = \"storytelling\"\ndice = 5\n",
        "t.toml",
        "t",
    )
    .unwrap();
    assert_eq!(s.cases[0].name, case.cases[0].name);
    assert_ne!(s.cases[0].name, "storytelling");
    assert_eq!(s.cases[1].name, "nine");
}

#[test]
fn other_sweeps_are_named_by_key_value_pairs() {
    let text =
        "[[sweep]]\nsystem = \"cortex\"\npool = \"d8 d6\"\nkeep = [1, 2]\nties = [\"action\"]\n";
    let s = parse(text, "t.toml", "t").unwrap();
    let names: Vec<_> = s.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["keep=1, ties=action", "keep=2, ties=action"]);
}

#[test]
fn errors_name_file_line_and_column() {
    let text = "[[case]]\nsystem = \"cortex\"\npool = \"d8\"\ntiez = \"action\"\n";
    let err = parse(text, "s.toml", "s").unwrap_err().to_string();
    assert!(
        err.starts_with(
            "s.toml:4:1: unknown key `tiez` for system \"cortex\" (did you mean `ties`?)"
        ),
        "{err}"
    );
    let err = parse(
        "[[case]]\nsystem = \"cortex\"\npool = \"d7\"\n",
        "s.toml",
        "s",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("s.toml:3:1:") && err.contains("d4, d6"),
        "{err}"
    );
    let err = parse("trials = -5\n", "s.toml", "s")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("s.toml:1:1") && err.contains("at least 1"),
        "{err}"
    );
    let err = parse("[[case]\n", "s.toml", "s").unwrap_err().to_string();
    assert!(
        err.contains("s.toml:1:") && err.contains("TOML syntax"),
        "{err}"
    );
    let err = parse("[[case]]\nsystem = \"dnd\"\n", "s.toml", "s")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown system \"dnd\"") && err.contains("allowed: `cortex`, "),
        "{err}"
    );
    let err = parse("[[case]]\nsystem = \"cortex\"\npool = 5\n", "s.toml", "s")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("s.toml:3:1") && err.contains("must be a string"),
        "{err}"
    );
}

#[test]
fn defaults_apply_and_a_case_overrides_them() {
    let text = "[cortex]\nties = \"action\"\nvs = \"2d6\"\n[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d8\"\n[[case]]\nsystem = \"cortex\"\nname = \"b\"\npool = \"d8\"\ndifficulty = 7\n";
    let s = parse(text, "t.toml", "t").unwrap();
    assert_eq!(s.cases[0].spec.inputs()["ties"], "action");
    assert_eq!(s.cases[0].spec.inputs()["vs"], "2d6");
    assert_eq!(s.cases[1].spec.inputs()["difficulty"], 7);
    assert!(s.cases[1].spec.inputs().get("vs").is_none());
    let dup = "[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d8\"\n[[case]]\nsystem = \"cortex\"\nname = \"a\"\npool = \"d6\"\n";
    let err = parse(dup, "t.toml", "t").unwrap_err().to_string();
    assert!(
        err.contains("t.toml:5:1") && err.contains("duplicate case name"),
        "{err}"
    );
}
