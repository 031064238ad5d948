//! Text forms: PDN FEN and Hub positions, PDN and Hub moves.
//!
//! PDN writes a capture by its first and last squares (`19x30`) unless two
//! legal captures share them; then it writes the whole route (FMJD's PDN 3.0
//! rule): after each captured piece but the last, the square where the piece
//! turns, or the square just behind the captured piece when it flies on in
//! the same direction (`37x28x19`). Hub (the protocol of the Scan engine)
//! instead lists the captured pieces after the last square, in any order
//! (`28x19x23`). Both forms name one move however many routes reach it.

use splitpoint::{Game, ParseError};

use super::board::{Bits, SQUARES, bit_of, row, square_of, step};
use super::position::{Draughts, Move, START_FEN};

/// The PDN FEN of `pos`: side to move, then White's and Black's pieces, runs
/// of two or more consecutive squares of one kind as ranges (`W:W31-50:B1-20`,
/// `B:WK3,28-30:B7,K44`).
pub fn fen(pos: &Draughts) -> String {
    let side = if pos.white_to_move() { 'W' } else { 'B' };
    let mut text = String::from(side);
    for (colour, pieces) in [('W', pos.white()), ('B', pos.black())] {
        text.push(':');
        text.push(colour);
        let squares: Vec<(u32, bool)> = Bits(pieces)
            .map(|bit| (square_of(bit), pos.kings() & 1 << bit != 0))
            .collect();
        let mut i = 0;
        let mut first = true;
        while i < squares.len() {
            let (start, king) = squares[i];
            let mut end = i;
            while end + 1 < squares.len() && squares[end + 1] == (squares[end].0 + 1, king) {
                end += 1;
            }
            if !first {
                text.push(',');
            }
            first = false;
            if king {
                text.push('K');
            }
            text.push_str(&start.to_string());
            if end > i {
                text.push('-');
                text.push_str(&squares[end].0.to_string());
            }
            i = end + 1;
        }
    }
    text
}

/// The Hub form of `pos`: `W` or `B`, then one of `w b W B e` (men, kings,
/// empty) per square 1..=50.
pub fn hub_position(pos: &Draughts) -> String {
    let mut text = String::with_capacity(51);
    text.push(if pos.white_to_move() { 'W' } else { 'B' });
    for n in 1..=50 {
        let b = 1u64 << bit_of(n);
        let king = pos.kings() & b != 0;
        text.push(match (pos.white() & b != 0, pos.black() & b != 0, king) {
            (true, _, false) => 'w',
            (true, _, true) => 'W',
            (_, true, false) => 'b',
            (_, true, true) => 'B',
            _ => 'e',
        });
    }
    text
}

/// Reads a PDN FEN, a Hub position, or `start` / `startpos`.
pub fn parse_position(text: &str) -> Result<Draughts, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::new(
            "empty position: expected a PDN FEN such as W:W31-50:B1-20, or 'start'",
        ));
    }
    if text == "start" || text == "startpos" {
        return parse_position(START_FEN);
    }
    if text.len() == 51 && !text.contains(':') {
        return parse_hub(text);
    }
    parse_fen(text)
}

fn parse_hub(text: &str) -> Result<Draughts, ParseError> {
    let bytes = text.as_bytes();
    let white_to_move = match bytes[0] {
        b'W' => true,
        b'B' => false,
        _ => {
            return Err(ParseError::at(
                0,
                "a Hub position starts with the side to move, W or B",
            ));
        }
    };
    let (mut white, mut black, mut kings) = (0, 0, 0);
    for (i, &c) in bytes[1..].iter().enumerate() {
        let b = 1u64 << bit_of(i as u32 + 1);
        match c {
            b'w' => white |= b,
            b'b' => black |= b,
            b'W' => (white, kings) = (white | b, kings | b),
            b'B' => (black, kings) = (black | b, kings | b),
            b'e' => {}
            _ => {
                return Err(ParseError::at(
                    i + 1,
                    "a Hub square is one of w, b, W, B (kings) or e (empty)",
                ));
            }
        }
    }
    check_men(white, black, kings)?;
    Ok(Draughts::from_pieces(white, black, kings, white_to_move))
}

fn parse_fen(text: &str) -> Result<Draughts, ParseError> {
    // `[FEN "…"]` tags quote the FEN and may end it with a full stop.
    let text = text.trim_matches('"').trim_end_matches('.');
    let mut fields = text.split(':');
    let side = fields.next().unwrap_or("").trim();
    let white_to_move = match side {
        "W" | "w" => true,
        "B" | "b" => false,
        _ => {
            return Err(ParseError::at(
                0,
                format!(
                    "a FEN starts with the side to move, W or B, not '{}'",
                    clip(side)
                ),
            ));
        }
    };
    let (mut white, mut black, mut kings) = (None, None, 0u64);
    let mut column = side.len() + 1;
    for field in fields {
        let trimmed = field.trim();
        let (colour, list) = match trimmed.as_bytes().first() {
            Some(b'W' | b'w') => (&mut white, &trimmed[1..]),
            Some(b'B' | b'b') => (&mut black, &trimmed[1..]),
            _ => {
                return Err(ParseError::at(
                    column,
                    format!(
                        "expected a colour field such as W31-50 or B1-20, found '{}'",
                        clip(trimmed)
                    ),
                ));
            }
        };
        if colour.is_some() {
            return Err(ParseError::at(column, "a colour is given twice"));
        }
        let (pieces, crowned) = parse_pieces(list).map_err(|e| ParseError::at(column, e))?;
        *colour = Some(pieces);
        kings |= crowned;
        column += field.len() + 1;
    }
    let (Some(white), Some(black)) = (white, black) else {
        return Err(ParseError::new(
            "a FEN has the side to move and both colours: W:W31-50:B1-20",
        ));
    };
    if white & black != 0 {
        let square = square_of((white & black).trailing_zeros());
        return Err(ParseError::new(format!(
            "square {square} holds both a white and a black piece"
        )));
    }
    check_men(white, black, kings)?;
    Ok(Draughts::from_pieces(white, black, kings, white_to_move))
}

/// One colour's comma-separated squares (`31-50`, `K3`, `K3-5`, `12,15`):
/// the pieces and the kings among them, as bitboards.
fn parse_pieces(list: &str) -> Result<(u64, u64), String> {
    let (mut pieces, mut kings) = (0u64, 0u64);
    for item in list.split(',').map(str::trim) {
        if item.is_empty() {
            if list.trim().is_empty() {
                break; // a colour with no pieces
            }
            return Err("empty square in a piece list".into());
        }
        let (king, range) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (square(a)?, square(b.trim_start_matches(['K', 'k']))?),
            None => (square(range)?, square(range)?),
        };
        if first > last {
            return Err(format!("the range {item} runs backwards"));
        }
        for n in first..=last {
            let b = 1u64 << bit_of(n);
            if pieces & b != 0 {
                return Err(format!("square {n} is given twice"));
            }
            pieces |= b;
            if king {
                kings |= b;
            }
        }
    }
    Ok((pieces, kings))
}

/// A square number, 1..=50.
fn square(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=50).contains(&n) => Ok(n),
        _ => Err(format!("'{}' is not a square from 1 to 50", clip(text))),
    }
}

/// A man on its own side's promotion row would have been crowned.
fn check_men(white: u64, black: u64, kings: u64) -> Result<(), ParseError> {
    if (white | black).count_ones() > 40 {
        return Err(ParseError::new("more than 40 pieces"));
    }
    for (men, promotion, colour) in [
        (white & !kings, row(0), "white"),
        (black & !kings, row(9), "black"),
    ] {
        if men & promotion != 0 {
            let square = square_of((men & promotion).trailing_zeros());
            return Err(ParseError::new(format!(
                "a {colour} man on {square} would already be a king"
            )));
        }
    }
    Ok(())
}

/// The PDN text of the legal move `mv`.
pub fn move_text(pos: &Draughts, mv: Move) -> String {
    let (from, to) = (mv.from_square(), mv.to_square());
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let ambiguous = pos
        .legal_moves()
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m.captured != mv.captured);
    let Some(route) = ambiguous.then(|| pos.find_route(mv)).flatten() else {
        return format!("{from}x{to}");
    };
    let mut text = from.to_string();
    let n = route.victims.len();
    for i in 0..n - 1 {
        let turn = route.dirs[i + 1] != route.dirs[i];
        let square = if turn {
            route.landings[i]
        } else {
            step(route.victims[i], route.dirs[i])
        };
        text.push('x');
        text.push_str(&square_of(square.trailing_zeros()).to_string());
    }
    text.push('x');
    text.push_str(&to.to_string());
    text
}

/// The Hub text of the legal move `mv`: `32-28`, or from, to and every
/// captured piece in increasing order (`28x19x23`).
pub fn hub_move_text(mv: Move) -> String {
    let (from, to) = (mv.from_square(), mv.to_square());
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut text = format!("{from}x{to}");
    for c in mv.captured_squares() {
        text.push('x');
        text.push_str(&c.to_string());
    }
    text
}

/// Reads a PDN move (short or full route) or a Hub move legal in `pos`.
pub fn parse_move(pos: &Draughts, text: &str) -> Result<Move, ParseError> {
    let text = text.trim();
    let capture = text.contains(['x', 'X']);
    let separators: &[char] = if capture { &['x', 'X'] } else { &['-'] };
    let squares: Vec<u32> = text
        .split(separators)
        .map(square)
        .collect::<Result<_, _>>()
        .ok()
        .filter(|s: &Vec<u32>| s.len() >= 2 && (capture || s.len() == 2))
        .ok_or_else(|| {
            ParseError::new(format!(
                "'{}' is not a move: expected squares 1-50 joined by '-' (32-28) or 'x' (19x30)",
                clip(text)
            ))
        })?;
    let legal = pos.legal_moves();
    let (from, to) = (
        bit_of(squares[0]) as u8,
        bit_of(squares[squares.len() - 1]) as u8,
    );
    let not_legal = || {
        let why = match legal.first() {
            Some(m) if m.is_capture() => {
                let n = m.capture_count();
                format!(
                    " (a capture of {n} piece{} is compulsory)",
                    if n == 1 { "" } else { "s" }
                )
            }
            None => " (the side to move has no move)".into(),
            _ => String::new(),
        };
        ParseError::new(format!("{} is not legal in this position{why}", clip(text)))
    };
    if !capture {
        return legal
            .iter()
            .find(|m| m.from == from && m.to == to && !m.is_capture())
            .copied()
            .ok_or_else(not_legal);
    }
    if squares.len() == 2 {
        let mut matching = legal
            .iter()
            .filter(|m| m.from == from && m.to == to && m.is_capture());
        return match (matching.next(), matching.next()) {
            (Some(&mv), None) => Ok(mv),
            (Some(_), Some(_)) => Err(ParseError::new(format!(
                "{text} is ambiguous: more than one capture goes from {} to {}; write the route ({})",
                squares[0],
                squares[1],
                legal
                    .iter()
                    .filter(|m| m.from == from && m.to == to)
                    .map(|&m| move_text(pos, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            _ => Err(not_legal()),
        };
    }
    // A route's squares, or Hub's from, to and captured pieces: a route ends
    // on an empty square and Hub's list on a captured piece, so at most one
    // reading names a legal move.
    let route = route_captures(pos, &squares).map(|captured| (to, captured));
    let hub = hub_captures(&squares).map(|captured| (bit_of(squares[1]) as u8, captured));
    [route, hub]
        .into_iter()
        .flatten()
        .find_map(|(to, captured)| {
            legal
                .iter()
                .find(|m| m.from == from && m.to == to && m.captured == captured)
                .copied()
        })
        .ok_or_else(not_legal)
}

/// The pieces a route over `squares` jumps: between each two squares, on one
/// diagonal, exactly one enemy piece not yet jumped, and the next square empty.
fn route_captures(pos: &Draughts, squares: &[u32]) -> Option<u64> {
    let (us, them) = if pos.white_to_move() {
        (pos.white(), pos.black())
    } else {
        (pos.black(), pos.white())
    };
    let from = 1u64 << bit_of(squares[0]);
    let empty = pos.empty() | from;
    let mut captured = 0u64;
    for pair in squares.windows(2) {
        let (a, b) = (1u64 << bit_of(pair[0]), 1u64 << bit_of(pair[1]));
        let d = super::board::DIRS.into_iter().find(|&d| {
            let mut sq = step(a, d);
            while sq != 0 && sq != b {
                sq = step(sq, d);
            }
            sq == b
        })?;
        let mut between = 0u64;
        let mut sq = step(a, d);
        while sq != b {
            between |= sq;
            sq = step(sq, d);
        }
        let pieces = between & !empty;
        let victim = pieces & them & !captured;
        if pieces.count_ones() != 1 || victim == 0 || b & empty == 0 || b & us & !from != 0 {
            return None;
        }
        captured |= victim;
    }
    Some(captured)
}

/// Hub's captured pieces: every square after the second.
fn hub_captures(squares: &[u32]) -> Option<u64> {
    let mut captured = 0u64;
    for &n in &squares[2..] {
        let b = 1u64 << bit_of(n);
        if captured & b != 0 {
            return None;
        }
        captured |= b;
    }
    (captured & SQUARES == captured).then_some(captured)
}

/// At most 40 characters of a user's text, for echoing it back.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}
