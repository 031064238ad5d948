//! `splitpoint uci`: the chess engine behind the Universal Chess Interface.
//!
//! Two threads. The **reader** (the caller's thread) reads standard input,
//! keeps the position and the options, and answers at once whatever needs no
//! engine: `uci`, `position`, `stop`, and `isready` while a search runs. The
//! **searcher** owns the [`Engine`] and takes jobs (`go`, option changes,
//! `ucinewgame`, `isready` when idle) in order from a channel, so a
//! `setoption` sent during a search waits for it to end.
//!
//! Stopping: searches are numbered as `go` issues them, and `stop` stops every
//! search issued so far: the reader records the number and raises the
//! engine's [`StopHandle`]. A search clears the engine's stop flag when it
//! starts, so a `stop` that comes before the searcher has begun would be lost;
//! the searcher therefore also compares its number with the record after every
//! completed iteration (the first takes microseconds) and stops itself. A `go
//! infinite` or `go ponder` search that ends by itself waits for `stop` (or
//! `ponderhit`, or `quit`) before it answers `bestmove`, as the protocol asks.
//! A `go` during a search stops that search first; both answer `bestmove`.
//!
//! Nothing on input ends the session but `quit` or the end of input; a line
//! that cannot be understood is answered with `info string` and ignored.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use splitpoint::{
    Algorithm, Engine, Game, Limits, MAX_DEPTH, MoveList, SearchResult, StopHandle, WIN, WIN_BOUND,
};
use splitpoint_games::chess::{Chess, ChessEval, Move};

use crate::error::Result;

/// Play chess over UCI on standard input and output
///
/// Speaks the Universal Chess Interface, for chess GUIs and match tools
/// (cutechess-cli, python-chess, …): `uci`, `isready`, `ucinewgame`,
/// `position startpos|fen … [moves …]`, `go` with `depth`, `movetime`,
/// `nodes`, clocks (`wtime btime winc binc movestogo`), `infinite` or
/// `ponder`, then `stop`, `ponderhit`, `setoption` and `quit`. A bare `go`
/// searches until `stop`.
///
/// Options: Threads, Hash (MiB), Algorithm (auto: serial with one thread, ybw
/// with more; or any parallel algorithm by name), Exact (exact-mode search),
/// Clear Hash.
#[derive(Args, Debug)]
#[command(after_help = "Example session (type the lines without '>'):
  > uci
  > setoption name Threads value 2
  > position startpos moves e2e4 e7e5
  > go movetime 1000
  ... info lines, then bestmove g1f3")]
pub struct UciArgs {}

/// The engine's name, as `id name` gives it.
const NAME: &str = concat!("splitpoint ", env!("CARGO_PKG_VERSION"));
/// The most threads the Threads option allows.
const MAX_THREADS: usize = 256;
/// The Hash option's bounds and default, in MiB.
/// (A GUI may offer the whole range; more than this could exhaust memory.)
const MAX_HASH_MIB: usize = 8192;
const DEFAULT_HASH_MIB: usize = 16;
/// Time kept back from every clock budget for the GUI's and the pipe's delays.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Moves still to play when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// Runs `splitpoint uci` on standard input and output.
pub fn run(_args: &UciArgs) -> Result<ExitCode> {
    session(io::stdin().lock(), Box::new(io::stdout()));
    Ok(ExitCode::SUCCESS)
}

/// Where the engine's lines go: shared by both threads, one line at a time,
/// flushed at once (a GUI waits for each line). Write errors are ignored: the
/// GUI has gone, and the end of input will end the session.
struct Output(Mutex<Box<dyn Write + Send>>);

impl Output {
    fn line(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// What the reader and the searcher share.
struct Shared {
    out: Output,
    /// The number of the last search `go` issued (written by the reader).
    issued: AtomicU64,
    /// The number of the last search that ended, stored just before its
    /// `bestmove` so that a GUI answering `bestmove` at once with `go` never
    /// finds the engine busy (written by the searcher).
    finished: AtomicU64,
    /// Searches up to this number are to stop (`stop`, `ponderhit`, `quit`).
    stop_upto: Mutex<u64>,
    stop_signal: Condvar,
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

    /// Blocks until search `id` is asked to stop (`go infinite` that ended
    /// by itself).
    fn wait_for_stop(&self, id: u64) {
        let mut upto = self.stop_upto();
        while *upto < id {
            upto = self
                .stop_signal
                .wait(upto)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// One search, as `go` asked for it.
struct Go {
    /// Its number: 1, 2, … in the order `go` issued them.
    id: u64,
    pos: Chess,
    limits: Limits,
    /// Stop starting new iterations after this long (clock games).
    soft_limit: Option<Duration>,
    /// Answer only after `stop` (`go infinite`, `go ponder`, bare `go`).
    wait_for_stop: bool,
}

/// The searcher's work, in order.
enum Job {
    Go(Box<Go>),
    Parallelism(Algorithm, usize),
    Hash(usize),
    Clear,
    IsReady,
}

/// The Algorithm option's value: a name, or `auto`.
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

/// The reader's state.
struct Reader {
    shared: Arc<Shared>,
    jobs: Sender<Job>,
    stop: StopHandle,
    position: Chess,
    threads: usize,
    algorithm: AlgorithmChoice,
    exact: bool,
}

/// Runs one UCI session: reads commands from `input` until `quit` or its end,
/// writes the engine's lines to `output`. Returns when the searcher is done.
pub fn session(mut input: impl BufRead, output: Box<dyn Write + Send>) {
    let shared = Arc::new(Shared {
        out: Output(Mutex::new(output)),
        issued: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        stop_upto: Mutex::new(0),
        stop_signal: Condvar::new(),
    });
    let engine = Engine::new(ChessEval::default(), DEFAULT_HASH_MIB);
    let (jobs, inbox) = mpsc::channel();
    let mut reader = Reader {
        shared: Arc::clone(&shared),
        jobs,
        stop: engine.stop_handle(),
        position: Chess::start(),
        threads: 1,
        algorithm: AlgorithmChoice::Auto,
        exact: false,
    };
    let searcher = {
        let shared = Arc::clone(&shared);
        thread::Builder::new()
            .name("uci-searcher".into())
            .spawn(move || searcher(engine, &inbox, &shared))
    };
    let searcher = match searcher {
        Ok(handle) => handle,
        Err(e) => {
            shared
                .out
                .info(&format!("cannot start the search thread: {e}"));
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

    // `quit` or end of input: end any search (it still answers bestmove),
    // then let the searcher drain its jobs and finish.
    reader.request_stop();
    drop(reader);
    let _ = searcher.join();
}

impl Reader {
    /// Handles one line; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => self.uci(),
            "isready" => {
                if self.shared.searching() {
                    self.shared.out.line("readyok");
                } else {
                    self.send(Job::IsReady);
                }
            }
            "ucinewgame" => {
                self.position = Chess::start();
                self.send(Job::Clear);
            }
            "setoption" => self.set_option(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" | "ponderhit" => self.request_stop(),
            "quit" => return false,
            // Accepted and ignored: we have no debug output and need no registration.
            "debug" | "register" => {}
            _ => self
                .shared
                .out
                .info(&format!("unknown command '{}'", clip(line))),
        }
        true
    }

    fn send(&self, job: Job) {
        if self.jobs.send(job).is_err() {
            self.shared.out.info("the search thread has stopped");
        }
    }

    fn uci(&self) {
        let out = &self.shared.out;
        out.line(&format!("id name {NAME}"));
        out.line("id author the splitpoint developers");
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        let names: String = Algorithm::ALL.iter().map(|a| format!(" var {a}")).collect();
        out.line(&format!(
            "option name Algorithm type combo default auto var auto{names}"
        ));
        out.line("option name Exact type check default false");
        out.line("option name Clear Hash type button");
        out.line("uciok");
    }

    /// Asks every search issued so far to stop.
    fn request_stop(&self) {
        *self.shared.stop_upto() = self.shared.issued.load(SeqCst);
        self.shared.stop_signal.notify_all();
        if self.shared.searching() {
            self.stop.stop();
        }
    }

    /// `setoption name NAME [value VALUE]`; names are case-insensitive.
    fn set_option(&mut self, words: &[&str]) {
        let out = &self.shared.out;
        if words.first() != Some(&"name") {
            out.info("setoption needs 'name'");
            return;
        }
        let value_at = words
            .iter()
            .position(|&w| w == "value")
            .unwrap_or(words.len());
        let name = words[1..value_at].join(" ").to_ascii_lowercase();
        let value = words.get(value_at + 1..).unwrap_or(&[]).join(" ");
        match name.as_str() {
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                    self.threads = n;
                    self.send(Job::Parallelism(self.algorithm.resolve(n), n));
                }
                _ => out.info(&format!(
                    "Threads: '{}' is not a number from 1 to {MAX_THREADS}",
                    clip(&value)
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=MAX_HASH_MIB).contains(&mib) => self.send(Job::Hash(mib)),
                _ => out.info(&format!(
                    "Hash: '{}' is not a number from 1 to {MAX_HASH_MIB}",
                    clip(&value)
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
                    Err(e) => out.info(&format!("Algorithm: {e}")),
                }
            }
            "exact" => match value.to_ascii_lowercase().as_str() {
                "true" => self.exact = true,
                "false" => self.exact = false,
                _ => out.info(&format!("Exact: '{}' is not true or false", clip(&value))),
            },
            "clear hash" => self.send(Job::Clear),
            _ => out.info(&format!("unknown option '{}'", clip(&name))),
        }
    }

    /// `position startpos|fen FEN [moves M…]`. A bad FEN leaves the position
    /// as it was; a bad move ends the list there (the moves before it stand).
    fn position(&mut self, words: &[&str]) {
        let moves_at = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let mut pos = match words.first() {
            Some(&"startpos") if moves_at == 1 => Chess::start(),
            Some(&"fen") => match Chess::parse_position(&words[1..moves_at].join(" ")) {
                Ok(pos) => pos,
                Err(e) => {
                    self.shared.out.info(&format!("position ignored: {e}"));
                    return;
                }
            },
            _ => {
                self.shared
                    .out
                    .info("position needs 'startpos' or 'fen FEN', then optionally 'moves …'");
                return;
            }
        };
        for &word in words.get(moves_at + 1..).unwrap_or(&[]) {
            match pos.parse_uci(word) {
                Ok(mv) => pos = pos.play(mv),
                Err(e) => {
                    self.shared.out.info(&format!(
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

    fn go(&mut self, words: &[&str]) {
        let params = match GoParams::parse(words) {
            Ok((params, warning)) => {
                if let Some(warning) = warning {
                    self.shared.out.info(&warning);
                }
                params
            }
            Err(message) => {
                self.shared.out.info(&format!("go: {message}"));
                return;
            }
        };
        let us_white = self.position.board().side_to_move()
            == splitpoint_games::chess::cozy_chess::Color::White;
        let mut limits = params.limits(us_white);
        limits.exact = self.exact;
        if self.shared.searching() {
            self.shared
                .out
                .info("go during a search: stopping that search first");
            self.request_stop();
        }
        let id = self.shared.issued.load(SeqCst) + 1;
        let go = Go {
            id,
            pos: self.position.clone(),
            soft_limit: params.soft_limit(us_white),
            wait_for_stop: params.waits_for_stop(),
            limits,
        };
        self.shared.issued.store(id, SeqCst);
        self.send(Job::Go(Box::new(go)));
    }
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoParams {
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: Option<u64>,
    binc: Option<u64>,
    movestogo: Option<u32>,
    infinite: bool,
    ponder: bool,
}

impl GoParams {
    /// Reads `go`'s words; an unknown or malformed parameter is an error.
    /// Negative clock times (a flag already fallen) read as 0. `mate N`
    /// searches 2N - 1 plies (unless a depth is given); `searchmoves` is
    /// skipped with a warning (returned beside the parameters).
    fn parse(words: &[&str]) -> std::result::Result<(Self, Option<String>), String> {
        let mut p = GoParams::default();
        let mut warning = None;
        let mut mate = None;
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let value = words.get(i + 1).copied();
            let number = |v: Option<&str>| -> std::result::Result<i64, String> {
                v.and_then(|v| v.parse::<i64>().ok())
                    .ok_or_else(|| format!("'{key}' needs a number"))
            };
            let millis = |v| number(v).map(|n| n.max(0) as u64);
            match key {
                "infinite" => p.infinite = true,
                "ponder" => p.ponder = true,
                "depth" => p.depth = Some(number(value)?.clamp(1, MAX_DEPTH as i64) as i32),
                "nodes" => p.nodes = Some(number(value)?.max(1) as u64),
                "movetime" => p.movetime = Some(millis(value)?.max(1)),
                "wtime" => p.wtime = Some(millis(value)?),
                "btime" => p.btime = Some(millis(value)?),
                "winc" => p.winc = Some(millis(value)?),
                "binc" => p.binc = Some(millis(value)?),
                "movestogo" => p.movestogo = Some(number(value)?.clamp(1, 1000) as u32),
                "mate" => mate = Some(number(value)?.clamp(1, MAX_DEPTH as i64 / 2) as i32),
                "searchmoves" => {
                    warning =
                        Some("searchmoves is not supported: searching every move".to_string());
                    let moves = words[i + 1..]
                        .iter()
                        .take_while(|w| looks_like_a_move(w))
                        .count();
                    i += 1 + moves;
                    continue;
                }
                _ => return Err(format!("unknown parameter '{}'", clip(key))),
            }
            i += if matches!(key, "infinite" | "ponder") {
                1
            } else {
                2
            };
        }
        if p.depth.is_none() {
            p.depth = mate.map(|n| 2 * n - 1);
        }
        Ok((p, warning))
    }

    /// Whether the answer must wait for `stop`: `infinite`, `ponder`, or no
    /// limit at all.
    fn waits_for_stop(&self) -> bool {
        let limited = self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.wtime.is_some()
            || self.btime.is_some();
        self.infinite || self.ponder || !limited
    }

    /// Our clock: remaining time and increment, in ms, when the GUI gave it
    /// (the other side's when it gave only that one).
    fn clock(&self, white: bool) -> Option<(u64, u64)> {
        let (ours, theirs) = if white {
            ((self.wtime, self.winc), (self.btime, self.binc))
        } else {
            ((self.btime, self.binc), (self.wtime, self.winc))
        };
        let (time, inc) = if ours.0.is_some() { ours } else { theirs };
        time.map(|t| (t, inc.unwrap_or(0)))
    }

    /// The time to aim for on our clock: an even share of what is left over
    /// the moves to go, plus half the increment, never more than the clock
    /// holds less the overhead (or a quarter of it, when even that is short).
    fn budget(&self, white: bool) -> Option<Duration> {
        let (time, inc) = self.clock(white)?;
        let time = Duration::from_millis(time);
        let cap = time.saturating_sub(MOVE_OVERHEAD).max(time / 4);
        let share =
            time / self.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO) + Duration::from_millis(inc) / 2;
        Some(share.min(cap).max(Duration::from_millis(1)))
    }

    /// The hard limits: depth, nodes, and the earlier of `movetime` and twice
    /// the clock budget (itself capped by the clock).
    fn limits(&self, white: bool) -> Limits {
        let clock_limit = self.budget(white).map(|budget| {
            let (time, _) = self.clock(white).unwrap_or((0, 0));
            let time = Duration::from_millis(time);
            (budget * 2)
                .min(time.saturating_sub(MOVE_OVERHEAD).max(time / 4))
                .max(Duration::from_millis(1))
        });
        let movetime = match (self.movetime.map(Duration::from_millis), clock_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        // A ponder or infinite search ignores the clock until `stop`.
        if !self.infinite && !self.ponder {
            limits.movetime = movetime;
        }
        limits
    }

    /// After this long, no new iteration starts: it would rarely finish in
    /// time. Half the clock budget.
    fn soft_limit(&self, white: bool) -> Option<Duration> {
        if self.infinite || self.ponder {
            return None;
        }
        self.budget(white).map(|b| b / 2)
    }
}

/// The searcher: runs jobs until the reader hangs up.
fn searcher(mut engine: Engine<Chess, ChessEval>, inbox: &Receiver<Job>, shared: &Shared) {
    for job in inbox {
        match job {
            Job::Go(go) => search(&mut engine, &go, shared),
            Job::Parallelism(algorithm, threads) => engine.set_parallelism(algorithm, threads),
            Job::Hash(mib) => engine.set_hash(mib),
            Job::Clear => engine.clear(),
            Job::IsReady => shared.out.line("readyok"),
        }
    }
}

/// Runs one `go`: `info` after every iteration, then `bestmove`.
fn search(engine: &mut Engine<Chess, ChessEval>, go: &Go, shared: &Shared) {
    let stop = engine.stop_handle();
    let start = Instant::now();
    let root = searchable_root(&go.pos);
    let result = engine.search_with(&root, &go.limits, |r| {
        shared.out.line(&info_line(&root, r));
        let out_of_time = go.soft_limit.is_some_and(|soft| start.elapsed() >= soft);
        if out_of_time || shared.stop_requested(go.id) {
            stop.stop();
        }
    });
    if go.wait_for_stop {
        shared.wait_for_stop(go.id);
    }
    let elapsed = start.elapsed();
    shared.out.line(&format!(
        "info nodes {} nps {} time {}",
        result.stats.nodes,
        per_second(result.stats.nodes, elapsed),
        elapsed.as_millis()
    ));
    let best = result.best_move.or_else(|| first_move(&root));
    // Free before answering: the GUI may send the next `go` at once.
    shared.finished.store(go.id, SeqCst);
    match best {
        Some(mv) => shared.out.line(&format!("bestmove {}", root.move_text(mv))),
        None => shared.out.line("bestmove 0000"),
    }
}

/// The position to search. A game already drawn by repetition or the
/// fifty-move rule goes on until a player claims the draw, so a GUI may still
/// ask for a move: forget the history and hold the clock just short of 100,
/// where the search sees every quiet line as drawn but can still play.
fn searchable_root(pos: &Chess) -> Chess {
    if pos.outcome() != Some(splitpoint::Outcome::Draw) || first_move(pos).is_none() {
        return pos.clone();
    }
    let mut board = pos.board().clone();
    board.set_halfmove_clock(board.halfmove_clock().min(99));
    let mut root = Chess::from_board(board);
    root.make_root();
    root
}

fn first_move(pos: &Chess) -> Option<Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.first().copied()
}

/// `info depth … seldepth … score … nodes … nps … time … pv …` for one
/// completed iteration. The core does not track the selective depth; the PV's
/// length stands in when it is longer than the depth.
fn info_line(root: &Chess, r: &SearchResult<Move>) -> String {
    let mut pv = String::new();
    let mut pos = root.clone();
    for &mv in &r.pv {
        pv.push(' ');
        pv.push_str(&pos.move_text(mv));
        pos = pos.play(mv);
    }
    let seldepth = r.depth.max(r.pv.len() as i32);
    format!(
        "info depth {} seldepth {seldepth} score {} nodes {} nps {} time {} pv{pv}",
        r.depth,
        score_text(r.score),
        r.stats.nodes,
        per_second(r.stats.nodes, r.elapsed),
        r.elapsed.as_millis()
    )
}

/// `cp N`, or `mate N` in moves (negative when we are mated): a win `n` plies
/// away scores `WIN - n` and is `(n + 1) / 2` moves.
fn score_text(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("mate {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        format!("mate -{}", (WIN + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// Whether a word has a UCI move's shape (`e2e4`, `e7e8q`).
fn looks_like_a_move(word: &str) -> bool {
    let b = word.as_bytes();
    (4..=5).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
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
    fn scores_read_as_centipawns_or_mates() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(-120), "cp -120");
        assert_eq!(score_text(WIN - 1), "mate 1");
        assert_eq!(score_text(WIN - 3), "mate 2");
        assert_eq!(score_text(WIN - 4), "mate 2");
        assert_eq!(score_text(-WIN + 2), "mate -1");
        assert_eq!(score_text(-WIN + 4), "mate -2");
    }

    fn parse(words: &[&str]) -> std::result::Result<GoParams, String> {
        GoParams::parse(words).map(|(p, _)| p)
    }

    #[test]
    fn go_parameters_parse() {
        let p = parse(&[
            "wtime",
            "60000",
            "btime",
            "-5",
            "winc",
            "1000",
            "movestogo",
            "20",
        ])
        .unwrap();
        assert_eq!(
            (p.wtime, p.btime, p.winc, p.movestogo),
            (Some(60_000), Some(0), Some(1000), Some(20))
        );
        assert!(!p.waits_for_stop());
        assert!(parse(&[]).unwrap().waits_for_stop());
        assert!(parse(&["infinite"]).unwrap().waits_for_stop());
        assert!(parse(&["depth"]).is_err());
        assert!(parse(&["depth", "x"]).is_err());
        assert!(parse(&["bogus", "1"]).is_err());
        assert_eq!(parse(&["depth", "9999"]).unwrap().depth, Some(MAX_DEPTH));
        assert_eq!(parse(&["depth", "-3"]).unwrap().depth, Some(1));
        assert_eq!(parse(&["mate", "2"]).unwrap().depth, Some(3));
        let (p, warning) = GoParams::parse(&["searchmoves", "e2e4", "d2d4", "depth", "4"]).unwrap();
        assert_eq!((p.depth, warning.is_some()), (Some(4), true));
    }

    #[test]
    fn clock_budgets_are_sensible() {
        let p = parse(&["wtime", "60000", "btime", "1000", "winc", "1000"]).unwrap();
        // 60 s / 30 + 1 s / 2 for White; Black has 1 s, no increment.
        assert_eq!(p.budget(true), Some(Duration::from_millis(2500)));
        assert_eq!(p.soft_limit(true), Some(Duration::from_millis(1250)));
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(5000)));
        let black = p.limits(false).movetime.unwrap();
        assert!(black < Duration::from_millis(100), "{black:?}");
        // Last move before the time control: use most of it, never all.
        let p = parse(&["wtime", "1000", "btime", "1000", "movestogo", "1"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(970)));
        // Almost flagged: a quarter of what is left.
        let p = parse(&["wtime", "20", "btime", "20", "movestogo", "1"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(5)));
        // movetime and a clock: the earlier.
        let p = parse(&["movetime", "100", "wtime", "60000", "btime", "60000"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(100)));
        // Only White's clock given, Black to move: use it.
        let p = parse(&["wtime", "3000"]).unwrap();
        assert_eq!(p.budget(false), Some(Duration::from_millis(100)));
        // Infinite ignores the clock.
        let p = parse(&["infinite", "wtime", "100", "btime", "100"]).unwrap();
        assert_eq!(p.limits(true).movetime, None);
    }

    #[test]
    fn a_session_answers_every_command() {
        let lines = run_session(
            "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nisready\n\
             setoption name Threads value 2\nsetoption name Algorithm value ybw-strong\n\
             position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n\
             nonsense here\nsetoption name Threads value many\nposition fen bad\n\
             position startpos moves e2e4 e2e4\ngo infinite\nstop\nquit\n",
        );
        let text = lines.join("\n");
        assert!(lines.contains(&"uciok".to_string()), "{text}");
        assert_eq!(
            lines.iter().filter(|l| *l == "readyok").count(),
            2,
            "{text}"
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 3, "{text}");
        assert_eq!(best[1], "bestmove a1a8", "{text}");
        assert!(lines.iter().any(|l| l.contains("score mate 1")), "{text}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string unknown command 'nonsense here'")),
            "{text}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info string Threads:")),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string position ignored")),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string moves from 'e2e4' on ignored")),
            "{text}"
        );
    }

    #[test]
    fn end_of_input_ends_an_infinite_search() {
        let lines = run_session("position startpos\ngo infinite\n");
        assert!(
            lines.last().is_some_and(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
    }

    #[test]
    fn drawn_roots_still_get_a_move() {
        // Threefold repetition in the game: the GUI may still ask.
        let dance = "g1f3 g8f6 f3g1 f6g8 ".repeat(2);
        let lines = run_session(&format!("position startpos moves {dance}\ngo depth 2\n"));
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert_ne!(best, "bestmove 0000");
        // Mated: no move at all.
        let lines = run_session("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 2\n");
        assert!(lines.contains(&"bestmove 0000".to_string()), "{lines:?}");
    }
}
