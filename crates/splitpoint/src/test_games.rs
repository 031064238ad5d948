//! Games for the crate's unit tests.

use crate::game::{Evaluator, Game, MoveList, Outcome};
use crate::score::Score;

/// Nim: take one, two or three stones; whoever cannot move loses.
#[derive(Clone, Debug)]
pub(crate) struct Nim(pub u8);

impl Game for Nim {
    type Move = u8;
    type Moves = MoveList<u8>;
    fn generate_moves(&self, moves: &mut MoveList<u8>) {
        for take in 1..=self.0.min(3) {
            moves.push(take);
        }
    }
    fn play(&self, take: u8) -> Self {
        Nim(self.0 - take)
    }
    fn hash(&self) -> u64 {
        (self.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.0 == 0).then_some(Outcome::Loss)
    }
    fn move_key(take: u8) -> u16 {
        take as u16
    }
    // No text forms: the defaults serve.
}

/// Scores every position 0.
pub(crate) struct Even;

impl Evaluator<Nim> for Even {
    fn evaluate(&self, _: &Nim) -> Score {
        0
    }
}
