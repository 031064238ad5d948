//! Young Brothers Wait: any node may split once its eldest brother is
//! searched (weak), and with `strong`, a node entered as CUT also searches
//! its promising moves first. A node splits only while a helper is idle,
//! into one of its thread's own split points, and any number of helpers may
//! attach; the machinery, the helpful master included, is the
//! [`split_pool`](super::split_pool)'s.

use crate::parallel::split_pool::{Attach, Scheme, Slots, SplitRules};
use crate::parallel::thresholds::{YBW_MIN_DEPTH, YBW_SPLITS_PER_THREAD};

/// YBW's scheme, strong or weak.
pub(crate) fn scheme(strong: bool) -> Scheme {
    Scheme {
        rules: SplitRules {
            min_depth: YBW_MIN_DEPTH,
            min_moves_left: 1,
            max_ply: usize::MAX,
            strong,
            only_when_idle: true,
        },
        slots: Slots::PerThread(YBW_SPLITS_PER_THREAD),
        attach: Attach::Any,
    }
}
