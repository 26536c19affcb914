//! Which Storytelling case a set of keys asks for (docs/storytelling.md): one
//! roll of the pool, an extended action (`extended`, `rolls`) or a
//! contested action (`vs_dice` and the opponent's keys). A case is one of
//! the three, so a key of a kind the case is not is refused rather than
//! ignored in silence, as a Cortex roll refuses a reacting pool's rules
//! without one (docs/cortex.md).

use crate::options::{KeyDef, OptionError, Options};
use crate::systems::SystemCase;

use super::contest::ContestCase;
use super::extended::ExtendedCase;
use super::keys::{
    CONTEST_TIES, EXTENDED, MAX_EXTENDED, ROLLS, VS_AGAIN, VS_DICE, VS_MODIFIER, VS_ROTE,
};
use super::{pool_of, Rules, StorytellingCase};

/// The opponent's keys, which only a contested action reads.
const OPPONENT_KEYS: [&KeyDef; 4] = [&VS_MODIFIER, &VS_AGAIN, &VS_ROTE, &CONTEST_TIES];

/// Resolves a Storytelling case of any kind from its options.
pub fn resolve(mut options: Options) -> Result<Box<dyn SystemCase>, OptionError> {
    let base = StorytellingCase::read(&mut options)?;
    let extended_item = options.take(&EXTENDED);
    let vs_item = options.take(&VS_DICE);
    let mut extended = options.maybe_int_of(&EXTENDED)?;
    let mut vs_dice = options.maybe_int_of(&VS_DICE)?;
    if let (Some(e), Some(v)) = (extended_item, vs_item) {
        // A case's own key replaces the other kind set in a defaults table.
        if e.layer > v.layer {
            vs_dice = None;
        } else if v.layer > e.layer {
            extended = None;
        } else {
            return Err(options.error_at(
                &v,
                format!(
                    "{} (a contested action) and {} (an extended action) cannot be combined in one case: give one of them",
                    options.key_name(&VS_DICE),
                    options.key_name(&EXTENDED)
                ),
            ));
        }
    }
    if extended.is_none() {
        refuse(&mut options, &ROLLS, &EXTENDED, "an extended action")?;
    }
    if vs_dice.is_none() {
        for key in OPPONENT_KEYS {
            refuse(&mut options, key, &VS_DICE, "a contested action")?;
        }
    }
    let case: Box<dyn SystemCase> = match (extended, vs_dice) {
        (Some(extended), _) => {
            // docs/storytelling.md: the rolls default to the unmodified pool,
            // at least one and at most the most allowed.
            let rolls = match options.maybe_int_of(&ROLLS)? {
                Some(rolls) => rolls,
                None => base.dice.clamp(1, MAX_EXTENDED),
            };
            Box::new(ExtendedCase {
                base,
                extended: extended as u32,
                rolls: rolls as u32,
            })
        }
        (None, Some(vs_dice)) => {
            let (vs_modifier, vs_pool) =
                pool_of(&mut options, vs_dice, &VS_MODIFIER, "the opponent's pool")?;
            let again = match options.take(&VS_AGAIN) {
                Some(item) => Rules::again_of(&options, &VS_AGAIN, &item, base.rules.target)?,
                None => base.rules.again,
            };
            let opponent = Rules {
                pool: vs_pool,
                again,
                rote: options.bool_of(&VS_ROTE)?,
                ..base.rules
            };
            Box::new(ContestCase {
                base,
                vs_dice,
                vs_modifier,
                opponent,
                ties: options.choice_of(&CONTEST_TIES)?,
            })
        }
        (None, None) => Box::new(base),
    };
    options.finish()?;
    Ok(case)
}

/// Refuses `key` when the case itself gives it but is not the kind of
/// action (`kind`, set by `needs`) it belongs to; a defaults table may hold
/// it for other cases, so there it is only marked as read.
fn refuse(
    options: &mut Options,
    key: &'static KeyDef,
    needs: &'static KeyDef,
    kind: &str,
) -> Result<(), OptionError> {
    if let Some(item) = options.given_by_case(key) {
        return Err(options.error_at(
            item,
            format!(
                "{} applies only to {kind} ({}), and this case has none: give {} too, or leave it out",
                options.key_name(key),
                options.key_name(needs),
                options.key_name(needs)
            ),
        ));
    }
    options.take(key);
    Ok(())
}
