//! The `splitpoint` command: bench, selfplay, search, solve and perft from
//! the shell, and the engine protocols.
//!
//! Each subcommand lives in its own module; this file holds the command-line
//! grammar and [`main`], which the binary (`src/main.rs`) calls and which
//! turns failures into exit statuses: 2 and one line on stderr for bad input,
//! 1 for a solve that disagrees with the known answer. It is a library so
//! that the protocol sessions ([`uci::session`], [`ucci::session`],
//! [`hub::session`]) can be driven from elsewhere: the fuzz targets in
//! `fuzz/`.

mod bench;
pub mod cluster;
pub mod error;
pub mod games;
mod gpu_info;
pub mod hub;
mod match_cmd;
mod moves;
mod nboard;
mod othello_match;
mod perft;
pub mod protocol;
mod report;
mod search;
mod selfplay;
mod solve;
mod solve_batch;
mod stress;
mod train;
mod train_chess;
pub mod ucci;
pub mod uci;

use splitpoint::sim::Simulation;
use splitpoint_bench::sim_costs;
use splitpoint_bench::suite::SuiteKind;
use std::ffi::OsString;
use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};
use splitpoint::{Algorithm, Engine, Evaluator, Game, Trace};

use splitpoint_games::registry::{SlavePlace, parse_algorithm};

use crate::cluster::TransportArgs;
use crate::error::{Error, Result};
use crate::games::NamedGame;

/// Parallel alpha-beta game-tree search.
#[derive(Parser, Debug)]
#[command(
    name = "splitpoint",
    version,
    propagate_version = true,
    arg_required_else_help = true
)]
#[command(after_help = "Run 'splitpoint <COMMAND> --help' for each command's flags and examples.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Bench(bench::BenchArgs),
    Selfplay(selfplay::SelfplayArgs),
    Perft(perft::PerftArgs),
    Moves(moves::MovesArgs),
    Search(search::SearchArgs),
    Solve(solve::SolveArgs),
    Uci(uci::UciArgs),
    Ucci(ucci::UcciArgs),
    Hub(hub::HubArgs),
    Nboard(nboard::NboardArgs),
    Stress(stress::StressArgs),
    GpuInfo(gpu_info::GpuInfoArgs),
    Train(train::TrainArgs),
    Match(match_cmd::MatchArgs),
    OthelloMatch(othello_match::OthelloMatchArgs),
}

/// A position to start from, shared by the commands that take one.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position [default: the game's start]
    ///
    /// othello: 64 characters a1..h8 row by row ('X' black, 'O' white, '-' empty),
    /// a space, and the side to move ('X' or 'O'); or 'start'.
    /// synthetic: a tree spec 'b=BRANCHING,d=DEPTH,seed=SEED[,q=ORDERING]'
    /// (default b=6,d=8,seed=1).
    /// chess: a FEN, or 'startpos'.
    /// draughts: a PDN FEN ('W:W31-50:B1-20', kings as 'K'), or 'start'.
    /// xiangqi: a xiangqi FEN ('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'),
    /// or 'startpos'.
    // Othello boards often start with '-' (an empty a1): a value, not a flag.
    #[arg(long, short = 'p', value_name = "POS", allow_hyphen_values = true)]
    pub position: Option<String>,

    /// Moves to play from the position first, separated by spaces or commas
    ///
    /// In the game's move notation: 'f5 d6 c3' for othello (or 'pass'), child
    /// numbers '0 3' for synthetic trees, UCI or SAN ('e2e4 e7e5' or 'e4 e5') for chess,
    /// PDN ('32-28 19-23 28x19') for draughts, ICCS ('h2e2 h9g7') for xiangqi.
    #[arg(long, short = 'm', value_name = "MOVES")]
    pub moves: Option<String>,
}

/// How many threads search, and how they share the work.
#[derive(Args, Debug, Clone)]
pub struct ParallelArgs {
    /// Search threads (more than the machine's cores is allowed)
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,

    #[arg(long, visible_alias = "algo", value_name = "NAME", help = algorithm_help())]
    pub algorithm: Option<String>,

    /// The OpenCL device --algorithm gpu searches on (see splitpoint gpu-info)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gpu_device: usize,

    /// Transposition table: lockless (XOR-checked atomics) or locked (a mutex
    /// per stripe of buckets)
    #[arg(long, value_name = "lockless|locked", default_value = "lockless")]
    pub tt: String,

    /// Write the thread timeline of every search to FILE, in Chrome's
    /// trace-event format (open it in ui.perfetto.dev or chrome://tracing):
    /// per thread, its iterations, the shared moves it searched, its waits
    /// at its own split points and its idle time, and the splits, cutoffs
    /// and bounds
    #[arg(long, value_name = "FILE")]
    pub trace: Option<std::path::PathBuf>,
}

/// The engine of a one-off search or solve: its table, its threads and how
/// they share the work, and where pv-split's slaves run.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Transposition-table size in MiB (0 keeps a single bucket)
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: u64,

    #[command(flatten)]
    pub parallel: ParallelArgs,

    #[command(flatten)]
    pub cluster: TransportArgs,

    /// Simulate: the threads become virtual processors (up to 1,024,
    /// whatever the machine's cores) running the real algorithm one at a
    /// time in deterministic virtual time, at the game's default costs (see
    /// `bench --sim`); times are virtual, and a last line says where the
    /// processors' time went
    #[arg(long)]
    pub sim: bool,
}

impl EngineArgs {
    /// The engine these arguments describe, connected to its slaves (on an
    /// MPI rank other than 0 this serves rank 0 and never returns).
    pub fn engine<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
        &self,
        eval: E,
    ) -> Result<Engine<G, E>> {
        // A name that is no algorithm is `apply`'s to report.
        let on_gpu = matches!(self.parallel.choice(), Ok((_, SlavePlace::Gpu { .. })));
        if on_gpu && self.cluster.transport != "threads" {
            return Err(Error::input(
                "--algorithm gpu: the device is the slaves; --transport is for pv-split",
            ));
        }
        let mut engine = new_engine(eval, self.hash)?;
        if !self.sim {
            self.parallel.apply(&mut engine)?;
            self.cluster.connect(&mut engine)?;
            return Ok(engine);
        }
        let local = matches!(self.parallel.choice(), Ok((_, SlavePlace::Threads { .. })));
        if self.parallel.trace.is_some() || !local || self.cluster.transport != "threads" {
            return Err(Error::input(
                "--sim: simulates this process's threads (not with --trace, the gpu or mpi)",
            ));
        }
        self.parallel
            .apply_up_to(&mut engine, splitpoint::sim::MAX_PROCESSORS)?;
        let costs = sim_costs::defaults(G::GAME, SuiteKind::Depth(0));
        engine.set_simulation(Some(Simulation::with_costs(costs)));
        Ok(engine)
    }
}

/// The most threads an engine may be given: on the command line, in every
/// protocol's option and in the stress harness.
pub const MAX_THREADS: usize = 256;
/// The largest transposition table, in MiB, wherever a size is given. The
/// table is allocated fallibly and zeroed lazily, so a size the machine
/// cannot give is a one-line error (or a protocol remark), never an abort.
pub const MAX_HASH_MIB: usize = 65_536;

impl ParallelArgs {
    /// Writes the timelines of `searches` to the --trace file, if one was
    /// asked for, with what was run.
    pub fn write_trace(&self, searches: &[(String, Trace)]) -> Result<()> {
        let Some(path) = &self.trace else {
            return Ok(());
        };
        let about = [
            (
                "command_line",
                std::env::args().collect::<Vec<_>>().join(" "),
            ),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
        ];
        splitpoint_bench::trace::write_chrome_json(path, searches, &about)
            .map_err(|e| Error::input(format!("--trace {}: {e}", path.display())))
    }

    /// The algorithm and where pv-split's slaves live, as `--algorithm`
    /// and `--gpu-device` name them (`None` for `auto`).
    fn choice(&self) -> Result<(Option<Algorithm>, SlavePlace)> {
        match &self.algorithm {
            Some(name) => {
                let (algorithm, slaves) = parse_algorithm(name, self.gpu_device)
                    .map_err(|e| Error::input(format!("--algorithm: {e}")))?;
                Ok((Some(algorithm), slaves))
            }
            None => Ok((None, SlavePlace::default())),
        }
    }

    /// The algorithm's name as the user chose it: `gpu` for pv-split on a
    /// device.
    pub fn algorithm_name<G: Game, E: Evaluator<G>>(&self, engine: &Engine<G, E>) -> String {
        let slaves = self.choice().map_or(SlavePlace::default(), |(_, s)| s);
        slaves.label(engine.algorithm())
    }

    /// Sets `engine`'s algorithm and thread count (for `gpu`, pv-split on
    /// one thread with the device as its slaves).
    pub fn apply<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
        &self,
        engine: &mut Engine<G, E>,
    ) -> Result<()> {
        self.apply_up_to(engine, MAX_THREADS)
    }

    /// [`ParallelArgs::apply`] with up to `max` threads.
    fn apply_up_to<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
        &self,
        engine: &mut Engine<G, E>,
        max: usize,
    ) -> Result<()> {
        if !(1..=max).contains(&self.threads) {
            let sim = if max == MAX_THREADS {
                "; up to 1024 with --sim, where the command has it"
            } else {
                ""
            };
            return Err(Error::input(format!(
                "--threads: {} is out of range (1 to {max}{sim})",
                self.threads
            )));
        }
        let (algorithm, slaves) = self.choice()?;
        if slaves.master_threads(self.threads) != self.threads {
            return Err(Error::input(
                "--algorithm gpu: the CPU side is one thread (the master); leave out --threads",
            ));
        }
        let algorithm = algorithm.unwrap_or_else(|| G::GAME.auto_algorithm(self.threads));
        if let SlavePlace::Gpu { .. } = slaves {
            let eval = engine.evaluator().clone();
            engine.set_slaves(slaves.slaves(eval, None).map_err(Error::input)?);
        }
        let table = self
            .tt
            .parse()
            .map_err(|e| Error::input(format!("--tt: {e}")))?;
        engine.set_table_kind(table);
        engine.set_parallelism(algorithm, self.threads);
        engine.set_trace(self.trace.is_some());
        Ok(())
    }

    /// One line on where a simulated search's processors' time went.
    pub fn simulation_line<G: Game, E: Evaluator<G>>(engine: &Engine<G, E>) -> Option<String> {
        let r = engine.simulation_report()?;
        let share = |x: f64| 100.0 * x / r.processor_seconds.max(1e-18);
        Some(format!(
            "simulated {} processors: {:.6} s virtual ({:.2} s real); searching {:.1}%, \
             overhead {:.1}%, idle {:.1}%, waiting {:.1}%",
            r.processors,
            r.seconds,
            r.real_seconds,
            share(r.search_seconds),
            share(r.overhead_seconds),
            share(r.idle_seconds),
            share(r.wait_seconds)
        ))
    }
}

/// The `--algorithm` help: every name the library knows.
fn algorithm_help() -> String {
    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    format!(
        "Parallel algorithm: {}, or gpu (othello, a build with --features gpu: pv-split \
         with an OpenCL device searching the younger brothers, each split two plies on the \
         host; gpu-narrow sends each whole, gpu-wide splits it down to four plies from the \
         leaves, for wider launches and more nodes) [default: serial with one thread; with \
         more, the game's fastest: dts (ybw on synthetic trees)]",
        names.join(", ")
    )
}

/// Runs the command line: parses the arguments, runs the command, and
/// returns its exit status.
pub fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some(flag) = swallowed_flag(&args) {
        let message = format!("--position: a value is required (found the flag '{flag}')");
        eprintln!("splitpoint: {}", Error::input(message));
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let result = match &cli.command {
        Command::Bench(args) => bench::run_bench(args),
        Command::Selfplay(args) => selfplay::run_selfplay(args),
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Search(args) => search::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Ucci(args) => ucci::run(args),
        Command::Hub(args) => hub::run(args),
        Command::Nboard(args) => nboard::run(args),
        Command::Stress(args) => stress::run(args),
        Command::GpuInfo(args) => gpu_info::run(args),
        Command::Train(args) => train::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::OthelloMatch(args) => othello_match::run(args),
    };
    cluster::shutdown();
    let (code, e) = match result {
        Ok(code) => return code,
        // The reader went away (`splitpoint ... | head`): nothing left to say.
        Err(Error::Output(e)) if e.kind() == ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
        Err(e @ Error::Output(_)) => (ExitCode::FAILURE, e),
        Err(e @ Error::Input(_)) => (ExitCode::from(2), e),
    };
    // Under mpirun every rank meets the same bad input: rank 0 says it.
    if !cluster::is_quiet_rank() {
        eprintln!("splitpoint: {e}");
    }
    code
}

/// Reports a command line clap rejects as every other bad input is reported:
/// one line on stderr, status 2 (clap's own report is several lines: the
/// error, tips, the usage and a pointer to `--help`). Help and version, and
/// the help shown for a bare `splitpoint`, print as clap prints them.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let status = u8::try_from(e.exit_code()).unwrap_or(2);
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Printing fails only when the stream is gone: nothing left to say.
        let _ = e.print();
        return ExitCode::from(status);
    }
    eprintln!(
        "splitpoint: {}",
        Error::input(usage_line(&e.render().to_string()))
    );
    ExitCode::from(2)
}

/// clap's rendered error as one line: the message, its useful tips, and
/// which command's `--help` to read.
fn usage_line(rendered: &str) -> String {
    let mut paragraphs = rendered.trim_end().split("\n\n");
    let message = paragraphs.next().unwrap_or_default();
    // clap puts lists (the missing arguments) on indented lines of their own.
    let mut line = message.trim_start_matches("error: ").replace("\n  ", " ");
    for paragraph in paragraphs {
        let paragraph = paragraph.trim();
        if let Some(tip) = paragraph.strip_prefix("tip: ") {
            // "to pass '-x' as a value, use '-- -x'": no help for a flag's value.
            if !tip.starts_with("to pass ") {
                line.push_str(&format!(" ({tip})"));
            }
        } else if let Some(usage) = paragraph.strip_prefix("Usage: ") {
            let command: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect();
            line.push_str(&format!("; see '{} --help'", command.join(" ")));
        }
    }
    line
}

/// The flag `-p`/`--position` would take as its value when the position is
/// left out (`-p --depth 3`): the position flags accept values starting with
/// '-', so clap would take the flag for the position and then report the
/// flag's own value as unexpected.
fn swallowed_flag(args: &[OsString]) -> Option<&str> {
    args.windows(2).find_map(|pair| {
        let value = pair[1].to_str()?;
        let position = matches!(pair[0].to_str(), Some("-p" | "--position"));
        (position && is_flag(value)).then_some(value)
    })
}

/// Whether `text` is one of the command line's flags (`--depth`, `-d`,
/// `--depth=3`), in any command.
fn is_flag(text: &str) -> bool {
    let name = text.split('=').next().unwrap_or_default();
    let cli = Cli::command();
    let mut commands = std::iter::once(&cli).chain(cli.get_subcommands());
    commands.any(|command| {
        command
            .get_arguments()
            .any(|arg| match name.strip_prefix("--") {
                Some(long) => arg
                    .get_long_and_visible_aliases()
                    .is_some_and(|l| l.contains(&long)),
                None => {
                    let mut short = name.chars();
                    short.next() == Some('-')
                        && short.next().is_some_and(|c| arg.get_short() == Some(c))
                        && short.next().is_none()
                }
            })
    })
}

/// Checks a search or perft depth: 1 to [`splitpoint::MAX_DEPTH`] plies.
pub fn check_depth(flag: &str, depth: i64) -> Result<i32> {
    match i32::try_from(depth) {
        Ok(d) if (1..=splitpoint::MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(Error::input(format!(
            "{flag}: {depth} is out of range (1 to {} plies)",
            splitpoint::MAX_DEPTH
        ))),
    }
}

/// Checks a transposition-table size in MiB.
pub fn check_hash(mib: u64) -> Result<usize> {
    if mib > MAX_HASH_MIB as u64 {
        return Err(Error::input(format!(
            "--hash: {mib} MiB is more than the {MAX_HASH_MIB} MiB allowed"
        )));
    }
    Ok(mib as usize)
}

/// An engine with a table of `mib` MiB (checked by [`check_hash`]).
///
/// # Errors
/// Bad input (status 2) when the size is out of range or the table cannot be
/// allocated.
pub fn new_engine<G: Game, E: Evaluator<G>>(eval: E, mib: u64) -> Result<Engine<G, E>> {
    Engine::try_new(eval, check_hash(mib)?).map_err(|e| Error::input(format!("--hash: {e}")))
}

/// Standard output, locked once per command; line-buffered, so progress lines
/// appear as they are written.
pub fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}
