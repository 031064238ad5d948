//! The games the command line knows, and what it needs to know about each.
//!
//! Commands are written once, generic over [`CliGame`]; [`dispatch`] picks
//! the type from a [`GameName`] (the laboratory's list of games). Adding a
//! game is a variant of `GameName`, one arm in `dispatch` and an `impl
//! CliGame`.

use splitpoint::{Evaluator, Game, MoveList};
pub use splitpoint_bench::suite::GameName;
use splitpoint_games::chess::{Chess, ChessEval};
use splitpoint_games::draughts::{Draughts, DraughtsEval};
use splitpoint_games::othello::{Othello, OthelloEval};
use splitpoint_games::synthetic::{Synthetic, SyntheticEval};
use splitpoint_games::xiangqi::{Xiangqi, XiangqiEval};

use crate::error::{Error, Result};

/// What the command line needs to know about a game beyond its rules.
pub trait CliGame: Game {
    /// The evaluator `search` uses.
    type Eval: Evaluator<Self> + Default;

    /// The position searched when no `--position` is given.
    const DEFAULT_POSITION: &'static str;

    /// The search depth when neither `--depth` nor `--movetime` is given.
    fn default_depth(&self) -> i32;

    /// Leaf positions `depth` plies below, counted by the game's own perft
    /// convention. The default, [`splitpoint::perft`], counts a game that ends
    /// early as one leaf (Othello's convention, where passes are plies).
    fn perft(&self, depth: u32) -> u64 {
        splitpoint::perft(self, depth)
    }
}

impl CliGame for Othello {
    type Eval = OthelloEval;
    const DEFAULT_POSITION: &'static str = "start";

    /// Eight plies: a fraction of a second, a reasonable move.
    fn default_depth(&self) -> i32 {
        8
    }
}

impl CliGame for Chess {
    type Eval = ChessEval;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Seven plies: well under a second from a middlegame.
    fn default_depth(&self) -> i32 {
        7
    }

    /// The published perft tables' convention: a mate or stalemate before
    /// the last ply adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        splitpoint_games::chess::perft(self, depth)
    }
}

impl CliGame for Xiangqi {
    type Eval = XiangqiEval;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Eight plies: a fifth of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        8
    }

    /// The published perft tables' convention: a mate before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        splitpoint_games::xiangqi::perft(self, depth)
    }
}

impl CliGame for Draughts {
    type Eval = DraughtsEval;
    const DEFAULT_POSITION: &'static str = "start";

    /// Twelve plies: a fraction of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        12
    }

    /// The published perft tables' convention: each capture once however
    /// many routes reach it, and a side with no move before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        splitpoint_games::draughts::perft(self, depth)
    }
}

impl CliGame for Synthetic {
    type Eval = SyntheticEval;
    const DEFAULT_POSITION: &'static str = "b=6,d=8,seed=1";

    /// The whole tree below the position: its true value, the point of the game.
    fn default_depth(&self) -> i32 {
        (self.spec().depth as i32 - self.ply() as i32).max(1)
    }
}

/// A command generic over the game, run by [`dispatch`].
pub trait GameCommand {
    /// What the command returns.
    type Output;

    /// Runs the command on game `G`.
    fn run<G: CliGame>(self) -> Self::Output;
}

/// Runs `command` on the game `game` names.
pub fn dispatch<C: GameCommand>(game: GameName, command: C) -> C::Output {
    match game {
        GameName::Othello => command.run::<Othello>(),
        GameName::Synthetic => command.run::<Synthetic>(),
        GameName::Chess => command.run::<Chess>(),
        GameName::Draughts => command.run::<Draughts>(),
        GameName::Xiangqi => command.run::<Xiangqi>(),
    }
}

/// The game a command-line argument names.
pub fn parse_game(text: &str) -> Result<GameName> {
    text.parse().map_err(Error::input)
}

/// The position `--position` names (or the game's default), after the
/// `--moves` (space- or comma-separated) are played from it.
pub fn load_position<G: CliGame>(position: Option<&str>, moves: Option<&str>) -> Result<G> {
    let text = position.unwrap_or(G::DEFAULT_POSITION);
    let mut pos = G::parse_position(text).map_err(|e| Error::input(format!("--position: {e}")))?;
    let words = moves
        .unwrap_or("")
        .split([' ', ','])
        .filter(|w| !w.is_empty());
    for (n, word) in words.enumerate() {
        let mv = pos.parse_move(word).map_err(|e| {
            Error::input(format!("--moves: move {} '{word}': {}", n + 1, e.message))
        })?;
        pos = pos.play(mv);
    }
    Ok(pos)
}

/// The text of each move of `line`, played in turn from `pos`.
pub fn line_text<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut texts = Vec::with_capacity(line.len());
    for &mv in line {
        texts.push(pos.move_text(mv));
        pos = pos.play(mv);
    }
    texts
}

/// The legal moves of `pos`.
pub fn legal_moves<G: Game>(pos: &G) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
}
