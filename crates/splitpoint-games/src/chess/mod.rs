//! Chess, with the rules of the [`cozy_chess`] crate.
//!
//! - [`Chess`]: a position (a cozy-chess [`Board`] with its Zobrist hash, plus
//!   the repetition history) implementing [`Game`](splitpoint::Game): moves
//!   are [`Move`]s, written in UCI long algebraic notation (`e2e4`, `e7e8q`,
//!   castling as `e1g1`); positions are FEN (or `startpos`). Checkmate,
//!   stalemate, the fifty-move rule and repetitions end the game (see
//!   [`Chess`] for exactly which repetitions).
//! - [`ChessEval`]: material, piece-square tables, pawn structure, mobility
//!   and king attacks, tapered from the middlegame to the endgame;
//!   quiescence over captures and queen promotions (every evasion in
//!   check), MVV-LVA ordering.
//! - Suites: [`bratko_kopec`] (24 positions with best moves, from an EPD file;
//!   [`parse_epd`] reads others) and [`middlegames`] for time-to-depth.
//!
//! [`ChessEval`] also turns on the core search's selectivity outside exact
//! mode: check extension, null-move pruning, late-move reductions, and
//! reverse futility, futility and late-move pruning near the leaves; its
//! pawn key lets the search correct the static score by what its searches
//! found of the same pawns (correction history).
//!
//! ```
//! use splitpoint::{Game, perft};
//! use splitpoint_games::chess::Chess;
//!
//! let start = Chess::start();
//! assert_eq!(perft(&start, 3), 8902);
//! let pos = start.play(start.parse_move("e2e4").unwrap());
//! assert_eq!(pos.position_text(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! ```

mod bratko_kopec;
mod eval;
mod fen;
mod middlegames;
mod net;
pub mod net_fit;
mod net_weights;
mod position;
mod san;
mod see;
/// Fitting the evaluation's weights to self-play games.
pub mod train;
mod weights;

pub use bratko_kopec::{EpdPosition, bratko_kopec, parse_epd};
pub use cozy_chess::{self, Board, Move};
pub use eval::{ChessEval, MAX_PHASE, PRUNING, Terms, Trace, evaluate, param, trace};
pub use middlegames::{MIDDLEGAMES, middlegames};
pub use position::{Chess, HISTORY_LEN, START_FEN, perft};
pub use see::{SEE_VALUE, see};
