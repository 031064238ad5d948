//! From measurements to the classic tables: per algorithm, per thread count,
//! median time over runs (min–max shown), speedup, nodes, NPS, and the
//! parallel overheads.
//!
//! One speedup everywhere (tables, summary, plots, results.json): serial's
//! time over this configuration's, what a user gains by running it instead
//! of the serial search. An algorithm's own 1-thread time would hide what
//! its machinery costs.

use crate::runner::{CeilingSample, Config, LoadSample, Measurement};
use splitpoint_games::registry::GameName;

mod markdown;

pub use markdown::{markdown, si};

/// One line of a table: one configuration, aggregated over runs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Algorithm name.
    pub algorithm: String,
    /// Threads.
    pub threads: usize,
    /// More threads than cores.
    pub oversubscribed: bool,
    /// Median over runs of the suite's total time, seconds.
    pub seconds: f64,
    /// Fastest run.
    pub seconds_min: f64,
    /// Slowest run.
    pub seconds_max: f64,
    /// Speedup over serial: serial's median time over this median time.
    pub speedup: f64,
    /// Serial's median time over this configuration's slowest run.
    pub speedup_min: f64,
    /// Serial's median time over this configuration's fastest run.
    pub speedup_max: f64,
    /// The 95% confidence interval of `speedup`: a bootstrap over the runs
    /// (serial's and this configuration's resampled, median over median).
    pub speedup_ci_low: f64,
    /// Its upper end.
    pub speedup_ci_high: f64,
    /// A measurement fault: a speedup above the thread count times the NPS
    /// ceiling this run measured (the best NPS any algorithm reached at this
    /// thread count, per thread, over serial's), which no search can earn
    /// from the machine: a slow serial run, or load. Marked `?`.
    pub fault: bool,
    /// Median over runs of the suite's total nodes.
    pub nodes: u64,
    /// Nodes per second (median nodes over median time).
    pub nps: f64,
    /// Nodes over serial's nodes, minus one: the search overhead.
    pub overhead: f64,
    /// Split points opened (median run).
    pub splits: u64,
    /// Bound messages pv-split's master sent (median run).
    pub bounds_sent: u64,
    /// Messages between a cluster's processes, both ways (median run; zero
    /// in-process).
    pub messages: u64,
    /// Their bytes (median run).
    pub message_bytes: u64,
    /// Subtrees handed out by pv-split's master (median run): for `gpu`,
    /// the pieces the batch search splits between host and device.
    pub subtrees: u64,
    /// `gpu`: the device's subtrees, one work-item each (median run).
    pub device_subtrees: u64,
    /// `gpu`: milliseconds moving work up and results down (median run).
    pub transfer_ms: f64,
    /// `gpu`: milliseconds the kernels ran, by the device's clock (median
    /// run).
    pub kernel_ms: f64,
    /// Nodes wasted under cut-off split points (median run).
    pub aborted_nodes: u64,
    /// Share of thread time spent idle, with no work (median run).
    pub idle: f64,
    /// Share of thread time owners spent waiting at their shared nodes for
    /// the threads still there, not helping (median run).
    pub wait: f64,
    /// Share of the nodes searched in work a cutoff then threw away.
    pub aborted: f64,
    /// Searches whose answer was wrong, over all runs.
    pub wrong: usize,
    /// Positions whose search found one of the suite's best moves (median
    /// run), when the suite has best moves.
    pub best_found: Option<usize>,
    /// The highest 1-minute load average sampled before and after this
    /// configuration's runs (`None` where the OS gives none).
    pub load: Option<f64>,
    /// The load exceeded [`load_limit`]: other work competed for the cores,
    /// so the time is suspect (marked `!`).
    pub loaded: bool,
    /// The configuration `auto` runs: the game's default algorithm
    /// ([`GameName::parallel_default`]) at more than one thread.
    pub default: bool,
}

/// Marks the rows of `game`'s default algorithm at more than one thread.
pub fn mark_defaults(rows: &mut [Row], game: GameName) {
    let name = game.parallel_default().name();
    for row in rows {
        row.default = row.threads > 1 && row.algorithm == name;
    }
}

impl Row {
    /// The speedup as a table cell: two decimals, `?` for a measurement
    /// fault, `!` for a loaded machine.
    pub fn speedup_cell(&self) -> String {
        let mark = match (self.loaded, self.fault) {
            (_, true) => "?",
            (true, false) => "!",
            (false, false) => "",
        };
        format!("{:.2}{mark}", self.speedup)
    }
}

/// The machine's ceiling at one thread count over the runs: as many serial
/// searches at once, each on its own engine ([`CeilingSample`]), their
/// summed node rate over serial's in the same run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Ceiling {
    /// Searches at once.
    pub threads: usize,
    /// Median over runs.
    pub ratio: f64,
    /// Lowest run.
    pub ratio_min: f64,
    /// Highest run.
    pub ratio_max: f64,
}

/// Each thread count's ceiling from `samples`, each run's against the
/// serial search's node rate in that run (summed over its positions).
pub fn ceilings(samples: &[CeilingSample], measurements: &[Measurement]) -> Vec<Ceiling> {
    let serial_nps = |run: usize| {
        let (nodes, seconds) = measurements
            .iter()
            .filter(|m| m.algorithm == "serial" && m.threads == 1 && m.run == run)
            .fold((0u64, 0.0), |(n, s), m| (n + m.nodes, s + m.seconds));
        (seconds > 0.0).then(|| nodes as f64 / seconds)
    };
    let mut threads: Vec<usize> = samples.iter().map(|c| c.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    threads
        .into_iter()
        .filter_map(|t| {
            let ratios: Vec<f64> = samples
                .iter()
                .filter(|c| c.threads == t)
                .filter_map(|c| serial_nps(c.run).map(|nps| c.nps() / nps))
                .collect();
            (!ratios.is_empty()).then(|| Ceiling {
                threads: t,
                ratio_min: ratios.iter().copied().fold(f64::INFINITY, f64::min),
                ratio_max: ratios.iter().copied().fold(0.0, f64::max),
                ratio: median(ratios),
            })
        })
        .collect()
}

/// The load average above which a configuration is marked loaded: the
/// cores, or the bench's own largest thread count when it oversubscribes
/// (its own threads then raise the load past the cores).
pub fn load_limit(cores: usize, max_threads: usize) -> f64 {
    cores.max(max_threads) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Aggregates `measurements` into one row per configuration; `loads` marks
/// the configurations run while the load average exceeded `load_limit`.
pub fn rows(
    configs: &[Config],
    measurements: &[Measurement],
    loads: &[LoadSample],
    runs: usize,
    cores: usize,
    load_limit: f64,
) -> Vec<Row> {
    struct Totals {
        seconds: f64,
        nodes: u64,
        splits: u64,
        aborted: u64,
        idle_micros: u64,
        wait_micros: u64,
        bounds: u64,
        messages: u64,
        bytes: u64,
        work: u64,
        device_subtrees: u64,
        transfer_micros: u64,
        device_micros: u64,
        found: usize,
    }
    let totals = |c: &Config| -> Vec<Totals> {
        (0..runs)
            .map(|run| {
                let ms = measurements
                    .iter()
                    .filter(|m| m.algorithm == c.label() && m.threads == c.threads && m.run == run);
                ms.fold(
                    Totals {
                        seconds: 0.0,
                        nodes: 0,
                        splits: 0,
                        aborted: 0,
                        idle_micros: 0,
                        wait_micros: 0,
                        bounds: 0,
                        messages: 0,
                        bytes: 0,
                        work: 0,
                        device_subtrees: 0,
                        transfer_micros: 0,
                        device_micros: 0,
                        found: 0,
                    },
                    |mut t, m| {
                        t.found += usize::from(m.found_best == Some(true));
                        t.seconds += m.seconds;
                        t.nodes += m.nodes;
                        t.splits += m.splits;
                        t.aborted += m.aborted_nodes;
                        t.idle_micros += m.idle_micros;
                        t.wait_micros += m.wait_micros;
                        t.bounds += m.bounds_sent;
                        t.messages += m.messages;
                        t.bytes += m.message_bytes;
                        t.work += m.work_sent;
                        t.device_subtrees += m.device_subtrees;
                        t.transfer_micros += m.transfer_micros;
                        t.device_micros += m.device_micros;
                        t
                    },
                )
            })
            .collect()
    };
    let has_best = measurements.iter().any(|m| m.found_best.is_some());
    let run_seconds: Vec<Vec<f64>> = configs
        .iter()
        .map(|c| totals(c).iter().map(|t| t.seconds).collect())
        .collect();
    let mut rows: Vec<Row> = configs
        .iter()
        .map(|c| {
            let mut t = totals(c);
            t.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
            let mid = &t[t.len() / 2];
            let seconds = median(t.iter().map(|x| x.seconds).collect());
            let nodes = median(t.iter().map(|x| x.nodes as f64).collect()) as u64;
            let load = loads
                .iter()
                .filter(|l| l.algorithm == c.label() && l.threads == c.threads)
                .filter_map(LoadSample::max)
                .reduce(f64::max);
            Row {
                algorithm: c.label(),
                threads: c.threads,
                oversubscribed: c.threads > cores,
                seconds,
                seconds_min: t.first().map_or(0.0, |x| x.seconds),
                seconds_max: t.last().map_or(0.0, |x| x.seconds),
                speedup: 1.0,
                speedup_min: 1.0,
                speedup_max: 1.0,
                speedup_ci_low: 1.0,
                speedup_ci_high: 1.0,
                fault: false,
                default: false,
                nodes,
                nps: nodes as f64 / seconds.max(1e-9),
                overhead: 0.0,
                splits: mid.splits,
                bounds_sent: mid.bounds,
                messages: mid.messages,
                message_bytes: mid.bytes,
                subtrees: mid.work,
                device_subtrees: mid.device_subtrees,
                transfer_ms: mid.transfer_micros as f64 / 1e3,
                kernel_ms: mid.device_micros as f64 / 1e3,
                aborted_nodes: mid.aborted,
                idle: mid.idle_micros as f64 / 1e6 / (mid.seconds * c.threads as f64).max(1e-9),
                wait: mid.wait_micros as f64 / 1e6 / (mid.seconds * c.threads as f64).max(1e-9),
                aborted: mid.aborted as f64 / (mid.nodes.max(1)) as f64,
                best_found: has_best.then(|| {
                    let mut found: Vec<usize> = t.iter().map(|x| x.found).collect();
                    found.sort_unstable();
                    found[found.len() / 2]
                }),
                wrong: measurements
                    .iter()
                    .filter(|m| {
                        m.algorithm == c.label() && m.threads == c.threads && m.verdict.is_wrong()
                    })
                    .count(),
                load,
                loaded: load.is_some_and(|l| l > load_limit),
            }
        })
        .collect();
    let serial = rows
        .iter()
        .find(|r| r.algorithm == "serial" && r.threads == 1)
        .map(|r| (r.seconds, r.nodes));
    if let Some((ts, ns)) = serial {
        let serial_runs = configs
            .iter()
            .position(|c| c.label() == "serial" && c.threads == 1)
            .map(|i| run_seconds[i].clone())
            .unwrap_or_default();
        for (i, r) in rows.iter_mut().enumerate() {
            r.speedup = ts / r.seconds.max(1e-9);
            r.speedup_min = ts / r.seconds_max.max(1e-9);
            r.speedup_max = ts / r.seconds_min.max(1e-9);
            (r.speedup_ci_low, r.speedup_ci_high) =
                bootstrap_ci(&serial_runs, &run_seconds[i], i as u64);
            r.overhead = r.nodes as f64 / (ns.max(1)) as f64 - 1.0;
        }
        let serial_nps = ns as f64 / ts.max(1e-9);
        let ceiling = |threads: usize| -> f64 {
            rows.iter()
                .filter(|r| r.threads == threads)
                .map(|r| r.nps / (threads as f64 * serial_nps))
                .fold(0.0, f64::max)
                .min(1.0)
        };
        let ceilings: Vec<f64> = rows.iter().map(|r| ceiling(r.threads)).collect();
        for (r, c) in rows.iter_mut().zip(ceilings) {
            r.fault = r.threads > 1 && r.speedup > r.threads as f64 * c;
        }
    }
    rows
}

/// Resamples drawn for a confidence interval.
const BOOTSTRAP_RESAMPLES: usize = 2000;

/// The 95% bootstrap confidence interval of the speedup `median(serial) /
/// median(config)` over per-run suite times: both resampled with
/// replacement, deterministically (`seed`).
fn bootstrap_ci(serial: &[f64], config: &[f64], seed: u64) -> (f64, f64) {
    if serial.is_empty() || config.is_empty() {
        return (1.0, 1.0);
    }
    let mut state = (seed + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut draw = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut ratios: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let s = median(
                (0..serial.len())
                    .map(|_| serial[draw(serial.len())])
                    .collect(),
            );
            let c = median(
                (0..config.len())
                    .map(|_| config[draw(config.len())])
                    .collect(),
            );
            s / c.max(1e-9)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

#[cfg(test)]
mod tests;
