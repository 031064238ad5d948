//! Work changing hands: a busy thread answering requests and publishing its
//! candidates; an idle thread's loop, joining open split points, choosing a
//! candidate, asking for it and waiting for the answer.

use std::sync::atomic::Ordering::*;
use std::time::Instant;

use super::*;
use crate::sim::{self, Op};
use crate::trace::EventKind;

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// Answers a request and publishes candidates, as `attention` asks.
    /// The frames `base..in_flight` are the ones with a move in flight:
    /// those below the top one while it is entered, or all up to the top
    /// one when it searches a move without a frame of its own.
    pub(super) fn serve(&mut self, dts: &Dts<G>, in_flight: usize) {
        let slot = &dts.threads[self.ctx.thread];
        let bits = slot.attention.load(Relaxed);
        let mut publish = false;
        if bits & REQUEST != 0 {
            slot.attention.fetch_and(!REQUEST, Acquire);
            let request = lock(&slot.mailbox).take();
            if let Some(req) = request {
                let answer = self.split_for(dts, req, in_flight);
                if answer == REFUSED {
                    self.worker.stats.splits_refused += 1;
                }
                dts.answer(req, answer);
                // The stack changed or the list was stale: show a fresh one.
                publish = true;
            }
        }
        if bits & PUBLISH != 0 && self.worker.stats.nodes >= self.stack.next_publish {
            publish = true;
        }
        // The bit stays set until there is something to offer: idle threads
        // wait for candidates, not for a list.
        if publish && self.publish(dts, in_flight) {
            dts.asked_answered(self.ctx.thread);
        }
        if publish {
            self.stack.next_publish = self.worker.stats.nodes + PUBLISH_INTERVAL;
        }
    }

    /// Splits (or joins) the frame a request names, if it is still that
    /// node and still worth it: the split point id, or `REFUSED`.
    pub(super) fn split_for(&mut self, dts: &Dts<G>, req: Request, in_flight: usize) -> usize {
        let (base, base_sp, ply) = (self.stack.base, self.stack.base_sp, req.ply);
        if ply < base || ply >= in_flight || self.stack.frames[ply].serial != req.serial {
            return REFUSED;
        }
        if self.stack.is_proxy(ply) {
            return if dts.join(base_sp) { base_sp } else { REFUSED };
        }
        let f = &self.stack.frames[ply];
        if !f.splittable(self.ctx.exact) {
            return REFUSED;
        }
        let Some(id) = dts.alloc() else {
            return REFUSED;
        };
        let sp = &dts.split_points[id];
        {
            let mut d = sp.lock();
            d.node.clone_from(f);
            d.ancestors.clear();
            d.ancestors.extend_from_slice(&self.stack.frames[base..ply]);
            d.ancestor_lines.resize_with(ply - base, ArrayVec::new);
            for (k, line) in d.ancestor_lines.iter_mut().enumerate() {
                line.clear();
                line.extend(self.worker.pv_line(base + k).iter().copied());
            }
            d.anc_base = base;
            d.result = SharedResult::new(f.alpha, f.beta, f.best).with_serial_ties(!self.ctx.exact);
            d.result.best_move = f.best_move;
            d.result.pv = self.worker.pv_line(ply).iter().copied().collect();
            if let (Some(mv), Some(bound)) = (f.mv, f.search.proved()) {
                // The move in flight is in its full-window search already.
                d.result.prove(mv, f.index, bound);
            }
            // This thread (its move in flight) and the helper.
            d.workers = 2;
            d.reported = 0;
            d.deferred.clear();
            d.in_flight.clear();
            d.in_flight.extend(f.mv.map(|mv| InFlight {
                mv,
                index: f.index,
                taken_at: 0,
            }));
            d.aborted = false;
            d.cut_pending = None;
            d.closed = false;
            sp.parent.store(base_sp, Relaxed);
            sp.depth.store(f.depth, Relaxed);
            sp.alpha.store(f.alpha, Relaxed);
            sp.alpha_index.store(0, Relaxed);
            sp.cutoff.store(false, Relaxed);
            dts.set_open(id, true);
        }
        self.stack.base = ply;
        self.stack.base_sp = id;
        self.worker.stats.splits += 1;
        sim::charge(Op::Publish);
        self.worker.trace_mark(EventKind::Split, ply, String::new);
        // Other idle threads may join it at once, one per move left.
        dts.wake_idle(f.moves.len() - f.next);
        id
    }

    /// Writes this thread's candidates (splittable frames, and its split
    /// point if it has moves left) for idle threads to choose from; true if
    /// there is any.
    pub(super) fn publish(&mut self, dts: &Dts<G>, in_flight: usize) -> bool {
        let stack = &*self.stack;
        let mut list = lock(&dts.threads[self.ctx.thread].published);
        list.clear();
        for ply in stack.base..in_flight {
            let f = &stack.frames[ply];
            let merit = if stack.is_proxy(ply) {
                if !dts.is_open(stack.base_sp) {
                    continue;
                }
                join_merit(f.depth, f.entry_type)
            } else if f.splittable(self.ctx.exact) {
                f.split_merit()
            } else {
                continue;
            };
            list.push(Candidate {
                ply,
                serial: f.serial,
                merit,
            });
        }
        let offered = list.len();
        dts.set_offering(self.ctx.thread, offered > 0);
        drop(list);
        // One idle thread can take each candidate.
        dts.wake_idle(offered);
        offered > 0
    }

    /// The idle loop: find work, ask for it, do it. Helpers stay until the
    /// search is done; thread 0 (`for_root`) until the root result is in or
    /// the search stops.
    pub(super) fn idle(&mut self, dts: &Dts<G>, for_root: bool) {
        let me = self.ctx.thread;
        let mut since = Instant::now();
        let mut backoff = Backoff::new(idle::DTS_IDLE);
        loop {
            if dts.done.load(Acquire) {
                break;
            }
            if for_root {
                if dts.root_done.load(Acquire) || self.ctx.stop.load(Relaxed) {
                    break;
                }
                // Thread 0 searches no nodes while it waits here: read the clock.
                if self.ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                    self.ctx.stop.store(true, Relaxed);
                    break;
                }
            }
            dts.refuse_requests(me);
            if !self.ctx.stop.load(Relaxed) {
                // An open split point needs nobody's answer: join it.
                if let Some(id) = dts.find_open()
                    && dts.join(id)
                {
                    self.worker.count_idle(since);
                    self.work(dts, id);
                    since = Instant::now();
                    backoff.reset();
                    continue;
                }
                if let Some((target, c)) = dts.choose(me)
                    && dts.post(me, target, c)
                {
                    match self.await_answer(dts) {
                        Some(id) => {
                            self.worker.count_idle(since);
                            self.work(dts, id);
                            since = Instant::now();
                            backoff.reset();
                            continue;
                        }
                        None if dts.done.load(Acquire) => break,
                        None => {}
                    }
                }
                // Refused, or nothing to choose: ask for fresh lists before
                // sleeping. A refusal may have emptied the list without a
                // new request to publish, and then nobody would wake us
                // before the nap ends
                // (`docs/lab/2026-11-26-solver-idle-asks-before-sleep.md`).
                dts.ask_for_candidates(me);
            }
            let root_done = &dts.root_done;
            backoff.snooze(&dts.sleeps[me], || {
                dts.done.load(SeqCst)
                    || dts.has_candidates(me)
                    || dts.find_open().is_some()
                    || dts.threads[me].attention.load(SeqCst) & REQUEST != 0
                    || (for_root && root_done.load(Relaxed))
            });
        }
        self.worker.count_idle(since);
    }

    /// Waits for the answer to this thread's request, refusing requests sent
    /// to it meanwhile. `None`: refused, or the search is over.
    pub(super) fn await_answer(&mut self, dts: &Dts<G>) -> Option<usize> {
        let me = self.ctx.thread;
        let mut backoff = Backoff::new(idle::DTS_ANSWER);
        loop {
            let answer = dts.threads[me].answer.load(Acquire);
            if answer == REFUSED {
                return None;
            }
            if answer != PENDING {
                return Some(answer);
            }
            if dts.done.load(Acquire) {
                return None;
            }
            dts.refuse_requests(me);
            backoff.park();
        }
    }
}
