//! The node machine: [`Searcher`] takes the recursive
//! search's steps (`Worker::pvs`, `search_moves`) one at a time over its
//! explicit stack, calling the same node rules (`search::rules`), so that a
//! node's state is data any thread can take over.

use std::cell::RefCell;
use std::sync::atomic::Ordering::*;

use super::*;
use crate::game::OrderNode;
use crate::search::hook::{Interrupt, OnInterrupt};
use crate::search::rules::Probe;

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// Runs the machine until the stack empties, the root completes, or the
    /// search stops.
    pub(super) fn run(&mut self) -> Exit {
        loop {
            let flow = match self.stack.frames[self.stack.top].stage {
                Stage::Enter => self.enter(),
                Stage::NextMove => self.next_move(),
                Stage::Complete => self.complete(),
                Stage::AwaitChild | Stage::AwaitNull => {
                    unreachable!("the top frame never awaits a child")
                }
            };
            match flow {
                Flow::Continue => {}
                Flow::Exit(exit) => return exit,
                // A node returns to its parent, which may return in turn (a
                // null move's fail high).
                Flow::Return(mut score) => loop {
                    debug_assert!(
                        self.stack.top > self.stack.base,
                        "only the root and proxies sit at the base"
                    );
                    self.stack.top -= 1;
                    match self.child_returned(-score) {
                        Flow::Continue => break,
                        Flow::Exit(exit) => return exit,
                        Flow::Return(s) => score = s,
                    }
                },
            }
        }
    }

    /// `Worker::pvs` up to its move loop.
    pub(super) fn enter(&mut self) -> Flow {
        let ctx = self.ctx;
        let ply = self.stack.top;
        let in_check;
        {
            let f = &mut self.stack.frames[ply];
            // Step 1. The check extension, then the horizon: quiescence
            // takes over (it counts its own node).
            in_check = ctx.eval.in_check(&f.pos);
            f.depth += extension(ctx, in_check);
            if at_horizon(f.depth, ply) {
                return Flow::Return(self.worker.quiescence(ctx, &f.pos, f.alpha, f.beta, ply));
            }
        }
        self.worker.set_pv_line(ply, &[]);
        if self.worker.poll_stop(ctx) {
            return Flow::Exit(Exit::Stopped);
        }
        if let Some(dts) = self.dts {
            if dts.cut_above(self.stack.base_sp) {
                return self.abandon(dts);
            }
            // A full-window search that other threads' moves overtook is
            // asked again at the new alpha, as the serial loop would. Only
            // outside exact mode: there the table's bounds give most of the
            // dropped subtree back at once, while in exact mode (the table
            // orders moves only) it would all be searched again
            // (`docs/lab/2026-11-26-overtaken-full-window.md`).
            if !ctx.exact && self.stack.base_sp != NO_SPLIT_POINT {
                let sp = &dts.split_points[self.stack.base_sp];
                let f = &self.stack.frames[self.stack.base];
                let alpha = sp.alpha.load(Relaxed);
                // Alpha as the move sees it (see `SharedResult::alpha_for`),
                // the index read only when the plain alpha says overtaken.
                let proved = f.search.proved();
                if overtaken(proved, alpha)
                    && overtaken(
                        proved,
                        alpha - Score::from(sp.alpha_index.load(Relaxed) > f.index),
                    )
                    && let Some(flow) = self.ask_again(dts)
                {
                    return flow;
                }
            }
            if dts.threads[ctx.thread].attention.load(Relaxed) != 0 {
                self.serve(dts, ply);
            }
        }
        let serial = self.stack.next_serial();
        let f = &mut self.stack.frames[ply];
        f.serial = serial;

        // Steps 2 and 3. Finished games, the leaf solver, the table.
        let probe = match self.worker.visit(
            ctx,
            &f.pos,
            f.alpha,
            f.beta,
            f.depth,
            ply,
            &mut G::Moves::default(),
        ) {
            Ok(probe) => probe,
            Err(score) => return Flow::Return(score),
        };
        f.key = probe.key;
        f.depth -= internal_reduction(ctx, probe.tt_move, f.depth);
        let eval = self.worker.static_eval(ctx, &f.pos, ply, in_check);
        f.eval = eval;

        // Step 4. Near the leaves: reverse futility, and which quiet moves
        // the loop may skip.
        f.leaf = match leaf_pruning(ctx, &f.pos, f.alpha, f.beta, f.depth, in_check, eval) {
            Ok(leaf) => leaf,
            Err(score) => return Flow::Return(score),
        };

        // Step 5. Null move: when passing still holds beta, so does the node.
        if f.beta - f.alpha <= 1
            && let Some((null, null_depth)) =
                null_move(ctx, &f.pos, f.beta, f.depth, in_check, eval.score)
        {
            // No move in flight, none left: not splittable meanwhile.
            f.moves.clear();
            f.next = 0;
            f.index = 0;
            f.probe = probe;
            f.stage = Stage::AwaitNull;
            self.worker.set_pass(ply);
            let w = ChildWindow {
                alpha: -f.beta,
                beta: -f.beta + 1,
                depth: null_depth,
                node_type: f.node_type.child(0),
            };
            return self.descend(null, w);
        }
        self.begin_moves(ply, probe)
    }

    /// `Worker::pvs` from move generation to its move loop.
    pub(super) fn begin_moves(&mut self, ply: usize, probe: Probe) -> Flow {
        let ctx = self.ctx;
        let worker = &mut *self.worker;
        let f = &mut self.stack.frames[ply];
        if let Some(score) = worker.probcut(
            ctx,
            &f.pos,
            &probe,
            f.alpha,
            f.beta,
            f.depth,
            ply,
            f.eval.score,
        ) {
            return Flow::Return(score);
        }

        // Step 6. Generate and order the moves.
        f.moves.clear();
        f.pos.generate_moves(&mut f.moves);
        if f.moves.is_empty() {
            debug_assert!(false, "position with no outcome and no moves");
            return Flow::Return(ctx.eval.evaluate(&f.pos));
        }
        let order = OrderNode {
            alpha: f.alpha,
            beta: f.beta,
            depth: f.depth,
            table_upper: probe.upper,
        };
        f.deferred = worker.order_or_defer(
            ctx,
            &f.pos,
            &mut f.moves,
            probe.tt_move,
            ply,
            order,
            &mut f.keys,
        );
        f.extend_first = if f.deferred.is_none() {
            worker.singular_extension(ctx, &f.pos, &f.moves, &f.keys, &probe, f.depth, ply)
        } else {
            0
        };
        if worker.stopped() {
            return Flow::Exit(Exit::Stopped);
        }

        // Step 7. The move loop starts.
        f.orig_alpha = f.alpha;
        f.entry_type = f.node_type;
        f.next = 0;
        f.best = -INFINITY;
        f.best_move = None;
        f.nearest = None;
        f.stage = Stage::NextMove;
        Flow::Continue
    }

    /// Pushes the child frame `pos`, to be searched as `w` says, one ply
    /// above the top.
    #[inline(always)]
    pub(super) fn push(&mut self, pos: G, w: ChildWindow) {
        let ChildWindow {
            alpha,
            beta,
            depth,
            node_type,
        } = w;
        let ply = self.stack.top + 1;
        if self.stack.frames.len() <= ply {
            self.stack.frames.push(Frame::new(pos));
        } else {
            self.stack.frames[ply].pos = pos;
        }
        let c = &mut self.stack.frames[ply];
        c.alpha = alpha;
        c.beta = beta;
        c.depth = depth;
        c.ply = ply;
        c.node_type = node_type;
        c.root = false;
        c.stage = Stage::Enter;
        self.stack.top = ply;
    }

    /// `search_moves`' loop head: the next move best key first, or done.
    pub(super) fn next_move(&mut self) -> Flow {
        let ply = self.stack.top;
        if self.stack.is_proxy(ply) {
            return self.next_shared_move();
        }
        let nodes = self.worker.stats.nodes;
        let f = &mut self.stack.frames[ply];
        let i = f.next;
        if i >= f.moves.len() {
            f.stage = Stage::Complete;
            return Flow::Continue;
        }
        pick_best(&mut f.moves, &mut f.keys, i);
        let mv = f.moves[i];
        f.next = i + 1;
        let child = f.pos.play(mv);
        if skips_move(self.ctx, f.leaf, i, f.best, &f.pos, mv, &child) {
            return Flow::Continue;
        }
        let r = if i == 0 {
            -f.extend_first
        } else {
            self.worker
                .reduction(self.ctx, &f.pos, &child, mv, i, f.depth, ply, f.node_type)
        };
        self.worker.set_played(ply, &f.pos, mv);
        let w = f.begin_move(i, mv, r, nodes);
        self.descend(child, w)
    }

    /// Searches `child`, the top frame's move in flight, as `w` says: on
    /// the stack, or, when it gets no frame ([`Self::place`]), by the
    /// recursive search at once (the same steps, without a frame for each
    /// of the many nodes near the leaves), its score going straight to
    /// [`Self::child_returned`].
    #[inline]
    pub(super) fn descend(&mut self, child: G, w: ChildWindow) -> Flow {
        let asked = self
            .dts
            .is_some_and(|dts| dts.threads[self.ctx.thread].attention.load(Relaxed) != 0);
        let place = self.place(&child, w.depth, asked);
        if place == Place::Frame {
            self.push(child, w);
            return Flow::Continue;
        }
        let ply = self.stack.top + 1;
        // Offer the top frame too while its move is searched: a node whose
        // children get no frame enters none below it, and would never be
        // offered (`docs/lab/2026-11-26-offer-before-frameless-move.md`).
        if asked && let Some(dts) = self.dts {
            self.serve(dts, ply);
        }
        let (alpha, beta, depth, node_type) = (w.alpha, w.beta, w.depth, w.node_type);
        let score = match self.dts {
            Some(dts) if place == Place::Serving => {
                let below = ServeFromBelow {
                    stack: RefCell::new(&mut *self.stack),
                    dts,
                    ctx: self.ctx,
                    in_flight: ply,
                };
                let ctx = SearchContext {
                    interrupt: Some(Interrupt {
                        flag: &dts.threads[self.ctx.thread].attention,
                        handler: &below,
                    }),
                    ..*self.ctx
                };
                self.worker
                    .pvs(&ctx, &child, alpha, beta, depth, ply, node_type)
            }
            _ => self
                .worker
                .pvs(self.ctx, &child, alpha, beta, depth, ply, node_type),
        };
        self.child_returned(-score)
    }

    /// Where `child`, `depth` plies from the horizon, is searched
    /// ([`policy::place`]); `asked`: an idle thread is asking for work.
    #[inline]
    fn place(&self, child: &G, depth: i32, asked: bool) -> Place {
        let iterative_only = self.dts.is_none();
        policy::place(depth, self.ctx.exact, asked, iterative_only, || {
            self.ctx.eval.splits_pay(child, depth)
        })
    }

    /// A child's score (from the top frame's view): the PVS re-search rule,
    /// then `search_moves`' bookkeeping (or a report to the split point).
    pub(super) fn child_returned(&mut self, score: Score) -> Flow {
        if self.worker.stopped() {
            return Flow::Exit(Exit::Stopped);
        }
        let ply = self.stack.top;
        let proxy = self.stack.is_proxy(ply);
        let f = &mut self.stack.frames[ply];
        if f.stage == Stage::AwaitNull {
            let probe = f.probe;
            return match self.worker.null_move_result(score, f.beta) {
                Some(score) => Flow::Return(score),
                None => self.begin_moves(ply, probe),
            };
        }
        let i = f.index;
        if proxy && score > f.alpha {
            // A move of a split point: others may have raised alpha (or
            // proved a bound above it) meanwhile.
            let dts = self.dts.expect("proxies exist only under DTS");
            let mv = f.mv.expect("a frame awaiting a child has a move in flight");
            f.alpha = dts.split_points[self.stack.base_sp]
                .lock()
                .result
                .alpha_for(mv, i);
        }
        if let Some(w) = f.search.next(score, f.alpha, f.beta, f.depth, f.node_type) {
            // A re-search of the same child position (rare: the move is
            // played again, as its first search may have had no frame).
            let mv = f.mv.expect("a frame awaiting a child has a move in flight");
            if let Some(bound) = f.search.proved().filter(|_| proxy) {
                let dts = self.dts.expect("proxies exist only under DTS");
                let sp = &dts.split_points[self.stack.base_sp];
                let mut d = sp.lock();
                if prover_first(self.ctx.exact, f.depth)
                    && waits_for_elder(&d.in_flight, &d.deferred, i)
                {
                    d.in_flight.retain(|m| m.mv != mv);
                    d.deferred.push((mv, i));
                    drop(d);
                    f.stage = Stage::NextMove;
                    return Flow::Continue;
                }
                d.result.prove(mv, f.index, bound);
            }
            let child = f.pos.play(mv);
            return self.descend(child, w);
        }
        if proxy {
            return self.report(score);
        }
        let mv = f.mv.expect("a frame awaiting a child has a move in flight");
        // As `search_moves`: the move nearest alpha, for a node that fails low.
        if !f.root && score > f.best && self.ctx.eval.stores_fail_low_move() {
            f.nearest = Some(mv);
        }
        let mut node = MoveLoop {
            alpha: f.alpha,
            beta: f.beta,
            best: f.best,
            best_move: f.best_move,
        };
        let cut = self.worker.fold(&mut node, mv, score, ply);
        (f.alpha, f.best, f.best_move) = (node.alpha, node.best, node.best_move);
        if cut {
            self.worker
                .learn_cutoff(self.ctx, &f.pos, &f.moves[..i], mv, i, f.depth, ply);
            f.stage = Stage::Complete;
            return Flow::Continue;
        }
        if i == 0 {
            f.node_type = f.node_type.after_first_move();
            if let Some(order) = f.deferred
                && f.moves.len() > 1
            {
                self.worker
                    .order_rest(self.ctx, &f.pos, &f.moves, ply, order, &mut f.keys);
            }
        }
        f.stage = Stage::NextMove;
        Flow::Continue
    }

    /// `Worker::pvs` after its move loop: the table store, the correction
    /// history, and the return.
    pub(super) fn complete(&mut self) -> Flow {
        let f = &self.stack.frames[self.stack.top];
        if f.root {
            return Flow::Exit(Exit::RootDone);
        }
        let best_move = f.best_move.or(f.nearest);
        self.worker.store(
            self.ctx,
            f.key,
            f.best,
            best_move,
            f.orig_alpha,
            f.beta,
            f.depth,
            f.ply,
        );
        self.worker.learn_correction(
            self.ctx,
            &f.pos,
            f.eval,
            f.best,
            best_move,
            f.orig_alpha,
            f.beta,
            f.depth,
        );
        Flow::Return(f.best)
    }
}

/// Serves requests for work from inside the recursive search of a child
/// that got no frame only because nobody was asking ([`Place::Serving`]),
/// as the machine does between moves. The frames with a move in flight
/// (`..in_flight`) lie above the child and do not change while it is
/// searched, so splitting one there is what splitting it just before the
/// child was: the split point counts the child's move as in flight, and
/// the child's score, once back, goes to it. Only below
/// [`policy::EAGER_FRAME_DEPTH`] and outside exact mode (`policy::place`):
/// for shallower children, and in exact mode, the calls cost more than the
/// waits. See `docs/lab/2026-11-28-serve-from-below.md`.
struct ServeFromBelow<'a, 'c, G: Game, E: Evaluator<G>> {
    stack: RefCell<&'a mut Stack<G>>,
    dts: &'a Dts<G>,
    ctx: &'a SearchContext<'c, G, E>,
    in_flight: usize,
}

impl<G: Game, E: Evaluator<G>> OnInterrupt<G> for ServeFromBelow<'_, '_, G, E> {
    fn interrupted(&self, worker: &mut Worker<G>) {
        let mut stack = self.stack.borrow_mut();
        Searcher::new(worker, self.ctx, &mut stack, Some(self.dts)).serve(self.dts, self.in_flight);
    }
}
