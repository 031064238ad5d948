//! The FFO endgame test suite, positions #40-#59 with their exact scores.

use splitpoint::Game;

use super::board::{Othello, OthelloMove};

/// The suite as shipped in `data/ffo-40-59.tsv`.
const FFO_TSV: &str = include_str!("../../data/ffo-40-59.tsv");

/// One FFO endgame position with its known solution.
#[derive(Clone, Debug)]
pub struct FfoPosition {
    /// The FFO number (40..=59).
    pub id: u32,
    /// The position.
    pub position: Othello,
    /// How many squares are empty.
    pub empties: u32,
    /// The exact score for the side to move (final disc difference).
    pub score: i32,
    /// Every move reaching that score.
    pub best: Vec<OthelloMove>,
}

/// The FFO positions #40-#59, parsed from the bundled data file.
///
/// # Panics
/// Only if the bundled file is malformed, which a unit test rules out.
pub fn ffo_positions() -> Vec<FfoPosition> {
    FFO_TSV
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("id") && !line.trim().is_empty())
        .map(|line| parse_line(line).unwrap_or_else(|e| panic!("bad FFO line {line:?}: {e}")))
        .collect()
}

fn parse_line(line: &str) -> Result<FfoPosition, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, board, side, empties, score, best] = fields.as_slice() else {
        return Err(format!("expected 6 fields, found {}", fields.len()));
    };
    let position =
        Othello::parse_position(&format!("{board} {side}")).map_err(|e| e.to_string())?;
    let best = best
        .split(',')
        .map(|m| position.parse_move(m).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FfoPosition {
        id: id.parse().map_err(|_| format!("bad id {id:?}"))?,
        position,
        empties: empties
            .parse()
            .map_err(|_| format!("bad empties {empties:?}"))?,
        score: score.parse().map_err(|_| format!("bad score {score:?}"))?,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_parses() {
        let suite = ffo_positions();
        assert_eq!(suite.len(), 20);
        for p in &suite {
            assert_eq!(p.position.empty_count(), p.empties, "FFO #{}", p.id);
            assert!(!p.best.is_empty());
        }
        assert_eq!(suite[0].id, 40);
        assert_eq!(suite[0].score, 38);
    }
}
