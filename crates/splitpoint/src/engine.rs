//! The engine facade: limits, iterative deepening, a stop handle, the result.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, MAX_PLY, MoveList};
use crate::score::{INFINITY, Score, is_decisive};
use crate::search::{RootMove, SearchContext, Worker};
use crate::stats::Stats;
use crate::tt::TranspositionTable;

/// The deepest iteration a search runs when no depth is given.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// Half-width of the first aspiration window (normal mode, depth ≥ 4).
const ASPIRATION_WINDOW: Score = 40;

/// When and how a search ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies), at most [`MAX_DEPTH`]; `None` is [`MAX_DEPTH`].
    pub depth: Option<i32>,
    /// Wall-clock budget.
    pub movetime: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Exact mode: the root score equals plain negamax over the same tree
    /// (the table orders moves but never ends a node; no aspiration windows).
    pub exact: bool,
    /// Search only the deepest iteration instead of deepening from 1 (for
    /// exact solves, where shallow iterations teach nothing).
    pub single_iteration: bool,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn to_depth(depth: i32) -> Self {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search for `movetime`, as deep as it allows.
    pub fn for_time(movetime: Duration) -> Self {
        Limits { movetime: Some(movetime), ..Limits::default() }
    }

    /// The same limits in exact mode.
    pub fn exact(mut self) -> Self {
        self.exact = true;
        self
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The best move; `None` only when the root position is finished.
    pub best_move: Option<M>,
    /// Its score, from the root side's view.
    pub score: Score,
    /// The deepest iteration completed (0 if stopped before depth 1 finished).
    pub depth: i32,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// Counters summed over the search.
    pub stats: Stats,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.stats.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Ends a running search from another thread, within a few milliseconds
/// (every worker looks at the flag at every node).
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the running search to stop and return its best result so far.
    pub fn stop(&self) {
        self.0.store(true, Relaxed);
    }
}

/// A search engine for one game and evaluator: owns the transposition table
/// and the worker state, reused across searches.
pub struct Engine<G: Game, E: Evaluator<G>> {
    eval: E,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    worker: Worker<G>,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    /// An engine with a transposition table of `hash_mib` MiB.
    pub fn new(eval: E, hash_mib: usize) -> Self {
        Engine {
            eval,
            tt: TranspositionTable::new(hash_mib),
            stop: Arc::new(AtomicBool::new(false)),
            worker: Worker::new(),
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// A handle that stops the running (or next) search.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Forgets everything learnt (between unrelated positions).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.worker = Worker::new();
    }

    /// Searches `root` within `limits`.
    pub fn search(&mut self, root: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.search_with(root, limits, |_| {})
    }

    /// Searches `root` within `limits`, calling `on_iteration` after each
    /// completed iteration with the result so far.
    pub fn search_with(
        &mut self,
        root: &G,
        limits: &Limits,
        mut on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.stop.store(false, Relaxed);
        self.tt.new_search();
        self.worker.reset();
        let mut ctx = SearchContext::new(&self.tt, &self.eval, &self.stop, limits.exact);
        ctx.deadline = limits.movetime.map(|t| start + t);
        ctx.node_limit = limits.nodes;

        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            stats: Stats::default(),
            elapsed: Duration::ZERO,
        };
        if let Some(outcome) = root.outcome() {
            result.score = self.eval.terminal_score(root, outcome, 0);
            return result;
        }
        let mut moves = MoveList::new();
        root.generate_moves(&mut moves);
        let mut root_moves: Vec<RootMove<G::Move>> =
            moves.iter().map(|&mv| RootMove { mv, score: -INFINITY }).collect();
        result.best_move = root_moves.first().map(|r| r.mv);

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let first_depth = if limits.single_iteration { max_depth } else { 1 };
        let worker = &mut self.worker;
        for depth in first_depth..=max_depth {
            let score = if limits.exact || depth < 4 || is_decisive(result.score) {
                worker.search_root(&ctx, root, &mut root_moves, -INFINITY, INFINITY, depth)
            } else {
                aspiration(worker, &ctx, root, &mut root_moves, result.score, depth)
            };
            if worker.stopped() {
                // A stopped iteration is void, except that when none completed,
                // a fully searched first move is better than nothing.
                if result.depth == 0 && root_moves[0].score > -INFINITY {
                    result.best_move = Some(root_moves[0].mv);
                    result.score = root_moves[0].score;
                }
                break;
            }
            result.best_move = Some(root_moves[0].mv);
            result.score = score;
            result.depth = depth;
            result.pv = worker.pv().to_vec();
            result.stats = worker.stats;
            result.elapsed = start.elapsed();
            on_iteration(&result);
            // A proven result cannot change with more depth.
            if is_decisive(score) && limits.depth.is_none() && depth > (crate::score::WIN - score.abs()) {
                break;
            }
        }
        result.stats = worker.stats;
        result.elapsed = start.elapsed();
        result
    }
}

/// A root search in a window around the last score, widened on failure.
fn aspiration<G: Game, E: Evaluator<G>>(
    worker: &mut Worker<G>,
    ctx: &SearchContext<G, E>,
    root: &G,
    root_moves: &mut [RootMove<G::Move>],
    guess: Score,
    depth: i32,
) -> Score {
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = (guess - delta, guess + delta);
    loop {
        let score = worker.search_root(ctx, root, root_moves, alpha, beta, depth);
        if worker.stopped() {
            return score;
        }
        if score <= alpha {
            alpha = (alpha - delta).max(-INFINITY);
        } else if score >= beta {
            beta = (beta + delta).min(INFINITY);
        } else {
            return score;
        }
        delta *= 2;
        if delta > 4 * ASPIRATION_WINDOW * 16 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}
