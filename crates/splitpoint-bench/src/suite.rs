//! Test suites: positions with an optional known answer, searched to a fixed
//! depth or solved exactly.
//!
//! # File format
//! One position a line, in the game's own text form, optionally followed by
//! `;`-separated fields:
//!
//! ```text
//! #! game=othello depth=9          <- directives: game, depth=D or solve
//! # a comment
//! O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X ; score=38 ; best=a2 ; id=ffo40
//! b=6,d=9,seed=7 ; depth=9
//! ```
//!
//! - `score=N`: the exact score the side to move must get (checked in every run);
//! - `best=m1,m2`: every acceptable best move, in the game's move notation
//!   (checked, unless the suite says `goals`);
//! - `depth=D`: this position's depth, overriding the suite's;
//! - `id=NAME`: a label for tables.
//!
//! Directive lines start with `#!`: `game=othello|synthetic|chess|draughts|xiangqi`, `depth=D`
//! (the suite's default depth), `solve` (Othello: solve exactly to the end,
//! by the solver of `splitpoint solve` unless told `--exact`, which runs the
//! oracle), `goals` (the `best=` moves are what a strong engine plays, as in
//! chess test suites: each search is counted as finding one or not, never
//! failed) or `normal` (run in normal mode unless told otherwise; suites that
//! search to a depth run in exact mode by default).
//!
//! A chess suite may also be an EPD file (`*.epd`, with `bm` and `id`
//! operations, as Bratko–Kopec is published): its best moves are goals, and
//! it runs in normal mode by default, like the embedded chess suites.
//!
//! Every position and every best move is read when the suite is loaded (the
//! moves against their position): a suite with no position, a malformed
//! position or a best move that is no legal move is an error naming the
//! file and the line, before anything is searched.

use splitpoint::{Game, MAX_DEPTH, Score};
use splitpoint_games::chess::{self, Chess, EpdPosition, bratko_kopec, parse_epd};
use splitpoint_games::draughts::{self, Draughts};
use splitpoint_games::othello::{Othello, ffo_positions};
use splitpoint_games::synthetic::Synthetic;
use splitpoint_games::xiangqi::{self, Xiangqi};

use splitpoint_games::registry::GameName;

/// How a suite's positions are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SuiteKind {
    /// To a fixed depth (per position, or the suite's).
    Depth(i32),
    /// Exactly to the end of the game (Othello endgames).
    Solve,
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SuitePosition {
    /// A label for tables.
    pub id: String,
    /// The position in the game's text form.
    pub text: String,
    /// The depth for this position, if it overrides the suite's.
    pub depth: Option<i32>,
    /// The known exact score, if any.
    pub expected_score: Option<Score>,
    /// Every acceptable best move, if known.
    pub best_moves: Vec<String>,
}

/// A named list of positions and how to search them.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Suite {
    /// The suite's name (embedded name or file path).
    pub name: String,
    /// The game.
    pub game: GameName,
    /// Depth search or exact solve.
    pub kind: SuiteKind,
    /// The `best=` moves are goals, counted as found or not, never failed.
    pub goals: bool,
    /// The mode the suite is run in unless the user says: exact (every score
    /// checked against serial; Othello, synthetic trees) or normal (the
    /// game's selective search, as chess engines are measured). A solve is
    /// exact either way: normal mode is the solver (`splitpoint solve`),
    /// exact mode the oracle it is tested against (`solve --oracle`), and
    /// solves run the solver unless told.
    pub exact: bool,
    /// The positions, in the order every run uses.
    pub positions: Vec<SuitePosition>,
}

/// The embedded suites: name, game, description.
pub const EMBEDDED: [(&str, GameName, &str); 15] = [
    (
        "othello-mid",
        GameName::Othello,
        "12 Othello midgame positions, depth 10",
    ),
    (
        "othello-deep",
        GameName::Othello,
        "the first 4 Othello midgame positions at depth 12: trees for simulations of many processors",
    ),
    (
        "othello-ffo",
        GameName::Othello,
        "FFO endgames #40-#44 (20-22 empties), solved by the solver",
    ),
    (
        "othello-ffo-all",
        GameName::Othello,
        "FFO endgames #40-#59 (20-34 empties), solved by the solver: long",
    ),
    (
        "othello-tiny",
        GameName::Othello,
        "3 Othello positions at depth 4, for tests",
    ),
    (
        "synthetic",
        GameName::Synthetic,
        "6 synthetic trees searched to their leaves",
    ),
    (
        "synthetic-tiny",
        GameName::Synthetic,
        "2 small synthetic trees, for tests",
    ),
    (
        "chess",
        GameName::Chess,
        "Bratko-Kopec's 24 positions (best moves counted) and 10 middlegames, depth 8, normal mode",
    ),
    (
        "chess-deep",
        GameName::Chess,
        "the 10 middlegames at depth 12, normal mode: trees for simulations of many processors",
    ),
    (
        "chess-bk",
        GameName::Chess,
        "Bratko-Kopec's 24 test positions, depth 8, normal mode, best moves counted",
    ),
    (
        "chess-tiny",
        GameName::Chess,
        "4 chess positions at depth 4, for tests",
    ),
    (
        "draughts",
        GameName::Draughts,
        "12 international draughts midgame positions, depth 10",
    ),
    (
        "draughts-tiny",
        GameName::Draughts,
        "3 draughts positions at depth 4, for tests",
    ),
    (
        "xiangqi",
        GameName::Xiangqi,
        "12 xiangqi midgame positions, depth 8, normal mode",
    ),
    (
        "xiangqi-tiny",
        GameName::Xiangqi,
        "3 xiangqi positions at depth 3, exact mode, for tests",
    ),
];

/// `splitpoint bench --quick`: the tiny suites, searched deeper than the
/// tests search them so that each configuration takes long enough to time
/// (the synthetic trees' depth is their own, so their larger suite), with the
/// depth to use: about a minute in all on 2 cores.
pub const QUICK: [(&str, Option<i32>); 5] = [
    ("othello-tiny", Some(11)),
    ("chess-tiny", Some(9)),
    ("draughts-tiny", Some(11)),
    ("xiangqi-tiny", Some(7)),
    ("synthetic", None),
];

/// The depth of the embedded chess suites.
const CHESS_DEPTH: i32 = 8;

/// The depths of the deep suites, made for simulations of hundreds of
/// processors: at the 2-core suites' depths a position gives each of 256
/// processors a few thousand nodes, and the search's first plies dominate
/// (Othello's first position at 256: YBW 38× at depth 10, 92× at depth 12).
/// Chess's selective search needs 12 plies for the middlegames' trees
/// (26.5M nodes) to be as large as 10 plies gave before its pruning near
/// the leaves (29.7M; 6.1M after).
const DEEP_OTHELLO_DEPTH: i32 = 12;
const DEEP_CHESS_DEPTH: i32 = 12;

/// The first `count` positions of the embedded Othello midgame suite, at
/// `depth`.
fn othello_mid(name: &str, count: usize, depth: i32) -> Result<Suite, String> {
    let text = include_str!("../data/othello-mid.txt");
    let mut suite = Suite::parse(name, text, GameName::Othello, Some(depth))?;
    suite.positions.truncate(count);
    Ok(suite)
}

/// The depth of the embedded draughts suite: a third of a second a position
/// on average (0.04 to 0.9 s), serially in exact mode, in release.
const DRAUGHTS_DEPTH: i32 = 10;

/// The depth of the embedded xiangqi suite: a fifth of a second a position,
/// serially in normal mode, in release. (Exact mode at this depth takes 40
/// times longer: its quiescence follows every check evasion with no table
/// cutoffs.)
const XIANGQI_DEPTH: i32 = 8;

impl Suite {
    /// Its positions, read as game `G`'s.
    ///
    /// # Errors
    /// A message naming the position that does not read.
    pub fn parse_positions<G: Game>(&self) -> Result<Vec<G>, String> {
        self.positions
            .iter()
            .map(|p| {
                G::parse_position(&p.text)
                    .map_err(|e| format!("{} position {}: {e}", self.name, p.id))
            })
            .collect()
    }

    /// An embedded suite by name, or a suite file by path.
    ///
    /// # Errors
    /// A message naming the unknown suite, the unreadable file, or the bad
    /// line (with its number).
    pub fn load(name_or_path: &str, game: Option<GameName>) -> Result<Suite, String> {
        Suite::load_with_depth(name_or_path, game, None)
    }

    /// [`Suite::load`], with `depth` (a `--depth` flag, applied after with
    /// [`Suite::set_depth`]) standing in for a suite file's missing one: a
    /// file of bare positions then loads.
    ///
    /// # Errors
    /// As [`Suite::load`].
    pub fn load_with_depth(
        name_or_path: &str,
        game: Option<GameName>,
        depth: Option<i32>,
    ) -> Result<Suite, String> {
        let suite = match name_or_path {
            "othello-mid" => othello_mid("othello-mid", usize::MAX, 10),
            "othello-deep" => othello_mid("othello-deep", 4, DEEP_OTHELLO_DEPTH),
            "othello-tiny" => othello_mid("othello-tiny", 3, 4),
            "othello-ffo" => Ok(Suite::ffo("othello-ffo", 40..=44)),
            "othello-ffo-all" => Ok(Suite::ffo("othello-ffo-all", 40..=59)),
            "synthetic" => Suite::parse(
                "synthetic",
                include_str!("../data/synthetic.txt"),
                GameName::Synthetic,
                None,
            ),
            "synthetic-tiny" => Suite::parse(
                "synthetic-tiny",
                include_str!("../data/synthetic-tiny.txt"),
                GameName::Synthetic,
                None,
            ),
            "chess" => Ok(Suite::chess("chess", 24, usize::MAX, CHESS_DEPTH)),
            "chess-deep" => Ok(Suite::chess("chess-deep", 0, usize::MAX, DEEP_CHESS_DEPTH)),
            "chess-bk" => Ok(Suite::chess("chess-bk", 24, 0, CHESS_DEPTH)),
            "chess-tiny" => Ok(Suite::chess("chess-tiny", 2, 2, 4)),
            "draughts" => Ok(Suite::positions(
                "draughts",
                GameName::Draughts,
                &draughts::MIDDLEGAMES,
                DRAUGHTS_DEPTH,
                true,
            )),
            "draughts-tiny" => Ok(Suite::positions(
                "draughts-tiny",
                GameName::Draughts,
                &draughts::MIDDLEGAMES[..3],
                4,
                true,
            )),
            "xiangqi" => Ok(Suite::positions(
                "xiangqi",
                GameName::Xiangqi,
                &xiangqi::MIDDLEGAMES,
                XIANGQI_DEPTH,
                false,
            )),
            "xiangqi-tiny" => Ok(Suite::positions(
                "xiangqi-tiny",
                GameName::Xiangqi,
                &xiangqi::MIDDLEGAMES[..3],
                3,
                true,
            )),
            path if path.ends_with(".epd") => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("suite '{path}' cannot be read: {e}"))?;
                // The message names the line; the error's "column" is its index.
                let positions = parse_epd(&text).map_err(|e| format!("{path}: {}", e.message))?;
                if positions.is_empty() {
                    return Err(format!("suite '{path}' has no positions"));
                }
                let depth = match game {
                    Some(GameName::Chess) | None => CHESS_DEPTH,
                    Some(other) => {
                        return Err(format!("'{path}' is an EPD (chess) file, not {other}"));
                    }
                };
                Ok(Suite::from_epd(path, &positions, depth))
            }
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    let names: Vec<&str> = EMBEDDED.iter().map(|e| e.0).collect();
                    format!(
                        "suite '{path}' is neither an embedded suite ({}) nor a readable file: {e}",
                        names.join(", ")
                    )
                })?;
                Suite::parse(path, &text, game.unwrap_or(GameName::Othello), depth)
            }
        }?;
        if let Some(game) = game
            && game != suite.game
        {
            return Err(format!(
                "suite '{}' is a {} suite, not {game}",
                suite.name, suite.game
            ));
        }
        Ok(suite)
    }

    fn ffo(name: &str, ids: std::ops::RangeInclusive<u32>) -> Suite {
        let positions = ffo_positions()
            .into_iter()
            .filter(|p| ids.contains(&p.id))
            .map(|p| {
                use splitpoint::Game;
                SuitePosition {
                    id: format!("ffo{}", p.id),
                    text: p.position.position_text(),
                    depth: None,
                    expected_score: Some(p.score),
                    best_moves: p.best.iter().map(|&m| p.position.move_text(m)).collect(),
                }
            })
            .collect();
        Suite {
            name: name.to_string(),
            game: GameName::Othello,
            kind: SuiteKind::Solve,
            goals: false,
            exact: false,
            positions,
        }
    }

    /// The first `test_positions` of Bratko–Kopec (best moves as goals) and
    /// the first `middlegames` of the chess middlegame suite, to `depth`.
    fn chess(name: &str, test_positions: usize, middlegames: usize, depth: i32) -> Suite {
        let bk: Vec<EpdPosition> = bratko_kopec().into_iter().take(test_positions).collect();
        let mut suite = Suite::from_epd(name, &bk, depth);
        let middlegames = &chess::MIDDLEGAMES[..middlegames.min(chess::MIDDLEGAMES.len())];
        let middlegames = Suite::positions(name, GameName::Chess, middlegames, depth, false);
        suite.positions.extend(middlegames.positions);
        suite
    }

    /// A suite of named positions (in the game's text form) with no known
    /// answers, all searched to `depth` in exact mode or not by default: a
    /// time-to-depth suite.
    fn positions(
        name: &str,
        game: GameName,
        named: &[(&str, &str)],
        depth: i32,
        exact: bool,
    ) -> Suite {
        Suite {
            name: name.to_string(),
            game,
            kind: SuiteKind::Depth(depth),
            goals: false,
            exact,
            positions: named
                .iter()
                .map(|&(id, text)| SuitePosition {
                    id: id.to_string(),
                    text: text.to_string(),
                    depth: None,
                    expected_score: None,
                    best_moves: vec![],
                })
                .collect(),
        }
    }

    /// A chess suite from EPD positions, their best moves as goals.
    fn from_epd(name: &str, epd: &[EpdPosition], depth: i32) -> Suite {
        let positions = epd
            .iter()
            .map(|p| SuitePosition {
                id: p.id.clone(),
                text: p.position.position_text(),
                depth: None,
                expected_score: None,
                best_moves: p
                    .best_moves
                    .iter()
                    .map(|&m| p.position.move_text(m))
                    .collect(),
            })
            .collect();
        Suite {
            name: name.to_string(),
            game: GameName::Chess,
            kind: SuiteKind::Depth(depth),
            goals: true,
            exact: false,
            positions,
        }
    }

    /// Reads a suite in the file format of the module doc.
    ///
    /// # Errors
    /// A message with the line number of the first bad line.
    pub fn parse(
        name: &str,
        text: &str,
        game: GameName,
        depth: Option<i32>,
    ) -> Result<Suite, String> {
        let mut suite = Suite {
            name: name.to_string(),
            game,
            kind: SuiteKind::Depth(depth.unwrap_or(0)),
            goals: false,
            exact: true,
            positions: vec![],
        };
        let mut solve = false;
        let mut suite_depth = depth;
        // The line number of each position, for errors found after the
        // directives (a `game=` may come anywhere).
        let mut line_numbers = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let at = |msg: String| format!("{name} line {}: {msg}", number + 1);
            let line = line.trim();
            if let Some(directives) = line.strip_prefix("#!") {
                for d in directives.split_whitespace() {
                    match d.split_once('=') {
                        Some(("game", g)) => suite.game = g.parse().map_err(at)?,
                        Some(("depth", v)) => suite_depth = Some(parse_depth(v).map_err(at)?),
                        None if d == "solve" => solve = true,
                        None if d == "goals" => suite.goals = true,
                        None if d == "normal" => suite.exact = false,
                        _ => {
                            return Err(at(format!(
                                "unknown directive '{d}' (expected game=, depth=, solve, goals or normal)"
                            )));
                        }
                    }
                }
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split(';');
            let text = fields.next().unwrap_or("").trim().to_string();
            let mut pos = SuitePosition {
                id: format!("{}", suite.positions.len() + 1),
                text,
                depth: None,
                expected_score: None,
                best_moves: vec![],
            };
            for field in fields {
                let field = field.trim();
                match field.split_once('=') {
                    Some(("score", v)) => {
                        let v = v.trim().trim_start_matches('+');
                        pos.expected_score = Some(
                            v.parse()
                                .map_err(|_| at(format!("score '{v}' is not a number")))?,
                        );
                    }
                    Some(("best", v)) => {
                        pos.best_moves = v.split(',').map(|m| m.trim().to_string()).collect();
                        if pos.best_moves.iter().any(String::is_empty) {
                            return Err(at(format!(
                                "'{field}' has an empty move (expected best=m1,m2)"
                            )));
                        }
                    }
                    Some(("depth", v)) => pos.depth = Some(parse_depth(v).map_err(at)?),
                    Some(("id", v)) => pos.id = v.trim().to_string(),
                    _ => {
                        return Err(at(format!(
                            "unknown field '{field}' (expected score=, best=, depth= or id=)"
                        )));
                    }
                }
            }
            suite.positions.push(pos);
            line_numbers.push(number + 1);
        }
        if suite.positions.is_empty() {
            return Err(format!("suite '{name}' has no positions"));
        }
        for (pos, line) in suite.positions.iter_mut().zip(line_numbers) {
            check_position(suite.game, pos).map_err(|e| format!("{name} line {line}: {e}"))?;
        }
        suite.kind = if solve {
            if suite.game != GameName::Othello {
                return Err(format!("suite '{name}': only Othello suites can be solved"));
            }
            // The solver unless told (`--exact`: the oracle).
            suite.exact = false;
            SuiteKind::Solve
        } else {
            match suite_depth {
                Some(d) => SuiteKind::Depth(d),
                None if suite.positions.iter().all(|p| p.depth.is_some()) => SuiteKind::Depth(0),
                None => {
                    return Err(format!(
                        "suite '{name}' gives no depth: add '#! depth=D' or '#! solve', a depth= per line, or pass --depth"
                    ));
                }
            }
        };
        Ok(suite)
    }

    /// Whether every score must equal serial search's when the suite runs
    /// in mode `exact`: in exact mode, and in a solve in either mode (the
    /// solver's score is exact too).
    pub fn scores_exact(&self, exact: bool) -> bool {
        exact || self.kind == SuiteKind::Solve
    }

    /// Overrides every position's depth (the `--depth` flag).
    pub fn set_depth(&mut self, depth: i32) {
        self.kind = SuiteKind::Depth(depth);
        for p in &mut self.positions {
            p.depth = None;
        }
    }

    /// The depth position `i` is searched to (`None` when solving).
    pub fn depth_of(&self, i: usize) -> Option<i32> {
        match self.kind {
            SuiteKind::Solve => None,
            SuiteKind::Depth(d) => Some(self.positions[i].depth.unwrap_or(d)),
        }
    }
}

/// Reads `p`'s position as a position of `game` and its best moves against
/// it, and writes the moves as the game writes them (as searches report
/// them: a chess move given in SAN then matches).
///
/// # Errors
/// What is wrong with the position or with which move.
fn check_position(game: GameName, p: &mut SuitePosition) -> Result<(), String> {
    match game {
        GameName::Othello => check_moves::<Othello>(p),
        GameName::Synthetic => check_moves::<Synthetic>(p),
        GameName::Chess => check_moves::<Chess>(p),
        GameName::Draughts => check_moves::<Draughts>(p),
        GameName::Xiangqi => check_moves::<Xiangqi>(p),
    }
}

fn check_moves<G: Game>(p: &mut SuitePosition) -> Result<(), String> {
    let pos = G::parse_position(&p.text).map_err(|e| format!("position: {e}"))?;
    for text in &mut p.best_moves {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("best move '{text}': {}", e.message))?;
        *text = pos.move_text(mv);
    }
    Ok(())
}

/// A depth in `1..=MAX_DEPTH`.
pub fn parse_depth(v: &str) -> Result<i32, String> {
    match v.trim().parse::<i32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "depth '{v}' must be a whole number from 1 to {MAX_DEPTH}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_suites_load() {
        for (name, game, _) in EMBEDDED {
            let s = Suite::load(name, Some(game)).unwrap();
            assert!(!s.positions.is_empty(), "{name}");
        }
        let ffo = Suite::load("othello-ffo", None).unwrap();
        assert_eq!(ffo.positions[0].expected_score, Some(38));
        assert_eq!(ffo.positions[0].best_moves, vec!["a2".to_string()]);
        assert!(!ffo.exact, "the FFO suites run the solver unless told");
        let chess = Suite::load("chess", Some(GameName::Chess)).unwrap();
        assert_eq!(chess.positions.len(), 34);
        assert!(!chess.exact);
        assert!(chess.goals);
        // BK.01: 1... Qd1+ (UCI d6d1).
        assert_eq!(chess.positions[0].best_moves, vec!["d6d1".to_string()]);
        assert!(chess.positions[33].best_moves.is_empty());
    }

    #[test]
    fn file_format_fields_and_errors() {
        let s = Suite::parse(
            "t",
            "#! depth=5\nb=3,d=4,seed=1 ; score=+7 ; best=0,2 ; id=x\n",
            GameName::Synthetic,
            None,
        )
        .unwrap();
        assert_eq!(s.kind, SuiteKind::Depth(5));
        assert_eq!(s.positions[0].expected_score, Some(7));
        assert_eq!(s.positions[0].best_moves, vec!["0", "2"]);
        let e = Suite::parse(
            "t",
            "#! depth=5\nb=3,d=4,seed=1 ; colour=red\n",
            GameName::Synthetic,
            None,
        )
        .unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(
            Suite::parse("t", "b=3,d=4,seed=1\n", GameName::Synthetic, None).is_err(),
            "no depth"
        );
        assert!(Suite::load("no-such-suite", None).is_err());
    }

    #[test]
    fn positions_and_best_moves_are_read_when_loaded() {
        // Best moves are read against their position, then written as the
        // search reports them (SAN becomes UCI).
        let s = Suite::parse(
            "t",
            "startpos ; best=e4,Nf3\n#! game=chess depth=3\n",
            GameName::Othello,
            None,
        )
        .unwrap();
        assert_eq!(s.positions[0].best_moves, vec!["e2e4", "g1f3"]);
        for (text, line, what) in [
            ("#! game=chess depth=3\nstartpos ; best=e5\n", 2, "'e5'"),
            (
                "#! game=chess depth=3\n\n# c\nstartpos\nfen ; best=e4\n",
                5,
                "position",
            ),
            ("#! game=xiangqi depth=3\nstartpos ; best=\n", 2, "'best='"),
            (
                "#! game=draughts depth=3\nstart ; best=32-28,\n",
                2,
                "'best=32-28,'",
            ),
            ("#! game=othello depth=3\nstart ; best=pass\n", 2, "'pass'"),
        ] {
            let e = Suite::parse("t", text, GameName::Othello, None).unwrap_err();
            assert!(e.starts_with(&format!("t line {line}: ")), "{text:?}: {e}");
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }
}
