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

/// `othello-match --opponent`: this program's own `nboard` run as the other
/// engine, spoken to over the NBoard protocol like Edax.
#[test]
fn othello_match_plays_another_nboard_engine_to_the_end() {
    use splitpoint_games::othello::Othello;
    let dir = TempDir::new("othello-opponent");
    let report_path = dir.join("match.json");
    let opponent = format!("{} nboard", env!("CARGO_BIN_EXE_splitpoint"));
    let out = success(&[
        "othello-match",
        "--a",
        "heuristic",
        "--opponent",
        &opponent,
        "--depth",
        "2",
        "--openings",
        "2",
        "--random-plies",
        "4",
        "--json",
        arg(&report_path),
    ]);
    // The name the engine gave (`set myname`), which names its depth.
    assert!(
        out.contains("B = splitpoint2,"),
        "the engine's own name: {out}"
    );
    let report = read_json(&report_path);
    assert_eq!(report["b"], "splitpoint2");
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "two openings, each with both colours");
    let mut points = 0.0;
    for g in games {
        let mut pos = Othello::start();
        for m in g["moves"].as_array().unwrap() {
            let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
            assert!(pos.legal_moves().contains(&mv), "{m} in {pos}");
            pos = pos.play(mv);
        }
        assert!(pos.outcome().is_some(), "played to the end");
        let black = pos.final_score() * if pos.black_to_move() { 1 } else { -1 };
        let for_a = if g["black"] == "a" { black } else { -black };
        assert_eq!(g["result_for_a"], for_a);
        points += match for_a.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
    }
    assert_eq!(report["score"].as_f64().unwrap(), points / 4.0);
}

#[test]
fn othello_match_says_why_another_engine_cannot_play() {
    let missing = rejected(&[
        "othello-match",
        "--opponent",
        "/nonexistent/edax -nboard",
        "--openings",
        "1",
    ]);
    assert!(
        missing.contains("--opponent: cannot start '/nonexistent/edax -nboard'"),
        "{missing}"
    );
    // An engine that exits at once never answers the handshake.
    let silent = rejected(&["othello-match", "--opponent", "true", "--openings", "1"]);
    assert!(
        silent.contains("--opponent: true: the engine exited"),
        "{silent}"
    );
    let both = rejected(&["othello-match", "--b", "patterns", "--opponent", "true"]);
    assert!(
        both.contains("--opponent") && both.contains("--b"),
        "{both}"
    );
}
