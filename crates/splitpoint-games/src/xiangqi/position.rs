//! The rules: a 90-square mailbox with a bitset of each side's pieces, the
//! Zobrist hash, and the few earlier positions repetition needs.

use std::fmt;

use splitpoint::{Game, MoveList, Outcome, ParseError};

use super::tables::{
    ADVISOR, BLACK_TO_MOVE, ELEPHANT, FILES, GENERAL, HORSE, HORSE_ATTACKERS, RANKS, RAY_LEN, RAYS,
    SQUARES, ZOBRIST, in_palace, red_half,
};
use crate::repetition::repeat_distance;

/// How many earlier positions a [`Xiangqi`] value remembers for repetitions.
///
/// Positions are copied at every move, so the history is a small array (24
/// hashes, 192 bytes) rather than a growing list; repetitions further back
/// are not seen.
pub const HISTORY_LEN: usize = 24;

/// The xiangqi FEN of the start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

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
    const START_COUNT: [u32; 7] = [1, 2, 2, 2, 2, 2, 5];

    /// Red's FEN letter.
    const LETTERS: [u8; 7] = *b"KABNRCP";

    /// The index 0–6, as in [`Piece::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    fn from_letter(letter: u8) -> Option<(Color, Piece)> {
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
type Code = u8;
const EMPTY: Code = 0;
const BLACK: Code = 8;

#[inline]
const fn code(color: Color, piece: Piece) -> Code {
    1 + piece as u8
        + if matches!(color, Color::Black) {
            BLACK
        } else {
            0
        }
}

#[inline]
fn decode(c: Code) -> Option<(Color, Piece)> {
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
pub struct Square(u8);

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
/// (`h2e2`), see [`Xiangqi::parse_move`](Game::parse_move).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
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

/// A xiangqi position: the board, the side to move, the hash, the move
/// counters, and the hashes of the positions before it since the last
/// irreversible move (a capture or a soldier's step forward).
///
/// Game over, from [`Game::outcome`]:
/// - a side with no legal move loses, in check (checkmate) or not
///   (stalemate);
/// - repetition, seen when the position repeats one reached **after the
///   search root** (twofold within the search line, the root included), or
///   repeats **two** positions of the game before the root (threefold
///   counting game history); [`Xiangqi::make_root`] marks where the game
///   history ends. The cycle from the earlier occurrence to now (for a
///   threefold repetition, from the earlier of the two) decides:
///   if every move of one side in the cycle gave check and not every move of
///   the other did, the checking side loses (perpetual check); otherwise
///   (neither or both always checking) it is a draw. Only the last
///   [`HISTORY_LEN`] plies are remembered, and positions are compared by hash.
///
/// Perpetual chasing (of pieces other than the general) is not a rule here,
/// and there is no move-count draw; the halfmove clock is kept for the FEN only.
///
/// [`Game::generate_moves`] lists the board's legal moves even when a
/// repetition has ended the game: the search asks `outcome` first, and perft
/// counts then match the standard tables.
#[derive(Clone, PartialEq, Eq)]
pub struct Xiangqi {
    board: [Code; SQUARES],
    /// Bit `sq` is set where Red's (index 0) or Black's (1) pieces stand.
    occupied: [u128; 2],
    generals: [u8; 2],
    side: Color,
    /// Whether the side to move is in check.
    in_check: bool,
    hash: u64,
    /// Plies since the last capture.
    halfmove: u16,
    fullmove: u16,
    /// Hashes of earlier positions, oldest first; `history[..len]` are valid.
    history: [u64; HISTORY_LEN],
    /// Bit `i`: the side to move was in check in `history[i]`.
    checks: u32,
    len: u8,
    /// `history[..game_len]` come from the game before the search root.
    game_len: u8,
}

// The check bits must cover the history.
const _: () = assert!(HISTORY_LEN <= 32);

impl Xiangqi {
    /// The start position.
    pub fn start() -> Self {
        match Xiangqi::parse_fen(START_FEN) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<(Color, Piece)> {
        decode(self.board[sq.index()])
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        Square(self.generals[color.index()])
    }

    /// The squares of `color`'s pieces, bit `sq.index()` for each.
    #[inline]
    pub fn occupied(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// The piece `mv` captures, if any.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        decode(self.board[mv.to.index()]).map(|(_, piece)| piece)
    }

    /// Marks every remembered position as game history, making this position
    /// the search root: call it after playing a game's moves (as the protocols'
    /// `position … moves …` do), so that one earlier occurrence of a position is
    /// not yet a repetition but two are.
    pub fn make_root(&mut self) {
        self.game_len = self.len;
    }

    /// How many earlier positions are remembered (at most [`HISTORY_LEN`]).
    pub fn history_len(&self) -> usize {
        self.len as usize
    }

    /// How the game ends by repetition here, if it does (see [`Xiangqi`]),
    /// from the side to move's view.
    pub fn repetition(&self) -> Option<Outcome> {
        let history = &self.history[..self.len as usize];
        repeat_distance(history, self.hash, self.game_len as usize)
            .map(|distance| self.cycle_outcome(distance))
    }

    /// The result of a repetition `distance` plies long. The positions at odd
    /// distances (the opponent to move) were checked by our moves, those at
    /// even distances (this one included) by theirs.
    fn cycle_outcome(&self, distance: usize) -> Outcome {
        let len = self.len as usize;
        let checked = |d: usize| {
            if d == 0 {
                self.in_check
            } else {
                self.checks >> (len - d) & 1 != 0
            }
        };
        let we_always_check = (1..distance).step_by(2).all(checked);
        let they_always_check = (0..distance).step_by(2).all(checked);
        match (we_always_check, they_always_check) {
            (true, false) => Outcome::Loss,
            (false, true) => Outcome::Win,
            _ => Outcome::Draw,
        }
    }

    /// Remembers the parent position (its hash, and whether its side to move
    /// was in check), forgetting the oldest when the history is full.
    #[inline]
    fn remember(&mut self, hash: u64, in_check: bool) {
        if self.len as usize == HISTORY_LEN {
            self.history.copy_within(1.., 0);
            self.checks >>= 1;
            self.len -= 1;
            self.game_len = self.game_len.saturating_sub(1);
        }
        self.history[self.len as usize] = hash;
        self.checks |= u32::from(in_check) << self.len;
        self.len += 1;
    }

    /// The position after the side to move passes (a null move, for the
    /// search's null-move pruning); `None` in check. Repetitions are not
    /// looked for across a pass: the history starts afresh.
    pub fn null_move(&self) -> Option<Xiangqi> {
        if self.in_check {
            return None;
        }
        let mut next = self.clone();
        next.side = self.side.opponent();
        next.hash ^= BLACK_TO_MOVE;
        // The side that passed was not in check, and the other side's general
        // is safe in any legal position: nobody is in check.
        next.in_check = false;
        next.len = 0;
        next.game_len = 0;
        next.checks = 0;
        Some(next)
    }

    /// Whether any legal move exists.
    pub fn has_legal_move(&self) -> bool {
        let mut board = self.board;
        self.pseudo_moves(false, |mv| self.is_legal_on(&mut board, mv))
    }

    /// Appends the legal captures to `moves`.
    pub fn generate_captures(&self, moves: &mut MoveList<Move>) {
        self.generate(true, moves);
    }

    fn generate(&self, captures_only: bool, moves: &mut MoveList<Move>) {
        let mut board = self.board;
        self.pseudo_moves(captures_only, |mv| {
            if self.is_legal_on(&mut board, mv) {
                // At most about 120 legal moves with the material a FEN may
                // hold: this never fails.
                let _ = moves.try_push(mv);
            }
            false
        });
    }

    /// Calls `visit` with every pseudo-legal move (every capture, with
    /// `captures_only`) until it returns `true`; returns whether it did.
    #[inline(always)]
    fn pseudo_moves(&self, captures_only: bool, mut visit: impl FnMut(Move) -> bool) -> bool {
        let board = &self.board;
        let us = self.side;
        let our_bit = if us == Color::Red { 0 } else { BLACK };
        // Whether a move to `to` may be made, and is wanted.
        let wanted = |to: u8| {
            let c = board[to as usize];
            if c == EMPTY {
                !captures_only
            } else {
                c & BLACK != our_bit
            }
        };
        macro_rules! emit {
            ($from:expr, $to:expr) => {
                if visit(Move::new(Square($from), Square($to))) {
                    return true;
                }
            };
        }
        // The moves of a piece with a fixed pattern, where a piece on
        // the step's block square stops it when the pattern is `blockable`
        // (a horse's leg, an elephant's eye).
        macro_rules! steps {
            ($from:expr, $steps:expr, $blockable:expr) => {
                for step in $steps.as_slice() {
                    if (!$blockable || board[step.block as usize] == EMPTY) && wanted(step.sq) {
                        emit!($from, step.sq);
                    }
                }
            };
        }
        let mut pieces = self.occupied[us.index()];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let f = from as usize;
            match Piece::ALL[((board[f] & 7) - 1) as usize] {
                Piece::General => steps!(from, GENERAL[f], false),
                Piece::Advisor => steps!(from, ADVISOR[f], false),
                Piece::Elephant => steps!(from, ELEPHANT[f], true),
                Piece::Horse => steps!(from, HORSE[f], true),
                Piece::Rook => {
                    for dir in 0..4 {
                        for &to in &RAYS[f][dir][..RAY_LEN[f][dir] as usize] {
                            let c = board[to as usize];
                            if c == EMPTY {
                                if !captures_only {
                                    emit!(from, to);
                                }
                            } else {
                                if c & BLACK != our_bit {
                                    emit!(from, to);
                                }
                                break;
                            }
                        }
                    }
                }
                Piece::Cannon => {
                    for dir in 0..4 {
                        let mut screened = false;
                        for &to in &RAYS[f][dir][..RAY_LEN[f][dir] as usize] {
                            let c = board[to as usize];
                            if !screened {
                                if c == EMPTY {
                                    if !captures_only {
                                        emit!(from, to);
                                    }
                                } else {
                                    screened = true;
                                }
                            } else if c != EMPTY {
                                if c & BLACK != our_bit {
                                    emit!(from, to);
                                }
                                break;
                            }
                        }
                    }
                }
                Piece::Soldier => {
                    let (rank, file) = (f / FILES, f % FILES);
                    let (ahead, crossed) = match us {
                        Color::Red => ((rank + 1 < RANKS).then(|| from + FILES as u8), rank >= 5),
                        Color::Black => ((rank > 0).then(|| from - FILES as u8), rank <= 4),
                    };
                    if let Some(to) = ahead {
                        if wanted(to) {
                            emit!(from, to);
                        }
                    }
                    if crossed {
                        if file > 0 && wanted(from - 1) {
                            emit!(from, from - 1);
                        }
                        if file + 1 < FILES && wanted(from + 1) {
                            emit!(from, from + 1);
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the pseudo-legal `mv` leaves our general safe (and not facing
    /// the other). `board` is a copy of ours to make the move on, restored after.
    #[inline]
    fn is_legal_on(&self, board: &mut [Code; SQUARES], mv: Move) -> bool {
        let (from, to) = (mv.from.index(), mv.to.index());
        let us = self.side;
        let general = self.generals[us.index()] as usize;
        let moving = board[from];
        if !self.in_check && from != general {
            // Out of check, only a move that uncovers a line to our general
            // (off its rank or file, or a horse's leg beside it diagonally)
            // or screens one for a cannon (onto its rank or file) can be illegal.
            let lines = |sq: usize| sq % FILES == general % FILES || sq / FILES == general / FILES;
            let leg = (from % FILES).abs_diff(general % FILES) == 1
                && (from / FILES).abs_diff(general / FILES) == 1;
            if !lines(from) && !lines(to) && !leg {
                return true;
            }
        }
        let captured = board[to];
        board[to] = moving;
        board[from] = EMPTY;
        let general = if from == general { to } else { general };
        let safe = !attacked(board, general, us);
        board[from] = moving;
        board[to] = captured;
        safe
    }

    /// Reads a xiangqi FEN: board, side (`w` or `r` for Red, `b` for Black),
    /// and optionally `- -`, the halfmove clock and the move number.
    fn parse_fen(text: &str) -> Result<Self, ParseError> {
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
            history: [0; HISTORY_LEN],
            checks: 0,
            len: 0,
            game_len: 0,
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

    fn check_legal(&self, mv: Move, text: &str) -> Result<Move, ParseError> {
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

/// Whether `us`'s general on `general` is attacked on `board`: by a rook or
/// the other general along a line (the generals may not face each other), a
/// cannon over one screen, a horse whose leg is free, or a soldier beside or
/// in front of it. Elephants and advisors never leave their half, so they
/// never attack a general.
#[inline]
fn attacked(board: &[Code; SQUARES], general: usize, us: Color) -> bool {
    let them = if us == Color::Red { BLACK } else { 0 };
    let their = |piece: Piece| 1 + piece as u8 + them;
    for dir in 0..4 {
        let mut ray = RAYS[general][dir][..RAY_LEN[general][dir] as usize].iter();
        let Some(first) = ray
            .by_ref()
            .map(|&s| board[s as usize])
            .find(|&c| c != EMPTY)
        else {
            continue;
        };
        if first == their(Piece::Rook) || (dir < 2 && first == their(Piece::General)) {
            return true;
        }
        if ray.map(|&s| board[s as usize]).find(|&c| c != EMPTY) == Some(their(Piece::Cannon)) {
            return true;
        }
    }
    let horse = their(Piece::Horse);
    if HORSE_ATTACKERS[general]
        .as_slice()
        .iter()
        .any(|s| board[s.sq as usize] == horse && board[s.block as usize] == EMPTY)
    {
        return true;
    }
    // The general stands in its palace, so both neighbours on its rank and the
    // square towards the enemy are on the board; an enemy soldier there has
    // crossed the river.
    let soldier = their(Piece::Soldier);
    let ahead = if us == Color::Red {
        general + FILES
    } else {
        general - FILES
    };
    board[ahead] == soldier || board[general - 1] == soldier || board[general + 1] == soldier
}

/// Two squares, file letter then rank number counted from `first_rank`
/// (0 for ICCS, 1 for UCI); ICCS's `H2-E2` form (capitals, a dash) is read too.
fn move_syntax(text: &str, first_rank: usize) -> Option<Move> {
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

impl Default for Xiangqi {
    fn default() -> Self {
        Xiangqi::start()
    }
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xiangqi({}, history {})", self.fen(), self.len)
    }
}

impl fmt::Display for Xiangqi {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl Game for Xiangqi {
    type Move = Move;

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.generate(false, moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let (from, to) = (mv.from.index(), mv.to.index());
        let moving = self.board[from];
        let us = self.side;
        if moving == EMPTY || moving & BLACK != if us == Color::Red { 0 } else { BLACK } {
            // Not our piece: the contract asks only for a memory-safe result.
            debug_assert!(false, "illegal move {mv} in {self:?}");
            return self.clone();
        }
        let mut next = self.clone();
        let captured = self.board[to];
        next.board[to] = moving;
        next.board[from] = EMPTY;
        let (ours, theirs) = (us.index(), us.opponent().index());
        next.occupied[ours] ^= 1 << from | 1 << to;
        next.hash ^= ZOBRIST[moving as usize][from] ^ ZOBRIST[moving as usize][to] ^ BLACK_TO_MOVE;
        if captured != EMPTY {
            next.occupied[theirs] &= !(1 << to);
            next.hash ^= ZOBRIST[captured as usize][to];
        }
        if from == self.generals[ours] as usize {
            next.generals[ours] = to as u8;
        }
        next.side = us.opponent();
        if us == Color::Black {
            next.fullmove = next.fullmove.saturating_add(1);
        }
        let them = next.side;
        next.in_check = attacked(&next.board, next.generals[them.index()] as usize, them);
        let soldier_advances = moving & 7 == 7 && from % FILES == to % FILES;
        if captured != EMPTY {
            next.halfmove = 0;
        } else {
            next.halfmove = next.halfmove.saturating_add(1);
        }
        if captured != EMPTY || soldier_advances {
            // Irreversible: no earlier position can come back.
            next.len = 0;
            next.game_len = 0;
            next.checks = 0;
        } else {
            next.remember(self.hash, self.in_check);
        }
        debug_assert!(
            !attacked(&next.board, next.generals[ours] as usize, us),
            "illegal move {mv} in {self:?}"
        );
        next
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.repetition() {
            return Some(outcome);
        }
        (!self.has_legal_move()).then_some(Outcome::Loss)
    }

    /// `from | to << 7`.
    #[inline]
    fn move_key(mv: Move) -> u16 {
        mv.from.0 as u16 | (mv.to.0 as u16) << 7
    }

    /// A xiangqi FEN (`rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w`,
    /// optionally followed by `- - 0 1`), or `startpos` / `start`. Letters:
    /// K general, A advisor, B (or E) elephant, N (or H) horse, R rook,
    /// C cannon, P soldier; capitals are Red. Every piece must stand where
    /// the rules let it (generals and advisors in their palace, elephants on
    /// their side, soldiers not behind their start), each side has at most the
    /// pieces it starts with, and the side not to move is not in check.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        if matches!(text.trim(), "startpos" | "start") {
            return Ok(Xiangqi::start());
        }
        Xiangqi::parse_fen(text)
    }

    fn position_text(&self) -> String {
        self.fen()
    }

    /// ICCS coordinates: file a–i then rank 0–9 from Red's side, twice
    /// (`h2e2`; `H2-E2` is read too).
    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let mv = move_syntax(text, 0).ok_or_else(|| {
            ParseError::new(format!(
                "'{}' is not an ICCS move (such as h2e2)",
                text.trim()
            ))
        })?;
        self.check_legal(mv, text.trim())
    }

    /// ICCS coordinates (`h2e2`).
    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }
}

/// Xiangqi perft: the number of positions exactly `depth` plies below `pos`,
/// through the [`Game`] API. A mate before the last ply adds nothing, as in
/// the published tables; repetitions are not game ends here.
pub fn perft(pos: &Xiangqi, depth: u32) -> u64 {
    splitpoint::perft_exact_depth(pos, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let start = Xiangqi::start();
        assert_eq!(start.fen(), START_FEN);
        assert_eq!(perft(&start, 1), 44);
        assert!(!start.in_check());
        assert_eq!(
            start.piece_on(Square::new(4, 0).unwrap()),
            Some((Color::Red, Piece::General))
        );
    }

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
