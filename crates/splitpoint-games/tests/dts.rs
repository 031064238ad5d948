//! Dynamic Tree Splitting: the iterative search it runs on takes exactly the
//! recursive search's steps, it splits on bigger trees and stays exact, and
//! honours a movetime. (Exactness at every thread count, stop, repetition and
//! normal mode: `parallel.rs`, for every algorithm.)

use std::time::{Duration, Instant};

use splitpoint::oracle::negamax;
use splitpoint::testing::iterative_vs_recursive;
use splitpoint::{Algorithm, Engine, Game, INFINITY, Limits};
use splitpoint_games::othello::{Othello, OthelloEval, OthelloExact};
use splitpoint_games::synthetic::SyntheticEval;

mod common;
use common::{
    assert_exact_result, assert_legal_line, assert_same_steps, bigger_trees_splits, random_othello,
    tree,
};

const FULL: (i32, i32) = (-INFINITY, INFINITY);

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
                let runs = iterative_vs_recursive(&root, &SyntheticEval, depth, exact, FULL);
                assert_same_steps(runs, &tag);
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
            let exact = seed % 2 == 0;
            let runs = iterative_vs_recursive(&root, &SyntheticEval, d as i32, exact, window);
            assert_same_steps(runs, &tag);
        }
    }
}

#[test]
fn iterative_search_equals_recursive_on_othello() {
    // Every eighth position along one seeded game.
    for ply in (3..48).step_by(8) {
        let pos = random_othello(1, ply);
        for exact in [true, false] {
            let tag = format!("{} exact {exact}", pos.position_text());
            let runs = iterative_vs_recursive(&pos, &OthelloEval, 5, exact, FULL);
            assert_same_steps(runs, &tag);
        }
    }
    // Near the end, with the exact evaluator and its leaf solver. The game
    // goes on here, so none of the positions above came after its end.
    let pos = random_othello(1, 48);
    assert!(!pos.legal_moves().is_empty());
    let runs = iterative_vs_recursive(&pos, &OthelloExact, 8, true, FULL);
    assert_same_steps(runs, &format!("{} exact endgame", pos.position_text()));
}

#[test]
fn dts_splits_on_bigger_trees_and_stays_exact() {
    for threads in [2, 3, 4, 8] {
        let splits = bigger_trees_splits(Algorithm::Dts, threads, 0..6);
        assert!(splits > 0, "dts × {threads} never split");
    }
}

#[test]
fn dts_stays_exact_in_normal_mode_where_frameless_children_answer_requests() {
    // Outside exact mode a child two plies from the horizon gets a frame
    // only while an idle thread asks for work; a request that comes while
    // it is searched is answered from inside it (`ServeFromBelow`), which
    // these trees reach at every thread count. On a tree (no
    // transpositions) normal mode's value is still the minimax value.
    for threads in [2, 3, 4, 8] {
        let mut engine = Engine::new(SyntheticEval, 4);
        engine.set_parallelism(Algorithm::Dts, threads);
        for seed in 0..6 {
            let root = tree(&format!("b=6,d=8,seed={seed},q=0.6"));
            let expected = negamax(&root, &SyntheticEval, 8);
            let r = engine.search(&root, &Limits::to_depth(8));
            let tag = format!("dts × {threads}, normal mode, seed {seed}");
            assert_exact_result(&r, &root, &SyntheticEval, 8, expected, &tag);
        }
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
fn lines_stay_legal_when_a_thread_takes_a_node_over() {
    // The last thread out of a finished split point continues the search
    // above it with the splitter's frames, and must continue the splitter's
    // best lines at those plies too, not its own from elsewhere in the tree
    // (before: an illegal line in 8 of 12 two-thread searches from the start).
    let roots = [
        Othello::start(),
        random_othello(3, 12),
        random_othello(8, 20),
    ];
    for root in roots {
        for threads in [2, 8] {
            for exact in [false, true] {
                let mut engine = Engine::new(OthelloEval, 8);
                engine.set_parallelism(Algorithm::Dts, threads);
                let limits = Limits {
                    exact,
                    ..Limits::to_depth(9)
                };
                for _ in 0..3 {
                    engine.clear();
                    let r = engine.search(&root, &limits);
                    let tag = format!("dts × {threads}, exact {exact}, {}", root.position_text());
                    assert_legal_line(&root, &r.pv, &tag);
                }
            }
        }
    }
}
