//! The slaves' side: taking orders, searching work, adopting bounds and
//! answering (see the module doc of `pv_split`).

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::*;

impl<G: Game> PvSplit<'_, G> {
    /// `aborted(s + 1)`: whether slave `s` must abandon its search. Every
    /// [`POLL_EVERY`] calls, reads its orders.
    #[inline]
    pub(super) fn slave_aborted(&self, s: usize) -> bool {
        let cell = &self.slaves[s];
        if cell.abort.load(Relaxed) != GO_ON {
            return true;
        }
        if !cell.tick.due() {
            return false;
        }
        let mut memo = lock(&cell.memo);
        while let Some(order) = self.transport.recv_at_slave(s, Duration::ZERO) {
            self.note(cell, &mut memo, order);
        }
        cell.abort.load(Relaxed) != GO_ON
    }

    /// An order read by slave `s` while it searches (or between searches).
    pub(super) fn note(&self, cell: &SlaveCell<G>, memo: &mut SlaveMemo<G>, order: Order<G>) {
        match order {
            Order::Bound { frame, alpha } => {
                if memo.bounds.len() >= MEMO_LIMIT {
                    memo.bounds.clear();
                }
                let b = memo.bounds.entry(frame).or_insert(alpha);
                *b = (*b).max(alpha);
                if ADOPT_BOUNDS && memo.frame == Some(frame) && alpha > memo.alpha {
                    cell.abort.fetch_max(RESTART, Relaxed);
                }
            }
            Order::Stop { frame } => {
                if memo.dead.len() >= MEMO_LIMIT {
                    memo.dead.clear();
                }
                memo.dead.insert(frame);
                if memo.frame == Some(frame) {
                    cell.abort.fetch_max(STOP, Relaxed);
                }
            }
            Order::Quit => {
                cell.abort.fetch_max(QUIT, Relaxed);
                memo.backlog.push_back(Order::Quit);
            }
            work @ Order::Work(_) => memo.backlog.push_back(work),
        }
    }

    /// Searches one piece of work and answers it; false if dismissed meanwhile.
    pub(super) fn slave_search<E: Evaluator<G>>(
        &self,
        s: usize,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        work: Work<G>,
    ) -> bool {
        let cell = &self.slaves[s];
        let answer = |complete: bool, score: Score, alpha: Score, pv: Vec<G::Move>| {
            self.transport.send_to_master(Report {
                slave: s,
                id: work.id,
                mv: work.mv,
                complete,
                score,
                alpha,
                pv,
            });
        };
        let mut alpha = work.alpha;
        {
            let mut memo = lock(&cell.memo);
            if memo.dead.contains(&work.frame) {
                drop(memo);
                answer(false, 0, alpha, Vec::new());
                return true;
            }
            if ADOPT_BOUNDS && let Some(&b) = memo.bounds.get(&work.frame) {
                alpha = alpha.max(b);
            }
            memo.frame = Some(work.frame);
            memo.alpha = alpha;
        }
        let finish = |alive: bool| {
            lock(&cell.memo).frame = None;
            alive
        };
        let child = work.node.play(work.mv);
        loop {
            cell.abort.store(GO_ON, Relaxed);
            worker.refresh_stopped(ctx);
            let nodes_before = worker.stats.nodes;
            let since = worker.trace_clock();
            let score = worker.search_child(
                ctx,
                &child,
                1,
                0,
                alpha,
                work.beta,
                work.depth,
                work.ply,
                NodeType::Pv,
            );
            let stopped = worker.stopped();
            worker.trace_span(since, EventKind::Search, work.ply, String::new, stopped);
            if !stopped {
                answer(true, score, alpha, worker.pv_line(work.ply + 1).to_vec());
                return finish(true);
            }
            if !ctx.stop.load(Relaxed) {
                worker.stats.aborted_nodes += worker.stats.nodes - nodes_before;
            }
            match cell.abort.swap(GO_ON, Relaxed) {
                RESTART => {
                    let mut memo = lock(&cell.memo);
                    alpha = alpha.max(memo.bounds.get(&work.frame).copied().unwrap_or(alpha));
                    memo.alpha = alpha;
                }
                QUIT => {
                    answer(false, 0, alpha, Vec::new());
                    return finish(false);
                }
                _ => {
                    // Stopped by the master, or the search is over.
                    answer(false, 0, alpha, Vec::new());
                    return finish(true);
                }
            }
        }
    }
}

/// The slaves: every thread but the master's.
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for PvSplit<'_, G> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        Some(self)
    }

    /// Slave `ctx.thread - 1`'s life: take orders until dismissed (at once
    /// when the slaves are other processes).
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        if !self.local {
            return;
        }
        let s = ctx.thread - 1;
        let cell = &self.slaves[s];
        loop {
            let idle = Instant::now();
            let order = loop {
                if let Some(order) = lock(&cell.memo).backlog.pop_front() {
                    break order;
                }
                if let Some(order) = self.transport.recv_at_slave(s, SLAVE_WAIT) {
                    break order;
                }
            };
            worker.count_idle(idle);
            match order {
                Order::Quit => return,
                Order::Work(work) => {
                    if !self.slave_search(s, worker, ctx, work) {
                        return;
                    }
                }
                other => self.note(cell, &mut lock(&cell.memo), other),
            }
        }
    }

    /// `Quit` to every slave.
    fn dismiss(&self) {
        self.finish();
    }
}
