//! The words charts use for inputs: every `key = value` a chart shows in a
//! title, note, legend entry, panel caption or category reads as a phrase
//! ("doom pool keeps growing past 2d12", "ties go to the reaction") rather
//! than as a raw `key=value` pair, so a chart reads
//! at a glance. This is the one place that maps a key to its
//! phrase; every chart builder goes through [`phrase`] (directly or through
//! `label_of`, `fixed_rules_note` and the slice note), so a key reads the
//! same in every chart. Keys are the registry's (`systems::*::KEYS`); a
//! key with the same name means the same thing in every system that has it
//! (the Cortex roll rules are shared by rolls, scenes and conflicts), so one
//! table serves them all. A key this table does not know reads as
//! "key value", never as `key=value`.
//!
//! Values print cleanly: whole numbers without a decimal point (`0`, not
//! `0.0`), chances as percentages.

use serde_json::Value as Json;

/// A value as a chart prints it: strings bare, whole numbers without a
/// decimal point, other numbers as short as they are exact, switches as
/// "yes"/"no", tables as their entries.
pub fn value_text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => number(f),
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

/// A number without a needless decimal point: 0.0 -> "0", 0.5 -> "0.5".
pub fn number(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        // Rust's shortest round-trip form: 0.1 stays "0.1".
        format!("{f}")
    }
}

/// A chance (0..1) as a percentage: 0.5 -> "50%", 0.125 -> "12.5%".
pub fn chance(value: &Json) -> String {
    match value.as_f64() {
        Some(p) => format!("{}%", number((p * 1e6).round() / 1e4)),
        None => value_text(value),
    }
}

/// A modifier with its sign: "+1", "0", "-2".
fn signed(value: &Json) -> String {
    match value.as_f64() {
        Some(v) if v > 0.0 => format!("+{}", number(v)),
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

/// The phrase for input `key` at `value`, as a chart shows it.
pub fn phrase(key: &str, value: &Json) -> String {
    let v = || value_text(value);
    let yes = value.as_bool() == Some(true);
    match key {
        // Cortex rolls (the Cortex Plus rules text, "Броски" and docs/cortex.md).
        "pool" => format!("hero pool {}", v()),
        "vs" => format!("against {}", v()),
        "difficulty" => format!("difficulty {}", v()),
        "keep" => format!("{} kept for the total", count(value, "die", "dice")),
        "reaction_keep" => format!("reaction keeps {}", count(value, "die", "dice")),
        "ties" => match value.as_str() {
            Some("action") => "ties go to the action".into(),
            Some("reaction") => "ties go to the reaction".into(),
            _ => format!("ties {}", v()),
        },
        "heroic_step" => format!(
            "effect steps up per {} of margin",
            count(value, "point", "points")
        ),
        "effect_step_down" if yes => "effect step-down".into(),
        "effect_step_down" => "no effect step-down".into(),
        "plot_points" => count(value, "plot point", "plot points"),
        // Scenes (docs/cortex.md).
        "doom" => format!("doom pool starts at {}", v()),
        "actions" => count(value, "action", "actions"),
        "end_at_2d12" if yes => "scene ends when the doom pool reaches 2d12".into(),
        "end_at_2d12" => "doom pool keeps growing past 2d12".into(),
        // Conflicts (docs/cortex.md).
        "hero" => format!("hero {}", v()),
        "foe" => format!("foe {}", v()),
        "mob" => format!("mob of {}", v()),
        "exchanges" => format!("at most {}", count(value, "exchange", "exchanges")),
        "foe_acts" if yes => "the foe acts too".into(),
        "foe_acts" => "the foe only reacts".into(),
        "hero_stress_limit" => format!("hero out past {} stress", v()),
        "foe_stress_limit" => format!("foe out past {} stress", v()),
        // Storytelling (the Storytelling rules text, docs/storytelling.md).
        "dice" => count(value, "die", "dice"),
        "modifier" => format!("modifier {}", signed(value)),
        "target" => format!("a die succeeds on {}+", v()),
        "again" => match value.as_i64() {
            Some(0) => "no again".into(),
            _ => format!("{}-again", v()),
        },
        "rote" if yes => "rote action".into(),
        "rote" => "not rote".into(),
        "need" => format!("success at {}", count(value, "success", "successes")),
        "exceptional" => format!("exceptional at {}", count(value, "success", "successes")),
        "chance_die_explodes" if yes => "a chance die's 10 rerolls".into(),
        "chance_die_explodes" => "a chance die's 10 does not reroll".into(),
        // The advantage die (the advantage-die rules text, docs/advantage.md).
        "die" => format!("{} advantage die", v()),
        "stat" => format!("stat {}", signed(value)),
        "rolls" => format!("{} an encounter", count(value, "roll", "rolls")),
        "policy" => policy(value),
        "threshold" => format!("spend once the die shows {}+", v()),
        "miss_max" => format!("miss on {} or less", v()),
        "strong_min" => format!("strong hit on {}+", v()),
        "gain_on" => gains(value),
        "gain_chance" => format!("{} chance the die grows", chance(value)),
        "gm_reduce_chance" if value.as_f64() == Some(0.0) => "the GM never shrinks the die".into(),
        "gm_reduce_chance" => format!("{} chance the GM shrinks the die", chance(value)),
        "on_use" => match value.as_str() {
            Some("reset") => "a used die resets to 1".into(),
            Some("swap") => "a used die takes the replaced die's value".into(),
            _ => format!("on use {}", v()),
        },
        "counters" => match value.as_i64() {
            Some(2) => "two advantage dice".into(),
            Some(1) => "one advantage die".into(),
            _ => format!("{} advantage dice", v()),
        },
        "party" => match value.as_i64() {
            Some(1) => "one player".into(),
            _ => format!("party of {}", v()),
        },
        "share" if yes => "dice shared".into(),
        "share" => "dice not shared".into(),
        other => format!("{} {}", other.replace('_', " "), v()),
    }
}

/// Input `key` as the name of what a balance ladder varies ("which
/// starting doom pool brings ..."): the key with its underscores as spaces
/// unless it needs more words to read as a noun.
pub fn key_noun(key: &str) -> String {
    match key {
        "vs" => "opposing pool".into(),
        "pool" | "hero" => "hero pool".into(),
        "foe" => "foe pool".into(),
        "doom" => "starting doom pool".into(),
        "dice" => "number of dice".into(),
        "plot_points" => "number of plot points".into(),
        "actions" => "number of actions".into(),
        "rolls" => "number of rolls an encounter".into(),
        "die" => "advantage die".into(),
        other => other.replace('_', " "),
    }
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

/// A spending policy: the Cortex dice choice (docs/cortex.md) or when the
/// advantage die is spent (docs/advantage.md, step 2).
fn policy(value: &Json) -> String {
    match value.as_str() {
        Some("max-total") => "dice chosen for the highest total".into(),
        Some("max-effect") => "dice chosen for the largest effect".into(),
        Some("greedy") => "spend whenever it helps".into(),
        Some("threshold") => "threshold policy".into(),
        Some("last") => "spend on the last roll".into(),
        Some("threshold-or-last") => "spend at the threshold or on the last roll".into(),
        Some("never") => "no advantage die".into(),
        _ => format!("policy {}", value_text(value)),
    }
}

/// `gain_on = { miss = 1, weak = 0, strong = 0 }` as "the die grows 1 on a
/// miss" (tiers that gain nothing left out).
fn gains(value: &Json) -> String {
    let Json::Object(map) = value else {
        return format!("gain on {}", value_text(value));
    };
    let tier = |k: &str| match k {
        "miss" => "a miss".to_string(),
        "weak" => "a weak hit".to_string(),
        "strong" => "a strong hit".to_string(),
        other => other.replace('_', " "),
    };
    let parts: Vec<String> = map
        .iter()
        .filter(|(_, v)| v.as_f64() != Some(0.0))
        .map(|(k, v)| format!("{} on {}", value_text(v), tier(k)))
        .collect();
    if parts.is_empty() {
        "the die grows on no tier".into()
    } else {
        format!("the die grows {}", parts.join(", "))
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
            "25% chance the GM shrinks the die"
        );
        assert_eq!(
            phrase("gain_chance", &json!(0.5)),
            "50% chance the die grows"
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
    fn a_table_lists_only_what_it_changes() {
        assert_eq!(
            phrase("gain_on", &json!({"miss": 1, "weak": 0, "strong": 0})),
            "the die grows 1 on a miss"
        );
    }
}
