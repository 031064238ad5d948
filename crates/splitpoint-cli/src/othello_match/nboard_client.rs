//! An NBoard client: another Othello engine (Edax, NTest, this program's
//! `nboard`) run as a child process and spoken to over its standard input
//! and output, as the NBoard GUI would.
//!
//! A thread reads the engine's lines into a channel, so that every wait has
//! a deadline: an engine that hangs or dies ends the match with a message
//! instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use splitpoint_games::othello::{Othello, OthelloMove};

use crate::match_cmd::{end_engine, write_failed};
use crate::nboard::{board_text, legal_move};

/// How long an engine may take to answer the handshake's `ping`.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// A running NBoard engine searching every move to a fixed depth.
pub struct NboardEngine {
    /// The name from `set myname`, else the program's.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    /// Numbers the pings, so that a late `pong` is not taken for a new one.
    pings: u32,
}

impl NboardEngine {
    /// Starts `command` (a program and its arguments, split at white space),
    /// says `nboard 1` and `set depth <depth>`, and waits for the `pong`
    /// to a `ping`.
    ///
    /// # Errors
    /// A message when the program cannot start, dies, or does not answer
    /// within 30 s.
    pub fn start(command: &str, depth: i32) -> Result<Self, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an empty command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no pipe to the engine")?;
        let stdout = child.stdout.take().ok_or("no pipe from the engine")?;
        let (send, lines) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = NboardEngine {
            name: program.to_string(),
            child,
            stdin,
            lines,
            reader: Some(reader),
            pings: 0,
        };
        // Version 1: what Edax insists on; later versions accept it.
        engine.send("nboard 1")?;
        engine.send(&format!("set depth {depth}"))?;
        engine.ping()?;
        Ok(engine)
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| write_failed(&self.name, line, &e))
    }

    /// The next line, waiting until `deadline`; `set myname` renames the
    /// engine on the way.
    fn line_until(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match self.lines.recv_timeout(left) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("{}: no '{waiting_for}' in time", self.name));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!(
                    "{}: the engine exited while the match waited for '{waiting_for}'",
                    self.name
                ));
            }
        };
        if let Some(name) = line.strip_prefix("set myname ") {
            self.name = name.trim().to_string();
        }
        Ok(line)
    }

    /// `ping N`, then waits for `pong N`.
    fn ping(&mut self) -> Result<(), String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line_until(deadline, &pong)?.trim() != pong {}
        Ok(())
    }

    /// The engine's move in `pos`, given as a game starting there
    /// (`set game` with its board, then `go`), within `limit`.
    ///
    /// # Errors
    /// A message when the engine answers late, not at all, or with a move
    /// that is not legal in `pos`.
    pub fn choose(&mut self, pos: &Othello, limit: Duration) -> Result<OthelloMove, String> {
        self.send(&format!(
            "set game (;GM[Othello]PC[splitpoint]TY[8]BO[{}];)",
            board_text(pos)
        ))?;
        self.send("go")?;
        let deadline = Instant::now() + limit;
        loop {
            let line = self.line_until(deadline, "=== <move>")?;
            let Some(answer) = line.strip_prefix("===") else {
                continue;
            };
            // Version 1 spaces the move from its evaluation, version 2
            // joins them by '/'.
            let text = answer.split_whitespace().next().unwrap_or("");
            let text = text.split('/').next().unwrap_or("");
            return legal_move(pos, text).map_err(|e| format!("{}: '{line}': {e}", self.name));
        }
    }
}

impl Drop for NboardEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        end_engine(&mut self.child, self.reader.take());
    }
}
