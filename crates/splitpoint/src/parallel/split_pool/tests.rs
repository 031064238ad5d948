//! The pool's rules that need no threads: who may attach, what a scan
//! chooses, what a chain walk sees, where a slot comes from.

use std::sync::atomic::Ordering::Relaxed;

use super::*;
use crate::test_games::Nim;

fn scheme(slots: Slots, attach: Attach) -> Scheme {
    Scheme {
        rules: SplitRules {
            min_depth: 1,
            min_moves_left: 1,
            max_ply: usize::MAX,
            strong: false,
            only_when_idle: false,
        },
        slots,
        attach,
    }
}

/// Slot `s` published at `ply` under `parent`, with `subscribers`
/// attached; returns its id.
fn publish(pool: &SplitPool<Nim>, s: usize, ply: usize, parent: u64, subscribers: usize) -> u64 {
    let head = &pool.slots[s].head;
    let id = pool.fresh_id(s);
    head.claimed.store(true, Relaxed);
    head.parent.store(parent, Relaxed);
    head.ply.store(ply, Relaxed);
    head.subscribers.store(subscribers, Relaxed);
    head.id.store(id, Relaxed);
    pool.open.set(s, true, Relaxed);
    id
}

#[test]
fn attach_rules() {
    assert!(Attach::Any.allows(3));
    assert!(Attach::One.allows(0));
    assert!(!Attach::One.allows(1));
    assert!(Attach::OneThenJoin.allows(1));
    assert_eq!(Attach::One.room(7), 1);
    assert_eq!(Attach::Any.room(7), 7);
    assert_eq!(Attach::OneThenJoin.room(7), 7);
}

#[test]
fn a_scan_takes_the_shallowest_free_slot_then_a_taken_one_if_the_scheme_joins() {
    for (attach, expected) in [
        (Attach::Any, Some(1)),
        (Attach::One, Some(2)),
        (Attach::OneThenJoin, Some(2)),
    ] {
        let pool = SplitPool::<Nim>::new(2, scheme(Slots::Shared(2), attach));
        publish(&pool, 0, 5, NONE, 0);
        publish(&pool, 1, 2, NONE, 1); // the shallowest, but taken
        publish(&pool, 2, 4, NONE, 0);
        assert_eq!(pool.find(|_| true), expected, "{attach:?}");
    }
    let pool = SplitPool::<Nim>::new(2, scheme(Slots::Shared(2), Attach::OneThenJoin));
    publish(&pool, 1, 2, NONE, 1);
    publish(&pool, 3, 6, NONE, 1);
    assert_eq!(
        pool.find(|_| true),
        Some(1),
        "every open slot taken: join the shallowest"
    );
    let pool = SplitPool::<Nim>::new(2, scheme(Slots::Shared(2), Attach::One));
    publish(&pool, 1, 2, NONE, 1);
    assert_eq!(
        pool.find(|_| true),
        None,
        "one subscriber each: nothing to attach to"
    );
}

#[test]
fn a_cutoff_breaks_the_chains_below_it_and_no_other() {
    let pool = SplitPool::<Nim>::new(3, scheme(Slots::PerThread(2), Attach::Any));
    let root = publish(&pool, 0, 1, NONE, 1);
    let below = publish(&pool, 2, 3, root, 1); // thread 1's, under thread 0's
    let beside = publish(&pool, 4, 2, NONE, 0);
    pool.current[1].store(below, Relaxed);
    pool.current[2].store(beside, Relaxed);
    assert!(!pool.chain_broken(1) && !pool.chain_broken(2));
    assert!(pool.chain_contains(below, root));
    assert!(!pool.chain_contains(beside, root));
    assert_eq!(pool.open_below(root), Some(2));
    // A cutoff at the root slot: a new id.
    pool.slots[0].head.id.store(pool.fresh_id(0), Relaxed);
    assert!(pool.chain_broken(1), "under the cut slot");
    assert!(!pool.chain_broken(2), "beside it");
}

#[test]
fn slots_come_from_the_threads_own_stack_or_from_anywhere() {
    let pool = SplitPool::<Nim>::new(2, scheme(Slots::PerThread(2), Attach::Any));
    assert_eq!(pool.claim(1), Some(2));
    assert_eq!(pool.claim(1), Some(3));
    assert_eq!(pool.claim(1), None, "thread 1's two are in use");
    assert_eq!(pool.claim(0), Some(0));
    let pool = SplitPool::<Nim>::new(2, scheme(Slots::Shared(2), Attach::One));
    let claimed: Vec<_> = (0..5).map(|_| pool.claim(1)).collect();
    assert_eq!(claimed, [Some(0), Some(1), Some(2), Some(3), None]);
    pool.slots[1].head.claimed.store(false, Relaxed);
    assert_eq!(pool.claim(0), Some(1), "a released slot is free again");
}

#[test]
fn ids_are_never_reused() {
    let pool = SplitPool::<Nim>::new(1, scheme(Slots::Shared(2), Attach::One));
    let a = pool.fresh_id(1);
    let b = pool.fresh_id(1);
    assert_ne!(a, b);
    assert_eq!(SplitPool::<Nim>::slot_of(a), 1);
    assert_eq!(SplitPool::<Nim>::slot_of(b), 1);
}
