//! `splitpoint uci` as a GUI meets it: a live session over the binary's
//! standard input and output, every wait bounded so a hang fails the test.

use std::io::Write;
use std::time::{Duration, Instant};

use splitpoint::Game;
use splitpoint_games::chess::Chess;

mod common;
use common::Engine;
use common::run::{splitpoint, success};

/// `splitpoint uci`.
fn start() -> Engine {
    Engine::start(&["uci"])
}

/// `splitpoint uci` after `uci`: the engine and its lines up to `uciok`.
fn start_and_greet() -> (Engine, Vec<String>) {
    let mut engine = start();
    let hello = engine.ask("uci", "uciok");
    (engine, hello)
}

fn is_legal(fen_and_moves: &str, mv: &str) -> bool {
    let mut words = fen_and_moves.split_whitespace();
    let mut pos = Chess::start();
    if words.next() == Some("fen") {
        let fen: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
        pos = Chess::parse_position(&fen.join(" ")).unwrap();
    } else {
        words.next(); // "moves"
    }
    for m in words {
        pos = pos.play(pos.parse_move(m).unwrap());
    }
    pos.parse_move(mv).is_ok()
}

#[test]
fn handshake_position_go_depth() {
    let (mut engine, hello) = start_and_greet();
    assert!(
        hello.iter().any(|l| l.starts_with("id name splitpoint")),
        "{hello:?}"
    );
    for option in ["Threads", "Hash", "Algorithm", "Exact"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {hello:?}"
        );
    }
    assert!(
        hello.iter().any(|l| l.contains("var ybw-strong")),
        "{hello:?}"
    );
    engine.ready();
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    engine.send("go depth 4");
    let (best, lines) = engine.bestmove();
    assert!(is_legal("startpos moves e2e4 e7e5 g1f3", &best), "{best}");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (depth, info) in (1..).zip(&infos) {
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[2], depth.to_string(), "{info}");
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(words.contains(&key), "{key} missing: {info}");
        }
    }
    // A mate in one, from a FEN.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go depth 3");
    let (best, lines) = engine.bestmove();
    assert_eq!(best, "a1a8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    engine.send("quit");
    engine.finish();
}

#[test]
fn go_infinite_then_stop_and_isready_during_search() {
    let mut engine = start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.until(|l| l.starts_with("info depth 2 "));
    engine.ready();
    let start = Instant::now();
    engine.send("stop");
    let (best, _) = engine.bestmove();
    assert!(is_legal("startpos", &best), "{best}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "stop took {:?}",
        start.elapsed()
    );
    // Immediately a new search with other threads and algorithm.
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Algorithm value root-split");
    engine.send("setoption name Hash value 8");
    engine.ready();
    engine.send("go movetime 200");
    let (best, _) = engine.bestmove();
    assert!(is_legal("startpos", &best), "{best}");
    // A stop before the search has begun still ends it.
    engine.send("go infinite");
    engine.send("stop");
    let (best, _) = engine.bestmove();
    assert!(is_legal("startpos", &best), "{best}");
    engine.finish();
}

#[test]
fn garbage_is_answered_with_info_string() {
    let mut engine = start();
    for (command, answer) in [
        ("hello world", "info string unknown command"),
        ("setoption name Threads value lots", "info string Threads:"),
        (
            "setoption name Algorithm value fastest",
            "info string Algorithm:",
        ),
        (
            "setoption name Colour value blue",
            "info string unknown option",
        ),
        ("setoption", "info string setoption needs 'name'"),
        (
            "position fen this is not a fen",
            "info string position ignored",
        ),
        ("position", "info string position needs"),
        (
            "position startpos moves e2e4 e2e4",
            "info string moves from 'e2e4' on ignored",
        ),
        ("go depth many", "info string go:"),
        ("go sideways 3", "info string go:"),
    ] {
        engine.send(command);
        let lines = engine.until(|l| l.starts_with("info string"));
        assert!(
            lines.last().is_some_and(|l| l.starts_with(answer)),
            "{command}: {lines:?}"
        );
    }
    // Binary junk and a very long line neither crash nor hang the engine.
    engine
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"\xff\xfe\x00garbage\n")
        .unwrap();
    engine.until(|l| l.starts_with("info string unknown command"));
    engine.send(&"x".repeat(100_000));
    engine.until(|l| l.starts_with("info string unknown command"));
    // The position after the bad move stands at e2e4; the engine still plays.
    engine.send("position startpos moves e2e4 e2e4");
    engine.until(|l| l.starts_with("info string"));
    engine.send("go depth 2");
    let (best, _) = engine.bestmove();
    assert!(is_legal("startpos moves e2e4", &best), "{best}");
    engine.ready();
    // End of input is quit, even mid-search.
    engine.send("go infinite");
    engine.until(|l| l.starts_with("info depth 1 "));
    engine.finish();
}

/// `bench` in a session prints the build signature of its game: the same
/// node count as `splitpoint bench --signature --game chess|xiangqi`,
/// whatever the session's options.
#[test]
fn bench_prints_the_signature_of_the_sessions_game() {
    let signature = |game: &str| -> String {
        let stdout = success(&["bench", "--signature", "--game", game]);
        stdout.lines().last().expect("a last line").to_string()
    };
    let mut engine = start();
    engine.send("setoption name Hash value 1");
    engine.send("setoption name Threads value 2");
    engine.send("bench");
    let chess = engine.until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(chess.last().unwrap(), &signature("chess"), "{chess:?}");
    assert!(chess.iter().any(|l| l.starts_with("Nodes/second: ")));
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.send("bench");
    let xiangqi = engine.until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(
        xiangqi.last().unwrap(),
        &signature("xiangqi"),
        "{xiangqi:?}"
    );
    assert_ne!(chess.last(), xiangqi.last());
    engine.finish();
}

/// One set of limits: the Hash and Threads options offer what the command
/// line accepts (the protocols once capped Hash at 8192 MiB, the command
/// line at 65536).
#[test]
fn the_options_offer_the_command_lines_limits() {
    let (engine, hello) = start_and_greet();
    let max_of = |option: &str| -> u64 {
        let line = hello
            .iter()
            .find(|l| l.starts_with(&format!("option name {option} type spin")))
            .unwrap_or_else(|| panic!("no {option} option: {hello:?}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "max").expect("a max");
        words[at + 1].parse().expect("a number")
    };
    let (hash, threads) = (max_of("Hash"), max_of("Threads"));
    engine.finish();
    let search = |flag: &str, value: u64| {
        splitpoint(&[
            "search",
            "othello",
            "--depth",
            "1",
            flag,
            &value.to_string(),
        ])
    };
    for (flag, max) in [("--hash", hash), ("--threads", threads)] {
        let over = search(flag, max + 1);
        assert_eq!(over.status.code(), Some(2), "{flag} {}", max + 1);
        let stderr = String::from_utf8_lossy(&over.stderr);
        assert!(stderr.contains(&max.to_string()), "{flag}: {stderr}");
    }
    // The largest allowed is accepted (the table is zeroed lazily; a
    // machine that cannot give it says so in one line, status 2).
    let at_max = search("--threads", threads);
    assert!(at_max.status.success(), "{at_max:?}");
}

/// MultiPV, searchmoves, Ponder, Move Overhead and Skill Level, as a
/// player's GUI sets them.
#[test]
fn players_options_shape_the_answer() {
    let (mut engine, hello) = start_and_greet();
    for declared in [
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(hello.iter().any(|l| l == declared), "{declared}: {hello:?}");
    }
    // Three lines at depth 3, each with its own first move; the last report
    // of each (the final ranking) is ordered best first, and the first
    // line's move is played.
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 3");
    let (best, lines) = engine.bestmove();
    let (firsts, scores): (Vec<&str>, Vec<i64>) = (1..=3)
        .map(|n| {
            let tag = format!(" multipv {n} ");
            let line = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth 3 ") && l.contains(&tag))
                .unwrap_or_else(|| panic!("no{tag}line: {lines:?}"));
            let word_after = |key: &str| line.split(key).nth(1).unwrap().split(' ').next().unwrap();
            (
                word_after(" pv "),
                word_after(" score cp ").parse::<i64>().unwrap(),
            )
        })
        .unzip();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{lines:?}"
    );
    assert!(
        scores[0] >= scores[1] && scores[1] >= scores[2],
        "{lines:?}"
    );
    assert_eq!(best, firsts[0], "{lines:?}");

    // searchmoves: one of the legal moves named; the illegal one is said.
    engine.send("setoption name MultiPV value 1");
    engine.send("go depth 3 searchmoves a2a3 h2h4 e2e5");
    let (best, lines) = engine.bestmove();
    assert!(["a2a3", "h2h4"].contains(&best.as_str()), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string searchmoves: 'e2e5' left out")),
        "{lines:?}"
    );

    // Ponder: the reply to ponder on is named, and only when asked for.
    engine.send("setoption name Ponder value true");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove "));
    let answer = lines.last().unwrap();
    let words: Vec<&str> = answer.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{answer}");
    assert_eq!(words[2], "ponder", "{answer}");
    assert!(
        is_legal(&format!("startpos moves {}", words[1]), words[3]),
        "{answer}"
    );
    engine.send("setoption name Ponder value false");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove "));
    assert!(!lines.last().unwrap().contains("ponder"), "{lines:?}");

    // Skill Level 0: one ply, whatever the depth asked.
    engine.send("setoption name Skill Level value 0");
    engine.send("go depth 6");
    let (_, lines) = engine.bestmove();
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!depths.is_empty(), "{lines:?}");
    assert!(
        depths.iter().all(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );

    // Move Overhead: a bounded number of milliseconds.
    engine.send("setoption name Move Overhead value 100");
    engine.send("setoption name Move Overhead value 9999999");
    engine.send("isready");
    let lines = engine.until(|l| l == "readyok");
    assert_eq!(
        lines,
        [
            "info string Move Overhead: '9999999' is not a number from 0 to 5000",
            "readyok"
        ]
    );
    engine.finish();
}
