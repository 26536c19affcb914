//! Which metrics can apply to a case at all, so people's tables leave out
//! a number that is 0 by construction rather than by chance
//! (docs/reports.md, "Pivot tables"): a chance die's dramatic failure in
//! a pool of dice (docs/storytelling.md: only a chance die fails
//! dramatically), an effect die of a size the pool does not hold
//! (docs/cortex.md: the effect die is a die of the pool). CSV and JSON keep
//! every metric whatever this says.

use serde_json::{Map, Value};

use super::System;
use crate::dice::Pool;

/// A case's inputs: a JSON map, or a result's compact inputs
/// (`report::stored`), read by key or in order.
pub trait InputLookup {
    fn input(&self, key: &str) -> Option<&Value>;
    fn entries(&self) -> Box<dyn Iterator<Item = (&String, &Value)> + '_>;
}

impl InputLookup for Map<String, Value> {
    fn input(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }

    fn entries(&self) -> Box<dyn Iterator<Item = (&String, &Value)> + '_> {
        Box::new(self.iter())
    }
}

/// Whether metric `name` can be anything but 0 for a case with `inputs`.
pub fn metric_applies(system: System, name: &str, inputs: &impl InputLookup) -> bool {
    match system {
        System::Storytelling if name == super::storytelling::metrics::P_DRAMATIC.name => {
            let dice = inputs.input("dice").and_then(Value::as_i64).unwrap_or(0);
            let modifier = inputs
                .input("modifier")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            dice + modifier <= 0
        }
        System::Cortex => match super::cortex::metrics::POOL_EFFECT.member(name) {
            Some(member) => pool_effect_applies(member, inputs),
            None => true,
        },
        _ => true,
    }
}

/// The pool's own effect die is one of its dice (stepped down at most, and
/// a d4 when none is left over): a size larger than its largest die cannot be it.
fn pool_effect_applies(member: &str, inputs: &impl InputLookup) -> bool {
    let Some(size) = member.strip_prefix('d').and_then(|s| s.parse::<u32>().ok()) else {
        return true;
    };
    let Some(pool) = inputs.input("pool").and_then(Value::as_str) else {
        return true;
    };
    match Pool::parse_cortex(pool) {
        Ok(pool) => size <= 4 || pool.dice().iter().any(|die| die.sides() >= size),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn inputs(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn only_a_chance_die_fails_dramatically() {
        let five = inputs(json!({"dice": 5, "modifier": 0}));
        let chance = inputs(json!({"dice": 2, "modifier": -2}));
        assert!(!metric_applies(System::Storytelling, "p_dramatic", &five));
        assert!(metric_applies(System::Storytelling, "p_dramatic", &chance));
        assert!(metric_applies(System::Storytelling, "p_success", &five));
    }

    #[test]
    fn no_effect_die_larger_than_the_pool_holds() {
        let pool = inputs(json!({"pool": "d8 2d6"}));
        assert!(metric_applies(System::Cortex, "pool_effect_d8", &pool));
        assert!(metric_applies(System::Cortex, "pool_effect_d4", &pool));
        assert!(!metric_applies(System::Cortex, "pool_effect_d12", &pool));
        // A heroic success steps the effect die up: it still applies.
        assert!(metric_applies(System::Cortex, "win_effect_d12", &pool));
    }
}
