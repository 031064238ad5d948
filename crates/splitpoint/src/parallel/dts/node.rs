//! The node machine: [`Searcher`](super::Searcher) takes the recursive
//! search's steps (`Worker::pvs`, `search_moves`) one at a time over its
//! explicit stack, calling the same node rules (`search::rules`), so that a
//! node's state is data any thread can take over.

use std::cell::RefCell;
use std::sync::atomic::Ordering::*;

use super::*;
use crate::search::hook::{Interrupt, OnInterrupt};

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
            // orders moves only) it was all searched again: Othello's
            // midgame suite took 2% more nodes, chess 3% fewer.
            if !ctx.exact && self.stack.base_sp != NO_SPLIT_POINT {
                let sp = &dts.split_points[self.stack.base_sp];
                let f = &self.stack.frames[self.stack.base];
                let alpha = sp.alpha.load(Relaxed);
                // Alpha as the move sees it (see `SharedResult::alpha_for`),
                // the index read only when the plain alpha says overtaken.
                if f.search.overtaken(alpha)
                    && f.search
                        .overtaken(alpha - Score::from(sp.alpha_index.load(Relaxed) > f.index))
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
        let probe = match self
            .worker
            .visit(ctx, &f.pos, f.alpha, f.beta, f.depth, ply)
        {
            Ok(probe) => probe,
            Err(score) => return Flow::Return(score),
        };
        let tt_move = probe.tt_move;
        f.key = probe.key;

        // Step 4. Null move: when passing still holds beta, so does the node.
        if f.beta - f.alpha <= 1
            && let Some(null) = null_move_position(ctx, &f.pos, f.beta, f.depth, in_check)
        {
            // No move in flight, none left: not splittable meanwhile.
            f.moves.clear();
            f.next = 0;
            f.index = 0;
            f.tt_move = tt_move;
            f.stage = Stage::AwaitNull;
            let w = ChildWindow {
                alpha: -f.beta,
                beta: -f.beta + 1,
                depth: null_move_depth(f.depth),
                node_type: f.node_type.child(0),
            };
            return self.descend(null, w);
        }
        self.begin_moves(ply, tt_move)
    }

    /// `Worker::pvs` from move generation to its move loop.
    pub(super) fn begin_moves(&mut self, ply: usize, tt_move: u16) -> Flow {
        let ctx = self.ctx;
        let worker = &mut *self.worker;
        let f = &mut self.stack.frames[ply];

        // Step 5. Generate and order the moves.
        f.moves.clear();
        f.pos.generate_moves(&mut f.moves);
        if f.moves.is_empty() {
            debug_assert!(false, "position with no outcome and no moves");
            return Flow::Return(ctx.eval.evaluate(&f.pos));
        }
        worker.order_keys(ctx, &f.pos, &f.moves, tt_move, ply, &mut f.keys);

        // Step 6. The move loop starts.
        f.orig_alpha = f.alpha;
        f.entry_type = f.node_type;
        f.next = 0;
        f.best = -INFINITY;
        f.best_move = None;
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
        let r = self
            .worker
            .reduction(self.ctx, &f.pos, &child, mv, i, f.depth, f.node_type);
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
        // offered.
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

    /// Where `child`, `depth` plies from the horizon, is searched. Only a
    /// node that may be split gets a frame, and, outside exact mode, one
    /// below [`DTS_EAGER_FRAME_DEPTH`] only while an idle thread is asking
    /// this one for work (`asked`); otherwise it is searched recursively,
    /// serving requests from inside. Near the horizon frames are the most
    /// numerous and take the most moves through the machine, and the frames
    /// above them are candidates enough until someone asks; but a node a
    /// ply from the horizon may still hold a long quiescence search, so
    /// one that is asked gets a frame down to depth 1. Chess at one thread,
    /// under cachegrind: 1.8% more estimated cycles than serial's with
    /// those frames, 0.3% without; at two threads the idle share rose from
    /// 1.9% to 2.9% of thread time while an answer waited for the whole
    /// child, and is 2.4% since it comes from inside ([`ServeFromBelow`]).
    /// In exact mode frames start a ply higher, where they already cost
    /// single-threaded DTS nothing measurable: there the rule only added
    /// idle time. The plain iterative search (no DTS) keeps every
    /// splittable frame, so the machine is tested at every depth.
    #[inline]
    fn place(&self, child: &G, depth: i32, asked: bool) -> Place {
        let exact = self.ctx.exact;
        let least = dts_min_split_depth(exact);
        if depth < least || !self.ctx.eval.splits_pay(child, depth) {
            Place::Recursive
        } else if depth >= DTS_EAGER_FRAME_DEPTH || exact || asked || self.dts.is_none() {
            Place::Frame
        } else if depth > 1 {
            Place::Serving
        } else {
            // Its children are quiescence searches (but for a check
            // extension), which serve nobody.
            Place::Recursive
        }
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
            let tt_move = f.tt_move;
            return match self.worker.null_move_result(score, f.beta) {
                Some(score) => Flow::Return(score),
                None => self.begin_moves(ply, tt_move),
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
        let mut node = MoveLoop {
            alpha: f.alpha,
            beta: f.beta,
            best: f.best,
            best_move: f.best_move,
        };
        let cut = self.worker.fold(&mut node, mv, i, score, f.depth, ply);
        (f.alpha, f.best, f.best_move) = (node.alpha, node.best, node.best_move);
        if cut {
            f.stage = Stage::Complete;
            return Flow::Continue;
        }
        if i == 0 {
            f.node_type = f.node_type.after_first_move();
        }
        f.stage = Stage::NextMove;
        Flow::Continue
    }

    /// `Worker::pvs` after its move loop: the table store and the return.
    pub(super) fn complete(&mut self) -> Flow {
        let f = &self.stack.frames[self.stack.top];
        if f.root {
            return Flow::Exit(Exit::RootDone);
        }
        self.worker.store(
            self.ctx,
            f.key,
            f.best,
            f.best_move,
            f.orig_alpha,
            f.beta,
            f.depth,
            f.ply,
        );
        Flow::Return(f.best)
    }

    /// Sets up the root frame as `Worker::search_root` does.
    pub(super) fn start_root(
        &mut self,
        root: &G,
        root_moves: &[RootMove<G::Move>],
        alpha: Score,
        beta: Score,
        depth: i32,
    ) {
        self.worker.set_pv_line(0, &[]);
        self.worker.stats.nodes += 1;
        let serial = self.stack.next_serial();
        self.stack.ensure(1, root);
        let f = &mut self.stack.frames[0];
        f.pos = root.clone();
        f.alpha = alpha;
        f.beta = beta;
        f.orig_alpha = alpha;
        f.depth = depth;
        f.ply = 0;
        f.node_type = NodeType::Pv;
        f.entry_type = NodeType::Pv;
        f.root = true;
        f.moves.clear();
        f.moves.extend(root_moves.iter().map(|r| r.mv));
        // Keys that keep the given order.
        f.keys.clear();
        f.keys.extend((0..root_moves.len()).map(|i| -(i as i64)));
        f.next = 0;
        f.best = -INFINITY;
        f.best_move = None;
        f.stage = Stage::NextMove;
        f.serial = serial;
        self.stack.base = 0;
        self.stack.base_sp = NO_SPLIT_POINT;
        self.stack.top = 0;
    }

    /// [`Self::run`], published as busy for the time.
    pub(super) fn run_busy(&mut self) -> Exit {
        let Some(dts) = self.dts else {
            return self.run();
        };
        dts.set_busy(self.ctx.thread, true);
        let exit = self.run();
        dts.set_busy(self.ctx.thread, false);
        exit
    }
}

impl<G: Game, E: Evaluator<G>> RootSearch<G> for Searcher<'_, '_, G, E> {
    /// `Worker::search_root` on the explicit stack (and, with DTS, on all
    /// threads).
    fn search_root(&mut self, root: &G, moves: &mut RootMoves<G>, w: RootWindow) -> Option<Score> {
        let root_moves = moves;
        let RootWindow { alpha, beta, depth } = w;
        if let Some(dts) = self.dts {
            *lock(&dts.root_result) = None;
            dts.root_done.store(false, Relaxed);
        }
        self.start_root(root, root_moves, alpha, beta, depth);
        let exit = self.run_busy();
        let (best, best_move, stopped) = match exit {
            Exit::RootDone => (
                self.stack.frames[0].best,
                self.stack.frames[0].best_move,
                false,
            ),
            Exit::Stopped if self.stack.base == 0 && self.stack.base_sp == NO_SPLIT_POINT => {
                // Still ours: keep what the recursive search would keep.
                (
                    self.stack.frames[0].best,
                    self.stack.frames[0].best_move,
                    true,
                )
            }
            Exit::Stopped => (-INFINITY, None, true),
            Exit::Idle => {
                let dts = self.dts.expect("only split points make a thread idle");
                self.idle(dts, true);
                let posted = lock(&dts.root_result).take();
                match posted {
                    Some(r) if dts.root_done.load(Acquire) => {
                        self.worker.set_pv_line(0, &r.pv);
                        (r.best, r.best_move, false)
                    }
                    _ => (-INFINITY, None, true),
                }
            }
        };
        let moved = best_move.is_some_and(|mv| move_to_front(root_moves, mv, best));
        if !moved && !stopped {
            root_moves[0].score = best;
        }
        (!stopped).then_some(best)
    }

    fn worker(&mut self) -> &mut Worker<G> {
        self.worker
    }
}

/// Where a child is searched (`Searcher::place`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// On the stack, in a frame of its own.
    Frame,
    /// By the recursive search, serving requests for work from inside: a
    /// child that may be split, given no frame as nobody was asking.
    Serving,
    /// By the recursive search alone: a child too shallow to split, or a
    /// splittable one nobody asked for whose children are quiescence
    /// searches.
    Recursive,
}

/// Serves requests for work from inside the recursive search of a child
/// that got no frame only because nobody was asking ([`Place::Serving`]),
/// as the machine does between moves. The frames with a move in flight
/// (`..in_flight`) lie above the child and do not change while it is
/// searched, so splitting one there is what splitting it just before the
/// child was: the split point counts the child's move as in flight, and
/// the child's score, once back, goes to it. Chess at two threads, 20
/// interleaved rounds of `bench --algos dts --threads 1,2 --runs 3` against
/// the build before: idle 3.0-3.2% -> 2.3-2.5% of thread time in each of
/// five batches, the speedup within the noise (batch medians -5% to +4%).
/// For the shallower children, and in exact mode (idle 0.4%), the calls
/// cost more than the waits: draughts and Othello lost 1-3% with them.
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
