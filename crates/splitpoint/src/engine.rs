//! The engine facade: limits, iterative deepening, a stop handle, the result.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use std::sync::{Mutex, MutexGuard};

use crossbeam_utils::CachePadded;

use crate::game::{Evaluator, Game, MAX_PLY, MoveList};
use crate::parallel::{self, Algorithm, pool::WorkerPool};
use crate::score::{INFINITY, Score, is_decisive};
use crate::search::{RootMove, SearchContext, Worker};
use crate::stats::Stats;
use crate::tt::{TableAllocError, TableKind, TranspositionTable};

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

/// A search engine for one game and evaluator: owns the transposition table,
/// the worker threads and their state, reused across searches.
pub struct Engine<G: Game, E: Evaluator<G>> {
    eval: E,
    tt: TranspositionTable,
    /// Whether the table is known to be empty (nothing searched since it was
    /// allocated or cleared), so that a clear can skip writing it.
    tt_empty: bool,
    stop: Arc<AtomicBool>,
    algorithm: Algorithm,
    pool: WorkerPool,
    /// One per thread; thread `i` locks `workers[i]` for a whole search.
    /// Padded to a cache line each: every node bumps a worker's counters, and
    /// two workers sharing a line would make every node a cache miss.
    workers: Vec<CachePadded<Mutex<Worker<G>>>>,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    /// A serial engine with a transposition table of `hash_mib` MiB.
    ///
    /// # Panics
    /// If the table cannot be allocated; [`Engine::try_new`] returns the
    /// error instead.
    pub fn new(eval: E, hash_mib: usize) -> Self {
        Self::try_new(eval, hash_mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A serial engine with a transposition table of `hash_mib` MiB, the
    /// only table it allocates until [`Engine::set_hash`] asks for another
    /// size. The table is zeroed lazily by the operating system, so even a
    /// large one is ready at once.
    ///
    /// # Errors
    /// [`TableAllocError`] when the table cannot be allocated.
    pub fn try_new(eval: E, hash_mib: usize) -> Result<Self, TableAllocError> {
        Ok(Engine {
            eval,
            tt: TranspositionTable::try_new(hash_mib)?,
            tt_empty: true,
            stop: Arc::new(AtomicBool::new(false)),
            algorithm: Algorithm::Serial,
            pool: WorkerPool::new(1),
            workers: vec![CachePadded::new(Mutex::new(Worker::new()))],
        })
    }

    /// Sets the parallel algorithm and the number of threads (at least 1;
    /// more than the machine has cores is allowed). Threads are started here,
    /// once, and sleep between searches.
    pub fn set_parallelism(&mut self, algorithm: Algorithm, threads: usize) {
        let threads = threads.max(1);
        self.algorithm = algorithm;
        if threads != self.pool.threads() {
            self.pool = WorkerPool::new(threads);
            self.workers
                .resize_with(threads, || CachePadded::new(Mutex::new(Worker::new())));
        }
    }

    /// The parallel algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Resizes the transposition table to `hash_mib` MiB, keeping its kind;
    /// the entries are lost.
    ///
    /// A new table is zeroed lazily (fresh pages from the operating system),
    /// so it costs address space, not memory, until searches write it. Hence
    /// the order, which keeps a working table whatever happens and never has
    /// more than one table's worth of memory resident:
    /// 1. The new table is allocated while the old one lives. This is the
    ///    usual case, and when it fails nothing has changed.
    /// 2. If that fails, the old table is freed and the new one tried again:
    ///    under a limit on address space or committed memory, it may fit
    ///    alone where it did not fit beside the old one.
    /// 3. If that fails too, a table of the old size is allocated again (its
    ///    memory was just given back) and the error returned: the engine
    ///    goes on with an empty table of the old size. Should even that fail,
    ///    it goes on with the smallest table, one bucket.
    ///
    /// # Errors
    /// [`TableAllocError`] when a table of `hash_mib` MiB cannot be allocated.
    pub fn set_hash(&mut self, hash_mib: usize) -> Result<(), TableAllocError> {
        let kind = self.tt.kind();
        let old_mib = self.tt.mib();
        let result = match TranspositionTable::try_with_kind(hash_mib, kind) {
            Ok(table) => {
                self.tt = table;
                Ok(())
            }
            Err(_) => {
                // Free the old table first: replace it with the smallest one.
                self.tt = TranspositionTable::with_kind(0, kind);
                match TranspositionTable::try_with_kind(hash_mib, kind) {
                    Ok(table) => {
                        self.tt = table;
                        Ok(())
                    }
                    Err(e) => {
                        if let Ok(table) = TranspositionTable::try_with_kind(old_mib, kind) {
                            self.tt = table;
                        }
                        Err(e)
                    }
                }
            }
        };
        self.tt_empty = true;
        result
    }

    /// Makes the table lockless (the default) or locked. Allocates no table
    /// (only the lock stripes of a locked one) and keeps the entries: both
    /// kinds lay them out alike.
    pub fn set_table_kind(&mut self, kind: TableKind) {
        self.tt.set_kind(kind);
    }

    /// The transposition table's size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The transposition table's kind.
    pub fn table_kind(&self) -> TableKind {
        self.tt.kind()
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// A handle that stops the running search.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Forgets everything learnt (between unrelated positions).
    pub fn clear(&mut self) {
        if !self.tt_empty {
            self.tt.clear();
            self.tt_empty = true;
        }
        for w in &mut self.workers {
            *w.get_mut().unwrap_or_else(|e| e.into_inner()) = Worker::new();
        }
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
        mut on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.stop.store(false, Relaxed);
        self.tt.new_search();
        self.tt_empty = false;
        for w in &mut self.workers {
            w.get_mut().unwrap_or_else(|e| e.into_inner()).reset();
        }
        if let Some(outcome) = root.outcome() {
            let mut result = SearchResult::empty();
            result.score = self.eval.terminal_score(root, outcome, 0);
            return result;
        }
        let mut moves = MoveList::new();
        root.generate_moves(&mut moves);
        if moves.is_empty() {
            // A game that says it goes on but offers no move: nothing to
            // search; its static score is all there is.
            let mut result = SearchResult::empty();
            result.score = self.eval.evaluate(root);
            return result;
        }
        let run = Run {
            pool: &self.pool,
            workers: &self.workers,
            tt: &self.tt,
            eval: &self.eval,
            stop: &self.stop,
            root,
            limits,
            start,
        };
        let mut result = parallel::search(self.algorithm, &run, &mut on_iteration);
        result.stats = self
            .workers
            .iter_mut()
            .fold(Stats::default(), |mut sum, w| {
                sum += w.get_mut().unwrap_or_else(|e| e.into_inner()).stats;
                sum
            });
        result.elapsed = start.elapsed();
        result
    }
}

impl<M> SearchResult<M> {
    fn empty() -> Self {
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

/// Everything one search lends its threads.
pub(crate) struct Run<'a, G: Game, E: Evaluator<G>> {
    pub pool: &'a WorkerPool,
    pub workers: &'a [CachePadded<Mutex<Worker<G>>>],
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    /// The user's stop flag, also raised by the limits.
    pub stop: &'a AtomicBool,
    pub root: &'a G,
    pub limits: &'a Limits,
    pub start: Instant,
}

impl<'a, G: Game, E: Evaluator<G>> Run<'a, G, E> {
    /// Thread `thread`'s worker, locked for the search.
    pub fn worker(&self, thread: usize) -> MutexGuard<'a, Worker<G>> {
        self.workers[thread]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// A context for thread `thread`, stopping on the search's flag. Every
    /// thread watches the clock, so the move time holds when thread 0 is off
    /// its core (more threads than cores); the node limit counts thread 0's
    /// nodes only, so it is thread 0's alone.
    pub fn context(&self, thread: usize) -> SearchContext<'a, G, E> {
        let mut ctx = SearchContext::new(self.tt, self.eval, self.stop, self.limits.exact);
        ctx.thread = thread;
        ctx.deadline = self.limits.movetime.map(|t| self.start + t);
        if thread == 0 {
            ctx.node_limit = self.limits.nodes;
        }
        ctx
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

/// Iterative deepening on one thread: iterations `1..=max` (or only `max`
/// when the limits ask for a single iteration), each a root search in a full
/// window (exact mode, shallow or decided scores) or an aspiration window.
/// Returns the last completed iteration's result (stats and time are filled
/// in by the caller).
pub(crate) fn deepen<G: Game, E: Evaluator<G>>(
    worker: &mut Worker<G>,
    ctx: &SearchContext<G, E>,
    run: &Run<G, E>,
    plan: DepthPlan,
    on_iteration: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let limits = run.limits;
    let mut moves = MoveList::new();
    run.root.generate_moves(&mut moves);
    let mut root_moves: Vec<RootMove<G::Move>> = moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INFINITY,
        })
        .collect();
    let mut result = SearchResult::empty();
    result.best_move = root_moves.first().map(|r| r.mv);

    let max_depth = run.max_depth();
    let first_depth = if limits.single_iteration {
        max_depth
    } else {
        1
    };
    let mut last_depth = 0;
    for iteration in first_depth..=max_depth {
        let depth = (iteration + plan.offset).min(max_depth);
        if depth == last_depth {
            continue;
        }
        last_depth = depth;
        let score = if limits.exact || depth < 4 || is_decisive(result.score) {
            worker.search_root(ctx, run.root, &mut root_moves, -INFINITY, INFINITY, depth)
        } else {
            aspiration(worker, ctx, run.root, &mut root_moves, result.score, depth)
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
        result.elapsed = run.start.elapsed();
        on_iteration(&result);
        // A proven result cannot change with more depth.
        if is_decisive(score) && limits.depth.is_none() && depth > (crate::score::WIN - score.abs())
        {
            break;
        }
    }
    result
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, ParseError};
    use crate::tt::blocks_allocated;

    /// Nim: take one, two or three stones; whoever cannot move loses.
    #[derive(Clone, Debug)]
    struct Nim(u8);

    impl Game for Nim {
        type Move = u8;
        fn generate_moves(&self, moves: &mut MoveList<u8>) {
            for take in 1..=self.0.min(3) {
                moves.push(take);
            }
        }
        fn play(&self, take: u8) -> Self {
            Nim(self.0 - take)
        }
        fn hash(&self) -> u64 {
            (self.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.0 == 0).then_some(Outcome::Loss)
        }
        fn move_key(take: u8) -> u16 {
            take as u16
        }
        fn parse_position(text: &str) -> Result<Self, ParseError> {
            text.parse().map(Nim).map_err(|_| ParseError::new("stones"))
        }
        fn position_text(&self) -> String {
            self.0.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
            text.parse().map_err(|_| ParseError::new("take"))
        }
        fn move_text(&self, take: u8) -> String {
            take.to_string()
        }
    }

    struct Even;

    impl Evaluator<Nim> for Even {
        fn evaluate(&self, _: &Nim) -> Score {
            0
        }
    }

    /// Searches Nim(21): the side to move wins (21 is not a multiple of 4).
    fn search_nim(engine: &mut Engine<Nim, Even>) {
        let r = engine.search(&Nim(21), &Limits::to_depth(24));
        assert!(r.score > 0, "{r:?}");
    }

    #[test]
    fn an_engine_allocates_its_table_once() {
        // The counter is per thread, so other tests do not disturb it.
        let start = blocks_allocated();
        // Below the size whose clear trades blocks (see `TranspositionTable::clear`).
        let mut engine = Engine::new(Even, 32);
        assert_eq!(blocks_allocated() - start, 1, "Engine::new");
        // What the command line and the bench do next.
        engine.set_table_kind(TableKind::Locked);
        engine.set_parallelism(Algorithm::Serial, 1);
        engine.clear();
        search_nim(&mut engine);
        engine.clear();
        engine.set_table_kind(TableKind::Lockless);
        search_nim(&mut engine);
        assert_eq!(blocks_allocated() - start, 1, "a second table was built");
        assert_eq!(engine.table_bytes(), 32 << 20);
        // A new size is one more table, and only one.
        engine.set_hash(16).unwrap();
        assert_eq!(blocks_allocated() - start, 2);
        assert_eq!(engine.table_bytes(), 16 << 20);
        search_nim(&mut engine);
    }

    #[test]
    fn a_table_that_cannot_be_allocated_is_an_error_and_the_engine_goes_on() {
        // `black_box`: an engine that is never used may be optimised away,
        // its allocation with it, and then "succeed".
        use std::hint::black_box;
        assert_eq!(
            black_box(Engine::<Nim, Even>::try_new(Even, usize::MAX / 2)).err(),
            Some(TableAllocError {
                mib: usize::MAX / 2
            })
        );
        assert!(black_box(Engine::<Nim, Even>::try_new(Even, 1 << 40)).is_err());

        let mut engine = Engine::new(Even, 4);
        engine.set_table_kind(TableKind::Locked);
        search_nim(&mut engine);
        for huge in [1 << 40, usize::MAX / 2] {
            assert_eq!(engine.set_hash(huge), Err(TableAllocError { mib: huge }));
            // The old size and kind, working.
            assert_eq!(engine.table_bytes(), 4 << 20);
            assert_eq!(engine.table_kind(), TableKind::Locked);
            search_nim(&mut engine);
        }
    }
}
