//! `splitpoint nboard`: Othello over the NBoard protocol, the protocol of the
//! NBoard GUI (spoken by Edax and NTest; described in NTest's
//! `instructions/Protocol.htm`).
//!
//! One thread reads a line, acts on it and answers. A search runs to its
//! depth before the next line is read, which the protocol allows: a `ping`
//! that comes during a search is answered (`pong`) once the search is done,
//! so the GUI never takes an old analysis for the new position. Midgame
//! positions are searched to `set depth` plies with the midgame evaluator;
//! from [`SOLVE_MARGIN`] empties more than that depth down, the engine
//! solves the position exactly instead. A line it cannot use is answered
//! with a `status` line saying why and is otherwise ignored.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use splitpoint::{Engine, Game, Limits, SearchResult, Trace};
use splitpoint_games::othello::{Othello, OthelloExact, OthelloMidgame, OthelloMove, solve_limits};

use crate::error::{Error, Result};
use crate::protocol::read_commands;
use crate::{ParallelArgs, new_engine};

/// Positions with at most `depth + SOLVE_MARGIN` empties are solved exactly.
pub const SOLVE_MARGIN: u32 = 8;

/// The depth until `set depth` says otherwise.
const DEFAULT_DEPTH: i32 = 10;

/// Play Othello over the NBoard protocol (for the NBoard GUI)
///
/// Reads NBoard commands on standard input and answers on standard output:
/// nboard, set depth N, set game GGF (passes as PA, a start position in
/// BO[...]), set contempt N, set myname, move F5[/eval/time] (or just F5),
/// hint N (search lines for the N best moves), go (answered
/// '=== MOVE/EVAL/TIME'), ping N (pong N, after any search), learn (learned),
/// quit. Searches to the set depth with the midgame evaluator, and solves
/// exactly from depth + 8 empties down. Evaluations are in discs, from the
/// side to move's view.
#[derive(Args, Debug)]
#[command(after_help = "Example exchange:
  nboard 2
  set depth 12
  set game (;GM[Othello]PC[NBoard]TY[8]B[F5]W[F6];)    (BO[8 <64 squares> *] sets a board)
  go                 → === E6/-1.23/0.41
  ping 1             → pong 1")]
pub struct NboardArgs {
    /// Transposition-table size in MiB, for each of the two engines
    /// (midgame and endgame)
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: u64,

    /// The midgame evaluation: heuristic (hand-set), patterns (the learned
    /// one, committed weights) or a weights file from `splitpoint train`
    #[arg(
        long,
        value_name = "heuristic|patterns|FILE",
        default_value = "patterns"
    )]
    pub eval: String,

    #[command(flatten)]
    pub parallel: ParallelArgs,
}

/// Runs `splitpoint nboard` on standard input and output.
pub fn run(args: &NboardArgs) -> Result<ExitCode> {
    let mut session = Session::new(args)?;
    let mut out = io::stdout();
    let mut failed = None;
    read_commands(&mut io::stdin().lock(), |line| {
        match session.handle(line, &mut out) {
            Ok(flow) => flow == Flow::Continue,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    args.parallel.write_trace(&session.traces)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The position and the engines of one NBoard connection.
pub(crate) struct Session {
    position: Othello,
    depth: i32,
    midgame: Engine<Othello, OthelloMidgame>,
    endgame: Engine<Othello, OthelloExact>,
    /// Every search's timeline, with --trace.
    traces: Vec<(String, Trace)>,
}

/// An evaluation of one move, for `search` lines and `===`.
struct Analysis {
    best: OthelloMove,
    /// Discs, the side to move's view.
    eval: f64,
    pv: Vec<OthelloMove>,
    depth: i32,
    nodes: u64,
}

impl Session {
    /// The engine searching to `depth` with the midgame evaluation `eval`,
    /// single-threaded, as `splitpoint othello-match` plays it.
    pub(crate) fn for_match(eval: OthelloMidgame, hash: u64, depth: i32) -> Result<Self> {
        Ok(Session {
            position: Othello::start(),
            depth,
            midgame: new_engine(eval, hash)?,
            endgame: new_engine(OthelloExact, hash)?,
            traces: Vec::new(),
        })
    }

    /// The move the engine plays in `pos` (what `go` answers), the tables
    /// cleared first when `new_game`.
    pub(crate) fn choose(&mut self, pos: Othello, new_game: bool) -> Result<OthelloMove> {
        if new_game {
            self.midgame.clear();
            self.endgame.clear();
        }
        Ok(self.search(pos, &mut io::sink(), false)?.best)
    }

    fn new(args: &NboardArgs) -> Result<Self> {
        let eval =
            OthelloMidgame::parse(&args.eval).map_err(|e| Error::input(format!("--eval: {e}")))?;
        let mut midgame = new_engine(eval, args.hash)?;
        let mut endgame = new_engine(OthelloExact, args.hash)?;
        args.parallel.apply(&mut midgame)?;
        args.parallel.apply(&mut endgame)?;
        Ok(Session {
            position: Othello::start(),
            depth: DEFAULT_DEPTH,
            midgame,
            endgame,
            traces: Vec::new(),
        })
    }

    /// Acts on one line; every answer is flushed at once (a GUI waits on it).
    fn handle(&mut self, line: &str, out: &mut (impl Write + Send)) -> Result<Flow> {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "nboard" => writeln!(out, "set myname splitpoint")?,
            "set" => self.set(rest, out)?,
            "move" => self.play_text(rest, out)?,
            "go" => {
                let started = Instant::now();
                let a = self.search(self.position, out, true)?;
                let seconds = started.elapsed().as_secs_f64();
                writeln!(out, "nodestats {} {seconds:.3}", a.nodes)?;
                writeln!(
                    out,
                    "=== {}/{:.2}/{:.3}",
                    move_text(a.best),
                    a.eval,
                    seconds
                )?;
            }
            "hint" => {
                let n = rest.parse::<usize>().unwrap_or(1).max(1);
                writeln!(out, "status Analyzing")?;
                self.hint(n, out)?;
                writeln!(out, "status")?;
            }
            "ping" => writeln!(out, "pong {rest}")?,
            "learn" => writeln!(out, "learned")?,
            "quit" => return Ok(Flow::Quit),
            // NBoard 1.1 sends a bare move ("F5").
            _ if command.len() == 2 && rest.is_empty() => self.play_text(command, out)?,
            _ => writeln!(out, "status ignored unknown command: {command}")?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn set(&mut self, rest: &str, out: &mut (impl Write + Send)) -> Result<()> {
        let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => match value.parse::<i32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    writeln!(out, "set myname splitpoint{d}")?;
                }
                _ => writeln!(out, "status set depth: expected 1 to 60, found '{value}'")?,
            },
            "game" => match parse_ggf(value) {
                Ok(pos) => {
                    self.position = pos;
                    self.midgame.clear();
                    self.endgame.clear();
                }
                Err(e) => writeln!(out, "status set game: {e}")?,
            },
            // Contempt changes nothing in a search that plays for the disc
            // difference; the GUI's value is accepted.
            "contempt" | "myname" => {}
            _ => writeln!(out, "status ignored: set {what}")?,
        }
        Ok(())
    }

    /// `move F5/eval/time`: plays the move (or `PA`).
    fn play_text(&mut self, text: &str, out: &mut (impl Write + Send)) -> Result<()> {
        let mv = text.split('/').next().unwrap_or("");
        match play(&self.position, mv) {
            Ok(next) => self.position = next,
            Err(e) => writeln!(out, "status move: {e}")?,
        }
        Ok(())
    }

    /// `hint n`: `search` lines for the `n` best moves (one search when
    /// `n` is 1, else one per move).
    fn hint(&mut self, n: usize, out: &mut (impl Write + Send)) -> Result<()> {
        let pos = self.position;
        let moves = pos.legal_moves();
        if n == 1 || moves.len() <= 1 {
            self.search(pos, out, true)?;
            return Ok(());
        }
        let mut scored = Vec::new();
        for mv in moves {
            let child = pos.play(mv);
            let mut a = if child.outcome().is_some() {
                Analysis {
                    best: mv,
                    eval: -f64::from(child.final_score()),
                    pv: Vec::new(),
                    depth: 0,
                    nodes: 0,
                }
            } else {
                let mut a = self.search(child, &mut io::sink(), false)?;
                a.eval = -a.eval;
                a.depth += 1;
                a
            };
            a.pv.insert(0, mv);
            a.best = mv;
            scored.push(a);
        }
        scored.sort_by(|a, b| b.eval.total_cmp(&a.eval));
        for a in scored.iter().take(n) {
            writeln!(out, "{}", search_line(a))?;
        }
        Ok(())
    }

    /// Searches `pos` to the set depth, or solves it when few enough
    /// squares are empty; `lines`: a `search` line per iteration.
    fn search(
        &mut self,
        pos: Othello,
        out: &mut (impl Write + Send),
        lines: bool,
    ) -> Result<Analysis> {
        let solve = pos.empty_count() <= self.depth as u32 + SOLVE_MARGIN;
        let mut written = Ok(());
        let mut report = |r: &SearchResult<OthelloMove>, eval: f64| {
            if lines && written.is_ok() && r.best_move.is_some() {
                written = writeln!(out, "{}", search_line(&analysis(r, eval)));
            }
        };
        let result = if solve {
            let limits = solve_limits(&pos);
            self.endgame
                .search_with(&pos, &limits, |r| report(r, f64::from(r.score)))
        } else {
            let limits = Limits::to_depth(self.depth);
            self.midgame
                .search_with(&pos, &limits, |r| report(r, f64::from(r.score) / 100.0))
        };
        written?;
        let trace = if solve {
            self.endgame.take_trace()
        } else {
            self.midgame.take_trace()
        };
        self.traces.extend(trace.map(|t| (pos.position_text(), t)));
        let eval = if solve {
            f64::from(result.score)
        } else {
            f64::from(result.score) / 100.0
        };
        let mut a = analysis(&result, eval);
        if result.best_move.is_none() {
            // A finished game: no move to give; pass is the protocol's word.
            a.best = OthelloMove::PASS;
        }
        Ok(a)
    }
}

fn analysis(r: &SearchResult<OthelloMove>, eval: f64) -> Analysis {
    Analysis {
        best: r.best_move.unwrap_or(OthelloMove::PASS),
        eval,
        pv: r.pv.clone(),
        depth: r.depth,
        nodes: r.stats.nodes,
    }
}

/// `search [pv] [eval] 0 [depth]`: the pv without spaces, moves joined by '-'.
fn search_line(a: &Analysis) -> String {
    let pv = if a.pv.is_empty() {
        move_text(a.best)
    } else {
        a.pv.iter()
            .map(|&m| move_text(m))
            .collect::<Vec<_>>()
            .join("-")
    };
    format!("search {pv} {:.2} 0 {}", a.eval, a.depth)
}

/// A move as NBoard writes it: "F5", or "PA" for the pass.
fn move_text(mv: OthelloMove) -> String {
    if mv.is_pass() {
        "PA".to_string()
    } else {
        mv.to_string().to_uppercase()
    }
}

/// `pos` after the move `text` ("F5", "f5", "PA"), if legal.
fn play(pos: &Othello, text: &str) -> std::result::Result<Othello, String> {
    Ok(pos.play(legal_move(pos, text)?))
}

/// The move `text` ("F5", "f5", "PA") in `pos`, if legal.
pub(crate) fn legal_move(pos: &Othello, text: &str) -> std::result::Result<OthelloMove, String> {
    let text = text.trim();
    let mv = if text.eq_ignore_ascii_case("pa") {
        OthelloMove::PASS
    } else {
        pos.parse_move(&text.to_ascii_lowercase())
            .map_err(|e| format!("{text}: {e}"))?
    };
    if pos.outcome().is_some() {
        return Err(format!("{text}: the game is over"));
    }
    if !pos.legal_moves().contains(&mv) {
        return Err(format!("{text} is not legal here"));
    }
    Ok(mv)
}

/// The position at the end of a GGF game: its `BO[...]` start (the standard
/// one if absent) and its moves `B[..]`/`W[..]` in order (passes `PA`; a
/// move's `/eval/time` is ignored).
fn parse_ggf(text: &str) -> std::result::Result<Othello, String> {
    let body = text.trim();
    let body = body.strip_prefix("(;").unwrap_or(body);
    let body = body.strip_suffix(";)").unwrap_or(body);
    let mut pos = Othello::start();
    let mut rest = body;
    while !rest.trim_start().is_empty() {
        rest = rest.trim_start();
        let key_len = rest.find('[').ok_or("a property without '['")?;
        let key = &rest[..key_len];
        let close = rest[key_len..]
            .find(']')
            .ok_or_else(|| format!("property {key}: no ']'"))?;
        let value = &rest[key_len + 1..key_len + close];
        rest = &rest[key_len + close + 1..];
        match key {
            "BO" => pos = parse_board(value)?,
            "B" | "W" => {
                let black = key == "B";
                let mv = value.split('/').next().unwrap_or("");
                // A side that must pass may be left implicit.
                if pos.black_to_move() != black && pos.legal_moves()[..] == [OthelloMove::PASS] {
                    pos = pos.play(OthelloMove::PASS);
                }
                if pos.black_to_move() != black {
                    return Err(format!(
                        "{key}[{value}]: not {}'s turn",
                        if black { "black" } else { "white" }
                    ));
                }
                pos = play(&pos, mv)?;
            }
            _ => {}
        }
    }
    Ok(pos)
}

/// `pos` as a GGF board, `BO[...]`'s value: `8`, the 64 squares ('*'
/// black, 'O' white, '-' empty) and the side to move.
pub(crate) fn board_text(pos: &Othello) -> String {
    let text = pos.position_text().replace('X', "*");
    let (squares, side) = text.split_once(' ').unwrap_or((&text, "*"));
    format!("8 {squares} {side}")
}

/// `BO[8 <64 squares> <side>]`: '*' black, 'O' white, '-' empty.
fn parse_board(value: &str) -> std::result::Result<Othello, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let (Some(&"8"), Some(&side), 3..) = (words.first(), words.last(), words.len()) else {
        return Err(format!(
            "BO[{value}]: expected '8', the squares and the side to move"
        ));
    };
    let squares: String = words[1..words.len() - 1].concat();
    if squares.chars().count() != 64 {
        return Err(format!(
            "BO[{value}]: expected 64 squares, found {}",
            squares.chars().count()
        ));
    }
    let mut text: String = squares
        .chars()
        .map(|c| match c {
            '*' | 'X' | 'x' | 'B' | 'b' => 'X',
            'O' | 'o' | 'W' | 'w' => 'O',
            _ => '-',
        })
        .collect();
    text.push(' ');
    text.push(match side {
        "*" | "X" | "B" => 'X',
        "O" | "W" => 'O',
        _ => return Err(format!("BO[{value}]: side to move '{side}'")),
    });
    Othello::parse_position(&text).map_err(|e| format!("BO[{value}]: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        session_with("heuristic").unwrap()
    }

    fn session_with(eval: &str) -> Result<Session> {
        let args = NboardArgs {
            hash: 1,
            eval: eval.into(),
            parallel: ParallelArgs {
                threads: 1,
                algorithm: None,
                gpu_device: 0,
                tt: "lockless".into(),
                trace: None,
            },
        };
        Session::new(&args)
    }

    #[test]
    fn the_learned_evaluation_plays_and_a_bad_weights_file_is_refused() {
        let mut s = session_with("patterns").unwrap();
        let mut out = Vec::new();
        s.handle("set depth 4", &mut out).unwrap();
        s.handle("go", &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mv = text
            .lines()
            .find_map(|l| l.strip_prefix("=== "))
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("{text}"));
        assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{text}");
        let Err(e) = session_with("/nonexistent/weights.bin") else {
            panic!("a missing weights file accepted");
        };
        assert!(e.to_string().contains("--eval"), "{e}");
    }

    #[test]
    fn no_line_crashes_the_session_and_each_gets_its_answer() {
        let mut s = session();
        let mut out = Vec::new();
        let lines = [
            "set game",
            "set game (;",
            "set game (;BO[8];)",
            "set game (;BO[8 * ];)",
            "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]B[F6];)",
            "set game (;B[zz];)",
            "set game (;W[PA]",
            "set game ]]][[[",
            "set depth -3",
            "set depth x",
            "move",
            "move PA",
            "move F5/x/y",
            "hint",
            "hint -1",
            "ping",
            "F5",
            "\u{fffd}\u{fffd}",
        ];
        for line in lines {
            assert_eq!(s.handle(line, &mut out).unwrap(), Flow::Continue, "{line}");
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("status set game:"), "{text}");
        assert!(text.contains("status move:"), "{text}");
        assert_eq!(s.handle("quit", &mut Vec::new()).unwrap(), Flow::Quit);
    }

    #[test]
    fn a_game_record_gives_the_position_after_its_moves() {
        let start = "8 ---------------------------O*------*O--------------------------- *";
        let pos = parse_ggf(&format!(
            "(;GM[Othello]PB[x]PW[y]BO[{start}]B[f5//1.5]W[F6];)"
        ))
        .unwrap();
        assert_eq!(
            pos.position_text(),
            Othello::start()
                .play(pos_move("f5"))
                .play(pos_move_after("f5", "f6"))
                .position_text()
        );
        assert!(parse_ggf("(;BO[9 x *];)").is_err());
    }

    fn pos_move(m: &str) -> OthelloMove {
        Othello::start().parse_move(m).unwrap()
    }

    fn pos_move_after(first: &str, m: &str) -> OthelloMove {
        Othello::start()
            .play(pos_move(first))
            .parse_move(m)
            .unwrap()
    }
}
