//! How a case's results are held while a report is written: compact, so a
//! sweep of 100,000 cases costs well under a kilobyte a case (docs/development.md,
//! "Extreme sizes"). A result's metric values sit in one flat `f64` column
//! beside a list of names shared with every result of the same system and
//! options ([`Metrics`]), and its inputs are a list of pointers to
//! key-and-value pairs shared with every case that has the same pair
//! ([`Inputs`]). Both give back the same records and the same JSON values
//! they were built from, bit for bit, so every writer's bytes are unchanged;
//! a Monte Carlo interval is computed again when asked for, by the very
//! function that made it.
//!
//! The sharing goes through a process-wide table of weak pointers: what no
//! report holds any longer is freed, and the table is swept as it grows, so
//! a long-running `oddsmith serve` does not collect every input it was asked.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde_json::{Map, Value};

use super::MetricResult;
use crate::distribution::{Metric, Spread};

/// The bits an undefined metric value is stored as: a NaN with a payload no
/// arithmetic produces (a computed NaN has an empty payload), so a defined
/// NaN would still read back as itself.
const UNDEFINED: u64 = 0x7ff8_0000_dead_beef;

fn store(value: Option<f64>) -> f64 {
    value.unwrap_or(f64::from_bits(UNDEFINED))
}

fn load(stored: f64) -> Option<f64> {
    (stored.to_bits() != UNDEFINED).then_some(stored)
}

/// Which kind of spread a metric has; its numbers are in the value column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Proportion,
    Mean,
}

impl Kind {
    fn of(spread: Spread) -> Kind {
        match spread {
            Spread::Proportion { .. } => Kind::Proportion,
            Spread::Mean { .. } => Kind::Mean,
        }
    }

    /// The column entries a metric of this kind takes: its value, then its
    /// spread's numbers.
    fn width(self) -> usize {
        match self {
            Kind::Proportion => 2,
            Kind::Mean => 3,
        }
    }
}

/// The metric names and spread kinds of a result, in the system's order:
/// the same for every result of one system and options, so held once.
#[derive(Debug, PartialEq, Eq)]
struct Schema {
    names: Box<[Box<str>]>,
    kinds: Box<[Kind]>,
}

impl Schema {
    /// Where each metric's entries start in the column, and the column's
    /// width without distances from exact.
    fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.kinds.iter().scan(0, |at, kind| {
            let start = *at;
            *at += kind.width();
            Some(start)
        })
    }

    fn width(&self) -> usize {
        self.kinds.iter().map(|k| k.width()).sum()
    }
}

/// One result's metrics: a shared [`Schema`] and one flat column, for each
/// metric its value and spread, then (compared with exact) each distance
/// from exact.
#[derive(Debug, Clone)]
pub struct Metrics {
    schema: Arc<Schema>,
    column: Box<[f64]>,
    /// The trials of a Monte Carlo result, whose intervals are computed
    /// from the value and spread when read; `None` for exact results.
    trials: Option<u64>,
    compared: bool,
}

impl Metrics {
    /// The records as the evaluation made them: `ci95` must be what
    /// [`crate::stats::interval95`] gives for `trials` (Monte Carlo) or
    /// `None` (exact), which is how it is given back.
    pub fn new(records: Vec<MetricResult>, trials: Option<u64>) -> Metrics {
        debug_assert!(records.iter().all(|r| {
            let again = trials.and_then(|t| crate::stats::interval95(&r.metric, t));
            again.map(|(lo, hi)| (lo.to_bits(), hi.to_bits()))
                == r.ci95.map(|(lo, hi)| (lo.to_bits(), hi.to_bits()))
        }));
        let compared = records.iter().any(|r| r.z_vs_exact.is_some());
        let schema = Schema {
            names: records.iter().map(|r| r.name().into()).collect(),
            kinds: records.iter().map(|r| Kind::of(r.metric.spread)).collect(),
        };
        let mut column = Vec::with_capacity(schema.width() + records.len());
        for r in &records {
            column.push(store(r.metric.value));
            match r.metric.spread {
                Spread::Proportion { base } => column.push(base),
                Spread::Mean { variance, base } => column.extend([variance, base]),
            }
        }
        if compared {
            column.extend(records.iter().map(|r| store(r.z_vs_exact)));
        }
        Metrics {
            schema: shared_schema(schema),
            column: column.into_boxed_slice(),
            trials,
            compared,
        }
    }

    pub fn len(&self) -> usize {
        self.schema.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The metric names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.schema.names.iter().map(|n| &**n)
    }

    /// Where metric `name` is, if the result has it.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.schema.names.iter().position(|n| &**n == name)
    }

    /// The value of the metric at `index` (`None` when undefined).
    pub fn value_at(&self, index: usize) -> Option<f64> {
        let start = self.schema.offsets().nth(index)?;
        load(self.column[start])
    }

    /// The record of the metric at `index`.
    pub fn get(&self, index: usize) -> Option<MetricResult> {
        let start = self.schema.offsets().nth(index)?;
        Some(self.record(index, start))
    }

    fn record(&self, index: usize, start: usize) -> MetricResult {
        let c = &self.column[start..];
        let spread = match self.schema.kinds[index] {
            Kind::Proportion => Spread::Proportion { base: c[1] },
            Kind::Mean => Spread::Mean {
                variance: c[1],
                base: c[2],
            },
        };
        let metric = Metric {
            name: self.schema.names[index].to_string(),
            value: load(c[0]),
            spread,
        };
        let ci95 = self
            .trials
            .and_then(|trials| crate::stats::interval95(&metric, trials));
        let z_vs_exact = if self.compared {
            load(self.column[self.schema.width() + index])
        } else {
            None
        };
        MetricResult {
            metric,
            ci95,
            z_vs_exact,
        }
    }

    /// Every record, in order.
    pub fn iter(&self) -> impl Iterator<Item = MetricResult> + '_ {
        self.schema
            .offsets()
            .enumerate()
            .map(|(index, start)| self.record(index, start))
    }

    /// Makes the metric at `index` undefined (for tests of how writers
    /// show an undefined value).
    #[cfg(test)]
    pub fn set_undefined(&mut self, index: usize) {
        let start = self.schema.offsets().nth(index).unwrap();
        self.column[start] = store(None);
    }
}

impl<'a> IntoIterator for &'a Metrics {
    type Item = MetricResult;
    type IntoIter = Box<dyn Iterator<Item = MetricResult> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// A case's resolved inputs in order, as `serde_json`'s map would give
/// them, each key-and-value pair shared with every other case that has it.
#[derive(Debug, Clone, Default)]
pub struct Inputs(Box<[Arc<(String, Value)>]>);

impl Inputs {
    pub fn new(map: Map<String, Value>) -> Inputs {
        Inputs(map.into_iter().map(shared_pair).collect())
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|p| p.0 == key).map(|p| &p.1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> + '_ {
        self.0.iter().map(|p| &p.0)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> + '_ {
        self.0.iter().map(|p| (&p.0, &p.1))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The inputs as a JSON map, in order.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }
}

/// Equal as maps are: the same keys with the same values, in any order.
impl PartialEq for Inputs {
    fn eq(&self, other: &Inputs) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl std::ops::Index<&str> for Inputs {
    type Output = Value;

    /// The value under `key`; panics when there is none, as a map does.
    fn index(&self, key: &str) -> &Value {
        self.get(key)
            .unwrap_or_else(|| panic!("no input `{key}` in this case"))
    }
}

impl<'a> IntoIterator for &'a Inputs {
    type Item = (&'a String, &'a Value);
    type IntoIter = Box<dyn Iterator<Item = (&'a String, &'a Value)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl crate::systems::applies::InputLookup for Inputs {
    fn input(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }

    fn entries(&self) -> Box<dyn Iterator<Item = (&String, &Value)> + '_> {
        Box::new(self.iter())
    }
}

/// The weak table behind the sharing: entries whose values no one holds
/// are swept out when it has doubled since the last sweep.
struct Table<K, V> {
    entries: HashMap<K, Weak<V>>,
    swept_at: usize,
}

impl<K: std::hash::Hash + Eq, V> Table<K, V> {
    fn share(&mut self, key: K, make: impl FnOnce() -> V) -> Arc<V> {
        if let Some(live) = self.entries.get(&key).and_then(Weak::upgrade) {
            return live;
        }
        if self.entries.len() >= 2 * self.swept_at.max(64) {
            self.entries.retain(|_, v| v.strong_count() > 0);
            self.swept_at = self.entries.len();
        }
        let value = Arc::new(make());
        self.entries.insert(key, Arc::downgrade(&value));
        value
    }
}

type PairTable = Table<(String, String), (String, Value)>;
type SchemaTable = Table<String, Schema>;

static PAIRS: Mutex<Option<PairTable>> = Mutex::new(None);
static SCHEMAS: Mutex<Option<SchemaTable>> = Mutex::new(None);

fn with_table<K, V, R>(
    table: &Mutex<Option<Table<K, V>>>,
    f: impl FnOnce(&mut Table<K, V>) -> R,
) -> R {
    // A panic elsewhere while the lock was held leaves a table that is
    // still whole (entries are only ever added or swept): keep using it.
    let mut guard = table.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(|| Table {
        entries: HashMap::new(),
        swept_at: 0,
    }))
}

/// The one shared copy of a key and its value. Values are told apart by
/// their JSON text, which is how every writer shows them.
fn shared_pair((key, value): (String, Value)) -> Arc<(String, Value)> {
    let text = value.to_string();
    with_table(&PAIRS, |t| {
        t.share((key.clone(), text), move || (key, value))
    })
}

/// The one shared copy of a schema, found by its names and kinds written
/// out (a key that holds no pointer to the schema, so it can be freed).
fn shared_schema(schema: Schema) -> Arc<Schema> {
    let mut key = String::new();
    for (name, kind) in schema.names.iter().zip(&schema.kinds) {
        key.push_str(name);
        key.push(if *kind == Kind::Mean { '~' } else { '=' });
        key.push('\n');
    }
    with_table(&SCHEMAS, |t| t.share(key, || schema))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(metric: Metric, trials: Option<u64>, z: Option<f64>) -> MetricResult {
        let ci95 = trials.and_then(|t| crate::stats::interval95(&metric, t));
        MetricResult {
            metric,
            ci95,
            z_vs_exact: z,
        }
    }

    #[test]
    fn metrics_give_back_every_record_bit_for_bit() {
        let mut hist = crate::distribution::Hist::default();
        hist.add(1, 0.3);
        hist.add(4, 0.7);
        let undefined = Metric::mean_of("mean_effect", &Default::default(), 0.0);
        let odd = Metric::probability("p_odd", 0.1 + 0.2);
        for trials in [None, Some(1_000)] {
            for z in [None, Some(-1.25)] {
                let records = vec![
                    record(Metric::probability("p_success", 1.0 / 3.0), trials, z),
                    record(Metric::mean_of("mean_total", &hist, 0.625), trials, None),
                    record(undefined.clone(), trials, z),
                    record(odd.clone(), trials, z),
                ];
                let metrics = Metrics::new(records.clone(), trials);
                assert_eq!(metrics.iter().collect::<Vec<_>>(), records);
                assert_eq!(metrics.len(), 4);
                assert_eq!(metrics.position("p_odd"), Some(3));
                assert_eq!(metrics.value_at(2), None);
                assert_eq!(metrics.value_at(3), Some(0.1 + 0.2));
                assert_eq!(metrics.get(1), Some(records[1].clone()));
                assert_eq!(metrics.get(4), None);
            }
        }
        // A NaN a computation made is a value, not "undefined".
        let nan = Metrics::new(
            vec![record(Metric::probability("p", f64::NAN), None, None)],
            None,
        );
        assert!(nan.value_at(0).unwrap().is_nan());
    }

    #[test]
    fn results_of_one_system_share_their_names_and_inputs() {
        let make = |p: f64| {
            Metrics::new(
                vec![record(Metric::probability("p_win", p), None, None)],
                None,
            )
        };
        let (a, b) = (make(0.25), make(0.5));
        assert!(Arc::ptr_eq(&a.schema, &b.schema));
        let map = |v: Value| v.as_object().unwrap().clone();
        let x = Inputs::new(map(json!({"pool": "d8 2d6", "vs": "2d6", "keep": 2})));
        let y = Inputs::new(map(json!({"keep": 2, "pool": "d8 2d6", "vs": "3d6"})));
        assert!(Arc::ptr_eq(&x.0[0], &y.0[1]));
        assert!(!Arc::ptr_eq(&x.0[1], &y.0[2]));
        // Equal as maps, in any order; the order written is kept.
        let z = Inputs::new(map(json!({"vs": "2d6", "keep": 2, "pool": "d8 2d6"})));
        assert_eq!(x, z);
        assert_ne!(x, y);
        assert_eq!(
            x.to_map(),
            map(json!({"pool": "d8 2d6", "vs": "2d6", "keep": 2}))
        );
        assert_eq!(
            serde_json::to_string(&z.to_map()).unwrap(),
            r#"{"vs":"2d6","keep":2,"pool":"d8 2d6"}"#
        );
        assert_eq!(x["keep"], 2);
        assert!(!x.contains_key("ties"));
        // 2 and 2.0 are different JSON and stay apart.
        let w = Inputs::new(map(json!({"keep": 2.0})));
        assert_eq!(w["keep"].to_string(), "2.0");
    }

    #[test]
    fn what_no_result_holds_is_freed() {
        let before = Inputs::new(
            json!({"unique_key_for_this_test": 7})
                .as_object()
                .unwrap()
                .clone(),
        );
        let weak = Arc::downgrade(&before.0[0]);
        drop(before);
        assert!(weak.upgrade().is_none());
    }
}
