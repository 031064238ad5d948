//! A midgame evaluator: mobility, potential mobility, corners and the squares
//! next to empty corners. About 100 points per disc-equivalent.

use splitpoint::{Evaluator, Score};

use super::board::{Othello, OthelloMove, flips, mobility};

/// a1, h1, a8, h8.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The X-squares (b2, g2, b7, g7), diagonal to a corner.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// Corner index (0..4: a1, h1, a8, h8) → that corner's square bit, its X-square,
/// and its two C-squares (edge neighbours).
const CORNER_REGIONS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// The squares on the board's edge, corners included.
const EDGES: u64 = 0xFF81_8181_8181_81FF;

const CORNER_WEIGHT: Score = 700;
const X_SQUARE_WEIGHT: Score = 250;
const C_SQUARE_WEIGHT: Score = 80;
const EDGE_WEIGHT: Score = 15;
const MOBILITY_WEIGHT: Score = 70;
const POTENTIAL_WEIGHT: Score = 25;
/// Discs only start to count once few squares are left.
const LATE_EMPTIES: u32 = 12;
const DISC_WEIGHT: Score = 30;
/// About one disc's worth in the evaluation's points.
pub(crate) const POINTS_PER_DISC: Score = 100;
/// Evaluations are clamped to this, far inside the won-game band.
const LIMIT: Score = 15_000;

/// The empty squares next to `discs` (in any of the eight directions).
#[inline]
pub(crate) fn neighbours(discs: u64, empties: u64) -> u64 {
    let h = discs & 0x7E7E_7E7E_7E7E_7E7E;
    let around = (h << 1)
        | (h >> 1)
        | (discs << 8)
        | (discs >> 8)
        | (h << 9)
        | (h >> 9)
        | (h << 7)
        | (h >> 7);
    // Discs on the a and h files still have neighbours inward and along the file.
    let a_file = discs & 0x0101_0101_0101_0101;
    let h_file = discs & 0x8080_8080_8080_8080;
    let edges = (a_file << 1)
        | (a_file << 9)
        | (a_file >> 7)
        | (h_file >> 1)
        | (h_file >> 9)
        | (h_file << 7);
    (around | edges) & empties
}

/// A heuristic midgame evaluator for [`Othello`]; finished games are valued by
/// the default win/loss-by-distance scores.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthelloEval;

impl OthelloEval {
    /// The static score of `pos` from the side to move's view.
    pub fn score(pos: &Othello) -> Score {
        let (p, o) = (pos.player(), pos.opponent());
        let empties = pos.empties();
        let mut score = 0;

        let mob_p = mobility(p, o).count_ones() as Score;
        let mob_o = mobility(o, p).count_ones() as Score;
        score += MOBILITY_WEIGHT * (mob_p - mob_o);

        // Potential mobility: empties next to the other side's discs.
        let pot_p = neighbours(o, empties).count_ones() as Score;
        let pot_o = neighbours(p, empties).count_ones() as Score;
        score += POTENTIAL_WEIGHT * (pot_p - pot_o);

        for &(corner, x, c) in &CORNER_REGIONS {
            if p & corner != 0 {
                score += CORNER_WEIGHT;
            } else if o & corner != 0 {
                score -= CORNER_WEIGHT;
            } else {
                // An empty corner: discs next to it tend to give it away.
                score -= X_SQUARE_WEIGHT * ((p & x != 0) as Score - (o & x != 0) as Score);
                score -= C_SQUARE_WEIGHT
                    * ((p & c).count_ones() as Score - (o & c).count_ones() as Score);
            }
        }
        score +=
            EDGE_WEIGHT * ((p & EDGES).count_ones() as Score - (o & EDGES).count_ones() as Score);

        if empties.count_ones() <= LATE_EMPTIES {
            score += DISC_WEIGHT * pos.disc_difference();
        }
        score.clamp(-LIMIT, LIMIT)
    }

    /// Move-ordering keys: corners first, X-squares next to empty corners last,
    /// otherwise moves leaving the opponent fewer replies first.
    pub(crate) fn move_key(pos: &Othello, mv: OthelloMove) -> i32 {
        let Some(sq) = mv.square() else { return 0 };
        let (p, o) = (pos.player(), pos.opponent());
        let bit = 1u64 << sq;
        let flipped = flips(sq as usize, p, o);
        let (np, no) = (o ^ flipped, p | flipped | bit);
        let mut key = -16 * mobility(np, no).count_ones() as i32;
        if bit & CORNERS != 0 {
            key += 1000;
        } else if bit & X_SQUARES != 0 {
            let corner = CORNER_REGIONS
                .iter()
                .find(|r| r.1 == bit)
                .map_or(0, |r| r.0);
            if corner & pos.empties() != 0 {
                key -= 1000;
            }
        }
        key
    }
}

impl Evaluator<Othello> for OthelloEval {
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        OthelloEval::score(pos)
    }

    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = OthelloEval::move_key(pos, mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splitpoint::Game;

    #[test]
    fn start_is_level() {
        assert_eq!(OthelloEval::score(&Othello::start()), 0);
    }

    #[test]
    fn corner_is_good() {
        let pos = Othello::parse_position(
            "X-------------------------------------------------------------O- X",
        )
        .unwrap();
        assert!(OthelloEval::score(&pos) > 0);
    }
}
