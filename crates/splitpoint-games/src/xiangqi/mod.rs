//! Xiangqi (Chinese chess).
//!
//! - [`Xiangqi`]: a position (a 90-square mailbox with a bitset per side,
//!   the Zobrist hash and the repetition history) implementing
//!   [`Game`](splitpoint::Game): moves are [`Move`]s written in ICCS
//!   coordinates (`h2e2`: files a–i, ranks 0–9 from Red's side), positions in
//!   xiangqi FEN (or `startpos`). A side with no legal move loses; repetitions
//!   are draws except perpetual check, which loses (see [`Xiangqi`] for
//!   exactly what is implemented). [`Move::uci`] and [`Xiangqi::parse_uci`]
//!   speak the UCI engines' notation, ranks 1–10.
//! - [`XiangqiEval`]: material and piece-square tables; quiescence over
//!   captures (every evasion in check), MVV-LVA ordering.
//! - [`middlegames`]: a suite of midgame positions for time-to-depth.
//!
//! ```
//! use splitpoint::Game;
//! use splitpoint_games::xiangqi::{Xiangqi, perft};
//!
//! let start = Xiangqi::start();
//! assert_eq!(perft(&start, 2), 1920);
//! let pos = start.play(start.parse_move("h2e2").unwrap());
//! assert_eq!(
//!     pos.position_text(),
//!     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
//! );
//! ```

mod board;
mod eval;
mod middlegames;
mod notation;
mod position;
mod tables;

pub use board::{Color, Move, Piece, Square};
pub use eval::{XiangqiEval, evaluate};
pub use middlegames::{MIDDLEGAMES, middlegames};
pub use position::{HISTORY_LEN, START_FEN, Xiangqi, perft};
