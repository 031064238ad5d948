//! What the engine protocols share (`uci` for chess and xiangqi, `ucci` for
//! xiangqi, `hub` for draughts): a search thread that owns the [`Engine`](splitpoint::Engine),
//! the numbering that makes `stop` reliable, clock budgets, and how each game
//! reads and writes positions and moves in the protocols.
//!
//! Two threads. The **reader** (the caller's thread, in `uci.rs`, `ucci.rs`
//! or `hub.rs`) reads standard input, keeps the position and the options,
//! and answers at once whatever needs no engine. The **searcher** owns the
//! [`Engine`](splitpoint::Engine) and takes jobs (`go`, option changes, new game, `isready` or
//! `ping` when idle) in order from a channel, so an option sent during a
//! search waits for it to end.
//!
//! Stopping: searches are numbered as `go` issues them, and `stop` stops every
//! search issued so far: the reader records the number and raises the
//! engine's [`StopHandle`](splitpoint::StopHandle) once the running search has completed an
//! iteration. A search clears the engine's stop flag when it starts, so a
//! `stop` that comes before the searcher has begun would be lost; the searcher
//! therefore also compares its number with the record after every completed
//! iteration (the first takes microseconds) and stops itself. So every answer
//! is a searched move, never the first legal one of a search stopped at once. A
//! search that must wait for `stop` (infinite, ponder) and ends by itself waits
//! before it answers `bestmove`. A `go` during a search stops that search
//! first; both answer. (Hub's `done` is UCI's `bestmove`.)
//!
//! The files: `session` (the searcher and its jobs), `options` (the options
//! every protocol offers, one table), `dialect` (each protocol's words for
//! what the engine says), `games` (positions and moves in the protocols),
//! `clock` (time budgets, and the pacing that bends them to the search);
//! [`read_commands`] is the one line reader.

mod clock;
mod dialect;
mod games;
mod options;
mod session;

use std::io::BufRead;
use std::time::Duration;

pub use clock::{Clock, DEFAULT_MOVE_OVERHEAD};
pub use dialect::{Dialect, Output, hub_score_text, score_text};
pub use games::{ProtocolGame, first_move, play_game, position_and_moves, start};
pub use options::{AlgorithmChoice, EngineOption, Settings};
pub use session::{Go, Session};

/// The engine's name, as UCI's and UCCI's `id name` give it.
pub const NAME: &str = concat!("splitpoint ", env!("CARGO_PKG_VERSION"));
/// The name and the version apart, as Hub's `id` gives them.
pub const ENGINE: &str = "splitpoint";
/// Who wrote it, as every protocol's `id` gives it.
pub const AUTHORS: &str = "the splitpoint developers";
/// The engine's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The Threads and Hash options' upper bounds: the command line's.
pub use crate::{MAX_HASH_MIB, MAX_THREADS};
/// The table size until an option changes it, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Reads `input` a line at a time, trimmed, into `command` until it returns
/// `false` (`quit`) or the input ends; returns whether `command` ended it.
/// Bytes, not `lines()`: a line that is not UTF-8 is one bad command, not
/// the end of the session.
pub fn read_commands(input: &mut impl BufRead, mut command: impl FnMut(&str) -> bool) -> bool {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
        if !command(String::from_utf8_lossy(&bytes).trim()) {
            return true;
        }
    }
}

/// Nodes per second, without dividing by zero.
pub fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// At most 60 characters of a user's text, for echoing it back (after the
/// engine's own words: [`Output::line`] escapes its control characters).
pub fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

/// The lines a protocol session writes when `input` is its whole input (for
/// the protocols' session tests).
#[cfg(test)]
pub fn transcript(
    session: fn(std::io::Cursor<Vec<u8>>, Box<dyn std::io::Write + Send>),
    input: &str,
) -> Vec<String> {
    /// A `Write` the test can read after the session.
    #[derive(Clone, Default)]
    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    let sink = Sink::default();
    session(
        std::io::Cursor::new(input.as_bytes().to_vec()),
        Box::new(sink.clone()),
    );
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Asserts that some line of a session's transcript starts with `prefix`.
#[cfg(test)]
#[track_caller]
pub fn assert_has_line(lines: &[String], prefix: &str) {
    assert!(
        lines.iter().any(|l| l.starts_with(prefix)),
        "no line starts with {prefix:?}:\n{}",
        lines.join("\n")
    );
}

/// Asserts that the last line of a session's transcript starts with
/// `prefix` (the answer to a search the end of input ended).
#[cfg(test)]
#[track_caller]
pub fn assert_last_line(lines: &[String], prefix: &str) {
    assert_has_line(&lines[lines.len().saturating_sub(1)..], prefix);
}
