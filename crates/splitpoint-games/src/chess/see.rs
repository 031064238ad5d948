//! Static exchange evaluation: what a capture wins once every capture back
//! on its square has been played, each side taking with its least valuable
//! piece and free to stop when going on would lose.

use cozy_chess::{
    BitBoard, Board, Color, Move, Piece, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_pawn_attacks, get_rook_moves,
};

/// Piece values for exchanges, by [`Piece`] index (the king's is larger
/// than everything else together).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The pieces of either colour in `occupied` that attack `sq`.
fn attackers(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let pawns = (get_pawn_attacks(sq, Color::White)
        & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn));
    (pawns
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_bishop_moves(sq, occupied) & diagonal)
        | (get_rook_moves(sq, occupied) & straight))
        & occupied
}

/// The material the side to move wins by `mv` (a legal move, usually a
/// capture) once the exchange on its square is over, in [`SEE_VALUE`]s:
/// positive wins, 0 trades evenly, negative loses. Pins and checks are
/// not looked at.
pub fn see(board: &Board, mv: Move) -> i32 {
    let (from, to) = (mv.from, mv.to);
    let Some(mut piece) = board.piece_on(from) else {
        return 0;
    };
    let us = board.side_to_move();
    let mut occupied = board.occupied() ^ from.bitboard();
    let mut gains = [0i32; 32];
    gains[0] = match board.piece_on(to) {
        // Castling is written as the king taking its own rook.
        Some(_) if board.colors(us).has(to) => return 0,
        Some(victim) => SEE_VALUE[victim as usize],
        None if piece == Piece::Pawn && from.file() != to.file() => {
            // En passant: the pawn taken stands beside the square.
            occupied ^= Square::new(to.file(), from.rank()).bitboard();
            SEE_VALUE[Piece::Pawn as usize]
        }
        None => 0,
    };
    if let Some(promotion) = mv.promotion {
        gains[0] += SEE_VALUE[promotion as usize] - SEE_VALUE[Piece::Pawn as usize];
        piece = promotion;
    }
    let mut side = !us;
    let mut depth = 0;
    loop {
        let mine = attackers(board, to, occupied) & board.colors(side);
        let Some((next, sq)) = Piece::ALL.into_iter().find_map(|p| {
            let set = mine & board.pieces(p);
            set.next_square().map(|sq| (p, sq))
        }) else {
            break;
        };
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        // The piece standing on the square is taken.
        gains[depth] = SEE_VALUE[piece as usize] - gains[depth - 1];
        // A king may not take into an attack.
        if next == Piece::King
            && !(attackers(board, to, occupied ^ sq.bitboard()) & board.colors(!side)).is_empty()
        {
            depth -= 1;
            break;
        }
        occupied ^= sq.bitboard();
        piece = next;
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board: Board = fen.parse().unwrap();
        see(&board, mv.parse().unwrap())
    }

    #[test]
    fn exchanges_are_counted_to_the_end() {
        // A free pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn: loses the knight for a pawn.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // Pawn takes a defended knight: wins knight for pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
            320 - 100
        );
        // Rook takes a rook defended by a rook and the king, backed by a
        // rook: two rooks each, an even trade.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // A quiet move onto an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -950);
        // A quiet move to a safe square wins nothing.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d4"), 0);
        // The king may not take back a piece defended behind it.
        assert_eq!(see_of("4k3/3p4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 100);
    }

    #[test]
    fn en_passant_and_promotions_count() {
        assert_eq!(see_of("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6"), 100);
        assert_eq!(
            see_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            320 + 850
        );
        // A promotion on a guarded square loses the new queen for the rook... less the pawn.
        assert_eq!(see_of("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -100);
    }
}
