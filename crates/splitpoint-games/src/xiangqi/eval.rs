//! The evaluator: material and piece-square tables; captures for
//! quiescence (every evasion in check), ordered most valuable victim, least
//! valuable attacker first.

use splitpoint::{Evaluator, Game, MoveList, Score};

use super::board::{Color, Move, Piece, Square};
use super::position::Xiangqi;
use super::tables::{FILES, SQUARES};

/// Material by [`Piece`] index (general, advisor, elephant, horse, rook,
/// cannon, soldier). A soldier that crosses the river gains about as much
/// again from its table.
const MATERIAL: [i32; 7] = [0, 120, 120, 270, 600, 285, 30];

/// Bonus for the side to move.
const TEMPO: i32 = 10;

/// Positional value of `piece` on (`file`, `rank`) seen from its own side
/// (rank 0 is its back rank). Simple rules rather than tuned numbers: every
/// table is symmetric left to right; soldiers gain once across the river and
/// most near the palace; horses and rooks like to advance and the centre;
/// cannons like the central file; advisors, elephants and the general like
/// their centre points.
const fn square_value(piece: usize, file: usize, rank: usize) -> i32 {
    // 0 on the edge files, 4 on the central file.
    let centre = if file < 4 { file } else { 8 - file } as i32;
    match piece {
        // General: home, on the central file.
        0 => -10 * rank as i32 - if centre == 4 { 0 } else { 5 },
        // Advisor and elephant: the centre points defend best.
        1 => {
            if centre == 4 {
                10
            } else {
                0
            }
        }
        2 => {
            if centre == 4 && rank == 2 {
                10
            } else if centre == 0 {
                -5
            } else {
                0
            }
        }
        // Horse: out of the corners, forwards.
        3 => {
            const ADVANCE: [i32; 10] = [-15, -5, 0, 5, 10, 15, 20, 20, 10, 0];
            3 * centre + ADVANCE[rank]
        }
        // Rook: forwards, and the files beside the palace.
        4 => {
            const ADVANCE: [i32; 10] = [-5, 0, 0, 5, 10, 10, 15, 20, 15, 10];
            2 * centre + ADVANCE[rank] + if centre == 3 { 5 } else { 0 }
        }
        // Cannon: the central file at home, a little forward.
        5 => {
            let central = if centre == 4 && rank <= 3 { 15 } else { 0 };
            central + if rank == 2 { 5 } else { 0 }
        }
        // Soldier: worth about double across the river, more near the palace;
        // one on the last rank can only go sideways.
        _ => {
            const ADVANCE: [i32; 10] = [0, 0, 0, 0, 10, 60, 75, 85, 85, 30];
            let near_palace = rank >= 6 && rank <= 8 && centre >= 3;
            ADVANCE[rank] + if near_palace { 10 } else { 0 }
        }
    }
}

/// Material plus position for every piece on every square, from Red's side:
/// `TABLE[piece][square]`.
static TABLE: [[i16; SQUARES]; 7] = make_table();

const fn make_table() -> [[i16; SQUARES]; 7] {
    let mut table = [[0i16; SQUARES]; 7];
    let mut piece = 0;
    while piece < 7 {
        let mut sq = 0;
        while sq < SQUARES {
            let value = MATERIAL[piece] + square_value(piece, sq % FILES, sq / FILES);
            table[piece][sq] = value as i16;
            sq += 1;
        }
        piece += 1;
    }
    table
}

/// The static score of `pos` from the side to move's view. With at most the
/// starting material it stays within ±5000.
pub fn evaluate(pos: &Xiangqi) -> Score {
    let mut red = 0;
    for color in [Color::Red, Color::Black] {
        let (sign, flip) = match color {
            Color::Red => (1, false),
            Color::Black => (-1, true),
        };
        let mut pieces = pos.occupied(color);
        while pieces != 0 {
            let index = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            if let Some((_, piece)) = Square::from_index(index).and_then(|sq| pos.piece_on(sq)) {
                // Black reads the table upside down.
                let i = if flip { SQUARES - 1 - index } else { index };
                red += sign * TABLE[piece.index()][i] as i32;
            }
        }
    }
    let score = if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    };
    score + TEMPO
}

/// The evaluator for [`Xiangqi`]: [`evaluate`], quiescence over captures
/// (every legal move when in check), MVV-LVA ordering.
///
/// Quiescence and exactness: as for chess, the core's quiescence is
/// `max(evaluate, best noisy move)`; listing every evasion in check lets it
/// see the replies to a check. Exact mode searches every noisy move down
/// every line, so the noisy tree must be finite: captures end as material
/// runs out, and a line of evasions goes on only while each evasion gives
/// check in turn; such lines end by repetition or, at worst, at the core's
/// ply limit.
#[derive(Clone, Copy, Debug)]
pub struct XiangqiEval {
    /// Quiescence follows every evasion when in check (else only captures).
    pub evasions: bool,
}

impl Default for XiangqiEval {
    /// With evasions.
    fn default() -> Self {
        XiangqiEval { evasions: true }
    }
}

/// How much a piece is worth for ordering: soldier 0, advisor and elephant
/// 1, horse and cannon 2, rook 3, general 4.
const ORDER: [i32; 7] = [4, 1, 1, 2, 3, 2, 0];

impl Evaluator<Xiangqi> for XiangqiEval {
    #[inline]
    fn evaluate(&self, pos: &Xiangqi) -> Score {
        evaluate(pos)
    }

    #[inline]
    fn noisy_moves(&self, pos: &Xiangqi, moves: &mut MoveList<Move>) {
        if self.evasions && pos.in_check() {
            pos.generate_moves(moves);
        } else {
            pos.generate_captures(moves);
        }
    }

    /// Check, when quiescence follows evasions.
    #[inline]
    fn in_check(&self, pos: &Xiangqi) -> bool {
        self.evasions && pos.in_check()
    }

    /// A pass, unless the side to move has no rook, horse or cannon: with
    /// only soldiers and defenders, zugzwang is common and a pass would
    /// overrate the position.
    #[inline]
    fn null_move(&self, pos: &Xiangqi) -> Option<Xiangqi> {
        let mut pieces = pos.occupied(pos.side_to_move());
        let mut attackers = false;
        while pieces != 0 && !attackers {
            let sq = Square::from_index(pieces.trailing_zeros() as usize);
            pieces &= pieces - 1;
            attackers = matches!(
                sq.and_then(|sq| pos.piece_on(sq)),
                Some((_, Piece::Rook | Piece::Horse | Piece::Cannon))
            );
        }
        if attackers { pos.null_move() } else { None }
    }

    /// Not a capture.
    #[inline]
    fn is_quiet(&self, pos: &Xiangqi, mv: Move) -> bool {
        pos.captured(mv).is_none()
    }

    /// Captures first, most valuable victim then least valuable attacker
    /// (`100 + 10 × victim − attacker`, pieces ranked soldier 0, advisor and
    /// elephant 1, horse and cannon 2, rook 3, general 4), quiet moves 0.
    #[inline]
    fn order_moves(&self, pos: &Xiangqi, moves: &[Move], keys: &mut [i32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = match pos.captured(mv) {
                Some(victim) => {
                    let attacker = pos.piece_on(mv.from()).map_or(0, |(_, p)| ORDER[p.index()]);
                    100 + 10 * ORDER[victim.index()] - attacker
                }
                None => 0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric_left_to_right() {
        for piece in Piece::ALL {
            let table = &TABLE[piece.index()];
            for (sq, value) in table.iter().enumerate() {
                let mirror = sq - sq % FILES + (FILES - 1 - sq % FILES);
                assert_eq!(*value, table[mirror], "{piece:?}");
            }
        }
    }
}
