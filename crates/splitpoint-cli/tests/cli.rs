//! The `splitpoint` command as a user meets it: outputs, JSON shapes, exit
//! statuses and the one-line errors for bad input.

use std::path::Path;

use serde_json::Value;

mod common;
use common::run::{
    ENDGAME_O, ENDGAME_X, TempDir, arg, json, json_lines, keys, rejected, rejected_output,
    splitpoint, splitpoint_with_input, succeeded, success,
};
use splitpoint::{Game, MoveList};
use splitpoint_games::othello::{Othello, OthelloExact};
use splitpoint_games::synthetic::Synthetic;

fn assert_legal(position: &str, moves_before: &[&str], mv: &str) {
    let mut pos = Othello::parse_position(position).unwrap();
    for m in moves_before {
        pos = pos.play(pos.parse_move(m).unwrap());
    }
    assert!(pos.parse_move(mv).is_ok(), "{mv} is not legal in {pos}");
}

#[test]
fn perft_counts_othello_from_the_start() {
    for (depth, expected) in [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200)] {
        let value = json(&["perft", "othello", &depth.to_string(), "--json"]);
        assert_eq!(keys(&value), ["nodes", "seconds"]);
        assert_eq!(value["nodes"], expected, "depth {depth}");
        assert!(value["seconds"].as_f64().unwrap() >= 0.0);
    }
    let human = success(&["perft", "othello", "6"]);
    assert!(
        human
            .lines()
            .any(|l| l.split_whitespace().eq(["nodes", "8200"])),
        "{human}"
    );
    assert!(human.contains("nodes/s"), "{human}");
}

#[test]
fn perft_divide_adds_up() {
    let value = json(&[
        "perft", "othello", "5", "--divide", "--json", "--moves", "f5",
    ]);
    let divide = value["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 3); // d6, f6, f4 after f5
    let sum: u64 = divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert_eq!(value["nodes"], sum);
    // Five plies after f5 is six from the start, below one of four symmetric moves.
    assert_eq!(sum, 8200 / 4);
    let human = success(&["perft", "othello", "2", "--divide"]);
    assert!(
        human.lines().any(|l| l.split_whitespace().eq(["d3", "3"])),
        "{human}"
    );
}

/// Positions where the side to move has no legal move: chess (fool's mate),
/// xiangqi (mated by two chariots), draughts (no pieces; one man blocked).
const NO_MOVES: [(&str, &str); 4] = [
    (
        "chess",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ),
    ("xiangqi", "R3k4/R8/9/9/9/9/9/9/9/3K5 b"),
    ("draughts", "W:W:B1-20"),
    ("draughts", "W:W46:B37,41"),
];

/// `perft GAME DEPTH FLAGS… --json`, plain and with `--divide`.
fn perft_plain_and_divided(game: &str, depth: &str, flags: &[&str]) -> (Value, Value) {
    let plain = json(&[&["perft", game, depth], flags, &["--json"]].concat());
    let divided = json(&[&["perft", game, depth], flags, &["--divide", "--json"]].concat());
    (plain, divided)
}

#[test]
fn perft_divide_agrees_with_perft_where_no_move_is_legal() {
    for (game, position) in NO_MOVES {
        let moves = success(&["moves", game, "--position", position]);
        assert!(moves.trim().is_empty(), "{game} {position}: {moves}");
        for depth in ["1", "2", "3"] {
            let (plain, divide) = perft_plain_and_divided(game, depth, &["--position", position]);
            assert_eq!(plain["nodes"], 0, "{game} {position} depth {depth}");
            assert_eq!(divide["nodes"], 0, "{game} {position} depth {depth} divide");
            assert_eq!(divide["divide"].as_array().unwrap().len(), 0);
        }
        let human = success(&["perft", game, "2", "--position", position, "--divide"]);
        assert!(
            human
                .lines()
                .any(|l| l.split_whitespace().eq(["nodes", "0"])),
            "{game} {position}: {human}"
        );
    }
    // Othello and synthetic trees count a finished game as one leaf, divided or not.
    let over = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O";
    let leaf = "b=2,d=3,seed=1";
    for (game, position, moves) in [("othello", over, ""), ("synthetic", leaf, "0 0 0")] {
        let flags = ["--position", position, "--moves", moves];
        let (plain, divide) = perft_plain_and_divided(game, "2", &flags);
        assert_eq!(plain["nodes"], 1, "{game}");
        assert_eq!(divide["nodes"], 1, "{game}");
    }
}

#[test]
fn search_othello_reports_a_legal_move() {
    let value = json(&["search", "othello", "--depth", "4", "--json"]);
    assert_eq!(
        keys(&value),
        [
            "algorithm",
            "best_move",
            "depth",
            "nodes",
            "nps",
            "pv",
            "score",
            "seconds",
            "stats",
            "threads"
        ]
    );
    assert_eq!(value["depth"], 4);
    let best = value["best_move"].as_str().unwrap();
    assert_legal("start", &[], best);
    let pv: Vec<&str> = value["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv[0], best);
    assert!(value["score"].is_i64());
    assert!(value["nodes"].as_u64().unwrap() > 0);
    assert_eq!(value["stats"]["nodes"], value["nodes"]);
    assert!(value["stats"]["seldepth"].as_u64().unwrap() >= 4);
    for rate in ["tt_hit_rate", "first_move_cutoff_rate"] {
        assert!(
            (0.0..=1.0).contains(&value["stats"][rate].as_f64().unwrap()),
            "{rate}"
        );
    }

    let after = json(&[
        "search", "othello", "--moves", "f5 d6 c3", "--depth", "3", "--json",
    ]);
    assert_legal(
        "start",
        &["f5", "d6", "c3"],
        after["best_move"].as_str().unwrap(),
    );
}

#[test]
fn search_othello_shows_each_iteration() {
    let out = success(&["search", "othello", "--depth", "3"]);
    for depth in 1..=3 {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(&depth.to_string())),
            "no line for depth {depth}: {out}"
        );
    }
    for label in [
        "best move",
        "score",
        "nodes",
        "time",
        "table hits",
        "first-move cutoffs",
        "pv",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(label)),
            "no {label}: {out}"
        );
    }
}

#[test]
fn search_synthetic_finds_the_true_value() {
    let spec = "b=4,d=6,seed=9,q=0.3";
    let value = json(&[
        "search",
        "synthetic",
        "--position",
        spec,
        "--exact",
        "--json",
    ]);
    let root = Synthetic::parse_position(spec).unwrap();
    assert_eq!(value["depth"], 6, "the default depth is the whole tree");
    assert_eq!(value["score"], root.value());
    let best = value["best_move"].as_str().unwrap();
    let child = root.play(root.parse_move(best).unwrap());
    assert_eq!(-child.value(), root.value(), "{best} is not a best move");

    let default = json(&["search", "synthetic", "--json"]);
    assert_eq!(default["depth"], 8);
    assert!(
        default["best_move"]
            .as_str()
            .unwrap()
            .parse::<u8>()
            .unwrap()
            < 6
    );
}

#[test]
fn search_in_parallel_agrees_in_exact_mode() {
    let serial = json(&["search", "othello", "--depth", "5", "--exact", "--json"]);
    let parallel = json(&[
        "search",
        "othello",
        "--depth",
        "5",
        "--exact",
        "--threads",
        "3",
        "--json",
    ]);
    assert_eq!(serial["score"], parallel["score"]);
    assert_eq!(parallel["threads"], 3);
    // Othello's default with more than one thread.
    assert_eq!(parallel["algorithm"], "dts");
}

/// The exact score of an Othello position, from the library's own solver.
fn exact_score(position: &str) -> i32 {
    OthelloExact::solve(&Othello::parse_position(position).unwrap(), -64, 64, &mut 0)
}

/// `solve othello --file FILE --json`: a JSON object a position.
fn solve_file(file: &Path) -> Vec<Value> {
    json_lines(&["solve", "othello", "--file", arg(file), "--json"])
}

#[test]
fn solve_a_file_prints_a_json_line_per_position() {
    let dir = TempDir::new("solve");
    let file = dir.write(
        "endgames.txt",
        format!("# two endgames\n\n{ENDGAME_O}\n  {ENDGAME_X}  # black to move\n"),
    );

    let lines = solve_file(&file);
    assert_eq!(lines.len(), 2);
    for (line, position) in lines.iter().zip([ENDGAME_O, ENDGAME_X]) {
        for key in ["position", "score", "best_move", "nodes", "seconds"] {
            assert!(line.get(key).is_some(), "no {key} in {line}");
        }
        assert_eq!(line["position"], position);
        assert_eq!(line["score"], exact_score(position));
        assert_legal(position, &[], line["best_move"].as_str().unwrap());
    }

    let table = success(&["solve", "othello", "--file", arg(&file)]);
    assert_eq!(table.lines().count(), 4, "header, two rows, total: {table}");
}

#[test]
fn solve_reads_standard_input_and_single_positions() {
    let args = ["solve", "othello", "--file", "-", "--json"];
    let out = succeeded(&args, splitpoint_with_input(&args, ENDGAME_X));
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["score"], exact_score(ENDGAME_X));

    let value = json(&["solve", "othello", "--position", ENDGAME_O, "--json"]);
    assert_eq!(value["score"], exact_score(ENDGAME_O));
}

/// A finished game has no best move: `null` in JSON, not an error.
#[test]
fn a_finished_game_has_no_best_move() {
    let full = format!("{} X", "X".repeat(64));
    let value = json(&["search", "othello", "--position", &full, "--json"]);
    assert_eq!(value["best_move"], Value::Null);
    let mut moves = MoveList::new();
    Othello::parse_position(&full)
        .unwrap()
        .generate_moves(&mut moves);
    assert!(moves.is_empty());
    let solved = json(&["solve", "othello", "--position", &full, "--json"]);
    assert_eq!(solved["score"], 64);
}

/// `moves` lists what the generator produces, one line per position; a bad
/// line on standard input is named.
#[test]
fn moves_lists_legal_moves_per_position() {
    let start = success(&["moves", "othello"]);
    assert_eq!(start.trim_end(), "d3 c4 f5 e6");
    let after = success(&["moves", "othello", "--moves", "f5"]);
    let mut expected: Vec<String> = Vec::new();
    let pos = Othello::start();
    let pos = pos.play(pos.parse_move("f5").unwrap());
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    expected.extend(list.iter().map(|&m| pos.move_text(m)));
    assert_eq!(after.trim_end(), expected.join(" "));

    let args = ["moves", "chess", "--stdin"];
    let input = "startpos\n\nk7/8/1Q6/8/8/8/8/7K b - - 0 1\n";
    let text = succeeded(&args, splitpoint_with_input(&args, input));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0].split(' ').count(), 20);
    assert_eq!(lines[1], "", "stalemate: no move");

    let out = splitpoint_with_input(&args, "\nnonsense\n");
    let message = rejected_output(&args, out);
    assert!(message.contains("line 2"), "{message}");
}

/// The start position as text: its a1 is empty, so it starts with '-'.
fn start_text() -> String {
    Othello::start().position_text()
}

/// ENDGAME_X turned half a turn: the same game, its text starting with '-'.
fn endgame_from_a_hyphen() -> String {
    let (board, side) = ENDGAME_X.split_once(' ').unwrap();
    format!("{} {side}", board.chars().rev().collect::<String>())
}

/// An Othello position may start with '-' (an empty a1) after `-p` or
/// `--position`, in every command that takes one; the flags after it still
/// count, and a position left out is named, not taken from the next flag.
#[test]
fn positions_may_start_with_a_hyphen() {
    let start = start_text();
    assert!(start.starts_with('-'));
    let value = json(&["search", "othello", "-p", &start, "--depth", "2", "--json"]);
    assert_eq!(value["depth"], 2);
    assert_legal(&start, &[], value["best_move"].as_str().unwrap());
    let value = json(&["perft", "othello", "3", "--position", &start, "--json"]);
    assert_eq!(value["nodes"], 56);
    let moves = success(&["moves", "othello", "-p", &start, "--moves", "f5"]);
    assert_eq!(moves, success(&["moves", "othello", "--moves", "f5"]));
    let endgame = endgame_from_a_hyphen();
    assert!(endgame.starts_with('-'));
    let value = json(&["solve", "othello", "-p", &endgame, "--json"]);
    assert_eq!(value["score"], exact_score(ENDGAME_X));

    for (args, flag) in [
        (&["search", "othello", "-p", "--depth", "3"][..], "--depth"),
        (&["search", "othello", "--position", "--json"], "--json"),
        (&["perft", "othello", "2", "-p", "-m", "f5"], "-m"),
        (&["solve", "othello", "--position", "-t", "2"], "-t"),
    ] {
        let stderr = rejected(args);
        let expected = format!("--position: a value is required (found the flag '{flag}')");
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
    }
}

/// Each legal move of an Othello position with its exact score, in Edax's
/// OBF text (`E8:+12;`).
fn obf_moves(position: &str) -> Vec<(String, i32)> {
    let pos = Othello::parse_position(position).unwrap();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let score = -exact_score(&pos.play(m).position_text());
            (pos.move_text(m).to_uppercase(), score)
        })
        .collect()
}

/// `solve --file` reads Edax's OBF lines: the position ended by ';', scored
/// moves checked (a disagreement is status 1), '%' comments; a bad field is
/// bad input naming the line.
#[test]
fn solve_reads_edax_obf_lines() {
    let dir = TempDir::new("obf");
    let scored = obf_moves(ENDGAME_X);
    let best = scored.iter().map(|(_, s)| *s).max().unwrap();
    assert_eq!(best, exact_score(ENDGAME_X));
    let fields: String = scored.iter().map(|(m, s)| format!(" {m}:{s:+};")).collect();
    let file = dir.write(
        "endgames.obf",
        format!("% Edax's OBF\n{ENDGAME_X};{fields} % every move\n{ENDGAME_O};\n"),
    );
    let lines = solve_file(&file);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["score"], best);
    assert_eq!(lines[0]["expected_score"], best);
    assert_eq!(lines[0]["correct"], true);
    assert!(lines[0].get("ffo").is_none(), "{}", lines[0]);
    assert_eq!(lines[1]["score"], exact_score(ENDGAME_O));
    assert!(lines[1].get("correct").is_none(), "{}", lines[1]);

    // A wrong score is a wrong answer, named by its line: status 1.
    let (best_move, _) = scored.iter().find(|(_, s)| *s == best).unwrap();
    let wrong = dir.write(
        "wrong.obf",
        format!("{ENDGAME_X}; {best_move}:{:+};\n", best + 2),
    );
    let out = splitpoint(&["solve", "othello", "--file", arg(&wrong)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("wrong.obf line 1: expected"), "{stderr}");

    for (field, expected) in [
        ("G9:+2", "'G9:+2': expected a square"),
        ("junk", "expected MOVE:SCORE after ';', found 'junk'"),
        (&format!("{best_move}:+99"), "not a disc difference"),
        (&format!("{best_move}:x"), "not a disc difference"),
    ] {
        let bad = dir.write("bad.obf", format!("{ENDGAME_O};\n{ENDGAME_X}; {field};\n"));
        let path = arg(&bad);
        let stderr = rejected(&["solve", "othello", "--file", path]);
        assert!(stderr.contains(&format!("{path} line 2: ")), "{stderr}");
        assert!(stderr.contains(expected), "{field}: {stderr}");
    }
}

/// A built-in suite says its game: `--game` defaults to it, and a different
/// `--game` is an error. `--algo` is `--algos`' and `--algorithm`'s alias.
#[test]
fn a_suite_name_implies_its_game() {
    let dir = TempDir::new("suite");
    let out = success(&[
        "bench",
        "--suite",
        "chess-tiny",
        "--algo",
        "serial",
        "--threads",
        "1",
        "--runs",
        "1",
        "--quiet",
        "--out",
        dir.arg(),
    ]);
    assert!(out.contains("chess-tiny"), "{out}");
    let stderr = rejected(&["bench", "--game", "othello", "--suite", "chess-tiny"]);
    assert!(stderr.contains("is a chess suite, not othello"), "{stderr}");
    let stderr = rejected(&["selfplay", "--game", "othello", "--suite", "synthetic-tiny"]);
    assert!(
        stderr.contains("is a synthetic suite, not othello"),
        "{stderr}"
    );

    // Synthetic games end with a leaf's value, not +1/0/-1: the footer says so.
    let out = success(&[
        "selfplay",
        "--suite",
        "synthetic-tiny",
        "--depth",
        "2",
        "-n",
        "1",
    ]);
    let footer = out.lines().last().unwrap();
    assert!(footer.contains("the value of the leaf"), "{out}");
    assert!(!footer.contains("+1"), "{out}");

    let value = json(&[
        "solve", "othello", "--algo", "dts", "-t", "2", "-p", ENDGAME_O, "--json",
    ]);
    assert_eq!(value["score"], exact_score(ENDGAME_O));
    let value = json(&[
        "search", "othello", "--algo", "dts", "-t", "2", "--depth", "3", "--json",
    ]);
    assert_eq!(value["algorithm"], "dts");
}
