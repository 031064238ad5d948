use super::*;

fn entry(score: Score, depth: i32) -> TtEntry {
    TtEntry {
        move_key: 7,
        score,
        depth,
        bound: Bound::Lower,
    }
}

#[test]
fn store_then_probe_returns_the_entry() {
    let tt = TranspositionTable::new(1);
    tt.store(0xdead_beef, entry(-123, 9));
    assert_eq!(tt.probe(0xdead_beef), Some(entry(-123, 9)));
    assert_eq!(tt.probe(0xdead_bef0), None);
}

#[test]
fn torn_entry_is_rejected() {
    let tt = TranspositionTable::new(1);
    let key = 0x1234_5678_9abc_def0;
    let a = pack(&entry(10, 3), 0);
    let b = pack(&entry(-99, 12), 0);
    // Check word from one store, data word from another: must miss.
    tt.write_raw(key, key ^ a, b);
    assert_eq!(tt.probe(key), None);
    // The consistent pair hits.
    tt.write_raw(key, key ^ b, b);
    assert_eq!(tt.probe(key), Some(entry(-99, 12)));
}

#[test]
fn packing_round_trips_extremes() {
    for score in [-32_000, -1, 0, 31_000] {
        for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
            let e = TtEntry {
                move_key: NO_MOVE,
                score,
                depth: 255,
                bound,
            };
            assert_eq!(unpack(pack(&e, 63)), e);
        }
    }
}

#[test]
fn locked_table_behaves_like_the_lockless_one() {
    let tt = TranspositionTable::with_kind(1, TableKind::Locked);
    assert_eq!(tt.kind(), TableKind::Locked);
    tt.store(42, entry(5, 6));
    assert_eq!(tt.probe(42), Some(entry(5, 6)));
    assert_eq!(tt.probe(43), None);
    assert_eq!("locked".parse(), Ok(TableKind::Locked));
    assert!("wooden".parse::<TableKind>().is_err());
}

#[test]
fn a_table_beyond_the_address_space_is_an_error() {
    // `black_box`: a table that is never used may be optimised away,
    // its allocation with it, and then "succeed".
    use std::hint::black_box;
    // The byte count overflows `usize`.
    let overflow = usize::MAX / 2;
    assert_eq!(
        black_box(TranspositionTable::try_new(overflow)).err(),
        Some(TableAllocError { mib: overflow })
    );
    // 2^60 bytes: a valid layout, but no machine maps it.
    let huge = 1 << 40;
    for kind in [TableKind::Lockless, TableKind::Locked] {
        let e = black_box(TranspositionTable::try_with_kind(huge, kind)).err();
        assert_eq!(e, Some(TableAllocError { mib: huge }));
    }
    assert!(
        TableAllocError { mib: huge }
            .to_string()
            .contains("1099511627776 MiB")
    );
}

#[test]
fn buckets_are_cache_line_aligned_and_sized_as_asked() {
    for (mib, kind) in [
        (0, TableKind::Lockless),
        (1, TableKind::Lockless),
        (3, TableKind::Locked),
    ] {
        let tt = TranspositionTable::try_with_kind(mib, kind).unwrap();
        assert_eq!(tt.bytes(), (mib << 20).max(64));
        assert_eq!(tt.mib(), mib);
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
        assert!(tt.buckets.iter().all(|b| {
            b.0.iter()
                .all(|s| s.check.load(Relaxed) == 0 && s.data.load(Relaxed) == 0)
        }));
    }
}

#[test]
fn clear_empties_a_table_large_enough_to_share_out() {
    // A table created lazily (the operating system's zero pages), and
    // large enough that zeroing is shared out, with shares left over.
    let mut tt = TranspositionTable::new((LAZY_ZERO_BYTES >> 20) + 1);
    assert!(tt.bytes() > PARALLEL_CLEAR_BYTES);
    let keys: Vec<u64> = (1..=10_000u64)
        .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for &k in &keys {
        tt.store(k, entry(1, 3));
    }
    assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
    // In place: no fresh block whose pages the next search would fault in.
    let before = blocks_allocated();
    tt.clear();
    assert_eq!(blocks_allocated(), before);
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    assert!(tt.buckets.iter().all(|b| {
        b.0.iter()
            .all(|s| s.check.load(Relaxed) == 0 && s.data.load(Relaxed) == 0)
    }));
}

#[test]
fn changing_the_kind_keeps_the_entries_and_allocates_no_table() {
    let mut tt = TranspositionTable::new(1);
    tt.store(42, entry(5, 6));
    let before = blocks_allocated();
    tt.set_kind(TableKind::Locked);
    assert_eq!(tt.kind(), TableKind::Locked);
    assert_eq!(tt.probe(42), Some(entry(5, 6)));
    tt.set_kind(TableKind::Lockless);
    assert_eq!(tt.kind(), TableKind::Lockless);
    assert_eq!(tt.probe(42), Some(entry(5, 6)));
    assert_eq!(blocks_allocated(), before);
}

#[test]
fn full_bucket_replaces_the_shallowest() {
    let tt = TranspositionTable::new(0); // one bucket
    for (k, d) in [(1u64, 5), (2, 1), (3, 9), (4, 7)] {
        tt.store(k, entry(0, d));
    }
    tt.store(5, entry(0, 4));
    assert_eq!(tt.probe(2), None, "depth 1 was the victim");
    for k in [1, 3, 4, 5] {
        assert!(tt.probe(k).is_some());
    }
}
