//! Dynamic Tree Splitting: the iterative search it runs on takes exactly the
//! recursive search's steps, it splits on bigger trees and stays exact, and
//! honours a movetime. (Exactness at every thread count, stop, repetition and
//! normal mode: `parallel.rs`, for every algorithm.)

use std::time::{Duration, Instant};

use splitpoint::oracle::negamax;
use splitpoint::testing::iterative_vs_recursive;
use splitpoint::{Algorithm, Engine, Evaluator, Game, INFINITY, Limits, MoveList};
use splitpoint_games::othello::{Othello, OthelloEval, OthelloExact};
use splitpoint_games::synthetic::SyntheticEval;

mod common;
use common::{assert_exact_result, tree};

/// Asserts the iterative and recursive searches agree on everything.
fn same_search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    depth: i32,
    exact: bool,
    window: (i32, i32),
    tag: &str,
) {
    let (recursive, iterative) = iterative_vs_recursive(root, eval, depth, exact, window);
    assert!(recursive.stats.nodes > 0, "{tag}: nothing searched");
    assert_eq!(iterative.score, recursive.score, "{tag}: score");
    assert_eq!(iterative.stats.nodes, recursive.stats.nodes, "{tag}: nodes");
    assert_eq!(iterative.best_move, recursive.best_move, "{tag}: best move");
    assert_eq!(iterative.pv, recursive.pv, "{tag}: pv");
    assert_eq!(iterative.stats, recursive.stats, "{tag}: stats");
}

#[test]
fn iterative_search_equals_recursive_on_synthetic_trees() {
    for seed in 0..120u64 {
        let b = 2 + seed % 6; // 2..7
        let d = 3 + seed % 5; // 3..7
        let q = (seed % 5) as f32 / 4.0;
        let root = tree(&format!("b={b},d={d},seed={seed},q={q}"));
        for depth in [1, d as i32 / 2, d as i32, d as i32 + 2] {
            for exact in [true, false] {
                let tag = format!("{} depth {depth} exact {exact}", root.position_text());
                same_search(
                    &root,
                    &SyntheticEval,
                    depth,
                    exact,
                    (-INFINITY, INFINITY),
                    &tag,
                );
            }
        }
        // Narrow windows at the root: fail highs, fail lows, null windows.
        let v = root.value();
        for window in [
            (v - 10, v + 10),
            (v + 5, v + 60),
            (v - 60, v - 5),
            (v, v + 1),
        ] {
            let tag = format!("{} window {window:?}", root.position_text());
            same_search(&root, &SyntheticEval, d as i32, seed % 2 == 0, window, &tag);
        }
    }
}

#[test]
fn iterative_search_equals_recursive_on_othello() {
    let mut pos = Othello::parse_position("start").unwrap();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for ply in 0..48 {
        if ply % 8 == 3 {
            for exact in [true, false] {
                let tag = format!("{} exact {exact}", pos.position_text());
                same_search(&pos, &OthelloEval, 5, exact, (-INFINITY, INFINITY), &tag);
            }
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        pos = pos.play(moves[(rng % moves.len() as u64) as usize]);
    }
    // Near the end, with the exact evaluator and its leaf solver.
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if !moves.is_empty() {
        let tag = format!("{} exact endgame", pos.position_text());
        same_search(&pos, &OthelloExact, 8, true, (-INFINITY, INFINITY), &tag);
    }
}

#[test]
fn dts_splits_on_bigger_trees_and_stays_exact() {
    for threads in [2, 3, 4, 8] {
        let mut engine = Engine::new(SyntheticEval, 4);
        engine.set_parallelism(Algorithm::Dts, threads);
        let mut splits = 0;
        for seed in 0..6 {
            let root = tree(&format!("b=6,d=8,seed={seed},q=0.6"));
            let expected = negamax(&root, &SyntheticEval, 8);
            let r = engine.search(&root, &Limits::to_depth(8).exact());
            assert_exact_result(
                &r,
                &root,
                &SyntheticEval,
                8,
                expected,
                &format!("dts × {threads}, seed {seed}"),
            );
            splits += r.stats.splits;
        }
        assert!(splits > 0, "dts × {threads} never split");
    }
}

#[test]
fn dts_honours_a_movetime() {
    let huge = tree("b=30,d=60,seed=7,q=0.3");
    for threads in [1, 2, 4, 8] {
        let mut engine = Engine::new(SyntheticEval, 8);
        engine.set_parallelism(Algorithm::Dts, threads);
        let start = Instant::now();
        let r = engine.search(&huge, &Limits::for_time(Duration::from_millis(100)));
        assert!(
            start.elapsed() < Duration::from_millis(600),
            "dts × {threads}: took {:?}",
            start.elapsed()
        );
        assert!(r.best_move.is_some(), "dts × {threads}: no move");
    }
}
