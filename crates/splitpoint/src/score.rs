//! Scores: plain `i32`, with a band at each end for won and lost games.
//!
//! Every score fits an `i16`, which is how the transposition table stores it.

/// A score from the side to move's view.
pub type Score = i32;

/// The deepest ply the search ever reaches below the root; also the longest
/// PV. Defined here, the lowest layer, because mate distances (the band of
/// won and lost scores) are counted in plies.
pub const MAX_PLY: usize = 128;

/// Larger than any score; the initial window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = 32_000;

/// The score of a game won at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: Score = 31_000;

/// Scores at or beyond this magnitude are won or lost games.
pub const WIN_BOUND: Score = WIN - MAX_PLY as Score;

/// Whether `score` is a won or lost game rather than an evaluation.
#[inline]
pub fn is_decisive(score: Score) -> bool {
    score.abs() >= WIN_BOUND
}

/// Converts a score relative to the root into one relative to the node `ply`
/// plies down, for storing in the table (a win in 5 from the root is a win
/// in 5 - ply from here).
#[inline]
pub fn to_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_table`].
#[inline]
pub fn from_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_conversion_round_trips() {
        for s in [-WIN + 3, -500, 0, 77, WIN - 10] {
            for ply in [0, 1, 9] {
                assert_eq!(from_table(to_table(s, ply), ply), s);
            }
        }
        assert!(i16::try_from(INFINITY).is_ok());
    }
}
