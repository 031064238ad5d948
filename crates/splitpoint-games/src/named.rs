//! Named position lists (the games' embedded suites), parsed on demand.

use splitpoint::Game;

/// Parses a list of (name, position text) pairs.
///
/// # Panics
/// Only if a text is malformed, which each list's unit test
/// ([`check_round_trip`]) rules out.
pub(crate) fn parse_named<G: Game>(list: &[(&'static str, &str)]) -> Vec<(&'static str, G)> {
    list.iter()
        .map(|&(name, text)| {
            let pos = G::parse_position(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, pos)
        })
        .collect()
}

/// Checks that every position of a list parses, writes back as the same
/// text and is not a finished game.
#[cfg(test)]
pub(crate) fn check_round_trip<G: Game>(list: &[(&'static str, &str)]) {
    for ((name, pos), &(_, text)) in parse_named::<G>(list).into_iter().zip(list) {
        assert_eq!(pos.position_text(), text, "{name}");
        assert!(pos.outcome().is_none(), "{name}");
    }
}

/// Every game's midgame suite parses, round-trips and holds no finished game.
#[cfg(test)]
mod tests {
    use super::check_round_trip;

    #[cfg(feature = "chess")]
    #[test]
    fn chess_middlegames() {
        check_round_trip::<crate::chess::Chess>(&crate::chess::MIDDLEGAMES);
    }

    #[cfg(feature = "draughts")]
    #[test]
    fn draughts_middlegames() {
        check_round_trip::<crate::draughts::Draughts>(&crate::draughts::MIDDLEGAMES);
    }

    #[cfg(feature = "xiangqi")]
    #[test]
    fn xiangqi_middlegames() {
        check_round_trip::<crate::xiangqi::Xiangqi>(&crate::xiangqi::MIDDLEGAMES);
    }
}
