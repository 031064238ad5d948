//! A small network that corrects the linear evaluation: each side's pieces
//! by square, seen from White's side and from Black's (the board flipped),
//! summed into one hidden layer per view, clipped and squared, then weighed
//! into centipawns added to [`super::eval::evaluate`]'s linear score. It is
//! fitted to what the linear score misses of the self-play searches' scores.
//!
//! The sums live in the position ([`Accumulator`]) and follow each move:
//! a move changes two to four pieces, so updating them costs a few of the
//! sixty-four rows a fresh sum would add. They are integers, so a position
//! reached by any path has the same sums, and the fit keeps the weights
//! small enough that no board, even one full of men, overflows them.

use cozy_chess::{Board, Color, Piece};

use super::net_weights::{HIDDEN, NET};

/// The hidden layer's scale: a weight `w` is stored as `w × QA`, and a unit
/// is fully on at `QA`.
pub(super) const QA: i32 = 1024;
/// The square values' scale: a value of `v` centipawns is stored as `v × QP`.
pub(super) const QP: i32 = 64;

/// The network's weights, quantized.
#[derive(Clone)]
pub struct Net {
    /// Each input's square value, in centipawns × [`QP`].
    pub psqt: [i16; 768],
    /// Each input's column of the hidden layer, × [`QA`].
    pub input: [[i16; HIDDEN]; 768],
    /// The hidden layer's bias, × [`QA`].
    pub bias: [i16; HIDDEN],
    /// The side to move's hidden units, then the other side's, in
    /// centipawns for a unit fully on.
    pub output: [f32; 2 * HIDDEN],
    /// The output's bias, in centipawns.
    pub output_bias: f32,
}

/// The input of `color`'s `piece` on `sq` seen from `view`'s side: the
/// view's own pieces first, the board flipped for Black.
#[inline]
pub(super) fn input(view: Color, color: Color, piece: Piece, sq: usize) -> usize {
    let flip = if view == Color::White { 0 } else { 56 };
    usize::from(color != view) * 384 + piece as usize * 64 + (sq ^ flip)
}

/// The hidden layer's sums and the square values of one position, from
/// White's view and from Black's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Accumulator {
    hidden: [[i16; HIDDEN]; 2],
    psqt: [i32; 2],
}

impl Accumulator {
    /// The sums of `board`'s pieces under the engine's network.
    pub fn new(board: &Board) -> Self {
        Self::with(&NET, board)
    }

    /// The sums of `board`'s pieces under `net`.
    pub fn with(net: &Net, board: &Board) -> Self {
        let mut acc = Accumulator {
            hidden: [net.bias; 2],
            psqt: [0; 2],
        };
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    acc.change(net, color, piece, sq as usize, true);
                }
            }
        }
        acc
    }

    /// The sums after the move from `before` to `after`: on each square
    /// whose piece changed, the piece gone taken out and the new one put in.
    /// A move changes a square's piece only by emptying it, filling it or
    /// changing its colour (a capture), so the squares are those where
    /// either side's men changed.
    #[inline]
    pub fn update(&mut self, before: &Board, after: &Board) {
        let changed = (before.colors(Color::White) ^ after.colors(Color::White))
            | (before.colors(Color::Black) ^ after.colors(Color::Black));
        for sq in changed {
            if let (Some(piece), Some(color)) = (before.piece_on(sq), before.color_on(sq)) {
                self.change(&NET, color, piece, sq as usize, false);
            }
            if let (Some(piece), Some(color)) = (after.piece_on(sq), after.color_on(sq)) {
                self.change(&NET, color, piece, sq as usize, true);
            }
        }
    }

    /// Puts in (`add`) or takes out one piece in both views.
    #[inline]
    fn change(&mut self, net: &Net, color: Color, piece: Piece, sq: usize, add: bool) {
        for (view, c) in [Color::White, Color::Black].into_iter().enumerate() {
            let i = input(c, color, piece, sq);
            let (sums, row) = (&mut self.hidden[view], &net.input[i]);
            // Two loops without a multiply, which the compiler vectorizes.
            if add {
                for h in 0..HIDDEN {
                    sums[h] += row[h];
                }
                self.psqt[view] += i32::from(net.psqt[i]);
            } else {
                for h in 0..HIDDEN {
                    sums[h] -= row[h];
                }
                self.psqt[view] -= i32::from(net.psqt[i]);
            }
        }
    }

    /// The network's correction, from the side to move's view, in
    /// centipawns.
    #[inline]
    pub fn correction(&self, to_move: Color) -> i32 {
        self.correction_by(&NET, to_move)
    }

    /// [`Accumulator::correction`] under `net`, whose sums these are.
    #[inline]
    pub fn correction_by(&self, net: &Net, to_move: Color) -> i32 {
        let (us, them) = (to_move as usize, !to_move as usize);
        let activate = |x: i16| {
            let c = i32::from(x).clamp(0, QA) as f32 / QA as f32;
            c * c
        };
        let (near, far) = net.output.split_at(HIDDEN);
        let mut out = net.output_bias;
        for i in 0..HIDDEN {
            out += near[i] * activate(self.hidden[us][i]) + far[i] * activate(self.hidden[them][i]);
        }
        out.round() as i32 + (self.psqt[us] - self.psqt[them]) / QP
    }
}

/// The network's correction of `board`'s score, from the side to move's
/// view, in centipawns, its sums made afresh.
pub(super) fn correction(board: &Board) -> i32 {
    Accumulator::new(board).correction(board.side_to_move())
}

#[cfg(test)]
mod tests {
    use splitpoint::{Evaluator, Game, MoveList};

    use super::*;
    use crate::chess::{Chess, ChessEval, evaluate};
    use crate::rng::Rng;

    #[test]
    fn the_sums_kept_move_by_move_are_the_sums_made_afresh() {
        // Castling both ways, en passant and promotions (with and without
        // a capture) come up in these games.
        let starts = [
            "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "4k3/1P4p1/8/3pP3/8/8/1p4P1/4K3 w - d6 0 1",
            crate::chess::START_FEN,
        ];
        let eval = ChessEval::default();
        let mut rng = Rng::new(3);
        let mut plies = 0;
        for fen in starts {
            for _ in 0..20 {
                let mut pos: Chess = Chess::from_board(fen.parse().unwrap());
                for _ in 0..120 {
                    let mut moves = MoveList::new();
                    pos.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
                    assert!(*pos.accumulator() == Accumulator::new(pos.board()), "{pos}");
                    assert_eq!(eval.evaluate(&pos), evaluate(pos.board()), "{pos}");
                    plies += 1;
                }
            }
        }
        assert!(plies > 3000);
    }
}
