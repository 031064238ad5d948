//! The stress run through the engine protocols: long-lived engine processes
//! (`splitpoint uci`, `ucci`, `hub`), each sent a search and a stop, its
//! answer awaited under the watchdog.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use splitpoint::Algorithm;

use super::{EXACT_CAP, Ending, FIRST_ITERATION, Plan, Rng, Tally, Watchdog, ms, positions};
use crate::error::Result;
use crate::games::{GameCommand, GameName, NamedGame};

/// The engine protocols, each on the games it speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Protocol {
    UciChess,
    UciXiangqi,
    Ucci,
    Hub,
}

impl Protocol {
    pub(super) fn of(game: GameName) -> &'static [Protocol] {
        match game {
            GameName::Chess => &[Protocol::UciChess],
            GameName::Xiangqi => &[Protocol::Ucci, Protocol::UciXiangqi],
            GameName::Draughts => &[Protocol::Hub],
            GameName::Othello | GameName::Synthetic => &[],
        }
    }

    fn game(self) -> GameName {
        match self {
            Protocol::UciChess => GameName::Chess,
            Protocol::UciXiangqi | Protocol::Ucci => GameName::Xiangqi,
            Protocol::Hub => GameName::Draughts,
        }
    }

    fn args(self) -> &'static [&'static str] {
        match self {
            Protocol::UciChess => &["uci"],
            Protocol::UciXiangqi => &["uci", "--game", "xiangqi"],
            Protocol::Ucci => &["ucci"],
            Protocol::Hub => &["hub"],
        }
    }

    /// The handshake and its last answer.
    fn hello(self) -> (&'static str, &'static str) {
        match self {
            Protocol::UciChess | Protocol::UciXiangqi => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Hub => ("hub", "wait"),
        }
    }

    /// The lines that set threads and algorithm, then a round trip.
    fn configure(self, algorithm: Algorithm, threads: usize) -> (Vec<String>, &'static str) {
        match self {
            Protocol::UciChess | Protocol::UciXiangqi => (
                vec![
                    format!("setoption name Threads value {threads}"),
                    format!("setoption name Algorithm value {algorithm}"),
                    "isready".into(),
                ],
                "readyok",
            ),
            Protocol::Ucci => (
                vec![
                    format!("setoption threads {threads}"),
                    format!("setoption algorithm {algorithm}"),
                    "isready".into(),
                ],
                "readyok",
            ),
            Protocol::Hub => (
                vec![
                    format!("set-param name=threads value={threads}"),
                    format!("set-param name=algorithm value={algorithm}"),
                    "init".into(),
                ],
                "ready",
            ),
        }
    }

    fn position(self, text: &str) -> String {
        match self {
            Protocol::Hub => format!("pos pos={text}"),
            _ => format!("position fen {text}"),
        }
    }

    /// The lines that start a search ending as `ending` (exact depths
    /// become plain depths: the protocols search in normal mode).
    fn go(self, ending: Ending) -> Vec<String> {
        match (self, ending) {
            (Protocol::Hub, Ending::Stop { .. }) => {
                vec!["level infinite".into(), "go analyze".into()]
            }
            (Protocol::Hub, Ending::Movetime(t)) => vec![
                format!("level move-time={:.3}", t.as_secs_f64()),
                "go think".into(),
            ],
            (Protocol::Hub, Ending::ExactDepth(d)) => {
                vec![format!("level depth={d}"), "go think".into()]
            }
            (_, Ending::Stop { .. }) => vec!["go infinite".into()],
            (Protocol::Ucci, Ending::Movetime(_)) => vec!["go depth 3".into()],
            (_, Ending::Movetime(t)) => vec![format!("go movetime {}", t.as_millis().max(1))],
            (_, Ending::ExactDepth(d)) => vec![format!("go depth {d}")],
        }
    }

    fn stop(self) -> &'static str {
        "stop"
    }

    /// Whether `line` ends a search.
    fn is_answer(self, line: &str) -> bool {
        match self {
            Protocol::Hub => line.starts_with("done"),
            Protocol::Ucci => line.starts_with("bestmove") || line == "nobestmove",
            _ => line.starts_with("bestmove"),
        }
    }
}

/// An engine process speaking a protocol on its standard input and output.
struct Peer {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Peer {
    fn spawn(proto: Protocol) -> std::io::Result<Peer> {
        let exe = std::env::current_exe()?;
        let mut child = Command::new(exe)
            .args(proto.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let input = child.stdin.take().expect("piped stdin");
        let output = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Peer {
            child,
            input,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> std::result::Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot write '{line}': {e}"))
    }

    /// Reads lines until one satisfies `want`, for at most `timeout`.
    /// `Ok(None)`: timed out.
    fn wait_for(
        &mut self,
        timeout: Duration,
        want: impl Fn(&str) -> bool,
    ) -> std::result::Result<Option<String>, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if want(&line) => return Ok(Some(line)),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                    return Err(format!("the engine exited ({status})"));
                }
            }
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine processes, one per protocol, started on first use.
#[derive(Default)]
pub(super) struct Peers(HashMap<Protocol, Peer>);

/// Time the handshake and configuration may take.
const SETUP: Duration = Duration::from_secs(5);

/// One protocol's share of a sweep: a few configurations through `proto`.
pub(super) fn protocol_cases(
    plan: &Plan,
    proto: Protocol,
    peers: &mut Peers,
    rng: &mut Rng,
    tally: &mut Tally,
    watchdog: &Watchdog,
    end: Instant,
) {
    let positions = match protocol_positions(proto.game()) {
        Ok(p) => p,
        Err(e) => {
            tally.failures.push(format!("{proto:?}: {e}"));
            return;
        }
    };
    let mut configs = plan.configs();
    rng.shuffle(&mut configs);
    // A third of the configurations per sweep: processes are slower to drive.
    configs.truncate(configs.len().div_ceil(3));
    for (algorithm, threads) in configs {
        if Instant::now() >= end {
            return;
        }
        let text = &positions[rng.below(positions.len() as u64) as usize];
        let ending = Ending::random(rng, 3);
        let case = format!("{proto:?} {algorithm} ×{threads}, {ending:?}, position {text}");
        if let Err(e) = protocol_case(
            proto,
            peers,
            (algorithm, threads),
            text,
            ending,
            tally,
            watchdog,
            &case,
        ) {
            tally.failures.push(format!("{case}: {e}"));
            peers.0.remove(&proto);
        }
    }
}

// One case's whole description, passed apart for readability at the call.
#[allow(clippy::too_many_arguments)]
fn protocol_case(
    proto: Protocol,
    peers: &mut Peers,
    (algorithm, threads): (Algorithm, usize),
    text: &str,
    ending: Ending,
    tally: &mut Tally,
    watchdog: &Watchdog,
    case: &str,
) -> std::result::Result<(), String> {
    let peer = match peers.0.entry(proto) {
        Entry::Occupied(slot) => slot.into_mut(),
        Entry::Vacant(slot) => {
            let mut peer =
                Peer::spawn(proto).map_err(|e| format!("cannot start the engine: {e}"))?;
            let (hello, answer) = proto.hello();
            peer.send(hello)?;
            if peer.wait_for(SETUP, |l| l == answer)?.is_none() {
                watchdog.hang(
                    &format!("{case}: no '{answer}' to '{hello}'"),
                    Some(peer.child.id()),
                );
            }
            slot.insert(peer)
        }
    };
    let pid = peer.child.id();
    let (lines, ready) = proto.configure(algorithm, threads);
    for line in &lines {
        peer.send(line)?;
    }
    if peer.wait_for(SETUP, |l| l == ready)?.is_none() {
        watchdog.hang(
            &format!("{case}: no '{ready}' after the options"),
            Some(pid),
        );
    }
    peer.send(&proto.position(text))?;
    for line in proto.go(ending) {
        peer.send(&line)?;
    }
    let grace = watchdog.grace;
    let key = (algorithm.name(), threads);
    match ending {
        Ending::Stop { after } => {
            // The search has started when its first iteration reports.
            match peer.wait_for(FIRST_ITERATION + grace, |l| {
                l.starts_with("info") || proto.is_answer(l)
            })? {
                None => watchdog.hang(&format!("{case}: no info line"), Some(pid)),
                Some(line) if proto.is_answer(&line) => {
                    return Err(format!("answered '{line}' before any stop"));
                }
                Some(_) => {}
            }
            std::thread::sleep(after);
            let stopped = Instant::now();
            peer.send(proto.stop())?;
            match peer.wait_for(grace, |l| proto.is_answer(l))? {
                None => watchdog.hang(&format!("{case}: no answer to stop"), Some(pid)),
                Some(_) => tally
                    .protocol_stop_ms
                    .entry(key)
                    .or_default()
                    .push(ms(stopped.elapsed())),
            }
        }
        Ending::Movetime(_) | Ending::ExactDepth(_) => {
            let limit = match ending {
                Ending::Movetime(t) => t,
                _ => EXACT_CAP,
            };
            if peer
                .wait_for(limit + grace, |l| proto.is_answer(l))?
                .is_none()
            {
                watchdog.hang(&format!("{case}: no answer within its limit"), Some(pid));
            }
        }
    }
    tally.protocol_searches += 1;
    Ok(())
}

/// Positions in the protocol's own text: the game's default suite and start.
fn protocol_positions(game: GameName) -> Result<Vec<String>> {
    struct Texts(GameName);
    impl GameCommand for Texts {
        type Output = Result<Vec<String>>;
        fn run<G: NamedGame>(self) -> Result<Vec<String>> {
            Ok(positions::<G>(self.0)?
                .iter()
                .map(|p| p.position_text())
                .collect())
        }
    }
    game.dispatch(Texts(game))
}
