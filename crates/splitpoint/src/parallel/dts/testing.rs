//! Test hooks: the iterative search against the recursive one.

use std::sync::atomic::AtomicBool;

use super::{Searcher, Stack};
use crate::driver::{Recursive, RootSearch, RootWindow, root_moves};
use crate::game::{Evaluator, Game};
use crate::score::{INFINITY, Score};
use crate::search::{SearchContext, Worker};
use crate::stats::Stats;
use crate::tt::TranspositionTable;

/// What one single-threaded deepening found.
#[derive(Clone, Debug, PartialEq)]
pub struct SerialRun<M> {
    /// The last iteration's score.
    pub score: Score,
    /// The root move at the front after the last iteration.
    pub best_move: Option<M>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Everything counted, nodes included.
    pub stats: Stats,
}

/// Deepens `root` to `depth` single-threaded, each on a fresh 1 MiB table
/// and a fresh worker, with the recursive search and with the iterative
/// one; iterations before the last use a full window, the last
/// `window`. Returns (recursive, iterative): they must be equal.
pub fn iterative_vs_recursive<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    depth: i32,
    exact: bool,
    window: (Score, Score),
) -> (SerialRun<G::Move>, SerialRun<G::Move>) {
    (
        deepen(root, eval, depth, exact, window, false),
        deepen(root, eval, depth, exact, window, true),
    )
}

fn deepen<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    depth: i32,
    exact: bool,
    window: (Score, Score),
    iterative: bool,
) -> SerialRun<G::Move> {
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let ctx = SearchContext::new(&tt, eval, &stop, exact);
    let mut worker = Worker::new();
    let mut stack = Stack::new(0);
    let mut legal = G::Moves::default();
    root.generate_moves(&mut legal);
    let mut root_moves = root_moves(&legal);
    let mut score = 0;
    if !root_moves.is_empty() {
        for d in 1..=depth {
            let (alpha, beta) = if d == depth {
                window
            } else {
                (-INFINITY, INFINITY)
            };
            let w = RootWindow {
                alpha,
                beta,
                depth: d,
            };
            let searched = if iterative {
                Searcher::new(&mut worker, &ctx, &mut stack, None).search_root(
                    root,
                    &mut root_moves,
                    w,
                )
            } else {
                Recursive {
                    worker: &mut worker,
                    ctx: &ctx,
                }
                .search_root(root, &mut root_moves, w)
            };
            score = searched.expect("nothing stops these searches");
        }
    }
    SerialRun {
        score,
        best_move: root_moves.first().map(|r| r.mv),
        pv: worker.pv().to_vec(),
        stats: worker.stats,
    }
}
