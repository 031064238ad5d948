//! Plugging your own game into splitpoint: Connect Four on a 7×6 board.
//!
//! Implement [`Game`] (the rules) and [`Evaluator`] (a judgement of positions the
//! search cannot see to the end of), then hand both to an [`Engine`]; choose an
//! [`Algorithm`] and a thread count and the same search runs in parallel, with
//! the same exact score. Run it with
//! `cargo run --release -p splitpoint --example connect_four`.

use splitpoint::{
    Algorithm, Engine, Evaluator, Game, Limits, MoveList, Outcome, ParseError, Score, oracle,
};

const COLUMNS: u8 = 7;
const CELLS: usize = 42;

/// A position as two bitboards. Each column takes 7 bits, `7 * col + row`: six
/// cells and a spare one, so that no line of four wraps into the next column.
/// `ConnectFour::default()` is the empty board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnectFour {
    /// The stones of the side to move.
    mine: u64,
    /// Every stone.
    all: u64,
    /// The columns played so far, 3 bits each: the position's text form.
    history: u128,
}

/// Whether `stones` hold four in a row: shift 1 (column), 7 (row), 6 and 8 (diagonals).
fn has_four(stones: u64) -> bool {
    let four = |d: u32| stones & (stones >> d) & (stones >> (2 * d)) & (stones >> (3 * d)) != 0;
    four(1) || four(7) || four(6) || four(8)
}

impl ConnectFour {
    fn plies(&self) -> usize {
        self.all.count_ones() as usize
    }

    /// The lowest empty cell of `col`, 0 if it is full: the bottom bit carries up.
    fn drop_cell(&self, col: u8) -> u64 {
        let bottom = 1 << (7 * col);
        (self.all + bottom) & (0b11_1111 * bottom) // the column's six cells
    }
}

impl Game for ConnectFour {
    /// A column, 0..7.
    type Move = u8;
    type Moves = MoveList<u8>;

    fn generate_moves(&self, moves: &mut MoveList<u8>) {
        if self.outcome().is_none() {
            moves.extend((0..COLUMNS).filter(|&col| self.drop_cell(col) != 0));
        }
    }

    /// Copy-make: the child is a new value, so threads never share a board.
    fn play(&self, col: u8) -> Self {
        debug_assert!(self.drop_cell(col) != 0, "column {col} is full");
        let mut next = *self;
        next.history |= (col as u128) << (3 * self.plies());
        next.all |= self.drop_cell(col);
        next.mine = self.mine ^ self.all; // the opponent's stones: now to move
        next
    }

    /// The stone count fixes the side to move, so `mine + all` is unique.
    fn hash(&self) -> u64 {
        (self.mine + self.all).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn outcome(&self) -> Option<Outcome> {
        match (has_four(self.mine ^ self.all), self.plies() == CELLS) {
            (true, _) => Some(Outcome::Loss), // the side that just moved connected four
            (false, full) => full.then_some(Outcome::Draw),
        }
    }

    fn move_key(col: u8) -> u16 {
        col as u16
    }

    /// The columns played from the empty board, as digits 1..7: `4453`.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut pos = ConnectFour::default();
        for (i, c) in text.trim().chars().enumerate() {
            let col = pos.parse_move(&c.to_string());
            pos = pos.play(col.map_err(|e| ParseError::at(i, e.message))?);
        }
        Ok(pos)
    }

    fn position_text(&self) -> String {
        let col = |i: usize| (self.history >> (3 * i)) as u8 & 7;
        (0..self.plies()).map(|i| self.move_text(col(i))).collect()
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let col = text.trim().parse::<u8>().unwrap_or(0).wrapping_sub(1);
        if col < COLUMNS && self.outcome().is_none() && self.drop_cell(col) != 0 {
            Ok(col)
        } else {
            Err(ParseError::new(format!("{text:?} is no open column")))
        }
    }

    fn move_text(&self, col: u8) -> String {
        (col + 1).to_string()
    }
}

/// A simple evaluator: central stones are worth more (more lines of four pass
/// through them). Finished games keep the default scores: sooner wins are better.
pub struct Centre;

const COLUMN_WEIGHT: [Score; COLUMNS as usize] = [1, 2, 3, 5, 3, 2, 1];

impl Evaluator<ConnectFour> for Centre {
    fn evaluate(&self, pos: &ConnectFour) -> Score {
        let theirs = pos.mine ^ pos.all;
        let count = |stones: u64, c: u8| (stones >> (7 * c) & 0b11_1111).count_ones() as Score;
        let lead = |c: u8| COLUMN_WEIGHT[c as usize] * (count(pos.mine, c) - count(theirs, c));
        (0..COLUMNS).map(lead).sum()
    }

    /// Centre columns first: good moves early make alpha-beta cut more.
    fn order_moves(&self, _: &ConnectFour, moves: &[u8], keys: &mut [i32]) {
        for (key, &col) in keys.iter_mut().zip(moves) {
            *key = COLUMN_WEIGHT[col as usize];
        }
    }
}

pub fn main() {
    // Search a position, given in its text form (the columns played), 12 plies deep.
    let pos = ConnectFour::parse_position("4453").expect("a valid position");
    let mut engine = Engine::new(Centre, 16);
    let result = engine.search(&pos, &Limits::to_depth(12));
    let pv: Vec<String> = result.pv.iter().map(|&col| pos.move_text(col)).collect();
    let (score, nodes, line) = (result.score, result.stats.nodes, pv.join(" "));
    println!("position 4453: score {score}, best line {line} ({nodes} nodes)");

    // What makes the search trustworthy: in exact mode it returns the same
    // score as plain negamax over the same tree.
    for text in ["", "44", "4453", "1234567", "444444", "3344554", "1212121"] {
        let pos = ConnectFour::parse_position(text).expect("a valid position");
        let exact = engine.search(&pos, &Limits::to_depth(6).exact()).score;
        let negamax = oracle::negamax(&pos, &Centre, 6);
        assert_eq!(exact, negamax, "position {text:?}");
    }
    println!("exact search agrees with negamax");

    // What the library is for: the same search on two threads (Young
    // Brothers Wait here; any `Algorithm` works), with the same exact score.
    // The speedup is what two cores bought on this machine, now.
    let pos = ConnectFour::parse_position("44").expect("a valid position");
    let depth = 15;
    let limits = Limits::to_depth(depth).exact();
    engine.set_parallelism(Algorithm::Serial, 1);
    engine.clear();
    let serial = engine.search(&pos, &limits);
    engine.set_parallelism(Algorithm::Ybw { strong: false }, 2);
    engine.clear();
    let parallel = engine.search(&pos, &limits);
    assert_eq!(parallel.score, serial.score, "every algorithm is exact");
    let speedup = serial.elapsed.as_secs_f64() / parallel.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{depth} plies, exact: serial {:.3} s, ybw x2 {:.3} s, speedup {speedup:.2} (score {} both)",
        serial.elapsed.as_secs_f64(),
        parallel.elapsed.as_secs_f64(),
        serial.score
    );
}
