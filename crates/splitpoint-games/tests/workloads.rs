//! Workloads (publish/subscribe): the exactness invariant at every thread
//! count, with and without joining taken workloads; workloads really are
//! published on bigger trees. (Stop, repetition and normal mode: `parallel.rs`,
//! for every algorithm.)

use splitpoint::oracle::negamax;
use splitpoint::{Algorithm, Engine, Game, Limits};
use splitpoint_games::othello::{Othello, OthelloEval};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

mod common;
use common::{assert_exact_result, random_othello, tree};

const THREADS: [usize; 5] = [1, 2, 3, 4, 8];
const VARIANTS: [Algorithm; 2] = [
    Algorithm::Workloads { join_taken: false },
    Algorithm::Workloads { join_taken: true },
];

#[test]
fn names_round_trip() {
    assert_eq!(VARIANTS[0].name(), "workloads");
    assert_eq!(VARIANTS[1].name(), "workloads-shared");
    for a in VARIANTS {
        assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
        assert!(Algorithm::ALL.contains(&a));
    }
}

#[test]
fn workloads_are_exact_on_synthetic_trees() {
    // 120 trees of shapes around b=5, d=6; every variant × thread count
    // searches every one, against plain negamax.
    let trees: Vec<(Synthetic, i32, i32)> = (0..120u64)
        .map(|seed| {
            let b = 4 + seed % 3; // 4..6
            let d = 5 + seed % 2; // 5..6
            let q = [0.5, 0.0, 1.0, 0.3][(seed % 4) as usize];
            let root = tree(&format!("b={b},d={d},seed={seed},q={q}"));
            let depth = d as i32;
            (root, depth, negamax(&root, &SyntheticEval, depth))
        })
        .collect();
    for algorithm in VARIANTS {
        for threads in THREADS {
            let mut engine = Engine::new(SyntheticEval, 1);
            engine.set_parallelism(algorithm, threads);
            let mut published = 0;
            for (root, depth, expected) in &trees {
                engine.clear();
                let r = engine.search(root, &Limits::to_depth(*depth).exact());
                let tag = format!("{algorithm} × {threads} on {}", root.position_text());
                assert_eq!(r.depth, *depth, "{tag}: depth");
                assert_exact_result(&r, root, &SyntheticEval, *depth, *expected, &tag);
                published += r.stats.splits;
            }
            // Even one thread publishes (and takes its own moves back).
            assert!(published > 0, "{algorithm} × {threads} never published");
        }
    }
}

#[test]
fn bigger_trees_publish_and_stay_exact() {
    for algorithm in VARIANTS {
        for threads in [2, 3, 4, 8] {
            let mut engine = Engine::new(SyntheticEval, 4);
            engine.set_parallelism(algorithm, threads);
            let mut published = 0;
            for seed in 0..5 {
                let root = tree(&format!("b=6,d=8,seed={seed},q=0.6"));
                let expected = negamax(&root, &SyntheticEval, 8);
                let r = engine.search(&root, &Limits::to_depth(8).exact());
                let tag = format!("{algorithm} × {threads}, seed {seed}");
                assert_exact_result(&r, &root, &SyntheticEval, 8, expected, &tag);
                published += r.stats.splits;
            }
            assert!(published > 0, "{algorithm} × {threads} never published");
        }
    }
}

#[test]
fn workloads_are_exact_on_othello() {
    let cases: Vec<(Othello, i32, i32)> = (0..8u64)
        .map(|seed| {
            let pos = random_othello(seed + 40, 12 + (seed % 16) as usize);
            let depth = 5 + (seed % 2) as i32;
            (pos, depth, negamax(&pos, &OthelloEval, depth))
        })
        .filter(|(pos, _, _)| pos.outcome().is_none())
        .collect();
    assert!(cases.len() >= 6);
    for algorithm in VARIANTS {
        for threads in THREADS {
            let mut engine = Engine::new(OthelloEval, 2);
            engine.set_parallelism(algorithm, threads);
            for (pos, depth, expected) in &cases {
                engine.clear();
                let r = engine.search(pos, &Limits::to_depth(*depth).exact());
                let tag = format!(
                    "{algorithm} × {threads} at depth {depth} on {}",
                    pos.position_text()
                );
                assert_exact_result(&r, pos, &OthelloEval, *depth, *expected, &tag);
            }
        }
    }
}
