//! How idle threads sleep without losing a wake-up.
//!
//! An idle thread announces itself in `sleepers`, then re-checks for work
//! *under the lock*; a publisher makes its work visible first and then, if
//! `sleepers > 0`, notifies under the same lock. Either the sleeper's re-check
//! sees the work, or the publisher sees the sleeper (the Dekker pattern: a
//! `SeqCst` fence on both sides, between the write and the read, so the
//! work's own atomics may be relaxed), so no wake-up is lost. The timeout is
//! a safety net only. Publishers pay a lock and a notify only when someone
//! sleeps.
//!
//! YBW and DTS have one `IdleSleep` for helpers waiting for work; workloads
//! has a second for publishers waiting for their last subscriber to leave.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst, fence};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

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
            let _ = self.wake.wait_timeout(guard, timeout);
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }

    /// Wakes every sleeper, if there is one: call after making work visible.
    pub(crate) fn wake(&self) {
        fence(SeqCst);
        if self.sleepers.load(SeqCst) > 0 {
            self.wake_always();
        }
    }

    /// Wakes every sleeper, unconditionally (the end of a search).
    pub(crate) fn wake_always(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
}
