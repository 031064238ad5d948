//! The serial search: principal-variation search with quiescence, on one worker.
//!
//! A [`Worker`] owns everything one thread changes while searching (statistics,
//! killers, history, the PV table); a [`SearchContext`] lends it what every
//! thread shares (the transposition table, the evaluator, the stop flag, the
//! limits). The parallel algorithms run many workers over one context.
//!
//! Outside exact mode the search is selective where the evaluator allows it
//! (see [`Evaluator::in_check`], [`Evaluator::null_move`] and
//! [`Evaluator::is_quiet`]): a node in check is searched a ply deeper,
//! null-move pruning ends a non-PV node whose pass still holds beta, and late
//! quiet moves of non-PV nodes are searched at reduced depth first; where
//! [`Evaluator::pruning`] allows, nodes near the leaves are pruned by their
//! static score (reverse futility, futility, late-move pruning). Such a
//! selective search also compares each node's static score with its side's
//! last one (improving or not, [`StaticEval`]), reduces the null move more
//! the deeper the node and the further its static score is above beta,
//! takes a ply off a deep node the table has no move for (internal
//! iterative reduction), extends a table move that alone holds its bound
//! (singular extension, [`Worker::singular_extension`]), ends a node whose
//! winning capture holds a bound well above beta in a shallower search
//! (ProbCut, [`Worker::probcut`]), lets the table end null-window
//! quiescence nodes, and, where the game names what a move moves where
//! ([`Game::continuation_key`]), scores quiet moves by the moves before
//! them too (continuation history, in ordering and reductions). Where the
//! evaluator keys what its static score misjudges alike
//! ([`Evaluator::correction_key`]), each worker corrects the static score
//! its pruning reads by how far its searches found it off (correction
//! history).
//!
//! Exact mode turns all of that off, and more: the table never ends a node
//! (it only orders moves), the root uses no aspiration window, and the
//! evaluator's own exact solver is the only shortcut. The score is then the
//! negamax value of the tree [`crate::oracle::negamax`] walks.

mod correction;
pub(crate) mod history;
pub(crate) mod hook;
mod quiescence;
pub(crate) mod rules;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use crate::game::{Evaluator, Game, MAX_PLY, MoveBuffer, OrderNode, PerMove};
use crate::node::NodeType;
use crate::score::{INFINITY, Score, WIN_BOUND, is_decisive};
use crate::sim::Sim;
use crate::stats::Stats;
use crate::trace::{EventKind, Recorder};
use crate::tt::{NO_MOVE, TranspositionTable};
use correction::Correction;
use history::{Continuation, History, SharedHistory};
use hook::{Interrupt, NodeHook, SplitNode};
pub(crate) use rules::NodeAlpha;
pub(crate) use rules::pick_best;
use rules::{MoveLoop, MoveSearch, at_horizon, extension, internal_reduction, null_move};

/// How often (in nodes) the clock and the node limit are looked at.
const POLL_INTERVAL: u64 = 4096;
/// A move's history score stays within this (see [`Worker::quiet_score`]):
/// below a killer's step in the ordering key.
const HISTORY_BOUND: i32 = (1 << 21) - 1;
/// Size of the counter-move table; move keys are folded into it.
const COUNTERS: usize = 1 << 12;
/// Late-move reductions start with this move index, at this depth or more.
const LMR_MIN_INDEX: usize = 3;
const LMR_MIN_DEPTH: i32 = 3;

/// `ln(depth)·ln(index)/2` (rounded), by depth and move index.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: std::sync::OnceLock<[[i32; 64]; 64]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.0) as i32;
            }
        }
        t
    })
}

/// No continuation key: a pass, or no move yet.
const NO_CONTEXT: u16 = u16::MAX;

/// No static score: a node in check, or outside a selective search.
const NO_EVAL: Score = -INFINITY;

/// A node's static score before its move loop, where a selective search
/// asks it (not in check), corrected by the worker's correction history,
/// and whether it beats its side's last one (two plies up, else four; true
/// when neither has one): the pruning near the leaves is bolder at a node
/// that is not improving.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StaticEval {
    pub(crate) score: Option<Score>,
    pub(crate) improving: bool,
    /// The correction history's slot for the node and its uncorrected
    /// score, where the evaluator keys one: what the node's search teaches.
    pub(crate) correction: Option<(usize, Score)>,
}

impl StaticEval {
    /// No static score: in check, or outside a selective search.
    pub(crate) const NONE: StaticEval = StaticEval {
        score: None,
        improving: false,
        correction: None,
    };
}

/// What the pruning near the leaves (see [`crate::game::Pruning`]) decided
/// for a node's quiet moves before its loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeafPruning {
    /// The static score plus the futility margin stays at or below alpha.
    futile: bool,
    /// Quiet moves from this index on are skipped.
    late_moves: usize,
    /// Quiet and noisy moves whose static exchange loses more than these
    /// are skipped (`Score::MIN`: none).
    exchange_floor: (Score, Score),
}

/// Step 4 of a node (here and in DTS's explicit stack): near the leaves, at
/// null-window nodes out of check and outside exact mode, `Err(score)` when
/// the static score beats beta by the reverse-futility margin, else which
/// quiet moves the loop may skip (`None`: none). Where `eval` is improving,
/// reverse futility's margin is a ply smaller (the score is likelier to
/// hold); where it is not, half as many quiet moves are searched.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn leaf_pruning<G: Game, E: Evaluator<G>>(
    ctx: &SearchContext<'_, G, E>,
    pos: &G,
    alpha: Score,
    beta: Score,
    depth: i32,
    in_check: bool,
    eval: StaticEval,
) -> Result<Option<LeafPruning>, Score> {
    if ctx.exact || in_check || beta - alpha > 1 {
        return Ok(None);
    }
    let Some(p) = ctx.eval.pruning() else {
        return Ok(None);
    };
    if depth
        > p.reverse_futility_depth
            .max(p.futility_depth)
            .max(p.late_move_depth)
            .max(p.exchange_depth)
    {
        return Ok(None);
    }
    let improving = i32::from(eval.improving);
    let eval = eval.score.unwrap_or_else(|| ctx.eval.evaluate(pos));
    if depth <= p.reverse_futility_depth
        && !is_decisive(beta)
        && eval - p.reverse_futility_margin * (depth - improving) >= beta
    {
        return Err(eval);
    }
    Ok(Some(LeafPruning {
        futile: depth <= p.futility_depth
            && !is_decisive(alpha)
            && eval + p.futility_margin * (depth + 1) <= alpha,
        late_moves: if depth <= p.late_move_depth {
            (3 + (depth * depth) as usize) / (2 - improving as usize)
        } else {
            usize::MAX
        },
        exchange_floor: if depth <= p.exchange_depth {
            (
                -p.exchange_quiet_margin * depth,
                -p.exchange_noisy_margin * depth,
            )
        } else {
            (Score::MIN, Score::MIN)
        },
    }))
}

/// Whether the move loop skips move `i` (`mv`, leading to `child`) by the
/// node's [`LeafPruning`]: a move after the first, not giving check, while
/// the node's `best` is no lost score, that is quiet where the node is
/// futile or the move late, or whose static exchange loses more than the
/// depth left allows.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn skips_move<G: Game, E: Evaluator<G>>(
    ctx: &SearchContext<'_, G, E>,
    leaf: Option<LeafPruning>,
    i: usize,
    best: Score,
    pos: &G,
    mv: G::Move,
    child: &G,
) -> bool {
    let Some(leaf) = leaf else {
        return false;
    };
    if i == 0 || best <= -WIN_BOUND || ctx.eval.in_check(child) {
        return false;
    }
    let quiet = ctx.eval.is_quiet(pos, mv);
    if quiet && (leaf.futile || i >= leaf.late_moves) {
        return true;
    }
    let floor = if quiet {
        leaf.exchange_floor.0
    } else {
        leaf.exchange_floor.1
    };
    floor > Score::MIN && ctx.eval.exchange(pos, mv) < floor
}

/// What every thread of one search shares, borrowed for the search's length.
pub struct SearchContext<'a, G: Game, E: Evaluator<G>> {
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// The evaluator.
    pub eval: &'a E,
    /// Raised to end the search; every worker looks at it at every node.
    pub stop: &'a AtomicBool,
    /// Exact mode: the table orders moves only.
    pub exact: bool,
    /// When the search must end, if timed.
    pub deadline: Option<Instant>,
    /// How many nodes the search may visit, if limited: this worker's own,
    /// or with `node_count` all threads'.
    pub node_limit: Option<u64>,
    /// The nodes every thread of the search has counted so far, when the
    /// search keeps that count (see [`Worker::count_nodes`]).
    pub(crate) node_count: Option<&'a AtomicU64>,
    /// This thread's index in its search (0 runs the root).
    pub thread: usize,
    /// How a parallel algorithm joins this thread's move loops (split points,
    /// aborts); `None` in serial search.
    pub(crate) hook: Option<&'a dyn NodeHook<G, E>>,
    /// How other threads get this one's attention inside the recursive
    /// search (DTS's requests for work); `None` elsewhere.
    pub(crate) interrupt: Option<Interrupt<'a, G>>,
    /// The simulation this thread runs in, if any: every node ticks its
    /// virtual clock.
    pub(crate) sim: Option<&'a Sim>,
}

impl<'a, G: Game, E: Evaluator<G>> SearchContext<'a, G, E> {
    /// A context with no time or node limit.
    pub fn new(tt: &'a TranspositionTable, eval: &'a E, stop: &'a AtomicBool, exact: bool) -> Self {
        SearchContext {
            tt,
            eval,
            stop,
            exact,
            deadline: None,
            node_limit: None,
            node_count: None,
            thread: 0,
            hook: None,
            interrupt: None,
            sim: None,
        }
    }

    /// A selective search: outside exact mode, with an evaluator that
    /// prunes near the leaves ([`Evaluator::pruning`]). Its history learns
    /// by gravity, with maluses ([`Worker::learn_cutoff`]), and its late
    /// moves are reduced by the log table ([`Worker::reduction`]).
    #[inline]
    pub(crate) fn selective(&self) -> bool {
        !self.exact && self.eval.pruning().is_some()
    }
}

/// A root move and what the last search said of it.
#[derive(Clone, Copy, Debug)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its score from the last iteration (exact for the best move, a bound for others).
    pub score: Score,
}

/// Moves `mv` to the front of `root_moves` (the others keep their order) with
/// `score`; false if it is not among them.
pub(crate) fn move_to_front<M: PartialEq>(
    root_moves: &mut [RootMove<M>],
    mv: M,
    score: Score,
) -> bool {
    let Some(i) = root_moves.iter().position(|r| r.mv == mv) else {
        return false;
    };
    root_moves[..=i].rotate_right(1);
    root_moves[0].score = score;
    true
}

/// The window and place of a node whose moves are being searched.
#[derive(Clone, Copy, Debug)]
struct NodeSearch {
    alpha: Score,
    beta: Score,
    depth: i32,
    ply: usize,
    /// The node's type now (a CUT node turns ALL after its first move).
    node_type: NodeType,
    /// The node's type when it was entered.
    entry_type: NodeType,
    /// Which quiet moves may be skipped, at a node near the leaves.
    leaf: Option<LeafPruning>,
    /// The node the moves after the first are still to be keyed for
    /// (the first is the table's, [`Evaluator::defers_ordering`]).
    deferred: Option<OrderNode>,
    /// The first move's extension (see [`Worker::singular_extension`]).
    extend_first: i32,
}

/// One thread's search state: owned, never shared, but for the history of
/// deep cutoffs (see the `search::history` module).
pub struct Worker<G: Game> {
    /// What this worker has done so far.
    pub stats: Stats,
    killers: Box<[[Option<G::Move>; 2]; MAX_PLY]>,
    history: History,
    /// The key of the move played at each ply of the line searched now
    /// ([`NO_MOVE`] for a pass).
    played: Box<[u16; MAX_PLY]>,
    /// The [`Game::continuation_key`] of the move played at each ply of the
    /// line searched now ([`NO_CONTEXT`] for a pass).
    context: Box<[u16; MAX_PLY]>,
    /// The continuation history, in a selective search.
    continuation: Continuation,
    /// The static score of the node at each ply of the line searched now,
    /// where a selective search asked it ([`NO_EVAL`] elsewhere): whether a
    /// node improves on its side's last one.
    evals: Box<[Score; MAX_PLY]>,
    /// The counter-moves: by a move's key (folded into [`COUNTERS`]), the
    /// key of the quiet move that last refuted it, in a selective search.
    counters: Box<[u16; COUNTERS]>,
    /// The static score's corrections, in a selective search.
    correction: Correction,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply` down.
    pv: Vec<ArrayVec<G::Move, MAX_PLY>>,
    stopped: bool,
    next_poll: u64,
    /// How many of this worker's nodes it has added to a shared count.
    nodes_counted: u64,
    /// The thread timeline, when asked for.
    pub(crate) trace: Option<Recorder>,
}

impl<G: Game> Default for Worker<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Worker<G> {
    /// A fresh worker.
    pub fn new() -> Self {
        Self::with_history(SharedHistory::new())
    }

    /// A fresh worker sharing the deep cutoffs' history `shared` with others.
    pub(crate) fn with_history(shared: Arc<SharedHistory>) -> Self {
        Worker {
            stats: Stats::default(),
            killers: Box::new([[None; 2]; MAX_PLY]),
            history: History::new(shared),
            played: Box::new([NO_MOVE; MAX_PLY]),
            context: Box::new([NO_CONTEXT; MAX_PLY]),
            continuation: Continuation::new(G::CONTINUATION_KEYS),
            evals: Box::new([NO_EVAL; MAX_PLY]),
            counters: Box::new([NO_MOVE; COUNTERS]),
            correction: Correction::new(),
            pv: (0..MAX_PLY).map(|_| ArrayVec::new()).collect(),
            stopped: false,
            next_poll: POLL_INTERVAL,
            nodes_counted: 0,
            trace: None,
        }
    }

    /// The time now, if this worker records a timeline: the start of a span.
    #[inline]
    pub(crate) fn trace_clock(&self) -> Option<Instant> {
        self.trace.as_ref().map(|_| Instant::now())
    }

    /// Records a span begun at `since` (from [`Self::trace_clock`]) and
    /// ending now; nothing when not tracing.
    #[inline]
    pub(crate) fn trace_span(
        &mut self,
        since: Option<Instant>,
        kind: EventKind,
        ply: usize,
        label: impl FnOnce() -> String,
        aborted: bool,
    ) {
        if let (Some(r), Some(since)) = (&mut self.trace, since) {
            r.record(kind, since, ply, label(), aborted);
        }
    }

    /// Counts the time from `since` to now as idle, and records it.
    pub(crate) fn count_idle(&mut self, since: Instant) {
        self.stats.idle_micros += since.elapsed().as_micros() as u64;
        self.trace_span(Some(since), EventKind::Idle, 0, String::new, false);
    }

    /// Counts an owner's wait at its shared node at `ply`, from `since` to
    /// now, `helping` of it spent helping below, and records it.
    pub(crate) fn count_wait(&mut self, since: Instant, helping: Duration, ply: usize) {
        let waited = since.elapsed().saturating_sub(helping);
        self.stats.wait_micros += waited.as_micros() as u64;
        self.trace_span(Some(since), EventKind::Wait, ply, String::new, false);
    }

    /// Records an instant; nothing when not tracing.
    #[inline]
    pub(crate) fn trace_mark(
        &mut self,
        kind: EventKind,
        ply: usize,
        label: impl FnOnce() -> String,
    ) {
        if let Some(r) = &mut self.trace {
            r.record(kind, Instant::now(), ply, label(), false);
        }
    }

    /// Prepares for a new search: zero counters, forget killers, age history
    /// (the thread's own; an engine ages its shared one).
    pub fn reset(&mut self) {
        self.stats = Stats::default();
        self.stopped = false;
        self.next_poll = POLL_INTERVAL;
        self.nodes_counted = 0;
        *self.killers = [[None; 2]; MAX_PLY];
        self.history.age();
        self.continuation.age();
    }

    /// Whether this worker has seen the stop signal, or a cutoff above it at a
    /// split point (its last result is void).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Re-reads the stop state after leaving a split point: a cutoff there
    /// concerned only the split point's own moves.
    pub(crate) fn refresh_stopped<E: Evaluator<G>>(&mut self, ctx: &SearchContext<G, E>) {
        self.stopped = ctx.stop.load(Relaxed) || ctx.hook.is_some_and(|h| h.aborted(ctx.thread));
    }

    /// The best line found from `ply` down by the last search there.
    pub(crate) fn pv_line(&self, ply: usize) -> &[G::Move] {
        &self.pv[ply]
    }

    /// Makes `line` the best line at `ply` (from a split point's result).
    pub(crate) fn set_pv_line(&mut self, ply: usize, line: &[G::Move]) {
        self.pv[ply].clear();
        self.pv[ply].extend(line.iter().copied());
    }

    /// The principal variation of the last root search.
    pub fn pv(&self) -> &[G::Move] {
        &self.pv[0]
    }

    /// Adds the nodes this worker visited since its last call to `count`,
    /// the search's count over all threads; returns the new count. Workers
    /// call it every [`POLL_INTERVAL`] nodes, so the count lags by fewer than
    /// that per thread.
    pub(crate) fn count_nodes(&mut self, count: &AtomicU64) -> u64 {
        let new = self.stats.nodes - self.nodes_counted;
        self.nodes_counted = self.stats.nodes;
        count.fetch_add(new, Relaxed) + new
    }

    /// Looks at the stop flag (every node) and, every [`POLL_INTERVAL`]
    /// nodes, the clock and the node limit (adding this worker's nodes to the
    /// search's count when it keeps one); raises the shared flag when a limit
    /// is reached.
    #[inline]
    pub(crate) fn poll_stop<E: Evaluator<G>>(&mut self, ctx: &SearchContext<G, E>) -> bool {
        if let Some(sim) = ctx.sim {
            sim.tick(ctx.thread, self.stats.nodes);
        }
        if self.stopped {
            return true;
        }
        if ctx.stop.load(Relaxed) || ctx.hook.is_some_and(|h| h.aborted(ctx.thread)) {
            self.stopped = true;
            return true;
        }
        if self.stats.nodes >= self.next_poll {
            self.next_poll = self.stats.nodes + POLL_INTERVAL;
            let out_of_time = ctx.deadline.is_some_and(|d| Instant::now() >= d);
            let nodes = match ctx.node_count {
                Some(count) => self.count_nodes(count),
                None => self.stats.nodes,
            };
            let out_of_nodes = ctx.node_limit.is_some_and(|n| nodes >= n);
            if out_of_time || out_of_nodes {
                ctx.stop.store(true, Relaxed);
                self.stopped = true;
                return true;
            }
        }
        false
    }

    /// Searches the root moves, in their order, to `depth` in the window
    /// `(alpha, beta)`.
    ///
    /// Returns the best score (fail-soft). On completion the best move is moved
    /// to the front of `root_moves`, with its score, and the PV is in
    /// [`Worker::pv`]. If the search was stopped the result is void (see
    /// [`Worker::stopped`]); the first move's score is kept if it was finished.
    pub fn search_root<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        root: &G,
        root_moves: &mut [RootMove<G::Move>],
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Score {
        self.pv[0].clear();
        self.stats.nodes += 1;
        let mut moves: G::Moves = root_moves.iter().map(|r| r.mv).collect();
        // Keys that keep the given order.
        let mut keys: PerMove<G, i64> = (0..moves.len()).map(|i| -(i as i64)).collect();
        let node = NodeSearch {
            alpha,
            beta,
            depth,
            ply: 0,
            node_type: NodeType::Pv,
            entry_type: NodeType::Pv,
            leaf: None,
            deferred: None,
            extend_first: 0,
        };
        let (best, best_move) = self.search_moves(ctx, root, &mut moves, &mut keys, node);
        let moved = best_move.is_some_and(|mv| move_to_front(root_moves, mv, best));
        if !moved && !self.stopped {
            root_moves[0].score = best;
        }
        best
    }

    /// Searches `child`, the `index`-th move's, of a node at `ply`: the first
    /// with the full window, the others with a null window (first
    /// `reduction` plies shallower, from [`Self::reduction`], and again at
    /// full depth if that beats alpha) and, when that lands inside
    /// `(alpha, beta)`, again with the full window. The score is from the
    /// parent's view.
    ///
    /// `alpha` reads the node's alpha now: at a node several threads search
    /// it may rise between two searches of the move, and the next search
    /// takes the risen one (see [`NodeAlpha`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_child<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        child: &G,
        index: usize,
        reduction: i32,
        alpha: impl NodeAlpha,
        beta: Score,
        depth: i32,
        ply: usize,
        node_type: NodeType,
    ) -> Score {
        let mut plan = MoveSearch::new(index, reduction);
        let mut w = plan.first(alpha.now(), beta, depth, node_type);
        loop {
            let score = -self.pvs(ctx, child, w.alpha, w.beta, w.depth, ply + 1, w.node_type);
            if self.stopped {
                return score;
            }
            match plan.next(score, alpha.now(), beta, depth, node_type) {
                Some(next) => {
                    if let Some(bound) = plan.proved() {
                        alpha.proved(bound);
                    }
                    w = next;
                }
                None if plan.failed_low(score) => return alpha.failed_low(score),
                None => return score,
            }
        }
    }

    /// How many plies less the `index`-th move `mv` of a node (leading to
    /// `child`) is first searched: late-move reductions, outside exact mode,
    /// for late quiet moves neither made in check nor giving check. The
    /// selective search reduces from the second move on (the fourth at PV
    /// nodes) by `ln(depth)·ln(index)/2` plies, one less at PV nodes, less
    /// for a move with a good history and more for one with a bad history,
    /// and one more below the root where the static score is not improving
    /// (the root notes none); the others reduce non-PV nodes' moves from
    /// the fourth on by one or two plies. Counts the reductions it grants.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduction<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        child: &G,
        mv: G::Move,
        index: usize,
        depth: i32,
        ply: usize,
        node_type: NodeType,
    ) -> i32 {
        let selective = ctx.selective();
        let pv = node_type == NodeType::Pv;
        let first_reduced = match (selective, pv) {
            (true, false) => 1,
            (true, true) => 3,
            (false, false) => LMR_MIN_INDEX,
            (false, true) => usize::MAX,
        };
        if ctx.exact
            || index < first_reduced
            || depth < LMR_MIN_DEPTH
            || !ctx.eval.is_quiet(pos, mv)
            || ctx.eval.in_check(pos)
            || ctx.eval.in_check(child)
        {
            return 0;
        }
        let r = if selective {
            let by_table = lmr_table()[(depth as usize).min(63)][index.min(63)];
            let by_history = self.quiet_score(pos, mv, self.contexts_above(ply)) / (1 << 20);
            let worsening = i32::from(ply > 0 && !self.improving(ply));
            (by_table - i32::from(pv) - by_history + worsening).clamp(0, depth - 2)
        } else if index >= 2 * LMR_MIN_INDEX + 2 && depth >= 2 * LMR_MIN_DEPTH {
            2
        } else {
            1
        };
        if r > 0 {
            self.stats.reductions += 1;
        }
        r
    }

    /// The node at `ply`'s [`StaticEval`], noted for the nodes below.
    #[inline]
    pub(crate) fn static_eval<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        ply: usize,
        in_check: bool,
    ) -> StaticEval {
        if in_check || !ctx.selective() {
            self.evals[ply] = NO_EVAL;
            return StaticEval::NONE;
        }
        let raw = ctx.eval.evaluate(pos);
        let correction = ctx
            .eval
            .correction_key(pos)
            .map(|key| (Correction::slot(key), raw));
        let score = self.corrected(raw, correction);
        self.evals[ply] = score;
        StaticEval {
            score: Some(score),
            improving: self.improving(ply),
            correction,
        }
    }

    /// Whether the static score noted at `ply` beats its side's last one
    /// (two plies up, else four; true when neither has one); false where
    /// none is noted (in check).
    #[inline]
    fn improving(&self, ply: usize) -> bool {
        let score = self.evals[ply];
        let last = [2, 4]
            .into_iter()
            .filter_map(|back| ply.checked_sub(back).map(|p| self.evals[p]))
            .find(|&e| e != NO_EVAL);
        score != NO_EVAL && last.is_none_or(|last| score > last)
    }

    /// `raw` plus the correction of its slot, if any; never a decisive score.
    #[inline]
    fn corrected(&self, raw: Score, correction: Option<(usize, Score)>) -> Score {
        match correction {
            Some((slot, _)) if !is_decisive(raw) => {
                (raw + self.correction.get(slot)).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
            }
            _ => raw,
        }
    }

    /// Step 8 of a node, after its store: a selective search's node out
    /// of check, searched to `best` in the window `(alpha, beta)` with
    /// `depth` left, teaches the correction history how far its static
    /// score `eval` was off, when the result says so (an exact score, or a
    /// bound on the far side of the static score), no capture or promotion
    /// settled it (`best_move`), and it is no mate score.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn learn_correction<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        eval: StaticEval,
        best: Score,
        best_move: Option<G::Move>,
        alpha: Score,
        beta: Score,
        depth: i32,
    ) {
        let (Some(score), Some((slot, raw))) = (eval.score, eval.correction) else {
            return;
        };
        if self.stopped
            || is_decisive(best)
            || best_move.is_some_and(|mv| !ctx.eval.is_quiet(pos, mv))
            || (best >= beta && best <= score)
            || (best <= alpha && best >= score)
        {
            return;
        }
        self.correction.learn(slot, best - raw, depth);
    }

    /// The null-move search of a non-PV node outside exact mode: the score
    /// after the side to move passes, searched shallower (see
    /// `rules::null_move_depth`) with a null window at beta, when the
    /// static score (`eval`, if known) already reaches beta. `Some(score)` ends the node (a fail high
    /// by at least `score`); `None` means search it normally.
    #[allow(clippy::too_many_arguments)]
    fn null_move_cutoff<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        beta: Score,
        depth: i32,
        ply: usize,
        node_type: NodeType,
        in_check: bool,
        eval: StaticEval,
    ) -> Option<Score> {
        let (null, reduced) = null_move(ctx, pos, beta, depth, in_check, eval.score)?;
        self.set_pass(ply);
        let score = -self.pvs(
            ctx,
            &null,
            -beta,
            -beta + 1,
            reduced,
            ply + 1,
            node_type.child(0),
        );
        self.null_move_result(score, beta)
    }

    /// Whether a null-move search's `score` ends its node; counts it.
    #[inline]
    pub(crate) fn null_move_result(&mut self, score: Score, beta: Score) -> Option<Score> {
        if self.stopped || score < beta {
            return None;
        }
        self.stats.null_cutoffs += 1;
        // A pass proves no mate: claim only beta then.
        Some(if is_decisive(score) { beta } else { score })
    }

    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(rest) = tail.first() {
            let room = MAX_PLY - 1;
            line.extend(rest.iter().take(room).copied());
        }
    }

    /// Principal-variation search of an interior node: fail-soft alpha-beta
    /// with null-window searches of every move after the first.
    #[allow(clippy::too_many_arguments)]
    pub fn pvs<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        node_type: NodeType,
    ) -> Score {
        // Step 1. The check extension, then the horizon: quiescence takes
        // over (it counts its own node).
        let in_check = ctx.eval.in_check(pos);
        let depth = depth + extension(ctx, in_check);
        if at_horizon(depth, ply) {
            return self.quiescence(ctx, pos, alpha, beta, ply);
        }
        self.pv[ply].clear();
        if self.poll_stop(ctx) {
            return 0;
        }
        if let Some(interrupt) = &ctx.interrupt
            && interrupt.flag.load(Relaxed) != 0
        {
            interrupt.handler.interrupted(self);
        }

        // Steps 2 and 3. Finished games, the evaluator's exact leaf solver,
        // the table (a move to try first; outside exact mode and PV nodes, a
        // cutoff when the stored bound settles the node).
        let mut moves = G::Moves::default();
        let probe = match self.visit(ctx, pos, alpha, beta, depth, ply, &mut moves) {
            Ok(probe) => probe,
            Err(score) => return score,
        };
        let depth = depth - internal_reduction(ctx, probe.tt_move, depth);
        let eval = self.static_eval(ctx, pos, ply, in_check);

        // Step 4. Near the leaves, at null-window nodes out of check: a
        // static score far above beta is taken as it is (reverse futility);
        // one far below alpha, or a late move, lets quiet moves go unsearched.
        let leaf = match leaf_pruning(ctx, pos, alpha, beta, depth, in_check, eval) {
            Ok(leaf) => leaf,
            Err(score) => return score,
        };

        // Step 5. Null move: when passing still holds beta, so does the node.
        if beta - alpha <= 1
            && let Some(score) =
                self.null_move_cutoff(ctx, pos, beta, depth, ply, node_type, in_check, eval)
        {
            return score;
        }
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.probcut(ctx, pos, &probe, alpha, beta, depth, ply, eval.score) {
            return score;
        }

        // Step 6. Generate (unless the child probes did) and order the moves.
        if moves.is_empty() {
            pos.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            // The game said it goes on but offers no move: treat as a leaf.
            debug_assert!(false, "position with no outcome and no moves");
            return ctx.eval.evaluate(pos);
        }
        let mut keys = PerMove::<G, i64>::default();
        let order = OrderNode {
            alpha,
            beta,
            depth,
            table_upper: probe.upper,
        };
        let deferred =
            self.order_or_defer(ctx, pos, &mut moves, probe.tt_move, ply, order, &mut keys);
        let extend_first = if deferred.is_none() {
            self.singular_extension(ctx, pos, &moves, &keys, &probe, depth, ply)
        } else {
            0
        };
        if self.stopped {
            return 0;
        }

        // Step 7. Search the moves, best first.
        let node = NodeSearch {
            alpha,
            beta,
            depth,
            ply,
            node_type,
            entry_type: node_type,
            leaf,
            deferred,
            extend_first,
        };
        let (best, best_move) = self.search_moves(ctx, pos, &mut moves, &mut keys, node);
        if self.stopped {
            return 0;
        }

        // Step 8. Remember the result, and how far the static score was off.
        self.store(ctx, probe.key, best, best_move, alpha, beta, depth, ply);
        self.learn_correction(ctx, pos, eval, best, best_move, alpha, beta, depth);
        best
    }

    /// The move loop shared by the root and interior nodes: searches `moves`
    /// best key first, the first with the full window, the rest with null
    /// windows; once the eldest is searched, offers the rest to the parallel
    /// algorithm's [`NodeHook`], if any.
    /// Returns the best score (fail-soft) and the move that raised alpha, if any.
    #[inline]
    fn search_moves<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        moves: &mut G::Moves,
        keys: &mut PerMove<G, i64>,
        node: NodeSearch,
    ) -> (Score, Option<G::Move>) {
        let NodeSearch {
            alpha,
            beta,
            depth,
            ply,
            mut node_type,
            entry_type,
            leaf,
            deferred,
            extend_first,
        } = node;
        let mut node = MoveLoop {
            alpha,
            beta,
            best: -INFINITY,
            best_move: None,
        };
        // The move nearest alpha, where the evaluator asks for it at a node
        // that fails low (not the root's: its order is the driver's).
        let keep_low = ply > 0 && ctx.eval.stores_fail_low_move();
        let mut top = None;
        for i in 0..moves.len() {
            pick_best(moves, keys, i);
            let mv = moves[i];
            let child = pos.play(mv);
            if skips_move(ctx, leaf, i, node.best, pos, mv, &child) {
                continue;
            }
            let r = if i == 0 {
                -extend_first
            } else {
                self.reduction(ctx, pos, &child, mv, i, depth, ply, node_type)
            };
            self.set_played(ply, pos, mv);
            let alpha = node.alpha;
            let score = self.search_child(ctx, &child, i, r, || alpha, beta, depth, ply, node_type);
            if keep_low && score > node.best {
                top = Some(mv);
            }
            if self.stopped {
                return (node.best, node.best_move);
            }
            if self.fold(&mut node, mv, score, ply) {
                self.learn_cutoff(ctx, pos, &moves[..i], mv, i, depth, ply);
                return (node.best, node.best_move);
            }
            if i == 0 {
                node_type = node_type.after_first_move();
                if let Some(order) = deferred
                    && moves.len() > 1
                {
                    self.order_rest(ctx, pos, moves, ply, order, keys);
                }
            }
            // Young brothers may now be searched in parallel.
            if let Some(hook) = ctx.hook
                && i + 1 < moves.len()
            {
                let split = SplitNode {
                    ctx,
                    pos,
                    moves: &moves[i + 1..],
                    keys: &keys[i + 1..],
                    alpha: node.alpha,
                    beta,
                    best: node.best,
                    depth,
                    ply,
                    node_type,
                    entry_type,
                };
                if let Some((score, mv)) = hook.try_split(self, split) {
                    if score > node.best {
                        node.best = score;
                        if mv.is_some() {
                            node.best_move = mv;
                        }
                    }
                    if let Some(mv) = mv
                        && score >= beta
                    {
                        self.learn_cutoff(ctx, pos, &[], mv, i + 1, depth, ply);
                    }
                    return (node.best, node.best_move);
                }
            }
        }
        (node.best, node.best_move.or(top))
    }

    /// Writes the moves' ordering keys into `keys` (a buffer of the caller's,
    /// not a 2 KiB return value): largest first the table move, then the
    /// evaluator's hints (for the node `node`), ties broken by killers and the counter-move,
    /// then history.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn order_keys<E: Evaluator<G>>(
        &self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        moves: &G::Moves,
        tt_move: u16,
        ply: usize,
        node: OrderNode,
        keys: &mut PerMove<G, i64>,
    ) {
        let mut hints = PerMove::<G, i32>::default();
        hints.extend(std::iter::repeat_n(0, moves.len()));
        ctx.eval.order_moves_at(pos, moves, &mut hints, node);
        let killers = &self.killers[ply];
        let above = if ctx.selective() {
            self.contexts_above(ply)
        } else {
            [None; 2]
        };
        // Counter-moves are learnt only in a selective search.
        let counter = self.previous_move(ply).map_or(NO_MOVE, |previous| {
            self.counters[previous as usize % COUNTERS]
        });
        keys.clear();
        keys.extend(moves.iter().zip(hints.iter()).map(|(&mv, &hint)| {
            let key = G::move_key(mv);
            if key == tt_move {
                return i64::MAX;
            }
            // Killers, then the counter-move: the steps between hints.
            let killer = if killers[0] == Some(mv) {
                3
            } else if killers[1] == Some(mv) {
                2
            } else {
                i64::from(counter != NO_MOVE && key == counter)
            };
            ((hint as i64) << 24) + (killer << 21) + self.quiet_score(pos, mv, above) as i64
        }));
    }

    /// Orders `moves` into `keys` as [`Self::order_keys`] does, or, where
    /// the evaluator defers its ordering and the table's move is among
    /// them, puts that move first (where `pick_best` would have taken it)
    /// and returns the node whose other keys [`Self::order_rest`] makes
    /// once it has not cut: where it cuts, they are never needed.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn order_or_defer<E: Evaluator<G>>(
        &self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        moves: &mut G::Moves,
        tt_move: u16,
        ply: usize,
        node: OrderNode,
        keys: &mut PerMove<G, i64>,
    ) -> Option<OrderNode> {
        let table_move = (tt_move != NO_MOVE && ctx.eval.defers_ordering())
            .then(|| moves.iter().position(|&mv| G::move_key(mv) == tt_move))
            .flatten();
        let Some(j) = table_move else {
            self.order_keys(ctx, pos, moves, tt_move, ply, node, keys);
            return None;
        };
        moves.swap(0, j);
        keys.clear();
        keys.extend(std::iter::repeat_n(0, moves.len()));
        keys[0] = i64::MAX;
        Some(node)
    }

    /// The keys of `moves[1..]`, the first (the table's) searched already:
    /// what [`Self::order_keys`] would have given them.
    #[inline(never)]
    pub(crate) fn order_rest<E: Evaluator<G>>(
        &self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        moves: &G::Moves,
        ply: usize,
        node: OrderNode,
        keys: &mut PerMove<G, i64>,
    ) {
        let rest: G::Moves = moves[1..].iter().copied().collect();
        let mut rest_keys = PerMove::<G, i64>::default();
        self.order_keys(ctx, pos, &rest, NO_MOVE, ply, node, &mut rest_keys);
        keys[1..].copy_from_slice(&rest_keys);
    }

    /// A move reached beta after the moves `tried`: count it, teach the
    /// killers and the history; in a selective search the history by its
    /// gravity rule, the quiet moves tried before it punished, and the
    /// counter-moves.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn learn_cutoff<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        tried: &[G::Move],
        mv: G::Move,
        index: usize,
        depth: i32,
        ply: usize,
    ) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let key = G::move_key(mv);
        if !ctx.selective() {
            self.history.reward(key, depth);
            return;
        }
        self.history.update(key, depth, true);
        let quiet = ctx.eval.is_quiet(pos, mv);
        // The continuation history learns from quiet cutoffs only.
        let above = if quiet {
            self.contexts_above(ply)
        } else {
            [None; 2]
        };
        for &other in tried {
            if other != mv && ctx.eval.is_quiet(pos, other) {
                self.history.update(G::move_key(other), depth, false);
                self.update_continuation(pos, other, above, depth, false);
            }
        }
        if !quiet {
            return;
        }
        self.update_continuation(pos, mv, above, depth, true);
        if let Some(previous) = self.previous_move(ply) {
            self.counters[previous as usize % COUNTERS] = key;
        }
    }

    /// Teaches the continuation history that `mv` refuted (`good`) or not
    /// a node reached by the moves `above`.
    #[inline]
    fn update_continuation(
        &mut self,
        pos: &G,
        mv: G::Move,
        above: [Option<u16>; 2],
        depth: i32,
        good: bool,
    ) {
        if above == [None; 2] {
            return;
        }
        let to = pos.continuation_key(mv);
        for from in above.into_iter().flatten() {
            self.continuation.update(from, to, depth, good);
        }
    }

    /// A move's history score: the butterfly table's and the continuation
    /// history's after the moves `above` ([`Self::contexts_above`]); within
    /// the butterfly table's bound twice over, so that it never outranks a
    /// killer.
    #[inline]
    fn quiet_score(&self, pos: &G, mv: G::Move, above: [Option<u16>; 2]) -> i32 {
        let mut score = self.history.score(G::move_key(mv));
        if above != [None; 2] {
            let to = pos.continuation_key(mv);
            for from in above.into_iter().flatten() {
                score += self.continuation.score(from, to);
            }
        }
        score.clamp(-HISTORY_BOUND, HISTORY_BOUND)
    }

    /// The continuation keys of the moves played one and two plies above
    /// the node at `ply`, where there are such moves (not a pass, not above
    /// the root) and the game keeps a continuation history.
    #[inline]
    fn contexts_above(&self, ply: usize) -> [Option<u16>; 2] {
        [1, 2].map(|back| {
            let key = *self.context.get(ply.checked_sub(back)?)?;
            (key != NO_CONTEXT).then_some(key)
        })
    }

    /// The key of the move that led to the node at `ply`, unless it was a
    /// pass or the root.
    #[inline]
    fn previous_move(&self, ply: usize) -> Option<u16> {
        let key = *self.played.get(ply.wrapping_sub(1))?;
        (key != NO_MOVE).then_some(key)
    }

    /// Notes that `mv` is searched from the node at `ply`, `pos`: the line
    /// the counter-moves and the continuation history read.
    #[inline]
    pub(crate) fn set_played(&mut self, ply: usize, pos: &G, mv: G::Move) {
        self.played[ply] = G::move_key(mv);
        self.context[ply] = if self.continuation.kept() {
            pos.continuation_key(mv)
        } else {
            NO_CONTEXT
        };
    }

    /// Notes that the side to move at `ply` passes (a null move).
    #[inline]
    pub(crate) fn set_pass(&mut self, ply: usize) {
        self.played[ply] = NO_MOVE;
        self.context[ply] = NO_CONTEXT;
    }
}
