//! Helpers shared by the integration tests: seeded positions of each game.
#![allow(dead_code)] // each test file uses its own subset

use splitpoint::{Game, MoveList};
use splitpoint_games::othello::Othello;
use splitpoint_games::synthetic::Synthetic;

/// The synthetic tree of a spec such as `b=5,d=6,seed=1`.
pub fn tree(spec: &str) -> Synthetic {
    Synthetic::parse_position(spec).unwrap()
}

/// An Othello position after `plies` seeded random moves from the start.
pub fn random_othello(seed: u64, plies: usize) -> Othello {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut pos = Othello::start();
    for _ in 0..plies {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pos = pos.play(moves[(state % moves.len() as u64) as usize]);
    }
    pos
}
