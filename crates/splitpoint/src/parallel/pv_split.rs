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
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use crate::driver::{SearchJob, SearchResult, lead_and_help, lock};
use crate::game::{Evaluator, Game};
use crate::node::NodeType;
#[cfg(feature = "testing")]
use crate::parallel::delay_transport::DelayTransport;
use crate::parallel::shared_node::{Merged, SharedResult};
use crate::parallel::thresholds::PV_SPLIT_MIN_DEPTH;
use crate::parallel::transport::{
    ChannelTransport, FrameId, Order, Report, Transport, Work, WorkId,
};
use crate::score::Score;
use crate::search::hook::{NodeHook, SplitNode};
use crate::search::{SearchContext, Worker};

/// Master and slaves read their messages once per this many nodes.
pub const POLL_EVERY: u32 = 64;
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
    tick: AtomicU32,
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
    tick: AtomicU32,
    /// Work messages sent.
    splits: AtomicU64,
    slaves: Box<[CachePadded<SlaveCell<G>>]>,
}

impl<'t, G: Game> PvSplit<'t, G> {
    fn new(transport: &'t dyn Transport<G>) -> Self {
        let n = transport.slaves();
        PvSplit {
            transport,
            master: Mutex::new(Master {
                frames: Vec::new(),
                slaves: vec![None; n],
                next_frame: 0,
                next_work: 0,
                cut_level: None,
            }),
            cut: AtomicBool::new(false),
            active: AtomicBool::new(false),
            tick: AtomicU32::new(0),
            splits: AtomicU64::new(0),
            slaves: (0..n)
                .map(|_| {
                    CachePadded::new(SlaveCell {
                        abort: AtomicU8::new(GO_ON),
                        tick: AtomicU32::new(0),
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

    // ---------------------------------------------------------------- master

    /// Folds in every report that has arrived, then hands out work.
    fn pump(&self, m: &mut Master<G>) {
        while let Some(report) = self.transport.recv_at_master(Duration::ZERO) {
            self.fold(m, report);
        }
        self.dispatch(m);
    }

    fn update_active(&self, m: &Master<G>) {
        let active = !m.frames.is_empty() || m.slaves.iter().any(Option::is_some);
        self.active.store(active, Relaxed);
    }

    /// One slave's report: frees the slave, and folds the result into its
    /// frame if the frame is still there and wants it.
    fn fold(&self, m: &mut Master<G>, r: Report<G::Move>) {
        let Some(work) = m.slaves[r.slave].filter(|w| w.id == r.id) else {
            return;
        };
        m.slaves[r.slave] = None;
        let Some(level) = m.frames.iter().position(|f| f.id == work.frame) else {
            return;
        };
        let f = &mut m.frames[level];
        debug_assert_eq!(r.mv, f.moves[work.index], "a report names its move");
        debug_assert!(
            r.alpha <= f.result.alpha,
            "slaves adopt only alphas the master sent"
        );
        f.in_flight -= 1;
        if f.cut {
            return;
        }
        if !r.complete {
            // Not stopped by us (the frame is alive): search it again.
            f.queue.push_front(work.index);
            return;
        }
        self.fold_score(m, level, work.index, r.score, &r.pv);
    }

    /// A completed fail-soft score of move `index` of frame `level`, searched
    /// with the frame's beta and an alpha no higher than the frame's now.
    fn fold_score(
        &self,
        m: &mut Master<G>,
        level: usize,
        index: usize,
        score: Score,
        line: &[G::Move],
    ) {
        let f = &mut m.frames[level];
        let mv = f.moves[index];
        let frame = f.id;
        // Above alpha (≥ the alpha searched with) is exact below beta.
        match f.result.merge(mv, score, line) {
            Merged::Nothing => return,
            Merged::Cut => {
                f.cut = true;
                m.cut_level = Some(m.cut_level.map_or(level, |l| l.min(level)));
                self.cut.store(true, Relaxed);
                self.stop_work_of(m, frame);
                return;
            }
            Merged::Raised => {}
        }
        if ADOPT_BOUNDS {
            let working: Vec<usize> = (0..m.slaves.len())
                .filter(|&s| m.slaves[s].is_some_and(|w| w.frame == frame))
                .collect();
            self.transport.broadcast_bound(&working, frame, score);
        }
    }

    /// Tells the slaves working on `frame` to stop (they stay busy until
    /// they answer).
    fn stop_work_of(&self, m: &Master<G>, frame: FrameId) {
        for (s, w) in m.slaves.iter().enumerate() {
            if w.is_some_and(|w| w.frame == frame) {
                self.transport.stop(s, frame);
            }
        }
    }

    /// Sends queued moves to free slaves, innermost frame first (the one the
    /// master waits on), never below a cut frame.
    fn dispatch(&self, m: &mut Master<G>) {
        let live = m.cut_level.unwrap_or(m.frames.len());
        debug_assert!(live <= m.frames.len(), "a cut level names a live frame");
        for s in 0..m.slaves.len() {
            if m.slaves[s].is_some() {
                continue;
            }
            let Some(level) = (0..live).rev().find(|&l| !m.frames[l].queue.is_empty()) else {
                break;
            };
            let id = m.next_work;
            m.next_work += 1;
            let f = &mut m.frames[level];
            let index = f.queue.pop_front().expect("a non-empty queue");
            let mv = f.moves[index];
            let work = Work {
                id,
                frame: f.id,
                mv,
                child: f.pos.play(mv),
                depth: f.depth,
                ply: f.ply,
                alpha: f.result.alpha,
                beta: f.result.beta,
            };
            f.in_flight += 1;
            m.slaves[s] = Some(InFlight {
                id,
                frame: f.id,
                index,
            });
            self.splits.fetch_add(1, Relaxed);
            self.transport.send_work(s, work);
        }
        self.update_active(m);
    }

    /// Pops the innermost frame (`level`), stopping its slaves' work. If it
    /// was the cut one, the cut is consumed with it, whatever closed it: a
    /// frame cut while the search was also stopped closes as abandoned, and
    /// a cut level left pointing past the frames would make `dispatch` read
    /// a frame that is gone (found by the stress harness).
    fn close(&self, m: &mut Master<G>, level: usize) -> SharedPvNode<G> {
        debug_assert_eq!(level + 1, m.frames.len(), "frames close innermost first");
        let f = m.frames.pop().expect("the frame being closed");
        if f.in_flight > 0 {
            self.stop_work_of(m, f.id);
        }
        if m.cut_level.is_some_and(|l| l >= level) {
            m.cut_level = None;
            self.cut.store(false, Relaxed);
        }
        self.update_active(m);
        f
    }

    /// The master's `try_split`: make a frame of a PV node's remaining moves
    /// and see them all searched (see the module doc).
    fn split<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        node: SplitNode<'_, G>,
        moves: &[G::Move],
        keys: &[i64],
    ) -> Option<(Score, Option<G::Move>)> {
        if self.slaves.is_empty()
            || node.entry_type != NodeType::Pv
            || node.depth < PV_SPLIT_MIN_DEPTH
        {
            return None;
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        let level = {
            let mut m = lock(&self.master);
            let id = m.next_frame;
            m.next_frame += 1;
            m.frames.push(SharedPvNode {
                id,
                pos: node.pos.clone(),
                depth: node.depth,
                ply: node.ply,
                result: SharedResult::new(node.alpha, node.beta, node.best),
                moves: order.iter().map(|&i| moves[i]).collect(),
                queue: (0..moves.len()).collect(),
                in_flight: 0,
                cut: false,
            });
            m.frames.len() - 1
        };
        loop {
            // The clock is read on every pass, not only when a wait times
            // out: with many slaves their reports can arrive faster than
            // `WAIT`, and the move time must still hold.
            if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                ctx.stop.store(true, Relaxed);
            }
            let mut m = lock(&self.master);
            self.pump(&mut m);
            let stopped = ctx.stop.load(Relaxed);
            if stopped || m.cut_level.is_some_and(|l| l < level) {
                // Abandoned: the caller's result is void.
                self.close(&mut m, level);
                drop(m);
                worker.refresh_stopped(ctx);
                return Some((node.best, None));
            }
            if m.cut_level == Some(level) {
                let f = self.close(&mut m, level);
                drop(m);
                worker.refresh_stopped(ctx);
                worker.set_pv_line(node.ply, &f.result.pv);
                return Some((f.result.best, f.result.best_move));
            }
            let f = &mut m.frames[level];
            if f.queue.is_empty() && f.in_flight == 0 {
                let f = self.close(&mut m, level);
                drop(m);
                if f.result.best_move.is_some() {
                    worker.set_pv_line(node.ply, &f.result.pv);
                }
                return Some((f.result.best, f.result.best_move));
            }
            if MASTER_WORKS && let Some(index) = f.queue.pop_front() {
                let (mv, alpha, beta) = (f.moves[index], f.result.alpha, f.result.beta);
                let child = f.pos.play(mv);
                drop(m);
                let score = worker.search_child(
                    ctx,
                    &child,
                    1,
                    0,
                    alpha,
                    beta,
                    node.depth,
                    node.ply,
                    NodeType::Pv,
                );
                let mut m = lock(&self.master);
                if worker.stopped() {
                    // A cutoff or the stop, handled above; if neither (cannot
                    // happen), search the move again.
                    if m.cut_level.is_none() && !ctx.stop.load(Relaxed) {
                        m.frames[level].queue.push_front(index);
                        drop(m);
                        worker.refresh_stopped(ctx);
                    }
                    continue;
                }
                let line = worker.pv_line(node.ply + 1).to_vec();
                self.fold_score(&mut m, level, index, score, &line);
                continue;
            }
            // Everything is handed out: wait for results.
            if let Some(report) = self.transport.recv_at_master(WAIT) {
                self.fold(&mut m, report);
            }
        }
    }

    /// `aborted(0)`: a cut frame is waiting for the master's search to
    /// unwind to it. Every [`POLL_EVERY`] calls, reads the reports and hands
    /// out work first.
    #[inline]
    fn master_aborted(&self) -> bool {
        if self.cut.load(Relaxed) {
            return true;
        }
        if !self.active.load(Relaxed) {
            return false;
        }
        let t = self.tick.load(Relaxed).wrapping_add(1);
        self.tick.store(t, Relaxed);
        if t % POLL_EVERY != 0 {
            return false;
        }
        let mut m = lock(&self.master);
        self.pump(&mut m);
        m.cut_level.is_some()
    }

    /// Dismisses every slave.
    fn finish(&self) {
        for s in 0..self.slaves.len() {
            self.transport.quit(s);
        }
    }

    // ----------------------------------------------------------------- slave

    /// `aborted(s + 1)`: whether slave `s` must abandon its search. Every
    /// [`POLL_EVERY`] calls, reads its orders.
    #[inline]
    fn slave_aborted(&self, s: usize) -> bool {
        let cell = &self.slaves[s];
        if cell.abort.load(Relaxed) != GO_ON {
            return true;
        }
        let t = cell.tick.load(Relaxed).wrapping_add(1);
        cell.tick.store(t, Relaxed);
        if t % POLL_EVERY != 0 {
            return false;
        }
        let mut memo = lock(&cell.memo);
        while let Some(order) = self.transport.recv_at_slave(s, Duration::ZERO) {
            self.note(cell, &mut memo, order);
        }
        cell.abort.load(Relaxed) != GO_ON
    }

    /// An order read by slave `s` while it searches (or between searches).
    fn note(&self, cell: &SlaveCell<G>, memo: &mut SlaveMemo<G>, order: Order<G>) {
        match order {
            Order::Bound { frame, alpha } => {
                if memo.bounds.len() >= MEMO_LIMIT {
                    memo.bounds.clear();
                }
                let b = memo.bounds.entry(frame).or_insert(alpha);
                *b = (*b).max(alpha);
                if ADOPT_BOUNDS && memo.frame == Some(frame) && alpha > memo.alpha {
                    cell.abort.fetch_max(RESTART, Relaxed);
                }
            }
            Order::Stop { frame } => {
                if memo.dead.len() >= MEMO_LIMIT {
                    memo.dead.clear();
                }
                memo.dead.insert(frame);
                if memo.frame == Some(frame) {
                    cell.abort.fetch_max(STOP, Relaxed);
                }
            }
            Order::Quit => {
                cell.abort.fetch_max(QUIT, Relaxed);
                memo.backlog.push_back(Order::Quit);
            }
            work @ Order::Work(_) => memo.backlog.push_back(work),
        }
    }

    /// Slave `s`'s life: take orders until dismissed.
    fn slave_loop<E: Evaluator<G>>(
        &self,
        s: usize,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
    ) {
        let cell = &self.slaves[s];
        loop {
            let idle = Instant::now();
            let order = loop {
                if let Some(order) = lock(&cell.memo).backlog.pop_front() {
                    break order;
                }
                if let Some(order) = self.transport.recv_at_slave(s, SLAVE_WAIT) {
                    break order;
                }
            };
            worker.stats.idle_micros += idle.elapsed().as_micros() as u64;
            match order {
                Order::Quit => return,
                Order::Work(work) => {
                    if !self.slave_search(s, worker, ctx, work) {
                        return;
                    }
                }
                other => self.note(cell, &mut lock(&cell.memo), other),
            }
        }
    }

    /// Searches one piece of work and answers it; false if dismissed meanwhile.
    fn slave_search<E: Evaluator<G>>(
        &self,
        s: usize,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        work: Work<G>,
    ) -> bool {
        let cell = &self.slaves[s];
        let answer = |complete: bool, score: Score, alpha: Score, pv: Vec<G::Move>| {
            self.transport.send_to_master(Report {
                slave: s,
                id: work.id,
                mv: work.mv,
                complete,
                score,
                alpha,
                pv,
            });
        };
        let mut alpha = work.alpha;
        {
            let mut memo = lock(&cell.memo);
            if memo.dead.contains(&work.frame) {
                drop(memo);
                answer(false, 0, alpha, Vec::new());
                return true;
            }
            if ADOPT_BOUNDS && let Some(&b) = memo.bounds.get(&work.frame) {
                alpha = alpha.max(b);
            }
            memo.frame = Some(work.frame);
            memo.alpha = alpha;
        }
        let finish = |alive: bool| {
            lock(&cell.memo).frame = None;
            alive
        };
        loop {
            cell.abort.store(GO_ON, Relaxed);
            worker.refresh_stopped(ctx);
            let nodes_before = worker.stats.nodes;
            let score = worker.search_child(
                ctx,
                &work.child,
                1,
                0,
                alpha,
                work.beta,
                work.depth,
                work.ply,
                NodeType::Pv,
            );
            if !worker.stopped() {
                answer(true, score, alpha, worker.pv_line(work.ply + 1).to_vec());
                return finish(true);
            }
            if !ctx.stop.load(Relaxed) {
                worker.stats.aborted_nodes += worker.stats.nodes - nodes_before;
            }
            match cell.abort.swap(GO_ON, Relaxed) {
                RESTART => {
                    let mut memo = lock(&cell.memo);
                    alpha = alpha.max(memo.bounds.get(&work.frame).copied().unwrap_or(alpha));
                    memo.alpha = alpha;
                }
                QUIT => {
                    answer(false, 0, alpha, Vec::new());
                    return finish(false);
                }
                _ => {
                    // Stopped by the master, or the search is over.
                    answer(false, 0, alpha, Vec::new());
                    return finish(true);
                }
            }
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

    fn try_split(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        node: SplitNode<'_, G>,
        moves: &[G::Move],
        keys: &[i64],
    ) -> Option<(Score, Option<G::Move>)> {
        if ctx.thread == 0 {
            self.split(worker, ctx, node, moves, keys)
        } else {
            None
        }
    }
}

/// Runs PV splitting on the threads of `job` over the in-process channel
/// transport (or, in tests, the one [`testing::with_delays`] asks for).
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let slaves = job.workers.len() - 1;
    #[cfg(feature = "testing")]
    if let Some(delays) = testing::delays() {
        let transport = DelayTransport::new(slaves, delays);
        let result = search_over(job, &transport, on_iteration);
        testing::record(transport.stats());
        return result;
    }
    search_over(job, &ChannelTransport::new(slaves), on_iteration)
}

/// Runs PV splitting over `transport`: thread 0 is the master, the others
/// slaves; `Quit` goes to every slave when the master is done (or when any
/// thread panics).
fn search_over<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    transport: &dyn Transport<G>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let pv_split = PvSplit::new(transport);
    let result = lead_and_help(
        job,
        Some(&pv_split),
        &|| pv_split.finish(),
        on_iteration,
        |worker, ctx| pv_split.slave_loop(ctx.thread - 1, worker, ctx),
    );
    job.worker(0).stats.splits += pv_split.splits.load(Relaxed);
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
