//! International draughts: perft, text forms, the capture rules, game ends
//! and draws, the evaluator's move sets, and exact-mode search against the
//! negamax oracle for every algorithm at several thread counts.
#![cfg(feature = "draughts")]

mod common;
use common::{
    Rng, assert_damaged_positions_refused_or_usable, assert_every_algorithm_exact,
    assert_exact_equals_negamax, assert_game_over, assert_move_keys_distinct, assert_moves_refused,
    assert_positions_refused, assert_repetition_rule, assert_scored_as_lost,
    assert_text_round_trips, evaluate_with_children, ordering_keys, parse, play_line, random_line,
    with_negamax,
};
use splitpoint::{Engine, Evaluator, Game, Limits, MoveList, Outcome, WIN, WIN_BOUND};
use splitpoint_games::draughts::{
    Draughts, DraughtsEval, HISTORY_LEN, KING_MOVES_DRAW, Move, START_FEN, THREE_VS_KING_DRAW,
    TWO_VS_KING_DRAW, hub_move_text, hub_position, middlegames, perft,
};

fn fen(text: &str) -> Draughts {
    parse(text)
}

/// The legal moves' PDN texts, sorted.
fn texts(pos: &Draughts) -> Vec<String> {
    let mut texts: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect();
    texts.sort();
    texts
}

/// A position after `plies` seeded random moves from the start (fewer if the
/// game ends).
fn random_position(seed: u64, plies: usize) -> Draughts {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    random_line(&Draughts::start(), plies, |n| rng.below(n))
}

// ---------------------------------------------------------------- perft

/// The published counts from the start (each capture once, however many
/// routes reach it).
#[test]
fn perft_start_position() {
    let start = Draughts::start();
    let counts = [9, 81, 658, 4265, 27_117, 167_140, 1_049_442];
    for (depth, &count) in (1..).zip(&counts) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

#[test]
#[ignore = "a few seconds in release, longer in debug"]
fn perft_start_position_depth_8() {
    assert_eq!(perft(&Draughts::start(), 8), 6_483_961);
}

/// Positions with kings and multi-captures from seeded random games, counted
/// independently by pydraughts 0.6.7 (its legal moves, routes that take the
/// same pieces to the same square counted once).
#[test]
fn perft_positions_with_kings_and_multi_captures() {
    for (text, counts) in [
        (
            "W:W33,35,40,41,47,K1:B2,4,5,8,10,16,17,K49",
            &[14, 184, 1750, 20_192][..],
        ),
        (
            "B:W31,40,41,44,45,47,K2:B5,9,14,18,19,30,35,K49",
            &[14, 52, 427, 3741],
        ),
        ("B:W25,K23:B2,6,9,11,14-17,20,21,K39", &[17, 42, 384, 947]),
        (
            "W:W32,42,45,48,K5:B2,4,6-9,11,12,15,19,23,K35",
            &[8, 90, 554, 5767],
        ),
        ("B:W19,28,35,36,43,44,46,K18:B17,K50", &[1, 3, 13]),
        ("B:W36,41,44,45,47,K4:B3,5,6,9,11,13,16,30,K50", &[1, 6, 76]),
        ("B:W14,15,24,40,48,K4:B18,36,K47", &[2, 6, 24]),
        ("W:W30,34,K15:B10,25,K9", &[6, 0, 0]),
        ("W:WK12:B15,16,23,32,42,44,K38,K50", &[1, 19, 63]),
    ] {
        let pos = fen(text);
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(perft(&pos, depth), count, "{text} depth {depth}");
        }
    }
}

/// The generic perft counts a finished game as a leaf; draughts perft does
/// not (Black has no move after any of White's six captures).
#[test]
fn generic_perft_counts_finished_games_as_leaves() {
    let pos = fen("W:W30,34,K15:B10,25,K9");
    assert_eq!(perft(&pos, 2), 0);
    assert_eq!(splitpoint::perft(&pos, 2), 6);
}

// ---------------------------------------------------------------- capture rules

#[test]
fn the_capture_taking_most_pieces_is_compulsory() {
    // 32 can take two (27, 17), 35 one (30): only the double capture is legal.
    let pos = fen("W:W32,35:B17,27,30");
    assert_eq!(texts(&pos), ["32x12"]);
    assert!(pos.parse_move("35x24").is_err());
    assert!(pos.parse_move("32x21").is_err());
    let err = pos.parse_move("32-28").unwrap_err();
    assert!(err.message.contains("compulsory"), "{err}");
    // A capture, even of one piece, excludes every quiet move.
    let pos = fen("W:W35,46:B30");
    assert_eq!(texts(&pos), ["35x24"]);
}

#[test]
fn men_capture_backwards_and_are_crowned_only_at_the_end() {
    // 14x3 over 9 reaches the last row, then takes 8 backwards to 12: no crown.
    let pos = fen("W:W14:B8,9");
    assert_eq!(texts(&pos), ["14x12"]);
    let after = pos.play(pos.legal_moves()[0]);
    assert_eq!(after.position_text(), "B:W12:B");
    assert_eq!(after.kings(), 0);
    // Ending on the last row crowns.
    let pos = fen("W:W14:B9");
    let after = pos.play(pos.parse_move("14x3").unwrap());
    assert_eq!(after.position_text(), "B:WK3:B");
    // Black men are crowned on 46-50.
    let pos = fen("B:W50:B39,44");
    assert_eq!(play_line(&pos, "39-43").position_text(), "W:W50:B43-44");
    assert_eq!(play_line(&pos, "44-49").position_text(), "W:W50:B39,K49");
}

#[test]
fn kings_fly_and_capture_from_afar() {
    // Along the long diagonal, landing anywhere behind the victim.
    let pos = fen("W:WK46:B28");
    assert_eq!(texts(&pos), ["46x10", "46x14", "46x19", "46x23", "46x5"]);
    // Two pieces in a row cannot be jumped; the king just moves.
    let pos = fen("W:WK46:B23,28");
    assert_eq!(texts(&pos), ["46-32", "46-37", "46-41"]);
    // Men move only forward, one square.
    let pos = fen("W:W33:B1");
    assert_eq!(texts(&pos), ["33-28", "33-29"]);
}

/// A king round a diamond of four men takes them clockwise or anticlockwise:
/// both routes ending back on 32 are one move; the other endings differ.
#[test]
fn routes_over_the_same_pieces_to_the_same_square_are_one_move() {
    let pos = fen("W:WK32:B17,18,27,28");
    assert_eq!(
        texts(&pos),
        [
            "32x32", "32x37", "32x38", "32x41", "32x43", "32x46", "32x49"
        ]
    );
    let round = pos.parse_move("32x32").unwrap();
    assert_eq!(round.capture_count(), 4);
    // Either full route reads as the same move.
    assert_eq!(pos.parse_move("32x23x12x21x32"), Ok(round));
    assert_eq!(pos.parse_move("32x21x12x23x32"), Ok(round));
    assert_eq!(pos.play(round).position_text(), "B:WK32:B");
}

/// The captured pieces stay on the board until the move ends: a king may
/// not pass over one it has already taken (the "Turkish strike" rule).
#[test]
fn captured_pieces_block_until_the_move_ends() {
    // 46 takes 37, 22 and 21 and lands on 26. Were 37 gone at once, the king
    // could fly on from 26 over 37's square and take 42 as well.
    let pos = fen("W:WK46:B21,22,37,42");
    assert_eq!(texts(&pos), ["46x26"]);
    let mv = pos.legal_moves()[0];
    assert_eq!(mv.captured_squares().collect::<Vec<_>>(), [21, 22, 37]);
    assert_eq!(pos.play(mv).position_text(), "B:WK26:B42");
}

#[test]
fn ambiguous_captures_are_written_in_full() {
    // The black king on 26 can take 23, 37 and 38 or 23, 37 and 39 and end on
    // 18 either way (or on 12): the short forms are ambiguous.
    let pos = fen("B:W23,32,37-40,44-47,49,50:B1-11,13-15,21,35,K26");
    assert_eq!(
        texts(&pos),
        ["26x42x29x12", "26x42x29x18", "26x48x34x12", "26x48x34x18"]
    );
    let err = pos.parse_move("26x18").unwrap_err();
    assert!(err.message.contains("ambiguous"), "{err}");
    assert!(err.message.contains("26x42x29x18"), "{err}");
    let mv = pos.parse_move("26x42x29x18").unwrap();
    // Hub's form names the captured pieces instead of the route.
    assert_eq!(hub_move_text(mv), "26x18x23x37x38");
    assert_eq!(pos.parse_move("26x18x23x37x38"), Ok(mv));
    assert_eq!(pos.parse_move("26x18x38x23x37"), Ok(mv));
    assert!(pos.parse_move("26x18x23x37").is_err());
}

#[test]
fn a_side_with_no_move_loses() {
    // White's only man is blocked; Black to move with no pieces; the start.
    assert_game_over(&fen("W:W46:B37,41"), Outcome::Loss);
    assert_eq!(fen("B:W46:B").outcome(), Some(Outcome::Loss));
    assert_eq!(Draughts::start().outcome(), None);
    // Taking the last piece wins.
    let pos = fen("W:W32:B27");
    let after = play_line(&pos, "32x21");
    assert_eq!(after.outcome(), Some(Outcome::Loss));
    assert_scored_as_lost(&DraughtsEval, &after, 1);
}

// ---------------------------------------------------------------- draws

const DANCE: &str = "36-31 15-20 31-36 20-15";

#[test]
fn repetitions() {
    assert_repetition_rule(&fen("W:WK36,K50:BK1,K15"), DANCE, HISTORY_LEN);
    // A man move forgets the history.
    let pos = fen("W:W46,K36:BK1,K15");
    let man = play_line(&pos, &format!("{DANCE} 46-41"));
    assert_eq!((man.history_len(), man.king_plies()), (0, 0));
}

/// Random king moves from `pos` that neither repeat a position nor allow a
/// capture: the game is drawn after exactly `plies` of them, not before.
/// `count`, where given, is the rule's counter, which counts them.
fn assert_draw_after(pos: &Draughts, plies: u8, seed: u64, count: Option<fn(&Draughts) -> u32>) {
    let plies = u32::from(plies);
    let check = |pos: &Draughts, ply: u32| {
        if let Some(count) = count {
            assert_eq!(count(pos), ply, "{pos:?}");
        }
        let expected = (ply == plies).then_some(Outcome::Draw);
        assert_eq!(pos.outcome(), expected, "{pos:?}");
    };
    let mut rng = Rng(seed);
    let mut pos = pos.clone();
    for ply in 0..plies {
        check(&pos, ply);
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let child = pos.play(m);
                !child.is_repetition() && !child.has_capture() && !m.is_capture()
            })
            .collect();
        assert!(!moves.is_empty(), "stuck in {pos:?}");
        pos = pos.play(moves[rng.below(moves.len())]);
    }
    check(&pos, plies);
}

#[test]
fn twenty_five_king_moves_each_draw() {
    let start = fen("W:WK36,K47,K3:BK4,K15,K43");
    assert_draw_after(&start, KING_MOVES_DRAW, 7, Some(Draughts::king_plies));
    // A man move resets the count.
    let pos = play_line(&fen("W:W46,K36:BK1,K15"), DANCE);
    assert_eq!(pos.king_plies(), 4);
    assert_eq!(play_line(&pos, "46-41").king_plies(), 0);
}

#[test]
fn lone_king_endings_draw() {
    // Three pieces with a king against a lone king: 16 moves each.
    let three = fen("W:WK36,K47,K49:BK15");
    assert_draw_after(&three, THREE_VS_KING_DRAW, 3, Some(Draughts::ending_plies));
    // Two pieces (a king and a man) against a lone king: 5 moves each; a man
    // move does not reset the count.
    let two = fen("B:WK36,40:BK15");
    let pos = play_line(&two, "15-20 40-35 20-15 36-31");
    assert_eq!(pos.ending_plies(), 4);
    assert_draw_after(&pos, TWO_VS_KING_DRAW - 4, 5, None);
    // King against king.
    let kings = fen("W:WK36:BK15");
    assert_draw_after(&kings, TWO_VS_KING_DRAW, 9, None);
    // Four pieces against a lone king is no such ending, nor is three men.
    let pos = play_line(&fen("W:WK36,K47,K49,K50:BK15"), "36-31 15-20");
    assert_eq!((pos.ending_plies(), pos.outcome()), (0, None));
    let pos = play_line(&fen("W:W46,47,48:BK15"), "46-41 15-20");
    assert_eq!((pos.ending_plies(), pos.outcome()), (0, None));
    // A promotion that enters the ending starts the count.
    let pos = play_line(&fen("W:W6,36,37:BK50"), "6-1");
    assert_eq!(pos.ending_plies(), 0);
    assert_eq!(play_line(&pos, "50-45").ending_plies(), 1);
}

// ---------------------------------------------------------------- text forms

#[test]
fn fens_round_trip() {
    for text in [
        START_FEN,
        "B:W28,31,33-50:B1-20",
        "W:WK3,31-50:B4-20",
        "B:WK1-3,28:B7,K44,K46-48",
        "W:W6:BK50",
        "B:W46:B",
        "W:W:B1",
    ] {
        let pos: Draughts = assert_text_round_trips(text);
        assert_eq!(fen(&hub_position(&pos)), pos);
    }
    assert_eq!(fen("start"), Draughts::start());
    assert_eq!(fen("startpos"), Draughts::start());
    // Lists in any order, commas, spaces, black first, a quoted FEN tag value.
    assert_eq!(
        fen(" W:B20,19,1-18: W50 , 31-49 ").position_text(),
        START_FEN
    );
    assert_eq!(fen("\"W:W31-50:B1-20.\""), Draughts::start());
    assert_eq!(
        hub_position(&Draughts::start()),
        format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
    );
}

#[test]
fn bad_fens_are_errors() {
    assert_positions_refused::<Draughts>(&[
        "",
        "  ",
        "W",
        "W:W31-50",
        "X:W31-50:B1-20",
        "W:W31-50:B1-20:W1",
        "W:W31-50:W1-20",
        "W:W31-51:B1-20",
        "W:W0,31:B1-20",
        "W:W31-50:B1-20,20",
        "W:W31-50:B1-31",
        "W:W50-31:B1-20",
        "W:W31-50:B1-,20",
        "W:W31-50:B1,,2",
        "W:W31-50:Bx",
        "W:W31-50:BKK1",
        "W:W3:B20",
        "B:W40:B47",
        "W:X31:B1",
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx",
        "Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        "W:W31-50:B1-20\u{301}",
        "W:W３１:B1",
        "W:W99999999999999999999:B1",
    ]);
    let err = Draughts::parse_position("W:W31-50:B1-20,20").unwrap_err();
    assert!(err.message.contains("20"), "{err}");
    let err = Draughts::parse_position("W:W31-50:B1-31").unwrap_err();
    assert!(err.message.contains("31"), "{err}");
}

/// Randomly damaged FENs: each is either refused or read as a position every
/// operation works on, never a panic.
#[test]
fn damaged_fens_are_refused_or_usable() {
    const ALPHABET: &[u8] = b"WBK0123456789:,- xw";
    let bases = [
        START_FEN,
        "B:WK1-3,28:B7,K44,K46-48",
        "B:W23,32,37-40,44-47,49,50:B1-11,13-15,21,35,K26",
    ];
    assert_damaged_positions_refused_or_usable(&bases, ALPHABET, |pos: &Draughts| {
        evaluate_with_children(pos, &DraughtsEval);
        for &mv in &pos.legal_moves() {
            let text = pos.move_text(mv);
            assert_eq!(pos.parse_move(&text), Ok(mv), "{text} in {pos:?}");
        }
    });
}

#[test]
fn bad_moves_are_errors() {
    let start = Draughts::start();
    assert_moves_refused(
        &start,
        &[
            "",
            " ",
            "32",
            "32-",
            "-28",
            "32-28-23",
            "32x28",
            "32-27x",
            "31-27-22",
            "0-5",
            "51-46",
            "32-29",
            "28-32",
            "19-23",
            "32--28",
            "x",
            "32x",
            "a1-b2",
            "32–28",
            "🙂",
            "32-28\u{0}",
            "99999999999999999999-1",
        ],
    );
    let err = start.parse_move("32-29").unwrap_err();
    assert!(err.message.contains("not legal"), "{err}");
    let err = start.parse_move("hello").unwrap_err();
    assert!(err.message.contains("not a move"), "{err}");
    // Hub's form of a capture that is not there.
    let pos = fen("W:W32,35:B17,27,30");
    assert_moves_refused(&pos, &["32x12x27", "32x12x27x17x17"]);
    assert!(pos.parse_move("32x21x12").is_ok());
}

#[test]
fn moves_are_small_and_keys_distinct() {
    assert!(std::mem::size_of::<Move>() <= 16);
    assert!(std::mem::size_of::<Draughts>() <= 48 + 8 * HISTORY_LEN);
    for seed in 0..40 {
        assert_move_keys_distinct(&random_position(seed, 60));
    }
}

/// Random games: every move's PDN and Hub texts read back as the move, the
/// FEN and Hub form of every position read back to the same position, the
/// incremental hash is the hash from scratch, and nothing panics.
#[test]
fn random_games_keep_text_and_hash_consistent() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut kings, mut multi) = (0, 0);
    for _ in 0..100 {
        let mut pos = Draughts::start();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            // The quick tests agree with the generator.
            assert_eq!(pos.has_move(), !moves.is_empty(), "{pos:?}");
            assert_eq!(
                pos.has_capture(),
                moves.iter().any(|m| m.is_capture()),
                "{pos:?}"
            );
            if pos.outcome().is_some() {
                break;
            }
            for &mv in &moves {
                assert_eq!(pos.parse_move(&pos.move_text(mv)), Ok(mv), "{pos:?}");
                assert_eq!(pos.parse_move(&hub_move_text(mv)), Ok(mv), "{pos:?}");
            }
            let reread = fen(&pos.position_text());
            assert_eq!(reread.hash(), pos.hash());
            assert_eq!(fen(&hub_position(&pos)).hash(), pos.hash());
            assert_eq!(reread.legal_moves(), moves);
            kings += (pos.kings() != 0) as u32;
            multi += moves.iter().any(|m| m.capture_count() >= 2) as u32;
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        kings > 100 && multi > 20,
        "kings {kings}, multi-captures {multi}"
    );
}

// ---------------------------------------------------------------- evaluator

#[test]
fn noisy_moves_are_the_captures_or_the_promotions() {
    for seed in 0..60 {
        let pos = random_position(seed, 40 + seed as usize);
        let mut noisy = MoveList::new();
        DraughtsEval.noisy_moves(&pos, &mut noisy);
        let all = pos.legal_moves();
        if all.iter().any(|m| m.is_capture()) {
            assert_eq!(noisy, all, "{pos:?}");
        } else {
            // A quiet move that makes a new king.
            let promotion =
                |m: &Move| pos.play(*m).kings().count_ones() == pos.kings().count_ones() + 1;
            let mut expected: Vec<Move> = all.iter().copied().filter(promotion).collect();
            let mut got = noisy.to_vec();
            expected.sort_by_key(|&m| Draughts::move_key(m));
            got.sort_by_key(|&m| Draughts::move_key(m));
            assert_eq!(got, expected, "{pos:?}");
        }
    }
    let mut noisy = MoveList::new();
    DraughtsEval.noisy_moves(&fen("W:W7,40:B30"), &mut noisy);
    assert_eq!(noisy.len(), 2, "7-1 and 7-2 crown");
}

#[test]
fn evaluation_is_symmetric_and_bounded() {
    // The start: equal for the side to move, whichever it is.
    let start = Draughts::start();
    let black = fen("B:W31-50:B1-20");
    assert_eq!(DraughtsEval.evaluate(&start), DraughtsEval.evaluate(&black));
    assert_eq!(DraughtsEval.evaluate(&start), 0);
    // A position and its mirror (squares n ↔ 51 - n, colours swapped).
    for seed in 0..30 {
        let pos = random_position(seed, 30 + seed as usize);
        assert_eq!(
            DraughtsEval.evaluate(&pos),
            DraughtsEval.evaluate(&mirror(&pos)),
            "{pos:?}"
        );
    }
    // A king is worth more than a man, a man more than nothing.
    let king = DraughtsEval.evaluate(&fen("W:WK28:B19,45"));
    let man = DraughtsEval.evaluate(&fen("W:W28:B19,45"));
    assert!(king > man + 100, "{king} {man}");
    // Twenty kings against one man stay far inside the won band.
    let most = DraughtsEval.evaluate(&fen("W:WK1-20:B45"));
    assert!(most > 5000 && most < WIN_BOUND / 2, "{most}");
    for (_, pos) in middlegames() {
        assert!(DraughtsEval.evaluate(&pos).abs() < 600, "{pos:?}");
    }
}

/// The position turned round: square n becomes 51 - n, White's pieces
/// Black's, and the other side moves.
fn mirror(pos: &Draughts) -> Draughts {
    let hub = hub_position(pos);
    let side = if hub.starts_with('W') { 'B' } else { 'W' };
    let turned: String = hub[1..]
        .chars()
        .rev()
        .map(|c| match c {
            'w' => 'b',
            'b' => 'w',
            'W' => 'B',
            'B' => 'W',
            other => other,
        })
        .collect();
    fen(&format!("{side}{turned}"))
}

#[test]
fn ordering_puts_captures_and_promotions_first() {
    let key = ordering_keys(&DraughtsEval, &fen("W:W6,35,K46:B20"));
    assert!(key["6-1"] > key["35-30"]);
    assert!(key["35-30"] > key["46-41"]);
}

// ---------------------------------------------------------------- search

/// Positions where the oracle's full-width tree stays small: endgames with
/// kings, captures, promotions, blocked men, and draws.
fn oracle_positions() -> Vec<Draughts> {
    let mut positions: Vec<Draughts> = [
        "W:W32,35:B17,27,30",
        "W:WK32:B17,18,27,28",
        "W:W30,34,K15:B10,25,K9",
        "B:W19,28,35,36,43,44,46,K18:B17,K50",
        "W:W6,36,37:BK50",
        "W:W33,35,40,41,47:B2,4,5,8,10,16,17",
        "B:W25,38,K23:B11,14,16,21,K39",
        "W:W28,32,33,38:B12,17,18,23",
        "B:WK36,40:BK15",
        "W:W46:B37,41",
    ]
    .iter()
    .map(|t| fen(t))
    .collect();
    positions.push(Draughts::start());
    // The king dance: Black to move can repeat at once.
    positions.push(play_line(&fen("W:WK36,K50:BK1,K15"), "36-31 15-20 31-36"));
    positions
}

#[test]
fn exact_search_equals_negamax() {
    let positions = oracle_positions();
    let cases: Vec<(&Draughts, i32)> = positions
        .iter()
        .flat_map(|p| [1, 2, 3, 4].map(|depth| (p, depth)))
        .collect();
    assert_exact_equals_negamax(&[DraughtsEval], &cases, false);
}

#[test]
fn every_algorithm_and_thread_count_is_exact() {
    let positions = [
        Draughts::start(),
        fen("W:W33,35,40,41,47:B2,4,5,8,10,16,17"),
        fen("B:W25,38,K23:B11,14,16,21,K39"),
        random_position(3, 24),
        random_position(8, 50),
        middlegames()[0].1.clone(),
    ];
    let cases = with_negamax(&DraughtsEval, positions.map(|p| (p, 6)));
    assert_every_algorithm_exact(&DraughtsEval, &cases);
}

#[test]
fn search_finds_wins_and_draws() {
    let mut engine = Engine::new(DraughtsEval, 4);
    // Every White capture leaves Black without a move.
    let pos = fen("W:W30,34,K15:B10,25,K9");
    let r = engine.search(&pos, &Limits::to_depth(3));
    assert_eq!(r.score, WIN - 1);
    // No move: lost at the root.
    let r = engine.search(&fen("W:W46:B37,41"), &Limits::to_depth(3));
    assert_eq!((r.best_move, r.score), (None, -WIN));
    // A king against a king: nothing to win, and the search sees the draw.
    let r = engine.search(&fen("W:WK36:BK15"), &Limits::to_depth(12));
    assert_eq!(r.score, 0, "{:?}", r.pv);
    // A man up in the middlegame scores well.
    let r = engine.search(&fen("W:W31-50:B1-19"), &Limits::to_depth(4));
    assert!(r.score > 50, "{}", r.score);
}

#[test]
fn positions_cross_as_bytes() {
    common::assert_bytes_round_trip(&Draughts::start(), 60, 120);
}
