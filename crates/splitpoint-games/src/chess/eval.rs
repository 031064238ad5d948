//! The evaluator: material and piece-square tables, pawn structure (passed
//! pawns with their path and the kings' distances; doubled, isolated,
//! connected and backward pawns), mobility (a line bent by a value per
//! count), outposts, attacks next to the enemy king, how many pieces make
//! them and the safe squares to check it from, threats on pieces, rooks on
//! open files and the seventh rank, the king's pawn shelter and its file,
//! a king danger table and the weak squares next to the king, pawn storms,
//! bad bishops, minors behind pawns, space, pawn push threats and the
//! king's distance to its pawns, tapered between the middlegame and the
//! endgame; captures and promotions for quiescence,
//! ordered most valuable victim, least valuable attacker first; the pruning
//! near the leaves the search may use.
//!
//! The evaluation is linear in its weights ([`param`] lays them out, the
//! generated `weights.rs` holds them): [`terms`] counts each weight's
//! occurrences into a [`Terms`] sink, which either sums them (the search's
//! [`evaluate`]) or records them ([`trace`], for `splitpoint train chess`,
//! which fits the weights to game results).

use cozy_chess::{BitBoard, Board, Color, Piece, Rank, Square};
use splitpoint::{Evaluator, Game, MoveList, Pruning, Score};

use super::position::Chess;
use super::see::{SEE_VALUE, see};
use super::weights::WEIGHTS;

/// Delta pruning's safety margin: quiescence skips a capture that would
/// leave the score this far below alpha even winning its victim outright.
const DELTA_MARGIN: i32 = 200;

/// How much each piece counts towards the middlegame: knights and bishops 1,
/// rooks 2, queens 4; the start position has [`MAX_PHASE`].
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The middlegame's phase: the start position's pieces, or more.
pub const MAX_PHASE: i32 = 24;

/// Where each weight of the evaluation lives in [`WEIGHTS`]: one
/// (middlegame, endgame) pair per index.
pub mod param {
    /// Material by [`Piece`](cozy_chess::Piece) index (the king's stays 0).
    pub const MATERIAL: usize = 0;
    /// Piece-square values by piece, 64 squares each, from the piece's own
    /// side (a1 = 0 for White, a8 = 0 for Black).
    pub const SQUARES: usize = MATERIAL + 6;
    /// Both bishops held.
    pub const BISHOP_PAIR: usize = SQUARES + 6 * 64;
    /// A passed pawn, by its rank from its own side.
    pub const PASSED: usize = BISHOP_PAIR + 1;
    /// Each pawn beyond the first on a file.
    pub const DOUBLED: usize = PASSED + 8;
    /// A pawn with no friendly pawn on a neighbouring file.
    pub const ISOLATED: usize = DOUBLED + 1;
    /// Per square a knight, bishop, rook or queen reaches (not its own
    /// side's, not attacked by an enemy pawn) above or below its mean.
    pub const MOBILITY: usize = ISOLATED + 1;
    /// Per attack of a knight, bishop, rook or queen on a square next to
    /// the enemy king, once two or more pieces take part.
    pub const KING_ATTACK: usize = MOBILITY + 4;
    /// A rook on a file with no pawn of its own side.
    pub const ROOK_SEMI_OPEN: usize = KING_ATTACK + 4;
    /// A rook on a file with no pawn at all.
    pub const ROOK_OPEN: usize = ROOK_SEMI_OPEN + 1;
    /// Own pawns before a king on its first two ranks, on its file or the
    /// next: one rank ahead, two ranks ahead.
    pub const SHELTER: usize = ROOK_OPEN + 1;
    /// The side to move's bonus.
    pub const TEMPO: usize = SHELTER + 2;
    /// Threats on the enemy's knights, bishops, rooks and queens: attacked
    /// by a pawn; a rook or queen attacked by a knight or bishop; a queen
    /// attacked by a rook; attacked and not defended.
    pub const THREAT: usize = TEMPO + 1;
    /// How many pieces attack the squares next to the enemy king (0 to 7
    /// or more): the danger grows faster than the attacks.
    pub const KING_ATTACKERS: usize = THREAT + 4;
    /// A passed pawn whose next square is empty and not attacked by the
    /// enemy, by its rank from its own side.
    pub const PASSED_FREE: usize = KING_ATTACKERS + 8;
    /// A passed pawn, by its rank: per square that the enemy king stands
    /// farther from its next square than its own king does.
    pub const PASSED_KINGS: usize = PASSED_FREE + 8;
    /// A pawn defended by a pawn; a pawn beside a pawn of its side.
    pub const CONNECTED: usize = PASSED_KINGS + 8;
    /// Mobility again, by how many squares a piece reaches (as
    /// [`MOBILITY`] counts them): a knight's 0 to 8, then a bishop's 0 to
    /// 13, a rook's 0 to 14 and a queen's 0 to 27 (see
    /// [`MOBILITY_OFFSET`](super::MOBILITY_OFFSET)); it bends the line
    /// [`MOBILITY`] draws.
    pub const MOBILITY_BY_COUNT: usize = CONNECTED + 2;
    /// A knight, a bishop on the fourth to sixth rank (from its side),
    /// defended by a pawn, that no enemy pawn can ever attack.
    pub const OUTPOST: usize = MOBILITY_BY_COUNT + 66;
    /// A rook on the seventh rank (from its side).
    pub const ROOK_SEVENTH: usize = OUTPOST + 2;
    /// A pawn that no pawn of its side can defend by advancing, and whose
    /// next square an enemy pawn attacks.
    pub const BACKWARD: usize = ROOK_SEVENTH + 1;
    /// Squares from which a knight, bishop, rook or queen of the side could
    /// check the enemy king next move, that the enemy does not attack.
    pub const SAFE_CHECKS: usize = BACKWARD + 1;
    /// The king on a file without pawns of its side; without any pawns.
    pub const KING_FILE: usize = SAFE_CHECKS + 4;
    /// The danger to the enemy king, by steps of [`KING_DANGER_STEP`](super::KING_DANGER_STEP)
    /// units (0 to 15 or more): attacked squares next to it weighted by the
    /// attacker, safe checks and weak squares, halved without a queen.
    /// The table lets the danger grow faster than its parts.
    pub const KING_DANGER: usize = KING_FILE + 2;
    /// Squares next to the enemy king that the side attacks and the enemy
    /// defends with its king or queen alone, or not at all.
    pub const WEAK_KING_SQUARES: usize = KING_DANGER + 16;
    /// Pawns on the enemy king's file or the next, while it stands on its
    /// first two ranks, by their rank from their side (the third to the
    /// sixth).
    pub const PAWN_STORM: usize = WEAK_KING_SQUARES + 1;
    /// Per bishop, the side's pawns on squares of its colour; those of
    /// them blocked.
    pub const BAD_BISHOP: usize = PAWN_STORM + 4;
    /// A knight or bishop right behind a pawn.
    pub const MINOR_BEHIND_PAWN: usize = BAD_BISHOP + 2;
    /// Safe squares in the centre files of the side's second to fourth
    /// ranks (twice those behind its pawns), times its pieces, by four.
    pub const SPACE: usize = MINOR_BEHIND_PAWN + 1;
    /// Enemy pieces a pawn would attack after a safe push.
    pub const PAWN_PUSH_THREAT: usize = SPACE + 1;
    /// The king's distance to the nearest pawn of its side.
    pub const KING_PAWN_DISTANCE: usize = PAWN_PUSH_THREAT + 1;
    /// How many weights there are.
    pub const COUNT: usize = KING_PAWN_DISTANCE + 1;

    /// Each block's name and first index, in order.
    pub const BLOCKS: [(&str, usize); 39] = [
        ("material", MATERIAL),
        ("pawn squares", SQUARES),
        ("knight squares", SQUARES + 64),
        ("bishop squares", SQUARES + 128),
        ("rook squares", SQUARES + 192),
        ("queen squares", SQUARES + 256),
        ("king squares", SQUARES + 320),
        ("bishop pair", BISHOP_PAIR),
        ("passed pawn by rank", PASSED),
        ("doubled pawn", DOUBLED),
        ("isolated pawn", ISOLATED),
        ("mobility", MOBILITY),
        ("king attack", KING_ATTACK),
        ("rook on a semi-open file", ROOK_SEMI_OPEN),
        ("rook on an open file", ROOK_OPEN),
        ("king shelter", SHELTER),
        ("tempo", TEMPO),
        ("threats", THREAT),
        ("king attackers", KING_ATTACKERS),
        ("free passed pawn by rank", PASSED_FREE),
        ("passed pawn's king distances by rank", PASSED_KINGS),
        ("connected pawns", CONNECTED),
        ("knight mobility by count", MOBILITY_BY_COUNT),
        ("bishop mobility by count", MOBILITY_BY_COUNT + 9),
        ("rook mobility by count", MOBILITY_BY_COUNT + 23),
        ("queen mobility by count", MOBILITY_BY_COUNT + 38),
        ("outposts", OUTPOST),
        ("rook on the seventh", ROOK_SEVENTH),
        ("backward pawn", BACKWARD),
        ("safe checks", SAFE_CHECKS),
        ("king on a pawnless file", KING_FILE),
        ("king danger", KING_DANGER),
        ("weak squares next to the king", WEAK_KING_SQUARES),
        ("pawn storm by rank", PAWN_STORM),
        ("bad bishop", BAD_BISHOP),
        ("minor behind a pawn", MINOR_BEHIND_PAWN),
        ("space", SPACE),
        ("pawn push threat", PAWN_PUSH_THREAT),
        ("king's distance to its pawns", KING_PAWN_DISTANCE),
    ];
}

const _: () = assert!(WEIGHTS.len() == param::COUNT);

/// Material plus square value for every piece on every square, from its
/// own side: `TABLE_MG[piece][square]` with a1 = 0, h8 = 63.
static TABLE_MG: [[i32; 64]; 6] = make_table(true);
static TABLE_EG: [[i32; 64]; 6] = make_table(false);

const fn make_table(middlegame: bool) -> [[i32; 64]; 6] {
    let mut table = [[0; 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < 64 {
            let material = WEIGHTS[param::MATERIAL + piece];
            let square = WEIGHTS[param::SQUARES + 64 * piece + sq];
            table[piece][sq] = if middlegame {
                material.0 + square.0
            } else {
                material.1 + square.1
            };
            sq += 1;
        }
        piece += 1;
    }
    table
}

/// Where [`terms`] puts the evaluation's terms, each a count (White's less
/// Black's) of one weight.
pub trait Terms {
    /// `count` more of the weight at `index` (see [`param`]).
    fn add(&mut self, index: usize, count: i32);

    /// A piece of `sign` (1 White, −1 Black) on `sq` (`flip` 56 for Black):
    /// its material and its square's value.
    #[inline]
    fn piece(&mut self, piece: usize, sq: usize, flip: usize, sign: i32) {
        self.add(param::MATERIAL + piece, sign);
        self.add(param::SQUARES + 64 * piece + (sq ^ flip), sign);
    }
}

/// The search's sink: the weighted sums, middlegame and endgame.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.mg += WEIGHTS[index].0 * count;
        self.eg += WEIGHTS[index].1 * count;
    }

    #[inline(always)]
    fn piece(&mut self, piece: usize, sq: usize, flip: usize, sign: i32) {
        self.mg += sign * TABLE_MG[piece][sq ^ flip];
        self.eg += sign * TABLE_EG[piece][sq ^ flip];
    }
}

/// The evaluation of a position as counts by weight, for fitting the
/// weights: White's view, with the side to move's tempo.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The game phase: [`MAX_PHASE`] the middlegame, 0 the endgame.
    pub phase: i32,
    /// Each weight's count by its index (see [`param`]).
    pub counts: [i32; param::COUNT],
}

impl Terms for Trace {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += count;
    }
}

/// `board`'s terms, or `None` where the evaluation is a draw whatever the
/// weights ([`evaluate`] returns 0 there).
pub fn trace(board: &Board) -> Option<Trace> {
    if insufficient_material(board) {
        return None;
    }
    let mut trace = Trace {
        phase: 0,
        counts: [0; param::COUNT],
    };
    trace.phase = terms(board, &mut trace);
    let to_move = if board.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    trace.add(param::TEMPO, to_move);
    Some(trace)
}

/// The static score of `board` from the side to move's view, in centipawns:
/// the linear score and the network's correction ([`super::net`]), 0 where
/// neither side can mate. Whatever the position, it stays within ±16000.
pub fn evaluate(board: &Board) -> Score {
    if insufficient_material(board) {
        return 0;
    }
    linear(board) + super::net::correction(board)
}

/// [`evaluate`] with the network's sums the position keeps.
#[inline]
fn evaluate_position(pos: &Chess) -> Score {
    let board = pos.board();
    if insufficient_material(board) {
        return 0;
    }
    linear(board) + pos.accumulator().correction(board.side_to_move())
}

/// The linear score: the weights of [`WEIGHTS`] times their counts, tapered
/// by the phase, from the side to move's view.
#[inline]
fn linear(board: &Board) -> Score {
    let mut sum = Sum::default();
    let phase = terms(board, &mut sum);
    let taper = |(mg, eg): (i32, i32)| (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let white = taper((sum.mg, sum.eg));
    let score = if board.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    // The tempo is the side to move's, tapered on its own.
    score + taper(WEIGHTS[param::TEMPO])
}

/// Puts `board`'s terms but the tempo, White's view, into `t`; returns the
/// game phase.
#[inline]
fn terms(board: &Board, t: &mut impl Terms) -> i32 {
    let mut phase = 0;
    let mut attacks = [Attacks::default(); 2];
    for color in [Color::White, Color::Black] {
        let (sign, flip) = if color == Color::White {
            (1, 0)
        } else {
            (-1, 56)
        };
        for piece in Piece::ALL {
            let pieces = board.colored_pieces(color, piece);
            phase += PHASE[piece as usize] * pieces.len() as i32;
            for sq in pieces {
                t.piece(piece as usize, sq as usize, flip, sign);
            }
        }
        if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
            t.add(param::BISHOP_PAIR, sign);
        }
        pawn_structure(board, color, sign, t);
        attacks[color as usize] = activity(board, color, sign, t);
        rook_files(board, color, sign, t);
        king_shelter(board, color, sign, t);
    }
    for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
        let side = Side {
            board,
            color,
            sign,
            ours: &attacks[color as usize],
            theirs: &attacks[!color as usize],
        };
        threats(&side, t);
        passers(&side, t);
        let checks = safe_checks(&side, t);
        king_danger(&side, checks, t);
        pieces_and_pawns(&side, t);
    }
    phase.min(MAX_PHASE)
}

/// The squares one side attacks, by what attacks them.
#[derive(Clone, Copy, Debug, Default)]
struct Attacks {
    pawns: u64,
    knights: u64,
    bishops: u64,
    rooks: u64,
    queens: u64,
    all: u64,
}

/// One side's view for the terms that weigh both sides' attacks: the
/// board, the side, its sign (White +1) and the squares each side attacks.
struct Side<'a> {
    board: &'a Board,
    color: Color,
    sign: i32,
    ours: &'a Attacks,
    theirs: &'a Attacks,
}

impl<'a> Side<'a> {
    /// The board, the side, its sign, its attacks and the enemy's.
    fn parts(&self) -> (&'a Board, Color, i32, &'a Attacks, &'a Attacks) {
        (self.board, self.color, self.sign, self.ours, self.theirs)
    }
}

/// `color`'s threats on the enemy's pieces (see [`param::THREAT`]).
fn threats(side: &Side, t: &mut impl Terms) {
    let (board, color, sign, ours, theirs) = side.parts();
    let enemy = board.colors(!color).0;
    let queens = board.pieces(Piece::Queen).0 & enemy;
    let majors = (board.pieces(Piece::Rook).0 & enemy) | queens;
    let pieces = enemy & !board.pieces(Piece::Pawn).0 & !board.pieces(Piece::King).0;
    let count = |b: u64| sign * b.count_ones() as i32;
    t.add(param::THREAT, count(pieces & ours.pawns));
    t.add(
        param::THREAT + 1,
        count(majors & (ours.knights | ours.bishops)),
    );
    t.add(param::THREAT + 2, count(queens & ours.rooks));
    t.add(param::THREAT + 3, count(pieces & ours.all & !theirs.all));
}

/// The squares from which `color`'s pieces could check the enemy king next
/// move, by the piece, that the enemy does not attack (see
/// [`param::SAFE_CHECKS`]).
fn safe_checks(side: &Side, t: &mut impl Terms) -> i32 {
    let (board, color, sign, ours, theirs) = side.parts();
    let king = board.king(!color);
    let occupied = board.occupied();
    let safe = !board.colors(color).0 & !theirs.all;
    let diagonal = cozy_chess::get_bishop_moves(king, occupied).0;
    let straight = cozy_chess::get_rook_moves(king, occupied).0;
    let squares = [
        cozy_chess::get_knight_moves(king).0 & ours.knights,
        diagonal & ours.bishops,
        straight & ours.rooks,
        (diagonal | straight) & ours.queens,
    ];
    let mut total = 0;
    for (i, b) in squares.into_iter().enumerate() {
        let n = (b & safe).count_ones() as i32;
        t.add(param::SAFE_CHECKS + i, sign * n);
        total += n;
    }
    total
}

/// Units of danger a step of [`param::KING_DANGER`] stands for.
const KING_DANGER_STEP: i32 = 3;

/// The danger `color` makes for the enemy king (see
/// [`param::KING_DANGER`] and [`param::WEAK_KING_SQUARES`]), from its
/// `checks` safe checking squares.
fn king_danger(side: &Side, checks: i32, t: &mut impl Terms) {
    let (board, color, sign, ours, theirs) = side.parts();
    let king = board.king(!color);
    let zone = cozy_chess::get_king_moves(king).0;
    let defended = theirs.pawns | theirs.knights | theirs.bishops | theirs.rooks;
    let weak = (zone & ours.all & !defended).count_ones() as i32;
    let hits = |b: u64| (zone & b).count_ones() as i32;
    let mut units = 2 * hits(ours.knights)
        + 2 * hits(ours.bishops)
        + 3 * hits(ours.rooks)
        + 5 * hits(ours.queens)
        + 3 * checks
        + 2 * weak;
    if board.colored_pieces(color, Piece::Queen).is_empty() {
        units /= 2;
    }
    t.add(
        param::KING_DANGER + (units / KING_DANGER_STEP).min(15) as usize,
        sign,
    );
    t.add(param::WEAK_KING_SQUARES, sign * weak);
}

/// `color`'s pawn storm, bad bishops, minors behind pawns, space, pawn
/// push threats and its king's distance to its pawns (see
/// [`param::PAWN_STORM`] and the weights after it).
fn pieces_and_pawns(side: &Side, t: &mut impl Terms) {
    let (board, color, sign, ours, theirs) = side.parts();
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let occupied = board.occupied().0;
    let forward = |b: u64| match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    };
    let back = |b: u64| match color {
        Color::White => b >> 8,
        Color::Black => b << 8,
    };
    // From `color`'s side: rank 0 is its first.
    let rank_mask = |r: u32| match color {
        Color::White => 0xFFu64 << (8 * r),
        Color::Black => 0xFFu64 << (8 * (7 - r)),
    };

    let enemy_king = board.king(!color);
    if enemy_king.rank().relative_to(!color) as u32 <= 1 {
        let storm = own & file_and_neighbours(enemy_king.file() as u32);
        for r in 2..6 {
            t.add(
                param::PAWN_STORM + r as usize - 2,
                sign * (storm & rank_mask(r)).count_ones() as i32,
            );
        }
    }

    const DARK: u64 = 0x55AA_55AA_55AA_55AA;
    let blocked = own & back(occupied);
    for sq in board.colored_pieces(color, Piece::Bishop) {
        let colour = if sq.bitboard().0 & DARK != 0 {
            DARK
        } else {
            !DARK
        };
        t.add(param::BAD_BISHOP, sign * (own & colour).count_ones() as i32);
        t.add(
            param::BAD_BISHOP + 1,
            sign * (blocked & colour).count_ones() as i32,
        );
    }

    let minors =
        (board.colored_pieces(color, Piece::Knight) | board.colored_pieces(color, Piece::Bishop)).0;
    let pawns = board.pieces(Piece::Pawn).0;
    t.add(
        param::MINOR_BEHIND_PAWN,
        sign * (minors & back(pawns)).count_ones() as i32,
    );

    const CENTRE_FILES: u64 = 0x3C3C_3C3C_3C3C_3C3C;
    let safe = CENTRE_FILES & (rank_mask(1) | rank_mask(2) | rank_mask(3)) & !own & !theirs.pawns;
    let behind = {
        let once = back(own);
        once | back(once) | back(back(once))
    };
    let pieces = (board.colors(color).0 & !pawns).count_ones() as i32 - 1;
    let space = (safe.count_ones() + (safe & behind).count_ones()) as i32;
    t.add(param::SPACE, sign * space * pieces / 4);

    let empty = !occupied;
    let push = forward(own) & empty;
    let double = forward(push & rank_mask(2)) & empty;
    let safe_push = (push | double) & (ours.all | !theirs.all) & !theirs.pawns;
    let targets = board.colors(!color).0 & !pawns & !board.pieces(Piece::King).0;
    t.add(
        param::PAWN_PUSH_THREAT,
        sign * (pawn_attacks(safe_push, color) & targets).count_ones() as i32,
    );

    let king = board.king(color);
    let nearest = BitBoard(own)
        .into_iter()
        .map(|sq| distance(king, sq))
        .min()
        .unwrap_or(0);
    t.add(param::KING_PAWN_DISTANCE, sign * nearest);
}

/// The king's moves from `a` to `b` on an empty board.
fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32)
        .abs()
        .max((a.rank() as i32 - b.rank() as i32).abs())
}

/// `color`'s passed pawns: their path and the kings' distances (see
/// [`param::PASSED_FREE`] and [`param::PASSED_KINGS`]).
fn passers(side: &Side, t: &mut impl Terms) {
    let (board, color, sign, _, theirs) = side.parts();
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let enemy = board.colored_pieces(!color, Piece::Pawn).0;
    let occupied = board.occupied().0;
    let (own_king, enemy_king) = (board.king(color), board.king(!color));
    for sq in BitBoard(own) {
        let (file, rank) = (sq.file() as u32, sq.rank() as usize);
        let (ahead, relative, next) = match color {
            Color::White if rank < 7 => (!0u64 << (8 * (rank + 1)), rank, sq as usize + 8),
            Color::Black if rank > 0 => ((1u64 << (8 * rank)) - 1, 7 - rank, sq as usize - 8),
            _ => continue,
        };
        if enemy & file_and_neighbours(file) & ahead != 0 {
            continue;
        }
        let next_bit = 1u64 << next;
        if (occupied | theirs.all) & next_bit == 0 {
            t.add(param::PASSED_FREE + relative, sign);
        }
        let next = Square::index(next);
        t.add(
            param::PASSED_KINGS + relative,
            sign * (distance(enemy_king, next) - distance(own_king, next)),
        );
    }
}

/// `color`'s rooks on open and semi-open files and on the seventh rank.
fn rook_files(board: &Board, color: Color, sign: i32, t: &mut impl Terms) {
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let all = board.pieces(Piece::Pawn).0;
    for sq in board.colored_pieces(color, Piece::Rook) {
        if sq.rank().relative_to(color) == Rank::Seventh {
            t.add(param::ROOK_SEVENTH, sign);
        }
        let file = FILE_A << sq.file() as u32;
        if all & file == 0 {
            t.add(param::ROOK_OPEN, sign);
        } else if own & file == 0 {
            t.add(param::ROOK_SEMI_OPEN, sign);
        }
    }
}

/// The pawn shelter of `color`'s king on its first two ranks, and whether
/// its file has pawns.
fn king_shelter(board: &Board, color: Color, sign: i32, t: &mut impl Terms) {
    let king = board.king(color);
    let (file, rank) = (king.file() as u32, king.rank() as u32);
    let on_file = FILE_A << file;
    if board.pieces(Piece::Pawn).0 & on_file == 0 {
        t.add(param::KING_FILE + 1, sign);
    } else if board.colored_pieces(color, Piece::Pawn).0 & on_file == 0 {
        t.add(param::KING_FILE, sign);
    }
    let relative = if color == Color::White {
        rank
    } else {
        7 - rank
    };
    if relative > 1 {
        return;
    }
    let files = file_and_neighbours(file);
    let rank_ahead = |n: u32| -> u64 {
        let r = if color == Color::White {
            rank + n
        } else {
            rank.wrapping_sub(n)
        };
        if r < 8 { 0xFFu64 << (8 * r) } else { 0 }
    };
    let pawns = board.colored_pieces(color, Piece::Pawn).0 & files;
    t.add(
        param::SHELTER,
        sign * (pawns & rank_ahead(1)).count_ones() as i32,
    );
    t.add(
        param::SHELTER + 1,
        sign * (pawns & rank_ahead(2)).count_ones() as i32,
    );
}

/// The squares a knight, bishop, rook and queen reach on average, by
/// [`Piece`] index: mobility counts from there.
const MOBILITY_MEAN: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// Where each piece's counts start in [`param::MOBILITY_BY_COUNT`], by
/// [`Piece`] index.
const MOBILITY_OFFSET: [usize; 6] = [0, 0, 9, 23, 38, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares of `file` (0 for a) and of the files beside it.
fn file_and_neighbours(file: u32) -> u64 {
    (FILE_A << file)
        | if file > 0 { FILE_A << (file - 1) } else { 0 }
        | if file < 7 { FILE_A << (file + 1) } else { 0 }
}

/// The squares `color`'s pawns attack.
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Passed, doubled, isolated, connected and backward pawns of `color`.
fn pawn_structure(board: &Board, color: Color, sign: i32, t: &mut impl Terms) {
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let enemy = board.colored_pieces(!color, Piece::Pawn).0;
    let enemy_attacks = pawn_attacks(enemy, !color);
    for file in 0..8 {
        let on_file = (own & (FILE_A << file)).count_ones() as i32;
        if on_file == 0 {
            continue;
        }
        let mut neighbours = 0;
        if file > 0 {
            neighbours |= FILE_A << (file - 1);
        }
        if file < 7 {
            neighbours |= FILE_A << (file + 1);
        }
        if on_file > 1 {
            t.add(param::DOUBLED, sign * (on_file - 1));
        }
        if own & neighbours == 0 {
            t.add(param::ISOLATED, sign * on_file);
        }
    }
    let beside = ((own << 1) & !FILE_A) | ((own >> 1) & !FILE_H);
    t.add(
        param::CONNECTED,
        sign * (own & pawn_attacks(own, color)).count_ones() as i32,
    );
    t.add(
        param::CONNECTED + 1,
        sign * (own & beside).count_ones() as i32,
    );
    for sq in BitBoard(own) {
        let (file, rank) = (sq.file() as u32, sq.rank() as usize);
        let files = file_and_neighbours(file);
        let (ahead, relative) = match color {
            Color::White if rank < 7 => (!0u64 << (8 * (rank + 1)), rank),
            Color::Black if rank > 0 => ((1u64 << (8 * rank)) - 1, 7 - rank),
            _ => continue,
        };
        if enemy & files & ahead == 0 {
            t.add(param::PASSED + relative, sign);
        }
        // Backward: no pawn of its side beside it, level or behind, and
        // its next square attacked by an enemy pawn.
        let next = if color == Color::White {
            sq.bitboard().0 << 8
        } else {
            sq.bitboard().0 >> 8
        };
        let beside = files & !(FILE_A << file);
        if own & beside & !ahead == 0 && next & enemy_attacks != 0 && own & beside != 0 {
            t.add(param::BACKWARD, sign);
        }
    }
}

/// Mobility of `color`'s pieces and their attacks next to the enemy king;
/// returns the squares `color` attacks.
fn activity(board: &Board, color: Color, sign: i32, t: &mut impl Terms) -> Attacks {
    let occupied = board.occupied();
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn).0;
    let area = BitBoard(!board.colors(color).0 & !pawn_attacks(enemy_pawns, !color));
    let king = board.king(!color);
    let zone = cozy_chess::get_king_moves(king) | king.bitboard();
    let mut attackers = 0;
    let mut hits_by = [0; 4];
    let pawns = pawn_attacks(board.colored_pieces(color, Piece::Pawn).0, color);
    let mut attacks = Attacks {
        pawns,
        all: pawns | cozy_chess::get_king_moves(board.king(color)).0,
        ..Attacks::default()
    };
    // Squares no enemy pawn can ever attack: none on a file beside, ahead.
    let enemy_span = match color {
        Color::White => {
            let mut span = enemy_pawns >> 8;
            for shift in [8, 16, 32] {
                span |= span >> shift;
            }
            span
        }
        Color::Black => {
            let mut span = enemy_pawns << 8;
            for shift in [8, 16, 32] {
                span |= span << shift;
            }
            span
        }
    };
    let attackable = ((enemy_span << 1) & !FILE_A) | ((enemy_span >> 1) & !FILE_H);
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let p = piece as usize;
        for sq in board.colored_pieces(color, piece) {
            let reach = match piece {
                Piece::Knight => cozy_chess::get_knight_moves(sq),
                Piece::Bishop => cozy_chess::get_bishop_moves(sq, occupied),
                Piece::Rook => cozy_chess::get_rook_moves(sq, occupied),
                _ => {
                    cozy_chess::get_bishop_moves(sq, occupied)
                        | cozy_chess::get_rook_moves(sq, occupied)
                }
            };
            attacks.all |= reach.0;
            *match piece {
                Piece::Knight => &mut attacks.knights,
                Piece::Bishop => &mut attacks.bishops,
                Piece::Rook => &mut attacks.rooks,
                _ => &mut attacks.queens,
            } |= reach.0;
            let reached = (reach & area).len() as usize;
            t.add(
                param::MOBILITY + p - 1,
                sign * (reached as i32 - MOBILITY_MEAN[p]),
            );
            t.add(
                param::MOBILITY_BY_COUNT + MOBILITY_OFFSET[p] + reached,
                sign,
            );
            let bit = sq.bitboard().0;
            if p <= 2
                && matches!(sq.rank().relative_to(color) as usize, 3..=5)
                && bit & pawns != 0
                && bit & attackable == 0
            {
                t.add(param::OUTPOST + p - 1, sign);
            }
            let hits = (reach & zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                hits_by[p - 1] += hits;
            }
        }
    }
    if attackers >= 2 {
        for (p, hits) in hits_by.into_iter().enumerate() {
            t.add(param::KING_ATTACK + p, sign * hits);
        }
    }
    t.add(param::KING_ATTACKERS + attackers.min(7), sign);
    attacks
}

/// Neither side can ever mate: bare kings, or a single minor piece, and no pawns.
pub(crate) fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    heavy.is_empty() && (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() <= 1
}

/// The evaluator for [`Chess`]: [`evaluate`], quiescence over captures and
/// queen promotions (every legal move when in check), MVV-LVA ordering; and
/// the search's selectivity outside exact mode: check extension, null moves
/// (not with king and pawns only), reductions of quiet moves, and the
/// pruning near the leaves of [`ChessEval::pruning`].
///
/// Quiescence and exactness: in check ([`Evaluator::in_check`]) the core's
/// quiescence does not stand pat but takes the best evasion, which is why
/// every evasion is a noisy move there. Exact mode searches every noisy move
/// down every line, so the noisy tree must be finite: captures end as
/// material runs out, and a line of evasions goes on only while each evasion
/// gives check in turn; such lines end by repetition or, at worst, at the
/// core's ply limit (`MAX_PLY`), which both the search and the negamax oracle
/// stop at.
#[derive(Clone, Copy, Debug)]
pub struct ChessEval {
    /// Quiescence follows every evasion when in check (else only captures
    /// and queen promotions, in check too).
    pub evasions: bool,
    /// The pruning near the leaves outside exact mode (see
    /// [`Evaluator::pruning`]); `None` turns it off.
    pub pruning: Option<Pruning>,
}

impl Default for ChessEval {
    /// With evasions and [`PRUNING`].
    fn default() -> Self {
        ChessEval {
            evasions: true,
            pruning: Some(PRUNING),
        }
    }
}

impl Evaluator<Chess> for ChessEval {
    #[inline]
    fn evaluate(&self, pos: &Chess) -> Score {
        evaluate_position(pos)
    }

    #[inline]
    fn noisy_moves(&self, pos: &Chess, moves: &mut MoveList<cozy_chess::Move>) {
        if self.evasions && pos.in_check() {
            pos.generate_moves(moves);
            return;
        }
        let board = pos.board();
        let us = board.side_to_move();
        let them = board.colors(!us);
        let en_passant = board.en_passant().map_or(BitBoard::EMPTY, |file| {
            Square::new(file, Rank::Sixth.relative_to(us)).bitboard()
        });
        let last_rank = Rank::Eighth.relative_to(us).bitboard();
        board.generate_moves(|mut piece_moves| {
            piece_moves.to &= if piece_moves.piece == Piece::Pawn {
                them | en_passant | last_rank
            } else {
                them
            };
            for mv in piece_moves {
                // Under-promotions are quiet: they rarely matter and would
                // quadruple every promotion's subtree.
                if matches!(mv.promotion, None | Some(Piece::Queen)) {
                    let _ = moves.try_push(mv);
                }
            }
            false
        });
    }

    /// Check, when quiescence follows evasions (else quiescence could not
    /// do without its stand-pat score in check).
    #[inline]
    fn in_check(&self, pos: &Chess) -> bool {
        self.evasions && pos.in_check()
    }

    /// A pass, unless the side to move has only king and pawns: there
    /// zugzwang is common and a pass would overrate the position.
    #[inline]
    fn null_move(&self, pos: &Chess) -> Option<Chess> {
        let board = pos.board();
        let pieces = board.colors(board.side_to_move())
            & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King));
        if pieces.is_empty() {
            return None;
        }
        pos.null_move()
    }

    /// Reverse futility, futility and late-move pruning near the leaves
    /// (by default [`PRUNING`]).
    #[inline]
    fn pruning(&self) -> Option<Pruning> {
        self.pruning
    }

    /// The pawns of both sides and the side to move: pawn structures the
    /// evaluation misjudges are corrected by the search's findings.
    #[inline]
    fn correction_key(&self, pos: &Chess) -> Option<u64> {
        let board = pos.board();
        let white = board.colored_pieces(Color::White, Piece::Pawn).0;
        let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
        let side = u64::from(board.side_to_move() == Color::Black);
        // Multiplying mixes the bits upward; the top bits pick the slot.
        let mixed = (white ^ side).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ black.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        Some(mixed ^ (mixed >> 31).wrapping_mul(0x1656_67b1_9e37_79f9))
    }

    /// Neither a capture nor a promotion.
    #[inline]
    fn is_quiet(&self, pos: &Chess, mv: cozy_chess::Move) -> bool {
        mv.promotion.is_none() && pos.captured(mv).is_none()
    }

    /// A capture that loses material by [`see`], or whose victim (and
    /// promotion) could not bring the score within [`DELTA_MARGIN`] of
    /// alpha.
    #[inline]
    fn skip_in_quiescence(
        &self,
        pos: &Chess,
        mv: cozy_chess::Move,
        stand_pat: Score,
        alpha: Score,
    ) -> bool {
        let victim = pos.captured(mv).map_or(0, |p| SEE_VALUE[p as usize]);
        let promotion = mv
            .promotion
            .map_or(0, |p| SEE_VALUE[p as usize] - SEE_VALUE[0]);
        if stand_pat + victim + promotion + DELTA_MARGIN < alpha {
            return true;
        }
        see(pos.board(), mv) < 0
    }

    /// [`see`], in centipawns.
    #[inline]
    fn exchange(&self, pos: &Chess, mv: cozy_chess::Move) -> Score {
        see(pos.board(), mv)
    }

    /// Captures first, most valuable victim then least valuable attacker
    /// (`100 + 10 × victim − attacker`, piece indices pawn 0 … king 5), then
    /// queen promotions; quiet moves 0, under-promotions −1, and last the
    /// captures of a lesser piece that lose material by [`see`] (−2).
    #[inline]
    fn order_moves(&self, pos: &Chess, moves: &[cozy_chess::Move], keys: &mut [i32]) {
        let board = pos.board();
        for (key, &mv) in keys.iter_mut().zip(moves) {
            let attacker = board.piece_on(mv.from).map_or(0, |p| p as i32);
            *key = match (pos.captured(mv), mv.promotion) {
                // A capture of a lesser piece that loses by the exchange
                // goes after the quiet moves.
                (Some(victim), None) if (victim as i32) < attacker && see(board, mv) < 0 => -2,
                (Some(victim), _) => {
                    100 + 10 * victim as i32 - attacker + promotion_bonus(mv.promotion)
                }
                (None, Some(Piece::Queen)) => 90,
                (None, Some(_)) => -1,
                (None, None) => 0,
            };
        }
    }
}

/// Extra ordering weight of a capture that also promotes.
#[inline]
fn promotion_bonus(promotion: Option<Piece>) -> i32 {
    match promotion {
        Some(Piece::Queen) => 50,
        Some(_) => -50,
        None => 0,
    }
}

/// The pruning near the leaves chess's search uses outside exact mode; each
/// rule was kept for what it gained in a match (see
/// `docs/lab/2026-12-02-chess-selectivity.md`).
pub const PRUNING: Pruning = Pruning {
    reverse_futility_depth: 6,
    reverse_futility_margin: 80,
    futility_depth: 3,
    futility_margin: 80,
    late_move_depth: 3,
    exchange_depth: 6,
    exchange_quiet_margin: 50,
    exchange_noisy_margin: 100,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    /// The weights' counts of one colour's terms, through `f`.
    fn counts(f: impl Fn(&mut Trace)) -> [i32; param::COUNT] {
        let mut t = Trace {
            phase: 0,
            counts: [0; param::COUNT],
        };
        f(&mut t);
        t.counts
    }

    #[test]
    fn the_correction_key_is_the_pawns_and_the_side_to_move() {
        let key = |fen: &str| {
            let pos = Chess::parse_position(fen).unwrap();
            ChessEval::default().correction_key(&pos).unwrap()
        };
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // Pieces moved, the pawns unchanged: the same key.
        assert_eq!(
            start,
            key("r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3")
        );
        // The other side to move, or a pawn moved: another.
        assert_ne!(
            start,
            key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_ne!(
            start,
            key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
        );
    }

    #[test]
    fn rooks_score_open_and_semi_open_files() {
        // White: a rook on the open d-file, one on the e-file behind its own
        // pawn; Black: a rook on the c-file, semi-open (only White's pawn).
        let b = board("2r3k1/8/8/8/8/2P5/4P3/3RR1K1 w - - 0 1");
        let white = counts(|t| rook_files(&b, Color::White, 1, t));
        assert_eq!(
            (white[param::ROOK_OPEN], white[param::ROOK_SEMI_OPEN]),
            (1, 0)
        );
        let black = counts(|t| rook_files(&b, Color::Black, -1, t));
        assert_eq!(
            (black[param::ROOK_OPEN], black[param::ROOK_SEMI_OPEN]),
            (0, -1)
        );
    }

    #[test]
    fn the_shelter_counts_pawns_before_a_king_at_home() {
        // f2, g2 one rank ahead of the king on g1, h3 two; Black's king on
        // g8 behind f7, g6 (two ranks) and nothing on h; a king out on e4
        // has no shelter.
        let shelter = |b: &Board, color| {
            let c = counts(|t| king_shelter(b, color, 1, t));
            (c[param::SHELTER], c[param::SHELTER + 1])
        };
        let b = board("6k1/5p2/6p1/8/8/7P/5PP1/6K1 w - - 0 1");
        assert_eq!(shelter(&b, Color::White), (2, 1));
        assert_eq!(shelter(&b, Color::Black), (1, 1));
        let out = board("6k1/8/8/8/4K3/3PPP2/8/8 w - - 0 1");
        assert_eq!(shelter(&out, Color::White), (0, 0));
    }

    #[test]
    fn outposts_are_pawn_defended_squares_no_enemy_pawn_can_attack() {
        let outposts = |fen: &str| {
            let b = board(fen);
            counts(|t| {
                activity(&b, Color::White, 1, t);
            })[param::OUTPOST]
        };
        // The knight on d5, defended from e4; then a black pawn on c7 that
        // can come to c6.
        assert_eq!(outposts("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1"), 1);
        assert_eq!(outposts("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1"), 0);
        // Undefended, or on the third rank: none.
        assert_eq!(outposts("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1"), 0);
        assert_eq!(outposts("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1"), 0);
    }

    #[test]
    fn a_backward_pawn_cannot_be_defended_and_its_next_square_is_attacked() {
        // d3 behind e4, d4 attacked from c5; c5 itself is isolated.
        let b = board("4k3/8/8/2p5/4P3/3P4/8/4K3 w - - 0 1");
        let white = counts(|t| pawn_structure(&b, Color::White, 1, t));
        let black = counts(|t| pawn_structure(&b, Color::Black, -1, t));
        assert_eq!((white[param::BACKWARD], black[param::BACKWARD]), (1, 0));
        // With c2 to come to c3, d3 is not backward.
        let b = board("4k3/8/8/2p5/4P3/3P4/2P5/4K3 w - - 0 1");
        let white = counts(|t| pawn_structure(&b, Color::White, 1, t));
        assert_eq!(white[param::BACKWARD], 0);
    }

    #[test]
    fn safe_checks_are_checking_squares_the_enemy_does_not_attack() {
        let rook_checks = |fen: &str| {
            white_terms_with_attacks(fen, |b, white, black, t| {
                safe_checks(&white_side(b, white, black), t);
            })[param::SAFE_CHECKS + 2]
        };
        // The rook on a1 checks from a8 and h1; a knight on b6 guards a8.
        assert_eq!(rook_checks("7k/8/8/8/8/2K5/8/R7 w - - 0 1"), 2);
        assert_eq!(rook_checks("7k/8/1n6/8/8/2K5/8/R7 w - - 0 1"), 1);
    }

    /// The counts `f` makes in `fen`, given White's and Black's attacks
    /// (the counts [`activity`] made for them left out).
    fn white_terms_with_attacks(
        fen: &str,
        f: impl Fn(&Board, &Attacks, &Attacks, &mut Trace),
    ) -> [i32; param::COUNT] {
        let b = board(fen);
        counts(|t| {
            let white = activity(&b, Color::White, 1, t);
            let black = activity(&b, Color::Black, -1, t);
            t.counts = [0; param::COUNT];
            f(&b, &white, &black, t);
        })
    }

    /// White's view, given both sides' attacks.
    fn white_side<'a>(b: &'a Board, white: &'a Attacks, black: &'a Attacks) -> Side<'a> {
        Side {
            board: b,
            color: Color::White,
            sign: 1,
            ours: white,
            theirs: black,
        }
    }

    /// White's terms from [`king_danger`] and [`pieces_and_pawns`] in `fen`.
    fn white_king_and_pawn_terms(fen: &str) -> [i32; param::COUNT] {
        white_terms_with_attacks(fen, |b, white, black, t| {
            let side = white_side(b, white, black);
            let checks = safe_checks(&side, t);
            king_danger(&side, checks, t);
            pieces_and_pawns(&side, t);
        })
    }

    #[test]
    fn king_danger_weighs_the_attacks_next_to_the_king_and_halves_without_a_queen() {
        // The queen on h5 hits f7 and h7 (5 units each), both defended by
        // the king alone (2 units each): 14 units, step 4; no safe check.
        let c = white_king_and_pawn_terms("6k1/5ppp/8/7Q/8/8/8/6K1 w - - 0 1");
        assert_eq!(c[param::KING_DANGER + 4], 1);
        assert_eq!(c[param::WEAK_KING_SQUARES], 2);
        // A rook there hits h7 alone: (3 + 2) halved, step 0.
        let c = white_king_and_pawn_terms("6k1/5ppp/8/7R/8/8/8/6K1 w - - 0 1");
        assert_eq!(c[param::KING_DANGER], 1);
        assert_eq!(c[param::WEAK_KING_SQUARES], 1);
    }

    #[test]
    fn storms_bad_bishops_minors_behind_pawns_push_threats_and_the_kings_pawns() {
        let c = white_king_and_pawn_terms("6k1/5ppp/8/4n1P1/7P/1b1P4/1P1B4/4K3 w - - 0 1");
        // g5 and h4 storm the king on g8.
        assert_eq!(&c[param::PAWN_STORM..param::PAWN_STORM + 4], &[0, 1, 1, 0]);
        // The dark bishop's pawns on dark squares: b2, g5, h4; b2 blocked.
        assert_eq!(&c[param::BAD_BISHOP..param::BAD_BISHOP + 2], &[3, 1]);
        assert_eq!(c[param::MINOR_BEHIND_PAWN], 1);
        // d3-d4 is safe and hits the knight on e5; g6 is not safe.
        assert_eq!(c[param::PAWN_PUSH_THREAT], 1);
        assert_eq!(c[param::KING_PAWN_DISTANCE], 2);
        // Space: ten safe central squares, four of them behind the pawns,
        // one piece besides the king: 14 * 1 / 4.
        let c = white_king_and_pawn_terms("4k3/8/8/8/3PP3/2N5/8/4K3 w - - 0 1");
        assert_eq!(c[param::SPACE], 3);
    }

    #[test]
    fn kings_files_rooks_ranks_and_mobility_counts() {
        // White's king on g1 with no g-pawn of its own (Black's on g7),
        // Black's on b8 with no b-pawn at all; a rook on d7 and one on d2.
        let b = board("1k6/3R2p1/8/8/8/8/3r1P1P/6KN w - - 0 1");
        let white = counts(|t| king_shelter(&b, Color::White, 1, t));
        let black = counts(|t| king_shelter(&b, Color::Black, -1, t));
        assert_eq!(
            (white[param::KING_FILE], white[param::KING_FILE + 1]),
            (1, 0)
        );
        assert_eq!(
            (black[param::KING_FILE], black[param::KING_FILE + 1]),
            (0, -1)
        );
        let white_rooks = counts(|t| rook_files(&b, Color::White, 1, t));
        let black_rooks = counts(|t| rook_files(&b, Color::Black, -1, t));
        assert_eq!(
            (
                white_rooks[param::ROOK_SEVENTH],
                black_rooks[param::ROOK_SEVENTH]
            ),
            (1, -1)
        );
        let white = counts(|t| {
            activity(&b, Color::White, 1, t);
        });
        // The knight on h1 reaches g3 and f2 (its own pawn's): one square.
        assert_eq!(white[param::MOBILITY_BY_COUNT + 1], 1);
    }

    #[test]
    fn the_trace_weighted_and_the_networks_correction_are_the_evaluation() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 0 8",
            "8/5pk1/6p1/3P4/2K5/8/5PP1/8 w - - 0 40",
            "1k6/3R2p1/8/8/8/8/3r1P1P/6KN w - - 0 1",
            "4k3/8/1n6/3N4/4P3/2K5/8/R7 b - - 0 1",
            "2r3k1/8/8/8/8/2P5/4P3/3RR1K1 b - - 0 1",
        ] {
            let b = board(fen);
            // The tempo is tapered on its own, from the side to move's view.
            let t = trace(&b).unwrap();
            let to_move = t.counts[param::TEMPO];
            let taper =
                |(mg, eg): (i32, i32)| (mg * t.phase + eg * (MAX_PHASE - t.phase)) / MAX_PHASE;
            let rest = t.counts.iter().zip(WEIGHTS).enumerate();
            let rest = rest.filter(|&(i, _)| i != param::TEMPO);
            let sum = rest.fold((0, 0), |(mg, eg), (_, (&c, w))| {
                (mg + c * w.0, eg + c * w.1)
            });
            assert_eq!(
                to_move * taper(sum)
                    + taper(WEIGHTS[param::TEMPO])
                    + super::super::net::correction(&b),
                evaluate(&b),
                "{fen}"
            );
        }
        assert_eq!(trace(&board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1")), None);
    }
}
