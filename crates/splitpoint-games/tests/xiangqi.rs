//! Xiangqi: perft, text forms and their errors, every movement rule, game
//! ends (mate, stalemate, repetition, perpetual check), the evaluator's move
//! sets, and exact-mode search against the negamax oracle for every algorithm.
#![cfg(feature = "xiangqi")]

mod common;
use common::{
    Rng, assert_damaged_positions_refused_or_usable, assert_every_algorithm_exact,
    assert_exact_equals_negamax, assert_game_over, assert_move_keys_distinct,
    assert_scored_as_lost, assert_text_round_trips, evaluate_with_children, ordering_keys, parse,
    play_line, with_negamax,
};
use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, MoveList, Outcome, WIN};
use splitpoint_games::xiangqi::{
    Color, HISTORY_LEN, Move, START_FEN, Square, Xiangqi, XiangqiEval, middlegames, perft,
};

fn fen(text: &str) -> Xiangqi {
    parse(text)
}

/// A position from a list of pieces such as `"Kd0 ke9 Ra8"` (FEN letter,
/// then the square in ICCS), with `side` ('w' or 'b') to move.
fn setup(pieces: &str, side: char) -> Xiangqi {
    let mut grid = [['.'; 9]; 10];
    for word in pieces.split_whitespace() {
        let b = word.as_bytes();
        let (file, rank) = ((b[1] - b'a') as usize, (b[2] - b'0') as usize);
        grid[rank][file] = b[0] as char;
    }
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text += &empty.to_string();
                    empty = 0;
                }
                text.push(c);
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    fen(&format!("{} {side}", rows.join("/")))
}

/// The squares the piece on `from` may move to, sorted.
fn targets(pos: &Xiangqi, from: &str) -> Vec<String> {
    let mut to: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from().to_string() == from)
        .map(|m| m.to().to_string())
        .collect();
    to.sort();
    to
}

/// Asserts where pieces may move in the position of `pieces` (see [`setup`]):
/// each (from, the squares it may move to, in any order).
#[track_caller]
fn assert_targets(pieces: &str, side: char, expected: &[(&str, &str)]) {
    let pos = setup(pieces, side);
    for (from, to) in expected {
        let mut to: Vec<&str> = to.split_whitespace().collect();
        to.sort();
        assert_eq!(targets(&pos, from), to, "{pieces} {side}: {from}");
    }
}

// ---------------------------------------------------------------- perft

/// The published start-position counts (chessprogramming wiki, "Chinese
/// Chess Perft Results"; Fairy-Stockfish agrees).
#[test]
fn perft_start_position() {
    let start = Xiangqi::start();
    for (depth, count) in (1..).zip([44, 1920, 79_666, 3_290_240]) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
    // No game ends this early: the generic count agrees.
    assert_eq!(splitpoint::perft(&start, 3), 79_666);
}

#[test]
#[ignore = "133 million positions: run with --ignored in release"]
fn perft_start_position_depth_5() {
    assert_eq!(perft(&Xiangqi::start(), 5), 133_312_995);
}

// ---------------------------------------------------------------- text forms

#[test]
fn fen_round_trips() {
    for text in [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 5",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "4k4/4a4/4ba3/9/2p6/9/9/4B4/4A4/3AK4 b - - 17 42",
    ] {
        assert_text_round_trips::<Xiangqi>(text);
    }
    assert_eq!(fen("startpos"), Xiangqi::start());
    assert_eq!(fen("  start "), Xiangqi::start());
    // Short forms, Red as 'r', and the letters E and H for elephant and horse.
    let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(fen(short), Xiangqi::start());
    assert_eq!(fen(&format!("{short} - -")), Xiangqi::start());
    let letters = fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1");
    assert_eq!(letters, Xiangqi::start());
}

#[test]
fn bad_fens_are_errors_with_clear_messages() {
    for (text, message) in [
        ("", "empty position"),
        ("   ", "empty position"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "side to move",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
            "10 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "8 files",
        ),
        (
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "more than 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w",
            "8 files",
        ),
        (
            "rnbqkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "'q' is no piece",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side to move 'x'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
            "should be '-'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "halfmove clock",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "move number",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 x",
            "2 to 6 fields",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "Red has no general",
        ),
        ("4k4/9/9/9/9/9/9/9/9/K8 w", "cannot stand on a0"),
        ("4k4/9/9/9/9/9/4A4/9/9/3K5 w", "cannot stand on e3"),
        ("4k4/9/9/9/2B6/9/9/9/9/3K5 w", "cannot stand on c5"),
        ("4k4/9/9/9/9/9/9/P8/9/3K5 w", "cannot stand on a2"),
        ("4k4/9/9/9/9/9/9/9/9/RRR1K4 w", "more than 2 Rooks"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "Black is in check"),
        (
            "♜nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "is no piece",
        ),
    ] {
        match Xiangqi::parse_position(text) {
            Ok(pos) => panic!("{text:?} should not parse, got {pos:?}"),
            Err(e) => assert!(
                e.to_string().contains(message),
                "{text:?}: '{e}' should mention '{message}'"
            ),
        }
    }
}

/// Randomly damaged FENs: each is either refused or read as a position every
/// operation works on, never a panic.
#[test]
fn damaged_fens_are_refused_or_usable() {
    const ALPHABET: &[u8] = b"kabnrcpKABNRCP123456789/ -wb0x";
    let bases = [
        START_FEN,
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 5",
        "4k4/4a4/4ba3/9/2p6/9/9/4B4/4A4/3AK4 b - - 17 42",
    ];
    let eval = XiangqiEval::default();
    assert_damaged_positions_refused_or_usable(&bases, ALPHABET, |pos: &Xiangqi| {
        evaluate_with_children(pos, &eval);
        eval.noisy_moves(pos, &mut MoveList::new());
    });
}

#[test]
fn moves_read_and_write_iccs_and_uci() {
    let start = Xiangqi::start();
    let central_cannon = start.parse_move("h2e2").unwrap();
    assert_eq!(start.move_text(central_cannon), "h2e2");
    assert_eq!(start.parse_move("H2-E2"), Ok(central_cannon));
    assert_eq!(start.parse_move(" h2e2 "), Ok(central_cannon));
    // UCI as Fairy-Stockfish writes it: ranks 1-10.
    assert_eq!(central_cannon.uci(), "h3e3");
    assert_eq!(start.parse_uci("h3e3"), Ok(central_cannon));
    let black = start.play(central_cannon);
    let rook = black.parse_move("a9a8").unwrap();
    assert_eq!(rook.uci(), "a10a9");
    assert_eq!(black.parse_uci("a10a9"), Ok(rook));
}

#[test]
fn bad_moves_are_errors() {
    let start = Xiangqi::start();
    for (text, message) in [
        ("", "not an ICCS move"),
        ("h2", "not an ICCS move"),
        ("h2e2x", "not an ICCS move"),
        ("j2e2", "not an ICCS move"),
        ("h2e10", "not an ICCS move"),
        ("e2e4", "not legal"),
        ("h2h8", "not legal"), // no jumping without capturing
        ("e0e2", "not legal"),
        ("b0b2", "not legal"),
        ("a3b3", "not legal"), // sideways before the river
        ("é2é4", "not an ICCS move"),
        ("h2\u{0}e2", "not an ICCS move"),
    ] {
        match start.parse_move(text) {
            Ok(mv) => panic!("{text:?} should not be a move, got {mv:?}"),
            Err(e) => assert!(e.message.contains(message), "{text:?}: {e}"),
        }
    }
    assert!(start.parse_uci("h2e2").is_err(), "UCI ranks start at 1");
    assert!(start.parse_uci("a11a10").is_err());
}

#[test]
fn moves_and_positions_are_small() {
    assert_eq!(std::mem::size_of::<Move>(), 2);
    // Copied at every move: a 90-byte board, two bitsets and the history.
    assert!(std::mem::size_of::<Xiangqi>() <= 160 + 8 * HISTORY_LEN);
    assert_move_keys_distinct(&Xiangqi::start());
}

/// Random games: every move's text reads back as the move (ICCS and UCI), the
/// FEN of every position reads back to the same hash and moves, and the
/// incrementally kept hash and check flag equal those read from the FEN.
#[test]
fn random_games_keep_text_and_hash_consistent() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checks = 0;
    for _ in 0..60 {
        let mut pos = Xiangqi::start();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                assert_eq!(pos.outcome(), Some(Outcome::Loss));
                break;
            }
            for &mv in &moves {
                assert_eq!(pos.parse_move(&pos.move_text(mv)), Ok(mv));
                assert_eq!(pos.parse_uci(&mv.uci()), Ok(mv));
            }
            let reread = fen(&pos.position_text());
            assert_eq!(reread.hash(), pos.hash());
            assert_eq!(reread.in_check(), pos.in_check());
            assert_eq!(reread.legal_moves(), moves);
            checks += usize::from(pos.in_check());
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(checks > 20, "only {checks} positions in check");
}

// ---------------------------------------------------------------- movement

#[test]
fn general_and_advisors_stay_in_the_palace() {
    assert_targets("Kf2 Ae1 kd9", 'w', &[("f2", "e2 f1"), ("e1", "d0 f0 d2")]);
    assert_targets("Kd0 kf7 af8", 'b', &[("f7", "e7"), ("f8", "e7 e9")]);
}

#[test]
fn generals_may_not_face_each_other() {
    // The red general may not step onto the open d-file.
    assert_targets("Ke0 kd9", 'w', &[("e0", "e1 f0")]);
    // A piece between the generals may not leave the file.
    assert_targets("Ke0 Ne4 ke9", 'w', &[("e4", "")]);
    // A cannon between them may move along it.
    assert_targets("Ke0 Ce4 ke9", 'w', &[("e4", "e1 e2 e3 e5 e6 e7 e8")]);
}

#[test]
fn elephants_are_blocked_on_the_eye_and_stay_home() {
    assert_targets("Kd0 Be2 nd1 Nf3 kf9", 'w', &[("e2", "c4 g0")]);
    assert_targets("Kd0 Bc4 kf9", 'w', &[("c4", "a2 e2")]);
    assert_targets("Kd0 kf9 bc5", 'b', &[("c5", "a7 e7")]);
}

#[test]
fn horses_are_blocked_on_the_leg() {
    assert_targets("Kd0 Ne4 Pe5 kf9", 'w', &[("e4", "c3 c5 d2 f2 g3 g5")]);
    assert_eq!(targets(&setup("Kd0 Ne4 kf9", 'w'), "e4").len(), 8);
}

#[test]
fn cannons_capture_over_exactly_one_screen() {
    let over_one = "a0 a1 a3 a4 a7 b2 c2 d2 e2 f2 g2 h2 i2";
    assert_targets("Kd0 Ca2 Pa5 ra7 ra9 kf9", 'w', &[("a2", over_one)]);
    // No screen, no capture; two screens, no capture either.
    let no_screen = "a0 a1 a3 a4 a5 a6 b2 c2 d2 e2 f2 g2 h2 i2";
    assert_targets("Kd0 Ca2 ra7 kf9", 'w', &[("a2", no_screen)]);
    let pos = setup("Kd0 Ca2 Pa5 ra6 ra7 kf9", 'w');
    assert!(!targets(&pos, "a2").contains(&"a7".to_string()));
    // A cannon checks only over a screen; the screen may step aside, but
    // not along the line.
    assert!(!setup("Kd0 cd7 kf9", 'w').in_check());
    assert!(setup("Kd0 Pd5 cd7 kf9", 'w').in_check());
    assert_targets("Kd0 Pd5 cd7 kf9", 'w', &[("d5", "c5 e5"), ("d0", "e0")]);
}

#[test]
fn soldiers_go_sideways_only_across_the_river() {
    let red = [("c4", "c5"), ("e6", "d6 e7 f6"), ("i9", "h9")];
    assert_targets("Kd0 Pc4 Pe6 Pi9 ke9", 'w', &red);
    assert_targets("Kd0 ke9 pc5 pe3", 'b', &[("c5", "c4"), ("e3", "d3 e2 f3")]);
}

// ---------------------------------------------------------------- game ends

#[test]
fn checkmate_and_stalemate_both_lose() {
    let mate = setup("Kf0 Ra9 Rb8 kd9", 'b');
    assert!(mate.in_check());
    assert_eq!(mate.outcome(), Some(Outcome::Loss));
    let stalemate = setup("Kf0 Re5 Ra8 kd9", 'b');
    assert!(!stalemate.in_check());
    assert_game_over(&stalemate, Outcome::Loss);
    assert_eq!(Xiangqi::start().outcome(), None);
    assert_scored_as_lost(&XiangqiEval::default(), &stalemate, 3);
}

#[test]
fn repetition_is_a_draw_unless_one_side_always_checks() {
    // Quiet shuffling: a draw.
    let quiet = setup("Kf0 Ra0 kd9", 'w');
    let back = play_line(&quiet, "a0a1 d9d8 a1a0 d8d9");
    assert_eq!(back.hash(), quiet.hash());
    assert_eq!(back.outcome(), Some(Outcome::Draw));
    assert_eq!(play_line(&quiet, "a0a1 d9d8 a1a0").outcome(), None);

    // Red checks with every move and Black never does: Red loses, so Black,
    // to move when the position comes back, wins.
    let checks = setup("Kf0 Ra8 kd9", 'w');
    let first = play_line(&checks, "a8a9");
    assert!(first.in_check());
    let again = play_line(&first, "d9d8 a9a8 d8d9 a8a9");
    assert_eq!(again.hash(), first.hash());
    assert_eq!(again.side_to_move(), Color::Black);
    assert_eq!(again.outcome(), Some(Outcome::Win));
    // Red, to move one ply later, has lost.
    let after = play_line(&checks, "a8a9 d9d8 a9a8 d8d9");
    assert_eq!(after.hash(), checks.hash());
    assert_eq!(after.outcome(), Some(Outcome::Loss));

    // Game history before the root needs two earlier occurrences.
    let mut root = again.clone();
    root.make_root();
    assert_eq!(root.outcome(), None);
    assert_eq!(
        play_line(&root, "d9d8 a9a8 d8d9 a8a9").outcome(),
        Some(Outcome::Win)
    );
    let mut twice = play_line(&again, "d9d8 a9a8 d8d9 a8a9");
    twice.make_root();
    assert_eq!(twice.outcome(), Some(Outcome::Win));

    // A capture forgets the history.
    let capture = play_line(&setup("Kf0 Ra0 ra5 kd9", 'w'), "a0a5");
    assert_eq!(capture.history_len(), 0);
    // A long quiet game keeps only the last HISTORY_LEN positions.
    let long = play_line(&quiet, &["a0a1 d9d8 a1a0 d8d9"; 10].join(" "));
    assert_eq!(long.history_len(), HISTORY_LEN);
    assert_eq!(long.outcome(), Some(Outcome::Draw));
}

// ---------------------------------------------------------------- evaluator

#[test]
fn noisy_moves_are_captures_or_all_evasions() {
    let eval = XiangqiEval::default();
    let mut rng = Rng(7);
    let mut seen_check = false;
    let mut pos = Xiangqi::start();
    for _ in 0..400 {
        let all = pos.legal_moves();
        if all.is_empty() {
            pos = Xiangqi::start();
            continue;
        }
        let mut noisy = MoveList::new();
        eval.noisy_moves(&pos, &mut noisy);
        if pos.in_check() {
            seen_check = true;
            assert_eq!(noisy, all);
        } else {
            let captures: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| pos.captured(m).is_some())
                .collect();
            assert_eq!(noisy.to_vec(), captures, "{pos:?}");
        }
        let mut no_evasions = MoveList::new();
        XiangqiEval { evasions: false }.noisy_moves(&pos, &mut no_evasions);
        assert!(no_evasions.iter().all(|&m| pos.captured(m).is_some()));
        pos = pos.play(all[rng.below(all.len())]);
    }
    assert!(seen_check);
}

#[test]
fn ordering_hints_follow_mvv_lva() {
    // The soldier and the horse can both take the rook; the cannon takes a soldier.
    let pos = setup("Kd0 Pe6 Nd5 Ca2 Pa5 re7 pa6 kf9", 'w');
    let key = ordering_keys(&XiangqiEval::default(), &pos);
    assert!(key["e6e7"] > key["d5e7"]);
    assert!(key["d5e7"] > key["a2a6"]);
    assert!(key["a2a6"] > 0);
    assert_eq!(key["e6d6"], 0);
}

#[test]
fn evaluation_is_symmetric_and_bounded() {
    let eval = XiangqiEval::default();
    // The start position: the tempo only, for either side.
    let red = eval.evaluate(&Xiangqi::start());
    let black = fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    assert_eq!(red, eval.evaluate(&black));
    assert!(red > 0 && red < 50);
    // A mirrored position (colours swapped, board turned) scores the same.
    let a = setup("Kd0 Ra4 Ne6 Pg6 ke9 ch7", 'w');
    let b = setup("kd9 ra5 ne3 pg3 Ke0 Ch2", 'b');
    assert_eq!(eval.evaluate(&a), eval.evaluate(&b));
    // More material is better.
    assert!(eval.evaluate(&setup("Kd0 Ra4 ke9", 'w')) > 400);
    assert!(eval.evaluate(&setup("Kd0 Ra4 ke9", 'b')) < -400);
    for (_, pos) in middlegames() {
        assert!(eval.evaluate(&pos).abs() < 600, "{pos:?}");
    }
}

#[test]
fn middlegame_suite_positions_are_playable() {
    let suite = middlegames();
    assert!(suite.len() >= 10);
    for (name, pos) in &suite {
        assert!(pos.outcome().is_none(), "{name}");
        let pieces = (pos.occupied(Color::Red) | pos.occupied(Color::Black)).count_ones();
        assert!(pieces >= 24, "{name}: {pieces} pieces");
    }
}

// ---------------------------------------------------------------- search

/// Positions where the oracle's quiescence stays small: endgames with a few
/// attackers, covering checks, mates, stalemate, cannons, horses and
/// soldiers across the river, and a perpetual check in the tree. (From the
/// start position, quiescence over every evasion follows the cannons'
/// checks for millions of nodes.)
fn oracle_positions() -> Vec<Xiangqi> {
    [
        ("Kf0 Ra9 Rb8 kd9", 'b'),
        ("Kf0 Re5 Ra8 kd9", 'b'),
        ("Kf0 Ra0 Rb8 kd9", 'w'),
        ("Kf0 Ra8 kd9", 'w'),
        ("Kd0 Ne4 Pe6 ke9 ae8 af9", 'w'),
        ("Kd0 Ca2 Pa5 ra7 kf9 cf7", 'w'),
        ("Ke0 Ae1 Ad0 Be2 Ce4 ke9 ae8 ch7 pg3", 'b'),
        ("Ke1 Pc6 Pe6 Pg6 kd9 ra5 bc9", 'w'),
        ("Kd0 Ra4 Ne6 Pg6 ke9 ch7 ad9 af9", 'w'),
        ("Kd0 Ra4 Ne6 Pg6 ke9 ch7 ad9 af9", 'b'),
        ("Kf1 Nc4 Cc2 Pe5 kd8 nf5 pd3", 'b'),
    ]
    .iter()
    .map(|&(pieces, side)| setup(pieces, side))
    .collect()
}

/// Middlegame-like positions with more pieces, for depth 2.
fn larger_positions() -> Vec<Xiangqi> {
    [
        (
            "Kd0 Ad2 Be2 Ra4 Nc4 Ce3 Pc6 Pe6 ke9 ad9 be7 rh8 nf5 ch7 pg3",
            'w',
        ),
        (
            "Kd0 Ad2 Be2 Ra4 Nc4 Ce3 Pc6 Pe6 ke9 ad9 be7 rh8 nf5 ch7 pg3",
            'b',
        ),
        (
            "Ke0 Af0 Bg0 Rb0 Nc2 Ng4 Ch2 Pa3 Pe5 kf9 ae8 ba7 ri8 nd7 cb7 pc6 pi6",
            'w',
        ),
    ]
    .iter()
    .map(|&(pieces, side)| setup(pieces, side))
    .collect()
}

#[test]
fn exact_search_equals_negamax() {
    let (positions, larger) = (oracle_positions(), larger_positions());
    let cases: Vec<(&Xiangqi, i32)> = positions
        .iter()
        .flat_map(|p| [(p, 2), (p, 3)])
        .chain(larger.iter().map(|p| (p, 2)))
        .collect();
    let evals = [true, false].map(|evasions| XiangqiEval { evasions });
    assert_exact_equals_negamax(&evals, &cases, true);
}

#[test]
fn every_algorithm_and_thread_count_is_exact() {
    let eval = XiangqiEval::default();
    let positions = [
        (larger_positions()[0].clone(), 2),
        (setup("Kd0 Ra4 Ne6 Pg6 ke9 ch7 ad9 af9", 'w'), 3),
        (setup("Kf1 Nc4 Cc2 Pe5 kd8 nf5 pd3", 'b'), 3),
        (setup("Kf0 Ra0 Rb8 kd9", 'w'), 3),
    ];
    assert_every_algorithm_exact(&eval, &with_negamax(&eval, positions));
}

#[test]
fn search_finds_mates_and_scores_stalemate_as_a_loss() {
    let mut engine = Engine::new(XiangqiEval::default(), 4);
    let pos = setup("Kf0 Ra0 Rb8 kd9", 'w');
    let r = engine.search(&pos, &Limits::to_depth(3));
    assert_eq!(r.score, WIN - 1);
    assert_eq!(pos.move_text(r.best_move.unwrap()), "a0a9");
    let stalemate = setup("Kf0 Re5 Ra8 kd9", 'b');
    let r = engine.search(&stalemate, &Limits::to_depth(3));
    assert_eq!((r.best_move, r.score), (None, -WIN));
    // Red has checked with every move; Black steps back to repeat the
    // position, and Red, the perpetual checker, loses.
    let before = play_line(&setup("Kf0 Ra8 kd9", 'w'), "a8a9 d9d8 a9a8");
    let r = engine.search(&before, &Limits::to_depth(2));
    assert_eq!(r.score, WIN - 1, "{:?}", r.pv);
    assert_eq!(before.move_text(r.best_move.unwrap()), "d8d9");
}

#[test]
fn search_sees_material() {
    let lost = setup("Kd0 kf9 rh5", 'w');
    let mut engine = Engine::new(XiangqiEval::default(), 4);
    let r = engine.search(&lost, &Limits::to_depth(3));
    assert!(r.score < -400, "a rook down: {}", r.score);
}

#[test]
fn null_moves_pass_the_turn_but_never_in_check() {
    let eval = XiangqiEval::default();
    let pos = setup("Kd0 Ra4 Ne6 Pg6 ke9 ch7 ad9 af9", 'w');
    let passed = eval.null_move(&pos).expect("Red has a rook and a horse");
    assert_eq!(passed.side_to_move(), Color::Black);
    assert_ne!(passed.hash(), pos.hash());
    assert_eq!(
        passed.position_text().split(' ').next(),
        pos.position_text().split(' ').next()
    );
    let black = setup("Kd0 Ra4 Ne6 Pg6 ke9 ch7 ad9 af9", 'b');
    assert_eq!(passed.legal_moves(), black.legal_moves());
    assert_eq!(passed.hash(), black.hash());
    // In check, or with only soldiers and defenders: no pass.
    assert!(eval.null_move(&setup("Kf0 Ra9 Rb8 kd9", 'b')).is_none());
    assert!(eval.null_move(&setup("Kd0 Ad2 Pe6 kf9 rf5", 'w')).is_none());
    assert!(eval.is_quiet(&pos, pos.parse_move("a4a5").unwrap()));
    assert!(!eval.is_quiet(
        &setup("Kd0 Ra4 ra7 kf9", 'w'),
        Move::new(sq("a4"), sq("a7"))
    ));
}

/// The selective search (null moves, reductions, check extension) plays
/// legal moves along legal lines from every suite position, at every
/// thread count of one parallel algorithm.
#[test]
fn normal_search_plays_legal_lines() {
    for threads in [1, 3] {
        let mut engine = Engine::new(XiangqiEval::default(), 8);
        engine.set_parallelism(
            if threads == 1 {
                Algorithm::Serial
            } else {
                Algorithm::Ybw { strong: false }
            },
            threads,
        );
        for (name, pos) in middlegames() {
            let r = engine.search(&pos, &Limits::to_depth(4));
            assert_eq!(r.depth, 4, "{name}");
            let mut line = pos.clone();
            for &mv in &r.pv {
                assert!(line.legal_moves().contains(&mv), "{name}: {:?}", r.pv);
                line = line.play(mv);
            }
            assert_eq!(r.pv.first().copied(), r.best_move, "{name}");
        }
    }
}

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::new((b[0] - b'a') as usize, (b[1] - b'0') as usize).unwrap()
}

#[test]
fn positions_cross_as_bytes() {
    common::assert_bytes_round_trip(&Xiangqi::start(), 60, 120);
}
