//! The keys of an advantage case (docs/advantage.md), declared once, in the order the
//! quick command reads its flags.

use crate::options::{Fallback, KeyDef, Kind, Phrase, Shown};

use super::{OnUse, Spending, DIE_SIZES, MAX_GAIN, MAX_MODIFIER, MAX_PARTY, MAX_ROLLS};

pub const DIE: KeyDef = KeyDef::die("die", DIE_SIZES, "d6", "The advantage die",
    Phrase::Value("{} advantage die", Shown::Plain), "advantage die").main();
pub const STAT: KeyDef = KeyDef::int("stat", (-MAX_MODIFIER, MAX_MODIFIER), Fallback::Int(0), "Added to 2d6; write negatives as --stat=-1",
    Phrase::Value("stat {}", Shown::Signed), "stat").main();
pub const ROLLS: KeyDef = KeyDef::int("rolls", (1, MAX_ROLLS), Fallback::Int(4), "Rolls per encounter; the counter starts at 1 each encounter",
    Phrase::Value("{} an encounter", Shown::Count("roll", "rolls")), "number of rolls an encounter").main();
pub const POLICY: KeyDef = KeyDef::choice::<Spending>("policy", "greedy", "When the counter replaces the lower die",
    Phrase::Words(&[
        ("greedy", "spend whenever it helps"),
        ("threshold", "threshold policy"),
        ("last", "spend on the last roll"),
        ("threshold-or-last", "spend at the threshold or on the last roll"),
        ("never", "no advantage die"),
    ], &Phrase::Value("policy {}", Shown::Plain)), "policy").main();
pub const THRESHOLD: KeyDef = KeyDef::int("threshold", (1, 12), Fallback::Nothing, "With policy threshold or threshold-or-last: the least counter value worth spending",
    Phrase::Value("spend once the die shows {}+", Shown::Plain), "threshold").main().allowed("1 to the die size");
pub const GAIN_ON: KeyDef = KeyDef::new("gain_on",
    Kind::Table { keys: &["miss", "weak", "strong"], pair: "tier=gain", min: 0, max: MAX_GAIN },
    Fallback::Text("miss=0,weak=0,strong=0"), "Counter gains per tier of a roll, e.g. miss=1,weak=0,strong=0",
    Phrase::Table {
        keys: &[("miss", "a miss"), ("weak", "a weak hit"), ("strong", "a strong hit")],
        each: "{value} on {key}",
        all: "the die grows {}",
        none: "the die grows on no tier",
        other: "gain on {}",
    }, "gain on");
pub const GAIN_CHANCE: KeyDef = KeyDef::float("gain_chance", (0.0, 1.0), 0.5, "Chance the counter gains 1 after each roll",
    Phrase::Value("{} chance the die grows", Shown::Percent), "gain chance");
pub const GM_REDUCE_CHANCE: KeyDef = KeyDef::float("gm_reduce_chance", (0.0, 1.0), 0.0, "Chance the GM lowers the counter by 1 after each roll",
    Phrase::Words(&[("0", "the GM never shrinks the die")], &Phrase::Value("{} chance the GM shrinks the die", Shown::Percent)), "gm reduce chance");
pub const MISS_MAX: KeyDef = KeyDef::int("miss_max", (-MAX_MODIFIER, MAX_MODIFIER), Fallback::Int(6), "Highest total that is a miss",
    Phrase::Value("miss on {} or less", Shown::Plain), "miss max");
pub const STRONG_MIN: KeyDef = KeyDef::int("strong_min", (-MAX_MODIFIER, MAX_MODIFIER), Fallback::Int(10), "Lowest total that is a strong hit",
    Phrase::Value("strong hit on {}+", Shown::Plain), "strong min");
pub const ON_USE: KeyDef = KeyDef::choice::<OnUse>("on_use", "reset", "What a used counter becomes: reset (to 1) or swap (the replaced die's value)",
    Phrase::Words(&[("reset", "a used die resets to 1"), ("swap", "a used die takes the replaced die's value")],
        &Phrase::Value("on use {}", Shown::Plain)), "on use");
pub const COUNTERS: KeyDef = KeyDef::int("counters", (1, 2), Fallback::Int(1), "Advantage dice the player holds",
    Phrase::Words(&[("2", "two advantage dice"), ("1", "one advantage die")], &Phrase::Value("{} advantage dice", Shown::Plain)), "counters").main();
pub const PARTY: KeyDef = KeyDef::int("party", (1, MAX_PARTY as i64), Fallback::Int(1), "Players rolling in turn, one counter each; rolls is the whole party's",
    Phrase::Words(&[("1", "one player")], &Phrase::Value("party of {}", Shown::Plain)), "party").main();
pub const SHARE: KeyDef = KeyDef::switch("share", false, "In a party: players may spend their counter on another player's roll",
    ("dice shared", "dice not shared"), "share").main();

/// The keys an advantage case accepts.
pub const KEYS: &[&KeyDef] = &[
    &DIE, &STAT, &ROLLS, &POLICY, &THRESHOLD, &GAIN_ON, &GAIN_CHANCE, &GM_REDUCE_CHANCE,
    &MISS_MAX, &STRONG_MIN, &ON_USE, &COUNTERS, &PARTY, &SHARE,
];
