//! `splitpoint perft`: counts the leaf positions a fixed depth below a position,
//! the standard check of a move generator.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use crate::error::Result;
use crate::games::{GameCommand, NamedGame, load_position, run_on_game};
use crate::{PositionArgs, check_depth, report, stdout};

/// Count the positions DEPTH plies below a position (move-generator check)
///
/// A pass is a ply. A game that ends sooner counts as one leaf in othello and
/// synthetic trees; chess, draughts and xiangqi follow their published perft
/// tables, where it adds none (and a draughts capture reached by two routes
/// counts once), so a position with no legal move counts 0 there, divided or
/// not. Prints the count, the time and the speed; with --divide, the count
/// below each first move too (to find where two move generators disagree).
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint perft othello 6                  8200 positions from the start
  splitpoint perft othello 4 --divide         the count below each first move
  splitpoint perft othello 3 --moves 'f5 d6'  from the position after f5 d6
  splitpoint perft chess 5                    4865609
  splitpoint perft draughts 7                 1049442
  splitpoint perft xiangqi 4                  3290240
  splitpoint perft synthetic 3 --position b=4,d=6,seed=2 --json")]
pub struct PerftArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic
    pub game: String,

    /// Plies to count, 1 or more
    #[arg(allow_negative_numbers = true)]
    pub depth: i64,

    #[command(flatten)]
    pub position: PositionArgs,

    /// Also count below each first move
    #[arg(long)]
    pub divide: bool,

    /// Print one JSON object: {"nodes":N,"seconds":S} (with --divide, a
    /// "divide" array of {"move","nodes"} too)
    #[arg(long)]
    pub json: bool,
}

/// The JSON form of a count.
#[derive(Serialize)]
struct PerftJson {
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<MoveCount>>,
}

/// The count below one first move.
#[derive(Serialize)]
struct MoveCount {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

/// Runs `splitpoint perft`.
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    run_on_game(&args.game, args)
}

impl GameCommand for &PerftArgs {
    type Output = Result<ExitCode>;

    fn run<G: NamedGame>(self) -> Result<ExitCode> {
        let depth = check_depth("DEPTH", self.depth)? as u32;
        let pos: G = load_position(
            self.position.position.as_deref(),
            self.position.moves.as_deref(),
        )?;
        let mut out = stdout();

        let start = Instant::now();
        let (nodes, divide) = if self.divide {
            let mut counts = Vec::new();
            for mv in pos.legal_moves() {
                let nodes = pos.play(mv).perft(depth - 1);
                if !self.json {
                    writeln!(out, "{:<8} {nodes}", pos.move_text(mv))?;
                }
                counts.push(MoveCount {
                    mv: pos.move_text(mv),
                    nodes,
                });
            }
            // With no first move to divide by, the game's own convention
            // decides: one leaf (othello, synthetic) or none (chess, draughts,
            // xiangqi), as plain perft counts it.
            let total = if counts.is_empty() {
                pos.perft(depth)
            } else {
                counts.iter().map(|c| c.nodes).sum()
            };
            (total, Some(counts))
        } else {
            (pos.perft(depth), None)
        };
        let elapsed = start.elapsed();

        if self.json {
            let json = PerftJson {
                nodes,
                seconds: elapsed.as_secs_f64(),
                divide,
            };
            report::json_line(&mut out, &json)?;
        } else {
            if divide.is_some() {
                writeln!(out)?;
            }
            writeln!(out, "nodes    {nodes}")?;
            writeln!(out, "time     {:.3} s", elapsed.as_secs_f64())?;
            writeln!(
                out,
                "speed    {} nodes/s",
                report::per_second(nodes, elapsed)
            )?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
