//! Exact endgame scoring ([`OthelloExact`]): the evaluator of exact solves,
//! the fastest-first move key it shares with the dedicated solver for the
//! last empties (`solver`, below [`SOLVE_EMPTIES`]), and the thresholds at
//! which the generic search hands over to the solver, probes its children
//! and shares nodes. The measurements behind the thresholds are in
//! `docs/lab/2026-11-22-solve-empties.md`,
//! `docs/lab/2026-11-28-solver-techniques.md`,
//! `docs/lab/2026-11-26-solver-idle-asks-before-sleep.md` and
//! `docs/lab/2026-11-28-solver-eval-ordering-pair.md`.
//!
//! [`OthelloExact::solve_leaf`] also offers the stability cut-off above
//! [`SOLVE_EMPTIES`]: a correct fail-low bound whenever the depth reaches the
//! end of the game.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use splitpoint::{Evaluator, Game, INFINITY, OrderNode, Outcome, Score};

use super::board::{Othello, OthelloMove, flips, mobility};
use super::eval::{CORNERS, POINTS_PER_DISC};
use super::patterns::embedded_score;

mod shallow;
mod solver;

pub use shallow::ordering_nodes;
use solver::{NO_SCORE, QUADRANT_OF, parity_of, solve_any, split_count, stability_cutoff};

/// The positions after the last move that [`OthelloExact::solve`] has
/// counted (see [`last_move_nodes`]), summed over every thread.
static LAST_MOVE_NODES: AtomicU64 = AtomicU64::new(0);

/// The positions after the last move of a game among the nodes that
/// [`OthelloExact::solve`] (and so the generic search's leaf solver) has
/// counted since the program started, over every thread; a solve's share
/// is the difference across it. Edax's `board_solve_2` counts no node for
/// them: a count less these is comparable with its published ones.
pub fn last_move_nodes() -> u64 {
    LAST_MOVE_NODES.load(Relaxed)
}

/// The most empties [`OthelloExact::solve_leaf`] solves on its own; above it
/// the generic search (with its transposition table) carries on. Larger
/// values cost about the same single-threaded; the smallest keeps the
/// solver's indivisible leaves short for the parallel searches.
pub const SOLVE_EMPTIES: u32 = 8;

/// From this many empties up, nodes look for enhanced transposition
/// cut-offs ([`Evaluator::transposition_cutoffs_pay`]); below it their
/// children are left to the solver, which stores nothing in the table.
const ETC_EMPTIES: u32 = SOLVE_EMPTIES + 2;

/// The depth of the shallow search ([`shallow::search`], the learned
/// patterns at its leaves) by which the generic search orders each move far
/// from the end, besides the fastest-first key: `SORT_DEPTH_FROM[d]` is the
/// fewest empties at which it searches `d` plies below the move (0: the
/// evaluation of the position the move leaves, 1: of the opponent's best
/// reply to it, ...); below `SORT_DEPTH_FROM[0]` no evaluation. Edax and
/// Egaroucid order their deep endgame nodes by such searches, their depth
/// growing with the empties. It saves nodes single-threaded, and more at
/// two threads, where a CUT node that cuts on a late move wastes the moves
/// shared beside it. The schedules tried are in
/// `docs/lab/2026-12-02-othello-solver-ordering.md` and, on the window
/// around alpha ([`SORT_ALPHA_MARGIN`]), in
/// `docs/lab/2026-12-02-othello-solver-nodes.md`.
const SORT_DEPTH_FROM: [u32; 5] = [14, 17, 20, 23, 26];

/// Midgame-evaluation points (3 discs' worth) that weigh as much in a move's
/// key as one reply fewer for the opponent.
const EVAL_POINTS_PER_REPLY: i32 = 3 * POINTS_PER_DISC;

/// The shallow-search depth [`SORT_DEPTH_FROM`] gives a node with
/// `empties` empty squares, if any.
#[inline]
fn sort_depth(empties: u32) -> Option<u32> {
    SORT_DEPTH_FROM
        .iter()
        .rposition(|&from| empties >= from)
        .map(|d| d as u32)
}

/// The fewest empties at which a parallel search may share a node
/// ([`Evaluator::splits_pay`]): below it a subtree takes a few
/// microseconds; much above it the helper is left idle.
const SPLIT_EMPTIES: u32 = SOLVE_EMPTIES + 2;

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
        let mut count = 0;
        let score = solve_any(
            p,
            o,
            alpha.max(NO_SCORE),
            beta.min(-NO_SCORE),
            parity_of(!(p | o)),
            &mut count,
        );
        let (all, after_last) = split_count(count);
        *nodes += all;
        if after_last > 0 {
            LAST_MOVE_NODES.fetch_add(after_last, Relaxed);
        }
        score
    }

    /// The fastest-first key of `mv` (what [`Evaluator::order_moves_at`]
    /// gives a move before its shallow search).
    #[cfg(test)]
    fn move_key(pos: &Othello, mv: OthelloMove, parity: u8) -> i32 {
        let Some(sq) = mv.square() else { return 0 };
        let sq = sq as usize;
        let (p, o) = (pos.player(), pos.opponent());
        let flipped = flips(sq, p, o);
        fastest_first_key(sq, o ^ flipped, p | flipped | (1 << sq), parity)
    }
}

/// The midgame evaluation the solver orders moves by and its presearch
/// ends on: the learned patterns with the committed weights
/// ([`super::OthelloPatterns`]); what it saves over the hand-set
/// [`super::OthelloEval`] is measured in
/// `docs/lab/2026-12-02-othello-patterns.md`.
#[inline]
fn midgame_score(pos: &Othello) -> Score {
    embedded_score(pos)
}

/// The score of the move that led to `child` for the side that made it, by
/// a fail-soft shallow search `depth` plies below it, in the midgame
/// evaluation's points: exact above `floor`; at or below it, an upper bound
/// on the exact score no higher than `floor`.
#[cfg(test)]
fn shallow_score(child: &Othello, depth: u32, floor: Score, nodes: &mut u64) -> Score {
    let infinite = shallow::INFINITE;
    -shallow::search(
        child.player(),
        child.opponent(),
        -infinite,
        -floor,
        depth,
        nodes,
    )
}

/// How many plies shallower the shallow searches go at a node whose table
/// entry's upper bound is at most its alpha (the node is expected to fail
/// low, and its moves' order matters less): Edax lowers its sort depth so,
/// by 2; 1 cost the fewest nodes on FFO #40–#44
/// (`docs/lab/2026-12-02-othello-solver-time.md`).
const SORT_DEPTH_CUT_EXPECTED_LOW: u32 = 1;

/// The deepest shallow search a node with `depth` plies left may order its
/// moves by, besides [`SORT_DEPTH_FROM`]'s bound by empties: the children's
/// scores with 1 to 3 plies left, `(depth - 2) / 2` plies below them from
/// 4, none at 0. A solve's nodes have at least twice their
/// empties left, so this binds only in the presearch ([`Limits::presearch`]),
/// whose nodes far from the end would otherwise spend a 4-ply search on
/// each move to order a search of a few plies: on FFO #59 (34 empties) the
/// ordering took 1,809M of 1,842M nodes, 118M in all with the bound; on
/// #40–#49, 1,047M nodes in all instead of 1,086M
/// (`docs/lab/2026-12-03-othello-ffo-40-59.md`).
///
/// [`Limits::presearch`]: splitpoint::Limits::presearch
#[inline]
fn sort_depth_for_plies(depth: i32) -> Option<u32> {
    (depth >= 1).then(|| (depth - 2).max(0) as u32 / 2)
}

/// How many discs below a node's alpha its moves' shallow searches still
/// score them exactly (Edax's `SORT_ALPHA_DELTA`): a move worse than that
/// is expected to fail low, and a bound places it well enough among the
/// late moves, for fewer of the shallow searches' nodes (measured in
/// `docs/lab/2026-12-02-othello-solver-nodes.md`).
const SORT_ALPHA_MARGIN: Score = 8;

/// The score of `pos` for its side to move after its best move by the
/// midgame evaluation, one ply deep (its own score when it has none: the
/// game is over).
fn best_reply(pos: &Othello) -> Score {
    let mut moves = <Othello as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| -midgame_score(&pos.play(mv)))
        .max()
        .unwrap_or_else(|| midgame_score(pos))
}

impl Evaluator<Othello> for OthelloExact {
    /// Only reached when a depth limit stops the search before the game
    /// ends, as in the solver's presearch ([`Limits::presearch`]): the
    /// midgame evaluation in discs, clamped to the final scores' range: the
    /// bare disc difference ordered the solve behind the presearch worse than
    /// no presearch at all.
    ///
    /// [`Limits::presearch`]: splitpoint::Limits::presearch
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        (midgame_score(pos) / POINTS_PER_DISC).clamp(-64, 64)
    }

    #[inline]
    fn terminal_score(&self, pos: &Othello, _outcome: Outcome, _ply: usize) -> Score {
        pos.final_score()
    }

    /// [`Evaluator::order_moves_at`] on a full window.
    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        let full = OrderNode {
            alpha: -INFINITY,
            beta: INFINITY,
            // No depth is known: bound the shallow searches by empties alone.
            depth: i32::MAX,
            table_upper: None,
        };
        self.order_moves_at(pos, moves, keys, full);
    }

    /// The fastest-first key; far from the end ([`SORT_DEPTH_FROM`]) plus
    /// the move's score by a shallow search, the best for the mover first,
    /// exact down to [`SORT_ALPHA_MARGIN`] below the node's alpha, a bound
    /// below that, and [`SORT_DEPTH_CUT_EXPECTED_LOW`] plies shallower where
    /// the table's upper bound is at most alpha. The shallow searches' nodes
    /// are counted in [`ordering_nodes`].
    fn order_moves_at(
        &self,
        pos: &Othello,
        moves: &[OthelloMove],
        keys: &mut [i32],
        node: OrderNode,
    ) {
        let parity = parity_of(pos.empties());
        let mut depth = sort_depth(pos.empty_count());
        if node.table_upper.is_some_and(|upper| upper <= node.alpha) {
            depth = depth.and_then(|d| d.checked_sub(SORT_DEPTH_CUT_EXPECTED_LOW));
        }
        depth = depth
            .zip(sort_depth_for_plies(node.depth))
            .map(|(d, most)| d.min(most));
        let floor = (node.alpha.clamp(-65, 64) - SORT_ALPHA_MARGIN) * POINTS_PER_DISC;
        let mut nodes = 0;
        let (p, o) = (pos.player(), pos.opponent());
        for (key, &mv) in keys.iter_mut().zip(moves) {
            let Some(sq) = mv.square() else {
                *key = 0;
                continue;
            };
            let sq = sq as usize;
            // The child's sides: the opponent to move.
            let flipped = flips(sq, p, o);
            let (np, no) = (o ^ flipped, p | flipped | (1 << sq));
            *key = fastest_first_key(sq, np, no, parity);
            if let Some(depth) = depth {
                let theirs = shallow::search(np, no, -shallow::INFINITE, -floor, depth, &mut nodes);
                *key -= theirs * REPLY_WEIGHT / EVAL_POINTS_PER_REPLY;
            }
        }
        if nodes > 0 {
            shallow::count(nodes);
        }
    }

    /// The root, met with no shallow iteration before the solve: each move
    /// by the opponent's best reply under the midgame evaluation, the move
    /// that leaves it worst first: fewer nodes than the generator's order,
    /// the fastest-first keys or each child's own score.
    fn order_root_moves(&self, pos: &Othello, moves: &mut [OthelloMove]) {
        moves.sort_by_key(|&mv| best_reply(&pos.play(mv)));
    }

    /// Far from the end a child's table bound often refutes it already, and
    /// the probes cost little beside the subtree they may save.
    #[inline]
    fn transposition_cutoffs_pay(&self, pos: &Othello, _depth: i32) -> bool {
        pos.empty_count() >= ETC_EMPTIES
    }

    /// The table's move first, the shallow searches only if it does not
    /// cut: fewer of their nodes, and less time per node, for the same
    /// tree (`docs/lab/2026-12-02-othello-solver-time.md`).
    #[inline]
    fn defers_ordering(&self) -> bool {
        true
    }

    /// MTD(f)'s probes search the same nodes again on nearby windows: a
    /// node that failed low is next tried from its move that came nearest
    /// (`docs/lab/2026-12-02-othello-solver-time.md`).
    #[inline]
    fn stores_fail_low_move(&self) -> bool {
        true
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
    fn evaluation_shares(pos: &Othello, theirs: impl Fn(&Othello) -> Score) -> Vec<(Score, i32)> {
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
    fn moves_far_below_alpha_get_a_bound_no_better_than_the_margin() {
        // FFO #41 (22 empties): the shallow searches go 2 plies below each move.
        let pos = ffo_positions()[1].position;
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let parity = parity_of(pos.empties());
        let shares = |node: OrderNode| {
            let mut keys = vec![0; moves.len()];
            OthelloExact.order_moves_at(&pos, &moves, &mut keys, node);
            let plain = moves
                .iter()
                .map(|&mv| OthelloExact::move_key(&pos, mv, parity));
            keys.iter()
                .zip(plain)
                .map(|(k, p)| k - p)
                .collect::<Vec<i32>>()
        };
        let full = shares(OrderNode {
            alpha: -INFINITY,
            beta: INFINITY,
            depth: 44,
            table_upper: None,
        });
        let mut full_keys = vec![0; moves.len()];
        OthelloExact.order_moves(&pos, &moves, &mut full_keys);
        let plain: Vec<i32> = (moves.iter())
            .map(|&mv| OthelloExact::move_key(&pos, mv, parity))
            .collect();
        let plain_shares: Vec<i32> = full_keys.iter().zip(&plain).map(|(k, p)| k - p).collect();
        assert_eq!(plain_shares, full, "order_moves is the full window");
        let (lowest, highest) = (*full.iter().min().unwrap(), *full.iter().max().unwrap());
        assert!(lowest < highest, "the moves differ: {full:?}");
        let mut bounded = 0;
        for alpha in -20..=20 {
            let floor = (alpha - SORT_ALPHA_MARGIN) * POINTS_PER_DISC;
            let at_floor = floor * REPLY_WEIGHT / EVAL_POINTS_PER_REPLY;
            let narrow = shares(OrderNode {
                alpha,
                beta: alpha + 1,
                depth: 30,
                table_upper: None,
            });
            for (&exact, &share) in full.iter().zip(&narrow) {
                if exact > at_floor {
                    assert_eq!(share, exact, "alpha {alpha}: exact above the floor");
                } else {
                    assert!(
                        exact <= share && share <= at_floor,
                        "alpha {alpha}: {exact} <= {share} <= {at_floor}"
                    );
                    bounded += usize::from(share != exact);
                }
            }
        }
        assert!(bounded > 0, "some move is only bounded");
    }

    #[test]
    fn a_node_with_few_plies_left_orders_by_a_shallower_search() {
        // FFO #41 (22 empties): 2 plies below each move by empties alone.
        let pos = ffo_positions()[1].position;
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let parity = parity_of(pos.empties());
        let keys_at = |depth: i32| {
            let mut keys = vec![0; moves.len()];
            let node = OrderNode {
                alpha: -INFINITY,
                beta: INFINITY,
                depth,
                table_upper: None,
            };
            OthelloExact.order_moves_at(&pos, &moves, &mut keys, node);
            keys
        };
        let plain: Vec<i32> = (moves.iter())
            .map(|&mv| OthelloExact::move_key(&pos, mv, parity))
            .collect();
        let with_search = |depth: u32| -> Vec<i32> {
            (moves.iter().zip(&plain))
                .map(|(&mv, &p)| {
                    let theirs = -shallow_score(&pos.play(mv), depth, -shallow::INFINITE, &mut 0);
                    p - theirs * REPLY_WEIGHT / EVAL_POINTS_PER_REPLY
                })
                .collect()
        };
        assert_eq!(keys_at(0), plain, "no ply left: no shallow search");
        assert_eq!(
            keys_at(1),
            with_search(0),
            "1 ply left: the children's scores"
        );
        assert_eq!(
            keys_at(3),
            with_search(0),
            "3 plies left: the children's scores"
        );
        assert_eq!(
            keys_at(4),
            with_search(1),
            "4 plies left: their best replies"
        );
        assert_eq!(
            keys_at(44),
            with_search(2),
            "a solve's node: as its empties say"
        );
        assert_eq!(
            keys_at(i32::MAX),
            with_search(2),
            "no depth known: as the empties say"
        );
    }

    #[test]
    fn far_from_the_end_moves_are_ordered_by_a_shallow_search_too() {
        // FFO #40 (20 empties), played on to 13 empties, one threshold
        // after another.
        let mut pos = ffo_positions()[0].position;
        assert_eq!(sort_depth(pos.empty_count()), Some(2));
        let mut depths_seen = Vec::new();
        while pos.empty_count() + 1 >= SORT_DEPTH_FROM[0] {
            let empties = pos.empty_count();
            let depth = sort_depth(empties);
            depths_seen.push(depth);
            let theirs = |child: &Othello| match depth {
                Some(d) => -shallow_score(child, d, -shallow::INFINITE, &mut 0),
                None => 0,
            };
            let shares = evaluation_shares(&pos, theirs);
            assert!(
                shares.windows(2).all(|w| w[0].1 >= w[1].1),
                "{empties} empties: the better the opponent's score, the later the move: {shares:?}"
            );
            match depth {
                None => assert!(shares.iter().all(|&(_, share)| share == 0), "{shares:?}"),
                Some(_) if shares.len() > 1 => {
                    assert!(
                        shares.first().unwrap().1 > shares.last().unwrap().1,
                        "{shares:?}"
                    )
                }
                Some(_) => {}
            }
            // Depths 0 and 1 are the position's evaluation and its best
            // reply's.
            let mut moves = <Othello as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let child = pos.play(mv);
                assert_eq!(
                    shallow_score(&child, 0, -shallow::INFINITE, &mut 0),
                    -midgame_score(&child)
                );
                if child.legal_squares() != 0 {
                    assert_eq!(
                        shallow_score(&child, 1, -shallow::INFINITE, &mut 0),
                        -best_reply(&child)
                    );
                }
            }
            pos = pos.play(moves[0]);
        }
        assert!(depths_seen.contains(&Some(0)) && depths_seen.contains(&None));
    }
}
