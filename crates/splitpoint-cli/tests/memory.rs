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
use common::run::{ENDGAME_O, TempDir, status_2_one_line};

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

#[test]
fn a_table_too_large_is_one_line_and_status_2() {
    let dir = TempDir::new("memory");
    let out_dir = dir.arg();
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
        &["solve", "othello", "--position", ENDGAME_O],
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
        let stderr = status_2_one_line(&format!("{args:?}"), &out);
        assert!(
            stderr.starts_with("splitpoint: ")
                && stderr.contains(&format!(
                    "cannot allocate a transposition table of {TOO_MUCH_MIB} MiB"
                )),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    }
}

/// Starts `protocol` under the limit, greets it (`hello` until `ready`),
/// asks for a table too large with `set` (the size appended), and returns
/// the engine with the lines up to the answer of `ping` (the line `pong`).
fn ask_too_much(
    protocol: &str,
    (hello, ready): (&str, &str),
    set: &str,
    (ping, pong): (&str, &str),
) -> (Engine, Vec<String>) {
    let mut engine = Engine::spawn(limited(&[protocol]));
    engine.ask(hello, ready);
    engine.send(&format!("{set}{TOO_MUCH_MIB}"));
    let lines = engine.ask(ping, pong);
    (engine, lines)
}

/// [`ask_too_much`] for UCI and UCCI, which answer `isready` and remark in
/// an `info string`: the remark is made once, before `readyok`.
fn ask_too_much_by_info_string(protocol: &str, hello: (&str, &str), set: &str) -> Engine {
    let (engine, lines) = ask_too_much(protocol, hello, set, ("isready", "readyok"));
    assert_eq!(remarks(&lines, "info string "), 1, "{lines:?}");
    engine
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
    let mut engine =
        ask_too_much_by_info_string("uci", ("uci", "uciok"), "setoption name Hash value ");
    let go = ["position startpos moves e2e4", "go depth 2"];
    let lines = engine.run(&go, |l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert_ne!(lines.last().map(String::as_str), Some("bestmove 0000"));
    // A new variant's session starts with the table in force, not the one
    // that failed: no second remark.
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.ready();
    engine.run(&["go depth 2"], |l| l.starts_with("bestmove "));
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
    let mut engine = ask_too_much_by_info_string("ucci", ("ucci", "ucciok"), "setoption hashsize ");
    let go = ["position startpos", "go depth 2"];
    let lines = engine.run(&go, |l| l.starts_with("bestmove ") || l == "nobestmove");
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
        "set-param name=hash value=",
        ("init", "ready"),
    );
    engine.ask("ping", "pong");
    let transcript = &engine.transcript;
    assert_eq!(remarks(transcript, "error message=\""), 1, "{transcript:?}");
    let go = ["pos pos=start", "level depth=2", "go think"];
    let lines = engine.run(&go, |l| l.starts_with("done "));
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
    engine.finish();
}
