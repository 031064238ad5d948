//! Principal-variation splitting, master/slave, by messages.
//!
//! Thread 0 is the **master**: it runs the ordinary iterative-deepening search
//! with this module as its [`NodeHook`]. Threads `1..N` are **slaves** (slave
//! `i` is thread `i + 1`): they wait for orders, search what they are sent with
//! their own [`Worker`], and send the result back. All talk goes through a
//! [`Transport`] of plain-data messages, so the same logic can later run over
//! MPI (a distributed version would lose the shared transposition table, which
//! slaves here still use to order moves; nothing else is shared).
//!
//! # The protocol
//!
//! - **Leftmost branch first.** The master's search reaches the first leaf by
//!   the PV nodes' first moves, serially; only then, on the way back up, does
//!   a node offer its remaining moves ([`NodeHook::try_split`] is called after
//!   the eldest brother). So every slave gets a real bound.
//! - **Split at PV nodes.** A node whose *entry* type is PV and whose depth is
//!   at least [`PV_SPLIT_MIN_DEPTH`] becomes a **frame**: its remaining moves, best key
//!   first, are queued. Every free slave is sent one move as [`Order::Work`]
//!   (the child position, the node's depth, ply, alpha and beta, a work id and
//!   the frame id). While moves remain and no slave is free, the master
//!   searches the next one itself; when none remain it blocks on the
//!   transport until the results are in. Work is handed out whenever the
//!   master looks at its messages — in this loop, and every [`POLL_EVERY`]
//!   nodes of its own search (`aborted(0)`) — so slaves are kept busy while
//!   the master searches.
//! - **A slave searches a move** as the serial move loop searches a young
//!   brother: a null window at alpha and, if that fails high below beta, a
//!   full-window re-search; it answers with a [`Report`]: the fail-soft score,
//!   the alpha it finally used, and its PV.
//! - **Results.** The master folds each report into its frame: a score ≥ beta
//!   is a cutoff; a score above the frame's alpha is exact (see below) and
//!   raises alpha, best move and PV; anything else only raises the fail-soft
//!   best. When alpha rises the master sends [`Order::Bound`] to every slave
//!   working on that frame.
//! - **Adopting a bound.** A slave reads its messages every [`POLL_EVERY`]
//!   nodes (its `aborted` check). A bound above the alpha it searches with
//!   makes it abandon the search at the next node and start the move again
//!   with the new alpha: the recursive search keeps its window in its frames,
//!   so restarting is how a new root window is adopted. The abandoned nodes
//!   store nothing in the table, and what the table learnt before (move
//!   ordering; in normal mode, bounds) makes the restart cheap. A bound for a
//!   frame the slave has no work of yet is remembered and applied when work
//!   for that frame arrives (messages may overtake each other).
//! - **Stopping.** On a cutoff the master sends [`Order::Stop`] for the frame
//!   to its slaves, returns the cutoff at once, and ignores their late
//!   reports. When a frame is abandoned (a cutoff further up, or the user's
//!   stop) the same happens. At the end of the search [`Order::Quit`]
//!   dismisses every slave.
//!
//! Nested frames: a full-window re-search the master does itself enters PV
//! nodes, which may split again. Frames form a stack (the master's recursion);
//! reports name their work, work names its frame, so a report for an outer
//! frame arriving during an inner one is folded into the outer frame. A
//! cutoff at an outer frame makes `aborted(0)` true, so the master's own
//! search unwinds through the inner frames (each abandons its work) to the
//! cut frame, which returns the cutoff.
//!
//! # Why the score is exact
//!
//! Write `v(m)` for the negamax value of move `m` from the split node's view.
//! A completed search of `m` in window `(a, b)` returns, as serial fail-soft
//! alpha-beta does, `s` with: `s ≤ a ⇒ v(m) ≤ s`; `a < s < b ⇒ v(m) = s`;
//! `s ≥ b ⇒ v(m) ≥ s`. Every report is of that kind for `b` = the frame's beta
//! and `a` = the alpha the slave used, which is the frame's alpha at some
//! earlier moment — alphas only rise, and a slave adopts only alphas the master
//! sent — so `a ≤` the frame's alpha when the report is folded in. Hence:
//! `s ≥ beta` proves `v(node) ≥ s ≥ beta` (a sound cutoff, as serially); `s >`
//! the frame's alpha `≥ a` with `s < beta` is exact, so raising alpha to it is
//! what the serial loop does; otherwise `v(m) ≤ s ≤` alpha, which the fail-soft
//! best records. A frame returns only when every move has such a completed
//! result (stopped searches are void: the worker's `stopped` flag discards
//! them, they store nothing in the table, and their move is searched again or
//! the frame is abandoned with its caller's result void too). Then `best` is
//! the maximum of the moves' fail-soft results, exact if above the node's
//! original alpha and below beta — the same contract the serial move loop
//! fulfils — and the node's own table entry is computed from it as serially.
//! By induction up the master's recursion the root, searched with the full
//! window in exact mode, gets its negamax value, and the best move named is a
//! move whose exact value it is. The order in which results arrive, and
//! whether a slave adopted a bound or not, change how much is searched, never
//! this contract, which is why delayed and reordered messages are harmless.
//!
//! Adopting a raised alpha `a' > a` in a slave is sound because the frame's
//! answer for `m` only matters relative to the frame's current alpha: a fail
//! low at `a'` still proves `v(m) ≤` alpha, an exact score above `a'` is
//! exact. The work would become *irrelevant* only if `a' ≥ beta` — but the
//! master never broadcasts such an alpha: a score reaching beta is a cutoff,
//! and the cut frame's slaves are told to stop instead.
//!
//! # Who may change what
//!
//! | state | written by | read by |
//! | --- | --- | --- |
//! | frames, in-flight table, ids, cut level (`Master`, under its mutex) | thread 0 only | thread 0 only |
//! | `cut`, `active`, `tick` (atomics, mirrors for the per-node check) | thread 0 only | thread 0 only |
//! | a slave's `abort` (atomic) and memo (mutex) | that slave only | that slave only |
//! | messages | sender | receiver, by value |
//!
//! The mutexes exist only because `aborted(&self)` reaches state through a
//! shared reference; each is locked by one thread ever, never across a
//! search call, so it is never contended. Threads share nothing mutable but
//! the transport (and, in-process, the table and the stop flag).
//!
//! # Why nothing deadlocks
//!
//! A slave never waits for anyone but its inbox, and answers every piece of
//! work it receives exactly once (finished or abandoned), after a finite
//! search. The master blocks only in a frame with work in flight, and then
//! only in slices of [`WAIT`], looking at the stop flag and the clock on
//! every pass; every in-flight piece is eventually delivered (the transport's
//! contract), searched or stopped, and answered. The master never waits for
//! its own frames' ancestors: it leaves a frame only when the frame is done
//! or abandoned. At the end `Quit` is sent to every slave (also if the master
//! panics); a slave reads it between searches or, within [`POLL_EVERY`]
//! nodes, in the middle of one. Idle slaves block on their channel.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use crate::sim::transport::SimTransport;

use crossbeam_utils::CachePadded;

use crate::driver::{Helpers, SearchJob, SearchResult, lead_and_help, lock};
use crate::game::{Evaluator, Game};
use crate::node::NodeType;
use crate::parallel::delay_transport::DelayTransport;
use crate::parallel::shared_node::{Merged, SharedResult};
use crate::parallel::thresholds::PV_SPLIT_MIN_DEPTH;
use crate::parallel::transport::{
    ChannelTransport, FrameId, Order, Report, Slaves, Transport, Work, WorkId,
};
use crate::score::Score;
use crate::search::hook::{NodeHook, Split, SplitNode};
use crate::search::{SearchContext, Worker};
use crate::trace::EventKind;
use crate::tt::TranspositionTable;

mod master;
mod slave;

pub(crate) use slave::{RankThreads, serve, serve_on_threads};

/// Master and slaves read their messages once per this many nodes.
pub const POLL_EVERY: u32 = 64;

/// Counts a searcher's nodes between looks at its messages (only its own
/// thread touches it: relaxed, a load and a store).
struct PollClock(AtomicU32);

impl PollClock {
    fn new() -> Self {
        PollClock(AtomicU32::new(0))
    }

    /// Counts a node; true once every [`POLL_EVERY`] nodes.
    #[inline]
    fn due(&self) -> bool {
        let t = self.0.load(Relaxed).wrapping_add(1);
        self.0.store(t, Relaxed);
        t % POLL_EVERY == 0
    }
}
/// The master's blocking waits last at most this long, between looks at the
/// stop flag and the clock.
pub const WAIT: Duration = Duration::from_millis(2);
/// An idle slave's blocking waits (it only ever wakes for a message).
const SLAVE_WAIT: Duration = Duration::from_millis(100);
/// A slave forgets remembered bounds and stopped frames past this many.
const MEMO_LIMIT: usize = 4096;
/// Whether the master searches moves itself while every slave is busy
/// (else it only waits).
const MASTER_WORKS: bool = true;
/// Whether slaves adopt broadcast bounds (else they finish with the alpha
/// they were sent, which is as exact but searches more).
const ADOPT_BOUNDS: bool = true;

/// Why a slave's search was abandoned (ordered: the larger wins).
const GO_ON: u8 = 0;
const RESTART: u8 = 1;
const STOP: u8 = 2;
const QUIT: u8 = 3;

/// A slave's piece of work, as the master tracks it.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    id: WorkId,
    frame: FrameId,
    /// The move's index in its frame.
    index: usize,
}

/// A split PV node: its moves and what their results say so far.
struct SharedPvNode<G: Game> {
    id: FrameId,
    pos: G,
    depth: i32,
    ply: usize,
    /// Alpha (what new work is sent with), the fail-soft best over completed
    /// results and the moves before the split, the move that raised alpha
    /// and its line.
    result: SharedResult<G::Move>,
    moves: Vec<G::Move>,
    /// Indices of moves not yet handed out, next first.
    queue: VecDeque<usize>,
    /// Slaves' pieces of work here still unanswered.
    in_flight: usize,
    /// A move reached beta.
    cut: bool,
}

/// The master's state: thread 0's alone.
struct Master<G: Game> {
    /// The split nodes on the master's current path, outermost first.
    frames: Vec<SharedPvNode<G>>,
    /// Each slave's unanswered work; a slave with none is free.
    slaves: Vec<Option<InFlight>>,
    next_frame: FrameId,
    next_work: WorkId,
    /// The outermost frame that was cut and has not returned yet.
    cut_level: Option<usize>,
    /// Cutoffs and bound broadcasts (with their frame's ply) not yet put in
    /// the master's timeline: they happen where no worker is at hand.
    marks: Vec<(EventKind, usize)>,
}

/// What one slave remembers between messages: that slave's alone.
struct SlaveMemo<G: Game> {
    /// The frame of the work being searched.
    frame: Option<FrameId>,
    /// The alpha the running search uses.
    alpha: Score,
    /// The highest bound heard per frame.
    bounds: HashMap<FrameId, Score>,
    /// Frames told to stop.
    dead: HashSet<FrameId>,
    /// Orders read while searching that are for later.
    backlog: VecDeque<Order<G>>,
}

struct SlaveCell<G: Game> {
    /// `GO_ON`, or why the running search must be abandoned.
    abort: AtomicU8,
    tick: PollClock,
    memo: Mutex<SlaveMemo<G>>,
}

/// PV splitting over a transport: the hook of every thread of one search.
pub(crate) struct PvSplit<'t, G: Game> {
    transport: &'t dyn Transport<G>,
    master: Mutex<Master<G>>,
    /// Mirror of `cut_level.is_some()`, for the per-node check.
    cut: AtomicBool,
    /// Whether the master has frames or busy slaves (anything to poll for).
    active: AtomicBool,
    /// The master's poll clock, written at each of its nodes: on a cache
    /// line of its own, away from `slaves`, which every slave reads at each
    /// of its nodes.
    tick: CachePadded<PollClock>,
    /// Work messages sent.
    work_sent: AtomicU64,
    /// Bound messages sent.
    bounds_sent: AtomicU64,
    slaves: Box<[CachePadded<SlaveCell<G>>]>,
    /// Whether the slaves are this search's other threads (else they are
    /// other processes, behind the transport, and the other threads idle).
    local: bool,
    /// A slave process on several threads: the flag that stops them all
    /// when its work is abandoned.
    spread_stop: Option<&'t AtomicBool>,
}

impl<'t, G: Game> PvSplit<'t, G> {
    fn new(transport: &'t dyn Transport<G>, local: bool) -> Self {
        let n = transport.slaves();
        PvSplit {
            transport,
            local,
            spread_stop: None,
            master: Mutex::new(Master {
                frames: Vec::new(),
                slaves: vec![None; n],
                next_frame: 0,
                next_work: 0,
                cut_level: None,
                marks: Vec::new(),
            }),
            cut: AtomicBool::new(false),
            active: AtomicBool::new(false),
            tick: CachePadded::new(PollClock::new()),
            work_sent: AtomicU64::new(0),
            bounds_sent: AtomicU64::new(0),
            slaves: (0..n)
                .map(|_| {
                    CachePadded::new(SlaveCell {
                        abort: AtomicU8::new(GO_ON),
                        tick: PollClock::new(),
                        memo: Mutex::new(SlaveMemo {
                            frame: None,
                            alpha: 0,
                            bounds: HashMap::new(),
                            dead: HashSet::new(),
                            backlog: VecDeque::new(),
                        }),
                    })
                })
                .collect(),
        }
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for PvSplit<'_, G> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        if thread == 0 {
            self.master_aborted()
        } else {
            self.slave_aborted(thread - 1)
        }
    }

    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        if node.ctx.thread == 0 {
            self.split(worker, node)
        } else {
            None
        }
    }
}

/// Runs PV splitting with its slaves where `slaves` says: on the other
/// threads of `job` over the in-process channel transport (or, with a
/// latency, the delaying one; in tests, the one [`testing::with_delays`]
/// asks for), or with thread 0 as the master of a remote transport.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    slaves: &Slaves<G>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let latency = match slaves {
        Slaves::Remote(transport) => return search_over(job, &**transport, false, on_iteration),
        Slaves::Threads { latency } => *latency,
    };
    let slaves = job.workers.len() - 1;
    if job.sim.is_some() {
        let transport = SimTransport::new(slaves, latency);
        return search_over(job, &transport, true, on_iteration);
    }
    if !latency.is_zero() {
        let transport = DelayTransport::with_latency(slaves, latency);
        return search_over(job, &transport, true, on_iteration);
    }
    #[cfg(feature = "testing")]
    if let Some(delays) = testing::delays() {
        let transport = DelayTransport::new(slaves, delays);
        let result = search_over(job, &transport, true, on_iteration);
        testing::record(transport.stats());
        return result;
    }
    search_over(job, &ChannelTransport::new(slaves), true, on_iteration)
}

/// Runs PV splitting over `transport`: thread 0 is the master, the others
/// slaves; `Quit` goes to every slave when the master is done (or when any
/// thread panics).
fn search_over<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    transport: &dyn Transport<G>,
    local: bool,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let pv_split = PvSplit::new(transport, local);
    transport.set_deadline(job.deadline());
    transport.begin_search(job.limits.exact);
    let result = lead_and_help(job, &pv_split, on_iteration);
    let remote = transport.end_search();
    let mut master = job.worker(0);
    master.stats += remote;
    master.stats.work_sent += pv_split.work_sent.load(Relaxed);
    master.stats.bounds_sent += pv_split.bounds_sent.load(Relaxed);
    result
}

#[cfg(feature = "testing")]
/// Test support: run PV splitting over the delaying, reordering transport.
pub mod testing {
    use std::cell::Cell;

    pub use crate::parallel::delay_transport::{DelayStats, Delays};

    thread_local! {
        static DELAYS: Cell<Option<Delays>> = const { Cell::new(None) };
        static SEARCHES: Cell<u64> = const { Cell::new(0) };
        static STATS: Cell<DelayStats> = const {
            Cell::new(DelayStats { messages: 0, reordered: 0 })
        };
    }

    /// Runs `f`; every `pv-split` search it starts on this thread goes over a
    /// `DelayTransport` (held-back, reordered messages) with
    /// these delays (the seed varied per search). Returns `f`'s result and
    /// what the transports did.
    pub fn with_delays<R>(delays: Delays, f: impl FnOnce() -> R) -> (R, DelayStats) {
        let saved = DELAYS.replace(Some(delays));
        let saved_stats = STATS.take();
        let r = f();
        DELAYS.set(saved);
        let stats = STATS.replace(saved_stats);
        (r, stats)
    }

    /// The delays asked for on this thread, if any, with a fresh seed.
    pub(super) fn delays() -> Option<Delays> {
        DELAYS.get().map(|d| {
            let n = SEARCHES.get();
            SEARCHES.set(n + 1);
            Delays {
                seed: d.seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                ..d
            }
        })
    }

    pub(super) fn record(s: DelayStats) {
        let mut sum = STATS.get();
        sum.messages += s.messages;
        sum.reordered += s.reordered;
        STATS.set(sum);
    }
}
