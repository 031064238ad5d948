//! Chess: perft through the `Game` API, text forms, game ends, the evaluator's
//! move sets, and exact-mode search against the negamax oracle for every
//! algorithm (the selective search of normal mode: `chess_selective.rs`).
#![cfg(feature = "chess")]

mod common;
use common::{
    Rng, assert_damaged_positions_refused_or_usable, assert_every_algorithm_exact,
    assert_exact_equals_negamax, assert_game_over, assert_move_keys_distinct, assert_moves_refused,
    assert_positions_refused, assert_repetition_rule, assert_scored_as_lost,
    assert_text_round_trips, evaluate_with_children, ordering_keys, parse, play_line,
};
use splitpoint::{Engine, Evaluator, Game, Limits, MoveList, Outcome, WIN};
use splitpoint_games::chess::cozy_chess::Piece;
use splitpoint_games::chess::{
    Chess, ChessEval, HISTORY_LEN, Move, START_FEN, bratko_kopec, middlegames, perft,
};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn fen(text: &str) -> Chess {
    parse(text)
}

// ---------------------------------------------------------------- perft

/// Perft counts from the chessprogramming wiki's "Perft Results" page,
/// counted by [`perft`] through the `Game` API.
fn check_perft(text: &str, counts: &[u64]) {
    let pos = fen(text);
    for (depth, &count) in (1..).zip(counts) {
        assert_eq!(perft(&pos, depth), count, "{text} depth {depth}");
    }
}

/// The generic `splitpoint::perft` counts a game that ends before the last
/// ply as one leaf: from the start, the eight checkmates four plies deep.
#[test]
fn generic_perft_counts_finished_games_as_leaves() {
    let start = Chess::start();
    assert_eq!(splitpoint::perft(&start, 4), 197_281);
    assert_eq!(splitpoint::perft(&start, 5), 4_865_609 + 8);
}

#[test]
fn perft_start_position() {
    check_perft(
        "startpos",
        &[20, 400, 8902, 197_281, 4_865_609, 119_060_324],
    );
}

#[test]
fn perft_kiwipete() {
    check_perft(KIWIPETE, &[48, 2039, 97_862, 4_085_603, 193_690_690]);
}

#[test]
fn perft_positions_3_to_6() {
    check_perft(POSITION_3, &[14, 191, 2812, 43_238, 674_624, 11_030_083]);
    check_perft(POSITION_4, &[6, 264, 9467, 422_333, 15_833_292]);
    check_perft(POSITION_5, &[44, 1486, 62_379, 2_103_487]);
    check_perft(POSITION_6, &[46, 2079, 89_890, 3_894_594]);
}

// ---------------------------------------------------------------- text forms

#[test]
fn fen_round_trips() {
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
        POSITION_3,
        POSITION_4,
        POSITION_5,
        POSITION_6,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k3/8/8/8/8/8/8/4K2R b Kq - 17 42",
        "8/8/8/8/8/5k2/8/5K2 w - - 100 120",
    ] {
        assert_text_round_trips::<Chess>(text);
    }
    assert_eq!(fen("startpos"), Chess::start());
    assert_eq!(fen("  start  "), Chess::start());
    // EPD-style four fields, and extra blanks.
    assert_eq!(
        fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -").position_text(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn bad_fens_are_errors() {
    assert_positions_refused::<Chess>(&[
        "",
        "   ",
        "startpos moves",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 101 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w XYZ - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "kk6/8/8/8/8/8/8/KK6 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\u{301}",
        "♜♞♝♛♚♝♞♜/8/8/8/8/8/8/8 w - - 0 1",
        // Found by fuzzing: cozy-chess reads a board of fewer than eight
        // ranks, and kings side by side, whose side to move then takes the
        // other king (and move generation panics on the board with none).
        "r2qrbk1/QRBR1KN1 w - - 7 12",
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        "8/8/8/8/8/8/6k1/5K2 w - - 0 1",
        "8/8/8/8/8/8/6k1/5K2 b - - 0 1",
    ]);
}

/// A refused FEN says which field is wrong and why, at the field's column.
#[test]
fn a_bad_fen_names_its_field_and_why() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for (text, field, why, column) in [
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
            "'9' is no count of empty squares",
            18,
        ),
        (
            "rnbqkbnr/pppppppp/72/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
            "rank 6 has more than 8 squares",
            19,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "board",
            "rank 1 has 7 squares",
            35,
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
            "'x' is no piece",
            13,
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "board", "White has 0 kings", 0),
        (
            "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
            "board",
            "white pawn on h1",
            0,
        ),
        (
            "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
            "board",
            "Black is in check with White to move",
            0,
        ),
        (
            "8/8/8/8/8/8/6k1/5K2 w - - 0 1",
            "board",
            "kings stand side by side",
            0,
        ),
        (
            &format!("{start} x KQkq - 0 1"),
            "side to move",
            "'x' is neither",
            44,
        ),
        (
            &format!("{start} w XYZ - 0 1"),
            "castling rights",
            "'X' is not one of K, Q, k, q",
            46,
        ),
        (
            &format!("{start} w KK - 0 1"),
            "castling rights",
            "'K' is given twice",
            47,
        ),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            "castling rights",
            "Chess960",
            30,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w k - 0 1",
            "castling rights",
            "'k' needs a black rook on h8",
            22,
        ),
        (
            &format!("{start} w KQkq e4 0 1"),
            "en passant square",
            "not on the sixth rank",
            51,
        ),
        (
            &format!("{start} w KQkq e6 0 1"),
            "en passant square",
            "no black pawn on e5",
            51,
        ),
        (
            &format!("{start} w KQkq - 101 1"),
            "halfmove clock",
            "'101' is not a number from 0 to 100",
            53,
        ),
        (
            &format!("{start} w KQkq - 0 0"),
            "fullmove number",
            "'0' is not a number from 1",
            55,
        ),
    ] {
        let e = Chess::parse_position(text).expect_err(text);
        let message = e.to_string();
        assert!(
            message.starts_with(&format!("bad FEN {field}: ")),
            "{text}: {message}"
        );
        assert!(message.contains(why), "{text}: {message}");
        assert_eq!(e.column, Some(column), "{text}: {message}");
    }
}

/// Randomly damaged FENs: each is either refused or read as a position every
/// operation works on, never a panic.
#[test]
fn damaged_fens_are_refused_or_usable() {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqacdefgh09x";
    let bases = [START_FEN, KIWIPETE, POSITION_3, POSITION_4, POSITION_5];
    let eval = ChessEval::default();
    assert_damaged_positions_refused_or_usable(&bases, ALPHABET, |pos: &Chess| {
        evaluate_with_children(pos, &eval);
        eval.noisy_moves(pos, &mut MoveList::new());
        for &mv in &pos.legal_moves() {
            let _ = pos.san(mv);
        }
    });
}

#[test]
fn moves_read_and_write_uci_and_san() {
    let start = Chess::start();
    let e4 = start.parse_move("e2e4").unwrap();
    assert_eq!(start.move_text(e4), "e2e4");
    assert_eq!(start.parse_move("e4"), Ok(e4));
    assert_eq!(start.san(e4), "e4");
    assert_eq!(start.san(start.parse_move("g1f3").unwrap()), "Nf3");

    // Castling: UCI's king two squares; cozy-chess's king-takes-rook also read.
    let pos = fen(KIWIPETE);
    let short = pos.parse_move("e1g1").unwrap();
    assert_eq!(pos.move_text(short), "e1g1");
    assert_eq!(pos.parse_move("e1h1"), Ok(short));
    assert_eq!(pos.parse_move("O-O"), Ok(short));
    assert_eq!(pos.san(short), "O-O");
    let long = pos.parse_move("e1c1").unwrap();
    assert_eq!(pos.move_text(long), "e1c1");
    assert_eq!(pos.san(long), "O-O-O");
    let after = pos.play(short);
    assert!(
        after
            .position_text()
            .starts_with("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq")
    );

    // Promotions, captures, disambiguation, en passant.
    let pos = fen(POSITION_4);
    let promote = pos.parse_move("b2a1q").unwrap_err(); // White to move: not legal
    assert!(promote.message.contains("not legal"));
    let pos = pos.play(pos.parse_move("c4c5").unwrap());
    let bxa1 = pos.parse_move("b2a1q").unwrap();
    assert_eq!(pos.san(bxa1), "bxa1=Q");
    assert_eq!(pos.parse_move("bxa1=Q"), Ok(bxa1));
    assert_eq!(pos.parse_move("bxa1Q"), Ok(bxa1));
    assert_eq!(pos.move_text(pos.parse_move("bxa1=N").unwrap()), "b2a1n");

    let pos = fen("4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1");
    let ep = pos.parse_move("e5d6").unwrap();
    assert_eq!(pos.san(ep), "exd6");
    // The king on e1 blocks the h1 rook: no disambiguation needed…
    let pos = fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(pos.san(pos.parse_move("a1d1").unwrap()), "Rd1");
    // …but with both rooks free it is.
    let pos = fen("1k6/8/8/8/8/8/4K3/R6R w - - 0 1");
    let rad1 = pos.parse_move("a1d1").unwrap();
    assert_eq!(pos.san(rad1), "Rad1");
    assert_eq!(pos.parse_move("Rad1"), Ok(rad1));
    assert!(
        pos.parse_move("Rd1")
            .unwrap_err()
            .message
            .contains("ambiguous")
    );
    assert_eq!(pos.san(pos.parse_move("a1a8").unwrap()), "Ra8+");
    let mate = fen("7k/6pp/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(mate.san(mate.parse_move("a1a8").unwrap()), "Ra8#");
}

#[test]
fn bad_moves_are_errors() {
    assert_moves_refused(
        &Chess::start(),
        &[
            "",
            " ",
            "e2",
            "e2e5",
            "e2e4q",
            "e7e5",
            "e1g1",
            "e1c1",
            "O-O",
            "O-O-O",
            "a1a1",
            "i2i4",
            "e2e4e",
            "0000",
            "Nf6",
            "Ke2",
            "Qxd7",
            "exd5",
            "e8=Q",
            "Nbd2",
            "N",
            "xx",
            "é2é4",
            "🙂🙂",
            "e2\u{0}e4",
            "Z",
            "Nf3=Q",
        ],
    );
    // A promotion needs its piece, and no king.
    let pos = fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_moves_refused(&pos, &["b7b8", "b7b8k", "b8=K"]);
}

#[test]
fn moves_and_keys_are_small_and_distinct() {
    assert!(std::mem::size_of::<Move>() <= 4);
    // Copied at every move: a board of about 100 bytes, the history and the
    // evaluation network's sums (two views of 32 16-bit units and a 32-bit
    // square value each: 136 bytes).
    assert!(std::mem::size_of::<Chess>() <= 112 + 8 * HISTORY_LEN + 136);
    for text in [KIWIPETE, POSITION_4, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"] {
        assert_move_keys_distinct(&fen(text));
    }
}

/// The continuation history's key names the colour, the piece and where it
/// goes: the same piece to the same square from two squares shares a key,
/// another piece or colour does not, and every key is in range.
#[test]
fn continuation_keys_name_colour_piece_and_destination() {
    let pos = fen(KIWIPETE);
    let key = |pos: &Chess, text: &str| pos.continuation_key(pos.parse_move(text).unwrap());
    assert_ne!(key(&pos, "e5g4"), key(&pos, "f3g4"), "a knight and a queen");
    let twins = fen("8/4k3/8/8/8/8/4K3/R6R w - - 0 1");
    assert_eq!(key(&twins, "a1d1"), key(&twins, "h1d1"), "a rook to d1");
    assert_ne!(
        key(&twins, "a1d1"),
        key(&twins, "e2d1"),
        "a king is not a rook"
    );
    let black = fen("r6r/4k3/8/8/8/8/4K3/8 b - - 0 1");
    assert_ne!(
        key(&twins, "a1d1"),
        key(&black, "a8d8"),
        "nor White's rook Black's"
    );
    for pos in [pos, twins, black] {
        for &mv in pos.legal_moves().iter() {
            assert!((pos.continuation_key(mv) as usize) < Chess::CONTINUATION_KEYS);
        }
    }
}

/// Random games: every move's text reads back as the move (UCI and SAN), the
/// FEN of every position reads back to the same hash, and nothing panics.
#[test]
fn random_games_keep_text_and_hash_consistent() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..60 {
        let mut pos = Chess::start();
        for _ in 0..120 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            for &mv in &moves {
                assert_eq!(pos.parse_move(&pos.move_text(mv)), Ok(mv));
                assert_eq!(
                    pos.parse_move(&pos.san(mv)),
                    Ok(mv),
                    "{} in {pos:?}",
                    pos.san(mv)
                );
            }
            let reread = fen(&pos.position_text());
            assert_eq!(reread.hash(), pos.hash());
            assert_eq!(reread.legal_moves(), moves);
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
}

// ---------------------------------------------------------------- game ends

#[test]
fn checkmate_and_stalemate() {
    let mated = play_line(&Chess::start(), "f2f3 e7e5 g2g4 d8h4");
    assert_game_over(&mated, Outcome::Loss);
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
    assert_eq!(Chess::start().outcome(), None);
    // The terminal score: mate is worst for the side to move, and sooner is worse.
    assert_scored_as_lost(&ChessEval::default(), &mated, 3);
}

#[test]
fn fifty_move_rule() {
    let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(pos.outcome(), None);
    let quiet = pos.play(pos.parse_move("a1a2").unwrap());
    assert_eq!(quiet.outcome(), Some(Outcome::Draw));
    // …but perft still sees the board's moves (the standard counts ignore the rule).
    assert!(!quiet.legal_moves().is_empty());
    // A pawn move or capture resets the clock.
    let pos = fen("4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    assert_eq!(pos.play(pos.parse_move("a2a3").unwrap()).outcome(), None);
    // Checkmate on the hundredth half-move is checkmate.
    let pos = fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(
        pos.play(pos.parse_move("a1a8").unwrap()).outcome(),
        Some(Outcome::Loss)
    );
}

#[test]
fn repetitions() {
    let back = assert_repetition_rule(&Chess::start(), "g1f3 g8f6 f3g1 f6g8", HISTORY_LEN);
    // An irreversible move forgets the history.
    assert_eq!(play_line(&back, "e2e4").history_len(), 0);
}

#[test]
fn search_sees_material() {
    let lost = fen("6k1/5q2/8/8/8/8/8/K7 w - - 0 1");
    let mut engine = Engine::new(ChessEval::default(), 4);
    let r = engine.search(&lost, &Limits::to_depth(3));
    assert!(r.score < -500, "a queen down: {}", r.score);
}

// ---------------------------------------------------------------- evaluator

#[test]
fn noisy_moves_are_captures_and_promotions_or_all_evasions() {
    let eval = ChessEval::default();
    for text in [
        KIWIPETE,
        POSITION_4,
        POSITION_5,
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let pos = fen(text);
        let mut noisy = MoveList::new();
        eval.noisy_moves(&pos, &mut noisy);
        let all = pos.legal_moves();
        if pos.in_check() {
            assert_eq!(noisy, all, "{text}");
            continue;
        }
        let expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| {
                (pos.captured(m).is_some()
                    && !pos.is_castling(m)
                    && m.promotion.is_none_or(|p| p == Piece::Queen))
                    || m.promotion == Some(Piece::Queen)
            })
            .collect();
        assert_eq!(noisy.to_vec(), expected, "{text}");
    }
    // In check: every evasion.
    let check = play_line(&Chess::start(), "e2e4 f7f6 d1h5");
    let mut noisy = MoveList::new();
    eval.noisy_moves(&check, &mut noisy);
    assert!(check.in_check());
    assert_eq!(noisy, check.legal_moves());
}

#[test]
fn ordering_hints_follow_mvv_lva() {
    let pos = fen("4k3/8/2q5/1P1rN3/8/8/8/4K3 w - - 0 1");
    let key = ordering_keys(&ChessEval::default(), &pos);
    // Pawn takes queen, then knight takes queen, then the quiet moves.
    assert!(key["b5c6"] > key["e5c6"]);
    assert!(key["e5c6"] > 0);
    assert_eq!(key["e5d7"], 0);
    assert_eq!(key["e1e2"], 0);
}

#[test]
fn evaluation_is_symmetric_and_bounded() {
    for (_, pos) in middlegames() {
        let score = ChessEval::default().evaluate(&pos);
        assert!(score.abs() < 300, "{pos:?}: {score}");
    }
    // The start position: the side to move's tempo only, a small bonus
    // for either side.
    let tempo = ChessEval::default().evaluate(&Chess::start());
    assert!((1..=30).contains(&tempo), "{tempo}");
    let black = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(ChessEval::default().evaluate(&black), tempo);
    // A mirrored position scores the same for the mirrored side.
    let white = fen("4k3/8/8/8/8/8/PPP5/RN2K3 w - - 0 1");
    let mirrored = fen("rn2k3/ppp5/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(
        ChessEval::default().evaluate(&white),
        ChessEval::default().evaluate(&mirrored)
    );
    // Nine queens a side cannot leave the band.
    let queens = fen("QQQQQQQQ/QQQQQQQ1/8/8/8/8/8/k3K3 b - - 0 1");
    assert!(ChessEval::default().evaluate(&queens) > -20_000);
    // Bare kings and a lone minor are dead draws.
    assert_eq!(
        ChessEval::default().evaluate(&fen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")),
        0
    );
}

// ---------------------------------------------------------------- search

/// Positions where the oracle's quiescence, a full-width tree of every capture
/// sequence, stays small: endgames and simple positions (in a middlegame it
/// runs to billions of nodes). They cover checks, mates, stalemate,
/// promotions, castling, en passant, the fifty-move rule and repetition.
fn oracle_positions() -> Vec<Chess> {
    let mut positions: Vec<Chess> = [
        POSITION_3,
        "8/8/8/8/8/5k2/8/5K1R w - - 0 1",
        "8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1",
        "8/2k5/8/3Pp3/8/8/3K4/8 w - e6 0 1",
        "7k/8/8/8/8/8/1q6/K7 w - - 0 1",
        "3k4/8/3K4/8/8/8/8/7R w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "8/p7/1p6/2p5/8/5PPP/4K3/k7 w - - 0 1",
        "8/8/1k6/8/3N4/8/3K4/5b2 w - - 0 1",
        "8/3k4/8/2n5/8/3R4/4K3/8 b - - 0 1",
        "4k3/8/8/8/8/8/3q4/4K2R w K - 0 1",
        "8/8/8/3k4/8/8/3Q4/3K4 b - - 0 1",
        "6k1/8/6K1/8/8/8/8/Q7 w - - 0 1",
        "8/6P1/8/8/8/1k6/8/K6r w - - 0 1",
        "4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1",
        "8/8/8/4k3/3p4/3K4/8/8 w - - 0 1",
        "8/1p3k2/8/8/8/8/5KP1/8 w - - 0 1",
        "2k5/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "8/8/8/8/4k3/8/2q5/K7 w - - 0 1",
        "8/8/8/3k4/8/8/8/R3K3 w - - 98 80",
    ]
    .iter()
    .map(|t| fen(t))
    .collect();
    // Black to move can repeat the first position at once (…Kd5).
    positions.push(play_line(
        &fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
        "a1a2 d5d4 a2a1",
    ));
    positions
}

#[test]
fn exact_search_equals_negamax() {
    let positions = oracle_positions();
    assert!(positions.len() >= 20);
    let start = Chess::start();
    let cases: Vec<(&Chess, i32)> = positions
        .iter()
        .flat_map(|p| [(p, 2), (p, 3)])
        .chain([(&start, 2)])
        .collect();
    let evals = [true, false].map(|evasions| ChessEval {
        evasions,
        ..ChessEval::default()
    });
    assert_exact_equals_negamax(&evals, &cases, true);
}

/// The search sees the draws: stalemate at the root, a repetition and the
/// fifty-move rule inside the tree.
#[test]
fn search_scores_draws() {
    let mut engine = Engine::new(ChessEval::default(), 4);
    let stalemate = fen("8/8/8/8/4k3/8/2q5/K7 w - - 0 1");
    let r = engine.search(&stalemate, &Limits::to_depth(3));
    assert_eq!((r.best_move, r.score), (None, 0));
    // A rook up, but Black to move repeats the start of the line: a draw.
    let repeat = play_line(&fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"), "a1a2 d5d4 a2a1");
    let r = engine.search(&repeat, &Limits::to_depth(4));
    assert_eq!(r.score, 0, "{:?}", r.pv);
    assert_eq!(repeat.move_text(r.best_move.unwrap()), "d4d5");
    // Two plies before the fifty-move rule, nothing can be won.
    let fifty = fen("8/8/8/3k4/8/8/8/R3K3 w - - 98 80");
    assert_eq!(engine.search(&fifty, &Limits::to_depth(5)).score, 0);
}

#[test]
fn every_algorithm_and_thread_count_is_exact() {
    let positions: Vec<Chess> = [
        "startpos",
        KIWIPETE,
        "8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1",
        POSITION_3,
    ]
    .iter()
    .map(|t| fen(t))
    .collect();
    let depth = 3;
    let cases: Vec<(Chess, i32, i32)> = positions
        .into_iter()
        .map(|p| {
            let mut serial = Engine::new(ChessEval::default(), 4);
            let score = serial.search(&p, &Limits::to_depth(depth).exact()).score;
            (p, depth, score)
        })
        .collect();
    assert_every_algorithm_exact(&ChessEval::default(), &cases);
}

#[test]
fn search_finds_mates() {
    let mut engine = Engine::new(ChessEval::default(), 4);
    // Mate in one: Ra8#.
    let pos = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let r = engine.search(&pos, &Limits::to_depth(3));
    assert_eq!(r.score, WIN - 1);
    assert_eq!(pos.move_text(r.best_move.unwrap()), "a1a8");
    // Mate in two (three plies), on the back rank: Re8+ Rxe8 Rxe8#.
    let pos = fen("3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1");
    let r = engine.search(&pos, &Limits::to_depth(5));
    assert_eq!(r.score, WIN - 3, "{:?}", r.pv);
    // Mated: no move, the loss scored at the root.
    let mated = play_line(&Chess::start(), "f2f3 e7e5 g2g4 d8h4");
    let r = engine.search(&mated, &Limits::to_depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, -WIN);
}

#[test]
fn bratko_kopec_best_moves_are_legal() {
    let suite = bratko_kopec();
    assert_eq!(suite.len(), 24);
    for p in &suite {
        let moves = p.position.legal_moves();
        assert!(p.best_moves.iter().all(|m| moves.contains(m)), "{}", p.id);
    }
}

#[test]
fn positions_cross_as_bytes() {
    common::assert_bytes_round_trip(&Chess::start(), 60, 120);
}
