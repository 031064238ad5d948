//! Board geometry, computed once at compile time: rays for rooks and cannons,
//! horse and elephant moves with the square that blocks each, palace and
//! river, and the Zobrist keys.
//!
//! Squares are numbered `rank * 9 + file`: a0 (Red's left corner) is 0, i9 is
//! 89. Red starts on ranks 0–4, Black on ranks 5–9; the river runs between
//! ranks 4 and 5.

/// Files across the board.
pub const FILES: usize = 9;
/// Ranks up the board.
pub const RANKS: usize = 10;
/// Squares on the board.
pub const SQUARES: usize = FILES * RANKS;

/// The four orthogonal directions as (file, rank) steps: up, down, right,
/// left; rays 0 and 1 are the vertical ones.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

const fn square(file: i32, rank: i32) -> u8 {
    (rank * FILES as i32 + file) as u8
}

/// Whether `sq` is in the palace of the side whose home ranks are `red`'s.
pub const fn in_palace(sq: usize, red: bool) -> bool {
    let (file, rank) = (sq % FILES, sq / FILES);
    let rank_ok = if red { rank <= 2 } else { rank >= 7 };
    file >= 3 && file <= 5 && rank_ok
}

/// Whether `sq` is on Red's side of the river (ranks 0–4).
pub const fn red_half(sq: usize) -> bool {
    sq / FILES <= 4
}

/// The squares along each orthogonal ray from each square, nearest first;
/// `RAY_LEN[sq][dir]` of them are valid.
pub static RAYS: [[[u8; 9]; 4]; SQUARES] = rays().0;
/// How many squares each ray has.
pub static RAY_LEN: [[u8; 4]; SQUARES] = rays().1;

const fn rays() -> ([[[u8; 9]; 4]; SQUARES], [[u8; 4]; SQUARES]) {
    let mut rays = [[[0u8; 9]; 4]; SQUARES];
    let mut lens = [[0u8; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut dir = 0;
        while dir < 4 {
            let (df, dr) = ORTHOGONAL[dir];
            let (mut f, mut r) = ((sq % FILES) as i32 + df, (sq / FILES) as i32 + dr);
            let mut n = 0;
            while on_board(f, r) {
                rays[sq][dir][n] = square(f, r);
                n += 1;
                f += df;
                r += dr;
            }
            lens[sq][dir] = n as u8;
            dir += 1;
        }
        sq += 1;
    }
    (rays, lens)
}

/// A step of a piece with a fixed pattern: where it lands, and the square
/// that must be empty for it (a horse's leg, an elephant's eye; unused for
/// the general and advisors).
#[derive(Clone, Copy)]
pub struct Step {
    /// The square that must be empty.
    pub block: u8,
    /// Where the piece lands (or, in [`HORSE_ATTACKERS`], where the horse stands).
    pub sq: u8,
}

/// A list of up to eight steps, padded.
#[derive(Clone, Copy)]
pub struct Steps {
    /// `steps[..len]` are valid.
    pub steps: [Step; 8],
    /// How many.
    pub len: u8,
}

impl Steps {
    const EMPTY: Steps = Steps {
        steps: [Step { block: 0, sq: 0 }; 8],
        len: 0,
    };

    const fn push(mut self, block: u8, sq: u8) -> Steps {
        self.steps[self.len as usize] = Step { block, sq };
        self.len += 1;
        self
    }

    /// The valid steps.
    #[inline]
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// The horse's eight moves: two squares one way then one across, blocked by
/// a piece on the first square straight ahead (the leg).
const HORSE_JUMPS: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

/// Horse moves from each square, with their legs.
pub static HORSE: [Steps; SQUARES] = horse().0;
/// The squares a horse attacks each square from, with the leg of that horse.
pub static HORSE_ATTACKERS: [Steps; SQUARES] = horse().1;

const fn horse() -> ([Steps; SQUARES], [Steps; SQUARES]) {
    let mut moves = [Steps::EMPTY; SQUARES];
    let mut attackers = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % FILES) as i32, (sq / FILES) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[i];
            if on_board(f + df, r + dr) {
                let (leg, to) = (square(f + lf, r + lr), square(f + df, r + dr));
                moves[sq] = moves[sq].push(leg, to);
                attackers[to as usize] = attackers[to as usize].push(leg, sq as u8);
            }
            i += 1;
        }
        sq += 1;
    }
    (moves, attackers)
}

/// Elephant moves from each square: two squares diagonally, blocked by a
/// piece on the point between (the eye), never across the river.
pub static ELEPHANT: [Steps; SQUARES] = elephant();

const fn elephant() -> [Steps; SQUARES] {
    let mut moves = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % FILES) as i32, (sq / FILES) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = [(2, 2), (2, -2), (-2, 2), (-2, -2)][i];
            if on_board(f + df, r + dr) {
                let to = square(f + df, r + dr);
                if red_half(to as usize) == red_half(sq) {
                    moves[sq] = moves[sq].push(square(f + df / 2, r + dr / 2), to);
                }
            }
            i += 1;
        }
        sq += 1;
    }
    moves
}

/// The advisor's one-point diagonal steps inside its palace.
pub static ADVISOR: [Steps; SQUARES] = palace_steps(true);
/// The general's one-point orthogonal steps inside its palace.
pub static GENERAL: [Steps; SQUARES] = palace_steps(false);

/// One-point steps that stay inside the palace: diagonal (the advisor's) or
/// orthogonal (the general's).
const fn palace_steps(diagonal: bool) -> [Steps; SQUARES] {
    let mut moves = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % FILES) as i32, (sq / FILES) as i32);
        let red = red_half(sq);
        if in_palace(sq, red) {
            let mut i = 0;
            while i < 4 {
                let (df, dr) = if diagonal {
                    [(1, 1), (1, -1), (-1, 1), (-1, -1)][i]
                } else {
                    ORTHOGONAL[i]
                };
                if on_board(f + df, r + dr) && in_palace(square(f + df, r + dr) as usize, red) {
                    moves[sq] = moves[sq].push(0, square(f + df, r + dr));
                }
                i += 1;
            }
        }
        sq += 1;
    }
    moves
}

/// Zobrist keys: `ZOBRIST[piece code][square]` (codes 1–15, see `Piece`),
/// from a fixed SplitMix64 stream so hashes are the same on every run.
pub static ZOBRIST: [[u64; SQUARES]; 16] = zobrist().0;
/// Toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = zobrist().1;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn zobrist() -> ([[u64; SQUARES]; 16], u64) {
    let mut keys = [[0u64; SQUARES]; 16];
    let mut state = 0x5851_f42d_4c95_7f2d;
    let mut piece = 1;
    while piece < 16 {
        let mut sq = 0;
        while sq < SQUARES {
            keys[piece][sq] = splitmix(&mut state);
            sq += 1;
        }
        piece += 1;
    }
    (keys, splitmix(&mut state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        // A corner rook sees nine squares up and eight across.
        assert_eq!(RAY_LEN[0], [9, 0, 8, 0]);
        // A horse in the middle has eight jumps, in a corner two.
        assert_eq!(HORSE[40].len, 8);
        assert_eq!(HORSE[0].len, 2);
        // Elephants on their seven points; c4 cannot cross to the other side.
        assert_eq!(ELEPHANT[2 + 4 * FILES].len, 2);
        assert_eq!(ELEPHANT[4 + 2 * FILES].len, 4);
        // The palace: the centre point has four orthogonal and four diagonal steps.
        assert_eq!((GENERAL[13].len, ADVISOR[13].len), (4, 4));
        assert_eq!((GENERAL[3].len, ADVISOR[3].len), (2, 1));
        assert_eq!((GENERAL[76].len, ADVISOR[76].len), (4, 4));
        assert_eq!(GENERAL[40].len, 0);
    }
}
