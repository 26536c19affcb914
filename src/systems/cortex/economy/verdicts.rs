//! Steps 5 and 6 of an economy action read ahead for the Monte Carlo
//! trial ([`super::sample`]): whether the GM spends a doom die
//! ([`Economy::gm_spends`]) and whether the action succeeds, and
//! heroically ([`outcome`]), depend only on the margin of the hero's total
//! over the reaction and on the value the GM can add. Every such pair is
//! read once, when the run starts, by those very rules, into what the
//! action adds to the scene's outcome word ([`Fields::outcome`]), so that
//! an action reads one entry instead of deciding the GM's spend and
//! testing its margins.

use super::super::keys::MAX_KEEP;
use super::super::rules::Rules;
use super::counts::Fields;
use super::rules::{outcome, Reaction, MAX_HERO_HELD};
use super::Economy;

/// The largest face of a Cortex die.
const MAX_FACE: u32 = 12;
/// The largest reaction total: `reaction_keep` dice of twelve.
const MAX_REACTION: u32 = MAX_KEEP as u32 * MAX_FACE;
/// The largest hero's total: `keep` dice and one more, of twelve.
const MAX_TOTAL: u32 = MAX_HERO_HELD as u32 * MAX_FACE;
/// The values the GM can add: none (0), or a face of 2 to 12.
const VALUES: u32 = MAX_FACE + 1;

/// By margin (offset by [`MAX_REACTION`]) and value the GM can add: what
/// the action adds to the outcome word.
pub(super) struct Verdicts {
    /// [`ENTRIES`] long, past the last index: an index masked to it
    /// needs no bounds check.
    entries: Box<[u64; ENTRIES]>,
}

/// The verdicts indexed: every margin (offset) by every value.
const USED: usize = ((MAX_TOTAL + MAX_REACTION + 1) * VALUES) as usize;

/// The verdicts' length, [`USED`] rounded up to a power of two.
const ENTRIES: usize = USED.next_power_of_two();

impl Verdicts {
    pub fn new(economy: &Economy, rules: &Rules, fields: Fields) -> Verdicts {
        // The margin `total - MAX_REACTION` against the largest reaction,
        // which keeps every total at or above zero.
        let mut entries: Vec<u64> = (0..=MAX_TOTAL + MAX_REACTION)
            .flat_map(|total| {
                (0..VALUES).map(move |value| {
                    let reaction = Reaction {
                        total: MAX_REACTION,
                        added: (value != 0).then_some((value, 0)),
                    };
                    Verdicts::decide(economy, rules, fields, total, &reaction)
                })
            })
            .collect();
        entries.resize(ENTRIES, 0);
        Verdicts {
            entries: entries.try_into().expect("ENTRIES long"),
        }
    }

    /// Steps 5 and 6 by the rules themselves.
    fn decide(
        economy: &Economy,
        rules: &Rules,
        fields: Fields,
        total: u32,
        reaction: &Reaction,
    ) -> u64 {
        let gm = economy.gm_spends(rules, total, reaction);
        let added = match (gm, reaction.added) {
            (Some(_), Some((value, _))) => value,
            _ => 0,
        };
        let (success, heroic) = outcome(rules, total, reaction.total + added);
        fields.outcome(success, heroic, gm.is_some())
    }

    /// What an action of `total` against the reaction `key` adds to the
    /// outcome word ([`Fields::gm_spent`] tells whether the GM spends the
    /// added die).
    #[inline(always)]
    pub fn read(&self, total: u32, key: ReactionKey) -> u64 {
        let index = (total * VALUES + (key.0 & 0xffff)) as usize;
        debug_assert!(index < USED);
        self.entries[index & (ENTRIES - 1)]
    }
}

/// A reaction as an action reads it: the part of its verdict's index
/// ([`Verdicts::read`]) the reaction gives, `(MAX_REACTION - total) *
/// VALUES + value` (the margin's offset taken out, so that the action
/// adds only its own total's part), in the low 16 bits, and the step of
/// the die the GM can add, plus one (0: none), above them. A doom pool's
/// table holds its rolls so ([`super::doom_pools`]), so that an action
/// reads one word instead of unpacking the reaction and computing the
/// margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct ReactionKey(u32);

impl ReactionKey {
    #[inline(always)]
    pub fn of(reaction: &Reaction) -> ReactionKey {
        let (value, spend) = reaction
            .added
            .map_or((0, 0), |(value, step)| (value, u32::from(step) + 1));
        ReactionKey(((MAX_REACTION - reaction.total) * VALUES + value) | spend << 16)
    }

    /// The step of the die the GM can add, plus one (0: none).
    #[inline(always)]
    pub fn spend(self) -> u8 {
        (self.0 >> 16) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Distinction, GmSpend, HeroSpend};
    use super::*;
    use crate::systems::cortex::Ties;

    /// Every total, reaction and value the GM can add read as the rules
    /// decide them, under both tie rules, two heroic steps and both GM
    /// spends.
    #[test]
    fn the_verdicts_are_the_rules() {
        for ties in [Ties::Reaction, Ties::Action] {
            for heroic_step in [1, 5] {
                for gm_spend in [GmSpend::Never, GmSpend::ToWin] {
                    let rules = Rules {
                        ties,
                        heroic_step,
                        ..Rules::default()
                    };
                    let economy = Economy {
                        start_plot_points: 0,
                        hero_spend: HeroSpend::AddToTotal,
                        spend_below: None,
                        distinction: Distinction::D8,
                        gm_spend,
                    };
                    let fields = Fields::new(8);
                    let verdicts = Verdicts::new(&economy, &rules, fields);
                    for total in 0..=MAX_TOTAL {
                        for r in 0..=MAX_REACTION {
                            for value in 0..VALUES {
                                let reaction = Reaction {
                                    total: r,
                                    added: (value != 0).then_some((value, 3)),
                                };
                                let key = ReactionKey::of(&reaction);
                                assert_eq!(key.spend(), if value != 0 { 4 } else { 0 });
                                assert_eq!(
                                    verdicts.read(total, key),
                                    Verdicts::decide(&economy, &rules, fields, total, &reaction),
                                    "{total} vs {reaction:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
