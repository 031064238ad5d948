//! The rules of a node, written once.
//!
//! The recursive search (`Worker::pvs` and its move loop) and DTS's
//! explicit-stack search take the same steps at every node; what a step
//! decides lives here, and both call it, so a change to a search rule is
//! made in one place: entering a node (the check extension, the horizon,
//! finished games, the leaf solver, the table probe), the null move, the
//! searches of one move (PVS null windows, reductions and their
//! re-searches), folding a move's score into the node's result, and storing
//! that result.

use crate::game::{Evaluator, Game, MAX_PLY, PerMove};
use crate::node::NodeType;
use crate::score::{Score, WIN_BOUND, from_table, to_table};
use crate::tt::{Bound, NO_MOVE, TtEntry};

use super::{SearchContext, Worker};

/// Null-move pruning needs this many plies left.
const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// The check extension: a ply more for a node in check, outside exact mode.
#[inline]
pub(crate) fn extension<G: Game, E: Evaluator<G>>(
    ctx: &SearchContext<G, E>,
    in_check: bool,
) -> i32 {
    i32::from(in_check && !ctx.exact)
}

/// Whether a node `depth` plies from the horizon at `ply` is left to
/// quiescence.
#[inline]
pub(crate) fn at_horizon(depth: i32, ply: usize) -> bool {
    depth <= 0 || ply >= MAX_PLY - 1
}

/// What the table said of a node that it did not settle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// The position's key (for the store at the end).
    pub key: u64,
    /// The stored move to try first, or [`NO_MOVE`].
    pub tt_move: u16,
    /// The stored upper bound (of any depth), if any.
    pub upper: Option<Score>,
    /// The stored lower bound and its depth, if any.
    pub lower: Option<(Score, i32)>,
}

impl Probe {
    /// Nothing stored.
    pub const EMPTY: Probe = Probe {
        key: 0,
        tt_move: NO_MOVE,
        upper: None,
        lower: None,
    };
}

/// Whether a stored `bound` of `score` decides a node searched with the
/// window `(alpha, beta)`.
#[inline]
pub(crate) fn settles(bound: Bound, score: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Singular extensions look at nodes this many plies from the horizon or more.
const SINGULAR_DEPTH: i32 = 8;
/// ProbCut looks at nodes this many plies from the horizon or more, and
/// searches its captures this many plies shallower (less one).
const PROBCUT_DEPTH: i32 = 5;
/// How far above beta ProbCut's captures must hold.
const PROBCUT_MARGIN: Score = 200;

impl<G: Game> Worker<G> {
    /// Steps 2 and 3 of a node: counts it, then `Err(score)` if the node is
    /// settled at once — a finished game, the evaluator's exact leaf solver,
    /// or (outside exact mode, at non-PV nodes) a table entry whose bound
    /// decides it, or a child's entry where the evaluator says such probes
    /// pay — else `Ok` with the table's move to try first. `moves` (empty
    /// on entry) gets the node's moves where the child probes generated
    /// them, so that the node need not generate them again.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn visit<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        moves: &mut G::Moves,
    ) -> Result<Probe, Score> {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u64);
        if let Some(outcome) = pos.outcome() {
            return Err(ctx.eval.terminal_score(pos, outcome, ply));
        }
        if let Some(score) =
            ctx.eval
                .solve_leaf(pos, alpha, beta, depth, ply, &mut self.stats.nodes)
        {
            return Err(score);
        }
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        self.stats.tt_probes += 1;
        let mut tt_move = NO_MOVE;
        let mut upper = None;
        let mut lower = None;
        if let Some(entry) = ctx.tt.probe(key) {
            self.stats.tt_hits += 1;
            tt_move = entry.move_key;
            if entry.bound != Bound::Lower {
                upper = Some(from_table(entry.score, ply));
            }
            if entry.bound != Bound::Upper {
                lower = Some((from_table(entry.score, ply), entry.depth));
            }
            if !ctx.exact && !pv_node && entry.depth >= depth {
                let score = from_table(entry.score, ply);
                if settles(entry.bound, score, alpha, beta) {
                    self.stats.tt_cutoffs += 1;
                    return Err(score);
                }
            }
        }
        if !ctx.exact
            && !pv_node
            && ctx.eval.transposition_cutoffs_pay(pos, depth)
            && let Some(score) = self.child_cutoff(ctx, pos, beta, depth, ply, moves)
        {
            self.stats.tt_cutoffs += 1;
            return Err(score);
        }
        Ok(Probe {
            key,
            tt_move,
            upper,
            lower,
        })
    }

    /// The singular extension: 1 when, in a selective search, the table's
    /// move (first in `moves`, ordered by `keys`) is the node's only good
    /// one, else 0. The table must hold a lower bound for the node searched
    /// nearly as deep; the other moves are then searched half as deep in a
    /// null window a margin below that bound, and none may reach it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn singular_extension<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        moves: &G::Moves,
        keys: &PerMove<G, i64>,
        probe: &Probe,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let Some((bound, stored_depth)) = probe.lower else {
            return 0;
        };
        if !ctx.selective()
            || ply == 0
            || depth < SINGULAR_DEPTH
            || stored_depth < depth - 3
            || bound.abs() >= WIN_BOUND
            || !moves.iter().any(|&mv| G::move_key(mv) == probe.tt_move)
        {
            return 0;
        }
        let singular_beta = bound - 2 * depth;
        let mut others = moves.clone();
        let mut others_keys = keys.clone();
        for i in 0..others.len() {
            pick_best(&mut others, &mut others_keys, i);
            let mv = others[i];
            let key = G::move_key(mv);
            if key == probe.tt_move {
                continue;
            }
            self.set_played(ply, pos, mv);
            let score = -self.pvs(
                ctx,
                &pos.play(mv),
                -singular_beta,
                -singular_beta + 1,
                (depth - 1) / 2 - 1,
                ply + 1,
                NodeType::Cut,
            );
            if self.stopped || score >= singular_beta {
                return 0;
            }
        }
        1
    }

    /// ProbCut: at a selective search's null-window node (`alpha`, `beta`)
    /// with `depth` plies left, out of check (a static score `eval`), a
    /// noisy move whose static exchange alone lifts the static score to a
    /// margin above beta, and whose quiescence and then a search four plies
    /// shallower both hold that raised bound, ends the node: a full search
    /// would almost surely fail high too. `Some(score)` (stored as a lower
    /// bound) ends it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn probcut<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        probe: &Probe,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        eval: Option<Score>,
    ) -> Option<Score> {
        let eval = eval?;
        let raised = beta + PROBCUT_MARGIN;
        if !ctx.selective()
            || beta - alpha > 1
            || ply == 0
            || depth < PROBCUT_DEPTH
            || beta.abs() >= WIN_BOUND - PROBCUT_MARGIN
            || probe.upper.is_some_and(|upper| upper < raised)
        {
            return None;
        }
        let mut moves = G::Moves::default();
        ctx.eval.noisy_moves(pos, &mut moves);
        let mut hints = PerMove::<G, i32>::default();
        hints.extend(std::iter::repeat_n(0, moves.len()));
        ctx.eval.order_moves(pos, &moves, &mut hints);
        let mut keys: PerMove<G, i64> = hints.iter().map(|&h| i64::from(h)).collect();
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut keys, i);
            let mv = moves[i];
            if ctx.eval.exchange(pos, mv) < raised - eval {
                continue;
            }
            let child = pos.play(mv);
            self.set_played(ply, pos, mv);
            let mut score = -self.quiescence(ctx, &child, -raised, -raised + 1, ply + 1);
            if score >= raised {
                score = -self.pvs(
                    ctx,
                    &child,
                    -raised,
                    -raised + 1,
                    depth - PROBCUT_DEPTH + 1,
                    ply + 1,
                    NodeType::Cut,
                );
            }
            if self.stopped {
                return None;
            }
            if score >= raised {
                self.store(
                    ctx,
                    probe.key,
                    score,
                    Some(mv),
                    beta - 1,
                    beta,
                    depth - 3,
                    ply,
                );
                return Some(score);
            }
        }
        None
    }

    /// The enhanced transposition cut-off: a score of at least `beta` when
    /// the table holds, for some child, an upper bound searched deep enough
    /// that refutes the child (the node is then worth at least its negation).
    /// The node's moves are left in `moves` (empty on entry).
    #[inline(never)]
    fn child_cutoff<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        beta: Score,
        depth: i32,
        ply: usize,
        moves: &mut G::Moves,
    ) -> Option<Score> {
        pos.generate_moves(moves);
        // Every bucket is fetched before the first is read: the misses overlap.
        let keys: PerMove<G, u64> = moves.iter().map(|&mv| pos.play(mv).hash()).collect();
        for &key in keys.iter() {
            ctx.tt.prefetch(key);
        }
        keys.iter().find_map(|&key| {
            self.stats.tt_probes += 1;
            let entry = ctx.tt.probe(key)?;
            if entry.depth < depth - 1 || entry.bound == Bound::Lower {
                return None;
            }
            let score = -from_table(entry.score, ply + 1);
            (score >= beta).then_some(score)
        })
    }

    /// Step 7 of a node: stores its result — `best` (fail-soft) against the
    /// window `(original_alpha, beta)` it was searched with — as the bound
    /// it is.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store<E: Evaluator<G>>(
        &self,
        ctx: &SearchContext<G, E>,
        key: u64,
        best: Score,
        best_move: Option<G::Move>,
        original_alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        ctx.tt.store(
            key,
            TtEntry {
                move_key: best_move.map_or(NO_MOVE, G::move_key),
                score: to_table(best, ply),
                depth,
                bound,
            },
        );
    }

    /// Folds move `mv`'s completed `score` into the move loop's result: a
    /// better score raises the fail-soft best, one above alpha raises alpha,
    /// the best move and the PV. Returns whether it reached beta: a cutoff,
    /// which the caller teaches ([`Worker::learn_cutoff`]).
    #[inline(always)]
    pub(crate) fn fold(
        &mut self,
        node: &mut MoveLoop<G::Move>,
        mv: G::Move,
        score: Score,
        ply: usize,
    ) -> bool {
        if score <= node.best {
            return false;
        }
        node.best = score;
        if score <= node.alpha {
            return false;
        }
        node.alpha = score;
        node.best_move = Some(mv);
        self.update_pv(ply, mv);
        score >= node.beta
    }
}

/// A node's move loop so far: the window (alpha raised by exact scores),
/// the fail-soft best and the move that raised alpha.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveLoop<M> {
    pub alpha: Score,
    pub beta: Score,
    pub best: Score,
    pub best_move: Option<M>,
}

/// One search of a child: its window (the child's view), depth and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChildWindow {
    pub alpha: Score,
    pub beta: Score,
    pub depth: i32,
    pub node_type: NodeType,
}

/// A move's view of its node's alpha, for [`Worker::search_child`]: a
/// plain value or closure at a node one thread searches; at a node several
/// threads search (see `parallel::shared_node`), also the bounds its young
/// brothers prove.
pub(crate) trait NodeAlpha {
    /// The alpha to search the move at now.
    fn now(&self) -> Score;
    /// The move's null window failed high with `bound`, and its
    /// full-window search starts.
    #[inline]
    fn proved(&self, _bound: Score) {}
    /// The final `score` of a move that failed low against its last null
    /// window: where that window stood above the node's alpha (at a bound
    /// another move proved), it says only "at most alpha".
    #[inline]
    fn failed_low(&self, score: Score) -> Score {
        score
    }
}

impl<F: Fn() -> Score> NodeAlpha for F {
    #[inline]
    fn now(&self) -> Score {
        self()
    }
}

/// The searches of one move, PVS with late-move reductions: the first move
/// in the full window; a younger one in a null window at alpha, `reduction`
/// plies shallower, then again at full depth if that beats alpha, then in
/// the full window (as a PV node) if that lands inside `(alpha, beta)`.
///
/// At a node several threads search, alpha may rise while a move is being
/// searched: the caller passes the node's alpha now. A null window that
/// failed high below that alpha proved nothing against it, so the move is
/// asked again in a null window at the new alpha rather than re-searched in
/// the full window from the old one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveSearch {
    index: usize,
    reduction: i32,
    /// The alpha the last null-window search was centred on.
    null_alpha: Score,
    /// The full-window search is done (or under way): nothing follows it.
    full_window: bool,
    /// What the null window that led to the full-window search proved:
    /// the move is worth at least this.
    proved: Option<Score>,
}

impl MoveSearch {
    /// The searches of the `index`-th move, reduced by `reduction` plies
    /// (the first move's only extended, by a negative `reduction`).
    #[inline]
    pub(crate) fn new(index: usize, reduction: i32) -> Self {
        MoveSearch {
            index,
            reduction,
            null_alpha: 0,
            full_window: index == 0,
            proved: None,
        }
    }

    /// The first search of the child, for a node searching `(alpha, beta)`
    /// to `depth` as `node_type`.
    #[inline]
    pub(crate) fn first(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        node_type: NodeType,
    ) -> ChildWindow {
        let node_type = node_type.child(self.index);
        if self.index == 0 {
            // The first move's `reduction` is minus its extension, if any.
            ChildWindow {
                alpha: -beta,
                beta: -alpha,
                depth: depth - 1 - self.reduction,
                node_type,
            }
        } else {
            self.null_window(alpha, depth - 1 - self.reduction, node_type)
        }
    }

    /// Whether `score`, the last search's, failed low against its null
    /// window: it bounds the move from above only.
    #[inline]
    pub(crate) fn failed_low(&self, score: Score) -> bool {
        !self.full_window && score <= self.null_alpha
    }

    /// The score a null window failed high with before the full-window
    /// search of a young brother: a lower bound on the move's (under way
    /// or done).
    #[inline]
    pub(crate) fn proved(&self) -> Option<Score> {
        self.proved
    }

    /// The move asked again in a null window at `alpha`, at full depth:
    /// what follows once alpha has risen to what the last null window
    /// proved, before the full-window search began ([`MoveSearch::next`])
    /// or while it is under way (at a shared node, where other moves raise
    /// alpha meanwhile); the full-window search, if any, is dropped.
    #[inline]
    pub(crate) fn ask_again(
        &mut self,
        alpha: Score,
        depth: i32,
        node_type: NodeType,
    ) -> ChildWindow {
        self.full_window = false;
        self.proved = None;
        self.null_window(alpha, depth - 1, node_type.child(self.index))
    }

    /// A null-window search at `alpha`, remembered.
    #[inline]
    fn null_window(&mut self, alpha: Score, depth: i32, node_type: NodeType) -> ChildWindow {
        self.null_alpha = alpha;
        ChildWindow {
            alpha: -alpha - 1,
            beta: -alpha,
            depth,
            node_type,
        }
    }

    /// After a completed search scored `score` (the parent's view), with
    /// the node's window now `(alpha, beta)`: the next search, or `None`
    /// when `score` is the move's.
    #[inline]
    pub(crate) fn next(
        &mut self,
        score: Score,
        alpha: Score,
        beta: Score,
        depth: i32,
        node_type: NodeType,
    ) -> Option<ChildWindow> {
        if self.full_window || score <= self.null_alpha {
            return None;
        }
        if self.reduction > 0 {
            // The reduced search beat alpha: again at full depth.
            self.reduction = 0;
            return Some(self.null_window(alpha, depth - 1, node_type.child(self.index)));
        }
        if score <= alpha {
            // Alpha rose past what the null window proved: ask again there.
            return Some(self.ask_again(alpha, depth, node_type));
        }
        if score < beta {
            // The null window failed high inside the window: the full one.
            self.full_window = true;
            self.proved = Some(score);
            return Some(ChildWindow {
                alpha: -beta,
                beta: -alpha,
                depth: depth - 1,
                node_type: NodeType::Pv,
            });
        }
        None
    }
}

/// The depth a null-move search runs at, `margin` the static score's lead
/// over beta. A selective search reduces by `3 + depth/3` plies and up to
/// three more as the lead grows (200 a ply); the others by 2 plies (3 from
/// depth 7), below the ply the pass itself takes.
#[inline]
pub(crate) fn null_move_depth(depth: i32, margin: Score, selective: bool) -> i32 {
    if selective {
        depth - 3 - depth / 3 - (margin / 200).min(3)
    } else {
        depth - 1 - if depth >= 7 { 3 } else { 2 }
    }
}

/// The position after a pass and the depth to search it at, when a non-PV
/// node may try a null move: outside exact mode, not in check, deep
/// enough, beta no mate score, the static score (`eval`, if known) at
/// least beta and the evaluator allowing a pass.
#[inline]
pub(crate) fn null_move<G: Game, E: Evaluator<G>>(
    ctx: &SearchContext<G, E>,
    pos: &G,
    beta: Score,
    depth: i32,
    in_check: bool,
    eval: Option<Score>,
) -> Option<(G, i32)> {
    if ctx.exact || in_check || depth < NULL_MOVE_MIN_DEPTH || beta.abs() >= WIN_BOUND {
        return None;
    }
    let margin = eval.unwrap_or_else(|| ctx.eval.evaluate(pos)) - beta;
    if margin < 0 {
        return None;
    }
    let null = ctx.eval.null_move(pos)?;
    Some((null, null_move_depth(depth, margin, ctx.selective())))
}

/// Internal iterative reduction: a selective search takes a ply off a node
/// four or more plies from the horizon that the table has no move for, as
/// its ordering is a guess (the table's move will be there next time).
#[inline]
pub(crate) fn internal_reduction<G: Game, E: Evaluator<G>>(
    ctx: &SearchContext<G, E>,
    tt_move: u16,
    depth: i32,
) -> i32 {
    i32::from(tt_move == NO_MOVE && depth >= 4 && ctx.selective())
}

/// Selection step: brings the largest remaining key (and its move) to `i`.
#[inline]
pub(crate) fn pick_best<M: Copy>(moves: &mut [M], keys: &mut [i64], i: usize) {
    let mut best = i;
    for j in i + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(alpha: Score, beta: Score, depth: i32, node_type: NodeType) -> ChildWindow {
        ChildWindow {
            alpha,
            beta,
            depth,
            node_type,
        }
    }

    #[test]
    fn the_selective_null_move_reduces_more_with_depth_and_lead() {
        // The classic search: 2 plies, 3 from depth 7, whatever the lead.
        assert_eq!(null_move_depth(6, 0, false), 3);
        assert_eq!(null_move_depth(9, 900, false), 5);
        // The selective one: 3 + depth/3, plus a ply per 200 of lead, at most 3.
        assert_eq!(null_move_depth(6, 0, true), 1);
        assert_eq!(null_move_depth(9, 199, true), 3);
        assert_eq!(null_move_depth(9, 450, true), 1);
        assert_eq!(null_move_depth(12, 5000, true), 2);
    }

    #[test]
    fn an_extended_first_move_is_searched_a_ply_deeper_once() {
        let mut plan = MoveSearch::new(0, -1);
        assert_eq!(
            plan.first(0, 100, 8, NodeType::Pv),
            window(-100, 0, 8, NodeType::Pv)
        );
        assert_eq!(plan.next(50, 0, 100, 8, NodeType::Pv), None);
    }

    #[test]
    fn a_young_brother_failing_high_is_searched_again_in_the_full_window() {
        let mut plan = MoveSearch::new(1, 0);
        assert_eq!(
            plan.first(0, 100, 5, NodeType::Pv),
            window(-1, 0, 4, NodeType::Cut)
        );
        assert_eq!(
            plan.next(7, 0, 100, 5, NodeType::Pv),
            Some(window(-100, 0, 4, NodeType::Pv))
        );
        assert_eq!(plan.next(9, 0, 100, 5, NodeType::Pv), None);
    }

    #[test]
    fn a_null_window_failing_high_into_the_full_window_proves_its_score() {
        let mut plan = MoveSearch::new(2, 0);
        plan.first(0, 100, 5, NodeType::Pv);
        assert_eq!(plan.proved(), None);
        assert!(plan.failed_low(0) && !plan.failed_low(1));
        plan.next(7, 0, 100, 5, NodeType::Pv);
        assert_eq!(plan.proved(), Some(7), "worth at least 7");
        assert!(!plan.failed_low(-5), "a full-window score is the move's");
    }

    #[test]
    fn a_reduced_search_beating_alpha_is_repeated_at_full_depth_first() {
        let mut plan = MoveSearch::new(3, 2);
        assert_eq!(
            plan.first(0, 1, 8, NodeType::Cut),
            window(-1, 0, 5, NodeType::Cut)
        );
        assert_eq!(
            plan.next(4, 0, 1, 8, NodeType::Cut),
            Some(window(-1, 0, 7, NodeType::Cut))
        );
        assert_eq!(plan.next(4, 0, 1, 8, NodeType::Cut), None, "a cutoff");
        let mut plan = MoveSearch::new(3, 2);
        plan.first(0, 1, 8, NodeType::Cut);
        assert_eq!(plan.next(-3, 0, 1, 8, NodeType::Cut), None, "failed low");
    }

    #[test]
    fn alpha_risen_past_a_fail_high_asks_again_at_the_new_alpha() {
        // Searched at alpha 0; another thread has since raised alpha to 10.
        let mut plan = MoveSearch::new(2, 0);
        plan.first(0, 100, 5, NodeType::Pv);
        assert_eq!(
            plan.next(6, 10, 100, 5, NodeType::Pv),
            Some(window(-11, -10, 4, NodeType::Cut)),
            "a null window at the risen alpha, not the full window from 0"
        );
        // It beats the new alpha too: the full window from the new alpha.
        assert_eq!(
            plan.next(15, 10, 100, 5, NodeType::Pv),
            Some(window(-100, -10, 4, NodeType::Pv))
        );
        // Failing low at the new alpha ends the move.
        let mut plan = MoveSearch::new(2, 0);
        plan.first(0, 100, 5, NodeType::Pv);
        plan.next(6, 10, 100, 5, NodeType::Pv);
        assert_eq!(plan.next(8, 10, 100, 5, NodeType::Pv), None);
    }

    #[test]
    fn a_full_window_search_asked_again_becomes_a_null_window_search() {
        // Failed high at 0 with 7: the full window from 0 is under way.
        let mut plan = MoveSearch::new(2, 0);
        plan.first(0, 100, 5, NodeType::Pv);
        plan.next(7, 0, 100, 5, NodeType::Pv);
        assert_eq!(plan.proved(), Some(7));
        assert!(!plan.failed_low(0), "a full-window score");
        assert_eq!(
            plan.ask_again(12, 5, NodeType::Pv),
            window(-13, -12, 4, NodeType::Cut)
        );
        assert_eq!(plan.proved(), None);
        assert!(plan.failed_low(12), "a null-window score again");
        // Beating 12 too: the full window from there.
        assert_eq!(
            plan.next(20, 12, 100, 5, NodeType::Pv),
            Some(window(-100, -12, 4, NodeType::Pv))
        );
        // The first move's full window proves nothing.
        let mut first = MoveSearch::new(0, 0);
        first.first(0, 100, 5, NodeType::Pv);
        first.next(50, 0, 100, 5, NodeType::Pv);
        assert_eq!(first.proved(), None);
    }
}
