//! `splitpoint match`: chess games between two UCI engines, with the
//! score, the Elo difference and a sequential test to stop early.
//!
//! Both engines are child processes spoken to through a real UCI client
//! ([`uci_client`]), ours (`splitpoint uci`) as much as any other; the
//! match keeps the clocks, the rules (checkmate, stalemate, threefold
//! repetition, the fifty-move rule, bare kings or a lone minor piece) and
//! the adjudications it is asked for.

pub(crate) mod openings;
mod stats;
mod uci_client;

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use splitpoint::Game;
use splitpoint_games::chess::Chess;
use splitpoint_games::chess::cozy_chess::{Color, GameStatus, Piece};

use crate::error::{Error, Result};
use crate::stdout;
use openings::Opening;
use stats::{EloEstimate, Sprt, SprtState, Tally, parse_sprt};
use uci_client::{EngineSpec, UciEngine};
pub(crate) use uci_client::{end_engine, write_failed};

/// Play a chess match between two UCI engines: score, Elo and SPRT
///
/// Each opening (a built-in book of 127 balanced main lines, or --openings
/// FILE) is played twice, once with each engine as White. The first engine
/// is --engine (by default this program's own `splitpoint uci`), the second
/// --opponent; both run as child processes spoken to over UCI. The clock is
/// --tc BASE+INC seconds, or else every move gets --nodes, --depth or
/// --movetime. A move later than its clock allows (plus --time-margin)
/// loses on time, an illegal move loses. Prints the score, the Elo
/// difference of the first engine with its 95% interval (trinomial model)
/// and the likelihood of superiority; with --sprt ELO0,ELO1 the match stops
/// as soon as the sequential probability ratio test decides. --json FILE
/// keeps every game and the totals, rewritten after each game, and
/// --resume continues the match it holds.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint match --opponent stockfish --opponent-option UCI_LimitStrength=true \\
      --opponent-option UCI_Elo=2000 --tc 10+0.1 --games 100 --json ladder-2000.json
  splitpoint match --opponent self --option Threads=2 --opponent-option Threads=1 \\
      --tc 8+0.08 --sprt 0,10 --games 400
  splitpoint match --opponent self --opponent-option Skill\\ Level=5 --depth 4 --games 8")]
pub struct MatchArgs {
    /// The first engine's command line ('self' for this program's `uci`)
    #[arg(long, value_name = "CMD", default_value = "self")]
    pub engine: String,

    /// The second engine's command line ('self' for this program's `uci`)
    #[arg(long, value_name = "CMD")]
    pub opponent: String,

    /// A UCI option for the first engine, NAME=VALUE (repeatable)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,

    /// A UCI option for the second engine, NAME=VALUE (repeatable)
    #[arg(long = "opponent-option", value_name = "NAME=VALUE")]
    pub opponent_options: Vec<String>,

    /// The clock: BASE+INC in seconds (10+0.1), for each side
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,

    /// Instead of a clock, every move searches this many nodes
    #[arg(long, value_name = "N", conflicts_with_all = ["tc", "depth", "movetime"])]
    pub nodes: Option<u64>,

    /// Instead of a clock, every move searches to this depth
    #[arg(long, value_name = "D", conflicts_with_all = ["tc", "nodes", "movetime"])]
    pub depth: Option<u32>,

    /// Instead of a clock, every move gets this many milliseconds
    #[arg(long, value_name = "MS", conflicts_with_all = ["tc", "nodes", "depth"])]
    pub movetime: Option<u64>,

    /// Games to play at most (rounded up to an even number: both colours)
    #[arg(long, short = 'n', value_name = "N", default_value_t = 48)]
    pub games: u32,

    /// Openings: a file of FENs or EPD lines [default: the built-in book]
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Stop early by a sequential probability ratio test of ELO0 against
    /// ELO1 (the first engine's Elo over the second's), say 0,10
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,

    /// The SPRT's false-positive rate
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub alpha: f64,

    /// The SPRT's false-negative rate
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub beta: f64,

    /// How late past its clock a move may come and still count, ms
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,

    /// Without a clock, how long a move may take before it loses, ms
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub move_timeout: u64,

    /// A game still going after this many plies (the opening's included) is
    /// a draw
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: u32,

    /// Adjudicate a win once both engines have agreed for three moves each
    /// that one side is at least this many centipawns ahead
    #[arg(long, value_name = "CP")]
    pub resign: Option<i32>,

    /// Write the games and the totals to FILE as JSON, after every game
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Continue the match whose games --json FILE holds (same settings)
    #[arg(long, requires = "json")]
    pub resume: bool,

    /// Write every line sent to and received from the engines to FILE,
    /// with the time and the engine's number (1 or 2)
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// How each move is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Control {
    /// A clock per side: base and increment.
    Clock { base: Duration, increment: Duration },
    /// A node count per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
    /// A time per move.
    MoveTime(Duration),
}

impl Control {
    fn text(&self) -> String {
        match self {
            Control::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Control::Nodes(n) => format!("nodes {n}"),
            Control::Depth(d) => format!("depth {d}"),
            Control::MoveTime(t) => format!("movetime {}", t.as_millis()),
        }
    }
}

/// Reads `BASE+INC` (seconds, either part fractional; `+INC` optional).
fn parse_tc(text: &str) -> std::result::Result<Control, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e6)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("'{t}' is not a number of seconds"))
    };
    let (base, increment) = (seconds(base)?, seconds(inc)?);
    if base.is_zero() && increment.is_zero() {
        return Err("the clock needs some time: BASE+INC, say 10+0.1".into());
    }
    Ok(Control::Clock { base, increment })
}

/// Reads `NAME=VALUE`.
fn parse_option(flag: &str, text: &str) -> Result<(String, String)> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| Error::input(format!("{flag}: '{text}' is not NAME=VALUE")))?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

/// An engine from its command line ('self': this program's `uci`).
fn engine_spec(
    flag: &str,
    command: &str,
    options: &[String],
    option_flag: &str,
) -> Result<EngineSpec> {
    let mut words = command.split_whitespace().map(str::to_string);
    let (program, args) = match words.next() {
        None => return Err(Error::input(format!("{flag}: an empty command"))),
        Some(w) if w == "self" => {
            let exe = std::env::current_exe()
                .map_err(|e| Error::input(format!("{flag}: cannot find this program: {e}")))?;
            let mut args = vec!["uci".to_string()];
            args.extend(words);
            (exe.to_string_lossy().into_owned(), args)
        }
        Some(w) => (w, words.collect()),
    };
    let options = options
        .iter()
        .map(|o| parse_option(option_flag, o))
        .collect::<Result<Vec<_>>>()?;
    Ok(EngineSpec {
        program,
        args,
        options,
        log: None,
    })
}

/// How a game ended.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GameRecord {
    /// The game's number, from 0; even games have the first engine White.
    round: u32,
    /// The opening's name (its SAN line or FEN).
    opening: String,
    white: String,
    black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: String,
    /// Why: checkmate, stalemate, repetition, fifty moves, material, the
    /// ply limit, adjudication, time, an illegal move.
    reason: String,
    /// Plies played after the opening.
    plies: u32,
    /// The moves after the opening, in UCI notation.
    moves: String,
}

impl GameRecord {
    /// The first engine's points.
    fn points_for_first(&self) -> f64 {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.round % 2 == 0 {
            white
        } else {
            1.0 - white
        }
    }
}

/// The JSON a match writes.
#[derive(Serialize, Deserialize)]
struct Report {
    first: EngineReport,
    second: EngineReport,
    control: String,
    openings: usize,
    games: Vec<GameRecord>,
    #[serde(default)]
    tally: Option<Tally>,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    elo: Option<EloReport>,
    #[serde(default)]
    sprt: Option<SprtReport>,
}

#[derive(Serialize, Deserialize)]
struct EngineReport {
    name: String,
    command: String,
    options: Vec<(String, String)>,
}

#[derive(Serialize, Deserialize)]
struct EloReport {
    elo: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
    los: Option<f64>,
}

impl From<EloEstimate> for EloReport {
    fn from(e: EloEstimate) -> Self {
        EloReport {
            elo: e.elo,
            low: e.low,
            high: e.high,
            los: e.los,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct SprtReport {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower_bound: f64,
    upper_bound: f64,
    state: String,
}

/// Plays the match.
pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let control = match (&args.tc, args.nodes, args.depth, args.movetime) {
        (Some(tc), ..) => parse_tc(tc).map_err(|e| Error::input(format!("--tc: {e}")))?,
        (_, Some(n), ..) if n > 0 => Control::Nodes(n),
        (_, _, Some(d), _) if d > 0 => Control::Depth(d),
        (.., Some(ms)) if ms > 0 => Control::MoveTime(Duration::from_millis(ms)),
        (None, None, None, None) => {
            return Err(Error::input(
                "say how long a move may take: --tc BASE+INC, --nodes, --depth or --movetime",
            ));
        }
        _ => {
            return Err(Error::input(
                "--nodes, --depth and --movetime must be above 0",
            ));
        }
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(|t| parse_sprt(t, args.alpha, args.beta))
        .transpose()
        .map_err(|e| Error::input(format!("--sprt: {e}")))?;
    let openings = match &args.openings {
        None => openings::book(),
        Some(path) => {
            let text = fs::read_to_string(path).map_err(|e| {
                Error::input(format!("--openings: cannot read {}: {e}", path.display()))
            })?;
            openings::parse(&text)
                .map_err(|e| Error::input(format!("--openings {}: {e}", path.display())))?
        }
    };
    let mut specs = [
        engine_spec("--engine", &args.engine, &args.options, "--option")?,
        engine_spec(
            "--opponent",
            &args.opponent,
            &args.opponent_options,
            "--opponent-option",
        )?,
    ];
    if let Some(path) = &args.log {
        let file = fs::File::create(path)
            .map_err(|e| Error::input(format!("--log: cannot create {}: {e}", path.display())))?;
        let log = uci_client::Log::new(file);
        for (i, spec) in specs.iter_mut().enumerate() {
            spec.log = Some(log.for_engine(i + 1));
        }
    }
    let games = args.games.max(1).div_ceil(2) * 2;

    let mut records: Vec<GameRecord> = Vec::new();
    if args.resume
        && let Some(path) = &args.json
        && path.exists()
    {
        let text = fs::read_to_string(path)
            .map_err(|e| Error::input(format!("--resume: cannot read {}: {e}", path.display())))?;
        let report: Report = serde_json::from_str(&text).map_err(|e| {
            Error::input(format!(
                "--resume: {} is no match report: {e}",
                path.display()
            ))
        })?;
        if report.control != control.text() || report.openings != openings.len() {
            return Err(Error::input(format!(
                "--resume: {} holds a match at {} from {} openings, not {} from {}",
                path.display(),
                report.control,
                report.openings,
                control.text(),
                openings.len()
            )));
        }
        records = report.games;
    }

    let mut engines = [
        UciEngine::start(&specs[0]).map_err(|e| Error::input(format!("--engine: {e}")))?,
        UciEngine::start(&specs[1]).map_err(|e| Error::input(format!("--opponent: {e}")))?,
    ];
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    let settings = MatchSettings {
        control,
        time_margin: Duration::from_millis(args.time_margin),
        move_timeout: Duration::from_millis(args.move_timeout),
        max_plies: args.max_plies,
        resign: args.resign,
    };

    let mut tally = Tally::default();
    for record in &records {
        tally.add(record.points_for_first());
    }
    let bar = progress_bar(games as u64);
    bar.set_position(records.len() as u64);
    let mut decided = sprt
        .map(|s| s.state(&tally).0)
        .filter(|s| *s != SprtState::Continue);
    let mut round = records.len() as u32;
    while round < games && decided.is_none() {
        let opening = &openings[(round / 2) as usize % openings.len()];
        let first_white = round % 2 == 0;
        let record = play_game(&mut engines, first_white, opening, &settings, round)
            .map_err(Error::input)?;
        tally.add(record.points_for_first());
        records.push(record);
        round += 1;
        let (state, llr) = sprt.map_or((SprtState::Continue, 0.0), |s| s.state(&tally));
        if state != SprtState::Continue {
            decided = Some(state);
        }
        let message = format!(
            "+{} ={} -{}  score {:.3}  Elo {}{}",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score().unwrap_or(0.5),
            tally.elo().text(),
            sprt.map_or(String::new(), |_| format!("  LLR {llr:.2}"))
        );
        bar.set_message(message.clone());
        bar.inc(1);
        if bar.is_hidden() {
            eprintln!("game {round}/{games}: {message}");
        }
        if let Some(path) = &args.json {
            write_report(
                path, &specs, &names, &settings, &openings, &records, &tally, sprt,
            )?;
        }
    }
    bar.finish_and_clear();
    drop(engines);

    let mut out = stdout();
    writeln!(out, "{} vs {}, {}", names[0], names[1], control.text())?;
    writeln!(
        out,
        "games {}: +{} ={} -{}, score {:.1}/{} ({:.1}%)",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.score().unwrap_or(0.5)
    )?;
    let elo = tally.elo();
    writeln!(
        out,
        "Elo difference {} (95%), likelihood of superiority {}",
        elo.text(),
        elo.los
            .map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l))
    )?;
    if let Some(s) = sprt {
        let (state, llr) = s.state(&tally);
        let (low, high) = s.bounds();
        let verdict = match state {
            SprtState::Continue => "no decision".to_string(),
            SprtState::AcceptH0 => format!("H0 accepted (Elo {} rather than {})", s.elo0, s.elo1),
            SprtState::AcceptH1 => format!("H1 accepted (Elo {} rather than {})", s.elo1, s.elo0),
        };
        writeln!(
            out,
            "SPRT [{}, {}]: LLR {llr:.2} in ({low:.2}, {high:.2}): {verdict}",
            s.elo0, s.elo1
        )?;
    }
    let losses: Vec<String> = records
        .iter()
        .filter(|r| r.reason.contains("time") || r.reason.contains("illegal"))
        .map(|r| format!("game {} {}", r.round, r.reason))
        .collect();
    if !losses.is_empty() {
        writeln!(out, "forfeits: {}", losses.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The settings every game is played under.
struct MatchSettings {
    control: Control,
    time_margin: Duration,
    move_timeout: Duration,
    max_plies: u32,
    resign: Option<i32>,
}

/// On a terminal a bar of the games with the running score; elsewhere
/// hidden (the match then prints a line per game on stderr).
fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} (eta {eta})  {msg}")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

#[allow(clippy::too_many_arguments)]
fn write_report(
    path: &PathBuf,
    specs: &[EngineSpec; 2],
    names: &[String; 2],
    settings: &MatchSettings,
    openings: &[Opening],
    records: &[GameRecord],
    tally: &Tally,
    sprt: Option<Sprt>,
) -> Result<()> {
    let engine = |i: usize| EngineReport {
        name: names[i].clone(),
        command: specs[i].command_line(),
        options: specs[i].options.clone(),
    };
    let report = Report {
        first: engine(0),
        second: engine(1),
        control: settings.control.text(),
        openings: openings.len(),
        games: records.to_vec(),
        tally: Some(*tally),
        score: tally.score(),
        elo: Some(tally.elo().into()),
        sprt: sprt.map(|s| {
            let (state, llr) = s.state(tally);
            let (lower_bound, upper_bound) = s.bounds();
            SprtReport {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                llr,
                lower_bound,
                upper_bound,
                state: serde_json::to_value(state)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
            }
        }),
    };
    let text = serde_json::to_string_pretty(&report).map_err(|e| Error::Output(e.into()))?;
    // Written whole, then renamed: a match stopped mid-write keeps its last report.
    let tmp = path.with_extension("json.tmp");
    fs::write(&tmp, text)?;
    fs::rename(&tmp, path)?;
    Ok(())
}

/// Neither side can mate: bare kings, or one minor piece and no pawns.
fn insufficient_material(pos: &Chess) -> bool {
    let b = pos.board();
    let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    heavy.is_empty() && (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop)).len() <= 1
}

/// Whether the side to move has a legal move.
fn has_moves(pos: &Chess) -> bool {
    pos.board().generate_moves(|_| true)
}

/// Plays one game: `engines[0]` is White when `first_white`.
fn play_game(
    engines: &mut [UciEngine; 2],
    first_white: bool,
    opening: &Opening,
    settings: &MatchSettings,
    round: u32,
) -> std::result::Result<GameRecord, String> {
    // engines[seat[c]] plays colour c (0 White, 1 Black).
    let seat = if first_white { [0, 1] } else { [1, 0] };
    for engine in engines.iter_mut() {
        engine.send("ucinewgame")?;
        engine.ready()?;
    }
    let mut pos = opening.position.clone();
    let mut seen: Vec<u64> = vec![pos.hash()];
    let mut moves: Vec<String> = Vec::new();
    let (mut clock, increment) = match settings.control {
        Control::Clock { base, increment } => ([base, base], increment),
        _ => ([Duration::ZERO; 2], Duration::ZERO),
    };
    let mut streak: (i32, u32) = (0, 0);
    let opening_plies = opening.moves.len() as u32;
    let (result, reason): (&str, String) = loop {
        let colour = usize::from(pos.board().side_to_move() == Color::Black);
        let white_wins = |c: usize| if c == 0 { "1-0" } else { "0-1" };
        match pos.board().status() {
            GameStatus::Won => break (white_wins(1 - colour), "checkmate".into()),
            GameStatus::Drawn if pos.board().halfmove_clock() >= 100 && has_moves(&pos) => {
                break ("1/2-1/2", "fifty moves".into());
            }
            GameStatus::Drawn => break ("1/2-1/2", "stalemate".into()),
            GameStatus::Ongoing => {}
        }
        if seen.iter().filter(|&&h| h == pos.hash()).count() >= 3 {
            break ("1/2-1/2", "repetition".into());
        }
        if insufficient_material(&pos) {
            break ("1/2-1/2", "insufficient material".into());
        }
        if opening_plies + moves.len() as u32 >= settings.max_plies {
            break ("1/2-1/2", "ply limit".into());
        }
        let engine = &mut engines[seat[colour]];
        let mut position = format!("position {}", opening.start);
        if !opening.moves.is_empty() || !moves.is_empty() {
            position.push_str(" moves");
            for m in opening.moves.iter().chain(&moves) {
                position.push(' ');
                position.push_str(m);
            }
        }
        engine.send(&position)?;
        let (go, limit) = match settings.control {
            Control::Clock { .. } => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    clock[0].as_millis(),
                    clock[1].as_millis(),
                    increment.as_millis(),
                    increment.as_millis()
                ),
                clock[colour] + settings.time_margin,
            ),
            Control::Nodes(n) => (format!("go nodes {n}"), settings.move_timeout),
            Control::Depth(d) => (format!("go depth {d}"), settings.move_timeout),
            Control::MoveTime(t) => (
                format!("go movetime {}", t.as_millis()),
                t + settings.time_margin.max(Duration::from_millis(500)),
            ),
        };
        let reply = engine.go(&go, limit)?;
        let name = engine.name.clone();
        let Some(text) = reply.best_move else {
            break (white_wins(1 - colour), format!("{name} lost on time"));
        };
        if let Control::Clock { .. } = settings.control {
            if reply.elapsed > clock[colour] + settings.time_margin {
                break (white_wins(1 - colour), format!("{name} lost on time"));
            }
            clock[colour] = clock[colour].saturating_sub(reply.elapsed) + increment;
        }
        let Ok(mv) = pos.parse_uci(&text) else {
            break (
                white_wins(1 - colour),
                format!("{name} played an illegal move {text}"),
            );
        };
        moves.push(pos.move_text(mv));
        pos = pos.play(mv);
        if pos.board().halfmove_clock() == 0 {
            seen.clear();
        }
        seen.push(pos.hash());
        // Resignation: both sides' scores, turned to White's view, agree.
        if let (Some(cp), Some(score)) = (settings.resign, reply.score) {
            let white_view = if colour == 0 { score } else { -score };
            let side = white_view.signum();
            streak = if white_view.abs() >= cp && side == streak.0 {
                (side, streak.1 + 1)
            } else if white_view.abs() >= cp {
                (side, 1)
            } else {
                (0, 0)
            };
            if streak.1 >= 6 {
                break (if side > 0 { "1-0" } else { "0-1" }, "adjudication".into());
            }
        }
    };
    let name = |c: usize| engines[seat[c]].name.clone();
    Ok(GameRecord {
        round,
        opening: opening.name.clone(),
        white: name(0),
        black: name(1),
        result: result.to_string(),
        reason,
        plies: moves.len() as u32,
        moves: moves.join(" "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_options_are_read() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Control::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            parse_tc("8"),
            Ok(Control::Clock {
                base: Duration::from_secs(8),
                increment: Duration::ZERO
            })
        );
        assert!(parse_tc("0+0").is_err());
        assert!(parse_tc("ten").is_err());
        assert!(parse_tc("-1+1").is_err());
        assert_eq!(parse_tc("8+0.08").unwrap().text(), "8+0.08");
        assert_eq!(
            parse_option("--option", "Skill Level = 5").unwrap(),
            ("Skill Level".to_string(), "5".to_string())
        );
        assert!(parse_option("--option", "Threads").is_err());
    }

    #[test]
    fn the_second_game_of_a_pair_swaps_the_points() {
        let record = |round, result: &str| GameRecord {
            round,
            opening: String::new(),
            white: String::new(),
            black: String::new(),
            result: result.into(),
            reason: String::new(),
            plies: 0,
            moves: String::new(),
        };
        assert_eq!(record(0, "1-0").points_for_first(), 1.0);
        assert_eq!(record(1, "1-0").points_for_first(), 0.0);
        assert_eq!(record(3, "0-1").points_for_first(), 1.0);
        assert_eq!(record(2, "1/2-1/2").points_for_first(), 0.5);
    }
}
