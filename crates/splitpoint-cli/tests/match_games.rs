//! `splitpoint match`: real games between UCI engines run as child
//! processes, at fixed depths so that they take a fraction of a second.

use serde_json::Value;

mod common;
use common::run::{TempDir, arg, read_json, rejected, success};
use splitpoint::Game;
use splitpoint_games::chess::Chess;

/// Two openings, as a file of FENs (one an EPD line).
const OPENINGS: &str = "\
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"two knights\";
";

/// Replays every game of a report from its opening: each move must be
/// legal, colours must alternate by round, and the counts must add up.
fn check_games(report: &Value, games: usize) {
    let records = report["games"].as_array().unwrap();
    assert_eq!(records.len(), games);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, g) in records.iter().enumerate() {
        assert_eq!(g["round"], i);
        let mut pos = Chess::parse_position(g["opening"].as_str().unwrap()).unwrap();
        let moves: Vec<&str> = g["moves"].as_str().unwrap().split_whitespace().collect();
        assert_eq!(g["plies"], moves.len());
        for m in &moves {
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("game {i}: {m}: {e}"));
            pos = pos.play(mv);
        }
        let result = g["result"].as_str().unwrap();
        let reason = g["reason"].as_str().unwrap();
        if reason == "checkmate" {
            assert!(pos.board().status() == splitpoint_games::chess::cozy_chess::GameStatus::Won);
        }
        let white_points = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("game {i}: result {other}"),
        };
        let first = if i % 2 == 0 {
            white_points
        } else {
            1.0 - white_points
        };
        match first {
            1.0 => wins += 1,
            0.0 => losses += 1,
            _ => draws += 1,
        }
    }
    let tally = &report["tally"];
    assert_eq!(
        (
            tally["wins"].as_u64(),
            tally["draws"].as_u64(),
            tally["losses"].as_u64()
        ),
        (Some(wins), Some(draws), Some(losses))
    );
}

#[test]
fn a_match_against_itself_plays_legal_games_with_both_colours() {
    let dir = TempDir::new("match-self");
    let openings = dir.write("openings.epd", OPENINGS);
    let json = dir.join("match.json");
    let out = success(&[
        "match",
        "--opponent",
        "self",
        "--opponent-option",
        "Skill Level=2",
        "--depth",
        "3",
        "--games",
        "4",
        "--openings",
        arg(&openings),
        "--json",
        arg(&json),
    ]);
    assert!(out.contains("games 4: +"), "{out}");
    assert!(out.contains("Elo difference "), "{out}");
    let report = read_json(&json);
    check_games(&report, 4);
    assert_eq!(report["control"], "depth 3");
    assert_eq!(report["openings"], 2);
    assert_eq!(report["second"]["options"][0][0], "Skill Level");
    // Each opening twice, with the colours swapped.
    let g = report["games"].as_array().unwrap();
    assert_eq!(g[0]["opening"], g[1]["opening"]);
    assert_ne!(g[1]["opening"], g[2]["opening"]);

    // Resumed, the match keeps its games and plays on to the new count.
    let out = success(&[
        "match",
        "--opponent",
        "self",
        "--opponent-option",
        "Skill Level=2",
        "--depth",
        "3",
        "--games",
        "6",
        "--openings",
        arg(&openings),
        "--json",
        arg(&json),
        "--resume",
    ]);
    assert!(out.contains("games 6: +"), "{out}");
    let resumed = read_json(&json);
    check_games(&resumed, 6);
    assert_eq!(
        resumed["games"].as_array().unwrap()[..4],
        report["games"].as_array().unwrap()[..4]
    );
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let dir = TempDir::new("match-sprt");
    let json = dir.join("match.json");
    // Four plies against one: the first engine wins nearly every game.
    let out = success(&[
        "match",
        "--opponent",
        "self",
        "--opponent-option",
        "Skill Level=0",
        "--depth",
        "4",
        "--games",
        "40",
        "--sprt",
        "0,200",
        "--json",
        arg(&json),
    ]);
    assert!(out.contains("H1 accepted"), "{out}");
    let report = read_json(&json);
    let games = report["games"].as_array().unwrap().len();
    assert!(games < 40, "{games} games");
    assert_eq!(report["sprt"]["state"], "accept_h1");
    assert!(
        report["sprt"]["llr"].as_f64().unwrap() >= report["sprt"]["upper_bound"].as_f64().unwrap()
    );
    assert!(report["elo"]["los"].as_f64().unwrap() > 0.9);
}

#[test]
fn an_engine_that_plays_an_illegal_move_forfeits() {
    let dir = TempDir::new("match-illegal");
    // A UCI engine in four lines of shell that always answers a1a1.
    let script = dir.write(
        "bad.sh",
        "while read line; do case \"$line\" in\n\
         uci) echo 'id name Bad'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'bestmove a1a1';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    );
    let json = dir.join("match.json");
    let opponent = format!("sh {}", arg(&script));
    let out = success(&[
        "match",
        "--opponent",
        &opponent,
        "--nodes",
        "200",
        "--games",
        "2",
        "--json",
        arg(&json),
    ]);
    assert!(out.contains("+2 =0 -0"), "{out}");
    assert!(out.contains("forfeits: "), "{out}");
    let report = read_json(&json);
    assert_eq!(report["second"]["name"], "Bad");
    for g in report["games"].as_array().unwrap() {
        assert_eq!(g["reason"], "Bad played an illegal move a1a1");
    }
}

#[test]
fn bad_match_settings_are_one_line_errors() {
    rejected(&["match", "--opponent", "self"]);
    rejected(&["match", "--opponent", "self", "--tc", "fast"]);
    rejected(&[
        "match",
        "--opponent",
        "self",
        "--depth",
        "2",
        "--sprt",
        "10,0",
    ]);
    rejected(&["match", "--opponent", "/no/such/engine", "--depth", "2"]);
    rejected(&[
        "match",
        "--opponent",
        "self",
        "--depth",
        "2",
        "--option",
        "Threads",
    ]);
}
