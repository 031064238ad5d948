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

use crossbeam_utils::CachePadded;

use crate::game::{Evaluator, Game, MoveBuffer, PerMove};
use crate::parallel::idle::{self, Backoff, IdleSleep};
use crate::parallel::shared_node::{Merged, SharedNode, Task};
use crate::parallel::thresholds::{
    WORKLOADS_MIN_DEPTH, WORKLOADS_MIN_MOVES_LEFT, WORKLOADS_SLOTS_PER_THREAD,
};
use crate::score::Score;
use crate::search::hook::{NodeHook, Split, SplitNode};
use crate::search::{SearchContext, Worker};

mod publish;
mod subscribe;

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
    node: SharedNode<G>,
    /// Each move's state, by its index in `node.moves`.
    state: PerMove<G, MoveState>,
    /// Every move before it is taken (moves from it on are in key order only
    /// once taken: `pick_best` sorts lazily, like the serial loop).
    cursor: usize,
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
                node: SharedNode::unused(),
                state: Default::default(),
                cursor: 0,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, WorkloadData<G>> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
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
    pub(super) fn fresh_id(&self, s: usize) -> u64 {
        (self.next_id.fetch_add(1, Relaxed) << SLOT_BITS) | s as u64
    }

    pub(super) fn slot_of(id: u64) -> usize {
        (id & SLOT_MASK) as usize
    }

    /// Whether some workload on `thread`'s chain has changed its id.
    #[inline]
    pub(super) fn chain_broken(&self, thread: usize) -> bool {
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
    pub(super) fn chain_contains(&self, mut id: u64, ancestor: u64) -> bool {
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
    pub(super) fn claim(&self) -> Option<usize> {
        self.slots.iter().position(|slot| {
            !slot.head.published.load(Relaxed)
                && slot
                    .head
                    .published
                    .compare_exchange(false, true, Acquire, Relaxed)
                    .is_ok()
        })
    }
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
