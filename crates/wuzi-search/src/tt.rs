//! The transposition table: Zobrist-keyed, bucketed, lockless, shared by reference between
//! search threads.
//!
//! Each entry is two `AtomicU64`: `check = key ^ data` and `data`. A reader accepts an entry
//! only if `check ^ data == key`, so an entry torn by a concurrent writer (one word from one
//! write, one from another) is rejected rather than trusted. Buckets hold four entries in one
//! 64-byte cache line (the bucket type is aligned to 64 bytes, so a bucket never straddles two
//! lines); a store replaces the entry of the same key, else the one with the least depth
//! adjusted for age (entries from earlier searches are replaced first).
//!
//! Scores of proven wins and losses are stored relative to the node (distance from the node,
//! not from the root) and converted back on probe, so a mate found through a transposition
//! reports its true distance.

use crate::{WIN, WIN_MIN};
use std::sync::atomic::{AtomicU64, Ordering};

mod persist;

pub use persist::{TableFileError, TableMeta, TableUsage};

/// What a stored score means relative to the window it was found with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The score is at least this (a fail high).
    Lower,
    /// The score is at most this (a fail low).
    Upper,
}

/// A probed entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TtEntry {
    /// The best move's cell, if any.
    pub cell: Option<usize>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node was on a principal variation when stored (or stored so by a PV node).
    pub pv: bool,
}

impl TtEntry {
    /// The entry's score settles a node searched in `(alpha, beta)`: it is exact, a lower
    /// bound at or above beta, or an upper bound at or below alpha (the depth is the
    /// caller's to check).
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;
pub const ENTRY_BYTES: usize = 16;

/// Four slots in one cache line. A plain `Vec<Slot>` is only 16-byte aligned (glibc hands out
/// large blocks 16 bytes past a page boundary), so three buckets in four straddled two lines
/// and a probe or a store touched both (no single-thread cost was measurable: the criterion
/// bench `table_store_then_probe_1024_keys`, `docs/parallel-history.md`).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Buckets minus one (the bucket count is a power of two).
    mask: usize,
    generation: u8,
    /// Whether a search has used the table since it was made or last emptied: emptying an
    /// unused one (a burst of `RESTART`s) would only write zeros over zeros. Invariant: entries
    /// are stored only after [`TranspositionTable::new_search`], as every search starts with it.
    used: bool,
}

/// Packs an entry into 64 bits: cell+1 (16), score (16), eval (16), depth (8), bound (2),
/// principal variation (1), generation (5).
#[allow(clippy::too_many_arguments)]
fn pack(
    cell: Option<usize>,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    pv: bool,
    generation: u8,
) -> u64 {
    let cell = cell.map_or(0, |c| c as u64 + 1) & 0xffff;
    let score = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let eval = (eval.clamp(-32767, 32767) as i16 as u16) as u64;
    let depth = (depth.clamp(-128, 127) as i8 as u8) as u64;
    let bound = match bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    cell | score << 16
        | eval << 32
        | depth << 48
        | bound << 56
        | (pv as u64) << 58
        | ((generation & GENERATIONS) as u64) << 59
}

/// Generations are counted modulo this plus one.
const GENERATIONS: u8 = 31;

fn unpack(data: u64) -> (TtEntry, u8) {
    let cell = (data & 0xffff) as usize;
    let entry = TtEntry {
        cell: cell.checked_sub(1),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48) as u8 as i8 as i32,
        bound: match data >> 56 & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        pv: data >> 58 & 1 == 1,
    };
    (entry, (data >> 59) as u8)
}

/// A win/loss score relative to the root becomes relative to the node at `ply`, and back.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_MIN {
        score + ply as i32
    } else if score <= -WIN_MIN {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_MIN {
        (score - ply as i32).min(WIN)
    } else if score <= -WIN_MIN {
        (score + ply as i32).max(-WIN)
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one bucket), zeroed.
    pub fn new(bytes: usize) -> TranspositionTable {
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let mut bucket_vec = Vec::with_capacity(buckets);
        bucket_vec.resize_with(buckets, Bucket::default);
        let table = TranspositionTable {
            buckets: bucket_vec,
            mask: buckets - 1,
            generation: 0,
            used: false,
        };
        table.write_zeros();
        table
    }

    /// Writes every slot. The allocator hands out a zeroed table as untouched pages that
    /// all map the kernel's zero page: the search's first store to each then copies it,
    /// and with several threads every copy flushes the other cores' TLBs (an interrupt to
    /// each; 3% of two threads' time on the bench, `docs/parallel-history.md`). Written
    /// once here, the pages are the process's own before the search starts.
    fn write_zeros(&self) {
        for s in self.buckets.iter().flat_map(|b| &b.0) {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET * ENTRY_BYTES
    }

    /// Marks a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATIONS;
        self.used = true;
    }

    pub fn clear(&mut self) {
        if !self.used {
            return;
        }
        self.used = false;
        self.write_zeros();
        self.generation = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.buckets[(key as usize) & self.mask].0
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory; the pointer is in bounds.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                let (mut e, _) = unpack(data);
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        cell: Option<usize>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.store_pv(key, ply, cell, score, eval, depth, bound, false);
    }

    /// `store`, marking whether the node is on a principal variation.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store_pv(
        &self,
        key: u64,
        ply: usize,
        cell: Option<usize>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if data != 0 {
                    // Same position: keep a deeper exact result unless this one is exact too.
                    let (old, _) = unpack(data);
                    if old.depth > depth + 2 && bound != Bound::Exact && old.bound == Bound::Exact {
                        return;
                    }
                    let cell = cell.or(old.cell);
                    let data = pack(
                        cell,
                        score_to_tt(score, ply),
                        eval,
                        depth,
                        bound,
                        pv,
                        generation,
                    );
                    slot.data.store(data, Ordering::Relaxed);
                    slot.check.store(key ^ data, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let (old, gen) = unpack(data);
            let age = (generation.wrapping_sub(gen) & GENERATIONS) as i32;
            let worth = old.depth - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(
            cell,
            score_to_tt(score, ply),
            eval,
            depth,
            bound,
            pv,
            generation,
        );
        bucket[victim].data.store(data, Ordering::Relaxed);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (for `hashfull` reports).
    pub fn hashfull(&self) -> usize {
        let sample = (self.buckets.len() * BUCKET).min(4000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.0)
            .take(sample)
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).1 == self.generation
            })
            .count();
        used * 1000 / sample.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        for (cell, score, eval, depth, bound) in [
            (Some(0usize), -30000, 5, -3, Bound::Upper),
            (Some(1763), 29990, -700, 100, Bound::Exact),
            (None, 0, 0, 0, Bound::Lower),
        ] {
            for pv in [false, true] {
                let (e, g) = unpack(pack(cell, score, eval, depth, bound, pv, 27));
                assert_eq!(
                    e,
                    TtEntry {
                        cell,
                        score,
                        eval,
                        depth,
                        bound,
                        pv
                    }
                );
                assert_eq!(g, 27);
            }
        }
    }

    #[test]
    fn store_probe_and_mate_distance() {
        let tt = TranspositionTable::new(1 << 16);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key, 0).is_none());
        // A win in 3 plies from a node at ply 4 is a win at ply 7 from the root.
        tt.store(key, 4, Some(42), WIN - 7, 10, 5, Bound::Exact);
        let e = tt.probe(key, 4).expect("stored");
        assert_eq!((e.cell, e.score, e.depth), (Some(42), WIN - 7, 5));
        // Reached at ply 2 instead, it is a win at ply 5.
        assert_eq!(tt.probe(key, 2).expect("stored").score, WIN - 5);
        assert!(tt.probe(key ^ 1, 4).is_none());
    }

    #[test]
    fn clear_empties_a_used_table_and_skips_an_unused_one() {
        let mut tt = TranspositionTable::new(1 << 10);
        tt.new_search();
        tt.store(5, 0, Some(3), 100, 0, 4, Bound::Exact);
        tt.clear();
        assert!(tt.probe(5, 0).is_none());
        assert!(!tt.used);
        tt.clear();
        assert!(!tt.used);
        tt.new_search();
        assert!(tt.used);
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1 << 10);
        let key = 77;
        tt.store(key, 0, Some(3), 100, 0, 4, Bound::Exact);
        let slot = &tt.bucket(key)[0];
        // Simulate a torn write: the data word of another entry with the old check word.
        slot.data.store(
            pack(Some(9), -5, 0, 8, Bound::Lower, false, 0),
            Ordering::Relaxed,
        );
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn every_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        for bytes in [1 << 10, 16 << 20] {
            let tt = TranspositionTable::new(bytes);
            for key in [0u64, 1, 12345, u64::MAX] {
                assert_eq!(tt.bucket(key).as_ptr() as usize % 64, 0, "{bytes} {key}");
            }
        }
    }

    #[test]
    fn size_bound_is_kept() {
        for bytes in [1000, 1 << 20, 3 << 20, 100_000_000] {
            let tt = TranspositionTable::new(bytes);
            assert!(tt.bytes() <= bytes.max(64), "{bytes}");
            assert!(
                tt.bytes() * 2 > bytes.max(64),
                "{bytes}: uses at least half"
            );
        }
    }
}
