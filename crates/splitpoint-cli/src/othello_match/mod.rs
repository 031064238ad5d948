//! `splitpoint othello-match`: two Othello evaluations against each other,
//! each played by the NBoard engine (`splitpoint nboard`'s search: the set
//! depth with the midgame evaluation, an exact solve from depth + 8 empties
//! down), or one of them against another NBoard engine run as a child
//! process ([`nboard_client`]), from random openings, each opening played
//! with both colours.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use splitpoint::Game;
use splitpoint_games::othello::{Othello, OthelloMidgame, OthelloMove};

use crate::error::{Error, Result};
use crate::nboard::Session;
use crate::stdout;

mod nboard_client;

use nboard_client::NboardEngine;

/// How long another engine may think over one move before the match ends
/// with an error (it plays to a fixed depth, so it has no clock).
const OPPONENT_MOVE_LIMIT: Duration = Duration::from_secs(600);

/// Play an Othello match between two midgame evaluations
///
/// Each side is the NBoard engine (`splitpoint nboard`): every move a
/// search to --depth plies with its evaluation, an exact solve from
/// depth + 8 empties down, single-threaded, so a match is deterministic.
/// The openings are --random-plies random legal moves from the start
/// (seeded by --seed, no two alike); each is played twice, once with each
/// side as Black. With --opponent, B is another NBoard engine instead (Edax,
/// NTest, ...), run as a child process and told `set depth` --depth and,
/// before each of its moves, the position (`set game` with its board) and
/// `go`. Prints every game's final disc difference from A's view and the
/// totals (wins, draws, losses, disc sum for A); --json FILE keeps the games
/// too.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint othello-match --a patterns --b heuristic --depth 6 --openings 24
  splitpoint othello-match --a weights.bin --b patterns --json match.json
  splitpoint othello-match --a patterns --depth 8 --openings 20 \\
      --opponent 'lEdax-x86-64-v3 -nboard -n 1 -eval-file data/eval.dat'")]
pub struct OthelloMatchArgs {
    /// Side A's evaluation: heuristic (hand-set), patterns (the learned one,
    /// committed weights) or a weights file from `splitpoint train`
    #[arg(
        long,
        value_name = "heuristic|patterns|FILE",
        default_value = "patterns"
    )]
    pub a: String,

    /// Side B's evaluation, as --a
    #[arg(
        long,
        value_name = "heuristic|patterns|FILE",
        default_value = "heuristic"
    )]
    pub b: String,

    /// Side B is another NBoard engine: its command line (the program and
    /// its arguments, split at white space); --b is then unused
    #[arg(long, value_name = "CMD", conflicts_with = "b")]
    pub opponent: Option<String>,

    /// Search depth of every midgame move, both sides
    #[arg(long, short = 'd', value_name = "D", default_value_t = 6)]
    pub depth: i32,

    /// Openings to play from (two games each)
    #[arg(long, short = 'n', value_name = "N", default_value_t = 24)]
    pub openings: usize,

    /// Random moves from the start that make an opening
    #[arg(long, value_name = "PLIES", default_value_t = 8)]
    pub random_plies: usize,

    /// Seed of the openings' random moves
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Transposition-table size in MiB, for each engine
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: u64,

    /// Write the games and totals to FILE as JSON
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// One game of the match.
#[derive(Serialize)]
struct GameJson {
    opening: usize,
    /// "a" or "b": who had Black.
    black: &'static str,
    /// Every move from the start, the opening's included.
    moves: Vec<String>,
    /// The final disc difference from A's view (empties to the winner).
    result_for_a: i32,
}

/// The match's totals, from A's view.
#[derive(Serialize)]
struct MatchJson {
    a: String,
    /// B's evaluation, or with --opponent the other engine's name.
    b: String,
    depth: i32,
    random_plies: usize,
    seed: u64,
    wins: usize,
    draws: usize,
    losses: usize,
    /// Points: a win 1, a draw ½, over the games played.
    score: f64,
    discs: i64,
    games: Vec<GameJson>,
}

/// Runs `splitpoint othello-match`.
pub fn run(args: &OthelloMatchArgs) -> Result<ExitCode> {
    if !(1..=60).contains(&args.depth) {
        return Err(Error::input(format!(
            "--depth: expected 1 to 60, found {}",
            args.depth
        )));
    }
    let parse = |flag: &str, text: &str| {
        OthelloMidgame::parse(text).map_err(|e| Error::input(format!("{flag}: {e}")))
    };
    let mut a = Player::Own(Box::new(Session::for_match(
        parse("--a", &args.a)?,
        args.hash,
        args.depth,
    )?));
    let mut b = match &args.opponent {
        Some(command) => Player::Other(
            NboardEngine::start(command, args.depth)
                .map_err(|e| Error::input(format!("--opponent: {e}")))?,
        ),
        None => Player::Own(Box::new(Session::for_match(
            parse("--b", &args.b)?,
            args.hash,
            args.depth,
        )?)),
    };
    let b_name = match &b {
        Player::Other(engine) => engine.name.clone(),
        Player::Own(_) => args.b.clone(),
    };
    let openings = openings(args.openings, args.random_plies, args.seed)?;

    let bar = ProgressBar::new(2 * openings.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg} [{elapsed}]")
    {
        bar.set_style(style);
    }
    let mut out = stdout();
    writeln!(
        out,
        "A = {}, B = {}, depth {}, {} openings of {} random plies (seed {})",
        args.a,
        b_name,
        args.depth,
        openings.len(),
        args.random_plies,
        args.seed
    )?;
    writeln!(out, "| opening | A as Black | A as White |")?;
    writeln!(out, "|---:|---:|---:|")?;
    let mut games = Vec::new();
    let (mut wins, mut draws, mut losses, mut discs) = (0, 0, 0, 0i64);
    for (i, opening) in openings.iter().enumerate() {
        let mut row = Vec::new();
        for a_black in [true, false] {
            let (black, white) = if a_black {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let (moves, black_result) = play_game(opening, black, white)?;
            let result = if a_black { black_result } else { -black_result };
            match result.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
            discs += i64::from(result);
            row.push(format!("{result:+}"));
            games.push(GameJson {
                opening: i + 1,
                black: if a_black { "a" } else { "b" },
                moves: moves.iter().map(|m| m.to_string()).collect(),
                result_for_a: result,
            });
            bar.inc(1);
            bar.set_message(format!("A +{wins} ={draws} -{losses}"));
        }
        bar.suspend(|| writeln!(out, "| {} | {} | {} |", i + 1, row[0], row[1]))?;
    }
    bar.finish_and_clear();
    let played = games.len();
    let score = (wins as f64 + draws as f64 / 2.0) / played.max(1) as f64;
    writeln!(
        out,
        "\nA: {wins} wins, {draws} draws, {losses} losses of {played} ({:.1}%), discs {discs:+}",
        100.0 * score
    )?;
    if let Some(path) = &args.json {
        let report = MatchJson {
            a: args.a.clone(),
            b: b_name.clone(),
            depth: args.depth,
            random_plies: args.random_plies,
            seed: args.seed,
            wins,
            draws,
            losses,
            score,
            discs,
            games,
        };
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| Error::input(e.to_string()))?;
        fs::write(path, text + "\n")
            .map_err(|e| Error::input(format!("--json {}: {e}", path.display())))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One side of the match.
enum Player {
    /// This program's NBoard engine, in this process.
    Own(Box<Session>),
    /// Another NBoard engine, a child process.
    Other(NboardEngine),
}

impl Player {
    /// The move played in `pos`; `new_game` at a side's first move of a
    /// game (its tables are cleared).
    fn choose(&mut self, pos: Othello, new_game: bool) -> Result<OthelloMove> {
        match self {
            Player::Own(session) => session.choose(pos, new_game),
            // A pass is no question for the engine: it is given the
            // position afresh each move.
            Player::Other(_) if pos.legal_moves()[..] == [OthelloMove::PASS] => {
                Ok(OthelloMove::PASS)
            }
            Player::Other(engine) => engine
                .choose(&pos, OPPONENT_MOVE_LIMIT)
                .map_err(|e| Error::input(format!("--opponent: {e}"))),
        }
    }
}

/// Plays one game from the opening's moves, `black` and `white` choosing
/// the rest; the moves from the start and the final disc difference from
/// Black's view.
fn play_game(
    opening: &[OthelloMove],
    black: &mut Player,
    white: &mut Player,
) -> Result<(Vec<OthelloMove>, i32)> {
    let mut pos = Othello::start();
    let mut moves = opening.to_vec();
    for &mv in opening {
        pos = pos.play(mv);
    }
    let mut first = (true, true);
    while pos.outcome().is_none() {
        let mv = if pos.black_to_move() {
            let new_game = std::mem::take(&mut first.0);
            black.choose(pos, new_game)?
        } else {
            let new_game = std::mem::take(&mut first.1);
            white.choose(pos, new_game)?
        };
        if !pos.legal_moves().contains(&mv) {
            return Err(Error::input(format!(
                "othello-match: the engine chose {mv}, not legal in {}",
                pos.position_text()
            )));
        }
        pos = pos.play(mv);
        moves.push(mv);
    }
    let score = pos.final_score();
    Ok((moves, if pos.black_to_move() { score } else { -score }))
}

/// `count` distinct openings of `plies` random legal moves from the start
/// (a game that ends sooner is drawn again), by a seeded xorshift.
fn openings(count: usize, plies: usize, seed: u64) -> Result<Vec<Vec<OthelloMove>>> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        if tries > 100 * count + 1000 {
            return Err(Error::input(format!(
                "othello-match: only {} distinct openings of {plies} plies found",
                out.len()
            )));
        }
        let mut pos = Othello::start();
        let mut moves = Vec::new();
        while moves.len() < plies && pos.outcome().is_none() {
            let legal = pos.legal_moves();
            let mv = legal[(next() % legal.len() as u64) as usize];
            pos = pos.play(mv);
            moves.push(mv);
        }
        if pos.outcome().is_none() && seen.insert(pos.position_text()) {
            out.push(moves);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_legal_and_seeded() {
        let a = openings(20, 6, 1).unwrap();
        assert_eq!(a.len(), 20);
        assert_eq!(
            a,
            openings(20, 6, 1).unwrap(),
            "the same seed, the same openings"
        );
        assert_ne!(a, openings(20, 6, 2).unwrap());
        let mut seen = std::collections::HashSet::new();
        for moves in &a {
            assert_eq!(moves.len(), 6);
            let mut pos = Othello::start();
            for &mv in moves {
                assert!(pos.legal_moves().contains(&mv));
                pos = pos.play(mv);
            }
            assert!(seen.insert(pos.position_text()), "distinct positions");
        }
    }

    #[test]
    fn a_game_is_played_to_the_end_and_scored_for_black() {
        let eval = || OthelloMidgame::parse("heuristic").unwrap();
        let mut black = Player::Own(Box::new(Session::for_match(eval(), 1, 1).unwrap()));
        let mut white = Player::Own(Box::new(Session::for_match(eval(), 1, 1).unwrap()));
        let opening = &openings(1, 4, 3).unwrap()[0];
        let (moves, result) = play_game(opening, &mut black, &mut white).unwrap();
        assert_eq!(&moves[..4], &opening[..]);
        let mut pos = Othello::start();
        for &mv in &moves {
            pos = pos.play(mv);
        }
        assert!(pos.outcome().is_some(), "played to the end");
        // Black's discs less White's, the empties to the winner.
        let (mine, theirs) = (pos.player().count_ones(), pos.opponent().count_ones());
        let (b, w) = if pos.black_to_move() {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let diff = b as i32 - w as i32;
        let empties = 64 - (b + w) as i32;
        assert_eq!(result, diff + diff.signum() * empties);
    }
}
