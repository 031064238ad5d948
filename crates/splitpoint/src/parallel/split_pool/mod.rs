//! The split-point pool: one machine for Young Brothers Wait, root splitting
//! and the publish/subscribe workload schemes.
//!
//! A node whose eldest brother is searched offers its young brothers
//! ([`NodeHook::try_split`](crate::search::hook::NodeHook::try_split)); if the algorithm's [`Scheme`] allows, its thread
//! *publishes* them in a free slot of the pool and becomes the slot's owner.
//! Idle threads find open slots by scanning (the shallowest first), *attach*,
//! and take moves one at a time, searching each with the window the node has
//! then and reporting the score under the slot's lock. The owner takes moves
//! like everyone else; when none is left it waits for the threads still
//! attached, helping at open slots published *below* its own meanwhile (the
//! helpful master), then takes the result back as the node's own and
//! releases the slot. What the algorithms differ in is their [`Scheme`]:
//! when a node may split, where its slot comes from, who may attach.
//!
//! A score ≥ beta gives the slot a new id (every publication has one of its
//! own), and a thread drops out at its next node once an id on its chain —
//! its `current`, then each slot's `parent` — has changed. [`SplitPool::work`]
//! returns only with the slot closed, so nobody attaches to a slot its owner
//! is about to release and the `parent` links form a tree.
//!
//! The protocol — who writes what under which lock, the memory orderings,
//! why a slot outlives everyone under it, why the result is exact, why
//! nothing deadlocks, how sleepers are woken — is written down in this
//! module's section of the parallel `README.md`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard};

use crossbeam_utils::CachePadded;

use crate::game::{Evaluator, Game};
use crate::node::NodeType;
use crate::parallel::atomic_bits::AtomicBits;
use crate::parallel::idle::IdleSleep;
use crate::parallel::shared_node::SharedNode;
use crate::search::hook::SplitNode;

mod helper;
mod owner;

/// Ordering keys at or above this are promising moves (table move, evaluator
/// hints above zero, killers): strong YBW searches them before splitting a
/// CUT node.
const PROMISING: i64 = 1 << 21;

/// Low bits of an id holding the slot index.
const SLOT_BITS: u32 = 16;
/// Mask of the slot index in an id.
const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;
/// "No publication": ends a chain.
const NONE: u64 = u64::MAX;

/// What an algorithm built on the pool decides: when a node splits, where
/// its slot comes from, who may attach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scheme {
    /// When a node may split.
    pub rules: SplitRules,
    /// Where a publisher's slot comes from.
    pub slots: Slots,
    /// Who may attach to an open slot.
    pub attach: Attach,
}

/// When a node may split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplitRules {
    /// Least remaining depth worth the split's overhead.
    pub min_depth: i32,
    /// Least number of moves left to share.
    pub min_moves_left: usize,
    /// Deepest ply that may split (0: the root only).
    pub max_ply: usize,
    /// Strong YBW: a node entered as CUT searches its promising moves first.
    pub strong: bool,
    /// Split only while a helper is idle (YBW); else publish for helpers to
    /// find later (workloads).
    pub only_when_idle: bool,
}

impl SplitRules {
    /// Whether `node` may split under these rules (before looking for a slot).
    fn allow<G: Game, E: Evaluator<G>>(&self, node: &SplitNode<'_, G, E>) -> bool {
        node.depth >= self.min_depth
            && node.ply <= self.max_ply
            && node.moves.len() >= self.min_moves_left
            && !(self.strong
                && node.entry_type == NodeType::Cut
                && node.keys.iter().any(|&k| k >= PROMISING))
    }
}

/// Where a publisher's slot comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slots {
    /// This many slots per thread, its own: nested splits stack up along a
    /// thread's path (YBW).
    PerThread(usize),
    /// One table of this many slots per thread, any free one claimed by
    /// any thread (workloads).
    Shared(usize),
}

/// Who may attach to an open slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Attach {
    /// Any number of threads (YBW).
    Any,
    /// One thread besides the owner (workloads).
    One,
    /// One while a slot with none is open anywhere; then a thread joins a
    /// slot that has one (workloads-shared).
    OneThenJoin,
}

impl Attach {
    /// Whether a thread may attach to a slot with `subscribers` attached.
    fn allows(self, subscribers: usize) -> bool {
        subscribers == 0 || self != Attach::One
    }

    /// How many idle threads a publication of `moves` moves can use.
    fn room(self, moves: usize) -> usize {
        match self {
            Attach::One => 1,
            Attach::Any | Attach::OneThenJoin => moves,
        }
    }
}

/// What a slot's threads share, under its mutex.
struct SlotData<G: Game> {
    node: SharedNode<G>,
    /// The next move to take: every move before it is taken.
    next: usize,
}

/// The lock-free part of a slot, read by chain walks and scans.
struct SlotHead {
    /// The current id (see the module doc); changes only under the mutex.
    id: AtomicU64,
    /// The id the owner worked under when it published, or `NONE`.
    parent: AtomicU64,
    /// The slot is in use.
    claimed: AtomicBool,
    /// The node's ply: scanners prefer the shallowest slot.
    ply: AtomicUsize,
    /// The owner's thread, whose sleep a leaver wakes.
    owner: AtomicUsize,
    /// Threads attached besides the owner.
    subscribers: AtomicUsize,
}

/// One slot of the pool. Head and data on cache lines of their own: the
/// head is read by every scan and chain walk, the data written by takers.
struct Slot<G: Game> {
    head: CachePadded<SlotHead>,
    data: CachePadded<Mutex<SlotData<G>>>,
}

impl<G: Game> Slot<G> {
    fn new(id: u64) -> Self {
        Slot {
            head: CachePadded::new(SlotHead {
                id: AtomicU64::new(id),
                parent: AtomicU64::new(NONE),
                claimed: AtomicBool::new(false),
                ply: AtomicUsize::new(0),
                owner: AtomicUsize::new(0),
                subscribers: AtomicUsize::new(0),
            }),
            data: CachePadded::new(Mutex::new(SlotData {
                node: SharedNode::unused(),
                next: 0,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SlotData<G>> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The split-point pool of one search: its slots, every thread's chain, the
/// idle count and the sleeps.
pub(crate) struct SplitPool<G: Game> {
    scheme: Scheme,
    slots: Box<[Slot<G>]>,
    /// The slots with an untaken move left, no cutoff, no cancel: threads
    /// may attach. A bit set beside the heads (written under the slot's
    /// mutex) so that a scan reads a few words, not every head.
    open: AtomicBits,
    /// Per thread: the id of the innermost publication it works under, or
    /// `NONE`. Written and read only by its own thread (padded: read at
    /// every node).
    current: Box<[CachePadded<AtomicU64>]>,
    /// Source of unique ids.
    next_id: AtomicU64,
    /// Helpers looking for work.
    idle: AtomicUsize,
    /// The search is over: helpers leave.
    done: AtomicBool,
    /// Where idle helpers sleep.
    helpers: IdleSleep,
    /// Where each thread sleeps while it waits, as an owner, for the threads
    /// attached to its slot.
    owners: Box<[CachePadded<IdleSleep>]>,
}

impl<G: Game> SplitPool<G> {
    /// The pool of `threads` threads under `scheme`.
    pub(crate) fn new(threads: usize, scheme: Scheme) -> Self {
        let threads = threads.max(1);
        let n = match scheme.slots {
            Slots::PerThread(k) | Slots::Shared(k) => k * threads,
        };
        assert!(
            n as u64 <= SLOT_MASK,
            "too many threads for the split-point pool"
        );
        SplitPool {
            scheme,
            slots: (0..n).map(|s| Slot::new(s as u64)).collect(),
            open: AtomicBits::new(n),
            current: (0..threads)
                .map(|_| CachePadded::new(AtomicU64::new(NONE)))
                .collect(),
            next_id: AtomicU64::new(1),
            idle: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            helpers: IdleSleep::default(),
            owners: (0..threads)
                .map(|_| CachePadded::new(IdleSleep::default()))
                .collect(),
        }
    }

    /// A fresh id for slot `s`, never seen before in this search.
    fn fresh_id(&self, s: usize) -> u64 {
        (self.next_id.fetch_add(1, Relaxed) << SLOT_BITS) | s as u64
    }

    fn slot_of(id: u64) -> usize {
        (id & SLOT_MASK) as usize
    }

    /// Whether some publication on `thread`'s chain has changed its id.
    #[inline]
    fn chain_broken(&self, thread: usize) -> bool {
        let mut id = self.current[thread].load(Relaxed);
        while id != NONE {
            let head = &self.slots[Self::slot_of(id)].head;
            if head.id.load(Relaxed) != id {
                return true;
            }
            id = head.parent.load(Relaxed);
        }
        false
    }

    /// Whether the chain starting at `id` passes through `ancestor`. Bounded
    /// by the pool's size, so a racy read (scans read without the mutex)
    /// can never loop.
    fn chain_contains(&self, mut id: u64, ancestor: u64) -> bool {
        for _ in 0..self.slots.len() {
            if id == NONE {
                return false;
            }
            if id == ancestor {
                return true;
            }
            id = self.slots[Self::slot_of(id)].head.parent.load(Relaxed);
        }
        false
    }

    /// Claims a free slot for `thread`: its own first free one, or any.
    fn claim(&self, thread: usize) -> Option<usize> {
        let range = match self.scheme.slots {
            Slots::PerThread(k) => thread * k..(thread + 1) * k,
            Slots::Shared(_) => 0..self.slots.len(),
        };
        range.into_iter().find(|&s| {
            let claimed = &self.slots[s].head.claimed;
            !claimed.load(Relaxed)
                && claimed
                    .compare_exchange(false, true, Acquire, Relaxed)
                    .is_ok()
        })
    }

    /// The slot of the open publication to try: the shallowest one with
    /// nobody attached that `accept` allows, else (if the scheme lets
    /// threads join) the shallowest with someone attached. Reads without
    /// locks: a hint, re-checked on attaching.
    fn find(&self, accept: impl Fn(&SlotHead) -> bool) -> Option<usize> {
        let mut free: Option<(usize, usize)> = None;
        let mut taken: Option<(usize, usize)> = None;
        let attach = self.scheme.attach;
        for s in self.open.ones(Acquire) {
            let head = &self.slots[s].head;
            let ply = head.ply.load(Relaxed);
            let best = if attach == Attach::Any || head.subscribers.load(Relaxed) == 0 {
                &mut free
            } else if attach == Attach::OneThenJoin {
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

    /// Whether an open publication lies below `id` (an owner may help there).
    fn open_below(&self, id: u64) -> Option<usize> {
        self.find(|head| self.chain_contains(head.parent.load(Relaxed), id))
    }
}

#[cfg(test)]
mod tests;
