//! Young Brothers Wait: any node may split once its eldest brother is
//! searched (weak), and with `strong`, a node entered as CUT also searches
//! its promising moves first. The split points and the helpful master are
//! the [`splitter`](super::splitter)'s; this is where YBW's rules are.

use crate::parallel::splitter::SplitRules;
use crate::parallel::thresholds::YBW_MIN_DEPTH;

/// YBW's split rules, strong or weak.
pub(crate) fn rules(strong: bool) -> SplitRules {
    SplitRules {
        min_depth: YBW_MIN_DEPTH,
        min_moves_left: 1,
        strong,
        max_ply: usize::MAX,
    }
}
