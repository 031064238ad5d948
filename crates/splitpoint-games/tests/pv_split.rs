//! PV splitting (master/slave by messages) keeps the exactness invariant at
//! every thread count, over the in-process channels and over a transport that
//! delays and reorders every message, over which it also stops promptly, and
//! over the cluster's byte transport between threads standing for processes.
//! (Stop, repetition and normal mode over channels: `parallel.rs`, for every
//! algorithm.)

use std::time::Duration;

use splitpoint::cluster::Slaves;
use splitpoint::oracle::negamax;
use splitpoint::testing::pv_split::{Delays, with_delays};
use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, Stats};
use splitpoint_games::othello::{Othello, OthelloEval};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

mod common;
use common::{assert_cases_exact, stopped_after, tree, with_negamax};

const THREADS: [usize; 5] = [1, 2, 3, 4, 8];

/// 120 trees of 5 moves a node, 6 plies, mixed move-ordering quality.
fn synthetic_cases() -> Vec<(Synthetic, i32, i32)> {
    let trees = (0..120u64).map(|seed| {
        let q = [0.5, 0.2, 0.8][(seed % 3) as usize];
        (tree(&format!("b=5,d=6,seed={seed},q={q}")), 6)
    });
    with_negamax(&SyntheticEval, trees)
}

fn othello_cases() -> Vec<(Othello, i32, i32)> {
    common::othello_cases(
        (0..6u64).map(|seed| (seed, 12 + 3 * seed as usize, 5 + (seed % 2) as i32)),
    )
}

/// Searches every case in exact mode at `threads` and checks the score, the
/// depth, that the best move's own negamax value is the score, and that the
/// PV starts with it. Returns the summed statistics.
fn check_exact<G: Game, E: Evaluator<G> + Clone>(
    eval: &E,
    cases: &[(G, i32, i32)],
    threads: usize,
    tag: &str,
) -> Stats {
    let results = assert_cases_exact(eval, 2, Algorithm::PvSplit, threads, cases);
    let mut sum = Stats::default();
    for (r, (pos, _, _)) in results.iter().zip(cases) {
        let tag = format!("{tag} × {threads} on {}", pos.position_text());
        assert_eq!(
            r.pv.first(),
            r.best_move.as_ref(),
            "{tag}: the PV starts with the move"
        );
        sum += r.stats;
    }
    sum
}

#[test]
fn exact_on_synthetic_trees_at_every_thread_count() {
    let cases = synthetic_cases();
    for threads in THREADS {
        let stats = check_exact(&SyntheticEval, &cases, threads, "synthetic");
        if threads == 1 {
            assert_eq!(stats.splits, 0, "one thread has no slave");
        } else {
            assert!(stats.splits > 0, "{threads} threads never sent work");
            assert!(
                stats.idle_micros > 0,
                "{threads} threads: no slave ever waited?"
            );
        }
    }
}

#[test]
fn exact_on_othello_at_every_thread_count() {
    let cases = othello_cases();
    assert!(cases.len() >= 5);
    for threads in THREADS {
        let stats = check_exact(&OthelloEval, &cases, threads, "othello");
        if threads > 1 {
            assert!(stats.splits > 0, "{threads} threads never sent work");
        }
    }
}

#[test]
fn exact_over_a_transport_that_delays_and_reorders() {
    let synthetic = synthetic_cases();
    let othello: Vec<_> = othello_cases().into_iter().take(3).collect();
    for (i, threads) in [2, 3, 4, 8].into_iter().enumerate() {
        let delays = Delays {
            seed: 17 + i as u64,
            max_latency: Duration::from_micros(300),
        };
        let (stats, transport) = with_delays(delays, || {
            let mut s = check_exact(&SyntheticEval, &synthetic, threads, "delayed synthetic");
            s += check_exact(&OthelloEval, &othello, threads, "delayed othello");
            s
        });
        assert!(stats.splits > 0, "{threads} threads never sent work");
        assert!(
            transport.messages >= stats.splits,
            "{threads} threads: the delaying transport was not used"
        );
        assert!(
            transport.reordered > 0,
            "{threads} threads: no message was ever overtaken"
        );
    }
}

#[test]
fn bounds_are_broadcast_and_stopped_work_is_counted() {
    // Poor move ordering: later moves often beat the first, so alphas rise
    // while slaves search, and cutoffs at PV nodes (aspiration windows in
    // normal mode) stop work in flight.
    let mut engine = Engine::new(SyntheticEval, 4);
    engine.set_parallelism(Algorithm::PvSplit, 3);
    let mut aborted = 0;
    for seed in 0..12 {
        let root = tree(&format!("b=6,d=8,seed={seed},q=0.1"));
        let r = engine.search(&root, &Limits::to_depth(8).exact());
        assert_eq!(r.score, negamax(&root, &SyntheticEval, 8), "seed {seed}");
        aborted += r.stats.aborted_nodes;
    }
    assert!(aborted > 0, "no slave ever abandoned work for a new bound");
}

#[test]
fn stop_over_the_delaying_transport_is_prompt_too() {
    let huge = tree("b=30,d=60,seed=9,q=0.3");
    let delays = Delays {
        seed: 3,
        max_latency: Duration::from_micros(500),
    };
    for threads in [2, 4, 8] {
        let mut engine = Engine::new(SyntheticEval, 8);
        engine.set_parallelism(Algorithm::PvSplit, threads);
        let stop = engine.stop_handle();
        let ((result, latency), _) = with_delays(delays, || {
            stopped_after(stop, Duration::from_millis(80), || {
                engine.search(&huge, &Limits::default())
            })
        });
        assert!(
            latency < Duration::from_millis(500),
            "{threads} threads: stop took {latency:?}"
        );
        assert!(result.best_move.is_some(), "{threads} threads: no move");
    }
}

/// Positions cross to other processes (`--transport mpi`) as bytes; each
/// game's own file checks its positions, this one the synthetic trees'.
#[test]
fn synthetic_positions_cross_as_bytes() {
    common::assert_bytes_round_trip(&tree("b=6,d=9,seed=5,q=0.5"), 30, 9);
}

/// Slaves as other processes would run them: engines of their own serving
/// the master's searches over a transport ([`Engine::serve`]), on one thread
/// or sharing each piece of work among several (ybw, ybw-strong,
/// workloads); the master's engine knows them only by the transport.
#[test]
fn slave_engines_on_threads_are_exact() {
    use splitpoint::cluster::ChannelTransport;
    use std::sync::Arc;

    let cases = othello_cases();
    let setups = [
        (1, 1, Algorithm::Ybw { strong: false }),
        (2, 2, Algorithm::Ybw { strong: false }),
        (1, 3, Algorithm::Ybw { strong: true }),
        (3, 2, Algorithm::Workloads { join_taken: false }),
    ];
    for (slaves, threads, algorithm) in setups {
        let transport = Arc::new(ChannelTransport::<Othello>::new(slaves));
        let mut master = Engine::new(OthelloEval, 4);
        master.set_parallelism(Algorithm::PvSplit, 1);
        master.set_slaves(Slaves::Remote(transport.clone()));
        let mut engines: Vec<_> = (0..slaves)
            .map(|_| {
                let mut e = Engine::new(OthelloEval, 4);
                e.set_parallelism(algorithm, threads);
                e
            })
            .collect();
        let mut split = 0;
        for (pos, depth, want) in &cases {
            let (result, served) = std::thread::scope(|s| {
                let served: Vec<_> = engines
                    .iter_mut()
                    .enumerate()
                    .map(|(i, e)| {
                        let transport = &*transport;
                        s.spawn(move || e.serve(transport, i, true))
                    })
                    .collect();
                let result = master.search(pos, &Limits::to_depth(*depth).exact());
                let served: Vec<Stats> = served.into_iter().map(|h| h.join().unwrap()).collect();
                (result, served)
            });
            assert_eq!(
                result.score, *want,
                "{slaves} slaves x {threads} threads ({algorithm}), depth {depth}: {pos:?}"
            );
            split += served.iter().map(|s| s.splits).sum::<u64>();
        }
        if threads > 1 {
            assert!(
                split > 0,
                "{algorithm} on {threads} threads never shared a piece of work"
            );
        }
    }
}

/// A simulated network latency (the bench's `--latency`) delays every
/// message between the threads, and changes no score.
#[test]
fn exact_with_message_latency() {
    let cases = othello_cases();
    let mut engine = Engine::new(OthelloEval, 4);
    engine.set_parallelism(Algorithm::PvSplit, 3);
    engine.set_slaves(Slaves::Threads {
        latency: Duration::from_micros(300),
    });
    let mut sent = 0;
    for (pos, depth, want) in &cases {
        let r = engine.search(pos, &Limits::to_depth(*depth).exact());
        assert_eq!(r.score, *want, "depth {depth}: {pos:?}");
        sent += r.stats.work_sent;
    }
    assert!(sent > 0, "no message was sent");
}

/// Searches `cases` with pv-split's master on `processes` processes of an
/// in-process byte channel (threads standing for MPI ranks, every message
/// crossing as bytes), using the first `slaves` of them; checks every
/// score and that messages crossed. The table is cleared between cases, on
/// the slaves too.
fn exact_over_the_wire<G: Game + std::fmt::Debug, E: Evaluator<G> + Clone + 'static>(
    eval: &E,
    cases: &[(G, i32, i32)],
    processes: usize,
    slaves: usize,
) {
    use splitpoint::cluster::{LocalChannel, WireTransport, dismiss_all, greet};
    use std::sync::Arc;

    let mut channels = LocalChannel::group(processes);
    let master_channel = channels.remove(0);
    std::thread::scope(|s| {
        for channel in channels {
            let eval = eval.clone();
            s.spawn(move || {
                let mut engine = Engine::new(eval, 4);
                WireTransport::<G>::slave(channel).serve(&mut engine);
            });
        }
        greet::<G, E>(&*master_channel).expect("every process runs this program");
        let mut master = Engine::new(eval.clone(), 4);
        master.set_parallelism(Algorithm::PvSplit, 1);
        let transport = WireTransport::<G>::master(master_channel.clone(), slaves);
        master.set_slaves(Slaves::Remote(Arc::new(transport)));
        let (mut messages, mut bytes) = (0, 0);
        for (pos, depth, want) in cases {
            master.clear();
            let r = master.search(pos, &Limits::to_depth(*depth).exact());
            let tag = format!("{processes} processes, {slaves} slaves: depth {depth}, {pos:?}");
            assert_eq!(r.score, *want, "{tag}");
            messages += r.stats.messages;
            bytes += r.stats.message_bytes;
        }
        dismiss_all(&*master_channel);
        if slaves > 0 {
            assert!(
                messages > 0 && bytes > messages,
                "{messages} messages, {bytes} bytes"
            );
        }
    });
}

/// The cluster's transport ([`WireTransport`], what `--transport mpi` runs)
/// over threads: orders, reports, bounds and stops as bytes, exact at 2, 3
/// and 4 processes, and with only some of the processes used (the bench's
/// `--ranks`).
#[test]
fn exact_over_the_wire_between_threads() {
    let othello = othello_cases();
    let synthetic = &synthetic_cases()[..30];
    for (processes, slaves) in [(2, 1), (3, 2), (4, 3), (4, 1), (3, 0)] {
        exact_over_the_wire(&OthelloEval, &othello, processes, slaves);
        exact_over_the_wire(&SyntheticEval, synthetic, processes, slaves);
    }
}

/// A process on another evaluator is refused by the greeting, naming what
/// each runs.
#[test]
fn the_greeting_refuses_another_program() {
    use splitpoint::cluster::{LocalChannel, WireTransport, dismiss_all, greet};
    use splitpoint_games::othello::OthelloExact;

    let mut channels = LocalChannel::group(2);
    let master = channels.remove(0);
    let slave = channels.remove(0);
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut engine = Engine::new(OthelloExact, 1);
            WireTransport::<Othello>::slave(slave).serve(&mut engine);
        });
        let refused = greet::<Othello, OthelloEval>(&*master).expect_err("another evaluator");
        assert!(refused.contains("must run the same program"), "{refused}");
        assert!(refused.contains("OthelloExact"), "{refused}");
        dismiss_all(&*master);
    });
}
