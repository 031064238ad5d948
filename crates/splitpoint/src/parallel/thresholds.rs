//! Where each algorithm shares work: an index of every split threshold and
//! tunable of the sharing policies, each defined once, beside the rule that
//! uses it (or here, for the algorithms whose files take them from here).
//!
//! A split costs bookkeeping (locks, a copied position, waking a helper) and
//! pays only when the subtree it shares is large enough; depth is the proxy
//! for subtree size everywhere. The measurements behind the values are lab
//! records in `docs/lab/`, linked from each constant's doc.
//!
//! | constant | value | where | what |
//! | --- | --- | --- | --- |
//! | [`YBW_MIN_DEPTH`] | 4 | here | least remaining depth at which a YBW node splits |
//! | [`YBW_SPLITS_PER_THREAD`] | 8 | here | split points each thread may own at once (ybw, root-split) |
//! | `min_split_depth` | 3 exact, 1 normal | `dts::policy` | least remaining depth at which a DTS node may split, and so gets a frame |
//! | `EAGER_FRAME_DEPTH` | 3 | `dts::policy` | outside exact mode, least depth at which a DTS child gets a frame unasked |
//! | `PROBE_ROOT_SPLIT_AFTER` | 3 | `dts::policy` | root moves an MTD(f) probe takes before its root may be split |
//! | `PLY_MERIT`, `JOIN_BONUS` | 16, 4 | `dts::policy` | a ply of depth in a candidate's merit; the bonus for joining a split point |
//! | `CLOSE_FAIL_LOW`, `CLOSE_CALL_MOVES` | 1, 3 | `dts::policy` | a null-window node this close below alpha, before this many moves, is offered a ply lower |
//! | `PUBLISH_INTERVAL` | 32 | `dts::policy` | least nodes between two publications of a thread's candidates |
//! | `heavy_after` | never at ply 0, 1 at ply 1, 2 deeper | `dts::policy` | reports beside a move in flight after which a thread steps away from it |
//! | `PROVER_FIRST_DEPTH` | 6 | `dts::policy` | least remaining depth at which a full-window search goes first |
//! | `SPLITS_PER_THREAD` | 16 | `dts::pool` | DTS split points in the shared pool, per thread |
//! | `DTS_IDLE`, `DTS_ANSWER` | 1024 spins, 1 ms nap | `idle` | how an idle DTS thread, and one waiting for an answer, spins and sleeps |
//! | [`WORKLOADS_MIN_DEPTH`] | 3 | here | least remaining depth at which a node publishes a workload |
//! | [`WORKLOADS_MIN_MOVES_LEFT`] | 2 | here | least moves left for a node to publish a workload |
//! | [`WORKLOADS_SLOTS_PER_THREAD`] | 2 | here | workload slots per thread |
//! | [`PV_SPLIT_MIN_DEPTH`] | 4 | here | least remaining depth at which a PV node sends its moves to slaves |
//! | [`ABDADA_MIN_DEFER_DEPTH`] | 3 | here | least remaining depth at which ABDADA defers moves others are searching |
//! | root-split | ply 0 only | `root_split` | the algorithm's definition |

/// Least remaining depth at which a YBW node splits: a split point is a
/// locked shared record plus a helper's copy of the position, and below 4
/// plies the subtree is searched faster than that.
pub(crate) const YBW_MIN_DEPTH: i32 = 4;
/// Split points each thread may own at once under YBW and root splitting:
/// nested splits stack up along one thread's path, and a thread whose stack
/// is full searches on serially, so a small value costs parallelism, never
/// correctness.
pub(crate) const YBW_SPLITS_PER_THREAD: usize = 8;
/// Least remaining depth at which a node publishes a workload: a workload
/// costs one slot write and a scan by idle threads, cheaper than a split
/// point.
pub(crate) const WORKLOADS_MIN_DEPTH: i32 = 3;
/// Least number of moves left for a node to publish a workload: with one
/// move left the publisher would take it itself.
pub(crate) const WORKLOADS_MIN_MOVES_LEFT: usize = 2;
/// Workload slots per search thread: each thread publishes at most at the
/// node it searches and the one it waits at.
pub(crate) const WORKLOADS_SLOTS_PER_THREAD: usize = 2;
/// Least remaining depth at which a PV node sends its moves to slaves: each
/// piece of work crosses a message channel both ways.
pub(crate) const PV_SPLIT_MIN_DEPTH: i32 = 4;
/// Least remaining depth at which ABDADA defers moves others are searching:
/// below it a child is searched faster than marking it pays.
pub(crate) const ABDADA_MIN_DEFER_DEPTH: i32 = 3;
