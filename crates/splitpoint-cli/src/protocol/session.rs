//! A protocol session's engine side: the searcher thread that owns the
//! [`Engine`], the jobs it takes in order, and the numbering that makes
//! `stop` reliable (see the module above).

use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use splitpoint::{Algorithm, Engine, Game, Limits, SearchResult, StopHandle};

use super::clock::Pacing;
use super::dialect::{Dialect, Output, info_line};
use super::games::ProtocolGame;
use super::options::{EngineOption, MAX_SKILL, Settings};
use super::{AUTHORS, DEFAULT_HASH_MIB, ENGINE, NAME, VERSION, clip, per_second};

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
    /// The number of the last search that completed an iteration (written
    /// by the searcher): until then a stop waits for the first iteration,
    /// so that every answer is a searched move.
    iterated: AtomicU64,
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
    /// The root moves to choose from (UCI's `searchmoves`, UCCI's moves
    /// but the banned); `None`: every legal move.
    pub search_moves: Option<Vec<G::Move>>,
}

/// The searcher's work, in order.
enum Job<G: Game> {
    /// A search, with the options in force when `go` came.
    Go(u64, Box<Go<G>>, Settings),
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
            iterated: AtomicU64::new(0),
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
            settings.algorithm.resolve(G::GAME, settings.threads),
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

    /// Says who the engine is, in the dialect's words: the first lines of
    /// the answer to `uci`, `ucci` and `hub`.
    pub fn introduce(&self) {
        let out = self.out();
        match self.shared.dialect {
            Dialect::Uci | Dialect::Ucci => {
                out.line(&format!("id name {NAME}"));
                out.line(&format!("id author {AUTHORS}"));
            }
            Dialect::Hub => out.line(&format!(
                "id name={ENGINE} version={VERSION} author=\"{AUTHORS}\""
            )),
        }
    }

    /// The answer to a line that is no command.
    pub fn unknown_command(&self, line: &str) {
        self.remark(&format!("unknown command '{}'", clip(line)));
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

    /// Asks every search issued so far to stop. The running search stops
    /// now if it has completed an iteration, else after its first (it looks
    /// at the record then): an answer is always a searched move.
    pub fn request_stop(&self) {
        *self.shared.stop_upto() = self.shared.issued.load(SeqCst);
        self.shared.stop_signal.notify_all();
        let running = self.shared.finished.load(SeqCst) + 1;
        if self.searching() && self.shared.iterated.load(SeqCst) >= running {
            self.stop.stop();
        }
    }

    /// Starts a search (stopping a running one first).
    pub fn go(&self, mut go: Go<G>) {
        go.limits.exact = self.settings.exact;
        if self.settings.skill < MAX_SKILL {
            let cap = self.settings.skill as i32 + 1;
            go.limits.depth = Some(go.limits.depth.map_or(cap, |d| d.min(cap)));
        }
        if self.searching() {
            // Hub has no harmless remark: its `error` would read as a failure.
            if self.shared.dialect != Dialect::Hub {
                self.remark("go during a search: stopping that search first");
            }
            self.request_stop();
        }
        let id = self.shared.issued.load(SeqCst) + 1;
        self.shared.issued.store(id, SeqCst);
        self.send(Job::Go(id, Box::new(go), self.settings));
    }

    /// Sets `option` to `value`; a value it cannot take is answered with a
    /// remark and changes nothing. A table that cannot be allocated is
    /// answered with a remark too, and the engine keeps a table of the old
    /// size (see [`Engine::set_hash`]).
    pub fn set_option(&mut self, option: EngineOption, value: &str) {
        let mut settings = self.settings;
        if let Err(e) = option.read(value, &mut settings) {
            self.remark(&format!("{}: {e}", option.name(self.shared.dialect)));
            return;
        }
        self.settings = settings;
        match option {
            EngineOption::Threads | EngineOption::Algorithm => self.send_parallelism(),
            EngineOption::Hash => self.send(Job::Hash(settings.hash_mib)),
            // Read by every `go`.
            EngineOption::Exact
            | EngineOption::MultiPv
            | EngineOption::Ponder
            | EngineOption::MoveOverhead
            | EngineOption::SkillLevel => {}
        }
    }

    /// The lines that declare the options every protocol offers, with their
    /// values now.
    pub fn declare_options(&self) {
        for option in EngineOption::ALL
            .into_iter()
            .filter(|o| o.offered(self.shared.dialect))
        {
            self.out()
                .line(&self.shared.dialect.declare(option, &self.settings));
        }
    }

    fn send_parallelism(&self) {
        let Settings {
            threads, algorithm, ..
        } = self.settings;
        self.send(Job::Parallelism(
            algorithm.resolve(G::GAME, threads),
            threads,
        ));
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
            Job::Go(id, go, settings) => search(&mut engine, id, &go, &settings, shared),
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
/// With MultiPV above 1 the lines are searched one after another, each
/// without the first moves of the lines before it and within an equal share
/// of the limits. A selective search may score a later line above an earlier
/// one, so the finished lines are reported once more, best first, and the
/// best line's move is played.
fn search<G: ProtocolGame>(
    engine: &mut Engine<G, G::Eval>,
    id: u64,
    go: &Go<G>,
    settings: &Settings,
    shared: &Shared,
) {
    let stop = engine.stop_handle();
    let start = Instant::now();
    let root = go.pos.searchable_root();
    let dialect = shared.dialect;
    let mut among = root.legal_moves().to_vec();
    if let Some(asked) = &go.search_moves {
        among.retain(|mv| asked.contains(mv));
    }
    let lines = settings.multipv.clamp(1, among.len().max(1));
    let (limits, soft_limit) = share_limits(&go.limits, go.soft_limit, lines);
    let mut found: Vec<SearchResult<G::Move>> = Vec::with_capacity(lines);
    let mut nodes = 0;
    for line in 1..=lines {
        if among.is_empty() || shared.stop_requested(id) && !found.is_empty() {
            break;
        }
        let line_start = Instant::now();
        let mut pacing = soft_limit.map(Pacing::new);
        let label = (settings.multipv > 1).then_some(line);
        let r = engine.search_among(&root, Some(&among), &limits, |r| {
            shared.out.line(&info_line(dialect, &root, r, label));
            // Before the look at the stop record: a stop requested meanwhile
            // is seen here or raised by the reader (see `request_stop`).
            shared.iterated.store(id, SeqCst);
            let out_of_time = pacing
                .as_mut()
                .is_some_and(|p| !p.next_iteration(r.best_move, r.score, line_start.elapsed()));
            if out_of_time || shared.stop_requested(id) {
                stop.stop();
            }
        });
        nodes += r.stats.nodes;
        if let Some(mv) = r.best_move {
            among.retain(|&m| m != mv);
        }
        found.push(r);
    }
    if found.len() > 1 {
        // Stable: lines of equal score keep the order they were found in.
        found.sort_by_key(|r| std::cmp::Reverse(r.score));
        for (line, r) in found.iter().enumerate() {
            shared
                .out
                .line(&info_line(dialect, &root, r, Some(line + 1)));
        }
    }
    let top = found.into_iter().next();
    if go.wait_for_stop {
        shared.wait_for_stop(id);
    }
    if dialect != Dialect::Hub {
        let elapsed = start.elapsed();
        shared.out.line(&format!(
            "info nodes {nodes} nps {} time {}",
            per_second(nodes, elapsed),
            elapsed.as_millis()
        ));
    }
    let best = top.as_ref().and_then(|r| r.best_move);
    // Hub names the reply to ponder on always, UCI when the GUI asked for
    // pondering; a principal variation cut short by the table gets it from
    // a one-ply search.
    let mut pv = match &top {
        Some(r) if settings.ponder || dialect == Dialect::Hub => r.pv.clone(),
        _ => Vec::new(),
    };
    if let (true, [mv]) = (settings.ponder, &pv[..]) {
        let after = root.play(*mv);
        if let Some(reply) = engine.search(&after, &Limits::to_depth(1)).best_move {
            pv.push(reply);
        }
    }
    let answer = dialect.best_move_line(&root, best, &pv);
    // Free before answering: the GUI may send the next `go` at once.
    shared.finished.store(id, SeqCst);
    shared.out.line(&answer);
}

/// Each of `lines` searches' share of the hard limits (time, nodes) and of
/// the soft limit.
fn share_limits(
    limits: &Limits,
    soft_limit: Option<Duration>,
    lines: usize,
) -> (Limits, Option<Duration>) {
    let n = lines as u32;
    let limits = Limits {
        movetime: limits
            .movetime
            .map(|t| (t / n).max(Duration::from_millis(1))),
        nodes: limits.nodes.map(|k| (k / n as u64).max(1)),
        ..limits.clone()
    };
    (limits, soft_limit.map(|t| t / n))
}
