//! The balance solver (docs/cortex.md): for each hero pool, the rung of a ladder of
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

pub(crate) mod general;

use serde_json::{Map, Value};

use crate::dice::Pool;
use crate::engine::exact::{Budget, ExactError};
use crate::options::{Entries, KeyDef, KeyStyle, OptionError, Options, RawItem, RawValue};
use crate::systems::cortex::keys::{POOL, ROLL_RULES, VS};
use crate::systems::cortex::{self, CortexCase, Opposition, Rules};
use crate::systems::{systems_with_key, Case, System};

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
pub const RULE_KEYS: &[&KeyDef] = ROLL_RULES;

/// The target when none is given: the documented example, a bit better than even.
pub const DEFAULT_TARGET: f64 = 0.6;

/// The rules text's nine doom pools ("Уровни Сложности"), in docs/cortex.md's order:
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
            Aim::Success => cortex::metrics::P_SUCCESS.name,
            Aim::Heroic => cortex::metrics::P_HEROIC.name,
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

/// Which form a balance was asked in: docs/cortex.md's hero pools against a
/// ladder of opposing pools (whose output keeps docs/cortex.md's shape), or
/// any system, key and metric (docs/cortex.md, "Any system and metric").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Pools,
    General,
}

/// One rung of a ladder: the key's value there, its name on the rules
/// text's difficulty table if it has one, and the case to evaluate.
#[derive(Debug)]
pub struct Rung {
    pub value: Value,
    pub label: Option<&'static str>,
    pub case: Case,
}

/// One balance question, resolved: for one set of fixed keys, every rung a
/// case ready to evaluate by the run's method. `table` numbers the
/// `[[balance]]` (or command) it came from, for its chart.
#[derive(Debug)]
pub struct BalanceQuestion {
    pub form: Form,
    pub table: usize,
    pub system: System,
    /// The fixed keys as given (docs/cortex.md: the hero `pool`).
    pub inputs: Map<String, Value>,
    pub key: String,
    pub metric: String,
    pub target: f64,
    pub rungs: Vec<Rung>,
}

/// One rung's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RungValue {
    pub value: Value,
    pub label: Option<&'static str>,
    /// The metric there; `None` where it is not defined (such a rung never wins).
    pub metric: Option<f64>,
}

/// The answer to one balance question.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceResult {
    pub form: Form,
    pub table: usize,
    pub system: System,
    pub inputs: Map<String, Value>,
    pub key: String,
    pub metric: String,
    pub target: f64,
    /// Index of the chosen rung in `ladder`; `None` when every rung is `null`.
    pub best: Option<usize>,
    pub ladder: Vec<RungValue>,
}

impl BalanceQuestion {
    /// The answer once every rung's metric is known (`values`, rung order).
    pub fn answer(&self, values: Vec<Option<f64>>) -> BalanceResult {
        let ladder: Vec<RungValue> = self
            .rungs
            .iter()
            .zip(values)
            .map(|(rung, metric)| RungValue {
                value: rung.value.clone(),
                label: rung.label,
                metric,
            })
            .collect();
        BalanceResult {
            form: self.form,
            table: self.table,
            system: self.system,
            inputs: self.inputs.clone(),
            key: self.key.clone(),
            metric: self.metric.clone(),
            target: self.target,
            best: closest(&ladder, self.target),
            ladder,
        }
    }
}

impl BalanceQuestion {
    /// The answer with every rung evaluated exactly, with no work limit:
    /// for tests and library callers without run settings (a run uses its
    /// method, `commands::evaluate::evaluate_balance`).
    pub fn answer_exactly(&self) -> Result<BalanceResult, ExactError> {
        let mut values = Vec::with_capacity(self.rungs.len());
        for rung in &self.rungs {
            let evaluation = rung.case.spec.exact(&mut Budget::unlimited())?;
            values.push(evaluation.value(&self.metric));
        }
        Ok(self.answer(values))
    }
}

/// The rung whose metric is closest to `target`; on equal distance the
/// earlier wins (docs/cortex.md); a rung without a value never wins (docs/cortex.md).
pub fn closest(ladder: &[RungValue], target: f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, rung) in ladder.iter().enumerate() {
        let Some(value) = rung.metric else { continue };
        let distance = (value - target).abs();
        if best.is_none_or(|(_, d)| distance < d) {
            best = Some((i, distance));
        }
    }
    best.map(|(i, _)| i)
}

/// Every rung of a balance is evaluated like a case, so a run's cases and
/// rungs together stay within the case cap (docs/scenarios.md): `earlier`
/// cases and rungs come before this balance's `rungs`. Returns the new
/// total, or what the user is told.
pub fn count_rungs(earlier: usize, rungs: usize) -> Result<usize, String> {
    let total = earlier.saturating_add(rungs);
    if total > crate::sweep::MAX_CASES {
        return Err(format!(
            "this balance has {rungs} rungs (a question for each set of fixed values, times the ladder), which brings the run to {total} cases and rungs; at most {} are allowed, since each rung is evaluated like a case: balance fewer values",
            crate::sweep::MAX_CASES
        ));
    }
    Ok(total)
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
                "a balance needs {}, the hero pools to balance, e.g. [\"d8 d6 d6\", \"d10 2d8 d6\"]; or, for any system, {}, {}, {}, {} and {}",
                options.key_name("pools"),
                options.key_name("system"),
                options.key_name("key"),
                options.key_name("ladder"),
                options.key_name("metric"),
                options.key_name("target")
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

    /// How many rungs [`Self::questions`] makes: every ladder pool for
    /// every hero pool.
    pub fn rungs(&self) -> usize {
        self.pools.len().saturating_mul(self.ladder.len())
    }

    /// One question per hero pool: each rung an opposed roll against the
    /// ladder's pool, under the balance's roll rules.
    pub fn questions(&self, table: usize) -> Vec<BalanceQuestion> {
        self.pools
            .iter()
            .map(|pool| {
                let rungs = self
                    .ladder
                    .iter()
                    .map(|vs| {
                        let case = CortexCase {
                            pool: pool.clone(),
                            opposition: Opposition::Pool(vs.clone()),
                            rules: self.rules,
                        };
                        Rung {
                            value: Value::String(vs.to_string()),
                            label: label_of(vs),
                            case: Case {
                                name: format!("{pool} vs {vs}"),
                                spec: Box::new(case),
                            },
                        }
                    })
                    .collect();
                let mut inputs = Map::new();
                inputs.insert(POOL.name.into(), Value::String(pool.to_string()));
                BalanceQuestion {
                    form: Form::Pools,
                    table,
                    system: System::Cortex,
                    inputs,
                    key: VS.name.into(),
                    metric: self.aim.metric().into(),
                    target: self.target,
                    rungs,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_balance_reads_the_roll_rules_it_lists() {
        let rules: Vec<&str> = RULE_KEYS.iter().map(|k| k.name).collect();
        for rule in &rules {
            assert!(KEYS.contains(rule), "`{rule}`");
        }
        assert_eq!(KEYS.len(), 4 + rules.len());
    }

    fn spec(entries: Vec<(&str, RawValue)>) -> Result<BalanceSpec, OptionError> {
        let entries = entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), RawItem::new(v)))
            .collect();
        BalanceSpec::from_options(BalanceSpec::options(KeyStyle::Toml, entries))
    }

    /// Every rung of the spec's questions evaluated exactly.
    fn evaluate(spec: &BalanceSpec) -> Vec<BalanceResult> {
        spec.questions(1)
            .iter()
            .map(|q| q.answer_exactly().unwrap())
            .collect()
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
        let r = &evaluate(&s)[0];
        assert!((r.ladder[0].metric.unwrap() - 3.0 / 16.0).abs() < 1e-12);
        assert!((r.ladder[1].metric.unwrap() - 3.0 / 8.0).abs() < 1e-12);
        assert_eq!(r.best, Some(1));
        // Exactly halfway (9/32): equal distance, the earlier rung wins.
        for (ladder, best) in [(["d8", "d4"], "d8"), (["d4", "d8"], "d4")] {
            let s = spec(vec![
                ("pools", pools(&["d4"])),
                ("ladder", pools(&ladder)),
                ("target", RawValue::Float(9.0 / 32.0)),
            ])
            .unwrap();
            let r = &evaluate(&s)[0];
            assert_eq!(r.ladder[r.best.unwrap()].value, best);
        }
    }

    #[test]
    fn the_default_ladder_is_the_seeds_and_labelled() {
        let s = spec(vec![("pools", pools(&["d10 2d8 d6"]))]).unwrap();
        assert_eq!(s.target, DEFAULT_TARGET);
        assert_eq!(s.aim, Aim::Success);
        let r = &evaluate(&s)[0];
        let names: Vec<&Value> = r.ladder.iter().map(|x| &x.value).collect();
        assert_eq!(
            names,
            ["2d6", "2d8", "2d10", "3d6", "3d8", "3d10", "4d6", "4d8", "4d10"]
        );
        assert_eq!(r.ladder[4].label, Some("global heroic"));
        // docs/reports.md's exact figure for d10 2d8 d6 against 2d6.
        assert!((r.ladder[0].metric.unwrap() - 0.8978587962962963).abs() < 1e-9);
        // Chances fall within each scale as the dice grow.
        assert!(
            r.ladder[0].metric.unwrap() > r.ladder[1].metric.unwrap()
                && r.ladder[1].metric.unwrap() > r.ladder[2].metric.unwrap()
        );
    }

    #[test]
    fn heroic_targets_read_p_heroic() {
        // Published figure: d8 d6 d6 against 2d6 has p_heroic 0.3166.
        let s = spec(vec![
            ("pools", pools(&["d8 d6 d6"])),
            ("ladder", pools(&["2d6"])),
            ("target_heroic", RawValue::Float(0.3)),
        ])
        .unwrap();
        let r = &evaluate(&s)[0];
        assert_eq!(r.metric, "p_heroic");
        assert!((r.ladder[0].metric.unwrap() - 0.3166).abs() < 5e-5);
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
