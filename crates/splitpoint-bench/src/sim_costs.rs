//! The simulation's costs: each game's defaults, their measurement on the
//! machine at hand (`bench --sim --calibrate`), and the `--sim-costs` text.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use splitpoint::sim::Costs;
use splitpoint_games::registry::GameName;

use crate::BenchOptions;
use crate::suite::SuiteKind;

/// A cache line between two cores and a wake-up: round figures of a
/// server core, of the order [`calibrate`] measured on the project's 2-core
/// machine class (79 ns and 8–15 µs, loaded: `docs/lab/2026-12-02-simulator.md`).
const LINE_NS: f64 = 100.0;
const WAKE_NS: f64 = 30_000.0;

/// The game's default costs: its serial node rate on its default suite on
/// the project's machine class (the README's serial figures), a line and a
/// wake-up as measured there.
pub fn defaults(game: GameName, kind: SuiteKind) -> Costs {
    let node_ns = match (game, kind) {
        // The solver's nodes are mostly the last plies' cheap ones.
        (GameName::Othello, SuiteKind::Solve) => 27.0,
        (GameName::Othello, _) => 181.0,
        (GameName::Chess, _) => 153.0,
        (GameName::Draughts, _) => 126.0,
        (GameName::Xiangqi, _) => 203.0,
        (GameName::Synthetic, _) => 100.0,
    };
    Costs {
        node_ns,
        line_ns: LINE_NS,
        wake_ns: WAKE_NS,
    }
}

/// Measures the costs here: the suite searched serially (seconds over
/// nodes), a cache line (two threads bouncing a counter) and a wake-up (two
/// threads waking each other through a condition variable).
///
/// # Errors
/// A message if the suite cannot be searched.
pub fn calibrate(options: &BenchOptions) -> Result<Costs, String> {
    let (seconds, nodes) = crate::serial_rate(options)?;
    if nodes == 0 {
        return Err("calibration: the suite searched no node".to_string());
    }
    Ok(Costs {
        node_ns: seconds * 1e9 / nodes as f64,
        line_ns: line_ns(),
        wake_ns: wake_ns(),
    })
}

/// One cache-line transfer: half a round trip of a counter two threads
/// take turns to increment (the fastest of five rounds: a round in which
/// the other thread lost its core measures the scheduler, not the line).
pub fn line_ns() -> f64 {
    const TRIPS: u64 = 20_000;
    fastest(5, || {
        let turn = Arc::new(AtomicU64::new(0));
        let other = Arc::clone(&turn);
        let start = Instant::now();
        let partner = std::thread::spawn(move || {
            for i in 0..TRIPS {
                while other.load(Ordering::Acquire) != 2 * i + 1 {
                    std::hint::spin_loop();
                }
                other.store(2 * i + 2, Ordering::Release);
            }
        });
        for i in 0..TRIPS {
            turn.store(2 * i + 1, Ordering::Release);
            while turn.load(Ordering::Acquire) != 2 * i + 2 {
                std::hint::spin_loop();
            }
        }
        let _ = partner.join();
        start.elapsed().as_secs_f64() * 1e9 / (2 * TRIPS) as f64
    })
}

/// One wake-up: half a round trip of two threads each sleeping on a
/// condition variable until the other wakes it (the fastest of five rounds).
pub fn wake_ns() -> f64 {
    const TRIPS: u64 = 2_000;
    fastest(5, || {
        let pair = Arc::new((Mutex::new(0u64), Condvar::new()));
        let other = Arc::clone(&pair);
        let start = Instant::now();
        let partner = std::thread::spawn(move || {
            let (lock, cv) = &*other;
            for i in 0..TRIPS {
                let mut n = lock.lock().unwrap_or_else(|e| e.into_inner());
                while *n != 2 * i + 1 {
                    n = cv.wait(n).unwrap_or_else(|e| e.into_inner());
                }
                *n += 1;
                cv.notify_one();
            }
        });
        let (lock, cv) = &*pair;
        for i in 0..TRIPS {
            let mut n = lock.lock().unwrap_or_else(|e| e.into_inner());
            *n = 2 * i + 1;
            cv.notify_one();
            while *n != 2 * i + 2 {
                n = cv.wait(n).unwrap_or_else(|e| e.into_inner());
            }
        }
        let _ = partner.join();
        start.elapsed().as_secs_f64() * 1e9 / (2 * TRIPS) as f64
    })
}

fn fastest(rounds: usize, f: impl FnMut() -> f64) -> f64 {
    std::iter::repeat_with(f)
        .take(rounds)
        .fold(f64::INFINITY, f64::min)
}

/// `node=N,line=N,wake=N` (any of them, nanoseconds) over `base`.
///
/// ```
/// use splitpoint::sim::Costs;
/// use splitpoint_bench::sim_costs::parse;
///
/// let c = parse("node=30, wake=5000", Costs::default()).unwrap();
/// assert_eq!((c.node_ns, c.line_ns, c.wake_ns), (30.0, Costs::default().line_ns, 5000.0));
/// assert!(parse("nodes=3", Costs::default()).is_err());
/// assert!(parse("node=-1", Costs::default()).is_err());
/// ```
///
/// # Errors
/// A message naming the part that is not `name=nanoseconds`.
pub fn parse(text: &str, base: Costs) -> Result<Costs, String> {
    let mut costs = base;
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, value)) = part.split_once('=') else {
            return Err(format!("'{part}' is not name=nanoseconds"));
        };
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("'{value}' is not a number of nanoseconds"))?;
        match name.trim() {
            "node" => costs.node_ns = value,
            "line" => costs.line_ns = value,
            "wake" => costs.wake_ns = value,
            other => return Err(format!("unknown cost '{other}' (node, line or wake)")),
        }
    }
    costs.validate()?;
    Ok(costs)
}
