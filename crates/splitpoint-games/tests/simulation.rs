//! The simulator runs the real algorithms: in exact mode every algorithm at
//! every simulated processor count returns the serial score, and the same
//! search gives the same nodes and virtual time every time.

use splitpoint::sim::Simulation;
use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, SearchResult};
#[cfg(feature = "chess")]
use splitpoint_games::chess::{Chess, ChessEval};
#[cfg(feature = "draughts")]
use splitpoint_games::draughts::{self, DraughtsEval};
use splitpoint_games::othello::{Othello, OthelloEval};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};

fn simulate<G: Game, E: Evaluator<G> + Clone>(
    eval: &E,
    algorithm: Algorithm,
    processors: usize,
    pos: &G,
    limits: &Limits,
) -> (SearchResult<G::Move>, splitpoint::sim::Report) {
    let mut engine = Engine::new(eval.clone(), 8);
    engine.set_parallelism(algorithm, processors);
    engine.set_simulation(Some(Simulation::default()));
    let r = engine.search(pos, limits);
    let report = *engine
        .simulation_report()
        .expect("a simulated search reports");
    (r, report)
}

fn serial<G: Game, E: Evaluator<G> + Clone>(
    eval: &E,
    pos: &G,
    limits: &Limits,
) -> SearchResult<G::Move> {
    let mut engine = Engine::new(eval.clone(), 8);
    engine.search(pos, limits)
}

fn check_all<G: Game, E: Evaluator<G> + Clone>(
    eval: &E,
    pos: &G,
    limits: &Limits,
    counts: &[usize],
) {
    let expected = serial(eval, pos, limits);
    for &p in counts {
        for algorithm in Algorithm::ALL {
            let (r, report) = simulate(eval, algorithm, p, pos, limits);
            assert_eq!(
                r.score, expected.score,
                "{algorithm} on {p} simulated processors"
            );
            let shares = report.search_seconds
                + report.overhead_seconds
                + report.idle_seconds
                + report.wait_seconds;
            assert!(
                (shares - report.processor_seconds).abs()
                    <= 1e-6 * report.processor_seconds.max(1e-9) + 1e-9,
                "{algorithm} × {p}: shares {shares} of {}",
                report.processor_seconds
            );
        }
    }
}

#[test]
fn every_algorithm_is_exact_in_simulation_on_synthetic_trees() {
    let root = Synthetic::parse_position("b=6,d=7,seed=3,q=0.5").unwrap();
    check_all(
        &SyntheticEval,
        &root,
        &Limits::to_depth(7).exact(),
        &[1, 2, 3, 4, 8],
    );
}

#[cfg(feature = "chess")]
#[test]
fn every_algorithm_is_exact_in_simulation_on_chess() {
    let pos =
        Chess::parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    check_all(
        &ChessEval::default(),
        &pos,
        &Limits::to_depth(5).exact(),
        &[2, 8],
    );
}

#[cfg(feature = "draughts")]
#[test]
fn every_algorithm_is_exact_in_simulation_on_draughts() {
    let (_, pos) = draughts::middlegames()[0].clone();
    check_all(&DraughtsEval, &pos, &Limits::to_depth(6).exact(), &[2, 8]);
}

#[cfg(feature = "xiangqi")]
#[test]
fn every_algorithm_is_exact_in_simulation_on_xiangqi() {
    use splitpoint_games::xiangqi::{self, XiangqiEval};
    let (_, pos) = xiangqi::middlegames()[0].clone();
    check_all(
        &XiangqiEval::default(),
        &pos,
        &Limits::to_depth(4).exact(),
        &[2, 8],
    );
}

#[test]
fn every_algorithm_is_exact_in_simulation_on_othello() {
    let pos = Othello::default();
    check_all(&OthelloEval, &pos, &Limits::to_depth(7).exact(), &[3, 16]);
}

#[cfg(feature = "chess")]
#[test]
fn a_simulation_is_deterministic() {
    let pos =
        Chess::parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let limits = Limits::to_depth(6);
    for algorithm in [
        Algorithm::Dts,
        Algorithm::Ybw { strong: false },
        Algorithm::LazySmp,
        Algorithm::PvSplit,
        Algorithm::Abdada,
    ] {
        let (a, ra) = simulate(&ChessEval::default(), algorithm, 8, &pos, &limits);
        let (b, rb) = simulate(&ChessEval::default(), algorithm, 8, &pos, &limits);
        assert_eq!(
            (a.score, a.stats.nodes, a.best_move),
            (b.score, b.stats.nodes, b.best_move),
            "{algorithm}"
        );
        assert_eq!(ra.seconds, rb.seconds, "{algorithm}");
        assert_eq!(ra.idle_seconds, rb.idle_seconds, "{algorithm}");
    }
}

#[test]
fn every_algorithm_is_exact_on_synthetic_trees_of_other_shapes() {
    for spec in ["b=4,d=8,seed=5,q=0.9", "b=10,d=5,seed=6,q=0.1"] {
        let root = Synthetic::parse_position(spec).unwrap();
        let depth = root_depth(spec);
        check_all(
            &SyntheticEval,
            &root,
            &Limits::to_depth(depth).exact(),
            &[2, 3, 8],
        );
    }
}

fn root_depth(spec: &str) -> i32 {
    spec.split(',')
        .find_map(|kv| kv.strip_prefix("d="))
        .and_then(|d| d.parse().ok())
        .expect("a depth in the spec")
}

#[test]
fn every_algorithm_is_exact_on_64_simulated_processors() {
    let root = Synthetic::parse_position("b=8,d=7,seed=11,q=0.3").unwrap();
    check_all(&SyntheticEval, &root, &Limits::to_depth(7).exact(), &[64]);
}

/// The held-back run (minutes): every algorithm on 1,024 simulated
/// processors, on a synthetic tree and an Othello midgame.
/// `cargo test --release -p splitpoint-games --test simulation -- --ignored`
#[test]
#[ignore = "minutes: run by hand"]
fn every_algorithm_is_exact_on_1024_simulated_processors() {
    let root = Synthetic::parse_position("b=8,d=7,seed=11,q=0.3").unwrap();
    check_all(&SyntheticEval, &root, &Limits::to_depth(7).exact(), &[1024]);
    check_all(
        &OthelloEval,
        &Othello::default(),
        &Limits::to_depth(8).exact(),
        &[1024],
    );
}
