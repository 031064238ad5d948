//! splitpoint: parallel alpha-beta game-tree search.
//!
//! Implement [`Game`] (the rules) and [`Evaluator`] (the judgement) for a
//! two-player zero-sum game and search it with [`Engine`]: iterative-deepening
//! PVS with quiescence over a lockless transposition table.
//!
//! In [exact mode](Limits::exact) the search returns the same root score as
//! plain negamax over the same tree ([`oracle::negamax`]); that invariant is what
//! the parallel algorithms are tested against.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod game;
mod score;

pub use game::{Evaluator, Game, MAX_MOVES, MAX_PLY, MoveList, Outcome, ParseError};
pub use score::{INFINITY, Score, WIN, WIN_BOUND, from_table, is_decisive, to_table};
