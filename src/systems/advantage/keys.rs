//! The keys of an advantage case (docs/advantage.md), declared once, in the order the
//! quick command reads its flags.

use crate::options::{choice_names, Fallback, KeyDef, Kind, Phrase, Shown};

use super::{OnUse, Spending, DIE_SIZES, MAX_GAIN, MAX_MODIFIER, MAX_PARTY, MAX_ROLLS};

pub const DIE: KeyDef = KeyDef {
    name: "die",
    kind: Kind::Die(DIE_SIZES),
    default: Fallback::Text("d6"),
    help: "The advantage die",
    allowed: None,
    phrase: Phrase::Value("{} advantage die", Shown::Plain),
    noun: "advantage die",
    main: true,
    positional: false,
};

pub const STAT: KeyDef = KeyDef {
    name: "stat",
    kind: Kind::Int {
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    default: Fallback::Int(0),
    help: "Added to 2d6; write negatives as --stat=-1",
    allowed: None,
    phrase: Phrase::Value("stat {}", Shown::Signed),
    noun: "stat",
    main: true,
    positional: false,
};

pub const ROLLS: KeyDef = KeyDef {
    name: "rolls",
    kind: Kind::Int {
        min: 1,
        max: MAX_ROLLS,
    },
    default: Fallback::Int(4),
    help: "Rolls per encounter; the counter starts at 1 each encounter",
    allowed: None,
    phrase: Phrase::Value("{} an encounter", Shown::Count("roll", "rolls")),
    noun: "number of rolls an encounter",
    main: true,
    positional: false,
};

pub const POLICY: KeyDef = KeyDef {
    name: "policy",
    kind: Kind::Choice(choice_names::<Spending>),
    default: Fallback::Text("greedy"),
    help: "When the counter replaces the lower die",
    allowed: None,
    phrase: Phrase::Words(
        &[
            ("greedy", "spend whenever it helps"),
            ("threshold", "threshold policy"),
            ("last", "spend on the last roll"),
            (
                "threshold-or-last",
                "spend at the threshold or on the last roll",
            ),
            ("never", "no advantage die"),
        ],
        &Phrase::Value("policy {}", Shown::Plain),
    ),
    noun: "policy",
    main: true,
    positional: false,
};

pub const THRESHOLD: KeyDef = KeyDef {
    name: "threshold",
    kind: Kind::Int { min: 1, max: 12 },
    default: Fallback::Nothing,
    help: "With policy threshold or threshold-or-last: the least counter value worth spending",
    allowed: Some("1 to the die size"),
    phrase: Phrase::Value("spend once the die shows {}+", Shown::Plain),
    noun: "threshold",
    main: true,
    positional: false,
};

pub const GAIN_ON: KeyDef = KeyDef {
    name: "gain_on",
    kind: Kind::Table {
        keys: &["miss", "weak", "strong"],
        pair: "tier=gain",
        min: 0,
        max: MAX_GAIN,
    },
    default: Fallback::Text("miss=0,weak=0,strong=0"),
    help: "Counter gains per tier of a roll, e.g. miss=1,weak=0,strong=0",
    allowed: None,
    phrase: Phrase::Table {
        keys: &[
            ("miss", "a miss"),
            ("weak", "a weak hit"),
            ("strong", "a strong hit"),
        ],
        each: "{value} on {key}",
        all: "the die grows {}",
        none: "the die grows on no tier",
        other: "gain on {}",
    },
    noun: "gain on",
    main: false,
    positional: false,
};

pub const GAIN_CHANCE: KeyDef = KeyDef {
    name: "gain_chance",
    kind: Kind::Float { min: 0.0, max: 1.0 },
    default: Fallback::Float(0.5),
    help: "Chance the counter gains 1 after each roll",
    allowed: None,
    phrase: Phrase::Value("{} chance the die grows", Shown::Percent),
    noun: "gain chance",
    main: false,
    positional: false,
};

pub const GM_REDUCE_CHANCE: KeyDef = KeyDef {
    name: "gm_reduce_chance",
    kind: Kind::Float { min: 0.0, max: 1.0 },
    default: Fallback::Float(0.0),
    help: "Chance the GM lowers the counter by 1 after each roll",
    allowed: None,
    phrase: Phrase::Words(
        &[("0", "the GM never shrinks the die")],
        &Phrase::Value("{} chance the GM shrinks the die", Shown::Percent),
    ),
    noun: "gm reduce chance",
    main: false,
    positional: false,
};

pub const MISS_MAX: KeyDef = KeyDef {
    name: "miss_max",
    kind: Kind::Int {
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    default: Fallback::Int(6),
    help: "Highest total that is a miss",
    allowed: None,
    phrase: Phrase::Value("miss on {} or less", Shown::Plain),
    noun: "miss max",
    main: false,
    positional: false,
};

pub const STRONG_MIN: KeyDef = KeyDef {
    name: "strong_min",
    kind: Kind::Int {
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    default: Fallback::Int(10),
    help: "Lowest total that is a strong hit",
    allowed: None,
    phrase: Phrase::Value("strong hit on {}+", Shown::Plain),
    noun: "strong min",
    main: false,
    positional: false,
};

pub const ON_USE: KeyDef = KeyDef {
    name: "on_use",
    kind: Kind::Choice(choice_names::<OnUse>),
    default: Fallback::Text("reset"),
    help: "What a used counter becomes: reset (to 1) or swap (the replaced die's value)",
    allowed: None,
    phrase: Phrase::Words(
        &[
            ("reset", "a used die resets to 1"),
            ("swap", "a used die takes the replaced die's value"),
        ],
        &Phrase::Value("on use {}", Shown::Plain),
    ),
    noun: "on use",
    main: false,
    positional: false,
};

pub const COUNTERS: KeyDef = KeyDef {
    name: "counters",
    kind: Kind::Int { min: 1, max: 2 },
    default: Fallback::Int(1),
    help: "Advantage dice the player holds",
    allowed: None,
    phrase: Phrase::Words(
        &[("2", "two advantage dice"), ("1", "one advantage die")],
        &Phrase::Value("{} advantage dice", Shown::Plain),
    ),
    noun: "counters",
    main: true,
    positional: false,
};

pub const PARTY: KeyDef = KeyDef {
    name: "party",
    kind: Kind::Int {
        min: 1,
        max: MAX_PARTY as i64,
    },
    default: Fallback::Int(1),
    help: "Players rolling in turn, one counter each; rolls is the whole party's",
    allowed: None,
    phrase: Phrase::Words(
        &[("1", "one player")],
        &Phrase::Value("party of {}", Shown::Plain),
    ),
    noun: "party",
    main: true,
    positional: false,
};

pub const SHARE: KeyDef = KeyDef {
    name: "share",
    kind: Kind::Bool,
    default: Fallback::Bool(false),
    help: "In a party: players may spend their counter on another player's roll",
    allowed: None,
    phrase: Phrase::Switch {
        on: "dice shared",
        off: "dice not shared",
    },
    noun: "share",
    main: true,
    positional: false,
};

/// The keys an advantage case accepts.
pub const KEYS: &[&KeyDef] = &[
    &DIE,
    &STAT,
    &ROLLS,
    &POLICY,
    &THRESHOLD,
    &GAIN_ON,
    &GAIN_CHANCE,
    &GM_REDUCE_CHANCE,
    &MISS_MAX,
    &STRONG_MIN,
    &ON_USE,
    &COUNTERS,
    &PARTY,
    &SHARE,
];
