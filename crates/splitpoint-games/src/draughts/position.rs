//! The rules: pieces on bitboards, move generation with the maximum-capture
//! rule, play, and the ends of the game.

use std::fmt;

use splitpoint::{Game, MoveList, Outcome, ParseError};

use super::board::{Bits, DIRS, Dir, PIECE_KEYS, SIDE_KEY, SQUARES, bit_of, row, square_of, step};
use super::notation;
use crate::repetition::{History, byte_lines};

/// How many earlier positions a [`Draughts`] value remembers for repetitions.
///
/// Positions are copied at every move, so the history is a small array: 20
/// hashes beside about 40 bytes of board. Only king moves without capture
/// keep earlier positions reachable, and repetitions further back than this
/// are not seen.
pub const HISTORY_LEN: usize = 20;

/// The PDN FEN of the start position.
pub const START_FEN: &str = "W:W31-50:B1-20";

/// Plies of king moves without a capture or man move that draw the game: 25
/// moves by each side (FMJD article 6.2).
pub const KING_MOVES_DRAW: u8 = 50;

/// Plies that draw three pieces, one of them a king, against a lone king:
/// 16 moves by each side (FMJD article 6.3).
pub const THREE_VS_KING_DRAW: u8 = 32;

/// Plies that draw one or two pieces, one of them a king, against a lone king:
/// 5 moves by each side (FMJD article 6.4).
pub const TWO_VS_KING_DRAW: u8 = 10;

/// A move: where the piece starts and stops, and the pieces it captures.
///
/// Two capture routes that take the same pieces and end on the same square
/// are one move, which is what this form records: the route itself is
/// recovered only to write the move down. Squares are bit indices (see
/// [`Move::from_square`] for PDN numbers).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) captured: u64,
}

impl Move {
    /// The PDN square (1..=50) the piece leaves.
    pub fn from_square(self) -> u32 {
        square_of(self.from as u32)
    }

    /// The PDN square (1..=50) the piece stops on.
    pub fn to_square(self) -> u32 {
        square_of(self.to as u32)
    }

    /// The PDN squares of the captured pieces, in increasing order.
    pub fn captured_squares(self) -> impl Iterator<Item = u32> {
        Bits(self.captured).map(square_of)
    }

    /// How many pieces the move captures.
    pub fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    /// Whether the move captures.
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from_square())?;
        if self.captured == 0 {
            return write!(f, "-{}", self.to_square());
        }
        write!(f, "x{}", self.to_square())?;
        for c in self.captured_squares() {
            write!(f, "x{c}")?;
        }
        Ok(())
    }
}

/// Which of the FMJD's lone-king endings a position is in (article 6.3, 6.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ending {
    None,
    /// Three pieces with a king against a lone king.
    ThreeVsKing,
    /// One or two pieces with a king against a lone king.
    TwoVsKing,
}

/// A draughts position: the pieces, the side to move, and what the draw
/// rules need of the game so far.
///
/// Game over, from [`Game::outcome`], in this order:
/// - **no move** (no pieces left, or every piece blocked): a loss for the
///   side to move;
/// - **repetition**: a draw when the position (pieces and side to move)
///   repeats one reached **after the search root**, or repeats **two**
///   positions of the game before it (threefold repetition counting game
///   history). [`Draughts::make_root`] marks where the game ends and the
///   search begins; only the last [`HISTORY_LEN`] plies since the last man
///   move or capture are remembered, compared by hash;
/// - **25 king moves** each ([`KING_MOVES_DRAW`] plies) with no man move and
///   no capture;
/// - **lone-king endings**: three pieces, at least one a king, against a lone
///   king are drawn after 16 moves each ([`THREE_VS_KING_DRAW`] plies); one
///   or two pieces with a king against a lone king (king against king
///   included) after 5 moves each ([`TWO_VS_KING_DRAW`]). The count starts
///   when the position enters the ending (a capture or a promotion that
///   changes the material), whatever moves follow.
///
/// Positions read from text start with every counter at 0 and no history.
/// [`Game::generate_moves`] lists the legal moves even when a draw rule has
/// ended the game: the search asks `outcome` first, and perft counts ignore
/// draws.
#[derive(Clone, PartialEq, Eq)]
pub struct Draughts {
    white: u64,
    black: u64,
    kings: u64,
    white_to_move: bool,
    hash: u64,
    /// Plies of king moves since the last man move or capture.
    king_plies: u8,
    /// Plies since the position entered its lone-king ending.
    ending_plies: u8,
    /// The positions before this one, for repetitions.
    history: History<HISTORY_LEN>,
}

/// The rules' view of one side: its pieces and the other side's.
pub(super) struct Sides {
    pub(super) us: u64,
    pub(super) them: u64,
    pub(super) kings: u64,
    /// Our men's forward directions.
    pub(super) forward: [Dir; 2],
    /// The row where our men promote.
    pub(super) promotion: u64,
}

impl Draughts {
    /// The start position: White's men on 31-50, Black's on 1-20, White to move.
    pub fn start() -> Self {
        let white = (31..=50).fold(0, |b, n| b | 1 << bit_of(n));
        let black = (1..=20).fold(0, |b, n| b | 1 << bit_of(n));
        Draughts::from_pieces(white, black, 0, true)
    }

    /// A position from its pieces as bitboards (see [`super::board`]), with
    /// no history. The caller keeps the colours disjoint and `kings` a subset.
    pub(crate) fn from_pieces(white: u64, black: u64, kings: u64, white_to_move: bool) -> Self {
        let mut pos = Draughts {
            white,
            black,
            kings,
            white_to_move,
            hash: 0,
            king_plies: 0,
            ending_plies: 0,
            history: History::EMPTY,
        };
        pos.hash = pos.full_hash();
        pos
    }

    /// The hash computed from scratch.
    fn full_hash(&self) -> u64 {
        let mut hash = if self.white_to_move { 0 } else { SIDE_KEY };
        for (kind, pieces) in self.piece_kinds().into_iter().enumerate() {
            for bit in Bits(pieces) {
                hash ^= PIECE_KEYS[kind][bit as usize];
            }
        }
        hash
    }

    /// White men, black men, white kings, black kings: the Zobrist kinds.
    #[inline]
    fn piece_kinds(&self) -> [u64; 4] {
        [
            self.white & !self.kings,
            self.black & !self.kings,
            self.white & self.kings,
            self.black & self.kings,
        ]
    }

    /// White's pieces as a bitboard: PDN square `n` is bit `s + s / 10`
    /// with `s = n - 1` (every pair of rows leaves one unused bit, so that
    /// each diagonal step is one shift).
    pub fn white(&self) -> u64 {
        self.white
    }

    /// Black's pieces as a bitboard.
    pub fn black(&self) -> u64 {
        self.black
    }

    /// Both sides' kings as a bitboard.
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        self.white_to_move
    }

    /// Plies of king moves since the last man move or capture (the 25-move rule).
    pub fn king_plies(&self) -> u32 {
        self.king_plies as u32
    }

    /// Plies played in the current lone-king ending (0 outside one).
    pub fn ending_plies(&self) -> u32 {
        self.ending_plies as u32
    }

    /// How many earlier positions are remembered (at most [`HISTORY_LEN`]).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Marks every remembered position as game history, making this position
    /// the search root: call it after playing a game's moves, so that one
    /// earlier occurrence of a position is not yet a draw but two are.
    pub fn make_root(&mut self) {
        self.history.make_root();
    }

    /// This position with no history and no draw counters: a root the search
    /// can still play from when the game is already drawn but a move is asked
    /// for anyway.
    pub fn without_history(&self) -> Self {
        Draughts::from_pieces(self.white, self.black, self.kings, self.white_to_move)
    }

    #[inline]
    pub(super) fn sides(&self) -> Sides {
        if self.white_to_move {
            Sides {
                us: self.white,
                them: self.black,
                kings: self.kings,
                forward: [0, 1],
                promotion: row(0),
            }
        } else {
            Sides {
                us: self.black,
                them: self.white,
                kings: self.kings,
                forward: [2, 3],
                promotion: row(9),
            }
        }
    }

    /// The empty squares.
    #[inline]
    pub(crate) fn empty(&self) -> u64 {
        SQUARES & !(self.white | self.black)
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self) -> bool {
        let s = self.sides();
        let empty = self.empty();
        for d in DIRS {
            // A man or king next to an enemy piece with an empty square behind.
            if step(step(s.us, d) & s.them, d) & empty != 0 {
                return true;
            }
            // A king further away, over empty squares.
            let mut ray = step(s.us & s.kings, d) & empty;
            while ray != 0 {
                if step(step(ray, d) & s.them, d) & empty != 0 {
                    return true;
                }
                ray = step(ray, d) & empty;
            }
        }
        false
    }

    /// Whether the side to move has any legal move.
    pub fn has_move(&self) -> bool {
        let s = self.sides();
        let empty = self.empty();
        let men = s.us & !s.kings;
        let quiet = (step(men, s.forward[0]) | step(men, s.forward[1])) & empty != 0
            || DIRS.iter().any(|&d| step(s.us & s.kings, d) & empty != 0);
        // Any capture starts next to its victim or slides over an empty
        // square first, so with no quiet move only adjacent jumps remain.
        quiet
            || DIRS
                .iter()
                .any(|&d| step(step(s.us, d) & s.them, d) & empty != 0)
    }

    /// Whether this position ends the game by repetition (see [`Draughts`]).
    pub fn is_repetition(&self) -> bool {
        self.history.repeat_distance(self.hash).is_some()
    }

    /// Whether a draw rule other than repetition has ended the game.
    fn is_counter_draw(&self) -> bool {
        if self.king_plies >= KING_MOVES_DRAW {
            return true;
        }
        match self.ending() {
            Ending::None => false,
            Ending::ThreeVsKing => self.ending_plies >= THREE_VS_KING_DRAW,
            Ending::TwoVsKing => self.ending_plies >= TWO_VS_KING_DRAW,
        }
    }

    /// The lone-king ending the material is in.
    fn ending(&self) -> Ending {
        let lone_king = |side: u64| side.count_ones() == 1 && side & self.kings != 0;
        let against = |side: u64| match side.count_ones() {
            _ if side & self.kings == 0 => Ending::None,
            1 | 2 => Ending::TwoVsKing,
            3 => Ending::ThreeVsKing,
            _ => Ending::None,
        };
        if lone_king(self.black) {
            against(self.white)
        } else if lone_king(self.white) {
            against(self.black)
        } else {
            Ending::None
        }
    }

    /// Appends the men's steps onto the last row (the caller has checked
    /// that there is no capture, which would be compulsory).
    pub(crate) fn promotions(&self, moves: &mut MoveList<Move>) {
        let s = self.sides();
        let empty = self.empty();
        let men = s.us & !s.kings;
        for d in s.forward {
            for to in Bits(step(men, d) & empty & s.promotion) {
                let from = step(1 << to, 3 - d).trailing_zeros();
                let _ = moves.try_push(Move {
                    from: from as u8,
                    to: to as u8,
                    captured: 0,
                });
            }
        }
    }
}

impl Default for Draughts {
    fn default() -> Self {
        Draughts::start()
    }
}

impl fmt::Debug for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Draughts({}, history {}, king plies {}, ending plies {})",
            notation::fen(self),
            self.history.len(),
            self.king_plies,
            self.ending_plies
        )
    }
}

impl fmt::Display for Draughts {
    /// The PDN FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&notation::fen(self))
    }
}

impl Game for Draughts {
    type Move = Move;
    type Moves = MoveList<Move>;

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        // The bitboard test is much cheaper than the capture search, and most
        // positions have no capture.
        if self.has_capture() {
            self.generate_captures(moves);
            return;
        }
        let s = self.sides();
        let empty = self.empty();
        for from in Bits(s.us) {
            let b = 1u64 << from;
            let mut push = |to: u64| {
                let _ = moves.try_push(Move {
                    from: from as u8,
                    to: to.trailing_zeros() as u8,
                    captured: 0,
                });
            };
            if s.kings & b == 0 {
                for d in s.forward {
                    let to = step(b, d) & empty;
                    if to != 0 {
                        push(to);
                    }
                }
            } else {
                for d in DIRS {
                    let mut to = step(b, d) & empty;
                    while to != 0 {
                        push(to);
                        to = step(to, d) & empty;
                    }
                }
            }
        }
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let s = self.sides();
        let (from, to) = (1u64 << mv.from, 1u64 << mv.to);
        if s.us & from == 0 || mv.captured & !s.them != 0 {
            // The contract asks only for a memory-safe position.
            debug_assert!(false, "illegal move {mv:?} in {self:?}");
            return next;
        }
        debug_assert!(
            self.legal_moves().contains(&mv),
            "illegal move {mv:?} in {self:?}"
        );
        let king = s.kings & from != 0;
        let (ours, theirs) = if self.white_to_move {
            (&mut next.white, &mut next.black)
        } else {
            (&mut next.black, &mut next.white)
        };
        *ours = *ours & !from | to;
        *theirs &= !mv.captured;
        next.kings &= !mv.captured & !from;
        // Only a man that ends its move on the last row is crowned.
        if king || to & s.promotion != 0 {
            next.kings |= to;
        }
        next.white_to_move = !self.white_to_move;
        let side = if self.white_to_move { 0 } else { 1 };
        let kind = |king: bool| side + if king { 2 } else { 0 };
        next.hash ^= SIDE_KEY
            ^ PIECE_KEYS[kind(king)][mv.from as usize]
            ^ PIECE_KEYS[kind(next.kings & to != 0)][mv.to as usize];
        for c in Bits(mv.captured) {
            let their_kind = (1 - side) + if self.kings & 1 << c != 0 { 2 } else { 0 };
            next.hash ^= PIECE_KEYS[their_kind][c as usize];
        }
        debug_assert_eq!(next.hash, next.full_hash());

        if mv.captured != 0 || !king {
            // Irreversible: no earlier position can come back.
            next.history.clear();
            next.king_plies = 0;
        } else {
            let _ = next.history.remember(self.hash);
            next.king_plies = self.king_plies.saturating_add(1);
        }
        let ending = next.ending();
        next.ending_plies = if ending != Ending::None && ending == self.ending() {
            self.ending_plies.saturating_add(1)
        } else {
            0
        };
        next
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_move() {
            return Some(Outcome::Loss);
        }
        (self.is_repetition() || self.is_counter_draw()).then_some(Outcome::Draw)
    }

    /// `from | to << 6 | captured-set digest << 12`.
    #[inline]
    fn move_key(mv: Move) -> u16 {
        let digest = (mv.captured.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60) as u16;
        mv.from as u16 | (mv.to as u16) << 6 | digest << 12
    }

    /// A PDN FEN (`W:W31-50:B1-20`, kings as `K`), the Hub form (`W` or `B`
    /// and 50 of `wbWBe`), or `start` / `startpos`.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        notation::parse_position(text)
    }

    /// The PDN FEN, runs of consecutive squares as ranges.
    fn position_text(&self) -> String {
        notation::fen(self)
    }

    /// The FEN, then the draw counters and the history on lines of their own.
    fn to_bytes(&self, out: &mut Vec<u8>) {
        let text = format!(
            "{}\n{} {}\n{}",
            notation::fen(self),
            self.king_plies,
            self.ending_plies,
            self.history.to_text()
        );
        out.extend_from_slice(text.as_bytes());
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, ParseError> {
        let [fen, counters, history] = byte_lines(bytes)?;
        let mut pos = notation::parse_position(fen)?;
        let bad = || ParseError::new(format!("bad draw counters '{counters}'"));
        let (kings, ending) = counters.split_once(' ').ok_or_else(bad)?;
        pos.king_plies = kings.parse().map_err(|_| bad())?;
        pos.ending_plies = ending.parse().map_err(|_| bad())?;
        pos.history = History::from_text(history)?;
        Ok(pos)
    }

    /// PDN (`32-28`, `19x30`, or the full route `37x28x19` when two captures
    /// share their first and last squares), or Hub's form (`28x19x23`: from,
    /// to, then the captured pieces).
    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, text)
    }

    /// PDN: the short form unless it is ambiguous, then the full route.
    fn move_text(&self, mv: Move) -> String {
        notation::move_text(self, mv)
    }
}

/// Draughts perft: the number of positions exactly `depth` plies below `pos`,
/// each capture counted once however many routes reach it (the published
/// tables' convention); a position with no move before the last ply adds
/// nothing. Draw rules are ignored.
///
/// ```
/// use splitpoint_games::draughts::{Draughts, perft};
///
/// assert_eq!(perft(&Draughts::start(), 3), 658);
/// ```
pub fn perft(pos: &Draughts, depth: u32) -> u64 {
    splitpoint::perft_exact_depth(pos, depth)
}
