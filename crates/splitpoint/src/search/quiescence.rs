//! Quiescence search: past the horizon, only noisy moves, until the
//! position is quiet.

use crate::game::{Evaluator, Game, MAX_PLY, MoveBuffer, OrderNode, PerMove};
use crate::score::{INFINITY, Score, from_table};

use super::rules::{pick_best, settles};
use super::{SearchContext, Worker};

impl<G: Game> Worker<G> {
    /// Quiescence: the static score, or better if a noisy move improves on it.
    /// Exactly `max(evaluate, max over noisy moves of -quiescence(child))`,
    /// searched with alpha-beta (stand-pat cutoffs are ordinary beta cutoffs);
    /// in check, the best noisy move alone (the static score only if there
    /// is none). A selective search's null-window node may end at the
    /// table ([`Self::table_cutoff`]). Outside exact mode and out of check, the moves the
    /// evaluator's [`Evaluator::skip_in_quiescence`] names are not searched.
    pub fn quiescence<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.pv[ply].clear();
        if self.poll_stop(ctx) {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u64);
        if let Some(outcome) = pos.outcome() {
            return ctx.eval.terminal_score(pos, outcome, ply);
        }
        if ctx.selective()
            && beta - alpha == 1
            && let Some(score) = self.table_cutoff(ctx, pos, alpha, beta, ply)
        {
            return score;
        }
        let in_check = ctx.eval.in_check(pos);
        if in_check && ply < MAX_PLY - 1 {
            let mut moves = G::Moves::default();
            ctx.eval.noisy_moves(pos, &mut moves);
            if !moves.is_empty() {
                return self.quiescence_moves(ctx, pos, moves, -INFINITY, alpha, beta, ply);
            }
        }
        let best = ctx.eval.evaluate(pos);
        if best >= beta || ply >= MAX_PLY - 1 || in_check {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = G::Moves::default();
        ctx.eval.noisy_moves(pos, &mut moves);
        if !ctx.exact {
            moves.retain(|mv| !ctx.eval.skip_in_quiescence(pos, *mv, best, alpha));
        }
        if moves.is_empty() {
            return best;
        }
        self.quiescence_moves(ctx, pos, moves, best, alpha, beta, ply)
    }

    /// A selective search's null-window quiescence node ends at a table
    /// entry whose bound settles it: any entry was searched at least as
    /// deep as quiescence does.
    #[inline]
    fn table_cutoff<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        self.stats.tt_probes += 1;
        let entry = ctx.tt.probe(pos.hash())?;
        self.stats.tt_hits += 1;
        let score = from_table(entry.score, ply);
        settles(entry.bound, score, alpha, beta).then(|| {
            self.stats.tt_cutoffs += 1;
            score
        })
    }

    /// Quiescence's move loop: the best of `best` and the noisy `moves`.
    #[allow(clippy::too_many_arguments)]
    fn quiescence_moves<E: Evaluator<G>>(
        &mut self,
        ctx: &SearchContext<G, E>,
        pos: &G,
        mut moves: G::Moves,
        mut best: Score,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        // The evaluator's hints alone: the history tables rank quiet moves
        // by the line above, and reading them here only costs time.
        let mut hints = PerMove::<G, i32>::default();
        hints.extend(std::iter::repeat_n(0, moves.len()));
        let order = OrderNode {
            alpha,
            beta,
            depth: 0,
            table_upper: None,
        };
        ctx.eval.order_moves_at(pos, &moves, &mut hints, order);
        let mut keys: PerMove<G, i64> = hints.iter().map(|&h| i64::from(h)).collect();
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut keys, i);
            let score = -self.quiescence(ctx, &pos.play(moves[i]), -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
