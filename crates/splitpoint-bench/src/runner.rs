//! Runs a suite for every (algorithm, threads) configuration and records
//! every search.
//!
//! Fairness rules: every configuration searches the same positions in the
//! same order; the table is cleared before each position; runs are
//! interleaved (run 1 of every configuration, then run 2, …) so that machine
//! noise spreads evenly over the configurations.

use std::sync::Arc;
use std::time::Duration;

use indicatif::ProgressBar;
use splitpoint::cluster::Channel;
use splitpoint::sim::Simulation;
use splitpoint::{Algorithm, Engine, Evaluator, Limits, Score, TableKind, Trace};

use crate::machine::load_average;
use crate::suite::Suite;
use splitpoint_games::registry::{GpuSplit, NamedGame, SlavePlace};

/// One (algorithm, threads) pair, and for pv-split where its slaves live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its thread count; over ranks, the ranks (the master's included, one
    /// thread each).
    pub threads: usize,
    /// Where pv-split's slaves live: the engine's threads (with a message
    /// latency, as over a network), the cluster's processes, or an OpenCL
    /// device (`gpu`, the master one thread).
    pub slaves: SlavePlace,
}

impl Config {
    /// `algorithm` on `threads` threads, its messages undelayed.
    pub fn new(algorithm: Algorithm, threads: usize) -> Self {
        Config {
            algorithm,
            threads,
            slaves: SlavePlace::default(),
        }
    }

    /// pv-split on `threads` threads, its messages held back by `latency`.
    pub fn with_latency(threads: usize, latency: Duration) -> Self {
        Config {
            slaves: SlavePlace::Threads { latency },
            ..Config::new(Algorithm::PvSplit, threads)
        }
    }

    /// The GPU algorithm: pv-split on one thread, the slaves OpenCL device
    /// `device`, the pieces split as `split` says
    /// ([`NamedGame::gpu_transport`]).
    pub fn on_gpu(device: usize, split: GpuSplit) -> Self {
        Config {
            slaves: SlavePlace::Gpu { device, split },
            ..Config::new(Algorithm::PvSplit, 1)
        }
    }

    /// pv-split over `ranks` of the cluster's processes.
    pub fn over_ranks(ranks: usize) -> Self {
        Config {
            slaves: SlavePlace::Ranks(ranks),
            ..Config::new(Algorithm::PvSplit, ranks)
        }
    }

    /// Whether the search runs in this process alone, on its threads.
    pub fn in_process(&self) -> bool {
        matches!(self.slaves, SlavePlace::Threads { .. })
    }

    /// An engine for this configuration: `eval`, a table of `hash_mib`, and
    /// its slaves where [`Config::slaves`] says (over ranks, the first
    /// `ranks - 1` other processes of `cluster`).
    ///
    /// # Errors
    /// A message saying the table cannot be allocated, or the slaves cannot
    /// be reached (no such device, too small a cluster).
    pub fn engine<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
        &self,
        eval: E,
        hash_mib: usize,
        cluster: Option<&Arc<dyn Channel>>,
    ) -> Result<Engine<G, E>, String> {
        let mut engine = Engine::try_new(eval, hash_mib).map_err(|e| e.to_string())?;
        let slaves = self.slaves.slaves(engine.evaluator().clone(), cluster)?;
        engine.set_slaves(slaves);
        engine.set_parallelism(self.algorithm, self.slaves.master_threads(self.threads));
        Ok(engine)
    }

    /// Its name in tables and plots ([`SlavePlace::label`]): the
    /// algorithm's, `pv-split+50us`, `pv-split/mpi` or `gpu`.
    pub fn label(&self) -> String {
        self.slaves.label(self.algorithm)
    }
}

/// Whether a search's answer is right.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Agrees with everything known.
    Ok,
    /// The score differs from the suite's known score.
    WrongScore {
        /// The known score.
        expected: Score,
    },
    /// The move is not among the suite's best moves.
    WrongMove {
        /// The acceptable moves.
        expected: Vec<String>,
    },
    /// Exact mode: the score differs from the serial search's.
    DiffersFromSerial {
        /// The serial score.
        serial: Score,
    },
    /// Normal mode: the score differs from the serial search's, which normal
    /// mode allows (table cutoffs can graft results); reported, not failed.
    NormalModeDiffers {
        /// The serial score.
        serial: Score,
    },
}

impl Verdict {
    /// Whether this verdict fails the bench.
    pub fn is_wrong(&self) -> bool {
        !matches!(self, Verdict::Ok | Verdict::NormalModeDiffers { .. })
    }
}

/// One search of one position by one configuration.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Measurement {
    /// Algorithm name.
    pub algorithm: String,
    /// Threads.
    pub threads: usize,
    /// Run number, from 0.
    pub run: usize,
    /// The position's id in the suite.
    pub position: String,
    /// Depth searched (plies; for solves, the solve depth).
    pub depth: i32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Nodes, summed over threads.
    pub nodes: u64,
    /// Root score.
    pub score: Score,
    /// Best move, in the game's notation.
    pub best_move: String,
    /// Split points opened.
    pub splits: u64,
    /// Split opportunities refused.
    pub splits_refused: u64,
    /// Nodes wasted under cut-off split points.
    pub aborted_nodes: u64,
    /// Thread idle time, microseconds summed over threads (and over a
    /// cluster's processes).
    pub idle_micros: u64,
    /// Owners' time waiting at their shared nodes (not helping),
    /// microseconds summed over threads.
    pub wait_micros: u64,
    /// Bound messages pv-split's master sent.
    pub bounds_sent: u64,
    /// Messages between a cluster's processes, both ways (zero in-process).
    pub messages: u64,
    /// Their bytes.
    pub message_bytes: u64,
    /// Subtrees pv-split's master handed out (to the GPU: pieces the batch
    /// search splits further).
    pub work_sent: u64,
    /// A device's subtrees, one work-item each.
    pub device_subtrees: u64,
    /// A device's transport: microseconds moving work up and results down.
    pub transfer_micros: u64,
    /// A device's transport: microseconds its kernels ran.
    pub device_micros: u64,
    /// Whether the move is one of the suite's best moves (`None` when the
    /// position gives none).
    pub found_best: Option<bool>,
    /// Whether the answer is right.
    pub verdict: Verdict,
    /// A simulated search: where its virtual processors' time went
    /// (`seconds` is then virtual).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sim: Option<SimShares>,
}

/// Where a simulated search's processor time went, in virtual seconds
/// summed over its processors ([`splitpoint::sim::Report`]).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct SimShares {
    /// Processor time in all (the four shares' sum).
    pub processor_seconds: f64,
    /// Visiting nodes.
    pub search: f64,
    /// Publishing, attaching, merging, sending.
    pub overhead: f64,
    /// With no work.
    pub idle: f64,
    /// With work, waiting for others' results.
    pub wait: f64,
    /// Of `search`, the nodes under split points a cutoff made useless.
    pub cut_off: f64,
    /// Waits a wake-up ended, and those their timeout ended.
    pub wakeups: u64,
    /// Waits ended by their timeout.
    pub timeouts: u64,
    /// Real seconds the simulation took.
    pub real_seconds: f64,
}

impl SimShares {
    /// The shares of `report`, with `aborted_nodes` at `node_ns` each as the
    /// work cut off.
    pub fn new(report: &splitpoint::sim::Report, aborted_nodes: u64, node_ns: f64) -> Self {
        SimShares {
            processor_seconds: report.processor_seconds,
            search: report.search_seconds,
            overhead: report.overhead_seconds,
            idle: report.idle_seconds,
            wait: report.wait_seconds,
            cut_off: (aborted_nodes as f64 * node_ns * 1e-9).min(report.search_seconds),
            wakeups: report.wakeups,
            timeouts: report.timeouts,
            real_seconds: report.real_seconds,
        }
    }
}

/// The machine's 1-minute load average before and after one run of one
/// configuration (`None` where the OS gives none).
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoadSample {
    /// Algorithm name.
    pub algorithm: String,
    /// Threads.
    pub threads: usize,
    /// Run number, from 0.
    pub run: usize,
    /// Before the configuration's first search of this run.
    pub before: Option<f64>,
    /// After its last.
    pub after: Option<f64>,
}

impl LoadSample {
    /// The higher of the two samples.
    pub fn max(&self) -> Option<f64> {
        match (self.before, self.after) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }
}

/// The thread counts whose ceiling a run of `configs` measures, if
/// `enabled`: every in-process configuration's above one, up to the
/// machine's cores (beyond them the searches would only take turns).
pub fn ceiling_threads(configs: &[Config], enabled: bool) -> Vec<usize> {
    if !enabled {
        return Vec::new();
    }
    let cores = crate::machine::cores();
    let mut threads: Vec<usize> = configs
        .iter()
        .filter(|c| c.in_process() && c.threads > 1 && c.threads <= cores)
        .map(|c| c.threads)
        .collect();
    threads.sort_unstable();
    threads.dedup();
    threads
}

/// One run of the machine's ceiling at `threads`: that many serial
/// searches of the suite at once, each on its own engine (its own table,
/// nothing shared). Their summed node rate over serial's in the same run
/// is what the machine gave this workload on that many cores at that
/// moment: a shared machine's other tenants, the cores' shared caches and
/// clock show in it, and no algorithm's doing does.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CeilingSample {
    /// Searches at once.
    pub threads: usize,
    /// Run number, from 0.
    pub run: usize,
    /// Each search's suite time, seconds (its positions' times summed).
    pub seconds: Vec<f64>,
    /// Each search's nodes.
    pub nodes: Vec<u64>,
}

impl CeilingSample {
    /// The searches' node rates, summed.
    pub fn nps(&self) -> f64 {
        self.seconds
            .iter()
            .zip(&self.nodes)
            .map(|(&s, &n)| n as f64 / s.max(1e-9))
            .sum()
    }
}

/// Everything a suite run measured.
pub struct SuiteRun {
    /// Every search.
    pub measurements: Vec<Measurement>,
    /// The load average around each run of each configuration.
    pub loads: Vec<LoadSample>,
    /// The machine's ceiling, each run at each of [`ceiling_threads`].
    pub ceilings: Vec<CeilingSample>,
}

/// What a suite run needs besides the game.
pub struct Job<'a> {
    /// The suite.
    pub suite: &'a Suite,
    /// The configurations; the first must be serial × 1, the reference.
    pub configs: &'a [Config],
    /// Runs per configuration.
    pub runs: usize,
    /// Table size per engine.
    pub hash_mib: usize,
    /// Lockless or locked table.
    pub table: TableKind,
    /// Exact mode (every score checked against serial).
    pub exact: bool,
    /// Progress, one tick per search.
    pub progress: &'a ProgressBar,
    /// The cluster the configurations over ranks use.
    pub cluster: Option<&'a Arc<dyn Channel>>,
    /// Measure the machine's ceiling in every run ([`CeilingSample`]).
    pub ceiling: bool,
    /// Simulate every search on virtual processors instead of timing it.
    pub simulation: Option<Simulation>,
}

impl Job<'_> {
    /// An engine for `config`, with this job's table; over ranks, the
    /// master of the cluster's first `ranks - 1` slave processes.
    ///
    /// # Errors
    /// A message saying the table cannot be allocated, or that there is no
    /// cluster (or too small a one) for the configuration.
    pub fn engine<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
        &self,
        eval: E,
        config: Config,
    ) -> Result<Engine<G, E>, String> {
        let mut engine = config.engine(eval, self.hash_mib, self.cluster)?;
        engine.set_table_kind(self.table);
        engine.set_simulation(self.simulation);
        Ok(engine)
    }
}

/// Searches the suite's first position once more under `config`, untimed,
/// with tracing on: its thread timeline, named by what ran.
///
/// # Errors
/// A message naming a position the game cannot read, or saying that a table
/// cannot be allocated.
pub fn traced_search<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    job: &Job,
    config: Config,
    eval: E,
    limits: impl Fn(&G, Option<i32>) -> Limits,
) -> Result<(String, Trace), String> {
    let suite = job.suite;
    let Some(first) = suite.positions.first() else {
        return Err(format!("{}: no position to trace", suite.name));
    };
    let pos = G::parse_position(&first.text)
        .map_err(|e| format!("{} position {}: {e}", suite.name, first.id))?;
    job.progress.set_message(format!(
        "timeline: {} × {}",
        config.algorithm, config.threads
    ));
    let mut engine = job.engine(eval, config)?;
    engine.set_trace(true);
    engine.search(&pos, &limits(&pos, suite.depth_of(0)));
    let name = format!(
        "{} position {}, {} × {}",
        suite.name, first.id, config.algorithm, config.threads
    );
    Ok((name, engine.take_trace().unwrap_or_default()))
}

/// Runs `job` with evaluator `eval`; `limits` gives each position's limits
/// from its depth (`None` when solving). After each run of every
/// configuration, the machine's ceiling at each of [`ceiling_threads`].
///
/// # Errors
/// A message naming a position the game cannot read, or saying that a table
/// cannot be allocated.
pub fn run_suite<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    job: &Job,
    eval: E,
    limits: impl Fn(&G, Option<i32>) -> Limits + Sync,
) -> Result<SuiteRun, String> {
    let suite = job.suite;
    let positions: Vec<G> = suite.parse_positions()?;
    // A simulation's engines are made one at a time: a thousand virtual
    // processors are a thousand threads each, and it runs each once.
    let simulated = job.simulation.is_some();
    let mut engines: Vec<Option<Engine<G, E>>> = job
        .configs
        .iter()
        .map(|&c| {
            (!simulated)
                .then(|| job.engine(eval.clone(), c))
                .transpose()
        })
        .collect::<Result<_, _>>()?;
    let ceiling_threads = ceiling_threads(job.configs, job.ceiling);
    let mut solo_engines: Vec<Engine<G, E>> = (0..ceiling_threads.last().copied().unwrap_or(0))
        .map(|_| job.engine(eval.clone(), Config::new(Algorithm::Serial, 1)))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("the machine's ceiling (--no-ceiling goes without): {e}"))?;
    let mut ceilings = Vec::new();
    // An untimed pass first: caches, page faults and the CPU's clock settle
    // before anything is timed (a simulation times nothing).
    if let Some(Some(engine)) = engines.first_mut() {
        job.progress.set_message("warm-up".to_string());
        for (i, pos) in positions.iter().enumerate() {
            engine.clear();
            engine.search(pos, &limits(pos, suite.depth_of(i)));
        }
    }
    let mut out = Vec::new();
    let mut loads = Vec::new();
    for run in 0..job.runs {
        for (config, slot) in job.configs.iter().zip(&mut engines) {
            let engine = match slot {
                Some(engine) => engine,
                None => slot.insert(job.engine(eval.clone(), *config)?),
            };
            job.progress.set_message(format!(
                "run {}/{}: {} × {}",
                run + 1,
                job.runs,
                config.label(),
                config.threads
            ));
            let before = load_average();
            for (i, pos) in positions.iter().enumerate() {
                let limits = limits(pos, suite.depth_of(i));
                engine.clear();
                let r = engine.search(pos, &limits);
                out.push(Measurement {
                    algorithm: config.label(),
                    threads: config.threads,
                    run,
                    position: suite.positions[i].id.clone(),
                    depth: limits.depth.unwrap_or(0),
                    seconds: r.elapsed.as_secs_f64(),
                    nodes: r.stats.nodes,
                    score: r.score,
                    best_move: r
                        .best_move
                        .map_or_else(|| "-".to_string(), |m| pos.move_text(m)),
                    splits: r.stats.splits,
                    splits_refused: r.stats.splits_refused,
                    aborted_nodes: r.stats.aborted_nodes,
                    idle_micros: r.stats.idle_micros,
                    wait_micros: r.stats.wait_micros,
                    bounds_sent: r.stats.bounds_sent,
                    messages: r.stats.messages,
                    message_bytes: r.stats.message_bytes,
                    work_sent: r.stats.work_sent,
                    device_subtrees: r.stats.device_subtrees,
                    transfer_micros: r.stats.transfer_micros,
                    device_micros: r.stats.device_micros,
                    found_best: None,
                    verdict: Verdict::Ok,
                    sim: engine.simulation_report().map(|report| {
                        let node_ns = job.simulation.map_or(0.0, |s| s.costs.node_ns);
                        SimShares::new(report, r.stats.aborted_nodes, node_ns)
                    }),
                });
                job.progress.inc(1);
            }
            loads.push(LoadSample {
                algorithm: config.label(),
                threads: config.threads,
                run,
                before,
                after: load_average(),
            });
            if simulated {
                *slot = None;
            }
        }
        for &threads in &ceiling_threads {
            job.progress.set_message(format!(
                "run {}/{}: the machine's ceiling, {threads} serial searches at once",
                run + 1,
                job.runs
            ));
            let engines = &mut solo_engines[..threads];
            ceilings.push(measure_ceiling(job, engines, &positions, &limits, run));
        }
    }
    judge(job, &mut out);
    Ok(SuiteRun {
        measurements: out,
        loads,
        ceilings,
    })
}

/// One run of the machine's ceiling: the suite searched by each of
/// `engines` (serial, one thread each) at once, on a thread of its own.
fn measure_ceiling<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    job: &Job,
    engines: &mut [Engine<G, E>],
    positions: &[G],
    limits: &(impl Fn(&G, Option<i32>) -> Limits + Sync),
    run: usize,
) -> CeilingSample {
    let (suite, progress) = (job.suite, job.progress);
    let per_engine: Vec<(f64, u64)> = std::thread::scope(|scope| {
        let searches: Vec<_> = engines
            .iter_mut()
            .map(|engine| {
                scope.spawn(move || {
                    let (mut seconds, mut nodes) = (0.0, 0);
                    for (i, pos) in positions.iter().enumerate() {
                        engine.clear();
                        let r = engine.search(pos, &limits(pos, suite.depth_of(i)));
                        seconds += r.elapsed.as_secs_f64();
                        nodes += r.stats.nodes;
                        progress.inc(1);
                    }
                    (seconds, nodes)
                })
            })
            .collect();
        searches
            .into_iter()
            .map(|s| s.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    CeilingSample {
        threads: engines.len(),
        run,
        seconds: per_engine.iter().map(|p| p.0).collect(),
        nodes: per_engine.iter().map(|p| p.1).collect(),
    }
}

/// Checks every answer against the suite's known results and, in exact mode
/// or a solve (whose score is exact in either mode), against the serial
/// reference (configuration 0, run 0).
fn judge(job: &Job, measurements: &mut [Measurement]) {
    let exact = job.suite.scores_exact(job.exact);
    let reference: Vec<Score> = measurements
        .iter()
        .take(job.suite.positions.len())
        .map(|m| m.score)
        .collect();
    for m in measurements.iter_mut() {
        let i = job
            .suite
            .positions
            .iter()
            .position(|p| p.id == m.position)
            .expect("measured positions are the suite's");
        let known = &job.suite.positions[i];
        m.found_best = (!known.best_moves.is_empty()).then(|| {
            known
                .best_moves
                .iter()
                .any(|b| b.eq_ignore_ascii_case(&m.best_move))
        });
        m.verdict = if known.expected_score.is_some_and(|s| s != m.score) {
            Verdict::WrongScore {
                expected: known.expected_score.unwrap_or_default(),
            }
        } else if m.found_best == Some(false) && !job.suite.goals {
            Verdict::WrongMove {
                expected: known.best_moves.clone(),
            }
        } else if m.score != reference[i] {
            if exact {
                Verdict::DiffersFromSerial {
                    serial: reference[i],
                }
            } else {
                Verdict::NormalModeDiffers {
                    serial: reference[i],
                }
            }
        } else {
            Verdict::Ok
        };
    }
}

/// Total suite time at each of `depths`, one run of `config`, for the
/// time-against-depth figure.
///
/// # Errors
/// A message naming a position the game cannot read, or saying that the
/// table cannot be allocated.
pub fn time_by_depth<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    job: &Job,
    config: Config,
    depths: &[i32],
    eval: E,
    limits: impl Fn(&G, Option<i32>) -> Limits,
) -> Result<Vec<(i32, f64)>, String> {
    let (suite, progress) = (job.suite, job.progress);
    let positions: Vec<G> = suite.parse_positions()?;
    let mut engine = job.engine(eval, config)?;
    let mut points = Vec::new();
    for &depth in depths {
        progress.set_message(format!(
            "time by depth: {} × {} at depth {depth}",
            config.algorithm, config.threads
        ));
        let mut seconds = 0.0;
        for pos in &positions {
            engine.clear();
            seconds += engine
                .search(pos, &limits(pos, Some(depth)))
                .elapsed
                .as_secs_f64();
            progress.inc(1);
        }
        points.push((depth, seconds));
    }
    Ok(points)
}
