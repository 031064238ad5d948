//! Reference algorithms the search is tested against: plain negamax and perft.
//!
//! They share no code with the search, on purpose: the oracle must not inherit
//! the search's bugs. Both are slow; they are for tests and checks.

use crate::game::{Evaluator, Game, MAX_PLY};
use crate::score::Score;

/// The negamax value of `pos` searched `depth` plies, then quiescence: the
/// value exact-mode search must return. Mirrors the search's tree exactly:
/// finished games score by [`Evaluator::terminal_score`], the horizon (depth 0
/// or [`MAX_PLY`]` - 1`) continues into quiescence over the noisy moves, with
/// no standing pat in check ([`Evaluator::in_check`]).
/// The evaluator's `solve_leaf` is not used.
pub fn negamax<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: i32) -> Score {
    negamax_at(pos, eval, depth, 0)
}

fn negamax_at<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: i32, ply: usize) -> Score {
    if depth <= 0 || ply >= MAX_PLY - 1 {
        return quiescence(pos, eval, ply);
    }
    if let Some(outcome) = pos.outcome() {
        return eval.terminal_score(pos, outcome, ply);
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| -negamax_at(&pos.play(mv), eval, depth - 1, ply + 1))
        .max()
        .unwrap_or_else(|| eval.evaluate(pos))
}

fn quiescence<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, ply: usize) -> Score {
    if let Some(outcome) = pos.outcome() {
        return eval.terminal_score(pos, outcome, ply);
    }
    let stand_pat = eval.evaluate(pos);
    if ply >= MAX_PLY - 1 {
        return stand_pat;
    }
    let mut moves = G::Moves::default();
    eval.noisy_moves(pos, &mut moves);
    let best = moves
        .iter()
        .map(|&mv| -quiescence(&pos.play(mv), eval, ply + 1))
        .max();
    // In check there is no standing pat, unless nothing can be played.
    match best {
        Some(best) if eval.in_check(pos) => best,
        best => best.map_or(stand_pat, |b| b.max(stand_pat)),
    }
}

/// The number of leaf positions `depth` plies below `pos`. A pass is a ply;
/// a game that ends sooner counts as one leaf.
///
/// ```
/// # use splitpoint::{Game, MoveList, Outcome, perft};
/// # #[derive(Clone)] struct Nim(u8);
/// # impl Game for Nim {
/// #     type Move = u8;
/// #     type Moves = MoveList<u8>;
/// #     fn generate_moves(&self, m: &mut MoveList<u8>) { for t in 1..=self.0.min(2) { m.push(t) } }
/// #     fn play(&self, t: u8) -> Self { Nim(self.0 - t) }
/// #     fn hash(&self) -> u64 { self.0 as u64 }
/// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
/// #     fn move_key(t: u8) -> u16 { t as u16 }
/// # }
/// // Nim with 3 stones, take 1 or 2: lines 1-1-1, 1-2, 2-1.
/// assert_eq!(perft(&Nim(3), 3), 3);
/// ```
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    count_leaves(pos, depth, 1)
}

/// The number of positions exactly `depth` plies below `pos`, as the
/// published perft tables of chess, draughts and xiangqi count them: a game
/// with no move before the last ply adds nothing (where [`perft`] counts it
/// as one leaf).
///
/// ```
/// # use splitpoint::{Game, MoveList, Outcome, perft_exact_depth};
/// # #[derive(Clone)] struct Nim(u8);
/// # impl Game for Nim {
/// #     type Move = u8;
/// #     type Moves = MoveList<u8>;
/// #     fn generate_moves(&self, m: &mut MoveList<u8>) { for t in 1..=self.0.min(2) { m.push(t) } }
/// #     fn play(&self, t: u8) -> Self { Nim(self.0 - t) }
/// #     fn hash(&self) -> u64 { self.0 as u64 }
/// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
/// #     fn move_key(t: u8) -> u16 { t as u16 }
/// # }
/// // Nim with 3 stones, take 1 or 2: only 1-1-1 lasts three plies.
/// assert_eq!(perft_exact_depth(&Nim(3), 3), 1);
/// ```
pub fn perft_exact_depth<G: Game>(pos: &G, depth: u32) -> u64 {
    count_leaves(pos, depth, 0)
}

/// Leaves `depth` plies below `pos`, a game that ends sooner counting
/// `finished`.
fn count_leaves<G: Game>(pos: &G, depth: u32, finished: u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return finished;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| count_leaves(&pos.play(mv), depth - 1, finished))
        .sum()
}
