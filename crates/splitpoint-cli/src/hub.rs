//! `splitpoint hub`: the draughts engine behind the Hub protocol (version 2,
//! the protocol of the Scan engine and the Hub GUI).
//!
//! Every line is `command arg=value arg="value with spaces" flag …`. The GUI
//! sends `hub` (we answer `id`, one `param` per option, `wait`), `set-param
//! name=… value=…`, `init` (`ready`), then per search `pos pos=… [moves="…"]`,
//! `level …` and `go think|ponder|analyze`; during a search only `ping`
//! (`pong`), `stop` and `ponder-hit`. A search answers `info …` after each
//! iteration and `done move=… [ponder=…]` at the end. Positions are Hub's
//! 51 characters (or a PDN FEN); moves are Hub's (`32-28`, `28x19x23`: from,
//! to, then the captured pieces).
//!
//! As in `splitpoint uci`, two threads: the **reader** answers at once what
//! needs no engine (`hub`, `pos`, `level`, `stop`, `ping` during a search)
//! and queues the rest for the **searcher**, which owns the [`Engine`] and
//! runs jobs in order. Searches are numbered; `stop` stops every search
//! issued so far. `ponder-hit` ends a ponder search like `stop` (the answer
//! comes at once, from the deepest finished iteration). Nothing on input ends
//! the session but `quit` or the end of input; a line that cannot be
//! understood is answered with `error message="…"` and ignored.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use splitpoint::{
    Algorithm, Engine, Game, Limits, MAX_DEPTH, MoveList, Outcome, SearchResult, StopHandle, WIN,
    WIN_BOUND,
};
use splitpoint_games::draughts::{Draughts, DraughtsEval, Move, hub_move_text};

use crate::error::Result;

/// Play international draughts over the Hub protocol on standard input and output
///
/// Speaks Hub (version 2, as Scan 3 does), for draughts GUIs and tools
/// (Hub, pydraughts, …): `hub`, `set-param`, `init`, `pos`, `level`
/// (`depth`, `move-time`, `nodes`, `time`/`inc`/`moves`, `infinite`), `go
/// think|ponder|analyze`, `ping`, `stop`, `ponder-hit`, `new-game`, `quit`.
///
/// Parameters: threads, hash (MiB), algorithm (auto: serial with one thread,
/// ybw with more; or any parallel algorithm by name), exact (exact-mode
/// search).
#[derive(Args, Debug)]
#[command(after_help = "Example session (type the lines without '>'):
  > hub
  > set-param name=threads value=2
  > init
  > pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"
  > level move-time=1
  > go think
  ... info lines, then done move=28x19x23")]
pub struct HubArgs {}

/// The engine's name and version, as `id` gives them.
const NAME: &str = "splitpoint";
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The most threads the threads parameter allows.
const MAX_THREADS: usize = 256;
/// The hash parameter's bounds and default, in MiB.
const MAX_HASH_MIB: usize = 8192;
const DEFAULT_HASH_MIB: usize = 16;
/// Time kept back from every clock budget for the GUI's and the pipe's delays.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Moves still to play when the GUI does not say (`level moves=…`).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// Runs `splitpoint hub` on standard input and output.
pub fn run(_args: &HubArgs) -> Result<ExitCode> {
    session(io::stdin().lock(), Box::new(io::stdout()));
    Ok(ExitCode::SUCCESS)
}

/// Where the engine's lines go: shared by both threads, one line at a time,
/// flushed at once. Write errors are ignored: the GUI has gone, and the end
/// of input will end the session.
struct Output(Mutex<Box<dyn Write + Send>>);

impl Output {
    fn line(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    fn error(&self, text: &str) {
        self.line(&format!("error message=\"{}\"", text.replace('"', "'")));
    }
}

/// What the reader and the searcher share.
struct Shared {
    out: Output,
    /// The number of the last search `go` issued (written by the reader).
    issued: AtomicU64,
    /// The number of the last search that ended, stored just before its
    /// `done` (written by the searcher).
    finished: AtomicU64,
    /// Searches up to this number are to stop (`stop`, `ponder-hit`, `quit`).
    stop_upto: Mutex<u64>,
}

impl Shared {
    fn searching(&self) -> bool {
        self.finished.load(SeqCst) < self.issued.load(SeqCst)
    }

    fn stop_upto(&self) -> MutexGuard<'_, u64> {
        self.stop_upto.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stop_requested(&self, id: u64) -> bool {
        *self.stop_upto() >= id
    }
}

/// One search, as `go` asked for it.
struct Go {
    /// Its number: 1, 2, … in the order `go` issued them.
    id: u64,
    pos: Draughts,
    limits: Limits,
    /// Stop starting new iterations after this long (clock games).
    soft_limit: Option<Duration>,
}

/// The searcher's work, in order.
enum Job {
    Go(Box<Go>),
    Parallelism(Algorithm, usize),
    Hash(usize),
    Clear,
    /// Answer a line once every job before it is done (`ready`, `pong`).
    Say(&'static str),
}

/// The algorithm parameter's value: a name, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AlgorithmChoice {
    /// Serial with one thread, YBW with more (as `splitpoint search` does).
    Auto,
    Fixed(Algorithm),
}

impl AlgorithmChoice {
    fn resolve(self, threads: usize) -> Algorithm {
        match self {
            AlgorithmChoice::Fixed(a) => a,
            AlgorithmChoice::Auto if threads == 1 => Algorithm::Serial,
            AlgorithmChoice::Auto => Algorithm::Ybw { strong: false },
        }
    }
}

/// The search limit `level` set: Hub times are seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Level {
    depth: Option<i32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    /// Remaining time, increment, moves to the next time control.
    clock: Option<(Duration, Duration, Option<u32>)>,
}

impl Level {
    /// Reads `level`'s arguments; each `level` replaces the one before.
    fn parse(args: &[(String, String)]) -> std::result::Result<Level, String> {
        let mut level = Level::default();
        let (mut time, mut inc, mut moves) = (None, None, None);
        for (key, value) in args {
            let seconds = || -> std::result::Result<Duration, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite())
                    .map(|s| Duration::from_secs_f64(s.clamp(0.0, 1e9)))
                    .ok_or_else(|| format!("{key}: '{}' is not a number of seconds", clip(value)))
            };
            let count = || -> std::result::Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{key}: '{}' is not a whole number", clip(value)))
            };
            match key.as_str() {
                "depth" => level.depth = Some(count()?.clamp(1, MAX_DEPTH as u64) as i32),
                "nodes" => level.nodes = Some(count()?.max(1)),
                "move-time" => level.move_time = Some(seconds()?),
                "time" => time = Some(seconds()?),
                "inc" => inc = Some(seconds()?),
                "moves" => moves = Some(count()?.clamp(1, 1000) as u32),
                "infinite" => {}
                _ => return Err(format!("unknown level argument '{}'", clip(key))),
            }
        }
        if let Some(time) = time {
            level.clock = Some((time, inc.unwrap_or_default(), moves));
        }
        Ok(level)
    }

    /// The time to aim for on the clock: an even share of what is left (the
    /// increment, which Hub adds before the move, included) over the moves
    /// to go, never more than the clock holds less the overhead.
    fn budget(&self) -> Option<Duration> {
        let (time, inc, moves) = self.clock?;
        let total = time + inc;
        let cap = total.saturating_sub(MOVE_OVERHEAD).max(total / 4);
        let share = total / moves.unwrap_or(DEFAULT_MOVES_TO_GO);
        Some(share.min(cap).max(Duration::from_millis(1)))
    }

    /// The hard limits: depth, nodes, and the earlier of `move-time` and
    /// twice the clock budget (capped by the clock). A ponder or analysis
    /// search with no depth or node limit runs until `stop`.
    fn limits(&self, infinite: bool) -> Limits {
        let clock_limit = self.clock.map(|(time, inc, _)| {
            let total = time + inc;
            let budget = self.budget().unwrap_or_default();
            (budget * 2)
                .min(total.saturating_sub(MOVE_OVERHEAD).max(total / 4))
                .max(Duration::from_millis(1))
        });
        let movetime = match (self.move_time, clock_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let unlimited = self.depth.is_none() && self.nodes.is_none() && movetime.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: if infinite {
                None
            } else {
                movetime.or(unlimited.then_some(Duration::from_secs(1)))
            },
            ..Limits::default()
        }
    }
}

/// The reader's state.
struct Reader {
    shared: Arc<Shared>,
    jobs: Sender<Job>,
    stop: StopHandle,
    position: Draughts,
    level: Level,
    threads: usize,
    algorithm: AlgorithmChoice,
    exact: bool,
}

/// Runs one Hub session: reads commands from `input` until `quit` or its end,
/// writes the engine's lines to `output`. Returns when the searcher is done.
pub fn session(mut input: impl BufRead, output: Box<dyn Write + Send>) {
    let shared = Arc::new(Shared {
        out: Output(Mutex::new(output)),
        issued: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        stop_upto: Mutex::new(0),
    });
    let engine = Engine::new(DraughtsEval, DEFAULT_HASH_MIB);
    let (jobs, inbox) = mpsc::channel();
    let mut reader = Reader {
        shared: Arc::clone(&shared),
        jobs,
        stop: engine.stop_handle(),
        position: Draughts::start(),
        level: Level::default(),
        threads: 1,
        algorithm: AlgorithmChoice::Auto,
        exact: false,
    };
    let searcher = {
        let shared = Arc::clone(&shared);
        thread::Builder::new()
            .name("hub-searcher".into())
            .spawn(move || searcher(engine, &inbox, &shared))
    };
    let searcher = match searcher {
        Ok(handle) => handle,
        Err(e) => {
            shared
                .out
                .error(&format!("cannot start the search thread: {e}"));
            return;
        }
    };

    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        // Bytes, not `lines()`: a line that is not UTF-8 is one bad command,
        // not the end of the session.
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes);
        if !reader.command(line.trim()) {
            break;
        }
    }

    // `quit` or end of input: end any search (it still answers done), then
    // let the searcher drain its jobs and finish.
    reader.request_stop();
    drop(reader);
    let _ = searcher.join();
}

/// Splits a line's arguments: `key=value`, `key="value with spaces"`, or a
/// bare `flag` (value empty).
fn parse_args(text: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let mut args = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let key_end = rest.find([' ', '=']).unwrap_or(rest.len());
        let key = &rest[..key_end];
        rest = &rest[key_end..];
        let value = if let Some(after) = rest.strip_prefix('=') {
            if let Some(quoted) = after.strip_prefix('"') {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| format!("unterminated quote after '{}='", clip(key)))?;
                rest = &quoted[end + 1..];
                &quoted[..end]
            } else {
                let end = after.find(' ').unwrap_or(after.len());
                rest = &after[end..];
                &after[..end]
            }
        } else {
            ""
        };
        if key.is_empty() {
            return Err("an argument has no name".into());
        }
        args.push((key.to_string(), value.to_string()));
        rest = rest.trim_start();
    }
    Ok(args)
}

impl Reader {
    /// Handles one line; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        if command.is_empty() {
            return true;
        }
        let args = match parse_args(rest) {
            Ok(args) => args,
            Err(e) => {
                self.shared.out.error(&format!("{command} ignored: {e}"));
                return true;
            }
        };
        match command {
            "hub" => self.hub(),
            "set-param" => self.set_param(&args),
            "init" => self.send(Job::Say("ready")),
            "ping" => {
                if self.shared.searching() {
                    self.shared.out.line("pong");
                } else {
                    self.send(Job::Say("pong"));
                }
            }
            "new-game" => {
                self.position = Draughts::start();
                self.send(Job::Clear);
            }
            "pos" => self.pos(&args),
            "level" => match Level::parse(&args) {
                Ok(level) => self.level = level,
                Err(e) => self.shared.out.error(&format!("level ignored: {e}")),
            },
            "go" => self.go(&args),
            "stop" | "ponder-hit" => self.request_stop(),
            "quit" => return false,
            _ => self
                .shared
                .out
                .error(&format!("unknown command '{}'", clip(line))),
        }
        true
    }

    fn send(&self, job: Job) {
        if self.jobs.send(job).is_err() {
            self.shared.out.error("the search thread has stopped");
        }
    }

    fn hub(&self) {
        let out = &self.shared.out;
        out.line(&format!(
            "id name={NAME} version={VERSION} author=\"the splitpoint developers\""
        ));
        out.line("param name=variant value=normal type=enum values=\"normal\"");
        out.line(&format!(
            "param name=threads value={} type=int min=1 max={MAX_THREADS}",
            self.threads
        ));
        out.line(&format!(
            "param name=hash value={DEFAULT_HASH_MIB} type=int min=1 max={MAX_HASH_MIB}"
        ));
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        out.line(&format!(
            "param name=algorithm value=auto type=enum values=\"auto {}\"",
            names.join(" ")
        ));
        out.line(&format!("param name=exact value={} type=bool", self.exact));
        out.line("wait");
    }

    /// Asks every search issued so far to stop.
    fn request_stop(&self) {
        *self.shared.stop_upto() = self.shared.issued.load(SeqCst);
        if self.shared.searching() {
            self.stop.stop();
        }
    }

    /// `set-param name=NAME value=VALUE`; names are case-insensitive.
    fn set_param(&mut self, args: &[(String, String)]) {
        let get = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let out = &self.shared.out;
        let (Some(name), Some(value)) = (get("name"), get("value")) else {
            out.error("set-param needs name=… and value=…");
            return;
        };
        match name.to_ascii_lowercase().as_str() {
            "variant" if value == "normal" => {}
            "variant" => out.error(&format!(
                "variant: only 'normal' (international draughts), not '{}'",
                clip(value)
            )),
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                    self.threads = n;
                    self.send(Job::Parallelism(self.algorithm.resolve(n), n));
                }
                _ => out.error(&format!(
                    "threads: '{}' is not a number from 1 to {MAX_THREADS}",
                    clip(value)
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=MAX_HASH_MIB).contains(&mib) => self.send(Job::Hash(mib)),
                _ => out.error(&format!(
                    "hash: '{}' is not a number from 1 to {MAX_HASH_MIB}",
                    clip(value)
                )),
            },
            "algorithm" => {
                let choice = if value.eq_ignore_ascii_case("auto") {
                    Ok(AlgorithmChoice::Auto)
                } else {
                    value
                        .to_ascii_lowercase()
                        .parse()
                        .map(AlgorithmChoice::Fixed)
                };
                match choice {
                    Ok(choice) => {
                        self.algorithm = choice;
                        self.send(Job::Parallelism(choice.resolve(self.threads), self.threads));
                    }
                    Err(e) => out.error(&format!("algorithm: {e}")),
                }
            }
            "exact" => match value.to_ascii_lowercase().as_str() {
                "true" => self.exact = true,
                "false" => self.exact = false,
                _ => out.error(&format!("exact: '{}' is not true or false", clip(value))),
            },
            _ => out.error(&format!("unknown parameter '{}'", clip(name))),
        }
    }

    /// `pos pos=POSITION [moves="M …"]`. A bad position leaves the position
    /// as it was; a bad move ends the list there (the moves before it stand).
    fn pos(&mut self, args: &[(String, String)]) {
        let get = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let Some(text) = get("pos") else {
            self.shared.out.error("pos needs pos=…");
            return;
        };
        let mut pos = match Draughts::parse_position(text) {
            Ok(pos) => pos,
            Err(e) => {
                self.shared.out.error(&format!("pos ignored: {e}"));
                return;
            }
        };
        for word in get("moves").unwrap_or("").split_whitespace() {
            match pos.parse_move(word) {
                Ok(mv) => pos = pos.play(mv),
                Err(e) => {
                    self.shared.out.error(&format!(
                        "moves from '{}' on ignored: {}",
                        clip(word),
                        e.message
                    ));
                    break;
                }
            }
        }
        // The moves were the game: the search may now repeat a position of
        // them once without calling it a draw.
        pos.make_root();
        self.position = pos;
    }

    /// `go think|ponder|analyze`: a search of the current position at the
    /// current level. A `go` during a search stops that search first.
    fn go(&mut self, args: &[(String, String)]) {
        let mode = args.first().map_or("think", |(k, _)| k.as_str());
        let infinite = match mode {
            "think" => false,
            "ponder" | "analyze" => true,
            _ => {
                self.shared.out.error(&format!(
                    "go needs think, ponder or analyze, not '{}'",
                    clip(mode)
                ));
                return;
            }
        };
        if self.shared.searching() {
            self.request_stop();
        }
        let id = self.shared.issued.load(SeqCst) + 1;
        let mut limits = self.level.limits(infinite);
        if self.exact {
            limits = limits.exact();
        }
        let go = Go {
            id,
            pos: self.position.clone(),
            limits,
            soft_limit: (!infinite)
                .then(|| self.level.budget().map(|b| b / 2))
                .flatten(),
        };
        self.shared.issued.store(id, SeqCst);
        self.send(Job::Go(Box::new(go)));
    }
}

/// The searcher: runs jobs until the reader hangs up.
fn searcher(mut engine: Engine<Draughts, DraughtsEval>, inbox: &Receiver<Job>, shared: &Shared) {
    for job in inbox {
        match job {
            Job::Go(go) => search(&mut engine, &go, shared),
            Job::Parallelism(algorithm, threads) => engine.set_parallelism(algorithm, threads),
            Job::Hash(mib) => engine.set_hash(mib),
            Job::Clear => engine.clear(),
            Job::Say(line) => shared.out.line(line),
        }
    }
}

/// Runs one `go`: `info` after every iteration, then `done`.
fn search(engine: &mut Engine<Draughts, DraughtsEval>, go: &Go, shared: &Shared) {
    let stop = engine.stop_handle();
    let start = Instant::now();
    // A game already drawn goes on until the GUI says so: search it afresh.
    let root = if go.pos.outcome() == Some(Outcome::Draw) {
        let mut root = go.pos.without_history();
        root.make_root();
        root
    } else {
        go.pos.clone()
    };
    // A search asked to stop before it began still completes its first
    // iteration (microseconds), which gives the move.
    let result = engine.search_with(&root, &go.limits, |r| {
        shared.out.line(&info_line(&root, r));
        let out_of_time = go.soft_limit.is_some_and(|soft| start.elapsed() >= soft);
        if out_of_time || shared.stop_requested(go.id) {
            stop.stop();
        }
    });
    let best = result.best_move.or_else(|| {
        let mut moves = MoveList::new();
        root.generate_moves(&mut moves);
        moves.first().copied()
    });
    let ponder = (result.pv.first().copied() == best)
        .then(|| result.pv.get(1).copied())
        .flatten();
    // Free before answering: the GUI may send the next `go` at once.
    shared.finished.store(go.id, SeqCst);
    match (best, ponder) {
        (Some(mv), Some(reply)) => shared.out.line(&format!(
            "done move={} ponder={}",
            hub_move_text(mv),
            hub_move_text(reply)
        )),
        (Some(mv), None) => shared.out.line(&format!("done move={}", hub_move_text(mv))),
        // The GUI never asks from a finished game; answer the null move.
        (None, _) => shared.out.line("done move=0-0"),
    }
}

/// `info depth=… score=… nodes=… time=… nps=… pv="…"` for one completed
/// iteration: the score in men (a man is 1.00), a win `n` plies away as
/// `100 - n / 100` (pydraughts reads more than 90 as a win), time in seconds,
/// speed in millions of nodes per second as Scan gives it.
fn info_line(root: &Draughts, r: &SearchResult<Move>) -> String {
    let mut pv = Vec::new();
    let mut pos = root.clone();
    for &mv in &r.pv {
        pv.push(hub_move_text(mv));
        pos = pos.play(mv);
    }
    let seconds = r.elapsed.as_secs_f64();
    format!(
        "info depth={} score={} nodes={} time={seconds:.3} nps={:.2} pv=\"{}\"",
        r.depth,
        score_text(r.score),
        r.stats.nodes,
        r.stats.nodes as f64 / seconds.max(1e-3) / 1e6,
        pv.join(" ")
    )
}

/// The score in men, two decimals; decisive scores as ±(100 − plies / 100).
fn score_text(score: i32) -> String {
    let hundredths = if score >= WIN_BOUND {
        10_000 - (WIN - score)
    } else if score <= -WIN_BOUND {
        -10_000 + (WIN + score)
    } else {
        score
    };
    let sign = if hundredths < 0 { "-" } else { "" };
    let h = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", h / 100, h % 100)
}

/// At most 60 characters of a user's text, for echoing it back.
fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Write` the test can read after the session.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn run_session(input: &str) -> Vec<String> {
        let sink = Sink::default();
        session(
            io::Cursor::new(input.as_bytes().to_vec()),
            Box::new(sink.clone()),
        );
        let bytes = sink.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn arguments_split_with_quotes_and_flags() {
        let args = parse_args(r#"pos=Wbe moves="32-28 19-23" infinite x="""#).unwrap();
        let pairs: Vec<(&str, &str)> = args.iter().map(|(k, v)| (&k[..], &v[..])).collect();
        assert_eq!(
            pairs,
            [
                ("pos", "Wbe"),
                ("moves", "32-28 19-23"),
                ("infinite", ""),
                ("x", "")
            ]
        );
        assert!(parse_args(r#"moves="32-28"#).is_err());
        assert!(parse_args("=3").is_err());
        assert_eq!(parse_args("   ").unwrap(), []);
    }

    #[test]
    fn scores_read_as_men_or_wins() {
        assert_eq!(score_text(35), "0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(-5), "-0.05");
        assert_eq!(score_text(WIN - 3), "99.97");
        assert_eq!(score_text(-WIN + 2), "-99.98");
    }

    #[test]
    fn levels_parse_and_budget() {
        let args = parse_args("time=60 inc=1 moves=20").unwrap();
        let level = Level::parse(&args).unwrap();
        assert_eq!(level.budget(), Some(Duration::from_millis(3050)));
        assert_eq!(
            level.limits(false).movetime,
            Some(Duration::from_millis(6100))
        );
        let level = Level::parse(&parse_args("move-time=0.5").unwrap()).unwrap();
        assert_eq!(
            level.limits(false).movetime,
            Some(Duration::from_millis(500))
        );
        let level = Level::parse(&parse_args("depth=99999").unwrap()).unwrap();
        assert_eq!(level.limits(false).depth, Some(MAX_DEPTH));
        // Almost flagged: a quarter of what is left.
        let level = Level::parse(&parse_args("time=0.02 moves=1").unwrap()).unwrap();
        assert_eq!(level.limits(false).movetime, Some(Duration::from_millis(5)));
        // Nothing said: a second; infinite: until stop.
        assert_eq!(
            Level::default().limits(false).movetime,
            Some(Duration::from_secs(1))
        );
        assert_eq!(Level::default().limits(true).movetime, None);
        for bad in ["depth=x", "time=-", "time=NaN", "moves=1.5", "bogus=1"] {
            assert!(Level::parse(&parse_args(bad).unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_session_answers_every_command() {
        let lines = run_session(
            "hub\nset-param name=threads value=2\nset-param name=algorithm value=ybw-strong\n\
             init\nping\npos pos=W:W32,35:B17,27,30\nlevel depth=3\ngo think\nping\n\
             pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\n\
             go think\nnonsense here\nset-param name=threads value=many\npos pos=bad\n\
             pos pos=start moves=\"32-28 32-28\"\nlevel depth=x\nlevel infinite\ngo analyze\n\
             stop\nnew-game\nlevel depth=2\ngo ponder\nponder-hit\nquit\n",
        );
        let text = lines.join("\n");
        assert!(
            lines.iter().any(|l| l.starts_with("id name=splitpoint")),
            "{text}"
        );
        assert!(lines.contains(&"wait".to_string()), "{text}");
        assert!(lines.contains(&"ready".to_string()), "{text}");
        assert_eq!(lines.iter().filter(|l| *l == "pong").count(), 2, "{text}");
        let done: Vec<&String> = lines.iter().filter(|l| l.starts_with("done")).collect();
        assert_eq!(done.len(), 4, "{text}");
        assert_eq!(done[0], "done move=32x12x17x27", "{text}");
        assert!(done[1].starts_with("done move=28x19x23"), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("info depth=")), "{text}");
        for expected in [
            "error message=\"unknown command 'nonsense here'\"",
            "error message=\"threads:",
            "error message=\"pos ignored",
            "error message=\"moves from '32-28' on ignored",
            "error message=\"level ignored",
        ] {
            assert!(
                lines.iter().any(|l| l.starts_with(expected)),
                "{expected}\n{text}"
            );
        }
    }

    #[test]
    fn end_of_input_ends_an_infinite_search() {
        let lines = run_session("level infinite\ngo analyze\n");
        assert!(
            lines.last().is_some_and(|l| l.starts_with("done move=")),
            "{lines:?}"
        );
    }

    #[test]
    fn drawn_and_lost_roots() {
        // Drawn by repetition in the game: the GUI may still ask for a move.
        let dance = "36-31 15-20 31-36 20-15 ".repeat(2);
        let lines = run_session(&format!(
            "pos pos=W:WK36,K50:BK1,K15 moves=\"{dance}\"\nlevel depth=2\ngo think\n"
        ));
        let done = lines.iter().find(|l| l.starts_with("done")).unwrap();
        assert_ne!(done, "done move=0-0", "{lines:?}");
        // No move at all.
        let lines = run_session("pos pos=W:W46:B37,41\nlevel depth=2\ngo think\n");
        assert!(lines.contains(&"done move=0-0".to_string()), "{lines:?}");
    }
}
