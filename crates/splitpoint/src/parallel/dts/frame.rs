//! Frames and the explicit stack: what the recursive search keeps in its
//! locals, as data any thread can take over.

use crate::game::{Game, MAX_PLY, OrderNode, PerMove};
use crate::node::NodeType;
use crate::parallel::shared_node::NO_SPLIT_POINT;
use crate::score::{INFINITY, Score};
use crate::search::rules::Probe;
use crate::search::rules::{ChildWindow, MoveSearch};
use crate::search::{LeafPruning, StaticEval};

use super::policy;

/// Where a frame is in its node's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// Just pushed: window and depth set, nothing done.
    Enter,
    /// Take the next move (or complete when none is left).
    NextMove,
    /// A child is being searched (`index`, `mv` and `search` say which).
    AwaitChild,
    /// The null-move child is being searched; `tt_move` waits for the moves.
    AwaitNull,
    /// The moves are done: store and return `best`.
    Complete,
}

/// One node of the explicit stack: what the recursive search keeps in its
/// locals, as data.
#[derive(Clone)]
pub(super) struct Frame<G: Game> {
    pub(super) pos: G,
    pub(super) alpha: Score,
    pub(super) beta: Score,
    /// Alpha at entry, for the table bound.
    pub(super) orig_alpha: Score,
    pub(super) depth: i32,
    pub(super) ply: usize,
    /// The node's type now (a CUT node turns ALL after its first move).
    pub(super) node_type: NodeType,
    /// The node's type when entered.
    pub(super) entry_type: NodeType,
    /// The root: completes by reporting, not by a table store.
    pub(super) root: bool,
    /// Table key (the position's hash).
    pub(super) key: u64,
    pub(super) moves: G::Moves,
    pub(super) keys: PerMove<G, i64>,
    /// Moves taken so far (the next one's index).
    pub(super) next: usize,
    pub(super) best: Score,
    pub(super) best_move: Option<G::Move>,
    pub(super) stage: Stage,
    /// The move in flight: its index, itself, and where its searches stand
    /// (reduced, re-searched, full window).
    pub(super) index: usize,
    pub(super) mv: Option<G::Move>,
    pub(super) search: MoveSearch,
    /// What the table said, kept while the null move is searched.
    pub(super) probe: Probe,
    /// The first move's extension (see `Worker::singular_extension`).
    pub(super) extend_first: i32,
    /// The keys of the moves after the table's, still to be made once it
    /// has not cut ([`crate::Evaluator::defers_ordering`]).
    pub(super) deferred: Option<OrderNode>,
    /// The move that came nearest alpha, stored if the node fails low
    /// ([`crate::Evaluator::stores_fail_low_move`]).
    pub(super) nearest: Option<G::Move>,
    /// The worker's node count when the move in flight was taken.
    pub(super) nodes_at_move: u64,
    /// Names this frame's current node for split requests.
    pub(super) serial: u64,
    /// Which quiet moves its own loop may skip, near the leaves (moves
    /// taken at a split point are never skipped).
    pub(super) leaf: Option<LeafPruning>,
    /// The node's static score, for the correction history at its end.
    pub(super) eval: StaticEval,
}

impl<G: Game> Frame<G> {
    pub(super) fn new(pos: G) -> Self {
        Frame {
            pos,
            alpha: -INFINITY,
            beta: INFINITY,
            orig_alpha: -INFINITY,
            depth: 0,
            ply: 0,
            node_type: NodeType::Pv,
            entry_type: NodeType::Pv,
            root: false,
            key: 0,
            moves: G::Moves::default(),
            keys: Default::default(),
            next: 0,
            best: -INFINITY,
            best_move: None,
            stage: Stage::Enter,
            index: 0,
            mv: None,
            search: MoveSearch::new(0, 0),
            probe: Probe::EMPTY,
            extend_first: 0,
            deferred: None,
            nearest: None,
            nodes_at_move: 0,
            serial: 0,
            leaf: None,
            eval: StaticEval::NONE,
        }
    }

    /// Whether an idle thread may split this node, not a split point yet
    /// ([`policy::splittable`]).
    pub(super) fn splittable(&self, exact: bool) -> bool {
        policy::splittable(
            self.depth,
            exact,
            self.index,
            self.next,
            self.moves.len(),
            self.probe_root(),
        )
    }

    /// Whether the node was entered with a null window.
    pub(super) fn null_window(&self) -> bool {
        self.beta - self.orig_alpha == 1
    }

    /// Whether this is the root of a null-window root search (an MTD(f)
    /// probe), where a cut waits for the moves before it
    /// ([`policy::cut_waits`]).
    pub(super) fn probe_root(&self) -> bool {
        self.root && self.null_window()
    }

    /// Whether this node is a close call ([`policy::close_call`]); a root
    /// never is (a probe's root has its own rule).
    pub(super) fn close_call(&self) -> bool {
        !self.root && policy::close_call(self.null_window(), self.best, self.alpha, self.next)
    }

    /// How much an idle thread wants to split this frame
    /// ([`policy::split_merit`]).
    pub(super) fn split_merit(&self) -> i64 {
        policy::split_merit(self.depth, self.entry_type, self.index, self.close_call())
    }

    /// Records the move in flight, reduced by `reduction` plies, and the
    /// window of its first search; waits for its child.
    pub(super) fn begin_move(
        &mut self,
        index: usize,
        mv: G::Move,
        reduction: i32,
        nodes: u64,
    ) -> ChildWindow {
        self.index = index;
        self.mv = Some(mv);
        self.search = MoveSearch::new(index, reduction);
        self.nodes_at_move = nodes;
        self.stage = Stage::AwaitChild;
        self.search
            .first(self.alpha, self.beta, self.depth, self.node_type)
    }
}

/// One thread's explicit stack. Frames are indexed by ply; `frames[base]` is
/// the root frame (`base_sp == NO_SPLIT_POINT`) or the proxy for split point `base_sp`.
pub(crate) struct Stack<G: Game> {
    /// Grown on demand, never beyond the capacity reserved at creation.
    pub(super) frames: Vec<Frame<G>>,
    pub(super) base: usize,
    pub(super) base_sp: usize,
    pub(super) top: usize,
    /// Last serial handed out; the thread index sits in the high bits so
    /// serials are unique over all threads.
    serial: u64,
    /// Node count before which no new publication is made.
    pub(super) next_publish: u64,
}

impl<G: Game> Stack<G> {
    pub(super) fn new(thread: usize) -> Self {
        Stack {
            frames: Vec::with_capacity(MAX_PLY),
            base: 0,
            base_sp: NO_SPLIT_POINT,
            top: 0,
            serial: (thread as u64) << 48,
            next_publish: 0,
        }
    }

    /// Makes sure frames `0..len` exist.
    pub(super) fn ensure(&mut self, len: usize, pos: &G) {
        while self.frames.len() < len {
            self.frames.push(Frame::new(pos.clone()));
        }
    }

    pub(super) fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// Whether `ply` is the proxy of a split point.
    pub(super) fn is_proxy(&self, ply: usize) -> bool {
        ply == self.base && self.base_sp != NO_SPLIT_POINT
    }
}
