//! Why a FEN is refused: each field read on its own, so that an error names
//! the field, says what is wrong with it, and points at its column.
//! cozy-chess then reads the FEN (and is the rule of what is accepted); what
//! only a whole position shows (a side in check that may not be) is said
//! after it.

use cozy_chess::{Board, FenParseError};
use splitpoint::ParseError;

/// The six FEN fields' names, in order.
const FIELDS: [&str; 6] = [
    "board",
    "side to move",
    "castling rights",
    "en passant square",
    "halfmove clock",
    "fullmove number",
];

/// A FEN's fields, each with its column in the text.
pub(super) type Fields<'a> = [(usize, &'a str)];

/// An error in field `field` (0-based) at `column`.
fn bad(field: usize, column: usize, why: impl std::fmt::Display) -> ParseError {
    ParseError::at(column, format!("bad FEN {}: {why}", FIELDS[field]))
}

/// Checks each of the (four to six) fields on its own; `Ok` when none is
/// wrong by itself.
pub(super) fn check_fields(fields: &Fields) -> Result<(), ParseError> {
    let (start, placement) = fields[0];
    let grid = check_board(start, placement)?;
    let (at, side) = fields[1];
    let white = match side {
        "w" => true,
        "b" => false,
        _ => return Err(bad(1, at, format!("'{side}' is neither 'w' nor 'b'"))),
    };
    let (at, castling) = fields[2];
    check_castling(&grid, at, castling)?;
    let (at, ep) = fields[3];
    check_en_passant(&grid, white, at, ep)?;
    if let Some(&(at, clock)) = fields.get(4) {
        if !clock.parse::<u32>().is_ok_and(|n| n <= 100) {
            return Err(bad(
                4,
                at,
                format!("'{clock}' is not a number from 0 to 100"),
            ));
        }
    }
    if let Some(&(at, number)) = fields.get(5) {
        if !number.parse::<u16>().is_ok_and(|n| n >= 1) {
            return Err(bad(
                5,
                at,
                format!("'{number}' is not a number from 1 to 65535"),
            ));
        }
    }
    Ok(())
}

/// The board, `grid[rank][file]` from a1, each square its FEN letter or
/// `None`.
type Grid = [[Option<char>; 8]; 8];

/// The square's name, `e4`.
fn square(rank: usize, file: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn check_board(start: usize, placement: &str) -> Result<Grid, ParseError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(bad(
            0,
            start,
            format!("eight ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut grid: Grid = [[None; 8]; 8];
    let mut column = start;
    for (row, text) in ranks.iter().enumerate() {
        let rank = 7 - row;
        let mut file = 0;
        for (i, ch) in text.char_indices() {
            let at = column + i;
            match ch {
                '1'..='8' => file += ch as usize - '0' as usize,
                '0' | '9' => {
                    return Err(bad(
                        0,
                        at,
                        format!("'{ch}' is no count of empty squares (1 to 8)"),
                    ));
                }
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    if file < 8 {
                        grid[rank][file] = Some(ch);
                    }
                    file += 1;
                }
                _ => {
                    return Err(bad(
                        0,
                        at,
                        format!(
                            "'{ch}' is no piece (PNBRQK white, pnbrqk black) nor a count of empty squares"
                        ),
                    ));
                }
            }
            if file > 8 {
                return Err(bad(
                    0,
                    at,
                    format!("rank {} has more than 8 squares", rank + 1),
                ));
            }
        }
        if file != 8 {
            return Err(bad(
                0,
                column,
                format!("rank {} has {file} squares, not 8", rank + 1),
            ));
        }
        column += text.len() + 1;
    }
    for (king, colour) in [('K', "White"), ('k', "Black")] {
        let count = grid.iter().flatten().filter(|&&s| s == Some(king)).count();
        if count != 1 {
            return Err(bad(
                0,
                start,
                format!("{colour} has {count} kings, not one"),
            ));
        }
    }
    for (pawn, colour) in [('P', "white"), ('p', "black")] {
        for rank in [0, 7] {
            if let Some(file) = grid[rank].iter().position(|&s| s == Some(pawn)) {
                return Err(bad(
                    0,
                    start,
                    format!(
                        "a {colour} pawn on {}: pawns never stand on the first or last rank",
                        square(rank, file)
                    ),
                ));
            }
        }
    }
    for (white, colour) in [(true, "White"), (false, "Black")] {
        let ours = |s: &&Option<char>| s.is_some_and(|c| c.is_ascii_uppercase() == white);
        let pieces = grid.iter().flatten().filter(ours).count();
        let pawn = if white { 'P' } else { 'p' };
        let pawns = grid.iter().flatten().filter(|&&s| s == Some(pawn)).count();
        if pieces > 16 {
            return Err(bad(
                0,
                start,
                format!("{colour} has {pieces} pieces, more than 16"),
            ));
        }
        if pawns > 8 {
            return Err(bad(
                0,
                start,
                format!("{colour} has {pawns} pawns, more than 8"),
            ));
        }
    }
    Ok(grid)
}

/// Standard chess's rights only: the king on the e-file, the rooks in the
/// corners.
fn check_castling(grid: &Grid, at: usize, castling: &str) -> Result<(), ParseError> {
    if castling == "-" {
        return Ok(());
    }
    for (i, right) in castling.char_indices() {
        let (rank, rook_file, king, rook, colour) = match right {
            'K' => (0, 7, 'K', 'R', "white"),
            'Q' => (0, 0, 'K', 'R', "white"),
            'k' => (7, 7, 'k', 'r', "black"),
            'q' => (7, 0, 'k', 'r', "black"),
            _ => {
                return Err(bad(
                    2,
                    at + i,
                    format!(
                        "'{right}' is not one of K, Q, k, q (or '-' for none; Chess960 rights are not supported)"
                    ),
                ));
            }
        };
        if castling[..i].contains(right) {
            return Err(bad(2, at + i, format!("'{right}' is given twice")));
        }
        if grid[rank][4] != Some(king) {
            return Err(bad(
                2,
                at + i,
                format!("'{right}' needs the {colour} king on {}", square(rank, 4)),
            ));
        }
        if grid[rank][rook_file] != Some(rook) {
            return Err(bad(
                2,
                at + i,
                format!(
                    "'{right}' needs a {colour} rook on {}",
                    square(rank, rook_file)
                ),
            ));
        }
    }
    Ok(())
}

/// The square a pawn passed over in the last move: behind a pawn of the
/// side that just moved, with nothing on it or on the pawn's start.
fn check_en_passant(grid: &Grid, white: bool, at: usize, ep: &str) -> Result<(), ParseError> {
    if ep == "-" {
        return Ok(());
    }
    let bytes = ep.as_bytes();
    if bytes.len() != 2 || !(b'a'..=b'h').contains(&bytes[0]) || !(b'1'..=b'8').contains(&bytes[1])
    {
        return Err(bad(
            3,
            at,
            format!("'{ep}' is not a square (or '-' for none)"),
        ));
    }
    let file = usize::from(bytes[0] - b'a');
    let rank = usize::from(bytes[1] - b'1');
    // White to move: Black's pawn passed over the sixth rank.
    let (passed, pawn_rank, start_rank, pawn) = if white {
        (5, 4, 6, 'p')
    } else {
        (2, 3, 1, 'P')
    };
    let mover = if white { "Black" } else { "White" };
    if rank != passed {
        return Err(bad(
            3,
            at,
            format!(
                "{ep} is not on the {} rank, behind a pawn {mover} just moved two squares",
                if white { "sixth" } else { "third" }
            ),
        ));
    }
    if grid[pawn_rank][file] != Some(pawn)
        || grid[rank][file].is_some()
        || grid[start_rank][file].is_some()
    {
        return Err(bad(
            3,
            at,
            format!(
                "no {} pawn on {} can just have moved two squares past {ep}",
                mover.to_lowercase(),
                square(pawn_rank, file)
            ),
        ));
    }
    Ok(())
}

/// What cozy-chess's refusal `e` of a FEN whose fields [`check_fields`]
/// passed means: what is wrong with the whole position.
pub(super) fn explain(fields: &Fields, e: FenParseError) -> ParseError {
    let field = match e {
        FenParseError::InvalidBoard => 0,
        FenParseError::InvalidSideToMove => 1,
        FenParseError::InvalidCastlingRights => 2,
        FenParseError::InvalidEnPassant => 3,
        FenParseError::InvalidHalfMoveClock => 4,
        FenParseError::InvalidFullmoveNumber => 5,
        FenParseError::MissingField | FenParseError::TooManyFields => {
            return ParseError::new(format!("bad FEN: {e}"));
        }
    };
    let (at, _) = fields[field];
    if field == 0 {
        // The placement itself passed: a side is in check that may not be.
        let white = fields[1].1 == "w";
        let (us, them) = if white {
            ("White", "Black")
        } else {
            ("Black", "White")
        };
        let flipped = format!("{} {} - - 0 1", fields[0].1, if white { "b" } else { "w" });
        let why = match Board::from_fen(&flipped, false) {
            Ok(b) if !b.checkers().is_empty() => format!("{them} is in check with {us} to move"),
            Ok(_) => format!("{us} is in check from more than two pieces"),
            Err(_) => format!(
                "{them} is in check with {us} to move, or {us} is in check from more than two pieces"
            ),
        };
        return bad(0, at, why);
    }
    if field == 3 {
        // The pawn is there, but the check the side to move is in could not
        // have come from the pawn's move.
        return bad(
            3,
            at,
            format!(
                "{} does not fit the check {} is in",
                fields[3].1,
                if fields[1].1 == "w" { "White" } else { "Black" }
            ),
        );
    }
    bad(field, at, e)
}
