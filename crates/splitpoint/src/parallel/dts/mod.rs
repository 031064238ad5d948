//! Dynamic Tree Splitting (Hyatt's DTS, from Cray Blitz) on an iterative search.
//!
//! # The iterative search
//!
//! [`Searcher`] is [`Worker::pvs`] / `search_moves` / [`Worker::search_root`]
//! rewritten with an explicit stack: one [`Frame`] per ply in a per-thread
//! [`Stack`] (capacity [`MAX_PLY`](crate::game::MAX_PLY), reserved once per
//! search), each holding the node's position, window, depth, node types,
//! move list and ordering keys, next-move index, best score and move, table
//! key and a [`Stage`] (enter / next move / awaiting the child's result /
//! complete). It takes exactly the
//! recursive search's steps in the same order (stop poll, node count,
//! outcome, leaf solver, table probe and cutoff rule, `order_keys` +
//! `pick_best`, the PVS null window and re-search rule, `update_pv`,
//! `on_cutoff`, node types, table store); quiescence stays recursive. Single
//! threaded it visits the same nodes and returns the same score and move,
//! which [`testing::iterative_vs_recursive`] checks. The point of the explicit
//! stack is that a node's state is *data*: any thread can take it over. A
//! node that can never be split (remaining depth below
//! [`policy::min_split_depth`]) needs none of that, so a child that shallow
//! is searched by [`Worker::pvs`] at once (`Searcher::descend`): most nodes
//! lie next to the leaves, where a frame each costs more than it could
//! give. Outside exact mode a child below [`policy::EAGER_FRAME_DEPTH`]
//! gets a frame only while an idle thread is asking for work
//! ([`policy::place`]): those frames are the machine's busiest, and the
//! ones above them are candidates enough until someone asks.
//!
//! # Splitting
//!
//! There is no owner. Idle threads look for work; busy threads publish their
//! state; the idle thread chooses where to split; whoever finishes a split
//! point last carries on with the search above it.
//!
//! - **Asking.** An idle thread sets the `PUBLISH` bit of every other
//!   thread's `attention` word (the per-thread form of Hyatt's "help wanted"),
//!   skipping those already asked: the `asked` bit set, set before the bit
//!   and cleared after it (`SeqCst`), says which. Which split points are
//!   open and which threads are busy or offering are bit sets too
//!   ([`AtomicBits`](crate::parallel::atomic_bits::AtomicBits)): an idle
//!   thread reads a few words, not every slot.
//!   A busy thread looks at that word (one relaxed load) at every interior
//!   node it enters, and before every move it searches without a frame (a
//!   node whose children are all too shallow for frames enters none, and
//!   would never be offered otherwise). Inside
//!   a move whose child could be split but got no frame, as nobody was
//!   asking, the recursive search looks at it too, at every interior node,
//!   and serves from there (an
//!   [`Interrupt`](crate::search::hook::Interrupt), `ServeFromBelow`):
//!   the frames above do not change meanwhile. While
//!   the bit is set it writes, at most once every [`policy::PUBLISH_INTERVAL`]
//!   nodes and under its `published` lock, one
//!   [`Candidate`] per splittable frame of its stack: ply, frame serial
//!   number and a merit ([`policy::merit`]: remaining depth first, then
//!   expected ALL/PV nodes, then CUT nodes with several moves already
//!   searched; a close call, [`policy::close_call`], counts a ply less).
//!   Splittable ([`policy::splittable`]): remaining depth ≥
//!   [`policy::min_split_depth`],
//!   eldest brother searched, moves left, and, at the root of a
//!   null-window root search (an MTD(f) probe: which of its moves cuts is
//!   unknown and each is a subtree of the whole depth, so the helpers go
//!   below the root's move in flight), [`policy::PROBE_ROOT_SPLIT_AFTER`] moves
//!   taken (by then the probe likely fails low, and every root move is
//!   needed); or the frame is already a split point with
//!   moves left (the helper then just joins). The bit is cleared only once
//!   a non-empty list is out, and that publication wakes sleeping idle
//!   threads.
//! - **Choosing.** The idle thread first joins the open split point with
//!   the most depth left, if any (split points have no owner, so joining
//!   one needs nobody's answer: `join` checks under the lock that it is not
//!   closed, not cut off and has moves left). Otherwise it reads the
//!   candidate lists (one lock at a time), takes the best candidate, removes
//!   it from the list (so others choose another), puts a [`Request`]
//!   (helper, ply, serial) in that thread's `mailbox` (one request at a
//!   time), sets its `REQUEST` bit and wakes sleepers.
//! - **Answering.** At its next interior node the busy thread takes the
//!   request. If the frame at that ply still carries that serial (frames get a
//!   new serial each time they are entered, unique over threads and time) and
//!   is still splittable, it takes a free split point from the shared pool,
//!   moves the node (remaining moves and keys, alpha, best, PV) *and a copy of
//!   the frames between its enclosing split point and this node* into it,
//!   counts itself and the helper as workers, and makes its own frame a
//!   *proxy* for the split point. It answers with the split point's id, or
//!   with `REFUSED`. A thread that is idle answers every request `REFUSED`.
//!   The helper waits for its answer (spinning, then parked) and never
//!   gives a request up unless the whole search is over, so a helper
//!   counted in a split point always arrives there.
//! - **Working.** A thread's stack runs from `base` to `top`; `frames[base]`
//!   is either the root (thread 0, no split point) or the proxy for split
//!   point `base_sp`. At the proxy the thread takes the next move under the
//!   split point's lock (with the split point's current alpha), searches it
//!   with the PVS null window and re-search, and reports the result under the
//!   lock (best, alpha, best move, PV; a score ≥ beta sets `cutoff`).
//! - **Stepping away.** At a null-window split point that may still cut
//!   off (not an expected ALL node, whose moves all have to be searched),
//!   a move that stays in flight while others are reported there (two, or
//!   one a ply below the root; never at a probe's root:
//!   [`policy::heavy_after`]) is likely the one that fails high, and the
//!   moves after it would be wasted (a refuted move is cheap, the move that
//!   refutes the node is not). A thread about to take a move then leaves
//!   instead, while others are still counted, and the split point takes no
//!   newcomers until a taken move is back: the thread goes idle and helps
//!   below that move. Every decision of a thread at a split point (take a
//!   move, step away, leave) is [`policy::next_step`].
//! - **The probe's root cuts in order.** At the root of an MTD(f) probe,
//!   a move that reaches beta while moves before it are still out does not
//!   cut yet: no new move is taken, the threads help below those moves,
//!   and the cut is made once they are back ([`DtsSplitData::cut_pending`],
//!   [`policy::cut_waits`]), as the serial loop would have searched them.
//!   The probes that walk the score up end with one that fails low at the
//!   root, and that one needs every root move's bound. Deeper split points
//!   cut at once: waiting there too cost more than it saved.
//! - **Leaving.** With no move left (or a cutoff) the thread decrements
//!   `workers` under the lock. If others remain it goes idle. If it was the
//!   last, the split point is closed and, if its result is final (cut off, or
//!   every move searched and reported), the thread copies the ancestor frames
//!   and the node into its own stack (plies are absolute, so they land at the
//!   same indices), releases the split point and continues the search above it
//!   exactly as the recursive search would: table store, value to the parent
//!   frame, and so on. Reaching the proxy of an enclosing split point means
//!   reporting there. Completing the root frame posts the iteration's result
//!   to a shared slot, which thread 0 (helping meanwhile) picks up.
//! - **Cutoffs.** At every interior node a thread walks its chain of split
//!   points (`base_sp`, then `parent` links) looking at the `cutoff` flags.
//!   If one is set it abandons its private frames and leaves its split point
//!   without reporting (the split point is marked `aborted`, the nodes spent
//!   are counted as `aborted_nodes`). The last thread out of a split point
//!   whose result is not final (moves left, or a move abandoned) releases it
//!   and leaves the enclosing split point the same way; the last thread out of
//!   a cut-off split point continues upward with its (≥ beta) result.
//! - **Overtaken.** Outside exact mode, a thread whose move at its split
//!   point is in a full-window search that the others' moves have overtaken
//!   (the split point's `alpha` has reached what the move's null window
//!   proved) drops its private frames at the next node it enters and asks
//!   the move again in a null window at that alpha, as the serial loop
//!   would have (`Searcher::ask_again`).
//! - **The prover goes first.** Outside exact mode, at a split point with
//!   [`policy::PROVER_FIRST_DEPTH`] or more left, full-window searches keep the
//!   serial order. A move whose null window fails high while an earlier move
//!   is still out (in flight, or waiting itself) is deferred (`deferred`):
//!   if that earlier move fails high too, it raises alpha past what this
//!   one proved, and a full-window search started now would be dropped
//!   when it did (Overtaken, above). While a move is in its full-window
//!   search (the prover), no new move is taken (the thread leaves and helps
//!   below the prover, which stays counted). Deferred moves go again, in
//!   their order, once no earlier move is in flight, and are asked at the
//!   alpha the earlier ones set.
//! - **Stop.** On the global stop a thread drops its stack without touching
//!   any split point and goes idle; thread 0 ends the search with the last
//!   completed iteration and raises `done`; split points left half-done die
//!   with the search's [`Dts`].
//!
//! # Who changes what, orderings, why no deadlock
//!
//! Who writes which field under which lock, the memory orderings, the lock
//! order, why nothing deadlocks and how idle threads sleep and are woken are
//! written down in the DTS section of the parallel module's `README.md`.
//!
//! # Files
//!
//! `frame.rs` the frames and the explicit stack; `pool.rs` the split-point
//! pool, mailboxes and the request/answer protocol's shared state;
//! `policy.rs` the policy as pure functions and its tunables;
//! `searcher.rs` the searcher and its root search; `node.rs` the node
//! machine; `share.rs` working at a split point; `requests.rs` asking for
//! and answering requests, and the idle loop. The measurements behind the
//! policy are in `docs/lab/`, linked from each rule in `policy.rs`.

use arrayvec::ArrayVec;

use crate::driver::{DepthPlan, Helpers, Lead, SearchJob, SearchResult, deepen, lead_with, lock};
use crate::game::{Evaluator, Game, MoveBuffer};
use crate::parallel::idle::{self, Backoff};
use crate::parallel::shared_node::{Merged, NO_SPLIT_POINT, SharedResult};
use crate::score::{INFINITY, Score};
use crate::search::rules::{
    ChildWindow, MoveLoop, at_horizon, extension, internal_reduction, null_move, pick_best,
};
use crate::search::{SearchContext, Worker, leaf_pruning, skips_move};

mod frame;
mod node;
mod policy;
mod pool;
mod requests;
mod searcher;
mod share;
#[cfg(feature = "testing")]
pub mod testing;
#[cfg(test)]
mod tests;

// What `node.rs`, `share.rs` and `requests.rs` take with `use super::*`.
use frame::{Frame, Stack, Stage};
use policy::{
    AtSplit, InFlight, PUBLISH_INTERVAL, Place, Step, cut_waits, join_merit, next_step, overtaken,
    prover_first, waits_for_elder,
};
use pool::{Candidate, Dts, DtsSplitData, PENDING, PUBLISH, REFUSED, REQUEST, Request};
use searcher::{Exit, Flow, Searcher};

/// DTS on the threads of `job`: thread 0 deepens, the others start idle.
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    job: &SearchJob<G, E>,
    on_iteration: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
) -> SearchResult<G::Move> {
    let dts = Dts::new(job.workers.len(), job.root);
    let lead: Box<Lead<'_, G, E>> = Box::new(|worker, ctx, report| {
        let mut stack = Stack::new(ctx.thread);
        let searcher = &mut Searcher::new(worker, ctx, &mut stack, Some(&dts));
        deepen(searcher, job, DepthPlan::default(), report)
    });
    lead_with(job, &dts, on_iteration, lead)
}

/// The threads but the first start idle and go where the split points take
/// them.
impl<G: Game, E: Evaluator<G>> Helpers<G, E> for Dts<G> {
    fn help(&self, worker: &mut Worker<G>, ctx: &SearchContext<'_, G, E>) {
        let mut stack = Stack::new(ctx.thread);
        Searcher::new(worker, ctx, &mut stack, Some(self)).idle(self, false);
    }

    fn dismiss(&self) {
        self.finish();
    }
}
