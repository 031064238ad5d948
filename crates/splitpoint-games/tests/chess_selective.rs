//! Chess's selective search (null move, reductions, check extension):
//! what it prunes and extends outside exact mode, that DTS's explicit-stack
//! search takes the same steps, and that every algorithm searches, stops and
//! repeats selectively without a hang.
#![cfg(feature = "chess")]

mod common;
use common::{assert_same_steps, parse, stopped_after};
use splitpoint::testing::iterative_vs_recursive;
use splitpoint::{Algorithm, Engine, Evaluator, Game, INFINITY, Limits, MoveList, Score};
use splitpoint_games::chess::{Chess, ChessEval, Move, middlegames};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";

fn fen(text: &str) -> Chess {
    parse(text)
}

/// `ChessEval` without the selectivity hooks: no check extension, null move
/// or reduction (and quiescence stands pat in check, as before them).
struct PlainEval(ChessEval);

impl Evaluator<Chess> for PlainEval {
    fn evaluate(&self, pos: &Chess) -> Score {
        self.0.evaluate(pos)
    }
    fn noisy_moves(&self, pos: &Chess, moves: &mut MoveList<Move>) {
        self.0.noisy_moves(pos, moves)
    }
    fn order_moves(&self, pos: &Chess, moves: &[Move], keys: &mut [i32]) {
        self.0.order_moves(pos, moves, keys)
    }
}

#[test]
fn selectivity_prunes_and_extends_outside_exact_mode() {
    let eval = ChessEval::default();
    let (mut selective, mut plain) = (0, 0);
    for (name, pos) in middlegames().iter().take(4) {
        let mut engine = Engine::new(eval, 16);
        let r = engine.search(pos, &Limits::to_depth(6));
        assert!(r.stats.null_cutoffs > 0, "{name}: no null-move cutoff");
        assert!(r.stats.reductions > 0, "{name}: no reduction");
        assert!(
            r.stats.seldepth > 6,
            "{name}: seldepth {}",
            r.stats.seldepth
        );
        selective += r.stats.nodes;
        let mut engine = Engine::new(PlainEval(eval), 16);
        plain += engine.search(pos, &Limits::to_depth(6)).stats.nodes;

        // Exact mode turns every hook off but the no-stand-pat in check.
        let mut engine = Engine::new(eval, 16);
        let r = engine.search(pos, &Limits::to_depth(3).exact());
        assert_eq!((r.stats.null_cutoffs, r.stats.reductions), (0, 0), "{name}");
    }
    assert!(
        selective * 2 < plain,
        "null moves and reductions should at least halve the tree: {selective} vs {plain} nodes"
    );
}

/// Reverse futility, futility and late-move pruning shrink the tree at a
/// fixed depth, and exact mode ignores them.
#[test]
fn pruning_near_the_leaves_shrinks_the_tree_outside_exact_mode() {
    let pruned = ChessEval::default();
    let unpruned = ChessEval {
        pruning: None,
        ..pruned
    };
    let nodes = |eval: ChessEval, limits: &Limits| -> (u64, Score) {
        let mut total = 0;
        let mut score = 0;
        for (_, pos) in middlegames().iter().take(4) {
            let r = Engine::new(eval, 16).search(pos, limits);
            total += r.stats.nodes;
            score += r.score;
        }
        (total, score)
    };
    let (with, _) = nodes(pruned, &Limits::to_depth(7));
    let (without, _) = nodes(unpruned, &Limits::to_depth(7));
    assert!(
        with * 4 < without * 3,
        "pruning should save a quarter of the tree: {with} vs {without} nodes"
    );
    let exact = Limits::to_depth(3).exact();
    assert_eq!(nodes(pruned, &exact), nodes(unpruned, &exact));
}

/// DTS's explicit-stack search takes the recursive search's steps with the
/// null move, the reductions and their re-searches, the check extension and
/// the pruning near the leaves.
#[test]
fn iterative_search_equals_recursive_with_selectivity() {
    let eval = ChessEval::default();
    let mut positions: Vec<Chess> = middlegames().into_iter().map(|(_, p)| p).collect();
    positions.extend([
        fen(KIWIPETE),
        fen(POSITION_4),
        fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
    ]);
    let (mut reductions, mut null_cutoffs) = (0, 0);
    for pos in &positions {
        for (depth, window) in [(5, (-INFINITY, INFINITY)), (5, (-30, 30)), (4, (0, 1))] {
            let runs = iterative_vs_recursive(pos, &eval, depth, false, window);
            let stats =
                assert_same_steps(runs, &format!("{pos:?} depth {depth} window {window:?}"));
            reductions += stats.reductions;
            null_cutoffs += stats.null_cutoffs;
        }
    }
    assert!(reductions > 0 && null_cutoffs > 0);
}

/// The selective search splits like the full-width one: every algorithm, in
/// normal mode, returns a legal move and a score near the serial one.
#[test]
fn every_algorithm_searches_selectively() {
    let positions: Vec<Chess> = middlegames().into_iter().take(3).map(|(_, p)| p).collect();
    for algorithm in Algorithm::ALL {
        for threads in [2, 3, 8] {
            let mut engine = Engine::new(ChessEval::default(), 8);
            engine.set_parallelism(algorithm, threads);
            for pos in &positions {
                let r = engine.search(pos, &Limits::to_depth(6));
                let tag = format!("{algorithm} × {threads} on {pos:?}");
                assert_eq!(r.depth, 6, "{tag}");
                assert!(
                    pos.legal_moves().contains(&r.best_move.expect("a move")),
                    "{tag}"
                );
                assert!(r.score.abs() < 1500, "{tag}: {}", r.score);
            }
        }
    }
}

/// Stop ends a selective chess search promptly, whatever the algorithm.
#[test]
fn stop_ends_every_selective_search_promptly() {
    use std::time::Duration;
    let (_, pos) = middlegames().swap_remove(0);
    for algorithm in Algorithm::ALL {
        for threads in [2, 3] {
            let mut engine = Engine::new(ChessEval::default(), 8);
            engine.set_parallelism(algorithm, threads);
            let stop = engine.stop_handle();
            let (result, latency) = stopped_after(stop, Duration::from_millis(80), || {
                engine.search(&pos, &Limits::default())
            });
            let tag = format!("{algorithm} × {threads}");
            assert!(
                latency < Duration::from_millis(500),
                "{tag}: stop took {latency:?}"
            );
            assert!(
                pos.legal_moves()
                    .contains(&result.best_move.expect("a move")),
                "{tag}"
            );
        }
    }
}

/// Many short selective searches in a row, on positions of a played-out
/// game (checks, captures, null moves at every turn): no hang, legal moves.
#[test]
fn many_short_selective_searches_in_a_row() {
    let mut line = vec![Chess::start()];
    let mut engine = Engine::new(ChessEval::default(), 2);
    while line.len() < 60 {
        let pos = line.last().unwrap();
        if pos.outcome().is_some() {
            break;
        }
        let r = engine.search(pos, &Limits::to_depth(3));
        line.push(pos.play(r.best_move.unwrap()));
    }
    for algorithm in Algorithm::ALL {
        let mut engine = Engine::new(ChessEval::default(), 2);
        engine.set_parallelism(algorithm, 3);
        for pos in line.iter().filter(|p| p.outcome().is_none()) {
            let r = engine.search(pos, &Limits::to_depth(4));
            let mv = r.best_move.expect("a move");
            assert!(pos.legal_moves().contains(&mv), "{algorithm} on {pos:?}");
        }
    }
}
