//! Shared transposition table: every thread searches the whole tree; they
//! meet only in the table. Thread 0 alone decides.

use std::sync::atomic::Ordering::Relaxed;

use crate::driver::{DepthPlan, Helpers, Recursive, SearchJob, deepen};
use crate::game::{Evaluator, Game};
use crate::search::hook::NodeHook;
use crate::search::{SearchContext, Worker};

/// Every thread deepens over the whole tree; thread 0 reports, and when it
/// is done raises the stop flag to end the others' deepening. They help only
/// through the table and, with a hook, through what it shares (ABDADA's
/// table of positions being searched). Every thread watches the search's own
/// flag, so a user's stop reaches all at once (not through thread 0, which
/// may be off its core).
pub(crate) struct WholeTree<'a, 'h, G: Game, E: Evaluator<G>> {
    job: &'a SearchJob<'h, G, E>,
    hook: Option<&'a dyn NodeHook<G, E>>,
}

impl<'a, 'h, G: Game, E: Evaluator<G>> WholeTree<'a, 'h, G, E> {
    /// The shared table alone (`hook` `None`), or with ABDADA's hook.
    pub(crate) fn new(job: &'a SearchJob<'h, G, E>, hook: Option<&'a dyn NodeHook<G, E>>) -> Self {
        WholeTree { job, hook }
    }
}

impl<G: Game, E: Evaluator<G>> Helpers<G, E> for WholeTree<'_, '_, G, E> {
    fn hook(&self) -> Option<&dyn NodeHook<G, E>> {
        self.hook
    }

    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let search = &mut Recursive { worker, ctx };
        deepen(search, self.job, DepthPlan::default(), &mut |_| {});
    }

    fn dismiss(&self) {
        self.job.stop.store(true, Relaxed);
    }
}
