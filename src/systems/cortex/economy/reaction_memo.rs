//! What the economy's doom pools roll as a reaction, remembered across the
//! cases of a run (a sweep's scenes meet the same doom pools over and
//! over): per pool, how many dice states its distribution holds and, once
//! a chain has met it, its exact reaction distribution.
//!
//! A remembered pool still costs the caller's budget what growing it would
//! have cost ([`super::pools::DoomPools`] keeps the lengths the charges are
//! made from), so whether a case is exact never depends on which cases ran
//! before it; and a pool's distribution is a function of its dice alone,
//! summed in an order fixed by them, so a remembered answer is the one the
//! chain would have computed, to the last bit.

use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::super::scene::DoomKey;
use super::rules::Reaction;

/// A doom pool's reactions: (reaction, probability), sorted.
pub(super) type Reactions = Arc<Vec<(Reaction, f64)>>;

/// What a pool's distribution depends on besides its dice: the dice the
/// reaction keeps and whether the GM spends (then die sizes matter).
pub(super) type RuleKey = (usize, bool);

#[derive(Clone, Default)]
struct Entry {
    len: usize,
    reactions: Option<Reactions>,
}

/// Numbers kept (an entry's one plus its reactions) before the memo starts
/// afresh, so `oddsmith serve` or a sweep of thousands of scenes cannot
/// fill memory: about 24 MiB.
const MAX_KEPT: usize = 1 << 20;

#[derive(Default)]
struct Memo {
    entries: FxHashMap<(RuleKey, DoomKey), Entry>,
    kept: usize,
}

fn memo() -> &'static Mutex<Memo> {
    static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();
    MEMO.get_or_init(Default::default)
}

fn with_memo<T>(f: impl FnOnce(&mut Memo) -> T) -> T {
    // A panic elsewhere while the lock was held leaves a memo that is
    // still whole (every change below is one insert), so it is used on.
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    f(&mut memo)
}

/// The number of dice states of the pool's distribution, if known.
pub(super) fn len(rules: RuleKey, key: DoomKey) -> Option<usize> {
    with_memo(|m| m.entries.get(&(rules, key)).map(|e| e.len))
}

/// The pool's reactions, if known.
pub(super) fn reactions(rules: RuleKey, key: DoomKey) -> Option<Reactions> {
    with_memo(|m| {
        m.entries
            .get(&(rules, key))
            .and_then(|e| e.reactions.clone())
    })
}

/// Remembers the length of the pool's distribution.
pub(super) fn remember_len(rules: RuleKey, key: DoomKey, len: usize) {
    with_memo(|m| {
        m.make_room(1);
        m.entries.entry((rules, key)).or_default().len = len;
    });
}

/// Remembers the pool's reactions (its length is remembered with them).
pub(super) fn remember_reactions(rules: RuleKey, key: DoomKey, len: usize, reactions: Reactions) {
    with_memo(|m| {
        m.make_room(1 + reactions.len());
        m.entries.insert(
            (rules, key),
            Entry {
                len,
                reactions: Some(reactions),
            },
        );
    });
}

/// Forgets every pool (a benchmark's fresh start).
pub(super) fn forget() {
    with_memo(|m| *m = Memo::default());
}

impl Memo {
    fn make_room(&mut self, more: usize) {
        self.kept += more;
        if self.kept > MAX_KEPT {
            self.entries.clear();
            self.kept = more;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_memo_starts_afresh() {
        let mut memo = Memo::default();
        memo.make_room(MAX_KEPT);
        memo.entries.insert(((2, false), [1; 5]), Entry::default());
        memo.make_room(1);
        assert!(memo.entries.is_empty());
        assert_eq!(memo.kept, 1);
    }
}
