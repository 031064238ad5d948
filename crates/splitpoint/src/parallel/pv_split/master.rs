//! The master's side: frames of shared PV nodes, dispatching work, folding
//! reports, and its wait in a split node (see the module doc of `pv_split`).

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::*;

impl<G: Game> PvSplit<'_, G> {
    /// Folds in every report that has arrived, then hands out work.
    pub(super) fn pump(&self, m: &mut Master<G>) {
        while let Some(report) = self.transport.recv_at_master(Duration::ZERO) {
            self.fold(m, report);
        }
        self.dispatch(m);
    }

    pub(super) fn update_active(&self, m: &Master<G>) {
        let active = !m.frames.is_empty() || m.slaves.iter().any(Option::is_some);
        self.active.store(active, Relaxed);
    }

    /// One slave's report: frees the slave, and folds the result into its
    /// frame if the frame is still there and wants it.
    pub(super) fn fold(&self, m: &mut Master<G>, r: Report<G::Move>) {
        let Some(work) = m.slaves[r.slave].filter(|w| w.id == r.id) else {
            return;
        };
        m.slaves[r.slave] = None;
        let Some(level) = m.frames.iter().position(|f| f.id == work.frame) else {
            return;
        };
        let f = &mut m.frames[level];
        debug_assert_eq!(r.mv, f.moves[work.index], "a report names its move");
        debug_assert!(
            r.alpha <= f.result.alpha,
            "slaves adopt only alphas the master sent"
        );
        f.in_flight -= 1;
        if f.cut {
            return;
        }
        if !r.complete {
            // Not stopped by us (the frame is alive): search it again.
            f.queue.push_front(work.index);
            return;
        }
        self.fold_score(m, level, work.index, r.score, &r.pv);
    }

    /// A completed fail-soft score of move `index` of frame `level`, searched
    /// with the frame's beta and an alpha no higher than the frame's now.
    pub(super) fn fold_score(
        &self,
        m: &mut Master<G>,
        level: usize,
        index: usize,
        score: Score,
        line: &[G::Move],
    ) {
        let f = &mut m.frames[level];
        let mv = f.moves[index];
        let frame = f.id;
        // Above alpha (≥ the alpha searched with) is exact below beta.
        match f.result.merge(mv, score, line) {
            Merged::Nothing => return,
            Merged::Cut => {
                m.marks.push((EventKind::Cutoff, f.ply));
                f.cut = true;
                m.cut_level = Some(m.cut_level.map_or(level, |l| l.min(level)));
                self.cut.store(true, Relaxed);
                self.stop_work_of(m, frame);
                return;
            }
            Merged::Raised => {}
        }
        if ADOPT_BOUNDS {
            let working: Vec<usize> = (0..m.slaves.len())
                .filter(|&s| m.slaves[s].is_some_and(|w| w.frame == frame))
                .collect();
            self.transport.broadcast_bound(&working, frame, score);
            self.bounds_sent.fetch_add(working.len() as u64, Relaxed);
            m.marks.push((EventKind::Bound, m.frames[level].ply));
        }
    }

    /// Tells the slaves working on `frame` to stop (they stay busy until
    /// they answer).
    pub(super) fn stop_work_of(&self, m: &Master<G>, frame: FrameId) {
        for (s, w) in m.slaves.iter().enumerate() {
            if w.is_some_and(|w| w.frame == frame) {
                self.transport.stop(s, frame);
            }
        }
    }

    /// Sends queued moves to free slaves, innermost frame first (the one the
    /// master waits on), never below a cut frame.
    pub(super) fn dispatch(&self, m: &mut Master<G>) {
        let live = m.cut_level.unwrap_or(m.frames.len());
        debug_assert!(live <= m.frames.len(), "a cut level names a live frame");
        for s in 0..m.slaves.len() {
            if m.slaves[s].is_some() {
                continue;
            }
            let Some(level) = (0..live).rev().find(|&l| !m.frames[l].queue.is_empty()) else {
                break;
            };
            let id = m.next_work;
            m.next_work += 1;
            let f = &mut m.frames[level];
            let index = f.queue.pop_front().expect("a non-empty queue");
            let mv = f.moves[index];
            let work = Work {
                id,
                frame: f.id,
                mv,
                node: f.pos.clone(),
                depth: f.depth,
                ply: f.ply,
                alpha: f.result.alpha,
                beta: f.result.beta,
            };
            f.in_flight += 1;
            m.slaves[s] = Some(InFlight {
                id,
                frame: f.id,
                index,
            });
            self.work_sent.fetch_add(1, Relaxed);
            self.transport.send_work(s, work);
        }
        self.update_active(m);
    }

    /// Pops the innermost frame (`level`), stopping its slaves' work. If it
    /// was the cut one, the cut is consumed with it, whatever closed it: a
    /// frame cut while the search was also stopped closes as abandoned, and
    /// a cut level left pointing past the frames would make `dispatch` read
    /// a frame that is gone (found by the stress harness).
    pub(super) fn close(&self, m: &mut Master<G>, level: usize) -> SharedPvNode<G> {
        debug_assert_eq!(level + 1, m.frames.len(), "frames close innermost first");
        let f = m.frames.pop().expect("the frame being closed");
        if f.in_flight > 0 {
            self.stop_work_of(m, f.id);
        }
        if m.cut_level.is_some_and(|l| l >= level) {
            m.cut_level = None;
            self.cut.store(false, Relaxed);
        }
        self.update_active(m);
        f
    }

    /// The master's `try_split`: make a frame of a PV node's remaining moves
    /// and see them all searched (see the module doc).
    pub(super) fn split<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        node: SplitNode<'_, G, E>,
    ) -> Split<G::Move> {
        let (ctx, moves, keys) = (node.ctx, node.moves, node.keys);
        if self.slaves.is_empty()
            || node.entry_type != NodeType::Pv
            || node.depth < PV_SPLIT_MIN_DEPTH
        {
            return None;
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        let level = {
            let mut m = lock(&self.master);
            let id = m.next_frame;
            m.next_frame += 1;
            m.frames.push(SharedPvNode {
                id,
                pos: node.pos.clone(),
                depth: node.depth,
                ply: node.ply,
                result: SharedResult::new(node.alpha, node.beta, node.best),
                moves: order.iter().map(|&i| moves[i]).collect(),
                queue: (0..moves.len()).collect(),
                in_flight: 0,
                cut: false,
            });
            m.frames.len() - 1
        };
        worker.stats.splits += 1;
        worker.trace_mark(EventKind::Split, node.ply, String::new);
        loop {
            // The clock is read on every pass, not only when a wait times
            // out: with many slaves their reports can arrive faster than
            // `WAIT`, and the move time must still hold.
            if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                ctx.stop.store(true, Relaxed);
            }
            let mut m = lock(&self.master);
            self.pump(&mut m);
            for (kind, ply) in m.marks.drain(..) {
                worker.trace_mark(kind, ply, String::new);
            }
            let stopped = ctx.stop.load(Relaxed);
            if stopped || m.cut_level.is_some_and(|l| l < level) {
                // Abandoned: the caller's result is void.
                self.close(&mut m, level);
                drop(m);
                worker.refresh_stopped(ctx);
                return Some((node.best, None));
            }
            if m.cut_level == Some(level) {
                let f = self.close(&mut m, level);
                drop(m);
                worker.refresh_stopped(ctx);
                worker.set_pv_line(node.ply, &f.result.pv);
                return Some((f.result.best, f.result.best_move));
            }
            let f = &mut m.frames[level];
            if f.queue.is_empty() && f.in_flight == 0 {
                let f = self.close(&mut m, level);
                drop(m);
                if f.result.best_move.is_some() {
                    worker.set_pv_line(node.ply, &f.result.pv);
                }
                return Some((f.result.best, f.result.best_move));
            }
            if MASTER_WORKS && let Some(index) = f.queue.pop_front() {
                let (mv, alpha, beta) = (f.moves[index], f.result.alpha, f.result.beta);
                let child = f.pos.play(mv);
                drop(m);
                let score = worker.search_child(
                    ctx,
                    &child,
                    1,
                    0,
                    || alpha,
                    beta,
                    node.depth,
                    node.ply,
                    NodeType::Pv,
                );
                let mut m = lock(&self.master);
                if worker.stopped() {
                    // A cutoff or the stop, handled above; if neither (cannot
                    // happen), search the move again.
                    if m.cut_level.is_none() && !ctx.stop.load(Relaxed) {
                        m.frames[level].queue.push_front(index);
                        drop(m);
                        worker.refresh_stopped(ctx);
                    }
                    continue;
                }
                let line = worker.pv_line(node.ply + 1).to_vec();
                self.fold_score(&mut m, level, index, score, &line);
                continue;
            }
            // Everything is handed out: wait for results.
            let waiting = Instant::now();
            let report = self.transport.recv_at_master(WAIT);
            worker.count_wait(waiting, Duration::ZERO, node.ply);
            if let Some(report) = report {
                self.fold(&mut m, report);
            }
        }
    }

    /// `aborted(0)`: a cut frame is waiting for the master's search to
    /// unwind to it. Every [`POLL_EVERY`] calls, reads the reports and hands
    /// out work first.
    #[inline]
    pub(super) fn master_aborted(&self) -> bool {
        if self.cut.load(Relaxed) {
            return true;
        }
        if !self.active.load(Relaxed) {
            return false;
        }
        if !self.tick.due() {
            return false;
        }
        let mut m = lock(&self.master);
        self.pump(&mut m);
        m.cut_level.is_some()
    }

    /// Dismisses every slave.
    pub(super) fn finish(&self) {
        for s in 0..self.slaves.len() {
            self.transport.quit(s);
        }
    }
}
