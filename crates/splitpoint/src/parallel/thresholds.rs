//! Where each algorithm shares work: every split threshold in one table.
//!
//! A split costs bookkeeping (locks, a copied position, waking a helper) and
//! pays only when the subtree it shares is large enough; depth is the proxy
//! for subtree size everywhere. Most values are the design argument below,
//! not a measurement; DTS's split depth was measured (2026-11-25).
//!
//! | algorithm | threshold | value | why |
//! | --- | --- | --- | --- |
//! | ybw, ybw-strong | [`YBW_MIN_DEPTH`] | 4 | a split point is a locked shared record plus a helper's copy of the position: below 4 plies the subtree is searched faster than that |
//! | ybw, ybw-strong, root-split | [`YBW_SPLITS_PER_THREAD`] | 8 | nested splits stack up along one thread's path; a thread whose stack is full searches on serially, so a small value costs parallelism, never correctness |
//! | root-split | splits at ply 0 only | — | the algorithm's definition |
//! | dts | [`dts_min_split_depth`] | 3 exact, 1 normal | DTS splits by copying frames from an explicit stack that is already in memory, far cheaper than a YBW split point, so it pays closer to the leaves; a shallower node gets no frame at all (the recursive search takes it, faster). Measured at two threads against 2 (2 interleaved runs of 3): Othello 1.91 -> 1.93, draughts 1.76 -> 1.87 with 3; chess 1.68 -> 1.62 with 3, where null moves and reductions make a normal-mode subtree of a given depth far smaller. Outside exact mode a child below [`DTS_EAGER_FRAME_DEPTH`] gets a frame only while an idle thread asks for work (`Searcher::place`; it is searched recursively, answering requests from inside): single-threaded DTS in chess 0.975 -> 0.998 x serial, idle at two threads 1.9% -> 2.9%, and 2.4% once answered from inside. Frames on demand down to depth 1 (2 before): in chess a node a ply or two from the horizon can hold a quiescence search of tens of thousands of nodes (92% of the suite's nodes are quiescence nodes): a trace showed a helper idle for 2 ms beside a move two plies from the horizon. Interleaved rounds of `bench --algos dts --threads 1,2 --runs 3` (2026-11-28): chess idle 2.38% -> 2.12% of thread time (medians, 6 rounds; lower or equal in each), 2.51% -> 2.10% (2 more rounds), xiangqi 1.39% -> 1.17% (2 rounds); speedups and single-threaded speed unchanged within the noise |
//! | dts | [`DTS_EAGER_FRAME_DEPTH`] | 3 | outside exact mode, the least depth at which a child always gets a frame: nearer the leaves frames are the most numerous, and cost single-threaded DTS 1.8% of serial's cycles in chess when every depth-2 child had one |
//! | dts | `dts::heavy_after` | never at the root (an MTD(f) probe's), 1 a ply below it, 2 deeper | at a null-window split point that may still cut, a move in flight while this many others were reported is taken for the cutting one: threads stop taking moves beside it and help below it. The nearer the root, the larger the subtree a wasted move costs; deeper, stepping away after one report left the helper idle far more for fewer nodes saved. FFO #40-#44 at two threads, with the probe's root then never split (next row): 381M -> 368M nodes (serial 348M), idle 0.3% -> 0.6% of thread time; once a cut at the probe's root waited for the moves before it, not stepping away at the root itself: 333.7M -> 331.4M (serial 316.0M) |
//! | dts | `dts::PROBE_ROOT_SPLIT_AFTER`: root moves a null-window root (an MTD(f) probe) takes before it may be split | 3 | nothing says which root move will cut and each is a subtree of the whole depth: the helpers go below the root's move in flight (`Frame::splittable`); once three failed low the probe likely fails low, and its root is an ALL node. FFO #40-#44 at two threads: never split 369.3M nodes, after 3 moves 367.6M (16 runs each), idle 0.62% -> 0.44% of thread time |
//! | dts | `dts::CLOSE_FAIL_LOW`, `dts::CLOSE_CALL_MOVES`: a null-window node whose best so far failed low by at most this, before it has taken this many moves, is offered a ply lower in the helpers' choice | 1 point, 3 moves | such a node cuts on a later move far more often (serial FFO #40-#44: 23% of those above the leaf solver, against 13% or less when the eldest failed low by more). FFO #40-#44 at two threads: 365.3M -> 363.7M nodes (10 interleaved runs each), 366.1M -> 364.2M (20 more), and 365.9M -> 363.6M with the rule behind a temporary switch in one build (28); two plies lower gained nothing, a margin of 3, or 2 or any number of moves, less; chess (1.051 -> 1.049 x serial, 5 runs), xiangqi, draughts and othello-mid unchanged in nodes within their noise |
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
/// Least remaining depth at which a DTS node may split (and so gets a frame
/// of the explicit stack): exact search's subtrees of a given depth are far
/// larger than normal mode's.
#[inline]
pub(crate) fn dts_min_split_depth(exact: bool) -> i32 {
    if exact { 3 } else { 1 }
}
/// Outside exact mode, the least remaining depth at which a DTS child gets
/// a frame whether or not anyone is asking for work; between
/// [`dts_min_split_depth`] and this, only while an idle thread asks.
pub(crate) const DTS_EAGER_FRAME_DEPTH: i32 = 3;
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
