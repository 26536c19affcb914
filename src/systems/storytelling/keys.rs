//! The keys of a Storytelling case (docs/storytelling.md), declared once, in the
//! order the quick command reads its flags.

use crate::options::{Fallback, KeyDef, Phrase, Shown};

use super::MAX_DICE;

pub const DICE: KeyDef = KeyDef::int("dice", (0, MAX_DICE), Fallback::Required, "d10s in the pool before the modifier",
    Phrase::Value("{}", Shown::Count("die", "dice")), "number of dice").main().positional();
pub const MODIFIER: KeyDef = KeyDef::int("modifier", (i64::MIN, i64::MAX), Fallback::Int(0), "Dice added to or taken from the pool (the rules text's ladder runs -5..+5); write negatives as --modifier=-2",
    Phrase::Value("modifier {}", Shown::Signed), "modifier").main();
pub const TARGET: KeyDef = KeyDef::int("target", (2, 10), Fallback::Int(8), "A die at or above it is a success",
    Phrase::Value("a die succeeds on {}+", Shown::Plain), "target");
pub const AGAIN: KeyDef = KeyDef::int("again", (0, 10), Fallback::Int(10), "A die at or above it is rolled again: 10, 9, 8, or 0 for none",
    Phrase::Words(&[("0", "no again")], &Phrase::Value("{}-again", Shown::Plain)), "again").allowed("0, or target to 10");
pub const ROTE: KeyDef = KeyDef::switch("rote", false, "Rote action: reroll each die that fails on its first roll, once",
    ("rote action", "not rote"), "rote");
pub const NEED: KeyDef = KeyDef::int("need", (1, i64::MAX), Fallback::Int(1), "Successes needed for p_success",
    Phrase::Value("success at {}", Shown::Count("success", "successes")), "need");
pub const EXCEPTIONAL: KeyDef = KeyDef::int("exceptional", (0, i64::MAX), Fallback::Int(5), "Successes for p_exceptional",
    Phrase::Value("exceptional at {}", Shown::Count("success", "successes")), "exceptional");
pub const CHANCE_DIE_EXPLODES: KeyDef = KeyDef::switch("chance_die_explodes", true, "A chance die's 10 is rolled again (the rules text's rule); false for the later edition",
    ("a chance die's 10 rerolls", "a chance die's 10 does not reroll"), "chance die explodes");

/// The keys a storytelling case accepts.
pub const KEYS: &[&KeyDef] = &[
    &DICE, &MODIFIER, &TARGET, &AGAIN, &ROTE, &NEED, &EXCEPTIONAL, &CHANCE_DIE_EXPLODES,
];
