//! A node whose young brothers several threads search, and what they merge
//! their results into.
//!
//! YBW's split points and workloads publish a node as a [`SharedNode`]
//! (its position, depth, moves and keys, [`SharedNode::publish`]); any
//! thread takes the next move from it as a [`Task`] ([`SharedNode::take`])
//! and reports the score ([`SharedNode::report`]), all under the owner's
//! lock. Those and pv-split's shared PV nodes keep the same move-loop result
//! the serial search keeps in its locals (`search::rules::MoveLoop`): the
//! window with alpha raised by exact scores, the fail-soft best, the move
//! that raised alpha, and its line. [`SharedResult::merge`] is the serial
//! loop's rule for one finished move, written once for all of them.
//!
//! YBW's and DTS's split points also sit in a tree of split points (each
//! knows the one it lies below): [`cut_off_on_chain`] is the walk up that
//! tree every node of theirs makes to learn whether its work is still wanted.

use std::sync::atomic::Ordering::Relaxed;

use arrayvec::ArrayVec;

use crate::game::{Evaluator, Game, MAX_PLY, MoveBuffer, PerMove};
use crate::node::NodeType;
use crate::score::{INFINITY, Score};
use crate::search::hook::SplitNode;
use crate::search::{SearchContext, Worker, pick_best};
use crate::trace::EventKind;

/// "No split point": the parent of a split point below none, the split
/// point of a thread working at none.
pub(crate) const NO_SPLIT_POINT: usize = usize::MAX;

/// Whether split point `id` or any split point it lies below is cut off:
/// `link(id)` reads a split point's cut-off flag and parent (relaxed: a hint,
/// a missed fresh cutoff only costs some wasted nodes).
#[inline]
pub(crate) fn cut_off_on_chain(mut id: usize, link: impl Fn(usize) -> (bool, usize)) -> bool {
    while id != NO_SPLIT_POINT {
        let (cut_off, parent) = link(id);
        if cut_off {
            return true;
        }
        id = parent;
    }
    false
}

/// A published node: fixed once published but for its moves' order and its
/// result, which change under the owner's lock as threads take and report.
pub(crate) struct SharedNode<G: Game> {
    pos: Option<G>,
    depth: i32,
    pub ply: usize,
    node_type: NodeType,
    /// The young brothers; from the next one to take on, in no order (the
    /// next is picked best key first, like the serial loop).
    pub moves: G::Moves,
    keys: PerMove<G, i64>,
    pub result: SharedResult<G::Move>,
}

/// One young brother of a shared node, taken by a thread to search.
pub(crate) struct Task<G: Game> {
    /// The move's index at the node (≥ 1: young brothers get null windows,
    /// like the serial loop).
    pub index: usize,
    /// Late-move reduction of the first, null-window search.
    pub reduction: i32,
    pub mv: G::Move,
    pub child: G,
    /// The move's text, for the timeline (empty when not tracing).
    label: String,
    alpha: Score,
    beta: Score,
    depth: i32,
    /// The node's ply.
    pub ply: usize,
    node_type: NodeType,
}

impl<G: Game> SharedNode<G> {
    /// A slot not in use.
    pub(crate) fn unused() -> Self {
        SharedNode {
            pos: None,
            depth: 0,
            ply: 0,
            node_type: NodeType::Pv,
            moves: G::Moves::default(),
            keys: Default::default(),
            result: SharedResult::unused(),
        }
    }

    /// Publishes `node`'s young brothers, nothing searched.
    pub(crate) fn publish<E: Evaluator<G>>(&mut self, node: &SplitNode<'_, G, E>) {
        match &mut self.pos {
            Some(p) => p.clone_from(node.pos),
            none => *none = Some(node.pos.clone()),
        }
        self.depth = node.depth;
        self.ply = node.ply;
        self.node_type = node.node_type;
        self.moves.clear();
        self.moves.extend(node.moves.iter().copied());
        self.keys.clear();
        self.keys.extend(node.keys.iter().copied());
        self.result = SharedResult::new(node.alpha, node.beta, node.best);
    }

    /// Takes the move with the best key from `i` on (brought to `i`), to be
    /// searched in the window the node has now.
    pub(crate) fn take<E: Evaluator<G>>(
        &mut self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        i: usize,
    ) -> Task<G> {
        pick_best(&mut self.moves, &mut self.keys, i);
        let mv = self.moves[i];
        let pos = self.pos.as_ref().expect("a published node has a position");
        let child = pos.play(mv);
        let index = i + 1;
        let reduction = worker.reduction(ctx, pos, &child, mv, index, self.depth, self.node_type);
        let label = match worker.trace {
            Some(_) => pos.move_text(mv),
            None => String::new(),
        };
        Task {
            index,
            reduction,
            mv,
            child,
            label,
            alpha: self.result.alpha,
            beta: self.result.beta,
            depth: self.depth,
            ply: self.ply,
            node_type: self.node_type,
        }
    }

    /// Merges the score `worker` found for `mv` (its line is the worker's).
    pub(crate) fn report(&mut self, mv: G::Move, score: Score, worker: &Worker<G>) -> Merged {
        self.result.merge(mv, score, worker.pv_line(self.ply + 1))
    }
}

impl<G: Game> Task<G> {
    /// Searches the move as the serial loop would (null window, reduction,
    /// re-searches), a span of the timeline: the score (the node's view) and
    /// the nodes it took, or `None` if the worker stopped meanwhile — the
    /// work is then thrown away, and counted as aborted unless the whole
    /// search stopped. `alpha` reads the node's alpha now (others may raise
    /// it while the move is searched; a re-search takes the risen one).
    pub(crate) fn run<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        alpha: impl Fn() -> Score,
    ) -> Option<(Score, u64)> {
        let since = worker.trace_clock();
        let nodes_before = worker.stats.nodes;
        let score = worker.search_child(
            ctx,
            &self.child,
            self.index,
            self.reduction,
            || alpha().max(self.alpha),
            self.beta,
            self.depth,
            self.ply,
            self.node_type,
        );
        let nodes = worker.stats.nodes - nodes_before;
        let stopped = worker.stopped();
        let label = || self.label.clone();
        worker.trace_span(since, EventKind::Search, self.ply, label, stopped);
        if stopped && !ctx.stop.load(Relaxed) {
            worker.stats.aborted_nodes += nodes;
        }
        (!stopped).then_some((score, nodes))
    }
}

/// A shared node's result so far.
#[derive(Clone, Debug)]
pub(crate) struct SharedResult<M> {
    /// Raised by exact scores; what later moves are searched with.
    pub alpha: Score,
    pub beta: Score,
    /// The fail-soft best over the moves merged (and those before the split).
    pub best: Score,
    /// The move that raised alpha, if one did.
    pub best_move: Option<M>,
    /// Its line, the move first.
    pub pv: ArrayVec<M, MAX_PLY>,
}

/// What a merged score did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Merged {
    /// At most alpha: only the fail-soft best may have moved.
    Nothing,
    /// Above alpha, below beta: alpha, best move and line are the move's.
    Raised,
    /// At least beta: a cutoff (best move and line are the move's).
    Cut,
}

impl<M: Copy> SharedResult<M> {
    /// Nothing merged: the window `(alpha, beta)`, and `best` from the moves
    /// searched before the node was shared.
    pub(crate) fn new(alpha: Score, beta: Score, best: Score) -> Self {
        SharedResult {
            alpha,
            beta,
            best,
            best_move: None,
            pv: ArrayVec::new(),
        }
    }

    /// An empty result, for a slot not in use.
    pub(crate) fn unused() -> Self {
        Self::new(-INFINITY, INFINITY, -INFINITY)
    }

    /// Merges `mv`'s completed fail-soft `score`, searched with this node's
    /// beta and an alpha no higher than its alpha now; `line` is the best
    /// line below the move.
    pub(crate) fn merge(&mut self, mv: M, score: Score, line: &[M]) -> Merged {
        if score <= self.best {
            return Merged::Nothing;
        }
        self.best = score;
        if score <= self.alpha {
            return Merged::Nothing;
        }
        self.alpha = score;
        self.best_move = Some(mv);
        self.pv.clear();
        self.pv.push(mv);
        self.pv.extend(line.iter().take(MAX_PLY - 1).copied());
        if score >= self.beta {
            Merged::Cut
        } else {
            Merged::Raised
        }
    }
}
