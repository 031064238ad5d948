//! The match's openings: a built-in book of balanced main lines, or a file
//! of FENs / EPD lines.

use splitpoint::Game;
use splitpoint_games::chess::Chess;

/// Main lines of common openings, a few moves deep, that leave neither side
/// clearly better, each leading to a position of its own; each is played
/// once with each colour.
const BOOK: &[&str] = &[
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
    "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6 Bxc6 dxc6 dxe5 Nf5", // Berlin
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6", // Closed Ruy Lopez
    "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6",          // Ruy Lopez, exchange
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4 d4 b5 Bb3 d5 dxe5 Be6", // Open Ruy Lopez
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 O-O c3 d5", // Marshall
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 d6 c3 Bd7",             // Steinitz deferred
    "e4 e5 Nf3 Nc6 Bb5 Bc5 c3 Nf6 O-O O-O",           // Ruy Lopez, classical
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O b5 Bb3 Bb7",    // Arkhangelsk
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 d3 b5 Bb3 Be7",     // Ruy Lopez, d3
    "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7",                   // Two knights, d3
    "e4 e5 Nf3 Nc6 Bc4 Bc5 d3 Nf6 c3 d6",             // Giuoco pianissimo
    "e4 e5 Nf3 Nc6 Bc4 Be7 d4 d6",                    // Hungarian
    "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4",                  // Four knights, Spanish
    "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7",                   // Philidor
    "e4 e5 Nc3 Nf6 g3 d5 exd5 Nxd5",                  // Vienna
    "e4 e5 Nf3 Nf6 d4 Nxe4 Bd3 d5 Nxe5 Nd7",          // Petrov, Steinitz
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Bc5 Be3 Qf6",         // Scotch, Bc5
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6 e5 Qe7", // Scotch, Mieses
    "e4 e5 Bc4 Nf6 d3 c6 Nf3 d5",                     // Bishop's opening
    "e4 e5 d4 exd4 Qxd4 Nc6 Qe3 Nf6",                 // Centre game
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6",           // Dragon
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6 Bg5 e6",   // Richter-Rauzer
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6 Bd3 Nf6",           // Kan
    "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7",                   // Rossolimo
    "e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7",               // Moscow
    "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6",              // Closed Sicilian
    "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4 Nf3 Nc6",            // Alapin
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 d6",           // Scheveningen
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6 c4 Bg7",           // Maroczy bind
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 Bb4",          // Sicilian, pin
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 e5 Nb5 d6",           // Kalashnikov
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6", // Najdorf, English attack
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 d6 Bc4 e6",   // Sozin
    "e4 c5 Nf3 g6 d4 cxd4 Nxd4 Nc6 Nc3 Bg7 Be3 Nf6",  // Accelerated dragon
    "e4 c5 d4 cxd4 c3 Nf6 e5 Nd5 cxd4 d6",            // Morra declined
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Qc7 Nc3 e6",          // Taimanov, Qc7
    "e4 c5 Nf3 e6 c3 d5 exd5 exd5 d4 Nc6",            // Sicilian, c3 d5
    "e4 c5 Nf3 Nc6 Nc3 e5 Bc4 Be7 d3 d6",             // Sicilian, e5
    "e4 c5 Nf3 d6 d4 Nf6 Nc3 cxd4 Nxd4 a6 Bg5 e6",    // Najdorf, Bg5
    "e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6",               // French, advance
    "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3 Ne7",    // Winawer
    "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6",                  // French, exchange
    "e4 e6 d4 d5 Nc3 dxe4 Nxe4 Nd7 Nf3 Ngf6",         // French, Rubinstein
    "e4 e6 d4 d5 Nc3 Nf6 e5 Nfd7 f4 c5 Nf3 Nc6",      // French, Steinitz
    "e4 e6 d4 d5 Nd2 Nf6 e5 Nfd7 Bd3 c5 c3 Nc6",      // Tarrasch, closed
    "e4 c6 d4 d5 e5 Bf5 Nf3 e6",                      // Caro-Kann, advance
    "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6 c3 Nf6",           // Caro-Kann, exchange
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nd7 Nf3 Ngf6",         // Caro-Kann, Karpov
    "e4 c6 Nc3 d5 Nf3 Bg4 h3 Bxf3 Qxf3 e6",           // Caro-Kann, two knights
    "e4 c6 d4 d5 Nd2 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6",    // Caro-Kann, classical
    "e4 c6 d4 d5 exd5 cxd5 c4 Nf6 Nc3 e6",            // Panov
    "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6",          // Scandinavian
    "e4 d5 exd5 Nf6 d4 Nxd5 Nf3 g6",                  // Scandinavian, Nf6
    "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4 Be2 e6",             // Alekhine
    "e4 g6 d4 Bg7 Nc3 d6 Nf3 Nf6",                    // Modern
    "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7 Be2 O-O",            // Pirc, classical
    "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5 Bg5 Be7",          // QGD, exchange
    "d4 d5 c4 e6 Nf3 Nf6 g3 Be7 Bg2 O-O",             // Catalan, closed
    "d4 d5 c4 e6 Nc3 c5 cxd5 exd5 Nf3 Nc6",           // Tarrasch
    "d4 d5 c4 c6 Nc3 Nf6 e3 e6 Nf3 Nbd7",             // Semi-Slav
    "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6 Bg5 h6",              // Semi-Slav, Moscow
    "d4 d5 c4 c6 cxd5 cxd5 Nc3 Nf6 Bf4 Nc6",          // Slav, exchange
    "d4 d5 c4 Nc6 Nc3 dxc4 Nf3 Nf6",                  // Chigorin
    "d4 d5 c4 c6 Nf3 Nf6 e3 Bf5 Nc3 e6",              // Slav, Bf5
    "d4 d5 c4 dxc4 Nf3 a6 e3 Nf6 Bxc4 e6",            // QGA, a6
    "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3 b6",  // Nimzo-Indian, Qc2
    "d4 Nf6 c4 e6 Nc3 Bb4 e3 c5 Bd3 Nc6",             // Nimzo-Indian, Rubinstein
    "d4 Nf6 c4 e6 Nc3 Bb4 f3 d5 a3 Bxc3+ bxc3 c5",    // Nimzo-Indian, Sämisch
    "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7",                  // Bogo-Indian
    "d4 Nf6 c4 e6 Nf3 b6 a3 Bb7 Nc3 d5",              // Queen's Indian, Petrosian
    "d4 Nf6 c4 e6 Nf3 d5 Nc3 Be7 Bf4 O-O",            // QGD, Bf4
    "d4 Nf6 c4 e6 Nc3 d5 Bg5 Nbd7 e3 c6",             // QGD, Cambridge Springs
    "d4 Nf6 c4 e6 g3 Bb4+ Bd2 Be7 Bg2 d5",            // Catalan, Bb4+
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6", // King's Indian, classical
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 f3 O-O Be3 e5",       // King's Indian, Sämisch
    "d4 Nf6 c4 g6 g3 Bg7 Bg2 O-O Nc3 d6 Nf3 Nbd7",    // King's Indian, fianchetto
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 h3 O-O",              // King's Indian, Makogonov
    "d4 Nf6 c4 g6 Nc3 d5 Nf3 Bg7 Qb3 dxc4 Qxc4 O-O",  // Grünfeld, Russian
    "d4 Nf6 c4 g6 Nc3 d5 Bf4 Bg7 e3 O-O",             // Grünfeld, Bf4
    "d4 Nf6 c4 g6 Nf3 Bg7 g3 O-O Bg2 d5 cxd5 Nxd5",   // Neo-Grünfeld
    "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6",            // Modern Benoni
    "d4 Nf6 c4 d6 Nc3 e5 Nf3 Nbd7 e4 Be7",            // Old Indian
    "d4 e6 c4 Bb4+ Bd2 Bxd2+ Qxd2 Nf6",               // Keres defence
    "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7",                    // Dutch, Leningrad
    "d4 f5 c4 Nf6 g3 e6 Bg2 d5 Nf3 c6",               // Dutch, stonewall
    "d4 Nf6 Bg5 e6 e4 h6 Bxf6 Qxf6",                  // Trompowsky
    "d4 Nf6 Nf3 e6 e3 c5 Bd3 d5 b3 Nc6",              // Colle-Zukertort
    "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6 Nd2 e6",              // London, c5
    "d4 d5 Nf3 Nf6 e3 Bf5 Bd3 e6 Bxf5 exf5",          // Colle, Bf5
    "d4 Nf6 Nf3 g6 Bf4 Bg7 e3 O-O Be2 d6",            // London against g6
    "c4 e5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6",              // English, closed
    "c4 Nf6 Nc3 e6 Nf3 d5 d4 Be7",                    // English into QGD
    "c4 c5 Nf3 Nf6 Nc3 Nc6 g3 d5 cxd5 Nxd5",          // English, symmetrical d5
    "c4 Nf6 g3 c6 Bg2 d5 Nf3 Bf5 O-O e6",             // English, Slav set-up
    "c4 e5 g3 Nf6 Bg2 d5 cxd5 Nxd5 Nc3 Nb6",          // English, reversed dragon
    "c4 g6 Nc3 Bg7 g3 c5 Bg2 Nc6 Nf3 e6",             // English, hedgehog set-up
    "Nf3 c5 c4 Nc6 Nc3 e5 g3 g6 Bg2 Bg7",             // English, Botvinnik
    "Nf3 Nf6 g3 g6 Bg2 Bg7 O-O O-O d3 d6",            // King's Indian attack
    "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7 O-O O-O",            // Réti, closed
    "Nf3 d5 d4 Nf6 c4 c6 e3 Bf5",                     // Slav by Réti's order
    "g3 e5 Bg2 d5 d3 Nf6 Nf3 Nc6",                    // Benko's opening
    "b3 e5 Bb2 Nc6 e3 d5 Bb5 Bd6",                    // Larsen
    "f4 d5 Nf3 Nf6 e3 g6 Be2 Bg7",                    // Bird
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
        let mut seen = std::collections::HashMap::new();
        for opening in &book {
            let fen = opening.position.position_text();
            let key: Vec<&str> = fen.split_whitespace().take(4).collect();
            if let Some(other) = seen.insert(key.join(" "), &opening.name) {
                panic!("{} and {other} reach the same position", opening.name);
            }
        }
        assert!(book.len() >= 100);
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
