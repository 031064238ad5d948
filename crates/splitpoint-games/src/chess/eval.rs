//! The evaluator: material and piece-square tables, pawn structure (passed,
//! doubled and isolated pawns), mobility and attacks next to the enemy king,
//! rooks on open files and the king's pawn shelter,
//! tapered between the middlegame and the endgame; captures and promotions
//! for quiescence, ordered most valuable victim, least valuable attacker
//! first; the pruning near the leaves the search may use.

use cozy_chess::{BitBoard, Board, Color, Piece, Rank, Square};
use splitpoint::{Evaluator, Game, MoveList, Pruning, Score};

use super::position::Chess;
use super::see::{SEE_VALUE, see};

/// Delta pruning's safety margin: quiescence skips a capture that would
/// leave the score this far below alpha even winning its victim outright.
const DELTA_MARGIN: i32 = 200;

/// Material in centipawns, middlegame and endgame, by [`Piece`] index.
const MATERIAL_MG: [i32; 6] = [85, 320, 335, 470, 950, 0];
const MATERIAL_EG: [i32; 6] = [105, 300, 315, 530, 980, 0];

/// How much each piece counts towards the middlegame: knights and bishops 1,
/// rooks 2, queens 4; the start position has [`MAX_PHASE`].
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Bonus for the side to move, which is usually worth something.
const TEMPO: i32 = 10;
/// Bonus for holding both bishops.
const BISHOP_PAIR: (i32, i32) = (25, 45);

/// How central a square is: 0 in a corner, 6 on the four centre squares.
const fn centrality(file: usize, rank: usize) -> i32 {
    let f = if file < 4 { file } else { 7 - file };
    let r = if rank < 4 { rank } else { 7 - rank };
    (f + r) as i32
}

/// Positional value of `piece` on the square (`file`, `rank`), from White's
/// side, middlegame then endgame. Simple rules rather than tuned numbers:
/// knights, bishops and queens like the centre, pawns like to advance (more so
/// in the endgame), rooks like the seventh rank, the king hides behind its
/// pawns in the middlegame and comes to the centre in the endgame.
const fn square_value(piece: usize, file: usize, rank: usize) -> (i32, i32) {
    let c = centrality(file, rank);
    match piece {
        // Pawn.
        0 => {
            const ADVANCE_MG: [i32; 8] = [0, 0, 2, 6, 14, 30, 60, 0];
            const ADVANCE_EG: [i32; 8] = [0, 0, 5, 15, 30, 55, 95, 0];
            let mut mg = ADVANCE_MG[rank];
            let centre_file = file == 3 || file == 4;
            if centre_file && (rank == 3 || rank == 4) {
                mg += 15;
            } else if centre_file && rank == 1 {
                mg -= 10; // an unmoved centre pawn blocks the bishops
            } else if (file == 2 || file == 5) && rank == 3 {
                mg += 5;
            }
            if file >= 5 && rank == 1 {
                mg += 5; // the castled king's shelter
            }
            (mg, ADVANCE_EG[rank])
        }
        // Knight: the rim is dim.
        1 => (6 * c - 20, 5 * c - 15),
        // Bishop, also better off its home rank.
        2 => (4 * c - 10 - if rank == 0 { 10 } else { 0 }, 3 * c - 8),
        // Rook: the seventh rank, and the centre files a little.
        3 => {
            let seventh = rank == 6;
            let file_bonus = if file == 3 || file == 4 { 6 } else { 0 };
            (
                (if seventh { 20 } else { 0 }) + file_bonus,
                if seventh { 12 } else { 0 },
            )
        }
        // Queen.
        4 => (2 * c - 6, 4 * c - 12),
        // King.
        _ => {
            const HOME: [i32; 8] = [15, 25, 10, -5, 0, 5, 30, 15];
            const SECOND: [i32; 8] = [0, 0, -10, -15, -15, -10, 0, 0];
            let mg = match rank {
                0 => HOME[file],
                1 => SECOND[file],
                r => -20 - 10 * (r as i32 - 2),
            };
            (mg, 7 * c - 25)
        }
    }
}

/// Material plus position for every piece on every square, from White's side:
/// `TABLE_MG[piece][square]` with a1 = 0, h8 = 63.
static TABLE_MG: [[i16; 64]; 6] = make_table(true);
static TABLE_EG: [[i16; 64]; 6] = make_table(false);

const fn make_table(middlegame: bool) -> [[i16; 64]; 6] {
    let mut table = [[0i16; 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = square_value(piece, sq % 8, sq / 8);
            table[piece][sq] = if middlegame {
                (MATERIAL_MG[piece] + mg) as i16
            } else {
                (MATERIAL_EG[piece] + eg) as i16
            };
            sq += 1;
        }
        piece += 1;
    }
    table
}

/// The static score of `board` from the side to move's view, in centipawns.
/// Whatever the position, it stays within ±16000.
pub fn evaluate(board: &Board) -> Score {
    if insufficient_material(board) {
        return 0;
    }
    let (mut mg, mut eg, mut phase) = (0i32, 0i32, 0i32);
    for color in [Color::White, Color::Black] {
        let (sign, flip) = if color == Color::White {
            (1, 0)
        } else {
            (-1, 56)
        };
        for piece in Piece::ALL {
            let pieces = board.colored_pieces(color, piece);
            phase += PHASE[piece as usize] * pieces.len() as i32;
            let (table_mg, table_eg) = (&TABLE_MG[piece as usize], &TABLE_EG[piece as usize]);
            for sq in pieces {
                // Black's pieces read the table upside down.
                let i = sq as usize ^ flip;
                mg += sign * table_mg[i] as i32;
                eg += sign * table_eg[i] as i32;
            }
        }
        if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
            mg += sign * BISHOP_PAIR.0;
            eg += sign * BISHOP_PAIR.1;
        }
        let (pawns_mg, pawns_eg) = pawn_structure(board, color);
        let (activity_mg, activity_eg) = activity(board, color);
        mg += sign * (pawns_mg + activity_mg);
        eg += sign * (pawns_eg + activity_eg);
        let (files_mg, files_eg) = rook_files(board, color);
        mg += sign * (files_mg + king_shelter(board, color));
        eg += sign * files_eg;
    }
    let phase = phase.min(MAX_PHASE);
    let white = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let score = if board.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    score + TEMPO
}

/// A rook on a file with no pawn of its own side (semi-open), and more with
/// no pawn at all (open), middlegame and endgame.
const ROOK_SEMI_OPEN: (i32, i32) = (10, 5);
const ROOK_OPEN: (i32, i32) = (20, 10);

/// `color`'s rooks on open and semi-open files, middlegame and endgame.
fn rook_files(board: &Board, color: Color) -> (i32, i32) {
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let all = board.pieces(Piece::Pawn).0;
    let (mut mg, mut eg) = (0, 0);
    for sq in board.colored_pieces(color, Piece::Rook) {
        let file = FILE_A << sq.file() as u32;
        if all & file == 0 {
            mg += ROOK_OPEN.0;
            eg += ROOK_OPEN.1;
        } else if own & file == 0 {
            mg += ROOK_SEMI_OPEN.0;
            eg += ROOK_SEMI_OPEN.1;
        }
    }
    (mg, eg)
}

/// Per own pawn in front of a king on its first two ranks, on its file or
/// the next ones: one rank ahead, two ranks ahead (middlegame only).
const SHELTER: (i32, i32) = (12, 6);

/// The pawn shelter of `color`'s king, middlegame.
fn king_shelter(board: &Board, color: Color) -> i32 {
    let king = board.king(color);
    let (file, rank) = (king.file() as u32, king.rank() as u32);
    let relative = if color == Color::White {
        rank
    } else {
        7 - rank
    };
    if relative > 1 {
        return 0;
    }
    let files = file_and_neighbours(file);
    let rank_ahead = |n: u32| -> u64 {
        let r = if color == Color::White {
            rank + n
        } else {
            rank.wrapping_sub(n)
        };
        if r < 8 { 0xFFu64 << (8 * r) } else { 0 }
    };
    let pawns = board.colored_pieces(color, Piece::Pawn).0 & files;
    SHELTER.0 * (pawns & rank_ahead(1)).count_ones() as i32
        + SHELTER.1 * (pawns & rank_ahead(2)).count_ones() as i32
}

/// A passed pawn's bonus by its rank from its own side, middlegame and
/// endgame.
const PASSED_MG: [i32; 8] = [0, 5, 5, 10, 20, 35, 60, 0];
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];
/// Each pawn beyond the first on a file.
const DOUBLED: (i32, i32) = (-10, -20);
/// A pawn with no friendly pawn on a neighbouring file.
const ISOLATED: (i32, i32) = (-10, -15);
/// Per square a knight, bishop, rook or queen reaches (not its own side's,
/// not attacked by an enemy pawn), above or below `MOBILITY_MEAN`, by
/// [`Piece`] index.
const MOBILITY_MG: [i32; 6] = [0, 4, 4, 2, 1, 0];
const MOBILITY_EG: [i32; 6] = [0, 4, 5, 4, 2, 0];
const MOBILITY_MEAN: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// Per attack on a square next to the enemy king (middlegame), by
/// [`Piece`] index, once two or more pieces take part.
const KING_ATTACK: [i32; 6] = [0, 6, 6, 8, 12, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares of `file` (0 for a) and of the files beside it.
fn file_and_neighbours(file: u32) -> u64 {
    (FILE_A << file)
        | if file > 0 { FILE_A << (file - 1) } else { 0 }
        | if file < 7 { FILE_A << (file + 1) } else { 0 }
}

/// The squares `color`'s pawns attack.
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Passed, doubled and isolated pawns of `color`, middlegame and endgame.
fn pawn_structure(board: &Board, color: Color) -> (i32, i32) {
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let enemy = board.colored_pieces(!color, Piece::Pawn).0;
    let (mut mg, mut eg) = (0, 0);
    for file in 0..8 {
        let on_file = (own & (FILE_A << file)).count_ones() as i32;
        if on_file == 0 {
            continue;
        }
        let mut neighbours = 0;
        if file > 0 {
            neighbours |= FILE_A << (file - 1);
        }
        if file < 7 {
            neighbours |= FILE_A << (file + 1);
        }
        if on_file > 1 {
            mg += DOUBLED.0 * (on_file - 1);
            eg += DOUBLED.1 * (on_file - 1);
        }
        if own & neighbours == 0 {
            mg += ISOLATED.0 * on_file;
            eg += ISOLATED.1 * on_file;
        }
    }
    for sq in BitBoard(own) {
        let (file, rank) = (sq.file() as u32, sq.rank() as usize);
        let files = file_and_neighbours(file);
        let (ahead, relative) = match color {
            Color::White if rank < 7 => (!0u64 << (8 * (rank + 1)), rank),
            Color::Black if rank > 0 => ((1u64 << (8 * rank)) - 1, 7 - rank),
            _ => continue,
        };
        if enemy & files & ahead == 0 {
            mg += PASSED_MG[relative];
            eg += PASSED_EG[relative];
        }
    }
    (mg, eg)
}

/// Mobility of `color`'s pieces and their attacks next to the enemy king,
/// middlegame and endgame.
fn activity(board: &Board, color: Color) -> (i32, i32) {
    let occupied = board.occupied();
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn).0;
    let area = BitBoard(!board.colors(color).0 & !pawn_attacks(enemy_pawns, !color));
    let king = board.king(!color);
    let zone = cozy_chess::get_king_moves(king) | king.bitboard();
    let (mut mg, mut eg) = (0, 0);
    let (mut attackers, mut attack) = (0, 0);
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let p = piece as usize;
        for sq in board.colored_pieces(color, piece) {
            let reach = match piece {
                Piece::Knight => cozy_chess::get_knight_moves(sq),
                Piece::Bishop => cozy_chess::get_bishop_moves(sq, occupied),
                Piece::Rook => cozy_chess::get_rook_moves(sq, occupied),
                _ => {
                    cozy_chess::get_bishop_moves(sq, occupied)
                        | cozy_chess::get_rook_moves(sq, occupied)
                }
            };
            let mobility = (reach & area).len() as i32 - MOBILITY_MEAN[p];
            mg += MOBILITY_MG[p] * mobility;
            eg += MOBILITY_EG[p] * mobility;
            let hits = (reach & zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                attack += KING_ATTACK[p] * hits;
            }
        }
    }
    if attackers >= 2 {
        mg += attack;
    }
    (mg, eg)
}

/// Neither side can ever mate: bare kings, or a single minor piece, and no pawns.
fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    heavy.is_empty() && (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() <= 1
}

/// The evaluator for [`Chess`]: [`evaluate`], quiescence over captures and
/// queen promotions (every legal move when in check), MVV-LVA ordering; and
/// the search's selectivity outside exact mode: check extension, null moves
/// (not with king and pawns only), reductions of quiet moves, and the
/// pruning near the leaves of [`ChessEval::pruning`].
///
/// Quiescence and exactness: in check ([`Evaluator::in_check`]) the core's
/// quiescence does not stand pat but takes the best evasion, which is why
/// every evasion is a noisy move there. Exact mode searches every noisy move
/// down every line, so the noisy tree must be finite: captures end as
/// material runs out, and a line of evasions goes on only while each evasion
/// gives check in turn; such lines end by repetition or, at worst, at the
/// core's ply limit (`MAX_PLY`), which both the search and the negamax oracle
/// stop at.
#[derive(Clone, Copy, Debug)]
pub struct ChessEval {
    /// Quiescence follows every evasion when in check (else only captures
    /// and queen promotions, in check too).
    pub evasions: bool,
    /// The pruning near the leaves outside exact mode (see
    /// [`Evaluator::pruning`]); `None` turns it off.
    pub pruning: Option<Pruning>,
}

impl Default for ChessEval {
    /// With evasions and [`PRUNING`].
    fn default() -> Self {
        ChessEval {
            evasions: true,
            pruning: Some(PRUNING),
        }
    }
}

impl Evaluator<Chess> for ChessEval {
    #[inline]
    fn evaluate(&self, pos: &Chess) -> Score {
        evaluate(pos.board())
    }

    #[inline]
    fn noisy_moves(&self, pos: &Chess, moves: &mut MoveList<cozy_chess::Move>) {
        if self.evasions && pos.in_check() {
            pos.generate_moves(moves);
            return;
        }
        let board = pos.board();
        let us = board.side_to_move();
        let them = board.colors(!us);
        let en_passant = board.en_passant().map_or(BitBoard::EMPTY, |file| {
            Square::new(file, Rank::Sixth.relative_to(us)).bitboard()
        });
        let last_rank = Rank::Eighth.relative_to(us).bitboard();
        board.generate_moves(|mut piece_moves| {
            piece_moves.to &= if piece_moves.piece == Piece::Pawn {
                them | en_passant | last_rank
            } else {
                them
            };
            for mv in piece_moves {
                // Under-promotions are quiet: they rarely matter and would
                // quadruple every promotion's subtree.
                if matches!(mv.promotion, None | Some(Piece::Queen)) {
                    let _ = moves.try_push(mv);
                }
            }
            false
        });
    }

    /// Check, when quiescence follows evasions (else quiescence could not
    /// do without its stand-pat score in check).
    #[inline]
    fn in_check(&self, pos: &Chess) -> bool {
        self.evasions && pos.in_check()
    }

    /// A pass, unless the side to move has only king and pawns: there
    /// zugzwang is common and a pass would overrate the position.
    #[inline]
    fn null_move(&self, pos: &Chess) -> Option<Chess> {
        let board = pos.board();
        let pieces = board.colors(board.side_to_move())
            & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King));
        if pieces.is_empty() {
            return None;
        }
        pos.null_move()
    }

    /// Reverse futility, futility and late-move pruning near the leaves
    /// (by default [`PRUNING`]).
    #[inline]
    fn pruning(&self) -> Option<Pruning> {
        self.pruning
    }

    /// Neither a capture nor a promotion.
    #[inline]
    fn is_quiet(&self, pos: &Chess, mv: cozy_chess::Move) -> bool {
        mv.promotion.is_none() && pos.captured(mv).is_none()
    }

    /// A capture that loses material by [`see`], or whose victim (and
    /// promotion) could not bring the score within [`DELTA_MARGIN`] of
    /// alpha.
    #[inline]
    fn skip_in_quiescence(
        &self,
        pos: &Chess,
        mv: cozy_chess::Move,
        stand_pat: Score,
        alpha: Score,
    ) -> bool {
        let victim = pos.captured(mv).map_or(0, |p| SEE_VALUE[p as usize]);
        let promotion = mv
            .promotion
            .map_or(0, |p| SEE_VALUE[p as usize] - SEE_VALUE[0]);
        if stand_pat + victim + promotion + DELTA_MARGIN < alpha {
            return true;
        }
        see(pos.board(), mv) < 0
    }

    /// [`see`], in centipawns.
    #[inline]
    fn exchange(&self, pos: &Chess, mv: cozy_chess::Move) -> Score {
        see(pos.board(), mv)
    }

    /// Captures first, most valuable victim then least valuable attacker
    /// (`100 + 10 × victim − attacker`, piece indices pawn 0 … king 5), then
    /// queen promotions; quiet moves 0, under-promotions −1, and last the
    /// captures of a lesser piece that lose material by [`see`] (−2).
    #[inline]
    fn order_moves(&self, pos: &Chess, moves: &[cozy_chess::Move], keys: &mut [i32]) {
        let board = pos.board();
        for (key, &mv) in keys.iter_mut().zip(moves) {
            let attacker = board.piece_on(mv.from).map_or(0, |p| p as i32);
            *key = match (pos.captured(mv), mv.promotion) {
                // A capture of a lesser piece that loses by the exchange
                // goes after the quiet moves.
                (Some(victim), None) if (victim as i32) < attacker && see(board, mv) < 0 => -2,
                (Some(victim), _) => {
                    100 + 10 * victim as i32 - attacker + promotion_bonus(mv.promotion)
                }
                (None, Some(Piece::Queen)) => 90,
                (None, Some(_)) => -1,
                (None, None) => 0,
            };
        }
    }
}

/// Extra ordering weight of a capture that also promotes.
#[inline]
fn promotion_bonus(promotion: Option<Piece>) -> i32 {
    match promotion {
        Some(Piece::Queen) => 50,
        Some(_) => -50,
        None => 0,
    }
}

/// The pruning near the leaves chess's search uses outside exact mode; each
/// rule was kept for what it gained in a match (see
/// `docs/lab/2026-12-02-chess-selectivity.md`).
pub const PRUNING: Pruning = Pruning {
    reverse_futility_depth: 6,
    reverse_futility_margin: 80,
    futility_depth: 3,
    futility_margin: 80,
    late_move_depth: 3,
    exchange_depth: 6,
    exchange_quiet_margin: 50,
    exchange_noisy_margin: 100,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    #[test]
    fn rooks_score_open_and_semi_open_files() {
        // White: a rook on the open d-file, one on the e-file behind its own
        // pawn; Black: a rook on the c-file, semi-open (only White's pawn).
        let b = board("2r3k1/8/8/8/8/2P5/4P3/3RR1K1 w - - 0 1");
        assert_eq!(rook_files(&b, Color::White), ROOK_OPEN);
        assert_eq!(rook_files(&b, Color::Black), ROOK_SEMI_OPEN);
    }

    #[test]
    fn the_shelter_counts_pawns_before_a_king_at_home() {
        // f2, g2 one rank ahead of the king on g1, h3 two; Black's king on
        // g8 behind f7, g6 (two ranks) and nothing on h; a king out on e4
        // has no shelter.
        let b = board("6k1/5p2/6p1/8/8/7P/5PP1/6K1 w - - 0 1");
        assert_eq!(king_shelter(&b, Color::White), 2 * SHELTER.0 + SHELTER.1);
        assert_eq!(king_shelter(&b, Color::Black), SHELTER.0 + SHELTER.1);
        let out = board("6k1/8/8/8/4K3/3PPP2/8/8 w - - 0 1");
        assert_eq!(king_shelter(&out, Color::White), 0);
    }
}
