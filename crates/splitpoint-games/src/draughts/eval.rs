//! The evaluator: material, advancement, centre, back-row guards, wing
//! balance and free paths to the crown, tapered from the middlegame (many
//! men) to the endgame; quiescence over captures and promotions.

use splitpoint::{Evaluator, Game, MoveList, Score};

use super::board::{Bits, bit_of, column_of, row, row_of};
use super::position::{Draughts, Move};

/// A man is 100; a king, which flies and cannot be stopped by men, about three.
const MAN: i32 = 100;
const KING: i32 = 300;

/// A king on the long diagonal (46-5), which cuts the board in two.
const LONG_DIAGONAL_BONUS: i32 = 15;

/// Imbalance between the left and right wings' men, per man, middlegame only.
const WING_IMBALANCE: i32 = 3;

/// A man whose way to the crown no enemy piece can bar, per row advanced,
/// when the enemy has no king to catch it.
const FREE_PATH_PER_ROW: i32 = 12;

/// Men on the board at the start: the middlegame end of the taper.
const MAX_PHASE: i32 = 40;

/// A man's positional value on the square at `row_own` rows from its own
/// back row and in `column`, middlegame then endgame.
const fn man_square_value(row_own: u32, column: u32) -> (i32, i32) {
    // Advancement ("tempo"): in the middlegame a little (an advanced man is
    // strong but overextended), in the endgame a lot (the race to the crown).
    const ADVANCE_MG: [i32; 10] = [0, 1, 2, 4, 6, 8, 10, 12, 15, 0];
    const ADVANCE_EG: [i32; 10] = [0, 4, 8, 13, 19, 26, 34, 44, 56, 0];
    // The centre files hold the game together; the edges are passive.
    const CENTRE: [i32; 10] = [-4, 0, 3, 6, 9, 9, 6, 3, 0, -4];
    let mut mg = ADVANCE_MG[row_own as usize];
    if row_own >= 2 && row_own <= 6 {
        mg += CENTRE[column as usize];
    }
    // Back-row guards (squares 47, 48, 49 for White) hold off breakthroughs.
    if row_own == 0 {
        mg += if column >= 2 && column <= 6 { 10 } else { 3 };
    }
    (mg, ADVANCE_EG[row_own as usize])
}

/// White men's positional values by bit, middlegame then endgame; Black's
/// read the table turned round (bit of square 51 - n).
static MAN_TABLE: [(i16, i16); 54] = make_man_table();

const fn make_man_table() -> [(i16, i16); 54] {
    let mut table = [(0, 0); 54];
    let mut n = 1;
    while n <= 50 {
        let bit = bit_of(n);
        let (mg, eg) = man_square_value(9 - row_of(bit), column_of(bit));
        table[bit as usize] = (mg as i16, eg as i16);
        n += 1;
    }
    table
}

/// The bit of the square a board turned round puts in place of `bit`.
static MIRROR: [u8; 54] = make_mirror();

const fn make_mirror() -> [u8; 54] {
    let mut mirror = [0; 54];
    let mut n = 1;
    while n <= 50 {
        mirror[bit_of(n) as usize] = bit_of(51 - n) as u8;
        n += 1;
    }
    mirror
}

/// The long diagonal, 46 to 5.
const LONG_DIAGONAL: u64 = {
    let squares = [46, 41, 37, 32, 28, 23, 19, 14, 10, 5];
    let mut b = 0u64;
    let mut i = 0;
    while i < squares.len() {
        b |= 1 << bit_of(squares[i]);
        i += 1;
    }
    b
};

/// The left half of the board (columns 0-4), for wing balance.
const LEFT: u64 = {
    let mut b = 0u64;
    let mut n = 1;
    while n <= 50 {
        if column_of(bit_of(n)) < 5 {
            b |= 1 << bit_of(n);
        }
        n += 1;
    }
    b
};

/// `CONES[colour][bit]`: the squares ahead of a man of that colour (0 White,
/// 1 Black) within one column per row of its file: an enemy piece anywhere
/// else can never stand in its way.
static CONES: [[u64; 54]; 2] = make_cones();

const fn make_cones() -> [[u64; 54]; 2] {
    let mut cones = [[0; 54]; 2];
    let mut n = 1;
    while n <= 50 {
        let bit = bit_of(n);
        let (r, c) = (row_of(bit) as i32, column_of(bit) as i32);
        let mut m = 1;
        while m <= 50 {
            let other = bit_of(m);
            let (r2, c2) = (row_of(other) as i32, column_of(other) as i32);
            let dc = if c2 > c { c2 - c } else { c - c2 };
            if r2 < r && dc <= r - r2 {
                cones[0][bit as usize] |= 1 << other;
            }
            if r2 > r && dc <= r2 - r {
                cones[1][bit as usize] |= 1 << other;
            }
            m += 1;
        }
        n += 1;
    }
    cones
}

/// The static score of `pos` from the side to move's view, in hundredths of
/// a man. Whatever the position, it stays within ±16000.
pub fn evaluate(pos: &Draughts) -> Score {
    let kings = pos.kings();
    let (white, black) = (pos.white(), pos.black());
    let men_count = ((white | black) & !kings).count_ones() as i32;
    let phase = men_count.min(MAX_PHASE);
    let (mut mg, mut eg) = (0, 0);
    for (colour, us, them) in [(0, white, black), (1, black, white)] {
        let sign = if colour == 0 { 1 } else { -1 };
        let men = us & !kings;
        let our_kings = us & kings;
        let their_kings = them & kings;
        let material = MAN * men.count_ones() as i32 + KING * our_kings.count_ones() as i32;
        let (mut side_mg, mut side_eg) = (material, material);
        for bit in Bits(men) {
            let i = if colour == 0 {
                bit
            } else {
                MIRROR[bit as usize] as u32
            };
            let (m, e) = MAN_TABLE[i as usize];
            side_mg += m as i32;
            side_eg += e as i32;
            if their_kings == 0 && CONES[colour][bit as usize] & them == 0 {
                let rows = if colour == 0 {
                    9 - row_of(bit)
                } else {
                    row_of(bit)
                };
                side_eg += FREE_PATH_PER_ROW * rows as i32;
                side_mg += FREE_PATH_PER_ROW * rows as i32 / 2;
            }
        }
        let diagonal = LONG_DIAGONAL_BONUS * (our_kings & LONG_DIAGONAL).count_ones() as i32;
        side_mg += diagonal;
        side_eg += diagonal;
        let left = (men & LEFT).count_ones() as i32;
        let right = men.count_ones() as i32 - left;
        side_mg -= WING_IMBALANCE * (left - right).abs();
        mg += sign * side_mg;
        eg += sign * side_eg;
    }
    let white_score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if pos.white_to_move() {
        white_score
    } else {
        -white_score
    }
}

/// The evaluator for [`Draughts`]: [`evaluate`]; quiescence over every
/// capture (when one exists, all legal moves are captures) and, when there
/// is none, over the men's steps onto the last row. Both sets are finite down
/// every line: each capture takes a piece and each promotion a man.
#[derive(Clone, Copy, Debug, Default)]
pub struct DraughtsEval;

impl Evaluator<Draughts> for DraughtsEval {
    #[inline]
    fn evaluate(&self, pos: &Draughts) -> Score {
        evaluate(pos)
    }

    fn noisy_moves(&self, pos: &Draughts, moves: &mut MoveList<Move>) {
        if pos.has_capture() {
            pos.generate_moves(moves);
        } else {
            pos.promotions(moves);
        }
    }

    /// Every move but captures and promotions may be reduced.
    ///
    /// There is no null move (zugzwang is everyday play in draughts), and a
    /// compulsory capture is not treated as check: the check extension on
    /// every capture made depth-11 searches six times slower and lost a quick
    /// match (50 ms a move) to this evaluator without it.
    #[inline]
    fn is_quiet(&self, pos: &Draughts, mv: Move) -> bool {
        let promotion = if pos.white_to_move() { row(0) } else { row(9) };
        let promotes = pos.kings() & 1 << mv.from == 0 && promotion & 1 << mv.to != 0;
        !(mv.is_capture() || promotes)
    }

    /// Captures by the pieces they take (kings count three), then promotions,
    /// then men's steps towards the centre files; king moves last.
    fn order_moves(&self, pos: &Draughts, moves: &[Move], keys: &mut [i32]) {
        let kings = pos.kings();
        let promotion = if pos.white_to_move() { row(0) } else { row(9) };
        for (key, &mv) in keys.iter_mut().zip(moves) {
            let king = kings & 1 << mv.from != 0;
            let to = 1u64 << mv.to;
            *key = if mv.is_capture() {
                1000 + 100 * mv.capture_count() as i32
                    + 200 * (mv.captured & kings).count_ones() as i32
            } else if !king && to & promotion != 0 {
                900
            } else if !king {
                let c = column_of(mv.to as u32) as i32;
                10 - (2 * c - 9).abs()
            } else {
                0
            };
        }
    }
}
