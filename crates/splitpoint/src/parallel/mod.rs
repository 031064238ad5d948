//! The parallel algorithms, all behind one [`Algorithm`] choice.
//!
//! Each algorithm is a way of running [`Worker`](crate::search::Worker)s over
//! one shared [`SearchContext`](crate::search::SearchContext): the serial
//! search is the same code, with no hook and one thread. One file per
//! algorithm, each with one entry point: a type the driver's
//! [`lead_and_help`](crate::driver::lead_and_help) runs (its
//! [`Helpers`](crate::driver::Helpers), sharing work through the search's
//! node hook), or a `search` function where the threads take another shape
//! (Lazy SMP, DTS, PV splitting). Where each one splits is in
//! [`thresholds`]. How the threads meet (locks, atomics, memory orderings,
//! why nothing deadlocks) is written down in this module's `README.md`.

use std::fmt;
use std::str::FromStr;

use crate::driver::{
    DepthPlan, Helpers, Recursive, SearchJob, SearchResult, deepen, lead_and_help,
};
use crate::game::{Evaluator, Game};
use abdada::Searching;
use shared_tt::WholeTree;
use split_pool::SplitPool;
use transport::Slaves;

pub(crate) mod abdada;
pub(crate) mod atomic_bits;
pub(crate) mod delay_transport;
pub(crate) mod dts;
pub(crate) mod idle;
pub(crate) mod lazy_smp;
pub(crate) mod pv_split;
pub(crate) mod root_split;
pub(crate) mod shared_node;
pub(crate) mod shared_tt;
pub(crate) mod split_pool;
pub(crate) mod thresholds;
pub(crate) mod transport;
pub(crate) mod wire;
pub(crate) mod wire_transport;
pub(crate) mod workloads;
pub(crate) mod ybw;

/// How the search uses its threads. Every algorithm returns the serial
/// search's score in exact mode, at any thread count.
///
/// ```
/// use splitpoint::Algorithm;
///
/// let dts: Algorithm = "dts".parse().unwrap();
/// assert_eq!(dts, Algorithm::Dts);
/// assert_eq!(Algorithm::Ybw { strong: true }.name(), "ybw-strong");
/// assert!("ybw-weak".parse::<Algorithm>().is_err());
/// assert_eq!(Algorithm::ALL.len(), 11);
/// ```
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

    /// Whether the algorithm can share one subtree among a process's
    /// threads, as a PV-splitting slave process does with each piece of work
    /// ([`Engine::serve`](crate::Engine::serve) on several threads): those
    /// whose lead searches ordinary recursive subtrees and splits inside
    /// them — ybw, ybw-strong, workloads, workloads-shared.
    pub fn shares_subtrees(self) -> bool {
        matches!(self, Algorithm::Ybw { .. } | Algorithm::Workloads { .. })
    }

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

/// The helpers that share a subtree among `threads` threads under
/// `algorithm`, one of those that [`Algorithm::shares_subtrees`].
pub(crate) fn subtree_helpers<G: Game, E: Evaluator<G>>(
    algorithm: Algorithm,
    threads: usize,
) -> Option<Box<dyn Helpers<G, E>>> {
    match algorithm {
        Algorithm::Ybw { strong } => Some(Box::new(SplitPool::new(threads, ybw::scheme(strong)))),
        Algorithm::Workloads { join_taken } => Some(Box::new(SplitPool::new(
            threads,
            workloads::scheme(join_taken),
        ))),
        _ => None,
    }
}

/// Runs `algorithm` on the threads of `job` (`pv-split` with its slaves on
/// the other threads: an engine whose slaves live elsewhere calls
/// [`pv_split::search`] itself).
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    algorithm: Algorithm,
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let threads = job.workers.len();
    match algorithm {
        Algorithm::Serial => {
            let _simulated = job.simulate(0);
            let result = {
                let ctx = job.context(0);
                let worker = &mut job.worker(0);
                let search = &mut Recursive { worker, ctx: &ctx };
                deepen(search, job, DepthPlan::default(), on_iteration)
            };
            job.settle_simulated(0);
            result
        }
        Algorithm::SharedTt => lead_and_help(job, &WholeTree::new(job, None), on_iteration),
        Algorithm::LazySmp => lazy_smp::search(job, on_iteration),
        Algorithm::RootSplit => lead_and_help(
            job,
            &SplitPool::new(threads, root_split::scheme()),
            on_iteration,
        ),
        Algorithm::Ybw { strong } => lead_and_help(
            job,
            &SplitPool::new(threads, ybw::scheme(strong)),
            on_iteration,
        ),
        Algorithm::Dts => dts::search(job, on_iteration),
        Algorithm::Abdada => {
            let searching = Searching::new();
            lead_and_help(job, &WholeTree::new(job, Some(&searching)), on_iteration)
        }
        Algorithm::Workloads { join_taken } => lead_and_help(
            job,
            &SplitPool::new(threads, workloads::scheme(join_taken)),
            on_iteration,
        ),
        Algorithm::PvSplit => pv_split::search(job, &Slaves::default(), on_iteration),
    }
}
