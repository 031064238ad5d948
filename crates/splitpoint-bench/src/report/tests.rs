//! The tables' rules: speedups over serial, faults, load marks, intervals,
//! messages, the GPU.

use splitpoint::Algorithm;

use super::*;
use crate::BenchOptions;
use crate::runner::Verdict;
use crate::suite::Suite;
use splitpoint_games::registry::{GPU, GpuSplit};

fn search(algorithm: Algorithm, threads: usize, seconds: f64, nodes: u64) -> Measurement {
    Measurement {
        algorithm: algorithm.name().to_string(),
        threads,
        run: 0,
        position: "p".to_string(),
        depth: 3,
        seconds,
        nodes,
        score: 0,
        best_move: "-".to_string(),
        splits: 0,
        splits_refused: 0,
        aborted_nodes: 0,
        idle_micros: 0,
        wait_micros: 0,
        bounds_sent: 0,
        messages: 0,
        message_bytes: 0,
        work_sent: 0,
        device_subtrees: 0,
        transfer_micros: 0,
        device_micros: 0,
        found_best: None,
        verdict: Verdict::Ok,
        sim: None,
    }
}

fn options() -> BenchOptions {
    BenchOptions {
        suite: Suite::load("synthetic-tiny", None).unwrap(),
        algorithms: vec![Algorithm::Ybw { strong: false }],
        threads: vec![1, 2],
        latencies: Vec::new(),
        ranks: Vec::new(),
        cluster: None,
        gpu: None,
        runs: 1,
        hash_mib: 1,
        table: splitpoint::TableKind::Lockless,
        exact: true,
        out: None,
        quiet: true,
        ceiling: true,
        simulation: None,
        costs_from: String::new(),
        whole_tree_max: None,
    }
}

fn sample(algorithm: Algorithm, threads: usize, before: Option<f64>) -> LoadSample {
    LoadSample {
        algorithm: algorithm.name().to_string(),
        threads,
        run: 0,
        before,
        after: before.map(|l| l / 2.0),
    }
}

/// A speedup the machine cannot give (above threads × the best NPS per
/// thread measured) is a fault; one within it is not.
#[test]
fn an_impossible_speedup_is_flagged_a_fault() {
    let (ybw, dts) = (Algorithm::Ybw { strong: false }, Algorithm::Dts);
    let configs: Vec<Config> = [(Algorithm::Serial, 1), (ybw, 2), (dts, 2)]
        .map(|(algorithm, threads)| Config::new(algorithm, threads))
        .to_vec();
    // Serial: 1000 nodes in 2 s. ybw: NPS 1.9× serial's (the ceiling,
    // 0.95 a thread), speedup 1.73. dts: 2.2× faster on fewer nodes,
    // above 2 × 0.95.
    let measurements = vec![
        search(Algorithm::Serial, 1, 2.0, 1000),
        search(ybw, 2, 1.157_894_7, 1100),
        search(dts, 2, 0.909_090_9, 800),
    ];
    let rows = rows(&configs, &measurements, &[], 1, 2, load_limit(2, 2));
    let faults: Vec<bool> = rows.iter().map(|r| r.fault).collect();
    assert_eq!(faults, [false, false, true]);
    let table = markdown(&options(), 2, &rows, &[], &measurements);
    assert!(table.contains("| 2? |"), "{table}");
    assert!(table.contains("measurement fault"), "{table}");
}

/// The confidence interval brackets the median speedup, and narrows to
/// it when every run agrees.
#[test]
fn messages_are_tabled_per_configuration_over_ranks() {
    let configs = [
        Config::new(Algorithm::Serial, 1),
        Config::over_ranks(1),
        Config::over_ranks(3),
    ];
    let over = |ranks: usize, seconds: f64, messages: u64| Measurement {
        bounds_sent: messages / 10,
        messages,
        message_bytes: 90 * messages,
        work_sent: 0,
        transfer_micros: 0,
        device_micros: 0,
        ..search(Algorithm::PvSplit, ranks, seconds, 1000)
    };
    let mut measurements = vec![
        search(Algorithm::Serial, 1, 2.0, 1000),
        over(1, 2.1, 0),
        over(3, 1.2, 400),
    ];
    for m in &mut measurements[1..] {
        m.algorithm = "pv-split/mpi".to_string();
    }
    let rows = rows(&configs, &measurements, &[], 1, 2, load_limit(2, 3));
    assert_eq!(rows[2].algorithm, "pv-split/mpi");
    assert_eq!(
        (rows[2].messages, rows[2].message_bytes, rows[2].bounds_sent),
        (400, 36_000, 40)
    );
    let table = markdown(&options(), 2, &rows, &[], &measurements);
    assert!(
        table.contains("| pv-split/mpi | 3* | 40 | 400 | 36.0k |"),
        "{table}"
    );
    // Neither serial nor the master alone sent anything: no row.
    let section = &table[table.find("### Messages").expect("a messages table")..];
    let section = section.split("\n\n").nth(1).unwrap_or_default();
    assert_eq!(section.lines().count(), 3, "{section}");
    let quiet = markdown(&options(), 2, &rows[..1], &[], &measurements[..1]);
    assert!(!quiet.contains("### Messages"), "{quiet}");
}

#[test]
fn the_bootstrap_interval_brackets_the_speedup() {
    let (lo, hi) = bootstrap_ci(
        &[2.0, 2.1, 1.9, 2.05, 1.95],
        &[1.1, 1.0, 1.2, 1.05, 0.95],
        7,
    );
    let speedup = 2.0 / 1.05;
    assert!(lo < speedup && speedup < hi, "{lo} {speedup} {hi}");
    assert!(lo > 1.5 && hi < 2.3, "{lo} {hi}");
    assert_eq!(bootstrap_ci(&[2.0, 2.0], &[1.0, 1.0], 1), (2.0, 2.0));
}

/// Speedup is over serial's time, for every row; a configuration whose
/// load average passed the limit is marked, in the rows and the tables.
#[test]
fn speedup_is_over_serial_and_loaded_rows_are_marked() {
    let ybw = Algorithm::Ybw { strong: false };
    let configs: Vec<Config> = [(Algorithm::Serial, 1), (ybw, 1), (ybw, 2)]
        .map(|(algorithm, threads)| Config::new(algorithm, threads))
        .to_vec();
    let measurements = vec![
        search(Algorithm::Serial, 1, 2.0, 1000),
        search(ybw, 1, 2.5, 1000),
        search(ybw, 2, 1.6, 1100),
    ];
    let loads = vec![
        sample(Algorithm::Serial, 1, Some(0.4)),
        sample(ybw, 1, None),
        sample(ybw, 2, Some(2.7)),
    ];
    let rows = rows(&configs, &measurements, &loads, 1, 2, load_limit(2, 2));
    let speedups: Vec<f64> = rows.iter().map(|r| r.speedup).collect();
    // ybw × 1 is slower than serial: 0.8, not the 1.0 its own time gives.
    assert_eq!(speedups, [1.0, 0.8, 1.25]);
    assert!((rows[2].overhead - 0.1).abs() < 1e-9);
    let loaded: Vec<bool> = rows.iter().map(|r| r.loaded).collect();
    assert_eq!(loaded, [false, false, true]);
    assert_eq!(rows[1].load, None);
    assert_eq!(rows[2].load, Some(2.7));

    let text = markdown(&options(), 2, &rows, &[], &measurements);
    assert!(text.contains("| 2! | 1.600"), "{text}");
    assert!(text.contains("| ybw | 0.80 | 1.25! |"), "{text}");
    assert!(text.contains("`!` loaded"), "{text}");
    assert!(text.contains("up to 2.70"), "{text}");
    // Oversubscribed threads raise the load themselves: the limit follows.
    assert_eq!(load_limit(2, 4), 4.0);
}

/// Serial's own runs spread more than 10% apart: the tables say the
/// machine is noisy; within 10%, they say nothing.
#[test]
fn a_noisy_machine_is_named_by_serials_spread() {
    let ybw = Algorithm::Ybw { strong: false };
    let configs: Vec<Config> = [(Algorithm::Serial, 1), (ybw, 2)]
        .map(|(algorithm, threads)| Config::new(algorithm, threads))
        .to_vec();
    let runs = |serial_slowest: f64| -> Vec<Measurement> {
        [(2.0, 1.1), (serial_slowest, 1.2), (2.1, 1.15)]
            .iter()
            .enumerate()
            .flat_map(|(run, &(serial, parallel))| {
                [
                    Measurement {
                        run,
                        ..search(Algorithm::Serial, 1, serial, 1000)
                    },
                    Measurement {
                        run,
                        ..search(ybw, 2, parallel, 1100)
                    },
                ]
            })
            .collect()
    };
    let mut opts = options();
    opts.runs = 3;
    for (slowest, noisy) in [(2.5, true), (2.15, false)] {
        let measurements = runs(slowest);
        let rows = rows(&configs, &measurements, &[], 3, 2, load_limit(2, 2));
        let text = markdown(&opts, 2, &rows, &[], &measurements);
        assert_eq!(text.contains("Noisy machine"), noisy, "{text}");
        if noisy {
            assert!(text.contains("2.000 to 2.500 s"), "{text}");
            assert!(text.contains("(25% apart)"), "{text}");
        }
    }
}

/// The game's default algorithm is marked at 2 threads, not at 1, and
/// no other algorithm is.
#[test]
fn the_default_rows_are_marked() {
    let (ybw, dts) = (Algorithm::Ybw { strong: false }, Algorithm::Dts);
    let configs: Vec<Config> = [(Algorithm::Serial, 1), (ybw, 2), (dts, 1), (dts, 2)]
        .map(|(algorithm, threads)| Config::new(algorithm, threads))
        .to_vec();
    let measurements: Vec<Measurement> = configs
        .iter()
        .map(|c| search(c.algorithm, c.threads, 1.0, 1000))
        .collect();
    let mut rows = rows(&configs, &measurements, &[], 1, 2, load_limit(2, 2));
    mark_defaults(&mut rows, GameName::Chess);
    let marked: Vec<bool> = rows.iter().map(|r| r.default).collect();
    assert_eq!(marked, [false, false, false, true]);
    mark_defaults(&mut rows, GameName::Synthetic);
    let marked: Vec<bool> = rows.iter().map(|r| r.default).collect();
    assert_eq!(marked, [false, true, false, false]);
}

/// The GPU's profile: its subtrees, launches, mean batch, kernel
/// throughput and the time split, with the device named.
#[test]
fn the_gpu_row_gets_its_profile() {
    let configs = [
        Config::new(Algorithm::Serial, 1),
        Config::on_gpu(0, GpuSplit::Balanced),
    ];
    let gpu = Measurement {
        algorithm: GPU.to_string(),
        messages: 40,
        work_sent: 30,
        device_subtrees: 300,
        transfer_micros: 5_000,
        device_micros: 150_000,
        ..search(Algorithm::PvSplit, 1, 0.2, 5000)
    };
    let measurements = vec![search(Algorithm::Serial, 1, 0.4, 1000), gpu];
    let rows = rows(&configs, &measurements, &[], 1, 2, load_limit(2, 1));
    assert_eq!(
        (
            rows[1].algorithm.as_str(),
            rows[1].subtrees,
            rows[1].device_subtrees
        ),
        (GPU, 30, 300)
    );
    let mut options = options();
    options.gpu = Some(crate::GpuDevice {
        index: 0,
        name: "PoCL / test device".to_string(),
        splits: vec![GpuSplit::Balanced],
    });
    let table = markdown(&options, 2, &rows, &[], &measurements);
    assert!(table.contains("Device: PoCL / test device."), "{table}");
    // 30 pieces, 300 subtrees in 40 launches; 300 in 0.15 s of kernel time.
    assert!(
        table.contains("| gpu | 30 | 300 | 40 | 7.5 | 2.0k | 5.0 ms | 150.0 ms | 200.0 ms |"),
        "{table}"
    );
    let cpu_only = markdown(&options, 2, &rows[..1], &[], &measurements[..1]);
    assert!(!cpu_only.contains("### GPU"), "{cpu_only}");
}

/// The machine's ceiling is each run's summed node rate of the searches
/// at once over serial's in that run, its median over the runs, and the
/// summary carries it under its thread count.
#[test]
fn the_machine_ceiling_is_the_solo_searches_rate_over_serials_in_the_same_run() {
    let configs = [
        Config::new(Algorithm::Serial, 1),
        Config::new(Algorithm::Dts, 2),
    ];
    // Serial: 1000 nodes in 2 s in run 0, in 4 s in run 1 (a slow spell).
    let mut slow = search(Algorithm::Serial, 1, 4.0, 1000);
    slow.run = 1;
    let measurements = vec![
        search(Algorithm::Serial, 1, 2.0, 1000),
        slow,
        search(Algorithm::Dts, 2, 1.1, 1050),
    ];
    let sample = |run: usize, seconds: Vec<f64>| CeilingSample {
        threads: 2,
        run,
        nodes: vec![1000; seconds.len()],
        seconds,
    };
    let samples = [
        // 500 + 250 nodes/s against serial's 500: 1.5.
        sample(0, vec![2.0, 4.0]),
        // 250 + 250 against 250, in the same slow spell: 2.0.
        sample(1, vec![4.0, 4.0]),
        // A run without serial's measurement is left out.
        sample(2, vec![1.0, 1.0]),
    ];
    let ceilings = ceilings(&samples, &measurements);
    assert_eq!(ceilings.len(), 1);
    let c = &ceilings[0];
    assert_eq!(c.threads, 2);
    assert!((c.ratio_min - 1.5).abs() < 1e-9, "{c:?}");
    assert!((c.ratio_max - 2.0).abs() < 1e-9, "{c:?}");
    assert!((c.ratio - 1.75).abs() < 1e-9, "{c:?}");
    let rows = rows(&configs, &measurements, &[], 1, 2, load_limit(2, 2));
    // The ceiling's interval is over the runs.
    let options = BenchOptions {
        runs: 2,
        ..options()
    };
    let table = markdown(&options, 2, &rows, &ceilings, &measurements);
    assert!(
        table.contains("| *machine ceiling* | – | 1.75 (1.50–2.00) |"),
        "{table}"
    );
    let without = markdown(&options, 2, &rows, &[], &measurements);
    assert!(!without.contains("machine ceiling"), "{without}");
}

/// One run has no interval to print: its time and speedup stand alone; two
/// runs show the min–max and the bootstrap interval.
#[test]
fn one_run_prints_no_interval() {
    let ybw = Algorithm::Ybw { strong: false };
    let configs = [Config::new(Algorithm::Serial, 1), Config::new(ybw, 2)];
    let one = vec![
        search(Algorithm::Serial, 1, 2.0, 1000),
        search(ybw, 2, 1.25, 1100),
    ];
    let table = markdown(
        &options(),
        2,
        &rows(&configs, &one, &[], 1, 2, load_limit(2, 2)),
        &[],
        &one,
    );
    assert!(table.contains("| 2 | 1.250 | 1.60 | 1.1k |"), "{table}");
    assert!(
        table.contains("| Threads | Time (s) | Speedup over serial | Nodes |"),
        "{table}"
    );
    assert!(
        !table.contains('[') && !table.contains("min–max"),
        "{table}"
    );

    let mut two = one.clone();
    two.extend(one.iter().map(|m| Measurement {
        run: 1,
        seconds: m.seconds * 1.1,
        ..m.clone()
    }));
    let options = BenchOptions {
        runs: 2,
        ..options()
    };
    let rows = rows(&configs, &two, &[], 2, 2, load_limit(2, 2));
    let table = markdown(&options, 2, &rows, &[], &two);
    assert!(table.contains("2 runs: median time (min–max)"), "{table}");
    assert!(
        table.contains("| Speedup over serial [95% CI] |"),
        "{table}"
    );
    assert!(table.contains("| 2 | 1.312 (1.250–1.375) | "), "{table}");
}
