//! `splitpoint uci`: chess and xiangqi behind the Universal Chess Interface.
//!
//! Xiangqi is spoken as Fairy-Stockfish and Pikafish speak it: chosen with
//! `setoption name UCI_Variant value xiangqi` (or `splitpoint uci --game
//! xiangqi`), positions in xiangqi FEN, moves with ranks counted 1–10
//! (`h3e3`, `a10a9`). The session machinery (the search thread, stopping,
//! clocks) lives in [`crate::protocol`], shared with `splitpoint ucci`.
//!
//! `bench` prints the build signature of the session's game, as
//! `splitpoint bench --signature --game chess|xiangqi` does (and Stockfish's
//! `bench`): the same positions, depth and table size, so the same `Nodes
//! searched`, whatever the session's options.
//!
//! Nothing on input ends the session but `quit` or the end of input; a line
//! that cannot be understood is answered with `info string` and ignored (the
//! quoted line's control characters escaped, see [`crate::protocol::Output`]).
//! Changing the variant ends any search (it still answers `bestmove`) and
//! starts a new game; the other options carry over.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use splitpoint::{Limits, MAX_DEPTH};
use splitpoint_bench::signature;
use splitpoint_games::chess::Chess;
use splitpoint_games::registry::GameName;
use splitpoint_games::xiangqi::Xiangqi;

use crate::error::{Error, Result};
#[cfg(test)]
use crate::protocol::score_text;
use crate::protocol::{
    Clock, DEFAULT_MOVE_OVERHEAD, Dialect, EngineOption, Go, Output, ProtocolGame, Session,
    Settings, clip, play_game, position_and_moves, read_commands, start,
};
#[cfg(test)]
use splitpoint::Game;

/// Play chess or xiangqi over UCI on standard input and output
///
/// Speaks the Universal Chess Interface, for GUIs and match tools
/// (cutechess-cli, python-chess, …): `uci`, `isready`, `ucinewgame`,
/// `position startpos|fen … [moves …]`, `go` with `depth`, `movetime`,
/// `nodes`, `mate`, `searchmoves`, clocks (`wtime btime winc binc
/// movestogo`), `infinite` or `ponder`, then `stop`, `ponderhit`,
/// `setoption` and `quit`. A bare `go` searches until `stop`. `bench` prints
/// the build signature (see `splitpoint bench --signature`).
///
/// Options: UCI_Variant (chess or xiangqi; xiangqi moves count ranks 1-10,
/// as Fairy-Stockfish writes them), Threads, Hash (MiB), Algorithm (auto:
/// serial with one thread, the game's fastest with more; or any algorithm by
/// name), Exact (exact-mode search), MultiPV (the best N lines, searched one
/// after another within a share of the limits each), Ponder (bestmove names
/// the reply to ponder on), Move Overhead (ms kept back from every clock
/// budget), Skill Level (0-20; below 20 the search stops at level + 1
/// plies), Clear Hash.
#[derive(Args, Debug)]
#[command(after_help = "Example session (type the lines without '>'):
  > uci
  > setoption name Threads value 2
  > position startpos moves e2e4 e7e5
  > go movetime 1000
  ... info lines, then bestmove g1f3")]
pub struct UciArgs {
    /// The variant to start with: chess or xiangqi (UCI_Variant changes it)
    #[arg(long, value_name = "GAME", default_value = "chess")]
    pub game: String,
}

/// The variants, as `UCI_Variant` names them.
const VARIANTS: [&str; 2] = [Chess::VARIANT, Xiangqi::VARIANT];

/// Runs `splitpoint uci` on standard input and output.
pub fn run(args: &UciArgs) -> Result<ExitCode> {
    let variant = variant(&args.game).map_err(|e| Error::input(format!("--game: {e}")))?;
    session_with(io::stdin().lock(), Box::new(io::stdout()), variant);
    Ok(ExitCode::SUCCESS)
}

/// The variant named `text` (case-insensitive).
fn variant(text: &str) -> std::result::Result<&'static str, String> {
    VARIANTS
        .into_iter()
        .find(|v| v.eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            format!(
                "unknown variant '{}' (known: {})",
                clip(text),
                VARIANTS.join(", ")
            )
        })
}

/// Runs one chess UCI session: reads commands from `input` until `quit` or
/// its end, writes the engine's lines to `output`.
pub fn session(input: impl BufRead, output: Box<dyn Write + Send>) {
    session_with(input, output, Chess::VARIANT);
}

/// Runs one UCI session starting in `variant`, switching as `UCI_Variant`
/// asks. Returns when the last searcher is done.
pub fn session_with(mut input: impl BufRead, output: Box<dyn Write + Send>, variant: &str) {
    let out = Output::new(output);
    let mut settings = Settings::default();
    let mut variant = variant;
    loop {
        let end = if variant == Xiangqi::VARIANT {
            Reader::<Xiangqi>::run(&mut input, &out, &mut settings)
        } else {
            Reader::<Chess>::run(&mut input, &out, &mut settings)
        };
        match end {
            End::Quit => return,
            End::Variant(next) => variant = next,
        }
    }
}

/// Why a variant's session ended.
enum End {
    /// `quit` or the end of input.
    Quit,
    /// `setoption name UCI_Variant value …` chose another variant.
    Variant(&'static str),
}

/// The reader's state for one variant.
struct Reader<G: ProtocolGame> {
    session: Session<G>,
    position: G,
}

impl<G: ProtocolGame> Reader<G> {
    /// Reads commands until `quit`, the end of input or a change of variant.
    fn run(input: &mut impl BufRead, out: &Arc<Output>, settings: &mut Settings) -> End {
        let mut reader = Reader {
            session: Session::<G>::start(Arc::clone(out), Dialect::Uci, *settings),
            position: start::<G>(),
        };
        let mut end = End::Quit;
        read_commands(input, |line| {
            reader.command(line).map(|e| end = e).is_none()
        });
        // End any search (it still answers bestmove), then let the searcher
        // drain its jobs and finish.
        *settings = reader.session.finish();
        end
    }

    /// Handles one line; `Some` when the session ends.
    fn command(&mut self, line: &str) -> Option<End> {
        let mut words = line.split_whitespace();
        let command = words.next()?;
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => self.uci(),
            "isready" => self.session.is_ready(),
            "ucinewgame" => {
                self.position = start::<G>();
                self.session.clear();
            }
            "setoption" => return self.set_option(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" | "ponderhit" => self.session.request_stop(),
            "bench" => self.bench(),
            "quit" => return Some(End::Quit),
            // Accepted and ignored: we have no debug output and need no registration.
            "debug" | "register" => {}
            _ => self.session.unknown_command(line),
        }
        None
    }

    fn uci(&self) {
        let out = self.session.out();
        self.session.introduce();
        let variants: String = VARIANTS.iter().map(|v| format!(" var {v}")).collect();
        out.line(&format!(
            "option name UCI_Variant type combo default {}{variants}",
            G::VARIANT
        ));
        self.session.declare_options();
        out.line("option name Clear Hash type button");
        out.line("uciok");
    }

    /// `bench`: the signature of this variant's game, searched on this
    /// thread with an engine of its own (a search under way goes on, and
    /// shares the processor).
    fn bench(&self) {
        let game = if G::VARIANT == Xiangqi::VARIANT {
            GameName::Xiangqi
        } else {
            GameName::Chess
        };
        let out = self.session.out();
        if let Err(e) = signature::run(&[game], |line| out.line(line)) {
            out.info(&format!("bench: {e}"));
        }
    }

    /// `setoption name NAME [value VALUE]`; names are case-insensitive.
    fn set_option(&mut self, words: &[&str]) -> Option<End> {
        let out = self.session.out();
        if words.first() != Some(&"name") {
            out.info("setoption needs 'name'");
            return None;
        }
        let value_at = words
            .iter()
            .position(|&w| w == "value")
            .unwrap_or(words.len());
        let name = words[1..value_at].join(" ").to_ascii_lowercase();
        let value = words.get(value_at + 1..).unwrap_or(&[]).join(" ");
        if let Some(option) = EngineOption::find(Dialect::Uci, &name) {
            self.session.set_option(option, &value);
            return None;
        }
        match name.as_str() {
            "uci_variant" => match variant(&value) {
                Ok(v) if v == G::VARIANT => {}
                Ok(v) => return Some(End::Variant(v)),
                Err(e) => out.info(&format!("UCI_Variant: {e}")),
            },
            "clear hash" => self.session.clear(),
            _ => out.info(&format!("unknown option '{}'", clip(&name))),
        }
        None
    }

    /// `position startpos|fen FEN [moves M…]`. A bad FEN leaves the position
    /// as it was; a bad move ends the list there (the moves before it stand).
    fn position(&mut self, words: &[&str]) {
        match position_and_moves::<G>(words) {
            Ok((pos, moves)) => {
                self.position =
                    play_game(pos, moves.iter().copied(), G::parse_protocol_move, |t| {
                        self.session.remark(t)
                    });
            }
            Err(e) => self.session.remark(&e),
        }
    }

    fn go(&mut self, words: &[&str]) {
        let mut params = match GoParams::parse(words) {
            Ok(params) => params,
            Err(message) => {
                self.session.out().info(&format!("go: {message}"));
                return;
            }
        };
        params.overhead = Some(self.session.settings.move_overhead());
        let first = self.position.first_player_to_move();
        self.session.go(Go {
            pos: self.position.clone(),
            limits: params.limits(first),
            soft_limit: params.soft_limit(first),
            wait_for_stop: params.waits_for_stop(),
            search_moves: self.search_moves(&params.search_moves),
        });
    }

    /// The legal moves among `words` (`searchmoves`); a word that is none is
    /// answered with a remark and left out. `None` (every move) when there
    /// are no words or no legal move among them.
    fn search_moves(&self, words: &[String]) -> Option<Vec<G::Move>> {
        let mut moves = Vec::new();
        for word in words {
            match self.position.parse_protocol_move(word) {
                Ok(mv) => moves.push(mv),
                Err(e) => self.session.remark(&format!(
                    "searchmoves: '{}' left out: {}",
                    clip(word),
                    e.message
                )),
            }
        }
        if moves.is_empty() && !words.is_empty() {
            self.session
                .remark("searchmoves: no legal move among them; searching every move");
        }
        (!moves.is_empty()).then_some(moves)
    }
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoParams {
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: Option<u64>,
    binc: Option<u64>,
    movestogo: Option<u32>,
    infinite: bool,
    ponder: bool,
    /// `searchmoves`' words: the root moves to choose from.
    search_moves: Vec<String>,
    /// Move Overhead; the default when not set.
    overhead: Option<Duration>,
}

impl GoParams {
    /// Reads `go`'s words; an unknown or malformed parameter is an error.
    /// Negative clock times (a flag already fallen) read as 0. `mate N`
    /// searches 2N - 1 plies (unless a depth is given); `searchmoves` takes
    /// the words up to the next parameter (checked against the position by
    /// [`Reader::go`]).
    fn parse(words: &[&str]) -> std::result::Result<Self, String> {
        let mut p = GoParams::default();
        let mut mate = None;
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let value = words.get(i + 1).copied();
            let number = |v: Option<&str>| -> std::result::Result<i64, String> {
                v.and_then(|v| v.parse::<i64>().ok())
                    .ok_or_else(|| format!("'{key}' needs a number"))
            };
            let millis = |v| number(v).map(|n| n.max(0) as u64);
            match key {
                "infinite" => p.infinite = true,
                "ponder" => p.ponder = true,
                "depth" => p.depth = Some(number(value)?.clamp(1, MAX_DEPTH as i64) as i32),
                "nodes" => p.nodes = Some(number(value)?.max(1) as u64),
                "movetime" => p.movetime = Some(millis(value)?.max(1)),
                "wtime" => p.wtime = Some(millis(value)?),
                "btime" => p.btime = Some(millis(value)?),
                "winc" => p.winc = Some(millis(value)?),
                "binc" => p.binc = Some(millis(value)?),
                "movestogo" => p.movestogo = Some(number(value)?.clamp(1, 1000) as u32),
                "mate" => mate = Some(number(value)?.clamp(1, MAX_DEPTH as i64 / 2) as i32),
                "searchmoves" => {
                    let moves = words[i + 1..].iter().take_while(|w| looks_like_a_move(w));
                    p.search_moves = moves.map(|w| w.to_string()).collect();
                    i += 1 + p.search_moves.len();
                    continue;
                }
                _ => return Err(format!("unknown parameter '{}'", clip(key))),
            }
            i += if matches!(key, "infinite" | "ponder") {
                1
            } else {
                2
            };
        }
        if p.depth.is_none() {
            p.depth = mate.map(|n| 2 * n - 1);
        }
        Ok(p)
    }

    /// Whether the answer must wait for `stop`: `infinite`, `ponder`, or no
    /// limit at all.
    fn waits_for_stop(&self) -> bool {
        let limited = self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.wtime.is_some()
            || self.btime.is_some();
        self.infinite || self.ponder || !limited
    }

    /// The mover's clock (the first player's when `first`), when the GUI
    /// gave it (the other side's when it gave only that one).
    fn clock(&self, first: bool) -> Option<Clock> {
        let (ours, theirs) = if first {
            ((self.wtime, self.winc), (self.btime, self.binc))
        } else {
            ((self.btime, self.binc), (self.wtime, self.winc))
        };
        let (time, inc) = if ours.0.is_some() { ours } else { theirs };
        Some(Clock {
            time: Duration::from_millis(time?),
            increment: Duration::from_millis(inc.unwrap_or(0)),
            moves_to_go: self.movestogo,
            overhead: self.overhead.unwrap_or(DEFAULT_MOVE_OVERHEAD),
        })
    }

    /// The time to aim for on our clock (see [`Clock::budget`]).
    #[cfg(test)]
    fn budget(&self, first: bool) -> Option<Duration> {
        self.clock(first).map(|c| c.budget())
    }

    /// The hard limits: depth, nodes, and the earlier of `movetime` and the
    /// clock's hard limit. A ponder or infinite search ignores the clock
    /// until `stop`.
    fn limits(&self, first: bool) -> Limits {
        let clock_limit = self.clock(first).map(|c| c.hard_limit());
        let movetime = match (self.movetime.map(Duration::from_millis), clock_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        if !self.infinite && !self.ponder {
            limits.movetime = movetime;
        }
        limits
    }

    /// After this long, no new iteration starts (see [`Clock::soft_limit`]).
    fn soft_limit(&self, first: bool) -> Option<Duration> {
        if self.infinite || self.ponder {
            return None;
        }
        self.clock(first).map(|c| c.soft_limit())
    }
}

/// Whether a word has a UCI move's shape (`e2e4`, `e7e8q`, xiangqi's `a10a9`).
fn looks_like_a_move(word: &str) -> bool {
    let b = word.as_bytes();
    (4..=6).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b.iter().all(u8::is_ascii_alphanumeric)
}

#[cfg(test)]
mod tests {
    use splitpoint::WIN;

    use super::*;
    use crate::protocol::{assert_has_line, assert_last_line, transcript};

    fn run_session(input: &str) -> Vec<String> {
        transcript(session, input)
    }

    #[test]
    fn scores_read_as_centipawns_or_mates() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(-120), "cp -120");
        assert_eq!(score_text(WIN - 1), "mate 1");
        assert_eq!(score_text(WIN - 3), "mate 2");
        assert_eq!(score_text(WIN - 4), "mate 2");
        assert_eq!(score_text(-WIN + 2), "mate -1");
        assert_eq!(score_text(-WIN + 4), "mate -2");
    }

    fn parse(words: &[&str]) -> std::result::Result<GoParams, String> {
        GoParams::parse(words)
    }

    #[test]
    fn go_parameters_parse() {
        let p = parse(&[
            "wtime",
            "60000",
            "btime",
            "-5",
            "winc",
            "1000",
            "movestogo",
            "20",
        ])
        .unwrap();
        assert_eq!(
            (p.wtime, p.btime, p.winc, p.movestogo),
            (Some(60_000), Some(0), Some(1000), Some(20))
        );
        assert!(!p.waits_for_stop());
        assert!(parse(&[]).unwrap().waits_for_stop());
        assert!(parse(&["infinite"]).unwrap().waits_for_stop());
        assert!(parse(&["depth"]).is_err());
        assert!(parse(&["depth", "x"]).is_err());
        assert!(parse(&["bogus", "1"]).is_err());
        assert_eq!(parse(&["depth", "9999"]).unwrap().depth, Some(MAX_DEPTH));
        assert_eq!(parse(&["depth", "-3"]).unwrap().depth, Some(1));
        assert_eq!(parse(&["mate", "2"]).unwrap().depth, Some(3));
        let p = GoParams::parse(&["searchmoves", "e2e4", "d2d4", "depth", "4"]).unwrap();
        assert_eq!(p.depth, Some(4));
        assert_eq!(p.search_moves, ["e2e4", "d2d4"]);
    }

    #[test]
    fn clock_budgets_are_sensible() {
        let p = parse(&["wtime", "60000", "btime", "1000", "winc", "1000"]).unwrap();
        // 60 s / 20 + 1 s / 2 for White; Black has 1 s, no increment.
        assert_eq!(p.budget(true), Some(Duration::from_millis(3500)));
        assert_eq!(p.soft_limit(true), Some(Duration::from_millis(1750)));
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(7000)));
        let black = p.limits(false).movetime.unwrap();
        assert!(black <= Duration::from_millis(100), "{black:?}");
        // Last move before the time control: use most of it, never all.
        let p = parse(&["wtime", "1000", "btime", "1000", "movestogo", "1"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(970)));
        // Almost flagged: a quarter of what is left.
        let p = parse(&["wtime", "20", "btime", "20", "movestogo", "1"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(5)));
        // movetime and a clock: the earlier.
        let p = parse(&["movetime", "100", "wtime", "60000", "btime", "60000"]).unwrap();
        assert_eq!(p.limits(true).movetime, Some(Duration::from_millis(100)));
        // Only White's clock given, Black to move: use it.
        let p = parse(&["wtime", "3000"]).unwrap();
        assert_eq!(p.budget(false), Some(Duration::from_millis(150)));
        // Infinite ignores the clock.
        let p = parse(&["infinite", "wtime", "100", "btime", "100"]).unwrap();
        assert_eq!(p.limits(true).movetime, None);
    }

    #[test]
    fn a_session_answers_every_command() {
        let lines = run_session(
            "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nisready\n\
             setoption name Threads value 2\nsetoption name Algorithm value ybw-strong\n\
             position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n\
             nonsense here\nsetoption name Threads value many\nposition fen bad\n\
             position startpos moves e2e4 e2e4\ngo infinite\nstop\nquit\n",
        );
        let text = lines.join("\n");
        assert!(lines.contains(&"uciok".to_string()), "{text}");
        assert_eq!(
            lines.iter().filter(|l| *l == "readyok").count(),
            2,
            "{text}"
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 3, "{text}");
        assert_eq!(best[1], "bestmove a1a8", "{text}");
        assert!(lines.iter().any(|l| l.contains("score mate 1")), "{text}");
        assert_has_line(&lines, "info string unknown command 'nonsense here'");
        assert_has_line(&lines, "info string Threads:");
        assert_has_line(&lines, "info string position ignored");
        assert_has_line(&lines, "info string moves from 'e2e4' on ignored");
    }

    #[test]
    fn end_of_input_ends_an_infinite_search() {
        let lines = run_session("position startpos\ngo infinite\n");
        assert_last_line(&lines, "bestmove ");
    }

    #[test]
    fn drawn_roots_still_get_a_move() {
        // Threefold repetition in the game: the GUI may still ask.
        let dance = "g1f3 g8f6 f3g1 f6g8 ".repeat(2);
        let lines = run_session(&format!("position startpos moves {dance}\ngo depth 2\n"));
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        assert_ne!(best, "bestmove 0000");
        // Mated: no move at all.
        let lines = run_session("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 2\n");
        assert!(lines.contains(&"bestmove 0000".to_string()), "{lines:?}");
    }

    #[test]
    fn xiangqi_speaks_fairy_stockfish_notation() {
        let lines = run_session(
            "setoption name UCI_Variant value xiangqi\nuci\n\
             position startpos moves h3e3 h10g8\ngo depth 2\n\
             position fen 3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1\ngo depth 3\n\
             position startpos moves h2e2\nsetoption name UCI_Variant value shogi\n\
             setoption name UCI_Variant value chess\nposition startpos moves e2e4\ngo depth 2\n",
        );
        let text = lines.join("\n");
        assert!(
            lines.contains(
                &"option name UCI_Variant type combo default xiangqi var chess var xiangqi"
                    .to_string()
            ),
            "{text}"
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 3, "{text}");
        // Ranks count 1-10: Red's a-file rook mates on the tenth rank.
        let after = Xiangqi::start().play(Xiangqi::start().parse_uci("h3e3").unwrap());
        let after = after.play(after.parse_uci("h10g8").unwrap());
        let first = best[0].trim_start_matches("bestmove ");
        assert!(after.parse_uci(first).is_ok(), "{text}");
        assert_eq!(best[1], "bestmove a1a10", "{text}");
        assert!(lines.iter().any(|l| l.contains("score mate 1")), "{text}");
        assert_has_line(&lines, "info string moves from 'h2e2' on ignored");
        assert_has_line(&lines, "info string UCI_Variant: unknown variant 'shogi'");
        // Back in chess.
        let pos = Chess::start();
        let pos = pos.play(pos.parse_uci("e2e4").unwrap());
        assert!(
            pos.parse_uci(best[2].trim_start_matches("bestmove "))
                .is_ok(),
            "{text}"
        );
    }
}
