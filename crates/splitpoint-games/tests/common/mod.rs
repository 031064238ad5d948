//! Helpers shared by the integration tests: seeded positions of each game,
//! a small random generator, damaged position texts.
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

/// A small deterministic generator (xorshift64*), so the tests need no crate.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
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
