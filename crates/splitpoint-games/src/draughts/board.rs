//! The 10×10 board as 64-bit bitboards with ghost squares.
//!
//! The 50 dark squares are numbered 1..=50 as in PDN: row by row from Black's
//! side (squares 1-5 are White's promotion row, 46-50 Black's), five to a row.
//! Square `n` lives at bit `s + s / 10` with `s = n - 1`: every pair of rows
//! takes eleven bits, and the eleventh (bits 10, 21, 32, 43) is a *ghost*
//! square that is never occupied. With that gap every diagonal step is one
//! fixed shift (−6, −5, +5, +6) and a step off the left or right edge lands on
//! a ghost square or beyond bit 53, so masking with [`SQUARES`] is the whole
//! edge check.

/// Every real square's bit (bits 0..=53 less the four ghosts).
pub const SQUARES: u64 = ((1 << 54) - 1) & !GHOSTS;

/// The ghost bits between row pairs.
const GHOSTS: u64 = (1 << 10) | (1 << 21) | (1 << 32) | (1 << 43);

/// A diagonal direction: 0 and 1 go up the board (towards square 1, White's
/// forward), 2 and 3 down (Black's forward); `3 - d` is `d` reversed.
pub type Dir = usize;

/// The four directions, in [`Dir`] order.
pub const DIRS: [Dir; 4] = [0, 1, 2, 3];

/// The squares of `b` moved one step in direction `d`, those that fall off
/// the board dropped.
#[inline(always)]
pub const fn step(b: u64, d: Dir) -> u64 {
    let moved = match d {
        0 => b >> 6,
        1 => b >> 5,
        2 => b << 5,
        _ => b << 6,
    };
    moved & SQUARES
}

/// The bit of PDN square `n` (1..=50).
#[inline]
pub const fn bit_of(n: u32) -> u32 {
    let s = n - 1;
    s + s / 10
}

/// The PDN square (1..=50) of a real square's bit.
#[inline]
pub const fn square_of(bit: u32) -> u32 {
    bit - bit / 11 + 1
}

/// The row of a bit, 0 (squares 1-5) to 9 (squares 46-50).
#[inline]
pub const fn row_of(bit: u32) -> u32 {
    (square_of(bit) - 1) / 5
}

/// The column of a bit, 0 (left, from White's side) to 9.
#[inline]
pub const fn column_of(bit: u32) -> u32 {
    let s = square_of(bit) - 1;
    let i = s % 5;
    if (s / 5) % 2 == 0 { 2 * i + 1 } else { 2 * i }
}

/// The squares of one row, 0 (squares 1-5) to 9.
pub const fn row(r: u32) -> u64 {
    let mut b = 0;
    let mut i = 0;
    while i < 5 {
        b |= 1 << bit_of(5 * r + i + 1);
        i += 1;
    }
    b
}

/// Iterates the bit indices of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// Zobrist keys: `PIECE_KEYS[kind][bit]` for kind white man, black man,
/// white king, black king; [`SIDE_KEY`] is xored in when Black is to move.
pub static PIECE_KEYS: [[u64; 54]; 4] = make_keys();

/// The key of Black to move.
pub const SIDE_KEY: u64 = splitmix(0xD1B5_4A32_D192_ED03);

/// One step of SplitMix64: a well-mixed 64-bit value from a counter.
const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn make_keys() -> [[u64; 54]; 4] {
    let mut keys = [[0; 54]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 54 {
            keys[kind][bit] =
                splitmix(((kind * 64 + bit) as u64).wrapping_mul(0x1234_5678_9abc_def1));
            bit += 1;
        }
        kind += 1;
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_bits_agree() {
        assert_eq!(SQUARES.count_ones(), 50);
        for n in 1..=50 {
            let bit = bit_of(n);
            assert_eq!(square_of(bit), n);
            assert!(SQUARES & (1 << bit) != 0);
        }
        assert_eq!((row_of(bit_of(1)), column_of(bit_of(1))), (0, 1));
        assert_eq!((row_of(bit_of(6)), column_of(bit_of(6))), (1, 0));
        assert_eq!((row_of(bit_of(50)), column_of(bit_of(50))), (9, 8));
        assert_eq!((0..10).map(|r| row(r).count_ones()).sum::<u32>(), 50);
    }

    /// Every step goes to the diagonal neighbour or off the board, never
    /// wraps round an edge.
    #[test]
    fn steps_are_diagonal_neighbours() {
        for n in 1..=50 {
            let bit = bit_of(n);
            let (r, c) = (row_of(bit) as i32, column_of(bit) as i32);
            for d in DIRS {
                let (dr, dc) = [(-1, -1), (-1, 1), (1, -1), (1, 1)][d];
                let target = step(1 << bit, d);
                let (tr, tc) = (r + dr, c + dc);
                if (0..10).contains(&tr) && (0..10).contains(&tc) {
                    let t = target.trailing_zeros();
                    assert_eq!((row_of(t) as i32, column_of(t) as i32), (tr, tc), "{n} {d}");
                } else {
                    assert_eq!(target, 0, "{n} {d}");
                }
                assert_eq!(step(target, 3 - d) & (1 << bit), target.min(1) << bit);
            }
        }
    }
}
