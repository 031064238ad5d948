//! Stable discs: discs no sequence of moves can flip any more. A side with `s`
//! stable discs ends the game with at least `s` discs, which bounds the score
//! and lets the endgame search cut nodes it cannot win.
//!
//! The test is the usual conservative one (as in Edax): edge discs from a
//! precomputed table of every edge pattern, then inner discs that, along each
//! of the four lines through them, lie on a full line or next to a stable disc
//! of their colour, grown until nothing changes.

use std::sync::OnceLock;

/// Stable discs of the first player for every edge pattern:
/// `EDGE[player_byte * 256 + opponent_byte]`.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Box<[u8]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // A disc is stable when it is still the player's after every move on
        // the edge's empty squares, by either side: the player's discs, minus
        // those some child pattern (one empty fewer) loses. Fill the table by
        // number of empties so that children are always ready.
        let mut table = vec![0u8; 65536].into_boxed_slice();
        let mut patterns: Vec<(u8, u8)> = (0..=255u8)
            .flat_map(|p| (0..=255u8).map(move |o| (p, o)))
            .filter(|(p, o)| p & o == 0)
            .collect();
        patterns.sort_by_key(|(p, o)| (p | o).count_zeros());
        for (p, o) in patterns {
            let empties = !(p | o);
            let mut stable = p;
            for x in 0..8 {
                let bit = 1u8 << x;
                if empties & bit == 0 {
                    continue;
                }
                // A move may be legal through other lines, so flipping nothing
                // on the edge is allowed.
                let (np, no) = place(p | bit, o, x);
                stable &= table[np as usize * 256 + no as usize];
                let (no, np) = place(o | bit, p, x);
                stable &= table[np as usize * 256 + no as usize];
            }
            table[p as usize * 256 + o as usize] = stable;
        }
        table
    })
}

/// `mover` has just put a disc on `x`: flip `other`'s runs it brackets on the edge.
fn place(mut mover: u8, mut other: u8, x: u32) -> (u8, u8) {
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut y = x as i32 + step;
        while (0..8).contains(&y) && other & (1 << y) != 0 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && mover & (1 << y) != 0 {
            mover |= run;
            other &= !run;
        }
    }
    (mover, other)
}

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
/// Gathers the a-file (bit 8k) into a byte (bit k); the products never collide.
const GATHER: u64 = 0x0102_0408_1020_4080;

#[inline]
fn file_to_byte(discs: u64) -> usize {
    ((discs & A_FILE).wrapping_mul(GATHER) >> 56) as usize
}

/// Spreads a byte (bit k) over the a-file (bit 8k).
static BYTE_TO_FILE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b & (1 << k) != 0 {
                t[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Stable discs of `p` on the four edges.
#[inline]
fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let table = edge_table();
    let look = |pb: usize, ob: usize| table[pb * 256 + ob] as u64;
    let rank1 = look((p & 0xFF) as usize, (o & 0xFF) as usize);
    let rank8 = look((p >> 56) as usize, (o >> 56) as usize) << 56;
    let file_a = BYTE_TO_FILE[look(file_to_byte(p), file_to_byte(o)) as usize];
    let file_h = BYTE_TO_FILE[look(file_to_byte(p >> 7), file_to_byte(o >> 7)) as usize] << 7;
    rank1 | rank8 | file_a | file_h
}

/// For each direction, the squares whose line in that direction is full:
/// (horizontal, vertical, a1-h8 diagonal, h1-a8 diagonal).
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & A_FILE).wrapping_mul(0xFF);

    let mut v = filled;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);

    // A diagonal is full from x onwards when x is filled and so is the rest;
    // squares whose next step is off the board count as full beyond.
    let diagonal = |step: u32,
                    off1: u64,
                    off2: u64,
                    off4: u64,
                    down_off1: u64,
                    down_off2: u64,
                    down_off4: u64| {
        let mut up = filled & ((filled >> step) | off1);
        up &= (up >> (2 * step)) | off2;
        up &= (up >> (4 * step)) | off4;
        let mut down = filled & ((filled << step) | down_off1);
        down &= (down << (2 * step)) | down_off2;
        down &= (down << (4 * step)) | down_off4;
        up & down
    };
    // +9 goes up-right: off the board from rank 8 or the h-file (n steps: the
    // top n ranks or the right n files); -9 from rank 1 or the a-file.
    let d9 = diagonal(
        9,
        0xFF80_8080_8080_8080,
        0xFFFF_C0C0_C0C0_C0C0,
        0xFFFF_FFFF_F0F0_F0F0,
        0x0101_0101_0101_01FF,
        0x0303_0303_0303_FFFF,
        0x0F0F_0F0F_FFFF_FFFF,
    );
    // +7 goes up-left: off from rank 8 or the a-file; -7 from rank 1 or the h-file.
    let d7 = diagonal(
        7,
        0xFF01_0101_0101_0101,
        0xFFFF_0303_0303_0303,
        0xFFFF_FFFF_0F0F_0F0F,
        0x8080_8080_8080_80FF,
        0xC0C0_C0C0_C0C0_FFFF,
        0xF0F0_F0F0_FFFF_FFFF,
    );
    [h, v, d9, d7]
}

/// The stable discs of `p` (with `o` the other side's discs).
#[inline]
pub(crate) fn stable_discs(p: u64, o: u64) -> u64 {
    const INNER: u64 = 0x007E_7E7E_7E7E_7E00;
    let [h, v, d9, d7] = full_lines(p | o);
    let inner = p & INNER;
    let mut stable = edge_stable_discs(p, o) | (inner & h & v & d9 & d7);
    if stable == 0 {
        return 0;
    }
    loop {
        let sh = h | ((stable >> 1) & !H_FILE) | ((stable << 1) & !A_FILE);
        let sv = v | (stable >> 8) | (stable << 8);
        let s9 = d9 | ((stable >> 9) & !H_FILE) | ((stable << 9) & !A_FILE);
        let s7 = d7 | ((stable >> 7) & !A_FILE) | ((stable << 7) & !H_FILE);
        let grown = stable | (sh & sv & s9 & s7 & inner);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Full lines the slow way: walk each line through each square.
    fn naive_full(filled: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (d, (df, dr)) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)]
            .into_iter()
            .enumerate()
        {
            for sq in 0..64i32 {
                let full = [1, -1].iter().all(|&s| {
                    let (mut f, mut r) = (sq % 8, sq / 8);
                    loop {
                        if filled & (1 << (r * 8 + f)) == 0 {
                            return false;
                        }
                        f += s * df;
                        r += s * dr;
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            return true;
                        }
                    }
                });
                if full {
                    out[d] |= 1 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_a_walk() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let filled = x | (x >> 3) | x.rotate_left(17);
            assert_eq!(full_lines(filled), naive_full(filled), "{filled:#x}");
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
    }

    /// Discs called stable must stay so through random games to the end.
    #[test]
    fn stable_discs_never_flip() {
        use super::super::board::{flips, mobility};
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut found = 0;
        for _ in 0..300 {
            // Random play from the start to a random point, then check.
            let (mut p, mut o) = ((1u64 << 35) | (1 << 28), (1u64 << 27) | (1 << 36));
            let stop = 20 + rand() % 40;
            let mut stable = (0u64, 0u64); // (first mover's, other's)
            let mut mover_is_first = true;
            for ply in 0..120 {
                if ply as u64 == stop {
                    let (a, b) = (stable_discs(p, o), stable_discs(o, p));
                    stable = if mover_is_first { (a, b) } else { (b, a) };
                    found += (a | b).count_ones();
                }
                let first = if mover_is_first { p } else { o };
                let second = if mover_is_first { o } else { p };
                assert_eq!(first & stable.0, stable.0, "a stable disc flipped");
                assert_eq!(second & stable.1, stable.1, "a stable disc flipped");
                let moves = mobility(p, o);
                if moves == 0 {
                    if mobility(o, p) == 0 {
                        break;
                    }
                } else {
                    let n = (rand() % moves.count_ones() as u64) as u32;
                    let mut m = moves;
                    for _ in 0..n {
                        m &= m - 1;
                    }
                    let sq = m.trailing_zeros() as usize;
                    let f = flips(sq, p, o);
                    (p, o) = (p | f | (1 << sq), o ^ f);
                }
                (p, o) = (o, p);
                mover_is_first = !mover_is_first;
            }
        }
        assert!(found > 100, "the test saw too few stable discs ({found})");
    }

    #[test]
    fn edges_and_full_board() {
        assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
        // A lone corner is stable; a disc next to an empty corner is not.
        assert_eq!(stable_discs(1, 2), 1);
        assert_eq!(stable_discs(2, 4), 0);
        assert_eq!(file_to_byte(A_FILE), 0xFF);
        assert_eq!(BYTE_TO_FILE[0xFF], A_FILE);
    }
}
