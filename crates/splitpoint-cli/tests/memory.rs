//! A transposition table the machine cannot give: every command that takes
//! `--hash` answers with status 2 and one line, and every protocol answers
//! with its remark and goes on searching with the table it had.
//!
//! The engine runs under an address-space limit (`ulimit -v`, Linux), so a
//! size the command line and the protocols accept cannot be allocated on any
//! machine: without the limit, a lazily zeroed table of a few GiB would
//! simply succeed.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// The address space the engine may use, in KiB: 2 GiB, plenty for the
/// engine with a small table.
const LIMIT_KIB: u64 = 2 << 20;
/// A table size every front end accepts that cannot fit in [`LIMIT_KIB`].
const TOO_MUCH_MIB: &str = "4096";
/// Long enough for a debug build on a busy machine, short enough to fail.
const PATIENCE: Duration = Duration::from_secs(60);

/// The binary under the address-space limit, with `args`.
fn limited(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_splitpoint"))
        .args(args);
    command
}

fn run_limited(args: &[&str]) -> Output {
    limited(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs the binary")
}

const ENDGAME: &str = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOX-O--X-X------ O";

#[test]
fn a_table_too_large_is_one_line_and_status_2() {
    let out_dir = std::env::temp_dir().join(format!("splitpoint-memory-{}", std::process::id()));
    let out_dir = out_dir.to_str().expect("a UTF-8 temporary directory");
    let commands: [&[&str]; 6] = [
        &["search", "chess", "--depth", "3"],
        &[
            "search",
            "chess",
            "--depth",
            "3",
            "--tt",
            "locked",
            "--threads",
            "2",
        ],
        &["search", "othello", "--depth", "3", "--json"],
        &["solve", "othello", "--position", ENDGAME],
        &[
            "bench",
            "--game",
            "synthetic",
            "--runs",
            "1",
            "--threads",
            "1",
            "--out",
            out_dir,
        ],
        &["selfplay", "--openings", "1", "--depth", "2"],
    ];
    for args in commands {
        // The limit alone breaks nothing: the default table fits.
        if args[0] == "search" {
            let out = run_limited(args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{args:?} under the limit: {stderr}");
        }
        let args = [args, &["--hash", TOO_MUCH_MIB]].concat();
        let out = run_limited(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("splitpoint: ")
                && stderr.contains(&format!(
                    "cannot allocate a transposition table of {TOO_MUCH_MIB} MiB"
                )),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    }
    let _ = std::fs::remove_dir_all(out_dir);
}

/// A protocol engine under the limit: its input, and its output lines
/// through a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and read, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start(protocol: &str) -> Engine {
        let mut child = limited(&[protocol])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sh runs the binary");
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

    /// Lines up to and including the first that `done` accepts.
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
                    "no answer in time (or the engine died); transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Closes the input; the engine must exit by itself, successfully.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(
                    status.success(),
                    "exit status {status}; transcript:\n{}",
                    self.transcript.join("\n")
                );
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not exit");
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

/// The remark about the table that could not be allocated, among `lines`.
fn remarks(lines: &[String], prefix: &str) -> usize {
    let text = format!("cannot allocate a transposition table of {TOO_MUCH_MIB} MiB");
    lines
        .iter()
        .filter(|l| l.starts_with(prefix) && l.contains(&text) && l.contains("keeping 16 MiB"))
        .count()
}

#[test]
fn uci_keeps_its_table_when_a_hash_cannot_be_allocated() {
    let mut engine = Engine::start("uci");
    engine.send("uci");
    engine.until(|l| l == "uciok");
    engine.send(&format!("setoption name Hash value {TOO_MUCH_MIB}"));
    engine.send("isready");
    let lines = engine.until(|l| l == "readyok");
    assert_eq!(remarks(&lines, "info string "), 1, "{lines:?}");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert_ne!(lines.last().map(String::as_str), Some("bestmove 0000"));
    // A new variant's session starts with the table in force, not the one
    // that failed: no second remark.
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.send("isready");
    engine.until(|l| l == "readyok");
    engine.send("go depth 2");
    engine.until(|l| l.starts_with("bestmove "));
    assert_eq!(
        remarks(&engine.transcript, ""),
        1,
        "{:?}",
        engine.transcript
    );
    engine.finish();
}

#[test]
fn ucci_keeps_its_table_when_a_hashsize_cannot_be_allocated() {
    let mut engine = Engine::start("ucci");
    engine.send("ucci");
    engine.until(|l| l == "ucciok");
    engine.send(&format!("setoption hashsize {TOO_MUCH_MIB}"));
    engine.send("isready");
    let lines = engine.until(|l| l == "readyok");
    assert_eq!(remarks(&lines, "info string "), 1, "{lines:?}");
    engine.send("position startpos");
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove ") || l == "nobestmove");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    engine.finish();
}

#[test]
fn hub_keeps_its_table_when_a_hash_cannot_be_allocated() {
    let mut engine = Engine::start("hub");
    engine.send("hub");
    engine.until(|l| l == "wait");
    engine.send(&format!("set-param name=hash value={TOO_MUCH_MIB}"));
    engine.send("init");
    engine.until(|l| l == "ready");
    engine.send("ping");
    engine.until(|l| l == "pong");
    let transcript = &engine.transcript;
    assert_eq!(remarks(transcript, "error message=\""), 1, "{transcript:?}");
    engine.send("pos pos=start");
    engine.send("level depth=2");
    engine.send("go think");
    let lines = engine.until(|l| l.starts_with("done "));
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
    engine.finish();
}
