//! Dynamic Tree Splitting (Hyatt's DTS, from Cray Blitz) on an iterative search.
//!
//! # The iterative search
//!
//! [`Searcher`] is [`Worker::pvs`] / `search_moves` / [`Worker::search_root`]
//! rewritten with an explicit stack: one [`Frame`] per ply in a per-thread
//! [`Stack`] (capacity [`MAX_PLY`], reserved once per search), each holding the
//! node's position, window, depth, node types, move list and ordering keys,
//! next-move index, best score and move, table key and a [`Stage`] (enter /
//! next move / awaiting the child's result / complete). It takes exactly the
//! recursive search's steps in the same order (stop poll, node count,
//! outcome, leaf solver, table probe and cutoff rule, `order_keys` +
//! `pick_best`, the PVS null window and re-search rule, `update_pv`,
//! `on_cutoff`, node types, table store); quiescence stays recursive. Single
//! threaded it visits the same nodes and returns the same score and move,
//! which [`testing::iterative_vs_recursive`] checks. The point of the explicit
//! stack is that a node's state is *data*: any thread can take it over.
//!
//! # Splitting
//!
//! There is no owner. Idle threads look for work; busy threads publish their
//! state; the idle thread chooses where to split; whoever finishes a split
//! point last carries on with the search above it.
//!
//! - **Asking.** An idle thread sets the `PUBLISH` bit of every other
//!   thread's `attention` word (the per-thread form of Hyatt's "help wanted").
//!   A busy thread looks at that word (one relaxed load) at every interior
//!   node it enters; while the bit is set it writes, at most once every
//!   [`PUBLISH_INTERVAL`] nodes and under its `published` lock, one
//!   [`Candidate`] per splittable frame of its stack: ply, frame serial
//!   number and a merit (remaining depth first, then expected ALL/PV nodes,
//!   then CUT nodes with several moves already searched). Splittable:
//!   remaining depth ≥ [`DTS_MIN_SPLIT_DEPTH`], eldest brother searched, moves
//!   left; or the frame is already a split point with moves left (the helper
//!   then just joins). The bit is cleared only once a non-empty list is out,
//!   and that publication wakes sleeping idle threads.
//! - **Choosing.** The idle thread first joins the open split point with
//!   the most depth left, if any (split points have no owner, so joining
//!   one needs nobody's answer: `join` checks under the lock that it is not
//!   closed, not cut off and has moves left). Otherwise it reads the
//!   candidate lists (one lock at a time), takes the best candidate, removes
//!   it from the list (so others choose another), puts a [`Request`]
//!   (helper, ply, serial) in that thread's `mailbox` (one request at a
//!   time), sets its `REQUEST` bit and wakes sleepers.
//! - **Answering.** At its next interior node the busy thread takes the
//!   request. If the frame at that ply still carries that serial (frames get a
//!   new serial each time they are entered, unique over threads and time) and
//!   is still splittable, it takes a free split point from the shared pool,
//!   moves the node (remaining moves and keys, alpha, best, PV) *and a copy of
//!   the frames between its enclosing split point and this node* into it,
//!   counts itself and the helper as workers, and makes its own frame a
//!   *proxy* for the split point. It answers with the split point's id, or
//!   with `REFUSED`. A thread that is idle answers every request `REFUSED`.
//!   The helper waits for its answer (spinning, then napping) and never
//!   gives a request up unless the whole search is over, so a helper
//!   counted in a split point always arrives there.
//! - **Working.** A thread's stack runs from `base` to `top`; `frames[base]`
//!   is either the root (thread 0, no split point) or the proxy for split
//!   point `base_sp`. At the proxy the thread takes the next move under the
//!   split point's lock (with the split point's current alpha), searches it
//!   with the PVS null window and re-search, and reports the result under the
//!   lock (best, alpha, best move, PV; a score ≥ beta sets `cutoff`).
//! - **Leaving.** With no move left (or a cutoff) the thread decrements
//!   `workers` under the lock. If others remain it goes idle. If it was the
//!   last, the split point is closed and, if its result is final (cut off, or
//!   every move searched and reported), the thread copies the ancestor frames
//!   and the node into its own stack (plies are absolute, so they land at the
//!   same indices), releases the split point and continues the search above it
//!   exactly as the recursive search would: table store, value to the parent
//!   frame, and so on. Reaching the proxy of an enclosing split point means
//!   reporting there. Completing the root frame posts the iteration's result
//!   to a shared slot, which thread 0 (helping meanwhile) picks up.
//! - **Cutoffs.** At every interior node a thread walks its chain of split
//!   points (`base_sp`, then `parent` links) looking at the `cutoff` flags.
//!   If one is set it abandons its private frames and leaves its split point
//!   without reporting (the split point is marked `aborted`, the nodes spent
//!   are counted as `aborted_nodes`). The last thread out of a split point
//!   whose result is not final (moves left, or a move abandoned) releases it
//!   and leaves the enclosing split point the same way; the last thread out of
//!   a cut-off split point continues upward with its (≥ beta) result.
//! - **Stop.** On the global stop a thread drops its stack without touching
//!   any split point and goes idle; thread 0 ends the search with the last
//!   completed iteration and raises `done`; split points left half-done die
//!   with the search's [`Dts`].
//!
//! # Who changes what, orderings, why no deadlock
//!
//! - A [`Stack`] is owned by its thread; frames move between threads only by
//!   copy, through a split point, under its lock.
//! - [`SplitData`] (the node frame, the ancestor frames, PV, `workers`,
//!   `aborted`, `closed`) is changed only under the split point's lock.
//!   `cutoff` and `open` are written under the lock and read without it as
//!   hints (relaxed): a thread that misses a fresh `cutoff` only searches a
//!   little longer; every decision that matters (take a move, leave, last or
//!   not, final or not) re-reads them under the lock. `parent` is written
//!   before the split point is handed out (under the lock) and read by its
//!   workers, who reached it through that lock; it cannot change while they
//!   are counted in `workers`, since the split point is only released when
//!   `workers` is zero, and enclosing split points cannot finish while a move
//!   below them is in flight.
//! - The pool of free split points is a `Mutex<Vec<usize>>`.
//! - `attention` bits are hints; the request itself travels in the `mailbox`
//!   mutex (put, then set the bit; clear the bit, then take: no request is
//!   missed). The answer is an `AtomicUsize` written with `Release` after the
//!   split point was filled and read with `Acquire`.
//! - A thread never holds two locks at once: split point, free pool,
//!   mailbox, candidate list, root slot and sleep locks are each taken and
//!   released on their own.
//! - No deadlock: nobody waits while holding a lock; the only waiting is an
//!   idle thread waiting for an answer, and every thread answers requests at
//!   every interior node (busy) or every loop turn (idle or waiting itself),
//!   so waits cannot form a cycle. A split point's last worker never waits:
//!   it either carries on or goes idle.
//! - Sleep: idle threads spin a little, then sleep on a condition variable
//!   with a 1 ms timeout (a missed wake-up costs at most that). Before
//!   sleeping a thread announces itself in `sleepers` and re-checks for
//!   candidates, open split points and requests addressed to it; publishing a
//!   non-empty list, opening a split point, posting a request, posting the
//!   root result and `finish` notify. No `yield_now`: on a loaded machine it
//!   gives the core away for a whole time slice. A helper waiting for an
//!   answer spins, then naps 50 µs at a time.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use crate::driver::{DepthPlan, RootSearch, SearchJob, SearchResult, deepen, lead_and_help, lock};
use crate::game::{Evaluator, Game, MAX_MOVES, MAX_PLY, MoveList};
use crate::node::NodeType;
use crate::parallel::idle::{self, Backoff, IdleSleep};
use crate::parallel::thresholds::{DTS_MIN_SPLIT_DEPTH, DTS_SPLITS_PER_THREAD};
use crate::score::{INFINITY, Score, from_table, to_table};
use crate::search::{
    RootMove, SearchContext, Worker, extension, null_move_depth, null_move_position, pick_best,
};
use crate::stats::Stats;
use crate::tt::{Bound, NO_MOVE, TtEntry};

/// "No split point".
const NONE: usize = usize::MAX;
/// `attention` bit: an idle thread wants this thread's candidates.
const PUBLISH: u32 = 1;
/// `attention` bit: a request waits in this thread's mailbox.
const REQUEST: u32 = 2;
/// Answer slot: no answer yet.
const PENDING: usize = usize::MAX;
/// Answer slot: the request was refused.
const REFUSED: usize = usize::MAX - 1;
/// Least nodes between two publications of one thread's candidates, so that
/// many idle threads cannot make a busy one publish at every node.
const PUBLISH_INTERVAL: u64 = 32;
/// Merit bonus for joining an existing split point (nothing to copy).
const JOIN_BONUS: i64 = 4;

/// Where a frame is in its node's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Just pushed: window and depth set, nothing done.
    Enter,
    /// Take the next move (or complete when none is left).
    NextMove,
    /// A child is being searched (`index`, `mv`, `reduction`, `research`
    /// say which).
    AwaitChild,
    /// The null-move child is being searched; `tt_move` waits for the moves.
    AwaitNull,
    /// The moves are done: store and return `best`.
    Complete,
}

/// One node of the explicit stack: what the recursive search keeps in its
/// locals, as data.
#[derive(Clone)]
struct Frame<G: Game> {
    pos: G,
    alpha: Score,
    beta: Score,
    /// Alpha at entry, for the table bound.
    orig_alpha: Score,
    depth: i32,
    ply: usize,
    /// The node's type now (a CUT node turns ALL after its first move).
    node_type: NodeType,
    /// The node's type when entered.
    entry_type: NodeType,
    /// The root: completes by reporting, not by a table store.
    root: bool,
    /// Table key (the position's hash).
    key: u64,
    moves: MoveList<G::Move>,
    keys: ArrayVec<i64, MAX_MOVES>,
    /// Moves taken so far (the next one's index).
    next: usize,
    best: Score,
    best_move: Option<G::Move>,
    stage: Stage,
    /// The move in flight: its index, itself, the plies its first search
    /// is reduced by (0 once re-searched at full depth), and whether this is
    /// its full-window re-search.
    index: usize,
    mv: Option<G::Move>,
    reduction: i32,
    research: bool,
    /// The table's move, kept while the null move is searched.
    tt_move: u16,
    /// The worker's node count when the move in flight was taken.
    nodes_at_move: u64,
    /// Names this frame's current node for split requests.
    serial: u64,
}

impl<G: Game> Frame<G> {
    fn new(pos: G) -> Self {
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
            moves: MoveList::new(),
            keys: ArrayVec::new(),
            next: 0,
            best: -INFINITY,
            best_move: None,
            stage: Stage::Enter,
            index: 0,
            mv: None,
            reduction: 0,
            research: false,
            tt_move: NO_MOVE,
            nodes_at_move: 0,
            serial: 0,
        }
    }

    /// Records the move in flight and waits for its child.
    fn begin_move(&mut self, index: usize, mv: G::Move, reduction: i32, nodes: u64) {
        self.index = index;
        self.mv = Some(mv);
        self.reduction = reduction;
        self.research = false;
        self.nodes_at_move = nodes;
        self.stage = Stage::AwaitChild;
    }

    /// The child's window and type for move `index`: full window for the
    /// first, null window for the others (as `Worker::search_child`).
    fn child_window(&self, index: usize) -> (Score, Score, NodeType) {
        if index == 0 {
            (-self.beta, -self.alpha, self.node_type.child(0))
        } else {
            (-self.alpha - 1, -self.alpha, self.node_type.child(index))
        }
    }
}

/// One thread's explicit stack. Frames are indexed by ply; `frames[base]` is
/// the root frame (`base_sp == NONE`) or the proxy for split point `base_sp`.
pub(crate) struct Stack<G: Game> {
    /// Grown on demand, never beyond the capacity reserved at creation.
    frames: Vec<Frame<G>>,
    base: usize,
    base_sp: usize,
    top: usize,
    /// Last serial handed out; the thread index sits in the high bits so
    /// serials are unique over all threads.
    serial: u64,
    /// Node count before which no new publication is made.
    next_publish: u64,
}

impl<G: Game> Stack<G> {
    fn new(thread: usize) -> Self {
        Stack {
            frames: Vec::with_capacity(MAX_PLY),
            base: 0,
            base_sp: NONE,
            top: 0,
            serial: (thread as u64) << 48,
            next_publish: 0,
        }
    }

    /// Makes sure frames `0..len` exist.
    fn ensure(&mut self, len: usize, pos: &G) {
        while self.frames.len() < len {
            self.frames.push(Frame::new(pos.clone()));
        }
    }

    fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// Whether `ply` is the proxy of a split point.
    fn is_proxy(&self, ply: usize) -> bool {
        ply == self.base && self.base_sp != NONE
    }
}

/// A frame an idle thread may ask to split (or join).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    ply: usize,
    serial: u64,
    merit: i64,
}

/// A split request: `helper` wants to help at the frame `ply` named `serial`.
#[derive(Clone, Copy, Debug)]
struct Request {
    helper: usize,
    ply: usize,
    serial: u64,
}

/// The shared part of a split point, under its lock.
struct SplitData<G: Game> {
    /// The split node: its moves, keys, next, alpha, best and best move are
    /// the shared move loop; the rest (position, beta, depth, key, original
    /// alpha, types) is fixed.
    node: Frame<G>,
    /// Copies of the frames `anc_base..node.ply` of the thread that split:
    /// `frames[anc_base]` is the proxy of `parent` (or the root frame).
    ancestors: Vec<Frame<G>>,
    anc_base: usize,
    /// Best line from the node.
    pv: ArrayVec<G::Move, MAX_PLY>,
    /// Threads with a move in flight here, or about to take one.
    workers: usize,
    /// A move was given up without a result: not final unless cut off.
    aborted: bool,
    /// The last worker left: nobody may join.
    closed: bool,
}

/// A split point of the shared pool (no owner).
struct SplitPoint<G: Game> {
    data: Mutex<SplitData<G>>,
    /// A move reached beta. Written under the lock, read anywhere.
    cutoff: AtomicBool,
    /// Moves left to take and not closed: a hint for publishers.
    open: AtomicBool,
    /// The enclosing split point, or `NONE`; fixed while anyone works here.
    parent: AtomicUsize,
    /// The node's remaining depth: idle threads join the deepest-remaining
    /// (shallowest) open split point first. A hint, like `open`.
    depth: AtomicI32,
}

impl<G: Game> SplitPoint<G> {
    fn new(pos: &G) -> Self {
        SplitPoint {
            data: Mutex::new(SplitData {
                node: Frame::new(pos.clone()),
                ancestors: Vec::new(),
                anc_base: 0,
                pv: ArrayVec::new(),
                workers: 0,
                aborted: false,
                closed: true,
            }),
            cutoff: AtomicBool::new(false),
            open: AtomicBool::new(false),
            parent: AtomicUsize::new(NONE),
            depth: AtomicI32::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SplitData<G>> {
        lock(&self.data)
    }
}

/// What other threads may see of or send to one thread.
struct ThreadSlot {
    /// `PUBLISH` / `REQUEST` bits, read at every interior node.
    attention: AtomicU32,
    /// At most one pending request.
    mailbox: Mutex<Option<Request>>,
    /// The answer to this thread's own request: `PENDING`, `REFUSED` or a
    /// split point id.
    answer: AtomicUsize,
    /// Searching (has a stack): worth asking for candidates.
    busy: AtomicBool,
    /// The last published candidates.
    published: Mutex<ArrayVec<Candidate, MAX_PLY>>,
    /// `published` is not empty (a hint, read without the lock).
    offering: AtomicBool,
}

/// An iteration's result, from whichever thread completed the root.
struct RootResult<M> {
    best: Score,
    best_move: Option<M>,
    pv: ArrayVec<M, MAX_PLY>,
}

/// The shared state of one DTS search.
pub(crate) struct Dts<G: Game> {
    split_points: Box<[SplitPoint<G>]>,
    /// Ids of the split points not in use.
    free: Mutex<Vec<usize>>,
    threads: Box<[ThreadSlot]>,
    root_result: Mutex<Option<RootResult<G::Move>>>,
    /// `root_result` holds this root search's result.
    root_done: AtomicBool,
    /// The search is over: everyone leaves.
    done: AtomicBool,
    /// Where idle threads sleep.
    sleep: IdleSleep,
}

impl<G: Game> Dts<G> {
    fn new(threads: usize, root: &G) -> Self {
        let count = threads * DTS_SPLITS_PER_THREAD;
        Dts {
            split_points: (0..count).map(|_| SplitPoint::new(root)).collect(),
            free: Mutex::new((0..count).rev().collect()),
            threads: (0..threads)
                .map(|_| ThreadSlot {
                    attention: AtomicU32::new(0),
                    mailbox: Mutex::new(None),
                    answer: AtomicUsize::new(PENDING),
                    busy: AtomicBool::new(false),
                    published: Mutex::new(ArrayVec::new()),
                    offering: AtomicBool::new(false),
                })
                .collect(),
            root_result: Mutex::new(None),
            root_done: AtomicBool::new(false),
            done: AtomicBool::new(false),
            sleep: IdleSleep::default(),
        }
    }

    /// Whether split point `id` or any enclosing one is cut off.
    #[inline]
    fn cut_above(&self, mut id: usize) -> bool {
        while id != NONE {
            let sp = &self.split_points[id];
            if sp.cutoff.load(Relaxed) {
                return true;
            }
            id = sp.parent.load(Relaxed);
        }
        false
    }

    fn alloc(&self) -> Option<usize> {
        lock(&self.free).pop()
    }

    fn release(&self, id: usize) {
        lock(&self.free).push(id);
    }

    /// Counts one more worker in at split point `id`, if it still has moves.
    fn join(&self, id: usize) -> bool {
        let sp = &self.split_points[id];
        let mut d = sp.lock();
        if d.closed || sp.cutoff.load(Relaxed) || d.node.next >= d.node.moves.len() {
            return false;
        }
        d.workers += 1;
        true
    }

    /// The open split point with the most depth left, if any (a hint:
    /// [`Dts::join`] decides under the lock).
    fn find_open(&self) -> Option<usize> {
        let mut found: Option<(usize, i32)> = None;
        for (id, sp) in self.split_points.iter().enumerate() {
            if sp.open.load(Relaxed) && !sp.cutoff.load(Relaxed) {
                let depth = sp.depth.load(Relaxed);
                if found.is_none_or(|(_, d)| depth > d) && !self.cut_above(sp.parent.load(Relaxed))
                {
                    found = Some((id, depth));
                }
            }
        }
        found.map(|(id, _)| id)
    }

    /// An idle thread's answer to any request sent to it: refused. (The
    /// `PUBLISH` bit stays: the thread publishes when it is busy again.)
    fn refuse_requests(&self, me: usize) {
        let slot = &self.threads[me];
        if slot.attention.load(Relaxed) & REQUEST != 0 {
            slot.attention.fetch_and(!REQUEST, Acquire);
            if let Some(req) = lock(&slot.mailbox).take() {
                self.threads[req.helper].answer.store(REFUSED, Release);
            }
        }
    }

    /// The best published candidate of another busy thread with an empty
    /// mailbox, removed from its list.
    fn choose(&self, me: usize) -> Option<(usize, Candidate)> {
        let mut best: Option<(usize, Candidate)> = None;
        for (t, slot) in self.threads.iter().enumerate() {
            if t == me
                || !slot.busy.load(Relaxed)
                || !slot.offering.load(Relaxed)
                || slot.attention.load(Relaxed) & REQUEST != 0
            {
                continue;
            }
            for c in lock(&slot.published).iter() {
                if best.is_none_or(|(_, b)| c.merit > b.merit) {
                    best = Some((t, *c));
                }
            }
        }
        let (t, c) = best?;
        {
            let mut list = lock(&self.threads[t].published);
            list.retain(|x| x.serial != c.serial);
            self.threads[t].offering.store(!list.is_empty(), Relaxed);
        }
        Some((t, c))
    }

    /// Puts a request in `target`'s mailbox; false if one is already there.
    fn post(&self, me: usize, target: usize, c: Candidate) -> bool {
        let slot = &self.threads[target];
        {
            let mut mailbox = lock(&slot.mailbox);
            if mailbox.is_some() {
                return false;
            }
            self.threads[me].answer.store(PENDING, Relaxed);
            *mailbox = Some(Request {
                helper: me,
                ply: c.ply,
                serial: c.serial,
            });
        }
        slot.attention.fetch_or(REQUEST, Release);
        // The target may be idle and asleep: it must answer.
        self.wake_sleepers();
        true
    }

    /// Asks every other thread to publish its candidates (a thread not busy
    /// yet does so at its first interior node).
    fn ask_for_candidates(&self, me: usize) {
        for (t, slot) in self.threads.iter().enumerate() {
            if t != me && slot.attention.load(Relaxed) & PUBLISH == 0 {
                slot.attention.fetch_or(PUBLISH, Relaxed);
            }
        }
    }

    /// Marks thread `me` busy or idle; an idle thread has no candidates.
    fn set_busy(&self, me: usize, busy: bool) {
        let slot = &self.threads[me];
        slot.busy.store(busy, Relaxed);
        if !busy {
            lock(&slot.published).clear();
            slot.offering.store(false, Relaxed);
        }
    }

    fn post_root(&self, best: Score, best_move: Option<G::Move>, pv: &[G::Move]) {
        *lock(&self.root_result) = Some(RootResult {
            best,
            best_move,
            pv: pv.iter().copied().collect(),
        });
        self.root_done.store(true, Release);
        self.wake_sleepers();
    }

    /// Whether some busy thread other than `me` has published a candidate.
    fn has_candidates(&self, me: usize) -> bool {
        self.threads
            .iter()
            .enumerate()
            .any(|(t, slot)| t != me && slot.busy.load(Relaxed) && slot.offering.load(SeqCst))
    }

    fn wake_sleepers(&self) {
        self.sleep.wake();
    }

    /// Ends the search: idle threads leave.
    fn finish(&self) {
        self.done.store(true, SeqCst);
        self.sleep.wake_always();
    }
}

/// Why [`Searcher::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// The root frame completed; its result is in `frames[0]` and `pv[0]`.
    RootDone,
    /// The stack is empty: this thread left a split point and was not last,
    /// or abandoned its work after a cutoff.
    Idle,
    /// The global stop: the stack is void.
    Stopped,
}

/// What a step of the machine asks of the main loop.
enum Flow {
    Continue,
    /// The top frame's node is done with this score (its side's view).
    Return(Score),
    Exit(Exit),
}

/// One thread running the iterative search over its stack.
struct Searcher<'s, 'c, G: Game, E: Evaluator<G>> {
    worker: &'s mut Worker<G>,
    ctx: &'s SearchContext<'c, G, E>,
    stack: &'s mut Stack<G>,
    /// `None`: the plain single-threaded iterative search.
    dts: Option<&'s Dts<G>>,
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// Runs the machine until the stack empties, the root completes, or the
    /// search stops.
    fn run(&mut self) -> Exit {
        loop {
            let flow = match self.stack.frames[self.stack.top].stage {
                Stage::Enter => self.enter(),
                Stage::NextMove => self.next_move(),
                Stage::Complete => self.complete(),
                Stage::AwaitChild | Stage::AwaitNull => {
                    unreachable!("the top frame never awaits a child")
                }
            };
            match flow {
                Flow::Continue => {}
                Flow::Exit(exit) => return exit,
                // A node returns to its parent, which may return in turn (a
                // null move's fail high).
                Flow::Return(mut score) => loop {
                    debug_assert!(
                        self.stack.top > self.stack.base,
                        "only the root and proxies sit at the base"
                    );
                    self.stack.top -= 1;
                    match self.child_returned(-score) {
                        Flow::Continue => break,
                        Flow::Exit(exit) => return exit,
                        Flow::Return(s) => score = s,
                    }
                },
            }
        }
    }

    /// `Worker::pvs` up to its move loop.
    fn enter(&mut self) -> Flow {
        let ctx = self.ctx;
        let ply = self.stack.top;
        let in_check;
        {
            let f = &mut self.stack.frames[ply];
            // Step 1. The check extension, then the horizon: quiescence
            // takes over (it counts its own node).
            in_check = ctx.eval.in_check(&f.pos);
            f.depth += extension(ctx, in_check);
            if f.depth <= 0 || ply >= MAX_PLY - 1 {
                return Flow::Return(self.worker.quiescence(ctx, &f.pos, f.alpha, f.beta, ply));
            }
        }
        self.worker.set_pv_line(ply, &[]);
        if self.worker.poll_stop(ctx) {
            return Flow::Exit(Exit::Stopped);
        }
        if let Some(dts) = self.dts {
            if dts.cut_above(self.stack.base_sp) {
                return self.abandon(dts);
            }
            if dts.threads[ctx.thread].attention.load(Relaxed) != 0 {
                self.serve(dts);
            }
        }
        let serial = self.stack.next_serial();
        let worker = &mut *self.worker;
        let f = &mut self.stack.frames[ply];
        f.serial = serial;
        worker.stats.nodes += 1;
        worker.stats.seldepth = worker.stats.seldepth.max(ply as u64);

        // Step 2. Finished games and the evaluator's exact leaf solver.
        if let Some(outcome) = f.pos.outcome() {
            return Flow::Return(ctx.eval.terminal_score(&f.pos, outcome, ply));
        }
        if let Some(score) = ctx.eval.solve_leaf(
            &f.pos,
            f.alpha,
            f.beta,
            f.depth,
            ply,
            &mut worker.stats.nodes,
        ) {
            return Flow::Return(score);
        }

        // Step 3. Transposition table.
        let key = f.pos.hash();
        let pv_node = f.beta - f.alpha > 1;
        worker.stats.tt_probes += 1;
        let mut tt_move = NO_MOVE;
        if let Some(entry) = ctx.tt.probe(key) {
            worker.stats.tt_hits += 1;
            tt_move = entry.move_key;
            if !ctx.exact && !pv_node && entry.depth >= f.depth {
                let score = from_table(entry.score, ply);
                let settles = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= f.beta,
                    Bound::Upper => score <= f.alpha,
                };
                if settles {
                    worker.stats.tt_cutoffs += 1;
                    return Flow::Return(score);
                }
            }
        }

        f.key = key;

        // Step 4. Null move: when passing still holds beta, so does the node.
        if !pv_node && let Some(null) = null_move_position(ctx, &f.pos, f.beta, f.depth, in_check) {
            // No move in flight, none left: not splittable meanwhile.
            f.moves.clear();
            f.next = 0;
            f.index = 0;
            f.tt_move = tt_move;
            f.stage = Stage::AwaitNull;
            let (beta, depth, node_type) = (f.beta, null_move_depth(f.depth), f.node_type.child(0));
            self.push(null, -beta, -beta + 1, depth, node_type);
            return Flow::Continue;
        }
        self.begin_moves(ply, tt_move)
    }

    /// `Worker::pvs` from move generation to its move loop.
    fn begin_moves(&mut self, ply: usize, tt_move: u16) -> Flow {
        let ctx = self.ctx;
        let worker = &mut *self.worker;
        let f = &mut self.stack.frames[ply];

        // Step 5. Generate and order the moves.
        f.moves.clear();
        f.pos.generate_moves(&mut f.moves);
        if f.moves.is_empty() {
            debug_assert!(false, "position with no outcome and no moves");
            return Flow::Return(ctx.eval.evaluate(&f.pos));
        }
        worker.order_keys(ctx, &f.pos, &f.moves, tt_move, ply, &mut f.keys);

        // Step 6. The move loop starts.
        f.orig_alpha = f.alpha;
        f.entry_type = f.node_type;
        f.next = 0;
        f.best = -INFINITY;
        f.best_move = None;
        f.stage = Stage::NextMove;
        Flow::Continue
    }

    /// Pushes the child frame `pos` one ply above the top.
    fn push(&mut self, pos: G, alpha: Score, beta: Score, depth: i32, node_type: NodeType) {
        let ply = self.stack.top + 1;
        if self.stack.frames.len() <= ply {
            self.stack.frames.push(Frame::new(pos));
        } else {
            self.stack.frames[ply].pos = pos;
        }
        let c = &mut self.stack.frames[ply];
        c.alpha = alpha;
        c.beta = beta;
        c.depth = depth;
        c.ply = ply;
        c.node_type = node_type;
        c.root = false;
        c.stage = Stage::Enter;
        self.stack.top = ply;
    }

    /// `search_moves`' loop head: the next move best key first, or done.
    fn next_move(&mut self) -> Flow {
        let ply = self.stack.top;
        if self.stack.is_proxy(ply) {
            return self.next_shared_move();
        }
        let nodes = self.worker.stats.nodes;
        let f = &mut self.stack.frames[ply];
        let i = f.next;
        if i >= f.moves.len() {
            f.stage = Stage::Complete;
            return Flow::Continue;
        }
        pick_best(&mut f.moves, &mut f.keys, i);
        let mv = f.moves[i];
        f.next = i + 1;
        let child = f.pos.play(mv);
        let r = self
            .worker
            .reduction(self.ctx, &f.pos, &child, mv, i, f.depth, f.node_type);
        f.begin_move(i, mv, r, nodes);
        let (alpha, beta, node_type) = f.child_window(i);
        let depth = f.depth - 1 - r;
        self.push(child, alpha, beta, depth, node_type);
        Flow::Continue
    }

    /// A child's score (from the top frame's view): the PVS re-search rule,
    /// then `search_moves`' bookkeeping (or a report to the split point).
    fn child_returned(&mut self, score: Score) -> Flow {
        if self.worker.stopped() {
            return Flow::Exit(Exit::Stopped);
        }
        let ply = self.stack.top;
        let proxy = self.stack.is_proxy(ply);
        let f = &mut self.stack.frames[ply];
        if f.stage == Stage::AwaitNull {
            let tt_move = f.tt_move;
            return match self.worker.null_move_result(score, f.beta) {
                Some(score) => Flow::Return(score),
                None => self.begin_moves(ply, tt_move),
            };
        }
        let i = f.index;
        let research = if i > 0 && f.reduction > 0 && score > f.alpha {
            // The reduced search beat alpha: search again at full depth.
            f.reduction = 0;
            Some((-f.alpha - 1, -f.alpha, f.node_type.child(i)))
        } else if i > 0 && !f.research && score > f.alpha && score < f.beta {
            // The null window failed high inside the window: search again.
            f.research = true;
            Some((-f.beta, -f.alpha, NodeType::Pv))
        } else {
            None
        };
        if let Some((alpha, beta, node_type)) = research {
            let depth = f.depth - 1;
            let c = &mut self.stack.frames[ply + 1];
            c.alpha = alpha;
            c.beta = beta;
            c.depth = depth;
            c.node_type = node_type;
            c.stage = Stage::Enter;
            self.stack.top = ply + 1;
            return Flow::Continue;
        }
        if proxy {
            return self.report(score);
        }
        let mv = f.mv.expect("a frame awaiting a child has a move in flight");
        if score > f.best {
            f.best = score;
            if score > f.alpha {
                f.alpha = score;
                f.best_move = Some(mv);
                self.worker.update_pv(ply, mv);
                if score >= f.beta {
                    self.worker.on_cutoff(mv, i, f.depth, ply);
                    f.stage = Stage::Complete;
                    return Flow::Continue;
                }
            }
        }
        if i == 0 {
            f.node_type = f.node_type.after_first_move();
        }
        f.stage = Stage::NextMove;
        Flow::Continue
    }

    /// `Worker::pvs` after its move loop: the table store and the return.
    fn complete(&mut self) -> Flow {
        let f = &self.stack.frames[self.stack.top];
        if f.root {
            return Flow::Exit(Exit::RootDone);
        }
        let bound = if f.best >= f.beta {
            Bound::Lower
        } else if f.best > f.orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_key = f.best_move.map_or(NO_MOVE, G::move_key);
        self.ctx.tt.store(
            f.key,
            TtEntry {
                move_key,
                score: to_table(f.best, f.ply),
                depth: f.depth,
                bound,
            },
        );
        Flow::Return(f.best)
    }

    /// Sets up the root frame as `Worker::search_root` does.
    fn start_root(
        &mut self,
        root: &G,
        root_moves: &[RootMove<G::Move>],
        alpha: Score,
        beta: Score,
        depth: i32,
    ) {
        self.worker.set_pv_line(0, &[]);
        self.worker.stats.nodes += 1;
        let serial = self.stack.next_serial();
        self.stack.ensure(1, root);
        let f = &mut self.stack.frames[0];
        f.pos = root.clone();
        f.alpha = alpha;
        f.beta = beta;
        f.orig_alpha = alpha;
        f.depth = depth;
        f.ply = 0;
        f.node_type = NodeType::Pv;
        f.entry_type = NodeType::Pv;
        f.root = true;
        f.moves.clear();
        f.moves.extend(root_moves.iter().map(|r| r.mv));
        // Keys that keep the given order.
        f.keys.clear();
        f.keys.extend((0..root_moves.len()).map(|i| -(i as i64)));
        f.next = 0;
        f.best = -INFINITY;
        f.best_move = None;
        f.stage = Stage::NextMove;
        f.serial = serial;
        self.stack.base = 0;
        self.stack.base_sp = NONE;
        self.stack.top = 0;
    }

    /// `Worker::search_root` on the explicit stack (and, with DTS, on all
    /// threads). Returns the score and whether the search was stopped (the
    /// result is then void, except as `search_root` keeps it).
    fn search_root_on_stack(
        &mut self,
        root: &G,
        root_moves: &mut [RootMove<G::Move>],
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> (Score, bool) {
        if let Some(dts) = self.dts {
            *lock(&dts.root_result) = None;
            dts.root_done.store(false, Relaxed);
        }
        self.start_root(root, root_moves, alpha, beta, depth);
        let exit = self.run_busy();
        let (best, best_move, stopped) = match exit {
            Exit::RootDone => (
                self.stack.frames[0].best,
                self.stack.frames[0].best_move,
                false,
            ),
            Exit::Stopped if self.stack.base == 0 && self.stack.base_sp == NONE => {
                // Still ours: keep what the recursive search would keep.
                (
                    self.stack.frames[0].best,
                    self.stack.frames[0].best_move,
                    true,
                )
            }
            Exit::Stopped => (-INFINITY, None, true),
            Exit::Idle => {
                let dts = self.dts.expect("only split points make a thread idle");
                self.idle(dts, true);
                let posted = lock(&dts.root_result).take();
                match posted {
                    Some(r) if dts.root_done.load(Acquire) => {
                        self.worker.set_pv_line(0, &r.pv);
                        (r.best, r.best_move, false)
                    }
                    _ => (-INFINITY, None, true),
                }
            }
        };
        if let Some(i) = best_move.and_then(|mv| root_moves.iter().position(|r| r.mv == mv)) {
            root_moves[..=i].rotate_right(1);
            root_moves[0].score = best;
        } else if !stopped {
            root_moves[0].score = best;
        }
        (best, stopped)
    }

    /// [`Self::run`], published as busy for the time.
    fn run_busy(&mut self) -> Exit {
        let Some(dts) = self.dts else {
            return self.run();
        };
        dts.set_busy(self.ctx.thread, true);
        let exit = self.run();
        dts.set_busy(self.ctx.thread, false);
        exit
    }

    // ----- DTS -----

    /// The proxy's move loop head: the split point's next move, or leave.
    fn next_shared_move(&mut self) -> Flow {
        let dts = self.dts.expect("proxies exist only under DTS");
        let sp = &dts.split_points[self.stack.base_sp];
        let taken = {
            let mut d = sp.lock();
            let node = &mut d.node;
            if sp.cutoff.load(Relaxed)
                || node.next >= node.moves.len()
                || dts.cut_above(sp.parent.load(Relaxed))
            {
                None
            } else {
                let i = node.next;
                pick_best(&mut node.moves, &mut node.keys, i);
                node.next += 1;
                if node.next == node.moves.len() {
                    sp.open.store(false, Relaxed);
                }
                Some((i, node.moves[i], node.alpha, node.node_type))
            }
        };
        let Some((i, mv, alpha, node_type)) = taken else {
            return self.leave(dts, true);
        };
        let nodes = self.worker.stats.nodes;
        let f = &mut self.stack.frames[self.stack.top];
        f.alpha = alpha;
        f.node_type = node_type;
        let child = f.pos.play(mv);
        let r = self
            .worker
            .reduction(self.ctx, &f.pos, &child, mv, i, f.depth, node_type);
        f.begin_move(i, mv, r, nodes);
        let (alpha, beta, node_type) = f.child_window(i);
        let depth = f.depth - 1 - r;
        self.push(child, alpha, beta, depth, node_type);
        Flow::Continue
    }

    /// Reports the proxy's finished move to its split point.
    fn report(&mut self, score: Score) -> Flow {
        let dts = self.dts.expect("proxies exist only under DTS");
        let ply = self.stack.top;
        let f = &self.stack.frames[ply];
        let (i, depth) = (f.index, f.depth);
        let mv = f.mv.expect("a proxy reports the move it searched");
        let sp = &dts.split_points[self.stack.base_sp];
        let cut = {
            let mut d = sp.lock();
            let mut cut = false;
            if score > d.node.best {
                d.node.best = score;
                if score > d.node.alpha {
                    d.node.alpha = score;
                    d.node.best_move = Some(mv);
                    d.pv.clear();
                    d.pv.push(mv);
                    d.pv.extend(
                        self.worker
                            .pv_line(ply + 1)
                            .iter()
                            .take(MAX_PLY - 1)
                            .copied(),
                    );
                    if score >= d.node.beta {
                        sp.cutoff.store(true, Relaxed);
                        sp.open.store(false, Relaxed);
                        cut = true;
                    }
                }
            }
            if i == 0 {
                d.node.node_type = d.node.node_type.after_first_move();
            }
            cut
        };
        if cut {
            self.worker.on_cutoff(mv, i, depth, ply);
        }
        self.stack.frames[ply].stage = Stage::NextMove;
        Flow::Continue
    }

    /// Leaves the base split point, the move in flight reported or not.
    /// The last worker out takes the node over if its result is final,
    /// else leaves the enclosing split point in turn.
    fn leave(&mut self, dts: &Dts<G>, mut reported: bool) -> Flow {
        loop {
            let id = self.stack.base_sp;
            let sp = &dts.split_points[id];
            let mut d = sp.lock();
            d.workers -= 1;
            d.aborted |= !reported;
            if d.workers > 0 {
                return Flow::Exit(Exit::Idle);
            }
            d.closed = true;
            sp.open.store(false, Relaxed);
            let parent = sp.parent.load(Relaxed);
            let complete =
                sp.cutoff.load(Relaxed) || (d.node.next >= d.node.moves.len() && !d.aborted);
            if complete {
                let p = d.node.ply;
                let anc_base = d.anc_base;
                self.stack.ensure(p + 1, &d.node.pos);
                self.stack.frames[anc_base..p].clone_from_slice(&d.ancestors);
                self.stack.frames[p].clone_from(&d.node);
                self.stack.frames[p].stage = Stage::Complete;
                self.worker.set_pv_line(p, &d.pv);
                self.stack.base = anc_base;
                self.stack.base_sp = parent;
                self.stack.top = p;
                drop(d);
                dts.release(id);
                return Flow::Continue;
            }
            drop(d);
            dts.release(id);
            if parent == NONE {
                debug_assert!(false, "an unfinished split point with no cutoff above it");
                return Flow::Exit(Exit::Idle);
            }
            self.stack.base_sp = parent;
            reported = false;
        }
    }

    /// A cutoff above: drop the private frames and leave without reporting.
    fn abandon(&mut self, dts: &Dts<G>) -> Flow {
        if !self.ctx.stop.load(Relaxed) {
            let spent = self.worker.stats.nodes - self.stack.frames[self.stack.base].nodes_at_move;
            self.worker.stats.aborted_nodes += spent;
        }
        self.leave(dts, false)
    }

    /// Answers a request and publishes candidates, as `attention` asks.
    fn serve(&mut self, dts: &Dts<G>) {
        let slot = &dts.threads[self.ctx.thread];
        let bits = slot.attention.load(Relaxed);
        let mut publish = false;
        if bits & REQUEST != 0 {
            slot.attention.fetch_and(!REQUEST, Acquire);
            let request = lock(&slot.mailbox).take();
            if let Some(req) = request {
                let answer = self.split_for(dts, req);
                if answer == REFUSED {
                    self.worker.stats.splits_refused += 1;
                }
                dts.threads[req.helper].answer.store(answer, Release);
                // The stack changed or the list was stale: show a fresh one.
                publish = true;
            }
        }
        if bits & PUBLISH != 0 && self.worker.stats.nodes >= self.stack.next_publish {
            publish = true;
        }
        // The bit stays set until there is something to offer: idle threads
        // wait for candidates, not for a list.
        if publish && self.publish(dts) {
            slot.attention.fetch_and(!PUBLISH, Relaxed);
        }
        if publish {
            self.stack.next_publish = self.worker.stats.nodes + PUBLISH_INTERVAL;
        }
    }

    /// Splits (or joins) the frame a request names, if it is still that
    /// node and still worth it: the split point id, or `REFUSED`.
    fn split_for(&mut self, dts: &Dts<G>, req: Request) -> usize {
        let (base, base_sp, top, ply) =
            (self.stack.base, self.stack.base_sp, self.stack.top, req.ply);
        if ply < base || ply >= top || self.stack.frames[ply].serial != req.serial {
            return REFUSED;
        }
        if self.stack.is_proxy(ply) {
            return if dts.join(base_sp) { base_sp } else { REFUSED };
        }
        let f = &self.stack.frames[ply];
        if f.depth < DTS_MIN_SPLIT_DEPTH || f.index == 0 || f.next >= f.moves.len() {
            return REFUSED;
        }
        let Some(id) = dts.alloc() else {
            return REFUSED;
        };
        let sp = &dts.split_points[id];
        {
            let mut d = sp.lock();
            d.node.clone_from(f);
            d.ancestors.clear();
            d.ancestors.extend_from_slice(&self.stack.frames[base..ply]);
            d.anc_base = base;
            d.pv.clear();
            d.pv.extend(self.worker.pv_line(ply).iter().copied());
            // This thread (its move in flight) and the helper.
            d.workers = 2;
            d.aborted = false;
            d.closed = false;
            sp.parent.store(base_sp, Relaxed);
            sp.depth.store(f.depth, Relaxed);
            sp.cutoff.store(false, Relaxed);
            sp.open.store(true, Relaxed);
        }
        self.stack.base = ply;
        self.stack.base_sp = id;
        self.worker.stats.splits += 1;
        // Other idle threads may join it at once.
        dts.wake_sleepers();
        id
    }

    /// Writes this thread's candidates (splittable frames, and its split
    /// point if it has moves left) for idle threads to choose from; true if
    /// there is any.
    fn publish(&mut self, dts: &Dts<G>) -> bool {
        let stack = &*self.stack;
        let mut list = lock(&dts.threads[self.ctx.thread].published);
        list.clear();
        for ply in stack.base..stack.top {
            let f = &stack.frames[ply];
            let merit = if stack.is_proxy(ply) {
                if !dts.split_points[stack.base_sp].open.load(Relaxed) {
                    continue;
                }
                merit(f.depth, f.entry_type, 3) + JOIN_BONUS
            } else if f.depth >= DTS_MIN_SPLIT_DEPTH && f.index >= 1 && f.next < f.moves.len() {
                merit(f.depth, f.entry_type, f.index)
            } else {
                continue;
            };
            list.push(Candidate {
                ply,
                serial: f.serial,
                merit,
            });
        }
        let any = !list.is_empty();
        dts.threads[self.ctx.thread].offering.store(any, SeqCst);
        drop(list);
        if any {
            dts.wake_sleepers();
        }
        any
    }

    /// Works at split point `id` (this thread is already counted in).
    fn work(&mut self, dts: &Dts<G>, id: usize) {
        let serial = self.stack.next_serial();
        let ply = {
            let d = dts.split_points[id].lock();
            let p = d.node.ply;
            self.stack.ensure(p + 1, &d.node.pos);
            let f = &mut self.stack.frames[p];
            f.pos = d.node.pos.clone();
            f.alpha = d.node.alpha;
            f.beta = d.node.beta;
            f.depth = d.node.depth;
            f.ply = p;
            f.node_type = d.node.node_type;
            f.entry_type = d.node.entry_type;
            f.root = false;
            f.stage = Stage::NextMove;
            f.nodes_at_move = self.worker.stats.nodes;
            f.serial = serial;
            p
        };
        self.stack.base = ply;
        self.stack.base_sp = id;
        self.stack.top = ply;
        if self.run_busy() == Exit::RootDone {
            let f = &self.stack.frames[0];
            dts.post_root(f.best, f.best_move, self.worker.pv_line(0));
        }
    }

    /// The idle loop: find work, ask for it, do it. Helpers stay until the
    /// search is done; thread 0 (`for_root`) until the root result is in or
    /// the search stops.
    fn idle(&mut self, dts: &Dts<G>, for_root: bool) {
        let me = self.ctx.thread;
        let mut since = Instant::now();
        let mut backoff = Backoff::new(idle::DTS_IDLE);
        loop {
            if dts.done.load(Acquire) {
                break;
            }
            if for_root {
                if dts.root_done.load(Acquire) || self.ctx.stop.load(Relaxed) {
                    break;
                }
                // Thread 0 searches no nodes while it waits here: read the clock.
                if self.ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                    self.ctx.stop.store(true, Relaxed);
                    break;
                }
            }
            dts.refuse_requests(me);
            if !self.ctx.stop.load(Relaxed) {
                // An open split point needs nobody's answer: join it.
                if let Some(id) = dts.find_open()
                    && dts.join(id)
                {
                    self.worker.stats.idle_micros += since.elapsed().as_micros() as u64;
                    self.work(dts, id);
                    since = Instant::now();
                    backoff.reset();
                    continue;
                }
                match dts.choose(me) {
                    Some((target, c)) => {
                        if dts.post(me, target, c) {
                            match self.await_answer(dts) {
                                Some(id) => {
                                    self.worker.stats.idle_micros +=
                                        since.elapsed().as_micros() as u64;
                                    self.work(dts, id);
                                    since = Instant::now();
                                    backoff.reset();
                                    continue;
                                }
                                None if dts.done.load(Acquire) => break,
                                None => {}
                            }
                        }
                    }
                    None => dts.ask_for_candidates(me),
                }
            }
            let root_done = &dts.root_done;
            backoff.snooze(&dts.sleep, || {
                dts.done.load(SeqCst)
                    || dts.has_candidates(me)
                    || dts.find_open().is_some()
                    || dts.threads[me].attention.load(SeqCst) & REQUEST != 0
                    || (for_root && root_done.load(Relaxed))
            });
        }
        self.worker.stats.idle_micros += since.elapsed().as_micros() as u64;
    }

    /// Waits for the answer to this thread's request, refusing requests sent
    /// to it meanwhile. `None`: refused, or the search is over.
    fn await_answer(&mut self, dts: &Dts<G>) -> Option<usize> {
        let me = self.ctx.thread;
        let mut turns = 0;
        loop {
            let answer = dts.threads[me].answer.load(Acquire);
            if answer == REFUSED {
                return None;
            }
            if answer != PENDING {
                return Some(answer);
            }
            if dts.done.load(Acquire) {
                return None;
            }
            dts.refuse_requests(me);
            // The answer comes within a few nodes, unless the target is off
            // its core: spin, then nap briefly.
            turns += 1;
            if turns < 1024 {
                std::hint::spin_loop();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
        }
    }
}

impl<G: Game, E: Evaluator<G>> RootSearch<G> for Searcher<'_, '_, G, E> {
    fn search_root(
        &mut self,
        root: &G,
        root_moves: &mut [RootMove<G::Move>],
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Option<Score> {
        let (score, stopped) = self.search_root_on_stack(root, root_moves, alpha, beta, depth);
        (!stopped).then_some(score)
    }

    fn pv(&self) -> &[G::Move] {
        self.worker.pv()
    }

    fn stats(&self) -> Stats {
        self.worker.stats
    }
}

/// How much an idle thread wants to help at a frame: remaining depth first
/// (shallow plies carry big subtrees), then expected ALL and PV nodes, then
/// CUT nodes that have already searched several moves without a cutoff.
fn merit(depth: i32, entry_type: NodeType, searched: usize) -> i64 {
    let kind = match entry_type {
        NodeType::All => 6,
        NodeType::Pv => 5,
        NodeType::Cut => 2 * searched.min(3) as i64,
    };
    depth as i64 * 16 + kind
}

/// DTS on the threads of `job`: thread 0 deepens, the others start idle.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let dts = Dts::new(job.workers.len(), job.root);
    lead_and_help(
        job,
        None,
        &|| dts.finish(),
        on_iteration,
        Box::new(|worker, ctx, report| {
            let mut stack = Stack::new(ctx.thread);
            let mut searcher = Searcher {
                worker,
                ctx,
                stack: &mut stack,
                dts: Some(&dts),
            };
            deepen(&mut searcher, job, DepthPlan::default(), report)
        }),
        |worker, ctx| {
            let mut stack = Stack::new(ctx.thread);
            let mut searcher = Searcher {
                worker,
                ctx,
                stack: &mut stack,
                dts: Some(&dts),
            };
            searcher.idle(&dts, false);
        },
    )
}

/// Test hooks: the iterative search against the recursive one.
#[cfg(feature = "testing")]
pub mod testing {
    use std::sync::atomic::AtomicBool;

    use super::{Searcher, Stack};
    use crate::game::{Evaluator, Game, MoveList};
    use crate::score::{INFINITY, Score};
    use crate::search::{RootMove, SearchContext, Worker};
    use crate::stats::Stats;
    use crate::tt::TranspositionTable;

    /// What one single-threaded deepening found.
    #[derive(Clone, Debug, PartialEq)]
    pub struct SerialRun<M> {
        /// The last iteration's score.
        pub score: Score,
        /// The root move at the front after the last iteration.
        pub best_move: Option<M>,
        /// The principal variation.
        pub pv: Vec<M>,
        /// Everything counted, nodes included.
        pub stats: Stats,
    }

    /// Deepens `root` to `depth` single-threaded, each on a fresh 1 MiB table
    /// and a fresh worker, with the recursive search and with the iterative
    /// one; iterations before the last use a full window, the last
    /// `window`. Returns (recursive, iterative): they must be equal.
    pub fn iterative_vs_recursive<G: Game, E: Evaluator<G>>(
        root: &G,
        eval: &E,
        depth: i32,
        exact: bool,
        window: (Score, Score),
    ) -> (SerialRun<G::Move>, SerialRun<G::Move>) {
        (
            deepen(root, eval, depth, exact, window, false),
            deepen(root, eval, depth, exact, window, true),
        )
    }

    fn deepen<G: Game, E: Evaluator<G>>(
        root: &G,
        eval: &E,
        depth: i32,
        exact: bool,
        window: (Score, Score),
        iterative: bool,
    ) -> SerialRun<G::Move> {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let ctx = SearchContext::new(&tt, eval, &stop, exact);
        let mut worker = Worker::new();
        let mut stack = Stack::new(0);
        let mut moves = MoveList::new();
        root.generate_moves(&mut moves);
        let mut root_moves: Vec<RootMove<G::Move>> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
            })
            .collect();
        let mut score = 0;
        if !root_moves.is_empty() {
            for d in 1..=depth {
                let (alpha, beta) = if d == depth {
                    window
                } else {
                    (-INFINITY, INFINITY)
                };
                score = if iterative {
                    let mut s = Searcher {
                        worker: &mut worker,
                        ctx: &ctx,
                        stack: &mut stack,
                        dts: None,
                    };
                    s.search_root_on_stack(root, &mut root_moves, alpha, beta, d)
                        .0
                } else {
                    worker.search_root(&ctx, root, &mut root_moves, alpha, beta, d)
                };
            }
        }
        SerialRun {
            score,
            best_move: root_moves.first().map(|r| r.mv),
            pv: worker.pv().to_vec(),
            stats: worker.stats,
        }
    }
}
