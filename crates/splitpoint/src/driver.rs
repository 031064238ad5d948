//! The driver: what a search runs on and how its threads are put to work.
//!
//! Between the search (below) and the parallel algorithms (above): the
//! limits and the result of a search, the job its threads share
//! ([`SearchJob`]), iterative deepening with aspiration windows over any
//! [`RootSearch`] ([`deepen`]), and the two shapes in which an algorithm
//! runs its threads — each on its own ([`on_every_thread`]), or thread 0
//! leading while the others help ([`lead_and_help`]) — both ending the search
//! for every thread when one panics.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use crate::game::{Evaluator, Game, MAX_PLY};
use crate::pool::WorkerPool;
use crate::score::{INFINITY, Score, WIN, is_decisive};
use crate::search::hook::NodeHook;
use crate::search::{RootMove, SearchContext, Worker, move_to_front};
use crate::sim::Sim;
use crate::sim::scheduler::Member;
use crate::stats::Stats;
use crate::trace::EventKind;
use crate::tt::TranspositionTable;

/// The deepest iteration a search runs when no depth is given.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// Half-width of the first aspiration window (normal mode, depth ≥ 4).
pub(crate) const ASPIRATION_WINDOW: Score = 40;

/// When and how a search ends.
///
/// ```
/// use std::time::Duration;
/// use splitpoint::Limits;
///
/// // Nine plies in exact mode: the table orders moves but never ends a node,
/// // so every algorithm returns the serial minimax score.
/// let exact = Limits::to_depth(9).exact();
/// assert_eq!((exact.depth, exact.exact), (Some(9), true));
///
/// // As deep as 200 ms allow, and no more than a million nodes.
/// let timed = Limits { nodes: Some(1_000_000), ..Limits::for_time(Duration::from_millis(200)) };
/// assert_eq!(timed.movetime, Some(Duration::from_millis(200)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies), at most [`MAX_DEPTH`]; `None` is [`MAX_DEPTH`].
    pub depth: Option<i32>,
    /// Wall-clock budget.
    pub movetime: Option<Duration>,
    /// Node budget: all threads' nodes together, counted to within a few
    /// thousand per thread.
    pub nodes: Option<u64>,
    /// Exact mode: the root score equals plain negamax over the same tree
    /// (the table orders moves but never ends a node; no aspiration windows).
    pub exact: bool,
    /// Search only the deepest iteration instead of deepening from 1 (for
    /// exact solves, where shallow iterations teach nothing).
    pub single_iteration: bool,
    /// Find each iteration's score by null-window probes (MTD(f)) from the
    /// last score instead of an aspiration window: every node a null-window
    /// node, each probe reusing the table's bounds from the ones before. Pays
    /// where the table keeps bounds from search to search, as in the Othello
    /// solver, and no PV node's alpha rises while helpers search its brothers
    /// (measured in `docs/lab/2026-11-25-solver-mtdf.md`). Ignored in exact
    /// mode.
    pub mtdf: bool,
    /// With `single_iteration`: shallow iterations first, unreported, to
    /// `presearch` plies by steps of two from 1 or 2 ([`presearch_depths`]),
    /// to leave best moves in the table for the deep iteration to order its
    /// first plies by; the last one's score (the evaluator's guess) is the
    /// deep iteration's first guess (MTD(f)'s first probe, the aspiration
    /// window's centre) and is never reported. 0: none. An entry they leave ends a node of the deep
    /// iteration only if it is as deep as that node needs: never in the
    /// Othello solver, whose deep iteration is 2 × empties + 2 plies against
    /// 8, and where a position's empties fix its ply.
    pub presearch: i32,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn to_depth(depth: i32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for `movetime`, as deep as it allows.
    pub fn for_time(movetime: Duration) -> Self {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
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

impl<M> SearchResult<M> {
    /// Nothing found yet.
    pub(crate) fn empty() -> Self {
        SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            stats: Stats::default(),
            elapsed: Duration::ZERO,
        }
    }
}

/// The job every thread of one search shares: what it searches, within
/// which limits, with which table and threads.
pub(crate) struct SearchJob<'a, G: Game, E: Evaluator<G>> {
    pub pool: &'a WorkerPool,
    pub workers: &'a [CachePadded<Mutex<Worker<G>>>],
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    /// The user's stop flag, also raised by the limits.
    pub stop: &'a AtomicBool,
    pub root: &'a G,
    /// The root moves to search: every legal one, or those the caller chose.
    pub root_moves: &'a [G::Move],
    pub limits: &'a Limits,
    pub start: Instant,
    /// The nodes every thread has counted so far (see [`Worker::count_nodes`]).
    pub nodes: CachePadded<AtomicU64>,
    /// The simulation the search runs in, if any (see [`crate::sim`]).
    pub sim: Option<&'a Arc<Sim>>,
}

impl<'a, G: Game, E: Evaluator<G>> SearchJob<'a, G, E> {
    /// Thread `thread`'s worker, locked for the search.
    pub fn worker(&self, thread: usize) -> MutexGuard<'a, Worker<G>> {
        self.workers[thread]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// When the move time runs out, if the limits give one.
    pub fn deadline(&self) -> Option<Instant> {
        self.limits.movetime.map(|t| self.start + t)
    }

    /// A context for thread `thread`, stopping on the search's flag. Every
    /// thread watches the clock, so the move time holds when thread 0 is off
    /// its core (more threads than cores), and the node limit, which counts
    /// the nodes of all threads.
    pub fn context<'j>(&'j self, thread: usize) -> SearchContext<'j, G, E>
    where
        'a: 'j,
    {
        let mut ctx = SearchContext::new(self.tt, self.eval, self.stop, self.limits.exact);
        ctx.thread = thread;
        ctx.deadline = self.deadline();
        ctx.node_limit = self.limits.nodes;
        ctx.node_count = Some(&self.nodes);
        ctx.sim = self.sim.map(|s| &**s);
        ctx
    }

    /// The time since the search began: on the calling thread's virtual
    /// clock when simulated.
    pub fn elapsed(&self) -> Duration {
        match crate::sim::current(|sim, me| sim.now(me)) {
            Some(ps) if self.sim.is_some() => Duration::from_nanos(ps / 1000),
            _ => self.start.elapsed(),
        }
    }

    /// Charges simulated thread `thread` for the nodes its worker counted
    /// since its last tick (its last nodes come after its last node poll).
    pub fn settle_simulated(&self, thread: usize) {
        if let Some(sim) = self.sim {
            let nodes = self.worker(thread).stats.nodes;
            sim.tick(thread, nodes);
        }
    }

    /// Makes the calling thread simulated thread `thread`, if the search is
    /// simulated, until the returned guard is dropped.
    pub fn simulate(&self, thread: usize) -> Option<Member> {
        self.sim.map(|sim| sim.enter(thread))
    }

    /// The deepest iteration asked for.
    pub fn max_depth(&self) -> i32 {
        self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// How one thread deepens.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DepthPlan {
    /// Added to each iteration's depth (Lazy SMP helpers search ahead).
    pub offset: i32,
}

/// One search of the root moves: the window `(alpha, beta)` and the depth.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootWindow {
    pub alpha: Score,
    pub beta: Score,
    pub depth: i32,
}

/// The root's moves with their scores, best first once searched.
pub(crate) type RootMoves<G> = [RootMove<<G as Game>::Move>];

/// `moves` as root moves, unsearched, in their order.
pub(crate) fn root_moves<M: Copy>(moves: &[M]) -> Vec<RootMove<M>> {
    let unsearched = |&mv| RootMove {
        mv,
        score: -INFINITY,
    };
    moves.iter().map(unsearched).collect()
}

/// A search of the root moves: the recursive search ([`Recursive`]) or DTS's
/// explicit-stack one; [`deepen`] drives either.
pub(crate) trait RootSearch<G: Game> {
    /// Searches `moves` (in their order) as `w` says, moving the best to the
    /// front with its score; the fail-soft score, or `None` if the search was
    /// stopped (void).
    fn search_root(&mut self, root: &G, moves: &mut RootMoves<G>, w: RootWindow) -> Option<Score>;
    /// The worker searching: its PV and counters make the iteration's
    /// result, its timeline records the iteration.
    fn worker(&mut self) -> &mut Worker<G>;
}

/// The recursive search of one worker as a [`RootSearch`].
pub(crate) struct Recursive<'w, 'c, G: Game, E: Evaluator<G>> {
    pub worker: &'w mut Worker<G>,
    pub ctx: &'w SearchContext<'c, G, E>,
}

impl<G: Game, E: Evaluator<G>> RootSearch<G> for Recursive<'_, '_, G, E> {
    fn search_root(&mut self, root: &G, moves: &mut RootMoves<G>, w: RootWindow) -> Option<Score> {
        let RootWindow { alpha, beta, depth } = w;
        let score = self
            .worker
            .search_root(self.ctx, root, moves, alpha, beta, depth);
        (!self.worker.stopped()).then_some(score)
    }

    fn worker(&mut self) -> &mut Worker<G> {
        self.worker
    }
}

/// Iterative deepening on one thread: iterations `1..=max` (or only `max`
/// when the limits ask for a single iteration), each a root search in a full
/// window (exact mode, shallow or decided scores) or an aspiration window.
/// Returns the last completed iteration's result (stats and time are filled
/// in by the caller).
pub(crate) fn deepen<G: Game, E: Evaluator<G>>(
    search: &mut impl RootSearch<G>,
    job: &SearchJob<G, E>,
    plan: DepthPlan,
    on_iteration: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let limits = job.limits;
    let mut root_moves = root_moves(job.root_moves);
    let mut result = SearchResult::empty();
    result.best_move = root_moves.first().map(|r| r.mv);

    let max_depth = job.max_depth();
    let first_depth = if limits.single_iteration {
        max_depth
    } else {
        1
    };
    // The first iteration's guess at its score.
    let mut guess = result.score;
    if limits.single_iteration && (1..max_depth).contains(&limits.presearch) {
        guess = presearch(search, job.root, &mut root_moves, limits.presearch).unwrap_or(guess);
    }
    let mut last_depth = 0;
    for iteration in first_depth..=max_depth {
        let depth = (iteration + plan.offset).min(max_depth);
        if depth == last_depth {
            continue;
        }
        last_depth = depth;
        let since = search.worker().trace_clock();
        if result.depth > 0 {
            guess = result.score;
        }
        let completed = if limits.exact || depth < 4 || is_decisive(guess) {
            let w = RootWindow {
                alpha: -INFINITY,
                beta: INFINITY,
                depth,
            };
            search.search_root(job.root, &mut root_moves, w)
        } else if limits.mtdf {
            mtdf(search, job.root, &mut root_moves, guess, depth)
        } else {
            aspiration(search, job.root, &mut root_moves, guess, depth)
        };
        let label = || format!("depth {depth}");
        let stopped = completed.is_none();
        search
            .worker()
            .trace_span(since, EventKind::Iteration, 0, label, stopped);
        let Some(score) = completed else {
            // A stopped iteration is void, except that when none completed,
            // a fully searched first move is better than nothing.
            if result.depth == 0 && root_moves[0].score > -INFINITY {
                result.best_move = Some(root_moves[0].mv);
                result.score = root_moves[0].score;
            }
            break;
        };
        result.best_move = Some(root_moves[0].mv);
        result.score = score;
        result.depth = depth;
        result.pv = search.worker().pv().to_vec();
        result.stats = search.worker().stats;
        // Every thread's nodes, so that the line's count and speed are the
        // search's, not thread 0's (other threads' last few are not in yet).
        result.stats.nodes = search.worker().count_nodes(&job.nodes);
        result.elapsed = job.elapsed();
        on_iteration(&result);
        // A proven result cannot change with more depth.
        if is_decisive(score) && limits.depth.is_none() && depth > (WIN - score.abs()) {
            break;
        }
    }
    result
}

/// The depths of a presearch to `depth` plies ([`Limits::presearch`]):
/// every other one, of `depth`'s parity, shallowest first: the Othello
/// solver took 997M nodes on FFO #40–#49 instead of 1,047M with every
/// depth, and 49,203M on all of #40–#59 instead of 49,464M, position by
/// position from 30% more to 12% fewer
/// (`docs/lab/2026-12-03-othello-nboard-edax.md`).
///
/// ```
/// use splitpoint::presearch_depths;
/// assert_eq!(presearch_depths(6).collect::<Vec<_>>(), [2, 4, 6]);
/// assert_eq!(presearch_depths(5).collect::<Vec<_>>(), [1, 3, 5]);
/// assert_eq!(presearch_depths(0).count(), 0);
/// ```
pub fn presearch_depths(depth: i32) -> impl Iterator<Item = i32> {
    (2 - depth % 2..=depth).step_by(2)
}

/// Shallow full-window iterations at [`presearch_depths`] (up to
/// [`Limits::presearch`] plies): the table keeps their best moves and the
/// root their order; the root moves' scores are forgotten, so that a search
/// stopped before its deep iteration completes reports none of them. Returns the last completed iteration's
/// score, the deep iteration's first guess.
fn presearch<G: Game>(
    search: &mut impl RootSearch<G>,
    root: &G,
    root_moves: &mut RootMoves<G>,
    depth: i32,
) -> Option<Score> {
    let mut last = None;
    for depth in presearch_depths(depth) {
        let since = search.worker().trace_clock();
        let w = RootWindow {
            alpha: -INFINITY,
            beta: INFINITY,
            depth,
        };
        let score = search.search_root(root, root_moves, w);
        let stopped = score.is_none();
        last = score.or(last);
        let label = || format!("presearch depth {depth}");
        search
            .worker()
            .trace_span(since, EventKind::Iteration, 0, label, stopped);
        if stopped {
            break;
        }
    }
    for r in root_moves.iter_mut() {
        r.score = -INFINITY;
    }
    last
}

/// A root search in a window around the last score, widened on failure;
/// `None` if stopped.
fn aspiration<G: Game>(
    search: &mut impl RootSearch<G>,
    root: &G,
    root_moves: &mut RootMoves<G>,
    guess: Score,
    depth: i32,
) -> Option<Score> {
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = (guess - delta, guess + delta);
    loop {
        let score = search.search_root(root, root_moves, RootWindow { alpha, beta, depth })?;
        if score <= alpha {
            alpha = (alpha - delta).max(-INFINITY);
        } else if score >= beta {
            beta = (beta + delta).min(INFINITY);
        } else {
            return Some(score);
        }
        delta *= 2;
        if delta > 4 * ASPIRATION_WINDOW * 16 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// MTD(f) (Plaat et al.): null-window root searches from `guess`, each
/// moving a bound to the fail-soft score it returns, until the bounds meet;
/// `None` if stopped.
///
/// The root's best move and PV are the last probe's that failed high (it
/// proved a move at least as good as the final lower bound, which is the
/// score); a later probe that failed low leaves its own order and line, so
/// they are put back. A stopped search thereby keeps, in front, a move
/// proven at least as good as the bound found so far.
fn mtdf<G: Game>(
    search: &mut impl RootSearch<G>,
    root: &G,
    root_moves: &mut RootMoves<G>,
    guess: Score,
    depth: i32,
) -> Option<Score> {
    let (mut lower, mut upper, mut score) = (-INFINITY, INFINITY, guess);
    let mut proven: Option<(G::Move, Vec<G::Move>)> = None;
    while lower < upper {
        let beta = if score <= lower {
            lower + 1
        } else {
            score.min(upper)
        };
        let w = RootWindow {
            alpha: beta - 1,
            beta,
            depth,
        };
        let probe = search.search_root(root, root_moves, w);
        if let Some(s) = probe {
            score = s;
            if s >= beta {
                lower = s;
                proven = Some((root_moves[0].mv, search.worker().pv().to_vec()));
                continue;
            }
            upper = s;
        }
        if let Some((mv, pv)) = &proven
            && move_to_front(root_moves, *mv, lower)
        {
            search.worker().set_pv_line(0, pv);
        }
        probe?;
    }
    Some(score)
}

/// Runs `work(thread)` on every thread of the job's pool. If one thread's
/// work panics, the search ends for all: the stop flag is raised and
/// `dismiss` tells waiting threads to leave, so nobody waits for the thread
/// that died (the pool re-raises the panic once every thread is out).
pub(crate) fn on_every_thread<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    dismiss: &(dyn Fn() + Sync),
    work: impl Fn(usize) + Sync,
) {
    job.pool.broadcast(|thread| {
        // Declared first, dropped last: the thread leaves the simulation
        // only after the search has ended for it.
        let _simulated = job.simulate(thread);
        let _end_on_panic = EndOnPanic {
            stop: job.stop,
            dismiss,
        };
        work(thread);
        job.settle_simulated(thread);
    });
}

/// Raises the stop flag and dismisses every thread when dropped during a
/// panic; does nothing on a normal return.
struct EndOnPanic<'a> {
    stop: &'a AtomicBool,
    dismiss: &'a (dyn Fn() + Sync),
}

impl Drop for EndOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.stop.store(true, Relaxed);
            (self.dismiss)();
        }
    }
}

/// The helpers of a "thread 0 leads, the others help" algorithm: what they
/// run, how they are sent home, and the hook every thread's search carries.
/// Each such algorithm is one type implementing this (and, to share nodes,
/// [`NodeHook`]); [`lead_and_help`] runs it.
pub(crate) trait Helpers<G: Game, E: Evaluator<G>>: Sync {
    /// The hook every thread's search calls (none by default).
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        None
    }

    /// A helper thread's work, until dismissed.
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>);

    /// Sends the helpers home: the lead is done, or a thread panicked.
    fn dismiss(&self);
}

/// What the lead thread runs: given its worker, its context (with the
/// algorithm's hook) and the caller's per-iteration callback, a search's
/// result.
pub(crate) type Lead<'f, G, E> = dyn FnOnce(
        &mut Worker<G>,
        &SearchContext<'_, G, E>,
        &mut dyn FnMut(&SearchResult<<G as Game>::Move>),
    ) -> SearchResult<<G as Game>::Move>
    + Send
    + 'f;

/// The one shape of every "thread 0 leads, the others help" algorithm:
/// thread 0 deepens with the recursive search (reporting each iteration) and
/// then dismisses the helpers; threads `1..` help until dismissed. A panic
/// anywhere ends the search for all ([`on_every_thread`]).
pub(crate) fn lead_and_help<G: Game, E: Evaluator<G>>(
    job: &SearchJob<'_, G, E>,
    helpers: &impl Helpers<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let lead: Box<Lead<'_, G, E>> = Box::new(|worker, ctx, report| {
        deepen(
            &mut Recursive { worker, ctx },
            job,
            DepthPlan::default(),
            report,
        )
    });
    lead_with(job, helpers, on_iteration, lead)
}

/// [`lead_and_help`] with thread 0 running `lead` instead (DTS deepens on its
/// explicit stack).
pub(crate) fn lead_with<G: Game, E: Evaluator<G>>(
    job: &SearchJob<'_, G, E>,
    helpers: &impl Helpers<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
    lead: Box<Lead<'_, G, E>>,
) -> SearchResult<G::Move> {
    let lead = Mutex::new(Some((lead, on_iteration)));
    let result = Mutex::new(None);
    on_every_thread(job, &|| helpers.dismiss(), |thread| {
        let mut worker = job.worker(thread);
        let mut ctx = job.context(thread);
        ctx.hook = helpers.hook();
        if thread == 0 {
            let (lead, report) = lock(&lead).take().expect("thread 0 leads once");
            let r = lead(&mut worker, &ctx, report);
            helpers.dismiss();
            *lock(&result) = Some(r);
        } else {
            helpers.help(&mut worker, &ctx);
        }
    });
    result
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("thread 0 reports")
}

/// Locks a mutex that no panic poisons in practice (a panic ends the search).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
