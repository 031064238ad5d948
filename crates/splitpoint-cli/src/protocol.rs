//! What the engine protocols share (`uci` for chess and xiangqi, `ucci` for
//! xiangqi, `hub` for draughts): a search thread that owns the [`Engine`],
//! the numbering that makes `stop` reliable, clock budgets, and how each game
//! reads and writes positions and moves in the protocols.
//!
//! Two threads. The **reader** (the caller's thread, in `uci.rs`, `ucci.rs`
//! or `hub.rs`) reads standard input, keeps the position and the options,
//! and answers at once whatever needs no engine. The **searcher** owns the
//! [`Engine`] and takes jobs (`go`, option changes, new game, `isready` or
//! `ping` when idle) in order from a channel, so an option sent during a
//! search waits for it to end.
//!
//! Stopping: searches are numbered as `go` issues them, and `stop` stops every
//! search issued so far: the reader records the number and raises the
//! engine's [`StopHandle`]. A search clears the engine's stop flag when it
//! starts, so a `stop` that comes before the searcher has begun would be lost;
//! the searcher therefore also compares its number with the record after every
//! completed iteration (the first takes microseconds) and stops itself. A
//! search that must wait for `stop` (infinite, ponder) and ends by itself waits
//! before it answers `bestmove`. A `go` during a search stops that search
//! first; both answer. (Hub's `done` is UCI's `bestmove`.)

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use splitpoint::{
    Algorithm, Engine, Game, Limits, MoveList, Outcome, ParseError, SearchResult, StopHandle, WIN,
    WIN_BOUND,
};
use splitpoint_games::chess::Chess;
use splitpoint_games::chess::cozy_chess::Color as ChessColor;
use splitpoint_games::draughts::{Draughts, hub_move_text};
use splitpoint_games::xiangqi::{Color as XiangqiColor, Xiangqi};

use crate::error::escaped;
use crate::games::CliGame;

/// The engine's name, as UCI's and UCCI's `id name` give it.
pub const NAME: &str = concat!("splitpoint ", env!("CARGO_PKG_VERSION"));
/// The name and the version apart, as Hub's `id` gives them.
pub const ENGINE: &str = "splitpoint";
/// The engine's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The Threads and Hash options' upper bounds: the command line's.
pub use crate::{MAX_HASH_MIB, MAX_THREADS};
/// The table size until an option changes it, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// Time kept back from every clock budget for the GUI's and the pipe's delays.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Moves still to play when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// A game the protocols can play: its moves in its protocol's notation
/// (UCI's for chess and xiangqi, Hub's for draughts), whose turn it is for
/// the clocks, and how a game's moves become history.
pub trait ProtocolGame: CliGame {
    /// Its variant's name as the protocol gives it (`UCI_Variant`, Hub's
    /// `variant` parameter).
    const VARIANT: &'static str;

    /// Reads a move in the protocol's notation and checks that it is legal.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no move or no legal one.
    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// The move in the protocol's notation (for xiangqi, Fairy-Stockfish's
    /// UCI: ranks 1–10; for draughts, Hub's: captured pieces listed).
    fn protocol_move_text(&self, mv: Self::Move) -> String;

    /// Whether the first player (White, Red) is to move: whose clock counts.
    fn first_player_to_move(&self) -> bool;

    /// Makes the moves played so far game history (see `Chess::make_root`).
    fn make_root(&mut self);

    /// The position to search. A game already drawn (or decided) by
    /// repetition goes on until a player claims it, so a GUI may still ask
    /// for a move: the default forgets the history.
    fn searchable_root(&self) -> Self {
        if self.outcome().is_none() || first_move(self).is_none() {
            return self.clone();
        }
        let mut root = Self::parse_position(&self.position_text()).unwrap_or_else(|_| self.clone());
        root.make_root();
        root
    }
}

impl ProtocolGame for Chess {
    const VARIANT: &'static str = "chess";

    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_uci(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.board().side_to_move() == ChessColor::White
    }

    fn make_root(&mut self) {
        Chess::make_root(self);
    }

    /// Forgets the history and holds the halfmove clock just short of 100,
    /// where the search sees every quiet line as drawn but can still play.
    fn searchable_root(&self) -> Self {
        if self.outcome() != Some(Outcome::Draw) || first_move(self).is_none() {
            return self.clone();
        }
        let mut board = self.board().clone();
        board.set_halfmove_clock(board.halfmove_clock().min(99));
        let mut root = Chess::from_board(board);
        root.make_root();
        root
    }
}

impl ProtocolGame for Xiangqi {
    const VARIANT: &'static str = "xiangqi";

    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_uci(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        mv.uci()
    }

    fn first_player_to_move(&self) -> bool {
        self.side_to_move() == XiangqiColor::Red
    }

    fn make_root(&mut self) {
        Xiangqi::make_root(self);
    }
}

impl ProtocolGame for Draughts {
    /// International draughts, as Hub's `variant` parameter names it.
    const VARIANT: &'static str = "normal";

    /// A PDN move or a Hub move.
    fn parse_protocol_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        self.parse_move(text)
    }

    fn protocol_move_text(&self, mv: Self::Move) -> String {
        hub_move_text(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.white_to_move()
    }

    fn make_root(&mut self) {
        Draughts::make_root(self);
    }

    /// A drawn game goes on until the GUI says so: forgets the history and
    /// the draw counters.
    fn searchable_root(&self) -> Self {
        if self.outcome() != Some(Outcome::Draw) {
            return self.clone();
        }
        let mut root = self.without_history();
        root.make_root();
        root
    }
}

/// The game's start position.
pub fn start<G: ProtocolGame>() -> G {
    G::parse_position(G::DEFAULT_POSITION).unwrap_or_else(|e| unreachable!("start position: {e}"))
}

/// Reads `startpos | fen FEN [moves M…]` (the `position` command of UCI and
/// UCCI): the position it starts from and the words of its moves.
///
/// # Errors
/// What is wrong with the words, for the user.
pub fn position_and_moves<'w, G: ProtocolGame>(
    words: &'w [&'w str],
) -> Result<(G, &'w [&'w str]), String> {
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let pos = match words.first() {
        Some(&"startpos") if moves_at == 1 => start(),
        Some(&"fen") => G::parse_position(&words[1..moves_at].join(" "))
            .map_err(|e| format!("position ignored: {e}"))?,
        _ => {
            return Err("position needs 'startpos' or 'fen FEN', then optionally 'moves …'".into());
        }
    };
    Ok((pos, words.get(moves_at + 1..).unwrap_or(&[])))
}

/// Plays the game's moves from `pos`, each read by `read_move`; the first
/// that is no legal move ends the list there (the moves before it stand) and
/// is reported through `remark`. The moves were the game: the result is
/// made the root, so the search may repeat a position of them once without
/// calling it a draw.
pub fn play_game<'w, G: ProtocolGame>(
    mut pos: G,
    moves: impl IntoIterator<Item = &'w str>,
    read_move: impl Fn(&G, &str) -> Result<G::Move, ParseError>,
    remark: impl Fn(&str),
) -> G {
    for word in moves {
        match read_move(&pos, word) {
            Ok(mv) => pos = pos.play(mv),
            Err(e) => {
                remark(&format!(
                    "moves from '{}' on ignored: {}",
                    clip(word),
                    e.message
                ));
                break;
            }
        }
    }
    pos.make_root();
    pos
}

/// The first legal move, if any.
pub fn first_move<G: Game>(pos: &G) -> Option<G::Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.first().copied()
}

/// Which protocol's words the searcher answers in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI: `score cp N` / `score mate N`, moves in UCI notation,
    /// `bestmove 0000` when there is none.
    Uci,
    /// UCCI: `score N`, moves in ICCS, `nobestmove` when there is none.
    Ucci,
    /// Hub (draughts): `info depth=N score=MEN …`, Hub's moves, `done
    /// move=M [ponder=M]` (`done move=0-0` when there is none), remarks as
    /// `error message="…"`.
    Hub,
}

impl Dialect {
    fn move_text<G: ProtocolGame>(self, pos: &G, mv: G::Move) -> String {
        match self {
            Dialect::Uci | Dialect::Hub => pos.protocol_move_text(mv),
            Dialect::Ucci => pos.move_text(mv),
        }
    }

    /// A remark for the user: `info string TEXT`, or Hub's `error
    /// message="TEXT"` (double quotes turned single).
    fn remark(self, text: &str) -> String {
        match self {
            Dialect::Uci | Dialect::Ucci => format!("info string {text}"),
            Dialect::Hub => format!("error message=\"{}\"", text.replace('"', "'")),
        }
    }

    /// The answer that ends a search: its move (with the reply it expects,
    /// in Hub, when the principal variation starts with that move).
    fn best_move_line<G: ProtocolGame>(
        self,
        root: &G,
        best: Option<G::Move>,
        pv: &[G::Move],
    ) -> String {
        let Some(mv) = best else {
            return match self {
                Dialect::Uci => "bestmove 0000".into(),
                Dialect::Ucci => "nobestmove".into(),
                // The GUI never asks from a finished game; the null move.
                Dialect::Hub => "done move=0-0".into(),
            };
        };
        let text = self.move_text(root, mv);
        match self {
            Dialect::Uci | Dialect::Ucci => format!("bestmove {text}"),
            Dialect::Hub => match pv {
                [first, reply, ..] if *first == mv => format!(
                    "done move={text} ponder={}",
                    self.move_text(&root.play(mv), *reply)
                ),
                _ => format!("done move={text}"),
            },
        }
    }
}

/// Where the engine's lines go: shared by both threads, one line at a time,
/// flushed at once (a GUI waits for each line). Write errors are ignored: the
/// GUI has gone, and the end of input will end the session.
///
/// Every line is written [`escaped`]: the user's text a remark echoes (an
/// unknown command, a bad position) cannot end the line and forge one of
/// its own (`foo\rbestmove e2e4`), and every echo follows the engine's own
/// words (`info string`, `error message=`), never starts a line.
pub struct Output(Mutex<Box<dyn Write + Send>>);

impl Output {
    /// Output to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Arc<Output> {
        Arc::new(Output(Mutex::new(writer)))
    }

    /// Writes one line (its control characters escaped: one line it is).
    pub fn line(&self, text: &str) {
        let text = escaped(text);
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    /// `info string TEXT`: a remark for the user.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// The Algorithm option's value: a name, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmChoice {
    /// Serial with one thread, YBW with more (as `splitpoint search` does).
    Auto,
    /// This one.
    Fixed(Algorithm),
}

impl AlgorithmChoice {
    /// Reads `auto` or an algorithm's name.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(AlgorithmChoice::Auto);
        }
        text.to_ascii_lowercase()
            .parse()
            .map(AlgorithmChoice::Fixed)
            .map_err(|e: splitpoint::UnknownAlgorithm| e.to_string())
    }

    fn resolve(self, threads: usize) -> Algorithm {
        match self {
            AlgorithmChoice::Fixed(a) => a,
            AlgorithmChoice::Auto if threads == 1 => Algorithm::Serial,
            AlgorithmChoice::Auto => Algorithm::Ybw { strong: false },
        }
    }
}

/// The options that outlive a game (and a switch of UCI variant).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// How they share the work.
    pub algorithm: AlgorithmChoice,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Exact-mode searches.
    pub exact: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            algorithm: AlgorithmChoice::Auto,
            hash_mib: DEFAULT_HASH_MIB,
            exact: false,
        }
    }
}

/// What the reader and the searcher share.
struct Shared {
    out: Arc<Output>,
    dialect: Dialect,
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
pub struct Go<G: Game> {
    /// The position (the game's moves already history).
    pub pos: G,
    /// Depth, nodes, time.
    pub limits: Limits,
    /// Stop starting new iterations after this long (clock games).
    pub soft_limit: Option<Duration>,
    /// Answer only after `stop` (infinite, ponder).
    pub wait_for_stop: bool,
    /// Root moves not to play (UCCI's `banmoves`).
    pub banned: Vec<G::Move>,
}

/// The searcher's work, in order.
enum Job<G: Game> {
    Go(u64, Box<Go<G>>),
    Parallelism(Algorithm, usize),
    Hash(usize),
    Clear,
    /// Answer a line once every job before it is done (`readyok`, `pong`).
    Say(&'static str),
}

/// A protocol session's engine side: the searcher thread and the means to
/// command and stop it.
pub struct Session<G: ProtocolGame> {
    shared: Arc<Shared>,
    jobs: Option<Sender<Job<G>>>,
    stop: StopHandle,
    /// Returns the table size in force when it ends, in MiB.
    searcher: Option<JoinHandle<usize>>,
    /// The options in force.
    pub settings: Settings,
}

impl<G: ProtocolGame> Session<G> {
    /// Starts the searcher with `settings`, answering on `out` in `dialect`.
    pub fn start(out: Arc<Output>, dialect: Dialect, settings: Settings) -> Self {
        let shared = Arc::new(Shared {
            out,
            dialect,
            issued: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            stop_upto: Mutex::new(0),
            stop_signal: Condvar::new(),
        });
        let mut settings = settings;
        let mut engine = match Engine::try_new(G::Eval::default(), settings.hash_mib) {
            Ok(engine) => engine,
            Err(e) => {
                // A size that fit a session before but no longer does.
                shared
                    .out
                    .line(&dialect.remark(&format!("{e}; using {DEFAULT_HASH_MIB} MiB instead")));
                settings.hash_mib = DEFAULT_HASH_MIB;
                Engine::new(G::Eval::default(), DEFAULT_HASH_MIB)
            }
        };
        engine.set_parallelism(
            settings.algorithm.resolve(settings.threads),
            settings.threads,
        );
        let stop = engine.stop_handle();
        let (jobs, inbox) = mpsc::channel();
        let searcher = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name("protocol-searcher".into())
                .spawn(move || searcher(engine, &inbox, &shared))
        };
        let searcher = match searcher {
            Ok(handle) => Some(handle),
            Err(e) => {
                shared
                    .out
                    .line(&dialect.remark(&format!("cannot start the search thread: {e}")));
                None
            }
        };
        Session {
            shared,
            jobs: Some(jobs),
            stop,
            searcher,
            settings,
        }
    }

    /// Where the lines go.
    pub fn out(&self) -> &Output {
        &self.shared.out
    }

    /// A remark for the user, in the dialect's words.
    pub fn remark(&self, text: &str) {
        self.out().line(&self.shared.dialect.remark(text));
    }

    /// Whether a search is running (or queued).
    pub fn searching(&self) -> bool {
        self.shared.searching()
    }

    fn send(&self, job: Job<G>) {
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok());
        if !sent || self.searcher.is_none() {
            self.remark("the search thread has stopped");
        }
    }

    /// `readyok`, at once during a search, else once the queued jobs are done.
    pub fn is_ready(&self) {
        self.ping("readyok");
    }

    /// Answers `line` (`readyok`, `pong`) at once during a search, else once
    /// the queued jobs are done.
    pub fn ping(&self, line: &'static str) {
        if self.searching() {
            self.out().line(line);
        } else {
            self.say_after_jobs(line);
        }
    }

    /// Answers `line` once the queued jobs, a search included, are done
    /// (Hub's `ready`).
    pub fn say_after_jobs(&self, line: &'static str) {
        self.send(Job::Say(line));
    }

    /// Asks every search issued so far to stop.
    pub fn request_stop(&self) {
        *self.shared.stop_upto() = self.shared.issued.load(SeqCst);
        self.shared.stop_signal.notify_all();
        if self.searching() {
            self.stop.stop();
        }
    }

    /// Starts a search (stopping a running one first).
    pub fn go(&self, mut go: Go<G>) {
        go.limits.exact = self.settings.exact;
        if self.searching() {
            // Hub has no harmless remark: its `error` would read as a failure.
            if self.shared.dialect != Dialect::Hub {
                self.remark("go during a search: stopping that search first");
            }
            self.request_stop();
        }
        let id = self.shared.issued.load(SeqCst) + 1;
        self.shared.issued.store(id, SeqCst);
        self.send(Job::Go(id, Box::new(go)));
    }

    /// Sets the number of threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads;
        self.send_parallelism();
    }

    /// Sets the algorithm.
    pub fn set_algorithm(&mut self, choice: AlgorithmChoice) {
        self.settings.algorithm = choice;
        self.send_parallelism();
    }

    fn send_parallelism(&self) {
        let Settings {
            threads, algorithm, ..
        } = self.settings;
        self.send(Job::Parallelism(algorithm.resolve(threads), threads));
    }

    /// Resizes the table. A table that cannot be allocated is answered with
    /// a remark, and the engine keeps a table of the old size (see
    /// [`Engine::set_hash`]).
    pub fn set_hash(&mut self, mib: usize) {
        self.settings.hash_mib = mib;
        self.send(Job::Hash(mib));
    }

    /// Clears the table and the histories (a new game).
    pub fn clear(&self) {
        self.send(Job::Clear);
    }

    /// Ends any search (it still answers), lets the searcher finish its jobs,
    /// and returns the options for a next session (with the table size in
    /// force, should a Hash request have failed).
    pub fn finish(mut self) -> Settings {
        self.request_stop();
        self.jobs = None;
        if let Some(Ok(mib)) = self.searcher.take().map(JoinHandle::join) {
            self.settings.hash_mib = mib;
        }
        self.settings
    }
}

/// The searcher: runs jobs until the reader hangs up; returns the table size
/// in force, in MiB.
fn searcher<G: ProtocolGame>(
    mut engine: Engine<G, G::Eval>,
    inbox: &Receiver<Job<G>>,
    shared: &Shared,
) -> usize {
    for job in inbox {
        match job {
            Job::Go(id, go) => search(&mut engine, id, &go, shared),
            Job::Parallelism(algorithm, threads) => engine.set_parallelism(algorithm, threads),
            Job::Hash(mib) => {
                if let Err(e) = engine.set_hash(mib) {
                    let kept = engine.table_bytes() >> 20;
                    let remark = format!("{e}; keeping {kept} MiB");
                    shared.out.line(&shared.dialect.remark(&remark));
                }
            }
            Job::Clear => engine.clear(),
            Job::Say(line) => shared.out.line(line),
        }
    }
    engine.table_bytes() >> 20
}

/// Runs one `go`: `info` after every iteration, then `bestmove` (`done`).
fn search<G: ProtocolGame>(engine: &mut Engine<G, G::Eval>, id: u64, go: &Go<G>, shared: &Shared) {
    let stop = engine.stop_handle();
    let start = Instant::now();
    let root = go.pos.searchable_root();
    let dialect = shared.dialect;
    let allowed = allowed_moves(&root, &go.banned);
    let result = (!allowed.is_empty()).then(|| {
        engine.search_with(&root, &go.limits, |r| {
            shared.out.line(&info_line(dialect, &root, r));
            let out_of_time = go.soft_limit.is_some_and(|soft| start.elapsed() >= soft);
            if out_of_time || shared.stop_requested(id) {
                stop.stop();
            }
        })
    });
    if go.wait_for_stop {
        shared.wait_for_stop(id);
    }
    if dialect != Dialect::Hub {
        let elapsed = start.elapsed();
        let nodes = result.as_ref().map_or(0, |r| r.stats.nodes);
        shared.out.line(&format!(
            "info nodes {nodes} nps {} time {}",
            per_second(nodes, elapsed),
            elapsed.as_millis()
        ));
    }
    let mut best = result.as_ref().and_then(|r| r.best_move);
    if best.is_none_or(|mv| go.banned.contains(&mv)) {
        let depth = result.as_ref().map_or(1, |r| r.depth - 1).max(1);
        best = best_allowed(engine, &root, &allowed, depth, &go.banned);
    }
    let pv = result.as_ref().map_or(&[][..], |r| &r.pv[..]);
    let answer = dialect.best_move_line(&root, best, pv);
    // Free before answering: the GUI may send the next `go` at once.
    shared.finished.store(id, SeqCst);
    shared.out.line(&answer);
}

/// The legal moves of `pos` that are not banned.
fn allowed_moves<G: Game>(pos: &G, banned: &[G::Move]) -> Vec<G::Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.into_iter().filter(|m| !banned.contains(m)).collect()
}

/// The best of `allowed` by a search of each reply `depth - 1` plies deep:
/// the fallback when the search's choice is banned (or it found none).
fn best_allowed<G: ProtocolGame>(
    engine: &mut Engine<G, G::Eval>,
    root: &G,
    allowed: &[G::Move],
    depth: i32,
    banned: &[G::Move],
) -> Option<G::Move> {
    if banned.is_empty() || allowed.len() <= 1 {
        return allowed.first().copied();
    }
    let limits = Limits::to_depth((depth - 1).max(1));
    allowed
        .iter()
        .map(|&mv| (mv, -engine.search(&root.play(mv), &limits).score))
        .max_by_key(|&(_, score)| score)
        .map(|(mv, _)| mv)
}

/// `info depth … seldepth … score … nodes … nps … time … pv …` (UCI),
/// `info depth … score … time … nodes … pv …` (UCCI) or `info depth=…
/// score=… nodes=… time=… nps=… pv="…"` (Hub) for one iteration.
///
/// Hub's score is in men ([`hub_score_text`]), its time in seconds and its
/// speed in millions of nodes per second, as Scan gives them.
fn info_line<G: ProtocolGame>(dialect: Dialect, root: &G, r: &SearchResult<G::Move>) -> String {
    let mut pv = String::new();
    let mut pos = root.clone();
    for &mv in &r.pv {
        pv.push(' ');
        pv.push_str(&dialect.move_text(&pos, mv));
        pos = pos.play(mv);
    }
    let (nodes, time) = (r.stats.nodes, r.elapsed.as_millis());
    match dialect {
        Dialect::Uci => {
            let seldepth = (r.depth as u64).max(r.stats.seldepth);
            format!(
                "info depth {} seldepth {seldepth} score {} nodes {nodes} nps {} time {time} pv{pv}",
                r.depth,
                score_text(r.score),
                per_second(nodes, r.elapsed),
            )
        }
        Dialect::Ucci => format!(
            "info depth {} score {} time {time} nodes {nodes} pv{pv}",
            r.depth, r.score
        ),
        Dialect::Hub => {
            let seconds = r.elapsed.as_secs_f64();
            format!(
                "info depth={} score={} nodes={nodes} time={seconds:.3} nps={:.2} pv=\"{}\"",
                r.depth,
                hub_score_text(r.score),
                nodes as f64 / seconds.max(1e-3) / 1e6,
                pv.trim_start(),
            )
        }
    }
}

/// `cp N`, or `mate N` in moves (negative when we are mated): a win `n` plies
/// away scores `WIN - n` and is `(n + 1) / 2` moves.
pub fn score_text(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("mate {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        format!("mate -{}", (WIN + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

/// The score in men (a man is 1.00), two decimals; a win `n` plies away
/// as `100 - n / 100` (pydraughts reads more than 90 as a win).
pub fn hub_score_text(score: i32) -> String {
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

/// Nodes per second, without dividing by zero.
pub fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// At most 60 characters of a user's text, for echoing it back (after the
/// engine's own words: [`Output::line`] escapes its control characters).
pub fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

/// Our clock as a protocol gave it: time left, increment, moves to the next
/// control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to the next time control, when known.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// Never more than the clock holds less the overhead (or a quarter of
    /// it, when even that is short).
    fn cap(&self) -> Duration {
        self.time.saturating_sub(MOVE_OVERHEAD).max(self.time / 4)
    }

    /// The time to aim for: an even share of what is left over the moves
    /// to go, plus half the increment, never more than the clock holds less
    /// the overhead (or a quarter of it, when even that is short).
    pub fn budget(&self) -> Duration {
        let share =
            self.time / self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1) + self.increment / 2;
        share.min(self.cap()).max(Duration::from_millis(1))
    }

    /// The hard limit: twice the budget, within the cap.
    pub fn hard_limit(&self) -> Duration {
        (self.budget() * 2)
            .min(self.cap())
            .max(Duration::from_millis(1))
    }

    /// After this long, no new iteration starts: it would rarely finish in
    /// time. Half the budget.
    pub fn soft_limit(&self) -> Duration {
        self.budget() / 2
    }
}

/// The lines a protocol session writes when `input` is its whole input (for
/// the protocols' session tests).
#[cfg(test)]
pub fn transcript(
    session: fn(std::io::Cursor<Vec<u8>>, Box<dyn Write + Send>),
    input: &str,
) -> Vec<String> {
    /// A `Write` the test can read after the session.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
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
