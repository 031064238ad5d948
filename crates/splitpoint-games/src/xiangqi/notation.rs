//! Xiangqi FEN and move notation: reading and writing positions, reading
//! moves (ICCS and Fairy-Stockfish's UCI).

use splitpoint::{Game, MoveList, ParseError};

use super::board::{Color, EMPTY, Move, Piece, Square, code, decode};
use super::position::{Xiangqi, attacked};
use super::tables::{BLACK_TO_MOVE, FILES, RANKS, SQUARES, ZOBRIST, in_palace, red_half};
use crate::repetition::History;

impl Xiangqi {
    /// Reads a xiangqi FEN: board, side (`w` or `r` for Red, `b` for Black),
    /// and optionally `- -`, the halfmove clock and the move number.
    pub(super) fn parse_fen(text: &str) -> Result<Self, ParseError> {
        // Each field with its offset in `text`, for error columns.
        let fields: Vec<(usize, &str)> = text
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
            .collect();
        let Some(&(start, placement)) = fields.first() else {
            return Err(ParseError::new(
                "empty position: expected a xiangqi FEN or 'startpos'",
            ));
        };
        if fields.len() > 6 {
            return Err(ParseError::at(
                fields[6].0,
                format!("a xiangqi FEN has 2 to 6 fields, found {}", fields.len()),
            ));
        }
        let mut pos = Xiangqi {
            board: [EMPTY; SQUARES],
            occupied: [0; 2],
            generals: [0; 2],
            side: Color::Red,
            in_check: false,
            hash: 0,
            halfmove: 0,
            fullmove: 1,
            history: History::EMPTY,
            checks: 0,
        };
        let mut counts = [[0u32; 7]; 2];
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != RANKS {
            return Err(ParseError::new(format!(
                "the board needs 10 ranks separated by '/', found {}",
                ranks.len()
            )));
        }
        let mut column = start;
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - row;
            let mut file = 0;
            for (i, ch) in rank_text.char_indices() {
                let at = column + i;
                match ch {
                    '1'..='9' => file += ch as usize - '0' as usize,
                    _ => {
                        let piece = u8::try_from(ch)
                            .ok()
                            .and_then(Piece::from_letter)
                            .ok_or_else(|| ParseError::at(at, format!("'{ch}' is no piece")))?;
                        let sq = Square::new(file, rank).ok_or_else(|| {
                            ParseError::at(at, format!("rank {rank} has more than 9 files"))
                        })?;
                        place(&mut pos, &mut counts, piece, sq)
                            .map_err(|m| ParseError::at(at, m))?;
                        file += 1;
                    }
                }
                if file > FILES {
                    return Err(ParseError::at(
                        at,
                        format!("rank {rank} has more than 9 files"),
                    ));
                }
            }
            if file != FILES {
                return Err(ParseError::at(
                    column,
                    format!("rank {rank} has {file} files, not 9"),
                ));
            }
            column += rank_text.len() + 1;
        }
        for color in [Color::Red, Color::Black] {
            if counts[color.index()][0] == 0 {
                return Err(ParseError::new(format!("{color:?} has no general")));
            }
        }
        let mut rest = fields[1..].iter();
        match rest.next() {
            Some((_, "w" | "r" | "W" | "R")) => {}
            Some((_, "b" | "B")) => pos.side = Color::Black,
            Some(&(at, other)) => {
                return Err(ParseError::at(
                    at,
                    format!("side to move '{other}' is not 'w' (or 'r') or 'b'"),
                ));
            }
            None => return Err(ParseError::new("the FEN needs a side to move, 'w' or 'b'")),
        }
        for _ in 0..2 {
            match rest.next() {
                None | Some((_, "-")) => {}
                Some(&(at, other)) => {
                    return Err(ParseError::at(
                        at,
                        format!("'{other}' should be '-' (xiangqi has no castling or en passant)"),
                    ));
                }
            }
        }
        if let Some(&(at, clock)) = rest.next() {
            pos.halfmove = clock.parse().map_err(|_| {
                ParseError::at(at, format!("halfmove clock '{clock}' is no number"))
            })?;
        }
        if let Some(&(at, number)) = rest.next() {
            pos.fullmove = number.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                ParseError::at(at, format!("move number '{number}' is not 1 or more"))
            })?;
        }
        if pos.side == Color::Black {
            pos.hash ^= BLACK_TO_MOVE;
        }
        let them = pos.side.opponent();
        if attacked(&pos.board, pos.generals[them.index()] as usize, them) {
            return Err(ParseError::new(format!(
                "{them:?} is in check (or the generals face each other) with {:?} to move",
                pos.side
            )));
        }
        pos.in_check = attacked(
            &pos.board,
            pos.generals[pos.side.index()] as usize,
            pos.side,
        );
        Ok(pos)
    }

    /// The xiangqi FEN, all six fields.
    pub fn fen(&self) -> String {
        let mut text = String::with_capacity(64);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match decode(self.board[rank * FILES + file]) {
                    None => empty += 1,
                    Some((color, piece)) => {
                        if empty > 0 {
                            text.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let letter = Piece::LETTERS[piece.index()];
                        text.push(if color == Color::Red {
                            letter as char
                        } else {
                            letter.to_ascii_lowercase() as char
                        });
                    }
                }
            }
            if empty > 0 {
                text.push((b'0' + empty) as char);
            }
            if rank > 0 {
                text.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{text} {side} - - {} {}", self.halfmove, self.fullmove)
    }

    /// Reads a move in the UCI notation of Fairy-Stockfish and Pikafish
    /// (ranks 1–10: `h3e3`, `a10a9`) and checks that it is legal here.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no such move or the move is illegal.
    pub fn parse_uci(&self, text: &str) -> Result<Move, ParseError> {
        let mv = move_syntax(text, 1)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a UCI xiangqi move")))?;
        self.check_legal(mv, text)
    }

    pub(super) fn check_legal(&self, mv: Move, text: &str) -> Result<Move, ParseError> {
        let mut legal = MoveList::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new(format!(
                "{text} is not legal in this position"
            )))
        }
    }
}

/// Puts a piece read from a FEN on the board, checking that it may stand there.
fn place(
    pos: &mut Xiangqi,
    counts: &mut [[u32; 7]; 2],
    (color, piece): (Color, Piece),
    sq: Square,
) -> Result<(), String> {
    let s = sq.index();
    let red = color == Color::Red;
    let count = &mut counts[color.index()][piece.index()];
    *count += 1;
    if *count > Piece::START_COUNT[piece.index()] {
        return Err(format!(
            "{color:?} has more than {} {piece:?}s",
            Piece::START_COUNT[piece.index()]
        ));
    }
    let allowed = match piece {
        Piece::General | Piece::Advisor => in_palace(s, red),
        Piece::Elephant => red_half(s) == red,
        // Soldiers never step back: none stands behind its starting rank.
        Piece::Soldier => {
            if red {
                sq.rank() >= 3
            } else {
                sq.rank() <= 6
            }
        }
        _ => true,
    };
    if !allowed {
        return Err(format!("a {color:?} {piece:?} cannot stand on {sq}"));
    }
    let c = code(color, piece);
    pos.board[s] = c;
    pos.occupied[color.index()] |= 1 << s;
    pos.hash ^= ZOBRIST[c as usize][s];
    if piece == Piece::General {
        pos.generals[color.index()] = s as u8;
    }
    Ok(())
}

/// Two squares, file letter then rank number counted from `first_rank`
/// (0 for ICCS, 1 for UCI); ICCS's `H2-E2` form (capitals, a dash) is read too.
pub(super) fn move_syntax(text: &str, first_rank: usize) -> Option<Move> {
    let text = text.trim();
    if !text.is_ascii() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let mut rest = lower.as_str();
    let square = |rest: &mut &str| -> Option<Square> {
        let b = rest.as_bytes();
        let file = b
            .first()?
            .checked_sub(b'a')
            .filter(|&f| (f as usize) < FILES)? as usize;
        let digits = b[1..]
            .iter()
            .take(2)
            .take_while(|d| d.is_ascii_digit())
            .count();
        // Ranks 1–10 need up to two digits; ICCS's 0–9 one.
        let digits = if first_rank == 0 {
            digits.min(1)
        } else {
            digits
        };
        let rank: usize = rest.get(1..1 + digits)?.parse().ok()?;
        *rest = &rest[1 + digits..];
        let rank = rank.checked_sub(first_rank)?;
        Square::new(file, rank)
    };
    let from = square(&mut rest)?;
    if first_rank == 0 {
        rest = rest.strip_prefix('-').unwrap_or(rest);
    }
    let to = square(&mut rest)?;
    rest.is_empty().then_some(Move::new(from, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::{Move, Square};

    #[test]
    fn move_syntax_reads_both_rank_counts() {
        let sq = |f, r| Square::new(f, r).unwrap();
        assert_eq!(move_syntax("h2e2", 0), Some(Move::new(sq(7, 2), sq(4, 2))));
        assert_eq!(move_syntax("H2-E2", 0), Some(Move::new(sq(7, 2), sq(4, 2))));
        assert_eq!(move_syntax("a10a9", 1), Some(Move::new(sq(0, 9), sq(0, 8))));
        assert_eq!(move_syntax("a10a9", 0), None);
        assert_eq!(move_syntax("a0a11", 1), None);
        assert_eq!(Move::new(sq(0, 9), sq(0, 8)).uci(), "a10a9");
    }
}
