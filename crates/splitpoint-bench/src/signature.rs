//! The build signature, as Stockfish's `bench`: built-in positions of every
//! game searched serially to a fixed depth, and the number of nodes. The
//! count depends on nothing but the search (one thread, a fixed table size,
//! the table cleared before each position, no clock), so it changes exactly
//! when the search does: run it before and after a change meant to leave the
//! search alone, or to tell which build an engine is.

use std::time::Duration;

use splitpoint::{Algorithm, Engine, Limits};

use splitpoint_games::registry::GameName;
use splitpoint_games::registry::{GameCommand, NamedGame};

/// The table size the signature searches with, MiB (the count depends on it).
pub const HASH_MIB: usize = 16;

/// One game's positions (in its text form) and their depth. Written out
/// here, not taken from the suites, so that a new suite position never
/// changes the signature.
struct Part {
    game: GameName,
    depth: i32,
    positions: &'static [&'static str],
}

/// About a second in all, serially, in release.
const PARTS: [Part; 5] = [
    Part {
        game: GameName::Othello,
        depth: 10,
        positions: &[
            "start",
            "---------OOOO----X-OXOX--XXXXXO--OOXOOOO---OXOO----OXOX-----X-XO O",
            "---OOO---X-O-----XXXX-XX--XOXXX----OXO----OXXXX----X------OX---- O",
        ],
    },
    Part {
        game: GameName::Chess,
        depth: 7,
        positions: &[
            "startpos",
            "r2qrbk1/1bpn1ppp/p2p1n2/1p2p3/3PP3/2P2N1P/PPB2PP1/R1BQRNK1 w - - 7 14",
            "r2q1rk1/3nbppp/p2pbn2/4p1P1/1p2P3/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 13",
        ],
    },
    Part {
        game: GameName::Draughts,
        depth: 10,
        positions: &[
            "start",
            "B:W32-33,35-39,41,44-45,47-50:B2-8,12,14-16,18,20,24",
            "B:W26,28,30,38,40,42-43,45-50:B1-6,10-12,15-16,18,20",
        ],
    },
    Part {
        game: GameName::Xiangqi,
        depth: 7,
        positions: &[
            "startpos",
            "rnb1kab2/3Ca4/6n2/pcp5p/4p1p2/P1B2r3/2P1c1P1P/4C1R2/4A4/RN1AK1BN1 w - - 0 13",
            "rnbak1bnr/4a4/c8/p1p1p1p1p/9/2P5P/Pc2P1P2/N3B2C1/4A4/RC1AK1BNR b - - 17 9",
        ],
    },
    Part {
        game: GameName::Synthetic,
        depth: 12,
        positions: &["b=8,d=12,seed=1,q=0.8", "b=6,d=12,seed=2,q=0.6"],
    },
];

/// What the signature counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Nodes searched: the signature.
    pub nodes: u64,
    /// Search time (varies; not part of the signature).
    pub elapsed: Duration,
}

/// Searches the signature positions of `games` (in normal mode, as engines
/// play), handing `line` one line per game, then the total time, the nodes
/// per second and, last, `Nodes searched: N`.
///
/// # Errors
/// A message if a table cannot be allocated.
pub fn run(games: &[GameName], mut line: impl FnMut(&str)) -> Result<Signature, String> {
    let mut total = Signature {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for part in PARTS.iter().filter(|p| games.contains(&p.game)) {
        let (nodes, elapsed) = part.game.dispatch(part)?;
        line(&format!(
            "{:<10} {} positions, depth {:>2}: {nodes:>10} nodes {:>6} ms",
            part.game.name(),
            part.positions.len(),
            part.depth,
            elapsed.as_millis()
        ));
        total.nodes += nodes;
        total.elapsed += elapsed;
    }
    let seconds = total.elapsed.as_secs_f64().max(1e-9);
    line(&format!("Total time (ms): {}", total.elapsed.as_millis()));
    line(&format!(
        "Nodes/second: {:.0}",
        total.nodes as f64 / seconds
    ));
    line(&format!("Nodes searched: {}", total.nodes));
    Ok(total)
}

/// One game's part: a fresh serial engine, the table cleared before each
/// position.
impl GameCommand for &Part {
    type Output = Result<(u64, Duration), String>;

    fn run<G: NamedGame>(self) -> Self::Output {
        let part = self;
        let mut engine =
            Engine::try_new(G::Eval::default(), HASH_MIB).map_err(|e| e.to_string())?;
        engine.set_parallelism(Algorithm::Serial, 1);
        let limits = Limits::to_depth(part.depth);
        let (mut nodes, mut elapsed) = (0, Duration::ZERO);
        for text in part.positions {
            // Built in and tested: a failure here is a bug, but still no panic.
            let pos =
                G::parse_position(text).map_err(|e| format!("signature position '{text}': {e}"))?;
            engine.clear();
            let result = engine.search(&pos, &limits);
            nodes += result.stats.nodes;
            elapsed += result.elapsed;
        }
        Ok((nodes, elapsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_part() {
        for game in GameName::ALL {
            assert!(PARTS.iter().any(|p| p.game == game), "{game}");
        }
    }
}
