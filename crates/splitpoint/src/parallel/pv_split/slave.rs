//! The slaves' side: taking orders, searching work, adopting bounds and
//! answering (see the module doc of `pv_split`).

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::*;
use crate::driver::{Lead, Limits, lead_with};
use crate::parallel::{Algorithm, subtree_helpers};
use crate::pool::WorkerPool;

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
        let abort = cell.abort.load(Relaxed) != GO_ON;
        if abort && let Some(stop) = self.spread_stop {
            stop.store(true, Relaxed);
        }
        abort
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
            if let Some(stop) = self.spread_stop {
                stop.store(false, Relaxed);
            }
            worker.refresh_stopped(ctx);
            let nodes_before = worker.stats.nodes;
            let since = worker.trace_clock();
            let score = worker.search_child(
                ctx,
                &child,
                1,
                0,
                || alpha,
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

impl<G: Game> PvSplit<'_, G> {
    /// Slave `s`'s life: takes orders until dismissed, searching each piece
    /// of work with `search` (given when the slave fell idle; false if the
    /// slave was dismissed meanwhile).
    fn take_orders(&self, s: usize, mut search: impl FnMut(Work<G>, Instant) -> bool) {
        let cell = &self.slaves[s];
        loop {
            let idle_since = Instant::now();
            let order = loop {
                if let Some(order) = lock(&cell.memo).backlog.pop_front() {
                    break order;
                }
                if let Some(order) = self.transport.recv_at_slave(s, SLAVE_WAIT) {
                    break order;
                }
            };
            match order {
                Order::Quit => return,
                Order::Work(work) => {
                    if !search(work, idle_since) {
                        return;
                    }
                }
                other => self.note(cell, &mut lock(&cell.memo), other),
            }
        }
    }
}

/// A slave process on one thread: serves one search of the master's behind
/// `transport`, as slave `slave`, until the master dismisses it.
pub(crate) fn serve<G: Game, E: Evaluator<G>>(
    transport: &dyn Transport<G>,
    slave: usize,
    worker: &mut Worker<G>,
    (tt, eval, stop): (&TranspositionTable, &E, &AtomicBool),
    exact: bool,
) {
    let pv_split = PvSplit::new(transport, true);
    let mut ctx = SearchContext::new(tt, eval, stop, exact);
    ctx.thread = slave + 1;
    ctx.hook = Some(&pv_split);
    pv_split.help(worker, &ctx);
}

/// What a slave process searches with on several threads: an engine's.
pub(crate) struct RankThreads<'a, G: Game, E: Evaluator<G>> {
    pub pool: &'a WorkerPool,
    pub workers: &'a [CachePadded<Mutex<Worker<G>>>],
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    pub stop: &'a AtomicBool,
    /// One that [`Algorithm::shares_subtrees`].
    pub algorithm: Algorithm,
}

/// A slave process on all its threads (hybrid: processes × threads): each
/// piece of work is searched as on one thread, with the restarts for new
/// bounds, by thread 0, while the algorithm shares the subtree with the
/// others. An order that abandons the work raises the stop flag, so every
/// thread leaves it at once; it is lowered again before the next search.
pub(crate) fn serve_on_threads<G: Game, E: Evaluator<G>>(
    transport: &dyn Transport<G>,
    slave: usize,
    threads: &RankThreads<'_, G, E>,
    exact: bool,
) {
    let mut pv_split = PvSplit::new(transport, true);
    pv_split.spread_stop = Some(threads.stop);
    let pv_split = &pv_split;
    let limits = Limits {
        exact,
        ..Limits::default()
    };
    let algorithm = threads.algorithm;
    pv_split.take_orders(slave, |work, idle_since| {
        let Some(inner) = subtree_helpers::<G, E>(algorithm, threads.workers.len()) else {
            unreachable!("{algorithm} cannot share a subtree (checked by Engine::serve)");
        };
        // The job's root is the work's split node; only thread 0's search,
        // below, starts from it.
        let node = work.node.clone();
        let job = SearchJob {
            pool: threads.pool,
            workers: threads.workers,
            tt: threads.tt,
            eval: threads.eval,
            stop: threads.stop,
            root: &node,
            root_moves: &[],
            limits: &limits,
            start: Instant::now(),
            nodes: CachePadded::default(),
            sim: None,
        };
        let helpers = RankHelpers {
            inner: &*inner,
            pv_split,
            slave,
        };
        let alive = AtomicBool::new(true);
        let lead: Box<Lead<'_, G, E>> = Box::new(|worker, ctx, _| {
            worker.count_idle(idle_since);
            alive.store(pv_split.slave_search(slave, worker, ctx, work), Relaxed);
            SearchResult::empty()
        });
        lead_with(&job, &helpers, &mut |_| {}, lead);
        alive.load(Relaxed)
    });
}

/// A slave process's threads: `inner` shares the work's subtree among them,
/// and thread 0 also reads the master's orders, as a slave on one thread does.
struct RankHelpers<'a, 't, G: Game, E: Evaluator<G>> {
    inner: &'a dyn Helpers<G, E>,
    pv_split: &'a PvSplit<'t, G>,
    slave: usize,
}

impl<G: Game, E: Evaluator<G>> Helpers<G, E> for RankHelpers<'_, '_, G, E> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        Some(self)
    }

    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        self.inner.help(worker, ctx);
    }

    fn dismiss(&self) {
        self.inner.dismiss();
    }
}

impl<G: Game, E: Evaluator<G>> NodeHook<G, E> for RankHelpers<'_, '_, G, E> {
    #[inline]
    fn aborted(&self, thread: usize) -> bool {
        (thread == 0 && self.pv_split.slave_aborted(self.slave))
            || self.inner.hook().is_some_and(|h| h.aborted(thread))
    }

    fn try_split(&self, worker: &mut Worker<G>, node: SplitNode<'_, G, E>) -> Split<G::Move> {
        self.inner.hook()?.try_split(worker, node)
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
        self.take_orders(s, |work, idle_since| {
            worker.count_idle(idle_since);
            self.slave_search(s, worker, ctx, work)
        });
    }

    /// `Quit` to every slave.
    fn dismiss(&self) {
        self.finish();
    }
}
