//! `splitpoint search`: the best move of a position, by iterative deepening.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde::Serialize;
use splitpoint::{Engine, Evaluator, Game, Limits, SearchResult, Stats, Trace};

use crate::error::{Error, Result};
use crate::games::{GameCommand, NamedGame, line_text, load_position, run_on_game};
use crate::{EngineArgs, ParallelArgs, PositionArgs, check_depth, report, stdout};

/// Find the best move of a position
///
/// Iterative deepening from depth 1, one line per completed iteration, then a
/// summary: best move, score, depth, nodes, time, speed, transposition-table
/// hit rate, first-move cutoff rate (move-ordering quality) and the principal
/// variation. Scores are from the side to move's view: about 100 per disc in
/// othello, per pawn in chess and xiangqi, per man in draughts.
///
/// Without --depth or --movetime the search goes to a default depth: 8 plies
/// for othello and xiangqi, 7 for chess, 12 for draughts, the whole remaining
/// tree for synthetic. With both, it stops at
/// whichever comes first; --nodes caps any of them.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint search othello                       depth 8 from the start
  splitpoint search othello --movetime 2000       as deep as 2 s allow
  splitpoint search othello --moves 'f5 d6' --depth 10 --json
  splitpoint search chess -p 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'
  splitpoint search draughts --moves '32-28 19-23' --threads 2
  splitpoint search xiangqi --moves 'h2e2 h9g7' --depth 9
  splitpoint search synthetic -p b=8,d=7,seed=3,q=0.9 --exact")]
pub struct SearchArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic
    pub game: String,

    #[command(flatten)]
    pub position: PositionArgs,

    /// Search to this depth in plies (1 to 120) [default: 8 for othello and
    /// xiangqi, 7 for chess, 12 for draughts, the tree's remaining depth for
    /// synthetic]
    #[arg(long, short = 'd', allow_negative_numbers = true)]
    pub depth: Option<i64>,

    /// Search for this many milliseconds, as deep as they allow
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,

    /// Stop after about this many nodes
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Exact mode: the score is plain negamax's at the same depth (no table
    /// cutoffs, no aspiration windows); slower, for checking
    #[arg(long)]
    pub exact: bool,

    /// Print one JSON object instead: best_move, score, depth, nodes, seconds,
    /// nps, pv (an array of moves) and stats (the search's counters)
    #[arg(long)]
    pub json: bool,
}

/// The JSON form of a search result.
#[derive(Serialize)]
struct SearchJson {
    /// `null` when the game is over at the root.
    best_move: Option<String>,
    score: i32,
    depth: i32,
    nodes: u64,
    seconds: f64,
    nps: f64,
    pv: Vec<String>,
    threads: usize,
    algorithm: String,
    stats: StatsJson,
}

/// A search's statistics as JSON: every counter by its name, and the two
/// rates.
#[derive(serde::Serialize)]
#[serde(transparent)]
pub(crate) struct StatsJson(serde_json::Map<String, serde_json::Value>);

impl From<&Stats> for StatsJson {
    fn from(s: &Stats) -> Self {
        let mut map: serde_json::Map<_, _> = Stats::NAMES
            .iter()
            .zip(s.to_array())
            .map(|(name, x)| (name.to_string(), x.into()))
            .collect();
        map.insert("tt_hit_rate".into(), s.tt_hit_rate().into());
        map.insert(
            "first_move_cutoff_rate".into(),
            s.first_move_cutoff_rate().into(),
        );
        StatsJson(map)
    }
}

/// Runs `splitpoint search`.
pub fn run(args: &SearchArgs) -> Result<ExitCode> {
    run_on_game(&args.game, args)
}

impl SearchArgs {
    /// The limits the flags ask for, `default_depth` standing in when neither
    /// a depth nor a time is given.
    fn limits(&self, default_depth: i32) -> Result<Limits> {
        let depth = self.depth.map(|d| check_depth("--depth", d)).transpose()?;
        let movetime = match self.movetime {
            Some(0) => return Err(Error::input("--movetime: must be at least 1 ms")),
            ms => ms.map(Duration::from_millis),
        };
        if self.nodes == Some(0) {
            return Err(Error::input("--nodes: must be at least 1"));
        }
        let depth = if depth.is_none() && movetime.is_none() {
            Some(default_depth)
        } else {
            depth
        };
        Ok(Limits {
            depth,
            movetime,
            nodes: self.nodes,
            exact: self.exact,
            ..Limits::default()
        })
    }
}

impl GameCommand for &SearchArgs {
    type Output = Result<ExitCode>;

    fn run<G: NamedGame>(self) -> Result<ExitCode> {
        let pos: G = load_position(
            self.position.position.as_deref(),
            self.position.moves.as_deref(),
        )?;
        let limits = self.limits(pos.default_depth())?;
        let mut engine = self.engine.engine(G::Eval::default())?;

        let traced = |engine: &mut Engine<G, G::Eval>| -> Vec<(String, Trace)> {
            engine
                .take_trace()
                .map(|t| (pos.position_text(), t))
                .into_iter()
                .collect()
        };
        if self.json {
            let result = engine.search(&pos, &limits);
            self.engine.parallel.write_trace(&traced(&mut engine))?;
            let json = to_json(&engine, &self.engine.parallel, &pos, &result);
            report::json_line(&mut stdout(), &json)?;
            return Ok(ExitCode::SUCCESS);
        }

        let mut out = stdout();
        writeln!(out, "position {}", pos.position_text())?;
        writeln!(
            out,
            "threads  {} ({})",
            engine.threads(),
            self.engine.parallel.algorithm_name(&engine)
        )?;
        writeln!(
            out,
            "{:>5} {:>10} {:>12} {:>9} {:>8}  pv",
            "depth", "score", "nodes", "seconds", "nodes/s"
        )?;
        drop(out);
        // The callback may run on a search thread, so it takes stdout afresh;
        // it cannot return an error, so it keeps the first one for later.
        let mut written = Ok(());
        let result = engine.search_with(&pos, &limits, |r| {
            if written.is_ok() {
                written = writeln!(
                    io::stdout(),
                    "{:>5} {:>10} {:>12} {:>9.3} {:>8}  {}",
                    r.depth,
                    report::score(r.score),
                    r.stats.nodes,
                    r.elapsed.as_secs_f64(),
                    report::per_second(r.stats.nodes, r.elapsed),
                    line_text(&pos, &r.pv).join(" "),
                );
            }
        });
        written?;
        self.engine.parallel.write_trace(&traced(&mut engine))?;
        write_summary(&mut stdout(), &pos, &result)?;
        if let Some(line) = ParallelArgs::simulation_line(&engine) {
            writeln!(stdout(), "{line}")?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

fn to_json<G: Game, E: Evaluator<G>>(
    engine: &Engine<G, E>,
    parallel: &ParallelArgs,
    pos: &G,
    r: &SearchResult<G::Move>,
) -> SearchJson {
    SearchJson {
        best_move: r.best_move.map(|mv| pos.move_text(mv)),
        score: r.score,
        depth: r.depth,
        nodes: r.stats.nodes,
        seconds: r.elapsed.as_secs_f64(),
        nps: r.nps(),
        pv: line_text(pos, &r.pv),
        threads: engine.threads(),
        algorithm: parallel.algorithm_name(engine),
        stats: StatsJson::from(&r.stats),
    }
}

/// The result, one labelled line per fact; the parallel counters only when
/// threads split or waited.
fn write_summary<G: Game>(
    out: &mut impl Write,
    pos: &G,
    r: &SearchResult<G::Move>,
) -> io::Result<()> {
    let s = &r.stats;
    let best = r
        .best_move
        .map_or("none: the game is over".to_string(), |mv| pos.move_text(mv));
    let mut rows = vec![
        ("best move", best),
        ("score", report::score(r.score)),
        (
            "depth",
            format!("{} (deepest line {} plies)", r.depth, s.seldepth),
        ),
        ("nodes", format!("{} ({} in quiescence)", s.nodes, s.qnodes)),
        ("time", format!("{:.3} s", r.elapsed.as_secs_f64())),
        (
            "speed",
            format!("{} nodes/s", report::per_second(s.nodes, r.elapsed)),
        ),
        (
            "table hits",
            format!(
                "{} of {} probes",
                report::percent(s.tt_hit_rate()),
                s.tt_probes
            ),
        ),
        (
            "first-move cutoffs",
            format!(
                "{} of {} cutoffs",
                report::percent(s.first_move_cutoff_rate()),
                s.beta_cutoffs
            ),
        ),
    ];
    if s.null_cutoffs + s.reductions > 0 {
        rows.push((
            "selectivity",
            format!(
                "{} null-move cutoffs, {} reduced moves",
                s.null_cutoffs, s.reductions
            ),
        ));
    }
    if s.splits + s.splits_refused > 0 {
        rows.push((
            "splits",
            format!("{} ({} refused)", s.splits, s.splits_refused),
        ));
        rows.push((
            "wasted nodes",
            format!(
                "{} (searched below a split point, then cut off)",
                s.aborted_nodes
            ),
        ));
    }
    if s.idle_micros > 0 {
        rows.push((
            "idle",
            format!("{:.3} s (summed over threads)", s.idle_micros as f64 / 1e6),
        ));
    }
    rows.push(("pv", line_text(pos, &r.pv).join(" ")));

    writeln!(out)?;
    for (label, value) in rows {
        writeln!(out, "{label:<20}{value}")?;
    }
    Ok(())
}
