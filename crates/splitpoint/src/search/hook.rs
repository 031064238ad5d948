//! The node API: how a parallel algorithm enters the serial search.
//!
//! The serial move loop (`Worker::search_moves`) is the parallel one: after the
//! eldest brother of a node is searched it offers the young brothers to the
//! algorithm's hook, and at every node it asks the hook whether its work has
//! become useless. With no hook (serial search) both are a `None` check.
//! An [`Interrupt`] lets other threads have a word with a thread busy in the
//! recursive search: DTS answers requests for work from there.

use std::sync::atomic::AtomicU32;

use crate::game::{Evaluator, Game};
use crate::node::NodeType;
use crate::score::Score;
use crate::search::{SearchContext, Worker};

/// A node offering its young brothers, as the move loop sees it.
pub(crate) struct SplitNode<'p, G: Game, E: Evaluator<G>> {
    /// The search the node belongs to.
    pub ctx: &'p SearchContext<'p, G, E>,
    /// The node's position.
    pub pos: &'p G,
    /// The young brothers, unsorted.
    pub moves: &'p [G::Move],
    /// Their ordering keys (larger first).
    pub keys: &'p [i64],
    /// The window now (alpha raised by the moves searched so far).
    pub alpha: Score,
    /// The window's upper end.
    pub beta: Score,
    /// The best score so far (fail-soft).
    pub best: Score,
    /// Remaining depth.
    pub depth: i32,
    /// Distance from the root.
    pub ply: usize,
    /// The node's type now (a CUT node has turned ALL after its first move).
    pub node_type: NodeType,
    /// The node's type when it was entered.
    pub entry_type: NodeType,
}

/// What a parallel algorithm plugs into every thread's move loops.
pub(crate) trait NodeHook<G: Game, E: Evaluator<G>>: Sync {
    /// Whether this thread's current work has become useless (a cutoff at a
    /// split point above it, a bound that makes it irrelevant). Called at
    /// every node: keep it to a few relaxed loads.
    fn aborted(&self, thread: usize) -> bool;

    /// Offers the young brothers of `node` to the threads `worker` shares
    /// the search with.
    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move>;
}

/// What a node's offer came to. `None`: search the young brothers serially.
/// `Some((best, mv))`: all of them were searched (here or by other threads);
/// `best` is their best score and `mv` the move that raised alpha, if one
/// did, in which case the worker's PV at the node's ply is set.
pub(crate) type Split<M> = Option<(Score, Option<M>)>;

/// Another thread's way in to a thread busy in the recursive search: while
/// `flag` is not zero, `Worker::pvs` calls `handler` at every interior node
/// it enters (quiescence nodes are not looked at). DTS answers requests
/// for work this way from inside a child it could have split but gave no
/// frame, as nobody was asking (`SearchContext::interrupt`).
pub(crate) struct Interrupt<'a, G: Game> {
    /// Not zero while other threads want this one's attention.
    pub flag: &'a AtomicU32,
    /// What this thread does then.
    pub handler: &'a dyn OnInterrupt<G>,
}

/// See [`Interrupt`].
pub(crate) trait OnInterrupt<G: Game> {
    /// Called at an interior node while the flag is set. The search goes
    /// on from that node afterwards: the handler must leave the worker's
    /// lines from that ply down, and whatever else the search below relies
    /// on, as it found them.
    fn interrupted(&self, worker: &mut Worker<G>);
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

    use super::*;
    use crate::node::NodeType;
    use crate::score::INFINITY;
    use crate::search::SearchContext;
    use crate::test_games::{Even, Nim};
    use crate::tt::TranspositionTable;

    /// Counts its calls; clears the flag after `calls_left` of them.
    struct Counter<'a> {
        flag: &'a AtomicU32,
        calls: Cell<u32>,
        calls_left: Cell<u32>,
    }

    impl OnInterrupt<Nim> for Counter<'_> {
        fn interrupted(&self, _: &mut Worker<Nim>) {
            self.calls.set(self.calls.get() + 1);
            self.calls_left.set(self.calls_left.get() - 1);
            if self.calls_left.get() == 0 {
                self.flag.store(0, Relaxed);
            }
        }
    }

    /// Searches Nim(12) to depth 6 with `flag` set to `word`, the handler
    /// clearing it after `calls_left` calls: (score, nodes, calls).
    fn search(word: u32, calls_left: u32) -> (Score, u64, u32) {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let flag = AtomicU32::new(word);
        let counter = Counter {
            flag: &flag,
            calls: Cell::new(0),
            calls_left: Cell::new(calls_left),
        };
        let ctx = SearchContext {
            interrupt: Some(Interrupt {
                flag: &flag,
                handler: &counter,
            }),
            ..SearchContext::new(&tt, &Even, &stop, true)
        };
        let mut worker = Worker::new();
        let score = worker.pvs(&ctx, &Nim(12), -INFINITY, INFINITY, 6, 0, NodeType::Pv);
        (score, worker.stats.nodes, counter.calls.get())
    }

    #[test]
    fn the_search_calls_back_at_every_interior_node_while_the_flag_is_set() {
        let (score, nodes, calls) = search(0, u32::MAX);
        assert_eq!(calls, 0, "no call while the flag is clear");
        let (all_score, all_nodes, all_calls) = search(1, u32::MAX);
        assert_eq!(
            (all_score, all_nodes),
            (score, nodes),
            "the calls change nothing"
        );
        assert!(
            all_calls > 1 && u64::from(all_calls) < nodes,
            "interior nodes only"
        );
        assert_eq!(search(1, 1).2, 1, "none once the handler cleared the flag");
    }
}
