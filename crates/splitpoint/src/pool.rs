//! A persistent pool of search threads.
//!
//! [`WorkerPool::broadcast`] runs one closure on every pool thread and on the
//! caller (as thread 0) and returns when all are done. Between broadcasts the
//! pool threads sleep on a condition variable: no core is burned while no
//! search runs, and no thread is spawned per search.
//!
//! The closure borrows the caller's stack (the transposition table, the
//! evaluator, the split points), as `std::thread::scope` would allow; the
//! borrow is sound because `broadcast` does not return, not even by unwinding,
//! before every thread has finished running it.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// The job being broadcast, its lifetime erased (see the module doc).
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync`, and `broadcast` keeps it alive until every
// thread that received the pointer has finished with it.
unsafe impl Send for Job {}

#[derive(Default)]
struct State {
    job: Option<Job>,
    /// Bumped per broadcast, so a thread runs each job once.
    generation: u64,
    /// Pool threads still running the current job.
    running: usize,
    /// Set when a pool thread's run of the job panicked.
    panicked: bool,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    job_posted: Condvar,
    job_finished: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic never happens while the lock is held, so poisoning is moot.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Threads that stay alive across searches.
pub struct WorkerPool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// A pool running broadcasts on `threads` threads in all: the caller and
    /// `threads - 1` pool threads.
    pub fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let handles = (1..threads.max(1))
            .map(|index| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("splitpoint-{index}"))
                    .spawn(move || pool_thread(&shared, index))
                    .expect("the operating system refused to start a search thread")
            })
            .collect();
        WorkerPool { shared, handles }
    }

    /// The number of threads a broadcast runs on, the caller included.
    pub fn threads(&self) -> usize {
        self.handles.len() + 1
    }

    /// Runs `job(i)` for every thread index `i` in `0..threads()`, index 0 on
    /// the calling thread, and returns when every run has returned.
    ///
    /// # Panics
    /// Re-raises a panic of any run, after all runs have finished.
    pub fn broadcast<F: Fn(usize) + Sync>(&self, job: F) {
        let job_ref: &(dyn Fn(usize) + Sync) = &job;
        // SAFETY: only the lifetime is changed. The pointer is dropped by every
        // pool thread before it decrements `running`, and we wait for
        // `running == 0` below before `job` goes out of scope, on every path:
        // the caller's own run is wrapped in `catch_unwind`.
        let erased: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(job_ref) };
        {
            let mut state = self.shared.lock();
            state.job = Some(Job(erased));
            state.generation += 1;
            state.running = self.handles.len();
            state.panicked = false;
        }
        self.shared.job_posted.notify_all();
        let mine = catch_unwind(AssertUnwindSafe(|| job(0)));
        let mut state = self.shared.lock();
        while state.running > 0 {
            state = self
                .shared
                .job_finished
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
        state.job = None;
        let theirs_panicked = state.panicked;
        drop(state);
        if let Err(payload) = mine {
            resume_unwind(payload);
        }
        assert!(!theirs_panicked, "a search thread panicked");
    }
}

fn pool_thread(shared: &Shared, index: usize) {
    let mut seen = 0;
    loop {
        let job = {
            let mut state = shared.lock();
            while !state.shutdown && state.generation == seen {
                state = shared
                    .job_posted
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
            if state.shutdown {
                return;
            }
            seen = state.generation;
            state.job.expect("a posted generation has a job")
        };
        // SAFETY: `broadcast` keeps the job alive until we decrement `running`.
        let ok = catch_unwind(AssertUnwindSafe(|| unsafe { (*job.0)(index) })).is_ok();
        let mut state = shared.lock();
        state.panicked |= !ok;
        state.running -= 1;
        if state.running == 0 {
            shared.job_finished.notify_all();
        }
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.job_posted.notify_all();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_thread_runs_each_broadcast_once() {
        let pool = WorkerPool::new(4);
        for _ in 0..200 {
            let hits: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
            pool.broadcast(|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn a_panicking_thread_is_reported_and_the_pool_survives() {
        let pool = WorkerPool::new(3);
        let r = catch_unwind(AssertUnwindSafe(|| pool.broadcast(|i| assert_ne!(i, 2))));
        assert!(r.is_err());
        let count = AtomicUsize::new(0);
        pool.broadcast(|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 3);
    }
}
