//! `splitpoint solve --algorithm gpu`: every position at once, the device
//! solving the frontier's subtrees in large launches
//! (`splitpoint_games::othello::gpu::solve_batch`).

use std::process::ExitCode;

use crate::error::{Error, Result};
use crate::solve::{Job, SolveArgs};

/// Solves `jobs` together on the device and prints them as `solve` does,
/// with the batch's totals last.
#[cfg(feature = "gpu")]
pub fn run(args: &SolveArgs, jobs: &[Job]) -> Result<ExitCode> {
    use std::io::Write;

    use serde::Serialize;
    use splitpoint::{Game, Stats};
    use splitpoint_games::othello::gpu::{BatchConfig, Gpu, MAX_EMPTIES, solve_batch};

    use crate::report;
    use crate::search::StatsJson;
    use crate::solve::{Row, SolveJson, agrees, check_json, mismatch, write_heading, write_row_of};

    let engine = &args.engine;
    if engine.parallel.threads != 1 {
        return Err(Error::input(
            "--algorithm gpu: the CPU side is one thread (the master); leave out --threads",
        ));
    }
    if engine.sim || engine.parallel.trace.is_some() || engine.cluster.transport != "threads" {
        return Err(Error::input(
            "--algorithm gpu solves on this process's device: not with --sim, --trace or --transport",
        ));
    }
    if args.device_empties > MAX_EMPTIES {
        return Err(Error::input(format!(
            "--device-empties: at most {MAX_EMPTIES} (the kernel's stack)"
        )));
    }
    let mut gpu = Gpu::open(Some(engine.parallel.gpu_device))
        .map_err(|e| Error::input(format!("the gpu algorithm: {e}")))?;
    let config = BatchConfig {
        host_plies: args.host_plies,
        device_empties: args.device_empties,
        cut_wait: args.cut_wait,
        ..BatchConfig::default()
    };
    let positions: Vec<_> = jobs.iter().map(|j| j.position).collect();
    let progress = crate::solve::progress_line();
    let total = jobs.len();
    let (solved, batch) = solve_batch(&mut gpu, &positions, &config, |n| {
        progress.set_message(format!("{n} of {total} positions on the device"));
    })
    .map_err(|e| Error::input(format!("the gpu algorithm: {e}")))?;
    progress.finish_and_clear();

    let mut out = crate::stdout();
    if !args.json {
        write_heading(&mut out, jobs)?;
    }
    let mut all_correct = true;
    for (job, s) in jobs.iter().zip(&solved) {
        let correct = job
            .known
            .as_ref()
            .is_none_or(|k| agrees(k, s.score, s.best_move));
        all_correct &= correct;
        if args.json {
            let stats = Stats {
                nodes: s.nodes,
                work_sent: s.subtrees,
                device_subtrees: s.subtrees,
                launches: s.launches,
                ..Stats::default()
            };
            let seconds = s.latency.as_secs_f64();
            let best_move = s.best_move.map(|m| job.position.move_text(m));
            report::json_line(
                &mut out,
                &SolveJson {
                    position: job.position.position_text(),
                    empties: job.position.empty_count(),
                    score: s.score,
                    best_move: best_move.clone(),
                    nodes: s.nodes,
                    ordering_nodes: s.ordering_nodes,
                    last_move_nodes: None,
                    edax_nodes: None,
                    seconds,
                    nps: s.nodes as f64 / seconds.max(1e-9),
                    pv: best_move.into_iter().collect(),
                    stats: StatsJson::from(&stats),
                    check: check_json(job, correct),
                },
            )?;
        } else {
            let row = Row {
                score: s.score,
                best_move: s.best_move,
                nodes: s.nodes,
                elapsed: s.latency,
            };
            write_row_of(&mut out, job, &row, correct)?;
        }
        if let (false, Some(known)) = (correct, &job.known) {
            mismatch(known, s.score, s.best_move);
        }
    }

    let seconds = batch.elapsed.as_secs_f64().max(1e-9);
    let totals = Stats {
        nodes: batch.host_nodes + batch.device_nodes,
        work_sent: batch.subtrees,
        device_subtrees: batch.subtrees,
        launches: batch.launches,
        messages: batch.launches,
        message_bytes: batch.bytes,
        transfer_micros: batch.transfer.as_micros() as u64,
        device_micros: batch.kernel.as_micros() as u64,
        ..Stats::default()
    };
    let device = format!("{} / {}", gpu.info().platform, gpu.info().name);
    if args.json {
        /// The run's totals: positions share launches.
        #[derive(Serialize)]
        struct Summary<'a> {
            summary: bool,
            device: &'a str,
            positions: u64,
            seconds: f64,
            positions_per_second: f64,
            subtrees_per_second: f64,
            subtrees_per_launch: f64,
            largest_launch: u64,
            researches: u64,
            aborted: u64,
            dropped: u64,
            cutoffs: u64,
            tasks: u64,
            most_tasks: u64,
            host_nodes: u64,
            ordering_nodes: u64,
            device_nodes: u64,
            lanes: u64,
            fill: f64,
            host_plies: u32,
            device_empties: u32,
            cut_wait: usize,
            stats: StatsJson,
        }
        report::json_line(
            &mut out,
            &Summary {
                summary: true,
                device: &device,
                positions: batch.positions,
                seconds,
                positions_per_second: batch.positions as f64 / seconds,
                subtrees_per_second: batch.subtrees as f64 / seconds,
                subtrees_per_launch: batch.subtrees_per_launch(),
                largest_launch: batch.largest_launch,
                researches: batch.researches,
                aborted: batch.aborted,
                dropped: batch.dropped,
                cutoffs: batch.cutoffs,
                tasks: batch.tasks,
                most_tasks: batch.most_tasks,
                host_nodes: batch.host_nodes,
                ordering_nodes: batch.ordering_nodes,
                device_nodes: batch.device_nodes,
                lanes: batch.lanes,
                fill: batch.fill(),
                host_plies: config.host_plies,
                device_empties: config.device_empties,
                cut_wait: config.cut_wait,
                stats: StatsJson::from(&totals),
            },
        )?;
    } else {
        writeln!(
            out,
            "{:<5}{:>34} {:>9.3} {:>8}",
            "total",
            totals.nodes,
            seconds,
            report::per_second(totals.nodes, batch.elapsed)
        )?;
        writeln!(
            out,
            "gpu {device}: {} launches of {:.1} subtrees on average (largest {}, {} \
             re-searches, {} aborted, {} dropped), {:.2} a lane of {}; kernel {:.3} s, \
             transfer {:.3} s; {} positions/s, {} subtrees/s",
            batch.launches,
            batch.subtrees_per_launch(),
            batch.largest_launch,
            batch.researches,
            batch.aborted,
            batch.dropped,
            batch.fill(),
            batch.lanes,
            batch.kernel.as_secs_f64(),
            batch.transfer.as_secs_f64(),
            report::per_second(batch.positions, batch.elapsed),
            report::per_second(batch.subtrees, batch.elapsed),
        )?;
    }
    Ok(if all_correct {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Without the `gpu` feature there is no device.
#[cfg(not(feature = "gpu"))]
pub fn run(_: &SolveArgs, _: &[Job]) -> Result<ExitCode> {
    Err(Error::input(format!(
        "the gpu algorithm: {}",
        splitpoint_games::registry::NO_OPENCL
    )))
}
