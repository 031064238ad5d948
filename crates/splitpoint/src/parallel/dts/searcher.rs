//! The searcher: one thread running the iterative search over its explicit
//! stack, and the root search it offers the driver.

use std::sync::atomic::Ordering::*;

use crate::driver::{RootMoves, RootSearch, RootWindow, lock};
use crate::game::{Evaluator, Game, MoveBuffer};
use crate::node::NodeType;
use crate::parallel::shared_node::NO_SPLIT_POINT;
use crate::score::{INFINITY, Score};
use crate::search::{RootMove, SearchContext, Worker, move_to_front};

use super::frame::{Stack, Stage};
use super::pool::Dts;

/// Why [`Searcher::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exit {
    /// The root frame completed; its result is in `frames[0]` and `pv[0]`.
    RootDone,
    /// The stack is empty: this thread left a split point and was not last,
    /// or abandoned its work after a cutoff.
    Idle,
    /// The global stop: the stack is void.
    Stopped,
}

/// What a step of the machine asks of the main loop.
pub(super) enum Flow {
    Continue,
    /// The top frame's node is done with this score (its side's view).
    Return(Score),
    Exit(Exit),
}

/// One thread running the iterative search over its stack.
pub(super) struct Searcher<'s, 'c, G: Game, E: Evaluator<G>> {
    pub(super) worker: &'s mut Worker<G>,
    pub(super) ctx: &'s SearchContext<'c, G, E>,
    pub(super) stack: &'s mut Stack<G>,
    /// `None`: the plain single-threaded iterative search.
    pub(super) dts: Option<&'s Dts<G>>,
}

impl<'s, 'c, G: Game, E: Evaluator<G>> Searcher<'s, 's, G, E> {
    pub(super) fn new(
        worker: &'s mut Worker<G>,
        ctx: &'s SearchContext<'c, G, E>,
        stack: &'s mut Stack<G>,
        dts: Option<&'s Dts<G>>,
    ) -> Self {
        Searcher {
            worker,
            ctx,
            stack,
            dts,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
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
        f.leaf = None;
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
