//! The games on the command line: commands are written once, generic over
//! [`NamedGame`], and run through [`GameName::dispatch`] (the games crate's
//! registry, shared with the bench and self-play); here is what they share
//! beyond it.

use splitpoint::Game;
pub use splitpoint_games::registry::GameName;
pub use splitpoint_games::registry::{GameCommand, NamedGame};

use crate::error::{Error, Result};

/// The game a command-line argument names.
pub fn parse_game(text: &str) -> Result<GameName> {
    text.parse().map_err(Error::input)
}

/// Runs `command` on the game `name` names (a command-line argument).
pub fn run_on_game<C: GameCommand<Output = Result<T>>, T>(name: &str, command: C) -> Result<T> {
    parse_game(name)?.dispatch(command)
}

/// The position `--position` names (or the game's default), after the
/// `--moves` (space- or comma-separated) are played from it.
pub fn load_position<G: NamedGame>(position: Option<&str>, moves: Option<&str>) -> Result<G> {
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
