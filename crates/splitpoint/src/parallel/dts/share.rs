//! Sharing: a proxy frame's moves from its split point, reports, leaving
//! and taking over split points, answering requests, publishing
//! candidates, and the idle loop.

use std::sync::atomic::Ordering::*;
use std::time::Instant;

use super::*;
use crate::trace::EventKind;
impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// The proxy's move loop head: the split point's next move, or leave.
    pub(super) fn next_shared_move(&mut self) -> Flow {
        let dts = self.dts.expect("proxies exist only under DTS");
        let sp = &dts.split_points[self.stack.base_sp];
        let taken = {
            let mut d = sp.lock();
            let DtsSplitData {
                node,
                result,
                workers,
                reported,
                in_flight,
                deferred,
                cut_pending,
                ..
            } = &mut *d;
            if sp.cutoff.load(Relaxed) || dts.cut_above(sp.parent.load(Relaxed)) {
                None
            } else if let Some(cut_at) = *cut_pending {
                if in_flight.iter().any(|m| m.index < cut_at) {
                    // The cut waits for the moves before it: help below
                    // them (they stay counted, so the split point lives on).
                    *workers -= 1;
                    return Flow::Exit(Exit::Idle);
                }
                sp.cutoff.store(true, Relaxed);
                None
            } else if let Some((mv, i)) = take_deferred(in_flight, deferred) {
                in_flight.push(InFlight {
                    mv,
                    index: i,
                    taken_at: *reported,
                });
                Some((i, mv, result.alpha_for(mv, i), node.node_type))
            } else if node.next >= node.moves.len() && deferred.is_empty() {
                None
            } else if node.next >= node.moves.len()
                || (prover_first(self.ctx.exact, node.depth)
                    && waits_for_prover(result, in_flight, node.next))
            {
                // A move is in its full-window search here: the deferred
                // moves wait for it, and new ones would be searched at an
                // alpha it is about to raise. Help below it (it stays
                // counted, so the split point lives on); its thread takes
                // the next move when it is back.
                *workers -= 1;
                sp.open.store(false, Relaxed);
                return Flow::Exit(Exit::Idle);
            } else if result.beta - result.alpha == 1
                && node.entry_type != NodeType::All
                && *workers >= 2
                && in_flight
                    .iter()
                    .any(|m| *reported - m.taken_at >= heavy_after(node.ply))
            {
                // A move that has outlasted several others here is likely
                // the one that fails high: the moves after it would be
                // wasted (at an expected ALL node every move is needed).
                // Step away (others stay counted, so the split point lives
                // on) and help below it; the split point takes no
                // newcomers until a taken move is back.
                *workers -= 1;
                sp.open.store(false, Relaxed);
                return Flow::Exit(Exit::Idle);
            } else {
                let i = node.next;
                pick_best(&mut node.moves, &mut node.keys, i);
                node.next += 1;
                sp.open.store(node.next < node.moves.len(), Relaxed);
                let mv = node.moves[i];
                in_flight.push(InFlight {
                    mv,
                    index: i,
                    taken_at: *reported,
                });
                Some((i, mv, result.alpha_for(mv, i), node.node_type))
            }
        };
        let Some((i, mv, alpha, node_type)) = taken else {
            return self.leave(dts, true);
        };
        let nodes = self.worker.stats.nodes;
        let f = &mut self.stack.frames[self.stack.top];
        f.alpha = alpha;
        f.node_type = node_type;
        let child = f.pos.play(mv);
        let r = self
            .worker
            .reduction(self.ctx, &f.pos, &child, mv, i, f.depth, node_type);
        let w = f.begin_move(i, mv, r, nodes);
        self.descend(child, w)
    }

    /// Reports the proxy's finished move to its split point.
    pub(super) fn report(&mut self, score: Score) -> Flow {
        let dts = self.dts.expect("proxies exist only under DTS");
        let ply = self.stack.top;
        let f = &self.stack.frames[ply];
        let (i, depth) = (f.index, f.depth);
        let mv = f.mv.expect("a proxy reports the move it searched");
        let failed_low = f.search.failed_low(score);
        let sp = &dts.split_points[self.stack.base_sp];
        let cut = {
            let mut d = sp.lock();
            let line = self.worker.pv_line(ply + 1);
            let cut = d.result.merge_searched(mv, i, score, failed_low, line) == Merged::Cut;
            sp.alpha.store(d.result.alpha, Relaxed);
            sp.alpha_index.store(d.result.alpha_index(), Relaxed);
            // By move, not by thread: a thread that takes a node over
            // reports moves of its ancestors that other threads took.
            d.in_flight.retain(|m| m.mv != mv);
            d.reported += 1;
            if cut {
                if d.node.probe_root() && d.in_flight.iter().any(|m| m.index < i) {
                    d.cut_pending = Some(d.cut_pending.map_or(i, |at| at.min(i)));
                } else {
                    sp.cutoff.store(true, Relaxed);
                }
                sp.open.store(false, Relaxed);
            }
            if i == 0 {
                d.node.node_type = d.node.node_type.after_first_move();
            }
            cut
        };
        if cut {
            self.worker.on_cutoff(mv, i, depth, ply);
            self.worker.trace_mark(EventKind::Cutoff, ply, String::new);
        }
        self.stack.frames[ply].stage = Stage::NextMove;
        Flow::Continue
    }

    /// Leaves the base split point, the move in flight reported or not.
    /// The last worker out takes the node over if its result is final,
    /// else leaves the enclosing split point in turn.
    pub(super) fn leave(&mut self, dts: &Dts<G>, mut reported: bool) -> Flow {
        loop {
            let id = self.stack.base_sp;
            let sp = &dts.split_points[id];
            let mut d = sp.lock();
            d.workers -= 1;
            d.aborted |= !reported;
            if d.workers > 0 {
                return Flow::Exit(Exit::Idle);
            }
            d.closed = true;
            sp.open.store(false, Relaxed);
            let parent = sp.parent.load(Relaxed);
            let complete = sp.cutoff.load(Relaxed)
                || (d.node.next >= d.node.moves.len() && d.deferred.is_empty() && !d.aborted);
            if complete {
                debug_assert!(
                    sp.cutoff.load(Relaxed) || d.in_flight.is_empty(),
                    "every move taken at a finished split point was reported"
                );
                let p = d.node.ply;
                let anc_base = d.anc_base;
                self.stack.ensure(p + 1, &d.node.pos);
                self.stack.frames[anc_base..p].clone_from_slice(&d.ancestors);
                for (k, line) in d.ancestor_lines.iter().enumerate() {
                    self.worker.set_pv_line(anc_base + k, line);
                }
                let f = &mut self.stack.frames[p];
                f.clone_from(&d.node);
                (f.alpha, f.best, f.best_move) =
                    (d.result.alpha, d.result.best, d.result.best_move);
                f.stage = Stage::Complete;
                // The adopted frames carry the splitter's node counts: count
                // what this thread spends under them from here.
                let nodes = self.worker.stats.nodes;
                for f in &mut self.stack.frames[anc_base..=p] {
                    f.nodes_at_move = nodes;
                }
                self.worker.set_pv_line(p, &d.result.pv);
                self.stack.base = anc_base;
                self.stack.base_sp = parent;
                self.stack.top = p;
                drop(d);
                dts.release(id);
                return Flow::Continue;
            }
            drop(d);
            dts.release(id);
            if parent == NO_SPLIT_POINT {
                debug_assert!(false, "an unfinished split point with no cutoff above it");
                return Flow::Exit(Exit::Idle);
            }
            self.stack.base_sp = parent;
            reported = false;
        }
    }

    /// A cutoff above: drop the private frames and leave without reporting.
    pub(super) fn abandon(&mut self, dts: &Dts<G>) -> Flow {
        self.count_move_aborted();
        self.leave(dts, false)
    }

    /// Counts the nodes spent on the base frame's move in flight as aborted
    /// (unless the search is stopping: then nothing was wasted by choice).
    fn count_move_aborted(&mut self) {
        if !self.ctx.stop.load(Relaxed) {
            let spent = self.worker.stats.nodes - self.stack.frames[self.stack.base].nodes_at_move;
            self.worker.stats.aborted_nodes += spent;
        }
    }

    /// The base split point's alpha may have overtaken its move's
    /// full-window search ([`MoveSearch::overtaken`]): if it has, drop the
    /// private frames above it and ask the move again in a null window at
    /// that alpha; `None` if it has not (the hint was stale).
    pub(super) fn ask_again(&mut self, dts: &Dts<G>) -> Option<Flow> {
        let base = self.stack.base;
        let f = &self.stack.frames[base];
        let mv = f.mv.expect("a proxy's move is in flight");
        let alpha = dts.split_points[self.stack.base_sp]
            .lock()
            .result
            .alpha_for(mv, f.index);
        if !f.search.overtaken(alpha) {
            return None;
        }
        self.count_move_aborted();
        let nodes = self.worker.stats.nodes;
        self.stack.top = base;
        let f = &mut self.stack.frames[base];
        f.alpha = alpha;
        f.nodes_at_move = nodes;
        let w = f.search.ask_again(f.alpha, f.depth, f.node_type);
        let child = f.pos.play(mv);
        Some(self.descend(child, w))
    }

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
            slot.attention.fetch_and(!PUBLISH, Relaxed);
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
            sp.open.store(true, Relaxed);
        }
        self.stack.base = ply;
        self.stack.base_sp = id;
        self.worker.stats.splits += 1;
        self.worker.trace_mark(EventKind::Split, ply, String::new);
        // Other idle threads may join it at once.
        dts.wake_sleepers();
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
                if !dts.split_points[stack.base_sp].open.load(Relaxed) {
                    continue;
                }
                merit(f.depth, f.entry_type, 3) + JOIN_BONUS
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
        let any = !list.is_empty();
        dts.threads[self.ctx.thread].offering.store(any, SeqCst);
        drop(list);
        if any {
            dts.wake_sleepers();
        }
        any
    }

    /// Works at split point `id` (this thread is already counted in).
    pub(super) fn work(&mut self, dts: &Dts<G>, id: usize) {
        let serial = self.stack.next_serial();
        let ply = {
            let d = dts.split_points[id].lock();
            let p = d.node.ply;
            self.stack.ensure(p + 1, &d.node.pos);
            let f = &mut self.stack.frames[p];
            f.pos = d.node.pos.clone();
            f.alpha = d.result.alpha;
            f.beta = d.node.beta;
            f.depth = d.node.depth;
            f.ply = p;
            f.node_type = d.node.node_type;
            f.entry_type = d.node.entry_type;
            f.root = false;
            f.stage = Stage::NextMove;
            f.nodes_at_move = self.worker.stats.nodes;
            f.serial = serial;
            p
        };
        self.stack.base = ply;
        self.stack.base_sp = id;
        self.stack.top = ply;
        let since = self.worker.trace_clock();
        let exit = self.run_busy();
        let stopped = self.worker.stopped();
        let label = String::new;
        self.worker
            .trace_span(since, EventKind::Search, ply, label, stopped);
        if exit == Exit::RootDone {
            let f = &self.stack.frames[0];
            dts.post_root(f.best, f.best_move, self.worker.pv_line(0));
        }
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
                // before the nap ends.
                dts.ask_for_candidates(me);
            }
            let root_done = &dts.root_done;
            backoff.snooze(&dts.sleep, || {
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
