//! Lazy SMP: the shared table plus diversity. Every thread deepens, odd
//! helpers one ply ahead; the first to finish the last iteration stops the
//! rest. The result is the deepest completed iteration; between threads at
//! that depth, the best move most of them chose (then the lowest thread).

use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;

use crate::driver::{DepthPlan, Recursive, SearchJob, SearchResult, deepen, lock, on_every_thread};
use crate::game::{Evaluator, Game};

/// Runs Lazy SMP on the threads of `job`.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let main = Mutex::new(on_iteration);
    let results: Vec<Mutex<Option<SearchResult<G::Move>>>> =
        (0..job.workers.len()).map(|_| Mutex::new(None)).collect();
    on_every_thread(job, &|| {}, |thread| {
        let worker = &mut job.worker(thread);
        let ctx = job.context(thread);
        let search = &mut Recursive { worker, ctx: &ctx };
        let plan = DepthPlan {
            offset: (thread % 2) as i32,
        };
        let r = if thread == 0 {
            deepen(search, job, plan, &mut **lock(&main))
        } else {
            deepen(search, job, plan, &mut |_| {})
        };
        if r.depth == job.max_depth() {
            job.stop.store(true, Relaxed);
        }
        *lock(&results[thread]) = Some(r);
    });
    let results: Vec<SearchResult<G::Move>> = results
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let deepest = results.iter().map(|r| r.depth).max().unwrap_or(0);
    let at_depth: Vec<&SearchResult<G::Move>> =
        results.iter().filter(|r| r.depth == deepest).collect();
    let votes = |mv: &Option<G::Move>| at_depth.iter().filter(|r| &r.best_move == mv).count();
    // `max_by_key` keeps the last maximum: scan in reverse so the lowest thread wins ties.
    let chosen = at_depth
        .iter()
        .rev()
        .max_by_key(|r| votes(&r.best_move))
        .expect("thread 0 reports");
    (*chosen).clone()
}
