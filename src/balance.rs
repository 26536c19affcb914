//! The balance solver (SPEC 6): for each hero pool, the rung of a ladder of
//! opposing pools (by default the Cortex Plus rules text's difficulty table, "Уровни
//! Сложности" in `cortex-plus.ru.txt`: die size by the act's character, die
//! count by its scale) whose chance of success, or of a heroic success, is
//! closest to a target. This is what a designer tuning a doom pool asks:
//! "which starting doom pool gives this party about 60%?". Every rung is an
//! exact opposed roll, so the answer is instant.
//!
//! A balance comes from `oddsmith balance` flags or a `[[balance]]` table;
//! both become [`Options`] and are validated by [`BalanceSpec::from_options`].
//! The results are part of a run's report; `report::balance` writes them.

use crate::dice::Pool;
use crate::distribution::Metric;
use crate::engine::exact::{Budget, ExactError};
use crate::options::{Entries, KeyStyle, OptionError, Options, RawItem, RawValue};
use crate::systems::cortex::rules::ROLL_RULE_KEYS;
use crate::systems::cortex::{CortexCase, Opposition, Rules};
use crate::systems::systems_with_key;

/// The keys a balance accepts.
pub const KEYS: &[&str] = &[
    "pools",
    "target",
    "target_heroic",
    "ladder",
    "keep",
    "reaction_keep",
    "ties",
    "heroic_step",
];

/// The cortex roll rules a balance also reads from a scenario's `[cortex]`.
pub const RULE_KEYS: &[&str] = ROLL_RULE_KEYS;

/// The target when none is given: the SPEC's example, a bit better than even.
pub const DEFAULT_TARGET: f64 = 0.6;

/// The rules text's nine doom pools ("Уровни Сложности"), in SPEC 6's order:
/// standard 2d6, heroic Xd8, catastrophic Xd10; global 3dX, cosmic 4dX.
pub const DEFAULT_LADDER: [(&str, &str); 9] = [
    ("2d6", "standard"),
    ("2d8", "heroic"),
    ("2d10", "catastrophic"),
    ("3d6", "global"),
    ("3d8", "global heroic"),
    ("3d10", "global catastrophic"),
    ("4d6", "cosmic"),
    ("4d8", "cosmic heroic"),
    ("4d10", "cosmic catastrophic"),
];

/// The rules text's name for a pool on its difficulty table, if it is one.
pub fn label_of(pool: &Pool) -> Option<&'static str> {
    DEFAULT_LADDER
        .iter()
        .find(|(text, _)| Pool::parse_cortex(text).is_ok_and(|p| &p == pool))
        .map(|&(_, label)| label)
}

/// Which chance the balance aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// `p_success` (`target`).
    Success,
    /// `p_heroic` (`target_heroic`).
    Heroic,
}

impl Aim {
    pub fn metric(self) -> &'static str {
        match self {
            Aim::Success => "p_success",
            Aim::Heroic => "p_heroic",
        }
    }
}

/// One resolved balance question.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceSpec {
    pub pools: Vec<Pool>,
    pub aim: Aim,
    pub target: f64,
    pub ladder: Vec<Pool>,
    pub rules: Rules,
}

/// One rung's chance for one hero pool.
#[derive(Debug, Clone, PartialEq)]
pub struct RungValue {
    pub vs: Pool,
    pub label: Option<&'static str>,
    pub value: f64,
}

/// The answer for one hero pool.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceResult {
    pub pool: Pool,
    pub metric: &'static str,
    pub target: f64,
    /// Index of the chosen rung in `ladder`.
    pub best: usize,
    pub ladder: Vec<RungValue>,
}

/// Reads a list of pools (`pools`, `ladder`), each error at its item.
fn pool_list(
    options: &mut Options,
    key: &'static str,
    example: &str,
) -> Result<Option<Vec<Pool>>, OptionError> {
    let Some(item) = options.take(key) else {
        return Ok(None);
    };
    let RawValue::Array(items) = &item.value else {
        return Err(options.error_at(
            &item,
            format!(
                "{} must be a list of pools, e.g. {example}, not {}",
                options.key_name(key),
                item.value.type_name()
            ),
        ));
    };
    let mut pools = Vec::new();
    for (i, entry) in items.iter().enumerate() {
        let at = RawItem {
            at: entry.at.or(item.at),
            ..entry.clone()
        };
        let RawValue::Str(text) = &entry.value else {
            return Err(options.error_at(
                &at,
                format!(
                    "entry {} of {} must be a pool such as \"2d8\", not {}",
                    i + 1,
                    options.key_name(key),
                    entry.value.type_name()
                ),
            ));
        };
        let pool = Pool::parse_cortex(text).map_err(|e| {
            options.error_at(
                &at,
                format!("entry {} of {}: {e}", i + 1, options.key_name(key)),
            )
        })?;
        pools.push(pool);
    }
    if pools.is_empty() {
        return Err(options.error_at(
            &item,
            format!(
                "{} is empty: give at least one pool, e.g. {example}",
                options.key_name(key)
            ),
        ));
    }
    Ok(Some(pools))
}

impl BalanceSpec {
    /// Options for a balance, whose unknown-key errors name the systems a
    /// stray key belongs to.
    pub fn options(style: KeyStyle, entries: Entries) -> Options {
        Options::new("balance", style, entries).with_key_owners(systems_with_key)
    }

    pub fn from_options(mut options: Options) -> Result<BalanceSpec, OptionError> {
        let Some(pools) = pool_list(&mut options, "pools", "[\"d8 d6 d6\", \"d10 2d8 d6\"]")?
        else {
            return Err(options.case_error(format!(
                "a balance needs {}, the hero pools to balance, e.g. [\"d8 d6 d6\", \"d10 2d8 d6\"]",
                options.key_name("pools")
            )));
        };
        let target_item = options.take("target");
        let target = options.float("target", 0.0, 1.0)?;
        let heroic = options.float("target_heroic", 0.0, 1.0)?;
        let (aim, target) = match (target, heroic) {
            (Some(_), Some(_)) => {
                return Err(options.error_at(
                    &target_item.expect("target was given"),
                    format!(
                        "give either {} (for p_success) or {} (for p_heroic), not both",
                        options.key_name("target"),
                        options.key_name("target_heroic")
                    ),
                ))
            }
            (Some(t), None) => (Aim::Success, t),
            (None, Some(t)) => (Aim::Heroic, t),
            (None, None) => (Aim::Success, DEFAULT_TARGET),
        };
        let ladder = match pool_list(&mut options, "ladder", "\"2d6,3d8\"")? {
            Some(ladder) => ladder,
            None => DEFAULT_LADDER
                .iter()
                .map(|(text, _)| Pool::parse_cortex(text).expect("the default ladder parses"))
                .collect(),
        };
        let rules = Rules::from_options(&mut options)?;
        options.finish().map_err(|mut e| {
            e.message = e
                .message
                .replace("for system \"balance\"", "in a [[balance]] table");
            e
        })?;
        Ok(BalanceSpec {
            pools,
            aim,
            target,
            ladder,
            rules,
        })
    }

    /// Evaluates every rung for every hero pool, exactly. Each opposed roll
    /// gets the interactive budget of its own, like a case.
    pub fn evaluate(&self) -> Result<Vec<BalanceResult>, ExactError> {
        self.evaluate_with(|case| {
            let hists = case.exact_hists(&mut Budget::interactive())?;
            Ok(case.metrics(&hists))
        })
    }

    /// Evaluates every rung for every hero pool with `metrics_of`, which
    /// turns one opposed roll into its metrics (by any method: `oddsmith
    /// balance --method mc` samples the rungs exact cannot answer).
    pub fn evaluate_with<E>(
        &self,
        mut metrics_of: impl FnMut(&CortexCase) -> Result<Vec<Metric>, E>,
    ) -> Result<Vec<BalanceResult>, E> {
        let metric = self.aim.metric();
        self.pools
            .iter()
            .map(|pool| {
                let mut ladder = Vec::with_capacity(self.ladder.len());
                for vs in &self.ladder {
                    let case = CortexCase {
                        pool: pool.clone(),
                        opposition: Opposition::Pool(vs.clone()),
                        rules: self.rules,
                    };
                    let value = metrics_of(&case)?
                        .into_iter()
                        .find(|m| m.name == metric)
                        .and_then(|m| m.value)
                        .unwrap_or(0.0);
                    ladder.push(RungValue {
                        vs: vs.clone(),
                        label: label_of(vs),
                        value,
                    });
                }
                Ok(BalanceResult {
                    pool: pool.clone(),
                    metric,
                    target: self.target,
                    best: closest(&ladder, self.target),
                    ladder,
                })
            })
            .collect()
    }
}

/// The rung closest to `target`; on equal distance the earlier wins (SPEC 6).
pub fn closest(ladder: &[RungValue], target: f64) -> usize {
    let mut best = 0;
    for (i, rung) in ladder.iter().enumerate() {
        if (rung.value - target).abs() < (ladder[best].value - target).abs() {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(entries: Vec<(&str, RawValue)>) -> Result<BalanceSpec, OptionError> {
        let entries = entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), RawItem::new(v)))
            .collect();
        BalanceSpec::from_options(BalanceSpec::options(KeyStyle::Toml, entries))
    }

    fn pools(list: &[&str]) -> RawValue {
        RawValue::Array(
            list.iter()
                .map(|s| RawItem::new(RawValue::Str(s.to_string())))
                .collect(),
        )
    }

    #[test]
    fn a_hand_checked_ladder() {
        // d4 against d4: each shows 0 (a hitch), 2, 3 or 4; the action wins
        // only above, P = (1 - 4/16) / 2 = 3/8. d4 against d8: the action's
        // 2, 3, 4 beat 1, 2, 3 of the d8's eight faces (hitch = 0, 2, 3):
        // (1/4)(1 + 2 + 3)/8 = 3/16. Target 0.3: d4 is 0.075 away, d8 0.1125.
        let s = spec(vec![
            ("pools", pools(&["d4"])),
            ("ladder", pools(&["d8", "d4"])),
            ("target", RawValue::Float(0.3)),
        ])
        .unwrap();
        let r = &s.evaluate().unwrap()[0];
        assert!((r.ladder[0].value - 3.0 / 16.0).abs() < 1e-12);
        assert!((r.ladder[1].value - 3.0 / 8.0).abs() < 1e-12);
        assert_eq!(r.best, 1);
        // Exactly halfway (9/32): equal distance, the earlier rung wins.
        for (ladder, best) in [(["d8", "d4"], "d8"), (["d4", "d8"], "d4")] {
            let s = spec(vec![
                ("pools", pools(&["d4"])),
                ("ladder", pools(&ladder)),
                ("target", RawValue::Float(9.0 / 32.0)),
            ])
            .unwrap();
            let r = &s.evaluate().unwrap()[0];
            assert_eq!(r.ladder[r.best].vs.to_string(), best);
        }
    }

    #[test]
    fn the_default_ladder_is_the_seeds_and_labelled() {
        let s = spec(vec![("pools", pools(&["d10 2d8 d6"]))]).unwrap();
        assert_eq!(s.target, DEFAULT_TARGET);
        assert_eq!(s.aim, Aim::Success);
        let r = &s.evaluate().unwrap()[0];
        let names: Vec<String> = r.ladder.iter().map(|x| x.vs.to_string()).collect();
        assert_eq!(
            names,
            ["2d6", "2d8", "2d10", "3d6", "3d8", "3d10", "4d6", "4d8", "4d10"]
        );
        assert_eq!(r.ladder[4].label, Some("global heroic"));
        // SPEC 8's exact figure for d10 2d8 d6 against 2d6.
        assert!((r.ladder[0].value - 0.8978587962962963).abs() < 1e-9);
        // Chances fall within each scale as the dice grow.
        assert!(r.ladder[0].value > r.ladder[1].value && r.ladder[1].value > r.ladder[2].value);
    }

    #[test]
    fn heroic_targets_read_p_heroic() {
        // REFERENCE: d8 d6 d6 against 2d6 has p_heroic 0.3166.
        let s = spec(vec![
            ("pools", pools(&["d8 d6 d6"])),
            ("ladder", pools(&["2d6"])),
            ("target_heroic", RawValue::Float(0.3)),
        ])
        .unwrap();
        let r = &s.evaluate().unwrap()[0];
        assert_eq!(r.metric, "p_heroic");
        assert!((r.ladder[0].value - 0.3166).abs() < 5e-5);
    }

    #[test]
    fn bad_balances_say_what_is_allowed() {
        let err = |entries| spec(entries).unwrap_err().message;
        assert!(err(vec![]).contains("needs `pools`"));
        assert!(err(vec![("pools", pools(&[]))]).contains("`pools` is empty"));
        assert!(err(vec![("pools", pools(&["d7"]))]).contains("d4, d6, d8, d10 or d12"));
        assert!(err(vec![
            ("pools", pools(&["d8"])),
            ("target", RawValue::Float(1.5))
        ])
        .contains("from 0 to 1"));
        assert!(err(vec![("pools", pools(&["d8"])), ("ladder", pools(&[]))])
            .contains("`ladder` is empty"));
        assert!(err(vec![
            ("pools", pools(&["d8"])),
            ("target", RawValue::Float(0.5)),
            ("target_heroic", RawValue::Float(0.5))
        ])
        .contains("not both"));
        let e = err(vec![
            ("pools", pools(&["d8"])),
            ("vs", RawValue::Str("2d6".into())),
        ]);
        assert!(e.contains("in a [[balance]] table"), "{e}");
    }
}
