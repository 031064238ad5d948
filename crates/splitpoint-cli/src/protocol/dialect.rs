//! Each protocol's words for what the engine says: moves, remarks, the
//! answer that ends a search, an iteration's `info` line, an option's
//! declaration; and the one writer every line goes through.

use std::io::Write;
use std::sync::{Arc, Mutex};

use splitpoint::{SearchResult, WIN, WIN_BOUND};

use super::games::ProtocolGame;
use super::options::{EngineOption, OptionKind, Settings};
use super::per_second;
use crate::error::escaped;

/// Which protocol's words the searcher answers in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI: `score cp N` / `score mate N`, moves in UCI notation,
    /// `bestmove 0000` when there is none.
    Uci,
    /// UCCI: `score N`, moves in ICCS, `nobestmove` when there is none.
    Ucci,
    /// Hub (draughts): `info depth=N score=MEN …`, Hub's moves, `done
    /// move=M [ponder=M]` (`done move=0-0` when there is none), remarks as
    /// `error message="…"`.
    Hub,
}

impl Dialect {
    pub(super) fn move_text<G: ProtocolGame>(self, pos: &G, mv: G::Move) -> String {
        match self {
            Dialect::Uci | Dialect::Hub => pos.protocol_move_text(mv),
            Dialect::Ucci => pos.move_text(mv),
        }
    }

    /// The line that declares `option` (`uci`, `ucci`, `hub`), with its value
    /// in `settings` as the default.
    pub fn declare(self, option: EngineOption, settings: &Settings) -> String {
        let name = option.name(self);
        match (self, option.kind(settings)) {
            (Dialect::Uci, OptionKind::Spin { value, min, max }) => {
                format!("option name {name} type spin default {value} min {min} max {max}")
            }
            (Dialect::Ucci, OptionKind::Spin { value, min, max }) => {
                format!("option {name} type spin min {min} max {max} default {value}")
            }
            (Dialect::Hub, OptionKind::Spin { value, min, max }) => {
                format!("param name={name} value={value} type=int min={min} max={max}")
            }
            (Dialect::Uci, OptionKind::Combo { value, choices }) => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option name {name} type combo default {value}{vars}")
            }
            (Dialect::Ucci, OptionKind::Combo { value, choices }) => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option {name} type combo{vars} default {value}")
            }
            (Dialect::Hub, OptionKind::Combo { value, choices }) => format!(
                "param name={name} value={value} type=enum values=\"{}\"",
                choices.join(" ")
            ),
            (Dialect::Uci, OptionKind::Check(on)) => {
                format!("option name {name} type check default {on}")
            }
            (Dialect::Ucci, OptionKind::Check(on)) => {
                format!("option {name} type check default {on}")
            }
            (Dialect::Hub, OptionKind::Check(on)) => {
                format!("param name={name} value={on} type=bool")
            }
        }
    }

    /// A remark for the user: `info string TEXT`, or Hub's `error
    /// message="TEXT"` (double quotes turned single).
    pub(super) fn remark(self, text: &str) -> String {
        match self {
            Dialect::Uci | Dialect::Ucci => format!("info string {text}"),
            Dialect::Hub => format!("error message=\"{}\"", text.replace('"', "'")),
        }
    }

    /// The answer that ends a search: its move, and the reply it expects
    /// when `pv` starts with that move (the caller passes a principal
    /// variation only when the reply is wanted).
    pub(super) fn best_move_line<G: ProtocolGame>(
        self,
        root: &G,
        best: Option<G::Move>,
        pv: &[G::Move],
    ) -> String {
        let Some(mv) = best else {
            return match self {
                Dialect::Uci => "bestmove 0000".into(),
                Dialect::Ucci => "nobestmove".into(),
                // The GUI never asks from a finished game; the null move.
                Dialect::Hub => "done move=0-0".into(),
            };
        };
        let text = self.move_text(root, mv);
        let reply = match pv {
            [first, reply, ..] if *first == mv => Some(self.move_text(&root.play(mv), *reply)),
            _ => None,
        };
        match (self, reply) {
            (Dialect::Uci | Dialect::Ucci, Some(reply)) => {
                format!("bestmove {text} ponder {reply}")
            }
            (Dialect::Uci | Dialect::Ucci, None) => format!("bestmove {text}"),
            (Dialect::Hub, Some(reply)) => format!("done move={text} ponder={reply}"),
            (Dialect::Hub, None) => format!("done move={text}"),
        }
    }
}

/// Where the engine's lines go: shared by both threads, one line at a time,
/// flushed at once (a GUI waits for each line). Write errors are ignored: the
/// GUI has gone, and the end of input will end the session.
///
/// Every line is written [`escaped`]: the user's text a remark echoes (an
/// unknown command, a bad position) cannot end the line and forge one of
/// its own (`foo\rbestmove e2e4`), and every echo follows the engine's own
/// words (`info string`, `error message=`), never starts a line.
pub struct Output(Mutex<Box<dyn Write + Send>>);

impl Output {
    /// Output to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Arc<Output> {
        Arc::new(Output(Mutex::new(writer)))
    }

    /// Writes one line (its control characters escaped: one line it is).
    pub fn line(&self, text: &str) {
        let text = escaped(text);
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    /// `info string TEXT`: a remark for the user.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// `info depth … seldepth … score … nodes … nps … time … pv …` (UCI),
/// `info depth … score … time … nodes … pv …` (UCCI) or `info depth=…
/// score=… nodes=… time=… nps=… pv="…"` (Hub) for one iteration.
///
/// Hub's score is in men ([`hub_score_text`]), its time in seconds and its
/// speed in millions of nodes per second, as Scan gives them. UCI's line
/// numbers itself (`multipv N`) when `line` is given.
pub(super) fn info_line<G: ProtocolGame>(
    dialect: Dialect,
    root: &G,
    r: &SearchResult<G::Move>,
    line: Option<usize>,
) -> String {
    let mut pv = String::new();
    let mut pos = root.clone();
    for &mv in &r.pv {
        pv.push(' ');
        pv.push_str(&dialect.move_text(&pos, mv));
        pos = pos.play(mv);
    }
    let (nodes, time) = (r.stats.nodes, r.elapsed.as_millis());
    match dialect {
        Dialect::Uci => {
            let seldepth = (r.depth as u64).max(r.stats.seldepth);
            let multipv = line.map_or(String::new(), |n| format!(" multipv {n}"));
            format!(
                "info depth {} seldepth {seldepth}{multipv} score {} nodes {nodes} nps {} time {time} pv{pv}",
                r.depth,
                score_text(r.score),
                per_second(nodes, r.elapsed),
            )
        }
        Dialect::Ucci => format!(
            "info depth {} score {} time {time} nodes {nodes} pv{pv}",
            r.depth, r.score
        ),
        Dialect::Hub => {
            let seconds = r.elapsed.as_secs_f64();
            format!(
                "info depth={} score={} nodes={nodes} time={seconds:.3} nps={:.2} pv=\"{}\"",
                r.depth,
                hub_score_text(r.score),
                nodes as f64 / seconds.max(1e-3) / 1e6,
                pv.trim_start(),
            )
        }
    }
}

/// `cp N`, or `mate N` in moves (negative when we are mated): a win `n` plies
/// away scores `WIN - n` and is `(n + 1) / 2` moves.
pub fn score_text(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("mate {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        format!("mate -{}", (WIN + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

/// The score in men (a man is 1.00), two decimals; a win `n` plies away
/// as `100 - n / 100` (pydraughts reads more than 90 as a win).
pub fn hub_score_text(score: i32) -> String {
    let hundredths = if score >= WIN_BOUND {
        10_000 - (WIN - score)
    } else if score <= -WIN_BOUND {
        -10_000 + (WIN + score)
    } else {
        score
    };
    let sign = if hundredths < 0 { "-" } else { "" };
    let h = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", h / 100, h % 100)
}
