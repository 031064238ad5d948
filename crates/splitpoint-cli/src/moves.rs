//! `splitpoint moves`: the legal moves of positions, for checking the move
//! generator against another program's.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::Args;

use crate::error::{Error, Result};
use crate::games::{GameCommand, NamedGame, load_position, run_on_game};
use crate::{PositionArgs, stdout};

/// List the legal moves of a position, or of many read from standard input
///
/// Prints one line per position: its legal moves in the game's notation,
/// separated by single spaces, in generation order (an empty line when the
/// position has none). A pass (Othello) is listed as a move.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint moves chess                         the 20 moves of the start position
  splitpoint moves othello --moves 'f5 d6'       after f5 d6
  printf 'startpos\\n8/8/8/8/8/8/8/K1k5 w - - 0 1\\n' | splitpoint moves chess --stdin")]
pub struct MovesArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic
    pub game: String,

    #[command(flatten)]
    pub position: PositionArgs,

    /// Read positions from standard input, one per line, and answer each with
    /// a line of moves (blank input lines are skipped)
    #[arg(long, conflicts_with_all = ["position", "moves"])]
    pub stdin: bool,
}

/// Runs `splitpoint moves`.
pub fn run(args: &MovesArgs) -> Result<ExitCode> {
    run_on_game(&args.game, args)
}

impl GameCommand for &MovesArgs {
    type Output = Result<ExitCode>;

    fn run<G: NamedGame>(self) -> Result<ExitCode> {
        let mut out = stdout();
        if !self.stdin {
            let pos: G = load_position(
                self.position.position.as_deref(),
                self.position.moves.as_deref(),
            )?;
            writeln!(out, "{}", moves_line(&pos))?;
            return Ok(ExitCode::SUCCESS);
        }
        for (n, line) in io::stdin().lock().lines().enumerate() {
            let line = line.map_err(|e| Error::input(format!("standard input: {e}")))?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            let pos = G::parse_position(text)
                .map_err(|e| Error::input(format!("standard input line {}: {e}", n + 1)))?;
            writeln!(out, "{}", moves_line(&pos))?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The legal moves of `pos`, space-separated.
fn moves_line<G: NamedGame>(pos: &G) -> String {
    let texts: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect();
    texts.join(" ")
}
