//! Checks of the search: exact mode against negamax, every algorithm against
//! the serial search, the two serial searches against each other, and stop.

use std::fmt::Debug;
use std::ops::Range;
use std::time::{Duration, Instant};

use splitpoint::oracle::negamax;
use splitpoint::testing::SerialRun;
use splitpoint::{
    Algorithm, Engine, Evaluator, Game, Limits, Score, SearchResult, Stats, StopHandle, from_table,
};
use splitpoint_games::othello::{Othello, OthelloEval};
use splitpoint_games::synthetic::SyntheticEval;

use super::{random_othello, tree};

/// Each (position, depth) with its negamax score: the cases the exactness
/// checks take.
pub fn with_negamax<G: Game, E: Evaluator<G>>(
    eval: &E,
    cases: impl IntoIterator<Item = (G, i32)>,
) -> Vec<(G, i32, Score)> {
    cases
        .into_iter()
        .map(|(pos, depth)| {
            let score = negamax(&pos, eval, depth);
            (pos, depth, score)
        })
        .collect()
}

/// For each (seed, plies, depth), `random_othello(seed, plies)` to `depth`
/// with its negamax score (`OthelloEval`), unless the game has ended.
pub fn othello_cases(cases: impl Iterator<Item = (u64, usize, i32)>) -> Vec<(Othello, i32, Score)> {
    let positions = cases.map(|(seed, plies, depth)| (random_othello(seed, plies), depth));
    with_negamax(
        &OthelloEval,
        positions.filter(|(pos, _)| pos.outcome().is_none()),
    )
}

/// Under each of `evals`, exact-mode search scores each (position, depth)
/// as negamax does; with `check_best_move`, the best move's child scores the
/// same (its mate scores count plies from the child).
pub fn assert_exact_equals_negamax<G: Game + Debug, E: Evaluator<G> + Clone + Debug>(
    evals: &[E],
    cases: &[(&G, i32)],
    check_best_move: bool,
) {
    for eval in evals {
        let mut engine = Engine::new(eval.clone(), 4);
        for &(pos, depth) in cases {
            let expected = negamax(pos, eval, depth);
            engine.clear();
            let r = engine.search(pos, &Limits::to_depth(depth).exact());
            let tag = format!("{pos:?} depth {depth}, {eval:?}");
            assert_eq!(r.score, expected, "{tag}");
            if let (true, Some(mv)) = (check_best_move, r.best_move) {
                let child = -negamax(&pos.play(mv), eval, depth - 1);
                assert_eq!(from_table(child, 1), expected, "{tag}: best move");
            }
        }
    }
}

/// Every algorithm at 1, 2, 3, 4 and 8 threads scores each (position,
/// depth, serial score) in exact mode as the serial search does, to the
/// full depth.
pub fn assert_every_algorithm_exact<G: Game + Debug, E: Evaluator<G> + Clone>(
    eval: &E,
    cases: &[(G, i32, Score)],
) {
    for algorithm in Algorithm::ALL {
        for threads in [1, 2, 3, 4, 8] {
            let mut engine = Engine::new(eval.clone(), 4);
            engine.set_parallelism(algorithm, threads);
            for (pos, depth, score) in cases {
                engine.clear();
                let r = engine.search(pos, &Limits::to_depth(*depth).exact());
                assert_eq!(r.score, *score, "{algorithm} × {threads} on {pos:?}");
                assert_eq!(r.depth, *depth);
            }
        }
    }
}

/// `algorithm` on `threads` threads searches each (position, depth, negamax
/// score) in exact mode, with one table of `tt_mb` cleared before each:
/// each reaches its depth, scores as negamax, and names a move that scores
/// so too. Returns the results, in order.
pub fn assert_cases_exact<G: Game, E: Evaluator<G> + Clone>(
    eval: &E,
    tt_mb: usize,
    algorithm: Algorithm,
    threads: usize,
    cases: &[(G, i32, Score)],
) -> Vec<SearchResult<G::Move>> {
    let mut engine = Engine::new(eval.clone(), tt_mb);
    engine.set_parallelism(algorithm, threads);
    cases
        .iter()
        .map(|(pos, depth, expected)| {
            engine.clear();
            let r = engine.search(pos, &Limits::to_depth(*depth).exact());
            let text = pos.position_text();
            let tag = format!("{algorithm} × {threads} at depth {depth} on {text}");
            assert_eq!(r.depth, *depth, "{tag}: depth");
            assert_exact_result(&r, pos, eval, *depth, *expected, &tag);
            r
        })
        .collect()
}

/// Asserts that `r`, an exact search of `pos` to `depth`, scores `expected`
/// (negamax's), that its best move's child scores the same, and that its
/// line is one the game allows.
#[track_caller]
pub fn assert_exact_result<G: Game, E: Evaluator<G>>(
    r: &SearchResult<G::Move>,
    pos: &G,
    eval: &E,
    depth: i32,
    expected: Score,
    tag: &str,
) {
    assert_eq!(r.score, expected, "{tag}: score");
    let mv = r.best_move.expect("a move");
    assert_eq!(
        -negamax(&pos.play(mv), eval, depth - 1),
        expected,
        "{tag}: best move"
    );
    assert_legal_line(pos, &r.pv, tag);
}

/// Asserts that `line` can be played from `pos`, move after move.
#[track_caller]
pub fn assert_legal_line<G: Game>(pos: &G, line: &[G::Move], tag: &str) {
    let mut at = pos.clone();
    for (k, &mv) in line.iter().enumerate() {
        assert!(
            at.outcome().is_none() && at.legal_moves().contains(&mv),
            "{tag}: move {k} of the line {line:?} is not legal"
        );
        at = at.play(mv);
    }
}

/// `algorithm` on `threads` threads searches the trees `b=6,d=8,q=0.6` of
/// `seeds` in exact mode, one table for all, big enough that helpers join
/// below the root: each scores as negamax and names a move that does.
/// Returns the splits (published workloads) among them.
pub fn bigger_trees_splits(algorithm: Algorithm, threads: usize, seeds: Range<u64>) -> u64 {
    let mut engine = Engine::new(SyntheticEval, 4);
    engine.set_parallelism(algorithm, threads);
    let mut splits = 0;
    for seed in seeds {
        let root = tree(&format!("b=6,d=8,seed={seed},q=0.6"));
        let expected = negamax(&root, &SyntheticEval, 8);
        let r = engine.search(&root, &Limits::to_depth(8).exact());
        let tag = format!("{algorithm} × {threads}, seed {seed}");
        assert_exact_result(&r, &root, &SyntheticEval, 8, expected, &tag);
        splits += r.stats.splits;
    }
    splits
}

/// Asserts that the recursive and the iterative serial search (the pair
/// `iterative_vs_recursive` returns) took the same steps: the same score,
/// nodes, best move, PV and statistics. Returns the statistics.
#[track_caller]
pub fn assert_same_steps<M: PartialEq + Debug>(
    (recursive, iterative): (SerialRun<M>, SerialRun<M>),
    tag: &str,
) -> Stats {
    assert!(recursive.stats.nodes > 0, "{tag}: nothing searched");
    assert_eq!(iterative.score, recursive.score, "{tag}: score");
    assert_eq!(iterative.stats.nodes, recursive.stats.nodes, "{tag}: nodes");
    assert_eq!(iterative.best_move, recursive.best_move, "{tag}: best move");
    assert_eq!(iterative.pv, recursive.pv, "{tag}: pv");
    assert_eq!(iterative.stats, recursive.stats, "{tag}: stats");
    recursive.stats
}

/// Runs `search` while another thread raises `stop` after `after`; returns
/// what it returned and the time from the stop to its return.
pub fn stopped_after<R>(
    stop: StopHandle,
    after: Duration,
    search: impl FnOnce() -> R,
) -> (R, Duration) {
    std::thread::scope(|s| {
        let stopper = s.spawn(move || {
            std::thread::sleep(after);
            stop.stop();
            Instant::now()
        });
        let result = search();
        let stopped_at = stopper.join().unwrap();
        (result, stopped_at.elapsed())
    })
}
