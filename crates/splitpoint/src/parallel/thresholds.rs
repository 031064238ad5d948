//! Where each algorithm shares work: every split threshold in one table.
//!
//! A split costs bookkeeping (locks, a copied position, waking a helper) and
//! pays only when the subtree it shares is large enough; depth is the proxy
//! for subtree size everywhere. None of these values has been tuned per game:
//! the reasons below are the design argument for each, not a measurement
//! (tuning them per game is part of the efficiency work).
//!
//! | algorithm | threshold | value | why |
//! | --- | --- | --- | --- |
//! | ybw, ybw-strong | [`YBW_MIN_DEPTH`] | 4 | a split point is a locked shared record plus a helper's copy of the position: below 4 plies the subtree is searched faster than that |
//! | ybw, ybw-strong, root-split | [`YBW_SPLITS_PER_THREAD`] | 8 | nested splits stack up along one thread's path; a thread whose stack is full searches on serially, so a small value costs parallelism, never correctness |
//! | root-split | splits at ply 0 only | — | the algorithm's definition |
//! | dts | [`DTS_MIN_SPLIT_DEPTH`] | 2 | DTS splits by copying frames from an explicit stack that is already in memory, far cheaper than a YBW split point, so it pays closer to the leaves |
//! | dts | [`DTS_SPLITS_PER_THREAD`] | 16 | DTS split points are a shared pool any thread may end up owning (no owner waits), so they are kept in a larger common pool |
//! | workloads | [`WORKLOADS_MIN_DEPTH`] | 3 | a published workload costs one slot write and a scan by idle threads: cheaper than a split point |
//! | workloads | [`WORKLOADS_MIN_MOVES_LEFT`] | 2 | with one move left the publisher would take it itself |
//! | workloads | [`WORKLOADS_SLOTS_PER_THREAD`] | 2 | each thread publishes at most at the node it searches and the one it waits at |
//! | pv-split | [`PV_SPLIT_MIN_DEPTH`] | 4 | a piece of work crosses a message channel (later MPI): each costs a message both ways |
//! | abdada | [`ABDADA_MIN_DEFER_DEPTH`] | 3 | below it a child is searched faster than marking it as being searched pays |

/// Least remaining depth at which a YBW node splits.
pub(crate) const YBW_MIN_DEPTH: i32 = 4;
/// Split points each thread may own at once under YBW and root splitting.
pub(crate) const YBW_SPLITS_PER_THREAD: usize = 8;
/// Least remaining depth at which a DTS node may split.
pub(crate) const DTS_MIN_SPLIT_DEPTH: i32 = 2;
/// DTS split points in the shared pool, per thread.
pub(crate) const DTS_SPLITS_PER_THREAD: usize = 16;
/// Least remaining depth at which a node publishes a workload.
pub(crate) const WORKLOADS_MIN_DEPTH: i32 = 3;
/// Least number of moves left for a node to publish a workload.
pub(crate) const WORKLOADS_MIN_MOVES_LEFT: usize = 2;
/// Workload slots per search thread.
pub(crate) const WORKLOADS_SLOTS_PER_THREAD: usize = 2;
/// Least remaining depth at which a PV node sends its moves to slaves.
pub(crate) const PV_SPLIT_MIN_DEPTH: i32 = 4;
/// Least remaining depth at which ABDADA defers moves others are searching.
pub(crate) const ABDADA_MIN_DEFER_DEPTH: i32 = 3;
