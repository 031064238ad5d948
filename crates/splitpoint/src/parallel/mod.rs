//! The parallel algorithms, all behind one [`Algorithm`] choice.
//!
//! Each algorithm is a way of running [`Worker`](crate::search::Worker)s over
//! one shared [`SearchContext`](crate::search::SearchContext): the serial
//! search is the same code, with no splitter and one thread. How the threads
//! meet (locks, atomics, memory orderings, why nothing deadlocks) is written
//! down in this module's `README.md`.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;

use crate::engine::{DepthPlan, Run, SearchResult, deepen};
use crate::game::{Evaluator, Game};

pub(crate) mod abdada;
pub(crate) mod dts;
pub(crate) mod hook;
pub(crate) mod idle;
pub(crate) mod pool;
pub(crate) mod pv_split;
pub(crate) mod splitter;
pub(crate) mod transport;
pub(crate) mod workloads;

use splitter::{SplitRules, Splitter};

/// How the search uses its threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// One thread: iterative-deepening PVS, the reference.
    Serial,
    /// Every thread searches the whole tree; they meet only in the shared
    /// transposition table. Thread 0 alone decides.
    SharedTt,
    /// Shared table plus diversity: helpers search one ply deeper on
    /// alternate threads; the deepest completed result wins, ties by vote.
    LazySmp,
    /// The root's moves are shared out once the first is searched; alpha at
    /// the root is shared.
    RootSplit,
    /// Young Brothers Wait: any node may split once its eldest brother is
    /// searched; `strong` makes expected CUT nodes also search their promising
    /// moves first. The master helps its helpers when its moves run out.
    Ybw {
        /// Strong YBW (else weak).
        strong: bool,
    },
    /// Dynamic Tree Splitting: an iterative search whose node states any
    /// thread can take over; idle threads choose where to split among the
    /// states busy threads publish, and the last thread at a split point
    /// carries on above it.
    Dts,
    /// ABDADA: every thread searches the whole tree and defers the moves
    /// another thread is searching, coming back to them in a second pass.
    Abdada,
    /// Workloads (publish/subscribe): a node publishes its remaining moves in
    /// a global table of `2 × threads` slots once its first move is searched;
    /// idle threads scan the table, attach and take moves; a cutoff changes
    /// the workload's id and everyone under it drops out.
    Workloads {
        /// When every open workload already has a subscriber, idle threads
        /// join one (several per workload) instead of waiting.
        join_taken: bool,
    },
    /// Principal-variation splitting, master/slave by messages: the master
    /// searches the leftmost branch, then sends the remaining moves of each PV
    /// node to slaves and broadcasts every new bound, which they adopt.
    PvSplit,
}

impl Algorithm {
    /// Every algorithm, in the order tables list them.
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Serial,
        Algorithm::SharedTt,
        Algorithm::LazySmp,
        Algorithm::RootSplit,
        Algorithm::Ybw { strong: false },
        Algorithm::Ybw { strong: true },
        Algorithm::Dts,
        Algorithm::Abdada,
        Algorithm::Workloads { join_taken: false },
        Algorithm::Workloads { join_taken: true },
        Algorithm::PvSplit,
    ];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Serial => "serial",
            Algorithm::SharedTt => "shared-tt",
            Algorithm::LazySmp => "lazy-smp",
            Algorithm::RootSplit => "root-split",
            Algorithm::Ybw { strong: false } => "ybw",
            Algorithm::Ybw { strong: true } => "ybw-strong",
            Algorithm::Dts => "dts",
            Algorithm::Workloads { join_taken: false } => "workloads",
            Algorithm::Workloads { join_taken: true } => "workloads-shared",
            Algorithm::Abdada => "abdada",
            Algorithm::PvSplit => "pv-split",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown algorithm '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// Locks a mutex that no panic ever poisons in practice.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Ends the search for every thread if the job of the thread holding it
/// panics: raises the search's stop flag and runs `finish`, so that no thread
/// waits for the one that died (the pool re-raises the panic once all are
/// out). On a normal return it does nothing.
pub(crate) struct EndOnPanic<'a> {
    pub stop: &'a std::sync::atomic::AtomicBool,
    pub finish: &'a dyn Fn(),
}

impl Drop for EndOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.stop.store(true, Relaxed);
            (self.finish)();
        }
    }
}

/// Split rules of YBW: split anywhere two plies or more from the horizon.
const YBW_RULES: SplitRules = SplitRules {
    min_depth: 4,
    min_moves_left: 1,
    strong: false,
    max_ply: usize::MAX,
};
/// Root splitting: YBW's machinery, splitting at the root only.
const ROOT_RULES: SplitRules = SplitRules {
    min_depth: 1,
    min_moves_left: 1,
    strong: false,
    max_ply: 0,
};

/// Runs `algorithm` on the threads of `run`.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    algorithm: Algorithm,
    run: &Run<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    match algorithm {
        Algorithm::Serial => {
            let ctx = run.context(0);
            deepen(
                &mut run.worker(0),
                &ctx,
                run,
                DepthPlan::default(),
                on_iteration,
            )
        }
        Algorithm::SharedTt => whole_tree(run, None, on_iteration),
        Algorithm::Abdada => whole_tree(run, Some(&abdada::Searching::new()), on_iteration),
        Algorithm::LazySmp => lazy_smp(run, on_iteration),
        Algorithm::RootSplit => split_search(run, ROOT_RULES, on_iteration),
        Algorithm::Ybw { strong } => split_search(
            run,
            SplitRules {
                strong,
                ..YBW_RULES
            },
            on_iteration,
        ),
        Algorithm::Dts => dts::search(run, on_iteration),
        Algorithm::Workloads { join_taken } => workloads::search(run, join_taken, on_iteration),
        Algorithm::PvSplit => pv_split::search(run, on_iteration),
    }
}

/// Every thread deepens over the whole tree; thread 0 reports and the others
/// stop when it is done. They help only through the table (`shared-tt`) and,
/// with a hook, through what it shares (ABDADA's table of searched positions).
fn whole_tree<G: Game, E: Evaluator<G>>(
    run: &Run<G, E>,
    hook: Option<&dyn hook::NodeHook<G, E>>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let main = Mutex::new(on_iteration);
    let result = Mutex::new(None);
    // Everyone watches the search's own flag, so that a user's stop reaches
    // every thread at once (not through thread 0, which may be off its core);
    // thread 0 raises it when it is done, to end the helpers' deepening.
    run.pool.broadcast(|thread| {
        let _end_on_panic = EndOnPanic {
            stop: run.stop,
            finish: &|| {},
        };
        let mut worker = run.worker(thread);
        let mut ctx = run.context(thread);
        ctx.hook = hook;
        if thread == 0 {
            let r = deepen(
                &mut worker,
                &ctx,
                run,
                DepthPlan::default(),
                &mut **lock(&main),
            );
            run.stop.store(true, Relaxed);
            *lock(&result) = Some(r);
        } else {
            deepen(&mut worker, &ctx, run, DepthPlan::default(), &mut |_| {});
        }
    });
    result
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("thread 0 reports")
}

/// Every thread deepens, odd helpers one ply ahead; the first to finish the
/// last iteration stops the rest. The result is the deepest completed
/// iteration; between threads at that depth the best move most of them chose
/// (then the lowest thread) wins.
fn lazy_smp<G: Game, E: Evaluator<G>>(
    run: &Run<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let main = Mutex::new(on_iteration);
    let results: Vec<Mutex<Option<SearchResult<G::Move>>>> =
        (0..run.workers.len()).map(|_| Mutex::new(None)).collect();
    run.pool.broadcast(|thread| {
        let _end_on_panic = EndOnPanic {
            stop: run.stop,
            finish: &|| {},
        };
        let mut worker = run.worker(thread);
        let ctx = run.context(thread);
        let plan = DepthPlan {
            offset: (thread % 2) as i32,
        };
        let r = if thread == 0 {
            deepen(&mut worker, &ctx, run, plan, &mut **lock(&main))
        } else {
            deepen(&mut worker, &ctx, run, plan, &mut |_| {})
        };
        if r.depth == run.max_depth() {
            run.stop.store(true, Relaxed);
        }
        *lock(&results[thread]) = Some(r);
    });
    let results: Vec<SearchResult<G::Move>> = results
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let deepest = results.iter().map(|r| r.depth).max().unwrap_or(0);
    let at_depth: Vec<&SearchResult<G::Move>> =
        results.iter().filter(|r| r.depth == deepest).collect();
    let votes = |mv: &Option<G::Move>| at_depth.iter().filter(|r| &r.best_move == mv).count();
    // `max_by_key` keeps the last maximum: scan in reverse so the lowest thread wins ties.
    let chosen = at_depth
        .iter()
        .rev()
        .max_by_key(|r| votes(&r.best_move))
        .expect("thread 0 reports");
    (*chosen).clone()
}

/// Thread 0 deepens with a splitter; the others serve its split points.
fn split_search<G: Game, E: Evaluator<G>>(
    run: &Run<G, E>,
    rules: SplitRules,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let splitter = Splitter::new(run.workers.len(), rules);
    let main = Mutex::new(on_iteration);
    let result = Mutex::new(None);
    run.pool.broadcast(|thread| {
        let _end_on_panic = EndOnPanic {
            stop: run.stop,
            finish: &|| splitter.finish(),
        };
        let mut worker = run.worker(thread);
        let mut ctx = run.context(thread);
        ctx.hook = Some(&splitter);
        if thread == 0 {
            let r = deepen(
                &mut worker,
                &ctx,
                run,
                DepthPlan::default(),
                &mut **lock(&main),
            );
            splitter.finish();
            *lock(&result) = Some(r);
        } else {
            splitter.helper_loop(&mut worker, &ctx);
        }
    });
    result
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("thread 0 reports")
}
