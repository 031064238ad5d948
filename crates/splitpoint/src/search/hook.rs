//! The node API: how a parallel algorithm enters the serial search.
//!
//! The serial move loop (`Worker::search_moves`) is the parallel one: after the
//! eldest brother of a node is searched it offers the young brothers to the
//! algorithm's hook, and at every node it asks the hook whether its work has
//! become useless. With no hook (serial search) both are a `None` check.

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
