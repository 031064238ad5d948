//! ABDADA: every thread searches the whole tree, and defers the moves another
//! thread is already searching.
//!
//! Weill's *Alpha-Beta Distributed with Deferred Answer*: all threads run the
//! same iterative deepening from the root, sharing the transposition table. At
//! a node with enough depth left, once the eldest brother is searched (by every
//! thread: that is where the bound comes from), a thread searches the young
//! brothers in two passes. In the first it skips ("defers") each move whose
//! child position another thread is searching at the same depth; in the
//! second it searches the deferred ones — by then usually in the table.
//!
//! **Who is searching what.** The original keeps a searcher count in each
//! table entry. Here the count lives in a small table of its own beside the
//! transposition table ([`Searching`]), because table entries are written
//! whole and locklessly, while a count needs read-modify-write: one `AtomicU64`
//! per slot, `key (upper 48 bits) | depth (8) | count (8)`, changed by
//! compare-and-swap. A collision or a lost update only changes which moves are
//! deferred, never a result: every move is searched in one of the two passes.
//!
//! Exactness: each thread's search is a complete alpha-beta search of the
//! tree, only in another move order, so thread 0's score is the serial score
//! (in exact mode the table never ends a node; the helpers' only influence is
//! on move order). The speedup therefore comes in normal mode, through the
//! table; in exact mode ABDADA behaves like `shared-tt`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::game::{Evaluator, Game, PerMove};
use crate::parallel::shared_node::{Merged, SharedResult};
use crate::parallel::thresholds::ABDADA_MIN_DEFER_DEPTH;
use crate::search::hook::{NodeHook, Split, SplitNode};
use crate::search::{Worker, pick_best};
use crate::trace::EventKind;

/// Slots of the searching table (a power of two).
const SEARCHING_SLOTS: usize = 1 << 15;

/// The positions being searched right now, with their depth and searcher count.
pub(crate) struct Searching {
    slots: Box<[AtomicU64]>,
}

const KEY_MASK: u64 = !0xffff;

impl Searching {
    pub(crate) fn new() -> Self {
        Searching {
            slots: (0..SEARCHING_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SEARCHING_SLOTS - 1)]
    }

    #[inline]
    fn tag(key: u64, depth: i32) -> u64 {
        (key & KEY_MASK) | ((depth.clamp(0, 255) as u64) << 8)
    }

    /// Whether some thread is searching `key` at `depth`.
    #[inline]
    fn busy(&self, key: u64, depth: i32) -> bool {
        let v = self.slot(key).load(Relaxed);
        v & !0xff == Self::tag(key, depth) && v & 0xff > 0
    }

    /// Counts one more searcher of `key` at `depth` (taking the slot over if
    /// nobody searches its current occupant).
    fn enter(&self, key: u64, depth: i32) {
        let slot = self.slot(key);
        let tag = Self::tag(key, depth);
        let _ = slot.fetch_update(Relaxed, Relaxed, |v| {
            if v & !0xff == tag {
                Some(tag | ((v & 0xff) + 1).min(0xff))
            } else if v & 0xff == 0 {
                Some(tag | 1)
            } else {
                None // another position holds the slot: this one goes unrecorded
            }
        });
    }

    /// Counts one searcher of `key` at `depth` fewer.
    fn leave(&self, key: u64, depth: i32) {
        let tag = Self::tag(key, depth);
        let _ = self.slot(key).fetch_update(Relaxed, Relaxed, |v| {
            (v & !0xff == tag && v & 0xff > 0).then(|| v - 1)
        });
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for Searching {
    #[inline]
    fn aborted(&self, _thread: usize) -> bool {
        false
    }

    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        let (ctx, moves, keys) = (node.ctx, node.moves, node.keys);
        if node.depth < ABDADA_MIN_DEFER_DEPTH {
            return None;
        }
        let mut moves: G::Moves = moves.iter().copied().collect();
        let mut keys: PerMove<G, i64> = keys.iter().copied().collect();
        let mut deferred: PerMove<G, bool> = moves.iter().map(|_| false).collect();
        let mut result = SharedResult::new(node.alpha, node.beta, node.best);
        let child_depth = node.depth - 1;
        let mut any_deferred = false;
        'passes: for pass in 0..2 {
            for i in 0..moves.len() {
                if pass == 0 {
                    pick_best(&mut moves, &mut keys, i);
                } else if !deferred[i] {
                    continue;
                }
                let mv = moves[i];
                let child = node.pos.play(mv);
                let key = child.hash();
                if pass == 0 && self.busy(key, child_depth) {
                    deferred[i] = true;
                    any_deferred = true;
                    continue;
                }
                self.enter(key, child_depth);
                // Index ≥ 1: young brothers get null windows, as in the serial loop.
                let r = worker.reduction(
                    ctx,
                    node.pos,
                    &child,
                    mv,
                    i + 1,
                    node.depth,
                    node.ply,
                    node.node_type,
                );
                let score = worker.search_child(
                    ctx,
                    &child,
                    i + 1,
                    r,
                    || result.alpha,
                    result.beta,
                    node.depth,
                    node.ply,
                    node.node_type,
                );
                self.leave(key, child_depth);
                if worker.stopped()
                    || result.merge(mv, score, worker.pv_line(node.ply + 1)) == Merged::Cut
                {
                    break 'passes;
                }
            }
            if !any_deferred {
                break;
            }
            if pass == 0 {
                // Statistics: a node that deferred work counts as a "split".
                worker.stats.splits += 1;
                worker.trace_mark(EventKind::Split, node.ply, String::new);
            }
        }
        if result.best_move.is_some() {
            worker.set_pv_line(node.ply, &result.pv);
        }
        Some((result.best, result.best_move))
    }
}
