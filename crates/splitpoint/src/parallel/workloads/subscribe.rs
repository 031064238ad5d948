//! The subscribers' side: finding a workload, attaching, taking moves and
//! reporting their results, leaving (see the module doc of `workloads`).

use std::sync::atomic::Ordering::*;
use std::time::Instant;

use super::*;
use crate::driver::Helpers;
use crate::parallel::shared_node::SharedResult;
use crate::trace::EventKind;

impl<G: Game> Workloads<G> {
    /// Takes the next unsearched move of the workload in slot `s`, if its id
    /// is still `id`. Called under the mutex.
    pub(super) fn take<E: Evaluator<G>>(
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
        while d.cursor < d.node.moves.len() && d.state[d.cursor] != MoveState::Unsearched {
            d.cursor += 1;
        }
        if d.cursor == d.node.moves.len() {
            head.open.store(false, Relaxed);
            return None;
        }
        let i = d.cursor;
        // Every state from the cursor on is `Unsearched`: the moves and keys
        // `take` swaps among them leave the states right.
        let task = d.node.take(worker, ctx, i);
        d.state[i] = MoveState::InFlight;
        d.cursor += 1;
        if d.cursor == d.node.moves.len() {
            head.open.store(false, Relaxed);
        }
        Some(task)
    }

    /// Merges the score of move `index` (0-based in the workload) searched
    /// by `worker`; a cutoff flags the rest searched and changes the id.
    /// Called under the mutex, with the id checked unchanged.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report(
        &self,
        d: &mut WorkloadData<G>,
        head: &SlotHead,
        s: usize,
        index: usize,
        mv: G::Move,
        score: Score,
        worker: &mut Worker<G>,
    ) {
        d.state[index] = MoveState::Searched;
        if d.node.report(mv, score, worker) == Merged::Cut {
            worker.trace_mark(EventKind::Cutoff, d.node.ply, String::new);
            Self::flag_all_searched(d);
            head.open.store(false, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
        }
    }

    /// Takes moves from the workload in slot `s` (id `id`) and searches them
    /// until none is left, its id changes, or this thread is stopped. A
    /// subscriber leaves the workload (under the mutex) on the way out.
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
            // A workload cut or cancelled meanwhile leaves the task its own
            // alpha: its result is not used.
            let result = |f: &mut dyn FnMut(&mut SharedResult<G::Move>)| {
                let mut d = slot.lock();
                if head.id.load(Relaxed) == id {
                    f(&mut d.node.result);
                }
            };
            let Some((score, nodes)) = task.run(worker, ctx, result) else {
                if subscriber {
                    self.leave(slot.lock(), head);
                }
                return;
            };
            done = Some((task.index, task.mv, score, nodes));
        }
    }

    /// A subscriber leaves (`d` is the slot's guard); the last one wakes a
    /// waiting publisher.
    pub(super) fn leave(&self, d: MutexGuard<'_, WorkloadData<G>>, head: &SlotHead) {
        let left = head.subscribers.fetch_sub(1, SeqCst) - 1;
        drop(d);
        if left == 0 {
            self.publishers.wake();
        }
    }

    /// Attaches to the workload in slot `s` as a subscriber and works there;
    /// false if it could not attach (closed, taken, or — with `below` — not
    /// below that workload).
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
    pub(super) fn find(&self, accept: impl Fn(&SlotHead) -> bool) -> Option<usize> {
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
}

/// Thread 0 deepens and publishes; the others subscribe.
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for Workloads<G> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        Some(self)
    }

    /// An idle thread's life: scan the slots, attach to a workload and work
    /// there, until the search is done; sleep when nothing is published.
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let mut idle_since = Instant::now();
        let mut backoff = Backoff::new(idle::IDLE_HELPER);
        while !self.done.load(Acquire) {
            if let Some(s) = self.find(|_| true) {
                worker.count_idle(idle_since);
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
        worker.count_idle(idle_since);
    }

    fn dismiss(&self) {
        self.done.store(true, SeqCst);
        self.idle.wake_always();
    }
}
