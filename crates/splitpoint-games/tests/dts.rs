//! Dynamic Tree Splitting: the iterative search it runs on takes exactly the
//! recursive search's steps, and the parallel search keeps the exactness
//! invariant at every thread count.

use std::time::{Duration, Instant};

use splitpoint::oracle::negamax;
use splitpoint::testing::iterative_vs_recursive;
use splitpoint::{Algorithm, Engine, Evaluator, Game, INFINITY, Limits, MoveList};
use splitpoint_games::othello::{Othello, OthelloEval, OthelloExact};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

mod common;
use common::tree;

const THREADS: [usize; 5] = [1, 2, 3, 4, 8];

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
fn dts_is_exact_on_synthetic_trees() {
    let trees: Vec<(Synthetic, i32, i32)> = (0..100u64)
        .map(|seed| {
            let b = 3 + seed % 5; // 3..7
            let d = 4 + seed % 3; // 4..6
            let q = (seed % 4) as f32 / 3.0;
            let root = tree(&format!("b={b},d={d},seed={seed},q={q}"));
            let depth = d as i32;
            (root, depth, negamax(&root, &SyntheticEval, depth))
        })
        .collect();
    for threads in THREADS {
        let mut engine = Engine::new(SyntheticEval, 1);
        engine.set_parallelism(Algorithm::Dts, threads);
        for (root, depth, expected) in &trees {
            engine.clear();
            let r = engine.search(root, &Limits::to_depth(*depth).exact());
            let tag = format!("dts × {threads} on {}", root.position_text());
            assert_eq!(r.score, *expected, "{tag}: score");
            assert_eq!(r.depth, *depth, "{tag}: depth");
            let mv = r.best_move.expect("a move");
            assert_eq!(
                -negamax(&root.play(mv), &SyntheticEval, depth - 1),
                *expected,
                "{tag}: best move"
            );
        }
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
            assert_eq!(r.score, expected, "dts × {threads}, seed {seed}");
            let mv = r.best_move.expect("a move");
            assert_eq!(
                -negamax(&root.play(mv), &SyntheticEval, 7),
                expected,
                "dts × {threads}, seed {seed}: best move"
            );
            splits += r.stats.splits;
        }
        assert!(splits > 0, "dts × {threads} never split");
    }
}

#[test]
fn dts_is_exact_on_othello() {
    let mut pos = Othello::parse_position("start").unwrap();
    for text in ["f5", "d6", "c3", "d3", "c4", "f4"] {
        pos = pos.play(pos.parse_move(text).unwrap());
    }
    let expected = negamax(&pos, &OthelloEval, 5);
    for threads in [2, 4] {
        let mut engine = Engine::new(OthelloEval, 4);
        engine.set_parallelism(Algorithm::Dts, threads);
        let r = engine.search(&pos, &Limits::to_depth(5).exact());
        assert_eq!(r.score, expected, "dts × {threads}");
    }
}

#[test]
fn dts_stops_promptly() {
    let huge = tree("b=30,d=60,seed=5,q=0.3");
    for threads in 1..=8 {
        let mut engine = Engine::new(SyntheticEval, 8);
        engine.set_parallelism(Algorithm::Dts, threads);
        let stop = engine.stop_handle();
        let (result, latency) = std::thread::scope(|s| {
            let stopper = s.spawn(move || {
                std::thread::sleep(Duration::from_millis(80));
                stop.stop();
                Instant::now()
            });
            let r = engine.search(&huge, &Limits::default());
            let stopped_at = stopper.join().unwrap();
            (r, stopped_at.elapsed())
        });
        assert!(
            latency < Duration::from_millis(500),
            "dts × {threads}: stop took {latency:?}"
        );
        assert!(result.best_move.is_some(), "dts × {threads}: no move");
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

#[test]
fn a_thousand_short_dts_searches_in_a_row() {
    let mut engine = Engine::new(SyntheticEval, 1);
    engine.set_parallelism(Algorithm::Dts, 3);
    for i in 0..1000u64 {
        let root = tree(&format!("b=4,d=4,seed={i}"));
        let r = engine.search(&root, &Limits::to_depth(4).exact());
        assert_eq!(r.score, root.value(), "search {i}");
    }
}

#[test]
fn dts_normal_mode_gives_legal_moves_and_sane_scores() {
    for threads in THREADS {
        let mut engine = Engine::new(SyntheticEval, 2);
        engine.set_parallelism(Algorithm::Dts, threads);
        for seed in 0..8 {
            let root = tree(&format!("b=5,d=7,seed={seed},q=0.5"));
            let r = engine.search(&root, &Limits::to_depth(7));
            let mv = r.best_move.expect("a move");
            assert!(mv < 5);
            // A tree has no transpositions, so even the table's cutoffs are exact.
            assert_eq!(r.score, root.value(), "dts × {threads}, seed {seed}");
        }
    }
}
