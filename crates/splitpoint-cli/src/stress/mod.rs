//! `splitpoint stress`: every algorithm × thread count × game, hammered with
//! short searches and stops, in-process and through the engine protocols,
//! under a watchdog.
//!
//! A search that outlives its limit by more than the grace period is a hang:
//! the watchdog prints the case and the seed, dumps every thread of the hung
//! process (its kernel state, and each stack through `gdb` when it is
//! installed: what each worker waits on), and exits with status 3. An
//! exact-mode search that disagrees with the serial search, or a protocol
//! session that answers wrongly or dies, fails the run (exit 1) at the end.
//! Between, it measures how fast stops are answered.
//!
//! CI runs it for a few minutes; run it for hours by hand
//! (`splitpoint stress --seconds 14400`).

mod protocols;
mod solver;
mod watchdog;

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::{Duration, Instant};

use clap::Args;
use splitpoint::{Algorithm, Engine, Evaluator, Game, Limits, Score};
use splitpoint_bench::suite::Suite;
use splitpoint_games::othello::Othello;

use crate::MAX_THREADS;
use crate::error::{Error, Result};
use crate::games::{GameCommand, GameName, NamedGame, parse_game};

use protocols::{Peers, Protocol, protocol_cases};
use solver::solver_cases;
use watchdog::Watchdog;

/// Hammer every algorithm with short searches and stops, under a watchdog
///
/// Loops until the time budget is spent: in random order over every game ×
/// algorithm × thread count, it runs searches stopped after a random delay,
/// searches with a random move time (outside exact mode half of them find
/// each iteration's score by MTD(f) probes), and exact-mode searches to a
/// small depth whose scores must equal the serial search's (for Othello also
/// the exact endgame solver on 12 to 18 empties, against the serial solver);
/// then the same through each engine protocol (UCI for chess and xiangqi, UCCI, Hub), in
/// long-lived engine processes. A search still running one grace period past
/// its limit is a hang: the case, the seed and every thread's stack are
/// printed and the run exits with status 3. A wrong score or a broken session
/// exits with status 1. At the end: stop latencies (median and maximum) per
/// algorithm and thread count.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint stress --seconds 120                       what CI runs
  splitpoint stress --seconds 14400 --threads 8,16      four hours, oversubscribed
  splitpoint stress --games draughts --algos ybw --threads 8 --seed 42")]
pub struct StressArgs {
    /// Time budget in seconds
    #[arg(long, value_name = "S", default_value_t = 60)]
    seconds: u64,

    /// Seed of the random choices [default: from the clock]; printed at the start
    #[arg(long, value_name = "N")]
    seed: Option<u64>,

    /// Games, comma-separated
    #[arg(
        long,
        value_name = "G,G",
        value_delimiter = ',',
        default_value = "othello,chess,draughts,xiangqi,synthetic"
    )]
    games: Vec<String>,

    /// Algorithms, comma-separated, or 'all'
    #[arg(long, value_name = "A,A", value_delimiter = ',', default_value = "all")]
    algos: Vec<String>,

    /// Thread counts, comma-separated (more than the cores is the point)
    #[arg(
        long,
        value_name = "N,N",
        value_delimiter = ',',
        default_value = "1,2,3,8,16"
    )]
    threads: Vec<usize>,

    /// How long a search may outlive its limit before it counts as hung (ms)
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    grace_ms: u64,

    /// In-process searches only, no protocol sessions
    #[arg(long)]
    no_protocols: bool,

    /// Also fail (exit 1) when a stop takes longer than this to be answered (ms)
    #[arg(long, value_name = "MS")]
    max_stop_ms: Option<f64>,
}

/// Every exact-mode search has this cap on its time, as a backstop.
const EXACT_CAP: Duration = Duration::from_secs(5);
/// Time allowed for a search's first iteration before a stop is sent.
const FIRST_ITERATION: Duration = Duration::from_millis(500);

/// Runs `splitpoint stress`.
pub fn run(args: &StressArgs) -> Result<ExitCode> {
    let plan = Plan::from_args(args)?;
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(1, |d| d.as_nanos() as u64)
    });
    eprintln!(
        "stress: seed {seed}, {} s, games {}, algorithms {}, threads {:?}{}",
        args.seconds,
        plan.games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(","),
        plan.algorithms
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(","),
        plan.threads,
        if plan.protocols {
            ", with protocols"
        } else {
            ""
        }
    );
    let watchdog = Watchdog::start(seed, Duration::from_millis(args.grace_ms));
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut peers = Peers::default();
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let mut last_progress = start;
    let mut sweep = 0;
    'sweeps: while Instant::now() < end {
        sweep += 1;
        let mut games = plan.games.clone();
        rng.shuffle(&mut games);
        for game in games {
            if Instant::now() >= end {
                break 'sweeps;
            }
            let cases = GameCases {
                game,
                plan: &plan,
                rng: &mut rng,
                tally: &mut tally,
                watchdog: &watchdog,
                end,
            };
            game.dispatch(cases)?;
            if game == GameName::Othello {
                let openings = positions::<Othello>(game)?;
                solver_cases(&openings, &plan, &mut rng, &mut tally, &watchdog, end);
            }
            if plan.protocols {
                for &proto in Protocol::of(game) {
                    protocol_cases(
                        &plan, proto, &mut peers, &mut rng, &mut tally, &watchdog, end,
                    );
                }
            }
            if last_progress.elapsed() >= Duration::from_secs(10) {
                last_progress = Instant::now();
                eprintln!(
                    "stress: {:.0} s, sweep {sweep}, {} searches, {} protocol searches, {} failures, no hang",
                    start.elapsed().as_secs_f64(),
                    tally.searches,
                    tally.protocol_searches,
                    tally.failures.len()
                );
            }
        }
    }
    drop(peers);
    watchdog.disarm();
    tally.report(&plan, args.max_stop_ms);
    let failed = !tally.failures.is_empty();
    println!(
        "stress: {} searches ({} scores checked against serial), {} protocol searches in {:.0} s (seed {seed}): no hang, {} failed",
        tally.searches,
        tally.checked,
        tally.protocol_searches,
        start.elapsed().as_secs_f64(),
        tally.failures.len()
    );
    for failure in &tally.failures {
        println!("  {failure}");
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What to hammer.
struct Plan {
    games: Vec<GameName>,
    algorithms: Vec<Algorithm>,
    threads: Vec<usize>,
    protocols: bool,
}

impl Plan {
    fn from_args(args: &StressArgs) -> Result<Plan> {
        let games = args
            .games
            .iter()
            .map(|g| parse_game(g).map_err(|e| Error::input(format!("--games: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        let algorithms = if args.algos.iter().any(|a| a == "all") {
            Algorithm::ALL.to_vec()
        } else {
            args.algos
                .iter()
                .map(|a| a.parse().map_err(|e| Error::input(format!("--algos: {e}"))))
                .collect::<Result<Vec<_>>>()?
        };
        if let Some(&n) = args
            .threads
            .iter()
            .find(|&&n| !(1..=MAX_THREADS).contains(&n))
        {
            return Err(Error::input(format!(
                "--threads: {n} is out of range (1 to {MAX_THREADS})"
            )));
        }
        if games.is_empty() || algorithms.is_empty() || args.threads.is_empty() {
            return Err(Error::input(
                "nothing to run: give at least one game, algorithm and thread count",
            ));
        }
        Ok(Plan {
            games,
            algorithms,
            threads: args.threads.clone(),
            protocols: !args.no_protocols,
        })
    }

    /// Every (algorithm, threads) pair; serial only at one thread.
    fn configs(&self) -> Vec<(Algorithm, usize)> {
        let mut configs = Vec::new();
        for &a in &self.algorithms {
            for &t in &self.threads {
                if a != Algorithm::Serial || t == 1 {
                    configs.push((a, t));
                }
            }
        }
        configs
    }
}

/// How a case ends.
#[derive(Clone, Copy, Debug)]
enum Ending {
    /// Unbounded; stopped `after` its first iteration.
    Stop { after: Duration },
    /// A move time.
    Movetime(Duration),
    /// An exact-mode search to `depth`, checked against serial.
    ExactDepth(i32),
}

impl Ending {
    fn random(rng: &mut Rng, exact_depth: i32) -> Ending {
        match rng.below(10) {
            0..=3 => Ending::Stop {
                after: Duration::from_millis(rng.below(150)),
            },
            4..=6 => Ending::Movetime(Duration::from_millis(1 + rng.below(200))),
            _ => Ending::ExactDepth(1 + rng.below(exact_depth as u64) as i32),
        }
    }

    /// How long the case may take before the grace period starts.
    fn limit(self) -> Duration {
        match self {
            Ending::Stop { after } => FIRST_ITERATION + after,
            Ending::Movetime(t) => t,
            Ending::ExactDepth(_) => EXACT_CAP,
        }
    }
}

/// One game's share of a sweep: every configuration once, in-process.
struct GameCases<'a> {
    game: GameName,
    plan: &'a Plan,
    rng: &'a mut Rng,
    tally: &'a mut Tally,
    watchdog: &'a Watchdog,
    end: Instant,
}

impl GameCommand for GameCases<'_> {
    type Output = Result<()>;

    fn run<G: NamedGame>(self) -> Result<()> {
        let GameCases {
            game,
            plan,
            rng,
            tally,
            watchdog,
            end,
        } = self;
        let positions = positions::<G>(game)?;
        let mut engine = Engine::<G, G::Eval>::new(G::Eval::default(), 16);
        let mut serial = Engine::<G, G::Eval>::new(G::Eval::default(), 16);
        let mut configs = plan.configs();
        rng.shuffle(&mut configs);
        for (algorithm, threads) in configs {
            if Instant::now() >= end {
                break;
            }
            let index = rng.below(positions.len() as u64) as usize;
            let pos = &positions[index];
            let exact_depth = (pos.default_depth() / 2).clamp(2, 6);
            let ending = Ending::random(rng, exact_depth);
            let exact = matches!(ending, Ending::ExactDepth(_)) || rng.below(2) == 0;
            // Outside exact mode, half the searches find each iteration's
            // score by MTD(f)'s probes: many root searches per iteration.
            let mtdf = !exact && rng.below(2) == 0;
            engine.set_parallelism(algorithm, threads);
            let case = format!(
                "{} {algorithm} ×{threads}, {ending:?}{}, position {}",
                game.name(),
                if exact {
                    ", exact"
                } else if mtdf {
                    ", mtdf"
                } else {
                    ""
                },
                pos.position_text()
            );
            let limits = match ending {
                Ending::Stop { .. } => Limits::default(),
                Ending::Movetime(t) => Limits::for_time(t),
                Ending::ExactDepth(d) => Limits {
                    depth: Some(d),
                    movetime: Some(EXACT_CAP),
                    ..Limits::default()
                },
            };
            let limits = Limits {
                exact,
                mtdf,
                ..limits
            };
            let run = timed_search(&mut engine, pos, &limits, ending, watchdog, &case);
            let key = (algorithm.name(), threads);
            tally.record(key, &case, ending, run, |d| {
                serial_score(&mut serial, pos, d)
            });
        }
        Ok(())
    }
}

/// The game's default suite, and its start position.
fn positions<G: NamedGame>(game: GameName) -> Result<Vec<G>> {
    let suite = Suite::load(game.default_suite(), Some(game)).map_err(Error::input)?;
    let mut positions = vec![
        G::parse_position(G::DEFAULT_POSITION)
            .map_err(|e| Error::input(format!("{}: start position: {e}", game.name())))?,
    ];
    positions.extend(suite.parse_positions::<G>().map_err(Error::input)?);
    Ok(positions)
}

/// Runs one search under the watchdog; for a `Stop` ending, another thread
/// stops it `after` its first iteration (a single-iteration search: `after`
/// its start).
fn timed_search<G: Game, E: Evaluator<G>>(
    engine: &mut Engine<G, E>,
    pos: &G,
    limits: &Limits,
    ending: Ending,
    watchdog: &Watchdog,
    case: &str,
) -> Run {
    // A single-iteration search (the Othello solver's) reports only at its
    // end: its stop counts from its start.
    let started = AtomicBool::new(limits.single_iteration);
    let finished = AtomicBool::new(false);
    let stopped_at: Mutex<Option<Instant>> = Mutex::new(None);
    let handle = engine.stop_handle();
    watchdog.arm(case, ending.limit(), None);
    let begin = Instant::now();
    let (result, end) = std::thread::scope(|s| {
        if let Ending::Stop { after } = ending {
            let (started, finished, stopped_at) = (&started, &finished, &stopped_at);
            s.spawn(move || {
                while !started.load(SeqCst) && !finished.load(SeqCst) {
                    std::thread::sleep(Duration::from_micros(100));
                }
                std::thread::sleep(after);
                if !finished.load(SeqCst) {
                    *stopped_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                    handle.stop();
                }
            });
        }
        let result = engine.search_with(pos, limits, |_| started.store(true, SeqCst));
        let end = Instant::now();
        finished.store(true, SeqCst);
        (result, end)
    });
    watchdog.disarm();
    let stop_latency = stopped_at
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .map(|at| end.saturating_duration_since(at));
    Run {
        score: result.score,
        depth: result.depth,
        stop_latency,
        elapsed: end - begin,
    }
}

/// What one case's search did.
struct Run {
    score: Score,
    /// The depth it completed.
    depth: i32,
    /// From the stop to its return, if the stop came first.
    stop_latency: Option<Duration>,
    elapsed: Duration,
}

/// The serial exact score of `pos` at `depth`.
fn serial_score<G: NamedGame>(serial: &mut Engine<G, G::Eval>, pos: &G, depth: i32) -> Score {
    serial.set_parallelism(Algorithm::Serial, 1);
    serial.search(pos, &Limits::to_depth(depth).exact()).score
}

/// What the run saw.
#[derive(Default)]
struct Tally {
    searches: u64,
    /// In-process searches whose score was compared with the serial one.
    checked: u64,
    protocol_searches: u64,
    failures: Vec<String>,
    /// Milliseconds from `stop()` to the search's return, per configuration.
    stop_ms: HashMap<(&'static str, usize), Vec<f64>>,
    /// Milliseconds from the protocol's `stop` to its answer.
    protocol_stop_ms: HashMap<(&'static str, usize), Vec<f64>>,
    /// Milliseconds a move-time search ran past its move time.
    overshoot_ms: HashMap<(&'static str, usize), Vec<f64>>,
}

impl Tally {
    /// Counts one in-process case under `key` (algorithm, threads): its stop
    /// latency or move-time overshoot, or for an exact case that completed
    /// its depth, its score against `serial`'s at that depth.
    fn record(
        &mut self,
        key: (&'static str, usize),
        case: &str,
        ending: Ending,
        run: Run,
        serial: impl FnOnce(i32) -> Score,
    ) {
        self.searches += 1;
        match ending {
            Ending::Stop { .. } => {
                if let Some(latency) = run.stop_latency {
                    self.stop_ms.entry(key).or_default().push(ms(latency));
                }
            }
            Ending::Movetime(t) => {
                let over = ms(run.elapsed.saturating_sub(t));
                self.overshoot_ms.entry(key).or_default().push(over);
            }
            Ending::ExactDepth(d) if run.depth == d => {
                let want = serial(d);
                self.checked += 1;
                if run.score != want {
                    self.failures.push(format!(
                        "wrong score: {case}: {}, serial says {want}",
                        run.score
                    ));
                }
            }
            Ending::ExactDepth(_) => {}
        }
    }

    /// Prints the latency tables; records the stops slower than `max_ms`
    /// as failures.
    fn report(&mut self, plan: &Plan, max_ms: Option<f64>) {
        let tables = [
            (
                "stop latency, in-process (ms from stop() to the search's return)",
                &self.stop_ms,
            ),
            (
                "stop latency, protocols (ms from 'stop' to the answer)",
                &self.protocol_stop_ms,
            ),
            (
                "move time overshoot, in-process (ms past the move time)",
                &self.overshoot_ms,
            ),
        ];
        let mut slow = Vec::new();
        for (n, (title, samples)) in tables.into_iter().enumerate() {
            println!("\n{title}: median / max (searches)");
            print!("{:<18}", "algorithm");
            for t in &plan.threads {
                print!("{:>20}", format!("×{t}"));
            }
            println!();
            for a in &plan.algorithms {
                print!("{:<18}", a.name());
                for &t in &plan.threads {
                    let cell = match samples.get(&(a.name(), t)) {
                        Some(v) if !v.is_empty() => {
                            let mut v = v.clone();
                            v.sort_by(f64::total_cmp);
                            let max = v[v.len() - 1];
                            if n < 2 && max_ms.is_some_and(|limit| max > limit) {
                                slow.push(format!("{title}: {} ×{t}: {max:.1} ms", a.name()));
                            }
                            format!("{:.2} / {:.1} ({})", v[v.len() / 2], max, v.len())
                        }
                        _ => "-".into(),
                    };
                    print!("{cell:>20}");
                }
                println!();
            }
        }
        println!();
        self.failures
            .extend(slow.into_iter().map(|s| format!("slow stop: {s}")));
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// SplitMix64: a seeded generator, so a run's choices replay from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}
