//! EPD test suites, and the Bratko–Kopec test (24 positions with their best
//! moves) shipped in `data/bratko-kopec.epd`.

use cozy_chess::Move;
use splitpoint::{Game, ParseError};

use super::position::Chess;

/// The Bratko–Kopec suite as shipped.
const BRATKO_KOPEC_EPD: &str = include_str!("../../data/bratko-kopec.epd");

/// One EPD record: a position, its best moves and its name.
#[derive(Clone, Debug)]
pub struct EpdPosition {
    /// The `id` operation (`BK.01`), or the line number when there is none.
    pub id: String,
    /// The position (no history; halfmove clock 0, fullmove number 1 when the
    /// record gives no `hmvc` / `fmvn`).
    pub position: Chess,
    /// The `bm` moves, read from SAN; empty when the record has none.
    pub best_moves: Vec<Move>,
}

/// The 24 Bratko–Kopec positions with their best moves.
///
/// # Panics
/// Only if the bundled file is malformed, which a unit test rules out.
pub fn bratko_kopec() -> Vec<EpdPosition> {
    parse_epd(BRATKO_KOPEC_EPD).unwrap_or_else(|e| panic!("bundled Bratko-Kopec suite: {e}"))
}

/// Reads EPD text: one record a line (blank lines and `#` comments skipped),
/// four FEN fields then `;`-terminated operations, of which `bm` (best moves,
/// SAN), `id`, `hmvc` and `fmvn` are read and the rest ignored.
///
/// # Errors
/// A [`ParseError`] naming the line (as `column`, 0-based) of the first bad record.
pub fn parse_epd(text: &str) -> Result<Vec<EpdPosition>, ParseError> {
    let mut records = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let record = parse_record(line, n + 1).map_err(|e| ParseError {
            message: format!("line {}: {}", n + 1, e.message),
            column: Some(n),
        })?;
        records.push(record);
    }
    Ok(records)
}

fn parse_record(line: &str, line_number: usize) -> Result<EpdPosition, ParseError> {
    let mut fields = line.splitn(5, char::is_whitespace);
    let fen: Vec<&str> = fields.by_ref().take(4).collect();
    if fen.len() < 4 {
        return Err(ParseError::new("an EPD record starts with four FEN fields"));
    }
    let operations = fields.next().unwrap_or("");
    let mut halfmove = "0".to_string();
    let mut fullmove = "1".to_string();
    let mut id = None;
    let mut best = Vec::new();
    for op in operations
        .split(';')
        .map(str::trim)
        .filter(|op| !op.is_empty())
    {
        let (code, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operands = operands.trim();
        match code {
            "id" => id = Some(operands.trim_matches('"').to_string()),
            "bm" if operands.is_empty() => {
                return Err(ParseError::new("'bm' names no move"));
            }
            "bm" => best = operands.split_whitespace().map(str::to_string).collect(),
            "hmvc" => halfmove = operands.to_string(),
            "fmvn" => fullmove = operands.to_string(),
            _ => {}
        }
    }
    let position = Chess::parse_position(&format!("{} {halfmove} {fullmove}", fen.join(" ")))?;
    let best_moves = best
        .iter()
        .map(|san| position.parse_san(san))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(EpdPosition {
        id: id.unwrap_or_else(|| line_number.to_string()),
        position,
        best_moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_parses() {
        let suite = bratko_kopec();
        assert_eq!(suite.len(), 24);
        assert_eq!(suite[0].id, "BK.01");
        for p in &suite {
            assert!(!p.best_moves.is_empty(), "{}", p.id);
        }
        // BK.01: Qd1+ is d6d1; BK.05 has two best moves.
        assert_eq!(suite[0].position.move_text(suite[0].best_moves[0]), "d6d1");
        assert_eq!(suite[4].best_moves.len(), 2);
    }

    #[test]
    fn bad_records_are_errors() {
        assert!(parse_epd("8/8/8/8 w - -").is_err());
        assert!(parse_epd("4k3/8/8/8/8/8/8/4K3 w - - bm Qd1+;").is_err());
        assert!(parse_epd("4k3/8/8/8/8/8/8/4K3 w - - bm ; id \"x\";").is_err());
        assert_eq!(parse_epd("# nothing\n\n").map(|v| v.len()), Ok(0));
    }
}
