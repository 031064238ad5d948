//! International (Polish) draughts on a 10×10 board.
//!
//! - [`Draughts`]: a position (bitboards, the side to move, what the draw
//!   rules need) implementing [`Game`](splitpoint::Game). Men move one square
//!   diagonally forward and capture both ways; kings fly. Capturing is
//!   compulsory and the capture taking the most pieces must be played;
//!   captured pieces leave the board only when the move ends (they block the
//!   capturing piece until then, the "Turkish strike"), and a man that only
//!   passes the last row during a capture is not crowned. A side with no move
//!   loses; repetition, the 25-move rule and the lone-king endings draw (see
//!   [`Draughts`] for exactly what is implemented).
//! - Text: positions as PDN FEN (`W:W31-50:B1-20`, kings as `K`) or Hub's
//!   51-character form; moves as PDN (`32-28`, `19x30`, the full route
//!   `37x28x19` when the short form is ambiguous) or Hub (`28x19x23`: from,
//!   to, then the captured pieces).
//! - [`DraughtsEval`]: material (a king is three men), advancement, centre,
//!   back-row guards, wing balance and free paths to the crown; quiescence
//!   over captures and promotions.
//! - [`middlegames`]: a benchmark suite; [`perft`]: the published perft
//!   convention (each capture once however many routes reach it).
//!
//! ```
//! use splitpoint::Game;
//! use splitpoint_games::draughts::{Draughts, perft};
//!
//! let start = Draughts::start();
//! assert_eq!(perft(&start, 4), 4265);
//! let pos = start.play(start.parse_move("32-28").unwrap());
//! assert_eq!(pos.position_text(), "B:W28,31,33-50:B1-20");
//! ```

mod board;
mod captures;
mod eval;
mod middlegames;
mod notation;
mod position;

pub use eval::{DraughtsEval, evaluate};
pub use middlegames::{MIDDLEGAMES, middlegames};
pub use notation::{hub_move_text, hub_position};
pub use position::{
    Draughts, HISTORY_LEN, KING_MOVES_DRAW, Move, START_FEN, THREE_VS_KING_DRAW, TWO_VS_KING_DRAW,
    perft,
};
