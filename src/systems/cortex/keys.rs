//! The keys of the three Cortex systems (docs/cortex.md), declared once: a
//! roll (`cortex`), a doom-pool scene (`cortex-scene`) and a conflict
//! (`cortex-conflict`). The roll rules ([`ROLL_RULES`]) and the effect
//! step-down are one declaration each, shared by the systems that read
//! them. Each list is in the order the quick command reads its flags, which
//! is the order a comparison of several lists varies them in (the last
//! fastest). The limits and the choices the keys are read as are declared
//! here too, and used from here by the modules that read the keys.

use crate::options::{choice_words, Fallback, KeyDef, Phrase, Shown};

/// Most dice a total may sum (docs/cortex.md: `keep` allowed 1..5).
pub const MAX_KEEP: usize = 5;

/// Most plot points a roll may have (docs/cortex.md: `plot_points` 0..10).
pub const MAX_PLOT_POINTS: usize = 10;

/// Most actions a scene may hold; far past any table's scene, and small
/// enough that a typo fails at once instead of sampling for hours.
pub const MAX_ACTIONS: i64 = 1_000;

/// The largest cap `exchanges` may set (docs/cortex.md).
pub const MAX_EXCHANGES: i64 = 100;

/// Without a cap a fight runs until one side is out: the exact chain stops
/// once at most this much probability is unresolved (docs/cortex.md,
/// "Until one side is out") ...
pub const UNRESOLVED_MASS: f64 = 1e-12;

/// ... or after this many exchanges, where Monte Carlo also stops a fight
/// and counts it as unresolved.
pub const UNCAPPED_EXCHANGES: u32 = 10_000;

/// Who wins equal totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// The Cortex Plus rules text: the action succeeds only when the
    /// opposing total is lower.
    Reaction,
    /// Marvel Heroic / Cortex Prime table rule: equal totals succeed.
    Action,
}

choice_words!(Ties { Reaction => "reaction", Action => "action" });

/// How the roller picks the total dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The `keep` highest values; ties keep the larger die free for the effect.
    MaxTotal,
    /// Against a fixed difficulty only: the dice that still beat the number
    /// and leave the largest final effect (free die plus heroic steps), then
    /// the largest total (docs/cortex.md).
    MaxEffect,
}

choice_words!(Policy { MaxTotal => "max-total", MaxEffect => "max-effect" });

/// The stress limits a character may have (docs/cortex.md): a novice specialist
/// d6, an expert d8, a master d10, a hero or major character d12.
const STRESS_SIZES: &[u8] = &[6, 8, 10, 12];

pub const POOL: KeyDef = KeyDef::pool("pool", Fallback::Required, "The action pool, e.g. \"d10 2d8 d6\"",
    Phrase::Value("hero pool {}", Shown::Plain), "hero pool").main().positional();
pub const VS: KeyDef = KeyDef::pool("vs", Fallback::Nothing, "A reacting pool to roll against, e.g. the doom pool \"2d6\"; not with difficulty",
    Phrase::Value("against {}", Shown::Plain), "opposing pool").main();
pub const DIFFICULTY: KeyDef = KeyDef::int("difficulty", (0, 1_000_000), Fallback::Nothing, "A fixed total to beat; not with vs",
    Phrase::Value("difficulty {}", Shown::Plain), "difficulty").main();
pub const EFFECT_STEP_DOWN: KeyDef = KeyDef::switch("effect_step_down", false, "Step the effect die down when the reaction's effect die is larger (against a pool only)",
    ("effect step-down", "no effect step-down"), "effect step down");
pub const POLICY: KeyDef = KeyDef::choice::<Policy>("policy", "max-total", "How the total dice are chosen: max-effect needs a difficulty",
    Phrase::Words(&[("max-total", "dice chosen for the highest total"), ("max-effect", "dice chosen for the largest effect")],
        &Phrase::Value("policy {}", Shown::Plain)), "policy");
pub const PLOT_POINTS: KeyDef = KeyDef::int("plot_points", (0, MAX_PLOT_POINTS as i64), Fallback::Nothing, "Plot points spent after the roll, as few as needed, to beat the difficulty",
    Phrase::Value("{}", Shown::Count("plot point", "plot points")), "number of plot points");
pub const TIES: KeyDef = KeyDef::choice::<Ties>("ties", "reaction", "Who wins equal totals: reaction (the rules text's rule) or action",
    Phrase::Words(&[("action", "ties go to the action"), ("reaction", "ties go to the reaction")],
        &Phrase::Value("ties {}", Shown::Plain)), "ties");
pub const HEROIC_STEP: KeyDef = KeyDef::int("heroic_step", (1, i64::MAX), Fallback::Int(5), "Margin per heroic effect step up",
    Phrase::Value("effect steps up per {} of margin", Shown::Count("point", "points")), "heroic step");
pub const KEEP: KeyDef = KeyDef::int("keep", (1, MAX_KEEP as i64), Fallback::Int(2), "Dice summed into the action (hero's) total",
    Phrase::Value("{} kept for the total", Shown::Count("die", "dice")), "keep");
pub const REACTION_KEEP: KeyDef = KeyDef::int("reaction_keep", (1, MAX_KEEP as i64), Fallback::Int(2), "Dice summed into the reaction (doom pool's) total",
    Phrase::Value("reaction keeps {}", Shown::Count("die", "dice")), "reaction keep");

/// The roll rules [`super::Rules::from_options`] reads, shared by rolls,
/// scenes, conflicts and balances (also read from `[cortex]`).
pub const ROLL_RULES: &[&KeyDef] = &[&TIES, &HEROIC_STEP, &KEEP, &REACTION_KEEP];

/// The keys a cortex case accepts.
pub const KEYS: &[&KeyDef] = &[
    &POOL, &VS, &DIFFICULTY, &EFFECT_STEP_DOWN, &POLICY, &PLOT_POINTS, &TIES, &HEROIC_STEP,
    &KEEP, &REACTION_KEEP,
];

pub const SCENE_POOL: KeyDef = POOL.with_help("The player's action pool, e.g. \"d10 2d8 d6\"");
/// The Cortex Plus rules text's default act starts with 2d6 in the doom
/// pool ("Запас Рока").
pub const DOOM: KeyDef = KeyDef::pool("doom", Fallback::Text("2d6"), "The doom pool the scene starts with",
    Phrase::Value("doom pool starts at {}", Shown::Plain), "starting doom pool").main();
pub const ACTIONS: KeyDef = KeyDef::int("actions", (1, MAX_ACTIONS), Fallback::Int(4), "Player actions in the scene",
    Phrase::Value("{}", Shown::Count("action", "actions")), "number of actions").main();
pub const END_AT_2D12: KeyDef = KeyDef::switch("end_at_2d12", false, "The GM ends the scene by spending 2d12 as soon as the doom pool holds two",
    ("scene ends when the doom pool reaches 2d12", "doom pool keeps growing past 2d12"), "end at 2d12");

/// How the hero of a scene spends plot points, one an action at most
/// (docs/cortex.md, "The scene's economy").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeroSpend {
    /// Plot points are only counted.
    Never,
    /// Before the roll: one more d6 in the pool.
    AddD6,
    /// After the roll: one more rolled die in the total.
    AddToTotal,
}

choice_words!(HeroSpend { Never => "never", AddD6 => "add-d6", AddToTotal => "add-to-total" });

/// Which side of the distinction the hero rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distinction {
    /// The pool as given.
    D8,
    /// A d8 of the pool rolled as a d4, for a plot point, whenever the
    /// hero holds none.
    D4WhenBroke,
}

choice_words!(Distinction { D8 => "d8", D4WhenBroke => "d4-when-broke" });

/// How the GM spends doom dice on reactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmSpend {
    Never,
    /// One more rolled doom die in the reaction's total, when that turns
    /// the hero's success into a failure.
    ToWin,
}

choice_words!(GmSpend { Never => "never", ToWin => "to-win" });

/// Most plot points a scene may start with (docs/cortex.md: 0..10).
pub const MAX_START_PLOT_POINTS: i64 = 10;

// The economy keys name a case (main) so that a case's name can show those
// that differ from their defaults (docs/cortex.md), and only those.
pub const START_PLOT_POINTS: KeyDef = KeyDef::int("start_plot_points", (0, MAX_START_PLOT_POINTS), Fallback::Int(0), "Plot points the hero holds when the scene begins",
    Phrase::Value("hero starts with {}", Shown::Count("plot point", "plot points")), "starting plot points").main();
pub const HERO_SPEND: KeyDef = KeyDef::choice::<HeroSpend>("hero_spend", "never", "How the hero spends plot points, one an action at most: never, add-d6 (a d6 before the roll) or add-to-total (one more die in the total)",
    Phrase::Words(&[("never", "the hero keeps plot points"), ("add-d6", "the hero spends to add a d6"), ("add-to-total", "the hero spends to add a die to the total")],
        &Phrase::Value("hero spends {}", Shown::Plain)), "hero spending").main();
pub const SPEND_BELOW: KeyDef = KeyDef::int("spend_below", (1, i64::MAX), Fallback::Nothing, "With hero_spend = add-to-total: spend only when the total is below this",
    Phrase::Value("the hero spends on totals below {}", Shown::Plain), "spending threshold").main();
pub const DISTINCTION: KeyDef = KeyDef::choice::<Distinction>("distinction", "d8", "d8 rolls the pool as given; d4-when-broke rolls a d8 of the pool as a d4, for a plot point, when the hero holds none",
    Phrase::Words(&[("d8", "the distinction rolls d8"), ("d4-when-broke", "the distinction rolls d4 when broke")],
        &Phrase::Value("distinction {}", Shown::Plain)), "distinction").main();
pub const GM_SPEND: KeyDef = KeyDef::choice::<GmSpend>("gm_spend", "never", "never, or to-win: the GM spends a doom die to add it to the reaction when that makes the action fail",
    Phrase::Words(&[("never", "the GM keeps the doom pool"), ("to-win", "the GM spends doom dice to win")],
        &Phrase::Value("GM spends {}", Shown::Plain)), "GM spending").main();

/// The scene's economy keys (docs/cortex.md, "The scene's economy").
pub const ECONOMY_KEYS: &[&KeyDef] = &[&START_PLOT_POINTS, &HERO_SPEND, &SPEND_BELOW, &DISTINCTION, &GM_SPEND];

/// The keys a scene accepts.
pub const SCENE_KEYS: &[&KeyDef] = &[
    &SCENE_POOL, &DOOM, &ACTIONS, &END_AT_2D12, &TIES, &HEROIC_STEP, &KEEP, &REACTION_KEEP,
    &START_PLOT_POINTS, &HERO_SPEND, &SPEND_BELOW, &DISTINCTION, &GM_SPEND,
];

pub const HERO: KeyDef = KeyDef::pool("hero", Fallback::Required, "The hero's pool, e.g. \"d10 2d8 d6\"",
    Phrase::Value("hero {}", Shown::Plain), "hero pool").main().positional();
pub const FOE: KeyDef = KeyDef::pool("foe", Fallback::Nothing, "The foe's own dice, e.g. \"d10 d8\" (required unless mob is given)",
    Phrase::Value("foe {}", Shown::Plain), "foe pool").main();
pub const MOB: KeyDef = KeyDef::pool("mob", Fallback::Nothing, "The foe is a mob with these team dice, all of one size, e.g. \"3d8\"",
    Phrase::Value("mob of {}", Shown::Plain), "mob").main();
pub const EXCHANGES: KeyDef = KeyDef::int("exchanges", (1, MAX_EXCHANGES), Fallback::Nothing, "A cap on the exchanges; left out, the fight runs until one side is out",
    Phrase::Value("at most {}", Shown::Count("exchange", "exchanges")), "exchanges");
pub const FOE_ACTS: KeyDef = KeyDef::switch("foe_acts", true, "The foe acts after the hero in each exchange; false for a foe who only resists",
    ("the foe acts too", "the foe only reacts"), "foe acts");
pub const HERO_STRESS_LIMIT: KeyDef = KeyDef::die("hero_stress_limit", STRESS_SIZES, "d12", "The hero is out past this stress",
    Phrase::Value("hero out past {} stress", Shown::Plain), "hero stress limit");
pub const FOE_STRESS_LIMIT: KeyDef = KeyDef::die("foe_stress_limit", STRESS_SIZES, "d12", "The foe is out past this stress: d6 novice, d8 expert, d10 master, d12; not with mob",
    Phrase::Value("foe out past {} stress", Shown::Plain), "foe stress limit");

/// The keys a conflict accepts.
pub const CONFLICT_KEYS: &[&KeyDef] = &[
    &HERO, &FOE, &MOB, &EXCHANGES, &FOE_ACTS, &HERO_STRESS_LIMIT, &FOE_STRESS_LIMIT,
    &EFFECT_STEP_DOWN, &TIES, &HEROIC_STEP, &KEEP, &REACTION_KEEP,
];
