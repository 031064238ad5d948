//! The messages of master/slave PV splitting and the transports that carry them.
//!
//! [`pv_split`](super::pv_split) is written over the small [`Transport`] trait:
//! the master sends work, broadcasts bounds, stops work and dismisses slaves;
//! slaves receive those orders and send results back. Every message is plain
//! data — the position as the game's own value (`G: Clone + Send`), moves and
//! principal variations by value, scores and ids — so the same master/slave
//! logic can later run over MPI between machines (each message one send, the
//! position as its [`Game::position_text`] if it must cross a process). Nothing
//! in a message points into shared memory.
//!
//! Two transports live here:
//! - [`ChannelTransport`]: one `std::sync::mpsc` channel per slave for orders and
//!   one for the master's results; receivers block, so an idle slave burns no core.
//! - [`DelayTransport`]: a test transport that holds every message for a random
//!   latency and then delivers the ready ones in a seeded random order, so
//!   orders and results overtake one another. The search must stay exact over it.
//!
//! The transport contract the master/slave logic relies on: every message sent
//! is delivered once, eventually (after a bounded delay), to the right
//! receiver; messages may be reordered, even between one sender and one receiver.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::score::Score;

/// Names one piece of work, unique within one search.
pub type WorkId = u64;
/// Names one split node (a PV node whose moves the master shares out),
/// unique within one search.
pub type FrameId = u64;

/// One move of a split node, for a slave to search: everything it needs, by value.
#[derive(Clone, Debug)]
pub struct Work<G: Game> {
    /// This piece of work.
    pub id: WorkId,
    /// The split node it belongs to (bounds and stops name it).
    pub frame: FrameId,
    /// The move, from the split node (echoed in the result).
    pub mv: G::Move,
    /// The position after the move: the root of the slave's search.
    pub child: G,
    /// The split node's remaining depth (the child is searched one ply less).
    pub depth: i32,
    /// The split node's distance from the root.
    pub ply: usize,
    /// The split node's alpha when the work was sent (parent's view).
    pub alpha: Score,
    /// The split node's beta (parent's view).
    pub beta: Score,
}

/// What the master tells a slave.
#[derive(Clone, Debug)]
pub enum Order<G: Game> {
    /// Search this move and send back a [`Report`].
    Work(Work<G>),
    /// The split node `frame`'s alpha has risen to `alpha`: adopt it.
    Bound {
        /// The split node.
        frame: FrameId,
        /// Its new alpha (parent's view), always below its beta.
        alpha: Score,
    },
    /// The split node `frame` needs no more work (a cutoff, or the search
    /// above it was abandoned): drop any of its work.
    Stop {
        /// The split node.
        frame: FrameId,
    },
    /// The search is over: leave.
    Quit,
}

/// What a slave sends back: one per [`Work`] it received.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The slave (0-based among slaves).
    pub slave: usize,
    /// The work this answers.
    pub id: WorkId,
    /// The move searched.
    pub mv: M,
    /// `false`: the work was stopped and `score` means nothing.
    pub complete: bool,
    /// The move's fail-soft score, from the split node's view, for the
    /// window `(alpha, beta)` of the work (with `alpha` as below).
    pub score: Score,
    /// The alpha the finished search used: the work's own, or a bound the
    /// slave adopted since.
    pub alpha: Score,
    /// The best line from the child down (the move itself not included).
    pub pv: Vec<M>,
}

/// How master and slaves talk. Four primitive operations; the named
/// operations of the protocol are provided on top of them.
///
/// Implementations must deliver every message exactly once, eventually; they
/// may delay and reorder. `recv_*` with a zero timeout is a poll.
pub trait Transport<G: Game>: Send + Sync {
    /// The number of slaves (slave indices are `0..slaves()`).
    fn slaves(&self) -> usize;
    /// Master → slave `slave`.
    fn send_to_slave(&self, slave: usize, order: Order<G>);
    /// Slave → master.
    fn send_to_master(&self, report: Report<G::Move>);
    /// Slave `slave`'s next order, waiting at most `timeout`.
    /// Only slave `slave`'s thread calls this for `slave`.
    fn recv_at_slave(&self, slave: usize, timeout: Duration) -> Option<Order<G>>;
    /// The master's next report, waiting at most `timeout`.
    /// Only the master's thread calls this.
    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>>;

    /// Sends a piece of work to a slave.
    fn send_work(&self, slave: usize, work: Work<G>) {
        self.send_to_slave(slave, Order::Work(work));
    }

    /// Tells every slave in `slaves` that `frame`'s alpha is now `alpha`.
    fn broadcast_bound(&self, slaves: &[usize], frame: FrameId, alpha: Score) {
        for &s in slaves {
            self.send_to_slave(s, Order::Bound { frame, alpha });
        }
    }

    /// Tells a slave to drop its work for `frame`.
    fn stop(&self, slave: usize, frame: FrameId) {
        self.send_to_slave(slave, Order::Stop { frame });
    }

    /// Dismisses a slave at the end of the search.
    fn quit(&self, slave: usize) {
        self.send_to_slave(slave, Order::Quit);
    }
}

/// Locks a mutex that no panic poisons in practice.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The in-process transport: `std::sync::mpsc` channels.
///
/// A receiver is used by one thread only (slave `i`'s by slave `i`, the
/// master's by the master); it sits in a mutex only because `Receiver` is not
/// `Sync`, so that lock is never contended.
pub struct ChannelTransport<G: Game> {
    to_slaves: Vec<Sender<Order<G>>>,
    slave_inboxes: Vec<Mutex<Receiver<Order<G>>>>,
    to_master: Sender<Report<G::Move>>,
    master_inbox: Mutex<Receiver<Report<G::Move>>>,
}

impl<G: Game> ChannelTransport<G> {
    /// Channels for `slaves` slaves.
    pub fn new(slaves: usize) -> Self {
        let (to_slaves, slave_inboxes) = (0..slaves)
            .map(|_| {
                let (tx, rx) = channel();
                (tx, Mutex::new(rx))
            })
            .unzip();
        let (to_master, rx) = channel();
        ChannelTransport {
            to_slaves,
            slave_inboxes,
            to_master,
            master_inbox: Mutex::new(rx),
        }
    }
}

/// A receive with a timeout; zero is a poll.
fn recv_within<T>(rx: &Receiver<T>, timeout: Duration) -> Option<T> {
    if timeout.is_zero() {
        return rx.try_recv().ok();
    }
    rx.recv_timeout(timeout).ok()
}

impl<G: Game> Transport<G> for ChannelTransport<G> {
    fn slaves(&self) -> usize {
        self.to_slaves.len()
    }

    fn send_to_slave(&self, slave: usize, order: Order<G>) {
        // The receiver lives as long as the transport: a send cannot fail.
        let _ = self.to_slaves[slave].send(order);
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        let _ = self.to_master.send(report);
    }

    fn recv_at_slave(&self, slave: usize, timeout: Duration) -> Option<Order<G>> {
        recv_within(&lock(&self.slave_inboxes[slave]), timeout)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        recv_within(&lock(&self.master_inbox), timeout)
    }
}

/// How `DelayTransport` misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delays {
    /// Seeds the latencies and the delivery order.
    pub seed: u64,
    /// Each message is held back a random time in `0..=max_latency`.
    pub max_latency: Duration,
}

/// What a `DelayTransport` did, to show a test that it did misbehave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DelayStats {
    /// Messages carried.
    pub messages: u64,
    /// Deliveries that overtook an earlier-sent message to the same receiver.
    pub reordered: u64,
}

/// One receiver's held-back messages.
struct Held<T> {
    /// (deliver no earlier than, send sequence number, message).
    items: Vec<(Instant, u64, T)>,
    next_seq: u64,
    rng: u64,
    stats: DelayStats,
}

struct Inbox<T> {
    held: Mutex<Held<T>>,
    arrived: Condvar,
}

/// xorshift64*: the delay transport's seeded randomness.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

impl<T> Inbox<T> {
    fn new(seed: u64) -> Self {
        Inbox {
            held: Mutex::new(Held {
                items: Vec::new(),
                next_seq: 0,
                rng: seed | 1,
                stats: DelayStats::default(),
            }),
            arrived: Condvar::new(),
        }
    }

    fn send(&self, msg: T, max_latency: Duration) {
        let mut h = lock(&self.held);
        let max = max_latency.as_micros() as u64;
        let latency = if max == 0 {
            0
        } else {
            next_random(&mut h.rng) % (max + 1)
        };
        let seq = h.next_seq;
        h.next_seq += 1;
        h.stats.messages += 1;
        h.items
            .push((Instant::now() + Duration::from_micros(latency), seq, msg));
        drop(h);
        self.arrived.notify_one();
    }

    /// A random one of the messages whose latency has passed, waiting at most
    /// `timeout` for one.
    fn recv(&self, timeout: Duration) -> Option<T> {
        let deadline = Instant::now() + timeout;
        let mut h = lock(&self.held);
        loop {
            let now = Instant::now();
            let ready: Vec<usize> = (0..h.items.len())
                .filter(|&i| h.items[i].0 <= now)
                .collect();
            if !ready.is_empty() {
                let pick = ready[(next_random(&mut h.rng) % ready.len() as u64) as usize];
                let (_, seq, msg) = h.items.swap_remove(pick);
                if h.items.iter().any(|&(_, s, _)| s < seq) {
                    h.stats.reordered += 1;
                }
                return Some(msg);
            }
            if now >= deadline {
                return None;
            }
            let earliest = h.items.iter().map(|&(at, _, _)| at).min();
            let until = earliest.map_or(deadline, |at| at.min(deadline));
            h = self
                .arrived
                .wait_timeout(h, until.saturating_duration_since(now))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn stats(&self) -> DelayStats {
        lock(&self.held).stats
    }
}

/// A test transport that delays every message a random time and delivers
/// the ready ones in a seeded random order (see the module doc).
pub struct DelayTransport<G: Game> {
    delays: Delays,
    slave_inboxes: Vec<Inbox<Order<G>>>,
    master_inbox: Inbox<Report<G::Move>>,
}

impl<G: Game> DelayTransport<G> {
    /// A misbehaving transport for `slaves` slaves.
    pub fn new(slaves: usize, delays: Delays) -> Self {
        let seed = delays.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        DelayTransport {
            delays,
            slave_inboxes: (0..slaves)
                .map(|i| Inbox::new(seed ^ (i as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd)))
                .collect(),
            master_inbox: Inbox::new(seed),
        }
    }

    /// Messages carried and reordered so far, over every receiver.
    pub fn stats(&self) -> DelayStats {
        let mut sum = self.master_inbox.stats();
        for inbox in &self.slave_inboxes {
            let s = inbox.stats();
            sum.messages += s.messages;
            sum.reordered += s.reordered;
        }
        sum
    }
}

impl<G: Game> Transport<G> for DelayTransport<G> {
    fn slaves(&self) -> usize {
        self.slave_inboxes.len()
    }

    fn send_to_slave(&self, slave: usize, order: Order<G>) {
        self.slave_inboxes[slave].send(order, self.delays.max_latency);
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        self.master_inbox.send(report, self.delays.max_latency);
    }

    fn recv_at_slave(&self, slave: usize, timeout: Duration) -> Option<Order<G>> {
        self.slave_inboxes[slave].recv(timeout)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        self.master_inbox.recv(timeout)
    }
}
