//! A UCI client: an engine run as a child process and spoken to over its
//! standard input and output, as a GUI or cutechess-cli would.
//!
//! A thread reads the engine's lines into a channel, so that every wait
//! (for `uciok`, `readyok`, `bestmove`) has a deadline: an engine that hangs
//! loses on time instead of hanging the match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// How to start an engine: the program, its arguments and the UCI options
/// to set once it has said `uciok`.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `(name, value)` pairs for `setoption`.
    pub options: Vec<(String, String)>,
    /// Where to write every line sent and received, if anywhere.
    pub log: Option<Log>,
}

/// A log of the traffic with the engines: one line each, the time since
/// the log began, `>` for what the match sent, `<` for what it received.
#[derive(Clone, Debug)]
pub struct Log {
    file: std::sync::Arc<std::sync::Mutex<std::fs::File>>,
    start: Instant,
    /// Which engine: 1 or 2.
    engine: usize,
}

impl Log {
    /// A log writing to `file`.
    pub fn new(file: std::fs::File) -> Self {
        Log {
            file: std::sync::Arc::new(std::sync::Mutex::new(file)),
            start: Instant::now(),
            engine: 0,
        }
    }

    /// The same log, for engine `engine`'s lines.
    pub fn for_engine(&self, engine: usize) -> Self {
        Log {
            engine,
            ..self.clone()
        }
    }

    fn write(&self, text: &str) {
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(
                f,
                "{:10.3} {} {text}",
                self.start.elapsed().as_secs_f64(),
                self.engine
            );
        }
    }
}

impl EngineSpec {
    /// The command line as one would type it.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What an engine said in answer to `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The `bestmove` text (`None` when the engine gave none in time).
    pub best_move: Option<String>,
    /// The last score it reported, centipawns from its own view (a mate
    /// as ±(100 000 − plies)).
    pub score: Option<i32>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// How long it took, from `go` to `bestmove`.
    pub elapsed: Duration,
}

/// A running engine.
pub struct UciEngine {
    spec: EngineSpec,
    /// The name from `id name`, else the program's.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
}

impl UciEngine {
    /// Starts the engine, says `uci`, sets the options and waits for
    /// `readyok`.
    ///
    /// # Errors
    /// A message when the program cannot start, dies, or does not answer
    /// the handshake within 30 s.
    pub fn start(spec: &EngineSpec) -> Result<Self, String> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.command_line()))?;
        let stdin = child.stdin.take().ok_or("no pipe to the engine")?;
        let stdout = child.stdout.take().ok_or("no pipe from the engine")?;
        let (send, lines) = mpsc::channel();
        let log = spec.log.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(log) = &log {
                    log.write(&format!("< {line}"));
                }
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            spec: spec.clone(),
            name: spec.program.clone(),
            child,
            stdin,
            lines,
            reader: Some(reader),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.line_until(deadline, "uciok")?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Starts the engine afresh (after it failed to stop in time).
    ///
    /// # Errors
    /// As [`UciEngine::start`].
    pub fn restart(&mut self) -> Result<(), String> {
        let spec = self.spec.clone();
        *self = UciEngine::start(&spec)?;
        Ok(())
    }

    /// Sends one line.
    ///
    /// # Errors
    /// A message when the engine has gone away.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(log) = &self.spec.log {
            log.write(&format!("> {line}"));
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| write_failed(&self.name, line, &e))
    }

    /// The next line, waiting until `deadline`.
    fn line_until(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{}: no '{waiting_for}' within {:.1} s",
                self.name,
                HANDSHAKE.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{}: the engine exited", self.name)),
        }
    }

    /// `isready`, then waits for `readyok`.
    ///
    /// # Errors
    /// A message when it does not come within 30 s.
    pub fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line_until(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// Sends `go …` and waits for `bestmove` until `limit` has passed.
    /// When it has, says `stop` and waits a little more for the move (which
    /// comes too late to count: `best_move` is then `None`); an engine that
    /// still does not answer is restarted.
    ///
    /// # Errors
    /// A message when the engine has died or cannot be restarted.
    pub fn go(&mut self, go: &str, limit: Duration) -> Result<Reply, String> {
        self.send(go)?;
        let start = Instant::now();
        let deadline = start + limit;
        let mut reply = Reply {
            best_move: None,
            score: None,
            depth: None,
            elapsed: Duration::ZERO,
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        reply.elapsed = start.elapsed();
                        reply.best_move = rest.split_whitespace().next().map(str::to_string);
                        return Ok(reply);
                    }
                    if line.starts_with("info") {
                        read_info(&line, &mut reply);
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited during a search", self.name));
                }
            }
        }
        reply.elapsed = start.elapsed();
        // Out of time: the move no longer counts, but the engine must be
        // quiet before the next game.
        self.send("stop")?;
        let grace = Instant::now() + Duration::from_secs(2);
        loop {
            let left = grace.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("bestmove") => return Ok(reply),
                Ok(_) => {}
                Err(_) => {
                    self.restart()?;
                    return Ok(reply);
                }
            }
        }
    }
}

/// Reads `score cp N` / `score mate N` and `depth N` from an info line.
fn read_info(line: &str, reply: &mut Reply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    // A bound is no score.
    if words
        .iter()
        .any(|&w| w == "lowerbound" || w == "upperbound")
    {
        return;
    }
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).and_then(|n| n.parse::<i32>().ok());
        match (*w, words.get(i + 1)) {
            ("depth", _) => {
                if let Some(d) = next {
                    reply.depth = Some(d.max(0) as u32);
                }
            }
            ("score", Some(&"cp")) => {
                reply.score = words.get(i + 2).and_then(|n| n.parse().ok());
            }
            ("score", Some(&"mate")) => {
                reply.score = words
                    .get(i + 2)
                    .and_then(|n| n.parse::<i32>().ok())
                    .map(|m| if m > 0 { 100_000 - m } else { -100_000 - m });
            }
            _ => {}
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        end_engine(&mut self.child, self.reader.take());
    }
}

/// Why `line` could not be sent to the engine `name`: a closed pipe means
/// the engine has exited, which the reader may not have seen yet.
pub(crate) fn write_failed(name: &str, line: &str, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        format!("{name}: the engine exited before '{line}' could be sent")
    } else {
        format!("{name}: cannot write to the engine: {e}")
    }
}

/// Ends an engine's process once it has been told to quit: waits up to 2 s
/// for it to exit, kills it if it has not, and joins the thread reading
/// its lines.
pub(crate) fn end_engine(child: &mut Child, reader: Option<JoinHandle<()>>) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
        let _ = child.wait();
    }
    if let Some(reader) = reader {
        let _ = reader.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_scores_and_depths() {
        let mut reply = Reply {
            best_move: None,
            score: None,
            depth: None,
            elapsed: Duration::ZERO,
        };
        read_info(
            "info depth 7 seldepth 12 score cp -35 nodes 1000 pv e2e4",
            &mut reply,
        );
        assert_eq!((reply.score, reply.depth), (Some(-35), Some(7)));
        read_info("info depth 8 score cp 50 lowerbound", &mut reply);
        assert_eq!(reply.score, Some(-35));
        read_info("info depth 9 score mate 3 pv a1a8", &mut reply);
        assert_eq!(reply.score, Some(99_997));
        read_info("info depth 9 score mate -2", &mut reply);
        assert_eq!(reply.score, Some(-99_998));
        read_info("info string hello depth", &mut reply);
        assert_eq!(reply.depth, Some(9));
    }
}
