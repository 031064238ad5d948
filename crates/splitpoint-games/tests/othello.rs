//! Othello: rules (perft, flips, mobility), text forms, and the exact endgame
//! solver against brute force.

use splitpoint::{Engine, Evaluator, Game, INFINITY, Limits, MoveList, Outcome, Score, perft};
use splitpoint_games::othello::{
    Othello, OthelloEval, OthelloExact, OthelloMove, SOLVE_EMPTIES, ffo_positions, flips,
    last_flip_count, mobility, solve_limits,
};

mod common;
use common::Rng;

/// Counted by the generic perft (a game that ends sooner is one leaf).
#[test]
fn perft_from_the_start() {
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    let start = Othello::start();
    for (depth, &count) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

/// A random position reached by random play, with `empties` empty squares
/// (or the finished game, if it ends first).
fn random_position(rng: &mut Rng, empties: u32) -> Othello {
    let mut pos = Othello::start();
    while pos.empty_count() > empties {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.below(moves.len())]);
    }
    pos
}

/// The flips of a move, one step at a time in each of the eight directions.
fn naive_flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut all = 0;
    for (df, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut f, mut r) = (file + df, rank + dr);
        let mut run = 0u64;
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            if opponent & bit != 0 {
                run |= bit;
            } else {
                if player & bit != 0 {
                    all |= run;
                }
                break;
            }
            f += df;
            r += dr;
        }
    }
    all
}

#[test]
fn flips_and_mobility_match_a_naive_reference() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for i in 0..3000 {
        // Half from play, half uniformly random boards (odd shapes, full runs).
        let (p, o) = if i % 2 == 0 {
            let pos = {
                let e = rng.below(60) as u32;
                random_position(&mut rng, e)
            };
            (pos.player(), pos.opponent())
        } else {
            let a = rng.bits();
            let b = rng.bits() & rng.bits() | rng.bits() & rng.bits();
            (a & !b, b & !a)
        };
        let empties = !(p | o);
        let mut legal = 0;
        for sq in 0..64 {
            if empties & (1 << sq) == 0 {
                continue;
            }
            let expected = naive_flips(sq, p, o);
            assert_eq!(flips(sq, p, o), expected, "square {sq} p {p:#x} o {o:#x}");
            if expected != 0 {
                legal |= 1 << sq;
            }
        }
        assert_eq!(mobility(p, o), legal, "p {p:#x} o {o:#x}");
    }
}

#[test]
fn last_flip_count_matches_flips() {
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let sq = rng.below(64);
        let player = rng.bits() & !(1 << sq);
        let opponent = !player & !(1 << sq);
        assert_eq!(
            last_flip_count(sq, player),
            naive_flips(sq, player, opponent).count_ones(),
            "{sq} {player:#x}"
        );
    }
}

#[test]
fn hash_depends_on_the_side_to_move() {
    let mut rng = Rng(77);
    for _ in 0..200 {
        let pos = {
            let e = rng.below(56) as u32;
            random_position(&mut rng, e)
        };
        let swapped = Othello::from_bitboards(pos.opponent(), pos.player(), !pos.black_to_move());
        assert_ne!(pos.hash(), swapped.hash(), "{pos}");
        assert_eq!(pos.hash(), pos.hash());
    }
}

#[test]
fn passes_and_game_end() {
    // White to move has nothing, black has a move: one pass.
    let pos = Othello::parse_position(&format!("XO-{} O", "-".repeat(61))).unwrap();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.as_slice(), [OthelloMove::PASS]);
    assert_eq!(pos.outcome(), None);
    let passed = pos.play(OthelloMove::PASS);
    assert!(passed.black_to_move());
    moves.clear();
    passed.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    // After c1 nobody can move: black wins 3-0 with 61 empties, +64.
    let end = passed.play(moves[0]);
    moves.clear();
    end.generate_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(end.outcome(), Some(Outcome::Loss));
    assert_eq!(OthelloExact.terminal_score(&end, Outcome::Loss, 3), -64);
    assert_eq!(end.final_score(), -64);
}

#[test]
fn text_round_trips() {
    let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let pos = Othello::parse_position(text).unwrap();
    assert_eq!(pos.position_text(), text);
    assert_eq!(pos.empty_count(), 20);
    let start = Othello::parse_position("start").unwrap();
    assert_eq!(start, Othello::start());
    assert_eq!(
        start.position_text(),
        "---------------------------OX------XO--------------------------- X"
    );
    // `*` for black, `.` for empty, several spaces, lower case.
    let alt = text
        .replace('X', "*")
        .replace('-', ".")
        .replace(" *", "   x");
    assert_eq!(Othello::parse_position(&alt).unwrap(), pos);
    let mut rng = Rng(5);
    for _ in 0..100 {
        let pos = {
            let e = rng.below(60) as u32;
            random_position(&mut rng, e)
        };
        assert_eq!(Othello::parse_position(&pos.position_text()).unwrap(), pos);
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for &mv in &moves {
            assert_eq!(pos.parse_move(&pos.move_text(mv)).unwrap(), mv);
            assert_eq!(
                pos.parse_move(&pos.move_text(mv).to_uppercase()).unwrap(),
                mv
            );
        }
    }
}

#[test]
fn bad_text_is_reported_precisely() {
    let err = |text: &str| Othello::parse_position(text).unwrap_err();
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    let e = err(&format!("{} X", &board[1..]));
    assert_eq!(e.message, "expected 64 board characters, found 63");
    assert_eq!(e.column, Some(0));
    let e = err(&format!("{}Z{} X", &board[..10], &board[11..]));
    assert_eq!(e.message, "unknown board character 'Z'");
    assert_eq!(e.column, Some(10));
    let e = err(&format!("{board} Y"));
    assert_eq!(e.message, "side to move must be X or O");
    assert_eq!(e.column, Some(65));
    assert_eq!(
        err(&format!("{board} XO")).message,
        "side to move must be X or O"
    );
    assert!(err(board).message.contains("side to move"));
    assert!(
        err(&format!("{board} X extra"))
            .message
            .contains("unexpected text")
    );
    assert!(err("").message.contains("expected 64 board characters"));

    let start = Othello::start();
    let e = start.parse_move("g7").unwrap_err();
    assert_eq!(e.message, "g7 is not a legal move here");
    assert_eq!(start.parse_move(" d3").unwrap().to_string(), "d3");
    assert!(
        start
            .parse_move("pass")
            .unwrap_err()
            .message
            .contains("not a legal move")
    );
    assert!(start.parse_move("i9").is_err());
    assert!(start.parse_move("").is_err());
    let pass_pos = Othello::parse_position(&format!("XO-{} O", "-".repeat(61))).unwrap();
    for text in ["pass", "PA", "@@", "Pass"] {
        assert_eq!(pass_pos.parse_move(text).unwrap(), OthelloMove::PASS);
    }
}

#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "XO-*.xo \t\nZ1a8h@pPsS€é\u{0}ñ".chars().collect();
    let mut rng = Rng(99);
    let start = Othello::start();
    for _ in 0..5000 {
        let len = rng.below(80);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = Othello::parse_position(&text);
        let _ = start.parse_move(&text);
        let _ =
            start.parse_move(&text[..text.char_indices().nth(2).map_or(text.len(), |(i, _)| i)]);
    }
    // Near misses of a valid position.
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    for cut in 0..board.len() {
        let _ = Othello::parse_position(&board[..cut]);
        let _ = Othello::parse_position(&format!("{}é X", &board[..cut]));
    }
}

/// Plain negamax to the end of the game, scored by `OthelloExact`.
fn brute_force(pos: &Othello) -> Score {
    if let Some(outcome) = pos.outcome() {
        return OthelloExact.terminal_score(pos, outcome, 0);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| -brute_force(&pos.play(mv)))
        .max()
        .unwrap()
}

#[test]
fn leaf_solver_matches_brute_force() {
    let mut rng = Rng(2024);
    let mut checked = 0;
    let mut i = 0;
    while checked < 240 {
        i += 1;
        // Brute force beyond 10 empties is too slow for a test.
        let most = SOLVE_EMPTIES.min(10);
        let empties = 1 + (i % most as usize) as u32;
        // The largest counts are slow to brute-force: fewer of them.
        if empties + 2 >= most && i % 3 != 0 {
            continue;
        }
        let pos = random_position(&mut rng, empties);
        if pos.outcome().is_some() {
            continue;
        }
        let n = pos.empty_count();
        let truth = brute_force(&pos);
        let depth = 2 * n as i32;
        let solve = |alpha: Score, beta: Score| {
            let mut nodes = 0;
            OthelloExact
                .solve_leaf(&pos, alpha, beta, depth, 3, &mut nodes)
                .expect("solvable")
        };
        assert_eq!(solve(-INFINITY, INFINITY), truth, "{pos}");
        assert_eq!(solve(-65, 65), truth, "{pos}");
        assert_eq!(solve(truth - 1, truth + 1), truth, "{pos}");
        // Null windows just below and just above the value: a bound on the
        // right side that is also no further than the truth, so the truth.
        assert_eq!(solve(truth - 1, truth), truth, "{pos}: fail high");
        assert_eq!(solve(truth, truth + 1), truth, "{pos}: fail low");
        // Windows wholly above (fail low: an upper bound at or below alpha) and
        // wholly below (fail high: a lower bound at or above beta).
        for gap in [1, 2, 7, 40, 200] {
            let (alpha, beta) = (truth + gap, truth + gap + 3);
            let v = solve(alpha, beta);
            assert!(
                v <= alpha && v >= truth,
                "{pos}: window ({alpha},{beta}) gave {v}, truth {truth}"
            );
            let (alpha, beta) = (truth - gap - 3, truth - gap);
            let v = solve(alpha, beta);
            assert!(
                v >= beta && v <= truth,
                "{pos}: window ({alpha},{beta}) gave {v}, truth {truth}"
            );
        }
        checked += 1;
    }
}

#[test]
fn leaf_solver_declines_what_it_cannot_finish() {
    let mut rng = Rng(3);
    let pos = random_position(&mut rng, SOLVE_EMPTIES + 1);
    let mut nodes = 0;
    assert_eq!(
        OthelloExact.solve_leaf(&pos, -INFINITY, INFINITY, 100, 0, &mut nodes),
        None
    );
    let pos = random_position(&mut rng, 6);
    assert_eq!(
        OthelloExact.solve_leaf(&pos, -INFINITY, INFINITY, 10, 0, &mut nodes),
        None
    );
    assert!(
        OthelloExact
            .solve_leaf(&pos, -INFINITY, INFINITY, 12, 0, &mut nodes)
            .is_some()
    );
}

#[test]
fn engine_solves_like_the_leaf_solver() {
    let mut rng = Rng(11);
    let mut engine = Engine::new(OthelloExact, 16);
    for _ in 0..12 {
        let pos = random_position(&mut rng, SOLVE_EMPTIES + 3);
        if pos.outcome().is_some() {
            continue;
        }
        let mut nodes = 0;
        let truth = OthelloExact::solve(&pos, -INFINITY, INFINITY, &mut nodes);
        engine.clear();
        let result = engine.search(&pos, &solve_limits(&pos));
        assert_eq!(result.score, truth, "{pos}");
    }
}

#[test]
fn midgame_evaluator_is_sane() {
    let mut rng = Rng(8);
    let mut engine = Engine::new(OthelloEval, 16);
    for _ in 0..20 {
        let pos = {
            let e = 20 + rng.below(30) as u32;
            random_position(&mut rng, e)
        };
        let v = OthelloEval.evaluate(&pos);
        assert!(v.abs() <= 15_000, "{pos}: {v}");
        if pos.outcome().is_none() {
            let result = engine.search(&pos, &Limits::to_depth(4));
            assert!(result.best_move.is_some());
        }
    }
}

#[test]
fn ffo_suite_is_available() {
    let suite = ffo_positions();
    assert_eq!(suite.len(), 20);
    let first = &suite[0];
    assert_eq!((first.id, first.empties, first.score), (40, 20, 38));
    assert_eq!(
        first.best.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["a2"]
    );
}

/// FFO #40 through the engine; a speed check as much as a test, so run it on
/// demand: `cargo test --release -p splitpoint-games --test othello -- --ignored`.
#[test]
#[ignore]
fn ffo_40_solves() {
    let ffo = &ffo_positions()[0];
    let mut engine = Engine::new(OthelloExact, 64);
    let result = engine.search(&ffo.position, &solve_limits(&ffo.position));
    assert_eq!(result.score, ffo.score);
    assert!(ffo.best.contains(&result.best_move.unwrap()));
}

#[test]
fn engine_solves_endgames_like_brute_force() {
    // The whole exact path — engine, table ordering, fastest-first, leaf
    // solver, stability cut-offs — against plain negamax to the end of the
    // game, on 20 endgames with 10 to 12 empties.
    let mut rng = Rng(2026);
    let mut engine = Engine::new(OthelloExact, 16);
    let mut checked = 0;
    while checked < 20 {
        let empties = 10 + (checked % 3) as u32;
        let pos = random_position(&mut rng, empties);
        if pos.outcome().is_some() || pos.empty_count() != empties {
            continue;
        }
        let limits = Limits {
            single_iteration: true,
            ..Limits::to_depth(2 * empties as i32 + 2).exact()
        };
        engine.clear();
        let result = engine.search(&pos, &limits);
        assert_eq!(result.score, brute_force(&pos), "{pos}");
        let best = pos.play(result.best_move.expect("a move"));
        assert_eq!(-brute_force(&best), result.score, "{pos}: best move");
        checked += 1;
    }
}

#[test]
fn positions_cross_as_bytes() {
    common::assert_bytes_round_trip(&Othello::start(), 60, 120);
}
