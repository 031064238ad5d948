//! Workloads: the publish/subscribe scheme of parallel alpha-beta.
//!
//! A thread at a node whose eldest brother is searched publishes a
//! *workload* (the node, its moves, the best score and move, alpha, beta and
//! a unique id) if the node has at least [`WORKLOADS_MIN_DEPTH`] plies and
//! [`WORKLOADS_MIN_MOVES_LEFT`] moves left and a slot of the table is free:
//! the table is global, [`WORKLOADS_SLOTS_PER_THREAD`] × threads slots, any
//! thread claiming any free one, and a node publishes whether or not a thread
//! is idle. Idle threads *subscribe* by scanning the table for the shallowest
//! open workload nobody is attached to (no queue, no request), and take its
//! moves one at a time; with `join_taken` (`workloads-shared`) an idle thread
//! joins a taken workload when no free one is open. A cutoff gives the
//! workload a new id, and everyone working under it drops out when its chain
//! of ids no longer matches. The table, the ids, the publisher's wait (with
//! help below its own workload) and the subscribers' loop are the
//! [`split_pool`](super::split_pool)'s, shared with YBW.

use crate::parallel::split_pool::{Attach, Scheme, Slots, SplitRules};
use crate::parallel::thresholds::{
    WORKLOADS_MIN_DEPTH, WORKLOADS_MIN_MOVES_LEFT, WORKLOADS_SLOTS_PER_THREAD,
};

/// The workload scheme; `join_taken` lets a thread join a taken workload.
pub(crate) fn scheme(join_taken: bool) -> Scheme {
    Scheme {
        rules: SplitRules {
            min_depth: WORKLOADS_MIN_DEPTH,
            min_moves_left: WORKLOADS_MIN_MOVES_LEFT,
            max_ply: usize::MAX,
            strong: false,
            only_when_idle: false,
        },
        slots: Slots::Shared(WORKLOADS_SLOTS_PER_THREAD),
        attach: if join_taken {
            Attach::OneThenJoin
        } else {
            Attach::One
        },
    }
}
