//! What the command-line tests share: an engine process driven line by
//! line, every wait bounded so a hang fails the test; and (`run`) the binary
//! run to its end.
#![allow(dead_code)]

pub mod run;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for a debug build on a busy machine, short enough to fail.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine: its input, and its output lines through a channel.
pub struct Engine {
    child: Child,
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Runs `splitpoint ARGS…` (a protocol session) as an engine.
    pub fn start(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_splitpoint"));
        command.args(args);
        Engine::spawn(command)
    }

    /// Runs `command` with piped input and output.
    pub fn spawn(mut command: Command) -> Engine {
        let mut child = command
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

    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{command}").expect("the engine reads");
        stdin.flush().expect("the engine reads");
        self.transcript.push(format!("> {command}"));
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
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
    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until(|l| l.starts_with("bestmove "));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_default()
            .to_string();
        (best, lines)
    }

    /// Sends `commands`; the lines up to and including the first one for
    /// which `done` holds.
    pub fn run(&mut self, commands: &[&str], done: impl Fn(&str) -> bool) -> Vec<String> {
        for command in commands {
            self.send(command);
        }
        self.until(done)
    }

    /// Sends `command`; the lines up to and including the line `answer`.
    pub fn ask(&mut self, command: &str, answer: &str) -> Vec<String> {
        self.run(&[command], |l| l == answer)
    }

    pub fn ready(&mut self) {
        self.ask("isready", "readyok");
    }

    /// Closes the input and waits for the process to exit by itself.
    pub fn finish(mut self) {
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
