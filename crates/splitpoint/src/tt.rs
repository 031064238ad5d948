//! The transposition table: lockless, shared by every thread of a search.
//!
//! Each entry is two `AtomicU64`: `check = key ^ data` and `data`. A writer stores
//! both words with relaxed ordering; a reader loads both and accepts the entry
//! only if `check ^ data == key`. Two writers racing on one entry, or a reader
//! racing a writer, can leave (or see) halves of two different stores; the
//! check then fails and the probe misses, unless a 64-bit key collision happens
//! to match, which is as rare as any hash collision. So races cost a lost entry,
//! never a wrong one, and no lock is needed. The search also never trusts a
//! table move blindly: it is used only if it is among the generated moves.
//!
//! Entries are grouped in buckets of [`BUCKET`] entries, one 64-byte cache line.
//!
//! `data` layout (bit 0 = least significant):
//! ```text
//!  63      48 47    42 41 40 39     32 31            16 15             0
//! +----------+--------+-----+---------+----------------+----------------+
//! |  spare   |  age   |bound|  depth  |  score (i16)   |  move key      |
//! +----------+--------+-----+---------+----------------+----------------+
//! ```
//! A probe returns a copy ([`TtEntry`]), never a reference into the table.
//!
//! [`TableKind::Locked`] wraps every probe and store in a lock (one per stripe
//! of buckets) around the very same code: not needed for correctness, it exists
//! so the cost of locking is measured side by side rather than argued.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::score::Score;

/// Entries per bucket: 4 × 16 bytes = one cache line.
pub const BUCKET: usize = 4;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// A copy of one table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move's key, if any (`NO_MOVE` otherwise).
    pub move_key: u16,
    /// The score, in table form (see [`crate::to_table`]).
    pub score: Score,
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

/// The move key stored when a node has no best move.
pub const NO_MOVE: u16 = u16::MAX;

#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Whether table accesses take a lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Lockless, by the XOR check (the default).
    #[default]
    Lockless,
    /// A mutex per stripe of buckets around every probe and store.
    Locked,
}

impl TableKind {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Lockless => "lockless",
            TableKind::Locked => "locked",
        }
    }
}

impl std::str::FromStr for TableKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "lockless" => Ok(TableKind::Lockless),
            "locked" => Ok(TableKind::Locked),
            _ => Err(format!(
                "unknown table kind '{s}' (expected lockless or locked)"
            )),
        }
    }
}

/// Lock stripes of a locked table: enough that two threads rarely share one.
const LOCK_STRIPES: usize = 4096;

/// The transposition table.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    /// `Some` for a [`TableKind::Locked`] table: bucket `i` is guarded by
    /// stripe `i % LOCK_STRIPES`.
    locks: Option<Box<[std::sync::Mutex<()>]>>,
    /// The search generation, bumped per search, so stale entries are replaced first.
    age: AtomicU8,
}

const AGE_BITS: u32 = 6;
const AGE_MASK: u64 = (1 << AGE_BITS) - 1;

fn pack(e: &TtEntry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    e.move_key as u64
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.depth.clamp(0, 255) as u64) << 32)
        | (bound << 40)
        | ((age as u64 & AGE_MASK) << 42)
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        move_key: data as u16,
        score: (data >> 16) as u16 as i16 as Score,
        depth: ((data >> 32) & 0xff) as i32,
        bound: match (data >> 40) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

fn age_of(data: u64) -> u8 {
    ((data >> 42) & AGE_MASK) as u8
}

impl TranspositionTable {
    /// A lockless table of (at most) `mib` mebibytes, at least one bucket.
    pub fn new(mib: usize) -> Self {
        Self::with_kind(mib, TableKind::Lockless)
    }

    /// A table of (at most) `mib` mebibytes of the given kind.
    pub fn with_kind(mib: usize, kind: TableKind) -> Self {
        let buckets = (mib.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = (0..buckets)
            .map(|_| {
                Bucket(std::array::from_fn(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                }))
            })
            .collect();
        let locks = (kind == TableKind::Locked).then(|| {
            (0..LOCK_STRIPES)
                .map(|_| std::sync::Mutex::new(()))
                .collect()
        });
        TranspositionTable {
            buckets,
            locks,
            age: AtomicU8::new(0),
        }
    }

    /// Whether accesses take a lock.
    pub fn kind(&self) -> TableKind {
        if self.locks.is_some() {
            TableKind::Locked
        } else {
            TableKind::Lockless
        }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties every entry (between unrelated searches, e.g. suite positions).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.0 {
                s.check.store(0, Relaxed);
                s.data.store(0, Relaxed);
            }
        }
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) & AGE_MASK as u8;
        self.age.store(next, Relaxed);
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket range without a division.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[self.bucket_index(key)]
    }

    /// The stripe lock of `key`'s bucket, taken, for a locked table.
    #[inline]
    fn lock(&self, key: u64) -> Option<std::sync::MutexGuard<'_, ()>> {
        let locks = self.locks.as_ref()?;
        let stripe = &locks[self.bucket_index(key) % LOCK_STRIPES];
        // Nothing panics while a stripe is held, so poisoning cannot happen.
        Some(stripe.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Hints the processor to fetch the bucket of `key` ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; it never faults and `p` points into the table.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
    }

    /// The entry stored for `key`, if a consistent one is present.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        // A zero check word with zero data is an empty slot, never a hit for a
        // real key (key 0 is treated as "no entry" too; the odds are 2^-64).
        let _guard = self.lock(key);
        for s in &self.bucket(key).0 {
            let data = s.data.load(Relaxed);
            let check = s.check.load(Relaxed);
            if check ^ data == key && (check | data) != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores an entry for `key`, replacing the same key, else the least
    /// valuable slot of the bucket: the shallowest, counting 8 plies per
    /// generation of age. A same-key entry keeps its move if the new one has none.
    #[inline]
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let _guard = self.lock(key);
        let age = self.age.load(Relaxed);
        let bucket = &self.bucket(key).0;
        let mut victim = &bucket[0];
        let mut victim_value = i32::MAX;
        for s in bucket {
            let data = s.data.load(Relaxed);
            let check = s.check.load(Relaxed);
            if check ^ data == key {
                let old = unpack(data);
                // Keep a deeper exact-ish entry of this search over a shallow bound.
                if entry.move_key == NO_MOVE {
                    entry.move_key = old.move_key;
                }
                if old.depth > entry.depth + 2 && age_of(data) == age && entry.bound != Bound::Exact
                {
                    return;
                }
                victim = s;
                break;
            }
            let stale = (age.wrapping_sub(age_of(data)) as u64 & AGE_MASK) as i32;
            let value = unpack(data).depth - 8 * stale;
            if (check | data) == 0 {
                victim = s;
                break;
            }
            if value < victim_value {
                victim_value = value;
                victim = s;
            }
        }
        let data = pack(&entry, age);
        victim.check.store(key ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }

    /// Writes raw words into the slot `key` maps to first: lets tests plant a
    /// torn entry (halves of two different stores).
    #[cfg(test)]
    fn write_raw(&self, key: u64, check: u64, data: u64) {
        let s = &self.bucket(key).0[0];
        s.check.store(check, Relaxed);
        s.data.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
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
}
