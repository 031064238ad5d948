//! The one invariant: exact-mode search returns the plain negamax score.

use splitpoint::oracle::negamax;
use splitpoint::{Engine, Evaluator, Game, Limits, MoveList};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

fn tree(b: u32, d: u32, seed: u64, q: f32) -> Synthetic {
    Synthetic::parse_position(&format!("b={b},d={d},seed={seed},q={q}")).unwrap()
}

/// Whether `mv` is a best move of `pos` at `depth` by the oracle.
fn is_best<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: i32,
    mv: G::Move,
    score: i32,
) -> bool {
    -negamax(&pos.play(mv), eval, depth - 1) == score
}

#[test]
fn pvs_equals_negamax_on_synthetic_trees() {
    let mut engine = Engine::new(SyntheticEval, 1);
    let mut checked = 0;
    for seed in 0..220u64 {
        let b = 2 + (seed % 5) as u32; // 2..6
        let d = 3 + (seed % 4) as u32; // 3..6
        let q = (seed % 11) as f32 / 10.0;
        let root = tree(b, d, seed, q.min(1.0));
        // Search to the leaves and to a horizon above them.
        for depth in [d as i32, (d as i32 - 2).max(1)] {
            let expected = negamax(&root, &SyntheticEval, depth);
            engine.clear();
            let result = engine.search(&root, &Limits::to_depth(depth).exact());
            assert_eq!(
                result.score, expected,
                "seed {seed} b {b} d {d} depth {depth}"
            );
            assert_eq!(result.depth, depth);
            let best = result.best_move.expect("a move");
            assert!(
                is_best(&root, &SyntheticEval, depth, best, expected),
                "seed {seed}: best move not best"
            );
            assert_eq!(result.pv.first(), Some(&best));
            checked += 1;
        }
    }
    assert!(checked >= 400);
}

#[test]
fn single_iteration_equals_iterative_deepening() {
    let mut engine = Engine::new(SyntheticEval, 1);
    for seed in 0..30 {
        let root = tree(5, 6, seed, 0.5);
        let deep = engine.search(&root, &Limits::to_depth(6).exact()).score;
        let once = engine
            .search(
                &root,
                &Limits {
                    single_iteration: true,
                    ..Limits::to_depth(6).exact()
                },
            )
            .score;
        assert_eq!(deep, once);
    }
}

#[test]
fn normal_mode_finds_the_same_value_on_full_trees() {
    // With the TT's cutoffs and aspiration windows the value can only differ
    // through grafting, which a tree (no transpositions) cannot have.
    let mut engine = Engine::new(SyntheticEval, 4);
    for seed in 0..40 {
        let root = tree(4, 7, seed, 0.7);
        let expected = negamax(&root, &SyntheticEval, 7);
        assert_eq!(
            engine.search(&root, &Limits::to_depth(7)).score,
            expected,
            "seed {seed}"
        );
    }
}

#[test]
fn good_ordering_searches_fewer_nodes() {
    let nodes = |q: f32| -> u64 {
        (0..20)
            .map(|seed| {
                let mut engine = Engine::new(SyntheticEval, 1);
                engine
                    .search(&tree(6, 7, seed, q), &Limits::to_depth(7).exact())
                    .stats
                    .nodes
            })
            .sum()
    };
    let (good, bad) = (nodes(1.0), nodes(0.0));
    assert!(good < bad, "q=1: {good} nodes, q=0: {bad} nodes");
}

#[test]
fn finished_root_has_no_move() {
    let leaf = tree(3, 0, 1, 0.5);
    let mut moves = MoveList::new();
    leaf.generate_moves(&mut moves);
    assert!(moves.is_empty());
    let result = Engine::new(SyntheticEval, 1).search(&leaf, &Limits::to_depth(3));
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, 0);
}
