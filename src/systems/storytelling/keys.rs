//! The keys of a Storytelling case (docs/storytelling.md), declared once, in the
//! order the quick command reads its flags.

use crate::options::{Fallback, KeyDef, Kind, Phrase, Shown};

use super::MAX_DICE;

pub const DICE: KeyDef = KeyDef {
    name: "dice",
    kind: Kind::Int {
        min: 0,
        max: MAX_DICE,
    },
    default: Fallback::Required,
    help: "d10s in the pool before the modifier",
    allowed: None,
    phrase: Phrase::Value("{}", Shown::Count("die", "dice")),
    noun: "number of dice",
    main: true,
    positional: true,
};

pub const MODIFIER: KeyDef = KeyDef {
    name: "modifier",
    kind: Kind::Int {
        min: i64::MIN,
        max: i64::MAX,
    },
    default: Fallback::Int(0),
    help: "Dice added to or taken from the pool (the rules text's ladder runs -5..+5); write negatives as --modifier=-2",
    allowed: None,
    phrase: Phrase::Value("modifier {}", Shown::Signed),
    noun: "modifier",
    main: true,
    positional: false,
};

pub const TARGET: KeyDef = KeyDef {
    name: "target",
    kind: Kind::Int { min: 2, max: 10 },
    default: Fallback::Int(8),
    help: "A die at or above it is a success",
    allowed: None,
    phrase: Phrase::Value("a die succeeds on {}+", Shown::Plain),
    noun: "target",
    main: false,
    positional: false,
};

pub const AGAIN: KeyDef = KeyDef {
    name: "again",
    kind: Kind::Int { min: 0, max: 10 },
    default: Fallback::Int(10),
    help: "A die at or above it is rolled again: 10, 9, 8, or 0 for none",
    allowed: Some("0, or target to 10"),
    phrase: Phrase::Words(
        &[("0", "no again")],
        &Phrase::Value("{}-again", Shown::Plain),
    ),
    noun: "again",
    main: false,
    positional: false,
};

pub const ROTE: KeyDef = KeyDef {
    name: "rote",
    kind: Kind::Bool,
    default: Fallback::Bool(false),
    help: "Rote action: reroll each die that fails on its first roll, once",
    allowed: None,
    phrase: Phrase::Switch {
        on: "rote action",
        off: "not rote",
    },
    noun: "rote",
    main: false,
    positional: false,
};

pub const NEED: KeyDef = KeyDef {
    name: "need",
    kind: Kind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: Fallback::Int(1),
    help: "Successes needed for p_success",
    allowed: None,
    phrase: Phrase::Value("success at {}", Shown::Count("success", "successes")),
    noun: "need",
    main: false,
    positional: false,
};

pub const EXCEPTIONAL: KeyDef = KeyDef {
    name: "exceptional",
    kind: Kind::Int {
        min: 0,
        max: i64::MAX,
    },
    default: Fallback::Int(5),
    help: "Successes for p_exceptional",
    allowed: None,
    phrase: Phrase::Value("exceptional at {}", Shown::Count("success", "successes")),
    noun: "exceptional",
    main: false,
    positional: false,
};

pub const CHANCE_DIE_EXPLODES: KeyDef = KeyDef {
    name: "chance_die_explodes",
    kind: Kind::Bool,
    default: Fallback::Bool(true),
    help: "A chance die's 10 is rolled again (the rules text's rule); false for the later edition",
    allowed: None,
    phrase: Phrase::Switch {
        on: "a chance die's 10 rerolls",
        off: "a chance die's 10 does not reroll",
    },
    noun: "chance die explodes",
    main: false,
    positional: false,
};

/// The keys a storytelling case accepts.
pub const KEYS: &[&KeyDef] = &[
    &DICE,
    &MODIFIER,
    &TARGET,
    &AGAIN,
    &ROTE,
    &NEED,
    &EXCEPTIONAL,
    &CHANCE_DIE_EXPLODES,
];
