//! DTS's policy, as pure functions over plain values: which frames get a
//! frame and are offered, at what merit, where an idle thread takes work,
//! and when a thread at a split point takes a move, steps away or leaves.
//! Each tunable sits beside the rule that uses it; the concurrent code reads
//! the state (under the split point's lock where it matters) and asks these.
//! The measurements behind the values are in `docs/lab/` (linked per rule).

use crate::node::NodeType;
use crate::score::Score;

/// Least remaining depth at which a DTS node may split, and so gets a frame
/// of the explicit stack: 3 in exact mode, 1 otherwise. Splitting copies
/// frames already in memory, far cheaper than a YBW split point, so it pays
/// close to the leaves; exact search's subtrees of a given depth are far
/// larger than normal mode's, where null moves and reductions shrink them.
/// See `docs/lab/2026-11-25-dts-min-split-depth.md`,
/// `docs/lab/2026-11-28-dts-own-cost.md` and
/// `docs/lab/2026-11-28-frames-one-ply-on-request.md`.
#[inline]
pub(super) fn min_split_depth(exact: bool) -> i32 {
    if exact { 3 } else { 1 }
}

/// Outside exact mode, the least remaining depth at which a child always
/// gets a frame; between [`min_split_depth`] and this, only while an idle
/// thread asks for work ([`place`]). Near the leaves frames are the most
/// numerous and cost the most. See
/// `docs/lab/2026-11-28-frames-two-plies-on-request.md` and
/// `docs/lab/2026-11-28-frames-one-ply-on-request.md`.
pub(super) const EAGER_FRAME_DEPTH: i32 = 3;

/// Where a child is searched ([`place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// On the stack, in a frame of its own.
    Frame,
    /// By the recursive search, serving requests for work from inside: a
    /// child that may be split, given no frame as nobody was asking.
    Serving,
    /// By the recursive search alone: a child too shallow to split, or a
    /// splittable one nobody asked for whose children are quiescence
    /// searches.
    Recursive,
}

/// Where a child `depth` plies from the horizon is searched. Only a node
/// that may be split (`splits_pay`, asked last) gets a frame, and, outside
/// exact mode, one below [`EAGER_FRAME_DEPTH`] only while an idle thread is
/// asking this one for work (`asked`); otherwise the recursive search takes
/// it, serving requests from inside. A node a ply from the horizon may
/// still hold a long quiescence search, so one that is asked gets a frame
/// down to depth 1; unasked, its children serve nobody. In exact mode every
/// splittable child gets a frame, and so it does in the plain iterative
/// search (`iterative_only`), so that the machine is tested at every depth.
#[inline]
pub(super) fn place(
    depth: i32,
    exact: bool,
    asked: bool,
    iterative_only: bool,
    splits_pay: impl FnOnce() -> bool,
) -> Place {
    if depth < min_split_depth(exact) || !splits_pay() {
        Place::Recursive
    } else if depth >= EAGER_FRAME_DEPTH || exact || asked || iterative_only {
        Place::Frame
    } else if depth > 1 {
        Place::Serving
    } else {
        Place::Recursive
    }
}

/// Root moves a null-window root search (an MTD(f) probe) takes before its
/// root may be split ([`splittable`]): the root is ordered by each move's
/// best reply, so a move that fails high is most often among the first.
/// See `docs/lab/2026-11-27-probe-root-not-split.md` and
/// `docs/lab/2026-11-27-probe-root-split-after-three.md`.
pub(super) const PROBE_ROOT_SPLIT_AFTER: usize = 3;

/// Whether an idle thread may split a node (not a split point yet) whose
/// remaining depth is `depth`, whose move in flight is the `index`-th, that
/// has taken `taken` of its `moves`: deep enough for frames, its eldest
/// brother searched, moves left, and, at the root of an MTD(f) probe
/// (`probe_root`), [`PROBE_ROOT_SPLIT_AFTER`] moves taken. Each of a probe's
/// root moves is a subtree of the whole depth and nothing says which one
/// will cut, so the helpers go below the root's move in flight instead,
/// where a cutting move's child is an ALL node; once that many root moves
/// failed low, the probe likely fails low too, and every root move is
/// needed.
#[inline]
pub(super) fn splittable(
    depth: i32,
    exact: bool,
    index: usize,
    taken: usize,
    moves: usize,
    probe_root: bool,
) -> bool {
    depth >= min_split_depth(exact)
        && index >= 1
        && taken < moves
        && !(probe_root && taken < PROBE_ROOT_SPLIT_AFTER)
}

/// A ply of remaining depth in a [`merit`].
pub(super) const PLY_MERIT: i64 = 16;

/// Merit bonus for joining an existing split point (nothing to copy).
pub(super) const JOIN_BONUS: i64 = 4;

/// How much an idle thread wants to help at a frame: remaining depth first
/// (shallow plies carry big subtrees), then expected ALL and PV nodes, then
/// CUT nodes that have already searched several moves without a cutoff.
pub(super) fn merit(depth: i32, entry_type: NodeType, searched: usize) -> i64 {
    let kind = match entry_type {
        NodeType::All => 6,
        NodeType::Pv => 5,
        NodeType::Cut => 2 * searched.min(3) as i64,
    };
    depth as i64 * PLY_MERIT + kind
}

/// The merit of a node to split: its [`merit`], a ply less for a close
/// call ([`close_call`]).
pub(super) fn split_merit(
    depth: i32,
    entry_type: NodeType,
    searched: usize,
    close_call: bool,
) -> i64 {
    let close_call = if close_call { PLY_MERIT } else { 0 };
    merit(depth, entry_type, searched) - close_call
}

/// The merit of joining a split point whose node has `depth` left and was
/// entered as `entry_type`: that of a node which searched several moves,
/// plus [`JOIN_BONUS`].
pub(super) fn join_merit(depth: i32, entry_type: NodeType) -> i64 {
    merit(depth, entry_type, 3) + JOIN_BONUS
}

/// Whether an offer worth `value` outranks the best found so far: strictly
/// more, so that ties go to the first found. An idle thread joins the open
/// split point with the most depth left before it asks anyone, and else
/// asks for the published candidate of the highest merit.
#[inline]
pub(super) fn outranks<T: PartialOrd>(value: T, best: Option<T>) -> bool {
    best.is_none_or(|b| value > b)
}

/// A null-window node whose moves so far failed low by at most this much
/// (their fail-soft best is within it of alpha) is a close call
/// ([`close_call`]).
pub(super) const CLOSE_FAIL_LOW: Score = 1;

/// Moves a close call has taken after which it is offered at its plain
/// merit again.
pub(super) const CLOSE_CALL_MOVES: usize = 3;

/// Whether a node (not a root) entered with a null window (`null_window`)
/// is a close call: fewer than [`CLOSE_CALL_MOVES`] moves taken, and the
/// best of those back (`best`) failed low by at most [`CLOSE_FAIL_LOW`]
/// below `alpha`. Such a node cuts on a later move far more often than one
/// whose eldest failed low by more, so an idle thread helps there as if it
/// were a ply deeper. See `docs/lab/2026-11-27-dts-close-call.md`.
pub(super) fn close_call(null_window: bool, best: Score, alpha: Score, taken: usize) -> bool {
    null_window && best >= alpha - CLOSE_FAIL_LOW && taken < CLOSE_CALL_MOVES
}

/// Least nodes between two publications of one thread's candidates, so that
/// many idle threads cannot make a busy one publish at every node.
pub(super) const PUBLISH_INTERVAL: u64 = 32;

/// Moves reported at a null-window split point `ply` plies from the root
/// while one move stays in flight, after which that move is taken for the
/// one that will cut ([`next_step`]): a thread then helps below it instead
/// of taking further moves. Right below the root a wasted move is a subtree
/// of nearly the whole depth, so one report is enough there; deeper, one
/// made the helper idle far more often for fewer nodes saved, so two. At
/// the root itself (a null-window root is an MTD(f) probe's) no root move
/// is wasted: one before the cutting move is searched anyway (the cut waits
/// for it, [`cut_waits`]), and the bound of one after it is what the last
/// probe of a walk up needs. See `docs/lab/2026-11-25-solver-stepping-away.md`,
/// `docs/lab/2026-11-27-probe-root-not-split.md` and
/// `docs/lab/2026-11-27-probe-root-cuts-in-order.md`.
pub(super) fn heavy_after(ply: usize) -> u32 {
    match ply {
        0 => u32::MAX,
        1 => 1,
        _ => 2,
    }
}

/// The least remaining depth at which the prover goes first
/// ([`prover_first`]): a middle of the depths tried, not a measured
/// optimum. See `docs/lab/2026-11-26-prover-goes-first.md`.
pub(super) const PROVER_FIRST_DEPTH: i32 = 6;

/// Whether, at a split point of remaining depth `depth`, a move in its
/// full-window search (the prover) goes first, as in the serial loop: a
/// young brother whose null window fails high meanwhile waits for it and
/// is then asked again at the alpha it set, and no new move is taken
/// until it is back (the threads help below it instead). Outside exact
/// mode only, and from [`PROVER_FIRST_DEPTH`].
#[inline]
pub(super) fn prover_first(exact: bool, depth: i32) -> bool {
    !exact && depth >= PROVER_FIRST_DEPTH
}

/// Whether a move's full-window search under way has been overtaken: other
/// threads have raised the split point's alpha to what its null window
/// proved (`proved`: `MoveSearch::proved`), so it can no longer raise alpha
/// that far, and the serial loop would ask it again in a null window at
/// that alpha (`MoveSearch::ask_again`). Acted on outside exact mode only
/// (`Searcher::enter`). See `docs/lab/2026-11-26-overtaken-full-window.md`.
#[inline]
pub(super) fn overtaken(proved: Option<Score>, alpha: Score) -> bool {
    proved.is_some_and(|proved| proved <= alpha)
}

/// A move taken at a split point and not reported yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct InFlight<M> {
    pub(super) mv: M,
    /// Its place in the node's move order.
    pub(super) index: usize,
    /// Moves reported at the split point when it was taken.
    pub(super) taken_at: u32,
}

/// Whether a move earlier than the `index`-th is in its full-window search
/// (the `prover`, with its index: `SharedResult::prover`) and among the
/// moves `in_flight` (the serial loop would finish it first).
pub(super) fn waits_for_prover<M: Copy + PartialEq>(
    prover: Option<(M, usize)>,
    in_flight: &[InFlight<M>],
    index: usize,
) -> bool {
    prover.is_some_and(|(mv, at)| at < index && in_flight.iter().any(|m| m.mv == mv))
}

/// Whether the `index`-th move, its null window failed high, waits before
/// its full-window search: a move before it is still out (in flight, or
/// itself `deferred`), and the serial loop would have finished that one
/// first. If it fails high too it raises alpha past what this move's null
/// window proved, and a full-window search started now would be dropped
/// (`Searcher::ask_again`). See `docs/lab/2026-11-27-fail-high-waits-for-earlier.md`.
pub(super) fn waits_for_elder<M>(
    in_flight: &[InFlight<M>],
    deferred: &[(M, usize)],
    index: usize,
) -> bool {
    in_flight.iter().any(|m| m.index < index) || deferred.iter().any(|&(_, i)| i < index)
}

/// Where in `deferred` the earliest deferred move is, once it waits no more
/// ([`waits_for_elder`]).
pub(super) fn ready_deferred<M>(
    in_flight: &[InFlight<M>],
    deferred: &[(M, usize)],
) -> Option<usize> {
    let k = (0..deferred.len()).min_by_key(|&k| deferred[k].1)?;
    (!waits_for_elder(in_flight, deferred, deferred[k].1)).then_some(k)
}

/// Whether, at the root of an MTD(f) probe (`probe_root`), a cut by the
/// `index`-th move waits for the moves before it still `in_flight`: the
/// serial loop would have searched them, and the probe that fails low at
/// the end of a walk up needs every root move's bound. Deeper split points
/// cut at once. See `docs/lab/2026-11-27-probe-root-cuts-in-order.md`.
pub(super) fn cut_waits<M>(probe_root: bool, in_flight: &[InFlight<M>], index: usize) -> bool {
    probe_root && in_flight.iter().any(|m| m.index < index)
}

/// What a thread at a split point reads there, under its lock, to choose
/// its next step ([`next_step`]).
pub(super) struct AtSplit<'a, M> {
    /// The split point or one enclosing it is cut off.
    pub(super) cut_off: bool,
    /// At a probe's root, the index of a move whose cut waits ([`cut_waits`]).
    pub(super) cut_pending: Option<usize>,
    pub(super) in_flight: &'a [InFlight<M>],
    /// Young brothers waiting for their full-window search, with their indices.
    pub(super) deferred: &'a [(M, usize)],
    /// Moves taken so far, and the node's move count.
    pub(super) taken: usize,
    pub(super) moves: usize,
    /// The move in its full-window search, and its index.
    pub(super) prover: Option<(M, usize)>,
    /// [`prover_first`] at this split point.
    pub(super) prover_first: bool,
    /// The split point's window is a null window.
    pub(super) null_window: bool,
    pub(super) entry_type: NodeType,
    /// Threads counted in, this one included.
    pub(super) workers: usize,
    /// Moves reported so far.
    pub(super) reported: u32,
    pub(super) ply: usize,
}

/// A thread's next step at a split point ([`next_step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Leave: the node is cut off here or above, or every move is taken.
    Leave,
    /// The cut pending at a probe's root is due: raise it, then leave.
    Cut,
    /// Take the deferred move `deferred[k]`.
    Deferred(usize),
    /// Take the next move in order.
    Next,
    /// Step away and help below the moves in flight, which stay counted;
    /// with `close` the split point takes no newcomers until one is back.
    HelpBelow { close: bool },
}

/// When a thread at a split point takes a move, and when it steps away to
/// help below the moves in flight instead:
///
/// - a cut waiting at a probe's root ([`cut_waits`]) waits for the moves
///   before it, then is made;
/// - a deferred young brother goes again, in order, once nothing earlier is
///   out ([`ready_deferred`]);
/// - while a prover goes first ([`prover_first`], [`waits_for_prover`]), or
///   only deferred moves are left, nobody takes a new move;
/// - at a null-window node that may still cut (not an expected ALL node,
///   whose every move is needed), a move that stayed in flight while
///   [`heavy_after`] others were reported is likely the one that fails
///   high, and the moves after it would be wasted.
pub(super) fn next_step<M: Copy + PartialEq>(s: &AtSplit<'_, M>) -> Step {
    if s.cut_off {
        return Step::Leave;
    }
    if let Some(cut_at) = s.cut_pending {
        return if s.in_flight.iter().any(|m| m.index < cut_at) {
            Step::HelpBelow { close: false }
        } else {
            Step::Cut
        };
    }
    if let Some(k) = ready_deferred(s.in_flight, s.deferred) {
        return Step::Deferred(k);
    }
    let none_left = s.taken >= s.moves;
    if none_left && s.deferred.is_empty() {
        return Step::Leave;
    }
    if none_left || (s.prover_first && waits_for_prover(s.prover, s.in_flight, s.taken)) {
        return Step::HelpBelow { close: true };
    }
    if s.null_window
        && s.entry_type != NodeType::All
        && s.workers >= 2
        && s.in_flight
            .iter()
            .any(|m| s.reported - m.taken_at >= heavy_after(s.ply))
    {
        return Step::HelpBelow { close: true };
    }
    Step::Next
}
