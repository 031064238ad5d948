//! `splitpoint bench`: the classic speedup tables, with plots.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use splitpoint::Algorithm;
use splitpoint::sim::{MAX_PROCESSORS, Simulation};
use splitpoint_bench::machine::cores;
use splitpoint_bench::report::Row;
use splitpoint_bench::suite::{EMBEDDED, QUICK, Suite, SuiteKind, parse_depth};
use splitpoint_bench::{BenchOptions, BenchReport, Cluster, GpuDevice, run, signature, sim_costs};
use splitpoint_games::registry::{GpuSplit, SlavePlace, parse_algorithm, parse_latency};

use crate::error::{Error, Result};
use crate::games::{GameName, parse_game};
use crate::{check_hash, stdout};

/// Measure every parallel algorithm: time, speedup, nodes and NPS for 1..N threads
///
/// Searches a test suite to a fixed depth (or solves it exactly) under every
/// (algorithm, threads) configuration, as the classic parallel alpha-beta
/// surveys did, and prints a markdown table per algorithm — threads, median time
/// over the runs (min–max), speedup over serial (serial's time / time), nodes,
/// NPS, search overhead, splits, aborted work, idle time — then a summary of
/// every speedup side by side. Thread counts above the machine's cores are
/// allowed and marked `*` (oversubscribed). The 1-minute load average is read
/// before and after each configuration's runs: a configuration run while it
/// exceeded the cores (other work competing) is marked `!`, with a warning;
/// serial's own runs lying more than 10% apart get a note on the noise.
/// Each run also measures the machine's ceiling: as many serial searches at
/// once as each thread count above one, each on its own engine; the
/// summary's last row is their node rate over serial's, what the machine
/// gave the workload then (--no-ceiling skips it).
///
/// Every answer is checked: against the suite's known scores and best moves,
/// and in exact mode or a solve against serial search. A wrong answer is
/// listed and makes the exit status 1. Suites run in exact mode, except the
/// chess and xiangqi suites, which run in normal mode (the selective search
/// such engines are measured with), and the Othello endgame suites, which run
/// the solver of `splitpoint solve` (--exact: the oracle it is tested
/// against, three to four times as slow); chess test suites count how many of
/// their best moves each configuration finds.
///
/// Writes results.json (every measurement and load average, the table rows,
/// the machine, the build, the git commit, the version, the command line, the
/// time), speedup.svg/.png, overhead.svg/.png and time_vs_depth.svg into --out.
///
/// --quick is the first run to make (about a minute on 2 cores); --signature
/// checks that a change left the search alone.
#[derive(Args, Debug)]
#[command(after_help = suites_help())]
pub struct BenchArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic [default: the
    /// suite's game, else othello]
    #[arg(long, short = 'g')]
    pub game: Option<String>,

    /// An embedded suite (see below) or a suite file [default: the game's default suite]
    #[arg(long, short = 's', value_name = "NAME|FILE")]
    pub suite: Option<String>,

    /// Search depth for every position, overriding the suite's
    #[arg(long, short = 'd', value_name = "D")]
    pub depth: Option<String>,

    /// Algorithms, comma-separated, or 'all' (the library's; gpu, gpu-narrow
    /// and gpu-wide are rows of their own, named here)
    #[arg(
        long,
        visible_alias = "algo",
        value_name = "A,B,..|all",
        default_value = "all"
    )]
    pub algos: String,

    /// The OpenCL device the gpu rows search on (see splitpoint gpu-info)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gpu_device: usize,

    /// Thread counts, comma-separated, or 'max' (1 up to this machine's cores);
    /// 1 is always added
    #[arg(long, short = 't', value_name = "1,2,4|max", default_value = "max")]
    pub threads: String,

    /// pv-split once more with every message held back this long between
    /// its threads, as a cluster's network would (rows `pv-split+50us`, a
    /// curve each in the plots): latencies comma-separated, such as 50us,1ms
    #[arg(long, value_name = "50us,1ms")]
    pub latency: Option<String>,

    /// `mpi`: pv-split once more with its slaves on MPI ranks, at each of
    /// --ranks (rows `pv-split/mpi`, one thread per rank, with the messages
    /// and bytes that crossed). Run the same command on every rank under
    /// mpirun, with a build made with --features mpi; rank 0 reports
    #[arg(long, value_name = "threads|mpi", default_value = "threads")]
    pub transport: String,

    /// With --transport mpi: how many ranks each pv-split/mpi row uses (the
    /// master's included), comma-separated [default: 1 up to every rank]
    #[arg(long, value_name = "1,2,4")]
    pub ranks: Option<String>,

    /// Runs per configuration, interleaved (run 1 of every configuration,
    /// then run 2, ...) after an untimed warm-up pass; the median is
    /// reported with min–max and a 95% bootstrap interval of the speedup
    #[arg(long, short = 'r', value_name = "R", default_value_t = 5)]
    pub runs: usize,

    /// Transposition table per engine, MiB
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: u64,

    /// Transposition table: lockless (XOR-checked atomics) or locked (a mutex
    /// per stripe of buckets), to measure what locking costs
    #[arg(long, value_name = "lockless|locked", default_value = "lockless")]
    pub tt: String,

    /// Normal mode (table cutoffs, aspiration windows, the game's forward
    /// pruning) instead of exact mode; scores that then differ from serial
    /// are reported, not failed (but a solve's must agree) [default for the
    /// chess and xiangqi suites, and for solves: the solver]
    #[arg(long, conflicts_with = "exact")]
    pub normal: bool,

    /// Exact mode: every score must equal serial search's; a solve runs the
    /// oracle, the exact-mode search the solver is tested against [default,
    /// except for the chess and xiangqi suites and solves]
    #[arg(long)]
    pub exact: bool,

    /// Directory for results.json and the plots
    #[arg(long, short = 'o', value_name = "DIR", default_value = "bench-out")]
    pub out: PathBuf,

    /// Print the whole report as JSON on stdout instead of the tables
    #[arg(long)]
    pub json: bool,

    /// No progress bar
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Skip the machine's ceiling: by default every run also searches the
    /// suite with as many serial searches at once as each thread count
    /// above one (up to the cores), each on its own engine, and the summary
    /// gives their node rate over serial's, what the machine gave the
    /// workload at the time, against which a speedup is read
    #[arg(long)]
    pub no_ceiling: bool,

    /// The one-minute first run: every game's tiny suite (searched deeper
    /// than the tests do), serial, ybw and dts, 1 and 2 threads, 1 run; each
    /// suite's tables, results.json and plots in DIR/SUITE
    #[arg(long, conflicts_with_all = ["game", "suite", "depth", "algos", "threads", "runs"])]
    pub quick: bool,

    /// The build signature, as Stockfish's bench: built-in positions of every
    /// game (or of --game's) searched serially to a fixed depth with a 16 MiB
    /// table; prints the time, the nodes per second and last `Nodes searched:
    /// N`, which changes only when the search does
    #[arg(long, conflicts_with_all = [
        "suite", "depth", "algos", "threads", "runs", "hash", "tt", "normal", "exact", "out",
        "json", "quick", "trace",
    ])]
    pub signature: bool,

    /// Simulate instead of timing: every configuration runs its real
    /// algorithm on --threads virtual processors (up to 1,024, whatever the
    /// machine's cores) in deterministic virtual time, each node and
    /// parallel operation costed (--calibrate, --sim-costs); one run, no
    /// ceiling. Adds the processors' time breakdown (searching, overhead,
    /// idle, waiting, work cut off) and sim_speedup.svg/.png (speedup and
    /// efficiency against processors, log axis). With --algos all, the
    /// algorithms whose every thread searches the whole tree (shared-tt,
    /// lazy-smp, abdada) stop at 16 processors: each simulated processor
    /// costs real time, and theirs each search the whole tree (name them in
    /// --algos to go further)
    #[arg(long)]
    pub sim: bool,

    /// With --sim: measure the costs on this machine first (a node: the
    /// suite searched serially, timed; a cache line and a wake-up: two
    /// threads handing a flag back and forth) instead of the game's
    /// defaults; written into results.json
    #[arg(long, requires = "sim")]
    pub calibrate: bool,

    /// With --sim: the costs, nanoseconds, as node=N,line=N,wake=N (any of
    /// them; the rest from the game's defaults or --calibrate)
    #[arg(long, value_name = "node=N,line=N,wake=N", requires = "sim")]
    pub sim_costs: Option<String>,

    /// With --sim: how far (virtual nanoseconds) a processor may run ahead of
    /// the next before handing over; smaller is finer and slower
    #[arg(long, value_name = "NS", requires = "sim")]
    pub quantum: Option<f64>,

    /// Also write the thread timeline the bench records (the first position,
    /// searched once more untimed by the game's default algorithm at the most
    /// threads; drawn as timeline.svg) to FILE, in Chrome's trace-event
    /// format (ui.perfetto.dev, chrome://tracing)
    #[arg(long, value_name = "FILE", conflicts_with = "quick")]
    pub trace: Option<PathBuf>,
}

/// The help text after the flags: the embedded suites, the file format, examples.
fn suites_help() -> String {
    let mut help = String::from("Embedded suites:\n");
    for (name, game, what) in EMBEDDED {
        let default = if game.default_suite() == name {
            format!(" (default for {game})")
        } else {
            String::new()
        };
        help.push_str(&suite_line(name, &format!("{what}{default}")));
    }
    help + SUITES_HELP
}

/// One suite's line of the help, wrapped at 80 columns under its description:
/// clap would wrap a longer line at the terminal's width without the indent.
fn suite_line(name: &str, description: &str) -> String {
    const WIDTH: usize = 80;
    let mut text = format!("  {name:<16}");
    let mut column = text.chars().count();
    for word in description.split_whitespace() {
        if column + 1 + word.chars().count() > WIDTH {
            text.push('\n');
            text.push_str(&" ".repeat(18));
            column = 18;
        }
        text.push(' ');
        text.push_str(word);
        column += 1 + word.chars().count();
    }
    text + "\n"
}

const SUITES_HELP: &str = "
Suite files: one position a line, optionally followed by
'; score=N ; best=m1,m2 ; depth=D ; id=NAME'; '#' starts a comment; a line
'#! depth=D' or '#! solve' sets the suite's depth (--depth stands in for a
missing one) or makes it an exact solve, by the solver unless --exact
('#! game=synthetic' names the game, '#! goals' makes the best= moves goals
that are counted, not checked, '#! normal' runs it in normal mode by default).
A chess suite may be an EPD file (*.epd, 'bm' and 'id' operations). Best moves
are in the game's move notation; every position and best move is read when the
suite is loaded, and a suite with no positions, or a malformed position or a
best move that is not legal there, is bad input (status 2, naming the file and
the line), found before anything is searched.

Examples:
  splitpoint bench --quick                          a minute: every game, serial, ybw, dts
  splitpoint bench                                  Othello midgame suite, 1..cores threads
  splitpoint bench --suite othello-ffo --algos dts --threads 1,2
                                                    the endgame solver, FFO #40-#44
  splitpoint bench --algos serial,ybw,dts --threads 1,2,4,8
  splitpoint bench --game chess                     Bratko-Kopec and middlegames, depth 8
  splitpoint bench --game draughts --algos workloads,ybw --threads 1,2
  splitpoint bench --game xiangqi --runs 1          12 midgames, depth 8, normal mode
  splitpoint bench --game synthetic --normal --out results/
  splitpoint bench --signature                      the build's node count, before and after";

/// Parses `--algos`: the library's algorithms, and the gpu algorithm's
/// splits among them (`gpu`, `gpu-narrow`, `gpu-wide`: pv-split on an
/// OpenCL device, a row each).
pub fn parse_algorithms(text: &str) -> Result<(Vec<Algorithm>, Vec<GpuSplit>)> {
    if text == "all" {
        return Ok((Algorithm::ALL.to_vec(), Vec::new()));
    }
    let mut splits = Vec::new();
    let mut algorithms = Vec::new();
    for name in text.split(',').map(str::trim) {
        match parse_algorithm(name, 0).map_err(|e| Error::input(format!("--algos: {e}")))? {
            (_, SlavePlace::Gpu { split, .. }) => {
                if !splits.contains(&split) {
                    splits.push(split);
                }
            }
            (algorithm, _) => algorithms.push(algorithm),
        }
    }
    Ok((algorithms, splits))
}

/// Parses `--threads`: real threads up to 256, or with `sim` virtual
/// processors up to [`MAX_PROCESSORS`].
pub fn parse_threads(text: &str, sim: bool) -> Result<Vec<usize>> {
    if text == "max" {
        return Ok(if sim {
            SIM_PROCESSORS.to_vec()
        } else {
            (1..=cores()).collect()
        });
    }
    let (most, what) = if sim {
        (MAX_PROCESSORS, "a processor count from 1 to 1024")
    } else {
        (256, "a thread count from 1 to 256")
    };
    text.split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if (1..=most).contains(&n) => Ok(n),
            _ => Err(Error::input(format!(
                "--threads: '{t}' is not {what} (or 'max')"
            ))),
        })
        .collect()
}

/// `--sim --threads max`: the powers of two up to [`MAX_PROCESSORS`].
const SIM_PROCESSORS: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/// With --algos all, the whole-tree algorithms stop at this many simulated
/// processors (see --sim).
const WHOLE_TREE_SIM_MAX: usize = 16;

/// Runs the bench: the signature, the quick run, or one suite.
pub fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    if args.signature {
        return run_signature(args);
    }
    let plans = if args.quick {
        quick_options(args)?
    } else {
        vec![suite_options(args)?]
    };
    if let [options] = plans.as_slice() {
        if options.cluster.as_ref().is_some_and(|c| c.0.rank() != 0) {
            // A slave rank: serve rank 0's bench, say nothing.
            let channel = options.cluster.clone().expect("a cluster").0;
            splitpoint_bench::serve_cluster(options, channel).map_err(Error::input)?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut out = stdout();
    let mut reports = Vec::new();
    for options in &plans {
        let report = run(options).map_err(Error::input)?;
        let dir = options.out.as_deref().unwrap_or(&args.out);
        if !args.json {
            writeln!(out, "{}", report.markdown)?;
            let timeline = if report.timeline.is_some() {
                ", timeline.svg/.png"
            } else {
                ""
            };
            writeln!(
                out,
                "Wrote {} (every measurement), speedup.svg/.png, overhead.svg/.png{timeline} \
                 and time_vs_depth.svg.\n",
                dir.join("results.json").display()
            )?;
        }
        if args.trace.is_some() && report.timeline.is_none() {
            return Err(Error::input(
                "--trace: no configuration ran on more than one thread (see --threads)",
            ));
        }
        if let (Some(path), Some(timeline)) = (&args.trace, &report.timeline) {
            let about = [(
                "command_line",
                std::env::args().collect::<Vec<_>>().join(" "),
            )];
            splitpoint_bench::trace::write_chrome_json(
                path,
                std::slice::from_ref(timeline),
                &about,
            )
            .map_err(|e| Error::input(format!("--trace {}: {e}", path.display())))?;
        }
        warn_if_loaded(&report);
        reports.push(report);
    }
    if args.json {
        let json = match reports.as_slice() {
            [one] => serde_json::to_string_pretty(one),
            all => serde_json::to_string_pretty(all),
        }
        .map_err(|e| Error::input(e.to_string()))?;
        writeln!(out, "{json}")?;
    } else if args.quick {
        writeln!(out, "{}", quick_summary(&reports))?;
    }
    let wrong: usize = reports.iter().map(BenchReport::wrong).sum();
    if wrong > 0 {
        eprintln!("splitpoint: {wrong} wrong answers (see the table)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The options for one suite, from the flags.
fn suite_options(args: &BenchArgs) -> Result<BenchOptions> {
    // An embedded suite or a suite file says its game; --game, when given,
    // must agree with it.
    let game = args.game.as_deref().map(parse_game).transpose()?;
    let name = args.suite.clone().unwrap_or_else(|| {
        game.unwrap_or(GameName::Othello)
            .default_suite()
            .to_string()
    });
    let depth = args
        .depth
        .as_deref()
        .map(parse_depth)
        .transpose()
        .map_err(|e| Error::input(format!("--depth: {e}")))?;
    let mut suite = Suite::load_with_depth(&name, game, depth)
        .map_err(|e| Error::input(format!("--suite: {e}")))?;
    if let Some(depth) = depth {
        if suite.kind == SuiteKind::Solve {
            return Err(Error::input(format!(
                "--depth: suite '{name}' is solved exactly, not searched to a depth"
            )));
        }
        suite.set_depth(depth);
    }
    if args.runs == 0 || args.runs > 1000 {
        return Err(Error::input(format!(
            "--runs: {} is out of range (1 to 1000)",
            args.runs
        )));
    }
    let mut options = common_options(args, suite)?;
    let splits;
    (options.algorithms, splits) = parse_algorithms(&args.algos)?;
    if !splits.is_empty() {
        if options.suite.game != GameName::Othello {
            return Err(Error::input(format!(
                "--algos gpu: only othello has a GPU search, not {}",
                options.suite.game
            )));
        }
        let name = crate::gpu_info::device_name(args.gpu_device)?;
        options.gpu = Some(GpuDevice {
            index: args.gpu_device,
            name,
            splits,
        });
    }
    options.threads = parse_threads(&args.threads, args.sim)?;
    options.runs = args.runs;
    if args.sim {
        simulation_options(args, &mut options)?;
    }
    if let Some(list) = &args.latency {
        if !options.algorithms.contains(&Algorithm::PvSplit) {
            return Err(Error::input(
                "--latency: only pv-split sends messages (add it to --algos)",
            ));
        }
        options.latencies = list
            .split(',')
            .map(|l| parse_latency(l).map_err(|e| Error::input(format!("--latency: {e}"))))
            .collect::<Result<_>>()?;
    }
    match (args.transport.as_str(), &args.ranks) {
        ("threads", None) => {}
        ("threads", Some(_)) => {
            return Err(Error::input("--ranks: only with --transport mpi"));
        }
        ("mpi", ranks) => {
            let world = crate::cluster::world()?;
            options.ranks = parse_ranks(ranks.as_deref(), world.size())?;
            options.cluster = Some(Cluster(world));
        }
        (other, _) => {
            return Err(Error::input(format!(
                "--transport: unknown transport '{other}' (threads or mpi)"
            )));
        }
    }
    Ok(options)
}

/// `--sim`'s settings: the costs (the game's defaults, measured, or given),
/// the quantum, and what a simulation leaves out (runs, the ceiling, the
/// whole-tree algorithms' many processors, unless asked for).
fn simulation_options(args: &BenchArgs, options: &mut BenchOptions) -> Result<()> {
    if args.transport != "threads" || options.gpu.is_some() {
        return Err(Error::input(
            "--sim: simulates this process's threads (not --transport mpi or the gpu row)",
        ));
    }
    let mut costs = sim_costs::defaults(options.suite.game, options.suite.kind);
    options.costs_from = "default".to_string();
    if args.calibrate {
        costs = sim_costs::calibrate(options).map_err(Error::input)?;
        options.costs_from = "calibrated".to_string();
    }
    if let Some(text) = &args.sim_costs {
        costs =
            sim_costs::parse(text, costs).map_err(|e| Error::input(format!("--sim-costs: {e}")))?;
        options.costs_from = "given".to_string();
    }
    let mut simulation = Simulation::with_costs(costs);
    if let Some(q) = args.quantum {
        simulation.quantum_ns = q;
    }
    simulation
        .validate()
        .map_err(|e| Error::input(format!("--sim: {e}")))?;
    options.simulation = Some(simulation);
    options.runs = 1;
    options.ceiling = false;
    if args.algos == "all" {
        options.whole_tree_max = Some(WHOLE_TREE_SIM_MAX);
    }
    Ok(())
}

/// The --ranks list: each from 1 to the processes mpirun started (all of
/// them, one by one, by default).
fn parse_ranks(list: Option<&str>, size: usize) -> Result<Vec<usize>> {
    let Some(list) = list else {
        return Ok((1..=size).collect());
    };
    let mut ranks = Vec::new();
    for word in list.split(',') {
        let r: usize = word
            .trim()
            .parse()
            .map_err(|_| Error::input(format!("--ranks: '{word}' is no number of ranks")))?;
        if !(1..=size).contains(&r) {
            return Err(Error::input(format!(
                "--ranks: {r} is out of range (1 to the {size} processes mpirun started)"
            )));
        }
        if !ranks.contains(&r) {
            ranks.push(r);
        }
    }
    Ok(ranks)
}

/// The quick run's options: each of [`QUICK`]'s suites at its depth, serial,
/// ybw and dts, 1 and 2 threads, 1 run, into its own directory.
fn quick_options(args: &BenchArgs) -> Result<Vec<BenchOptions>> {
    if args.transport != "threads" || args.ranks.is_some() {
        return Err(Error::input(
            "--quick runs in one process: --transport and --ranks are for a full bench",
        ));
    }
    QUICK
        .iter()
        .map(|&(name, depth)| {
            let mut suite = Suite::load(name, None).map_err(Error::input)?;
            if let Some(depth) = depth {
                suite.set_depth(depth);
            }
            let mut options = common_options(args, suite)?;
            options.algorithms = vec![
                Algorithm::Serial,
                Algorithm::Ybw { strong: false },
                Algorithm::Dts,
            ];
            options.threads = vec![1, 2];
            options.runs = 1;
            options.ceiling = false;
            options.out = Some(args.out.join(name));
            Ok(options)
        })
        .collect()
}

/// The options every run takes from the flags: table, mode, output.
fn common_options(args: &BenchArgs, suite: Suite) -> Result<BenchOptions> {
    let exact = !args.normal && (args.exact || suite.exact);
    Ok(BenchOptions {
        suite,
        algorithms: Vec::new(),
        threads: vec![1],
        latencies: Vec::new(),
        ranks: Vec::new(),
        cluster: None,
        gpu: None,
        runs: 1,
        hash_mib: check_hash(args.hash)?,
        table: args
            .tt
            .parse()
            .map_err(|e| Error::input(format!("--tt: {e}")))?,
        exact,
        out: Some(args.out.clone()),
        quiet: args.quiet,
        ceiling: !args.no_ceiling,
        simulation: None,
        costs_from: String::new(),
        whole_tree_max: None,
    })
}

/// One line on stderr when some configurations ran on a loaded machine.
fn warn_if_loaded(report: &BenchReport) {
    let loaded: Vec<String> = report
        .rows
        .iter()
        .filter(|r| r.loaded)
        .map(|r| format!("{} × {}", r.algorithm, r.threads))
        .collect();
    let peak = report
        .rows
        .iter()
        .filter_map(|r| r.load)
        .fold(0.0, f64::max);
    if !loaded.is_empty() {
        eprintln!(
            "splitpoint: warning: the load average rose above {} (up to {peak:.2}) while \
             measuring {} on suite {}: other work competed for the cores, so these times \
             (marked !) are suspect",
            report.load_limit,
            loaded.join(", "),
            report.suite.name
        );
    }
}

/// The quick run's speedups side by side: one column per suite, at the
/// largest thread count.
fn quick_summary(reports: &[BenchReport]) -> String {
    let threads = reports
        .iter()
        .flat_map(|r| &r.rows)
        .map(|r| r.threads)
        .max()
        .unwrap_or(1);
    let mut text = format!(
        "## Quick run: speedup over serial (serial's time / time) at {threads} threads\n\n| Algorithm |"
    );
    for report in reports {
        text.push_str(&format!(" {} |", report.suite.name));
    }
    text.push_str(&format!("\n|---|{}\n", "---:|".repeat(reports.len())));
    let mut algorithms: Vec<&str> = Vec::new();
    for row in reports.iter().flat_map(|r| &r.rows) {
        if row.algorithm != "serial" && !algorithms.contains(&row.algorithm.as_str()) {
            algorithms.push(&row.algorithm);
        }
    }
    for algorithm in algorithms {
        text.push_str(&format!("| {algorithm} |"));
        for report in reports {
            let cell = report
                .rows
                .iter()
                .find(|r| r.algorithm == algorithm && r.threads == threads)
                .map_or("–".to_string(), Row::speedup_cell);
            text.push_str(&format!(" {cell} |"));
        }
        text.push('\n');
    }
    text + "\nThe full bench: `splitpoint bench` (Othello, every algorithm, 5 runs, a few minutes)."
}

/// Prints the build signature of every game, or of --game's.
fn run_signature(args: &BenchArgs) -> Result<ExitCode> {
    let games = match &args.game {
        Some(game) => vec![parse_game(game)?],
        None => GameName::ALL.to_vec(),
    };
    let mut out = stdout();
    let mut written = Ok(());
    signature::run(&games, |line| {
        if written.is_ok() {
            written = writeln!(out, "{line}");
        }
    })
    .map_err(Error::input)?;
    written?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        bench: BenchArgs,
    }

    fn args(line: &[&str]) -> BenchArgs {
        Command::try_parse_from(std::iter::once("bench").chain(line.iter().copied()))
            .unwrap()
            .bench
    }

    /// `--quick`: every game's tiny suite, three algorithms, 1 and 2
    /// threads, one run, each into a directory of its own.
    #[test]
    fn quick_runs_every_game_small() {
        let plans = quick_options(&args(&["--quick", "--out", "q"])).unwrap();
        let games: Vec<GameName> = plans.iter().map(|p| p.suite.game).collect();
        for game in GameName::ALL {
            assert!(games.contains(&game), "{game}");
        }
        for plan in &plans {
            let ybw = Algorithm::Ybw { strong: false };
            assert_eq!(plan.algorithms, [Algorithm::Serial, ybw, Algorithm::Dts]);
            assert_eq!((plan.threads.as_slice(), plan.runs), (&[1, 2][..], 1));
            assert_eq!(plan.out, Some(PathBuf::from("q").join(&plan.suite.name)));
        }
        // The suites are the tiny ones searched deeper: othello-tiny at 11.
        assert_eq!(plans[0].suite.name, "othello-tiny");
        assert_eq!(plans[0].suite.kind, SuiteKind::Depth(11));
    }
}
