//! The split-point pool and the request/answer protocol: the split points
//! any thread may end up finishing, the per-thread mailboxes, attention bits
//! and published candidates through which idle threads ask for work, and
//! the root result. Locking and orderings are in the module's own doc.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::thread::Thread;

use arrayvec::ArrayVec;
use crossbeam_utils::CachePadded;

use crate::driver::lock;
use crate::game::{Game, MAX_PLY};
use crate::parallel::atomic_bits::AtomicBits;
use crate::parallel::idle::{self, IdleSleep};
use crate::parallel::shared_node::{NO_SPLIT_POINT, SharedResult, cut_off_on_chain};
use crate::score::{INFINITY, Score};

use super::frame::Frame;
use super::policy::{InFlight, outranks};

/// Split points in the shared pool, per thread: any thread may end up
/// finishing one (no owner waits), so they are kept in one larger pool
/// than YBW's per-thread stacks.
pub(super) const SPLITS_PER_THREAD: usize = 16;

/// `attention` bit: an idle thread wants this thread's candidates.
pub(super) const PUBLISH: u32 = 1;
/// `attention` bit: a request waits in this thread's mailbox.
pub(super) const REQUEST: u32 = 2;
/// Answer slot: no answer yet.
pub(super) const PENDING: usize = usize::MAX;
/// Answer slot: the request was refused.
pub(super) const REFUSED: usize = usize::MAX - 1;

/// A frame an idle thread may ask to split (or join).
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) ply: usize,
    pub(super) serial: u64,
    pub(super) merit: i64,
}

/// A split request: `helper` wants to help at the frame `ply` named `serial`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request {
    pub(super) helper: usize,
    pub(super) ply: usize,
    pub(super) serial: u64,
}

/// The shared part of a split point, under its lock.
pub(super) struct DtsSplitData<G: Game> {
    /// The split node: its moves, keys and next are the shared move loop;
    /// the rest (position, depth, key, original alpha, types) is fixed but
    /// for its window and result, which are in `result` until the last
    /// thread takes the node over.
    pub(super) node: Frame<G>,
    /// Copies of the frames `anc_base..node.ply` of the thread that split:
    /// `frames[anc_base]` is the proxy of `parent` (or the root frame).
    pub(super) ancestors: Vec<Frame<G>>,
    /// That thread's best lines at those plies: the frames' best moves'
    /// lines, which whoever takes the node over continues from.
    pub(super) ancestor_lines: Vec<ArrayVec<G::Move, MAX_PLY>>,
    pub(super) anc_base: usize,
    /// The move loop's result so far (alpha, best, best move, its line).
    pub(super) result: SharedResult<G::Move>,
    /// Threads with a move in flight here, or about to take one.
    pub(super) workers: usize,
    /// Moves reported here so far.
    pub(super) reported: u32,
    /// The moves in flight.
    pub(super) in_flight: Vec<InFlight<G::Move>>,
    /// Young brothers whose null window failed high while an earlier move
    /// was out (in flight or deferred), with their indices: asked again in
    /// the serial order once every earlier move is back
    /// ([`super::policy::prover_first`]).
    pub(super) deferred: Vec<(G::Move, usize)>,
    /// A move was given up without a result: not final unless cut off.
    pub(super) aborted: bool,
    /// At a probe's root, the index of a move that reached beta while moves
    /// before it were in flight: the cut waits for them (nobody takes a new
    /// move; `cutoff` is raised once none of them is out), as the serial
    /// loop would have searched them ([`super::policy::cut_waits`]).
    pub(super) cut_pending: Option<usize>,
    /// The last worker left: nobody may join.
    pub(super) closed: bool,
}

/// A split point of the shared pool (no owner).
pub(super) struct DtsSplitPoint<G: Game> {
    /// On cache lines of its own: every finished move writes it (under
    /// the lock), while `cutoff` and `parent` are read at every node below.
    pub(super) data: CachePadded<Mutex<DtsSplitData<G>>>,
    /// A move reached beta. Written under the lock, read anywhere.
    pub(super) cutoff: AtomicBool,
    /// The enclosing split point, or `NO_SPLIT_POINT`; fixed while anyone works here.
    pub(super) parent: AtomicUsize,
    /// The node's remaining depth: idle threads join the deepest-remaining
    /// (shallowest) open split point first. A hint, like [`Dts::is_open`].
    pub(super) depth: AtomicI32,
    /// The result's alpha, mirrored (written under the lock) for the
    /// threads below to see it rise without taking the lock, and the index
    /// of the move that set it (ties go to earlier moves).
    pub(super) alpha: AtomicI32,
    pub(super) alpha_index: AtomicUsize,
}

impl<G: Game> DtsSplitPoint<G> {
    /// A split point for a search of `threads` threads.
    pub(super) fn new(pos: &G, threads: usize) -> Self {
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
            parent: AtomicUsize::new(NO_SPLIT_POINT),
            depth: AtomicI32::new(0),
            alpha: AtomicI32::new(-INFINITY),
            alpha_index: AtomicUsize::new(0),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, DtsSplitData<G>> {
        lock(&self.data)
    }
}

/// What other threads may see of or send to one thread.
pub(super) struct ThreadSlot {
    /// `PUBLISH` / `REQUEST` bits, read at every interior node.
    pub(super) attention: AtomicU32,
    /// At most one pending request.
    pub(super) mailbox: Mutex<Option<Request>>,
    /// The answer to this thread's own request: `PENDING`, `REFUSED` or a
    /// split point id.
    pub(super) answer: AtomicUsize,
    /// This thread, unparked by the answer (set when it first asks).
    pub(super) waiter: OnceLock<Thread>,
    /// The last published candidates.
    pub(super) published: Mutex<ArrayVec<Candidate, MAX_PLY>>,
}

/// An iteration's result, from whichever thread completed the root.
pub(super) struct RootResult<M> {
    pub(super) best: Score,
    pub(super) best_move: Option<M>,
    pub(super) pv: ArrayVec<M, MAX_PLY>,
}

/// The shared state of one DTS search.
pub(crate) struct Dts<G: Game> {
    pub(super) split_points: Box<[DtsSplitPoint<G>]>,
    /// The split points with moves left to take and not closed: a hint for
    /// publishers and idle threads, written under the split point's lock.
    /// A bit set rather than a flag in each split point: an idle thread
    /// looks for open ones often, and the pool is large.
    open: AtomicBits,
    /// Ids of the split points not in use.
    free: Mutex<Vec<usize>>,
    pub(super) threads: Box<[ThreadSlot]>,
    /// The threads searching (with a stack): worth asking for candidates.
    busy: AtomicBits,
    /// The threads whose `published` list is not empty (a hint, read
    /// without the lock). These two are bit sets, not flags in the slots,
    /// so that an idle thread looking for a candidate reads a few words,
    /// not every thread's slot.
    offering: AtomicBits,
    /// The threads whose `PUBLISH` bit an idle thread has set and they
    /// have not yet cleared: asking again skips them without touching
    /// their slots.
    asked: AtomicBits,
    pub(super) root_result: Mutex<Option<RootResult<G::Move>>>,
    /// `root_result` holds this root search's result.
    pub(super) root_done: AtomicBool,
    /// The search is over: everyone leaves.
    pub(super) done: AtomicBool,
    /// Where each idle thread sleeps (its own, so that a request wakes the
    /// thread it is for, and a publication only as many as it can use).
    pub(super) sleeps: Box<[CachePadded<IdleSleep>]>,
}

impl<G: Game> Dts<G> {
    pub(super) fn new(threads: usize, root: &G) -> Self {
        let count = threads * SPLITS_PER_THREAD;
        Dts {
            split_points: (0..count)
                .map(|_| DtsSplitPoint::new(root, threads))
                .collect(),
            open: AtomicBits::new(count),
            free: Mutex::new((0..count).rev().collect()),
            threads: (0..threads)
                .map(|_| ThreadSlot {
                    attention: AtomicU32::new(0),
                    mailbox: Mutex::new(None),
                    answer: AtomicUsize::new(PENDING),
                    waiter: OnceLock::new(),
                    published: Mutex::new(ArrayVec::new()),
                })
                .collect(),
            busy: AtomicBits::new(threads),
            offering: AtomicBits::new(threads),
            asked: AtomicBits::new(threads),
            root_result: Mutex::new(None),
            root_done: AtomicBool::new(false),
            done: AtomicBool::new(false),
            sleeps: (0..threads)
                .map(|_| CachePadded::new(IdleSleep::default()))
                .collect(),
        }
    }

    /// Whether split point `id` or any enclosing one is cut off.
    #[inline]
    pub(super) fn cut_above(&self, id: usize) -> bool {
        cut_off_on_chain(id, |id| {
            let sp = &self.split_points[id];
            (sp.cutoff.load(Relaxed), sp.parent.load(Relaxed))
        })
    }

    /// Whether split point `id` has moves left to take (a hint).
    #[inline]
    pub(super) fn is_open(&self, id: usize) -> bool {
        self.open.get(id, Relaxed)
    }

    /// Marks thread `me`'s published list empty or not; call under its lock.
    #[inline]
    pub(super) fn set_offering(&self, me: usize, offering: bool) {
        self.offering.set(me, offering, SeqCst);
    }

    /// Marks split point `id` open or not; call under its lock.
    #[inline]
    pub(super) fn set_open(&self, id: usize, open: bool) {
        self.open.set(id, open, Relaxed);
    }

    pub(super) fn alloc(&self) -> Option<usize> {
        lock(&self.free).pop()
    }

    pub(super) fn release(&self, id: usize) {
        lock(&self.free).push(id);
    }

    /// Counts one more worker in at split point `id`, if it still has moves.
    pub(super) fn join(&self, id: usize) -> bool {
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
    pub(super) fn find_open(&self) -> Option<usize> {
        let mut found: Option<(usize, i32)> = None;
        for id in self.open.ones(Relaxed) {
            let sp = &self.split_points[id];
            if !sp.cutoff.load(Relaxed) {
                let depth = sp.depth.load(Relaxed);
                if outranks(depth, found.map(|(_, d)| d))
                    && !self.cut_above(sp.parent.load(Relaxed))
                {
                    found = Some((id, depth));
                }
            }
        }
        found.map(|(id, _)| id)
    }

    /// An idle thread's answer to any request sent to it: refused. (The
    /// `PUBLISH` bit stays: the thread publishes when it is busy again.)
    pub(super) fn refuse_requests(&self, me: usize) {
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
    pub(super) fn choose(&self, me: usize) -> Option<(usize, Candidate)> {
        let mut best: Option<(usize, Candidate)> = None;
        for t in self.busy.ones_in_both(&self.offering, me, Relaxed) {
            let slot = &self.threads[t];
            if slot.attention.load(Relaxed) & REQUEST != 0 {
                continue;
            }
            for c in lock(&slot.published).iter() {
                if outranks(c.merit, best.map(|(_, b)| b.merit)) {
                    best = Some((t, *c));
                }
            }
        }
        let (t, c) = best?;
        {
            let mut list = lock(&self.threads[t].published);
            list.retain(|x| x.serial != c.serial);
            self.offering.set(t, !list.is_empty(), Relaxed);
        }
        Some((t, c))
    }

    /// Gives the asking thread its answer and wakes it.
    pub(super) fn answer(&self, req: Request, answer: usize) {
        let helper = &self.threads[req.helper];
        helper.answer.store(answer, Release);
        if let Some(waiter) = helper.waiter.get() {
            idle::unpark(waiter);
        }
    }

    /// Puts a request in `target`'s mailbox; false if one is already there.
    pub(super) fn post(&self, me: usize, target: usize, c: Candidate) -> bool {
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
        self.sleeps[target].wake();
        true
    }

    /// Asks every other thread to publish its candidates (a thread not busy
    /// yet does so at its first interior node).
    ///
    /// `asked` is set before `PUBLISH` here and cleared after it in
    /// [`Dts::asked_answered`], all `SeqCst`: a thread whose `asked` flag
    /// is set has `PUBLISH` set, or is clearing both having just published.
    pub(super) fn ask_for_candidates(&self, me: usize) {
        self.asked.set_all(me, SeqCst, |t| {
            self.threads[t].attention.fetch_or(PUBLISH, SeqCst);
        });
    }

    /// Thread `me` published for the idle threads that asked: their asks
    /// are answered.
    pub(super) fn asked_answered(&self, me: usize) {
        self.threads[me].attention.fetch_and(!PUBLISH, SeqCst);
        self.asked.set(me, false, SeqCst);
    }

    /// Marks thread `me` busy or idle; an idle thread has no candidates.
    pub(super) fn set_busy(&self, me: usize, busy: bool) {
        self.busy.set(me, busy, Relaxed);
        if !busy {
            lock(&self.threads[me].published).clear();
            self.offering.set(me, false, Relaxed);
        }
    }

    pub(super) fn post_root(&self, best: Score, best_move: Option<G::Move>, pv: &[G::Move]) {
        *lock(&self.root_result) = Some(RootResult {
            best,
            best_move,
            pv: pv.iter().copied().collect(),
        });
        self.root_done.store(true, Release);
        self.wake_idle(usize::MAX);
    }

    /// Whether some busy thread other than `me` has published a candidate.
    pub(super) fn has_candidates(&self, me: usize) -> bool {
        self.busy
            .ones_in_both(&self.offering, me, SeqCst)
            .next()
            .is_some()
    }

    /// Wakes up to `n` sleeping idle threads: call after making work
    /// visible that `n` threads can use.
    pub(super) fn wake_idle(&self, mut n: usize) {
        for sleep in self.sleeps.iter() {
            if n == 0 {
                return;
            }
            if sleep.wake() {
                n -= 1;
            }
        }
    }

    /// Ends the search: idle threads leave.
    pub(super) fn finish(&self) {
        self.done.store(true, SeqCst);
        for sleep in self.sleeps.iter() {
            sleep.wake_always();
        }
        // Threads still waiting for an answer see `done` now.
        for waiter in self.threads.iter().filter_map(|slot| slot.waiter.get()) {
            idle::unpark(waiter);
        }
    }
}
