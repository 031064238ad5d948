//! A transport that delays messages: in tests, a random time each, the
//! ready ones delivered in a random order (the `testing` feature: the
//! master/slave logic must stay exact over it); in the bench, a fixed
//! latency each (`Slaves::Threads` with a latency, [`Engine::set_slaves`](crate::Engine::set_slaves):
//! how speedup falls as a network's latency grows, measured in-process).

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::driver::lock;
use crate::game::Game;
use crate::parallel::transport::{Order, Report, Transport};

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

    fn send(&self, msg: T, min_latency: Duration, max_latency: Duration) {
        let mut h = lock(&self.held);
        let max = max_latency.as_micros() as u64;
        let latency = min_latency.as_micros() as u64
            + if max == 0 {
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

    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    fn stats(&self) -> DelayStats {
        lock(&self.held).stats
    }
}

/// A transport that delays every message (a fixed latency plus a random
/// time) and delivers the ready ones in a seeded random order (see the
/// module doc).
pub struct DelayTransport<G: Game> {
    delays: Delays,
    /// Every message's least delay.
    latency: Duration,
    slave_inboxes: Vec<Inbox<Order<G>>>,
    master_inbox: Inbox<Report<G::Move>>,
}

impl<G: Game> DelayTransport<G> {
    /// A misbehaving transport for `slaves` slaves.
    pub fn new(slaves: usize, delays: Delays) -> Self {
        let seed = delays.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        DelayTransport {
            delays,
            latency: Duration::ZERO,
            slave_inboxes: (0..slaves)
                .map(|i| Inbox::new(seed ^ (i as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd)))
                .collect(),
            master_inbox: Inbox::new(seed),
        }
    }

    /// A transport for `slaves` slaves that delays every message by
    /// `latency`, as a network would.
    pub fn with_latency(slaves: usize, latency: Duration) -> Self {
        let delays = Delays {
            seed: 1,
            max_latency: Duration::ZERO,
        };
        DelayTransport {
            latency,
            ..Self::new(slaves, delays)
        }
    }

    /// Messages carried and reordered so far, over every receiver.
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
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
        self.slave_inboxes[slave].send(order, self.latency, self.delays.max_latency);
    }

    fn send_to_master(&self, report: Report<G::Move>) {
        self.master_inbox
            .send(report, self.latency, self.delays.max_latency);
    }

    fn recv_at_slave(&self, slave: usize, timeout: Duration) -> Option<Order<G>> {
        self.slave_inboxes[slave].recv(timeout)
    }

    fn recv_at_master(&self, timeout: Duration) -> Option<Report<G::Move>> {
        self.master_inbox.recv(timeout)
    }
}
