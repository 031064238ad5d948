//! A fixed-length set of flags, packed 64 to a word: the hints idle
//! threads scan (which split points are open, which threads offer work) in
//! a few words instead of one cache line per split point or thread. With
//! thousands of them (simulated processors) the scan was most of the time.

#[cfg(loom)]
use loom::sync::atomic::AtomicU64;
#[cfg(not(loom))]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

/// One flag per index, packed 64 to a word, so that finding the set ones
/// reads a few words instead of one cache line per index.
pub(crate) struct AtomicBits(Box<[AtomicU64]>, usize);

impl AtomicBits {
    pub(crate) fn new(len: usize) -> Self {
        AtomicBits(
            (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            len,
        )
    }

    /// Sets every flag but `skip`'s, one read-modify-write a word, and
    /// calls `f` with each index that was clear.
    pub(crate) fn set_all(&self, skip: usize, order: Ordering, mut f: impl FnMut(usize)) {
        for (w, word) in self.0.iter().enumerate() {
            let end = (self.1 - w * 64).min(64);
            let mut mask = if end == 64 { u64::MAX } else { (1 << end) - 1 };
            if skip / 64 == w {
                mask &= !(1 << (skip % 64));
            }
            let mut fresh = !word.fetch_or(mask, order) & mask;
            while fresh != 0 {
                f(w * 64 + fresh.trailing_zeros() as usize);
                fresh &= fresh - 1;
            }
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize, order: Ordering) -> bool {
        self.0[i / 64].load(order) & (1 << (i % 64)) != 0
    }

    #[inline]
    pub(crate) fn set(&self, i: usize, on: bool, order: Ordering) {
        let (word, bit) = (&self.0[i / 64], 1 << (i % 64));
        if on {
            word.fetch_or(bit, order);
        } else {
            word.fetch_and(!bit, order);
        }
    }

    /// The indices set in both `self` and `other` (of the same length),
    /// except `skip`, in increasing order, each word read once.
    pub(crate) fn ones_in_both<'a>(
        &'a self,
        other: &'a AtomicBits,
        skip: usize,
        order: Ordering,
    ) -> impl Iterator<Item = usize> + 'a {
        self.0
            .iter()
            .zip(other.0.iter())
            .enumerate()
            .flat_map(move |(w, (a, b))| {
                let mut bits = a.load(order) & b.load(order);
                if skip / 64 == w {
                    bits &= !(1 << (skip % 64));
                }
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let i = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        w * 64 + i
                    })
                })
            })
    }

    /// The indices set, in increasing order.
    pub(crate) fn ones(&self, order: Ordering) -> impl Iterator<Item = usize> + '_ {
        self.ones_in_both(self, usize::MAX, order)
    }
}

#[cfg(loom)]
mod loom_tests {
    use loom::sync::Arc;
    use loom::sync::atomic::{AtomicU32, Ordering::SeqCst};
    use loom::thread;

    use super::AtomicBits;

    const PUBLISH: u32 = 1;

    /// DTS's asks (`Dts::ask_for_candidates`, `Dts::asked_answered`): an
    /// idle thread sets `asked` then `PUBLISH`; the busy thread, having
    /// published, clears `PUBLISH` then `asked`. With a PUBLISH already
    /// pending and a second ask racing the answer, no interleaving leaves
    /// the thread marked asked without its bit (later asks would skip it).
    #[test]
    fn loom_no_ask_left_without_its_bit() {
        loom::model(|| {
            let asked = Arc::new(AtomicBits::new(2));
            let attention = Arc::new(AtomicU32::new(0));
            // A first ask, answered below: thread 1 asked, its bit set.
            asked.set_all(0, SeqCst, |_| {
                attention.fetch_or(PUBLISH, SeqCst);
            });
            let asker = {
                let (asked, attention) = (asked.clone(), attention.clone());
                thread::spawn(move || {
                    asked.set_all(0, SeqCst, |_| {
                        attention.fetch_or(PUBLISH, SeqCst);
                    });
                })
            };
            attention.fetch_and(!PUBLISH, SeqCst);
            asked.set(1, false, SeqCst);
            asker.join().unwrap();
            assert!(!asked.get(1, SeqCst) || attention.load(SeqCst) & PUBLISH != 0);
        });
    }
}
