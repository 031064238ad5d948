//! What the threads that share a node's moves merge their results into.
//!
//! YBW's split points, workloads and pv-split's shared PV nodes all keep,
//! under their own lock or thread, the same move-loop result the serial
//! search keeps in its locals (`search::rules::MoveLoop`): the window with
//! alpha raised by exact scores, the fail-soft best, the move that raised
//! alpha, and its line. [`SharedResult::merge`] is the serial loop's rule
//! for one finished move, written once for all of them.

use arrayvec::ArrayVec;

use crate::game::MAX_PLY;
use crate::score::{INFINITY, Score};

/// A shared node's result so far.
#[derive(Clone, Debug)]
pub(crate) struct SharedResult<M> {
    /// Raised by exact scores; what later moves are searched with.
    pub alpha: Score,
    pub beta: Score,
    /// The fail-soft best over the moves merged (and those before the split).
    pub best: Score,
    /// The move that raised alpha, if one did.
    pub best_move: Option<M>,
    /// Its line, the move first.
    pub pv: ArrayVec<M, MAX_PLY>,
}

/// What a merged score did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Merged {
    /// At most alpha: only the fail-soft best may have moved.
    Nothing,
    /// Above alpha, below beta: alpha, best move and line are the move's.
    Raised,
    /// At least beta: a cutoff (best move and line are the move's).
    Cut,
}

impl<M: Copy> SharedResult<M> {
    /// Nothing merged: the window `(alpha, beta)`, and `best` from the moves
    /// searched before the node was shared.
    pub(crate) fn new(alpha: Score, beta: Score, best: Score) -> Self {
        SharedResult {
            alpha,
            beta,
            best,
            best_move: None,
            pv: ArrayVec::new(),
        }
    }

    /// An empty result, for a slot not in use.
    pub(crate) fn unused() -> Self {
        Self::new(-INFINITY, INFINITY, -INFINITY)
    }

    /// Merges `mv`'s completed fail-soft `score`, searched with this node's
    /// beta and an alpha no higher than its alpha now; `line` is the best
    /// line below the move.
    pub(crate) fn merge(&mut self, mv: M, score: Score, line: &[M]) -> Merged {
        if score <= self.best {
            return Merged::Nothing;
        }
        self.best = score;
        if score <= self.alpha {
            return Merged::Nothing;
        }
        self.alpha = score;
        self.best_move = Some(mv);
        self.pv.clear();
        self.pv.push(mv);
        self.pv.extend(line.iter().take(MAX_PLY - 1).copied());
        if score >= self.beta {
            Merged::Cut
        } else {
            Merged::Raised
        }
    }
}
