//! Deterministic virtual-time simulation: the real parallel algorithms on
//! up to [`MAX_PROCESSORS`] virtual processors, on any machine.
//!
//! A simulated search runs the same [`parallel`](crate::parallel) code on
//! `P` ordinary threads, but a [`scheduler`] lets exactly one of them run at
//! a time: the one whose *virtual clock* is least (ties by thread index). A
//! thread's clock advances by what it does — each node it visits costs
//! [`Costs::node_ns`], each parallel operation (publishing a split point,
//! attaching to one, merging a result, sending a message) a few cache-line
//! transfers ([`Costs::line_ns`]) — and it runs until it is a quantum of
//! virtual time ahead of the next thread or must wait. A waiting thread
//! takes no real time: it sleeps in virtual time until the event that can
//! end its wait (the wake-up of the object it sleeps on, a message, or its
//! timeout), and resumes at that event's virtual time plus the cost of
//! noticing it (a cache line while it would still be spinning, a wake-up
//! once it would be asleep). The answer is therefore the same, bit for bit,
//! on every machine: nodes, scores and virtual times.
//!
//! The algorithms meet the simulator in three places only: the node count
//! (the search's per-node stop poll), the waits and wake-ups of
//! [`idle`](crate::parallel::idle) (every wait of every shared-memory
//! algorithm goes through it), and pv-split's transport, which in a
//! simulation is [`transport::SimTransport`] (messages delivered after a
//! virtual latency). Locks need nothing: a thread is descheduled only at a
//! node or a wait, never while it holds one of the algorithms' locks, so no
//! lock is ever contended.
//!
//! What the model leaves out is what a real machine adds: memory bandwidth,
//! caches shared or thrashed, the operating system's scheduler. See the
//! design notes in `README.md` beside this file.

pub(crate) mod scheduler;
pub(crate) mod transport;

use std::time::Duration;

/// The most virtual processors a simulation runs.
pub const MAX_PROCESSORS: usize = 1024;

/// What things cost in virtual time, in nanoseconds.
///
/// ```
/// use splitpoint::sim::Costs;
///
/// let c = Costs { node_ns: 25.0, ..Costs::default() };
/// assert!(c.validate().is_ok());
/// assert!(Costs { node_ns: 0.0, ..c }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// One node visited (interior, quiescence or leaf-solver node alike).
    pub node_ns: f64,
    /// One cache line moving between two cores: a parallel operation costs
    /// a few ([`Op`]), and a waiter that is still spinning notices an event
    /// after one.
    pub line_ns: f64,
    /// Waking a sleeping thread: from the wake-up call to the thread running.
    pub wake_ns: f64,
}

impl Default for Costs {
    /// Figures of a typical x86-64 server core: half a microsecond a node
    /// (a chess engine's rate), 100 ns a cache-line transfer, 20 µs a
    /// wake-up. `bench --calibrate` measures them on the machine at hand.
    fn default() -> Self {
        Costs {
            node_ns: 500.0,
            line_ns: 100.0,
            wake_ns: 20_000.0,
        }
    }
}

impl Costs {
    /// An error message unless every cost is positive and finite.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in [
            ("node", self.node_ns),
            ("line", self.line_ns),
            ("wake", self.wake_ns),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "the simulation's {name} cost must be a positive number of nanoseconds, not {v}"
                ));
            }
        }
        Ok(())
    }
}

/// A parallel operation's cost, in cache-line transfers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Publishing a split point: the node's moves, window and id written
    /// where the others look, under a lock.
    Publish,
    /// Attaching to a split point, or taking a move from one.
    Attach,
    /// Reporting a result at a split point (score, bound, PV).
    Merge,
    /// Sending a message (the sender's side; the latency is the network's).
    Message,
}

impl Op {
    /// Lines moved between cores.
    fn lines(self) -> u64 {
        match self {
            Op::Publish => 4,
            Op::Attach | Op::Merge | Op::Message => 2,
        }
    }
}

/// How a search is simulated ([`Engine::set_simulation`](crate::Engine::set_simulation)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simulation {
    /// What things cost.
    pub costs: Costs,
    /// How far (virtual nanoseconds) a thread may run ahead of the next one
    /// before it hands over: the simulation's resolution. Smaller is
    /// closer to truly simultaneous threads and slower to simulate.
    pub quantum_ns: f64,
}

impl Default for Simulation {
    fn default() -> Self {
        Simulation {
            costs: Costs::default(),
            quantum_ns: 5_000.0,
        }
    }
}

impl Simulation {
    /// The default simulation with these costs.
    pub fn with_costs(costs: Costs) -> Self {
        Simulation {
            costs,
            ..Simulation::default()
        }
    }

    /// An error message unless the costs and the quantum are positive.
    pub fn validate(&self) -> Result<(), String> {
        self.costs.validate()?;
        if !(self.quantum_ns.is_finite() && self.quantum_ns > 0.0) {
            return Err(format!(
                "the simulation's quantum must be a positive number of nanoseconds, not {}",
                self.quantum_ns
            ));
        }
        Ok(())
    }
}

/// What one simulated search did, in virtual time unless named otherwise.
/// The four shares add up to `processor_seconds`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// Virtual processors.
    pub processors: usize,
    /// The search's virtual time: when thread 0 returned its answer.
    pub seconds: f64,
    /// Processor time visiting nodes (summed over processors).
    pub search_seconds: f64,
    /// Processor time in parallel operations (publishing, attaching,
    /// merging, sending).
    pub overhead_seconds: f64,
    /// Processor time with no work: looking for work, or done before the
    /// search was.
    pub idle_seconds: f64,
    /// Processor time waiting with work in hand: owners waiting for their
    /// helpers, a master for its slaves' results.
    pub wait_seconds: f64,
    /// Waits ended by an event (the rest ended by their timeout).
    pub wakeups: u64,
    /// Waits ended by their timeout: a safety net in the real code, so
    /// many of them mean an event the simulation does not see.
    pub timeouts: u64,
    /// Times the running thread handed over.
    pub handovers: u64,
    /// Real seconds the simulation took.
    pub real_seconds: f64,
    /// The processor time the four shares divide: `processors × seconds`,
    /// plus the time threads took to leave after the answer.
    pub processor_seconds: f64,
}

/// Nanoseconds (possibly fractional) as whole picoseconds, the scheduler's unit.
pub(crate) fn ps(ns: f64) -> u64 {
    (ns * 1000.0).round() as u64
}

/// Picoseconds as seconds.
pub(crate) fn seconds(ps: u64) -> f64 {
    ps as f64 * 1e-12
}

/// A duration in picoseconds.
pub(crate) fn ps_of(d: Duration) -> u64 {
    u64::try_from(d.as_nanos().saturating_mul(1000)).unwrap_or(u64::MAX)
}

/// A thread's part in a simulation, if it is in one: see
/// [`scheduler::current`].
pub(crate) use scheduler::{Sim, WaitKind, charge, current};
