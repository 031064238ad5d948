//! The watchdog: a case in flight that outlives its limit by the grace
//! period is a hang; it prints the case and the seed, dumps every thread of
//! the process and exits with status 3.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Watches the case in flight; a hang ends the process.
pub(super) struct Watchdog {
    watch: Mutex<Option<Watch>>,
    seed: u64,
    pub(super) grace: Duration,
}

struct Watch {
    case: String,
    deadline: Instant,
    child: Option<u32>,
}

impl Watchdog {
    pub(super) fn start(seed: u64, grace: Duration) -> Arc<Watchdog> {
        let dog = Arc::new(Watchdog {
            watch: Mutex::new(None),
            seed,
            grace,
        });
        let watcher = Arc::clone(&dog);
        std::thread::Builder::new()
            .name("stress-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_millis(20));
                    let overdue = {
                        let w = watcher.lock();
                        w.as_ref()
                            .filter(|w| Instant::now() > w.deadline + watcher.grace)
                            .map(|w| (w.case.clone(), w.child))
                    };
                    if let Some((case, child)) = overdue {
                        watcher.hang(&case, child);
                    }
                }
            })
            .expect("spawn the watchdog");
        dog
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Watch>> {
        self.watch.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Watches `case`, which should end within `limit`.
    pub(super) fn arm(&self, case: &str, limit: Duration, child: Option<u32>) {
        *self.lock() = Some(Watch {
            case: case.to_string(),
            deadline: Instant::now() + limit,
            child,
        });
    }

    pub(super) fn disarm(&self) {
        *self.lock() = None;
    }

    /// Reports a hang: the case, the seed, every thread's state; exits 3.
    pub(super) fn hang(&self, case: &str, child: Option<u32>) -> ! {
        eprintln!(
            "stress: HUNG: {case}\nstress: still running {} ms past its limit (seed {}); threads:",
            self.grace.as_millis(),
            self.seed
        );
        dump_threads(std::process::id());
        if let Some(pid) = child {
            eprintln!("stress: the engine process {pid}:");
            dump_threads(pid);
        }
        std::process::exit(3);
    }
}

/// Prints each thread of process `pid`: name, kernel state and wait channel,
/// then every stack through gdb, if it is installed.
fn dump_threads(pid: u32) {
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let dir = task.path();
            let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
            let stat = read("stat");
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("?");
            eprintln!(
                "  {:>8} {:<18} state {state}  waits in {}",
                task.file_name().to_string_lossy(),
                read("comm").trim(),
                read("wchan").trim()
            );
        }
    }
    match Command::new("gdb")
        .args([
            "-p",
            &pid.to_string(),
            "-batch",
            "-nx",
            "-ex",
            "thread apply all bt 40",
        ])
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            for line in text
                .lines()
                .filter(|l| l.starts_with('#') || l.starts_with("Thread"))
            {
                eprintln!("  {line}");
            }
        }
        Err(e) => eprintln!("  (no stacks: gdb could not run: {e})"),
    }
}
