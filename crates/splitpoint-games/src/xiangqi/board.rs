//! The board's vocabulary: sides, pieces, the byte a square holds, squares
//! and moves.

use std::fmt;

use super::tables::{FILES, RANKS, SQUARES};

/// A side: Red moves first and starts on ranks 0–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The side that moves first (White in FEN).
    Red,
    /// The other side.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The general (king), confined to the palace.
    General,
    /// An advisor, one step diagonally inside the palace.
    Advisor,
    /// An elephant, two steps diagonally, never across the river.
    Elephant,
    /// A horse: one step straight then one diagonally, blocked at the leg.
    Horse,
    /// A rook (chariot).
    Rook,
    /// A cannon: moves like a rook, captures by jumping exactly one piece.
    Cannon,
    /// A soldier: forward one step, also sideways once across the river.
    Soldier,
}

impl Piece {
    /// Every kind, in index order.
    pub const ALL: [Piece; 7] = [
        Piece::General,
        Piece::Advisor,
        Piece::Elephant,
        Piece::Horse,
        Piece::Rook,
        Piece::Cannon,
        Piece::Soldier,
    ];

    /// How many of this piece each side starts with (and may have).
    pub(super) const START_COUNT: [u32; 7] = [1, 2, 2, 2, 2, 2, 5];

    /// Red's FEN letter.
    pub(super) const LETTERS: [u8; 7] = *b"KABNRCP";

    /// The index 0–6, as in [`Piece::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub(super) fn from_letter(letter: u8) -> Option<(Color, Piece)> {
        let color = if letter.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let piece = match letter.to_ascii_uppercase() {
            b'K' => Piece::General,
            b'A' => Piece::Advisor,
            b'B' | b'E' => Piece::Elephant,
            b'N' | b'H' => Piece::Horse,
            b'R' => Piece::Rook,
            b'C' => Piece::Cannon,
            b'P' => Piece::Soldier,
            _ => return None,
        };
        Some((color, piece))
    }
}

/// The byte a board square holds: 0 for empty, else `1 + piece`, plus
/// [`BLACK`] for Black's pieces (so codes are 1–7 and 9–15).
pub(super) type Code = u8;
pub(super) const EMPTY: Code = 0;
pub(super) const BLACK: Code = 8;

#[inline]
pub(super) const fn code(color: Color, piece: Piece) -> Code {
    1 + piece as u8
        + if matches!(color, Color::Black) {
            BLACK
        } else {
            0
        }
}

#[inline]
pub(super) fn decode(c: Code) -> Option<(Color, Piece)> {
    if c == EMPTY {
        return None;
    }
    let color = if c & BLACK != 0 {
        Color::Black
    } else {
        Color::Red
    };
    Some((color, Piece::ALL[((c & 7) - 1) as usize]))
}

/// A point of the board, `rank * 9 + file`: a0 = 0 (Red's left corner), i9 = 89.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(super) u8);

impl Square {
    /// The square on `file` (0–8, a–i) and `rank` (0–9, from Red's side).
    pub fn new(file: usize, rank: usize) -> Option<Square> {
        (file < FILES && rank < RANKS).then_some(Square((rank * FILES + file) as u8))
    }

    /// The square with index `index` (0–89).
    pub fn from_index(index: usize) -> Option<Square> {
        (index < SQUARES).then_some(Square(index as u8))
    }

    /// The index, 0–89.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0–8 (a–i).
    #[inline]
    pub fn file(self) -> usize {
        self.index() % FILES
    }

    /// The rank, 0–9 from Red's side.
    #[inline]
    pub fn rank(self) -> usize {
        self.index() / FILES
    }
}

impl fmt::Display for Square {
    /// ICCS: `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move: from one square to another (two bytes). Its text is ICCS
/// (`h2e2`), see [`Xiangqi::parse_move`](splitpoint::Game::parse_move).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(super) from: Square,
    pub(super) to: Square,
}

impl Move {
    /// The move from `from` to `to` (legal or not).
    pub fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Where the piece starts.
    #[inline]
    pub fn from(self) -> Square {
        self.from
    }

    /// Where it lands.
    #[inline]
    pub fn to(self) -> Square {
        self.to
    }

    /// The move in the UCI notation of Fairy-Stockfish and Pikafish: ranks
    /// counted 1–10 (`h3e3`, `a10a9`) where ICCS counts 0–9.
    pub fn uci(self) -> String {
        let square = |s: Square| format!("{}{}", (b'a' + s.file() as u8) as char, s.rank() + 1);
        format!("{}{}", square(self.from), square(self.to))
    }
}

impl fmt::Display for Move {
    /// ICCS: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
