//! Working at a split point: a proxy frame's moves from its split point,
//! reports, leaving and taking over split points, abandoning work cut off
//! above, and asking an overtaken move again.

use std::sync::atomic::Ordering::*;

use super::*;
use crate::sim::{self, Op};
use crate::trace::EventKind;

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// The proxy's move loop head: the split point's next move, or leave.
    pub(super) fn next_shared_move(&mut self) -> Flow {
        let dts = self.dts.expect("proxies exist only under DTS");
        let id = self.stack.base_sp;
        let sp = &dts.split_points[id];
        sim::charge(Op::Attach);
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
            let step = next_step(&AtSplit {
                cut_off: sp.cutoff.load(Relaxed) || dts.cut_above(sp.parent.load(Relaxed)),
                cut_pending: *cut_pending,
                in_flight,
                deferred,
                taken: node.next,
                moves: node.moves.len(),
                prover: result.prover(),
                prover_first: prover_first(self.ctx.exact, node.depth),
                null_window: result.beta - result.alpha == 1,
                entry_type: node.entry_type,
                workers: *workers,
                reported: *reported,
                ply: node.ply,
            });
            match step {
                Step::Leave => None,
                Step::Cut => {
                    sp.cutoff.store(true, Relaxed);
                    None
                }
                Step::HelpBelow { close } => {
                    // Help below the moves in flight: they stay counted, so
                    // the split point lives on, and whoever brings one back
                    // takes the next move.
                    *workers -= 1;
                    if close {
                        dts.set_open(id, false);
                    }
                    return Flow::Exit(Exit::Idle);
                }
                Step::Deferred(k) => {
                    let (mv, i) = deferred.remove(k);
                    in_flight.push(InFlight {
                        mv,
                        index: i,
                        taken_at: *reported,
                    });
                    Some((i, mv, result.alpha_for(mv, i), node.node_type))
                }
                Step::Next => {
                    let i = node.next;
                    pick_best(&mut node.moves, &mut node.keys, i);
                    node.next += 1;
                    dts.set_open(id, node.next < node.moves.len());
                    let mv = node.moves[i];
                    in_flight.push(InFlight {
                        mv,
                        index: i,
                        taken_at: *reported,
                    });
                    Some((i, mv, result.alpha_for(mv, i), node.node_type))
                }
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
        let r = self.worker.reduction(
            self.ctx,
            &f.pos,
            &child,
            mv,
            i,
            f.depth,
            self.stack.top,
            node_type,
        );
        self.worker.set_played(self.stack.top, &f.pos, mv);
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
        let id = self.stack.base_sp;
        let sp = &dts.split_points[id];
        sim::charge(Op::Merge);
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
                if cut_waits(d.node.probe_root(), &d.in_flight, i) {
                    d.cut_pending = Some(d.cut_pending.map_or(i, |at| at.min(i)));
                } else {
                    sp.cutoff.store(true, Relaxed);
                }
                dts.set_open(id, false);
            }
            if i == 0 {
                d.node.node_type = d.node.node_type.after_first_move();
            }
            cut
        };
        if cut {
            let pos = &self.stack.frames[ply].pos;
            self.worker
                .learn_cutoff(self.ctx, pos, &[], mv, i, depth, ply);
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
            dts.set_open(id, false);
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
    /// full-window search ([`policy::overtaken`]): if it has, drop the
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
        if !overtaken(f.search.proved(), alpha) {
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
}
