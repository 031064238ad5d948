//! Workloads: the publish/subscribe scheme of parallel alpha-beta.
//!
//! # The protocol
//!
//! - **Publishing.** A thread at a node whose eldest brother is searched (the
//!   serial move loop offers the young brothers through
//!   [`NodeHook::try_split`]) publishes a *workload* if the node has at least
//!   [`WORKLOADS_MIN_DEPTH`] plies left, at least [`WORKLOADS_MIN_MOVES_LEFT`] moves left and a
//!   slot of the table is free. The table is **global**: `2 × threads`
//!   preallocated [`Slot`]s (not per-thread stacks as in YBW), and a thread
//!   claims any free one. A workload holds the node (position, depth, ply,
//!   node type), its moves with their ordering keys and a state per move
//!   (unsearched / in flight / searched), the best score and move (with its
//!   PV), alpha, beta, and a **unique id**. Publishing never allocates: the
//!   slots' move lists are fixed-capacity arrays filled in place.
//! - **Subscribing.** Idle threads loop over the slots (there is no queue and
//!   no request: workloads are found by *scanning*), pick the shallowest open
//!   workload nobody is attached to, attach to it, and then repeatedly ask it
//!   for its next unsearched move, search that move (null window around the
//!   workload's current alpha, re-searched with the full window when the score
//!   lands inside it — `Worker::search_child`, as in the serial loop) and
//!   report the score, which may raise the workload's best score, best move
//!   and alpha. "Attached" means **one subscriber per workload**; with the
//!   `join_taken` option (`workloads-shared`), when every open workload is
//!   taken, an idle thread joins a taken one (several subscribers).
//! - **The publisher** takes its own remaining moves from the workload like
//!   everyone else. When none is left it waits for the subscribers still
//!   searching (moves in flight). While waiting it may help at open workloads
//!   published *below* its own (the helpful master); otherwise it spins
//!   briefly, then sleeps on a condition variable (woken when its last
//!   subscriber leaves or anything is published, 1 ms timeout as a safety
//!   net), so it does not burn a core. Then it takes the result, unpublishes
//!   the workload and returns the result to its move loop as the node's own.
//! - **Cutoffs and cancellation are id changes.** A score ≥ beta makes the
//!   workload flag every remaining move searched and take a **new id**. Every
//!   thread records the workloads it works under as a chain of ids: its
//!   per-thread `current` (the id of the innermost workload it attached to or
//!   published) and, in each slot, `parent` (the id of the workload its
//!   publisher was working under when it published). At every node
//!   ([`NodeHook::aborted`]) a thread walks its chain and compares each
//!   recorded id with its slot's current id: any difference means a cutoff at
//!   that workload or above, and the thread drops out (its partial result is
//!   void: `Worker::stopped`). Workloads nested below a cut one are on the same
//!   chains, so everything below it stops at its next node. A publisher that is
//!   itself stopped (a cutoff above, or the global stop) *cancels* its
//!   workload the same way (new id, remaining moves flagged searched) before
//!   waiting for its subscribers.
//!
//! Differences from YBW (`splitter.rs`) kept on purpose: the slot table is
//! global and sized `2 × threads`; a node publishes whether or not a thread
//! is idle (subscribers find it later by scanning); a workload has at most one
//! subscriber unless `join_taken`; cancellation is by id comparison, not a
//! cutoff flag, so a slot is never confused with its next publication.
//!
//! # Ids and references
//!
//! An id is `counter << 16 | slot`, the counter global and bumped on every
//! publish, cutoff, cancel and unpublish: an id names one publication of one
//! slot (in one state) for the whole search, and its slot is in its low bits,
//! so a chain entry is one `u64`. `NO_WORKLOAD` (`u64::MAX`) ends a chain.
//!
//! # Who may change what
//!
//! | field | written by | how | read by |
//! | --- | --- | --- | --- |
//! | `published` | a publisher claiming the slot (CAS `false → true`, `Acquire`); the same publisher unpublishing (`Release`) | — | publishers looking for a free slot |
//! | position, depth, ply, beta, node type (`data`) | the publisher, while publishing | slot mutex | anyone attached, under the mutex |
//! | moves, keys, move states, cursor, alpha, best, best move, PV (`data`) | any thread attached (take / report), the publisher (publish, cancel) | slot mutex | the same, under the mutex |
//! | `id` | the publisher (publish, cancel, unpublish); the reporter of a cutoff | only under the slot mutex | chain walks at every node (`Relaxed`, a hint); exact under the mutex |
//! | `open` (published, same id, an unsearched move left) | the publisher, takers (last move), cutoff, cancel | only under the slot mutex | scanners (hint), exact under the mutex |
//! | `parent`, `ply` | the publisher, before `open` | under the slot mutex | chain walks, scanners |
//! | `subscribers` | attach (`+1`), detach (`-1`, `SeqCst`) | only under the slot mutex | scanners (hint), the waiting publisher (`SeqCst`) |
//! | `current[t]` | thread `t` only | — | thread `t` only |
//!
//! # Memory ordering
//!
//! Every decision that matters is taken under a slot's mutex, which orders
//! everything written there: whether a result is merged (the id compared under
//! the mutex), whether a move is taken, whether an attach succeeds (`open` and
//! `subscribers` re-read under the mutex). The lock-free reads are hints:
//! `open`/`subscribers`/`ply` choose where to try attaching; `id` in the chain
//! walk makes a thread drop out — a late read only costs a few wasted nodes,
//! since a result reported after the id changed is discarded under the mutex.
//! A chain walk may follow `parent` without the mutex because every workload
//! on a thread's chain stays published until that thread leaves it (see
//! below), so its `parent` cannot change under the walk; and the thread
//! learnt each link under that link's (or a descendant's) mutex, so it sees
//! the `parent` written before publication. Sleeping is `idle.rs`'s
//! protocol, twice: idle threads sleep until a workload is published,
//! publishers until their last subscriber leaves (or something is published
//! below them to help with); no wake-up is lost, the timeouts are a safety
//! net only.
//!
//! # Why a workload outlives everyone under it
//!
//! A publisher unpublishes only after `subscribers == 0`, and a subscriber
//! leaves (under the mutex) only when it returns from the workload for good.
//! A publisher is itself inside a move of its parent workload (as its
//! publisher or a subscriber) until it returns from its own. So along any
//! thread's chain every link is published, with the id or a later one of the
//! same publication, for as long as the thread is under it.
//!
//! # Why the result is exact
//!
//! Each move of a workload is searched by `search_child` with window
//! `(a, beta)`, `a` the workload's alpha when the move was taken (never below
//! the node's alpha when it published, never above its final alpha). Fail-soft
//! alpha-beta then returns a score `v` with: `v ≤ a` ⇒ true value ≤ `v`;
//! `a < v < beta` ⇒ `v` is the true value; `v ≥ beta` ⇒ true value ≥ `v`.
//! Results are merged under the mutex, only while the id is the one the move
//! was taken under (so never after a cutoff or a cancel). A result that raises
//! the workload's alpha is above the alpha it was searched with, hence exact
//! (or ≥ beta: a cutoff, a valid lower bound); every other move's true value
//! is at most its score, which is at most the alpha at its report, which is at
//! most the final alpha. So the final best is exactly the serial loop's
//! answer for the window: the true value if it lies inside, a bound of the
//! right side otherwise — the same case analysis as the serial PVS loop, whose
//! moves are simply searched in another order and with alphas that are never
//! higher than serial's. A result is used only if the search of the move was
//! not stopped (`Worker::stopped`); a move abandoned because of a stop or a
//! cutoff *above* the workload leaves its publisher stopped too (the cause is
//! on its chain, and ids never come back), so the workload's incomplete result
//! is void.
//!
//! # Why nothing deadlocks
//!
//! Only publishers wait, and only for the subscribers of their own workload,
//! which search strictly below it. A subscriber never waits for its
//! publisher: it takes, searches, reports and leaves. While waiting, a
//! publisher helps only at workloads below its own (checked under the
//! candidate's mutex by walking its `parent` ids), so its waits nest like the
//! tree: the deepest waiter's subscribers are searching and make progress. At
//! most one slot mutex is held at a time, never across a search; the sleep
//! mutex may be taken while a slot mutex is held, never the other way round.
//! A global stop is seen at every node; a cancelled or cut workload's
//! subscribers see the new id at their next node.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use crossbeam_utils::CachePadded;

use crate::driver::{SearchJob, SearchResult, lead_and_help};
use crate::game::{Evaluator, Game, MAX_MOVES, MoveList};
use crate::node::NodeType;
use crate::parallel::idle::{self, Backoff, IdleSleep};
use crate::parallel::shared_node::{Merged, SharedResult};
use crate::parallel::thresholds::{
    WORKLOADS_MIN_DEPTH, WORKLOADS_MIN_MOVES_LEFT, WORKLOADS_SLOTS_PER_THREAD,
};
use crate::score::Score;
use crate::search::hook::{NodeHook, SplitNode};
use crate::search::{SearchContext, Worker, pick_best};

/// Low bits of an id holding the slot index.
const SLOT_BITS: u32 = 16;
/// Mask of the slot index in an id.
const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;
/// "No workload": ends a chain.
const NO_WORKLOAD: u64 = u64::MAX;

/// Where a move of a workload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveState {
    /// Nobody has taken it.
    Unsearched,
    /// A thread is searching it.
    InFlight,
    /// Its result is in (or a cutoff or cancel made it moot).
    Searched,
}

/// What a workload's threads share, under its slot's mutex.
struct WorkloadData<G: Game> {
    // Fixed while published.
    pos: Option<G>,
    depth: i32,
    ply: usize,
    node_type: NodeType,
    // Changed by every thread attached.
    moves: MoveList<G::Move>,
    keys: ArrayVec<i64, MAX_MOVES>,
    state: ArrayVec<MoveState, MAX_MOVES>,
    /// Every move before it is taken (moves from it on are in key order only
    /// once taken: `pick_best` sorts lazily, like the serial loop).
    cursor: usize,
    result: SharedResult<G::Move>,
}

/// The lock-free part of a slot, read by every chain walk and scan.
struct SlotHead {
    /// The current id (see the module doc); changes only under the mutex.
    id: AtomicU64,
    /// The id of the workload the publisher worked under, or `NO_WORKLOAD`.
    parent: AtomicU64,
    /// The slot is claimed by a publisher.
    published: AtomicBool,
    /// Published, not cut or cancelled, and an unsearched move left.
    open: AtomicBool,
    /// The node's ply: scanners prefer the shallowest workload.
    ply: AtomicUsize,
    /// Threads attached besides the publisher.
    subscribers: AtomicUsize,
}

/// One slot of the global table.
struct Slot<G: Game> {
    head: CachePadded<SlotHead>,
    data: CachePadded<Mutex<WorkloadData<G>>>,
}

impl<G: Game> Slot<G> {
    fn new(id: u64) -> Self {
        Slot {
            head: CachePadded::new(SlotHead {
                id: AtomicU64::new(id),
                parent: AtomicU64::new(NO_WORKLOAD),
                published: AtomicBool::new(false),
                open: AtomicBool::new(false),
                ply: AtomicUsize::new(0),
                subscribers: AtomicUsize::new(0),
            }),
            data: CachePadded::new(Mutex::new(WorkloadData {
                pos: None,
                depth: 0,
                ply: 0,
                node_type: NodeType::Pv,
                moves: MoveList::new(),
                keys: ArrayVec::new(),
                state: ArrayVec::new(),
                cursor: 0,
                result: SharedResult::unused(),
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, WorkloadData<G>> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A move handed out by a workload.
struct Task<G: Game> {
    index: usize,
    /// Late-move reduction of the first, null-window search.
    reduction: i32,
    mv: G::Move,
    child: G,
    alpha: Score,
    beta: Score,
    depth: i32,
    ply: usize,
    node_type: NodeType,
}

/// The workload table of one search, and the sleep of idle threads.
pub(crate) struct Workloads<G: Game> {
    /// Let an idle thread join a workload that already has a subscriber.
    join_taken: bool,
    /// `2 × threads` slots, global.
    slots: Box<[Slot<G>]>,
    /// Per thread: the id of the innermost workload it works under, or `NO_WORKLOAD`.
    /// Written and read only by its own thread (padded: read at every node).
    current: Box<[CachePadded<AtomicU64>]>,
    /// Source of unique ids.
    next_id: AtomicU64,
    /// The search is over: helpers leave.
    done: AtomicBool,
    /// Idle threads, woken when a workload is published (and at the end).
    idle: IdleSleep,
    /// Publishers waiting for subscribers, woken when a workload's last
    /// subscriber leaves and when a workload is published.
    publishers: IdleSleep,
}

impl<G: Game> Workloads<G> {
    /// The table for `threads` threads.
    pub(crate) fn new(threads: usize, join_taken: bool) -> Self {
        let n = WORKLOADS_SLOTS_PER_THREAD * threads.max(1);
        assert!(
            n as u64 <= SLOT_MASK,
            "too many threads for the workload table"
        );
        Workloads {
            join_taken,
            slots: (0..n).map(|s| Slot::new(s as u64)).collect(),
            current: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(NO_WORKLOAD)))
                .collect(),
            next_id: AtomicU64::new(1),
            done: AtomicBool::new(false),
            idle: IdleSleep::default(),
            publishers: IdleSleep::default(),
        }
    }

    /// A fresh id for slot `s`, never seen before in this search.
    fn fresh_id(&self, s: usize) -> u64 {
        (self.next_id.fetch_add(1, Relaxed) << SLOT_BITS) | s as u64
    }

    fn slot_of(id: u64) -> usize {
        (id & SLOT_MASK) as usize
    }

    /// Whether some workload on `thread`'s chain has changed its id.
    #[inline]
    fn chain_broken(&self, thread: usize) -> bool {
        let mut id = self.current[thread].load(Relaxed);
        while id != NO_WORKLOAD {
            let head = &self.slots[Self::slot_of(id)].head;
            if head.id.load(Relaxed) != id {
                return true;
            }
            id = head.parent.load(Relaxed);
        }
        false
    }

    /// Whether the chain starting at `id` passes through `ancestor`. Bounded
    /// by the table size, so a racy read (scans read without the mutex) can
    /// never loop.
    fn chain_contains(&self, mut id: u64, ancestor: u64) -> bool {
        for _ in 0..self.slots.len() {
            if id == NO_WORKLOAD {
                return false;
            }
            if id == ancestor {
                return true;
            }
            id = self.slots[Self::slot_of(id)].head.parent.load(Relaxed);
        }
        false
    }

    /// Claims a free slot.
    fn claim(&self) -> Option<usize> {
        self.slots.iter().position(|slot| {
            !slot.head.published.load(Relaxed)
                && slot
                    .head
                    .published
                    .compare_exchange(false, true, Acquire, Relaxed)
                    .is_ok()
        })
    }

    /// The node's young brothers become a workload (see the module doc);
    /// `None` if the node does not qualify or no slot is free.
    fn publish<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        node: SplitNode<'_, G>,
        moves: &[G::Move],
        keys: &[i64],
    ) -> Option<(Score, Option<G::Move>)> {
        if node.depth < WORKLOADS_MIN_DEPTH || moves.len() < WORKLOADS_MIN_MOVES_LEFT {
            return None;
        }
        let Some(s) = self.claim() else {
            worker.stats.splits_refused += 1;
            return None;
        };
        let slot = &self.slots[s];
        let head = &slot.head;
        let me = &self.current[ctx.thread];
        let parent = me.load(Relaxed);
        let id = self.fresh_id(s);
        {
            let mut d = slot.lock();
            match &mut d.pos {
                Some(p) => p.clone_from(node.pos),
                none => *none = Some(node.pos.clone()),
            }
            d.depth = node.depth;
            d.ply = node.ply;
            d.node_type = node.node_type;
            d.moves.clear();
            d.moves.extend(moves.iter().copied());
            d.keys.clear();
            d.keys.extend(keys.iter().copied());
            d.state.clear();
            d.state
                .extend(std::iter::repeat_n(MoveState::Unsearched, moves.len()));
            d.cursor = 0;
            d.result = SharedResult::new(node.alpha, node.beta, node.best);
            head.parent.store(parent, Relaxed);
            head.ply.store(node.ply, Relaxed);
            head.subscribers.store(0, Relaxed);
            head.id.store(id, Relaxed);
            head.open.store(true, Release);
        }
        me.store(id, Relaxed);
        worker.stats.splits += 1;
        self.wake_for_publication();

        // Our own moves, taken like everyone's.
        self.work(worker, ctx, s, id, false);
        me.store(parent, Relaxed);
        worker.refresh_stopped(ctx);
        if worker.stopped() {
            // Stopped from above (or globally): the workload is void; make
            // everyone under it drop out and nobody attach.
            let mut d = slot.lock();
            if head.id.load(Relaxed) == id {
                Self::flag_all_searched(&mut d);
                head.open.store(false, Relaxed);
                head.id.store(self.fresh_id(s), Relaxed);
            }
        }
        self.wait_for_subscribers(worker, ctx, s, id);
        worker.refresh_stopped(ctx);

        // Take the result and unpublish.
        let result = {
            let mut d = slot.lock();
            debug_assert_eq!(head.subscribers.load(Relaxed), 0);
            if d.result.best_move.is_some() {
                worker.set_pv_line(node.ply, &d.result.pv);
            }
            d.cursor = d.moves.len();
            head.open.store(false, Relaxed);
            head.parent.store(NO_WORKLOAD, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
            (d.result.best, d.result.best_move)
        };
        head.published.store(false, Release);
        Some(result)
    }

    /// Marks every unsearched move searched (a cutoff or a cancel).
    fn flag_all_searched(d: &mut WorkloadData<G>) {
        for st in d.state.iter_mut() {
            if *st == MoveState::Unsearched {
                *st = MoveState::Searched;
            }
        }
        d.cursor = d.moves.len();
    }

    /// Takes the next unsearched move of the workload in slot `s`, if its id
    /// is still `id`. Called under the mutex.
    fn take<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        d: &mut WorkloadData<G>,
        head: &SlotHead,
        id: u64,
    ) -> Option<Task<G>> {
        if head.id.load(Relaxed) != id {
            return None;
        }
        while d.cursor < d.moves.len() && d.state[d.cursor] != MoveState::Unsearched {
            d.cursor += 1;
        }
        if d.cursor == d.moves.len() {
            head.open.store(false, Relaxed);
            return None;
        }
        let i = d.cursor;
        {
            // Every state from the cursor on is `Unsearched`: swapping moves
            // and keys among them leaves the states right.
            let WorkloadData { moves, keys, .. } = d;
            pick_best(moves, keys, i);
        }
        d.state[i] = MoveState::InFlight;
        d.cursor += 1;
        if d.cursor == d.moves.len() {
            head.open.store(false, Relaxed);
        }
        let mv = d.moves[i];
        let pos = d.pos.as_ref().expect("a published workload has a position");
        let child = pos.play(mv);
        // Young brothers: index ≥ 1 gets the null window, like the serial loop.
        let reduction = worker.reduction(ctx, pos, &child, mv, i + 1, d.depth, d.node_type);
        Some(Task {
            index: i + 1,
            reduction,
            mv,
            child,
            alpha: d.result.alpha,
            beta: d.result.beta,
            depth: d.depth,
            ply: d.ply,
            node_type: d.node_type,
        })
    }

    /// Merges the score of move `index` (0-based in the workload) searched
    /// by `worker`; a cutoff flags the rest searched and changes the id.
    /// Called under the mutex, with the id checked unchanged.
    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        d: &mut WorkloadData<G>,
        head: &SlotHead,
        s: usize,
        index: usize,
        mv: G::Move,
        score: Score,
        worker: &Worker<G>,
    ) {
        d.state[index] = MoveState::Searched;
        if d.result.merge(mv, score, worker.pv_line(d.ply + 1)) == Merged::Cut {
            Self::flag_all_searched(d);
            head.open.store(false, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
        }
    }

    /// Takes moves from the workload in slot `s` (id `id`) and searches them
    /// until none is left, its id changes, or this thread is stopped. A
    /// subscriber leaves the workload (under the mutex) on the way out.
    fn work<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        s: usize,
        id: u64,
        subscriber: bool,
    ) {
        let slot = &self.slots[s];
        let head = &slot.head;
        // The last move searched, its score and its nodes, to report.
        let mut done: Option<(usize, G::Move, Score, u64)> = None;
        loop {
            let task = {
                let mut d = slot.lock();
                if let Some((index, mv, score, nodes)) = done.take() {
                    if head.id.load(Relaxed) == id {
                        self.report(&mut d, head, s, index - 1, mv, score, worker);
                    } else {
                        // Cut or cancelled meanwhile: the result is not used.
                        worker.stats.aborted_nodes += nodes;
                    }
                }
                let task = self.take(worker, ctx, &mut d, head, id);
                if task.is_none() && subscriber {
                    self.leave(d, head);
                    return;
                }
                task
            };
            let Some(task) = task else {
                return;
            };
            let nodes_before = worker.stats.nodes;
            let score = worker.search_child(
                ctx,
                &task.child,
                task.index,
                task.reduction,
                task.alpha,
                task.beta,
                task.depth,
                task.ply,
                task.node_type,
            );
            let nodes = worker.stats.nodes - nodes_before;
            if worker.stopped() {
                if !ctx.stop.load(Relaxed) {
                    worker.stats.aborted_nodes += nodes;
                }
                if subscriber {
                    self.leave(slot.lock(), head);
                }
                return;
            }
            done = Some((task.index, task.mv, score, nodes));
        }
    }

    /// A subscriber leaves (`d` is the slot's guard); the last one wakes a
    /// waiting publisher.
    fn leave(&self, d: MutexGuard<'_, WorkloadData<G>>, head: &SlotHead) {
        let left = head.subscribers.fetch_sub(1, SeqCst) - 1;
        drop(d);
        if left == 0 {
            self.publishers.wake();
        }
    }

    /// Attaches to the workload in slot `s` as a subscriber and works there;
    /// false if it could not attach (closed, taken, or — with `below` — not
    /// below that workload).
    fn attach_and_work<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        s: usize,
        below: Option<u64>,
    ) -> bool {
        let slot = &self.slots[s];
        let head = &slot.head;
        let id = {
            let _d = slot.lock();
            if !head.open.load(Relaxed) {
                return false;
            }
            let subscribers = head.subscribers.load(Relaxed);
            if subscribers > 0 && !self.join_taken {
                return false;
            }
            if let Some(ancestor) = below
                && !self.chain_contains(head.parent.load(Relaxed), ancestor)
            {
                return false;
            }
            head.subscribers.store(subscribers + 1, Relaxed);
            head.id.load(Relaxed)
        };
        let me = &self.current[ctx.thread];
        let saved = me.swap(id, Relaxed);
        worker.refresh_stopped(ctx);
        let unwinding = LeaveOnUnwind(self, s);
        self.work(worker, ctx, s, id, true);
        std::mem::forget(unwinding);
        me.store(saved, Relaxed);
        worker.refresh_stopped(ctx);
        true
    }

    /// The slot of the open workload to try: the shallowest free one that
    /// `accept` allows, else (with `join_taken`) the shallowest taken one.
    /// Reads without locks: a hint, re-checked on attaching.
    fn find(&self, accept: impl Fn(&SlotHead) -> bool) -> Option<usize> {
        let mut free: Option<(usize, usize)> = None;
        let mut taken: Option<(usize, usize)> = None;
        for (s, slot) in self.slots.iter().enumerate() {
            let head = &slot.head;
            if !head.open.load(Acquire) {
                continue;
            }
            let ply = head.ply.load(Relaxed);
            let best = if head.subscribers.load(Relaxed) == 0 {
                &mut free
            } else if self.join_taken {
                &mut taken
            } else {
                continue;
            };
            if best.is_none_or(|(_, p)| ply < p) && accept(head) {
                *best = Some((s, ply));
            }
        }
        free.or(taken).map(|(s, _)| s)
    }

    /// The helpful publisher: works at an open workload below `id`, if any.
    fn help_below<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        id: u64,
    ) -> bool {
        let below = |head: &SlotHead| self.chain_contains(head.parent.load(Relaxed), id);
        match self.find(below) {
            Some(s) => self.attach_and_work(worker, ctx, s, Some(id)),
            None => false,
        }
    }

    /// The publisher of the workload in slot `s` (published as `id`) waits
    /// for its subscribers to leave, helping below meanwhile unless stopped.
    fn wait_for_subscribers<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        s: usize,
        id: u64,
    ) {
        let head = &self.slots[s].head;
        if head.subscribers.load(Acquire) == 0 {
            return;
        }
        let start = Instant::now();
        let mut helping = Duration::ZERO;
        let mut backoff = Backoff::new(idle::OWNER);
        while head.subscribers.load(Acquire) > 0 {
            // Helping is worth it only while the workload stands (a cut one's
            // subscribers are dropping out).
            let can_help = !worker.stopped() && head.id.load(Relaxed) == id;
            if can_help {
                let t = Instant::now();
                if self.help_below(worker, ctx, id) {
                    helping += t.elapsed();
                    backoff.reset();
                    continue;
                }
            }
            backoff.snooze(&self.publishers, || {
                head.subscribers.load(SeqCst) == 0
                    || (can_help
                        && self
                            .find(|h| self.chain_contains(h.parent.load(Relaxed), id))
                            .is_some())
            });
        }
        let waited = start.elapsed().saturating_sub(helping);
        worker.stats.idle_micros += waited.as_micros() as u64;
    }

    /// Wakes whoever sleeps: a workload was just published.
    fn wake_for_publication(&self) {
        self.idle.wake();
        self.publishers.wake();
    }

    /// An idle thread's life: scan the slots, attach to a workload and work
    /// there, until the search is done; sleep when nothing is published.
    pub(crate) fn helper_loop<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
    ) {
        let mut idle_since = Instant::now();
        let mut backoff = Backoff::new(idle::IDLE_HELPER);
        while !self.done.load(Acquire) {
            if let Some(s) = self.find(|_| true) {
                worker.stats.idle_micros += idle_since.elapsed().as_micros() as u64;
                let worked = self.attach_and_work(worker, ctx, s, None);
                idle_since = Instant::now();
                // A workload gone before we attached is no progress: keep
                // backing off, never spin on it (threads may outnumber cores).
                if worked {
                    backoff.reset();
                    continue;
                }
            }
            backoff.snooze(&self.idle, || {
                self.done.load(SeqCst) || self.find(|_| true).is_some()
            });
        }
        worker.stats.idle_micros += idle_since.elapsed().as_micros() as u64;
    }

    /// Ends the search for the helpers: they leave their loops.
    pub(crate) fn finish(&self) {
        self.done.store(true, SeqCst);
        self.idle.wake_always();
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for Workloads<G> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        self.chain_broken(thread)
    }

    fn try_split(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        node: SplitNode<'_, G>,
        moves: &[G::Move],
        keys: &[i64],
    ) -> Option<(Score, Option<G::Move>)> {
        self.publish(worker, ctx, node, moves, keys)
    }
}

/// Runs the workload scheme: thread 0 deepens and publishes; the others
/// subscribe. `join_taken`: idle threads may join taken workloads.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    join_taken: bool,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let table = Workloads::new(job.workers.len(), join_taken);
    lead_and_help(
        job,
        Some(&table),
        &|| table.finish(),
        on_iteration,
        |worker, ctx| table.helper_loop(worker, ctx),
    )
}

/// Leaves the workload in slot `.1` if dropped, which happens only when the
/// search under it panics (it is forgotten otherwise): its publisher then
/// stops waiting, and the pool re-raises the panic once every thread is out.
struct LeaveOnUnwind<'a, G: Game>(&'a Workloads<G>, usize);

impl<G: Game> Drop for LeaveOnUnwind<'_, G> {
    fn drop(&mut self) {
        let slot = &self.0.slots[self.1];
        self.0.leave(slot.lock(), &slot.head);
    }
}
