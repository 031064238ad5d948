//! Exact endgame scoring, and a dedicated solver for the last empties.
//!
//! The solver is plain fail-soft alpha-beta on two bitboards, without a
//! transposition table: fastest-first ordering while many squares are empty,
//! quadrant-parity ordering below that, hand-unrolled searches for the last
//! four empties where the very last move only counts its flips, and
//! stability cut-offs (the other side's stable discs cap the score).
//!
//! [`OthelloExact::solve_leaf`] also offers the stability cut-off above
//! [`SOLVE_EMPTIES`]: a correct fail-low bound whenever the depth reaches the
//! end of the game.

use splitpoint::{Evaluator, Game, Outcome, Score};

use super::board::{Othello, OthelloMove, final_score, flips, last_flip_count, mobility};
use super::eval::{CORNERS, OthelloEval, POINTS_PER_DISC};
use super::stability::stable_discs;

/// The most empties [`OthelloExact::solve_leaf`] solves on its own; above it
/// the generic search (with its transposition table) carries on. Tuned on FFO
/// #40-#44: 8 to 12 cost about the same single-threaded; the smallest keeps the
/// solver's indivisible leaves short for the parallel searches.
pub const SOLVE_EMPTIES: u32 = 8;

/// From this many empties down to 5 the solver orders moves by parity only;
/// above it, fastest-first (fewest replies first).
const FASTEST_FIRST_EMPTIES: u32 = 7;

/// From this many empties up, nodes look for enhanced transposition
/// cut-offs ([`Evaluator::transposition_cutoffs_pay`]); below it their
/// children are left to the solver, which stores nothing in the table.
/// 10 and 12 cost the same on FFO #48; 10 was 5% faster on #41, #43, #44;
/// with Edax's key, #45-#48 took 49.8 s at 10, 51.9 s at 13, 53.1 s at 16.
const ETC_EMPTIES: u32 = SOLVE_EMPTIES + 2;

/// From this many empties up, the generic search orders moves by the
/// midgame evaluation as well as by the fastest-first key: of the position
/// after the move, and from [`REPLY_ORDER_EMPTIES`] of the position after
/// the opponent's best reply to it (Edax orders its deep endgame nodes by
/// shallow searches alike). Single-threaded, nodes: FFO #40-#44 316M ->
/// 293M, #45-#49 4,268M -> 2,880M (115 s -> 81 s), 30 positions of 22
/// empties from self-play 1,746M -> 1,651M, 12 of 24 empties 3,280M ->
/// 2,870M. Two threads lose less to it too: a CUT node that cuts on a late
/// move wastes the moves shared beside it, and FFO #40-#44 took 297M nodes
/// at two threads, +1.4% over one thread's, against +4.9% before.
/// From 12 empties, or the reply from 14 or 18, did no better; the
/// evaluation after two plies from 18 or 20 empties saved up to 5% more
/// nodes but cost more time than it saved.
const EVAL_ORDER_EMPTIES: u32 = 14;

/// From this many empties up, a move's evaluation is that after the
/// opponent's best reply ([`best_reply`]), not that of the position it
/// leaves.
const REPLY_ORDER_EMPTIES: u32 = 16;

/// Midgame-evaluation points (3 discs' worth) that weigh as much in a move's
/// key as one reply fewer for the opponent. 150, 200 and 600 saved fewer
/// nodes.
const EVAL_POINTS_PER_REPLY: i32 = 3 * POINTS_PER_DISC;

/// The fewest empties at which a parallel search may share a node
/// ([`Evaluator::splits_pay`]). On FFO #40-#44 at two threads (DTS, 5
/// interleaved rounds) 10 and 11 took 0.8% less time than sharing every
/// node above the solver's own ([`SOLVE_EMPTIES`]); 13 left the helper idle
/// three times as long and was slower.
const SPLIT_EMPTIES: u32 = SOLVE_EMPTIES + 2;

/// No score is below this (every final score lies in -64..=64).
const NO_SCORE: i32 = -100;

const _: () = assert!(SOLVE_EMPTIES <= 24, "move buffers hold 32 moves");

/// Quadrant masks: a1-d4, e1-h4, a5-d8, e5-h8.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The quadrant (0..4) of each square.
static QUADRANT_OF: [u8; 64] = {
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

/// Square classes in the order the parity-ordered search tries them: corners,
/// then ordinary squares, then C-squares, then X-squares.
const PRIORITY: [u64; 4] = [
    CORNERS,
    !(CORNERS | C_SQUARES | X_SQUARES),
    C_SQUARES,
    X_SQUARES,
];
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
const C_SQUARES: u64 = 0x4281_0000_0000_8142;

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
fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= (((empties & mask).count_ones() & 1) as u8) << q;
    }
    parity
}

/// The fastest-first key of a move (larger is tried first), Edax's endgame
/// ordering: fewest replies (corner replies count twice) above all, then the
/// mover's discs made safe around corners, then the fewest potential replies
/// (likewise weighted), then parity (odd quadrants first, more so near the
/// end), then the square's own worth.
#[inline]
fn fastest_first_key(sq: usize, new_player: u64, new_opponent: u64, parity: u8) -> i32 {
    let empties = !(new_player | new_opponent);
    let replies = weighted_count(mobility(new_player, new_opponent));
    let potential = weighted_count(potential_moves(new_opponent, empties));
    let mut key = (36 - replies) * REPLY_WEIGHT
        + corner_stability(new_opponent) * (1 << 11)
        + (36 - potential) * (1 << 5)
        + SQUARE_VALUE[sq];
    if parity & (1 << QUADRANT_OF[sq]) != 0 {
        key += if empties.count_ones() < 12 { 8 } else { 4 };
    }
    key
}

/// The weight of one reply in [`fastest_first_key`], its first criterion.
const REPLY_WEIGHT: i32 = 1 << 15;

/// A count of squares in which corners count twice.
#[inline]
fn weighted_count(squares: u64) -> i32 {
    (squares.count_ones() + (squares & CORNERS).count_ones()) as i32
}

/// The empty squares from which the other side might one day flip a disc
/// of `discs`: next to one of them along a line that goes on past it (so a
/// disc on an edge counts only along the edge).
#[inline]
fn potential_moves(discs: u64, empties: u64) -> u64 {
    let spread = |d: u64, shift: u32| (d << shift) | (d >> shift);
    (spread(discs & 0x7E7E_7E7E_7E7E_7E7E, 1)
        | spread(discs & 0x00FF_FFFF_FFFF_FF00, 8)
        | spread(discs & 0x007E_7E7E_7E7E_7E00, 7)
        | spread(discs & 0x007E_7E7E_7E7E_7E00, 9))
        & empties
}

/// Jean-Christophe Weill's square values, Edax's last tie-break: corners
/// best, then the A- and B-squares of the edges, X- and C-squares worst.
static SQUARE_VALUE: [i32; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18, //
];

/// The discs of `p` on corners and on the edge squares beside its own corners.
#[inline]
fn corner_stability(p: u64) -> i32 {
    let safe = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | CORNERS)
        & p;
    safe.count_ones() as i32
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
fn stability_cutoff(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[empties as usize] {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// Exact endgame scoring for [`Othello`]: scores are final disc differences
/// from the side to move's view, empty squares going to the winner, whatever
/// the ply. Pair it with an exact search depth of at least twice the empties
/// (plus a little) so that every line reaches the end of the game.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthelloExact;

impl OthelloExact {
    /// Solves `pos` exactly with the dedicated solver (no depth limit), fail-soft
    /// on the window `(alpha, beta)`: the exact score when it lies inside the
    /// window, otherwise a bound on the side of the window it fell.
    /// Fine for up to about 14 empties; the generic search is better above.
    pub fn solve(pos: &Othello, alpha: Score, beta: Score, nodes: &mut u64) -> Score {
        if alpha >= 64 {
            *nodes += 1;
            return 64;
        }
        if beta <= -64 {
            *nodes += 1;
            return -64;
        }
        let (p, o) = (pos.player(), pos.opponent());
        solve_any(
            p,
            o,
            alpha.max(NO_SCORE),
            beta.min(-NO_SCORE),
            parity_of(!(p | o)),
            nodes,
        )
    }

    /// The move-ordering key the solver and the generic search share.
    fn move_key(pos: &Othello, mv: OthelloMove, parity: u8) -> i32 {
        let Some(sq) = mv.square() else { return 0 };
        let sq = sq as usize;
        let (p, o) = (pos.player(), pos.opponent());
        let flipped = flips(sq, p, o);
        fastest_first_key(sq, o ^ flipped, p | flipped | (1 << sq), parity)
    }
}

/// The score of `pos` for its side to move after its best move by the
/// midgame evaluation, one ply deep (its own score when it has none: the
/// game is over).
fn best_reply(pos: &Othello) -> Score {
    let mut moves = <Othello as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| -OthelloEval::score(&pos.play(mv)))
        .max()
        .unwrap_or_else(|| OthelloEval::score(pos))
}

impl Evaluator<Othello> for OthelloExact {
    /// Only reached when a depth limit stops the search before the game
    /// ends, as in the solver's presearch ([`Limits::presearch`]): the
    /// midgame evaluation in discs, clamped to the final scores' range. The
    /// bare disc difference ordered the solve behind the presearch worse than
    /// no presearch at all (FFO #40-#44: 477M nodes against 348M).
    ///
    /// [`Limits::presearch`]: splitpoint::Limits::presearch
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        (OthelloEval::score(pos) / POINTS_PER_DISC).clamp(-64, 64)
    }

    #[inline]
    fn terminal_score(&self, pos: &Othello, _outcome: Outcome, _ply: usize) -> Score {
        pos.final_score()
    }

    /// The fastest-first key; far from the end ([`EVAL_ORDER_EMPTIES`])
    /// plus the midgame evaluation, the opponent's worst first.
    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        let parity = parity_of(pos.empties());
        let empties = pos.empty_count();
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = OthelloExact::move_key(pos, mv, parity);
            if empties >= EVAL_ORDER_EMPTIES {
                let child = pos.play(mv);
                let theirs = if empties >= REPLY_ORDER_EMPTIES {
                    best_reply(&child)
                } else {
                    OthelloEval::score(&child)
                };
                *key -= theirs * REPLY_WEIGHT / EVAL_POINTS_PER_REPLY;
            }
        }
    }

    /// The root, met with no shallow iteration before the solve: each move
    /// by the opponent's best reply under the midgame evaluation, the move
    /// that leaves it worst first. Single-threaded solves, nodes: FFO
    /// #40-#44 370M in the generator's order, 368M by the fastest-first
    /// keys, 352M by each child's own score, 348M by this; #45-#49 7,339M,
    /// 5,829M by the child's score, 5,697M by this (#48 1,393M -> 677M,
    /// #49 4,701M -> 3,597M; #45 went up, 798M -> 950M). A midgame search
    /// seven plies deep per move did no better (346M, 5,690M).
    fn order_root_moves(&self, pos: &Othello, moves: &mut [OthelloMove]) {
        moves.sort_by_key(|&mv| best_reply(&pos.play(mv)));
    }

    /// Far from the end a child's table bound often refutes it already, and
    /// the probes cost little beside the subtree they may save.
    #[inline]
    fn transposition_cutoffs_pay(&self, pos: &Othello, _depth: i32) -> bool {
        pos.empty_count() >= ETC_EMPTIES
    }

    /// A parallel search gives no DTS frame below [`SPLIT_EMPTIES`]: such a
    /// subtree takes a few microseconds, and its depth (which counts the
    /// passes it may need) overstates it.
    #[inline]
    fn splits_pay(&self, pos: &Othello, _depth: i32) -> bool {
        pos.empty_count() >= SPLIT_EMPTIES
    }

    /// Solves positions with at most [`SOLVE_EMPTIES`] empties when `depth` is
    /// sure to reach the end of the game (every empty takes at most a move and a
    /// pass), so the result equals the depth-limited search's.
    #[inline]
    fn solve_leaf(
        &self,
        pos: &Othello,
        alpha: Score,
        beta: Score,
        depth: i32,
        _ply: usize,
        nodes: &mut u64,
    ) -> Option<Score> {
        let empties = pos.empty_count();
        let needed = 2 * empties as i32;
        // With a move available the first ply fills a square: one ply less.
        if depth < needed && (depth < needed - 1 || pos.legal_squares() == 0) {
            return None;
        }
        if empties > SOLVE_EMPTIES {
            // Too big to solve here, but stable discs may still bound it.
            return stability_cutoff(pos.player(), pos.opponent(), alpha, empties);
        }
        // The search has counted this position already.
        let mut count = 0;
        let score = OthelloExact::solve(pos, alpha, beta, &mut count);
        *nodes += count - 1;
        Some(score)
    }
}

/// Solves with any number of empties, dispatching on the count.
#[inline]
fn solve_any(p: u64, o: u64, alpha: i32, beta: i32, parity: u8, nodes: &mut u64) -> i32 {
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
        n if n < FASTEST_FIRST_EMPTIES => solve_parity(p, o, alpha, beta, parity, false, nodes),
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
        *nodes += 1;
        return 2 * (discs + n) - 62;
    }
    let n = last_flip_count(sq, !p & !(1 << sq)) as i32;
    if n != 0 {
        *nodes += 2; // the pass, then the opponent's move
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

/// Five or more empties (below [`FASTEST_FIRST_EMPTIES`]): odd quadrants first,
/// each by square class.
fn solve_parity(
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
    let moves = mobility(p, o);
    if moves == 0 {
        if passed {
            *nodes -= 1;
            return -final_score(o, p);
        }
        return -solve_parity(o, p, -beta, -alpha, parity, true, nodes);
    }
    let odd = PARITY_MASK[parity as usize];
    let mut best = NO_SCORE;
    for side in [odd, !odd] {
        for class in PRIORITY {
            let mut set = moves & side & class;
            while set != 0 {
                let sq = set.trailing_zeros() as usize;
                set &= set - 1;
                let f = flips(sq, p, o);
                let v = -solve_any(
                    o ^ f,
                    p | f | (1 << sq),
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
        }
    }
    best
}

/// Many empties: every move is made, keyed by [`fastest_first_key`] and tried
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
    use crate::othello::ffo_positions;

    #[test]
    fn the_root_is_ordered_by_each_moves_best_reply() {
        let pos = ffo_positions()[0].position;
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let mut ordered = moves.clone();
        OthelloExact.order_root_moves(&pos, &mut ordered);
        let replies: Vec<Score> = ordered
            .iter()
            .map(|&mv| best_reply(&pos.play(mv)))
            .collect();
        assert!(
            replies.is_sorted(),
            "the opponent's best reply, weakest first: {replies:?}"
        );
        assert!(
            replies.first() < replies.last(),
            "the moves differ: {replies:?}"
        );
        let (mut a, mut b) = (moves.to_vec(), ordered.to_vec());
        a.sort_by_key(|&m| Othello::move_key(m));
        b.sort_by_key(|&m| Othello::move_key(m));
        assert_eq!(a, b, "the same moves");
    }

    /// The keys of `pos`'s moves as the generic search gets them, less the
    /// fastest-first key, each beside the opponent's `theirs` after the move.
    fn evaluation_shares(pos: &Othello, theirs: fn(&Othello) -> Score) -> Vec<(Score, i32)> {
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let mut keys = vec![0; moves.len()];
        OthelloExact.order_moves(pos, &moves, &mut keys);
        let parity = parity_of(pos.empties());
        let mut shares: Vec<(Score, i32)> = moves
            .iter()
            .zip(&keys)
            .map(|(&mv, &key)| {
                let plain = OthelloExact::move_key(pos, mv, parity);
                (theirs(&pos.play(mv)), key - plain)
            })
            .collect();
        shares.sort();
        shares
    }

    #[test]
    fn far_from_the_end_moves_are_ordered_by_the_evaluation_too() {
        let mut pos = ffo_positions()[0].position;
        assert!(pos.empty_count() >= REPLY_ORDER_EMPTIES);
        let shares = evaluation_shares(&pos, best_reply);
        assert!(
            shares.windows(2).all(|w| w[0].1 >= w[1].1),
            "the better the opponent's best reply, the later the move: {shares:?}"
        );
        assert!(shares.first().unwrap().1 > shares.last().unwrap().1);

        // Play on to each threshold: the evaluation of the move's own
        // position, then none.
        for (empties, theirs) in [
            (
                EVAL_ORDER_EMPTIES,
                OthelloEval::score as fn(&Othello) -> Score,
            ),
            (EVAL_ORDER_EMPTIES - 1, |_: &Othello| 0),
        ] {
            while pos.empty_count() > empties {
                let mut moves = <Othello as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                pos = pos.play(moves[0]);
            }
            let shares = evaluation_shares(&pos, theirs);
            assert!(
                shares.windows(2).all(|w| w[0].1 >= w[1].1),
                "{empties} empties: {shares:?}"
            );
            if empties < EVAL_ORDER_EMPTIES {
                assert!(shares.iter().all(|&(_, share)| share == 0), "{shares:?}");
            }
        }
    }

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
