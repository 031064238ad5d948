//! The attached threads' side: finding an open slot, attaching, taking moves
//! and reporting their results, leaving; and an idle helper's life.

use std::sync::atomic::Ordering::*;
use std::time::Instant;

use super::*;
use crate::driver::Helpers;
use crate::parallel::idle::{self, Backoff};
use crate::parallel::shared_node::{Merged, SharedResult, Task};
use crate::score::Score;
use crate::search::hook::NodeHook;
use crate::search::{SearchContext, Worker};
use crate::sim::{self, Op};
use crate::trace::EventKind;

impl<G: Game> SplitPool<G> {
    /// Takes the next move of the publication `id` in slot `s`, if its id is
    /// unchanged; closes the slot with the last one. Called under the mutex.
    fn take<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        d: &mut SlotData<G>,
        s: usize,
        id: u64,
    ) -> Option<Task<G>> {
        let head = &self.slots[s].head;
        if head.id.load(Relaxed) != id || d.next >= d.node.moves.len() {
            self.open.set(s, false, Relaxed);
            return None;
        }
        let i = d.next;
        d.next += 1;
        sim::charge(Op::Attach);
        if d.next == d.node.moves.len() {
            self.open.set(s, false, Relaxed);
        }
        Some(d.node.take(worker, ctx, i))
    }

    /// Merges the score of `mv` searched by `worker`; a cutoff leaves no move
    /// to take and changes the id. Called under the mutex, the id unchanged.
    fn report(
        &self,
        d: &mut SlotData<G>,
        head: &SlotHead,
        s: usize,
        mv: G::Move,
        score: Score,
        worker: &mut Worker<G>,
    ) {
        sim::charge(Op::Merge);
        if d.node.report(mv, score, worker) == Merged::Cut {
            worker.trace_mark(EventKind::Cutoff, d.node.ply, String::new);
            d.next = d.node.moves.len();
            self.open.set(s, false, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
        }
    }

    /// Takes moves from the publication `id` in slot `s` and searches them
    /// until none is left, its id changes, or this thread is stopped;
    /// returns with the slot closed. A `subscriber` (not the owner) leaves
    /// the slot, under the mutex, on the way out.
    pub(super) fn work<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        s: usize,
        id: u64,
        subscriber: bool,
    ) {
        let slot = &self.slots[s];
        let head = &slot.head;
        // The last move searched, its score and its nodes, to report with
        // the next take (one lock for both).
        let mut done: Option<(G::Move, Score, u64)> = None;
        loop {
            let mut d = slot.lock();
            if let Some((mv, score, nodes)) = done.take() {
                if head.id.load(Relaxed) == id {
                    self.report(&mut d, head, s, mv, score, worker);
                } else {
                    // Cut or cancelled meanwhile: the result is not used.
                    worker.stats.aborted_nodes += nodes;
                }
            }
            let Some(task) = self.take(worker, ctx, &mut d, s, id) else {
                self.leave_if(subscriber, d, head);
                return;
            };
            drop(d);
            // A publication cut or cancelled meanwhile leaves the task its
            // own alpha: its result is not used.
            let result = |f: &mut dyn FnMut(&mut SharedResult<G::Move>)| {
                let mut d = slot.lock();
                if head.id.load(Relaxed) == id {
                    f(&mut d.node.result);
                }
            };
            let Some((score, nodes)) = task.run(worker, ctx, result) else {
                // A stop, or a cutoff here or above, makes the moves left
                // useless: close, so that nobody attaches to a slot its owner
                // is about to release.
                let d = slot.lock();
                self.open.set(s, false, Relaxed);
                self.leave_if(subscriber, d, head);
                return;
            };
            done = Some((task.mv, score, nodes));
        }
    }

    /// A subscriber leaves (`d` is the slot's guard); the last one wakes the
    /// owner.
    fn leave_if(&self, subscriber: bool, d: MutexGuard<'_, SlotData<G>>, head: &SlotHead) {
        if !subscriber {
            return;
        }
        let owner = head.owner.load(Relaxed);
        let left = head.subscribers.fetch_sub(1, SeqCst) - 1;
        drop(d);
        if left == 0 {
            self.owners[owner].wake();
        }
    }

    /// Attaches to the publication in slot `s` and works there; false if it
    /// could not attach (closed, taken, or — with `below` — not below that
    /// publication).
    pub(super) fn attach_and_work<E: Evaluator<G>>(
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
            let subscribers = head.subscribers.load(Relaxed);
            if !self.open.get(s, Relaxed) || !self.scheme.attach.allows(subscribers) {
                return false;
            }
            // Open under its mutex, the slot is live, and so is every slot
            // on its parent chain: the walk is exact here.
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
}

/// Leaves slot `.1` if dropped, which happens only when the search under it
/// panics (it is forgotten otherwise): its owner then stops waiting, and the
/// pool re-raises the panic once every thread is out.
struct LeaveOnUnwind<'a, G: Game>(&'a SplitPool<G>, usize);

impl<G: Game> Drop for LeaveOnUnwind<'_, G> {
    fn drop(&mut self) {
        let slot = &self.0.slots[self.1];
        self.0.leave_if(true, slot.lock(), &slot.head);
    }
}

/// Thread 0 deepens and publishes; the other threads help wherever a
/// publication is open (and publish below it in turn).
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for SplitPool<G> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        Some(self)
    }

    /// An idle helper's life: find an open slot, attach and work there,
    /// until the search is done; sleep when there is nothing to do.
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let mut idle_since = Instant::now();
        self.idle.fetch_add(1, SeqCst);
        let mut backoff = Backoff::new(idle::IDLE_HELPER);
        while !self.done.load(Acquire) {
            if let Some(s) = self.find(|_| true) {
                self.idle.fetch_sub(1, SeqCst);
                worker.count_idle(idle_since);
                let worked = self.attach_and_work(worker, ctx, s, None);
                idle_since = Instant::now();
                self.idle.fetch_add(1, SeqCst);
                // A slot closed before we attached is no progress: keep
                // backing off, never spin on it (threads may outnumber cores).
                if worked {
                    backoff.reset();
                    continue;
                }
            }
            backoff.snooze(&self.helpers, || {
                self.done.load(SeqCst) || self.find(|_| true).is_some()
            });
        }
        self.idle.fetch_sub(1, SeqCst);
        worker.count_idle(idle_since);
    }

    fn dismiss(&self) {
        self.done.store(true, SeqCst);
        self.helpers.wake_always();
        for owner in self.owners.iter() {
            owner.wake_always();
        }
    }
}
