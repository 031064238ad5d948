//! The rules: a 90-square mailbox with a bitset of each side's pieces, the
//! Zobrist hash, and the few earlier positions repetition needs.

use std::fmt;

use splitpoint::{Game, MoveList, Outcome, ParseError};

use super::board::{BLACK, Code, Color, EMPTY, Move, Piece, Square, decode};
use super::notation::move_syntax;
use super::tables::{
    ADVISOR, BLACK_TO_MOVE, ELEPHANT, FILES, GENERAL, HORSE, HORSE_ATTACKERS, RANKS, RAY_LEN, RAYS,
    SQUARES, ZOBRIST,
};
use crate::repetition::{History, byte_lines};

/// How many earlier positions a [`Xiangqi`] value remembers for repetitions.
///
/// Positions are copied at every move, so the history is a small array (24
/// hashes, 192 bytes) rather than a growing list; repetitions further back
/// are not seen.
pub const HISTORY_LEN: usize = 24;

/// The xiangqi FEN of the start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

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
    pub(super) board: [Code; SQUARES],
    /// Bit `sq` is set where Red's (index 0) or Black's (1) pieces stand.
    pub(super) occupied: [u128; 2],
    pub(super) generals: [u8; 2],
    pub(super) side: Color,
    /// Whether the side to move is in check.
    pub(super) in_check: bool,
    pub(super) hash: u64,
    /// Plies since the last capture.
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    /// The positions before this one, for repetitions.
    pub(super) history: History<HISTORY_LEN>,
    /// Bit `i`: the side to move was in check in the history's `i`-th position.
    pub(super) checks: u32,
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
        self.history.make_root();
    }

    /// How many earlier positions are remembered (at most [`HISTORY_LEN`]).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// How the game ends by repetition here, if it does (see [`Xiangqi`]),
    /// from the side to move's view.
    pub fn repetition(&self) -> Option<Outcome> {
        self.history
            .repeat_distance(self.hash)
            .map(|distance| self.cycle_outcome(distance))
    }

    /// The result of a repetition `distance` plies long. The positions at odd
    /// distances (the opponent to move) were checked by our moves, those at
    /// even distances (this one included) by theirs.
    fn cycle_outcome(&self, distance: usize) -> Outcome {
        let len = self.history.len();
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
        if self.history.remember(hash) {
            self.checks >>= 1;
        }
        self.checks |= u32::from(in_check) << (self.history.len() - 1);
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
        next.history.clear();
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
}

/// Whether `us`'s general on `general` is attacked on `board`: by a rook or
/// the other general along a line (the generals may not face each other), a
/// cannon over one screen, a horse whose leg is free, or a soldier beside or
/// in front of it. Elephants and advisors never leave their half, so they
/// never attack a general.
#[inline]
pub(super) fn attacked(board: &[Code; SQUARES], general: usize, us: Color) -> bool {
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

impl Default for Xiangqi {
    fn default() -> Self {
        Xiangqi::start()
    }
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xiangqi({}, history {})", self.fen(), self.history.len())
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
    type Moves = MoveList<Move>;

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
            next.history.clear();
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

    /// The FEN, then the history and the checks in it on a second line.
    fn to_bytes(&self, out: &mut Vec<u8>) {
        let text = format!(
            "{}\n{}\n{:x}",
            self.fen(),
            self.history.to_text(),
            self.checks
        );
        out.extend_from_slice(text.as_bytes());
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, ParseError> {
        let [fen, history, checks] = byte_lines(bytes)?;
        let mut pos = Xiangqi::parse_fen(fen)?;
        pos.history = History::from_text(history)?;
        pos.checks = u32::from_str_radix(checks, 16)
            .map_err(|_| ParseError::new(format!("bad checks '{checks}'")))?;
        Ok(pos)
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
}
