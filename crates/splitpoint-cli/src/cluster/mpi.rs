//! The MPI transport: rank 0 is the PV-splitting master, rank `i` its slave
//! `i - 1` (see the module doc of `cluster`).
//!
//! Two tags, one per direction, so that MPI's ordering between two ranks
//! (messages of one tag arrive in the order sent) holds for each: a slave
//! reads `Quit` after every order sent before it, and the master reads a
//! slave's `Done` after every report it sent in the search. Receives are
//! polls (`MPI_Iprobe`) with short sleeps between, not blocking receives:
//! OpenMPI's blocking receive spins, and an idle slave must leave the core
//! to the ranks that search (more ranks than cores is the usual test).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use splitpoint::cluster::{Order, Report, Transport, WorkId};
use splitpoint::{Algorithm, Engine, Evaluator, Game, Stats};

use super::wire::{self, Reader, Writer};
use crate::error::{Error, Result};
use crate::games::NamedGame;

/// Master → slave.
const TO_SLAVE: i32 = 1;
/// Slave → master.
const TO_MASTER: i32 = 2;
/// How long a poll sleeps before looking again.
const POLL_SLEEP: Duration = Duration::from_micros(50);
/// How long an idle slave sleeps between looks (it only waits for a search).
const IDLE_SLEEP: Duration = Duration::from_millis(1);
/// How long rank 0 waits for every rank's greeting.
const HELLO_TIMEOUT: Duration = Duration::from_secs(60);

/// MPI itself, from the first `--transport mpi` until [`shutdown`].
static UNIVERSE: Mutex<Option<Universe>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A communicator any thread may use.
struct Comm(SimpleCommunicator);

// SAFETY: MPI was initialised with at least MPI_THREAD_SERIALIZED (checked in
// `world`), and its calls are never concurrent: on a slave rank only the main
// thread calls MPI; on rank 0 the main thread does before and after a search
// (greeting, shutdown) and the search's thread 0 during it, never both.
unsafe impl Send for Comm {}
// SAFETY: as for `Send`.
unsafe impl Sync for Comm {}

/// The world, initialising MPI on the first call.
fn world() -> Result<SimpleCommunicator> {
    let mut universe = lock(&UNIVERSE);
    if let Some(u) = universe.as_ref() {
        return Ok(u.world());
    }
    let (u, threading) = mpi::initialize_with_threading(Threading::Multiple).ok_or_else(|| {
        Error::input("--transport mpi: MPI could not be initialised (or was already finalised)")
    })?;
    if threading < Threading::Serialized {
        return Err(Error::input(format!(
            "--transport mpi: this MPI offers threading level {threading:?}; \
             splitpoint needs at least Serialized"
        )));
    }
    let world = u.world();
    *universe = Some(u);
    Ok(world)
}

/// Finalises MPI if it was started (rank 0, at the end of the command).
pub fn shutdown() {
    drop(lock(&UNIVERSE).take());
}

/// What every rank must agree on: the program and the game.
fn greeting<G: NamedGame>() -> String {
    format!(
        "splitpoint {} ({}), {}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        G::GAME.name()
    )
}

/// Connects `engine` to the other ranks (see [`super::TransportArgs::connect`]).
pub fn connect<G: NamedGame, E: Evaluator<G> + 'static>(
    engine: &mut Engine<G, E>,
    rank_algorithm: Algorithm,
) -> Result<()> {
    let world = world()?;
    if world.size() == 1 {
        // A singleton: no slaves, the plain build's search.
        return Ok(());
    }
    let transport = Arc::new(MpiTransport::<G>::new(world.duplicate()));
    if world.rank() == 0 {
        transport.greet(&greeting::<G>())?;
        engine.set_transport(Some(transport));
        Ok(())
    } else {
        engine.set_parallelism(rank_algorithm, engine.threads());
        transport.serve(engine, &greeting::<G>());
        drop(transport);
        shutdown();
        std::process::exit(0);
    }
}

/// PV splitting's messages between MPI ranks.
pub struct MpiTransport<G: Game> {
    comm: Comm,
    rank: i32,
    slaves: usize,
    /// Rank 0: each piece of work in flight, by id, with its split node and
    /// move (a report's PV is read from them).
    sent: Mutex<HashMap<WorkId, (G, G::Move)>>,
    /// A slave: the position each piece of work searches, by id (its
    /// report's PV is written from it).
    received: Mutex<HashMap<WorkId, G>>,
    messages: AtomicU64,
    bytes: AtomicU64,
}

impl<G: Game> MpiTransport<G> {
    fn new(comm: SimpleCommunicator) -> Self {
        MpiTransport {
            rank: comm.rank(),
            slaves: comm.size() as usize - 1,
            comm: Comm(comm),
            sent: Mutex::new(HashMap::new()),
            received: Mutex::new(HashMap::new()),
            messages: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        }
    }

    /// Ends every rank: a message that makes no sense means the ranks do
    /// not run the same program, and nothing can be trusted.
    fn fail(&self, what: &str) -> ! {
        eprintln!("splitpoint: rank {}: {what}", self.rank);
        self.comm.0.abort(2)
    }

    fn send(&self, rank: i32, tag: i32, message: &[u8]) {
        self.messages.fetch_add(1, Relaxed);
        self.bytes.fetch_add(message.len() as u64, Relaxed);
        self.comm
            .0
            .process_at_rank(rank)
            .send_with_tag(message, tag);
    }

    /// The next message with `tag` (from `from`, or any rank), waiting at
    /// most `timeout`; with its sender.
    fn poll(
        &self,
        from: Option<i32>,
        tag: i32,
        timeout: Duration,
        sleep: Duration,
    ) -> Option<(i32, Vec<u8>)> {
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let probe = match from {
                Some(rank) => self
                    .comm
                    .0
                    .process_at_rank(rank)
                    .immediate_matched_probe_with_tag(tag),
                None => self
                    .comm
                    .0
                    .any_process()
                    .immediate_matched_probe_with_tag(tag),
            };
            if let Some(matched) = probe {
                let (bytes, status) = matched.matched_receive_vec::<u8>();
                return Some((status.source_rank(), bytes));
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            std::thread::sleep(sleep);
        }
    }

    /// Rank 0: greets every rank and checks they run the same program.
    fn greet(&self, hello: &str) -> Result<()> {
        for rank in 1..=self.slaves as i32 {
            self.send(
                rank,
                TO_SLAVE,
                Writer::new(wire::HELLO)
                    .bytes(hello.as_bytes())
                    .0
                    .as_slice(),
            );
        }
        for _ in 0..self.slaves {
            let Some((rank, message)) = self.poll(None, TO_MASTER, HELLO_TIMEOUT, IDLE_SLEEP)
            else {
                return Err(Error::input(format!(
                    "--transport mpi: not every rank answered within {} s \
                     (do they all run this splitpoint, with --transport mpi?)",
                    HELLO_TIMEOUT.as_secs()
                )));
            };
            let theirs = Reader::open(&message)
                .ok()
                .filter(|(kind, _)| *kind == wire::HELLO)
                .and_then(|(_, mut r)| r.text().ok().map(str::to_string));
            if theirs.as_deref() != Some(hello) {
                eprintln!(
                    "splitpoint: --transport mpi: rank {rank} runs {}, rank 0 {hello}: \
                     every rank must run the same program on the same game",
                    theirs.as_deref().unwrap_or("something else")
                );
                self.comm.0.abort(2);
            }
        }
        Ok(())
    }

    /// A slave rank: answers the greeting, then serves rank 0's searches on
    /// `engine` until it is told to leave.
    fn serve<E: Evaluator<G>>(&self, engine: &mut Engine<G, E>, hello: &str) {
        let slave = self.rank as usize - 1;
        loop {
            let Some((_, message)) = self.poll(Some(0), TO_SLAVE, Duration::MAX, IDLE_SLEEP) else {
                continue;
            };
            let Ok((kind, mut r)) = Reader::open(&message) else {
                self.fail("an empty message from rank 0");
            };
            match kind {
                wire::HELLO => {
                    // Answer with our own: rank 0 compares.
                    let _ = r;
                    self.send(
                        0,
                        TO_MASTER,
                        Writer::new(wire::HELLO)
                            .bytes(hello.as_bytes())
                            .0
                            .as_slice(),
                    );
                }
                wire::BEGIN => {
                    let exact = r.u32().unwrap_or_else(|e| self.fail(&e.message)) != 0;
                    lock(&self.received).clear();
                    let stats = engine.serve(self, slave, exact);
                    self.send(0, TO_MASTER, &wire::write_done(&stats));
                }
                wire::SHUTDOWN => return,
                other => self.fail(&format!("unexpected message {other} between searches")),
            }
        }
    }
}

impl<G: Game> Transport<G> for MpiTransport<G> {
    fn slaves(&self) -> usize {
        self.slaves
    }

    fn send_to_slave(&self, slave: usize, order: Order<G>) {
        if let Order::Work(w) = &order {
            lock(&self.sent).insert(w.id, (w.node.clone(), w.mv));
        }
        self.send(slave as i32 + 1, TO_SLAVE, &wire::write_order(&order));
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        let Some(child) = lock(&self.received).remove(&report.id) else {
            self.fail("a report for work that never came");
        };
        self.send(0, TO_MASTER, &wire::write_report(&report, &child));
    }

    fn recv_at_slave(&self, _slave: usize, timeout: Duration) -> Option<Order<G>> {
        let (_, message) = self.poll(Some(0), TO_SLAVE, timeout, POLL_SLEEP)?;
        let order = Reader::open(&message)
            .and_then(|(kind, mut r)| wire::read_order::<G>(kind, &mut r))
            .unwrap_or_else(|e| self.fail(&format!("a bad order: {}", e.message)));
        if let Order::Work(w) = &order {
            lock(&self.received).insert(w.id, w.node.play(w.mv));
        }
        Some(order)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        let (rank, message) = self.poll(None, TO_MASTER, timeout, POLL_SLEEP)?;
        let report = Reader::open(&message).and_then(|(kind, mut r)| {
            if kind != wire::REPORT {
                return Err(splitpoint::ParseError::new(format!(
                    "message {kind} in a search"
                )));
            }
            let (_, id) = wire::report_id(&message)?;
            let Some((node, mv)) = lock(&self.sent).remove(&id) else {
                return Err(splitpoint::ParseError::new(format!(
                    "a report on unknown work {id}"
                )));
            };
            wire::read_report(&mut r, &node, mv)
        });
        Some(report.unwrap_or_else(|e| self.fail(&format!("rank {rank} sent {}", e.message))))
    }

    fn begin_search(&self, exact: bool) {
        for rank in 1..=self.slaves as i32 {
            self.send(
                rank,
                TO_SLAVE,
                Writer::new(wire::BEGIN).u32(u32::from(exact)).0.as_slice(),
            );
        }
    }

    /// Waits for every slave's `Done`, with what it counted; the reports
    /// before it are late ones, for work the search no longer needed.
    fn end_search(&self) -> Stats {
        let mut done = 0;
        let mut stats = Stats::default();
        while done < self.slaves {
            let Some((rank, message)) = self.poll(None, TO_MASTER, Duration::MAX, POLL_SLEEP)
            else {
                continue;
            };
            let Ok((kind, mut r)) = Reader::open(&message) else {
                self.fail(&format!("rank {rank} sent an empty message"));
            };
            match kind {
                wire::DONE => {
                    stats += wire::read_done(&mut r)
                        .unwrap_or_else(|e| self.fail(&format!("rank {rank} sent {}", e.message)));
                    done += 1;
                }
                wire::REPORT => {}
                other => self.fail(&format!(
                    "rank {rank} sent message {other} at a search's end"
                )),
            }
        }
        lock(&self.sent).clear();
        stats
    }
}

impl<G: Game> Drop for MpiTransport<G> {
    /// Rank 0: tells every slave to leave, and says what crossed.
    fn drop(&mut self) {
        if self.rank != 0 {
            return;
        }
        for rank in 1..=self.slaves as i32 {
            self.send(rank, TO_SLAVE, &[wire::SHUTDOWN]);
        }
        eprintln!(
            "cluster: {} ranks, {} messages from rank 0 ({} bytes)",
            self.slaves + 1,
            self.messages.load(Relaxed),
            self.bytes.load(Relaxed)
        );
    }
}
