//! Any text read as an Othello position: never a panic, and what reads keeps
//! every promise of `splitpoint_fuzz::check_position` (the text form reads
//! back the same; every legal move's text reads back as that move; both
//! evaluators keep their promises). With few empties, the exact evaluator's
//! leaf solver agrees with plain negamax to the end, in any window.
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint::{Evaluator, Game, INFINITY, Score};
use splitpoint_fuzz::{MAX_TEXT, check_position, text};
use splitpoint_games::othello::{Othello, OthelloEval, OthelloExact};

/// Brute force to the end is cheap up to this many empties.
const SOLVED_EMPTIES: u32 = 6;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data, MAX_TEXT) else {
        return;
    };
    let Some(pos) = check_position::<Othello>(text, &[&OthelloEval, &OthelloExact]) else {
        return;
    };
    let empties = pos.empty_count();
    if empties > SOLVED_EMPTIES || pos.outcome().is_some() {
        return;
    }
    let truth = brute_force(&pos);
    let depth = 2 * empties as i32;
    for (alpha, beta) in [
        (-INFINITY, INFINITY),
        (truth - 1, truth + 1),
        (truth - 1, truth),
        (truth, truth + 1),
        (truth + 2, truth + 9),
        (truth - 9, truth - 2),
    ] {
        let mut nodes = 0;
        let score = OthelloExact
            .solve_leaf(&pos, alpha, beta, depth, 3, &mut nodes)
            .unwrap_or_else(|| panic!("{text:?}: not solved with {empties} empties"));
        // Exact inside the window, a bound on the right side outside it.
        let right = if truth <= alpha {
            truth <= score && score <= alpha
        } else if truth >= beta {
            beta <= score && score <= truth
        } else {
            score == truth
        };
        assert!(
            right,
            "{text:?}: solved as {score} in ({alpha}, {beta}), truth {truth}"
        );
    }
});

/// Plain negamax to the end of the game, scored as the exact evaluator scores.
fn brute_force(pos: &Othello) -> Score {
    if let Some(outcome) = pos.outcome() {
        return OthelloExact.terminal_score(pos, outcome, 0);
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| -brute_force(&pos.play(mv)))
        .max()
        .unwrap_or_else(|| unreachable!("a game not over has a move"))
}
