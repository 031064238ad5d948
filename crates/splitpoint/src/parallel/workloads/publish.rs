//! The publisher's side, which is the node hook: publishing a node's
//! remaining moves, waiting for the last subscriber (helping below its own
//! workload meanwhile), taking the result back (see the module doc of
//! `workloads`).

use std::sync::atomic::Ordering::*;
use std::time::{Duration, Instant};

use super::*;
use crate::trace::EventKind;

impl<G: Game> Workloads<G> {
    /// Marks every unsearched move searched (a cutoff or a cancel).
    pub(super) fn flag_all_searched(d: &mut WorkloadData<G>) {
        for st in d.state.iter_mut() {
            if *st == MoveState::Unsearched {
                *st = MoveState::Searched;
            }
        }
        d.cursor = d.node.moves.len();
    }

    /// The publisher of the workload in slot `s` (published as `id`) waits
    /// for its subscribers to leave, helping below meanwhile unless stopped.
    pub(super) fn wait_for_subscribers<E: Evaluator<G>>(
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
        worker.count_wait(start, helping, head.ply.load(Relaxed));
    }

    /// The helpful publisher: works at an open workload below `id`, if any.
    pub(super) fn help_below<E: Evaluator<G>>(
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

    /// Wakes whoever sleeps: a workload was just published.
    pub(super) fn wake_for_publication(&self) {
        self.idle.wake();
        self.publishers.wake();
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for Workloads<G> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        self.chain_broken(thread)
    }

    /// The node's young brothers become a workload (see the module doc);
    /// `None` if the node does not qualify or no slot is free.
    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        if node.depth < WORKLOADS_MIN_DEPTH || node.moves.len() < WORKLOADS_MIN_MOVES_LEFT {
            return None;
        }
        let (ctx, moves) = (node.ctx, node.moves);
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
            d.node.publish(&node);
            d.state.clear();
            d.state
                .extend(std::iter::repeat_n(MoveState::Unsearched, moves.len()));
            d.cursor = 0;
            head.parent.store(parent, Relaxed);
            head.ply.store(node.ply, Relaxed);
            head.subscribers.store(0, Relaxed);
            head.id.store(id, Relaxed);
            head.open.store(true, Release);
        }
        me.store(id, Relaxed);
        worker.stats.splits += 1;
        worker.trace_mark(EventKind::Split, node.ply, String::new);
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
            if d.node.result.best_move.is_some() {
                worker.set_pv_line(node.ply, &d.node.result.pv);
            }
            d.cursor = d.node.moves.len();
            head.open.store(false, Relaxed);
            head.parent.store(NO_WORKLOAD, Relaxed);
            head.id.store(self.fresh_id(s), Relaxed);
            (d.node.result.best, d.node.result.best_move)
        };
        head.published.store(false, Release);
        Some(result)
    }
}
