//! Limits and the stop handle end searches when they should.

use std::time::{Duration, Instant};

use splitpoint::{Engine, Game, Limits};
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
