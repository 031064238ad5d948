//! Split points: Young Brothers Wait, and root splitting as its special case.
//!
//! A node may split once its eldest brother is searched: its remaining moves
//! go into one of its thread's preallocated [`SplitPoint`]s, idle threads
//! attach and take moves one at a time, and every result goes back under the
//! split point's lock. The owner (master) works there like everyone else; when
//! the moves run out it helps the threads still working *below* its split point
//! (the helpful master) until the last one leaves, then returns the split
//! point's result as the node's own.
//!
//! Locking and memory-ordering rules are in this module's `README.md`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use crate::driver::Helpers;
use crate::game::{Evaluator, Game};
use crate::node::NodeType;
use crate::parallel::idle::{self, Backoff, IdleSleep};
use crate::parallel::shared_node::{
    Merged, NO_SPLIT_POINT, SharedNode, SharedResult, cut_off_on_chain,
};
use crate::parallel::thresholds::YBW_SPLITS_PER_THREAD;
use crate::search::hook::{NodeHook, Split, SplitNode};
use crate::search::{SearchContext, Worker};
use crate::trace::EventKind;

/// Ordering keys at or above this are promising moves (table move, evaluator
/// hints above zero, killers): strong YBW searches them before splitting a
/// CUT node.
const PROMISING: i64 = 1 << 21;

/// When a node may split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitRules {
    /// Least remaining depth worth the split's overhead.
    pub min_depth: i32,
    /// Least number of moves left to share.
    pub min_moves_left: usize,
    /// Strong YBW: a node entered as CUT waits for its promising moves too.
    pub strong: bool,
    /// Deepest ply that may split (0: root splitting only).
    pub max_ply: usize,
}

/// What the moves of a split point share, under its lock.
struct SplitData<G: Game> {
    node: SharedNode<G>,
    /// The next move to take.
    next: usize,
}

/// One split point. Grouped by who may change what:
/// - `data`: everything about the node and its moves, under the lock;
/// - `cutoff`, `open`: set under the lock, read without it by every thread;
/// - `parent`, `ply`: written by the owner before publishing, read by anyone
///   who attached (the lock orders the two);
/// - `workers`: changed under the lock on attach, decremented without it on
///   leave (release), read by the owner waiting for its helpers (acquire).
pub(crate) struct SplitPoint<G: Game> {
    data: Mutex<SplitData<G>>,
    /// A move reached beta: everyone below stops.
    cutoff: AtomicBool,
    /// Moves remain and no cutoff: idle threads may attach.
    open: AtomicBool,
    /// The split point the owner was working in when it split, or `NO_SPLIT_POINT`.
    parent: AtomicUsize,
    /// The node's ply: idle threads prefer the shallowest split point.
    ply: AtomicUsize,
    /// Threads searching here, the owner included.
    workers: AtomicUsize,
}

impl<G: Game> SplitPoint<G> {
    fn new() -> Self {
        SplitPoint {
            data: Mutex::new(SplitData {
                node: SharedNode::unused(),
                next: 0,
            }),
            cutoff: AtomicBool::new(false),
            open: AtomicBool::new(false),
            parent: AtomicUsize::new(NO_SPLIT_POINT),
            ply: AtomicUsize::new(0),
            workers: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SplitData<G>> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Per-thread bookkeeping, changed only by its own thread (atomics because
/// other threads read `current` chains through split points' `parent`s).
struct ThreadSplits {
    /// How many of the thread's split points are in use (a stack).
    used: AtomicUsize,
    /// The innermost split point the thread is working at, or `NO_SPLIT_POINT`.
    current: AtomicUsize,
}

/// The split-point machinery of one search: every thread's split points,
/// the idle count, and the sleep of idle threads.
pub struct Splitter<G: Game> {
    rules: SplitRules,
    /// Padded so that one split point's traffic never slows another's.
    split_points: Box<[CachePadded<SplitPoint<G>>]>,
    /// Padded: each thread reads its own entry at every node.
    threads: Box<[CachePadded<ThreadSplits>]>,
    /// Helpers looking for work.
    idle: AtomicUsize,
    /// The search is over: helpers leave.
    done: AtomicBool,
    /// Where idle helpers sleep.
    sleep: IdleSleep,
    /// Where owners sleep while their helpers finish.
    owners: IdleSleep,
}

impl<G: Game> Splitter<G> {
    /// Split points for `threads` threads under `rules`.
    pub fn new(threads: usize, rules: SplitRules) -> Self {
        Splitter {
            rules,
            split_points: (0..threads * YBW_SPLITS_PER_THREAD)
                .map(|_| CachePadded::new(SplitPoint::new()))
                .collect(),
            threads: (0..threads)
                .map(|_| {
                    CachePadded::new(ThreadSplits {
                        used: AtomicUsize::new(0),
                        current: AtomicUsize::new(NO_SPLIT_POINT),
                    })
                })
                .collect(),
            idle: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            sleep: IdleSleep::default(),
            owners: IdleSleep::default(),
        }
    }

    /// Whether a split point this thread works under (its innermost, or any
    /// ancestor) has been cut off. Called at every node: a short chain walk.
    #[inline]
    fn cut_off_above(&self, thread: usize) -> bool {
        cut_off_on_chain(self.threads[thread].current.load(Relaxed), |id| {
            let sp = &self.split_points[id];
            (sp.cutoff.load(Relaxed), sp.parent.load(Relaxed))
        })
    }

    /// Takes moves from split point `id` and searches them until none is left,
    /// a cutoff happens, or the search stops.
    fn work_at<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        id: usize,
    ) {
        let sp = &self.split_points[id];
        loop {
            let task = {
                let mut d = sp.lock();
                if sp.cutoff.load(Relaxed) || d.next >= d.node.moves.len() {
                    sp.open.store(false, Relaxed);
                    return;
                }
                let i = d.next;
                d.next += 1;
                if d.next == d.node.moves.len() {
                    sp.open.store(false, Relaxed);
                }
                d.node.take(worker, ctx, i)
            };
            let result = |f: &mut dyn FnMut(&mut SharedResult<G::Move>)| {
                f(&mut sp.lock().node.result);
            };
            let Some((score, _)) = task.run(worker, ctx, result) else {
                // A stop here, or a cutoff here or above, makes the moves
                // left useless: close, so that nobody attaches to a split
                // point its owner is about to release.
                let _d = sp.lock();
                sp.open.store(false, Relaxed);
                return;
            };
            let mut d = sp.lock();
            if d.node.report(task.mv, score, worker) == Merged::Cut {
                sp.cutoff.store(true, Relaxed);
                sp.open.store(false, Relaxed);
                drop(d);
                worker.trace_mark(EventKind::Cutoff, task.ply, String::new);
                return;
            }
        }
    }

    /// Attaches to split point `id` and works there; false if it had closed
    /// (or, with `below: Some(a)`, no longer lies below split point `a`).
    fn attach_and_work<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        id: usize,
        below: Option<usize>,
    ) -> bool {
        let sp = &self.split_points[id];
        {
            let d = sp.lock();
            if !sp.open.load(Relaxed) || sp.cutoff.load(Relaxed) || d.next >= d.node.moves.len() {
                return false;
            }
            // Open under its lock, the split point is live, and so is every
            // split point on its parent chain: the walk is exact here.
            if below.is_some_and(|a| !self.descends_from(id, a)) {
                return false;
            }
            sp.workers.fetch_add(1, Relaxed);
        }
        let saved = self.threads[ctx.thread].current.swap(id, Relaxed);
        {
            let _leave = Leave {
                splitter: self,
                thread: ctx.thread,
                id,
                saved,
            };
            worker.refresh_stopped(ctx);
            self.work_at(worker, ctx, id);
        }
        worker.refresh_stopped(ctx);
        true
    }

    /// The helpful master: works at a split point below `id`, if one is open.
    fn help_below<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        id: usize,
    ) -> bool {
        match self.find_open(|candidate| self.descends_from(candidate, id)) {
            Some(candidate) => self.attach_and_work(worker, ctx, candidate, Some(id)),
            None => false,
        }
    }

    /// Whether split point `candidate` lies below split point `ancestor`.
    /// `candidate` may be released and reused while we look, so its chain is
    /// a hint (re-checked under the lock on attach) and the walk is bounded.
    fn descends_from(&self, candidate: usize, ancestor: usize) -> bool {
        let mut id = self.split_points[candidate].parent.load(Relaxed);
        for _ in 0..self.split_points.len() {
            if id == NO_SPLIT_POINT {
                return false;
            }
            if id == ancestor {
                return true;
            }
            id = self.split_points[id].parent.load(Relaxed);
        }
        false
    }

    /// The shallowest open split point that `accept` allows.
    fn find_open(&self, accept: impl Fn(usize) -> bool) -> Option<usize> {
        let mut found: Option<(usize, usize)> = None;
        for (id, sp) in self.split_points.iter().enumerate() {
            if sp.open.load(Acquire) && !sp.cutoff.load(Relaxed) {
                let ply = sp.ply.load(Relaxed);
                if found.is_none_or(|(_, best)| ply < best) && accept(id) {
                    found = Some((id, ply));
                }
            }
        }
        found.map(|(id, _)| id)
    }

    fn wake_sleepers(&self) {
        self.sleep.wake();
    }
}

/// A helper's leave from split point `id`, on its way out of `work_at` —
/// also when the search under it panics, so the owner stops waiting for it.
struct Leave<'a, G: Game> {
    splitter: &'a Splitter<G>,
    thread: usize,
    id: usize,
    /// The split point the thread worked at before.
    saved: usize,
}

impl<G: Game> Drop for Leave<'_, G> {
    fn drop(&mut self) {
        let s = self.splitter;
        s.threads[self.thread].current.store(self.saved, Relaxed);
        s.split_points[self.id].workers.fetch_sub(1, Release);
        s.owners.wake();
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for Splitter<G> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        self.cut_off_above(thread)
    }

    /// YBW's split: see [`NodeHook::try_split`]. Splits when the rules allow
    /// and a helper is idle; the owner then works like a helper and helps
    /// below its split point until the last helper leaves.
    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        let (ctx, moves, keys) = (node.ctx, node.moves, node.keys);
        let rules = &self.rules;
        if node.depth < rules.min_depth
            || node.ply > rules.max_ply
            || moves.len() < rules.min_moves_left
        {
            return None;
        }
        if rules.strong && node.entry_type == NodeType::Cut && keys.iter().any(|&k| k >= PROMISING)
        {
            return None;
        }
        let me = &self.threads[ctx.thread];
        let slot = me.used.load(Relaxed);
        if self.idle.load(Relaxed) == 0 || slot == YBW_SPLITS_PER_THREAD {
            worker.stats.splits_refused += 1;
            return None;
        }

        // Publish the split point.
        let id = ctx.thread * YBW_SPLITS_PER_THREAD + slot;
        let sp = &self.split_points[id];
        {
            let mut d = sp.lock();
            d.node.publish(&node);
            d.next = 0;
            sp.cutoff.store(false, Relaxed);
            sp.parent.store(me.current.load(Relaxed), Relaxed);
            sp.ply.store(node.ply, Relaxed);
            sp.workers.store(1, Relaxed);
            me.used.store(slot + 1, Relaxed);
            me.current.store(id, Relaxed);
            sp.open.store(true, Release);
        }
        worker.stats.splits += 1;
        worker.trace_mark(EventKind::Split, node.ply, String::new);
        self.wake_sleepers();

        // Search moves like any helper. `work_at` returns with the split
        // point closed, so nobody attaches from now on: wait for the helpers
        // still here, helping below meanwhile.
        self.work_at(worker, ctx, id);
        debug_assert!(
            !sp.open.load(Relaxed),
            "work_at returns with the split point closed"
        );
        let waiting = Instant::now();
        let mut helping = Duration::ZERO;
        let mut backoff = Backoff::new(idle::OWNER);
        while sp.workers.load(Acquire) > 1 {
            let t = Instant::now();
            if self.help_below(worker, ctx, id) {
                helping += t.elapsed();
                backoff.reset();
                continue;
            }
            backoff.snooze(&self.owners, || {
                sp.workers.load(SeqCst) <= 1
                    || self.find_open(|c| self.descends_from(c, id)).is_some()
            });
        }
        me.current.store(sp.parent.load(Relaxed), Relaxed);
        me.used.store(slot, Relaxed);
        worker.count_wait(waiting, helping, node.ply);
        worker.refresh_stopped(ctx);

        let d = sp.lock();
        let r = &d.node.result;
        if r.best_move.is_some() {
            worker.set_pv_line(node.ply, &r.pv);
        }
        Some((r.best, r.best_move))
    }
}

/// YBW's helpers serve the split points of every thread (the master
/// included, below its own).
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for Splitter<G> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        Some(self)
    }

    /// A helper thread's life: look for open split points and work there
    /// until the search is done; sleep when there is nothing to do.
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let mut idle_since = Instant::now();
        self.idle.fetch_add(1, SeqCst);
        let mut backoff = Backoff::new(idle::IDLE_HELPER);
        while !self.done.load(Acquire) {
            if let Some(id) = self.find_open(|_| true) {
                self.idle.fetch_sub(1, SeqCst);
                worker.count_idle(idle_since);
                let worked = self.attach_and_work(worker, ctx, id, None);
                idle_since = Instant::now();
                self.idle.fetch_add(1, SeqCst);
                // A split point that closed before we attached is no
                // progress: keep backing off, never spin on it.
                if worked {
                    backoff.reset();
                    continue;
                }
            }
            backoff.snooze(&self.sleep, || {
                self.done.load(SeqCst) || self.find_open(|_| true).is_some()
            });
        }
        self.idle.fetch_sub(1, SeqCst);
        worker.count_idle(idle_since);
    }

    fn dismiss(&self) {
        self.done.store(true, SeqCst);
        self.sleep.wake_always();
        self.owners.wake_always();
    }
}
