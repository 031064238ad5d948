//! Shared transposition table: every thread searches the whole tree; they
//! meet only in the table. Thread 0 alone decides.

use std::sync::atomic::Ordering::Relaxed;

use crate::driver::{DepthPlan, Recursive, SearchJob, SearchResult, deepen, lead_and_help};
use crate::game::{Evaluator, Game};
use crate::search::hook::NodeHook;

/// Runs shared-table search on the threads of `job`.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    whole_tree(job, None, on_iteration)
}

/// Every thread deepens over the whole tree; thread 0 reports, and when it
/// is done raises the stop flag to end the others' deepening. They help only
/// through the table and, with a hook, through what it shares (ABDADA's
/// table of positions being searched). Every thread watches the search's own
/// flag, so a user's stop reaches all at once (not through thread 0, which
/// may be off its core).
pub(crate) fn whole_tree<'h, G: Game, E: Evaluator<G>>(
    job: &SearchJob<'h, G, E>,
    hook: Option<&'h dyn NodeHook<G, E>>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    lead_and_help(
        job,
        hook,
        &|| job.stop.store(true, Relaxed),
        on_iteration,
        |worker, ctx| {
            deepen(
                &mut Recursive { worker, ctx },
                job,
                DepthPlan::default(),
                &mut |_| {},
            );
        },
    )
}
