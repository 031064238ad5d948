//! Othello (Reversi) on 64-bit bitboards.
//!
//! - [`Othello`] and [`OthelloMove`]: the rules, text forms
//!   (`O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X`, or
//!   `start`) and moves (`d3`, `pass`).
//! - [`OthelloEval`]: a heuristic midgame evaluator.
//! - [`OthelloPatterns`]: a learned pattern evaluation, its weights trained
//!   by [`train`] (`splitpoint train othello`).
//! - [`OthelloExact`]: exact endgame scores (final disc difference) and a fast
//!   solver for the last [`SOLVE_EMPTIES`] empties.
//! - [`ffo_positions`]: the FFO endgame suite #40-#59; [`solve_limits`]: how to
//!   solve a position exactly with an [`splitpoint::Engine`].
//!
//! ```
//! use splitpoint::{Game, MoveList};
//! use splitpoint_games::othello::Othello;
//!
//! let pos = Othello::start();
//! let mut moves = MoveList::new();
//! pos.generate_moves(&mut moves);
//! assert_eq!(moves.len(), 4);
//! let next = pos.play(pos.parse_move("d3").unwrap());
//! // d3 flips d4: four black discs, one white, white to move.
//! assert_eq!(next.position_text().matches('X').count(), 4);
//! assert!(next.position_text().ends_with(" O"));
//! ```

mod board;
mod endgame;
mod eval;
mod ffo;
#[cfg(feature = "gpu")]
pub mod gpu;
mod gpu_split;
mod patterns;
mod stability;
pub mod train;

pub use board::{Othello, OthelloMove, flips, last_flip_count, mobility};
pub use endgame::{OthelloExact, SOLVE_EMPTIES, last_move_nodes, ordering_nodes};
pub use eval::OthelloEval;
pub use ffo::{FfoPosition, ffo_positions};
pub use gpu_split::GpuSplit;
pub use patterns::{
    FEATURES, OthelloMidgame, OthelloPatterns, PATTERNS, Pattern, STAGE_WEIGHTS, STAGES, Weights,
    features, stage_empties, stage_of, symmetry_classes,
};

use splitpoint::{Limits, MAX_DEPTH};

/// The limits of an exact solve of `pos` with [`OthelloExact`]: one
/// iteration deep enough that every line reaches the end of the game (each
/// empty square takes at most a move and a pass), which is also the depth at
/// which the leaf solver may take over.
///
/// The solver: the score is exact, yet the search is not in exact mode. At
/// that depth every table entry is a bound on the game's true final score,
/// so entries may end nodes (transposition cut-offs), and the root finds the
/// score by null-window probes from 0 (MTD(f), [`Limits::mtdf`]), each probe
/// ending most nodes on the bounds the ones before left. What each technique
/// bought against [`oracle_limits`]' search is measured in
/// `docs/lab/2026-11-28-solver-techniques.md`.
///
/// Before the solve, a presearch ([`Limits::presearch`],
/// [`presearch_depth`] plies with the midgame evaluation) leaves best moves
/// in the table for the solve's first plies, which otherwise have only the
/// fastest-first keys and the shallow searches.
pub fn solve_limits(pos: &Othello) -> Limits {
    Limits {
        exact: false,
        mtdf: true,
        presearch: presearch_depth(pos.empty_count()),
        ..oracle_limits(pos)
    }
}

/// The solver's presearch depth, in plies, for a position with `empties`
/// empty squares: [`PRESEARCH_EMPTIES_LEFT`] fewer than the empties, within
/// [`PRESEARCH_DEPTHS`]; the depths tried are measured in
/// `docs/lab/2026-11-28-solver-techniques.md` and
/// `docs/lab/2026-12-02-othello-solver-ordering.md`.
pub fn presearch_depth(empties: u32) -> i32 {
    (empties as i32 - PRESEARCH_EMPTIES_LEFT)
        .clamp(*PRESEARCH_DEPTHS.start(), *PRESEARCH_DEPTHS.end())
}

/// How many empties the presearch's deepest lines leave.
pub const PRESEARCH_EMPTIES_LEFT: i32 = 8;

/// The shallowest and the deepest presearch ([`presearch_depth`]); the
/// deepest the best measured at 24 and 26 empties (12, 16 and 17 tried).
pub const PRESEARCH_DEPTHS: std::ops::RangeInclusive<i32> = 8..=16;

/// [`solve_limits`] in exact mode, the oracle the solver is tested against:
/// the same tree with the table ordering moves only, ending no node.
pub fn oracle_limits(pos: &Othello) -> Limits {
    let depth = (2 * pos.empty_count() as i32 + 2).min(MAX_DEPTH);
    Limits {
        single_iteration: true,
        ..Limits::to_depth(depth).exact()
    }
}
