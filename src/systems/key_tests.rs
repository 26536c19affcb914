//! The key descriptors held against the systems that read them: every key
//! is described and read, its declared default is what a case resolves to,
//! and a key several systems share means the same in each. A key the code
//! reads but does not declare, or declares but does not read, fails here.

use serde_json::{json, Value};

use super::System;
use crate::options::{Entries, Fallback, KeyDef, KeyStyle, Kind, Phrase, RawItem, RawValue};

/// The least a case of each system needs, as entries.
fn minimal(system: System) -> Vec<(&'static str, RawValue)> {
    let pool = |text: &str| RawValue::Str(text.into());
    match system {
        System::Cortex | System::CortexScene => vec![("pool", pool("d8 d6"))],
        System::CortexConflict => vec![("hero", pool("d8 d6")), ("foe", pool("d8"))],
        System::Storytelling => vec![("dice", RawValue::Int(3))],
        System::Advantage => vec![],
    }
}

fn entries(given: &[(&str, RawValue)]) -> Entries {
    given
        .iter()
        .map(|(k, v)| (k.to_string(), RawItem::new(v.clone())))
        .collect()
}

#[test]
fn every_key_of_every_system_has_a_descriptor_with_help() {
    for system in System::ALL {
        let keys = system.key_defs();
        assert!(!keys.is_empty(), "{system}");
        assert!(!system.main_keys().is_empty(), "{system} has no main key");
        assert!(
            keys.iter().filter(|k| k.positional).count() <= 1,
            "{system}"
        );
        for (i, key) in keys.iter().enumerate() {
            assert!(!key.help.trim().is_empty(), "{system}: `{}`", key.name);
            assert!(!key.noun.trim().is_empty(), "{system}: `{}`", key.name);
            assert!(!key.allowed_text().is_empty(), "{system}: `{}`", key.name);
            assert!(
                keys[..i].iter().all(|k| k.name != key.name),
                "{system}: `{}` twice",
                key.name
            );
            assert!(
                key.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{system}: `{}`",
                key.name
            );
        }
        assert_eq!(
            system.keys(),
            keys.iter().map(|k| k.name).collect::<Vec<_>>(),
            "{system}"
        );
    }
}

/// Each key in turn given a value of the wrong type: the system must read
/// it (and refuse it) rather than call it unknown, so every declared key is
/// read by `from_options`; and a read key that is not declared could not be
/// given at all.
#[test]
fn every_declared_key_is_read_by_its_system() {
    for system in System::ALL {
        for key in system.key_defs() {
            let wrong = match key.kind {
                Kind::Table { .. } => RawValue::Str("x".into()),
                _ => RawValue::Table(Vec::new()),
            };
            let mut given: Vec<(&str, RawValue)> = minimal(system)
                .into_iter()
                .filter(|(k, _)| *k != key.name)
                .collect();
            given.push((key.name, wrong));
            let err = system
                .resolve(system.options(KeyStyle::Toml, entries(&given)))
                .expect_err(&format!("{system}: `{}` accepted a wrong value", key.name));
            assert!(
                !err.message.contains("unknown key"),
                "{system}: `{}` is declared but not read: {}",
                key.name,
                err.message
            );
        }
    }
}

/// A descriptor's default as the input a case shows for it.
fn default_input(key: &KeyDef) -> Option<Value> {
    match key.default {
        Fallback::Int(i) => Some(json!(i)),
        Fallback::Float(x) => Some(json!(x)),
        Fallback::Bool(b) => Some(json!(b)),
        Fallback::Text(_) if matches!(key.kind, Kind::Table { .. }) => None,
        Fallback::Text(text) => Some(json!(text)),
        Fallback::Required | Fallback::Nothing | Fallback::Derived(_) => None,
    }
}

/// What `--help` says a key defaults to is what a case left without it
/// resolves to, and every key that is not required can be left out.
#[test]
fn declared_defaults_are_what_cases_resolve_to() {
    for system in System::ALL {
        // Other cases where some keys show only then: an opposed roll's
        // rules, a chance die's reroll, a party's sharing, a scene's economy
        // (each economy key at its default in one of them).
        let word = |w: &str| RawValue::Str(w.into());
        let seconds: Vec<Vec<(&str, RawValue)>> = match system {
            System::Cortex => vec![vec![("vs", word("2d6"))]],
            // A chance die against a pool shows the contest's keys too.
            System::Storytelling => vec![vec![
                ("dice", RawValue::Int(0)),
                ("vs_dice", RawValue::Int(2)),
            ]],
            System::Advantage => vec![vec![("party", RawValue::Int(2))]],
            System::CortexScene => vec![
                vec![("hero_spend", word("add-d6"))],
                vec![("gm_spend", word("to-win"))],
            ],
            _ => vec![vec![]],
        };
        let mut cases = vec![minimal(system)];
        for second in seconds {
            let mut other: Vec<(&str, RawValue)> = minimal(system)
                .into_iter()
                .filter(|(k, _)| second.iter().all(|(s, _)| s != k))
                .collect();
            other.extend(second);
            cases.push(other);
        }
        let mut checked: Vec<&str> = Vec::new();
        for given in &cases {
            let case = system
                .resolve(system.options(KeyStyle::Toml, entries(given)))
                .unwrap_or_else(|e| panic!("{system}: {}", e.message));
            let inputs = case.inputs();
            for key in system.key_defs() {
                if given.iter().any(|(k, _)| *k == key.name) {
                    continue;
                }
                if let (Some(shown), Some(declared)) = (inputs.get(key.name), default_input(key)) {
                    let same = match (shown.as_f64(), declared.as_f64()) {
                        (Some(a), Some(b)) => a == b,
                        _ => *shown == declared,
                    };
                    assert!(
                        same,
                        "{system}: `{}` resolves to {shown}, declared {declared}",
                        key.name
                    );
                    checked.push(key.name);
                }
            }
            for name in inputs.keys() {
                assert!(
                    system.key_def(name).is_some(),
                    "{system}: input `{name}` has no descriptor"
                );
            }
        }
        for key in system.key_defs() {
            if default_input(key).is_some() {
                assert!(
                    checked.contains(&key.name),
                    "{system}: the default of `{}` is never shown",
                    key.name
                );
            }
        }
    }
}

/// A key several systems declare means the same in each (docs/reports.md:
/// charts use one phrase per key): the same kind of words and the same
/// noun; `Words` may name different values, with the same fallback.
#[test]
fn a_shared_key_means_the_same_everywhere() {
    for system in System::ALL {
        for key in system.key_defs() {
            for other in super::key_defs_named(key.name) {
                assert_eq!(key.noun, other.noun, "`{}`", key.name);
                match (key.phrase, other.phrase) {
                    (Phrase::Words(_, a), Phrase::Words(_, b)) => {
                        assert_eq!(a, b, "`{}`", key.name)
                    }
                    (a, b) => assert_eq!(a, b, "`{}`", key.name),
                }
            }
        }
    }
}

/// A flag's text is read by its key's kind, and text that is not of the
/// kind as it would be without one, so the key's own check words the error.
#[test]
fn flag_text_is_read_by_the_kind() {
    use crate::systems::cortex::keys::{EFFECT_STEP_DOWN, KEEP, POOL};
    assert_eq!(KEEP.read_flag("2"), Ok(RawValue::Int(2)));
    assert_eq!(KEEP.read_flag("2.5"), Ok(RawValue::Float(2.5)));
    assert_eq!(EFFECT_STEP_DOWN.read_flag("true"), Ok(RawValue::Bool(true)));
    assert_eq!(POOL.read_flag("5"), Ok(RawValue::Str("5".into())));
    assert_eq!(
        crate::systems::advantage::keys::GAIN_ON
            .read_flag("miss=1")
            .map(|v| v.to_string()),
        Ok("miss=1".to_string())
    );
    assert_eq!(
        KEEP.help_line(),
        "Dice summed into the action (hero's) total [1 to 5; default: 2]"
    );
}
