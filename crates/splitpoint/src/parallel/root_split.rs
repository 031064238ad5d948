//! Root splitting: the root's moves are shared out once the first is
//! searched, with the root's alpha shared; YBW's machinery, splitting at the
//! root only.

use crate::driver::{SearchJob, SearchResult};
use crate::game::{Evaluator, Game};
use crate::parallel::splitter::{self, SplitRules};

/// Runs root splitting on the threads of `job`.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let rules = SplitRules {
        min_depth: 1,
        min_moves_left: 1,
        strong: false,
        max_ply: 0,
    };
    splitter::search(job, rules, on_iteration)
}
