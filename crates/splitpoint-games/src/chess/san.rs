//! Standard algebraic notation (`Nbd2`, `exd5`, `O-O`, `e8=Q+`), read by
//! matching against the legal moves, so anything accepted is legal.

use cozy_chess::{File, Move, Piece, Rank, Square};
use splitpoint::{Game, MoveList, ParseError};

use super::position::Chess;

/// The piece a SAN letter names (`None` for a letter that names no piece).
fn piece_of(letter: char) -> Option<Piece> {
    match letter {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

/// The SAN letter of a piece (pawns have none).
fn letter_of(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// Reads `text` as a SAN move legal in `pos`.
pub(super) fn parse(pos: &Chess, text: &str) -> Result<Move, ParseError> {
    let bad = || ParseError::new(format!("'{text}' is not a SAN move"));
    let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut legal = MoveList::new();
    pos.generate_moves(&mut legal);

    let castle = match core {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return legal
            .iter()
            .copied()
            .find(|&mv| pos.is_castling(mv) && (mv.to.file() > mv.from.file()) == short)
            .ok_or_else(|| ParseError::new(format!("{text}: castling is not legal here")));
    }

    if !core.is_ascii() || core.len() < 2 {
        return Err(bad());
    }
    // Promotion: `e8=Q` or `e8Q`.
    let (body, promotion) = match core.rsplit_once('=') {
        Some((body, p)) => (
            body,
            Some(p.chars().next().and_then(piece_of).ok_or_else(bad)?),
        ),
        None => match core.chars().last().and_then(piece_of) {
            Some(p) => (&core[..core.len() - 1], Some(p)),
            None => (core, None),
        },
    };
    let (piece, body) = match body.chars().next().and_then(piece_of) {
        Some(p) => (p, &body[1..]),
        None => (Piece::Pawn, body),
    };
    let body: String = body.chars().filter(|&c| c != 'x' && c != '-').collect();
    if body.len() < 2 {
        return Err(bad());
    }
    let to: Square = body[body.len() - 2..].parse().map_err(|_| bad())?;
    // What is left names the origin's file, rank or both.
    let mut from_file = None;
    let mut from_rank = None;
    for c in body[..body.len() - 2].chars() {
        if let Ok(f) = File::try_from(c) {
            from_file = Some(f);
        } else if let Ok(r) = Rank::try_from(c) {
            from_rank = Some(r);
        } else {
            return Err(bad());
        }
    }

    let board = pos.board();
    let mut found = None;
    for &mv in &legal {
        let matches = board.piece_on(mv.from) == Some(piece)
            && !pos.is_castling(mv)
            && mv.to == to
            && mv.promotion == promotion
            && from_file.is_none_or(|f| mv.from.file() == f)
            && from_rank.is_none_or(|r| mv.from.rank() == r);
        if matches {
            if found.is_some() {
                return Err(ParseError::new(format!("{text} is ambiguous here")));
            }
            found = Some(mv);
        }
    }
    found.ok_or_else(|| ParseError::new(format!("{text} is not legal in this position")))
}

/// Writes the legal move `mv` of `pos` in SAN.
pub(super) fn write(pos: &Chess, mv: Move) -> String {
    let board = pos.board();
    let Some(piece) = board.piece_on(mv.from) else {
        return mv.to_string();
    };
    let mut text = String::with_capacity(8);
    if pos.is_castling(mv) {
        text.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let capture = pos.captured(mv).is_some();
        text.push_str(letter_of(piece));
        if piece == Piece::Pawn {
            if capture {
                text.push(char::from(mv.from.file()));
            }
        } else {
            // Disambiguate by file, else rank, else both.
            let mut legal = MoveList::new();
            pos.generate_moves(&mut legal);
            let rivals: Vec<Square> = legal
                .iter()
                .filter(|m| {
                    m.to == mv.to && m.from != mv.from && board.piece_on(m.from) == Some(piece)
                })
                .map(|m| m.from)
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|s| s.file() != mv.from.file()) {
                    text.push(char::from(mv.from.file()));
                } else if rivals.iter().all(|s| s.rank() != mv.from.rank()) {
                    text.push(char::from(mv.from.rank()));
                } else {
                    text.push_str(&mv.from.to_string());
                }
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(&mv.to.to_string());
        if let Some(p) = mv.promotion {
            text.push('=');
            text.push_str(letter_of(p));
        }
    }
    let next = pos.play(mv);
    if next.in_check() {
        let mut replies = MoveList::new();
        next.generate_moves(&mut replies);
        text.push(if replies.is_empty() { '#' } else { '+' });
    }
    text
}
