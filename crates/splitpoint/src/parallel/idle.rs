//! How idle threads sleep without losing a wake-up.
//!
//! An idle thread announces itself in `sleepers`, then re-checks for work
//! *under the lock*; a publisher makes its work visible first and then, if
//! `sleepers > 0`, notifies under the same lock. Either the sleeper's re-check
//! sees the work, or the publisher sees the sleeper (the Dekker pattern: a
//! `SeqCst` fence on both sides, between the write and the read, so the
//! work's own atomics may be relaxed), so no wake-up is lost. The timeout is
//! a safety net only. Publishers pay a lock and a notify only when someone
//! sleeps, and wake only as many sleepers as their work has room for
//! ([`IdleSleep::wake_some`]): a sleeper left asleep is one the work could
//! not have used, and every sleeper that is not waiting any more is awake
//! and looks for work on its own.
//!
//! The split-point pool has one `IdleSleep` for idle helpers and one per
//! thread for an owner waiting for the threads at its slot; DTS has one per
//! thread, so that a request reaches the one thread it is for.
//!
//! In a simulation ([`crate::sim`]) every wait here is a wait in virtual
//! time and every wake-up an event of the simulation: the same calls, so
//! the algorithms above do not know which they run in.

use std::thread::Thread;
use std::time::{Duration, Instant};

#[cfg(not(loom))]
use crate::sim::Sim;
use crate::sim::{self, WaitKind};

#[cfg(loom)]
use loom::sync::{
    Condvar, Mutex,
    atomic::{AtomicUsize, Ordering::SeqCst, fence},
};
#[cfg(not(loom))]
use std::sync::{
    Condvar, Mutex,
    atomic::{AtomicUsize, Ordering::SeqCst, fence},
};

/// How a waiting thread backs off: spin a few turns (the thread it waits
/// for is most likely running and nearly done), then yield for a while
/// (with no other thread runnable a yield returns at once, so this is a
/// cheap poll; with more threads than cores it lets the others run), then
/// sleep in an [`IdleSleep`] until woken. The sleep is what guarantees
/// progress: with more threads than cores the thread waited for may be off
/// its core, and a waiter that never sleeps keeps taking turns from it. The
/// yield phase is what keeps short waits cheap: a sleeper pays a wake-up
/// (tens of microseconds) when its wait ends.
///
/// Every wait of the shared-memory algorithms goes through one of the
/// policies below; they differ only in how long a waiter yields before it
/// sleeps and how long a sleep lasts at most.
pub(crate) struct Backoff {
    turns: u32,
    policy: Policy,
    /// When the yield phase began, once it has.
    yielding_since: Option<Instant>,
}

/// How long to spin, then yield, before sleeping, and the longest sleep.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Policy {
    /// Turns spent spinning before yielding.
    pub spins: u32,
    /// Yielding before the sleep.
    pub yield_for: Duration,
    /// The longest sleep: a safety net, since whoever makes the wait end
    /// wakes the sleepers.
    pub nap: Duration,
    /// What the waiter waits for (the simulation's time breakdown).
    pub kind: WaitKind,
}

/// What one turn of spinning takes, for the simulation: how long a waiter
/// still spinning takes to notice its wait is over is a cache line, and
/// for how long it is still spinning is `spins` turns of this.
const SPIN_TURN: Duration = Duration::from_nanos(30);

impl Policy {
    /// How long a waiter spins and yields before it sleeps.
    fn polling(&self) -> Duration {
        SPIN_TURN * self.spins + self.yield_for
    }
}

/// A helper with nothing to do, looking for work (YBW, workloads).
pub(crate) const IDLE_HELPER: Policy = Policy {
    spins: 64,
    yield_for: Duration::from_micros(200),
    nap: Duration::from_millis(2),
    kind: WaitKind::Idle,
};

/// An owner waiting for the helpers at its split point or workload: most
/// such waits are short, and a sleeper pays a wake-up when its wait ends,
/// so it yields longer before it sleeps.
pub(crate) const OWNER: Policy = Policy {
    spins: 64,
    yield_for: Duration::from_millis(2),
    nap: Duration::from_millis(1),
    kind: WaitKind::Results,
};

/// An idle DTS thread: no yield, because an idle DTS thread is woken
/// explicitly by every publication and request, and on a loaded machine a
/// yield hands the core to another process for a whole time slice. It
/// spins a while first: a turn of its loop, which looks for work, takes a
/// fraction of a microsecond, and most idle spells end within tens of
/// microseconds of the work's publication (measured:
/// `docs/lab/2026-11-27-dropped-longer-idle-spin.md`).
pub(crate) const DTS_IDLE: Policy = Policy {
    spins: 1024,
    yield_for: Duration::ZERO,
    nap: Duration::from_millis(1),
    kind: WaitKind::Idle,
};

/// A DTS thread waiting for the answer to its help offer: the answer comes
/// within a few nodes, unless the thread asked is off its core, so spin
/// long, then park until the answer unparks it (the nap only bounds a
/// wake-up gone astray; an unsignalled nap of tens of microseconds often
/// lasts ten times that on a loaded virtual machine:
/// `docs/lab/2026-11-28-chess-idle-answer-unparks.md`).
pub(crate) const DTS_ANSWER: Policy = Policy {
    spins: 1024,
    yield_for: Duration::ZERO,
    nap: Duration::from_millis(1),
    kind: WaitKind::Idle,
};

impl Backoff {
    /// A backoff following `policy`.
    pub(crate) fn new(policy: Policy) -> Self {
        Backoff {
            turns: 0,
            policy,
            yielding_since: None,
        }
    }

    /// Starts over: there was progress.
    pub(crate) fn reset(&mut self) {
        self.turns = 0;
        self.yielding_since = None;
    }

    /// One turn of waiting: spin, yield, or sleep in `sleep` until woken
    /// (at most the policy's nap), unless `ready()` says the wait is over.
    pub(crate) fn snooze(&mut self, sleep: &IdleSleep, ready: impl Fn() -> bool) {
        #[cfg(not(loom))]
        if sim::current(|sim, me| sleep.sleep_simulated(sim, me, &self.policy, &ready)).is_some() {
            return;
        }
        if self.spin_or_yield() {
            sleep.sleep_unless(self.policy.nap, ready);
        }
    }

    /// One turn of a wait whose end unparks this thread: spin, yield, or
    /// park for at most the policy's nap. (A stray unpark only ends one
    /// park early: the caller checks its condition every turn.)
    pub(crate) fn park(&mut self) {
        let policy = &self.policy;
        let simulated = sim::current(|sim, me| {
            sim.park(me, policy.nap, policy.polling(), policy.kind);
        });
        if simulated.is_some() {
            return;
        }
        if self.spin_or_yield() {
            std::thread::park_timeout(self.policy.nap);
        }
    }

    /// Spins or yields if the policy says so now; true when it is time to
    /// sleep.
    fn spin_or_yield(&mut self) -> bool {
        if self.turns < self.policy.spins {
            self.turns += 1;
            std::hint::spin_loop();
            return false;
        }
        let since = *self.yielding_since.get_or_insert_with(Instant::now);
        if since.elapsed() < self.policy.yield_for {
            std::thread::yield_now();
            return false;
        }
        true
    }
}

/// Sleeping idle threads and how to wake them.
#[derive(Default)]
pub(crate) struct IdleSleep {
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

impl IdleSleep {
    /// Sleeps until woken or `timeout`, unless `ready()` — re-checked after
    /// announcing the sleep — says there is something to do.
    pub(crate) fn sleep_unless(&self, timeout: Duration, ready: impl Fn() -> bool) {
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, SeqCst);
        fence(SeqCst);
        if !ready() {
            // Under loom, no timeout: a lost wake-up is then a deadlock,
            // which the model checker reports.
            #[cfg(loom)]
            let _ = (self.wake.wait(guard), timeout);
            #[cfg(not(loom))]
            let _ = self.wake.wait_timeout(guard, timeout);
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }

    /// [`IdleSleep::sleep_unless`] in a simulation: the same announcement
    /// and re-check, then a wait in virtual time.
    #[cfg(not(loom))]
    fn sleep_simulated(&self, sim: &Sim, me: usize, policy: &Policy, ready: &dyn Fn() -> bool) {
        self.sleepers.fetch_add(1, SeqCst);
        fence(SeqCst);
        let ready = ready();
        if !ready {
            sim.wait(me, self.object(), policy.nap, policy.polling(), policy.kind);
        }
        self.sleepers.fetch_sub(1, SeqCst);
        if ready {
            sim.spin(me, sim::ps_of(SPIN_TURN), policy.kind);
        }
    }

    /// Its identity as an object a simulated thread waits on.
    fn object(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    /// Wakes every sleeper, if there is one: call after making work
    /// visible. True if there was one.
    pub(crate) fn wake(&self) -> bool {
        fence(SeqCst);
        let any = self.sleepers.load(SeqCst) > 0;
        if any {
            self.wake_always();
        }
        any
    }

    /// Wakes at most `n` sleepers, if there is one: call after making work
    /// visible that `n` threads can use.
    pub(crate) fn wake_some(&self, n: usize) {
        fence(SeqCst);
        let sleepers = self.sleepers.load(SeqCst);
        if sleepers == 0 || n == 0 {
            return;
        }
        #[cfg(not(loom))]
        sim::current(|sim, me| sim.notify(me, self.object(), n));
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        if n >= sleepers {
            self.wake.notify_all();
        } else {
            for _ in 0..n {
                self.wake.notify_one();
            }
        }
    }

    /// Wakes every sleeper, unconditionally (the end of a search).
    pub(crate) fn wake_always(&self) {
        #[cfg(not(loom))]
        sim::current(|sim, me| sim.notify(me, self.object(), usize::MAX));
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
}

/// Unparks `thread`: a simulated one by the simulation's event.
pub(crate) fn unpark(thread: &Thread) {
    if sim::current(|sim, me| sim.unpark(me, thread.id())) != Some(true) {
        thread.unpark();
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use std::time::Duration;

    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    use loom::thread;

    use super::IdleSleep;

    /// A sleeper waiting for a relaxed flag and a publisher setting it: in
    /// every interleaving the sleeper wakes (loom would report the deadlock
    /// of a lost wake-up, as the sleep has no timeout under loom).
    #[test]
    fn loom_no_lost_wake_up() {
        loom::model(|| {
            let sleep = Arc::new(IdleSleep::default());
            let work = Arc::new(AtomicBool::new(false));
            let sleeper = {
                let (sleep, work) = (sleep.clone(), work.clone());
                thread::spawn(move || {
                    while !work.load(Relaxed) {
                        sleep.sleep_unless(Duration::from_millis(1), || work.load(Relaxed));
                    }
                })
            };
            work.store(true, Relaxed);
            sleep.wake();
            sleeper.join().unwrap();
        });
    }

    /// Two sleepers, two pieces of work published one at a time, each with
    /// a wake of one sleeper: each sleeper takes one, so both finish (a
    /// wake-up lost to a sleeper already woken would leave one asleep for
    /// ever under loom). Three threads and two condition-variable waits make
    /// the full model take many minutes: explored up to three preemptions.
    #[test]
    fn loom_wake_some_reaches_enough_sleepers() {
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(3);
        model.check(|| {
            let sleep = Arc::new(IdleSleep::default());
            let work = Arc::new(AtomicUsize::new(0));
            let take = |work: &AtomicUsize| {
                work.fetch_update(Relaxed, Relaxed, |w| w.checked_sub(1))
                    .is_ok()
            };
            let sleepers: Vec<_> = (0..2)
                .map(|_| {
                    let (sleep, work) = (sleep.clone(), work.clone());
                    thread::spawn(move || {
                        while !take(&work) {
                            sleep.sleep_unless(Duration::from_millis(1), || work.load(Relaxed) > 0);
                        }
                    })
                })
                .collect();
            for _ in 0..2 {
                work.fetch_add(1, Relaxed);
                sleep.wake_some(1);
            }
            for s in sleepers {
                s.join().unwrap();
            }
        });
    }

    /// Two sleepers, one wake: both see the work.
    #[test]
    fn loom_wake_reaches_every_sleeper() {
        loom::model(|| {
            let sleep = Arc::new(IdleSleep::default());
            let work = Arc::new(AtomicBool::new(false));
            let sleepers: Vec<_> = (0..2)
                .map(|_| {
                    let (sleep, work) = (sleep.clone(), work.clone());
                    thread::spawn(move || {
                        while !work.load(Relaxed) {
                            sleep.sleep_unless(Duration::from_millis(1), || work.load(Relaxed));
                        }
                    })
                })
                .collect();
            work.store(true, Relaxed);
            sleep.wake();
            for s in sleepers {
                s.join().unwrap();
            }
        });
    }
}
