//! Memoised pool distributions: the exact (total, effect,
//! hitches) distribution of a pool is computed once per run and shared by
//! every case, sweep, balance ladder, scene and conflict that rolls the same
//! pool with the same `keep` (and hitch cap). A sweep of 8 hero pools
//! against 16 doom pools then runs 24 programmes instead of 256.
//!
//! A cached answer still costs its original work from the caller's budget,
//! and is refused where the programme would have refused, so whether a case
//! is exact never depends on which cases ran before it.

use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use crate::dice::Pool;
use crate::engine::exact::{Budget, ExactError};

use super::weight::Weight;

/// The joint distribution of (total, effect step, hitches) for one pool.
/// Hitches are counted up to a cap (the last level means "cap or more");
/// with a cap of 0 they are not tracked at all.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolOutcomes<W> {
    /// `(total, effect_step, hitches)` with its weight, sorted.
    pub outcomes: Vec<((u32, u32, u32), W)>,
    /// The budget steps the programme spent.
    pub cost: u64,
    /// The most the budget had to allow at any point (its early refusal).
    pub peak: u64,
}

/// What a pool's distribution depends on: the pool, `keep` and the hitch cap.
type Key = (Pool, usize, u32);

/// Outcomes kept before the cache starts afresh, so that a long run of
/// distinct pools (a sweep of thousands, or `oddsmith serve` asked for a
/// new pool with every keystroke) cannot fill memory: at most 16 MiB of
/// exact weights (32 bytes an outcome), where a 20-die pool has a few
/// thousand outcomes and a sweep's pools a few dozen programmes.
const MAX_OUTCOMES: usize = 1 << 19;

/// One run's memo for one weight type.
#[derive(Default)]
pub struct PoolCache<W> {
    entries: FxHashMap<Key, Arc<PoolOutcomes<W>>>,
    outcomes: usize,
}

/// The weight types with a memo of their own.
pub trait Cached: Weight {
    fn cache() -> &'static Mutex<PoolCache<Self>>;
}

impl Cached for u128 {
    fn cache() -> &'static Mutex<PoolCache<u128>> {
        static CACHE: OnceLock<Mutex<PoolCache<u128>>> = OnceLock::new();
        CACHE.get_or_init(Default::default)
    }
}

impl Cached for f64 {
    fn cache() -> &'static Mutex<PoolCache<f64>> {
        static CACHE: OnceLock<Mutex<PoolCache<f64>>> = OnceLock::new();
        CACHE.get_or_init(Default::default)
    }
}

/// The distribution of `pool` summing `keep` with hitches capped at
/// `hitch_cap`, from the memo or from `compute` (then remembered).
pub fn memoised<W: Cached>(
    pool: &Pool,
    keep: usize,
    hitch_cap: u32,
    budget: &mut Budget,
    compute: impl FnOnce(&mut Budget) -> Result<PoolOutcomes<W>, ExactError>,
) -> Result<Arc<PoolOutcomes<W>>, ExactError> {
    let key = (pool.clone(), keep, hitch_cap);
    let known = W::cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entries
        .get(&key)
        .cloned();
    if let Some(known) = known {
        let what = || format!("the pool {pool}");
        if !budget.allows(known.peak) {
            return Err(ExactError::TooLarge(what()));
        }
        budget.spend(known.cost, &what)?;
        return Ok(known);
    }
    let computed = Arc::new(compute(budget)?);
    W::cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remember(key, Arc::clone(&computed), MAX_OUTCOMES);
    Ok(computed)
}

impl<W> PoolCache<W> {
    /// Keeps `value` under `key`, first forgetting everything when the
    /// outcomes held would pass `cap`.
    fn remember(&mut self, key: Key, value: Arc<PoolOutcomes<W>>, cap: usize) {
        if self.outcomes + value.outcomes.len() > cap {
            self.entries.clear();
            self.outcomes = 0;
        }
        self.outcomes += value.outcomes.len();
        self.entries.insert(key, value);
    }
}

/// Empties the pools' memos, of both weights ([`super::forget_pools`]
/// empties every memo of a run).
pub(super) fn forget() {
    fn forget<W: Cached>() {
        let mut cache = W::cache().lock().unwrap_or_else(|e| e.into_inner());
        cache.entries.clear();
        cache.outcomes = 0;
    }
    forget::<u128>();
    forget::<f64>();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes(count: usize) -> Arc<PoolOutcomes<f64>> {
        Arc::new(PoolOutcomes {
            outcomes: (0..count as u32).map(|t| ((t, 0, 0), 1.0)).collect(),
            cost: 1,
            peak: 1,
        })
    }

    fn key(dice: &str) -> Key {
        (Pool::parse_cortex(dice).unwrap(), 2, 0)
    }

    #[test]
    fn the_memo_forgets_everything_rather_than_pass_its_cap() {
        let mut cache = PoolCache::default();
        cache.remember(key("d8"), outcomes(60), 100);
        cache.remember(key("2d8"), outcomes(40), 100);
        assert_eq!((cache.entries.len(), cache.outcomes), (2, 100));
        // One more would hold 130: the memo starts afresh with it alone.
        cache.remember(key("3d8"), outcomes(30), 100);
        assert_eq!((cache.entries.len(), cache.outcomes), (1, 30));
        assert!(cache.entries.contains_key(&key("3d8")));
    }

    #[test]
    fn the_cap_holds_at_most_sixteen_mebibytes_of_exact_weights() {
        let outcome = std::mem::size_of::<((u32, u32, u32), u128)>();
        assert!(
            MAX_OUTCOMES * outcome <= 16 << 20,
            "{outcome} bytes an outcome"
        );
    }
}
