//! The games splitpoint plays ([`GameName`]), and the one place a name
//! becomes a type. Code generic over the game
//! implements [`GameCommand`] and runs through [`GameName::dispatch`]; what
//! the laboratory and the command line need to know of each game beyond its
//! rules is [`NamedGame`]. Adding a game is a variant of `GameName`, one arm
//! in `dispatch` and an `impl NamedGame`.
//!
//! Behind the `registry` feature (every game's, and serde's for
//! [`GameName`]'s name in a report).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::chess::{Chess, ChessEval};
use crate::draughts::{Draughts, DraughtsEval};
use crate::othello::{Othello, OthelloEval};
use crate::synthetic::{Synthetic, SyntheticEval};
use crate::xiangqi::{Xiangqi, XiangqiEval};
use splitpoint::cluster::Transport;
use splitpoint::{Algorithm, Evaluator, Game, Outcome, Score};

/// A game splitpoint plays: named on the command line, chosen by suites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    /// Othello (midgame search or exact endgame solving).
    Othello,
    /// Synthetic trees.
    Synthetic,
    /// Chess (depth search; test suites count best moves found).
    Chess,
    /// International (Polish) draughts.
    Draughts,
    /// Xiangqi (Chinese chess).
    Xiangqi,
}

impl GameName {
    /// Every game, as named on the command line.
    pub const ALL: [GameName; 5] = [
        GameName::Othello,
        GameName::Synthetic,
        GameName::Chess,
        GameName::Draughts,
        GameName::Xiangqi,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameName::Othello => "othello",
            GameName::Synthetic => "synthetic",
            GameName::Chess => "chess",
            GameName::Draughts => "draughts",
            GameName::Xiangqi => "xiangqi",
        }
    }

    /// The algorithm `auto` runs with more than one thread: the fastest at
    /// two threads over the runs of `splitpoint bench --game G --threads 1,2`
    /// in the parallel README's defaults table, where each run's speedups
    /// are: DTS on every game (Othello's endgame solves too). Synthetic
    /// trees keep YBW.
    pub fn parallel_default(self) -> Algorithm {
        match self {
            GameName::Othello | GameName::Chess | GameName::Draughts | GameName::Xiangqi => {
                Algorithm::Dts
            }
            GameName::Synthetic => Algorithm::Ybw { strong: false },
        }
    }

    /// The algorithm `auto` runs with `threads` threads: serial with one.
    pub fn auto_algorithm(self, threads: usize) -> Algorithm {
        if threads == 1 {
            Algorithm::Serial
        } else {
            self.parallel_default()
        }
    }

    /// The suite run when none is named.
    pub fn default_suite(self) -> &'static str {
        match self {
            GameName::Othello => "othello-mid",
            GameName::Synthetic => "synthetic",
            GameName::Chess => "chess",
            GameName::Draughts => "draughts",
            GameName::Xiangqi => "xiangqi",
        }
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameName {
    type Err = String;

    /// A game by its name, in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        GameName::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = GameName::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game '{s}' (known games: {})", names.join(", "))
            })
    }
}

/// What the laboratory and the command line know of a game beyond its rules.
pub trait NamedGame: Game {
    /// The evaluator its searches use.
    type Eval: Evaluator<Self> + Default + Clone;

    /// Its name.
    const GAME: GameName;

    /// The position searched when none is given.
    const DEFAULT_POSITION: &'static str;

    /// What [`NamedGame::final_score`] means, for reports.
    const FINAL_SCORE_MEANING: &'static str = "+1 win, 0 draw or unfinished, -1 loss";

    /// The search depth when no depth or time is given.
    fn default_depth(&self) -> i32;

    /// Leaf positions `depth` plies below, counted by the game's own perft
    /// convention. The default, [`splitpoint::perft`], counts a game that ends
    /// early as one leaf (Othello's convention, where passes are plies).
    fn perft(&self, depth: u32) -> u64 {
        splitpoint::perft(self, depth)
    }

    /// How a finished game came out, from the side to move's view (self-play
    /// tallies it): by default +1, 0 or -1, and 0 for an unfinished game.
    fn final_score(&self) -> Score {
        match self.outcome() {
            Some(Outcome::Win) => 1,
            Some(Outcome::Loss) => -1,
            Some(Outcome::Draw) | None => 0,
        }
    }

    /// PV splitting's slaves on OpenCL device `device` for searches scored
    /// by `eval` (`--algorithm gpu`). Only Othello has a kernel, in a build
    /// with the `gpu` feature.
    ///
    /// # Errors
    /// A message saying why not: another game, a build without the
    /// feature, no such device, or an evaluator the kernel does not know.
    fn gpu_transport<E: Evaluator<Self> + 'static>(eval: E, device: usize) -> GpuSlaves<Self> {
        let _ = (eval, device);
        Err(format!(
            "the gpu algorithm: {} has no GPU search (othello has)",
            Self::GAME
        ))
    }
}

/// What [`NamedGame::gpu_transport`] gives: the device's transport.
pub type GpuSlaves<G> = Result<Arc<dyn Transport<G>>, String>;

/// What a build without the `gpu` feature says when asked for a device.
pub const NO_OPENCL: &str = "this splitpoint was built without OpenCL; build it with \
     `cargo build --release --features gpu -p splitpoint-cli` (needs an OpenCL platform: a \
     GPU's driver, or PoCL: apt-get install pocl-opencl-icd ocl-icd-opencl-dev)";

impl NamedGame for Othello {
    type Eval = OthelloEval;
    const GAME: GameName = GameName::Othello;
    const DEFAULT_POSITION: &'static str = "start";
    const FINAL_SCORE_MEANING: &'static str =
        "the final disc difference (empty squares to the winner)";

    /// Eight plies: a fraction of a second, a reasonable move.
    fn default_depth(&self) -> i32 {
        8
    }

    fn final_score(&self) -> Score {
        Othello::final_score(self)
    }

    #[cfg(feature = "gpu")]
    fn gpu_transport<E: Evaluator<Self> + 'static>(eval: E, device: usize) -> GpuSlaves<Self> {
        use crate::othello::gpu::{Gpu, GpuTransport};
        let gpu = Gpu::open(Some(device)).map_err(|e| format!("the gpu algorithm: {e}"))?;
        let transport =
            GpuTransport::new(gpu, eval).map_err(|e| format!("the gpu algorithm: {e}"))?;
        Ok(Arc::new(transport))
    }

    #[cfg(not(feature = "gpu"))]
    fn gpu_transport<E: Evaluator<Self> + 'static>(_: E, _: usize) -> GpuSlaves<Self> {
        Err(format!("the gpu algorithm: {NO_OPENCL}"))
    }
}

impl NamedGame for Chess {
    type Eval = ChessEval;
    const GAME: GameName = GameName::Chess;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Seven plies: well under a second from a middlegame.
    fn default_depth(&self) -> i32 {
        7
    }

    /// The published perft tables' convention: a mate or stalemate before
    /// the last ply adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::chess::perft(self, depth)
    }
}

impl NamedGame for Xiangqi {
    type Eval = XiangqiEval;
    const GAME: GameName = GameName::Xiangqi;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Eight plies: a fifth of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        8
    }

    /// The published perft tables' convention: a mate before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::xiangqi::perft(self, depth)
    }
}

impl NamedGame for Draughts {
    type Eval = DraughtsEval;
    const GAME: GameName = GameName::Draughts;
    const DEFAULT_POSITION: &'static str = "start";

    /// Twelve plies: a fraction of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        12
    }

    /// The published perft tables' convention: each capture once however
    /// many routes reach it, and a side with no move before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::draughts::perft(self, depth)
    }
}

impl NamedGame for Synthetic {
    type Eval = SyntheticEval;
    const GAME: GameName = GameName::Synthetic;
    const DEFAULT_POSITION: &'static str = "b=6,d=8,seed=1";
    const FINAL_SCORE_MEANING: &'static str = "the value of the leaf the game ends in";

    /// The whole tree below the position: its true value, the point of the game.
    fn default_depth(&self) -> i32 {
        (self.spec().depth as i32 - self.ply() as i32).max(1)
    }

    fn final_score(&self) -> Score {
        self.value()
    }
}

/// Work generic over the game, run by [`GameName::dispatch`].
pub trait GameCommand {
    /// What the work returns.
    type Output;

    /// Does the work on game `G`.
    fn run<G: NamedGame>(self) -> Self::Output;
}

impl GameName {
    /// Runs `command` on the game this names.
    pub fn dispatch<C: GameCommand>(self, command: C) -> C::Output {
        match self {
            GameName::Othello => command.run::<Othello>(),
            GameName::Synthetic => command.run::<Synthetic>(),
            GameName::Chess => command.run::<Chess>(),
            GameName::Draughts => command.run::<Draughts>(),
            GameName::Xiangqi => command.run::<Xiangqi>(),
        }
    }
}
