//! The owner's side, which is the node hook: publishing a node's young
//! brothers, taking moves like everyone else, waiting for the last thread
//! attached (helping below meanwhile), taking the result back.

use std::sync::atomic::Ordering::*;
use std::time::{Duration, Instant};

use super::*;
use crate::parallel::idle::{self, Backoff};
use crate::search::hook::{NodeHook, Split};
use crate::search::{SearchContext, Worker};
use crate::sim::{self, Op};
use crate::trace::EventKind;

impl<G: Game> SplitPool<G> {
    /// Wakes whoever a publication in slot `s` concerns: as many idle
    /// helpers as it has room for, and the owners waiting on its chain, who
    /// may help below their own slots.
    fn wake_for_publication(&self, s: usize, moves: usize) {
        self.helpers.wake_some(self.scheme.attach.room(moves));
        let mut id = self.slots[s].head.parent.load(Relaxed);
        for _ in 0..self.slots.len() {
            if id == NONE {
                break;
            }
            let head = &self.slots[Self::slot_of(id)].head;
            self.owners[head.owner.load(Relaxed)].wake();
            id = head.parent.load(Relaxed);
        }
    }

    /// The owner of slot `s` (published as `id`) waits for the threads
    /// attached to leave, helping below meanwhile unless stopped.
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
            // Helping pays only while the node stands (a cut one's threads
            // are dropping out).
            let can_help = !worker.stopped() && head.id.load(Relaxed) == id;
            if can_help {
                let t = Instant::now();
                if self.help_below(worker, ctx, id) {
                    helping += t.elapsed();
                    backoff.reset();
                    continue;
                }
            }
            backoff.snooze(&self.owners[ctx.thread], || {
                head.subscribers.load(SeqCst) == 0 || (can_help && self.open_below(id).is_some())
            });
        }
        worker.count_wait(start, helping, head.ply.load(Relaxed));
    }

    /// The helpful master: works at an open publication below `id`, if any.
    fn help_below<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        id: u64,
    ) -> bool {
        match self.open_below(id) {
            Some(s) => self.attach_and_work(worker, ctx, s, Some(id)),
            None => false,
        }
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for SplitPool<G> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        self.chain_broken(thread)
    }

    /// The node's young brothers are published (see the module doc); `None`
    /// if the node does not qualify or no slot is free.
    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        if !self.scheme.rules.allow(&node) {
            return None;
        }
        let ctx = node.ctx;
        let claimed = if self.scheme.rules.only_when_idle && self.idle.load(Relaxed) == 0 {
            None
        } else {
            self.claim(ctx.thread)
        };
        let Some(s) = claimed else {
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
            d.node.publish(&node);
            d.next = 0;
            head.parent.store(parent, Relaxed);
            head.ply.store(node.ply, Relaxed);
            head.owner.store(ctx.thread, Relaxed);
            head.subscribers.store(0, Relaxed);
            head.id.store(id, Relaxed);
            self.open.set(s, true, Release);
        }
        me.store(id, Relaxed);
        worker.stats.splits += 1;
        sim::charge(Op::Publish);
        worker.trace_mark(EventKind::Split, node.ply, String::new);
        self.wake_for_publication(s, node.moves.len());

        // Our own moves, taken like everyone's; `work` returns with the slot
        // closed, so nobody attaches from now on.
        self.work(worker, ctx, s, id, false);
        me.store(parent, Relaxed);
        worker.refresh_stopped(ctx);
        if worker.stopped() {
            // Stopped from above (or globally): the result is void; make
            // everyone under it drop out now.
            let _d = slot.lock();
            if head.id.load(Relaxed) == id {
                head.id.store(self.fresh_id(s), Relaxed);
            }
        }
        self.wait_for_subscribers(worker, ctx, s, id);
        worker.refresh_stopped(ctx);

        // Take the result and release the slot.
        let result = {
            let mut d = slot.lock();
            debug_assert_eq!(head.subscribers.load(Relaxed), 0);
            debug_assert!(
                !self.open.get(s, Relaxed),
                "the slot closed before its owner waited"
            );
            if d.node.result.best_move.is_some() {
                worker.set_pv_line(node.ply, &d.node.result.pv);
            }
            d.next = d.node.moves.len();
            head.parent.store(NONE, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
            (d.node.result.best, d.node.result.best_move)
        };
        head.claimed.store(false, Release);
        Some(result)
    }
}
