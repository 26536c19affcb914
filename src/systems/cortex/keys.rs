//! The keys of the three Cortex systems (docs/cortex.md), declared once: a
//! roll (`cortex`), a doom-pool scene (`cortex-scene`) and a conflict
//! (`cortex-conflict`). The roll rules ([`ROLL_RULES`]) and the effect
//! step-down are one declaration each, shared by the systems that read
//! them. Each list is in the order the quick command reads its flags, which
//! is the order a comparison of several lists varies them in (the last
//! fastest). The limits and the choices the keys are read as are declared
//! here too, and used from here by the modules that read the keys.

use crate::options::{choice_names, Choice, Fallback, KeyDef, Kind, Phrase, Shown};

/// Most dice a total may sum (docs/cortex.md: `keep` allowed 1..5).
pub const MAX_KEEP: usize = 5;

/// Most plot points a roll may have (docs/cortex.md: `plot_points` 0..10).
pub const MAX_PLOT_POINTS: usize = 10;

/// Most actions a scene may hold; far past any table's scene, and small
/// enough that a typo fails at once instead of sampling for hours.
pub const MAX_ACTIONS: i64 = 1_000;

/// Most exchanges a conflict may last (docs/cortex.md).
pub const MAX_EXCHANGES: i64 = 100;

/// Who wins equal totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// The Cortex Plus rules text: the action succeeds only when the
    /// opposing total is lower.
    Reaction,
    /// Marvel Heroic / Cortex Prime table rule: equal totals succeed.
    Action,
}

impl Choice for Ties {
    const ALL: &'static [Ties] = &[Ties::Reaction, Ties::Action];

    fn name(self) -> &'static str {
        match self {
            Ties::Reaction => "reaction",
            Ties::Action => "action",
        }
    }
}

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

impl Choice for Policy {
    const ALL: &'static [Policy] = &[Policy::MaxTotal, Policy::MaxEffect];

    fn name(self) -> &'static str {
        match self {
            Policy::MaxTotal => "max-total",
            Policy::MaxEffect => "max-effect",
        }
    }
}

/// The stress limits a character may have (docs/cortex.md): a novice specialist
/// d6, an expert d8, a master d10, a hero or major character d12.
const STRESS_SIZES: &[u8] = &[6, 8, 10, 12];

pub const POOL: KeyDef = KeyDef {
    name: "pool",
    kind: Kind::Pool,
    default: Fallback::Required,
    help: "The action pool, e.g. \"d10 2d8 d6\"",
    allowed: None,
    phrase: Phrase::Value("hero pool {}", Shown::Plain),
    noun: "hero pool",
    main: true,
    positional: true,
};

pub const VS: KeyDef = KeyDef {
    name: "vs",
    kind: Kind::Pool,
    default: Fallback::Nothing,
    help: "A reacting pool to roll against, e.g. the doom pool \"2d6\"; not with difficulty",
    allowed: None,
    phrase: Phrase::Value("against {}", Shown::Plain),
    noun: "opposing pool",
    main: true,
    positional: false,
};

pub const DIFFICULTY: KeyDef = KeyDef {
    name: "difficulty",
    kind: Kind::Int {
        min: 0,
        max: 1_000_000,
    },
    default: Fallback::Nothing,
    help: "A fixed total to beat; not with vs",
    allowed: None,
    phrase: Phrase::Value("difficulty {}", Shown::Plain),
    noun: "difficulty",
    main: true,
    positional: false,
};

pub const EFFECT_STEP_DOWN: KeyDef = KeyDef {
    name: "effect_step_down",
    kind: Kind::Bool,
    default: Fallback::Bool(false),
    help: "Step the effect die down when the reaction's effect die is larger (against a pool only)",
    allowed: None,
    phrase: Phrase::Switch {
        on: "effect step-down",
        off: "no effect step-down",
    },
    noun: "effect step down",
    main: false,
    positional: false,
};

pub const POLICY: KeyDef = KeyDef {
    name: "policy",
    kind: Kind::Choice(choice_names::<Policy>),
    default: Fallback::Text("max-total"),
    help: "How the total dice are chosen: max-effect needs a difficulty",
    allowed: None,
    phrase: Phrase::Words(
        &[
            ("max-total", "dice chosen for the highest total"),
            ("max-effect", "dice chosen for the largest effect"),
        ],
        &Phrase::Value("policy {}", Shown::Plain),
    ),
    noun: "policy",
    main: false,
    positional: false,
};

pub const PLOT_POINTS: KeyDef = KeyDef {
    name: "plot_points",
    kind: Kind::Int {
        min: 0,
        max: MAX_PLOT_POINTS as i64,
    },
    default: Fallback::Nothing,
    help: "Plot points spent after the roll, as few as needed, to beat the difficulty",
    allowed: None,
    phrase: Phrase::Value("{}", Shown::Count("plot point", "plot points")),
    noun: "number of plot points",
    main: false,
    positional: false,
};

pub const TIES: KeyDef = KeyDef {
    name: "ties",
    kind: Kind::Choice(choice_names::<Ties>),
    default: Fallback::Text("reaction"),
    help: "Who wins equal totals: reaction (the rules text's rule) or action",
    allowed: None,
    phrase: Phrase::Words(
        &[
            ("action", "ties go to the action"),
            ("reaction", "ties go to the reaction"),
        ],
        &Phrase::Value("ties {}", Shown::Plain),
    ),
    noun: "ties",
    main: false,
    positional: false,
};

pub const HEROIC_STEP: KeyDef = KeyDef {
    name: "heroic_step",
    kind: Kind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: Fallback::Int(5),
    help: "Margin per heroic effect step up",
    allowed: None,
    phrase: Phrase::Value(
        "effect steps up per {} of margin",
        Shown::Count("point", "points"),
    ),
    noun: "heroic step",
    main: false,
    positional: false,
};

pub const KEEP: KeyDef = KeyDef {
    name: "keep",
    kind: Kind::Int {
        min: 1,
        max: MAX_KEEP as i64,
    },
    default: Fallback::Int(2),
    help: "Dice summed into the action (hero's) total",
    allowed: None,
    phrase: Phrase::Value("{} kept for the total", Shown::Count("die", "dice")),
    noun: "keep",
    main: false,
    positional: false,
};

pub const REACTION_KEEP: KeyDef = KeyDef {
    name: "reaction_keep",
    kind: Kind::Int {
        min: 1,
        max: MAX_KEEP as i64,
    },
    default: Fallback::Int(2),
    help: "Dice summed into the reaction (doom pool's) total",
    allowed: None,
    phrase: Phrase::Value("reaction keeps {}", Shown::Count("die", "dice")),
    noun: "reaction keep",
    main: false,
    positional: false,
};

/// The roll rules [`super::Rules::from_options`] reads, shared by rolls,
/// scenes, conflicts and balances (also read from `[cortex]`).
pub const ROLL_RULES: &[&KeyDef] = &[&TIES, &HEROIC_STEP, &KEEP, &REACTION_KEEP];

/// The keys a cortex case accepts.
pub const KEYS: &[&KeyDef] = &[
    &POOL,
    &VS,
    &DIFFICULTY,
    &EFFECT_STEP_DOWN,
    &POLICY,
    &PLOT_POINTS,
    &TIES,
    &HEROIC_STEP,
    &KEEP,
    &REACTION_KEEP,
];

pub const SCENE_POOL: KeyDef = KeyDef {
    help: "The player's action pool, e.g. \"d10 2d8 d6\"",
    ..POOL
};

/// The Cortex Plus rules text's default act starts with 2d6 in the doom
/// pool ("Запас Рока").
pub const DOOM: KeyDef = KeyDef {
    name: "doom",
    kind: Kind::Pool,
    default: Fallback::Text("2d6"),
    help: "The doom pool the scene starts with",
    allowed: None,
    phrase: Phrase::Value("doom pool starts at {}", Shown::Plain),
    noun: "starting doom pool",
    main: true,
    positional: false,
};

pub const ACTIONS: KeyDef = KeyDef {
    name: "actions",
    kind: Kind::Int {
        min: 1,
        max: MAX_ACTIONS,
    },
    default: Fallback::Int(4),
    help: "Player actions in the scene",
    allowed: None,
    phrase: Phrase::Value("{}", Shown::Count("action", "actions")),
    noun: "number of actions",
    main: true,
    positional: false,
};

pub const END_AT_2D12: KeyDef = KeyDef {
    name: "end_at_2d12",
    kind: Kind::Bool,
    default: Fallback::Bool(false),
    help: "The GM ends the scene by spending 2d12 as soon as the doom pool holds two",
    allowed: None,
    phrase: Phrase::Switch {
        on: "scene ends when the doom pool reaches 2d12",
        off: "doom pool keeps growing past 2d12",
    },
    noun: "end at 2d12",
    main: false,
    positional: false,
};

/// The keys a scene accepts.
pub const SCENE_KEYS: &[&KeyDef] = &[
    &SCENE_POOL,
    &DOOM,
    &ACTIONS,
    &END_AT_2D12,
    &TIES,
    &HEROIC_STEP,
    &KEEP,
    &REACTION_KEEP,
];

pub const HERO: KeyDef = KeyDef {
    name: "hero",
    kind: Kind::Pool,
    default: Fallback::Required,
    help: "The hero's pool, e.g. \"d10 2d8 d6\"",
    allowed: None,
    phrase: Phrase::Value("hero {}", Shown::Plain),
    noun: "hero pool",
    main: true,
    positional: true,
};

pub const FOE: KeyDef = KeyDef {
    name: "foe",
    kind: Kind::Pool,
    default: Fallback::Nothing,
    help: "The foe's own dice, e.g. \"d10 d8\" (required unless mob is given)",
    allowed: None,
    phrase: Phrase::Value("foe {}", Shown::Plain),
    noun: "foe pool",
    main: true,
    positional: false,
};

pub const MOB: KeyDef = KeyDef {
    name: "mob",
    kind: Kind::Pool,
    default: Fallback::Nothing,
    help: "The foe is a mob with these team dice, all of one size, e.g. \"3d8\"",
    allowed: None,
    phrase: Phrase::Value("mob of {}", Shown::Plain),
    noun: "mob",
    main: true,
    positional: false,
};

pub const EXCHANGES: KeyDef = KeyDef {
    name: "exchanges",
    kind: Kind::Int {
        min: 1,
        max: MAX_EXCHANGES,
    },
    default: Fallback::Int(5),
    help: "Exchanges at most",
    allowed: None,
    phrase: Phrase::Value("at most {}", Shown::Count("exchange", "exchanges")),
    noun: "exchanges",
    main: false,
    positional: false,
};

pub const FOE_ACTS: KeyDef = KeyDef {
    name: "foe_acts",
    kind: Kind::Bool,
    default: Fallback::Bool(true),
    help: "The foe acts after the hero in each exchange; false for a foe who only resists",
    allowed: None,
    phrase: Phrase::Switch {
        on: "the foe acts too",
        off: "the foe only reacts",
    },
    noun: "foe acts",
    main: false,
    positional: false,
};

pub const HERO_STRESS_LIMIT: KeyDef = KeyDef {
    name: "hero_stress_limit",
    kind: Kind::Die(STRESS_SIZES),
    default: Fallback::Text("d12"),
    help: "The hero is out past this stress",
    allowed: None,
    phrase: Phrase::Value("hero out past {} stress", Shown::Plain),
    noun: "hero stress limit",
    main: false,
    positional: false,
};

pub const FOE_STRESS_LIMIT: KeyDef = KeyDef {
    name: "foe_stress_limit",
    kind: Kind::Die(STRESS_SIZES),
    default: Fallback::Text("d12"),
    help: "The foe is out past this stress: d6 novice, d8 expert, d10 master, d12; not with mob",
    allowed: None,
    phrase: Phrase::Value("foe out past {} stress", Shown::Plain),
    noun: "foe stress limit",
    main: false,
    positional: false,
};

/// The keys a conflict accepts.
pub const CONFLICT_KEYS: &[&KeyDef] = &[
    &HERO,
    &FOE,
    &MOB,
    &EXCHANGES,
    &FOE_ACTS,
    &HERO_STRESS_LIMIT,
    &FOE_STRESS_LIMIT,
    &EFFECT_STEP_DOWN,
    &TIES,
    &HEROIC_STEP,
    &KEEP,
    &REACTION_KEEP,
];
