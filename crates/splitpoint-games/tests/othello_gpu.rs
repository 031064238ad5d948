//! Othello's OpenCL kernels against the CPU (the `gpu` feature; CI runs
//! them on PoCL): move generation and flips through a perft of every
//! position, and exact endgame scores.
#![cfg(feature = "gpu")]

mod common;

use common::random_othello;
use splitpoint::{Game, perft};
use splitpoint_games::othello::gpu::{Gpu, devices};
use splitpoint_games::othello::{Othello, OthelloExact};

fn gpu() -> Gpu {
    Gpu::open(None).unwrap_or_else(|e| panic!("{e}"))
}

/// Positions from every stage of the game, finished ones and passes included.
fn positions(count: u64) -> Vec<Othello> {
    (0..count)
        .map(|seed| random_othello(seed, (seed % 61) as usize))
        .collect()
}

#[test]
fn a_device_is_listed() {
    let list = devices().expect("an OpenCL platform");
    assert!(!list.is_empty());
    assert_eq!(gpu().info().index, 0);
}

/// 10,000 positions two plies deep and 300 four plies deep: every move the
/// kernel generates and every disc it flips (a wrong flip changes the moves
/// below) agrees with the CPU's.
#[test]
fn the_kernel_perft_equals_the_cpu_perft() {
    let mut gpu = gpu();
    for (count, depth) in [(10_000, 2), (300, 4)] {
        let batch = positions(count);
        let on_device = gpu.perft(&batch, depth).expect("perft on the device");
        for (pos, leaves) in batch.iter().zip(on_device) {
            assert_eq!(leaves, perft(pos, depth), "depth {depth}: {pos:?}");
        }
    }
    assert_eq!(gpu.perft(&[Othello::start()], 6).unwrap(), [8_200]);
}

/// 400 endgames of 4 to 13 empty squares solved on the device score what
/// the CPU solver proves.
#[test]
fn the_kernel_solves_endgames_exactly() {
    let mut gpu = gpu();
    let batch: Vec<Othello> = (0..400u64)
        .map(|seed| random_othello(seed, 47 + (seed % 10) as usize))
        .collect();
    let (scores, nodes, times) = gpu.solve(&batch).expect("solve on the device");
    for ((pos, score), n) in batch.iter().zip(scores).zip(nodes) {
        let mut cpu_nodes = 0;
        let want = OthelloExact::solve(pos, -64, 64, &mut cpu_nodes);
        assert_eq!(score, want, "{} empties: {pos:?}", pos.empty_count());
        assert!(n >= 1);
        if pos.outcome().is_some() {
            assert_eq!(score, pos.final_score());
        }
    }
    assert!(times.kernel.as_nanos() > 0 || times.transfer.as_nanos() > 0);
}

#[test]
fn too_many_empties_are_refused() {
    let refused = gpu().solve(&[Othello::start()]).unwrap_err();
    assert!(refused.0.contains("at most 30 empty squares"), "{refused}");
}
