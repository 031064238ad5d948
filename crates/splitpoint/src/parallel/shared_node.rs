//! A node whose young brothers several threads search, and what they merge
//! their results into.
//!
//! The split-point pool (YBW, root splitting, workloads) publishes a node as a [`SharedNode`]
//! (its position, depth, moves and keys, [`SharedNode::publish`]); any
//! thread takes the next move from it as a [`Task`] ([`SharedNode::take`])
//! and reports the score ([`SharedNode::report`]), all under the owner's
//! lock. Those and pv-split's shared PV nodes keep the same move-loop result
//! the serial search keeps in its locals (`search::rules::MoveLoop`): the
//! window with alpha raised by exact scores, the fail-soft best, the move
//! that raised alpha, and its line. [`SharedResult::merge`] is the serial
//! loop's rule for one finished move, written once for all of them.
//!
//! One rule has no serial counterpart: at a PV node two young brothers may
//! both fail high on the same alpha, the serial loop's second one against
//! the alpha the first has raised by then. While the first is re-searched
//! in the full window, the bound its null window proved stands in for alpha
//! for the others ([`SharedResult::prove`], [`SharedResult::alpha_for`]):
//! they are asked whether they beat it in a null window instead of being
//! searched as PV nodes too — in chess (BK.05) that full-window search of a
//! brother the first would beat anyway had cost a third more nodes. In
//! exact mode the bound is a true one, so the score is serial's.
//!
//! And one rule puts a serial one back: of two moves with the same score
//! the serial loop keeps the earlier, while threads keep the one that
//! finished first. With [`SharedResult::with_serial_ties`] (DTS, outside
//! exact mode), a bound a later move set is one lower for an earlier move,
//! so a tie makes the earlier move the best (see
//! [`SharedResult::alpha_for`]).
//!
//! DTS's split points also sit in a tree of split points (each knows the
//! one it lies below): [`cut_off_on_chain`] is the walk up that tree every
//! node of theirs makes to learn whether its work is still wanted. (The
//! split-point pool of YBW and workloads walks a chain of ids instead.)

use std::sync::atomic::Ordering::Relaxed;

use arrayvec::ArrayVec;

use crate::game::{Evaluator, Game, MAX_PLY, MoveBuffer, PerMove};
use crate::node::NodeType;
use crate::score::{INFINITY, Score};
use crate::search::hook::SplitNode;
use crate::search::{NodeAlpha, SearchContext, Worker, pick_best};
use crate::trace::EventKind;

/// "No split point": the parent of a split point below none, the split
/// point of a thread working at none.
pub(crate) const NO_SPLIT_POINT: usize = usize::MAX;

/// Whether split point `id` or any split point it lies below is cut off:
/// `link(id)` reads a split point's cut-off flag and parent (relaxed: a hint,
/// a missed fresh cutoff only costs some wasted nodes).
#[inline]
pub(crate) fn cut_off_on_chain(mut id: usize, link: impl Fn(usize) -> (bool, usize)) -> bool {
    while id != NO_SPLIT_POINT {
        let (cut_off, parent) = link(id);
        if cut_off {
            return true;
        }
        id = parent;
    }
    false
}

/// A published node: fixed once published but for its moves' order and its
/// result, which change under the owner's lock as threads take and report.
pub(crate) struct SharedNode<G: Game> {
    pos: Option<G>,
    depth: i32,
    pub ply: usize,
    node_type: NodeType,
    /// The young brothers; from the next one to take on, in no order (the
    /// next is picked best key first, like the serial loop).
    pub moves: G::Moves,
    keys: PerMove<G, i64>,
    pub result: SharedResult<G::Move>,
}

/// One young brother of a shared node, taken by a thread to search.
pub(crate) struct Task<G: Game> {
    /// The move's index at the node (≥ 1: young brothers get null windows,
    /// like the serial loop).
    pub index: usize,
    /// Late-move reduction of the first, null-window search.
    pub reduction: i32,
    pub mv: G::Move,
    pub child: G,
    /// The move's text, for the timeline (empty when not tracing).
    label: String,
    alpha: Score,
    beta: Score,
    depth: i32,
    /// The node's ply.
    pub ply: usize,
    node_type: NodeType,
}

impl<G: Game> SharedNode<G> {
    /// A slot not in use.
    pub(crate) fn unused() -> Self {
        SharedNode {
            pos: None,
            depth: 0,
            ply: 0,
            node_type: NodeType::Pv,
            moves: G::Moves::default(),
            keys: Default::default(),
            result: SharedResult::unused(),
        }
    }

    /// Publishes `node`'s young brothers, nothing searched.
    pub(crate) fn publish<E: Evaluator<G>>(&mut self, node: &SplitNode<'_, G, E>) {
        match &mut self.pos {
            Some(p) => p.clone_from(node.pos),
            none => *none = Some(node.pos.clone()),
        }
        self.depth = node.depth;
        self.ply = node.ply;
        self.node_type = node.node_type;
        self.moves.clear();
        self.moves.extend(node.moves.iter().copied());
        self.keys.clear();
        self.keys.extend(node.keys.iter().copied());
        // Ties go to the first move to finish here (no
        // `SharedResult::with_serial_ties`, as a task reports without its
        // fail-low flag): on chess at two threads the rule cost YBW and
        // workloads-shared time, where it gained DTS time
        // (`docs/lab/2026-11-26-ties-to-earlier-move.md`).
        self.result = SharedResult::new(node.alpha, node.beta, node.best);
    }

    /// Takes the move with the best key from `i` on (brought to `i`), to be
    /// searched in the window the node has now.
    pub(crate) fn take<E: Evaluator<G>>(
        &mut self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        i: usize,
    ) -> Task<G> {
        pick_best(&mut self.moves, &mut self.keys, i);
        let mv = self.moves[i];
        let pos = self.pos.as_ref().expect("a published node has a position");
        let child = pos.play(mv);
        let index = i + 1;
        let reduction = worker.reduction(
            ctx,
            pos,
            &child,
            mv,
            index,
            self.depth,
            self.ply,
            self.node_type,
        );
        let label = match worker.trace {
            Some(_) => pos.move_text(mv),
            None => String::new(),
        };
        Task {
            index,
            reduction,
            mv,
            child,
            label,
            alpha: self.result.alpha,
            beta: self.result.beta,
            depth: self.depth,
            ply: self.ply,
            node_type: self.node_type,
        }
    }

    /// Merges the score `worker` found for `mv` (its line is the worker's).
    pub(crate) fn report(&mut self, mv: G::Move, score: Score, worker: &Worker<G>) -> Merged {
        self.result.merge(mv, score, worker.pv_line(self.ply + 1))
    }
}

impl<G: Game> Task<G> {
    /// Searches the move as the serial loop would (null window, reduction,
    /// re-searches), a span of the timeline: the score (the node's view) and
    /// the nodes it took, or `None` if the worker stopped meanwhile — the
    /// work is then thrown away, and counted as aborted unless the whole
    /// search stopped. `result` lends the node's result, under its lock, to
    /// what it is called with (or does not, if the node is gone): the move
    /// reads the alpha others may have raised (a re-search takes the risen
    /// one) and tells the bound it proves (see [`SharedResult::prove`]).
    pub(crate) fn run<E: Evaluator<G>>(
        &self,
        worker: &mut Worker<G>,
        ctx: &SearchContext<G, E>,
        result: impl Fn(&mut dyn FnMut(&mut SharedResult<G::Move>)),
    ) -> Option<(Score, u64)> {
        let since = worker.trace_clock();
        let nodes_before = worker.stats.nodes;
        let alpha = TaskAlpha {
            mv: self.mv,
            index: self.index,
            floor: self.alpha,
            result,
        };
        let score = worker.search_child(
            ctx,
            &self.child,
            self.index,
            self.reduction,
            alpha,
            self.beta,
            self.depth,
            self.ply,
            self.node_type,
        );
        let nodes = worker.stats.nodes - nodes_before;
        let stopped = worker.stopped();
        let label = || self.label.clone();
        worker.trace_span(since, EventKind::Search, self.ply, label, stopped);
        if stopped && !ctx.stop.load(Relaxed) {
            worker.stats.aborted_nodes += nodes;
        }
        (!stopped).then_some((score, nodes))
    }
}

/// A task's view of its node's alpha (see [`NodeAlpha`]), through the
/// node's result that `result` lends.
struct TaskAlpha<M, F> {
    mv: M,
    index: usize,
    /// The alpha the task was taken with.
    floor: Score,
    result: F,
}

impl<M: Copy + PartialEq, F: Fn(&mut dyn FnMut(&mut SharedResult<M>))> NodeAlpha
    for TaskAlpha<M, F>
{
    fn now(&self) -> Score {
        let mut alpha = self.floor;
        (self.result)(&mut |r| alpha = alpha.max(r.alpha_for(self.mv, self.index)));
        alpha
    }

    fn proved(&self, bound: Score) {
        (self.result)(&mut |r| r.prove(self.mv, self.index, bound));
    }

    fn failed_low(&self, score: Score) -> Score {
        let mut score = score;
        (self.result)(&mut |r| score = r.counted(score, true));
        score
    }
}

/// A shared node's result so far.
#[derive(Clone, Debug)]
pub(crate) struct SharedResult<M> {
    /// Raised by exact scores; what later moves are searched with.
    pub alpha: Score,
    pub beta: Score,
    /// The fail-soft best over the moves merged (and those before the split).
    pub best: Score,
    /// The move that raised alpha, if one did.
    pub best_move: Option<M>,
    /// Its line, the move first.
    pub pv: ArrayVec<M, MAX_PLY>,
    /// The index (in the node's move order) of the move whose exact score
    /// alpha is, or 0 for the alpha the node was shared with (which moves
    /// before every shared one set).
    alpha_index: usize,
    /// The highest score a move's null window has proved while the move is
    /// searched again in the full window (it will raise alpha at least
    /// this far), that move and its index.
    proven: Score,
    prover: Option<(M, usize)>,
    /// Ties go to the earlier move (see [`SharedResult::alpha_for`]).
    serial_ties: bool,
}

/// What a merged score did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Merged {
    /// At most alpha: only the fail-soft best may have moved.
    Nothing,
    /// Above alpha, below beta: alpha, best move and line are the move's.
    Raised,
    /// At least beta: a cutoff (best move and line are the move's).
    Cut,
}

impl<M: Copy + PartialEq> SharedResult<M> {
    /// Nothing merged: the window `(alpha, beta)`, and `best` from the moves
    /// searched before the node was shared.
    pub(crate) fn new(alpha: Score, beta: Score, best: Score) -> Self {
        SharedResult {
            alpha,
            beta,
            best,
            best_move: None,
            pv: ArrayVec::new(),
            alpha_index: 0,
            proven: -INFINITY,
            prover: None,
            serial_ties: false,
        }
    }

    /// With ties going to the earlier move (see [`SharedResult::alpha_for`])
    /// if `on`.
    pub(crate) fn with_serial_ties(mut self, on: bool) -> Self {
        self.serial_ties = on;
        self
    }

    /// Where the `index`-th move stands among the moves for ties: its
    /// index, or, without the tie rule, after every move.
    #[inline]
    fn tie_order(&self, index: usize) -> usize {
        if self.serial_ties { index } else { usize::MAX }
    }

    /// An empty result, for a slot not in use.
    pub(crate) fn unused() -> Self {
        Self::new(-INFINITY, INFINITY, -INFINITY)
    }

    /// The alpha to search `mv`, the `index`-th move, at now: alpha, or the
    /// bound another move has proved above it (see [`SharedResult::prove`]).
    ///
    /// Ties go to the earlier move, as in the serial loop, where a later
    /// move must beat the earlier one's score to replace it: a bound set by
    /// a later move is lowered by one for an earlier move, which then
    /// fails high on an equal score and is searched to its exact value.
    /// Which of two equal root moves wins orders the next iteration: in
    /// Bratko-Kopec 20 at depth 7 a dozen moves score -37, and the one
    /// that finished first, not the first in order, cost the two-thread
    /// search at depth 8 twice serial's nodes.
    ///
    /// Only where [`SharedResult::with_serial_ties`] asks for it: DTS outside
    /// exact mode. The earlier move's full-window search is a second one,
    /// which in exact mode the table gives little of back (draughts' exact
    /// suite took 5% more nodes at two threads; chess's nodes did not move,
    /// xiangqi's fell 2%).
    #[inline]
    pub(crate) fn alpha_for(&self, mv: M, index: usize) -> Score {
        let index = self.tie_order(index);
        let alpha = self.alpha - Score::from(self.alpha_index > index);
        match self.prover {
            Some((prover, at)) if prover != mv => alpha.max(self.proven - Score::from(at > index)),
            _ => alpha,
        }
    }

    /// The move in its full-window search whose null window proved the
    /// highest bound, and its index.
    #[inline]
    pub(crate) fn prover(&self) -> Option<(M, usize)> {
        self.prover
    }

    /// `mv` (the `index`-th move)'s null window failed high with `score`,
    /// and the move is now searched again in the full window. Until that
    /// ends, other moves need only be asked whether they beat `score`: a
    /// young brother failing high on the same stale alpha is then not
    /// searched in the full window too (a PV subtree, without null moves,
    /// reductions or table cutoffs) to be beaten anyway, as the serial loop
    /// never does.
    #[inline]
    pub(crate) fn prove(&mut self, mv: M, index: usize, score: Score) {
        let index = self.tie_order(index);
        let earlier = self.prover.is_some_and(|(_, at)| index < at);
        if score > self.proven || (score == self.proven && earlier) {
            self.proven = score;
            self.prover = Some((mv, index));
        }
    }

    /// `mv`'s search is over: a bound its null window proved stands in for
    /// alpha no longer. Its full-window score has raised alpha that far,
    /// or, when the null window's bound was an artefact of the selective
    /// search (null moves, reductions and table cut-offs differ between the
    /// two windows), it has not, and the serial loop would go on from
    /// alpha: so do the other moves. Bratko-Kopec 5 at depth 8: a1d1's null
    /// window at 25 proved 26, its full window returned 25, and the rest of
    /// the root's moves were asked against 26 where serial asks them
    /// against 25 (a move scoring exactly 26 counted as at most alpha).
    #[inline]
    fn withdraw_proof(&mut self, mv: M) {
        if self.prover.is_some_and(|(prover, _)| prover == mv) {
            self.prover = None;
            self.proven = -INFINITY;
        }
    }

    /// What a move's final `score` counts for here. One that failed low
    /// (`failed_low`) against a null window that may have stood above this
    /// node's alpha (at a bound another move proved) says only that the
    /// move is no better than that bound: at most alpha.
    #[inline]
    pub(crate) fn counted(&self, score: Score, failed_low: bool) -> Score {
        if failed_low {
            score.min(self.alpha)
        } else {
            score
        }
    }

    /// [`SharedResult::merge`] of the `index`-th move's final score as it
    /// [counts](SharedResult::counted). An exact score equal to alpha that a
    /// later move set makes this move the best (see
    /// [`SharedResult::alpha_for`]).
    #[inline]
    pub(crate) fn merge_searched(
        &mut self,
        mv: M,
        index: usize,
        score: Score,
        failed_low: bool,
        line: &[M],
    ) -> Merged {
        let index = self.tie_order(index);
        if !failed_low && score == self.alpha && index < self.alpha_index {
            self.withdraw_proof(mv);
            self.set_best(mv, line);
            self.alpha_index = index;
            return Merged::Raised;
        }
        let score = self.counted(score, failed_low);
        let merged = self.merge(mv, score, line);
        if merged != Merged::Nothing {
            self.alpha_index = index;
        }
        merged
    }

    /// Merges `mv`'s completed fail-soft `score`, searched with this node's
    /// beta and an alpha no higher than its alpha now; `line` is the best
    /// line below the move.
    pub(crate) fn merge(&mut self, mv: M, score: Score, line: &[M]) -> Merged {
        self.withdraw_proof(mv);
        if score <= self.best {
            return Merged::Nothing;
        }
        self.best = score;
        if score <= self.alpha {
            return Merged::Nothing;
        }
        self.alpha = score;
        self.set_best(mv, line);
        // No index: no tie rule (see `merge_searched`).
        self.alpha_index = 0;
        if score >= self.beta {
            Merged::Cut
        } else {
            Merged::Raised
        }
    }

    /// The index of the move whose exact score alpha is (0: none shared;
    /// `usize::MAX` without the tie rule).
    #[inline]
    pub(crate) fn alpha_index(&self) -> usize {
        self.alpha_index
    }

    /// `mv` is the best move, its line `line`.
    fn set_best(&mut self, mv: M, line: &[M]) {
        self.best_move = Some(mv);
        self.pv.clear();
        self.pv.push(mv);
        self.pv.extend(line.iter().take(MAX_PLY - 1).copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_proved_by_one_move_raises_the_window_of_the_others_only() {
        // Moves 1 and 2 (here each move is its own index) both failed high
        // on a null window at alpha 22; move 1 proved 23 and is now searched
        // in the full window.
        let mut r = SharedResult::new(22, 84, 22);
        r.prove(1, 1, 23);
        assert_eq!(
            r.alpha_for(1, 1),
            22,
            "the prover's own re-search keeps alpha"
        );
        assert_eq!(
            r.alpha_for(2, 2),
            23,
            "the others are asked whether they beat 23"
        );
        r.prove(2, 2, 21);
        assert_eq!(r.alpha_for(3, 3), 23, "a lower bound proves nothing more");

        // Move 2 failed low at 23: at most 23, not an exact 23 above alpha.
        assert_eq!(r.merge_searched(2, 2, 23, true, &[]), Merged::Nothing);
        assert_eq!((r.alpha, r.best, r.best_move), (22, 22, None));

        // Move 1's full-window score is exact.
        assert_eq!(r.merge_searched(1, 1, 27, false, &[5]), Merged::Raised);
        assert_eq!((r.alpha, r.best, r.best_move), (27, 27, Some(1)));
        assert_eq!(r.pv.as_slice(), &[1, 5]);
        // A fail-low below alpha keeps its fail-soft value.
        assert_eq!(r.merge_searched(3, 3, 20, true, &[]), Merged::Nothing);
        assert_eq!(r.best, 27);
    }

    #[test]
    fn a_proof_its_full_window_does_not_confirm_is_withdrawn() {
        // Move 2's null window at alpha 25 proved 26; its full window finds
        // only 25 (a selective search's two windows may disagree).
        let mut r = SharedResult::new(25, 84, 25).with_serial_ties(true);
        r.prove(2, 2, 26);
        assert_eq!(r.alpha_for(3, 3), 26, "while it runs, others must beat 26");
        assert_eq!(r.merge_searched(2, 2, 25, true, &[]), Merged::Nothing);
        assert_eq!(r.prover(), None);
        assert_eq!(r.alpha_for(3, 3), 25, "then, as serially, beat alpha");
        // A confirmed proof is withdrawn too: alpha stands for it.
        r.prove(3, 3, 26);
        assert_eq!(r.merge_searched(3, 3, 27, false, &[]), Merged::Raised);
        assert_eq!((r.prover(), r.alpha_for(4, 4)), (None, 27));
        // Another move's report leaves a proof in place.
        r.prove(4, 4, 28);
        assert_eq!(r.merge_searched(5, 5, 20, true, &[]), Merged::Nothing);
        assert_eq!(r.alpha_for(6, 6), 28);
    }

    #[test]
    fn ties_go_to_the_earlier_move_as_in_the_serial_loop() {
        // Move 5 proved 30 and is in its full window.
        let mut r = SharedResult::new(22, 84, 22).with_serial_ties(true);
        r.prove(5, 5, 30);
        assert_eq!(r.alpha_for(2, 2), 29, "an earlier move: does it tie?");
        assert_eq!(r.alpha_for(7, 7), 30, "a later move: does it beat 30?");
        // Move 2 fails high at 29 with 30: it is the prover now.
        r.prove(2, 2, 30);
        assert_eq!(r.alpha_for(5, 5), 30, "move 5 has to beat move 2");

        // Move 5 finishes first with an exact 30.
        assert_eq!(r.merge_searched(5, 5, 30, false, &[9]), Merged::Raised);
        assert_eq!(r.alpha_for(2, 2), 29, "move 2 still only has to tie");
        assert_eq!(r.alpha_for(7, 7), 30);
        // Move 2's exact 30 ties: the best move is the earlier one, as
        // serially.
        assert_eq!(r.merge_searched(2, 2, 30, false, &[8]), Merged::Raised);
        assert_eq!((r.alpha, r.best, r.best_move), (30, 30, Some(2)));
        assert_eq!(r.pv.as_slice(), &[2, 8]);
        // A 30 that failed low is at most 30: no tie.
        assert_eq!(r.merge_searched(1, 1, 30, true, &[]), Merged::Nothing);
        assert_eq!(r.best_move, Some(2));
        // A later move's exact 30 does not beat it either.
        assert_eq!(r.merge_searched(7, 7, 30, false, &[]), Merged::Nothing);
        assert_eq!(r.best_move, Some(2));

        // Without the rule (exact mode) the first to finish keeps a tie.
        let mut r = SharedResult::new(22, 84, 22);
        r.prove(5, 5, 30);
        assert_eq!(r.alpha_for(2, 2), 30);
        assert_eq!(r.merge_searched(5, 5, 30, false, &[]), Merged::Raised);
        assert_eq!(r.merge_searched(2, 2, 30, false, &[]), Merged::Nothing);
        assert_eq!(r.best_move, Some(5));
    }
}
