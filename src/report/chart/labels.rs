//! The words charts use for inputs: every `key = value` a chart shows in a
//! title, note, legend entry, panel caption or category reads as a phrase
//! ("doom pool keeps growing past 2d12", "ties go to the reaction") rather
//! than as a raw `key=value` pair, so a chart reads
//! at a glance. This is the one place that maps a key to its
//! phrase; every chart builder goes through [`phrase`] (directly or through
//! `label_of`, `fixed_rules_note` and the slice note), so a key reads the
//! same in every chart. The words are each key's descriptor's (its
//! `phrase` and `noun`, declared once in the system's `keys.rs`); a key with
//! the same name means the same thing in every system that has it (the
//! Cortex roll rules are shared by rolls, scenes and conflicts). A key with
//! no descriptor fails the tests (`every_input_has_a_descriptor`).
//!
//! Values print as `report::format` writes them, so a number reads the same
//! in charts, tables and pages: whole numbers without a decimal point (`0`,
//! not `0.0`), chances as percentages in its unit ("50 %").

use serde_json::Value as Json;

use crate::options::{KeyDef, Kind, Phrase, Shown};
use crate::report::format;

/// A value as a chart prints it: strings bare, whole numbers without a
/// decimal point, other numbers as short as they are exact, switches as
/// "yes"/"no", tables as their entries.
pub fn value_text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => format::number(f),
            _ => n.to_string(),
        },
        Json::Bool(true) => "yes".into(),
        Json::Bool(false) => "no".into(),
        Json::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{} {}", k.replace('_', " "), value_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Json::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        Json::Null => "none".into(),
    }
}

/// A chance (0..1) as a percentage ([`format::stated_percent`]): 0.5 ->
/// "50 %", 0.125 -> "12.5 %".
pub fn chance(value: &Json) -> String {
    match value.as_f64() {
        Some(p) => format::stated_percent(p),
        None => value_text(value),
    }
}

/// A modifier with its sign: "+1", "0", "-2".
fn signed(value: &Json) -> String {
    match value.as_f64() {
        Some(v) if v > 0.0 => format!("+{}", format::number(v)),
        _ => value_text(value),
    }
}

/// "1 die" / "3 dice" style counts: the singular for exactly one.
fn count(value: &Json, one: &str, many: &str) -> String {
    let n = value_text(value);
    if n == "1" {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The phrase for input `key` at `value`, as a chart shows it: the words
/// the key's descriptor declares (`phrase` in the system's `keys.rs`). A key
/// several systems declare reads in the words of the one that names this
/// value (`policy` "greedy" is the advantage die's); a key no system
/// declares is a mistake in the code, which the tests catch.
pub fn phrase(key: &str, value: &Json) -> String {
    let defs = crate::systems::key_defs_named(key);
    debug_assert!(!defs.is_empty(), "input `{key}` has no key descriptor");
    // A pool as written ("d8 d6 d6", from a balance's fixed keys) is shown
    // in the one notation every other label uses ("d8 2d6").
    let canonical;
    let value = match value.as_str().map(crate::dice::Pool::parse_cortex) {
        Some(Ok(pool)) if defs.iter().any(|d| matches!(d.kind, Kind::Pool)) => {
            canonical = Json::String(pool.to_string());
            &canonical
        }
        _ => value,
    };
    let text = value_text(value);
    let names_value = |def: &&&KeyDef| match def.phrase {
        Phrase::Words(words, _) => words.iter().any(|(v, _)| *v == text),
        _ => false,
    };
    match defs.iter().find(names_value).or(defs.first()) {
        Some(def) => render(&def.phrase, value),
        None => format!("{} {text}", key.replace('_', " ")),
    }
}

/// A key's declared [`Phrase`] at `value`.
fn render(phrase: &Phrase, value: &Json) -> String {
    match *phrase {
        Phrase::Value(text, shown) => {
            let shown = match shown {
                Shown::Plain => value_text(value),
                Shown::Count(one, many) => count(value, one, many),
                Shown::Signed => signed(value),
                Shown::Percent => chance(value),
            };
            text.replacen("{}", &shown, 1)
        }
        Phrase::Switch { on, off } => {
            if value.as_bool() == Some(true) {
                on.into()
            } else {
                off.into()
            }
        }
        Phrase::Words(words, other) => {
            let text = value_text(value);
            match words.iter().find(|(v, _)| *v == text) {
                Some((_, words)) => (*words).into(),
                None => render(other, value),
            }
        }
        Phrase::Table {
            keys,
            each,
            all,
            none,
            other,
        } => {
            let Json::Object(map) = value else {
                return other.replacen("{}", &value_text(value), 1);
            };
            let parts: Vec<String> = map
                .iter()
                .filter(|(_, v)| v.as_f64() != Some(0.0))
                .map(|(k, v)| {
                    let key = keys
                        .iter()
                        .find(|(name, _)| name == k)
                        .map_or_else(|| k.replace('_', " "), |(_, words)| (*words).into());
                    each.replace("{value}", &value_text(v))
                        .replace("{key}", &key)
                })
                .collect();
            if parts.is_empty() {
                none.into()
            } else {
                all.replacen("{}", &parts.join(", "), 1)
            }
        }
    }
}

/// Input `key` as the name of what a balance ladder varies ("which
/// starting doom pool brings ..."): the `noun` its descriptor declares.
pub fn key_noun(key: &str) -> String {
    let defs = crate::systems::key_defs_named(key);
    debug_assert!(!defs.is_empty(), "input `{key}` has no key descriptor");
    defs.first()
        .map_or_else(|| key.replace('_', " "), |def| def.noun.into())
}

/// What metric `name` measures, as a designer would say it ("chance of
/// success" for `p_success`), for chart titles, axes and legends: the
/// phrase its system declares (`systems::metrics`, one `metrics.rs` per
/// system). Every name a system produces is declared (the systems' tests
/// hold each bundled case to that), so the bare name shows only for a name
/// no system produces, and a debug build stops there.
pub fn metric_phrase(name: &str) -> String {
    match crate::systems::metrics::describe(name) {
        Some(described) => described.phrase,
        None => {
            debug_assert!(false, "metric {name} has no descriptor");
            name.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn switches_read_as_what_they_do() {
        assert_eq!(
            phrase("end_at_2d12", &json!(false)),
            "doom pool keeps growing past 2d12"
        );
        assert_eq!(
            phrase("end_at_2d12", &json!(true)),
            "scene ends when the doom pool reaches 2d12"
        );
        assert_eq!(
            phrase("ties", &json!("reaction")),
            "ties go to the reaction"
        );
        assert_eq!(phrase("rote", &json!(true)), "rote action");
    }

    #[test]
    fn numbers_print_without_a_needless_decimal_point() {
        assert_eq!(value_text(&json!(0.0)), "0");
        assert_eq!(value_text(&json!(0.5)), "0.5");
        assert_eq!(
            phrase("gm_reduce_chance", &json!(0.0)),
            "the GM never shrinks the die"
        );
        assert_eq!(
            phrase("gm_reduce_chance", &json!(0.25)),
            "25 % chance the GM shrinks the die"
        );
        assert_eq!(
            phrase("gain_chance", &json!(0.5)),
            "50 % chance the die grows"
        );
        assert_eq!(phrase("stat", &json!(1)), "stat +1");
        assert_eq!(phrase("stat", &json!(-1)), "stat -1");
        assert_eq!(phrase("keep", &json!(1)), "1 die kept for the total");
    }

    #[test]
    fn no_phrase_is_a_key_value_pair() {
        let samples = [
            json!(0),
            json!(1),
            json!(0.0),
            json!(true),
            json!(false),
            json!("x"),
            json!({"miss": 1, "weak": 0}),
        ];
        let systems = crate::systems::System::ALL;
        for system in systems {
            for key in system.keys() {
                for v in &samples {
                    let p = phrase(key, v);
                    assert!(!p.contains('='), "{key}: {p}");
                    assert!(!p.contains(".0"), "{key}: {p}");
                }
            }
        }
    }

    #[test]
    fn metrics_read_as_words() {
        assert_eq!(metric_phrase("p_success"), "chance of success");
        assert_eq!(
            metric_phrase("p_success_action_3"),
            "chance action 3 succeeds"
        );
        assert_eq!(
            metric_phrase("win_effect_d8"),
            "chance of success with a d8 effect die"
        );
    }

    #[test]
    fn every_metric_a_balance_can_name_has_words() {
        // The metrics the bundled scenarios and the documented tables name.
        for name in [
            "p_success",
            "p_heroic",
            "mean_total",
            "mean_effect_step",
            "mean_successes",
            "p_exceptional",
            "p_dramatic",
            "p_ended_early",
            "strong_per_encounter",
            "p_encounter_strong",
            "p_foe_out",
            "mean_exchanges_to_foe_out",
        ] {
            let words = metric_phrase(name);
            assert!(!words.contains('_'), "{name}: {words}");
        }
    }

    #[test]
    fn every_input_has_a_descriptor() {
        // Every key of every system has words, with every placeholder filled.
        let samples = [json!(0), json!(1), json!(2), json!(true), json!("d8")];
        for system in crate::systems::System::ALL {
            for key in system.keys() {
                assert!(!crate::systems::key_defs_named(key).is_empty(), "{key}");
                for v in &samples {
                    let p = phrase(key, v);
                    assert!(!p.contains('{') && !p.trim().is_empty(), "{key}: {p}");
                }
                assert!(!key_noun(key).contains('_'), "{key}");
            }
        }
        assert_eq!(
            phrase("policy", &json!("greedy")),
            "spend whenever it helps"
        );
        assert_eq!(
            phrase("policy", &json!("max-effect")),
            "dice chosen for the largest effect"
        );
        assert_eq!(phrase("again", &json!(0)), "no again");
        assert_eq!(phrase("again", &json!(9)), "9-again");
        assert_eq!(phrase("counters", &json!(2)), "two advantage dice");
        assert_eq!(key_noun("doom"), "starting doom pool");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "has no key descriptor")]
    fn a_key_with_no_descriptor_fails() {
        phrase("tiez", &json!("action"));
    }

    #[test]
    fn a_table_lists_only_what_it_changes() {
        assert_eq!(
            phrase("gain_on", &json!({"miss": 1, "weak": 0, "strong": 0})),
            "the die grows 1 on a miss"
        );
    }
}
