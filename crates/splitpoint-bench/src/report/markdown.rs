//! The markdown report: a table per algorithm, the summary against the
//! machine's ceiling, the messages and GPU tables, and the notes on what a
//! mark means.

use std::fmt::Write as _;

use super::{Ceiling, Row, load_limit};
use crate::BenchOptions;
use crate::runner::{Measurement, SimShares};
use crate::suite::SuiteKind;
use splitpoint_games::registry::is_gpu_label;

/// How far apart serial's fastest and slowest runs may be (slowest over
/// fastest, less one) before the tables carry a note on noise: serial
/// search visits the same nodes every run, so its spread is the machine's
/// alone. Differences of a few percent between algorithms are what a
/// change is judged by; a spread larger than this hides them.
const NOISY_SPREAD: f64 = 0.10;

/// A number with a metric prefix: `950`, `12.3k`, `4.56M`, `1.20G`.
pub fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// The thread count (`--threads`), marked `*` when oversubscribed, `!` when loaded and `?`
/// for a measurement fault.
fn cpus(r: &Row) -> String {
    format!(
        "{}{}{}{}",
        r.threads,
        if r.oversubscribed { "*" } else { "" },
        if r.loaded { "!" } else { "" },
        if r.fault { "?" } else { "" }
    )
}

/// PV splitting's messages, where any were sent: per configuration (median
/// run), the bounds the master broadcast and, over a cluster, every message
/// and byte between processes, beside the share of time threads or
/// processes idled.
fn messages_table(s: &mut String, rows: &[Row]) {
    let sending: Vec<&Row> = rows
        .iter()
        .filter(|r| r.bounds_sent + r.messages > 0)
        .collect();
    if sending.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n### Messages (median run)\n");
    let _ = writeln!(
        s,
        "| Algorithm | Threads | Bounds sent | Messages | Bytes | Idle |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
    for r in sending {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.1}% |",
            r.algorithm,
            cpus(r),
            r.bounds_sent,
            r.messages,
            si(r.message_bytes as f64),
            100.0 * r.idle
        );
    }
}

/// The GPU's profile, where it ran (the seed's: transfers and kernels
/// apart): per `gpu` row (median run), the pieces of work pv-split's master
/// handed out, the subtrees the device searched for them, the launches and
/// the mean batch, subtrees per second of kernel time, and where the time
/// went.
fn gpu_table(s: &mut String, rows: &[Row], device: Option<&str>) {
    let gpu: Vec<&Row> = rows.iter().filter(|r| is_gpu_label(&r.algorithm)).collect();
    if gpu.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n### GPU (median run)\n");
    if let Some(device) = device {
        let _ = writeln!(s, "Device: {device}.\n");
    }
    let _ = writeln!(
        s,
        "| Algorithm | Pieces | Subtrees | Launches | Batch | Subtrees/s (kernel) | Transfer | Kernel | Wall |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in gpu {
        let batch = r.device_subtrees as f64 / r.messages.max(1) as f64;
        let rate = r.device_subtrees as f64 / (r.kernel_ms / 1e3).max(1e-9);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {batch:.1} | {} | {:.1} ms | {:.1} ms | {:.1} ms |",
            r.algorithm,
            r.subtrees,
            r.device_subtrees,
            r.messages,
            si(rate),
            r.transfer_ms,
            r.kernel_ms,
            1e3 * r.seconds
        );
    }
}

/// A simulation's breakdown: per configuration, where the virtual
/// processors' time went (summed over the suite), and the real time the
/// simulation took.
fn simulation_table(
    s: &mut String,
    options: &BenchOptions,
    rows: &[Row],
    measurements: &[Measurement],
) {
    let Some(sim) = options.simulation else {
        return;
    };
    let _ = writeln!(
        s,
        "\n### Simulation: where the processors' time went\n\n\
         Virtual time: {} ns a node, {} ns a cache line, {} ns a wake-up ({} costs), \
         a {} ns quantum. Shares of processors × time, summed over the suite; \
         *cut off* is the part of *searching* spent under split points a cutoff \
         made useless.\n",
        sim.costs.node_ns, sim.costs.line_ns, sim.costs.wake_ns, options.costs_from, sim.quantum_ns
    );
    let _ = writeln!(
        s,
        "| Algorithm | Processors | Speedup | Efficiency | Searching | Cut off | Overhead | Idle | Waiting | Timeouts | Real (s) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let mut sum = SimShares::default();
        for m in measurements
            .iter()
            .filter(|m| m.algorithm == r.algorithm && m.threads == r.threads)
        {
            let Some(x) = &m.sim else { continue };
            sum.processor_seconds += x.processor_seconds;
            sum.search += x.search;
            sum.cut_off += x.cut_off;
            sum.overhead += x.overhead;
            sum.idle += x.idle;
            sum.wait += x.wait;
            sum.timeouts += x.timeouts;
            sum.real_seconds += x.real_seconds;
        }
        let share = |x: f64| 100.0 * x / sum.processor_seconds.max(1e-18);
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.0}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {} | {:.1} |",
            r.algorithm,
            r.threads,
            r.speedup,
            100.0 * r.speedup / r.threads as f64,
            share(sum.search),
            share(sum.cut_off),
            share(sum.overhead),
            share(sum.idle),
            share(sum.wait),
            sum.timeouts,
            sum.real_seconds
        );
    }
}

/// The markdown report: a table per algorithm, a summary, and every wrong answer.
pub fn markdown(
    options: &BenchOptions,
    cores: usize,
    rows: &[Row],
    ceilings: &[Ceiling],
    measurements: &[Measurement],
) -> String {
    let (suite, runs) = (&options.suite, options.runs);
    let exact = options.exact;
    // One run has no interval: its min, max and bootstrap are the run itself.
    let many = runs > 1;
    let mut s = String::new();
    let how = match suite.kind {
        SuiteKind::Solve => "solved exactly".to_string(),
        SuiteKind::Depth(d) if d > 0 => format!("depth {d}"),
        SuiteKind::Depth(_) => "per-position depths".to_string(),
    };
    let mode = match (suite.kind, exact) {
        (SuiteKind::Solve, true) => "the oracle: exact mode",
        (SuiteKind::Solve, false) => "the solver",
        (_, true) => "exact mode",
        (_, false) => "normal mode",
    };
    let mode = format!("{mode}, {} table", options.table.name());
    let _ = writeln!(
        s,
        "## Suite `{}` ({} positions, {how}, {mode}), {}\n",
        suite.name,
        suite.positions.len(),
        if many {
            format!("{runs} runs: median time (min–max)")
        } else {
            "1 run".to_string()
        }
    );
    let mut algorithms: Vec<&str> = Vec::new();
    for r in rows {
        if !algorithms.contains(&r.algorithm.as_str()) {
            algorithms.push(&r.algorithm);
        }
    }
    let with_best = suite
        .positions
        .iter()
        .filter(|p| !p.best_moves.is_empty())
        .count();
    let (best_head, best_rule) = if with_best > 0 {
        (format!(" Best found (of {with_best}) |"), "---:|")
    } else {
        (String::new(), "")
    };
    for a in &algorithms {
        let _ = writeln!(s, "### {a}\n");
        let _ = writeln!(
            s,
            "| Threads | Time (s) | Speedup over serial{} | Nodes | NPS | Overhead | Splits | Aborted | Idle | Wait | Wrong |{best_head}",
            if many { " [95% CI]" } else { "" }
        );
        let _ = writeln!(
            s,
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|{best_rule}"
        );
        for r in rows.iter().filter(|r| r.algorithm == *a) {
            let best = r.best_found.map_or(String::new(), |n| format!(" {n} |"));
            let (time, speedup) = if many {
                (
                    format!(
                        "{:.3} ({:.3}–{:.3})",
                        r.seconds, r.seconds_min, r.seconds_max
                    ),
                    format!(
                        "{:.2} [{:.2}–{:.2}]",
                        r.speedup, r.speedup_ci_low, r.speedup_ci_high
                    ),
                )
            } else {
                (format!("{:.3}", r.seconds), format!("{:.2}", r.speedup))
            };
            let _ = writeln!(
                s,
                "| {} | {time} | {speedup} | {} | {} | {:+.1}% | {} | {} | {:.1}% | {:.1}% | {} |{best}",
                cpus(r),
                si(r.nodes as f64),
                si(r.nps),
                100.0 * r.overhead,
                r.splits,
                si(r.aborted_nodes as f64),
                100.0 * r.idle,
                100.0 * r.wait,
                if r.wrong == 0 {
                    "0".to_string()
                } else {
                    format!("**{}**", r.wrong)
                }
            );
        }
        s.push('\n');
    }
    let mut threads: Vec<usize> = rows.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let _ = writeln!(
        s,
        "### Summary: speedup over serial (serial's time / time)\n"
    );
    let head: Vec<String> = threads
        .iter()
        .map(|&t| {
            if t > cores {
                format!("{t}*")
            } else {
                t.to_string()
            }
        })
        .collect();
    let _ = writeln!(s, "| Algorithm | {} |", head.join(" | "));
    let _ = writeln!(s, "|---|{}", "---:|".repeat(threads.len()));
    for a in &algorithms {
        let cells: Vec<String> = threads
            .iter()
            .map(|&t| {
                rows.iter()
                    .find(|r| r.algorithm == *a && r.threads == t)
                    .map_or("–".into(), Row::speedup_cell)
            })
            .collect();
        let _ = writeln!(s, "| {a} | {} |", cells.join(" | "));
    }
    if !ceilings.is_empty() {
        let cells: Vec<String> = threads
            .iter()
            .map(|&t| {
                ceilings
                    .iter()
                    .find(|c| c.threads == t)
                    .map_or("–".into(), |c| {
                        if many {
                            format!("{:.2} ({:.2}–{:.2})", c.ratio, c.ratio_min, c.ratio_max)
                        } else {
                            format!("{:.2}", c.ratio)
                        }
                    })
            })
            .collect();
        let _ = writeln!(s, "| *machine ceiling* | {} |", cells.join(" | "));
        let _ = writeln!(
            s,
            "\n*Machine ceiling*: as many serial searches of the suite at once as \
             threads, each on its own engine (nothing shared), measured in every run; \
             their summed node rate over serial's in the same run{}. \
             What the machine gave this workload on that many cores at the time, \
             whatever the algorithm: a speedup is best read against it.",
            if many { " (median, min–max)" } else { "" }
        );
    }
    if with_best > 0 {
        let _ = writeln!(
            s,
            "\n*Best found (of {with_best})*: {with_best} of the suite's {} positions name \
             best moves (EPD `bm`); the column counts those whose search chose one of \
             them{}. A search to a fixed depth need not find them: they check the \
             positions and the evaluation, not the parallel algorithm.",
            suite.positions.len(),
            if many { " (median run)" } else { "" }
        );
    }
    messages_table(&mut s, rows);
    simulation_table(&mut s, options, rows, measurements);
    gpu_table(&mut s, rows, options.gpu.as_ref().map(|g| g.name.as_str()));
    if threads.iter().any(|&t| t > cores) {
        let _ = writeln!(
            s,
            "\n`*` oversubscribed: more threads than this machine's {cores} cores."
        );
    }
    if rows.iter().any(|r| r.fault) {
        let _ = writeln!(
            s,
            "\n`?` measurement fault: a speedup above the thread count times the \
             best NPS per thread any algorithm reached here (relative to serial's); \
             no search earns that from the machine, so a run was disturbed. \
             Re-run with more --runs."
        );
    }
    if let Some(peak) = rows
        .iter()
        .filter(|r| r.loaded)
        .filter_map(|r| r.load)
        .reduce(f64::max)
    {
        let limit = load_limit(cores, threads.last().copied().unwrap_or(1));
        let _ = writeln!(
            s,
            "\n`!` loaded: the 1-minute load average rose above {limit:.0} (up to {peak:.2}) \
             around these configurations; other work competed for the cores, so their \
             times are suspect. Re-run on a quiet machine."
        );
    }
    if let Some(serial) = rows
        .iter()
        .find(|r| r.algorithm == "serial" && r.threads == 1)
        .filter(|r| r.seconds_max > r.seconds_min * (1.0 + NOISY_SPREAD))
    {
        let _ = writeln!(
            s,
            "\nNoisy machine: serial's runs took {:.3} to {:.3} s for the same nodes \
             ({:.0}% apart). Differences smaller than that are the machine's, not the \
             algorithms': compare the intervals, and re-run on a quieter machine or \
             with more --runs.",
            serial.seconds_min,
            serial.seconds_max,
            (serial.seconds_max / serial.seconds_min - 1.0) * 100.0
        );
    }
    let wrong: Vec<&Measurement> = measurements
        .iter()
        .filter(|m| m.verdict.is_wrong())
        .collect();
    let differs = measurements
        .iter()
        .filter(|m| !m.verdict.is_wrong() && m.verdict != crate::runner::Verdict::Ok)
        .count();
    if !wrong.is_empty() {
        let _ = writeln!(s, "\n### WRONG ANSWERS ({})\n", wrong.len());
        let _ = writeln!(
            s,
            "| Algorithm | Threads | Run | Position | Score | Move | Problem |"
        );
        let _ = writeln!(s, "|---|---:|---:|---|---:|---|---|");
        for m in wrong {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {:?} |",
                m.algorithm,
                m.threads,
                m.run + 1,
                m.position,
                m.score,
                m.best_move,
                m.verdict
            );
        }
    } else {
        let _ = writeln!(
            s,
            "\nEvery answer agrees with the suite's known results{}.",
            if suite.scores_exact(exact) {
                " and with serial search"
            } else {
                ""
            }
        );
    }
    if differs > 0 {
        let _ = writeln!(
            s,
            "{differs} normal-mode scores differ from serial (allowed outside exact mode)."
        );
    }
    s
}
