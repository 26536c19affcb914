//! The keys of a Storytelling case (docs/storytelling.md), declared once, in the
//! order the quick command reads its flags: one roll's, then the extended
//! action's and the contested action's.

use crate::options::{choice_words, Fallback, KeyDef, Phrase, Shown};

use super::MAX_DICE;

/// Who wins a contested action on equal successes (docs/storytelling.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContestTies {
    /// The opponent: the roller must score more.
    Opponent,
    /// The roller: equal is enough.
    Roller,
    /// Both roll again until one side has more.
    Reroll,
}

choice_words!(ContestTies { Opponent => "opponent", Roller => "roller", Reroll => "reroll" });

/// The most successes an extended action may gather, and the most rolls it may take.
pub const MAX_EXTENDED: i64 = 100;

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
pub const EXTENDED: KeyDef = KeyDef::int("extended", (1, MAX_EXTENDED), Fallback::Nothing, "Extended action: successes to gather over several rolls of the pool",
    Phrase::Value("extended action of {}", Shown::Count("success", "successes")), "successes to gather").main();
// `rolls` is also the advantage die's key, and a chart words a key alike in
// every system (docs/reports.md), so it borrows that key's words; the
// extended action's charts say "rolls" in their own titles.
pub const ROLLS: KeyDef = KeyDef::int("rolls", (1, MAX_EXTENDED), Fallback::Derived("dice, at least 1"), "With extended: the most rolls the action may take",
    crate::systems::advantage::keys::ROLLS.phrase, crate::systems::advantage::keys::ROLLS.noun);
pub const VS_DICE: KeyDef = KeyDef::int("vs_dice", (0, MAX_DICE), Fallback::Nothing, "Contested action: the opponent's d10s, rolled once against one roll of the pool",
    Phrase::Value("against {}", Shown::Count("die", "dice")), "opponent's dice").main();
pub const VS_MODIFIER: KeyDef = KeyDef::int("vs_modifier", (i64::MIN, i64::MAX), Fallback::Int(0), "With vs_dice: dice added to or taken from the opponent's pool",
    Phrase::Value("opponent's modifier {}", Shown::Signed), "opponent's modifier");
pub const VS_AGAIN: KeyDef = KeyDef::int("vs_again", (0, 10), Fallback::Derived("again"), "With vs_dice: the opponent's again (10, 9, 8, or 0 for none)",
    Phrase::Words(&[("0", "opponent: no again")], &Phrase::Value("opponent {}-again", Shown::Plain)), "opponent's again").allowed("0, or target to 10");
pub const VS_ROTE: KeyDef = KeyDef::switch("vs_rote", false, "With vs_dice: the opponent's roll is a rote action",
    ("opponent's rote action", "opponent not rote"), "opponent's rote");
pub const CONTEST_TIES: KeyDef = KeyDef::choice::<ContestTies>("contest_ties", "opponent", "With vs_dice: who wins equal successes (opponent, roller), or reroll until one side has more",
    Phrase::Words(&[("opponent", "ties go to the opponent"), ("roller", "ties go to the roller"), ("reroll", "ties are rolled again")],
        &Phrase::Value("ties: {}", Shown::Plain)), "contest ties");

/// The keys a storytelling case accepts.
pub const KEYS: &[&KeyDef] = &[
    &DICE, &MODIFIER, &TARGET, &AGAIN, &ROTE, &NEED, &EXCEPTIONAL, &CHANCE_DIE_EXPLODES,
    &EXTENDED, &ROLLS, &VS_DICE, &VS_MODIFIER, &VS_AGAIN, &VS_ROTE, &CONTEST_TIES,
];
