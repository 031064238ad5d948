//! Young Brothers Wait: any node may split once its eldest brother is
//! searched (weak), and with `strong`, a node entered as CUT also searches
//! its promising moves first. The split points and the helpful master are
//! the [`splitter`](super::splitter)'s.

use crate::driver::{SearchJob, SearchResult};
use crate::game::{Evaluator, Game};
use crate::parallel::splitter::{self, SplitRules};
use crate::parallel::thresholds::YBW_MIN_DEPTH;

/// Runs YBW (strong or weak) on the threads of `job`.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    strong: bool,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let rules = SplitRules {
        min_depth: YBW_MIN_DEPTH,
        min_moves_left: 1,
        strong,
        max_ply: usize::MAX,
    };
    splitter::search(job, rules, on_iteration)
}
