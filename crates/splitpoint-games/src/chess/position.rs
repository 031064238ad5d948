//! The rules: a cozy-chess board plus the few earlier positions repetition needs.

use std::fmt;

use cozy_chess::{Board, Color, File, Move, Piece, Square, get_king_moves};
use splitpoint::{Game, MoveList, Outcome, ParseError};

use super::net::Accumulator;
use super::{fen, san};
use crate::repetition::{History, byte_lines};

/// How many earlier positions a [`Chess`] value remembers for repetitions.
///
/// Positions are copied at every move, so the history is a small array rather
/// than a growing list: 20 hashes (160 bytes) beside a board of about 100 and
/// the evaluation network's sums (136).
/// Repetitions further back than this are not seen.
pub const HISTORY_LEN: usize = 20;

/// The FEN of the standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position: the board (cozy-chess, with its Zobrist hash) and the
/// hashes of the positions before it since the last irreversible move.
///
/// Game over, from [`Game::outcome`]:
/// - checkmate (a loss for the side to move) and stalemate (a draw);
/// - the fifty-move rule: a draw once the halfmove clock reaches 100, unless
///   the side to move is checkmated;
/// - repetition: a draw when the position repeats one reached **after the
///   search root** (a twofold repetition within the search line, the root
///   included), or repeats **two** positions of the game before the root (a
///   threefold repetition counting game history). [`Chess::make_root`] marks
///   where the game history ends; positions and moves read from text start
///   with no history. Only the last [`HISTORY_LEN`] plies are remembered, and
///   positions are compared by hash (en passant square included, as FEN has it).
///
/// Insufficient material is not a game end; the evaluator scores the clear
/// cases as 0.
///
/// [`Game::generate_moves`] lists the board's legal moves even when a
/// repetition or the fifty-move rule has ended the game: the search asks
/// `outcome` first, and perft counts then match the standard tables, which
/// ignore both rules.
#[derive(Clone, PartialEq, Eq)]
pub struct Chess {
    board: Board,
    /// The positions before this one, for repetitions.
    history: History<HISTORY_LEN>,
    /// The evaluation network's sums for this board, kept move by move.
    accumulator: Accumulator,
}

impl Chess {
    /// The standard start position.
    pub fn start() -> Self {
        Chess::from_board(Board::startpos())
    }

    /// A position with no history.
    pub fn from_board(board: Board) -> Self {
        Chess {
            accumulator: Accumulator::new(&board),
            board,
            history: History::EMPTY,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The evaluation network's sums for this board.
    pub(super) fn accumulator(&self) -> &Accumulator {
        &self.accumulator
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Marks every remembered position as game history, making this position
    /// the search root: call it after playing a game's moves (as UCI's
    /// `position … moves …` does), so that one earlier occurrence of a position
    /// is not yet a draw but two are.
    pub fn make_root(&mut self) {
        self.history.make_root();
    }

    /// How many earlier positions are remembered (at most [`HISTORY_LEN`]).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Whether this position ends the game by repetition (see [`Chess`]).
    pub fn is_repetition(&self) -> bool {
        self.history.repeat_distance(self.board.hash()).is_some()
    }

    /// The position after the side to move passes (a null move, for the
    /// search's null-move pruning); `None` in check. Repetitions are not
    /// looked for across a pass: the history starts afresh.
    pub fn null_move(&self) -> Option<Chess> {
        // The pieces stay where they are, and so do the network's sums.
        self.board.null_move().map(|board| Chess {
            board,
            history: History::EMPTY,
            accumulator: self.accumulator,
        })
    }

    /// Whether `mv` is castling, which cozy-chess writes as the king taking
    /// its own rook.
    #[inline]
    pub fn is_castling(&self, mv: Move) -> bool {
        self.board.colors(self.board.side_to_move()).has(mv.to)
    }

    /// The piece `mv` captures, if any (en passant included).
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        let them = self.board.colors(!self.board.side_to_move());
        if them.has(mv.to) {
            return self.board.piece_on(mv.to);
        }
        let en_passant =
            self.board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file();
        en_passant.then_some(Piece::Pawn)
    }

    /// The legal move `mv` written in UCI's standard form, with castling as the
    /// king's two-square move: `e1h1` (cozy-chess) becomes `e1g1`.
    pub fn to_uci(&self, mv: Move) -> Move {
        if self.board.piece_on(mv.from) == Some(Piece::King) && self.is_castling(mv) {
            let file = if mv.to.file() > mv.from.file() {
                File::G
            } else {
                File::C
            };
            return Move {
                from: mv.from,
                to: Square::new(file, mv.from.rank()),
                promotion: None,
            };
        }
        mv
    }

    /// Reads a move in UCI long algebraic notation (`e2e4`, `e7e8q`, castling as
    /// `e1g1` or as king-takes-rook `e1h1`) and checks that it is legal here.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no UCI move or the move is illegal.
    pub fn parse_uci(&self, text: &str) -> Result<Move, ParseError> {
        let mv = uci_syntax(text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a UCI move")))?;
        let mut legal = MoveList::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        // UCI's castling: the king two squares towards the rook.
        let (from, to) = (mv.from, mv.to);
        let king = self.board.king(self.board.side_to_move());
        if from == king && from.rank() == to.rank() && mv.promotion.is_none() {
            let rights = self.board.castle_rights(self.board.side_to_move());
            let rook = match to.file() as i32 - from.file() as i32 {
                2 => rights.short,
                -2 => rights.long,
                _ => None,
            };
            if let Some(file) = rook {
                let castle = Move {
                    from,
                    to: Square::new(file, from.rank()),
                    promotion: None,
                };
                if legal.contains(&castle) {
                    return Ok(castle);
                }
            }
        }
        Err(ParseError::new(format!(
            "{text} is not legal in this position"
        )))
    }

    /// Reads a move in standard algebraic notation (`Nf3`, `exd5`, `O-O`,
    /// `e8=Q+`) legal here.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no move, an illegal or an ambiguous one.
    pub fn parse_san(&self, text: &str) -> Result<Move, ParseError> {
        san::parse(self, text)
    }

    /// The move in standard algebraic notation (`Nbd2`, `exd5`, `O-O`, `e8=Q`),
    /// with `+` or `#` for checks.
    pub fn san(&self, mv: Move) -> String {
        san::write(self, mv)
    }
}

/// A move's UCI syntax: two squares and an optional promotion piece (`nbrq`).
fn uci_syntax(text: &str) -> Option<Move> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return None;
    }
    let from: Square = text[0..2].parse().ok()?;
    let to: Square = text[2..4].parse().ok()?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(b'n') => Some(Piece::Knight),
        Some(b'b') => Some(Piece::Bishop),
        Some(b'r') => Some(Piece::Rook),
        Some(b'q') => Some(Piece::Queen),
        Some(_) => return None,
    };
    Some(Move {
        from,
        to,
        promotion,
    })
}

impl Default for Chess {
    fn default() -> Self {
        Chess::start()
    }
}

impl fmt::Debug for Chess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chess({}, history {})", self.board, self.history.len())
    }
}

impl fmt::Display for Chess {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)
    }
}

impl Game for Chess {
    type Move = Move;
    type Moves = MoveList<Move>;

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.board.generate_moves(|piece_moves| {
            for mv in piece_moves {
                // At most 218 legal moves: this never fails.
                let _ = moves.try_push(mv);
            }
            false
        });
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        // cozy-chess panics on a move from an empty square; the contract only
        // asks for a memory-safe position, so leave the board as it is.
        if !self.board.colors(self.board.side_to_move()).has(mv.from) {
            debug_assert!(false, "illegal move {mv} in {}", self.board);
            return next;
        }
        debug_assert!(
            self.board.is_legal(mv),
            "illegal move {mv} in {}",
            self.board
        );
        next.board.play_unchecked(mv);
        next.accumulator.update(&self.board, &next.board);
        let us = self.board.side_to_move();
        let rights_kept = self.board.castle_rights(us) == next.board.castle_rights(us)
            && self.board.castle_rights(!us) == next.board.castle_rights(!us);
        if next.board.halfmove_clock() == 0 || !rights_kept {
            // Irreversible: no earlier position can come back.
            next.history.clear();
        } else {
            let _ = next.history.remember(self.board.hash());
        }
        next
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.is_repetition() {
            return Some(Outcome::Draw);
        }
        if !self.board.generate_moves(|_| true) {
            return Some(if self.in_check() {
                Outcome::Loss
            } else {
                Outcome::Draw
            });
        }
        (self.board.halfmove_clock() >= 100).then_some(Outcome::Draw)
    }

    /// `from | to << 6 | promotion << 12`, promotion 0 for none.
    #[inline]
    fn move_key(mv: Move) -> u16 {
        let promotion = mv.promotion.map_or(0, |p| p as u16 + 1);
        mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
    }

    /// Colour, piece and destination: `(colour × 6 + piece) × 64 + to`.
    const CONTINUATION_KEYS: usize = 12 * 64;

    #[inline]
    fn continuation_key(&self, mv: Move) -> u16 {
        let board = &self.board;
        let piece = board.piece_on(mv.from).map_or(0, |p| p as u16);
        let colour = board.side_to_move() as u16;
        (colour * 6 + piece) * 64 + mv.to as u16
    }

    /// A FEN (the halfmove clock and fullmove number may be left out), or
    /// `startpos` / `start`. Castling rights must be standard chess's (king on
    /// the e-file, rooks in the corners).
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        // Each field with its offset in `text`, for error columns.
        let fields: Vec<(usize, &str)> = text
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
            .collect();
        let words: Vec<&str> = fields.iter().map(|&(_, w)| w).collect();
        if matches!(words.as_slice(), ["startpos" | "start"]) {
            return Ok(Chess::start());
        }
        let fen = match fields.len() {
            4 => format!("{} 0 1", words.join(" ")),
            5 => format!("{} 1", words.join(" ")),
            6 => words.join(" "),
            0 => {
                return Err(ParseError::new(
                    "empty position: expected a FEN or 'startpos'",
                ));
            }
            n => {
                return Err(ParseError::new(format!(
                    "a FEN has 4 to 6 fields (board, side to move, castling rights, \
                     en passant square, halfmove clock, fullmove number), found {n}"
                )));
            }
        };
        // Each field on its own first: cozy-chess says only which field it
        // refused, and reads a board of fewer ranks (the rest empty).
        fen::check_fields(&fields)?;
        let board = Board::from_fen(&fen, false).map_err(|e| fen::explain(&fields, e))?;
        // cozy-chess reads a board with the kings side by side (one would
        // take the other).
        if get_king_moves(board.king(Color::White)).has(board.king(Color::Black)) {
            return Err(ParseError::at(
                fields[0].0,
                "bad FEN board: the kings stand side by side",
            ));
        }
        Ok(Chess::from_board(board))
    }

    fn position_text(&self) -> String {
        self.board.to_string()
    }

    /// The FEN, then the history on a second line.
    fn to_bytes(&self, out: &mut Vec<u8>) {
        let text = format!("{}\n{}", self.board, self.history.to_text());
        out.extend_from_slice(text.as_bytes());
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, ParseError> {
        let [fen, history] = byte_lines(bytes)?;
        let mut pos = Chess::parse_position(fen)?;
        pos.history = History::from_text(history)?;
        Ok(pos)
    }

    /// UCI long algebraic (`e2e4`, `e7e8q`, `e1g1`), or else SAN (`Nf3`, `O-O`).
    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        if uci_syntax(text).is_some() {
            return self.parse_uci(text);
        }
        self.parse_san(text).map_err(|e| {
            ParseError::new(format!(
                "'{text}' is not a legal move here (UCI or SAN): {}",
                e.message
            ))
        })
    }

    /// UCI long algebraic, castling as the king's two-square move.
    fn move_text(&self, mv: Move) -> String {
        self.to_uci(mv).to_string()
    }
}

/// Standard chess perft: the number of positions exactly `depth` plies below
/// `pos`, through the [`Game`] API. A checkmate or stalemate before the last
/// ply adds nothing, as in the published tables; [`splitpoint::perft`]
/// instead counts a finished game as one leaf (the convention of games with
/// passes), so it differs from these tables by the games that end early.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    splitpoint::perft_exact_depth(pos, depth)
}
