//! A learned pattern evaluation ([`OthelloPatterns`]): Logistello's method
//! (Buro 1997) as Edax and Egaroucid use it. The board is seen through the
//! classic patterns, each instance of a pattern is read as a base-3 number
//! (0 empty, 1 the side to move's disc, 2 the other side's) that indexes that
//! pattern's weight table, and the position's score is the sum of its
//! instances' weights, plus a mobility term and a constant, all per game
//! stage ([`stage_of`], by the discs on the board).
//!
//! The patterns (46 instances), each read on the board turned and mirrored
//! so that every instance of a pattern sees its squares in corresponding
//! order and shares one table:
//!
//! | pattern | squares | instances |
//! | --- | ---: | ---: |
//! | an edge with its two X-squares | 10 | 4 |
//! | the 3×3 block at a corner | 9 | 4 |
//! | the 2×5 block at a corner, both ways | 10 | 8 |
//! | the second, third and fourth rows and files | 8 | 4 each |
//! | the two long diagonals | 8 | 2 |
//! | the diagonals of 7, 6, 5 and 4 squares | 7–4 | 4 each |
//!
//! The weights are trained by `splitpoint train othello` (the module
//! `train`): a compact file ([`Weights::to_bytes`]) read at start-up; the
//! committed one is compiled in ([`Weights::embedded`]).

use std::fmt;
use std::sync::{Arc, OnceLock};

use splitpoint::{Evaluator, Score};

use super::board::{Othello, OthelloMove, mobility};
use super::eval::{OthelloEval, POINTS_PER_DISC};

/// The number of game stages, each with its own weights.
pub const STAGES: usize = 15;

/// Discs on the board per stage.
const DISCS_PER_STAGE: u32 = 4;

/// The stage of a position with `empties` empty squares: 0 for the first
/// moves (57-60 empties), `STAGES - 1` for the last ones (0-4 empties).
#[inline]
pub const fn stage_of(empties: u32) -> usize {
    let discs = 64 - if empties > 60 { 60 } else { empties };
    let stage = ((discs - 4) / DISCS_PER_STAGE) as usize;
    if stage < STAGES { stage } else { STAGES - 1 }
}

/// The range of empties a stage covers, fewest first.
pub const fn stage_empties(stage: usize) -> (u32, u32) {
    let high = 60 - DISCS_PER_STAGE * stage as u32;
    let low = high + 1 - DISCS_PER_STAGE;
    if stage == STAGES - 1 {
        (0, high)
    } else {
        (low, high)
    }
}

/// One pattern: its name and how many squares its instances have (its table
/// has 3^squares entries).
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A short name for reports.
    pub name: &'static str,
    /// Squares per instance.
    pub squares: u32,
    /// Instances on the board.
    pub instances: usize,
}

/// The patterns in table order; the mobility table and the constant follow.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2x",
        squares: 10,
        instances: 4,
    },
    Pattern {
        name: "corner3x3",
        squares: 9,
        instances: 4,
    },
    Pattern {
        name: "corner2x5",
        squares: 10,
        instances: 8,
    },
    Pattern {
        name: "line2",
        squares: 8,
        instances: 4,
    },
    Pattern {
        name: "line3",
        squares: 8,
        instances: 4,
    },
    Pattern {
        name: "line4",
        squares: 8,
        instances: 4,
    },
    Pattern {
        name: "diag8",
        squares: 8,
        instances: 2,
    },
    Pattern {
        name: "diag7",
        squares: 7,
        instances: 4,
    },
    Pattern {
        name: "diag6",
        squares: 6,
        instances: 4,
    },
    Pattern {
        name: "diag5",
        squares: 5,
        instances: 4,
    },
    Pattern {
        name: "diag4",
        squares: 4,
        instances: 4,
    },
];

/// Mobility counts above this share the last entry of the mobility table.
const MOBILITY_CAP: u32 = 31;

/// The mobility table's entries: (own moves, opponent's moves), each capped.
const MOBILITY_ENTRIES: usize = ((MOBILITY_CAP + 1) * (MOBILITY_CAP + 1)) as usize;

/// Table offsets within a stage: `OFFSETS[k]` is where pattern `k`'s table
/// starts; then the mobility table, then the constant.
const OFFSETS: [usize; PATTERNS.len() + 2] = {
    let mut offsets = [0; PATTERNS.len() + 2];
    let mut k = 0;
    let mut at = 0;
    while k < PATTERNS.len() {
        offsets[k] = at;
        at += 3usize.pow(PATTERNS[k].squares);
        k += 1;
    }
    offsets[k] = at;
    offsets[k + 1] = at + MOBILITY_ENTRIES;
    offsets
};

/// Weights per stage: every pattern's table, the mobility table and the constant.
pub const STAGE_WEIGHTS: usize = OFFSETS[PATTERNS.len() + 1] + 1;

/// Features per position: the 46 pattern instances, the mobility entry and
/// the constant.
pub const FEATURES: usize = {
    let mut n = 0;
    let mut k = 0;
    while k < PATTERNS.len() {
        n += PATTERNS[k].instances;
        k += 1;
    }
    n + 2
};

/// `BASE3[m]`: the base-3 number whose digits are the bits of `m` (bit `i`
/// is digit `i`), for up to 10 bits.
static BASE3: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut value = 0u32;
        let mut power = 1u32;
        let mut i = 0;
        while i < 10 {
            if m & (1 << i) != 0 {
                value += power;
            }
            power *= 3;
            i += 1;
        }
        table[m] = value as u16;
        m += 1;
    }
    table
};

/// The board turned upside down (rank 1 becomes rank 8).
#[inline(always)]
fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// The board mirrored left to right (the a file becomes the h file).
#[inline(always)]
fn mirror_horizontal(mut b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    b = ((b >> 1) & K1) | ((b & K1) << 1);
    b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// The board reflected in the a1-h8 diagonal (files become ranks).
#[inline(always)]
fn transpose(mut b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The squares whose file minus rank is `k` (a diagonal parallel to a1-h8).
const fn diagonal(k: i32) -> u64 {
    let mut mask = 0;
    let mut sq: i32 = 0;
    while sq < 64 {
        if sq % 8 - sq / 8 == k {
            mask |= 1u64 << sq;
        }
        sq += 1;
    }
    mask
}

const A_FILE: u64 = 0x0101_0101_0101_0101;

/// The diagonal `file - rank = k` of `b` gathered into its low bits, by file.
#[inline(always)]
fn gather_diagonal<const K: i32>(b: u64) -> u64 {
    // Squares on distinct files: the multiplication never carries.
    let byte = (b & const { diagonal(K) }).wrapping_mul(A_FILE) >> 56;
    if K >= 0 { byte >> K } else { byte }
}

/// The pattern masks of one orientation of the board: `take(b)` gathers
/// the pattern's squares of `b` into the low bits, in the pattern's order.
#[inline(always)]
fn edge_2x(b: u64) -> u64 {
    (b & 0xFF) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200)
}

#[inline(always)]
fn corner_3x3(b: u64) -> u64 {
    (b & 0x7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1C0)
}

#[inline(always)]
fn corner_2x5(b: u64) -> u64 {
    (b & 0x1F) | ((b >> 3) & 0x3E0)
}

/// Writes the feature indices of the position (`p` the side to move's
/// discs, `o` the other side's) into `out`: each an index into one stage's
/// weights (below [`STAGE_WEIGHTS`]).
#[inline]
pub fn features(p: u64, o: u64, out: &mut [u32; FEATURES]) {
    // The eight orientations: identity, upside down, transposed, both; and
    // each mirrored.
    let turn = |b: u64| {
        let t = transpose(b);
        let v = [b, flip_vertical(b), t, flip_vertical(t)];
        [
            v[0],
            v[1],
            v[2],
            v[3],
            mirror_horizontal(v[0]),
            mirror_horizontal(v[1]),
            mirror_horizontal(v[2]),
            mirror_horizontal(v[3]),
        ]
    };
    let (tp, to) = (turn(p), turn(o));
    let index = |mp: u64, mo: u64| BASE3[mp as usize] as u32 + 2 * BASE3[mo as usize] as u32;
    let mut n = 0;
    let mut put = |k: usize, value: u32| {
        out[n] = (OFFSETS[k] as u32) + value;
        n += 1;
    };
    // The edges and the lines behind them: rank 1 of the first four
    // orientations is rank 1, rank 8, file a and file h.
    for i in 0..4 {
        put(0, index(edge_2x(tp[i]), edge_2x(to[i])));
    }
    for &i in &[0, 1, 4, 5] {
        put(1, index(corner_3x3(tp[i]), corner_3x3(to[i])));
    }
    for i in 0..8 {
        put(2, index(corner_2x5(tp[i]), corner_2x5(to[i])));
    }
    for (k, shift) in [(3, 8), (4, 16), (5, 24)] {
        for i in 0..4 {
            put(k, index((tp[i] >> shift) & 0xFF, (to[i] >> shift) & 0xFF));
        }
    }
    // The diagonals: those of the board and of its mirror image, each
    // pattern's instances together.
    macro_rules! diagonals {
        ($k:expr, $($d:expr),+) => {
            for &i in &[0, 4] {
                $(put($k, index(gather_diagonal::<$d>(tp[i]), gather_diagonal::<$d>(to[i])));)+
            }
        };
    }
    diagonals!(6, 0);
    diagonals!(7, 1, -1);
    diagonals!(8, 2, -2);
    diagonals!(9, 3, -3);
    diagonals!(10, 4, -4);
    let mp = mobility(p, o).count_ones().min(MOBILITY_CAP);
    let mo = mobility(o, p).count_ones().min(MOBILITY_CAP);
    put(PATTERNS.len(), mp + (MOBILITY_CAP + 1) * mo);
    put(PATTERNS.len() + 1, 0);
    debug_assert_eq!(n, FEATURES);
}

/// The digit each digit of pattern `k` comes from in the instance's image
/// under the board symmetry that maps the instance onto itself (reversing
/// an edge or a line, transposing a corner's 3×3 block); `None` when no
/// symmetry does (the 2×5 blocks, the mobility table and the constant).
fn mirror_digits(k: usize) -> Option<Vec<usize>> {
    let n = PATTERNS.get(k)?.squares as usize;
    Some(match PATTERNS[k].name {
        "corner2x5" => return None,
        "edge+2x" => (0..8).rev().chain([9, 8]).collect(),
        "corner3x3" => (0..9).map(|d| (d % 3) * 3 + d / 3).collect(),
        _ => (0..n).rev().collect(),
    })
}

/// For each weight of a stage, the smaller of its index and its mirror
/// image's ([`mirror_digits`]): weights of a class must be equal for the
/// evaluation to score a position and its turned or mirrored images alike,
/// so the fit learns one weight per class.
pub fn symmetry_classes() -> &'static [u32] {
    static CLASSES: OnceLock<Vec<u32>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let mut classes: Vec<u32> = (0..STAGE_WEIGHTS as u32).collect();
        for k in 0..PATTERNS.len() {
            let Some(from) = mirror_digits(k) else {
                continue;
            };
            let size = 3usize.pow(PATTERNS[k].squares);
            for index in 0..size {
                let digit = |d: usize| (index / 3usize.pow(d as u32)) % 3;
                let mirrored: usize = from
                    .iter()
                    .enumerate()
                    .map(|(j, &d)| digit(d) * 3usize.pow(j as u32))
                    .sum();
                classes[OFFSETS[k] + index] = (OFFSETS[k] + index.min(mirrored)) as u32;
            }
        }
        classes
    })
}

/// Evaluations are clamped to this: a whole board's worth of discs.
const LIMIT: Score = 64 * POINTS_PER_DISC;

/// The weights of every stage, in hundredths of a disc (the evaluation's
/// points), [`STAGE_WEIGHTS`] per stage.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    values: Vec<i16>,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.values.iter().filter(|&&w| w != 0).count();
        write!(f, "Weights({STAGES} stages, {nonzero} nonzero)")
    }
}

/// The first bytes of a weights file, and its version.
const MAGIC: &[u8; 8] = b"SPOTHPW1";

/// The committed weights, trained by `splitpoint train othello` (the
/// command and figures are in `docs/lab/2026-12-02-othello-patterns.md`).
static EMBEDDED: &[u8] = include_bytes!("../../data/othello-patterns.bin");

/// The weights compiled into the crate, decoded on first use.
pub(crate) fn embedded_weights() -> &'static Arc<Weights> {
    static WEIGHTS: OnceLock<Arc<Weights>> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        // The committed file is checked by the tests: never failing here.
        Arc::new(Weights::from_bytes(EMBEDDED).unwrap_or_else(|_| Weights::zero()))
    })
}

/// The score of `pos` by the committed weights, clamped as
/// [`OthelloPatterns::score`] clamps it.
#[inline]
pub(crate) fn embedded_score(pos: &Othello) -> Score {
    embedded_weights()
        .raw_score(pos.player(), pos.opponent())
        .clamp(-LIMIT, LIMIT)
}

impl Weights {
    /// Every weight zero: an evaluation that scores every position 0.
    pub fn zero() -> Weights {
        Weights {
            values: vec![0; STAGES * STAGE_WEIGHTS],
        }
    }

    /// The weights compiled into the crate, decoded once.
    pub fn embedded() -> Arc<Weights> {
        embedded_weights().clone()
    }

    /// One stage's weights.
    #[inline]
    pub fn stage(&self, stage: usize) -> &[i16] {
        &self.values[stage * STAGE_WEIGHTS..(stage + 1) * STAGE_WEIGHTS]
    }

    /// One stage's weights, to change.
    pub fn stage_mut(&mut self, stage: usize) -> &mut [i16] {
        &mut self.values[stage * STAGE_WEIGHTS..(stage + 1) * STAGE_WEIGHTS]
    }

    /// The score of the position (`p` to move, `o` the other side) with
    /// `empties` empty squares, in the evaluation's points, unclamped.
    #[inline]
    pub fn raw_score(&self, p: u64, o: u64) -> i32 {
        let mut f = [0u32; FEATURES];
        features(p, o, &mut f);
        let w = self.stage(stage_of((!(p | o)).count_ones()));
        f.iter().map(|&i| w[i as usize] as i32).sum()
    }

    /// The file form: a header, then per stage its nonzero weights as
    /// (gap from the previous nonzero index, value) pairs in LEB128 varints,
    /// the values zigzag-coded.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        put_varint(&mut out, STAGES as u64);
        put_varint(&mut out, STAGE_WEIGHTS as u64);
        for stage in 0..STAGES {
            let w = self.stage(stage);
            let nonzero = w.iter().filter(|&&x| x != 0).count();
            put_varint(&mut out, nonzero as u64);
            let mut last = 0usize;
            for (i, &x) in w.iter().enumerate() {
                if x != 0 {
                    put_varint(&mut out, (i - last) as u64);
                    put_varint(&mut out, ((x as i64) << 1 ^ ((x as i64) >> 63)) as u64);
                    last = i;
                }
            }
        }
        out
    }

    /// Reads the file form of [`to_bytes`](Weights::to_bytes).
    ///
    /// # Errors
    /// A message saying what is wrong with the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, String> {
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("not a splitpoint Othello weights file (its first bytes differ)")?;
        let mut at = 0;
        let mut next = || get_varint(rest, &mut at);
        let stages = next()?;
        let per_stage = next()?;
        if stages != STAGES as u64 || per_stage != STAGE_WEIGHTS as u64 {
            return Err(format!(
                "the file has {stages} stages of {per_stage} weights; this build reads \
                 {STAGES} of {STAGE_WEIGHTS}"
            ));
        }
        let mut weights = Weights::zero();
        for stage in 0..STAGES {
            let w = weights.stage_mut(stage);
            let count = next()?;
            let mut i = 0usize;
            for n in 0..count {
                let gap = next()? as usize;
                i = i.checked_add(gap).ok_or("an index out of range")?;
                if (n > 0 && gap == 0) || i >= STAGE_WEIGHTS {
                    return Err(format!("stage {stage}: an index out of order or range"));
                }
                let z = next()?;
                let value = ((z >> 1) as i64) ^ -((z & 1) as i64);
                w[i] = i16::try_from(value).map_err(|_| "a weight out of range")?;
            }
        }
        if at != rest.len() {
            return Err("bytes left after the last stage".into());
        }
        Ok(weights)
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read or is not a weights file.
    pub fn load(path: &std::path::Path) -> Result<Weights, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let &b = bytes.get(*at).ok_or("the file ends early")?;
        *at += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err("a number too long".into())
}

/// The learned pattern evaluation of [`Othello`], in hundredths of a disc
/// from the side to move's view (the points of [`OthelloEval`]); finished
/// games are valued by the default win/loss-by-distance scores. Moves are
/// ordered as [`OthelloEval`] orders them.
#[derive(Clone, Debug)]
pub struct OthelloPatterns {
    weights: Arc<Weights>,
}

impl Default for OthelloPatterns {
    /// The committed weights.
    fn default() -> Self {
        OthelloPatterns {
            weights: Weights::embedded(),
        }
    }
}

impl OthelloPatterns {
    /// The evaluation with `weights`.
    pub fn new(weights: Arc<Weights>) -> OthelloPatterns {
        OthelloPatterns { weights }
    }

    /// The evaluation with the weights in the file at `path`.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read or is not a weights file.
    pub fn load(path: &std::path::Path) -> Result<OthelloPatterns, String> {
        Ok(OthelloPatterns::new(Arc::new(Weights::load(path)?)))
    }

    /// Its weights.
    pub fn weights(&self) -> &Arc<Weights> {
        &self.weights
    }

    /// The static score of `pos` from the side to move's view.
    #[inline]
    pub fn score(&self, pos: &Othello) -> Score {
        self.weights
            .raw_score(pos.player(), pos.opponent())
            .clamp(-LIMIT, LIMIT)
    }
}

impl Evaluator<Othello> for OthelloPatterns {
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        self.score(pos)
    }

    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = OthelloEval::move_key(pos, mv);
        }
    }
}

/// The midgame evaluation a front end chooses: the hand-set one or the
/// learned patterns (`--eval` on the command line).
#[derive(Clone, Debug)]
pub enum OthelloMidgame {
    /// [`OthelloEval`].
    Heuristic,
    /// [`OthelloPatterns`] with its weights.
    Patterns(OthelloPatterns),
}

impl OthelloMidgame {
    /// The evaluation `text` names: `heuristic`, `patterns` (the committed
    /// weights) or the path of a weights file.
    ///
    /// # Errors
    /// A message when `text` is a path that cannot be read as weights.
    pub fn parse(text: &str) -> Result<OthelloMidgame, String> {
        match text {
            "heuristic" => Ok(OthelloMidgame::Heuristic),
            "patterns" => Ok(OthelloMidgame::Patterns(OthelloPatterns::default())),
            path => Ok(OthelloMidgame::Patterns(OthelloPatterns::load(
                std::path::Path::new(path),
            )?)),
        }
    }
}

impl Evaluator<Othello> for OthelloMidgame {
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        match self {
            OthelloMidgame::Heuristic => OthelloEval::score(pos),
            OthelloMidgame::Patterns(p) => p.score(pos),
        }
    }

    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = OthelloEval::move_key(pos, mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splitpoint::Game;

    #[test]
    fn stages_cover_the_game() {
        assert_eq!(stage_of(60), 0);
        assert_eq!(stage_of(57), 0);
        assert_eq!(stage_of(56), 1);
        assert_eq!(stage_of(1), STAGES - 1);
        assert_eq!(stage_of(0), STAGES - 1);
        for stage in 0..STAGES {
            let (low, high) = stage_empties(stage);
            for e in low..=high {
                assert_eq!(stage_of(e), stage, "{e} empties");
            }
        }
    }

    #[test]
    fn the_transforms_are_the_boards_symmetries() {
        let b = 0x0123_4567_89AB_CDEFu64;
        assert_eq!(transpose(transpose(b)), b);
        assert_eq!(mirror_horizontal(1), 1 << 7);
        assert_eq!(flip_vertical(1), 1 << 56);
        // b1 (1) goes to a2 (8).
        assert_eq!(transpose(1 << 1), 1 << 8);
        assert_eq!(transpose(1 << 63), 1 << 63);
    }

    /// Every square lies in some instance, and each instance's index is below
    /// its table's size; the counts of instances per square are the
    /// patterns' (each edge square in its edge and two 2×5 blocks…).
    #[test]
    fn each_square_is_read_by_its_instances() {
        let mut f = [0u32; FEATURES];
        for sq in 0..64 {
            let mut with = [0u32; FEATURES];
            features(1 << sq, 0, &mut with);
            features(0, 0, &mut f);
            let changed = (0..FEATURES - 2).filter(|&i| with[i] != f[i]).count();
            assert!(changed >= 3, "square {sq} is read by {changed} instances");
            // The same square as the other side's disc: digit 2, not 1.
            let mut theirs = [0u32; FEATURES];
            features(0, 1 << sq, &mut theirs);
            for i in 0..FEATURES - 2 {
                assert_eq!(theirs[i] - f[i], 2 * (with[i] - f[i]), "square {sq}");
            }
        }
        let full = !0u64;
        features(full, 0, &mut f);
        let mut k = 0;
        for (p, pattern) in PATTERNS.iter().enumerate() {
            for _ in 0..pattern.instances {
                let size = 3u32.pow(pattern.squares);
                assert_eq!(f[k] - OFFSETS[p] as u32, (size - 1) / 2, "{}", pattern.name);
                k += 1;
            }
        }
    }

    /// With the weights of each symmetry class equal, a position and its
    /// turned and mirrored images score alike; each class has one or two
    /// members.
    #[test]
    fn symmetric_positions_score_alike() {
        let classes = symmetry_classes();
        let mut members = vec![0u32; STAGE_WEIGHTS];
        for &c in classes {
            members[c as usize] += 1;
        }
        assert!(members.iter().all(|&m| m <= 2));
        assert!(members.iter().filter(|&&m| m == 2).count() > 50_000);
        let mut w = Weights::zero();
        let mut rng = 12345u64;
        for stage in 0..STAGES {
            let table = w.stage_mut(stage);
            for w in table.iter_mut() {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *w = (rng >> 53) as i16 - 1024;
            }
            for i in 0..STAGE_WEIGHTS {
                table[i] = table[classes[i] as usize];
            }
        }
        for ffo in crate::othello::ffo_positions() {
            let (p, o) = (ffo.position.player(), ffo.position.opponent());
            let score = w.raw_score(p, o);
            let t = |f: fn(u64) -> u64| w.raw_score(f(p), f(o));
            assert_eq!(t(flip_vertical), score);
            assert_eq!(t(transpose), score);
            assert_eq!(t(mirror_horizontal), score);
            assert_eq!(t(|b| transpose(flip_vertical(b))), score);
            assert_ne!(w.raw_score(o, p), score);
        }
    }

    #[test]
    fn the_file_form_round_trips() {
        let mut w = Weights::zero();
        w.stage_mut(0)[5] = -3;
        w.stage_mut(7)[STAGE_WEIGHTS - 1] = 1234;
        w.stage_mut(STAGES - 1)[0] = i16::MIN;
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Weights::from_bytes(b"nonsense").is_err());
    }

    /// The committed weights know something of the endgame: on the FFO
    /// positions (20-34 empties) their error is below that of
    /// guessing a draw.
    #[test]
    fn the_embedded_weights_load_and_judge_the_ffo_endgames() {
        let w = Weights::from_bytes(EMBEDDED).expect("the committed weights file");
        assert_ne!(w, Weights::zero());
        let eval = OthelloPatterns::default();
        let ffo = crate::othello::ffo_positions();
        let error: i32 = ffo
            .iter()
            .map(|f| (eval.score(&f.position) - f.score * POINTS_PER_DISC).abs())
            .sum();
        let guess: i32 = ffo.iter().map(|f| (f.score * POINTS_PER_DISC).abs()).sum();
        assert!(error < guess, "error {error}, a draw's {guess}");
        // A corner for the side to move, the rest even, is good for it.
        let pos = Othello::parse_position(
            "X------------------------------------------------------------OO- X",
        )
        .unwrap();
        assert!(eval.score(&pos) > 0, "{}", eval.score(&pos));
        let chosen = OthelloMidgame::parse("patterns").unwrap();
        assert_eq!(chosen.evaluate(&pos), eval.score(&pos));
        let heuristic = OthelloMidgame::parse("heuristic").unwrap();
        assert_eq!(heuristic.evaluate(&pos), OthelloEval::score(&pos));
        let missing = OthelloMidgame::parse("/nonexistent/weights.bin").unwrap_err();
        assert!(missing.contains("/nonexistent/weights.bin"), "{missing}");
    }
}
