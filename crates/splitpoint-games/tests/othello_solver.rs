//! The Othello solver against its oracle: `solve_limits` lets the table's
//! bounds end nodes and the root find its score by null-window probes
//! (MTD(f)), which must not change a single score or choose a worse move.
//! The oracle is the same search in exact mode (`oracle_limits`: the table
//! orders moves only), run serially.

use std::collections::HashMap;

use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, OrderNode, Outcome, Score};
use splitpoint_games::othello::{
    Othello, OthelloExact, OthelloMove, ffo_positions, oracle_limits, solve_limits,
};

mod common;
use common::random_othello;

/// 50 seeded endgames, with 12 to 18 empties, none finished.
fn endgames() -> Vec<Othello> {
    let positions: Vec<Othello> = (0..400u64)
        .map(|seed| random_othello(1000 + seed, 42 + (seed % 7) as usize))
        .filter(|pos| pos.outcome().is_none() && (12..=18).contains(&pos.empty_count()))
        .take(50)
        .collect();
    assert_eq!(positions.len(), 50, "too few seeded endgames");
    positions
}

#[test]
fn the_solver_scores_as_the_oracle_under_every_algorithm_at_1_2_3_threads() {
    let positions = endgames();
    let mut oracle = Engine::new(OthelloExact, 8);
    let expected: Vec<i32> = positions
        .iter()
        .map(|pos| {
            oracle.clear();
            oracle.search(pos, &oracle_limits(pos)).score
        })
        .collect();
    let mut child_scores = HashMap::new();
    for algorithm in Algorithm::ALL {
        for threads in [1, 2, 3] {
            // One table for all 50: entries left by earlier positions must
            // not mislead later ones either.
            let mut engine = Engine::new(OthelloExact, 8);
            engine.set_parallelism(algorithm, threads);
            for (pos, &score) in positions.iter().zip(&expected) {
                let r = engine.search(pos, &solve_limits(pos));
                assert_eq!(
                    r.score,
                    score,
                    "{algorithm} × {threads} solving {} ({} empties)",
                    pos.position_text(),
                    pos.empty_count()
                );
                let mv = r.best_move.expect("an unfinished game has a move");
                let child = pos.play(mv);
                // Most runs choose the same moves: each child is solved once.
                let child_score = *child_scores
                    .entry(child.position_text())
                    .or_insert_with(|| {
                        if child.outcome().is_some() {
                            child.final_score()
                        } else {
                            oracle.clear();
                            oracle.search(&child, &oracle_limits(&child)).score
                        }
                    });
                assert_eq!(
                    -child_score, score,
                    "{algorithm} × {threads}: {mv} is no best move"
                );
            }
        }
    }
}

#[test]
fn the_presearch_reports_nothing_and_leaves_no_score_behind() {
    assert!(
        solve_limits(&endgames()[0]).presearch > 0,
        "the solver presearches"
    );
    // One report per solve: the solve's own.
    for pos in endgames().iter().take(5) {
        let mut engine = Engine::new(OthelloExact, 8);
        let limits = solve_limits(pos);
        let mut depths = Vec::new();
        engine.search_with(pos, &limits, |r| depths.push(r.depth));
        assert_eq!(depths, [limits.depth.unwrap()], "{}", pos.position_text());
    }
    // FFO #45's presearch scores are its evaluation's guesses (+3 to +7):
    // stopped within the presearch (the node limit is checked every few
    // thousand nodes), a solve has no depth and no score to report.
    let pos = ffo_positions()[5].position;
    let mut engine = Engine::new(OthelloExact, 8);
    let r = engine.search(
        &pos,
        &Limits {
            nodes: Some(1),
            ..solve_limits(&pos)
        },
    );
    assert!(r.stats.nodes < 40_000, "not stopped within the presearch");
    assert_eq!((r.depth, r.score), (0, 0));
}

#[test]
fn the_solver_searches_fewer_nodes_than_the_oracle() {
    // What the solver is for: the same scores with less work.
    let (mut solver_nodes, mut oracle_nodes) = (0, 0);
    for pos in endgames().iter().take(10) {
        let mut engine = Engine::new(OthelloExact, 8);
        solver_nodes += engine.search(pos, &solve_limits(pos)).stats.nodes;
        engine.clear();
        oracle_nodes += engine.search(pos, &oracle_limits(pos)).stats.nodes;
    }
    assert!(
        solver_nodes < oracle_nodes,
        "solver {solver_nodes} nodes, oracle {oracle_nodes}"
    );
}

/// `OthelloExact` without enhanced transposition cut-offs (the hook's default).
struct WithoutChildProbes;

impl Evaluator<Othello> for WithoutChildProbes {
    fn evaluate(&self, pos: &Othello) -> Score {
        OthelloExact.evaluate(pos)
    }
    fn terminal_score(&self, pos: &Othello, outcome: Outcome, ply: usize) -> Score {
        OthelloExact.terminal_score(pos, outcome, ply)
    }
    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        OthelloExact.order_moves(pos, moves, keys)
    }
    fn order_moves_at(
        &self,
        pos: &Othello,
        moves: &[OthelloMove],
        keys: &mut [i32],
        node: OrderNode,
    ) {
        OthelloExact.order_moves_at(pos, moves, keys, node)
    }
    fn defers_ordering(&self) -> bool {
        OthelloExact.defers_ordering()
    }
    fn stores_fail_low_move(&self) -> bool {
        OthelloExact.stores_fail_low_move()
    }
    fn solve_leaf(
        &self,
        pos: &Othello,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        nodes: &mut u64,
    ) -> Option<Score> {
        OthelloExact.solve_leaf(pos, alpha, beta, depth, ply, nodes)
    }
}

#[test]
fn enhanced_transposition_cutoffs_keep_every_score_and_save_nodes() {
    let (mut with, mut without) = (0, 0);
    for pos in endgames().iter().filter(|p| p.empty_count() >= 16).take(8) {
        let mut engine = Engine::new(OthelloExact, 8);
        let r = engine.search(pos, &solve_limits(pos));
        let mut plain = Engine::new(WithoutChildProbes, 8);
        let p = plain.search(pos, &solve_limits(pos));
        assert_eq!(r.score, p.score, "{}", pos.position_text());
        with += r.stats.nodes;
        without += p.stats.nodes;
    }
    assert!(
        with < without,
        "with the probes {with} nodes, without {without}"
    );
}
