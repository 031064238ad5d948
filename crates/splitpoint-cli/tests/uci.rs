//! `splitpoint uci` as a GUI meets it: a live session over the binary's
//! standard input and output, every wait bounded so a hang fails the test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use splitpoint::Game;
use splitpoint_games::chess::Chess;

/// Long enough for a debug build on a busy machine, short enough to fail.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine: its input, and its output lines through a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{command}").expect("the engine reads");
        stdin.flush().expect("the engine reads");
        self.transcript.push(format!("> {command}"));
    }

    /// Lines up to and including the first one for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(_) => panic!(
                    "no answer in time; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// The move of the next `bestmove` line, with the lines before it.
    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until(|l| l.starts_with("bestmove "));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_default()
            .to_string();
        (best, lines)
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }

    /// Closes the input and waits for the process to exit by itself.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit at end of input"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only a failed test leaves it running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.until(|l| l == "uciok");
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
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.until(|l| l.starts_with("info depth 2 "));
    engine.send("isready");
    engine.until(|l| l == "readyok");
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
    let mut engine = Engine::start();
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
