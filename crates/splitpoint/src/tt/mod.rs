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
//!
//! Memory: the buckets are one fallible, zeroed allocation (`Buckets`), so a
//! table too large for the machine is a [`TableAllocError`], never an abort,
//! and a large table costs nothing until the search touches it: the operating
//! system hands out fresh zero pages on first use, so creating a 4 GiB table
//! writes nothing. [`TranspositionTable::clear`] trades a large table's block
//! for a fresh one the same way. On Linux the block asks for transparent huge
//! pages (`advise_huge_pages`), a page being then 2 MiB of the table, not
//! 4 KiB (measured in `docs/lab/2026-11-27-huge-pages.md`).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
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

/// A transposition table that could not be allocated: more memory (or
/// address space) than the process may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

impl fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MiB: not enough memory",
            self.mib
        )
    }
}

impl std::error::Error for TableAllocError {}

/// The buckets: one zeroed block from the global allocator, owned like a
/// `Box<[Bucket]>` and read through `Deref<Target = [Bucket]>`, so probes and
/// stores index a plain slice.
///
/// Why not `Box<[Bucket]>` or `alloc_zeroed` of a `[Bucket]` layout: on Unix
/// the standard allocator serves an alignment above 16 bytes with
/// `posix_memalign` followed by a `memset` of the whole block, which touches
/// every page (seconds for a few GiB, and all of it resident at once). At 16
/// bytes it calls `calloc`, which takes a large block straight from `mmap`
/// and skips the `memset`: the kernel's pages are already zero, and become
/// resident only when written. So the block is asked for with 16-byte
/// alignment and one spare bucket, and the buckets start at the first 64-byte
/// boundary inside it.
struct Buckets {
    /// The block as allocated, freed with `layout` on drop.
    block: NonNull<u8>,
    layout: Layout,
    /// The first bucket: `block` rounded up to a multiple of 64 bytes.
    first: NonNull<Bucket>,
    len: usize,
}

// SAFETY: `Buckets` owns its block exclusively, like a `Box<[Bucket]>`, and
// `Bucket` (atomics only) is `Send` and `Sync`; shared access goes through
// `&[Bucket]`, exclusive access through `&mut [Bucket]`.
unsafe impl Send for Buckets {}
// SAFETY: as for `Send`: `&Buckets` only lends `&[Bucket]`, which is `Sync`.
unsafe impl Sync for Buckets {}

#[cfg(test)]
thread_local! {
    /// Blocks allocated by this thread: lets tests check that an engine
    /// allocates its table once.
    static BLOCKS_ALLOCATED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Blocks of buckets allocated by the calling thread so far (tests only).
#[cfg(test)]
pub(crate) fn blocks_allocated() -> usize {
    BLOCKS_ALLOCATED.with(|n| n.get())
}

impl Buckets {
    /// `len` zeroed buckets (at least one), or `None` when the size
    /// overflows or the allocator refuses.
    fn zeroed(len: usize) -> Option<Self> {
        let align = std::mem::align_of::<Bucket>();
        let len = len.max(1);
        let size = len
            .checked_add(1)?
            .checked_mul(std::mem::size_of::<Bucket>())?;
        // 16 bytes: what `calloc` guarantees on the 64-bit targets, so the
        // allocator zeroes lazily (see the type's comment).
        let layout = Layout::from_size_align(size, 16).ok()?;
        // SAFETY: `layout` has a non-zero size (at least two buckets).
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        if offset >= align {
            // `align_offset` may give up; free the block rather than misalign.
            // SAFETY: `block` was allocated just above with `layout`.
            unsafe { dealloc(block.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset < 64` and the block holds `len + 1` buckets' bytes,
        // so `block + offset` and the `len` buckets after it are inside it.
        let first = unsafe { block.add(offset) }.cast::<Bucket>();
        advise_huge_pages(block, size);
        #[cfg(test)]
        BLOCKS_ALLOCATED.with(|n| n.set(n.get() + 1));
        Some(Buckets {
            block,
            layout,
            first,
            len,
        })
    }
}

/// Asks Linux to back the 2 MiB-aligned part of a block with huge pages
/// (where transparent huge pages are on `madvise`, the usual default): a
/// probe lands anywhere in the table, and with 4 KiB pages nearly every one
/// misses the TLB as well as the cache. Only a hint: a refusal changes
/// nothing.
fn advise_huge_pages(block: NonNull<u8>, size: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = block.as_ptr().align_offset(HUGE);
        if start < size && size - start >= HUGE {
            let len = (size - start) / HUGE * HUGE;
            // SAFETY: `[block + start, block + start + len)` lies inside the
            // live block (`start + len <= size`), and `MADV_HUGEPAGE` only
            // changes how the kernel backs those pages, never their contents.
            unsafe { libc::madvise(block.as_ptr().add(start).cast(), len, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, size);
}

impl Deref for Buckets {
    type Target = [Bucket];

    #[inline]
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is 64-byte aligned and `len` buckets from it lie in
        // the live block (see `zeroed`). Every byte was zeroed at allocation
        // and is only ever written through a `Bucket`'s atomics (or whole
        // `u64`s through `&mut`), so each bucket is always a valid value:
        // all-zero bytes are a valid `AtomicU64` (0), and a bucket is nothing
        // but `AtomicU64`s. The slice borrows `self`, which frees the block
        // only on drop.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl DerefMut for Buckets {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`; `&mut self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `block` was allocated with `layout` in `zeroed` and is freed
        // once, here; buckets need no drop (atomics only).
        unsafe { dealloc(self.block.as_ptr(), self.layout) };
    }
}

/// Tables at least this large are cleared by several threads.
const PARALLEL_CLEAR_BYTES: usize = 64 << 20;
/// Tables at least this large are left to the operating system's lazy zero
/// pages when created; smaller ones are written (resident).
const LAZY_ZERO_BYTES: usize = 256 << 20;
/// The most threads a clear uses: memory bandwidth, not cores, is the limit.
const CLEAR_THREADS: usize = 4;
/// What a clearing thread takes at a time.
const CLEAR_SHARE_BYTES: usize = 16 << 20;

/// The transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
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
    ///
    /// # Panics
    /// If the table cannot be allocated; [`TranspositionTable::try_new`]
    /// returns the error instead.
    pub fn new(mib: usize) -> Self {
        Self::with_kind(mib, TableKind::Lockless)
    }

    /// A table of (at most) `mib` mebibytes of the given kind.
    ///
    /// # Panics
    /// If the table cannot be allocated; [`TranspositionTable::try_with_kind`]
    /// returns the error instead.
    pub fn with_kind(mib: usize, kind: TableKind) -> Self {
        Self::try_with_kind(mib, kind).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A lockless table of (at most) `mib` mebibytes, at least one bucket.
    ///
    /// # Errors
    /// [`TableAllocError`] when the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<Self, TableAllocError> {
        Self::try_with_kind(mib, TableKind::Lockless)
    }

    /// A table of (at most) `mib` mebibytes of the given kind, at least one
    /// bucket. A table of 256 MiB or more is zeroed lazily by the operating
    /// system: nothing is written here, and pages become resident as searches
    /// touch them; a smaller one is written at once (see the body).
    ///
    /// # Errors
    /// [`TableAllocError`] when the memory cannot be had (the size overflows
    /// the address space, or the allocator refuses it).
    pub fn try_with_kind(mib: usize, kind: TableKind) -> Result<Self, TableAllocError> {
        let bytes = mib.checked_mul(1 << 20).ok_or(TableAllocError { mib })?;
        let buckets = Buckets::zeroed(bytes / std::mem::size_of::<Bucket>())
            .ok_or(TableAllocError { mib })?;
        let mut table = TranspositionTable {
            buckets,
            locks: None,
            age: AtomicU8::new(0),
        };
        table.set_kind(kind);
        // A table under 256 MiB is written now, which makes its pages
        // resident: the first search would fault them in anyway, inside its
        // own time (tens of milliseconds per 100 MiB here). A larger one stays
        // lazy: `Hash 4096` must not cost seconds before the search starts.
        if table.bytes() < LAZY_ZERO_BYTES {
            table.zero_in_place();
        }
        Ok(table)
    }

    /// Whether accesses take a lock.
    pub fn kind(&self) -> TableKind {
        if self.locks.is_some() {
            TableKind::Locked
        } else {
            TableKind::Lockless
        }
    }

    /// Makes accesses take a lock or not. The entries stay (both kinds lay
    /// them out alike) and nothing of the table's size is allocated: only the
    /// lock stripes, when they are added.
    pub fn set_kind(&mut self, kind: TableKind) {
        if kind == self.kind() {
            return;
        }
        self.locks = (kind == TableKind::Locked).then(|| {
            (0..LOCK_STRIPES)
                .map(|_| std::sync::Mutex::new(()))
                .collect()
        });
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The size in whole MiB (0 for a table smaller than one).
    pub fn mib(&self) -> usize {
        self.bytes() >> 20
    }

    /// Empties every entry (between unrelated searches, e.g. suite positions),
    /// in place, by up to four threads.
    ///
    /// Not by trading the block for a fresh lazily zeroed one, even for a
    /// large table: the next search would then fault every page in again,
    /// inside its own time and, with several threads, all of them contending
    /// for the process's page tables (measured in
    /// `docs/lab/2026-11-25-table-clear-in-place.md`). Writing zeros costs
    /// tens of milliseconds per 100 MiB.
    pub fn clear(&mut self) {
        self.zero_in_place();
    }

    /// Zeroes every entry where it is; a large table is shared out to up to
    /// four threads, each taking 16 MiB at a time.
    fn zero_in_place(&mut self) {
        fn zero(buckets: &mut [Bucket]) {
            // Plain writes through `&mut`: the compiler makes this a `memset`.
            for b in buckets {
                for s in &mut b.0 {
                    *s.check.get_mut() = 0;
                    *s.data.get_mut() = 0;
                }
            }
        }
        let helpers = if self.bytes() < PARALLEL_CLEAR_BYTES {
            0
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(CLEAR_THREADS)) - 1
        };
        let buckets: &mut [Bucket] = &mut self.buckets;
        if helpers == 0 {
            zero(buckets);
            return;
        }
        let shares = std::sync::Mutex::new(
            buckets.chunks_mut(CLEAR_SHARE_BYTES / std::mem::size_of::<Bucket>()),
        );
        let work = || {
            loop {
                // The lock is released before the share is zeroed. Nothing
                // panics while it is held, so poisoning cannot happen.
                let next = shares.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some(share) = next else { break };
                zero(share);
            }
        };
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                // A helper that cannot start leaves its shares to the others.
                let _ = std::thread::Builder::new()
                    .name("tt-clear".into())
                    .spawn_scoped(scope, work);
            }
            work();
        });
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
mod tests;
