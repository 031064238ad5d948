//! Helpers shared by the integration tests: seeded positions of each game,
//! a small random generator, damaged position texts, and the exactness
//! checks every game runs (against negamax, and for every algorithm).
#![allow(dead_code)] // each test file uses its own subset

use splitpoint::oracle::negamax;
use std::time::{Duration, Instant};

use splitpoint::{
    Algorithm, Engine, Evaluator, Game, Limits, MoveList, Score, SearchResult, StopHandle,
    from_table,
};
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

/// A position from its text (panics naming the text).
pub fn parse<G: Game>(text: &str) -> G {
    G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of `pos`.
pub fn legal<G: Game>(pos: &G) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
}

/// Plays space-separated moves, in the game's notation, from `pos`.
pub fn play_line<G: Game>(pos: &G, moves: &str) -> G {
    moves.split_whitespace().fold(pos.clone(), |p, m| {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv)
    })
}

/// Exact-mode search scores each (position, depth) as negamax does; with
/// `check_best_move`, the best move's child scores the same (its mate
/// scores count plies from the child). `tag` names the evaluator.
pub fn assert_exact_equals_negamax<G: Game + std::fmt::Debug, E: Evaluator<G> + Clone>(
    eval: &E,
    cases: &[(&G, i32)],
    check_best_move: bool,
    tag: &str,
) {
    let mut engine = Engine::new(eval.clone(), 4);
    for &(pos, depth) in cases {
        let expected = negamax(pos, eval, depth);
        engine.clear();
        let r = engine.search(pos, &Limits::to_depth(depth).exact());
        let tag = format!("{pos:?} depth {depth}{tag}");
        assert_eq!(r.score, expected, "{tag}");
        if let (true, Some(mv)) = (check_best_move, r.best_move) {
            let child = -negamax(&pos.play(mv), eval, depth - 1);
            assert_eq!(from_table(child, 1), expected, "{tag}: best move");
        }
    }
}

/// Every algorithm at 1, 2, 3, 4 and 8 threads scores each (position,
/// depth, serial score) in exact mode as the serial search does, to the
/// full depth.
pub fn assert_every_algorithm_exact<G: Game + std::fmt::Debug, E: Evaluator<G> + Clone>(
    eval: &E,
    cases: &[(G, i32, Score)],
) {
    for algorithm in Algorithm::ALL {
        for threads in [1, 2, 3, 4, 8] {
            let mut engine = Engine::new(eval.clone(), 4);
            engine.set_parallelism(algorithm, threads);
            for (pos, depth, score) in cases {
                engine.clear();
                let r = engine.search(pos, &Limits::to_depth(*depth).exact());
                assert_eq!(r.score, *score, "{algorithm} × {threads} on {pos:?}");
                assert_eq!(r.depth, *depth);
            }
        }
    }
}

/// Asserts that `r`, an exact search of `pos` to `depth`, scores `expected`
/// (negamax's), and that its best move's child scores the same.
#[track_caller]
pub fn assert_exact_result<G: Game, E: Evaluator<G>>(
    r: &SearchResult<G::Move>,
    pos: &G,
    eval: &E,
    depth: i32,
    expected: Score,
    tag: &str,
) {
    assert_eq!(r.score, expected, "{tag}: score");
    let mv = r.best_move.expect("a move");
    assert_eq!(
        -negamax(&pos.play(mv), eval, depth - 1),
        expected,
        "{tag}: best move"
    );
}

/// Runs `search` while another thread raises `stop` after `after`; returns
/// what it returned and the time from the stop to its return.
pub fn stopped_after<R>(
    stop: StopHandle,
    after: Duration,
    search: impl FnOnce() -> R,
) -> (R, Duration) {
    std::thread::scope(|s| {
        let stopper = s.spawn(move || {
            std::thread::sleep(after);
            stop.stop();
            Instant::now()
        });
        let result = search();
        let stopped_at = stopper.join().unwrap();
        (result, stopped_at.elapsed())
    })
}
