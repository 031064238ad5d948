//! pv-split's messages in a simulation: each delivered a virtual latency
//! after it was sent, the receiver sleeping in virtual time until then.

use std::sync::Mutex;
use std::time::Duration;

use crate::driver::lock;
use crate::game::Game;
use crate::parallel::transport::{Order, Report, Transport};

use super::{Op, WaitKind, charge, current};

/// A message in flight: when it arrives, its place in the sending order,
/// the message.
type InFlight<T> = (u64, u64, T);

/// One receiver's messages in flight, and how many were ever sent to it.
struct Inbox<T> {
    items: Mutex<(Vec<InFlight<T>>, u64)>,
}

impl<T> Inbox<T> {
    fn new() -> Self {
        Inbox {
            items: Mutex::new((Vec::new(), 0)),
        }
    }

    /// Its identity as an object to wait on.
    fn object(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    fn send(&self, latency: u64, message: T) {
        charge(Op::Message);
        let now = current(|sim, me| sim.now(me)).unwrap_or(0);
        {
            let mut g = lock(&self.items);
            let seq = g.1;
            g.1 += 1;
            g.0.push((now.saturating_add(latency), seq, message));
        }
        current(|sim, me| sim.notify(me, self.object(), usize::MAX));
    }

    /// The earliest message arrived by now, waiting at most `timeout` of
    /// virtual time for one.
    fn recv(&self, timeout: Duration, kind: WaitKind) -> Option<T> {
        let start = current(|sim, me| sim.now(me)).unwrap_or(0);
        let deadline = start.saturating_add(super::ps_of(timeout));
        loop {
            let now = current(|sim, me| sim.now(me)).unwrap_or(u64::MAX);
            let next = {
                let mut g = lock(&self.items);
                let arrived = (g.0.iter().enumerate())
                    .filter(|(_, m)| m.0 <= now)
                    .min_by_key(|(_, m)| (m.0, m.1))
                    .map(|(i, _)| i);
                if let Some(i) = arrived {
                    return Some(g.0.swap_remove(i).2);
                }
                g.0.iter().map(|m| m.0).min()
            };
            if now >= deadline {
                return None;
            }
            let until = next.map_or(deadline, |at| at.min(deadline));
            let waited = current(|sim, me| {
                sim.wait_ps(me, self.object(), until - now, 0, kind);
            });
            waited?;
        }
    }
}

/// pv-split's in-process transport in a simulation.
pub(crate) struct SimTransport<G: Game> {
    latency: u64,
    slaves: Vec<Inbox<Order<G>>>,
    master: Inbox<Report<G::Move>>,
}

impl<G: Game> SimTransport<G> {
    /// Channels for `slaves` slaves, each message delivered `latency` of
    /// virtual time after it was sent.
    pub(crate) fn new(slaves: usize, latency: Duration) -> Self {
        SimTransport {
            latency: super::ps_of(latency),
            slaves: (0..slaves).map(|_| Inbox::new()).collect(),
            master: Inbox::new(),
        }
    }
}

impl<G: Game> Transport<G> for SimTransport<G> {
    fn slaves(&self) -> usize {
        self.slaves.len()
    }

    fn send_to_slave(&self, slave: usize, order: Order<G>) {
        self.slaves[slave].send(self.latency, order);
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        self.master.send(self.latency, report);
    }

    fn recv_at_slave(&self, slave: usize, timeout: Duration) -> Option<Order<G>> {
        self.slaves[slave].recv(timeout, WaitKind::Idle)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        self.master.recv(timeout, WaitKind::Results)
    }
}
