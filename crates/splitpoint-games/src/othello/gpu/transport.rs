//! The device as PV splitting's slaves: `--algorithm gpu`.
//!
//! The library's PV splitting (`splitpoint::cluster`) is written over a
//! [`Transport`]: the master (the CPU's search, thread 0) hands each PV
//! node's younger brothers to slaves as [`Work`] and folds their
//! [`Report`]s in. [`GpuTransport`] is a transport whose slaves are the
//! device: work is collected, not sent, and when the master next looks for
//! results every piece collected is searched together by the batch search
//! ([`search_batch`]): each piece's tree is split on the host down to a
//! frontier, and the frontier's subtrees of every piece go to the device
//! in wide launches, one work-item each (where the seed's PV splitting on
//! a GPU launched one work-item per piece). How far the host goes is the
//! transport's [`BatchConfig`] ([`BatchConfig::pieces`]: `gpu-narrow`,
//! `gpu`, `gpu-wide`): the wider, the more subtrees a launch and the more
//! nodes, since younger brothers start before their elders' bounds are
//! known. The master's proof of
//! exactness holds unchanged, because each report is what a slave's
//! fail-soft search would give:
//!
//! - a null window at the frame's alpha first (the serial move loop's
//!   young-brother search), and for the moves that fail high below beta a
//!   second launch in the full window, so that a score above alpha is exact;
//! - a bound the master broadcasts before the launch raises the alpha of
//!   the collected work of that frame (as a slave adopts it); a stop drops
//!   it, answered as incomplete, and so does the move time's deadline
//!   ([`Transport::set_deadline`]) for whatever is not searched by then,
//!   since the master stops there too;
//! - the kernel scores as the CPU's evaluator does ([`DeviceEval`], chosen
//!   by the evaluator's type), and the few subtrees too deep for the
//!   batch search splits every piece until its subtrees fit the kernel's
//!   stack.
//!
//! If the device fails mid-search the batch is searched on the host, the
//! search stays exact, and [`GpuTransport::error`] says what happened.

use std::any::TypeId;
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use splitpoint::cluster::{Order, Report, Transport, Work};
use splitpoint::{Evaluator, Game, MoveList, Score, Stats};

use super::{BatchConfig, DeviceEval, Gpu, GpuError, Subtree, search_batch_until};
use crate::othello::{Othello, OthelloEval, OthelloExact, OthelloMove};

/// How many pieces of work the master may hand out at once: more than any
/// PV node's moves, so that every younger brother of a node goes into one
/// launch.
pub const SLOTS: usize = 256;

/// The device as PV splitting's slaves (see the module doc).
pub struct GpuTransport<E> {
    eval: E,
    kind: DeviceEval,
    /// How the batch search splits each piece between host and device.
    config: BatchConfig,
    state: Mutex<State>,
}

/// What the master's thread changes; behind a mutex only because a
/// transport is shared (`Sync`): one thread ever locks it.
struct State {
    gpu: Gpu,
    /// Work collected for the next launch, with the slave slot it went to.
    pending: Vec<(usize, Work<Othello>)>,
    /// Reports not yet read by the master.
    ready: VecDeque<Report<OthelloMove>>,
    /// The search's move-time deadline: work not searched by then is
    /// answered as incomplete.
    deadline: Option<Instant>,
    /// This search's counts.
    offload: Offload,
    /// The first device failure (its batches then ran on the host).
    error: Option<GpuError>,
}

/// What the device did in one search: the seed's profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offload {
    /// Kernel launches (null-window batches and re-search batches).
    pub launches: u64,
    /// Subtrees searched on the device (a re-search counts again).
    pub subtrees: u64,
    /// Pieces of work searched on the host: the solver's stopped by a depth
    /// (its presearch), and all of them once the device failed.
    pub host_subtrees: u64,
    /// Positions visited: the device's, and the host's above the frontier.
    pub nodes: u64,
    /// Of `nodes`, the host's above the frontier.
    pub host_nodes: u64,
    /// Queued subtrees a cutoff inside a piece made useless before their
    /// launch, and results of launched ones it dropped.
    pub aborted: u64,
    /// Bytes up and down.
    pub bytes: u64,
    /// Positions up and results down.
    pub transfer: Duration,
    /// Kernels running, by the device's clock.
    pub kernel: Duration,
}

impl<E: Evaluator<Othello> + 'static> GpuTransport<E> {
    /// The device `gpu` searching with `eval`'s scores, each piece of work
    /// split between host and device as `config` says
    /// ([`BatchConfig::pieces`]).
    ///
    /// # Errors
    /// A message when the kernel has no copy of `eval`: it knows
    /// [`OthelloEval`] and [`OthelloExact`].
    pub fn new(gpu: Gpu, eval: E, config: BatchConfig) -> Result<Self, GpuError> {
        let kind = if TypeId::of::<E>() == TypeId::of::<OthelloEval>() {
            DeviceEval::Midgame
        } else if TypeId::of::<E>() == TypeId::of::<OthelloExact>() {
            DeviceEval::Exact
        } else {
            return Err(GpuError(format!(
                "the device scores positions as OthelloEval or OthelloExact, not {}",
                std::any::type_name::<E>()
            )));
        };
        Ok(GpuTransport {
            eval,
            kind,
            config,
            state: Mutex::new(State {
                gpu,
                pending: Vec::new(),
                ready: VecDeque::new(),
                deadline: None,
                offload: Offload::default(),
                error: None,
            }),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The first device failure since the transport was made, if any (those
    /// batches were searched on the host; the results stayed exact).
    pub fn error(&self) -> Option<GpuError> {
        self.state().error.clone()
    }

    /// What the device did in the current (or last) search.
    pub fn offload(&self) -> Offload {
        self.state().offload
    }

    /// Searches every collected piece of work: all at a null window, then
    /// the ones that failed high below beta at the full window; each
    /// answered in the order it was collected, as incomplete where the
    /// deadline came first.
    fn launch(&self, state: &mut State) {
        let batch = std::mem::take(&mut state.pending);
        let children: Vec<Othello> = batch.iter().map(|(_, w)| w.node.play(w.mv)).collect();
        let subtree = |i: usize, alpha: Score, beta: Score| {
            let w = &batch[i].1;
            Subtree {
                pos: children[i],
                depth: w.depth - 1,
                ply: w.ply as u32 + 1,
                alpha: -beta,
                beta: -alpha,
            }
        };
        let scouts: Vec<Subtree> = (0..batch.len())
            .map(|i| subtree(i, batch[i].1.alpha, batch[i].1.alpha + 1))
            .collect();
        let mut found = self.search(state, &scouts);
        let again: Vec<usize> = (0..batch.len())
            .filter(|&i| {
                let w = &batch[i].1;
                found[i].is_some_and(|(s, _)| w.alpha < -s && -s < w.beta)
            })
            .collect();
        if !again.is_empty() {
            let full: Vec<Subtree> = again
                .iter()
                .map(|&i| subtree(i, batch[i].1.alpha, batch[i].1.beta))
                .collect();
            for (&i, result) in again.iter().zip(self.search(state, &full)) {
                found[i] = result;
            }
        }
        for ((slave, work), result) in batch.into_iter().zip(found) {
            let (score, best) = result.unwrap_or((0, None));
            state.ready.push_back(Report {
                slave,
                id: work.id,
                mv: work.mv,
                complete: result.is_some(),
                score: -score,
                alpha: work.alpha,
                pv: best.into_iter().collect(),
            });
        }
    }

    /// Each subtree's fail-soft score and best move, by the batch search
    /// (on the host alone where the device failed); `None` where the
    /// deadline came first.
    fn search(
        &self,
        state: &mut State,
        batch: &[Subtree],
    ) -> Vec<Option<(Score, Option<OthelloMove>)>> {
        let mut out = vec![None; batch.len()];
        // The solver's scores stopped by a depth (its presearch) are the
        // patterns', which the kernel lacks: those pieces stay on the host.
        let (device, host): (Vec<usize>, Vec<usize>) = (0..batch.len())
            .partition(|&i| self.kind == DeviceEval::Midgame || batch[i].to_the_end());
        let mut on_host = host;
        let pieces: Vec<Subtree> = device.iter().map(|&i| batch[i]).collect();
        if !pieces.is_empty() {
            let (gpu, deadline) = (&mut state.gpu, state.deadline);
            match search_batch_until(gpu, &pieces, self.kind, &self.config, deadline, |_| {}) {
                Ok((searched, stats)) => {
                    let o = &mut state.offload;
                    o.launches += stats.launches;
                    o.subtrees += stats.subtrees;
                    o.nodes += stats.host_nodes + stats.device_nodes;
                    o.host_nodes += stats.host_nodes;
                    o.aborted += stats.aborted + stats.dropped;
                    o.bytes += stats.bytes;
                    o.transfer += stats.transfer;
                    o.kernel += stats.kernel;
                    for (&i, s) in device.iter().zip(searched) {
                        out[i] = s.map(|s| (s.score, s.best_move));
                    }
                }
                Err(e) => {
                    state.error.get_or_insert(e);
                    on_host.extend(device);
                }
            }
        }
        for i in on_host {
            let s = &batch[i];
            let mut nodes = 0;
            out[i] = Some(host_search(
                &self.eval,
                &s.pos,
                s.depth,
                s.ply as usize,
                s.alpha,
                s.beta,
                &mut nodes,
            ));
            state.offload.host_subtrees += 1;
            state.offload.nodes += nodes;
        }
        out
    }
}

/// The kernel's search on the host: fail-soft alpha-beta to `depth`, a
/// finished game scored at once, `eval` at the horizon (the value
/// `splitpoint::oracle::negamax` defines), and the move that gave the score.
fn host_search<E: Evaluator<Othello>>(
    eval: &E,
    pos: &Othello,
    depth: i32,
    ply: usize,
    alpha: Score,
    beta: Score,
    nodes: &mut u64,
) -> (Score, Option<OthelloMove>) {
    *nodes += 1;
    if let Some(outcome) = pos.outcome() {
        return (eval.terminal_score(pos, outcome, ply), None);
    }
    if depth <= 0 {
        return (eval.evaluate(pos), None);
    }
    let mut moves: MoveList<OthelloMove> = MoveList::new();
    pos.generate_moves(&mut moves);
    let (mut best, mut best_move) = (Score::MIN, None);
    for mv in moves {
        let a = alpha.max(best);
        let (s, _) = host_search(eval, &pos.play(mv), depth - 1, ply + 1, -beta, -a, nodes);
        if -s > best {
            (best, best_move) = (-s, Some(mv));
            if best >= beta {
                break;
            }
        }
    }
    (best, best_move)
}

impl<E: Evaluator<Othello> + 'static> Transport<Othello> for GpuTransport<E> {
    fn slaves(&self) -> usize {
        SLOTS
    }

    fn send_to_slave(&self, slave: usize, order: Order<Othello>) {
        let mut state = self.state();
        match order {
            Order::Work(work) => state.pending.push((slave, work)),
            Order::Bound { frame, alpha } => {
                for (_, w) in state.pending.iter_mut().filter(|(_, w)| w.frame == frame) {
                    w.alpha = w.alpha.max(alpha);
                }
            }
            Order::Stop { frame } => {
                let (dropped, kept) = std::mem::take(&mut state.pending)
                    .into_iter()
                    .partition(|(_, w)| w.frame == frame);
                state.pending = kept;
                for (slave, w) in dropped {
                    state.ready.push_back(Report {
                        slave,
                        id: w.id,
                        mv: w.mv,
                        complete: false,
                        score: 0,
                        alpha: w.alpha,
                        pv: Vec::new(),
                    });
                }
            }
            Order::Quit => {}
        }
    }

    /// The device's results come back through [`Transport::recv_at_master`];
    /// nothing else reports.
    fn send_to_master(&self, report: Report<OthelloMove>) {
        self.state().ready.push_back(report);
    }

    /// No slave thread runs: the device is the slaves.
    fn recv_at_slave(&self, _: usize, _: Duration) -> Option<Order<Othello>> {
        None
    }

    /// A report, launching the collected work first if none is ready (the
    /// launch is synchronous, so nothing is ever worth waiting for).
    fn recv_at_master(&self, _: Duration) -> Option<Report<OthelloMove>> {
        let mut state = self.state();
        if state.ready.is_empty() && !state.pending.is_empty() {
            self.launch(&mut state);
        }
        state.ready.pop_front()
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.state().deadline = deadline;
    }

    fn begin_search(&self, _exact: bool) {
        let mut state = self.state();
        state.offload = Offload::default();
        state.pending.clear();
        state.ready.clear();
    }

    /// The device's nodes, launches (as messages), bytes and times, added to
    /// the search's statistics.
    fn end_search(&self) -> Stats {
        let o = self.offload();
        Stats {
            nodes: o.nodes,
            messages: o.launches,
            launches: o.launches,
            device_subtrees: o.subtrees,
            message_bytes: o.bytes,
            transfer_micros: o.transfer.as_micros() as u64,
            device_micros: o.kernel.as_micros() as u64,
            ..Stats::default()
        }
    }
}
