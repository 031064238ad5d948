//! How each game reads and writes positions and moves in the protocols.

use splitpoint::{Game, Outcome, ParseError};
use splitpoint_games::chess::Chess;
use splitpoint_games::chess::cozy_chess::Color as ChessColor;
use splitpoint_games::draughts::{Draughts, hub_move_text};
use splitpoint_games::xiangqi::{Color as XiangqiColor, Xiangqi};

use super::clip;
use crate::games::NamedGame;

/// A game the protocols can play: its moves in its protocol's notation
/// (UCI's for chess and xiangqi, Hub's for draughts), whose turn it is for
/// the clocks, and how a game's moves become history.
pub trait ProtocolGame: NamedGame {
    /// Its variant's name as the protocol gives it (`UCI_Variant`, Hub's
    /// `variant` parameter).
    const VARIANT: &'static str;

    /// Reads a move in the protocol's notation and checks that it is legal.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no move or no legal one.
    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// The move in the protocol's notation (for xiangqi, Fairy-Stockfish's
    /// UCI: ranks 1–10; for draughts, Hub's: captured pieces listed).
    fn protocol_move_text(&self, mv: Self::Move) -> String;

    /// Whether the first player (White, Red) is to move: whose clock counts.
    fn first_player_to_move(&self) -> bool;

    /// Makes the moves played so far game history (see `Chess::make_root`).
    fn make_root(&mut self);

    /// The position to search. A game already drawn (or decided) by
    /// repetition goes on until a player claims it, so a GUI may still ask
    /// for a move: the default forgets the history.
    fn searchable_root(&self) -> Self {
        if self.outcome().is_none() || first_move(self).is_none() {
            return self.clone();
        }
        let mut root = Self::parse_position(&self.position_text()).unwrap_or_else(|_| self.clone());
        root.make_root();
        root
    }
}

impl ProtocolGame for Chess {
    const VARIANT: &'static str = "chess";

    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_uci(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.board().side_to_move() == ChessColor::White
    }

    fn make_root(&mut self) {
        Chess::make_root(self);
    }

    /// Forgets the history and holds the halfmove clock just short of 100,
    /// where the search sees every quiet line as drawn but can still play.
    fn searchable_root(&self) -> Self {
        if self.outcome() != Some(Outcome::Draw) || first_move(self).is_none() {
            return self.clone();
        }
        let mut board = self.board().clone();
        board.set_halfmove_clock(board.halfmove_clock().min(99));
        let mut root = Chess::from_board(board);
        root.make_root();
        root
    }
}

impl ProtocolGame for Xiangqi {
    const VARIANT: &'static str = "xiangqi";

    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_uci(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        mv.uci()
    }

    fn first_player_to_move(&self) -> bool {
        self.side_to_move() == XiangqiColor::Red
    }

    fn make_root(&mut self) {
        Xiangqi::make_root(self);
    }
}

impl ProtocolGame for Draughts {
    /// International draughts, as Hub's `variant` parameter names it.
    const VARIANT: &'static str = "normal";

    /// A PDN move or a Hub move.
    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_move(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        hub_move_text(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.white_to_move()
    }

    fn make_root(&mut self) {
        Draughts::make_root(self);
    }

    /// A drawn game goes on until the GUI says so: forgets the history and
    /// the draw counters.
    fn searchable_root(&self) -> Self {
        if self.outcome() != Some(Outcome::Draw) {
            return self.clone();
        }
        let mut root = self.without_history();
        root.make_root();
        root
    }
}

/// The game's start position.
pub fn start<G: ProtocolGame>() -> G {
    G::parse_position(G::DEFAULT_POSITION).unwrap_or_else(|e| unreachable!("start position: {e}"))
}

/// Reads `startpos | fen FEN [moves M…]` (the `position` command of UCI and
/// UCCI): the position it starts from and the words of its moves.
///
/// # Errors
/// What is wrong with the words, for the user.
pub fn position_and_moves<'w, G: ProtocolGame>(
    words: &'w [&'w str],
) -> Result<(G, &'w [&'w str]), String> {
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let pos = match words.first() {
        Some(&"startpos") if moves_at == 1 => start(),
        Some(&"fen") => G::parse_position(&words[1..moves_at].join(" "))
            .map_err(|e| format!("position ignored: {e}"))?,
        _ => {
            return Err("position needs 'startpos' or 'fen FEN', then optionally 'moves …'".into());
        }
    };
    Ok((pos, words.get(moves_at + 1..).unwrap_or(&[])))
}

/// Plays the game's moves from `pos`, each read by `read_move`; the first
/// that is no legal move ends the list there (the moves before it stand) and
/// is reported through `remark`. The moves were the game: the result is
/// made the root, so the search may repeat a position of them once without
/// calling it a draw.
pub fn play_game<'w, G: ProtocolGame>(
    mut pos: G,
    moves: impl IntoIterator<Item = &'w str>,
    read_move: impl Fn(&G, &str) -> Result<G::Move, ParseError>,
    remark: impl Fn(&str),
) -> G {
    for word in moves {
        match read_move(&pos, word) {
            Ok(mv) => pos = pos.play(mv),
            Err(e) => {
                remark(&format!(
                    "moves from '{}' on ignored: {}",
                    clip(word),
                    e.message
                ));
                break;
            }
        }
    }
    pos.make_root();
    pos
}

/// The first legal move, if any.
pub fn first_move<G: Game>(pos: &G) -> Option<G::Move> {
    pos.legal_moves().first().copied()
}
