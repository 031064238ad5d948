//! `splitpoint hub`: the draughts engine behind the Hub protocol (version 2,
//! the protocol of the Scan engine and the Hub GUI).
//!
//! Every line is `command arg=value arg="value with spaces" flag …`. The GUI
//! sends `hub` (we answer `id`, one `param` per option, `wait`), `set-param
//! name=… value=…`, `init` (`ready`), then per search `pos pos=… [moves="…"]`,
//! `level …` and `go think|ponder|analyze`; during a search only `ping`
//! (`pong`), `stop` and `ponder-hit`. A search answers `info …` after each
//! iteration and `done move=… [ponder=…]` at the end. Positions are Hub's
//! 51 characters (or a PDN FEN); moves are Hub's (`32-28`, `28x19x23`: from,
//! to, then the captured pieces).
//!
//! This file reads Hub's lines; the session machinery (the search thread,
//! stopping, clock budgets, the `info` and `done` lines) is
//! [`crate::protocol`]'s, shared with `splitpoint uci` and `splitpoint ucci`,
//! in its [`Dialect::Hub`]. `ponder-hit` ends a ponder search like `stop`
//! (the answer comes at once, from the deepest finished iteration). Nothing
//! on input ends the session but `quit` or the end of input; a line that
//! cannot be understood is answered with `error message="…"` and ignored
//! (the quoted line's control characters escaped, see
//! [`crate::protocol::Output`]).

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use splitpoint::{Game, Limits, MAX_DEPTH};
use splitpoint_games::draughts::Draughts;

use crate::error::Result;
use crate::protocol::{
    Clock, DEFAULT_MOVE_OVERHEAD, Dialect, EngineOption, Go, Output, ProtocolGame, Session,
    Settings, clip, play_game, read_commands,
};

/// Play international draughts over the Hub protocol on standard input and output
///
/// Speaks Hub (version 2, as Scan 3 does), for draughts GUIs and tools
/// (Hub, pydraughts, …): `hub`, `set-param`, `init`, `pos`, `level`
/// (`depth`, `move-time`, `nodes`, `time`/`inc`/`moves`, `infinite`), `go
/// think|ponder|analyze`, `ping`, `stop`, `ponder-hit`, `new-game`, `quit`.
///
/// Parameters: threads, hash (MiB), algorithm (auto: serial with one thread,
/// ybw with more; or any parallel algorithm by name), exact (exact-mode
/// search).
#[derive(Args, Debug)]
#[command(after_help = "Example session (type the lines without '>'):
  > hub
  > set-param name=threads value=2
  > init
  > pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"
  > level move-time=1
  > go think
  ... info lines, then done move=28x19x23")]
pub struct HubArgs {}

/// Runs `splitpoint hub` on standard input and output.
pub fn run(_args: &HubArgs) -> Result<ExitCode> {
    session(io::stdin().lock(), Box::new(io::stdout()));
    Ok(ExitCode::SUCCESS)
}

/// The search limit `level` set: Hub times are seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Level {
    depth: Option<i32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    /// Our clock. Hub adds the increment before the move, so it counts as
    /// time left, not as an increment.
    clock: Option<Clock>,
}

impl Level {
    /// Reads `level`'s arguments; each `level` replaces the one before.
    fn parse(args: &[(String, String)]) -> std::result::Result<Level, String> {
        let mut level = Level::default();
        let (mut time, mut inc, mut moves) = (None, None, None);
        for (key, value) in args {
            let seconds = || -> std::result::Result<Duration, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite())
                    .map(|s| Duration::from_secs_f64(s.clamp(0.0, 1e9)))
                    .ok_or_else(|| format!("{key}: '{}' is not a number of seconds", clip(value)))
            };
            let count = || -> std::result::Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{key}: '{}' is not a whole number", clip(value)))
            };
            match key.as_str() {
                "depth" => level.depth = Some(count()?.clamp(1, MAX_DEPTH as u64) as i32),
                "nodes" => level.nodes = Some(count()?.max(1)),
                "move-time" => level.move_time = Some(seconds()?),
                "time" => time = Some(seconds()?),
                "inc" => inc = Some(seconds()?),
                "moves" => moves = Some(count()?.clamp(1, 1000) as u32),
                "infinite" => {}
                _ => return Err(format!("unknown level argument '{}'", clip(key))),
            }
        }
        level.clock = time.map(|time: Duration| Clock {
            time: time + inc.unwrap_or_default(),
            increment: Duration::ZERO,
            moves_to_go: moves,
            overhead: DEFAULT_MOVE_OVERHEAD,
        });
        Ok(level)
    }

    /// The hard limits: depth, nodes, and the earlier of `move-time` and
    /// the clock's hard limit. A ponder or analysis search with no depth or
    /// node limit runs until `stop`; a search with no limit at all, a second.
    fn limits(&self, infinite: bool) -> Limits {
        let clock_limit = self.clock.map(|c| c.hard_limit());
        let movetime = match (self.move_time, clock_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let unlimited = self.depth.is_none() && self.nodes.is_none() && movetime.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: if infinite {
                None
            } else {
                movetime.or(unlimited.then_some(Duration::from_secs(1)))
            },
            ..Limits::default()
        }
    }

    /// After this long, no new iteration starts (see [`Clock::soft_limit`]).
    fn soft_limit(&self, infinite: bool) -> Option<Duration> {
        self.clock.filter(|_| !infinite).map(|c| c.soft_limit())
    }
}

/// The reader's state.
struct Reader {
    session: Session<Draughts>,
    position: Draughts,
    level: Level,
}

/// Runs one Hub session: reads commands from `input` until `quit` or its end,
/// writes the engine's lines to `output`. Returns when the searcher is done.
pub fn session(mut input: impl BufRead, output: Box<dyn Write + Send>) {
    let mut reader = Reader {
        session: Session::start(Output::new(output), Dialect::Hub, Settings::default()),
        position: Draughts::start(),
        level: Level::default(),
    };
    read_commands(&mut input, |line| reader.command(line));
    // `quit` or end of input: end any search (it still answers done), then
    // let the searcher drain its jobs and finish.
    reader.session.finish();
}

/// Splits a line's arguments: `key=value`, `key="value with spaces"`, or a
/// bare `flag` (value empty).
fn parse_args(text: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let mut args = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let key_end = rest.find([' ', '=']).unwrap_or(rest.len());
        let key = &rest[..key_end];
        rest = &rest[key_end..];
        let value = if let Some(after) = rest.strip_prefix('=') {
            if let Some(quoted) = after.strip_prefix('"') {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| format!("unterminated quote after '{}='", clip(key)))?;
                rest = &quoted[end + 1..];
                &quoted[..end]
            } else {
                let end = after.find(' ').unwrap_or(after.len());
                rest = &after[end..];
                &after[..end]
            }
        } else {
            ""
        };
        if key.is_empty() {
            return Err("an argument has no name".into());
        }
        args.push((key.to_string(), value.to_string()));
        rest = rest.trim_start();
    }
    Ok(args)
}

impl Reader {
    /// Handles one line; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        if command.is_empty() {
            return true;
        }
        let args = match parse_args(rest) {
            Ok(args) => args,
            Err(e) => {
                self.error(&format!("{command} ignored: {e}"));
                return true;
            }
        };
        match command {
            "hub" => self.hub(),
            "set-param" => self.set_param(&args),
            "init" => self.session.say_after_jobs("ready"),
            "ping" => self.session.ping("pong"),
            "new-game" => {
                self.position = Draughts::start();
                self.session.clear();
            }
            "pos" => self.pos(&args),
            "level" => match Level::parse(&args) {
                Ok(level) => self.level = level,
                Err(e) => self.error(&format!("level ignored: {e}")),
            },
            "go" => self.go(&args),
            "stop" | "ponder-hit" => self.session.request_stop(),
            "quit" => return false,
            _ => self.session.unknown_command(line),
        }
        true
    }

    /// `error message="TEXT"`.
    fn error(&self, text: &str) {
        self.session.remark(text);
    }

    fn hub(&self) {
        let out = self.session.out();
        self.session.introduce();
        out.line(&format!(
            "param name=variant value={0} type=enum values=\"{0}\"",
            Draughts::VARIANT
        ));
        self.session.declare_options();
        out.line("wait");
    }

    /// `set-param name=NAME value=VALUE`; names are case-insensitive.
    fn set_param(&mut self, args: &[(String, String)]) {
        let get = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let (Some(name), Some(value)) = (get("name"), get("value")) else {
            self.error("set-param needs name=… and value=…");
            return;
        };
        if let Some(option) = EngineOption::find(Dialect::Hub, name) {
            self.session.set_option(option, value);
            return;
        }
        match name.to_ascii_lowercase().as_str() {
            "variant" if value == Draughts::VARIANT => {}
            "variant" => self.error(&format!(
                "variant: only '{}' (international draughts), not '{}'",
                Draughts::VARIANT,
                clip(value)
            )),
            _ => self.error(&format!("unknown parameter '{}'", clip(name))),
        }
    }

    /// `pos pos=POSITION [moves="M …"]`. A bad position leaves the position
    /// as it was; a bad move ends the list there (the moves before it stand).
    fn pos(&mut self, args: &[(String, String)]) {
        let get = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let Some(text) = get("pos") else {
            self.error("pos needs pos=…");
            return;
        };
        let pos = match Draughts::parse_position(text) {
            Ok(pos) => pos,
            Err(e) => {
                self.error(&format!("pos ignored: {e}"));
                return;
            }
        };
        let moves = get("moves").unwrap_or("").split_whitespace();
        self.position = play_game(pos, moves, Draughts::parse_protocol_move, |t| self.error(t));
    }

    /// `go think|ponder|analyze`: a search of the current position at the
    /// current level. A `go` during a search stops that search first.
    fn go(&mut self, args: &[(String, String)]) {
        let mode = args.first().map_or("think", |(k, _)| k.as_str());
        let infinite = match mode {
            "think" => false,
            "ponder" | "analyze" => true,
            _ => {
                self.error(&format!(
                    "go needs think, ponder or analyze, not '{}'",
                    clip(mode)
                ));
                return;
            }
        };
        self.session.go(Go {
            pos: self.position.clone(),
            limits: self.level.limits(infinite),
            soft_limit: self.level.soft_limit(infinite),
            // A ponder or analysis search that ends by itself answers at once.
            wait_for_stop: false,
            search_moves: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use splitpoint::WIN;

    use super::*;
    use crate::protocol::{assert_has_line, assert_last_line, hub_score_text, transcript};

    fn run_session(input: &str) -> Vec<String> {
        transcript(session, input)
    }

    #[test]
    fn arguments_split_with_quotes_and_flags() {
        let args = parse_args(r#"pos=Wbe moves="32-28 19-23" infinite x="""#).unwrap();
        let pairs: Vec<(&str, &str)> = args.iter().map(|(k, v)| (&k[..], &v[..])).collect();
        assert_eq!(
            pairs,
            [
                ("pos", "Wbe"),
                ("moves", "32-28 19-23"),
                ("infinite", ""),
                ("x", "")
            ]
        );
        assert!(parse_args(r#"moves="32-28"#).is_err());
        assert!(parse_args("=3").is_err());
        assert_eq!(parse_args("   ").unwrap(), []);
    }

    #[test]
    fn scores_read_as_men_or_wins() {
        assert_eq!(hub_score_text(35), "0.35");
        assert_eq!(hub_score_text(-120), "-1.20");
        assert_eq!(hub_score_text(-5), "-0.05");
        assert_eq!(hub_score_text(WIN - 3), "99.97");
        assert_eq!(hub_score_text(-WIN + 2), "-99.98");
    }

    #[test]
    fn levels_parse_and_budget() {
        let args = parse_args("time=60 inc=1 moves=20").unwrap();
        let level = Level::parse(&args).unwrap();
        assert_eq!(
            level.clock.map(|c| c.budget()),
            Some(Duration::from_millis(3050))
        );
        assert_eq!(
            level.limits(false).movetime,
            Some(Duration::from_millis(6100))
        );
        let level = Level::parse(&parse_args("move-time=0.5").unwrap()).unwrap();
        assert_eq!(
            level.limits(false).movetime,
            Some(Duration::from_millis(500))
        );
        let level = Level::parse(&parse_args("depth=99999").unwrap()).unwrap();
        assert_eq!(level.limits(false).depth, Some(MAX_DEPTH));
        // Almost flagged: a quarter of what is left.
        let level = Level::parse(&parse_args("time=0.02 moves=1").unwrap()).unwrap();
        assert_eq!(level.limits(false).movetime, Some(Duration::from_millis(5)));
        // Nothing said: a second; infinite: until stop.
        assert_eq!(
            Level::default().limits(false).movetime,
            Some(Duration::from_secs(1))
        );
        assert_eq!(Level::default().limits(true).movetime, None);
        for bad in ["depth=x", "time=-", "time=NaN", "moves=1.5", "bogus=1"] {
            assert!(Level::parse(&parse_args(bad).unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_session_answers_every_command() {
        let lines = run_session(
            "hub\nset-param name=threads value=2\nset-param name=algorithm value=ybw-strong\n\
             init\nping\npos pos=W:W32,35:B17,27,30\nlevel depth=3\ngo think\nping\n\
             pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\n\
             go think\nnonsense here\nset-param name=threads value=many\npos pos=bad\n\
             pos pos=start moves=\"32-28 32-28\"\nlevel depth=x\nlevel infinite\ngo analyze\n\
             stop\nnew-game\nlevel depth=2\ngo ponder\nponder-hit\nquit\n",
        );
        let text = lines.join("\n");
        assert_has_line(&lines, "id name=splitpoint");
        assert!(lines.contains(&"wait".to_string()), "{text}");
        assert!(lines.contains(&"ready".to_string()), "{text}");
        assert_eq!(lines.iter().filter(|l| *l == "pong").count(), 2, "{text}");
        let done: Vec<&String> = lines.iter().filter(|l| l.starts_with("done")).collect();
        assert_eq!(done.len(), 4, "{text}");
        // The reply to ponder on comes with a principal variation that came
        // out whole, which two threads' search does not always give.
        assert!(
            done[0] == "done move=32x12x17x27"
                || done[0].starts_with("done move=32x12x17x27 ponder="),
            "{text}"
        );
        assert!(done[1].starts_with("done move=28x19x23"), "{text}");
        assert_has_line(&lines, "info depth=");
        for expected in [
            "error message=\"unknown command 'nonsense here'\"",
            "error message=\"threads:",
            "error message=\"pos ignored",
            "error message=\"moves from '32-28' on ignored",
            "error message=\"level ignored",
        ] {
            assert_has_line(&lines, expected);
        }
    }

    #[test]
    fn end_of_input_ends_an_infinite_search() {
        let lines = run_session("level infinite\ngo analyze\n");
        assert_last_line(&lines, "done move=");
    }

    #[test]
    fn drawn_and_lost_roots() {
        // Drawn by repetition in the game: the GUI may still ask for a move.
        let dance = "36-31 15-20 31-36 20-15 ".repeat(2);
        let lines = run_session(&format!(
            "pos pos=W:WK36,K50:BK1,K15 moves=\"{dance}\"\nlevel depth=2\ngo think\n"
        ));
        let done = lines.iter().find(|l| l.starts_with("done")).unwrap();
        assert_ne!(done, "done move=0-0", "{lines:?}");
        // No move at all.
        let lines = run_session("pos pos=W:W46:B37,41\nlevel depth=2\ngo think\n");
        assert!(lines.contains(&"done move=0-0".to_string()), "{lines:?}");
    }
}
