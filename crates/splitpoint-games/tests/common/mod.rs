//! Helpers shared by the integration tests: seeded positions of each game,
//! a small random generator and damaged position texts; the checks of the
//! games' rules and texts (`rules`) and of the search (`search`).
#![allow(dead_code)] // each test file uses its own subset

mod rules;
mod search;
#[allow(unused_imports)] // as above: not every test file uses each
pub use {rules::*, search::*};

use splitpoint::Game;
use splitpoint_games::othello::Othello;
use splitpoint_games::synthetic::Synthetic;

/// The synthetic tree of a spec such as `b=5,d=6,seed=1`.
pub fn tree(spec: &str) -> Synthetic {
    Synthetic::parse_position(spec).unwrap()
}

/// `pos` after up to `plies` moves, each the `pick(n)`-th of the `n` legal
/// ones; fewer if the game ends.
pub fn random_line<G: Game>(pos: &G, plies: usize, mut pick: impl FnMut(usize) -> usize) -> G {
    let mut pos = pos.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[pick(moves.len())]);
    }
    pos
}

/// An Othello position after `plies` seeded random moves from the start.
pub fn random_othello(seed: u64, plies: usize) -> Othello {
    // Xorshift64: the positions the tests were written against.
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    random_line(&Othello::start(), plies, |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    })
}

/// A small deterministic generator (xorshift64*), so the tests need no crate.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n as u64) as usize
    }
}

/// `text` with one to three random edits (a character of `alphabet`
/// replaced, removed or inserted), for checking that parsers refuse damaged
/// input or read it as something usable, never panic.
pub fn damage(text: &str, alphabet: &[u8], rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(bytes.len());
        let c = alphabet[rng.below(alphabet.len())];
        match rng.below(3) {
            0 => bytes[i] = c,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, c),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A position from its text (panics naming the text).
pub fn parse<G: Game>(text: &str) -> G {
    G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays space-separated moves, in the game's notation, from `pos`.
pub fn play_line<G: Game>(pos: &G, moves: &str) -> G {
    moves.split_whitespace().fold(pos.clone(), |p, m| {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv)
    })
}
