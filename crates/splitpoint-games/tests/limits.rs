//! Limits and the stop handle end searches when they should.

use std::time::{Duration, Instant};

use splitpoint::{Algorithm, Engine, Game, Limits};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

/// A tree far too large to finish.
fn huge() -> Synthetic {
    Synthetic::parse_position("b=30,d=60,seed=1,q=0").unwrap()
}

#[test]
fn stop_handle_ends_a_search_promptly() {
    let mut engine = Engine::new(SyntheticEval, 16);
    let stop = engine.stop_handle();
    let started = Instant::now();
    let (result, stopped_at) = std::thread::scope(|s| {
        let stopper = s.spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            stop.stop();
            Instant::now()
        });
        let result = engine.search(&huge(), &Limits::default());
        (result, stopper.join().unwrap())
    });
    let latency = stopped_at.elapsed();
    assert!(
        latency < Duration::from_millis(250),
        "stop took {latency:?}"
    );
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert!(
        result.best_move.is_some(),
        "a stopped search still names a move"
    );
    assert!(result.depth >= 1);
}

#[test]
fn movetime_and_node_limits_are_honoured() {
    let mut engine = Engine::new(SyntheticEval, 16);
    let started = Instant::now();
    let r = engine.search(&huge(), &Limits::for_time(Duration::from_millis(100)));
    assert!(
        started.elapsed() < Duration::from_millis(600),
        "took {:?}",
        started.elapsed()
    );
    assert!(r.best_move.is_some());

    let r = engine.search(
        &huge(),
        &Limits {
            nodes: Some(50_000),
            ..Limits::default()
        },
    );
    assert!(r.stats.nodes < 50_000 + 5_000, "{} nodes", r.stats.nodes);
}

#[test]
fn a_search_after_a_stop_runs_normally() {
    let mut engine = Engine::new(SyntheticEval, 1);
    engine.stop_handle().stop(); // a stale stop must not end the next search
    let root = Synthetic::parse_position("b=4,d=5,seed=9").unwrap();
    let r = engine.search(&root, &Limits::to_depth(5).exact());
    assert_eq!(r.depth, 5);
    assert_eq!(
        r.score,
        splitpoint::oracle::negamax(&root, &SyntheticEval, 5)
    );
    let _ = root.hash();
}

/// How far a shared node count may lag behind, per thread: each thread adds
/// its nodes every 4096 (the search's poll interval).
const COUNT_LAG: u64 = 4096;

#[test]
fn the_node_limit_counts_every_threads_nodes() {
    let limit = 200_000;
    for algorithm in Algorithm::ALL {
        for threads in [2, 3] {
            let mut engine = Engine::new(SyntheticEval, 16);
            engine.set_parallelism(algorithm, threads);
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let r = engine.search(&huge(), &limits);
            // Each thread may be a poll interval short in the count when it
            // is reached, and the others finish the node they are in.
            let most = limit + 2 * COUNT_LAG * threads as u64;
            assert!(
                r.stats.nodes >= limit && r.stats.nodes < most,
                "{algorithm} at {threads} threads: {} nodes for a limit of {limit}",
                r.stats.nodes
            );
        }
    }
}

#[test]
fn each_iteration_reports_every_threads_nodes() {
    // About half a million nodes at depth 9: far more than the lag.
    let root = Synthetic::parse_position("b=12,d=12,seed=3").unwrap();
    for algorithm in Algorithm::ALL {
        let threads = 2;
        let mut engine = Engine::new(SyntheticEval, 16);
        engine.set_parallelism(algorithm, threads);
        let mut reported = Vec::new();
        let r = engine.search_with(&root, &Limits::to_depth(9).exact(), |it| {
            reported.push(it.stats.nodes)
        });
        let last = *reported.last().unwrap();
        assert!(
            reported.is_sorted() && last <= r.stats.nodes,
            "{algorithm}: iterations reported {reported:?}, {} in all",
            r.stats.nodes
        );
        // The last iteration ends the search: only the count's lag and a
        // dismissed helper's last node are missing from its report. (Lazy
        // SMP's and the shared table's helpers deepen on their own, and go
        // on searching until dismissed.)
        let independent = matches!(algorithm, Algorithm::LazySmp | Algorithm::SharedTt);
        assert!(
            independent || r.stats.nodes - last <= COUNT_LAG * (threads as u64 - 1) + 64,
            "{algorithm}: the last iteration reported {last} nodes of {}",
            r.stats.nodes
        );
    }
}
