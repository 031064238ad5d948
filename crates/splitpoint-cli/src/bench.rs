//! `splitpoint bench`: the classic speedup tables, with plots.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use splitpoint::Algorithm;
use splitpoint_bench::machine::cores;
use splitpoint_bench::suite::{EMBEDDED, Suite, SuiteKind, parse_depth};
use splitpoint_bench::{BenchOptions, run};

use crate::error::{Error, Result};
use crate::games::parse_game;
use crate::{check_hash, stdout};

/// Measure every parallel algorithm: time, speedup, nodes and NPS for 1..N threads
///
/// Searches a test suite to a fixed depth (or solves it exactly) under every
/// (algorithm, threads) configuration, as the classic parallel alpha-beta
/// surveys did, and prints a markdown table per algorithm — CPUS, median time
/// over the runs (min–max), speedup over the algorithm's own 1-thread time,
/// nodes, NPS, speedup over serial, search overhead, splits, aborted work, idle
/// time — then a summary of every speedup side by side. Thread counts above the
/// machine's cores are allowed and marked `*` (oversubscribed).
///
/// Every answer is checked: against the suite's known scores and best moves,
/// and in exact mode against serial search. A wrong answer is listed and
/// makes the exit status 1. Suites run in exact mode, except the chess and
/// xiangqi suites, which run in normal mode (the selective search such
/// engines are measured with); chess test suites count how many of their best
/// moves each configuration finds.
///
/// Writes results.json (every measurement, the machine, the build, the git
/// commit), speedup.svg, speedup.png and time_vs_depth.svg into --out.
#[derive(Args, Debug)]
#[command(after_help = suites_help())]
pub struct BenchArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic
    #[arg(long, short = 'g', default_value = "othello")]
    pub game: String,

    /// An embedded suite (see below) or a suite file [default: the game's default suite]
    #[arg(long, short = 's', value_name = "NAME|FILE")]
    pub suite: Option<String>,

    /// Search depth for every position, overriding the suite's
    #[arg(long, short = 'd', value_name = "D")]
    pub depth: Option<String>,

    /// Algorithms, comma-separated, or 'all'
    #[arg(long, value_name = "A,B,..|all", default_value = "all")]
    pub algos: String,

    /// Thread counts, comma-separated, or 'max' (1 up to this machine's cores);
    /// 1 is always added
    #[arg(long, short = 't', value_name = "1,2,4|max", default_value = "max")]
    pub threads: String,

    /// Runs per configuration; the median is reported with min–max
    #[arg(long, short = 'r', value_name = "R", default_value_t = 3)]
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
    /// are reported, not failed [default for the chess and xiangqi suites]
    #[arg(long, conflicts_with = "exact")]
    pub normal: bool,

    /// Exact mode: every score must equal serial search's [default, except
    /// for the chess and xiangqi suites]
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
        help.push_str(&format!("  {name:<16} {what}{default}\n"));
    }
    help + SUITES_HELP
}

const SUITES_HELP: &str = "
Suite files: one position a line, optionally followed by '; score=N ; best=m1,m2 ;
depth=D ; id=NAME'; '#' starts a comment; a line '#! depth=D' or '#! solve' sets
the suite's depth or makes it an exact solve ('#! game=synthetic' names the game,
'#! goals' makes the best= moves goals that are counted, not checked, '#! normal'
runs it in normal mode by default). A chess suite may be an EPD file (*.epd, 'bm'
and 'id' operations). Best moves are in the game's move notation; every position
and best move is read when the suite is loaded, and a suite with no positions,
or a malformed position or a best move that is not legal there, is bad input
(status 2, naming the file and the line), found before anything is searched.

Examples:
  splitpoint bench                                  Othello midgame suite, 1..cores threads
  splitpoint bench --suite othello-ffo --runs 1     exact endgames
  splitpoint bench --algos serial,ybw,dts --threads 1,2,4,8
  splitpoint bench --game chess                     Bratko-Kopec and middlegames, depth 8
  splitpoint bench --game draughts --algos workloads,ybw --threads 1,2
  splitpoint bench --game xiangqi --runs 1          12 midgames, depth 8, normal mode
  splitpoint bench --game synthetic --normal --out results/";

/// Parses `--algos`.
pub fn parse_algorithms(text: &str) -> Result<Vec<Algorithm>> {
    if text == "all" {
        return Ok(Algorithm::ALL.to_vec());
    }
    text.split(',')
        .map(|a| {
            a.trim()
                .parse()
                .map_err(|e| Error::input(format!("--algos: {e}")))
        })
        .collect()
}

/// Parses `--threads`.
pub fn parse_threads(text: &str) -> Result<Vec<usize>> {
    if text == "max" {
        return Ok((1..=cores()).collect());
    }
    text.split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if (1..=256).contains(&n) => Ok(n),
            _ => Err(Error::input(format!(
                "--threads: '{t}' is not a thread count from 1 to 256 (or 'max')"
            ))),
        })
        .collect()
}

/// Runs the bench.
pub fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    let game = parse_game(&args.game)?;
    let name = args
        .suite
        .clone()
        .unwrap_or_else(|| game.default_suite().to_string());
    let mut suite =
        Suite::load(&name, Some(game)).map_err(|e| Error::input(format!("--suite: {e}")))?;
    if let Some(depth) = &args.depth {
        let depth = parse_depth(depth).map_err(|e| Error::input(format!("--depth: {e}")))?;
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
    let exact = !args.normal && (args.exact || suite.exact);
    let options = BenchOptions {
        suite,
        algorithms: parse_algorithms(&args.algos)?,
        threads: parse_threads(&args.threads)?,
        runs: args.runs,
        hash_mib: check_hash(args.hash)?,
        table: args
            .tt
            .parse()
            .map_err(|e| Error::input(format!("--tt: {e}")))?,
        exact,
        out: Some(args.out.clone()),
        quiet: args.quiet,
    };
    let report = run(&options).map_err(Error::input)?;
    let mut out = stdout();
    if args.json {
        let json =
            serde_json::to_string_pretty(&report).map_err(|e| Error::input(e.to_string()))?;
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "{}", report.markdown)?;
        writeln!(
            out,
            "Wrote {} (every measurement), speedup.svg, speedup.png and time_vs_depth.svg.",
            args.out.join("results.json").display()
        )?;
    }
    if report.wrong() > 0 {
        eprintln!(
            "splitpoint: {} wrong answers (see the table)",
            report.wrong()
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
