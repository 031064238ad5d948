//! The engine: the public facade that owns the table, the threads and their
//! workers across searches, and starts each search on the chosen algorithm.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use crate::driver::{Limits, SearchJob, SearchResult};
use crate::game::{Evaluator, Game, MoveBuffer};
use crate::parallel::transport::{Slaves, Transport};
use crate::parallel::{self, Algorithm, pv_split};
use crate::pool::WorkerPool;
use crate::search::Worker;
use crate::search::history::SharedHistory;
use crate::sim::{self, Sim, Simulation};
use crate::stats::Stats;
use crate::trace::{Recorder, Trace};
use crate::tt::{TableAllocError, TableKind, TranspositionTable};

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
///
/// ```
/// # use splitpoint::{Evaluator, Game, MoveList, Outcome, Score};
/// # #[derive(Clone)] struct Nim(u8);
/// # impl Game for Nim {
/// #     type Move = u8;
/// #     type Moves = MoveList<u8>;
/// #     fn generate_moves(&self, m: &mut MoveList<u8>) { m.extend(1..=self.0.min(3)) }
/// #     fn play(&self, take: u8) -> Self { Nim(self.0 - take) }
/// #     fn hash(&self) -> u64 { u64::from(self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15) }
/// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
/// #     fn move_key(take: u8) -> u16 { u16::from(take) }
/// # }
/// # struct Even;
/// # impl Evaluator<Nim> for Even { fn evaluate(&self, _: &Nim) -> Score { 0 } }
/// use splitpoint::{Algorithm, Engine, Limits, WIN};
///
/// let mut engine = Engine::new(Even, 16); // a 16 MiB table
/// engine.set_parallelism(Algorithm::Ybw { strong: false }, 2);
/// let r = engine.search(&Nim(9), &Limits::to_depth(12).exact());
/// // Nine stones: take one and leave a multiple of four, a win.
/// assert_eq!(r.best_move, Some(1));
/// assert!(r.score > WIN - 12);
/// ```
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
    /// The history of deep cutoffs, shared by every worker.
    history: Arc<SharedHistory>,
    /// Record each search's thread timeline.
    tracing: bool,
    /// The last search's timeline, when tracing.
    trace: Option<Trace>,
    /// Where PV splitting's slaves live.
    slaves: Slaves<G>,
    /// Simulate every search on virtual processors, so costed.
    simulation: Option<Simulation>,
    /// The last simulated search's report.
    sim_report: Option<sim::Report>,
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
        let history = SharedHistory::new();
        Ok(Engine {
            eval,
            tt: TranspositionTable::try_new(hash_mib)?,
            tt_empty: true,
            stop: Arc::new(AtomicBool::new(false)),
            algorithm: Algorithm::Serial,
            pool: WorkerPool::new(1),
            workers: vec![CachePadded::new(Mutex::new(Worker::with_history(
                Arc::clone(&history),
            )))],
            history,
            tracing: false,
            trace: None,
            slaves: Slaves::default(),
            simulation: None,
            sim_report: None,
        })
    }

    /// Simulates every search from now on (or stops simulating): the
    /// engine's threads become virtual processors running in virtual time,
    /// one at a time (see [`crate::sim`]). The answer, nodes and the
    /// result's `elapsed` (then virtual) are the same on every machine;
    /// [`Engine::simulation_report`] tells where the processors' time went.
    /// pv-split's messages take the latency of [`Slaves::Threads`] in
    /// virtual time; pv-split whose slaves are behind a transport is not
    /// simulated. Thread counts up to [`sim::MAX_PROCESSORS`] make sense
    /// here, whatever the machine's cores.
    ///
    /// ```
    /// # use splitpoint::{Evaluator, Game, MoveList, Outcome, Score};
    /// # #[derive(Clone)] struct Nim(u8);
    /// # impl Game for Nim {
    /// #     type Move = u8;
    /// #     type Moves = MoveList<u8>;
    /// #     fn generate_moves(&self, m: &mut MoveList<u8>) { m.extend(1..=self.0.min(3)) }
    /// #     fn play(&self, take: u8) -> Self { Nim(self.0 - take) }
    /// #     fn hash(&self) -> u64 { u64::from(self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15) }
    /// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
    /// #     fn move_key(take: u8) -> u16 { u16::from(take) }
    /// # }
    /// # struct Even;
    /// # impl Evaluator<Nim> for Even { fn evaluate(&self, _: &Nim) -> Score { 0 } }
    /// use splitpoint::sim::Simulation;
    /// use splitpoint::{Algorithm, Engine, Limits};
    ///
    /// let mut engine = Engine::new(Even, 1);
    /// engine.set_parallelism(Algorithm::Ybw { strong: false }, 16);
    /// engine.set_simulation(Some(Simulation::default()));
    /// let a = engine.search(&Nim(30), &Limits::to_depth(10).exact());
    /// let b = engine.search(&Nim(30), &Limits::to_depth(10).exact());
    /// assert_eq!((a.score, a.stats.nodes, a.elapsed), (b.score, b.stats.nodes, b.elapsed));
    /// assert_eq!(engine.simulation_report().unwrap().processors, 16);
    /// ```
    pub fn set_simulation(&mut self, simulation: Option<Simulation>) {
        self.simulation = simulation;
    }

    /// The last search's simulation report, if it was simulated.
    pub fn simulation_report(&self) -> Option<&sim::Report> {
        self.sim_report.as_ref()
    }

    /// Records the thread timeline of every search from now on (or stops
    /// recording it); [`Engine::take_trace`] hands over the last one.
    pub fn set_trace(&mut self, on: bool) {
        self.tracing = on;
    }

    /// The timeline of the last search, if it was recorded (once).
    pub fn take_trace(&mut self) -> Option<Trace> {
        self.trace.take()
    }

    /// Sets the parallel algorithm and the number of threads (at least 1;
    /// more than the machine has cores is allowed). Threads are started here,
    /// once, and sleep between searches.
    pub fn set_parallelism(&mut self, algorithm: Algorithm, threads: usize) {
        let threads = threads.max(1);
        self.algorithm = algorithm;
        if threads != self.pool.threads() {
            self.pool = WorkerPool::new(threads);
            let history = &self.history;
            self.workers.resize_with(threads, || {
                CachePadded::new(Mutex::new(Worker::with_history(Arc::clone(history))))
            });
        }
    }

    /// Says where PV splitting's slaves live from now on: this engine's
    /// other threads (the default, with an optional message latency), or
    /// behind a transport (other processes, each running [`Engine::serve`],
    /// or a device), this engine's other threads then idle. Other algorithms
    /// ignore it.
    pub fn set_slaves(&mut self, slaves: Slaves<G>) {
        self.slaves = slaves;
    }

    /// Where PV splitting's slaves live.
    pub fn slaves(&self) -> &Slaves<G> {
        &self.slaves
    }

    /// What every search starts with: the stop flag down, the table's
    /// generation advanced, the shared history aged, each worker reset.
    fn begin_search(&mut self) {
        self.stop.store(false, Relaxed);
        self.tt.new_search();
        self.tt_empty = false;
        self.history.age();
        for w in &mut self.workers {
            w.get_mut().unwrap_or_else(|e| e.into_inner()).reset();
        }
    }

    /// Serves, as slave `slave` of the master behind `transport` (another
    /// process's engine, see [`Engine::set_slaves`]), one search: searches
    /// the work it is sent with this engine's table and evaluator, in exact
    /// mode if `exact`, until the master dismisses it. On one thread, or
    /// when the engine's algorithm cannot share a subtree, on its first
    /// thread; else on all its threads, the algorithm sharing each piece of
    /// work among them (see [`Algorithm::shares_subtrees`]). Returns what
    /// its threads counted.
    pub fn serve(&mut self, transport: &dyn Transport<G>, slave: usize, exact: bool) -> Stats {
        self.begin_search();
        if self.workers.len() == 1 || !self.algorithm.shares_subtrees() {
            let worker = self.workers[0].get_mut().unwrap_or_else(|e| e.into_inner());
            let shared = (&self.tt, &self.eval, &*self.stop);
            pv_split::serve(transport, slave, worker, shared, exact);
            return worker.stats;
        }
        let threads = pv_split::RankThreads {
            pool: &self.pool,
            workers: &self.workers,
            tt: &self.tt,
            eval: &self.eval,
            stop: &self.stop,
            algorithm: self.algorithm,
        };
        pv_split::serve_on_threads(transport, slave, &threads, exact);
        self.sum_stats()
    }

    /// Every worker's counters, summed.
    fn sum_stats(&mut self) -> Stats {
        self.workers
            .iter_mut()
            .fold(Stats::default(), |mut sum, w| {
                sum += w.get_mut().unwrap_or_else(|e| e.into_inner()).stats;
                sum
            })
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

    /// Forgets everything learnt (between unrelated positions); a cluster's
    /// slave processes (see [`Engine::set_slaves`]) forget theirs too.
    pub fn clear(&mut self) {
        if let Slaves::Remote(remote) = &self.slaves {
            remote.clear();
        }
        if !self.tt_empty {
            self.tt.clear();
            self.tt_empty = true;
        }
        self.history = SharedHistory::new();
        for w in &mut self.workers {
            *w.get_mut().unwrap_or_else(|e| e.into_inner()) =
                Worker::with_history(Arc::clone(&self.history));
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
        on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move> {
        self.search_among(root, None, limits, on_iteration)
    }

    /// Searches `root` within `limits` as [`Engine::search_with`] does, but
    /// only its moves in `among` when given (UCI's `searchmoves`; MultiPV
    /// searches again without the lines already found). A move of `among`
    /// that is not legal in `root` is left out; with none legal the search
    /// has no move to search, as in a finished game.
    ///
    /// ```
    /// # use splitpoint::{Evaluator, Game, MoveList, Outcome, Score};
    /// # #[derive(Clone)] struct Nim(u8);
    /// # impl Game for Nim {
    /// #     type Move = u8;
    /// #     type Moves = MoveList<u8>;
    /// #     fn generate_moves(&self, m: &mut MoveList<u8>) { m.extend(1..=self.0.min(3)) }
    /// #     fn play(&self, take: u8) -> Self { Nim(self.0 - take) }
    /// #     fn hash(&self) -> u64 { u64::from(self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15) }
    /// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
    /// #     fn move_key(take: u8) -> u16 { u16::from(take) }
    /// # }
    /// # struct Even;
    /// # impl Evaluator<Nim> for Even { fn evaluate(&self, _: &Nim) -> Score { 0 } }
    /// use splitpoint::{Engine, Limits, WIN};
    ///
    /// // Nim, take 1 to 3 of 10, taking the last wins: take 2 (to 8, then
    /// // to 4, then the rest: a win on the fifth ply). Told to take 1 or 3,
    /// // the engine takes one of them, and sees the loss.
    /// let mut engine = Engine::new(Even, 1);
    /// let all = engine.search(&Nim(10), &Limits::to_depth(12));
    /// assert_eq!((all.best_move, all.score), (Some(2), WIN - 5));
    /// let r = engine.search_among(&Nim(10), Some(&[1, 3]), &Limits::to_depth(12), |_| {});
    /// assert!(matches!(r.best_move, Some(1 | 3)) && r.score < 0);
    /// ```
    pub fn search_among(
        &mut self,
        root: &G,
        among: Option<&[G::Move]>,
        limits: &Limits,
        mut on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.begin_search();
        self.sim_report = None;
        for (thread, w) in self.workers.iter_mut().enumerate() {
            let w = w.get_mut().unwrap_or_else(|e| e.into_inner());
            w.trace = self.tracing.then(|| Recorder::new(start, thread));
        }
        self.trace = None;
        if let Some(outcome) = root.outcome() {
            let mut result = SearchResult::empty();
            result.score = self.eval.terminal_score(root, outcome, 0);
            return result;
        }
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        if let Some(among) = among {
            moves.retain(|mv| among.contains(mv));
        }
        self.eval.order_root_moves(root, &mut moves[..]);
        if moves.is_empty() {
            // A game that says it goes on but offers no move (or none of
            // those asked for): nothing to search; its static score is all
            // there is.
            let mut result = SearchResult::empty();
            result.score = self.eval.evaluate(root);
            return result;
        }
        let simulated = match (self.algorithm, &self.slaves) {
            (Algorithm::PvSplit, Slaves::Remote(_)) => None,
            (Algorithm::Serial, _) => self.simulation.map(|c| Sim::new(1, c)),
            _ => self.simulation.map(|c| Sim::new(self.workers.len(), c)),
        };
        let job = SearchJob {
            sim: simulated.as_ref(),
            pool: &self.pool,
            workers: &self.workers,
            tt: &self.tt,
            eval: &self.eval,
            stop: &self.stop,
            root,
            root_moves: &moves,
            limits,
            start,
            nodes: CachePadded::default(),
        };
        let mut result = match self.algorithm {
            // The one algorithm whose work may leave this engine's threads.
            Algorithm::PvSplit => pv_split::search(&job, &self.slaves, &mut on_iteration),
            algorithm => parallel::search(algorithm, &job, &mut on_iteration),
        };
        result.stats = self.sum_stats();
        result.elapsed = start.elapsed();
        if let Some(sim) = &simulated {
            let report = sim.report();
            result.elapsed = Duration::from_secs_f64(report.seconds);
            result.stats.idle_micros = (report.idle_seconds * 1e6) as u64;
            result.stats.wait_micros = (report.wait_seconds * 1e6) as u64;
            self.sim_report = Some(report);
        }
        if self.tracing {
            self.trace = Some(self.collect_trace());
        }
        result
    }

    /// Every worker's timeline, merged by start time.
    fn collect_trace(&mut self) -> Trace {
        let mut trace = Trace {
            threads: self.workers.len(),
            ..Trace::default()
        };
        for w in &mut self.workers {
            if let Some(r) = &mut w.get_mut().unwrap_or_else(|e| e.into_inner()).trace {
                r.drain_into(&mut trace);
            }
        }
        trace.events.sort_by_key(|e| (e.start, e.thread));
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;
    use crate::test_games::{Even, Nim};
    use crate::tt::blocks_allocated;

    /// [`Even`] that puts the root's largest takes first.
    struct LargestFirst;

    impl Evaluator<Nim> for LargestFirst {
        fn evaluate(&self, _: &Nim) -> Score {
            0
        }

        fn order_root_moves(&self, _: &Nim, moves: &mut [u8]) {
            moves.sort_by_key(|&take| std::cmp::Reverse(take));
        }
    }

    #[test]
    fn the_root_is_searched_in_the_evaluators_order() {
        // One ply, every child scored 0: the first move searched keeps the
        // tie, so the best move shows which came first.
        let first = |r: SearchResult<u8>| (r.best_move, r.score);
        let one_ply = Limits::to_depth(1);
        let mut even = Engine::new(Even, 1);
        assert_eq!(first(even.search(&Nim(10), &one_ply)), (Some(1), 0));
        let mut largest = Engine::new(LargestFirst, 1);
        assert_eq!(first(largest.search(&Nim(10), &one_ply)), (Some(3), 0));
        let among = largest.search_among(&Nim(10), Some(&[1, 2]), &one_ply, |_| {});
        assert_eq!(first(among), (Some(2), 0));
    }

    /// Searches Nim(21): the side to move wins (21 is not a multiple of 4).
    fn search_nim(engine: &mut Engine<Nim, Even>) {
        let r = engine.search(&Nim(21), &Limits::to_depth(24));
        assert!(r.score > 0, "{r:?}");
    }

    #[test]
    fn a_game_without_text_forms_names_its_moves_by_debug() {
        let nim = Nim(5);
        assert_eq!(nim.move_text(2), "2");
        assert_eq!(nim.parse_move(" 3 "), Ok(3));
        let err = nim.parse_move("4").expect_err("taking 4 is no legal move");
        assert!(err.to_string().contains("'4' is no legal move"), "{err}");
        assert!(Nim::parse_position("5").is_err());
        assert_eq!(nim.position_text(), "");
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
