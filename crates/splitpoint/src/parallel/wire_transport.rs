//! PV splitting across processes: the [`Transport`] as bytes over a
//! [`Channel`] between numbered processes (MPI ranks, say).
//!
//! Process 0 is the master; process `i` is its slave `i - 1` and serves its
//! searches ([`WireTransport::serve`]) until it is told to leave
//! ([`dismiss_all`]). A channel only moves bytes: [`LocalChannel`] between
//! threads (tests, and trying a cluster on one machine), an MPI
//! communicator in the command line's `mpi` feature. Everything else — the
//! message format (`wire.rs`), the greeting that refuses another program,
//! the start and end of each search, the counts of what crossed — is
//! written here once.
//!
//! Two tags, one per direction, so that the channel's ordering between two
//! processes (messages of one tag arrive in the order sent) holds for each:
//! a slave reads `Quit` after every order sent before it, and the master
//! reads a slave's `Done` after every report the slave sent in the search.
//! Receives are polls with short sleeps between: an idle slave leaves the
//! core to the processes that search (more processes than cores is the
//! usual test).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::transport::{Order, Report, Transport, WorkId};
use super::wire::{self, Reader, Writer};
use crate::driver::lock;
use crate::engine::Engine;
use crate::game::{Evaluator, Game, ParseError};
use crate::stats::Stats;

/// Which way a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    /// From the master (process 0) to a slave.
    ToSlave,
    /// From a slave to the master.
    ToMaster,
}

/// Bytes between the numbered processes of a cluster. Messages with one
/// tag between two processes arrive once each, in the order sent.
pub trait Channel: Send + Sync {
    /// This process's number: 0 is the master.
    fn rank(&self) -> usize;
    /// How many processes there are.
    fn size(&self) -> usize;
    /// Sends `message` to process `to`.
    fn send(&self, to: usize, tag: Tag, message: &[u8]);
    /// The next message with `tag` from process `from` (from any, if
    /// `None`), with its sender; `None` at once if none has arrived.
    fn try_recv(&self, from: Option<usize>, tag: Tag) -> Option<(usize, Vec<u8>)>;
    /// Ends every process, saying why: a message made no sense, so the
    /// processes do not run the same program and nothing can be trusted.
    fn abort(&self, why: &str) -> !;
}

/// How long a poll sleeps in a search before looking again.
const POLL_SLEEP: Duration = Duration::from_micros(50);
/// How long a wait in a search yields between looks before it sleeps: an
/// answer usually comes within a message's latency, and a sleeper pays a
/// wake-up on top (a yield returns at once when no one else wants the core,
/// and lets the other processes run when they do).
const POLL_YIELD: Duration = Duration::from_micros(200);
/// How long an idle slave sleeps between looks (it only waits for a search).
const IDLE_SLEEP: Duration = Duration::from_millis(1);
/// How long the master waits for every process's greeting.
const HELLO_TIMEOUT: Duration = Duration::from_secs(60);

/// The next message with `tag` (from `from`, or any process), waiting at
/// most `timeout`: yielding for `yield_for` between looks, then sleeping
/// `sleep`.
fn recv(
    channel: &dyn Channel,
    from: Option<usize>,
    tag: Tag,
    timeout: Duration,
    (yield_for, sleep): (Duration, Duration),
) -> Option<(usize, Vec<u8>)> {
    let start = Instant::now();
    let deadline = start.checked_add(timeout);
    loop {
        if let Some(message) = channel.try_recv(from, tag) {
            return Some(message);
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            return None;
        }
        if now - start < yield_for {
            std::thread::yield_now();
        } else {
            std::thread::sleep(sleep.min(timeout));
        }
    }
}

/// A search's waits: short, so first yield.
const IN_SEARCH: (Duration, Duration) = (POLL_YIELD, POLL_SLEEP);
/// An idle process's and the greeting's waits: sleep at once.
const IDLE: (Duration, Duration) = (Duration::ZERO, IDLE_SLEEP);

/// What every process must agree on: the program, the game and the
/// evaluator.
fn hello<G: Game, E: Evaluator<G>>() -> String {
    format!(
        "splitpoint {} ({}) on {}, {}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        std::any::type_name::<G>(),
        std::any::type_name::<E>()
    )
}

/// The master, before its first search: greets every other process and
/// checks that each runs this program on game `G` with evaluator `E`.
///
/// # Errors
/// A message naming a process that did not answer in time or runs
/// something else.
pub fn greet<G: Game, E: Evaluator<G>>(channel: &dyn Channel) -> Result<(), String> {
    let hello = hello::<G, E>();
    let message = wire::write_hello(&hello);
    for rank in 1..channel.size() {
        channel.send(rank, Tag::ToSlave, &message);
    }
    for _ in 1..channel.size() {
        let Some((rank, answer)) = recv(channel, None, Tag::ToMaster, HELLO_TIMEOUT, IDLE) else {
            return Err(format!(
                "not every process answered within {} s (do they all run this program?)",
                HELLO_TIMEOUT.as_secs()
            ));
        };
        let theirs = wire::read_hello(&answer);
        if theirs != Some(hello.as_str()) {
            return Err(format!(
                "process {rank} runs {}, process 0 {hello}: every process must run the \
                 same program on the same game",
                theirs.unwrap_or("something else")
            ));
        }
    }
    Ok(())
}

/// The master, when it is done: tells every other process to leave its
/// [`WireTransport::serve`].
pub fn dismiss_all(channel: &dyn Channel) {
    for rank in 1..channel.size() {
        channel.send(rank, Tag::ToSlave, &[wire::SHUTDOWN]);
    }
}

/// PV splitting's messages as bytes over a [`Channel`]: on the master, the
/// [`Transport`] its engine's slaves are behind (`Slaves::Remote`, see
/// [`Engine::set_slaves`]); on a slave process, what
/// [`serve`](WireTransport::serve)s the master.
pub struct WireTransport<G: Game> {
    channel: Arc<dyn Channel>,
    /// The master: how many slaves its searches use (processes 1..=n); a
    /// slave: every process but the master (slave `i` is process `i + 1`).
    slaves: usize,
    /// The master: each piece of work in flight, by id, with its split
    /// node and move (a report's PV is read from them).
    sent: Mutex<HashMap<WorkId, (G, G::Move)>>,
    /// A slave: the position each piece of work searches, by id (its
    /// report's PV is written from it).
    received: Mutex<HashMap<WorkId, G>>,
    /// Messages and bytes this process sent and received in the search.
    messages: AtomicU64,
    bytes: AtomicU64,
}

impl<G: Game> WireTransport<G> {
    /// The master's transport (process 0): its searches use the first
    /// `slaves` other processes (at most all of them), so that one cluster
    /// can measure 1, 2, … processes in turn.
    pub fn master(channel: Arc<dyn Channel>, slaves: usize) -> Self {
        let slaves = slaves.min(channel.size().saturating_sub(1));
        Self::new(channel, slaves)
    }

    /// A slave process's transport, to [`serve`](WireTransport::serve) the
    /// master with.
    pub fn slave(channel: Arc<dyn Channel>) -> Self {
        let slaves = channel.size().saturating_sub(1);
        Self::new(channel, slaves)
    }

    fn new(channel: Arc<dyn Channel>, slaves: usize) -> Self {
        WireTransport {
            channel,
            slaves,
            sent: Mutex::new(HashMap::new()),
            received: Mutex::new(HashMap::new()),
            messages: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        }
    }

    fn fail(&self, what: &str) -> ! {
        self.channel
            .abort(&format!("process {}: {what}", self.channel.rank()))
    }

    fn count(&self, message: &[u8]) {
        self.messages.fetch_add(1, Relaxed);
        self.bytes.fetch_add(message.len() as u64, Relaxed);
    }

    fn send(&self, to: usize, tag: Tag, message: &[u8]) {
        self.count(message);
        self.channel.send(to, tag, message);
    }

    fn recv(&self, from: Option<usize>, tag: Tag, timeout: Duration) -> Option<(usize, Vec<u8>)> {
        let (sender, message) = recv(&*self.channel, from, tag, timeout, IN_SEARCH)?;
        self.count(&message);
        Some((sender, message))
    }

    /// A slave process: answers the master's greeting ([`greet`]), then
    /// serves its searches on `engine` (slave `rank - 1`) until it is
    /// dismissed ([`dismiss_all`]).
    pub fn serve<E: Evaluator<G>>(&self, engine: &mut Engine<G, E>) {
        let hello = hello::<G, E>();
        let channel = &*self.channel;
        let slave = channel.rank() - 1;
        loop {
            let Some((_, message)) = recv(channel, Some(0), Tag::ToSlave, Duration::MAX, IDLE)
            else {
                continue;
            };
            let Ok((kind, mut r)) = Reader::open(&message) else {
                self.fail("an empty message from the master");
            };
            match kind {
                wire::HELLO => {
                    // Answer with our own: the master compares.
                    channel.send(0, Tag::ToMaster, &wire::write_hello(&hello));
                }
                wire::BEGIN => {
                    let exact = r.u32().unwrap_or_else(|e| self.fail(&e.message)) != 0;
                    lock(&self.received).clear();
                    let stats = engine.serve(self, slave, exact);
                    channel.send(0, Tag::ToMaster, &wire::write_done(&stats));
                }
                wire::CLEAR => engine.clear(),
                wire::SHUTDOWN => return,
                other => self.fail(&format!("unexpected message {other} between searches")),
            }
        }
    }

    fn read_report(&self, message: &[u8]) -> Result<Report<G::Move>, ParseError> {
        let (kind, mut r) = Reader::open(message)?;
        if kind != wire::REPORT {
            return Err(ParseError::new(format!("message {kind} in a search")));
        }
        let (_, id) = wire::report_id(message)?;
        let Some((node, mv)) = lock(&self.sent).remove(&id) else {
            return Err(ParseError::new(format!("a report on unknown work {id}")));
        };
        wire::read_report(&mut r, &node, mv)
    }
}

impl<G: Game> Transport<G> for WireTransport<G> {
    fn slaves(&self) -> usize {
        self.slaves
    }

    fn send_to_slave(&self, slave: usize, order: Order<G>) {
        if let Order::Work(w) = &order {
            lock(&self.sent).insert(w.id, (w.node.clone(), w.mv));
        }
        self.send(slave + 1, Tag::ToSlave, &wire::write_order(&order));
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        let Some(child) = lock(&self.received).remove(&report.id) else {
            self.fail("a report for work that never came");
        };
        self.send(0, Tag::ToMaster, &wire::write_report(&report, &child));
    }

    fn recv_at_slave(&self, _slave: usize, timeout: Duration) -> Option<Order<G>> {
        let (_, message) = self.recv(Some(0), Tag::ToSlave, timeout)?;
        let order = Reader::open(&message)
            .and_then(|(kind, mut r)| wire::read_order::<G>(kind, &mut r))
            .unwrap_or_else(|e| self.fail(&format!("a bad order: {}", e.message)));
        if let Order::Work(w) = &order {
            lock(&self.received).insert(w.id, w.node.play(w.mv));
        }
        Some(order)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        let (rank, message) = self.recv(None, Tag::ToMaster, timeout)?;
        let report = self.read_report(&message);
        Some(report.unwrap_or_else(|e| self.fail(&format!("process {rank} sent {}", e.message))))
    }

    fn begin_search(&self, exact: bool) {
        self.messages.store(0, Relaxed);
        self.bytes.store(0, Relaxed);
        let begin = Writer::new(wire::BEGIN).u32(u32::from(exact)).0.clone();
        for rank in 1..=self.slaves {
            self.send(rank, Tag::ToSlave, &begin);
        }
    }

    /// Waits for every slave's `Done`, with what it counted; the reports
    /// before it are late ones, for work the search no longer needed. The
    /// messages and bytes that crossed are the master's count.
    fn end_search(&self) -> Stats {
        let mut done = 0;
        let mut stats = Stats::default();
        while done < self.slaves {
            let Some((rank, message)) = self.recv(None, Tag::ToMaster, Duration::MAX) else {
                continue;
            };
            let Ok((kind, mut r)) = Reader::open(&message) else {
                self.fail(&format!("process {rank} sent an empty message"));
            };
            match kind {
                wire::DONE => {
                    stats += wire::read_done(&mut r).unwrap_or_else(|e| {
                        self.fail(&format!("process {rank} sent {}", e.message))
                    });
                    done += 1;
                }
                wire::REPORT => {}
                other => self.fail(&format!(
                    "process {rank} sent message {other} at a search's end"
                )),
            }
        }
        lock(&self.sent).clear();
        // The slaves count no traffic of their own: every message has the
        // master at one end.
        stats.messages = self.messages.load(Relaxed);
        stats.message_bytes = self.bytes.load(Relaxed);
        stats
    }

    fn clear(&self) {
        for rank in 1..self.channel.size() {
            self.send(rank, Tag::ToSlave, &[wire::CLEAR]);
        }
    }
}

/// Per (receiver, tag), the messages in the order sent, with their senders.
type Mailboxes = HashMap<(usize, Tag), VecDeque<(usize, Vec<u8>)>>;

/// A [`Channel`] between threads of one process: a cluster tried on one
/// machine, and the tests of [`WireTransport`] without MPI.
pub struct LocalChannel {
    rank: usize,
    boxes: Arc<Mutex<Mailboxes>>,
    size: usize,
}

impl LocalChannel {
    /// One channel end per process, `size` of them: end `i` is process `i`.
    pub fn group(size: usize) -> Vec<Arc<LocalChannel>> {
        let boxes = Arc::new(Mutex::new(HashMap::new()));
        (0..size)
            .map(|rank| {
                Arc::new(LocalChannel {
                    rank,
                    boxes: boxes.clone(),
                    size,
                })
            })
            .collect()
    }
}

impl Channel for LocalChannel {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn send(&self, to: usize, tag: Tag, message: &[u8]) {
        lock(&self.boxes)
            .entry((to, tag))
            .or_default()
            .push_back((self.rank, message.to_vec()));
    }

    fn try_recv(&self, from: Option<usize>, tag: Tag) -> Option<(usize, Vec<u8>)> {
        let mut boxes = lock(&self.boxes);
        let queue = boxes.get_mut(&(self.rank, tag))?;
        let i = queue
            .iter()
            .position(|(sender, _)| from.is_none_or(|f| f == *sender))?;
        queue.remove(i)
    }

    fn abort(&self, why: &str) -> ! {
        panic!("{why}")
    }
}
