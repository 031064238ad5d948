//! `splitpoint ucci`: the xiangqi engine behind UCCI, the Universal Chinese
//! Chess Interface of ElephantEye and the GUIs built for it.
//!
//! UCCI is UCI's xiangqi cousin: `ucci` → `id …`, `option …`, `ucciok`;
//! `setoption NAME VALUE` without UCI's `name`/`value` words; moves in ICCS
//! (`h2e2`, ranks 0–9); `go time T` counts our clock in seconds unless
//! `setoption usemillisec true`; `banmoves` forbids root moves until the
//! next `position`; `bestmove` or `nobestmove`; `quit` is answered `bye`.
//! The search thread, stopping and clock budgets are [`crate::protocol`]'s,
//! shared with `splitpoint uci`. A line that cannot be understood is
//! answered with `info string` and ignored (the quoted line's control
//! characters escaped, see [`crate::protocol::Output`]).

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use splitpoint::{Game, Limits, MAX_DEPTH};
use splitpoint_games::xiangqi::{Move, Xiangqi};

use crate::error::Result;
use crate::protocol::{
    Clock, DEFAULT_MOVE_OVERHEAD, Dialect, EngineOption, Go, Output, Session, Settings, clip,
    play_game, position_and_moves, read_commands,
};

/// Play xiangqi over UCCI on standard input and output
///
/// Commands: `ucci`, `isready`, `setoption NAME VALUE`, `position
/// startpos|fen FEN [moves …]` (ICCS moves such as h2e2), `banmoves …`,
/// `go [ponder] depth N | nodes N | time T [increment I | movestogo M] |
/// infinite`, `stop`, `ponderhit`, `quit` (answered `bye`). Times are in
/// seconds unless `setoption usemillisec true`.
///
/// Options: usemillisec, threads, hashsize (MiB), algorithm (auto, or a
/// parallel algorithm by name), exact (exact-mode search), newgame.
#[derive(Args, Debug)]
#[command(after_help = "Example session (type the lines without '>'):
  > ucci
  > position startpos moves h2e2 h9g7
  > go depth 6
  ... info lines, then bestmove g3g4")]
pub struct UcciArgs {}

/// Runs `splitpoint ucci` on standard input and output.
pub fn run(_args: &UcciArgs) -> Result<ExitCode> {
    session(io::stdin().lock(), Box::new(io::stdout()));
    Ok(ExitCode::SUCCESS)
}

/// Runs one UCCI session: reads commands from `input` until `quit` or its
/// end, writes the engine's lines to `output`.
pub fn session(mut input: impl BufRead, output: Box<dyn Write + Send>) {
    let out = Output::new(output);
    let mut reader = Reader {
        session: Session::start(Arc::clone(&out), Dialect::Ucci, Settings::default()),
        position: Xiangqi::start(),
        banned: Vec::new(),
        millis: false,
    };
    let quit = read_commands(&mut input, |line| reader.command(line));
    // End any search (it still answers), let the searcher finish, then
    // say goodbye to a `quit`.
    reader.session.finish();
    if quit {
        out.line("bye");
    }
}

/// The reader's state.
struct Reader {
    session: Session<Xiangqi>,
    position: Xiangqi,
    /// Root moves `banmoves` forbids, until the next `position`.
    banned: Vec<Move>,
    /// Whether `go time` counts milliseconds (`usemillisec`) or seconds.
    millis: bool,
}

impl Reader {
    /// Handles one line; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "ucci" => self.ucci(),
            "isready" => self.session.is_ready(),
            "setoption" => self.set_option(&rest),
            "position" => self.position(&rest),
            "banmoves" => self.ban(&rest),
            "go" => self.go(&rest),
            "stop" | "ponderhit" => self.session.request_stop(),
            "quit" => return false,
            _ => self.session.unknown_command(line),
        }
        true
    }

    fn ucci(&self) {
        let out = self.session.out();
        self.session.introduce();
        out.line("option usemillisec type check default false");
        self.session.declare_options();
        out.line("option newgame type button");
        out.line("ucciok");
    }

    /// `setoption NAME [VALUE]`; names are case-insensitive, checks read
    /// `true`/`on` and `false`/`off`.
    fn set_option(&mut self, words: &[&str]) {
        let out = self.session.out();
        let Some(name) = words.first().map(|w| w.to_ascii_lowercase()) else {
            out.info("setoption needs an option name");
            return;
        };
        let value = words[1..].join(" ");
        if let Some(option) = EngineOption::find(Dialect::Ucci, &name) {
            self.session.set_option(option, &value);
            return;
        }
        match name.as_str() {
            "usemillisec" => match value.to_ascii_lowercase().as_str() {
                "true" | "on" => self.millis = true,
                "false" | "off" => self.millis = false,
                _ => out.info(&format!("{name}: '{}' is not true or false", clip(&value))),
            },
            "newgame" => {
                self.position = Xiangqi::start();
                self.banned.clear();
                self.session.clear();
            }
            _ => out.info(&format!("unknown option '{}'", clip(&name))),
        }
    }

    /// `position startpos|fen FEN [moves M…]`. A bad FEN leaves the position
    /// as it was; a bad move ends the list there (the moves before it stand).
    /// Clears the banned moves.
    fn position(&mut self, words: &[&str]) {
        match position_and_moves::<Xiangqi>(words) {
            Ok((pos, moves)) => {
                self.position = play_game(pos, moves.iter().copied(), Xiangqi::parse_move, |t| {
                    self.session.remark(t)
                });
                self.banned.clear();
            }
            Err(e) => self.session.remark(&e),
        }
    }

    /// `banmoves M…`: these root moves are not to be played. An illegal
    /// one is reported and skipped.
    fn ban(&mut self, words: &[&str]) {
        self.banned.clear();
        for &word in words {
            match self.position.parse_move(word) {
                Ok(mv) => self.banned.push(mv),
                Err(e) => self.session.out().info(&format!("banmoves: {}", e.message)),
            }
        }
    }

    fn go(&mut self, words: &[&str]) {
        let params = match GoParams::parse(words, self.millis) {
            Ok(params) => params,
            Err(message) => {
                self.session.out().info(&format!("go: {message}"));
                return;
            }
        };
        self.session.go(Go {
            pos: self.position.clone(),
            limits: params.limits(),
            soft_limit: params.clock.map(|c| c.soft_limit()),
            wait_for_stop: params.ponder || params.infinite(),
            search_moves: (!self.banned.is_empty()).then(|| {
                self.position
                    .legal_moves()
                    .into_iter()
                    .filter(|mv| !self.banned.contains(mv))
                    .collect()
            }),
        });
    }
}

/// The parameters of UCCI's `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoParams {
    depth: Option<i32>,
    nodes: Option<u64>,
    clock: Option<Clock>,
    ponder: bool,
}

impl GoParams {
    /// Reads `go`'s words: `ponder` and `draw` (a draw offer, ignored), then
    /// `depth N`, `nodes N`, `infinite`, or `time T` with `increment I` or
    /// `movestogo M` (and the opponent's `opptime`, `oppincrement`,
    /// `oppmovestogo`, ignored). Times count seconds, or milliseconds with
    /// `millis`; negative ones read as 0.
    fn parse(words: &[&str], millis: bool) -> std::result::Result<Self, String> {
        let mut p = GoParams::default();
        let (mut time, mut increment, mut moves_to_go) = (None, 0, None);
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            if matches!(key, "ponder" | "draw" | "infinite") {
                p.ponder |= key == "ponder";
                i += 1;
                continue;
            }
            let number = words
                .get(i + 1)
                .and_then(|v| v.parse::<i64>().ok())
                .ok_or_else(|| format!("'{}' needs a number", clip(key)))?;
            match key {
                "depth" => p.depth = Some(number.clamp(1, MAX_DEPTH as i64) as i32),
                "nodes" => p.nodes = Some(number.max(1) as u64),
                "time" => time = Some(duration(number, millis)),
                "increment" => increment = number,
                "movestogo" => moves_to_go = Some(number.clamp(1, 1000) as u32),
                "opptime" | "oppincrement" | "oppmovestogo" => {}
                _ => return Err(format!("unknown parameter '{}'", clip(key))),
            }
            i += 2;
        }
        p.clock = time.map(|time| Clock {
            time,
            increment: duration(increment, millis),
            moves_to_go,
            overhead: DEFAULT_MOVE_OVERHEAD,
        });
        Ok(p)
    }

    /// Whether nothing limits the search: it goes on until `stop`.
    fn infinite(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.clock.is_none()
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: if self.ponder {
                None
            } else {
                self.clock.map(|c| c.hard_limit())
            },
            ..Limits::default()
        }
    }
}

/// `n` seconds, or milliseconds with `millis`; negative is 0.
fn duration(n: i64, millis: bool) -> Duration {
    let n = n.max(0) as u64;
    if millis {
        Duration::from_millis(n)
    } else {
        Duration::from_secs(n.min(1 << 32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{assert_has_line, assert_last_line, transcript};

    fn run_session(input: &str) -> Vec<String> {
        transcript(session, input)
    }

    /// Red mates at once with a0a9 (or stalemates with the general).
    const MATE_IN_ONE: &str = "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1";

    #[test]
    fn a_session_answers_every_command() {
        let lines = run_session(&format!(
            "ucci\nisready\nsetoption threads 2\nsetoption usemillisec on\n\
             position fen {MATE_IN_ONE}\ngo depth 3\nisready\n\
             position fen {MATE_IN_ONE}\nbanmoves a0a9 f0e0 z9z9\ngo depth 3\nisready\n\
             position fen 4k4/9/9/9/9/9/9/9/9/4K4 b\n\
             position fen R2k5/1R7/9/9/9/9/9/9/9/5K3 b - - 0 1\ngo depth 2\nisready\n\
             setoption hashsize lots\nsetoption colour blue\nhello\n\
             position startpos moves h2e2 h2e2\ngo time 200\nisready\nquit\n"
        ));
        let text = lines.join("\n");
        assert!(lines.contains(&"ucciok".to_string()), "{text}");
        let best: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
            .collect();
        assert_eq!(best.len(), 4, "{text}");
        assert_eq!(best[0], "bestmove a0a9", "{text}");
        assert_has_line(&lines, "info depth 1 score 30999");
        // Banned: a0a9 and f0e0 win at once; another move is played.
        assert!(
            !["bestmove a0a9", "bestmove f0e0"].contains(&best[1].as_str()),
            "{text}"
        );
        assert_has_line(&lines, "info string banmoves:");
        // Checkmated (a rook on every escape): no move.
        assert_eq!(best[2], "nobestmove", "{text}");
        assert_has_line(&lines, "info string position ignored");
        for answer in [
            "hashsize:",
            "unknown option 'colour'",
            "unknown command 'hello'",
        ] {
            let expected = format!("info string {answer}");
            assert_has_line(&lines, &expected);
        }
        assert_has_line(&lines, "info string moves from 'h2e2' on ignored");
        let start = Xiangqi::start();
        let after = start.play(start.parse_move("h2e2").unwrap());
        assert!(
            after
                .parse_move(best[3].trim_start_matches("bestmove "))
                .is_ok(),
            "{text}"
        );
        assert_eq!(
            lines.iter().filter(|l| *l == "readyok").count(),
            5,
            "{text}"
        );
        assert_eq!(lines.last().map(String::as_str), Some("bye"), "{text}");
    }

    #[test]
    fn go_reads_seconds_or_milliseconds() {
        let p = GoParams::parse(&["time", "60", "increment", "2"], false).unwrap();
        let clock = p.clock.unwrap();
        assert_eq!(
            (clock.time, clock.increment),
            (Duration::from_secs(60), Duration::from_secs(2))
        );
        assert_eq!(clock.budget(), Duration::from_secs(4));
        let p = GoParams::parse(&["time", "60", "movestogo", "10", "opptime", "5"], true).unwrap();
        assert_eq!(p.clock.unwrap().budget(), Duration::from_millis(6));
        assert!(GoParams::parse(&["infinite"], false).unwrap().infinite());
        assert!(GoParams::parse(&[], false).unwrap().infinite());
        assert_eq!(
            GoParams::parse(&["depth", "-3"], false).unwrap().depth,
            Some(1)
        );
        assert!(GoParams::parse(&["depth"], false).is_err());
        assert!(GoParams::parse(&["sideways", "3"], false).is_err());
        let ponder = GoParams::parse(&["ponder", "time", "10"], false).unwrap();
        assert!(ponder.ponder && ponder.limits().movetime.is_none());
    }

    #[test]
    fn end_of_input_ends_an_infinite_search_without_bye() {
        let lines = run_session("position startpos\ngo infinite\n");
        assert_last_line(&lines, "bestmove ");
    }
}
