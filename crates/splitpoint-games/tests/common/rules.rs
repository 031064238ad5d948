//! Checks of the board games' rules and texts that chess, draughts and
//! xiangqi share: refused and damaged texts, move keys, move ordering and
//! the repetition rule.

use std::collections::HashMap;
use std::fmt::Debug;

use splitpoint::{Evaluator, Game, Outcome, Score, WIN};

use super::{Rng, damage, parse, play_line, random_line};

/// The position of `text`, whose own text is `text` again and reads back to
/// the same hash.
#[track_caller]
pub fn assert_text_round_trips<G: Game>(text: &str) -> G {
    let pos: G = parse(text);
    assert_eq!(pos.position_text(), text);
    assert_eq!(
        parse::<G>(&pos.position_text()).hash(),
        pos.hash(),
        "{text}"
    );
    pos
}

/// Positions along seeded random lines from `start` (their histories
/// included) cross as bytes ([`Game::to_bytes`], as PV splitting sends them
/// to other processes) and come back equal, with the same hash and moves;
/// every cut-short message is refused or read, never a panic.
#[track_caller]
pub fn assert_bytes_round_trip<G: Game + PartialEq + Debug>(start: &G, lines: u64, plies: usize) {
    for seed in 0..lines {
        let mut rng = Rng(seed + 1);
        let pos = random_line(start, (seed as usize * 7) % (plies + 1), |n| rng.below(n));
        let mut bytes = Vec::new();
        pos.to_bytes(&mut bytes);
        let back = G::from_bytes(&bytes).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
        assert_eq!(back, pos);
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.outcome(), pos.outcome());
        assert_eq!(back.legal_moves()[..], pos.legal_moves()[..]);
        for cut in 0..bytes.len() {
            let _ = G::from_bytes(&bytes[..cut]);
        }
    }
}

/// Asserts that the game of `pos` is over, with `outcome` for the side to
/// move, and that no move is left.
#[track_caller]
pub fn assert_game_over<G: Game + Debug>(pos: &G, outcome: Outcome) {
    assert_eq!(pos.outcome(), Some(outcome), "{pos:?}");
    assert!(pos.legal_moves().is_empty(), "{pos:?}");
}

/// Asserts that `eval` scores the lost `pos`, `ply` plies from the root, as
/// a loss that far away: -WIN + ply (sooner is worse).
#[track_caller]
pub fn assert_scored_as_lost<G: Game, E: Evaluator<G>>(eval: &E, pos: &G, ply: usize) {
    let score = eval.terminal_score(pos, Outcome::Loss, ply);
    assert_eq!(score, -WIN + ply as Score);
}

/// Asserts that no text of `texts` reads as a position.
#[track_caller]
pub fn assert_positions_refused<G: Game>(texts: &[&str]) {
    for text in texts {
        assert!(
            G::parse_position(text).is_err(),
            "{text:?} should not parse"
        );
    }
}

/// Asserts that no text of `texts` reads as a move of `pos`.
#[track_caller]
pub fn assert_moves_refused<G: Game>(pos: &G, texts: &[&str]) {
    for text in texts {
        let result = pos.parse_move(text);
        assert!(
            result.is_err(),
            "{text:?} should not be a move, got {result:?}"
        );
    }
}

/// Damages each of `bases` 3000 times (see [`damage`]): each text is either
/// refused or read as a position that `exercise` works on and whose own text
/// reads back to the same hash; never a panic. More than 100 must read.
pub fn assert_damaged_positions_refused_or_usable<G: Game>(
    bases: &[&str],
    alphabet: &[u8],
    exercise: impl Fn(&G),
) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut usable = 0;
    for base in bases {
        for _ in 0..3000 {
            let text = damage(base, alphabet, &mut rng);
            let Ok(pos) = G::parse_position(&text) else {
                continue;
            };
            usable += 1;
            exercise(&pos);
            assert_eq!(parse::<G>(&pos.position_text()).hash(), pos.hash());
        }
    }
    assert!(usable > 100, "only {usable} damaged positions read");
}

/// Asks `pos`, and each position its legal moves lead to, for the outcome
/// and the evaluation, as a search would (for texts that may be odd: none
/// may panic).
pub fn evaluate_with_children<G: Game, E: Evaluator<G>>(pos: &G, eval: &E) {
    let _ = (pos.outcome(), eval.evaluate(pos));
    for &mv in pos.legal_moves().iter() {
        let child = pos.play(mv);
        let _ = (child.outcome(), eval.evaluate(&child));
    }
}

/// Asserts that the legal moves of `pos` have distinct keys.
#[track_caller]
pub fn assert_move_keys_distinct<G: Game + Debug>(pos: &G) {
    let moves = pos.legal_moves();
    let mut keys: Vec<u16> = moves.iter().map(|&m| G::move_key(m)).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), moves.len(), "{pos:?}");
}

/// The ordering key `eval` gives each legal move of `pos`, by the move's text.
pub fn ordering_keys<G: Game, E: Evaluator<G>>(eval: &E, pos: &G) -> HashMap<String, i32> {
    let moves = pos.legal_moves();
    let mut keys = vec![0; moves.len()];
    eval.order_moves(pos, &moves, &mut keys);
    moves.iter().map(|&m| pos.move_text(m)).zip(keys).collect()
}

/// The game history of the games with a repetition rule (each has these
/// methods as its own).
pub trait History: Game + Debug {
    fn make_root(&mut self);
    fn history_len(&self) -> usize;
    fn is_repetition(&self) -> bool;
}

#[cfg(any(feature = "chess", feature = "draughts"))]
macro_rules! history {
    ($game:ty) => {
        impl History for $game {
            fn make_root(&mut self) {
                <$game>::make_root(self)
            }
            fn history_len(&self) -> usize {
                <$game>::history_len(self)
            }
            fn is_repetition(&self) -> bool {
                <$game>::is_repetition(self)
            }
        }
    };
}

#[cfg(feature = "chess")]
history!(splitpoint_games::chess::Chess);
#[cfg(feature = "draughts")]
history!(splitpoint_games::draughts::Draughts);

/// The repetition rule on `dance`, reversible moves from `start` back to it,
/// for a game that remembers `len` positions. Back at the start within the
/// search line is a draw (a move short of it is not). As game history, one
/// earlier occurrence is no draw at the root, but coming back inside the
/// search is, and two are. A long dance keeps the last `len` positions only.
/// Returns the position after the dance.
#[track_caller]
pub fn assert_repetition_rule<G: History>(start: &G, dance: &str, len: usize) -> G {
    let back = play_line(start, dance);
    assert_eq!(back.hash(), start.hash());
    assert!(back.is_repetition());
    assert_eq!(back.outcome(), Some(Outcome::Draw));
    let moves: Vec<&str> = dance.split_whitespace().collect();
    let short = moves[..moves.len() - 1].join(" ");
    assert!(!play_line(start, &short).is_repetition(), "{short}");

    let mut root = back.clone();
    root.make_root();
    assert_eq!(root.outcome(), None);
    assert_eq!(play_line(&root, dance).outcome(), Some(Outcome::Draw));
    let mut threefold = play_line(start, &format!("{dance} {dance}"));
    threefold.make_root();
    assert_eq!(threefold.outcome(), Some(Outcome::Draw));

    let long = play_line(start, &[dance; 10].join(" "));
    assert_eq!(long.history_len(), len);
    assert!(long.is_repetition());
    back
}
