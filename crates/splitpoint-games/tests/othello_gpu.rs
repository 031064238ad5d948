//! Othello's OpenCL kernels against the CPU (the `gpu` feature; CI runs
//! them on PoCL): move generation and flips through a perft of every
//! position, depth-limited scores against negamax, exact endgame scores,
//! the batch search (host tasks above a frontier, the device below), and
//! `--algorithm gpu` (PV splitting with the batch search as the slaves)
//! exact against the serial search.
#![cfg(feature = "gpu")]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::othello_cases;
use common::random_othello;
use splitpoint::cluster::Slaves;
use splitpoint::oracle::negamax;
use splitpoint::{Algorithm, Engine, Evaluator, Game, INFINITY, Limits, perft};
use splitpoint_games::othello::gpu::{
    BatchConfig, DeviceEval, Gpu, GpuTransport, Solved, Subtree, devices, search_batch,
    search_batch_until, solve_batch,
};
use splitpoint_games::othello::{
    GpuSplit, Othello, OthelloEval, OthelloExact, ffo_positions, oracle_limits, solve_limits,
};

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
    assert!(refused.0.contains("at most 32 empty squares"), "{refused}");
}

/// 600 positions of every stage, each searched on the device to depth 0-4
/// (wins by distance counted from a random ply) in a full window and in a
/// random narrow one: the full window gives negamax's score and a best move
/// that scores it, the narrow one a fail-soft result of the right side.
#[test]
fn the_kernel_search_equals_negamax() {
    let mut gpu = gpu();
    let mut rng = common::Rng(7);
    let cases: Vec<(Othello, i32, u32)> = (0..600u64)
        .map(|seed| {
            let pos = random_othello(seed, (seed % 61) as usize);
            (pos, (seed % 5) as i32, rng.below(20) as u32)
        })
        .collect();
    let full: Vec<Subtree> = cases
        .iter()
        .map(|&(pos, depth, ply)| Subtree {
            pos,
            depth,
            ply,
            alpha: -INFINITY,
            beta: INFINITY,
        })
        .collect();
    let found = gpu
        .search(&full, DeviceEval::Midgame)
        .expect("search on the device");
    for (i, &(pos, depth, ply)) in cases.iter().enumerate() {
        let want = negamax_from(&pos, depth, ply);
        assert_eq!(found.scores[i], want, "depth {depth} ply {ply}: {pos:?}");
        let code = found.best_moves[i];
        if depth > 0 && pos.outcome().is_none() {
            let mv = if code == 64 {
                "pass".to_string()
            } else {
                square_name(code)
            };
            let child = pos.play(pos.parse_move(&mv).expect("a legal move"));
            assert_eq!(
                -negamax_from(&child, depth - 1, ply + 1),
                want,
                "best move {mv}"
            );
        } else {
            assert_eq!(code, -1, "a leaf has no move");
        }
    }
    let narrow: Vec<Subtree> = full
        .iter()
        .map(|s| {
            let alpha = rng.below(1200) as i32 - 600;
            Subtree {
                alpha,
                beta: alpha + 1 + rng.below(300) as i32,
                ..*s
            }
        })
        .collect();
    let found = gpu
        .search(&narrow, DeviceEval::Midgame)
        .expect("search on the device");
    for (s, &score) in narrow.iter().zip(&found.scores) {
        let v = negamax_from(&s.pos, s.depth, s.ply);
        if score <= s.alpha {
            assert!(v <= score, "fail low {score}, true {v}");
        } else if score >= s.beta {
            assert!(v >= score, "fail high {score}, true {v}");
        } else {
            assert_eq!(score, v);
        }
    }
}

/// Negamax `depth` plies below `pos`, which is `ply` plies below the root.
fn negamax_from(pos: &Othello, depth: i32, ply: u32) -> i32 {
    if ply == 0 {
        return negamax(pos, &OthelloEval, depth);
    }
    // Wins by distance: shift a root result's decisive scores by `ply`.
    let v = negamax(pos, &OthelloEval, depth);
    if v >= splitpoint::WIN_BOUND {
        v - ply as i32
    } else if v <= -splitpoint::WIN_BOUND {
        v + ply as i32
    } else {
        v
    }
}

fn square_name(sq: i32) -> String {
    let file = (b'a' + (sq % 8) as u8) as char;
    format!("{file}{}", sq / 8 + 1)
}

/// An engine whose pv-split slaves are the device, each piece split as
/// `split` says.
fn gpu_engine<E: Evaluator<Othello> + Clone + 'static>(
    eval: E,
    split: GpuSplit,
) -> Engine<Othello, E> {
    let mut engine = Engine::new(eval.clone(), 4);
    engine.set_parallelism(Algorithm::PvSplit, 1);
    let transport =
        GpuTransport::new(gpu(), eval, BatchConfig::pieces(split)).expect("a known evaluator");
    engine.set_slaves(Slaves::Remote(Arc::new(transport)));
    engine
}

/// `--algorithm gpu` in exact mode, every split of the pieces: 40 midgame
/// positions at depths 3-6 score as negamax, with a best move that scores
/// so; the device did the work, in more subtrees than pieces where the host
/// splits them.
#[test]
fn the_gpu_algorithm_is_exact_in_the_midgame() {
    let cases =
        othello_cases((0..40u64).map(|s| (s + 100, 4 + (s as usize * 7) % 40, 3 + (s % 4) as i32)));
    for split in GpuSplit::ALL {
        let mut engine = gpu_engine(OthelloEval, split);
        let (mut launches, mut pieces, mut subtrees) = (0, 0, 0);
        for (pos, depth, want) in &cases {
            engine.clear();
            let r = engine.search(pos, &Limits::to_depth(*depth).exact());
            assert_eq!(r.score, *want, "{split:?}, depth {depth}: {pos:?}");
            let mv = r.best_move.expect("a move");
            assert_eq!(
                -negamax(&pos.play(mv), &OthelloEval, depth - 1),
                *want,
                "{split:?}: best move"
            );
            launches += r.stats.launches;
            pieces += r.stats.work_sent;
            subtrees += r.stats.device_subtrees;
        }
        assert!(launches > 0, "{split:?}: no work went to the device");
        if split != GpuSplit::Narrow {
            assert!(
                subtrees > pieces,
                "{split:?}: {subtrees} subtrees of {pieces} pieces"
            );
        }
    }
}

/// `--algorithm gpu` solving 30 endgames of 8-13 empties, as the oracle
/// (exact mode) and as the solver (table cut-offs): both score the CPU
/// serial solve.
#[test]
fn the_gpu_algorithm_solves_endgames_exactly() {
    let mut serial = Engine::new(OthelloExact, 16);
    let mut engine = gpu_engine(OthelloExact, GpuSplit::default());
    let mut subtrees = 0;
    for seed in 0..30u64 {
        let pos = random_othello(seed + 500, 47 + (seed % 6) as usize);
        if pos.outcome().is_some() {
            continue;
        }
        serial.clear();
        let want = serial.search(&pos, &oracle_limits(&pos)).score;
        for limits in [oracle_limits(&pos), solve_limits(&pos)] {
            engine.clear();
            let r = engine.search(&pos, &limits);
            assert_eq!(r.score, want, "{} empties: {pos:?}", pos.empty_count());
            subtrees += r.stats.work_sent;
        }
    }
    assert!(subtrees > 0, "no work went to the device");
}

#[test]
fn an_unknown_evaluator_is_refused() {
    #[derive(Clone)]
    struct Discs;
    impl Evaluator<Othello> for Discs {
        fn evaluate(&self, pos: &Othello) -> i32 {
            pos.disc_difference()
        }
    }
    let refused = GpuTransport::new(gpu(), Discs, BatchConfig::default())
        .err()
        .expect("refused");
    assert!(
        refused.0.contains("OthelloEval or OthelloExact"),
        "{refused}"
    );
}

/// `count` random endgames of `low` to `high` empties (random games by the
/// rules, from `seed`), none finished.
fn endgames(seed: u64, count: usize, low: u32, high: u32) -> Vec<Othello> {
    let mut out = Vec::with_capacity(count);
    let mut s = seed;
    while out.len() < count {
        s += 1;
        let plies = 60 - low as usize - (s % (high - low + 1) as u64) as usize;
        let pos = random_othello(s, plies);
        if (low..=high).contains(&pos.empty_count()) && pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

/// Each score and best move the CPU solver's: the move's child scores the
/// position's score.
fn assert_solved(batch: &[Othello], solved: &[Solved], what: &str) {
    assert_eq!(solved.len(), batch.len());
    for (pos, s) in batch.iter().zip(solved) {
        let want = OthelloExact::solve(pos, -64, 64, &mut 0);
        assert_eq!(s.score, want, "{what}: {pos:?}");
        let mv = s.best_move.expect("a move: no game is over");
        let child = -OthelloExact::solve(&pos.play(mv), -64, 64, &mut 0);
        assert_eq!(
            child, want,
            "{what}: {mv} does not reach the score in {pos:?}"
        );
        assert!(
            s.nodes > 0 && s.subtrees > 0 && s.launches > 0,
            "{what}: {s:?}"
        );
    }
}

/// 1,500 random endgames of 10 and 11 empties solved together: every score
/// the CPU solver's, and launches of at least 1,000 subtrees on average.
#[test]
fn the_batch_solver_fills_launches_and_is_exact() {
    let batch = endgames(1, 1_500, 10, 11);
    let mut finished = 0;
    let (solved, stats) = solve_batch(&mut gpu(), &batch, &BatchConfig::default(), |n| {
        assert_eq!(n, finished + 1);
        finished = n;
    })
    .expect("the batch on the device");
    assert_eq!(finished, batch.len());
    eprintln!("{stats:?}");
    assert_solved(&batch, &solved, "default");
    assert_eq!(stats.positions, batch.len() as u64);
    assert_eq!(
        stats.subtrees,
        solved.iter().map(|s| s.subtrees).sum::<u64>()
    );
    let nodes: u64 = solved.iter().map(|s| s.nodes).sum();
    assert_eq!(stats.host_nodes + stats.device_nodes, nodes);
    assert!(stats.researches < stats.subtrees);
    assert!(
        stats.subtrees_per_launch() >= 1_000.0,
        "{} subtrees in {} launches",
        stats.subtrees,
        stats.launches
    );
    assert!(stats.largest_launch <= BatchConfig::default().max_batch as u64);
}

/// Every split the batch solver may make is exact: each position whole on
/// the device, deep host trees, launches cut to a few subtrees, a work
/// queue of a few slots refilled as positions end, and finished games and
/// passes among the positions.
#[test]
fn the_batch_solver_is_exact_in_every_split() {
    let mut batch = endgames(7, 100, 4, 12);
    batch.extend((0..30).map(|seed| random_othello(seed, 60)));
    let configs = [
        (0, 12, 1 << 16, 1 << 14, 1 << 18),
        (1, 12, 1 << 16, 1 << 14, 1 << 18),
        (4, 10, 7, 3, 1 << 18),
        (3, 6, 64, 1, 1 << 18),
        (5, 6, 64, 1 << 14, 2),
    ];
    let mut gpu = gpu();
    for (host_plies, device_empties, max_batch, in_flight, max_tasks) in configs {
        let config = BatchConfig {
            host_plies,
            device_empties,
            max_batch,
            in_flight,
            max_tasks,
            cut_wait: 1,
            ..BatchConfig::default()
        };
        let (solved, stats) =
            solve_batch(&mut gpu, &batch, &config, |_| {}).expect("the batch on the device");
        for (pos, s) in batch.iter().zip(&solved) {
            assert_eq!(
                s.score,
                OthelloExact::solve(pos, -64, 64, &mut 0),
                "{config:?}: {pos:?}"
            );
            if pos.outcome().is_some() {
                assert_eq!((s.best_move, s.subtrees), (None, 0), "{config:?}: {pos:?}");
            } else {
                let child = -OthelloExact::solve(&pos.play(s.best_move.unwrap()), -64, 64, &mut 0);
                assert_eq!(child, s.score, "{config:?}: the best move of {pos:?}");
            }
        }
        assert!(stats.largest_launch <= max_batch as u64, "{config:?}");
    }
    assert!(
        solve_batch(&mut gpu, &[], &BatchConfig::default(), |_| {})
            .unwrap()
            .0
            .is_empty()
    );
}

/// Positions searched alone with a deep host tree (subtrees of a few
/// empties under six to ten host plies): random endgames of 14 to 18
/// empties and the FFO positions #40-#44 played down to 16 empties by
/// their first legal moves.
fn single_positions() -> Vec<Othello> {
    let mut out: Vec<Othello> = (14..=18)
        .map(|e| endgames(100 + e as u64, 1, e, e)[0])
        .collect();
    for ffo in ffo_positions().into_iter().filter(|p| p.id <= 44) {
        let mut pos = ffo.position;
        while pos.empty_count() > 16 && pos.outcome().is_none() {
            pos = pos.play(pos.legal_moves()[0]);
        }
        out.push(pos);
    }
    out
}

/// One position at a time, the younger brothers of many host nodes in one
/// launch: every score and best move the CPU solver's, whatever the
/// frontier, the launch size, the bound on open tasks or the children a
/// CUT node waits for; and a cutoff
/// cancels queued work (aborted subtrees) somewhere on the way.
#[test]
fn one_position_is_exact_with_many_host_levels() {
    let mut gpu = gpu();
    let configs = [
        (2, 8, 1 << 16, 1 << 18, 1),
        (2, 10, 1 << 16, 1 << 18, 2),
        (2, 8, 5, 1 << 18, 1),
        (2, 8, 1 << 16, 3, 1),
    ];
    let (mut aborted, mut dropped) = (0, 0);
    for (k, pos) in single_positions().into_iter().enumerate() {
        // Launches of five and three open tasks make thousands of small
        // launches: on the two smallest positions only.
        let configs = if k < 2 { &configs[..] } else { &configs[..2] };
        for &(host_plies, device_empties, max_batch, max_tasks, cut_wait) in configs {
            let config = BatchConfig {
                host_plies,
                device_empties,
                max_batch,
                max_tasks,
                cut_wait,
                ..BatchConfig::default()
            };
            let what = format!("{config:?}, {} empties", pos.empty_count());
            let (solved, stats) =
                solve_batch(&mut gpu, &[pos], &config, |_| {}).expect("the search on the device");
            assert_solved(&[pos], &solved, &what);
            assert!(stats.largest_launch <= max_batch as u64, "{what}");
            assert!(
                stats.tasks > 1 && stats.researches < stats.subtrees,
                "{what}: {stats:?}"
            );
            // Past the bound only the eldest line of the child started
            // last: a move or a pass per host ply.
            let host_plies = pos.empty_count() - device_empties;
            assert!(
                stats.most_tasks <= (max_tasks + 2 * host_plies as usize) as u64,
                "{what}: {stats:?}"
            );
            aborted += stats.aborted;
            dropped += stats.dropped;
        }
    }
    assert!(aborted > 0, "no cutoff cancelled queued work");
    assert!(dropped > 0, "no result of cancelled work came back");
}

/// One position of 16 empties with subtrees of 10 (six host plies): the
/// younger brothers of one frontier node at a time made launches of 2.1
/// subtrees on average (909 subtrees in 427 launches); with the younger
/// brothers of every host node in flight at once they are at least ten
/// times as wide.
#[test]
fn one_position_fills_launches() {
    let pos = endgames(3, 1, 16, 16)[0];
    let config = BatchConfig {
        device_empties: 10,
        ..BatchConfig::default()
    };
    let (solved, stats) =
        solve_batch(&mut gpu(), &[pos], &config, |_| {}).expect("the search on the device");
    eprintln!("{stats:?}");
    assert_solved(&[pos], &solved, "16 empties");
    // The host orders its nodes of 14 empties and more by shallow searches.
    assert!(stats.ordering_nodes > 0 && stats.ordering_nodes == solved[0].ordering_nodes);
    assert!(
        stats.subtrees_per_launch() >= 10.0 * 909.0 / 427.0,
        "{} subtrees in {} launches",
        stats.subtrees,
        stats.launches
    );
}

/// Depth-limited searches split between host and device (what
/// `--algorithm gpu` runs for each piece of PV splitting's work): 240
/// positions of every stage, 1 to 5 plies deep, wins counted from a random
/// ply, in a full window and a random narrow one, together in one batch,
/// under every split (each root whole on the device, deep host trees,
/// launches of a few subtrees, a few open tasks): the full window gives
/// negamax's score and a best move that scores it, the narrow one a
/// fail-soft result of the right side; and the solver's scores, whose
/// midgame evaluation the kernel lacks, are refused short of the game's end.
#[test]
fn the_batch_search_equals_negamax() {
    let mut rng = common::Rng(11);
    let cases: Vec<(Othello, i32, u32)> = (0..240u64)
        .map(|seed| {
            let pos = random_othello(seed + 3_000, (seed * 7 % 61) as usize);
            (pos, 1 + (seed % 5) as i32, rng.below(20) as u32)
        })
        .collect();
    let mut roots: Vec<Subtree> = cases
        .iter()
        .map(|&(pos, depth, ply)| Subtree {
            pos,
            depth,
            ply,
            alpha: -INFINITY,
            beta: INFINITY,
        })
        .collect();
    roots.extend(cases.iter().map(|&(pos, depth, ply)| {
        let alpha = rng.below(1200) as i32 - 600;
        Subtree {
            pos,
            depth,
            ply,
            alpha,
            beta: alpha + 1 + rng.below(300) as i32,
        }
    }));
    let configs = [
        (0, 6, 1 << 16, 1 << 18),
        (2, 6, 1 << 16, 1 << 18),
        (3, 1, 7, 1 << 18),
        (4, 0, 64, 2),
    ];
    let mut gpu = gpu();
    for (host_plies, device_depth, max_batch, max_tasks) in configs {
        let config = BatchConfig {
            host_plies,
            device_depth,
            max_batch,
            max_tasks,
            ..BatchConfig::default()
        };
        let (found, stats) = search_batch(&mut gpu, &roots, DeviceEval::Midgame, &config, |_| {})
            .expect("the batch on the device");
        assert!(stats.largest_launch <= max_batch as u64, "{config:?}");
        for (s, f) in roots.iter().zip(&found) {
            let v = negamax_from(&s.pos, s.depth, s.ply);
            let what = format!("{config:?}, depth {} ply {}: {:?}", s.depth, s.ply, s.pos);
            if s.alpha == -INFINITY {
                assert_eq!(f.score, v, "{what}");
                if s.pos.outcome().is_none() {
                    let mv = f.best_move.expect("a move");
                    let child = -negamax_from(&s.pos.play(mv), s.depth - 1, s.ply + 1);
                    assert_eq!(child, v, "{what}: best move {mv}");
                }
            } else if f.score <= s.alpha {
                assert!(v <= f.score, "{what}: fail low {}, true {v}", f.score);
            } else if f.score >= s.beta {
                assert!(v >= f.score, "{what}: fail high {}, true {v}", f.score);
            } else {
                assert_eq!(f.score, v, "{what}");
            }
        }
    }
    // The solver's scores stop only at the game's end on the device.
    let short = Subtree {
        depth: 3,
        ..roots[0]
    };
    let refused = search_batch(
        &mut gpu,
        &[short],
        DeviceEval::Exact,
        &BatchConfig::default(),
        |_| {},
    )
    .expect_err("refused");
    assert!(refused.0.contains("only to the game's end"), "{refused}");
}

/// One midgame search of 7 plies from a position 20 plies into a game:
/// the younger brothers of many host nodes go to the device together (120
/// subtrees a launch; the PV node's younger brothers alone were a few), and
/// the score is negamax's.
#[test]
fn one_midgame_search_fills_launches() {
    let pos = random_othello(21, 20);
    let depth = 7;
    let root = Subtree {
        pos,
        depth,
        ply: 0,
        alpha: -INFINITY,
        beta: INFINITY,
    };
    // Five host plies: the frontier's nodes of 2 plies left.
    let config = BatchConfig {
        host_plies: 5,
        ..BatchConfig::default()
    };
    let (found, stats) = search_batch(&mut gpu(), &[root], DeviceEval::Midgame, &config, |_| {})
        .expect("the search on the device");
    eprintln!("{stats:?}");
    assert_eq!(found[0].score, negamax(&pos, &OthelloEval, depth));
    assert!(
        stats.subtrees_per_launch() >= 50.0,
        "{} subtrees in {} launches",
        stats.subtrees,
        stats.launches
    );
}

/// A batch search whose deadline has passed launches nothing and answers
/// only what the host settles alone (finished games); with a deadline still
/// ahead it answers every root as `search_batch` does.
#[test]
fn a_passed_deadline_gives_the_batch_up() {
    let roots: Vec<Subtree> = (0..40u64)
        .map(|seed| Subtree {
            pos: random_othello(seed + 5_000, 24),
            depth: 4,
            ply: 0,
            alpha: -INFINITY,
            beta: INFINITY,
        })
        .collect();
    let config = BatchConfig::pieces(GpuSplit::Balanced);
    let mut gpu = gpu();
    let passed = Some(Instant::now());
    let (found, stats) = search_batch_until(
        &mut gpu,
        &roots,
        DeviceEval::Midgame,
        &config,
        passed,
        |_| {},
    )
    .expect("the batch on the device");
    assert_eq!(found.len(), roots.len());
    assert_eq!(stats.launches, 0, "{stats:?}");
    for (s, f) in roots.iter().zip(&found) {
        assert_eq!(f.is_some(), s.pos.outcome().is_some(), "{:?}", s.pos);
    }
    let ahead = Some(Instant::now() + Duration::from_secs(3_600));
    let (found, stats) = search_batch_until(
        &mut gpu,
        &roots,
        DeviceEval::Midgame,
        &config,
        ahead,
        |_| {},
    )
    .expect("the batch on the device");
    assert!(stats.launches > 0);
    for (s, f) in roots.iter().zip(&found) {
        let f = f.expect("searched before the deadline");
        assert_eq!(f.score, negamax_from(&s.pos, s.depth, s.ply), "{:?}", s.pos);
    }
}

/// `--algorithm gpu` under a move time, every split: the device's work
/// still out at the deadline is given up (answered as incomplete), and the
/// search still ends with a legal move from a completed iteration.
#[test]
fn the_gpu_algorithm_keeps_a_move_time() {
    let pos = random_othello(77, 20);
    for split in GpuSplit::ALL {
        let mut engine = gpu_engine(OthelloEval, split);
        let r = engine.search(&pos, &Limits::for_time(Duration::from_millis(150)));
        let mv = r.best_move.expect("a move");
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        assert!(
            moves.contains(&mv),
            "{split:?}: {mv} is not legal in {pos:?}"
        );
        assert!(r.depth >= 1, "{split:?}: no iteration completed");
    }
}
