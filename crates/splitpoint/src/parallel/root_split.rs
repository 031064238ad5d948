//! Root splitting: the root's moves are shared out once the first is
//! searched, with the root's alpha shared; YBW's machinery, splitting at the
//! root only.

use crate::parallel::splitter::SplitRules;

/// Root splitting's rules: split the root, from its second move on, at any
/// depth.
pub(crate) const RULES: SplitRules = SplitRules {
    min_depth: 1,
    min_moves_left: 1,
    strong: false,
    max_ply: 0,
};
