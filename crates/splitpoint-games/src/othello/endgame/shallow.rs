//! The shallow searches the generic search's move ordering runs far from
//! the end: fail-soft alpha-beta on two bitboards to a few plies, the
//! learned pattern evaluation at the leaves, no table (Edax and Egaroucid
//! order their deep endgame nodes by such searches). Their nodes are
//! counted in [`ordering_nodes`], apart from the search's own.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::othello::board::{final_score, flips, mobility};
use crate::othello::eval::POINTS_PER_DISC;
use crate::othello::patterns::embedded_weights;

use super::fastest_first_key;
use super::solver::parity_of;

/// Above every score a shallow search returns (in evaluation points).
pub(super) const INFINITE: i32 = 1 << 20;

/// The positions the ordering's shallow searches have visited (each leaf
/// evaluated and each inner node), summed over every thread since the
/// program started. A solve's share is the difference across it.
static ORDERING_NODES: AtomicU64 = AtomicU64::new(0);

/// The positions the solver's move ordering has searched so far (see the
/// module's doc): add them to a search's own nodes for its whole work.
pub fn ordering_nodes() -> u64 {
    ORDERING_NODES.load(Ordering::Relaxed)
}

/// Adds one ordering's nodes to [`ORDERING_NODES`] (once per node ordered,
/// not per position: the counter is shared by every thread).
#[inline]
pub(super) fn count(nodes: u64) {
    ORDERING_NODES.fetch_add(nodes, Ordering::Relaxed);
}

/// The pattern evaluation of `p` to move, in its points, clamped to the
/// final scores' range.
#[inline]
fn evaluate(p: u64, o: u64) -> i32 {
    let limit = 64 * POINTS_PER_DISC;
    embedded_weights().raw_score(p, o).clamp(-limit, limit)
}

/// The score of `p` to move (`o` the other side) by a fail-soft alpha-beta
/// search `depth` plies deep on the window `(alpha, beta)`, in evaluation
/// points; finished games score their final disc difference. Passes do not
/// count as plies. Children are tried by the fastest-first key.
pub(super) fn search(p: u64, o: u64, alpha: i32, beta: i32, depth: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return evaluate(p, o);
    }
    let mut moves = mobility(p, o);
    if moves == 0 {
        if mobility(o, p) == 0 {
            return final_score(p, o) * POINTS_PER_DISC;
        }
        return -search(o, p, -beta, -alpha, depth, nodes);
    }
    let mut alpha = alpha;
    let mut best = -INFINITE;
    if depth == 1 {
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            *nodes += 1;
            let v = -evaluate(o ^ f, p | f | (1 << sq));
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
        return best;
    }
    let parity = parity_of(!(p | o));
    // (key, new player, new opponent) per move.
    let mut list = [(0i32, 0u64, 0u64); 32];
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(sq, p, o);
        let (np, no) = (o ^ f, p | f | (1 << sq));
        list[n] = (fastest_first_key(sq, np, no, parity), np, no);
        n += 1;
    }
    for i in 0..n {
        let mut top = i;
        for j in i + 1..n {
            if list[j].0 > list[top].0 {
                top = j;
            }
        }
        list.swap(i, top);
        let (_, np, no) = list[i];
        let v = -search(np, no, -beta, -alpha, depth - 1, nodes);
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

    /// Plain negamax over the same tree: every move, no window.
    fn negamax(p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return evaluate(p, o);
        }
        let mut moves = mobility(p, o);
        if moves == 0 {
            if mobility(o, p) == 0 {
                return final_score(p, o) * POINTS_PER_DISC;
            }
            return -negamax(o, p, depth);
        }
        let mut best = -INFINITE;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            best = best.max(-negamax(o ^ f, p | f | (1 << sq), depth - 1));
        }
        best
    }

    #[test]
    fn the_shallow_search_returns_the_negamax_score_and_counts_its_nodes() {
        for ffo in ffo_positions().iter().take(6) {
            let (p, o) = (ffo.position.player(), ffo.position.opponent());
            for depth in 0..=3 {
                let mut nodes = 0;
                let score = search(p, o, -INFINITE, INFINITE, depth, &mut nodes);
                assert_eq!(score, negamax(p, o, depth), "FFO #{} depth {depth}", ffo.id);
                // The root, and on a full window every child at least once.
                let children = u64::from(mobility(p, o).count_ones());
                if depth == 0 {
                    assert_eq!(nodes, 1);
                } else {
                    assert!(nodes > children, "{nodes} nodes, {children} children");
                }
                // Fail-soft on a null window: a bound on the right side.
                let mut n = 0;
                let high = search(p, o, score - 1, score, depth, &mut n);
                assert!(high >= score, "FFO #{} depth {depth}", ffo.id);
                let low = search(p, o, score, score + 1, depth, &mut n);
                assert!(low <= score, "FFO #{} depth {depth}", ffo.id);
            }
        }
    }
}
