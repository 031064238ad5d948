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
//! stack is that a node's state is *data*: any thread can take it over. A
//! node that can never be split (remaining depth below
//! [`dts_min_split_depth`]) needs none of that, so a child that shallow is
//! searched by [`Worker::pvs`] at once (`Searcher::descend`): most nodes lie
//! next to the leaves, and a frame each cost single-threaded DTS 2–8% of
//! serial's speed. Outside exact mode a child below
//! [`DTS_EAGER_FRAME_DEPTH`] gets a frame only while an idle thread is
//! asking for work (`Searcher::place`): those frames are the machine's
//! busiest, and the ones above them are candidates enough until someone
//! asks.
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
//!   node it enters, and before every move it searches without a frame (a
//!   node whose children are all too shallow for frames enters none, and
//!   was never offered: in chess the first such node of each iteration's
//!   leftmost line left the helper idle for a quarter of a millisecond;
//!   offering it halved the idle time of the four midgame suites). Inside
//!   a move whose child could be split but got no frame, as nobody was
//!   asking, the recursive search looks at it too, at every interior node,
//!   and serves from there (an
//!   [`Interrupt`](crate::search::hook::Interrupt), `ServeFromBelow`):
//!   the frames above do not change meanwhile. While
//!   the bit is set it writes, at most once every [`PUBLISH_INTERVAL`]
//!   nodes and under its `published` lock, one
//!   [`Candidate`] per splittable frame of its stack: ply, frame serial
//!   number and a merit (remaining depth first, then expected ALL/PV nodes,
//!   then CUT nodes with several moves already searched; a close call,
//!   `Frame::close_call`, counts a ply less). Splittable
//!   (`Frame::splittable`): remaining depth ≥ [`dts_min_split_depth`],
//!   eldest brother searched, moves left, and, at the root of a
//!   null-window root search (an MTD(f) probe: which of its moves cuts is
//!   unknown and each is a subtree of the whole depth, so the helpers go
//!   below the root's move in flight), [`PROBE_ROOT_SPLIT_AFTER`] moves
//!   taken (by then the probe likely fails low, and every root move is
//!   needed); or the frame is already a split point with
//!   moves left (the helper then just joins). The bit is cleared only once
//!   a non-empty list is out, and that publication wakes sleeping idle
//!   threads.
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
//!   The helper waits for its answer (spinning, then parked) and never
//!   gives a request up unless the whole search is over, so a helper
//!   counted in a split point always arrives there.
//! - **Working.** A thread's stack runs from `base` to `top`; `frames[base]`
//!   is either the root (thread 0, no split point) or the proxy for split
//!   point `base_sp`. At the proxy the thread takes the next move under the
//!   split point's lock (with the split point's current alpha), searches it
//!   with the PVS null window and re-search, and reports the result under the
//!   lock (best, alpha, best move, PV; a score ≥ beta sets `cutoff`).
//! - **Stepping away.** At a null-window split point that may still cut
//!   off (not an expected ALL node, whose moves all have to be searched),
//!   a move that stays in flight while others are reported there (two, or
//!   one a ply below the root; never at a probe's root: [`heavy_after`])
//!   is likely the one that fails high, and the moves after it would be
//!   wasted (a refuted move is cheap, the move that refutes the node is
//!   not). A thread about to take a move then leaves instead, while others
//!   are still counted, and the split point takes no
//!   newcomers until a taken move is back: the thread goes idle and helps
//!   below that move. On FFO #40-#44 at two threads this took the nodes
//!   from 412M to 393M (serial 370M) and the time from 4.15 s to 3.88 s;
//!   one report within a ply of the root, with the probe's root not split,
//!   took them (over a better root order, serial 348M) from 381M to 368M.
//! - **The probe's root cuts in order.** At the root of an MTD(f) probe,
//!   a move that reaches beta while moves before it are still out does not
//!   cut yet: no new move is taken, the threads help below those moves,
//!   and the cut is made once they are back ([`DtsSplitData::cut_pending`]),
//!   as the serial loop would have searched them. The probes that walk the
//!   score up end with one that fails low at the root, and that one needs
//!   every root move's bound: FFO #40-#44 at two threads, 337.9M -> 334.0M
//!   nodes (8 interleaved runs each; serial 316.0M). Deeper split points
//!   cut at once: waiting there too cost more than it saved (342.9M).
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
//! - **Overtaken.** Outside exact mode, a thread whose move at its split
//!   point is in a full-window search that the others' moves have overtaken
//!   (the split point's `alpha` has reached what the move's null window
//!   proved) drops its private frames at the next node it enters and asks
//!   the move again in a null window at that alpha, as the serial loop
//!   would have (`Searcher::ask_again`).
//! - **The prover goes first.** Outside exact mode, at a split point with
//!   [`PROVER_FIRST_DEPTH`] or more left, full-window searches keep the
//!   serial order. A move whose null window fails high while an earlier move
//!   is still out (in flight, or waiting itself) is deferred (`deferred`):
//!   if that earlier move fails high too, it raises alpha past what this
//!   one proved, and a full-window search started now would be dropped
//!   when it did (Overtaken, above). While a move is in its full-window
//!   search (the prover), no new move is taken (the thread leaves and helps
//!   below the prover, which stays counted). Deferred moves go again, in
//!   their order, once no earlier move is in flight, and are asked at the
//!   alpha the earlier ones set.
//! - **Stop.** On the global stop a thread drops its stack without touching
//!   any split point and goes idle; thread 0 ends the search with the last
//!   completed iteration and raises `done`; split points left half-done die
//!   with the search's [`Dts`].
//!
//! # Who changes what, orderings, why no deadlock
//!
//! - A [`Stack`] is owned by its thread; frames move between threads only by
//!   copy, through a split point, under its lock.
//! - [`DtsSplitData`] (the node frame, the ancestor frames, PV, `workers`,
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
//! - Sleep: idle threads spin a while (1024 turns of the idle loop, which
//!   looks for work at each: a sleeper pays a wake-up of tens of
//!   microseconds when work appears), then sleep on a condition variable
//!   with a 1 ms timeout (a missed wake-up costs at most that). Before
//!   sleeping a thread sets the other threads' `PUBLISH` bits, also after a
//!   refused request (a refusal can empty a list without anyone asking for a
//!   new one: the thread would then sleep its whole nap; on FFO #40-#44 at two
//!   threads this was half of the idle time), announces itself in `sleepers`
//!   and re-checks for candidates, open split points and requests addressed
//!   to it; publishing a non-empty list, opening a split point, posting a
//!   request, posting the root result and `finish` notify. No `yield_now`:
//!   on a loaded machine it gives the core away for a whole time slice. A
//!   helper waiting for an answer spins, then parks; the answer unparks it
//!   ([`Dts::answer`]), and so does `finish`. The park's 1 ms timeout only
//!   bounds a wake-up that went astray.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::thread::Thread;

use arrayvec::ArrayVec;
use crossbeam_utils::CachePadded;

use crate::driver::{
    DepthPlan, Helpers, Lead, RootMoves, RootSearch, RootWindow, SearchJob, SearchResult, deepen,
    lead_with, lock,
};
use crate::game::{Evaluator, Game, MAX_PLY, MoveBuffer, PerMove};
use crate::node::NodeType;
use crate::parallel::idle::{self, Backoff, IdleSleep};
use crate::parallel::shared_node::{Merged, NO_SPLIT_POINT, SharedResult, cut_off_on_chain};
use crate::parallel::thresholds::{
    DTS_EAGER_FRAME_DEPTH, DTS_SPLITS_PER_THREAD, dts_min_split_depth,
};
use crate::score::{INFINITY, Score};
use crate::search::rules::{
    ChildWindow, MoveLoop, MoveSearch, at_horizon, extension, null_move_depth, null_move_position,
    pick_best,
};
use crate::search::{RootMove, SearchContext, Worker, move_to_front};
use crate::tt::NO_MOVE;

mod node;
mod share;
#[cfg(feature = "testing")]
pub mod testing;

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
/// Moves reported at a null-window split point `ply` plies from the root
/// while one move stays in flight, after which that move is taken for the
/// one that will cut: a thread then helps below it instead of taking
/// further moves. Right below the root a wasted move is a subtree of nearly
/// the whole depth, so one report is enough there; deeper, one made the
/// helper idle far more often for fewer nodes saved, so two. At the root
/// itself (a null-window root is an MTD(f) probe's) no root move is
/// wasted: one before the cutting move is searched anyway (the cut waits
/// for it, [`DtsSplitData::cut_pending`]), and the bound of one after it
/// is what the last probe of a walk up needs. Stepping away there after
/// one report, as at ply 1, cost FFO #40-#44 at two threads 333.7M against
/// 331.4M nodes (6 interleaved runs; 334.3M against 330.3M in 4 more).
fn heavy_after(ply: usize) -> u32 {
    match ply {
        0 => u32::MAX,
        1 => 1,
        _ => 2,
    }
}

/// Root moves a null-window root search (an MTD(f) probe) has taken
/// before its root may be split ([`Frame::splittable`]): the root is
/// ordered by each move's best reply, so a move that fails high is most
/// often among the first. FFO #40-#44 at two threads, interleaved runs
/// (16, 16, 12 and 10 of each): never split 369.3M nodes, after 3, 4 and 5
/// moves 367.6M, 367.4M and 367.1M (serial 347.6M); idle 0.62% of thread
/// time against 0.44-0.49%, and a third fewer splits.
const PROBE_ROOT_SPLIT_AFTER: usize = 3;

/// The least remaining depth at which the prover goes first
/// ([`prover_first`]). Chess, dts at two threads, 3 interleaved rounds of 3
/// runs each: from 4 and 8, 1.82 and 1.84 x serial where 6 gave 1.87 and no
/// rule 1.83; from 5 and 7, 1.86 and 1.87 where 6 gave 1.83 and no rule
/// 1.78. A middle, not a measured optimum.
const PROVER_FIRST_DEPTH: i32 = 6;

/// Whether, at a split point of remaining depth `depth`, a move in its
/// full-window search (the prover) goes first, as in the serial loop: a
/// young brother whose null window fails high meanwhile waits for it and
/// is then asked again at the alpha it set, and no new move is taken
/// until it is back (the threads help below it instead). Outside exact
/// mode only, and from [`PROVER_FIRST_DEPTH`].
fn prover_first(exact: bool, depth: i32) -> bool {
    !exact && depth >= PROVER_FIRST_DEPTH
}

/// Where a frame is in its node's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Just pushed: window and depth set, nothing done.
    Enter,
    /// Take the next move (or complete when none is left).
    NextMove,
    /// A child is being searched (`index`, `mv` and `search` say which).
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
    moves: G::Moves,
    keys: PerMove<G, i64>,
    /// Moves taken so far (the next one's index).
    next: usize,
    best: Score,
    best_move: Option<G::Move>,
    stage: Stage,
    /// The move in flight: its index, itself, and where its searches stand
    /// (reduced, re-searched, full window).
    index: usize,
    mv: Option<G::Move>,
    search: MoveSearch,
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
            moves: G::Moves::default(),
            keys: Default::default(),
            next: 0,
            best: -INFINITY,
            best_move: None,
            stage: Stage::Enter,
            index: 0,
            mv: None,
            search: MoveSearch::new(0, 0),
            tt_move: NO_MOVE,
            nodes_at_move: 0,
            serial: 0,
        }
    }

    /// Whether an idle thread may split this node (it is not a split
    /// point yet): deep enough for frames, its eldest brother searched,
    /// moves left — and, at the root of a null-window root search (an
    /// MTD(f) probe), [`PROBE_ROOT_SPLIT_AFTER`] moves taken. Each of a
    /// probe's root moves is a subtree of the whole depth and nothing says
    /// which one will cut, so a second one searched beside it is a gamble
    /// on a whole subtree (in FFO #44's last probe the loser took 4.5–10M
    /// nodes, 5–10% of the solve); the helpers go below the root's move in
    /// flight instead, where a cutting move's child is an ALL node. Once
    /// that many root moves failed low, the probe most likely fails low
    /// too, and then every root move must be searched: an ALL node.
    fn splittable(&self, exact: bool) -> bool {
        self.depth >= dts_min_split_depth(exact)
            && self.index >= 1
            && self.next < self.moves.len()
            && !(self.probe_root() && self.next < PROBE_ROOT_SPLIT_AFTER)
    }

    /// Whether the node was entered with a null window.
    fn null_window(&self) -> bool {
        self.beta - self.orig_alpha == 1
    }

    /// Whether this is the root of a null-window root search (an MTD(f)
    /// probe), where a cut waits for the moves before it
    /// ([`DtsSplitData::cut_pending`]).
    fn probe_root(&self) -> bool {
        self.root && self.null_window()
    }

    /// Whether this null-window node is a close call: fewer than
    /// [`CLOSE_CALL_MOVES`] moves taken, and the best of those back failed
    /// low by at most [`CLOSE_FAIL_LOW`]. Such a node cuts on a later move
    /// far more often than one whose eldest failed low by more (serial FFO
    /// #40-#44, null-window nodes above the leaf solver: 23% against 13% or
    /// less; 51-57% against 36-40% of those entered as CUT nodes), so an
    /// idle thread helps there as if it were a ply deeper.
    fn close_call(&self) -> bool {
        !self.root
            && self.null_window()
            && self.best >= self.alpha - CLOSE_FAIL_LOW
            && self.next < CLOSE_CALL_MOVES
    }

    /// How much an idle thread wants to split this frame ([`merit`]).
    fn split_merit(&self) -> i64 {
        let close_call = if self.close_call() { PLY_MERIT } else { 0 };
        merit(self.depth, self.entry_type, self.index) - close_call
    }

    /// Records the move in flight, reduced by `reduction` plies, and the
    /// window of its first search; waits for its child.
    fn begin_move(&mut self, index: usize, mv: G::Move, reduction: i32, nodes: u64) -> ChildWindow {
        self.index = index;
        self.mv = Some(mv);
        self.search = MoveSearch::new(index, reduction);
        self.nodes_at_move = nodes;
        self.stage = Stage::AwaitChild;
        self.search
            .first(self.alpha, self.beta, self.depth, self.node_type)
    }
}

/// One thread's explicit stack. Frames are indexed by ply; `frames[base]` is
/// the root frame (`base_sp == NO_SPLIT_POINT`) or the proxy for split point `base_sp`.
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
            base_sp: NO_SPLIT_POINT,
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
        ply == self.base && self.base_sp != NO_SPLIT_POINT
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
struct DtsSplitData<G: Game> {
    /// The split node: its moves, keys and next are the shared move loop;
    /// the rest (position, depth, key, original alpha, types) is fixed but
    /// for its window and result, which are in `result` until the last
    /// thread takes the node over.
    node: Frame<G>,
    /// Copies of the frames `anc_base..node.ply` of the thread that split:
    /// `frames[anc_base]` is the proxy of `parent` (or the root frame).
    ancestors: Vec<Frame<G>>,
    /// That thread's best lines at those plies: the frames' best moves'
    /// lines, which whoever takes the node over continues from.
    ancestor_lines: Vec<ArrayVec<G::Move, MAX_PLY>>,
    anc_base: usize,
    /// The move loop's result so far (alpha, best, best move, its line).
    result: SharedResult<G::Move>,
    /// Threads with a move in flight here, or about to take one.
    workers: usize,
    /// Moves reported here so far.
    reported: u32,
    /// The moves in flight.
    in_flight: Vec<InFlight<G::Move>>,
    /// Young brothers whose null window failed high while an earlier move
    /// was out (in flight or deferred), with their indices: asked again in
    /// the serial order once every earlier move is back ([`prover_first`]).
    deferred: Vec<(G::Move, usize)>,
    /// A move was given up without a result: not final unless cut off.
    aborted: bool,
    /// At a probe's root, the index of a move that reached beta while moves
    /// before it were in flight: the cut waits for them (nobody takes a new
    /// move; `cutoff` is raised once none of them is out). The serial loop
    /// would have searched them, and MTD(f)'s last probe, failing low at the
    /// root, needs every root move's bound: FFO #42's probe at 1 cut on g2
    /// (its eighth move) while c6 was out; aborted, c6 cost its last probe
    /// 10M nodes more than serial's (17M against 7M).
    cut_pending: Option<usize>,
    /// The last worker left: nobody may join.
    closed: bool,
}

/// A split point of the shared pool (no owner).
struct DtsSplitPoint<G: Game> {
    /// On cache lines of its own: every finished move writes it (under
    /// the lock), while `cutoff` and `parent` are read at every node below.
    data: CachePadded<Mutex<DtsSplitData<G>>>,
    /// A move reached beta. Written under the lock, read anywhere.
    cutoff: AtomicBool,
    /// Moves left to take and not closed: a hint for publishers.
    open: AtomicBool,
    /// The enclosing split point, or `NO_SPLIT_POINT`; fixed while anyone works here.
    parent: AtomicUsize,
    /// The node's remaining depth: idle threads join the deepest-remaining
    /// (shallowest) open split point first. A hint, like `open`.
    depth: AtomicI32,
    /// The result's alpha, mirrored (written under the lock) for the
    /// threads below to see it rise without taking the lock, and the index
    /// of the move that set it (ties go to earlier moves).
    alpha: AtomicI32,
    alpha_index: AtomicUsize,
}

/// A move taken at a split point and not reported yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct InFlight<M> {
    mv: M,
    /// Its place in the node's move order.
    index: usize,
    /// Moves reported at the split point when it was taken.
    taken_at: u32,
}

/// Whether a move earlier than the `index`-th is in its full-window search
/// at a split point with this `result` and these moves `in_flight` (the
/// serial loop would finish it first).
fn waits_for_prover<M: Copy + PartialEq>(
    result: &SharedResult<M>,
    in_flight: &[InFlight<M>],
    index: usize,
) -> bool {
    result
        .prover()
        .is_some_and(|(mv, at)| at < index && in_flight.iter().any(|m| m.mv == mv))
}

/// Whether the `index`-th move, its null window failed high, waits before
/// its full-window search: a move before it is still out (in flight, or
/// itself waiting), and the serial loop would have finished that one
/// first. If it fails high too it raises alpha past what this move's null
/// window proved, and a full-window search started now would be dropped
/// (`Searcher::ask_again`): chess's depth-8 suite lost 3% of serial's
/// nodes that way, most of it at the root.
fn waits_for_elder<M>(in_flight: &[InFlight<M>], deferred: &[(M, usize)], index: usize) -> bool {
    in_flight.iter().any(|m| m.index < index) || deferred.iter().any(|&(_, i)| i < index)
}

/// The earliest deferred move, taken off the list, once it waits no more.
fn take_deferred<M: Copy>(
    in_flight: &[InFlight<M>],
    deferred: &mut Vec<(M, usize)>,
) -> Option<(M, usize)> {
    let k = (0..deferred.len()).min_by_key(|&k| deferred[k].1)?;
    (!waits_for_elder(in_flight, deferred, deferred[k].1)).then(|| deferred.remove(k))
}

impl<G: Game> DtsSplitPoint<G> {
    /// A split point for a search of `threads` threads.
    fn new(pos: &G, threads: usize) -> Self {
        DtsSplitPoint {
            data: CachePadded::new(Mutex::new(DtsSplitData {
                node: Frame::new(pos.clone()),
                ancestors: Vec::new(),
                ancestor_lines: Vec::new(),
                anc_base: 0,
                result: SharedResult::unused(),
                workers: 0,
                reported: 0,
                // At most one move in flight per thread: no allocation
                // when a split is made.
                in_flight: Vec::with_capacity(threads),
                deferred: Vec::with_capacity(threads),
                aborted: false,
                cut_pending: None,
                closed: true,
            })),
            cutoff: AtomicBool::new(false),
            open: AtomicBool::new(false),
            parent: AtomicUsize::new(NO_SPLIT_POINT),
            depth: AtomicI32::new(0),
            alpha: AtomicI32::new(-INFINITY),
            alpha_index: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, DtsSplitData<G>> {
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
    /// This thread, unparked by the answer (set when it first asks).
    waiter: OnceLock<Thread>,
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
    split_points: Box<[DtsSplitPoint<G>]>,
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
            split_points: (0..count)
                .map(|_| DtsSplitPoint::new(root, threads))
                .collect(),
            free: Mutex::new((0..count).rev().collect()),
            threads: (0..threads)
                .map(|_| ThreadSlot {
                    attention: AtomicU32::new(0),
                    mailbox: Mutex::new(None),
                    answer: AtomicUsize::new(PENDING),
                    waiter: OnceLock::new(),
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
    fn cut_above(&self, id: usize) -> bool {
        cut_off_on_chain(id, |id| {
            let sp = &self.split_points[id];
            (sp.cutoff.load(Relaxed), sp.parent.load(Relaxed))
        })
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
        if d.closed
            || sp.cutoff.load(Relaxed)
            || d.cut_pending.is_some()
            || d.node.next >= d.node.moves.len()
        {
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
                self.answer(req, REFUSED);
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

    /// Gives the asking thread its answer and wakes it.
    fn answer(&self, req: Request, answer: usize) {
        let helper = &self.threads[req.helper];
        helper.answer.store(answer, Release);
        if let Some(waiter) = helper.waiter.get() {
            waiter.unpark();
        }
    }

    /// Puts a request in `target`'s mailbox; false if one is already there.
    fn post(&self, me: usize, target: usize, c: Candidate) -> bool {
        self.threads[me].waiter.get_or_init(std::thread::current);
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
        // Threads still waiting for an answer see `done` now.
        for waiter in self.threads.iter().filter_map(|slot| slot.waiter.get()) {
            waiter.unpark();
        }
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

impl<'s, 'c, G: Game, E: Evaluator<G>> Searcher<'s, 's, G, E> {
    fn new(
        worker: &'s mut Worker<G>,
        ctx: &'s SearchContext<'c, G, E>,
        stack: &'s mut Stack<G>,
        dts: Option<&'s Dts<G>>,
    ) -> Self {
        Searcher {
            worker,
            ctx,
            stack,
            dts,
        }
    }
}

/// A ply of remaining depth in a [`merit`].
const PLY_MERIT: i64 = 16;

/// How much an idle thread wants to help at a frame: remaining depth first
/// (shallow plies carry big subtrees), then expected ALL and PV nodes, then
/// CUT nodes that have already searched several moves without a cutoff.
fn merit(depth: i32, entry_type: NodeType, searched: usize) -> i64 {
    let kind = match entry_type {
        NodeType::All => 6,
        NodeType::Pv => 5,
        NodeType::Cut => 2 * searched.min(3) as i64,
    };
    depth as i64 * PLY_MERIT + kind
}

/// A null-window node whose moves so far failed low by at most this much
/// (their fail-soft best is within it of alpha) is a close call
/// ([`Frame::close_call`]).
const CLOSE_FAIL_LOW: Score = 1;

/// Moves a close call has taken after which it is offered at its plain
/// merit again.
const CLOSE_CALL_MOVES: usize = 3;

/// DTS on the threads of `job`: thread 0 deepens, the others start idle.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let dts = Dts::new(job.workers.len(), job.root);
    let lead: Box<Lead<'_, G, E>> = Box::new(|worker, ctx, report| {
        let mut stack = Stack::new(ctx.thread);
        let searcher = &mut Searcher::new(worker, ctx, &mut stack, Some(&dts));
        deepen(searcher, job, DepthPlan::default(), report)
    });
    lead_with(job, &dts, on_iteration, lead)
}

/// The threads but the first start idle and go where the split points take
/// them.
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for Dts<G> {
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let mut stack = Stack::new(ctx.thread);
        Searcher::new(worker, ctx, &mut stack, Some(self)).idle(self, false);
    }

    fn dismiss(&self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveList;
    use crate::test_games::Nim;

    /// Moves are their own indices, taken when nothing was reported yet.
    fn out(moves: &[usize]) -> Vec<InFlight<usize>> {
        let at = |&mv: &usize| InFlight {
            mv,
            index: mv,
            taken_at: 0,
        };
        moves.iter().map(at).collect()
    }

    #[test]
    fn no_new_move_is_taken_while_an_earlier_prover_is_in_flight() {
        // Move 1 failed high at 22 with 23 and is in its full-window search.
        let mut result = SharedResult::new(22, 84, 22).with_serial_ties(true);
        result.prove(1, 1, 23);
        assert!(waits_for_prover(&result, &out(&[1, 5]), 6));
        assert!(
            !waits_for_prover(&result, &out(&[1, 5]), 0),
            "an earlier move does not wait for a later prover"
        );
        assert!(
            !waits_for_prover(&result, &out(&[5]), 6),
            "the prover is back"
        );
    }

    #[test]
    fn a_young_brother_failing_high_waits_for_every_earlier_move_out() {
        // Moves 1 and 5 are in flight, move 3 waits; move 4's null window
        // failed high.
        let (mut in_flight, mut deferred) = (out(&[1, 5]), vec![(3, 3)]);
        assert!(waits_for_elder(&in_flight, &[], 4), "move 1 is in flight");
        assert!(waits_for_elder(&out(&[5]), &deferred, 4), "move 3 waits");
        assert!(
            !waits_for_elder(&in_flight, &deferred, 0),
            "nothing before move 0"
        );
        deferred.push((4, 4));

        // Move 3 goes again once move 1 is back, then move 4 once 3 is.
        assert_eq!(take_deferred(&in_flight, &mut deferred), None);
        in_flight.retain(|m| m.mv != 1);
        assert_eq!(take_deferred(&in_flight, &mut deferred), Some((3, 3)));
        in_flight.extend(out(&[3]));
        assert_eq!(take_deferred(&in_flight, &mut deferred), None);
        in_flight.retain(|m| m.mv != 3);
        assert_eq!(take_deferred(&in_flight, &mut deferred), Some((4, 4)));
        assert!(deferred.is_empty());
    }

    /// A frame of Nim(10), 8 plies from the horizon in the null window
    /// `(alpha, alpha + 1)`: three moves, the eldest searched, the second in
    /// flight.
    fn second_move_in_flight(alpha: Score) -> Frame<Nim> {
        let mut moves = MoveList::new();
        Nim(10).generate_moves(&mut moves);
        let mut f = Frame::new(Nim(10));
        (f.moves, f.index, f.next, f.depth) = (moves, 1, 2, 8);
        (f.orig_alpha, f.alpha, f.beta) = (alpha, alpha, alpha + 1);
        f
    }

    #[test]
    fn a_probes_root_is_offered_late_and_other_nodes_once_their_eldest_is_searched() {
        let mut f = second_move_in_flight(-1);
        assert!(f.splittable(false), "an interior null-window node");
        f.root = true;
        assert!(!f.splittable(false), "the root of an MTD(f) probe");
        let mut late = f.clone();
        late.moves.extend(f.moves.clone());
        (late.index, late.next) = (PROBE_ROOT_SPLIT_AFTER - 1, PROBE_ROOT_SPLIT_AFTER);
        assert!(
            late.splittable(false),
            "a probe's root whose first moves failed low"
        );
        (f.orig_alpha, f.alpha) = (-50, -1);
        assert!(f.splittable(false), "a root in a wider window");
        f.index = 0;
        assert!(!f.splittable(false), "the eldest brother is in flight");
        (f.index, f.next) = (2, 3);
        assert!(!f.splittable(false), "no move left");
        (f.next, f.depth) = (2, dts_min_split_depth(true) - 1);
        assert!(!f.splittable(true), "too shallow for a frame");
    }

    #[test]
    fn a_close_call_is_offered_as_if_a_ply_deeper_until_it_has_taken_enough_moves() {
        let mut f = second_move_in_flight(10);
        f.entry_type = NodeType::All;
        let plain = merit(f.depth, f.entry_type, f.index);
        f.best = 10 - CLOSE_FAIL_LOW - 1;
        assert_eq!(f.split_merit(), plain, "the eldest failed low by a margin");
        f.best = 10 - CLOSE_FAIL_LOW;
        assert_eq!(f.split_merit(), plain - PLY_MERIT, "a close call");
        f.next = CLOSE_CALL_MOVES;
        assert_eq!(f.split_merit(), plain, "enough moves taken");
        f.next = 2;
        f.beta = 12;
        assert_eq!(f.split_merit(), plain, "not a null window");
        f.beta = 11;
        f.root = true;
        assert_eq!(f.split_merit(), plain, "a probe's root has its own rule");
    }

    #[test]
    fn the_prover_goes_first_outside_exact_mode_and_far_from_the_leaves() {
        assert!(prover_first(false, PROVER_FIRST_DEPTH));
        assert!(!prover_first(false, PROVER_FIRST_DEPTH - 1));
        assert!(!prover_first(true, PROVER_FIRST_DEPTH + 4));
    }
}
