//! `splitpoint solve`: exact endgame scores, by a single exact search to the end
//! of the game with the exact evaluator.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use splitpoint::{Engine, Game, SearchResult};
use splitpoint_games::othello::{
    FfoPosition, Othello, OthelloExact, OthelloMove, ffo_positions, last_move_nodes, oracle_limits,
    ordering_nodes, solve_limits,
};

use crate::error::{Error, Result};
use crate::games::{GameName, line_text, parse_game};
use crate::search::StatsJson;
use crate::{EngineArgs, ParallelArgs, report, stdout};
use splitpoint_bench::suite::SuiteKind;

/// The FFO position solved when none is given.
const DEFAULT_FFO: u32 = 40;

/// Solve endgame positions exactly (othello)
///
/// Searches each position to the end of the game and prints the final disc
/// difference for the side to move under perfect play (empty squares to the
/// winner) and a best move. The score is exact; the search uses the
/// transposition table's bounds, a node's own and far from the end its
/// children's, to end nodes and finds the score by null-window probes
/// (--oracle searches in exact mode instead: one full window, the table only
/// orders moves, the reference the solver is tested against, about three to
/// four times as slow). Fine up to about 24 empties; every
/// further empty roughly doubles the time.
///
/// Positions come from --position, --file (one position a line, '#' or '%'
/// starts a comment, blank lines ignored; '-' reads standard input) or --ffo
/// (the FFO endgame suite, #40 to #59, by default #40). A file may be in
/// Edax's OBF form, each position ended by ';' and optionally followed by
/// moves with their scores ('G8:+18; H1:+12;'). FFO positions, and OBF lines
/// with scored moves, are checked against their known scores and best moves
/// (the best-scored ones): a mismatch is reported on stderr and the exit
/// status is 1. On a terminal, a line on stderr shows which position is
/// being solved and for how long.
///
/// With --algorithm gpu (a build with --features gpu) all the positions are
/// solved together: each is searched on the host down to a frontier
/// (--host-plies above it, subtrees of at most --device-empties empties),
/// the frontier's subtrees go to the device in wide launches, and the
/// scores are folded back on the host by Young Brothers Wait: once a node's
/// eldest child is done all its younger brothers search at once (see
/// --cut-wait), and a cutoff cancels its brothers' work. A position's
/// seconds are then the time until its score was known; a last line gives
/// the launches, subtrees a launch, re-searches, aborted and dropped
/// subtrees, device and transfer time, and positions and subtrees a second
/// (with --json, a last object {"summary": true, ..., "stats": {...}} holds
/// the run's totals, since positions share launches).
/// With --oracle, --algorithm gpu solves one position at a time by PV
/// splitting with the device as the slaves.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint solve othello                    FFO #40 (20 empties, score +38)
  splitpoint solve othello --ffo 40,41,42
  splitpoint solve othello --file endgames.txt --json
  splitpoint solve othello --file fforum-40-59.obf    Edax's OBF files too
  splitpoint solve othello --ffo 47 --threads 2 --hash 256
  splitpoint solve othello --file endgames.txt --algorithm gpu    all at once on the device")]
pub struct SolveArgs {
    /// The game: othello (the only one with an exact solver so far)
    pub game: String,

    /// The position: 64 characters a1..h8 row by row ('X' black, 'O' white,
    /// '-' empty), a space, and the side to move ('X' or 'O')
    // Othello boards often start with '-' (an empty a1): a value, not a flag.
    #[arg(
        long,
        short = 'p',
        value_name = "POS",
        allow_hyphen_values = true,
        conflicts_with_all = ["file", "ffo"]
    )]
    pub position: Option<String>,

    /// A file of positions, one a line, plain or in Edax's OBF form ('-' for
    /// standard input)
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "ffo")]
    pub file: Option<String>,

    /// FFO endgame positions by number, comma-separated (40 to 59) [default: 40]
    #[arg(long, value_name = "N", value_delimiter = ',')]
    pub ffo: Vec<u32>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Search in exact mode (the table orders moves but ends no node): the
    /// oracle the solver is tested against
    #[arg(long)]
    pub oracle: bool,

    /// Print one JSON object a line, per position: position, score, best_move,
    /// nodes, ordering_nodes (the move ordering's shallow searches, apart
    /// from nodes), last_move_nodes (the positions after the last move,
    /// among nodes), edax_nodes (nodes and ordering_nodes less those, as
    /// Edax counts), seconds, nps, pv (and ffo, expected_score,
    /// expected_moves, correct for FFO positions)
    #[arg(long)]
    pub json: bool,

    /// --algorithm gpu: plies the host searches above the device's frontier
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub host_plies: u32,

    /// --algorithm gpu: the most empty squares of a subtree the device
    /// solves (deeper positions are split further on the host; at most 32)
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub device_empties: u32,

    /// --algorithm gpu: the children an expected CUT node on the host
    /// searches one after another before it starts the rest at once (1:
    /// every node starts its younger brothers once the eldest is done;
    /// more: fewer wasted nodes, narrower launches)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub cut_wait: usize,
}

/// A position to solve, with its known solution when there is one.
pub(crate) struct Job {
    pub(crate) position: Othello,
    pub(crate) known: Option<Known>,
}

/// A known solution: an FFO position's, or the scored moves of an OBF line.
pub(crate) struct Known {
    /// Where it comes from, for the mismatch message: "FFO #40", "FILE line 3".
    pub(crate) source: String,
    /// The FFO number, for FFO positions.
    pub(crate) ffo: Option<u32>,
    /// The exact score for the side to move.
    pub(crate) score: i32,
    /// Every move known to reach it.
    pub(crate) best: Vec<OthelloMove>,
    /// Moves known to score less. FFO lists every best move, so any other
    /// move is wrong (`None`); an OBF line may leave moves out, so only the
    /// ones it scores lower are.
    worse: Option<Vec<OthelloMove>>,
}

impl From<&FfoPosition> for Known {
    fn from(p: &FfoPosition) -> Self {
        Known {
            source: format!("FFO #{}", p.id),
            ffo: Some(p.id),
            score: p.score,
            best: p.best.clone(),
            worse: None,
        }
    }
}

/// The JSON form of one solved position.
#[derive(Serialize)]
pub(crate) struct SolveJson {
    pub(crate) position: String,
    pub(crate) empties: u32,
    pub(crate) score: i32,
    /// `null` when the game is already over.
    pub(crate) best_move: Option<String>,
    pub(crate) nodes: u64,
    /// The positions the move ordering's shallow searches visited, apart
    /// from `nodes` (the search's own).
    pub(crate) ordering_nodes: u64,
    /// The positions after the last move of the game among `nodes`, which
    /// Edax's solver does not count (absent where not counted: the GPU's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_move_nodes: Option<u64>,
    /// `nodes` and `ordering_nodes` less `last_move_nodes`: the count on
    /// Edax's convention, comparable with its published figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) edax_nodes: Option<u64>,
    pub(crate) seconds: f64,
    pub(crate) nps: f64,
    pub(crate) pv: Vec<String>,
    pub(crate) stats: StatsJson,
    #[serde(flatten)]
    pub(crate) check: Option<CheckJson>,
}

/// The known solution of a position and whether ours agrees.
#[derive(Serialize)]
pub(crate) struct CheckJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    ffo: Option<u32>,
    expected_score: i32,
    expected_moves: Vec<String>,
    correct: bool,
}

/// Runs `splitpoint solve`.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let game = parse_game(&args.game)?;
    if game != GameName::Othello {
        return Err(Error::input(format!(
            "solve: no exact solver for {game} yet (only othello)"
        )));
    }
    let jobs = jobs(args)?;
    if args.engine.parallel.algorithm.as_deref() == Some("gpu") && !args.oracle {
        return crate::solve_batch::run(args, &jobs);
    }
    let mut engine = args.engine.engine(OthelloExact)?;
    if args.engine.sim {
        // The solver's nodes, not the midgame's.
        let costs = splitpoint_bench::sim_costs::defaults(game, SuiteKind::Solve);
        engine.set_simulation(Some(splitpoint::sim::Simulation::with_costs(costs)));
    }
    let mut out = stdout();
    if !args.json {
        write_heading(&mut out, &jobs)?;
    }

    let mut all_correct = true;
    let (mut total_nodes, mut total_time) = (0, Duration::ZERO);
    let mut traces = Vec::new();
    let progress = progress_line();
    for (i, job) in jobs.iter().enumerate() {
        let name = job
            .known
            .as_ref()
            .map_or_else(|| format!("position {}", i + 1), |k| k.source.clone());
        progress.set_message(format!("{name} ({} of {})", i + 1, jobs.len()));
        progress.reset_elapsed();
        engine.clear();
        let (ordering_before, last_before) = (ordering_nodes(), last_move_nodes());
        let result = solve(&mut engine, &job.position, args.oracle);
        let ordering = ordering_nodes() - ordering_before;
        let last_moves = last_move_nodes() - last_before;
        if let Some(trace) = engine.take_trace() {
            let name = job
                .known
                .as_ref()
                .map_or_else(|| job.position.position_text(), |k| k.source.clone());
            traces.push((name, trace));
        }
        total_nodes += result.stats.nodes;
        total_time += result.elapsed;
        let correct = job
            .known
            .as_ref()
            .is_none_or(|k| agrees(k, result.score, result.best_move));
        all_correct &= correct;
        progress.suspend(|| {
            if args.json {
                report::json_line(
                    &mut out,
                    &to_json(job, &result, ordering, last_moves, correct),
                )
            } else {
                write_row(&mut out, job, &result, correct)?;
                match ParallelArgs::simulation_line(&engine) {
                    Some(line) => writeln!(out, "     {line}"),
                    None => Ok(()),
                }
            }
        })?;
        if !correct {
            if let Some(known) = &job.known {
                mismatch(known, result.score, result.best_move);
            }
        }
    }
    progress.finish_and_clear();
    if !args.json && jobs.len() > 1 {
        writeln!(
            out,
            "{:<5}{:>34} {:>9.3} {:>8}",
            "total",
            total_nodes,
            total_time.as_secs_f64(),
            report::per_second(total_nodes, total_time)
        )?;
    }
    args.engine.parallel.write_trace(&traces)?;
    Ok(if all_correct {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// On a terminal, a line on stderr naming the position being solved and
/// how long it has taken so far, redrawn twice a second (a solve can take
/// minutes and prints nothing until it is done); elsewhere nothing.
pub(crate) fn progress_line() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} solving {msg}: {elapsed}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// Solves `pos` exactly: one iteration deep enough that every line reaches the
/// end of the game (each empty square takes at most a move and a pass), as
/// the solver or (`oracle`) in exact mode.
pub fn solve(
    engine: &mut Engine<Othello, OthelloExact>,
    pos: &Othello,
    oracle: bool,
) -> SearchResult<OthelloMove> {
    let limits = if oracle {
        oracle_limits(pos)
    } else {
        solve_limits(pos)
    };
    engine.search(pos, &limits)
}

/// The message for a result that does not match the known solution.
pub(crate) fn mismatch(known: &Known, score: i32, best_move: Option<OthelloMove>) {
    eprintln!(
        "splitpoint: {}: expected {} ({}), found {} ({})",
        known.source,
        report::score(known.score),
        move_list(&known.best),
        report::score(score),
        best_move.map_or("none".to_string(), |m| m.to_string()),
    );
}

/// Whether a result matches the known solution: the same score, by a move
/// not known to score less.
pub(crate) fn agrees(known: &Known, score: i32, best_move: Option<OthelloMove>) -> bool {
    score == known.score
        && best_move.is_some_and(|m| match &known.worse {
            None => known.best.contains(&m),
            Some(worse) => !worse.contains(&m),
        })
}

/// The positions the flags name, all read and checked before any is solved.
fn jobs(args: &SolveArgs) -> Result<Vec<Job>> {
    if let Some(text) = &args.position {
        let position =
            Othello::parse_position(text).map_err(|e| Error::input(format!("--position: {e}")))?;
        return Ok(vec![Job {
            position,
            known: None,
        }]);
    }
    if let Some(path) = &args.file {
        return read_file(path);
    }
    let suite = ffo_positions();
    let ids = if args.ffo.is_empty() {
        vec![DEFAULT_FFO]
    } else {
        args.ffo.clone()
    };
    ids.iter()
        .map(|&id| match suite.iter().find(|p| p.id == id) {
            Some(p) => Ok(Job {
                position: p.position,
                known: Some(Known::from(p)),
            }),
            None => Err(Error::input(format!(
                "--ffo: no FFO position #{id} (the suite holds #40 to #59)"
            ))),
        })
        .collect()
}

/// Reads a file of positions: one a line (see [`parse_line`]), blank lines
/// are ignored. An error names the file and the line.
fn read_file(path: &str) -> Result<Vec<Job>> {
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    read.map_err(|e| Error::input(format!("{path}: cannot read: {e}")))?;

    let mut jobs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = format!("{path} line {}", n + 1);
        match parse_line(line) {
            Ok(None) => {}
            Ok(Some((position, scored))) => jobs.push(Job {
                position,
                known: known_from_scores(&at, &scored),
            }),
            Err(e) => return Err(Error::input(format!("{at}: {e}"))),
        }
    }
    if jobs.is_empty() {
        return Err(Error::input(format!("{path}: no positions in the file")));
    }
    Ok(jobs)
}

/// One line of a position file: `None` when it is blank or a comment (`#`
/// for ours, `%` for Edax's), else the position and its scored moves.
///
/// A position is the board and the side to move, alone or in Edax's OBF
/// form: ended by `;` and followed by `MOVE:SCORE;` fields (`G8:+18;`, a
/// pass written `PS`), each move legal and each score a disc difference.
fn parse_line(line: &str) -> std::result::Result<Option<ScoredPosition>, String> {
    let content = line.split(['#', '%']).next().unwrap_or_default();
    if content.trim().is_empty() {
        return Ok(None);
    }
    let mut fields = content.split(';');
    let board = fields.next().unwrap_or_default();
    let position = Othello::parse_position(board).map_err(|e| e.to_string())?;
    let mut scored = Vec::new();
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let Some((mv, score)) = field.split_once(':') else {
            return Err(format!("expected MOVE:SCORE after ';', found '{field}'"));
        };
        let mv = match mv.trim() {
            ps if ps.eq_ignore_ascii_case("ps") => "pass",
            mv => mv,
        };
        let mv = position
            .parse_move(mv)
            .map_err(|e| format!("'{field}': {}", e.message))?;
        let score = match score.trim().parse::<i32>() {
            Ok(s) if (-64..=64).contains(&s) => s,
            _ => {
                return Err(format!(
                    "'{field}': the score is not a disc difference (-64 to 64)"
                ));
            }
        };
        scored.push((mv, score));
    }
    Ok(Some((position, scored)))
}

/// A position read from a file, with the moves scored on its line.
type ScoredPosition = (Othello, Vec<(OthelloMove, i32)>);

/// The solution scored moves give: the best score, and the moves reaching it.
fn known_from_scores(source: &str, scored: &[(OthelloMove, i32)]) -> Option<Known> {
    let score = scored.iter().map(|&(_, s)| s).max()?;
    let (best, worse) = scored.iter().partition(|&&(_, s)| s == score);
    let moves = |list: Vec<(OthelloMove, i32)>| list.into_iter().map(|(m, _)| m).collect();
    Some(Known {
        source: source.to_string(),
        ffo: None,
        score,
        best: moves(best),
        worse: Some(moves(worse)),
    })
}

fn to_json(
    job: &Job,
    r: &SearchResult<OthelloMove>,
    ordering_nodes: u64,
    last_move_nodes: u64,
    correct: bool,
) -> SolveJson {
    SolveJson {
        position: job.position.position_text(),
        empties: job.position.empty_count(),
        score: r.score,
        best_move: r.best_move.map(|m| m.to_string()),
        nodes: r.stats.nodes,
        ordering_nodes,
        last_move_nodes: Some(last_move_nodes),
        edax_nodes: Some(r.stats.nodes + ordering_nodes - last_move_nodes),
        seconds: r.elapsed.as_secs_f64(),
        nps: r.nps(),
        pv: line_text(&job.position, &r.pv),
        stats: StatsJson::from(&r.stats),
        check: check_json(job, correct),
    }
}

/// The known solution's JSON fields, if there is one.
pub(crate) fn check_json(job: &Job, correct: bool) -> Option<CheckJson> {
    job.known.as_ref().map(|k| CheckJson {
        ffo: k.ffo,
        expected_score: k.score,
        expected_moves: k.best.iter().map(|m| m.to_string()).collect(),
        correct,
    })
}

fn write_row(
    out: &mut impl Write,
    job: &Job,
    r: &SearchResult<OthelloMove>,
    correct: bool,
) -> std::io::Result<()> {
    let row = Row {
        score: r.score,
        best_move: r.best_move,
        nodes: r.stats.nodes,
        elapsed: r.elapsed,
    };
    write_row_of(out, job, &row, correct)
}

/// What a row of the table shows of a solved position.
pub(crate) struct Row {
    pub(crate) score: i32,
    pub(crate) best_move: Option<OthelloMove>,
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
}

pub(crate) fn write_row_of(
    out: &mut impl Write,
    job: &Job,
    r: &Row,
    correct: bool,
) -> std::io::Result<()> {
    let expected = match &job.known {
        Some(k) => {
            let flag = if correct { "" } else { "  MISMATCH" };
            format!("  {} {}{flag}", report::score(k.score), move_list(&k.best))
        }
        None => String::new(),
    };
    writeln!(
        out,
        "{:>4} {:>7} {:>6} {:>5} {:>13} {:>9.3} {:>8}{expected}",
        job.known
            .as_ref()
            .and_then(|k| k.ffo)
            .map_or("-".to_string(), |id| id.to_string()),
        job.position.empty_count(),
        report::score(r.score),
        r.best_move.map_or("-".to_string(), |m| m.to_string()),
        r.nodes,
        r.elapsed.as_secs_f64(),
        report::per_second(r.nodes, r.elapsed),
    )
}

/// The table's heading, with an expected column when some position has a
/// known solution.
pub(crate) fn write_heading(out: &mut impl Write, jobs: &[Job]) -> std::io::Result<()> {
    let expected = if jobs.iter().any(|j| j.known.is_some()) {
        "  expected"
    } else {
        ""
    };
    writeln!(
        out,
        "{:>4} {:>7} {:>6} {:>5} {:>13} {:>9} {:>8}{expected}",
        "ffo", "empties", "score", "best", "nodes", "seconds", "nodes/s"
    )
}

/// Moves as `a2` or `a2,b1`.
pub(crate) fn move_list(moves: &[OthelloMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(",")
}
