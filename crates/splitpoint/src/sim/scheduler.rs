//! The baton: one simulated thread runs at a time, the least clock first.
//!
//! Every participating thread has a virtual clock (picoseconds) and a state:
//! running (exactly one holds the baton), ready (in the queue at its clock),
//! waiting (on an object, in the queue at its timeout), or done. The queue
//! is a heap of `(time, thread, version)`; an entry whose version is not the
//! thread's current one is stale and skipped, so a wake-up re-queues a
//! waiter without searching the heap. Handing over is a lock and a
//! condition variable per thread; the running thread's clock and its slice
//! end sit outside the lock, so the per-node tick is two relaxed loads, an
//! add and a store.
//!
//! Determinism: every decision depends only on the clocks, the thread
//! indices and the order of the (single-threaded) events, never on real
//! time or addresses' values (objects are compared, never ordered).

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use super::{Op, Report, Simulation, ps, seconds};

/// What a waiting thread waits for, for the time breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WaitKind {
    /// No work: looking for some.
    Idle,
    /// Work in hand, waiting for others' results.
    Results,
}

#[derive(Clone, Copy, Debug)]
enum State {
    Running,
    Ready,
    Waiting {
        obj: usize,
        since: u64,
        /// Until when the real waiter would still be spinning or yielding
        /// (noticing an event within a cache-line transfer).
        polling_until: u64,
        kind: WaitKind,
    },
    Done,
}

#[derive(Clone, Copy, Debug, Default)]
struct Account {
    overhead: u64,
    idle: u64,
    wait: u64,
    /// The clock when the thread left.
    end: u64,
}

impl Account {
    /// Counts `ps` spent waiting for `kind`.
    fn waited(&mut self, kind: WaitKind, ps: u64) {
        match kind {
            WaitKind::Idle => self.idle += ps,
            WaitKind::Results => self.wait += ps,
        }
    }
}

struct Sched {
    running: usize,
    state: Vec<State>,
    version: Vec<u32>,
    queue: BinaryHeap<Reverse<(u64, usize, u32)>>,
    /// Threads waiting on each object, in the order they began.
    waiting_on: HashMap<usize, Vec<usize>>,
    ids: HashMap<ThreadId, usize>,
    account: Vec<Account>,
    wakeups: u64,
    timeouts: u64,
    handovers: u64,
    /// Bumped at every handover: the watchdog's sign of progress.
    progress: u64,
}

/// No thread holds the baton (every one is done).
const NOBODY: usize = usize::MAX;

/// One simulated search's processors.
pub(crate) struct Sim {
    node_ps: u64,
    line_ps: u64,
    wake_ps: u64,
    quantum_ps: u64,
    clocks: Box<[CachePadded<AtomicU64>]>,
    /// Each thread's node count at its last tick.
    seen_nodes: Box<[CachePadded<AtomicU64>]>,
    /// The running thread hands over once its clock reaches this.
    slice_end: CachePadded<AtomicU64>,
    sched: Mutex<Sched>,
    turn: Box<[Condvar]>,
    started: Instant,
}

thread_local! {
    /// The simulation this thread is part of, and its index there.
    static CURRENT: RefCell<Option<(Arc<Sim>, usize)>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's simulation and index, if it is in one.
pub(crate) fn current<R>(f: impl FnOnce(&Sim, usize) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow().as_ref().map(|(sim, me)| f(sim, *me)))
}

/// Charges this thread (if simulated) for a parallel operation.
pub(crate) fn charge(op: Op) {
    current(|sim, me| sim.spend(me, op.lines() * sim.line_ps));
}

/// The object a thread parks on (no address is this high).
fn park_object(thread: usize) -> usize {
    usize::MAX - thread
}

fn lock(m: &Mutex<Sched>) -> MutexGuard<'_, Sched> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A thread's membership: leaves the simulation (handing the baton on) when
/// dropped, also when its work panics.
pub(crate) struct Member {
    sim: Arc<Sim>,
    me: usize,
}

impl Drop for Member {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = None);
        self.sim.leave(self.me);
    }
}

impl Sim {
    /// A simulation of `processors` threads, thread 0 running first.
    pub(crate) fn new(processors: usize, config: Simulation) -> Arc<Self> {
        let n = processors.max(1);
        let mut queue = BinaryHeap::with_capacity(4 * n);
        for t in 1..n {
            queue.push(Reverse((0, t, 0)));
        }
        let mut state = vec![State::Ready; n];
        state[0] = State::Running;
        let quantum_ps = ps(config.quantum_ns).max(1);
        let sim = Sim {
            node_ps: ps(config.costs.node_ns),
            line_ps: ps(config.costs.line_ns),
            wake_ps: ps(config.costs.wake_ns),
            quantum_ps,
            clocks: (0..n)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            seen_nodes: (0..n)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            slice_end: CachePadded::new(AtomicU64::new(quantum_ps)),
            sched: Mutex::new(Sched {
                running: 0,
                state,
                version: vec![0; n],
                queue,
                waiting_on: HashMap::new(),
                ids: HashMap::new(),
                account: vec![Account::default(); n],
                wakeups: 0,
                timeouts: 0,
                handovers: 0,
                progress: 0,
            }),
            turn: (0..n).map(|_| Condvar::new()).collect(),
            started: Instant::now(),
        };
        Arc::new(sim)
    }

    /// The number of virtual processors.
    pub(crate) fn processors(&self) -> usize {
        self.clocks.len()
    }

    /// Thread `me`'s clock, in picoseconds.
    pub(crate) fn now(&self, me: usize) -> u64 {
        self.clocks[me].load(Relaxed)
    }

    /// Joins the simulation as thread `me` (on that thread), returning once
    /// it holds the baton.
    pub(crate) fn enter(self: &Arc<Self>, me: usize) -> Member {
        let mut s = lock(&self.sched);
        s.ids.insert(std::thread::current().id(), me);
        drop(self.await_turn(s, me));
        CURRENT.with(|c| *c.borrow_mut() = Some((Arc::clone(self), me)));
        Member {
            sim: Arc::clone(self),
            me,
        }
    }

    /// Counts thread `me`'s nodes up to `nodes` (its running total) and
    /// hands over if its slice is spent. Out of line: the node poll that
    /// calls it stays as small as it is without a simulation.
    #[inline(never)]
    pub(crate) fn tick(&self, me: usize, nodes: u64) {
        let new = nodes.wrapping_sub(self.seen_nodes[me].load(Relaxed));
        if new == 0 {
            return;
        }
        self.seen_nodes[me].store(nodes, Relaxed);
        let clock = self.clocks[me].load(Relaxed) + new * self.node_ps;
        self.clocks[me].store(clock, Relaxed);
        if clock >= self.slice_end.load(Relaxed) {
            self.hand_over(me);
        }
    }

    /// Thread `me` spends `ps` waiting without sleeping (a turn of a spin
    /// whose condition held, so the waiter goes round its loop again), and
    /// hands over if its slice is spent: a thread that loops must let the
    /// others move.
    pub(crate) fn spin(&self, me: usize, ps: u64, kind: WaitKind) {
        let clock = self.clocks[me].load(Relaxed) + ps;
        self.clocks[me].store(clock, Relaxed);
        lock(&self.sched).account[me].waited(kind, ps);
        if clock >= self.slice_end.load(Relaxed) {
            self.hand_over(me);
        }
    }

    /// Adds `ps` of parallel overhead to thread `me`'s clock.
    fn spend(&self, me: usize, ps: u64) {
        self.clocks[me].fetch_add(ps, Relaxed);
        lock(&self.sched).account[me].overhead += ps;
    }

    /// The running thread `me` goes back in the queue at its clock; the
    /// least clock runs next (perhaps `me` again).
    #[cold]
    fn hand_over(&self, me: usize) {
        let mut s = lock(&self.sched);
        let v = s.version[me];
        s.state[me] = State::Ready;
        s.queue.push(Reverse((self.now(me), me, v)));
        let next = self.pick_next(&mut s);
        self.grant(&mut s, next);
        if next != me {
            drop(self.await_turn(s, me));
        }
    }

    /// Thread `me` waits on `obj` until woken ([`Sim::notify`]) or until
    /// `timeout` of virtual time has passed; `polling` is how long the real
    /// waiter would spin or yield before sleeping.
    pub(crate) fn wait(
        &self,
        me: usize,
        obj: usize,
        timeout: Duration,
        polling: Duration,
        kind: WaitKind,
    ) {
        self.wait_ps(me, obj, super::ps_of(timeout), super::ps_of(polling), kind);
    }

    /// [`Sim::wait`] in picoseconds.
    pub(crate) fn wait_ps(
        &self,
        me: usize,
        obj: usize,
        timeout: u64,
        polling: u64,
        kind: WaitKind,
    ) {
        let mut s = lock(&self.sched);
        let now = self.now(me);
        s.version[me] = s.version[me].wrapping_add(1);
        let v = s.version[me];
        s.state[me] = State::Waiting {
            obj,
            since: now,
            polling_until: now.saturating_add(polling),
            kind,
        };
        s.waiting_on.entry(obj).or_default().push(me);
        let deadline = now.saturating_add(timeout.max(1));
        s.queue.push(Reverse((deadline, me, v)));
        let next = self.pick_next(&mut s);
        self.grant(&mut s, next);
        if next != me {
            drop(self.await_turn(s, me));
        }
    }

    /// Thread `me` parks (until [`Sim::unpark`] or `timeout`).
    pub(crate) fn park(&self, me: usize, timeout: Duration, polling: Duration, kind: WaitKind) {
        self.wait(me, park_object(me), timeout, polling, kind);
    }

    /// Unparks the simulated thread `id`, if it is one of this simulation's.
    /// False if it is not.
    pub(crate) fn unpark(&self, me: usize, id: ThreadId) -> bool {
        let target = lock(&self.sched).ids.get(&id).copied();
        match target {
            Some(t) => {
                self.notify(me, park_object(t), 1);
                true
            }
            None => false,
        }
    }

    /// Wakes at most `n` of the threads waiting on `obj` (the longest
    /// waiting first), at thread `me`'s time.
    pub(crate) fn notify(&self, me: usize, obj: usize, n: usize) {
        let mut s = lock(&self.sched);
        let now = self.now(me);
        let Some(list) = s.waiting_on.get_mut(&obj) else {
            return;
        };
        let k = n.min(list.len());
        let woken: Vec<usize> = list.drain(..k).collect();
        if list.is_empty() {
            s.waiting_on.remove(&obj);
        }
        for w in woken {
            let State::Waiting {
                since,
                polling_until,
                kind,
                ..
            } = s.state[w]
            else {
                continue;
            };
            let notice = if now <= polling_until {
                self.line_ps
            } else {
                self.wake_ps
            };
            let at = now.max(since) + notice;
            self.resume_at(&mut s, w, since, at, kind);
            s.wakeups += 1;
            let v = s.version[w];
            s.queue.push(Reverse((at, w, v)));
            // The one woken must not fall a whole slice behind.
            let end = at.saturating_add(self.quantum_ps);
            if end < self.slice_end.load(Relaxed) {
                self.slice_end.store(end, Relaxed);
            }
        }
    }

    /// Ends thread `w`'s wait (begun at `since`) at `at`.
    fn resume_at(&self, s: &mut Sched, w: usize, since: u64, at: u64, kind: WaitKind) {
        s.version[w] = s.version[w].wrapping_add(1);
        s.state[w] = State::Ready;
        self.clocks[w].store(at, Relaxed);
        s.account[w].waited(kind, at - since);
    }

    /// Thread `me` is done; the baton goes on.
    fn leave(&self, me: usize) {
        let mut s = lock(&self.sched);
        s.state[me] = State::Done;
        s.version[me] = s.version[me].wrapping_add(1);
        s.account[me].end = self.now(me);
        match self.try_pick_next(&mut s) {
            Some(next) => self.grant(&mut s, next),
            None => s.running = NOBODY,
        }
    }

    /// Pops the queue's least live entry, when the caller has just queued
    /// itself.
    fn pick_next(&self, s: &mut Sched) -> usize {
        self.try_pick_next(s)
            .expect("the thread handing over is in the queue")
    }

    /// Pops the queue's least live entry, if any; a waiter popped at its
    /// deadline has timed out.
    fn try_pick_next(&self, s: &mut Sched) -> Option<usize> {
        loop {
            let Reverse((at, t, v)) = s.queue.pop()?;
            if v != s.version[t] {
                continue;
            }
            match s.state[t] {
                State::Ready => return Some(t),
                State::Waiting {
                    obj, since, kind, ..
                } => {
                    if let Some(list) = s.waiting_on.get_mut(&obj) {
                        list.retain(|&w| w != t);
                        if list.is_empty() {
                            s.waiting_on.remove(&obj);
                        }
                    }
                    self.resume_at(s, t, since, at, kind);
                    s.timeouts += 1;
                    return Some(t);
                }
                State::Running | State::Done => continue,
            }
        }
    }

    /// Gives the baton to `next`, with a slice ending a quantum past the
    /// next thread in the queue.
    fn grant(&self, s: &mut Sched, next: usize) {
        let clock = self.now(next);
        let others = loop {
            match s.queue.peek() {
                Some(&Reverse((_, t, v))) if v != s.version[t] => {
                    s.queue.pop();
                }
                Some(&Reverse((at, _, _))) => break Some(at),
                None => break None,
            }
        };
        let end = match others {
            Some(at) => at.max(clock).saturating_add(self.quantum_ps),
            None => u64::MAX,
        };
        self.slice_end.store(end, Relaxed);
        s.state[next] = State::Running;
        if next != s.running {
            s.handovers += 1;
        }
        s.progress += 1;
        s.running = next;
        self.turn[next].notify_one();
    }

    /// Blocks (in real time) until thread `me` holds the baton. Says so on
    /// standard error if nothing in the simulation moves for a minute: a
    /// thread blocked outside the simulation while it holds the baton.
    fn await_turn<'a>(&self, mut s: MutexGuard<'a, Sched>, me: usize) -> MutexGuard<'a, Sched> {
        let mut last = (s.progress, Instant::now());
        while s.running != me {
            let (guard, _) = self.turn[me]
                .wait_timeout(s, Duration::from_secs(5))
                .unwrap_or_else(|e| e.into_inner());
            s = guard;
            if s.progress != last.0 {
                last = (s.progress, Instant::now());
            } else if last.1.elapsed() > Duration::from_secs(60) {
                eprintln!(
                    "simulation: no progress for a minute; thread {} holds the baton ({:?})",
                    s.running,
                    s.state.get(s.running)
                );
                last.1 = Instant::now();
            }
        }
        s
    }

    /// The search's report, once every thread has left. The search's
    /// virtual time is thread 0's clock when it left (with its answer).
    pub(crate) fn report(&self) -> Report {
        let s = lock(&self.sched);
        let end = s.account[0].end;
        let mut r = Report {
            processors: self.processors(),
            seconds: seconds(end),
            wakeups: s.wakeups,
            timeouts: s.timeouts,
            handovers: s.handovers,
            real_seconds: self.started.elapsed().as_secs_f64(),
            ..Report::default()
        };
        for a in &s.account {
            // A thread done before the answer idles until it; one still
            // leaving after it is counted to its own end.
            let busy = a.end.saturating_sub(a.idle + a.wait + a.overhead);
            r.search_seconds += seconds(busy);
            r.overhead_seconds += seconds(a.overhead);
            r.wait_seconds += seconds(a.wait);
            r.idle_seconds += seconds(a.idle + end.saturating_sub(a.end));
            r.processor_seconds += seconds(a.end.max(end));
        }
        r
    }
}
