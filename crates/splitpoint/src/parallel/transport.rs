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
//! Where the slaves live is an engine's one setting, [`Slaves`]
//! ([`Engine::set_slaves`](crate::Engine::set_slaves)). Across processes,
//! `WireTransport` (`wire_transport.rs`) carries the messages as bytes over
//! any channel between numbered processes; its slaves run
//! [`Engine::serve`](crate::Engine::serve).
//!
//! The in-process transport is [`ChannelTransport`]: one `std::sync::mpsc`
//! channel per slave for orders and one for the master's results; receivers
//! block, so an idle slave burns no core. Tests also run over
//! `DelayTransport` (`delay_transport.rs`, with the `testing` feature), which
//! holds every message for a random latency and then delivers the ready ones
//! in a seeded random order, so orders and results overtake one another. The
//! search must stay exact over it.
//!
//! The transport contract the master/slave logic relies on: every message sent
//! is delivered once, eventually (after a bounded delay), to the right
//! receiver; messages may be reordered, even between one sender and one receiver.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::driver::lock;
use crate::game::Game;
use crate::score::Score;
use crate::stats::Stats;

/// Where PV splitting's slaves live: an engine's setting
/// ([`Engine::set_slaves`](crate::Engine::set_slaves)), read by `pv-split`
/// alone (every other algorithm ignores it).
pub enum Slaves<G: Game> {
    /// The engine's other threads (the default). Every message between them
    /// is held back by `latency`, as a network between machines would (zero
    /// for none): what a cluster's latency costs, measured on one machine.
    Threads {
        /// How long each message is held back.
        latency: Duration,
    },
    /// Behind `transport`: slaves in other processes (each running
    /// [`Engine::serve`](crate::Engine::serve); an MPI rank, say) or on a
    /// device (an OpenCL kernel). The engine's own other threads idle, and
    /// its messages are not delayed.
    Remote(Arc<dyn Transport<G>>),
}

impl<G: Game> Default for Slaves<G> {
    fn default() -> Self {
        Slaves::Threads {
            latency: Duration::ZERO,
        }
    }
}

impl<G: Game> Clone for Slaves<G> {
    fn clone(&self) -> Self {
        match self {
            Slaves::Threads { latency } => Slaves::Threads { latency: *latency },
            Slaves::Remote(transport) => Slaves::Remote(Arc::clone(transport)),
        }
    }
}

impl<G: Game> std::fmt::Debug for Slaves<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slaves::Threads { latency } => write!(f, "Threads {{ latency: {latency:?} }}"),
            Slaves::Remote(_) => f.write_str("Remote"),
        }
    }
}

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
    /// The split node's position: the slave plays `mv` from it and searches
    /// the position after (so that across processes `mv` can cross as its
    /// text in this position).
    pub node: G,
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

    /// The search's move-time deadline, told just before
    /// [`begin_search`](Transport::begin_search). A transport whose slaves'
    /// work runs on the master's thread (a device) gives that work up at
    /// the deadline and answers it as incomplete, since the master, out of
    /// time too, stops; others need not know it.
    fn set_deadline(&self, deadline: Option<Instant>) {
        let _ = deadline;
    }

    /// A search begins (on the master, before any work is sent); `exact`
    /// says in which mode slaves search. In-process, nothing to do; across
    /// processes, this starts the slaves' searches.
    fn begin_search(&self, exact: bool) {
        let _ = exact;
    }

    /// The search is over and every slave was dismissed (on the master).
    /// In-process, nothing to do; across processes, this waits until every
    /// slave has left the search, so that no message of this search is read
    /// by the next, and returns what the slaves counted (added to the
    /// search's statistics; in-process they count in their own workers).
    fn end_search(&self) -> Stats {
        Stats::default()
    }

    /// The master's engine was cleared (a new game, or a bench's fresh
    /// start): across processes, the slaves clear their engines too.
    fn clear(&self) {}
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
