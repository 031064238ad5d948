//! A transposition table the machine cannot give: every command that takes
//! `--hash` answers with status 2 and one line, and every protocol answers
//! with its remark and goes on searching with the table it had.
//!
//! The engine runs under an address-space limit (`ulimit -v`, Linux), so a
//! size the command line and the protocols accept cannot be allocated on any
//! machine: without the limit, a lazily zeroed table of a few GiB would
//! simply succeed.
#![cfg(target_os = "linux")]

mod common;
use common::Engine;

use std::process::{Command, Output, Stdio};

/// The address space the engine may use, in KiB: 2 GiB, plenty for the
/// engine with a small table.
const LIMIT_KIB: u64 = 2 << 20;
/// A table size every front end accepts that cannot fit in [`LIMIT_KIB`].
const TOO_MUCH_MIB: &str = "4096";

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

/// A protocol engine under the limit.
fn start(protocol: &str) -> Engine {
    Engine::spawn(limited(&[protocol]))
}

/// Starts `protocol`, greets it (`hello` until `ready`), asks for a table
/// too large with `set`, and returns the engine with the lines up to the
/// answer of `ping` (`pong` starts that answer).
fn ask_too_much(
    protocol: &str,
    (hello, ready): (&str, &str),
    set: &str,
    (ping, pong): (&str, &str),
) -> (Engine, Vec<String>) {
    let mut engine = start(protocol);
    engine.send(hello);
    engine.until(|l| l == ready);
    engine.send(set);
    engine.send(ping);
    let lines = engine.until(|l| l == pong);
    (engine, lines)
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
    let (mut engine, lines) = ask_too_much(
        "uci",
        ("uci", "uciok"),
        &format!("setoption name Hash value {TOO_MUCH_MIB}"),
        ("isready", "readyok"),
    );
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
    let (mut engine, lines) = ask_too_much(
        "ucci",
        ("ucci", "ucciok"),
        &format!("setoption hashsize {TOO_MUCH_MIB}"),
        ("isready", "readyok"),
    );
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
    let (mut engine, _) = ask_too_much(
        "hub",
        ("hub", "wait"),
        &format!("set-param name=hash value={TOO_MUCH_MIB}"),
        ("init", "ready"),
    );
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
