//! Every parallel algorithm keeps the invariant: at every thread count, the
//! exact-mode score equals the serial one, and the move it names is a best move.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use splitpoint::{Algorithm, Engine, Evaluator, Limits, Outcome, Score};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

mod common;
use common::{assert_cases_exact, stopped_after, tree, with_negamax};

const THREADS: [usize; 5] = [1, 2, 3, 4, 8];

#[test]
fn every_algorithm_is_exact_on_synthetic_trees() {
    // 100 trees; each algorithm × thread count searches every one.
    let trees = (0..100u64).map(|seed| {
        let b = 3 + seed % 5; // 3..7
        let d = 4 + seed % 3; // 4..6
        let q = (seed % 4) as f32 / 3.0;
        (tree(&format!("b={b},d={d},seed={seed},q={q}")), d as i32)
    });
    let trees = with_negamax(&SyntheticEval, trees);
    for algorithm in Algorithm::ALL {
        for threads in THREADS {
            assert_cases_exact(&SyntheticEval, 1, algorithm, threads, &trees);
        }
    }
}

#[test]
fn deeper_trees_split_and_stay_exact() {
    // Big enough that helpers really join split points below the root.
    for algorithm in Algorithm::ALL {
        for threads in [2, 4] {
            let mut engine = Engine::new(SyntheticEval, 4);
            engine.set_parallelism(algorithm, threads);
            let shares = !matches!(
                algorithm,
                Algorithm::Serial | Algorithm::SharedTt | Algorithm::LazySmp
            );
            let mut splits = 0;
            // Three trees at least; up to ten while no split has been seen:
            // ABDADA defers a move only when two threads meet at a node,
            // which a loaded 2-core machine may not schedule in three
            // searches.
            for seed in 0..10 {
                if seed >= 3 && (splits > 0 || !shares) {
                    break;
                }
                // A synthetic tree's true value is known by construction.
                let root = tree(&format!("b=7,d=10,seed={seed},q=0.6"));
                let r = engine.search(&root, &Limits::to_depth(10).exact());
                assert_eq!(
                    r.score,
                    root.value(),
                    "{algorithm} × {threads}, seed {seed}"
                );
                splits += r.stats.splits;
            }
            // Every algorithm that shares work explicitly must have done so.
            if shares {
                assert!(splits > 0, "{algorithm} × {threads} never split");
            }
        }
    }
}

#[test]
fn stop_ends_every_algorithm_promptly() {
    let huge = tree("b=30,d=60,seed=5,q=0.3");
    for algorithm in Algorithm::ALL {
        for threads in 1..=8 {
            let mut engine = Engine::new(SyntheticEval, 8);
            engine.set_parallelism(algorithm, threads);
            let stop = engine.stop_handle();
            let (result, latency) = stopped_after(stop, Duration::from_millis(60), || {
                engine.search(&huge, &Limits::default())
            });
            assert!(
                latency < Duration::from_millis(500),
                "{algorithm} × {threads}: stop took {latency:?}"
            );
            assert!(
                result.best_move.is_some(),
                "{algorithm} × {threads}: no move"
            );
        }
    }
}

#[test]
fn a_thousand_short_searches_in_a_row() {
    for algorithm in Algorithm::ALL {
        let mut engine = Engine::new(SyntheticEval, 1);
        engine.set_parallelism(algorithm, 3);
        for i in 0..1000u64 {
            let root = tree(&format!("b=4,d=4,seed={i}"));
            let r = engine.search(&root, &Limits::to_depth(4).exact());
            assert_eq!(r.score, root.value(), "{algorithm}, search {i}");
        }
    }
}

/// An evaluator that panics at its `at`-th call, on whichever thread makes it.
struct PanicAt {
    calls: AtomicU64,
    at: u64,
}

impl PanicAt {
    fn tick(&self) {
        if self.calls.fetch_add(1, Relaxed) + 1 == self.at {
            panic!("planted panic at evaluation {}", self.at);
        }
    }
}

impl Evaluator<Synthetic> for PanicAt {
    fn evaluate(&self, pos: &Synthetic) -> Score {
        self.tick();
        SyntheticEval.evaluate(pos)
    }

    fn terminal_score(&self, pos: &Synthetic, outcome: Outcome, ply: usize) -> Score {
        self.tick();
        SyntheticEval.terminal_score(pos, outcome, ply)
    }
}

#[test]
fn a_panic_in_the_search_reaches_the_caller_and_the_engine_goes_on() {
    // Wherever the panic happens (thread 0 or a helper, at a split point or
    // not), every thread must leave and the caller see the panic: no hang.
    let root = tree("b=7,d=10,seed=3,q=0.6");
    let limits = Limits::to_depth(10).exact();
    let counter = PanicAt {
        calls: AtomicU64::new(0),
        at: u64::MAX,
    };
    let mut serial = Engine::new(counter, 1);
    serial.search(&root, &limits);
    let calls = serial.evaluator().calls.load(Relaxed);
    let (progress, cases) = mpsc::channel();
    std::thread::spawn(move || {
        for algorithm in Algorithm::ALL {
            for threads in [2, 3, 4, 8] {
                for at in [calls / 50, calls / 3, calls * 2 / 3] {
                    progress
                        .send(Some(format!("{algorithm} × {threads}, panic at {at}")))
                        .unwrap();
                    let mut engine = Engine::new(
                        PanicAt {
                            calls: AtomicU64::new(0),
                            at,
                        },
                        1,
                    );
                    engine.set_parallelism(algorithm, threads);
                    let outcome = catch_unwind(AssertUnwindSafe(|| engine.search(&root, &limits)));
                    let tag = format!("{algorithm} × {threads}, panic at {at}");
                    assert!(outcome.is_err(), "{tag}: the panic was lost");
                    // The same engine searches again (its counter is past `at`).
                    let r = engine.search(&root, &limits);
                    assert_eq!(r.score, root.value(), "{tag}: the search after");
                }
            }
        }
        progress.send(None).unwrap();
    });
    // Each case takes well under a second; a minute is a hang.
    let mut case = String::new();
    loop {
        match cases.recv_timeout(Duration::from_secs(60)) {
            Ok(Some(next)) => case = next,
            Ok(None) => break,
            Err(RecvTimeoutError::Timeout) => panic!("{case}: hung after the panic"),
            Err(RecvTimeoutError::Disconnected) => panic!("{case}: failed (see above)"),
        }
    }
}

#[test]
fn normal_mode_gives_legal_moves_and_sane_scores() {
    for algorithm in Algorithm::ALL {
        for threads in THREADS {
            let mut engine = Engine::new(SyntheticEval, 2);
            engine.set_parallelism(algorithm, threads);
            for seed in 0..5 {
                let root = tree(&format!("b=5,d=7,seed={seed},q=0.5"));
                let r = engine.search(&root, &Limits::to_depth(7));
                let mv = r.best_move.expect("a move");
                assert!(mv < 5);
                // A tree has no transpositions, so even the table's cutoffs are exact.
                assert_eq!(r.score, root.value(), "{algorithm} × {threads}");
            }
        }
    }
}

mod othello {
    use super::THREADS;
    use super::common::{assert_cases_exact, othello_cases, random_othello};
    use splitpoint::{Algorithm, Engine, Game};
    use splitpoint_games::othello::{Othello, OthelloEval, OthelloExact, solve_limits};

    #[test]
    fn every_algorithm_is_exact_on_othello_midgames() {
        // 20 midgame positions at depth 4 and 5, against plain negamax.
        let cases = othello_cases((0..20u64).map(|seed| {
            let (plies, depth) = (10 + (seed % 20) as usize, 4 + (seed % 2) as i32);
            (seed, plies, depth)
        }));
        assert!(cases.len() >= 18);
        for algorithm in Algorithm::ALL {
            for threads in THREADS {
                assert_cases_exact(&OthelloEval, 2, algorithm, threads, &cases);
            }
        }
    }

    #[test]
    fn every_algorithm_solves_othello_endgames_exactly() {
        // 12 endgames with 11-14 empties: each algorithm's solve equals serial's,
        // and its move reaches that score.
        let mut serial = Engine::new(OthelloExact, 4);
        let cases: Vec<(Othello, i32)> = (100..112u64)
            .map(|seed| random_othello(seed, 46 + (seed % 4) as usize))
            .filter(|pos| pos.outcome().is_none())
            .map(|pos| {
                serial.clear();
                let score = serial.search(&pos, &solve_limits(&pos)).score;
                (pos, score)
            })
            .collect();
        assert!(cases.len() >= 10);
        for algorithm in Algorithm::ALL {
            for threads in THREADS {
                let mut engine = Engine::new(OthelloExact, 4);
                engine.set_parallelism(algorithm, threads);
                for (pos, expected) in &cases {
                    engine.clear();
                    let r = engine.search(pos, &solve_limits(pos));
                    let tag = format!("{algorithm} × {threads} solving {}", pos.position_text());
                    assert_eq!(r.score, *expected, "{tag}");
                    let child = pos.play(r.best_move.expect("a move"));
                    serial.clear();
                    let child_score = if child.outcome().is_some() {
                        child.final_score()
                    } else {
                        serial.search(&child, &solve_limits(&child)).score
                    };
                    assert_eq!(-child_score, *expected, "{tag}: best move");
                }
            }
        }
    }
}
