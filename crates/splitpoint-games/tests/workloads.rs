//! Workloads (publish/subscribe): the exactness invariant at every thread
//! count, with and without joining taken workloads; workloads really are
//! published on bigger trees. (Stop, repetition and normal mode: `parallel.rs`,
//! for every algorithm.)

use splitpoint::Algorithm;
use splitpoint_games::othello::OthelloEval;
use splitpoint_games::synthetic::SyntheticEval;

mod common;
use common::{assert_cases_exact, bigger_trees_splits, othello_cases, tree, with_negamax};

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
    let trees = (0..120u64).map(|seed| {
        let b = 4 + seed % 3; // 4..6
        let d = 5 + seed % 2; // 5..6
        let q = [0.5, 0.0, 1.0, 0.3][(seed % 4) as usize];
        (tree(&format!("b={b},d={d},seed={seed},q={q}")), d as i32)
    });
    let trees = with_negamax(&SyntheticEval, trees);
    for algorithm in VARIANTS {
        for threads in THREADS {
            let results = assert_cases_exact(&SyntheticEval, 1, algorithm, threads, &trees);
            let published: u64 = results.iter().map(|r| r.stats.splits).sum();
            // Even one thread publishes (and takes its own moves back).
            assert!(published > 0, "{algorithm} × {threads} never published");
        }
    }
}

#[test]
fn bigger_trees_publish_and_stay_exact() {
    for algorithm in VARIANTS {
        for threads in [2, 3, 4, 8] {
            let published = bigger_trees_splits(algorithm, threads, 0..5);
            assert!(published > 0, "{algorithm} × {threads} never published");
        }
    }
}

#[test]
fn workloads_are_exact_on_othello() {
    let cases = othello_cases((0..8u64).map(|seed| {
        let (plies, depth) = (12 + (seed % 16) as usize, 5 + (seed % 2) as i32);
        (seed + 40, plies, depth)
    }));
    assert!(cases.len() >= 6);
    for algorithm in VARIANTS {
        for threads in THREADS {
            assert_cases_exact(&OthelloEval, 2, algorithm, threads, &cases);
        }
    }
}
