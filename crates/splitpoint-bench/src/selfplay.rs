//! Verification by games: two configurations play the same openings against
//! themselves and each other, in exact mode at a fixed depth; every game from
//! one opening must be identical move by move.
//!
//! This is how the GPU Othello study checked its parallel search (CPU vs CPU,
//! CPU vs GPU, GPU vs GPU, identical every time). It needs a rule that breaks
//! ties between equally scored moves the same way in every algorithm:
//!
//! **Tie rule.** Of the moves whose exact value equals the root's value, play
//! the first in the game's move-generation order. After a search returns the
//! root value `v` and some best move `m`, each move generated before `m` is
//! searched (same engine, one ply less, exact) and the first whose value is `v`
//! is played instead. The choice then depends only on the position and the
//! depth, never on timing or thread count.

use splitpoint::{Engine, Evaluator, Game, Limits, Score, WIN_BOUND};

use splitpoint_games::registry::NamedGame;

use crate::runner::Config;

/// One game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameRecord {
    /// Who moved first ("A" or "B") and who second.
    pub pairing: String,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// The final score from the first mover's view.
    pub result: Score,
}

/// The games from one opening.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OpeningReport {
    /// The opening position.
    pub opening: String,
    /// A–A, A–B, B–A, B–B.
    pub games: Vec<GameRecord>,
    /// Whether all games are the same move by move.
    pub identical: bool,
    /// The first ply where some game left the A–A game, if any.
    pub divergence: Option<usize>,
}

/// A score seen from the parent of the position it was searched in:
/// negated, and a won or lost game one ply further away.
fn parent_view(score: Score) -> Score {
    let p = -score;
    if p >= WIN_BOUND {
        p - 1
    } else if p <= -WIN_BOUND {
        p + 1
    } else {
        p
    }
}

/// The move a configuration plays at `pos` under the tie rule.
fn choose<G: Game, E: Evaluator<G>>(
    engine: &mut Engine<G, E>,
    pos: &G,
    depth: i32,
) -> Option<G::Move> {
    let limits = Limits::to_depth(depth).exact();
    let result = engine.search(pos, &limits);
    let best = result.best_move?;
    let moves = pos.legal_moves();
    let child_limits = Limits::to_depth((depth - 1).max(1)).exact();
    for &mv in moves.iter().take_while(|&&m| m != best) {
        let child = pos.play(mv);
        let value = if depth == 1 || child.outcome().is_some() {
            // No search below: the child's value is its static or final score.
            let eval = engine.evaluator();
            parent_view(match child.outcome() {
                Some(o) => eval.terminal_score(&child, o, 0),
                None => leaf_value(eval, &child),
            })
        } else {
            parent_view(engine.search(&child, &child_limits).score)
        };
        if value == result.score {
            return Some(mv);
        }
    }
    Some(best)
}

/// Quiescence-free static value of a leaf: what a depth-1 search sees below
/// the root when the evaluator has no noisy moves. With noisy moves the exact
/// value needs a search, so fall back to one.
fn leaf_value<G: Game, E: Evaluator<G>>(eval: &E, pos: &G) -> Score {
    let mut noisy = G::Moves::default();
    eval.noisy_moves(pos, &mut noisy);
    if noisy.is_empty() {
        eval.evaluate(pos)
    } else {
        splitpoint::oracle::negamax(pos, eval, 0)
    }
}

/// Plays one game from `opening`, `first` moving first.
fn play_game<G: Game, E: Evaluator<G>>(
    first: &mut Engine<G, E>,
    second: &mut Engine<G, E>,
    opening: &G,
    depth: i32,
    max_plies: usize,
    final_score: &impl Fn(&G) -> Score,
) -> GameRecord {
    let mut pos = opening.clone();
    let mut moves = Vec::new();
    let mut plies = 0;
    while pos.outcome().is_none() && plies < max_plies {
        let engine = if plies % 2 == 0 {
            &mut *first
        } else {
            &mut *second
        };
        let Some(mv) = choose(engine, &pos, depth) else {
            break;
        };
        moves.push(pos.move_text(mv));
        pos = pos.play(mv);
        plies += 1;
    }
    let last = final_score(&pos);
    let result = if plies % 2 == 0 { last } else { -last };
    GameRecord {
        pairing: String::new(),
        moves,
        result,
    }
}

/// Plays A–A, A–B, B–A and B–B from each opening (each side of a game has
/// its own engine, so no table is shared across the board), calling
/// `on_game` after each game. `final_score` scores the last position for its
/// side to move (the disc difference in Othello).
///
/// # Errors
/// A message when an engine's table cannot be allocated or its device
/// cannot be used (before any game is played).
#[allow(clippy::too_many_arguments)]
pub fn run<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    openings: &[G],
    eval: E,
    a: Config,
    b: Config,
    depth: i32,
    hash_mib: usize,
    max_plies: usize,
    final_score: impl Fn(&G) -> Score,
    mut on_game: impl FnMut(),
) -> Result<Vec<OpeningReport>, String> {
    let make = |c: Config| c.engine(eval.clone(), hash_mib, None);
    let mut engines = [make(a)?, make(a)?, make(b)?, make(b)?];
    let [a1, a2, b1, b2] = &mut engines;
    let reports = openings
        .iter()
        .map(|opening| {
            let mut games = Vec::new();
            let mut game = |label: &str, first: &mut Engine<G, E>, second: &mut Engine<G, E>| {
                let mut g = play_game(first, second, opening, depth, max_plies, &final_score);
                g.pairing = label.to_string();
                games.push(g);
                on_game();
            };
            game("A–A", a1, a2);
            game("A–B", a1, b1);
            game("B–A", b1, a1);
            game("B–B", b1, b2);
            let divergence = first_divergence(&games);
            OpeningReport {
                opening: opening.position_text(),
                identical: divergence.is_none(),
                divergence,
                games,
            }
        })
        .collect();
    Ok(reports)
}

fn first_divergence(games: &[GameRecord]) -> Option<usize> {
    let reference = &games[0].moves;
    games
        .iter()
        .filter_map(|g| {
            let same = g
                .moves
                .iter()
                .zip(reference)
                .take_while(|(x, y)| x == y)
                .count();
            (same < g.moves.len().max(reference.len())).then_some(same)
        })
        .min()
}
