//! A game chooses its move-list capacity: a position with more than 256
//! moves (Go has 362, Amazons thousands) is searched exactly by every
//! algorithm at every thread count, with a larger fixed list and with a `Vec`.

mod common;

use std::marker::PhantomData;

use common::{assert_every_algorithm_exact, with_negamax};
use splitpoint::{Evaluator, Game, MAX_MOVES, MoveBuffer, MoveList, Outcome, Score};

/// The root has `ROOT_MOVES` moves, every other node three; leaves score by
/// the hash of their path. `B` is where the moves are generated.
#[derive(Clone, Debug)]
struct Wide<B> {
    ply: u8,
    path: u64,
    buffer: PhantomData<fn() -> B>,
}

const ROOT_MOVES: u16 = 300;

impl<B> Wide<B> {
    fn root() -> Self {
        Wide {
            ply: 0,
            path: 0x2545_f491_4f6c_dd1d,
            buffer: PhantomData,
        }
    }
}

impl<B: MoveBuffer<u16> + 'static> Game for Wide<B> {
    type Move = u16;
    type Moves = B;

    fn generate_moves(&self, moves: &mut B) {
        let count = if self.ply == 0 { ROOT_MOVES } else { 3 };
        moves.extend(0..count);
    }

    fn play(&self, mv: u16) -> Self {
        let path = (self.path ^ u64::from(mv)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Wide {
            ply: self.ply + 1,
            path: path ^ (path >> 29),
            buffer: PhantomData,
        }
    }

    fn hash(&self) -> u64 {
        self.path
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn move_key(mv: u16) -> u16 {
        mv
    }
}

#[derive(Clone, Debug)]
struct PathScore;

impl<B: MoveBuffer<u16> + 'static> Evaluator<Wide<B>> for PathScore {
    fn evaluate(&self, pos: &Wide<B>) -> Score {
        (pos.path % 201) as Score - 100
    }
}

fn check_every_algorithm<B: MoveBuffer<u16> + 'static>() {
    let root = Wide::<B>::root();
    assert!(root.legal_moves().len() > MAX_MOVES);
    let cases = with_negamax(&PathScore, [(root.clone(), 1), (root, 3)]);
    assert_every_algorithm_exact(&PathScore, &cases);
}

#[test]
fn more_moves_than_the_default_list_holds_in_a_larger_list() {
    check_every_algorithm::<MoveList<u16, 512>>();
}

#[test]
fn more_moves_than_the_default_list_holds_in_a_vec() {
    check_every_algorithm::<Vec<u16>>();
}
