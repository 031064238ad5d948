//! The match's openings: a built-in book of balanced main lines, or a file
//! of FENs / EPD lines.

use splitpoint::Game;
use splitpoint_games::chess::Chess;

/// Main lines of common openings, a few moves deep, that leave neither side
/// clearly better; each is played once with each colour.
const BOOK: [&str; 24] = [
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",                   // Ruy Lopez
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6",                   // Italian
    "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4",                 // Petrov
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",           // Najdorf
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5",          // Sveshnikov
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6",                  // Taimanov
    "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7",                    // French, classical
    "e4 e6 d4 d5 Nd2 c5 exd5 exd5",                   // French, Tarrasch
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5",                  // Caro-Kann
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7",                    // Pirc
    "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7",                    // Queen's Gambit Declined
    "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4",                   // Slav
    "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6",                    // Queen's Gambit Accepted
    "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O",                    // Nimzo-Indian
    "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7",                     // Queen's Indian
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O",             // King's Indian
    "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3 Bg7", // Grünfeld
    "d4 Nf6 c4 e6 g3 d5 Bg2 Be7",                     // Catalan
    "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5",                     // London
    "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5",                    // English, four knights
    "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7",                    // English, symmetrical
    "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4",                   // Réti
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6",                 // Scotch
    "e4 e5 Nc3 Nf6 Nf3 Nc6 d4 exd4 Nxd4 Bb4",         // Four knights, Scotch
];

/// An opening: where the games start, as an engine is told it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the moves start from (`startpos` or a FEN).
    pub start: String,
    /// The moves to play from it, in UCI notation.
    pub moves: Vec<String>,
    /// The position after them.
    pub position: Chess,
    /// A name for the report: the SAN line or the FEN.
    pub name: String,
}

/// The built-in book.
pub fn book() -> Vec<Opening> {
    BOOK.iter()
        .map(|line| {
            let mut pos = Chess::start();
            let mut moves = Vec::new();
            for san in line.split_whitespace() {
                // The book is ours and is tested: every move is legal.
                let mv = pos.parse_san(san).expect("the book's moves are legal");
                moves.push(pos.move_text(mv));
                pos = pos.play(mv);
            }
            Opening {
                start: "startpos".into(),
                moves,
                position: pos,
                name: (*line).to_string(),
            }
        })
        .collect()
}

/// Openings read from `text`: one position a line, a FEN or an EPD line
/// (whose operations, after the fourth field, are ignored); blank lines
/// and lines starting with `#` skipped.
///
/// # Errors
/// The line number and what is wrong with its position.
pub fn parse(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        // A FEN has six fields and an EPD line four plus operations: keep
        // the halfmove and fullmove numbers only when they are numbers.
        let numeric = |f: Option<&&str>| f.is_some_and(|f| f.parse::<u32>().is_ok());
        let take = if numeric(fields.get(4)) && numeric(fields.get(5)) {
            6
        } else {
            4.min(fields.len())
        };
        let fen = fields[..take].join(" ");
        let position =
            Chess::parse_position(&fen).map_err(|e| format!("line {}: {}", i + 1, e.message))?;
        if position.outcome().is_some() {
            return Err(format!("line {}: the game is already over there", i + 1));
        }
        openings.push(Opening {
            start: format!("fen {}", position.position_text()),
            moves: Vec::new(),
            name: position.position_text(),
            position,
        });
    }
    if openings.is_empty() {
        return Err("no position in the file".into());
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_is_legal_and_balanced_in_material() {
        let book = book();
        assert_eq!(book.len(), BOOK.len());
        for opening in &book {
            assert!(opening.position.outcome().is_none(), "{}", opening.name);
            // Even material: the static score stays near the tempo bonus.
            let score = splitpoint_games::chess::evaluate(opening.position.board());
            assert!(score.abs() < 120, "{}: {score}", opening.name);
            assert_eq!(opening.moves.len(), opening.name.split_whitespace().count());
        }
        let castles = &book[13];
        assert_eq!(castles.moves.last().map(String::as_str), Some("e8g8"));
    }

    #[test]
    fn files_take_fens_and_epd_lines() {
        let text = "# a comment\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
            \n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n";
        let openings = parse(text).unwrap();
        assert_eq!(openings.len(), 2);
        assert!(
            openings[0]
                .start
                .starts_with("fen rnbqkbnr/pppppppp/8/8/4P3")
        );
        assert!(
            openings[1].name.ends_with("w KQkq - 0 1"),
            "{}",
            openings[1].name
        );
        assert!(parse("nonsense\n").unwrap_err().starts_with("line 1: "));
        assert!(parse("# nothing\n").is_err());
        assert!(
            parse("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
                .unwrap_err()
                .contains("over")
        );
    }
}
