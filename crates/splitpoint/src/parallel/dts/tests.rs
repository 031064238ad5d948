//! DTS's unit tests: the policy's pure functions, and frames, without threads.

use super::frame::Frame;
use super::policy::*;
use crate::game::{Game, MoveList};
use crate::node::NodeType;
use crate::score::Score;
use crate::search::rules::MoveSearch;
use crate::test_games::Nim;

/// Moves are their own indices, taken when nothing was reported yet.
fn out(moves: &[usize]) -> Vec<InFlight<usize>> {
    let at = |&mv: &usize| InFlight {
        mv,
        index: mv,
        taken_at: 0,
    };
    moves.iter().map(at).collect()
}

#[test]
fn no_new_move_is_taken_while_an_earlier_prover_is_in_flight() {
    // Move 1 failed high and is in its full-window search.
    let prover = Some((1, 1));
    assert!(waits_for_prover(prover, &out(&[1, 5]), 6));
    assert!(
        !waits_for_prover(prover, &out(&[1, 5]), 0),
        "an earlier move does not wait for a later prover"
    );
    assert!(
        !waits_for_prover(prover, &out(&[5]), 6),
        "the prover is back"
    );
    assert!(!waits_for_prover(None, &out(&[1, 5]), 6), "no prover");
}

#[test]
fn a_young_brother_failing_high_waits_for_every_earlier_move_out() {
    // Moves 1 and 5 are in flight, move 3 waits; move 4's null window
    // failed high.
    let (mut in_flight, mut deferred) = (out(&[1, 5]), vec![(3, 3)]);
    assert!(waits_for_elder(&in_flight, &[], 4), "move 1 is in flight");
    assert!(waits_for_elder(&out(&[5]), &deferred, 4), "move 3 waits");
    assert!(
        !waits_for_elder(&in_flight, &deferred, 0),
        "nothing before move 0"
    );
    deferred.push((4, 4));

    // Move 3 goes again once move 1 is back, then move 4 once 3 is.
    assert_eq!(ready_deferred(&in_flight, &deferred), None);
    in_flight.retain(|m| m.mv != 1);
    assert_eq!(ready_deferred(&in_flight, &deferred), Some(0));
    deferred.remove(0);
    in_flight.extend(out(&[3]));
    assert_eq!(ready_deferred(&in_flight, &deferred), None);
    in_flight.retain(|m| m.mv != 3);
    assert_eq!(ready_deferred(&in_flight, &deferred), Some(0));
    deferred.remove(0);
    assert_eq!(ready_deferred(&in_flight, &deferred), None);
}

/// A frame of Nim(10), 8 plies from the horizon in the null window
/// `(alpha, alpha + 1)`: three moves, the eldest searched, the second in
/// flight.
fn second_move_in_flight(alpha: Score) -> Frame<Nim> {
    let mut moves = MoveList::new();
    Nim(10).generate_moves(&mut moves);
    let mut f = Frame::new(Nim(10));
    (f.moves, f.index, f.next, f.depth) = (moves, 1, 2, 8);
    (f.orig_alpha, f.alpha, f.beta) = (alpha, alpha, alpha + 1);
    f
}

#[test]
fn a_probes_root_is_offered_late_and_other_nodes_once_their_eldest_is_searched() {
    let mut f = second_move_in_flight(-1);
    assert!(f.splittable(false), "an interior null-window node");
    f.root = true;
    assert!(!f.splittable(false), "the root of an MTD(f) probe");
    let mut late = f.clone();
    late.moves.extend(f.moves.clone());
    (late.index, late.next) = (PROBE_ROOT_SPLIT_AFTER - 1, PROBE_ROOT_SPLIT_AFTER);
    assert!(
        late.splittable(false),
        "a probe's root whose first moves failed low"
    );
    (f.orig_alpha, f.alpha) = (-50, -1);
    assert!(f.splittable(false), "a root in a wider window");
    f.index = 0;
    assert!(!f.splittable(false), "the eldest brother is in flight");
    (f.index, f.next) = (2, 3);
    assert!(!f.splittable(false), "no move left");
    (f.next, f.depth) = (2, min_split_depth(true) - 1);
    assert!(!f.splittable(true), "too shallow for a frame");
}

#[test]
fn a_close_call_is_offered_as_if_a_ply_deeper_until_it_has_taken_enough_moves() {
    let mut f = second_move_in_flight(10);
    f.entry_type = NodeType::All;
    let plain = merit(f.depth, f.entry_type, f.index);
    f.best = 10 - CLOSE_FAIL_LOW - 1;
    assert_eq!(f.split_merit(), plain, "the eldest failed low by a margin");
    f.best = 10 - CLOSE_FAIL_LOW;
    assert_eq!(f.split_merit(), plain - PLY_MERIT, "a close call");
    f.next = CLOSE_CALL_MOVES;
    assert_eq!(f.split_merit(), plain, "enough moves taken");
    f.next = 2;
    f.beta = 12;
    assert_eq!(f.split_merit(), plain, "not a null window");
    f.beta = 11;
    f.root = true;
    assert_eq!(f.split_merit(), plain, "a probe's root has its own rule");
}

#[test]
fn the_prover_goes_first_outside_exact_mode_and_far_from_the_leaves() {
    assert!(prover_first(false, PROVER_FIRST_DEPTH));
    assert!(!prover_first(false, PROVER_FIRST_DEPTH - 1));
    assert!(!prover_first(true, PROVER_FIRST_DEPTH + 4));
}

#[test]
fn deferred_moves_go_again_earliest_first_whatever_their_place_in_the_list() {
    let deferred = [(7, 7), (4, 4), (6, 6)];
    assert_eq!(ready_deferred(&out(&[9]), &deferred), Some(1));
    assert_eq!(
        ready_deferred(&out(&[2]), &deferred),
        None,
        "move 2 is still out"
    );
    assert_eq!(ready_deferred::<usize>(&[], &[]), None);
}

#[test]
fn a_cut_waits_for_earlier_moves_only_at_a_probes_root() {
    assert!(cut_waits(true, &out(&[2, 6]), 4));
    assert!(!cut_waits(true, &out(&[6]), 4), "only later moves are out");
    assert!(!cut_waits(false, &out(&[2, 6]), 4), "not a probe's root");
}

#[test]
fn children_get_frames_where_they_may_be_split_and_someone_may_ask() {
    let pays = || true;
    let (exact, normal) = (true, false);
    assert_eq!(
        place(EAGER_FRAME_DEPTH, normal, false, false, pays),
        Place::Frame
    );
    assert_eq!(
        place(EAGER_FRAME_DEPTH - 1, normal, false, false, pays),
        Place::Serving,
        "below the eager depth, unasked: served from inside"
    );
    assert_eq!(place(2, normal, true, false, pays), Place::Frame, "asked");
    assert_eq!(
        place(1, normal, true, false, pays),
        Place::Frame,
        "asked, a ply from the horizon"
    );
    assert_eq!(
        place(1, normal, false, false, pays),
        Place::Recursive,
        "unasked, its children are quiescence searches"
    );
    assert_eq!(
        place(2, normal, false, true, pays),
        Place::Frame,
        "the plain iterative search"
    );
    assert_eq!(
        place(min_split_depth(exact), exact, false, false, pays),
        Place::Frame
    );
    assert_eq!(
        place(min_split_depth(exact) - 1, exact, true, true, pays),
        Place::Recursive
    );
    assert_eq!(
        place(EAGER_FRAME_DEPTH + 4, normal, true, true, || false),
        Place::Recursive,
        "the evaluator says splits do not pay"
    );
    let never = || -> bool { panic!("too shallow to ask the evaluator") };
    assert_eq!(place(0, normal, true, true, never), Place::Recursive);
}

#[test]
fn depth_outranks_node_type_and_joining_outranks_splitting_alike() {
    assert!(merit(5, NodeType::Cut, 0) > merit(4, NodeType::All, 9));
    assert!(merit(4, NodeType::All, 0) > merit(4, NodeType::Pv, 0));
    assert!(merit(4, NodeType::Pv, 0) > merit(4, NodeType::Cut, 2));
    assert!(
        merit(4, NodeType::Cut, 3) > merit(4, NodeType::Cut, 1),
        "a CUT node that searched more moves without a cutoff"
    );
    assert_eq!(merit(4, NodeType::Cut, 3), merit(4, NodeType::Cut, 8));
    for kind in [NodeType::All, NodeType::Pv, NodeType::Cut] {
        assert_eq!(join_merit(4, kind), merit(4, kind, 3) + JOIN_BONUS);
        assert!(join_merit(4, kind) < merit(5, NodeType::Cut, 0));
    }
    assert_eq!(
        split_merit(4, NodeType::All, 1, true),
        merit(3, NodeType::All, 1),
        "a close call counts a ply less"
    );
    assert!(outranks(2, None));
    assert!(outranks(3, Some(2)));
    assert!(!outranks(2, Some(2)), "ties go to the first found");
}

#[test]
fn a_close_call_is_a_null_window_node_just_below_alpha_with_few_moves_taken() {
    assert!(close_call(true, 10 - CLOSE_FAIL_LOW, 10, 1));
    assert!(!close_call(true, 10 - CLOSE_FAIL_LOW - 1, 10, 1));
    assert!(!close_call(true, 10, 10, CLOSE_CALL_MOVES));
    assert!(!close_call(false, 10, 10, 1));
}

/// A null-window CUT split point 3 plies from the root with nothing pending:
/// moves 0 and 1 of 6 taken, move 1 in flight since nothing was reported.
fn at_split(in_flight: &[InFlight<usize>]) -> AtSplit<'_, usize> {
    AtSplit {
        cut_off: false,
        cut_pending: None,
        in_flight,
        deferred: &[],
        taken: 2,
        moves: 6,
        prover: None,
        prover_first: true,
        null_window: true,
        entry_type: NodeType::Cut,
        workers: 2,
        reported: 0,
        ply: 3,
    }
}

#[test]
fn a_thread_at_a_split_point_takes_moves_in_order_until_none_is_left() {
    let busy = out(&[1]);
    assert_eq!(next_step(&at_split(&busy)), Step::Next);
    assert_eq!(
        next_step(&AtSplit {
            cut_off: true,
            ..at_split(&busy)
        }),
        Step::Leave
    );
    assert_eq!(
        next_step(&AtSplit {
            taken: 6,
            ..at_split(&busy)
        }),
        Step::Leave,
        "every move taken, none deferred"
    );
}

#[test]
fn a_cut_pending_at_a_probes_root_waits_for_the_moves_before_it() {
    let (early, late) = (out(&[1]), out(&[5]));
    let pending = |in_flight| AtSplit {
        cut_pending: Some(3),
        ..at_split(in_flight)
    };
    assert_eq!(
        next_step(&pending(&early)),
        Step::HelpBelow { close: false }
    );
    assert_eq!(next_step(&pending(&late)), Step::Cut);
}

#[test]
fn deferred_moves_go_before_new_ones_and_hold_the_rest_back_while_they_wait() {
    let deferred = [(4, 4)];
    let (early, late) = (out(&[1]), out(&[5]));
    let waiting = |in_flight| AtSplit {
        deferred: &deferred,
        ..at_split(in_flight)
    };
    assert_eq!(next_step(&waiting(&late)), Step::Deferred(0));
    assert_eq!(
        next_step(&waiting(&early)),
        Step::Next,
        "move 4 waits for move 1"
    );
    assert_eq!(
        next_step(&AtSplit {
            taken: 6,
            ..waiting(&early)
        }),
        Step::HelpBelow { close: true },
        "only a waiting move is left"
    );
}

#[test]
fn nobody_takes_a_new_move_while_an_earlier_prover_goes_first() {
    let busy = out(&[1]);
    let proving = AtSplit {
        prover: Some((1, 1)),
        ..at_split(&busy)
    };
    assert_eq!(next_step(&proving), Step::HelpBelow { close: true });
    assert_eq!(
        next_step(&AtSplit {
            prover_first: false,
            ..proving
        }),
        Step::Next,
        "exact mode, or near the leaves"
    );
}

#[test]
fn a_thread_steps_away_beside_a_move_that_outlasted_others_at_a_null_window_cut_node() {
    // Move 1 was taken when nothing was reported; two moves came back since.
    let busy = out(&[1]);
    let heavy = AtSplit {
        reported: 2,
        ..at_split(&busy)
    };
    assert_eq!(next_step(&heavy), Step::HelpBelow { close: true });
    assert_eq!(
        next_step(&AtSplit {
            reported: 1,
            ..heavy
        }),
        Step::Next
    );
    assert_eq!(
        next_step(&AtSplit {
            reported: 1,
            ply: 1,
            ..heavy
        }),
        Step::HelpBelow { close: true },
        "a ply below the root one report is enough"
    );
    assert_eq!(
        next_step(&AtSplit {
            reported: 9,
            ply: 0,
            ..heavy
        }),
        Step::Next,
        "never at a probe's root"
    );
    assert_eq!(
        next_step(&AtSplit {
            entry_type: NodeType::All,
            ..heavy
        }),
        Step::Next,
        "every move of an ALL node is needed"
    );
    assert_eq!(
        next_step(&AtSplit {
            null_window: false,
            ..heavy
        }),
        Step::Next
    );
    assert_eq!(
        next_step(&AtSplit {
            workers: 1,
            ..heavy
        }),
        Step::Next,
        "the move in flight is this thread's own"
    );
}

#[test]
fn a_full_window_search_is_overtaken_once_alpha_reaches_what_its_null_window_proved() {
    // The third move failed high at 0 with 7: its full window is under way.
    let mut plan = MoveSearch::new(2, 0);
    plan.first(0, 100, 5, NodeType::Pv);
    plan.next(7, 0, 100, 5, NodeType::Pv);
    assert!(
        !overtaken(plan.proved(), 6),
        "it may still raise alpha to 7"
    );
    assert!(overtaken(plan.proved(), 7) && overtaken(plan.proved(), 12));
    plan.ask_again(12, 5, NodeType::Pv);
    assert!(!overtaken(plan.proved(), 100), "a null-window search again");
    let mut first = MoveSearch::new(0, 0);
    first.first(0, 100, 5, NodeType::Pv);
    assert!(
        !overtaken(first.proved(), 50),
        "the eldest's full window proves nothing"
    );
}
