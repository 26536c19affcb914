//! The seven steps of a scene's action with its economy, in one place
//! (docs/cortex.md, "The scene's economy"; the Cortex Plus rules text,
//! "Сюжетные Очки" and "Запас Рока"): the d4 side of the distinction when
//! the hero is broke, the plot point spent on a d6 or on one more die in
//! the total, the GM's doom die added to the reaction and spent, and the
//! plot points and doom dice that change hands afterwards. The Monte Carlo
//! trial and the exact chain both call these; the roll rules underneath
//! (the top-k selection, ties, heroic margins, the hitch's doom die) are
//! the Cortex [`Rules`]' own and [`super::super::rules`]' functions.

use crate::dice::{Die, Pool};

use super::super::keys::{Distinction, GmSpend, HeroSpend};
use super::super::rules::{
    held_total, keep_top, rank_face, total_rank, total_rank_step, value_rank, Rank, Rules, MAX_KEEP,
};
use super::super::scene::doom_die_step;
use super::Economy;

/// Most dice the hero's roll holds: the total and the die a plot point adds.
pub const MAX_HERO_HELD: usize = MAX_KEEP + 1;

/// Most doom dice the GM's reaction holds: the total and the die the GM adds.
pub const MAX_DOOM_HELD: usize = MAX_KEEP + 1;

/// Steps 2 and 3, decided before the roll from the plot points held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Preparation {
    /// A d8 of the pool is rolled as a d4, for a plot point (step 2).
    pub d4: bool,
    /// A plot point is spent on one more d6 (step 3).
    pub add_d6: bool,
    /// Whether the hero still holds a plot point for step 4.
    pub holds: bool,
}

impl Economy {
    /// Steps 2 and 3 for a hero holding `held` plot points.
    pub fn prepare(&self, held: u32) -> Preparation {
        let d4 = self.distinction == Distinction::D4WhenBroke && held == 0;
        let after = held + u32::from(d4);
        let add_d6 = self.hero_spend == HeroSpend::AddD6 && after >= 1;
        Preparation {
            d4,
            add_d6,
            holds: after - u32::from(add_d6) >= 1,
        }
    }

    /// Step 4's spend: after the roll and blind to the doom pool, when the
    /// hero holds a point, a live die is left outside the total and the
    /// total is below `spend_below` (when given).
    pub fn spends_on_total(&self, prep: Preparation, roll: &HeroRoll) -> bool {
        self.hero_spend == HeroSpend::AddToTotal
            && prep.holds
            && roll.spare
            && self.spend_below.is_none_or(|below| roll.total < below)
    }

    /// Step 5's spend: the doom die the GM adds to the reaction and spends
    /// (its step), when the action would succeed against `reaction.total`
    /// and fails against the total with the added die.
    pub fn gm_spends(&self, rules: &Rules, action_total: u32, reaction: &Reaction) -> Option<u8> {
        if self.gm_spend != GmSpend::ToWin {
            return None;
        }
        let (value, step) = reaction.added?;
        let margin = i64::from(action_total) - i64::from(reaction.total);
        (rules.succeeds(margin) && !rules.succeeds(margin - i64::from(value))).then_some(step)
    }

    /// Step 7's plot points, and the points held after the action: one
    /// earned for the d4 distinction, one for any hitch; one spent on the
    /// d6 or on the total.
    pub fn settle(
        &self,
        held: u32,
        prep: Preparation,
        spent_on_total: bool,
        hitches: u32,
    ) -> Settled {
        let earned = u32::from(prep.d4) + u32::from(hitches >= 1);
        let spent = u32::from(prep.add_d6) + u32::from(spent_on_total);
        Settled {
            held: held + earned - spent,
            earned,
            spent,
        }
    }
}

/// The plot points of one action, settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    pub held: u32,
    pub earned: u32,
    pub spent: u32,
}

/// The hero's pool for an action after steps 2 and 3: one d8 rolled as a
/// d4, one more d6.
pub fn action_pool(pool: &Pool, prep: Preparation) -> Pool {
    let mut dice = pool.dice().to_vec();
    if prep.d4 {
        let d8 = dice
            .iter()
            .position(|&d| d == Die::D8)
            .expect("a d4-when-broke pool holds a d8 (checked when read)");
        dice[d8] = Die::D4;
    }
    if prep.add_d6 {
        dice.push(Die::D6);
    }
    Pool::new(dice)
}

/// The hero's roll as the economy reads it: the total of `keep` dice, the
/// total with one more, whether a live die is left outside the total, and
/// the hitches (the d4 distinction and the added d6 count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeroRoll {
    pub total: u32,
    pub plus_one: u32,
    pub spare: bool,
    pub hitches: u32,
}

/// The hero's dice as rolled: the `keep + 1` highest live values (a scene
/// never reads the effect die, so sizes do not matter) and the hitches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HeroDice {
    pub held: [Rank; MAX_HERO_HELD],
    pub hitches: u32,
}

impl HeroDice {
    pub const EMPTY: HeroDice = HeroDice {
        held: [0; MAX_HERO_HELD],
        hitches: 0,
    };

    /// One die showing `face`, through the one top-k selection.
    #[inline]
    pub fn push(&mut self, keep: usize, face: u8) {
        keep_top(&mut self.held[..keep + 1], value_rank(face));
        self.hitches += u32::from(face == 1);
    }

    /// The roll: the totals in max-total order (higher values first).
    pub fn roll(&self, keep: usize) -> HeroRoll {
        HeroRoll {
            total: held_total(&self.held[..keep]),
            plus_one: held_total(&self.held[..keep + 1]),
            spare: self.held[keep] != 0,
            hitches: self.hitches,
        }
    }
}

/// The hero's final total after step 4.
pub fn action_total(roll: &HeroRoll, spent_on_total: bool) -> u32 {
    if spent_on_total {
        roll.plus_one
    } else {
        roll.total
    }
}

/// The doom pool's roll as the GM reads it (step 5): the reaction total of
/// `reaction_keep` dice and, when at least one more live die was rolled,
/// the value the GM can add (the next highest) and the smallest die showing
/// it, which is the one spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reaction {
    pub total: u32,
    pub added: Option<(u32, u8)>,
}

/// The doom dice as rolled: the `reaction_keep + 1` best live dice by
/// [`total_rank`] (of equal values the smaller die first, so the first die
/// showing the added value is the smallest one showing it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DoomDice {
    pub held: [Rank; MAX_DOOM_HELD],
}

impl DoomDice {
    pub const EMPTY: DoomDice = DoomDice {
        held: [0; MAX_DOOM_HELD],
    };

    /// One doom die of `step` showing `face`; `slots` is `reaction_keep`,
    /// plus one when the GM may spend.
    #[inline]
    pub fn push(&mut self, slots: usize, step: u8, face: u8) {
        keep_top(&mut self.held[..slots], total_rank(face, step));
    }

    /// The reaction, the GM summing `reaction_keep` dice.
    pub fn reaction(&self, reaction_keep: usize, slots: usize) -> Reaction {
        let total = held_total(&self.held[..reaction_keep]);
        let added = (slots > reaction_keep && self.held[reaction_keep] != 0).then(|| {
            let value = rank_face(self.held[reaction_keep]);
            let first = self.held[..slots]
                .iter()
                .find(|&&rank| rank_face(rank) == value)
                .expect("the added die itself shows the value");
            (u32::from(value), total_rank_step(*first))
        });
        Reaction { total, added }
    }

    /// The same dice with equal values on one size: only the smallest die
    /// showing a value matters to the GM, so states that differ only in
    /// the sizes behind it merge.
    pub fn canonical(mut self, slots: usize) -> DoomDice {
        for i in 1..slots {
            if self.held[i] != 0 && rank_face(self.held[i]) == rank_face(self.held[i - 1]) {
                self.held[i] = self.held[i - 1];
            }
        }
        self
    }
}

/// Step 7's doom pool: the spent die leaves, then an action with hitches
/// adds a d6 stepped up once per extra hitch.
pub fn settle_doom(doom: &mut [u32; 5], spent: Option<u8>, hitches: u32) {
    if let Some(step) = spent {
        doom[usize::from(step)] -= 1;
    }
    if hitches >= 1 {
        doom[doom_die_step(hitches)] += 1;
    }
}

/// Whether the action succeeds, and heroically, against the final reaction.
pub fn outcome(rules: &Rules, action: u32, reaction: u32) -> (bool, bool) {
    let margin = i64::from(action) - i64::from(reaction);
    (rules.succeeds(margin), rules.is_heroic(margin))
}
