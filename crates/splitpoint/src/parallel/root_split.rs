//! Root splitting: the root's moves are shared out once the first is
//! searched, with the root's alpha shared; YBW's scheme, splitting at the
//! root only.

use crate::parallel::split_pool::{Scheme, SplitRules};

/// Root splitting's scheme: split the root, from its second move on, at any
/// depth.
pub(crate) fn scheme() -> Scheme {
    let ybw = super::ybw::scheme(false);
    Scheme {
        rules: SplitRules {
            min_depth: 1,
            max_ply: 0,
            ..ybw.rules
        },
        ..ybw
    }
}
