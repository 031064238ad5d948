//! The history heuristic: how often a move's key refuted a node, weighted by
//! the square of the depth left there.
//!
//! A thread reads two tables as one sum: its own, taught by shallow cutoffs,
//! and one shared by every thread of an engine, taught by cutoffs with
//! [`SHARED_DEPTH`] or more left.
//!
//! - **Why share.** A thread helping at a split point searches a subtree
//!   whose refutations another thread learnt. With only its own table it
//!   orders that subtree worse than serial search would, and searches more
//!   of it.
//! - **Why not share everything.** Most cutoffs are near the leaves. Every
//!   write to the shared table takes its cache line away from the other
//!   cores, which read it at every node they order; cutoffs from
//!   [`SHARED_DEPTH`] plies up give the node gain of sharing them all.
//! - **One thread.** The sum is what a single table would hold, but where
//!   both tables saturate.
//!
//! See `docs/lab/2026-11-26-shared-deep-history.md`.
//!
//! A selective search of a game with continuation keys
//! ([`crate::Game::continuation_key`]) also keeps, per thread, a
//! [`Continuation`] history: a quiet move scored by the move before it and
//! the one before that, added to the butterfly score in the ordering and
//! the reductions.
//!
//! The shared table is written with relaxed loads and stores, not
//! read-modify-writes: an update lost to a race costs a little ordering
//! quality, never correctness (a locked add at every deep cutoff was not
//! tried).

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// Size of each table; move keys are folded into it.
const SIZE: usize = 1 << 12;
/// Scores saturate here, each table's and their sum, so that history never
/// outranks a killer or a hint step in the ordering key.
const MAX: i32 = 1 << 20;
/// Each table's bound under [`History::update`]: their sum stays within MAX.
const HALF: i32 = MAX / 2;
/// [`History::update`]'s bonus per square ply of depth, and its largest.
const GRAVITY_STEP: i32 = 512;
const GRAVITY_STEP_MAX: i32 = 1 << 16;
/// Cutoffs with this much depth left or more teach the shared table.
const SHARED_DEPTH: i32 = 3;

/// The history every thread of an engine shares.
pub(crate) struct SharedHistory(Box<[AtomicI32]>);

impl SharedHistory {
    /// An empty table.
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(SharedHistory(
            (0..SIZE).map(|_| AtomicI32::new(0)).collect(),
        ))
    }

    /// Halves every score: a new search trusts the last one's less. Called
    /// between searches, when no thread is using the table.
    pub(crate) fn age(&self) {
        for h in self.0.iter() {
            h.store(h.load(Relaxed) / 2, Relaxed);
        }
    }
}

/// One thread's view of the history: its own table plus the shared one.
pub(crate) struct History {
    own: Box<[i32; SIZE]>,
    shared: Arc<SharedHistory>,
}

impl History {
    /// An empty own table over `shared`.
    pub(crate) fn new(shared: Arc<SharedHistory>) -> Self {
        History {
            own: Box::new([0; SIZE]),
            shared,
        }
    }

    /// The score of moves with key `key`.
    #[inline]
    pub(crate) fn score(&self, key: u16) -> i32 {
        let i = key as usize % SIZE;
        (self.own[i] + self.shared.0[i].load(Relaxed)).clamp(-MAX, MAX)
    }

    /// A move with key `key` refuted a node with `depth` left.
    #[inline]
    pub(crate) fn reward(&mut self, key: u16, depth: i32) {
        let i = key as usize % SIZE;
        let bonus = depth * depth;
        if depth >= SHARED_DEPTH {
            let h = &self.shared.0[i];
            h.store((h.load(Relaxed) + bonus).min(MAX), Relaxed);
        } else {
            self.own[i] = (self.own[i] + bonus).min(MAX);
        }
    }

    /// A move with key `key` refuted a node with `depth` left (`good`), or
    /// was searched there before the move that did (not `good`): the
    /// history-gravity rule of selective searches, a bonus or malus that
    /// shrinks as the score nears its bound, so scores stay within
    /// `[-MAX, MAX]` and recent cutoffs outweigh old ones.
    #[inline]
    pub(crate) fn update(&mut self, key: u16, depth: i32, good: bool) {
        let i = key as usize % SIZE;
        let bonus = (depth * depth * GRAVITY_STEP).min(GRAVITY_STEP_MAX);
        if depth >= SHARED_DEPTH {
            let h = &self.shared.0[i];
            h.store(gravity(h.load(Relaxed), bonus, good, HALF), Relaxed);
        } else {
            self.own[i] = gravity(self.own[i], bonus, good, HALF);
        }
    }

    /// Halves the own table's scores, and the shared table's if this is its
    /// only holder (a worker on its own); an engine holds its shared table
    /// too and ages it itself, once per search.
    pub(crate) fn age(&mut self) {
        for h in self.own.iter_mut() {
            *h /= 2;
        }
        if Arc::strong_count(&self.shared) == 1 {
            self.shared.age();
        }
    }
}

/// The gravity rule: `h` moved by `bonus` towards `bound` (`good`) or
/// `-bound`, less the more it is already that way, so it stays within.
#[inline]
fn gravity(h: i32, bonus: i32, good: bool, bound: i32) -> i32 {
    let delta = if good { bonus } else { -bonus };
    h + delta - (i64::from(h) * i64::from(bonus) / i64::from(bound)) as i32
}

/// The continuation history's bound: each of its two scores counts up to
/// half the butterfly table's in the ordering key.
const CONTINUATION_MAX: i32 = 1 << 14;
/// A continuation score's scale in the butterfly table's units.
const CONTINUATION_SCALE: i32 = (MAX / 2) / CONTINUATION_MAX;

/// The continuation history of one thread, in a selective search: how
/// often a move (by its [`crate::Game::continuation_key`]) refuted a node
/// reached by another (the move before, or the one before that), by the
/// gravity rule of [`History::update`]. A move's score is the sum of its
/// two follow-ups' and the butterfly table's.
pub(crate) struct Continuation {
    keys: usize,
    table: Box<[i16]>,
}

impl Continuation {
    /// An empty table for a game with `keys` continuation keys (none: 0).
    pub(crate) fn new(keys: usize) -> Self {
        Continuation {
            keys,
            table: vec![0; keys * keys].into_boxed_slice(),
        }
    }

    /// Whether the game keeps one.
    #[inline]
    pub(crate) fn kept(&self) -> bool {
        self.keys > 0
    }

    /// The score of move `to` after move `from`, in the butterfly table's units.
    #[inline]
    pub(crate) fn score(&self, from: u16, to: u16) -> i32 {
        i32::from(self.table[from as usize * self.keys + to as usize]) * CONTINUATION_SCALE
    }

    /// Move `to` after move `from` refuted a node with `depth` left (`good`),
    /// or was searched there before the move that did.
    #[inline]
    pub(crate) fn update(&mut self, from: u16, to: u16, depth: i32, good: bool) {
        let h = &mut self.table[from as usize * self.keys + to as usize];
        let bonus = (depth * depth * (GRAVITY_STEP / CONTINUATION_SCALE))
            .min(GRAVITY_STEP_MAX / CONTINUATION_SCALE);
        *h = gravity(i32::from(*h), bonus, good, CONTINUATION_MAX) as i16;
    }

    /// Halves every score: a new search trusts the last one's less.
    pub(crate) fn age(&mut self) {
        for h in self.table.iter_mut() {
            *h /= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_scores_stay_within_their_bound_and_follow_the_last_cutoffs() {
        let mut c = Continuation::new(4);
        for _ in 0..1000 {
            c.update(1, 2, 20, true);
        }
        let top = c.score(1, 2);
        assert!(top > 0 && top <= MAX / 2, "{top}");
        assert_eq!(c.score(2, 1), 0, "keyed by the pair, in order");
        for _ in 0..1000 {
            c.update(1, 2, 20, false);
        }
        assert!(c.score(1, 2) < 0 && c.score(1, 2) >= -MAX / 2);
        c.age();
        assert!(c.score(1, 2) > -MAX / 4 - CONTINUATION_SCALE);
    }

    #[test]
    fn deep_cutoffs_are_seen_by_every_thread_shallow_ones_only_by_their_own() {
        let shared = SharedHistory::new();
        let (mut a, b) = (History::new(Arc::clone(&shared)), History::new(shared));
        a.reward(7, SHARED_DEPTH);
        a.reward(9, SHARED_DEPTH - 1);
        let deep = SHARED_DEPTH * SHARED_DEPTH;
        assert_eq!((a.score(7), b.score(7)), (deep, deep));
        assert_eq!(b.score(9), 0);
        assert!(a.score(9) > 0);
    }

    #[test]
    fn a_worker_on_its_own_ages_both_tables_a_shared_table_is_aged_by_its_engine() {
        let mut alone = History::new(SharedHistory::new());
        alone.reward(1, SHARED_DEPTH);
        alone.reward(2, 2);
        alone.age();
        assert_eq!(alone.score(1), SHARED_DEPTH * SHARED_DEPTH / 2);
        assert_eq!(alone.score(2), 2);
        let engine = SharedHistory::new();
        let mut worker = History::new(Arc::clone(&engine));
        worker.reward(1, SHARED_DEPTH);
        worker.age();
        assert_eq!(worker.score(1), SHARED_DEPTH * SHARED_DEPTH);
        engine.age();
        assert_eq!(worker.score(1), SHARED_DEPTH * SHARED_DEPTH / 2);
    }

    #[test]
    fn the_sum_saturates() {
        let mut h = History::new(SharedHistory::new());
        for _ in 0..20_000 {
            h.reward(1, 12);
            h.reward(1, 1);
        }
        assert_eq!(h.score(1), MAX);
    }
}
