//! The splitpoint laboratory: runs a suite under every (algorithm, threads)
//! configuration and reports the classic speedup tables, with plots and every
//! raw measurement, and verifies parallel search by self-play.
//!
//! A wrong answer is never a fast answer: every search is checked against the
//! suite's known results and, in exact mode, against serial search; a wrong
//! one is flagged and fails the run.
#![deny(missing_docs)]

pub mod machine;
pub mod plot;
pub mod report;
pub mod runner;
pub mod selfplay;
pub mod signature;
pub mod sim_costs;
pub mod sim_plot;
pub mod suite;
pub mod timeline;
pub mod trace;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use splitpoint::cluster::{Channel, WireTransport, greet};
use splitpoint::sim::Simulation;
use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, TableKind, Trace};
use splitpoint_games::othello::{Othello, OthelloExact, solve_limits};

use machine::Machine;
use plot::DepthSeries;
use report::Ceiling;
use report::Row;
use runner::{CeilingSample, Config, Job, LoadSample, Measurement, SuiteRun};
use splitpoint_games::registry::GameName;
use splitpoint_games::registry::{GameCommand, GpuSplit, NamedGame, SlavePlace};
use suite::{Suite, SuiteKind};

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The suite, loaded.
    pub suite: Suite,
    /// Algorithms to compare (serial is always run as the reference).
    pub algorithms: Vec<Algorithm>,
    /// Thread counts (1 is always included).
    pub threads: Vec<usize>,
    /// pv-split once more at each of these message latencies (above 1
    /// thread; a zero adds nothing).
    pub latencies: Vec<std::time::Duration>,
    /// pv-split over this many of `cluster`'s processes each (1 is the
    /// master alone).
    pub ranks: Vec<usize>,
    /// The processes `ranks` counts, when the bench runs on a cluster.
    pub cluster: Option<Cluster>,
    /// The GPU algorithm once more, on this OpenCL device (a row `gpu`).
    pub gpu: Option<GpuDevice>,
    /// Runs per configuration (the median is reported).
    pub runs: usize,
    /// Transposition table per engine, MiB.
    pub hash_mib: usize,
    /// Lockless (default) or locked table.
    pub table: TableKind,
    /// Exact mode (scores checked against serial).
    pub exact: bool,
    /// Where to write `results.json` and the plots, if anywhere.
    pub out: Option<PathBuf>,
    /// No progress bar.
    pub quiet: bool,
    /// Measure the machine's ceiling in every run: as many serial searches
    /// at once as each thread count above one ([`runner::CeilingSample`]).
    pub ceiling: bool,
    /// Simulate every search on virtual processors (`threads` then counts
    /// them, up to [`splitpoint::sim::MAX_PROCESSORS`]): one run, no
    /// ceiling, no depth sweep and no timeline, every time virtual.
    pub simulation: Option<Simulation>,
    /// Where the simulation's costs came from (see [`SimulationInfo`]).
    pub costs_from: String,
    /// The algorithms whose every thread searches the whole tree
    /// (shared-tt, lazy-smp, abdada) run at no more threads than this.
    pub whole_tree_max: Option<usize>,
}

/// The processes of a cluster (MPI ranks, say) the bench may use: this
/// one is the master (process 0); the others serve it
/// ([`serve_cluster`]).
#[derive(Clone)]
pub struct Cluster(pub Arc<dyn Channel>);

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster({} processes)", self.0.size())
    }
}

/// The version of `results.json`'s layout, raised when a field changes
/// meaning or goes away. 2: one speedup (over serial), load averages, the
/// run's command line, version, time and hash size.
pub const SCHEMA: u32 = 2;

/// The OpenCL device a bench's `gpu` rows search on.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GpuDevice {
    /// Its index (`--gpu-device`, `splitpoint gpu-info`).
    pub index: usize,
    /// Its platform and name.
    pub name: String,
    /// The splits of the rows, one a row (`gpu`, `gpu-narrow`, `gpu-wide`).
    #[serde(skip)]
    pub splits: Vec<GpuSplit>,
}

/// How a bench's searches were simulated.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SimulationInfo {
    /// Nanoseconds a node.
    pub node_ns: f64,
    /// Nanoseconds a cache line between cores.
    pub line_ns: f64,
    /// Nanoseconds a wake-up.
    pub wake_ns: f64,
    /// Virtual nanoseconds a thread may run ahead before handing over.
    pub quantum_ns: f64,
    /// Where the costs came from: `calibrated` on this machine by this run,
    /// `default` (the game's defaults), or `given`.
    pub costs_from: String,
}

/// Everything a bench run produced; `results.json` is this, serialized.
#[derive(Debug, serde::Serialize)]
pub struct BenchReport {
    /// The layout of this report ([`SCHEMA`]).
    pub schema: u32,
    /// splitpoint's version.
    pub version: &'static str,
    /// When the run started: UTC, RFC 3339.
    pub timestamp: String,
    /// The command line that ran the bench.
    pub command_line: Vec<String>,
    /// The machine and build.
    pub machine: Machine,
    /// The suite.
    pub suite: Suite,
    /// Exact mode or not.
    pub exact: bool,
    /// The table kind, `lockless` or `locked`.
    pub table: &'static str,
    /// Transposition table per engine, MiB.
    pub hash_mib: usize,
    /// Runs per configuration.
    pub runs: usize,
    /// The device the `gpu` row ran on, if there is one.
    pub gpu: Option<GpuDevice>,
    /// The 1-minute load average above which a configuration is marked
    /// loaded (see [`report::load_limit`]).
    pub load_limit: f64,
    /// The 1-minute load average before and after each run of each
    /// configuration.
    pub loads: Vec<LoadSample>,
    /// The aggregated table rows.
    pub rows: Vec<Row>,
    /// The machine's ceiling at each thread count measured, over the runs.
    pub ceilings: Vec<Ceiling>,
    /// Its every run.
    pub ceiling_samples: Vec<CeilingSample>,
    /// Time against depth, per algorithm at the largest thread count.
    pub time_by_depth: Vec<DepthSeries>,
    /// Every search.
    pub measurements: Vec<Measurement>,
    /// The simulation's costs, when the searches were simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<SimulationInfo>,
    /// The markdown tables.
    #[serde(skip)]
    pub markdown: String,
    /// One search's thread timeline (the first position, searched once more
    /// untimed with tracing on; see [`timeline`]), named by what ran.
    #[serde(skip)]
    pub timeline: Option<(String, Trace)>,
}

impl BenchReport {
    /// Searches whose answer was wrong.
    pub fn wrong(&self) -> usize {
        self.measurements
            .iter()
            .filter(|m| m.verdict.is_wrong())
            .count()
    }
}

/// The configurations of `options`: serial × 1 first (the reference), then
/// every algorithm at every thread count, 1 included.
pub fn configs(options: &BenchOptions) -> Vec<Config> {
    let mut threads = options.threads.clone();
    threads.push(1);
    threads.sort_unstable();
    threads.dedup();
    let mut configs = vec![Config::new(Algorithm::Serial, 1)];
    for &algorithm in &options.algorithms {
        if algorithm == Algorithm::Serial {
            continue;
        }
        let most = match algorithm {
            Algorithm::SharedTt | Algorithm::LazySmp | Algorithm::Abdada => {
                options.whole_tree_max.unwrap_or(usize::MAX)
            }
            _ => usize::MAX,
        };
        configs.extend(
            threads
                .iter()
                .filter(|&&threads| threads == 1 || threads <= most)
                .map(|&threads| Config::new(algorithm, threads)),
        );
    }
    // pv-split again at every message latency asked for: one curve each.
    if options.algorithms.contains(&Algorithm::PvSplit) {
        for &latency in options.latencies.iter().filter(|l| !l.is_zero()) {
            configs.extend(
                threads
                    .iter()
                    .filter(|&&t| t > 1)
                    .map(|&threads| Config::with_latency(threads, latency)),
            );
        }
    }
    // And over the cluster's processes: the curve of real messages.
    configs.extend(options.ranks.iter().map(|&r| Config::over_ranks(r)));
    if let Some(g) = &options.gpu {
        configs.extend(g.splits.iter().map(|&split| Config::on_gpu(g.index, split)));
    }
    configs
}

/// The configurations of the time-against-depth figure: one per algorithm
/// run (latency and cluster variants aside), serial and `gpu` as they ran,
/// every other at the most threads.
fn sweep_configs(configs: &[Config]) -> Vec<Config> {
    let most = configs.iter().map(|c| c.threads).max().unwrap_or(1);
    let mut sweep: Vec<Config> = Vec::new();
    for c in configs.iter().filter(|c| match c.slaves {
        SlavePlace::Threads { latency } => latency.is_zero(),
        SlavePlace::Ranks(_) => false,
        SlavePlace::Gpu { .. } => true,
    }) {
        let config = match (c.algorithm, c.slaves) {
            (_, SlavePlace::Gpu { .. }) | (Algorithm::Serial, _) => *c,
            (algorithm, _) => Config::new(algorithm, most),
        };
        if !sweep.contains(&config) {
            sweep.push(config);
        }
    }
    sweep
}

/// Runs the bench.
///
/// # Errors
/// A message if a position cannot be read or an output cannot be written.
pub fn run(options: &BenchOptions) -> Result<BenchReport, String> {
    let timestamp = machine::rfc3339(SystemTime::now());
    let suite = &options.suite;
    let configs = configs(options);
    let cores = machine::cores();
    let max_threads = configs.iter().map(|c| c.threads).max().unwrap_or(1);
    let simulated = options.simulation.is_some();
    let sweep = if simulated {
        Vec::new()
    } else {
        depth_sweep(suite)
    };
    let sweep_configs = sweep_configs(&configs);
    let searches_per_run = configs.len()
        + runner::ceiling_threads(&configs, options.ceiling)
            .iter()
            .sum::<usize>();
    let total = (searches_per_run * options.runs + sweep.len() * sweep_configs.len())
        * suite.positions.len();
    let progress = progress_bar(total as u64, options.quiet);
    let job = Job {
        suite,
        configs: &configs,
        runs: options.runs,
        hash_mib: options.hash_mib,
        table: options.table,
        exact: options.exact,
        progress: &progress,
        cluster: options.cluster.as_ref().map(|c| &c.0),
        ceiling: options.ceiling && options.simulation.is_none(),
        simulation: options.simulation,
    };

    let (
        SuiteRun {
            measurements,
            loads,
            ceilings: ceiling_samples,
        },
        mut series,
        timeline,
    ) = measure_suite(&job, &sweep, &sweep_configs)?;
    progress.finish_and_clear();

    // Virtual processors are never oversubscribed, loaded or disturbed.
    let table_cores = if simulated { usize::MAX } else { cores };
    let loads = if simulated { Vec::new() } else { loads };
    let load_limit = report::load_limit(cores, max_threads);
    let mut rows = report::rows(
        &configs,
        &measurements,
        &loads,
        options.runs,
        table_cores,
        load_limit,
    );
    if simulated {
        for r in &mut rows {
            r.fault = false;
        }
    }
    report::mark_defaults(&mut rows, suite.game);
    let ceilings = report::ceilings(&ceiling_samples, &measurements);
    complete_series(suite, &measurements, &rows, max_threads, &mut series);
    let markdown = report::markdown(options, table_cores, &rows, &ceilings, &measurements);
    let report = BenchReport {
        schema: SCHEMA,
        version: env!("CARGO_PKG_VERSION"),
        timestamp,
        // Lossy: a non-UTF-8 argument must not stop the report.
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        machine: Machine::detect(),
        suite: suite.clone(),
        exact: options.exact,
        table: options.table.name(),
        hash_mib: options.hash_mib,
        runs: options.runs,
        gpu: options.gpu.clone(),
        load_limit,
        loads,
        rows,
        ceilings,
        ceiling_samples,
        time_by_depth: series,
        measurements,
        simulation: options.simulation.map(|s| SimulationInfo {
            node_ns: s.costs.node_ns,
            line_ns: s.costs.line_ns,
            wake_ns: s.costs.wake_ns,
            quantum_ns: s.quantum_ns,
            costs_from: options.costs_from.clone(),
        }),
        markdown,
        timeline,
    };
    if let Some(dir) = &options.out {
        write_outputs(dir, &report, cores)?;
    }
    Ok(report)
}

/// Runs `job` on its suite's game, with the evaluator and limits the
/// suite's kind calls for, then the depth sweep.
fn measure_suite(job: &Job, sweep: &[i32], sweep_configs: &[Config]) -> Result<Measured, String> {
    let exact = job.exact;
    match (job.suite.game, job.suite.kind) {
        (GameName::Othello, SuiteKind::Solve) => measure(
            job,
            OthelloExact,
            move |p: &Othello, _| Limits {
                exact,
                ..solve_limits(p)
            },
            &[],
            &[],
        ),
        _ => job.suite.game.dispatch(Measure {
            job,
            exact,
            sweep,
            sweep_configs,
        }),
    }
}

/// The suite searched once serially on one real thread, untimed pass
/// first: (seconds, nodes), for the simulation's node cost.
///
/// # Errors
/// A message if a position cannot be read or the table allocated.
pub fn serial_rate(options: &BenchOptions) -> Result<(f64, u64), String> {
    let configs = [Config::new(Algorithm::Serial, 1)];
    let progress = progress_bar(options.suite.positions.len() as u64, options.quiet);
    progress.set_message("calibrating: the suite, serially");
    let job = Job {
        suite: &options.suite,
        configs: &configs,
        runs: 1,
        hash_mib: options.hash_mib,
        table: options.table,
        exact: options.exact,
        progress: &progress,
        cluster: None,
        ceiling: false,
        simulation: None,
    };
    let (run, _, _) = measure_suite(&job, &[], &[])?;
    progress.finish_and_clear();
    let seconds = run.measurements.iter().map(|m| m.seconds).sum();
    let nodes = run.measurements.iter().map(|m| m.nodes).sum();
    Ok((seconds, nodes))
}

/// A cluster's process other than the master (see [`Cluster`]): serves the
/// master's bench, run with the same options, until the master dismisses
/// it; on one thread, with the evaluator the bench gives the suite.
///
/// # Errors
/// A message saying the table cannot be allocated.
pub fn serve_cluster(options: &BenchOptions, channel: Arc<dyn Channel>) -> Result<(), String> {
    let serve = Serve {
        channel,
        hash_mib: options.hash_mib,
        table: options.table,
    };
    match (options.suite.game, options.suite.kind) {
        (GameName::Othello, SuiteKind::Solve) => serve.with_eval::<Othello, _>(OthelloExact),
        _ => options.suite.game.dispatch(serve),
    }
}

/// A slave process's engine, serving its master.
struct Serve {
    channel: Arc<dyn Channel>,
    hash_mib: usize,
    table: TableKind,
}

impl Serve {
    fn with_eval<G: Game, E: Evaluator<G>>(self, eval: E) -> Result<(), String> {
        let mut engine = Engine::try_new(eval, self.hash_mib).map_err(|e| e.to_string())?;
        engine.set_table_kind(self.table);
        WireTransport::<G>::slave(self.channel).serve(&mut engine);
        Ok(())
    }
}

impl GameCommand for Serve {
    type Output = Result<(), String>;

    fn run<G: NamedGame>(self) -> Self::Output {
        self.with_eval::<G, _>(G::Eval::default())
    }
}

fn depth_limits(depth: Option<i32>, exact: bool) -> Limits {
    let limits = Limits::to_depth(depth.unwrap_or(1));
    if exact { limits.exact() } else { limits }
}

/// Extra depths searched for the time-against-depth figure: up to four below
/// a uniform suite depth (the suite depth itself comes from the main runs).
fn depth_sweep(suite: &Suite) -> Vec<i32> {
    match suite.kind {
        SuiteKind::Depth(d) if d > 0 && suite.positions.iter().all(|p| p.depth.is_none()) => {
            ((d - 4).max(1)..d).collect()
        }
        _ => vec![],
    }
}

/// What one game's runs give: the suite's runs, the time-against-depth
/// series, and one search's thread timeline.
type Measured = (SuiteRun, Vec<DepthSeries>, Option<(String, Trace)>);

/// The suite and the depth sweep, to depths, with the game's evaluator.
struct Measure<'a> {
    job: &'a Job<'a>,
    exact: bool,
    sweep: &'a [i32],
    sweep_configs: &'a [Config],
}

impl GameCommand for Measure<'_> {
    type Output = Result<Measured, String>;

    fn run<G: NamedGame>(self) -> Self::Output {
        let exact = self.exact;
        measure(
            self.job,
            G::Eval::default(),
            move |_: &G, d| depth_limits(d, exact),
            self.sweep,
            self.sweep_configs,
        )
    }
}

/// Runs the suite and the depth sweep for one game and evaluator.
fn measure<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    job: &Job,
    eval: E,
    limits: impl Fn(&G, Option<i32>) -> Limits + Copy + Sync,
    sweep: &[i32],
    sweep_configs: &[Config],
) -> Result<Measured, String> {
    if let Some(channel) = job.cluster {
        greet::<G, E>(&**channel).map_err(|e| format!("the cluster: {e}"))?;
    }
    let suite_run = runner::run_suite(job, eval.clone(), limits)?;
    let mut series = Vec::new();
    if !sweep.is_empty() {
        for &config in sweep_configs {
            let points = runner::time_by_depth(job, config, sweep, eval.clone(), limits)?;
            series.push(DepthSeries {
                algorithm: config.label(),
                label: format!("{} × {}", config.label(), config.threads),
                points,
            });
        }
    }
    let timeline =
        match timeline_config(job.configs, job.suite.game).filter(|_| job.simulation.is_none()) {
            Some(config) => Some(runner::traced_search(job, config, eval, limits)?),
            None => None,
        };
    Ok((suite_run, series, timeline))
}

/// The configuration whose timeline the bench records: the game's default
/// algorithm at the most threads run, or else the parallel configuration
/// with the most threads; none when nothing ran on several threads.
fn timeline_config(configs: &[Config], game: GameName) -> Option<Config> {
    let most = configs.iter().map(|c| c.threads).max().filter(|&t| t > 1)?;
    let default = game.parallel_default();
    configs
        .iter()
        .filter(|c| c.threads == most && c.algorithm != Algorithm::Serial)
        .max_by_key(|c| c.algorithm == default)
        .copied()
}

/// Adds the main runs' points to the time-against-depth series: the suite
/// depth for uniform suites, else one point per position depth (or number of
/// empties, for solves), averaged.
fn complete_series(
    suite: &Suite,
    measurements: &[Measurement],
    rows: &[Row],
    max_threads: usize,
    series: &mut Vec<DepthSeries>,
) {
    let chosen: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            r.threads
                == if r.algorithm == "serial" {
                    1
                } else {
                    max_threads
                }
        })
        .collect();
    if !series.is_empty() {
        if let SuiteKind::Depth(d) = suite.kind {
            for (s, r) in series.iter_mut().zip(&chosen) {
                s.points.push((d, r.seconds));
            }
        }
        return;
    }
    for r in chosen {
        let mut by_x: Vec<(i32, f64, usize)> = Vec::new();
        for m in measurements
            .iter()
            .filter(|m| m.algorithm == r.algorithm && m.threads == r.threads)
        {
            let x = match suite.kind {
                SuiteKind::Solve => (m.depth - 2) / 2, // the number of empties
                SuiteKind::Depth(_) => m.depth,
            };
            match by_x.iter_mut().find(|e| e.0 == x) {
                Some(e) => {
                    e.1 += m.seconds;
                    e.2 += 1;
                }
                None => by_x.push((x, m.seconds, 1)),
            }
        }
        by_x.sort_by_key(|e| e.0);
        let points = by_x
            .into_iter()
            .map(|(x, t, n)| (x, t / n as f64))
            .collect();
        series.push(DepthSeries {
            algorithm: r.algorithm.clone(),
            label: format!("{} × {}", r.algorithm, r.threads),
            points,
        });
    }
}

fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} searches, ETA {eta} {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn write_outputs(dir: &std::path::Path, report: &BenchReport, cores: usize) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    let path = dir.join("results.json");
    std::fs::write(&path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let context = plot::Context {
        cores,
        ceilings: &report.ceilings,
        load_limit: report.load_limit,
    };
    plot::speedup(dir, &report.suite.name, &report.rows, &context)?;
    plot::overhead(dir, &report.suite.name, &report.rows, &context)?;
    let x_desc = if report.suite.kind == SuiteKind::Solve {
        "Empty squares (solve depth)"
    } else {
        "Search depth (plies)"
    };
    plot::time_vs_depth(
        dir,
        &format!("{}: time against depth", report.suite.name),
        x_desc,
        &report.time_by_depth,
    )?;
    if let Some((name, trace)) = &report.timeline {
        timeline::write(dir, name, trace)?;
    }
    if report.simulation.is_some() {
        sim_plot::write(dir, &report.suite.name, report.suite.game, &report.rows)?;
    }
    Ok(())
}
