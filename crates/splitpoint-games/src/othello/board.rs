//! The rules: bitboards, move generation, flipping, text forms.
//!
//! Squares are numbered `row * 8 + col` with a1 = 0, b1 = 1, …, h8 = 63, so
//! shifting a bitboard left by 1 moves every disc one file right (towards h) and
//! shifting left by 8 moves it one rank up (towards 8).

use std::fmt;

use splitpoint::{Game, MoveList, Outcome, ParseError};

/// Every square but the a and h files: the discs a horizontal or diagonal run may
/// pass through without wrapping round the board.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The squares a move may flip towards one direction: `RAYS[sq][d]` holds the
/// squares from `sq` (excluded) to the board's edge in direction `d`. Directions
/// 0..4 increase the square index (+1, +8, +9, +7), 4..8 decrease it.
static RAYS: [[u64; 8]; 64] = make_rays();

const fn make_rays() -> [[u64; 8]; 64] {
    // (file step, rank step) per direction, in the order documented on RAYS.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = STEPS[d];
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[sq][d] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The squares where `player` may move: empty squares from which a straight
/// run of `opponent` discs ends on a `player` disc.
///
/// Parallel-prefix (Kogge-Stone) fill, four shift pairs, no branches.
#[inline]
pub fn mobility(player: u64, opponent: u64) -> u64 {
    #[inline(always)]
    fn both_ways(p: u64, mask: u64, d: u32) -> u64 {
        // Runs of `mask` discs grown from `p` one way (left shifts) …
        let mut l = mask & (p << d);
        l |= mask & (l << d);
        let pre_l = mask & (mask << d);
        l |= pre_l & (l << (2 * d));
        l |= pre_l & (l << (2 * d));
        // … and the other way (right shifts); a run of up to six discs is covered.
        let mut r = mask & (p >> d);
        r |= mask & (r >> d);
        let pre_r = mask & (mask >> d);
        r |= pre_r & (r >> (2 * d));
        r |= pre_r & (r >> (2 * d));
        (l << d) | (r >> d)
    }
    let inner = opponent & NOT_EDGE_FILES;
    let moves = both_ways(player, inner, 1)
        | both_ways(player, opponent, 8)
        | both_ways(player, inner, 7)
        | both_ways(player, inner, 9);
    moves & !(player | opponent)
}

/// The discs flipped when `player` moves on the empty square `square` (0..64);
/// zero when the move is illegal.
///
/// Per direction: the first square along the ray that is not an `opponent` disc
/// decides; when it holds a `player` disc the `opponent` discs before it flip.
#[inline]
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[square & 63];
    let mut flipped = 0;
    // Increasing directions: the first blocker is the lowest set bit.
    for ray in &rays[..4] {
        let ray = *ray;
        let blockers = ray & !opponent;
        let first = blockers & blockers.wrapping_neg();
        let between = first.wrapping_sub(1) & ray;
        flipped |= between & (((first & player) != 0) as u64).wrapping_neg();
    }
    // Decreasing directions: the first blocker is the highest set bit. `| 1`
    // keeps the index defined when the ray is all opponent discs; bit 0 is then
    // an opponent disc or off the ray, so `first & player` stays 0.
    for ray in &rays[4..] {
        let ray = *ray;
        let blockers = ray & !opponent;
        let high = 63 - (blockers | 1).leading_zeros();
        let first = 1u64 << high;
        let between = (u64::MAX << 1 << high) & ray;
        flipped |= between & (((first & player & ray) != 0) as u64).wrapping_neg();
    }
    flipped
}

/// `LAST_FLIPS[pos][line]`: how many discs a move at `pos` flips along one
/// full line (8 squares) whose player discs are the bits of `line`; every
/// other square of the line holds an opponent disc.
static LAST_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards h: opponent discs up to the first player disc.
            let mut run = 0;
            let mut x = pos + 1;
            while x < 8 && line & (1 << x) == 0 {
                run += 1;
                x += 1;
            }
            if x < 8 {
                count += run;
            }
            // Towards a.
            run = 0;
            let mut x = pos as i32 - 1;
            while x >= 0 && line & (1 << x) == 0 {
                run += 1;
                x -= 1;
            }
            if x >= 0 {
                count += run;
            }
            table[pos][line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    table
};

/// The a1-h8 diagonal and the h1-a8 diagonal through each square.
static DIAGONALS: [(u64, u64); 64] = {
    let mut d = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut x = 0usize;
        while x < 64 {
            let (xf, xr) = ((x % 8) as i32, (x / 8) as i32);
            if xf - xr == f - r {
                d[sq].0 |= 1 << x;
            }
            if xf + xr == f + r {
                d[sq].1 |= 1 << x;
            }
            x += 1;
        }
        sq += 1;
    }
    d
};

/// How many discs `player` flips by moving on `square`, the board's last empty
/// square (every other square holds a disc).
///
/// Each of the four lines through the square is gathered into a byte (its
/// squares lie on distinct files, or for the file on distinct ranks, so the
/// multiplications never carry) and looked up in a table.
#[inline]
pub fn last_flip_count(square: usize, player: u64) -> u32 {
    const A_FILE: u64 = 0x0101_0101_0101_0101;
    let square = square & 63;
    let (file, rank) = (square % 8, square / 8);
    let (diag, anti) = DIAGONALS[square];
    let row = (player >> (8 * rank)) as u8 as usize;
    let col = (((player >> file) & A_FILE).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let d9 = ((player & diag).wrapping_mul(A_FILE) >> 56) as usize;
    let d7 = ((player & anti).wrapping_mul(A_FILE) >> 56) as usize;
    (LAST_FLIPS[file][row] + LAST_FLIPS[rank][col] + LAST_FLIPS[file][d9] + LAST_FLIPS[file][d7])
        as u32
}

/// An Othello move: a square (a1 = 0 … h8 = 63) or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OthelloMove(u8);

impl OthelloMove {
    /// The pass, the only move of a side that cannot move while the other can.
    pub const PASS: OthelloMove = OthelloMove(64);

    /// The move on `square` (a1 = 0 … h8 = 63); `None` when `square` > 63.
    #[inline]
    pub const fn from_square(square: u8) -> Option<OthelloMove> {
        if square < 64 {
            Some(OthelloMove(square))
        } else {
            None
        }
    }

    /// The move's square, `None` for the pass.
    #[inline]
    pub const fn square(self) -> Option<u8> {
        if self.0 < 64 { Some(self.0) } else { None }
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 >= 64
    }

    /// The square index, 64 for the pass (the move's table key).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(sq) => write!(f, "{}{}", (b'a' + sq % 8) as char, (b'1' + sq / 8) as char),
            None => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// An Othello position: the discs of the side to move and of the other side,
/// and which colour is to move (only the text form needs it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Othello {
    player: u64,
    opponent: u64,
    black_to_move: bool,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

/// The murmur3 finaliser: a strong, cheap 64-bit mixer.
#[inline]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

impl Othello {
    /// The initial position: d5 and e4 black, d4 and e5 white, black to move.
    pub const fn start() -> Othello {
        // d5 = 35, e4 = 28 (black); d4 = 27, e5 = 36 (white).
        Othello {
            player: (1 << 35) | (1 << 28),
            opponent: (1 << 27) | (1 << 36),
            black_to_move: true,
        }
    }

    /// A position from the discs of the side to move and of the other side.
    /// Overlapping discs are given to the side to move.
    pub const fn from_bitboards(player: u64, opponent: u64, black_to_move: bool) -> Othello {
        Othello {
            player,
            opponent: opponent & !player,
            black_to_move,
        }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// Whether black (`X`) is to move.
    #[inline]
    pub const fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// The squares where the side to move may put a disc.
    #[inline]
    pub fn legal_squares(&self) -> u64 {
        mobility(self.player, self.opponent)
    }

    /// The side to move's discs minus the other side's.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score of a finished game from the side to move's view: the
    /// disc difference with the empty squares given to the winner.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// The position with the sides swapped, as after a pass.
    #[inline]
    pub const fn passed(&self) -> Othello {
        Othello {
            player: self.opponent,
            opponent: self.player,
            black_to_move: !self.black_to_move,
        }
    }

    /// The colour letter of the side to move.
    fn side_char(&self) -> char {
        if self.black_to_move { 'X' } else { 'O' }
    }
}

/// The final score with the empty squares given to the winner.
#[inline]
pub(crate) const fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let empties = 64 - p - o;
    let diff = p - o;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_text())
    }
}

impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_text())
    }
}

/// The position text's length: 64 board characters, a space, the side.
const TEXT_LEN: usize = 66;

impl Game for Othello {
    type Move = OthelloMove;
    type Moves = MoveList<OthelloMove>;

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<OthelloMove>) {
        let mut squares = mobility(self.player, self.opponent);
        if squares == 0 {
            if mobility(self.opponent, self.player) != 0 {
                moves.push(OthelloMove::PASS);
            }
            return;
        }
        while squares != 0 {
            moves.push(OthelloMove(squares.trailing_zeros() as u8));
            squares &= squares - 1;
        }
    }

    #[inline]
    fn play(&self, mv: OthelloMove) -> Othello {
        match mv.square() {
            None => self.passed(),
            Some(sq) => {
                let sq = sq as usize;
                let flipped = flips(sq, self.player, self.opponent);
                debug_assert!(
                    flipped != 0 && self.empties() & (1 << sq) != 0,
                    "illegal move {mv}"
                );
                Othello {
                    player: self.opponent ^ flipped,
                    opponent: self.player | flipped | (1 << sq),
                    black_to_move: !self.black_to_move,
                }
            }
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        // Not symmetric in the two words, so swapping the sides changes it.
        fmix64(fmix64(self.player ^ 0x9e37_79b9_7f4a_7c15) ^ self.opponent)
    }

    fn outcome(&self) -> Option<Outcome> {
        if mobility(self.player, self.opponent) != 0 || mobility(self.opponent, self.player) != 0 {
            return None;
        }
        Some(match self.disc_difference() {
            d if d > 0 => Outcome::Win,
            d if d < 0 => Outcome::Loss,
            _ => Outcome::Draw,
        })
    }

    #[inline]
    fn move_key(mv: OthelloMove) -> u16 {
        mv.0 as u16
    }

    fn parse_position(text: &str) -> Result<Othello, ParseError> {
        parse_position(text)
    }

    fn position_text(&self) -> String {
        let (black, white) = if self.black_to_move {
            (self.player, self.opponent)
        } else {
            (self.opponent, self.player)
        };
        let mut text = String::with_capacity(TEXT_LEN);
        for sq in 0..64 {
            let bit = 1u64 << sq;
            text.push(if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
        text.push(' ');
        text.push(self.side_char());
        text
    }

    fn parse_move(&self, text: &str) -> Result<OthelloMove, ParseError> {
        let start = text.chars().take_while(|c| c.is_whitespace()).count();
        let word = text.trim();
        let mv = if ["pass", "pa", "@@"]
            .iter()
            .any(|p| word.eq_ignore_ascii_case(p))
        {
            OthelloMove::PASS
        } else {
            let chars: Vec<char> = word.chars().collect();
            match chars.as_slice() {
                [file, rank]
                    if matches!(file.to_ascii_lowercase(), 'a'..='h')
                        && matches!(rank, '1'..='8') =>
                {
                    let col = file.to_ascii_lowercase() as u8 - b'a';
                    let row = *rank as u8 - b'1';
                    OthelloMove(row * 8 + col)
                }
                _ => {
                    return Err(ParseError::at(
                        start,
                        format!("expected a square a1..h8 or pass, found {word:?}"),
                    ));
                }
            }
        };
        let mut legal = MoveList::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::at(
                start,
                format!("{mv} is not a legal move here"),
            ))
        }
    }

    fn move_text(&self, mv: OthelloMove) -> String {
        mv.to_string()
    }
}

/// Reads the board text form (see [`Game::parse_position`] for [`Othello`]).
fn parse_position(text: &str) -> Result<Othello, ParseError> {
    // Columns are character offsets, so work on (column, char) pairs.
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let skip_spaces = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_spaces(&mut i);
    let word_start = i;
    while i < chars.len() && !chars[i].is_whitespace() {
        i += 1;
    }
    let word: String = chars[word_start..i].iter().collect();
    if word.eq_ignore_ascii_case("start") {
        skip_spaces(&mut i);
        if i < chars.len() {
            return Err(ParseError::at(i, "unexpected text after start"));
        }
        return Ok(Othello::start());
    }
    if word.is_empty() {
        return Err(ParseError::at(
            word_start,
            "expected 64 board characters, found none",
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (n, &c) in chars[word_start..i].iter().enumerate() {
        let bit = if n < 64 { 1u64 << n } else { 0 };
        match c {
            'X' | 'x' | '*' | 'B' | 'b' => black |= bit,
            'O' | 'o' | 'W' | 'w' => white |= bit,
            '-' | '.' => {}
            _ => {
                return Err(ParseError::at(
                    word_start + n,
                    format!("unknown board character {c:?}"),
                ));
            }
        }
    }
    let found = i - word_start;
    if found != 64 {
        return Err(ParseError::at(
            word_start,
            format!("expected 64 board characters, found {found}"),
        ));
    }
    let spaces = i;
    skip_spaces(&mut i);
    if i == spaces || i >= chars.len() {
        return Err(ParseError::at(
            i,
            "expected the side to move (X or O) after the board",
        ));
    }
    let black_to_move = match chars[i] {
        'X' | 'x' | '*' | 'B' | 'b' => true,
        'O' | 'o' | 'W' | 'w' => false,
        _ => return Err(ParseError::at(i, "side to move must be X or O")),
    };
    let side_at = i;
    i += 1;
    if i < chars.len() && !chars[i].is_whitespace() {
        return Err(ParseError::at(side_at, "side to move must be X or O"));
    }
    skip_spaces(&mut i);
    if i < chars.len() {
        return Err(ParseError::at(i, "unexpected text after the side to move"));
    }
    Ok(if black_to_move {
        Othello {
            player: black,
            opponent: white,
            black_to_move,
        }
    } else {
        Othello {
            player: white,
            opponent: black,
            black_to_move,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_moves() {
        let pos = Othello::start();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn move_is_small() {
        assert_eq!(std::mem::size_of::<OthelloMove>(), 1);
        assert!(std::mem::size_of::<Othello>() <= 24);
    }
}
