//! The dedicated solver for the last empties: fail-soft alpha-beta on two
//! bitboards, without a transposition table. Fastest-first ordering from
//! five empties up (parity ordering at five and six, cheaper a node, cost
//! more nodes than it saved: `docs/lab/2026-12-02-othello-solver-nodes.md`),
//! quadrant-parity ordering and hand-unrolled searches for the last four
//! empties where the very last move only counts its flips, and stability
//! cut-offs (the other side's stable discs cap the score).

use crate::othello::board::{final_score, flips, last_flip_count, mobility};
use crate::othello::stability::stable_discs;

use super::{SOLVE_EMPTIES, fastest_first_key};

/// No score is below this (every final score lies in -64..=64).
pub(super) const NO_SCORE: i32 = -100;

/// What [`solve_1`] adds to the node count for each position after the
/// last move (the last move's, or a pass's and the opponent's): they are
/// counted apart in the high half of the count, so that a solve can also
/// give its count as Edax's `board_solve_2` counts (no node for them) at no
/// cost in the search; [`split_count`] takes the halves apart.
pub(super) const AFTER_LAST: u64 = 1 << 32;

/// A count kept with [`AFTER_LAST`]: (every node, the positions after the
/// last move among them). A solve from the leaf solver's sizes visits far
/// fewer than 2^32 nodes.
#[inline]
pub(super) fn split_count(count: u64) -> (u64, u64) {
    let after = count >> 32;
    ((count & (AFTER_LAST - 1)) + after, after)
}

const _: () = assert!(SOLVE_EMPTIES <= 24, "move buffers hold 32 moves");

/// Quadrant masks: a1-d4, e1-h4, a5-d8, e5-h8.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The quadrant (0..4) of each square.
pub(super) static QUADRANT_OF: [u8; 64] = {
    let mut q = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        q[sq] = ((sq / 32) * 2 + (sq % 8) / 4) as u8;
        sq += 1;
    }
    q
};

/// For a parity word (bit q set when quadrant q holds an odd number of
/// empties), the squares of the odd quadrants.
static PARITY_MASK: [u64; 16] = {
    let mut m = [0u64; 16];
    let mut p = 0;
    while p < 16 {
        let mut q = 0;
        while q < 4 {
            if p & (1 << q) != 0 {
                m[p] |= QUADRANTS[q];
            }
            q += 1;
        }
        p += 1;
    }
    m
};

/// The eight squares around each square: a move there needs an opponent disc
/// among them, a cheap test before computing flips.
static NEIGHBOURS: [u64; 64] = {
    let mut n = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (x, y) = (f + df, r + dr);
                if (df != 0 || dr != 0) && x >= 0 && x < 8 && y >= 0 && y < 8 {
                    n[sq] |= 1 << (y * 8 + x);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    n
};

/// The flips of a move at `sq`, skipping the work when no opponent disc is near.
#[inline(always)]
fn flips_near(sq: usize, p: u64, o: u64) -> u64 {
    if NEIGHBOURS[sq] & o == 0 {
        0
    } else {
        flips(sq, p, o)
    }
}

/// The parity word of a set of empty squares.
#[inline]
pub(super) fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= (((empties & mask).count_ones() & 1) as u8) << q;
    }
    parity
}

/// Below which alpha a stability cut-off cannot happen, by empties (Edax's
/// table): stable discs are only worth counting when alpha is high.
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
];

/// An upper bound on the score of `p` to move from the other side's stable
/// discs, when it is at most `alpha` (so the node fails low at once).
#[inline]
pub(super) fn stability_cutoff(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[empties as usize] {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// Solves with any number of empties, dispatching on the count.
#[inline]
pub(super) fn solve_any(p: u64, o: u64, alpha: i32, beta: i32, parity: u8, nodes: &mut u64) -> i32 {
    let empties = !(p | o);
    match empties.count_ones() {
        0 => {
            *nodes += 1;
            final_score(p, o)
        }
        1 => solve_1(p, empties.trailing_zeros() as usize, nodes),
        2 => {
            let x1 = empties.trailing_zeros() as usize;
            let x2 = 63 - empties.leading_zeros() as usize;
            solve_2(p, o, alpha, beta, x1, x2, false, nodes)
        }
        3 | 4 => solve_small(p, o, alpha, beta, parity, nodes),
        _ => solve_fastest_first(p, o, alpha, beta, parity, false, nodes),
    }
}

/// The position with one empty square `sq`, `p` to move: an exact score.
#[inline]
fn solve_1(p: u64, sq: usize, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let discs = p.count_ones() as i32; // 63 discs are on the board.
    let n = last_flip_count(sq, p) as i32;
    if n != 0 {
        *nodes += AFTER_LAST;
        return 2 * (discs + n) - 62;
    }
    let n = last_flip_count(sq, !p & !(1 << sq)) as i32;
    if n != 0 {
        *nodes += 2 * AFTER_LAST; // the pass, then the opponent's move
        return 2 * (discs - n) - 64;
    }
    // Nobody can move; the empty square goes to the winner (no draw on 63 discs).
    if discs >= 32 {
        2 * discs - 62
    } else {
        2 * discs - 64
    }
}

/// Two empties, `x1` tried first. `passed`: the other side has just passed.
#[allow(clippy::too_many_arguments)]
fn solve_2(
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    x1: usize,
    x2: usize,
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let mut best = NO_SCORE;
    let f = flips_near(x1, p, o);
    if f != 0 {
        best = -solve_1(o ^ f, x2, nodes);
        if best >= beta {
            return best;
        }
    }
    let f = flips_near(x2, p, o);
    if f != 0 {
        return best.max(-solve_1(o ^ f, x1, nodes));
    }
    if best != NO_SCORE {
        return best;
    }
    if passed {
        // Neither side can move (the caller will negate this).
        *nodes -= 1;
        return -final_score(o, p);
    }
    -solve_2(o, p, -beta, -alpha, x1, x2, true, nodes)
}

/// Three or four empties: squares in odd quadrants first, then the rest.
#[inline]
fn solve_small(p: u64, o: u64, alpha: i32, beta: i32, parity: u8, nodes: &mut u64) -> i32 {
    let empties = !(p | o);
    let odd = empties & PARITY_MASK[parity as usize];
    let mut sq = [0usize; 4];
    let mut n = 0;
    for mut set in [odd, empties & !odd] {
        while set != 0 {
            sq[n] = set.trailing_zeros() as usize;
            set &= set - 1;
            n += 1;
        }
    }
    if n == 3 {
        solve_3(p, o, alpha, beta, sq[0], sq[1], sq[2], false, nodes)
    } else {
        solve_4(p, o, alpha, beta, sq, false, nodes)
    }
}

/// Three empties, tried in the order given.
#[allow(clippy::too_many_arguments)]
fn solve_3(
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    x1: usize,
    x2: usize,
    x3: usize,
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let mut best = NO_SCORE;
    for (x, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
        let f = flips_near(x, p, o);
        if f != 0 {
            let v = -solve_2(o ^ f, p | f | (1 << x), -beta, -alpha, a, b, false, nodes);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
    }
    if best != NO_SCORE {
        return best;
    }
    if passed {
        *nodes -= 1;
        return -final_score(o, p);
    }
    -solve_3(o, p, -beta, -alpha, x1, x2, x3, true, nodes)
}

/// Four empties, tried in the order given.
fn solve_4(
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    x: [usize; 4],
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let mut best = NO_SCORE;
    for (m, a, b, c) in [
        (x[0], x[1], x[2], x[3]),
        (x[1], x[0], x[2], x[3]),
        (x[2], x[0], x[1], x[3]),
        (x[3], x[0], x[1], x[2]),
    ] {
        let f = flips_near(m, p, o);
        if f != 0 {
            let v = -solve_3(
                o ^ f,
                p | f | (1 << m),
                -beta,
                -alpha,
                a,
                b,
                c,
                false,
                nodes,
            );
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
    }
    if best != NO_SCORE {
        return best;
    }
    if passed {
        *nodes -= 1;
        return -final_score(o, p);
    }
    -solve_4(o, p, -beta, -alpha, x, true, nodes)
}

/// Five empties or more: every move is made, keyed by [`fastest_first_key`] and tried
/// best key first (picked lazily, since a cut-off often comes at once).
fn solve_fastest_first(
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    parity: u8,
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(bound) = stability_cutoff(p, o, alpha, (!(p | o)).count_ones()) {
        return bound;
    }
    let mut moves = mobility(p, o);
    if moves == 0 {
        if passed {
            *nodes -= 1;
            return -final_score(o, p);
        }
        return -solve_fastest_first(o, p, -beta, -alpha, parity, true, nodes);
    }
    // (key, square, new player, new opponent) per move.
    let mut list = [(0i32, 0usize, 0u64, 0u64); 32];
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(sq, p, o);
        let (np, no) = (o ^ f, p | f | (1 << sq));
        list[n] = (fastest_first_key(sq, np, no, parity), sq, np, no);
        n += 1;
    }
    let mut best = NO_SCORE;
    for i in 0..n {
        let mut top = i;
        for j in i + 1..n {
            if list[j].0 > list[top].0 {
                top = j;
            }
        }
        list.swap(i, top);
        let (_, sq, np, no) = list[i];
        let v = -solve_any(
            np,
            no,
            -beta,
            -alpha,
            parity ^ (1 << QUADRANT_OF[sq]),
            nodes,
        );
        if v > best {
            best = v;
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_masks() {
        assert_eq!(PARITY_MASK[0b1111], u64::MAX);
        assert_eq!(QUADRANT_OF[0], 0);
        assert_eq!(QUADRANT_OF[7], 1);
        assert_eq!(QUADRANT_OF[56], 2);
        assert_eq!(QUADRANT_OF[63], 3);
        assert_eq!(parity_of(1 | (1 << 63)), 0b1001);
    }
}
