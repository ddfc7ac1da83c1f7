//! A transposition table of perft subtree counts, shared by all threads
//! without locks.
//!
//! A table knows a position by a [`TableKey`]: two independent 64-bit
//! Zobrist keys, one that picks the bucket (`index`) and one that entries
//! are checked against (`check`). One 64-bit key is not enough for deep
//! counts: a probe can be answered by any entry with the same key, and an
//! entry with the same key always sits in the same bucket, so a false hit
//! costs about (entries at that depth) / 2⁶⁴ per probe, not the bucket's
//! few entries / 2⁶⁴. With 2 · 10⁹ entries (16 GB) that is 10⁻¹⁰ per probe,
//! and perft(11) probes about 4 · 10¹⁰ times: several wrong counts a run.
//!
//! The table has two parts, each of 64-byte buckets that fill one cache
//! line. An eighth of the bytes holds **wide entries**, for subtrees of
//! four plies and more: two 64-bit words written and read with relaxed
//! atomics, `data = count << 8 | depth` and `word = check ^ data`. A reader
//! accepts one only if `word ^ data` equals the check key it looks for and
//! the depth matches, so an entry torn by a concurrent write (one word old,
//! one new) fails the check and is never trusted (Hyatt's lockless scheme).
//! Four make a bucket, and a store takes an empty one, else replaces the
//! shallowest, so deep (expensive) subtrees survive.
//!
//! The rest holds **narrow entries**, for subtrees of one to three plies,
//! most of the counts a deep perft stores, in nine bytes: a 64-bit word
//! with the check key's high 48 bits (the depth folded in) over the
//! count's low 16 bits, and a byte with the count's high 8 (a three-ply
//! count is at most 218³, under 2²⁴). The byte is also folded into the
//! word's 48 tag bits (times an odd constant), so a word read with the byte
//! of another store fails the check, as a torn wide entry does. Seven make
//! a bucket, nearly twice the counts per byte, and a store takes an empty
//! one, else replaces the smallest count (of either depth).
//!
//! Either part has any number of buckets (it fills the memory it is given,
//! not the power of two below it); the bucket is the high half of the
//! product of the bucket count and the index key mixed with the depth, so
//! the counts of one position at different depths land in different
//! buckets (consecutive depths of one position, as a suite line `;D15
//! ;D16` asks, would otherwise fight over the same slots).
//!
//! **Odds of a wrong count.** The index key only says where to look; a
//! false hit needs an entry of another position in the probed bucket whose
//! check key matches too. With keys that behave as random, that is at most
//! 7 · 2⁻⁴⁸ ≈ 2.5 · 10⁻¹⁴ per probe of a narrow entry and 4 · 2⁻⁶⁴ ≈ 2 ·
//! 10⁻¹⁹ per probe of a wide one, whatever the table's size. perft(11)
//! probes about 4 · 10¹⁰ times (nearly all narrow), so the chance that any
//! count in it is wrong is about 10⁻³; perft(10) about 10⁻⁴. `--verify-hash`
//! repeats a run with two other key sets ([`KeySet::Secondary`]): a false
//! hit would have to happen identically under both to go unnoticed.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::board::zobrist::{self, ZobristKeys};
use crate::board::Board;

/// Counts of 2⁵⁶ or more do not fit an entry and are not stored (they are
/// counted again when met again; only nodes near the root of enormous
/// counts have them).
const MAX_COUNT: u128 = 1 << 56;
const ENTRIES_PER_BUCKET: usize = 4;
const NARROW_PER_BUCKET: usize = 7;
/// Subtrees of at most this many plies go to narrow entries.
const NARROW_MAX_DEPTH: u32 = 3;
/// Bits of a narrow entry's word that hold the low bits of its count; the
/// word's other 48 hold the tag.
const NARROW_LOW_BITS: u32 = 16;
/// The low bits of a narrow entry's word: the count's low 16 bits.
const NARROW_LOW_MASK: u64 = (1 << NARROW_LOW_BITS) - 1;
/// The largest count a narrow entry holds: 24 bits, 16 in the word and 8
/// in the entry's byte (a three-ply count is at most 218³, under 2²⁴).
const NARROW_MAX_COUNT: u64 = (1 << (NARROW_LOW_BITS + u8::BITS)) - 1;
/// An odd constant that folds a depth into a key (bucket and narrow check).
const DEPTH_MIX: u64 = 0x9e37_79b9_7f4a_7c15;
/// An odd constant that spreads a narrow entry's high count byte over the
/// tag bits of its word, so a word and a byte of two different stores do
/// not pass for one entry.
const HIGH_BYTE_MIX: u64 = 0xd1b5_4a32_d192_ed03;

/// The two independent 64-bit Zobrist keys a table knows a position by:
/// `index` picks the bucket, `check` is what an entry is compared on. A
/// false hit needs another position that matches on both (see the
/// module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// Picks the position's bucket.
    pub index: u64,
    /// Stored in (wide entries) or in part in (narrow ones) the entry.
    pub check: u64,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// Seven narrow entries (see the module's documentation): entry `i` is
/// `words[i]` and `high[i]`; a word of 0 is empty.
#[derive(Default)]
#[repr(C, align(64))]
struct NarrowBucket {
    words: [AtomicU64; NARROW_PER_BUCKET],
    high: [AtomicU8; NARROW_PER_BUCKET],
}

impl NarrowBucket {
    /// Each entry's (word, high byte), read with relaxed loads.
    #[inline(always)]
    fn entries(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        self.words
            .iter()
            .zip(&self.high)
            .map(|(word, high)| (word.load(Ordering::Relaxed), high.load(Ordering::Relaxed)))
    }
}

/// The part of a narrow entry that says whose count it is: the high 48
/// bits of the check key with the depth folded in (1 to 3).
#[inline(always)]
fn narrow_tag(key: TableKey, depth: u32) -> u64 {
    (key.check ^ u64::from(depth).wrapping_mul(DEPTH_MIX)) & !NARROW_LOW_MASK
}

/// What a narrow entry's high count byte is folded into its tag bits with.
#[inline(always)]
fn high_byte_spread(high: u8) -> u64 {
    u64::from(high).wrapping_mul(HIGH_BYTE_MIX) & !NARROW_LOW_MASK
}

/// The narrow entry (word, high byte) of `count` (under 2²⁴) for `tag`.
#[inline(always)]
fn narrow_entry(tag: u64, count: u64) -> (u64, u8) {
    let high = (count >> NARROW_LOW_BITS) as u8;
    (tag ^ high_byte_spread(high) | count & NARROW_LOW_MASK, high)
}

/// Whether the narrow entry (`word`, `high`) holds the count of `tag`. An
/// empty entry holds nothing, even for the one tag in 2⁴⁸ that is 0; a word
/// and a byte of two stores with different high bytes hold nothing either.
#[inline(always)]
fn narrow_holds(word: u64, high: u8, tag: u64) -> bool {
    (word ^ high_byte_spread(high)) & !NARROW_LOW_MASK == tag && word != 0
}

/// The count a narrow entry holds (0 for an empty one).
#[inline(always)]
fn narrow_count(word: u64, high: u8) -> u64 {
    u64::from(high) << NARROW_LOW_BITS | word & NARROW_LOW_MASK
}

// `bytes` and the sizing count both kinds of bucket as 64 bytes.
const _: () = assert!(std::mem::size_of::<Bucket>() == std::mem::size_of::<NarrowBucket>());

/// Allocates `count` (at least one) zeroed buckets of type `B`, zeroing
/// them in chunks of [`SETUP_CHUNK_BYTES`] on the current rayon pool: each
/// worker faults in its share of the pages before counting starts.
fn zeroed_buckets<B: Send>(count: usize) -> Result<Vec<B>, ()> {
    let bucket_bytes = std::mem::size_of::<B>();
    let mut table: Vec<B> = Vec::new();
    table.try_reserve_exact(count).map_err(|_| ())?;
    advise_huge_pages(table.as_ptr().cast(), count * bucket_bytes);
    let chunk = (SETUP_CHUNK_BYTES / bucket_bytes).max(1);
    table.spare_capacity_mut()[..count].par_chunks_mut(chunk).for_each(|part| {
        // SAFETY: `part` is memory the vector owns and nothing else sees
        // yet; the callers' buckets are atomics, valid when all zero.
        // Zeroing in parallel buys the set-up time: one thread faulting in
        // every page of a large table took 18 s for 8 GB (issue 33).
        unsafe { std::ptr::write_bytes(part.as_mut_ptr(), 0, part.len()) };
    });
    // SAFETY: the first `count` buckets were all written just above.
    unsafe { table.set_len(count) };
    Ok(table)
}

/// Which Zobrist keys a table knows positions by (each a [`TableKey`]:
/// two independent sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KeySet {
    /// Indexed by the keys every board maintains incrementally, checked by
    /// [`zobrist::SECONDARY`].
    #[default]
    Primary,
    /// Indexed by [`zobrist::TERTIARY`], checked by [`zobrist::QUATERNARY`]:
    /// nothing in common with [`KeySet::Primary`] (for `--verify-hash`).
    Secondary,
}

impl KeySet {
    /// The key of `board` in this set (the check key, and for
    /// [`KeySet::Secondary`] the index key, computed from scratch).
    #[inline]
    pub fn key(self, board: &Board) -> TableKey {
        let (index, check) = self.sets();
        let index = match self {
            KeySet::Primary => board.key(),
            KeySet::Secondary => board.key_with(index),
        };
        TableKey { index, check: board.key_with(check) }
    }

    /// The key in this set after the legal `mv`, given the position's `key`
    /// in this set: without making the move, except where only that tells
    /// whether en passant is then legal ([`Board::keys_after_any`]).
    #[inline(always)]
    pub fn key_after(self, board: &mut Board, mv: crate::types::Move, key: TableKey) -> TableKey {
        let (index, check) = self.sets();
        let [index, check] = board.keys_after_any(mv, [index, check], [key.index, key.check]);
        TableKey { index, check }
    }

    /// The (index, check) key sets.
    #[inline(always)]
    fn sets(self) -> (&'static ZobristKeys, &'static ZobristKeys) {
        match self {
            KeySet::Primary => (&zobrist::PRIMARY, &zobrist::SECONDARY),
            KeySet::Secondary => (&zobrist::TERTIARY, &zobrist::QUATERNARY),
        }
    }
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Less than one bucket (64 bytes) asked for.
    #[error("hash size must be at least 1 MB")]
    TooSmall,
    /// The memory could not be allocated.
    #[error("cannot allocate {0} MB for the hash table")]
    OutOfMemory(u64),
}

/// Asks the kernel to back the 2 MiB-aligned part of `len` bytes at `start`
/// with huge pages, before they are first touched. Every probe lands on a
/// random page, so with 4 KiB pages nearly every probe and prefetch also
/// walks the page tables. Advice only: nothing happens where the kernel
/// has transparent huge pages off, or off other than on request.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize).saturating_add(len) & !(HUGE_PAGE - 1);
    if end > first {
        // SAFETY: the range lies inside an allocation the table owns, and
        // MADV_HUGEPAGE changes neither its contents nor its validity (the
        // call's result is ignored: without it, the pages are just small).
        // Measured on `run 8 --hash 256 -t 2`: see README, "Deep counts".
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

/// Gives the memory of `buckets` past its first `keep` back to the system
/// and shortens it to them. The capacity stays reserved, so the vector
/// frees it all when dropped; elsewhere than on Linux the pages just stay.
fn keep_first_buckets<B>(buckets: &mut Vec<B>, keep: usize) {
    if keep >= buckets.len() {
        return;
    }
    buckets.truncate(keep);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buckets.as_ptr() as usize;
        let first = (start + keep * std::mem::size_of::<B>()).next_multiple_of(PAGE);
        let end = (start + buckets.capacity() * std::mem::size_of::<B>()) & !(PAGE - 1);
        if end > first {
            // SAFETY: the range lies in the vector's spare capacity, which
            // nothing reads before writing it; MADV_DONTNEED makes its
            // pages read as zero again and frees them now, not at drop (a
            // `shrink_to_fit` would copy what is kept: the buckets are
            // over-aligned, so the allocator cannot shrink in place).
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_DONTNEED);
            }
        }
    }
}

/// Eighths of a table's buckets that hold wide entries.
const WIDE_EIGHTHS: usize = 1;

/// A table of `buckets` buckets (at least two) as (all, wide, narrow):
/// [`WIDE_EIGHTHS`] eighths of them (at least one) wide, the rest narrow.
fn parts(buckets: usize) -> (usize, usize, usize) {
    let count = buckets.max(2);
    let wide = ((count as u128 * WIDE_EIGHTHS as u128 / 8) as usize).clamp(1, count - 1);
    (count, wide, count - wide)
}

/// The shared table.
pub struct PerftTable {
    buckets: Vec<Bucket>,
    narrow: Vec<NarrowBucket>,
    keys: KeySet,
    /// Probe and hit counts, one pair per worker thread (see
    /// [`Self::record`]).
    tallies: Box<[Tally]>,
    setup_seconds: f64,
}

/// One worker's probes and hits, on cache lines of their own: a pair
/// shared by all threads had every task's update wait for the line to
/// come back from another core (half of `count_missing`'s time in a
/// profile of perft(9) on two threads).
#[derive(Default)]
#[repr(C, align(128))]
struct Tally {
    probes: AtomicU64,
    hits: AtomicU64,
}

/// Threads beyond this many share tallies (still exact: they are atomics).
const TALLIES: usize = 64;

/// The size from which a table [prefetches in bursts](PerftTable::prefetches_in_bursts).
const BURST_PREFETCH_BYTES: u64 = 2 << 30;

/// Bytes zeroed by one set-up task: one huge page, so that a task's
/// overhead is nothing next to its faults, and the workers end together
/// (with 16 MiB tasks one of two threads often waited out the other's last
/// task, in each part of the table).
const SETUP_CHUNK_BYTES: usize = 2 << 20;

impl PerftTable {
    /// A table of at most `megabytes` MiB (whole 64-byte buckets, an eighth
    /// of them wide, the rest narrow), indexed by `keys`. The memory is
    /// zeroed in parallel on the current rayon pool, so that the pages are
    /// in place before counting starts, each worker faulting in its share
    /// ([`Self::setup_seconds`]).
    ///
    /// # Errors
    /// [`TableError`] if the size is zero or the memory cannot be had.
    pub fn new(megabytes: u64, keys: KeySet) -> Result<Self, TableError> {
        let bytes = megabytes.checked_mul(1 << 20).ok_or(TableError::OutOfMemory(megabytes))?;
        let wanted = bytes / std::mem::size_of::<Bucket>() as u64;
        if wanted == 0 {
            return Err(TableError::TooSmall);
        }
        let count = usize::try_from(wanted).map_err(|_| TableError::OutOfMemory(megabytes))?;
        Self::with_buckets(count, keys).map_err(|_| TableError::OutOfMemory(megabytes))
    }

    /// A table of `buckets` 64-byte buckets (at least two): an eighth of
    /// them (at least one) of four wide entries, the rest of seven narrow
    /// ones. Tiny tables make replacement happen all the time, which is
    /// what tests want. Any number of buckets works: a key picks its bucket
    /// by the high bits of a multiplication, not by a mask.
    ///
    /// # Errors
    /// [`TableError::OutOfMemory`] if the memory cannot be had.
    pub fn with_buckets(buckets: usize, keys: KeySet) -> Result<Self, TableError> {
        let started = std::time::Instant::now();
        let (count, wide, narrow) = parts(buckets);
        let megabytes = (count.saturating_mul(std::mem::size_of::<Bucket>())).div_ceil(1 << 20) as u64;
        let out_of_memory = |()| TableError::OutOfMemory(megabytes);
        // Both parts at once: no worker waits for the first to finish.
        let (buckets, narrow) =
            rayon::join(|| zeroed_buckets::<Bucket>(wide), || zeroed_buckets::<NarrowBucket>(narrow));
        let (buckets, narrow) = (buckets.map_err(out_of_memory)?, narrow.map_err(out_of_memory)?);
        Ok(PerftTable {
            buckets,
            narrow,
            keys,
            tallies: (0..TALLIES).map(|_| Tally::default()).collect(),
            setup_seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Keeps the first `megabytes` MiB of a table nothing has been stored
    /// in yet (both parts cut in proportion, as [`Self::with_buckets`]
    /// shares them) and frees the rest: for a table that turned out to
    /// reach slow memory ([`Self::random_read_nanos`]). Stored counts would
    /// no longer sit where their keys lead, and a narrow entry's bucket is
    /// part of its key check: cut only before counting.
    pub fn keep_first(&mut self, megabytes: u64) {
        let buckets = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>() as u64;
        let (count, wide, narrow) = parts(usize::try_from(buckets).unwrap_or(usize::MAX));
        if count >= self.buckets() {
            return;
        }
        keep_first_buckets(&mut self.buckets, wide);
        keep_first_buckets(&mut self.narrow, narrow);
    }

    /// Nanoseconds per read of `reads` buckets picked at random among the
    /// first `bytes` of the table's narrow part (all of it, if smaller),
    /// issued independently of each other as the counting's prefetched
    /// probes are: what the memory behind that much of the table costs per
    /// probe, misses of the caches and the TLB and any paging by the
    /// machine included. `seed` picks the buckets (use a new one for each
    /// measurement, or the caches serve the last one's).
    pub fn random_read_nanos(&self, bytes: u64, reads: usize, seed: u64) -> f64 {
        let buckets = (bytes / 64).clamp(1, self.narrow.len() as u64);
        let mut state = seed | 1;
        let mut sum = 0u64;
        let started = std::time::Instant::now();
        for _ in 0..reads {
            // xorshift64: any spread will do.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let index = ((u128::from(state) * u128::from(buckets)) >> 64) as usize;
            sum = sum.wrapping_add(self.narrow[index].words[0].load(Ordering::Relaxed));
        }
        std::hint::black_box(sum);
        started.elapsed().as_nanos() as f64 / reads.max(1) as f64
    }

    /// Whether a node's prefetches are best issued in one burst, after all
    /// its children's keys are known, rather than each right after its
    /// key: so in a table of 2 GiB or more.
    ///
    /// There nearly every prefetch misses the TLB, and in a virtual machine
    /// it holds up the instructions behind it for the whole (nested) page
    /// walk; back to back, the walks overlap. In a smaller table the walks
    /// are short and the second pass over the children costs more than it
    /// saves. Hashed perft(8), one thread: an 8 GB table, median 3.53 s
    /// against 3.72 s; the 55 MB table of `--hash auto`, 3.47 s against
    /// 3.28 s. perft(9) on two threads: 11 GB, 19.8 s against 21.5 s;
    /// 1.2 GB, 18.5 s either way.
    #[inline(always)]
    pub fn prefetches_in_bursts(&self) -> bool {
        self.bytes() >= BURST_PREFETCH_BYTES
    }

    /// Seconds spent allocating and zeroing the table, and preparing it
    /// otherwise ([`Self::add_setup_seconds`]).
    pub fn setup_seconds(&self) -> f64 {
        self.setup_seconds
    }

    /// Counts `seconds` spent preparing the table after it was made (such
    /// as measuring its memory) as set-up.
    pub fn add_setup_seconds(&mut self, seconds: f64) {
        self.setup_seconds += seconds;
    }

    /// The key set the table is indexed by.
    pub fn keys(&self) -> KeySet {
        self.keys
    }

    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        (self.buckets() * std::mem::size_of::<Bucket>()) as u64
    }

    /// Number of 64-byte buckets, wide and narrow.
    pub fn buckets(&self) -> usize {
        self.buckets.len() + self.narrow.len()
    }

    /// Number of entries, wide and narrow.
    pub fn entries(&self) -> u64 {
        (self.buckets.len() * ENTRIES_PER_BUCKET + self.narrow.len() * NARROW_PER_BUCKET) as u64
    }

    /// The wide bucket of `key` at `depth`.
    #[inline]
    fn bucket(&self, key: TableKey, depth: u32) -> &Bucket {
        &self.buckets[bucket_index(key.index, depth, self.buckets.len())]
    }

    /// The narrow bucket of `key` at `depth`.
    #[inline]
    fn narrow_bucket(&self, key: TableKey, depth: u32) -> &NarrowBucket {
        &self.narrow[bucket_index(key.index, depth, self.narrow.len())]
    }

    /// Starts loading the bucket of `key` at `depth` into the cache, so a
    /// probe soon after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: TableKey, depth: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const i8 = if depth <= NARROW_MAX_DEPTH {
                (self.narrow_bucket(key, depth) as *const NarrowBucket).cast()
            } else {
                (self.bucket(key, depth) as *const Bucket).cast()
            };
            // SAFETY: a prefetch is a hint: it never faults and changes no
            // memory, and `bucket` points into our own table anyway. Issuing
            // it for all children before probing any lets their cache misses
            // overlap. Measured: hashed perft(8) of the start position 5%
            // faster (5.7 s instead of 6.0 s on two threads).
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, depth);
    }

    /// The stored count of the subtree `depth` plies below the position with
    /// `key`, if present and intact.
    #[inline(always)]
    pub fn probe(&self, key: TableKey, depth: u32) -> Option<u64> {
        if depth <= NARROW_MAX_DEPTH {
            let tag = narrow_tag(key, depth);
            // Every entry read and compared, no early exit: where a hit
            // stands in the bucket is a branch no predictor learns.
            let mut found = u64::MAX;
            for (word, high) in self.narrow_bucket(key, depth).entries() {
                if narrow_holds(word, high, tag) {
                    found = narrow_count(word, high);
                }
            }
            return (found != u64::MAX).then_some(found);
        }
        for entry in &self.bucket(key, depth).entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data == key.check && data & 0xff == u64::from(depth) && data != 0 {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Stores a subtree count (ignored for depth 0, for counts of 2⁵⁶ or
    /// more, and for depths over 255).
    #[inline]
    pub fn store(&self, key: TableKey, depth: u32, count: u128) {
        if count >= MAX_COUNT || depth == 0 || depth > 255 {
            return;
        }
        if depth <= NARROW_MAX_DEPTH {
            // Every real count of up to three plies fits (at most 218³).
            if count <= u128::from(NARROW_MAX_COUNT) {
                self.store_narrow(key, depth, count as u64);
            }
            return;
        }
        let data = (count as u64) << 8 | u64::from(depth);
        let bucket = self.bucket(key, depth);
        let mut victim = &bucket.entries[0];
        let mut victim_depth = u64::MAX;
        for entry in &bucket.entries {
            let old = entry.data.load(Ordering::Relaxed);
            if old == 0 {
                victim = entry;
                break;
            }
            if entry.check.load(Ordering::Relaxed) ^ old == key.check && old & 0xff == u64::from(depth) {
                return;
            }
            if old & 0xff < victim_depth {
                victim_depth = old & 0xff;
                victim = entry;
            }
        }
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key.check ^ data, Ordering::Relaxed);
    }

    /// [`Self::store`] of a count that fits a narrow entry: into an empty
    /// entry, else over the smallest count (the cheapest to count again).
    #[inline]
    fn store_narrow(&self, key: TableKey, depth: u32, count: u64) {
        let tag = narrow_tag(key, depth);
        let bucket = self.narrow_bucket(key, depth);
        // Every entry read, no early exit (as in `probe`): an empty one
        // costs 0, a full one its count, and the first cheapest is the
        // victim; buckets fill from the front, so the first empty one comes
        // after every full one.
        let (mut victim, mut victim_cost, mut present) = (0, u64::MAX, false);
        for (i, (word, high)) in bucket.entries().enumerate() {
            present |= narrow_holds(word, high, tag);
            let cost = narrow_count(word, high);
            if cost < victim_cost {
                (victim, victim_cost) = (i, cost);
            }
        }
        if !present {
            let (word, high) = narrow_entry(tag, count);
            bucket.high[victim].store(high, Ordering::Relaxed);
            bucket.words[victim].store(word, Ordering::Relaxed);
        }
    }

    /// Adds a task's probe and hit counts to its thread's tally (once per
    /// task, not per probe).
    pub fn record(&self, probes: u64, hits: u64) {
        let tally = &self.tallies[rayon::current_thread_index().unwrap_or(0) % TALLIES];
        tally.probes.fetch_add(probes, Ordering::Relaxed);
        tally.hits.fetch_add(hits, Ordering::Relaxed);
    }

    /// Probes and hits so far.
    pub fn probes_and_hits(&self) -> (u64, u64) {
        self.tallies.iter().fold((0, 0), |(probes, hits), tally| {
            (probes + tally.probes.load(Ordering::Relaxed), hits + tally.hits.load(Ordering::Relaxed))
        })
    }

    /// Fraction of entries in use, estimated from the first buckets of
    /// each part, weighted by the entries each part has.
    pub fn fill(&self) -> f64 {
        const SAMPLE: usize = 4096;
        // The fraction of a part's first buckets in use, times its entries.
        let used = |words: &mut dyn Iterator<Item = &AtomicU64>, sampled: usize, entries: usize| {
            let used = words.filter(|word| word.load(Ordering::Relaxed) != 0).count();
            used as f64 / sampled as f64 * entries as f64
        };
        let wide = &self.buckets[..self.buckets.len().min(SAMPLE)];
        let narrow = &self.narrow[..self.narrow.len().min(SAMPLE)];
        let used_wide = used(
            &mut wide.iter().flat_map(|b| &b.entries).map(|e| &e.data),
            wide.len() * ENTRIES_PER_BUCKET,
            self.buckets.len() * ENTRIES_PER_BUCKET,
        );
        let used_narrow = used(
            &mut narrow.iter().flat_map(|b| &b.words),
            narrow.len() * NARROW_PER_BUCKET,
            self.narrow.len() * NARROW_PER_BUCKET,
        );
        (used_wide + used_narrow) / self.entries() as f64
    }
}

/// The bucket of `key` at `depth` among `buckets`: an odd multiple of the
/// depth moves each depth of a position to its own bucket, and the high
/// half of the mixed key times the bucket count picks it (any count, no
/// mask).
#[inline]
fn bucket_index(key: u64, depth: u32, buckets: usize) -> usize {
    let mixed = key ^ u64::from(depth).wrapping_mul(DEPTH_MIX);
    ((u128::from(mixed) * buckets as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key whose check half is a fixed scramble of its index half.
    fn key(index: u64) -> TableKey {
        TableKey { index, check: index.wrapping_mul(0xd6e8_feb8_6659_fd93).rotate_left(29) ^ 0x5555 }
    }

    /// Keys spread over all 64 bits (the high ones pick the bucket) that
    /// land in the bucket `home` of a part of `buckets` buckets at `depth`.
    fn keys_in_bucket(home: usize, depth: u32, buckets: usize) -> impl Iterator<Item = TableKey> {
        (1u64..)
            .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .filter(move |&k| bucket_index(k, depth, buckets) == home)
            .map(key)
    }

    #[test]
    fn store_probe_replace() {
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        assert_eq!(table.bytes(), 1 << 20);
        assert_eq!(table.buckets(), 1 << 14);
        assert_eq!(table.entries(), (1 << 11) * 4 + 7 * (1 << 11) * 7);
        assert_eq!(table.probe(key(42), 4), None);
        table.store(key(42), 4, 1234);
        assert_eq!(table.probe(key(42), 4), Some(1234));
        assert_eq!(table.probe(key(42), 5), None, "depth is part of the match");
        assert_eq!(table.probe(key(42 ^ 1 << 40), 4), None);
        table.store(key(42), 3, 99);
        assert_eq!(table.probe(key(42), 3), Some(99), "three plies are narrow");
        assert_eq!(table.probe(key(42), 4), Some(1234), "four plies are wide");
        // Five wide entries in one bucket: the shallowest is replaced.
        let wide = table.buckets.len();
        let home = bucket_index(7, 6, wide);
        let [d4, d8, d7, d5] = [4u32, 8, 7, 5].map(|depth| keys_in_bucket(home, depth, wide).next().unwrap());
        table.store(key(7), 6, 100);
        for (i, (key, depth)) in [(d4, 4), (d8, 8), (d7, 7)].into_iter().enumerate() {
            table.store(key, depth, 101 + i as u128);
        }
        table.store(d5, 5, 999);
        assert_eq!(table.probe(d4, 4), None, "depth 4 was the shallowest");
        assert_eq!(table.probe(d5, 5), Some(999));
        assert_eq!(table.probe(key(7), 6), Some(100));
        assert_eq!(table.probe(d8, 8), Some(102));
        assert_eq!(table.probe(d7, 7), Some(103));
        // Counts too large to pack are not stored; the largest that fits is.
        table.store(key(99), 4, MAX_COUNT);
        assert_eq!(table.probe(key(99), 4), None);
        table.store(key(99), 4, u128::from(u64::MAX));
        assert_eq!(table.probe(key(99), 4), None);
        table.store(key(99), 4, MAX_COUNT - 1);
        assert_eq!(table.probe(key(99), 4), Some((MAX_COUNT - 1) as u64));
        assert!(PerftTable::new(0, KeySet::Primary).is_err());
    }

    #[test]
    fn a_table_cut_before_use_keeps_its_first_buckets_and_works() {
        let mut table = PerftTable::new(8, KeySet::Primary).unwrap();
        assert!(table.random_read_nanos(1 << 20, 1000, 1) > 0.0);
        table.keep_first(2);
        assert_eq!((table.bytes(), table.buckets.len(), table.narrow.len()), (2 << 20, 1 << 12, 7 << 12));
        // Cutting to more than there is changes nothing.
        table.keep_first(4);
        assert_eq!(table.bytes(), 2 << 20);
        assert_eq!(table.fill(), 0.0, "the kept part reads as empty");
        for i in 0..10_000u64 {
            let k = key(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            table.store(k, 2, u128::from(i % 1000));
            table.store(k, 6, u128::from(i % 1000));
            assert_eq!(table.probe(k, 2), Some(i % 1000));
            assert_eq!(table.probe(k, 6), Some(i % 1000));
        }
        // Reads over more than the table are reads over all of it.
        assert!(table.random_read_nanos(u64::MAX, 1000, 2).is_finite());
    }

    #[test]
    fn tallies_from_every_thread_add_up() {
        let table = PerftTable::with_buckets(2, KeySet::Primary).unwrap();
        table.record(3, 1);
        // More workers than tallies, so some share one.
        let pool = crate::counting::thread_pool(TALLIES + 3).unwrap();
        pool.install(|| (1..=1000u64).into_par_iter().for_each(|i| table.record(i, i % 2)));
        assert_eq!(table.probes_and_hits(), (3 + 500_500, 1 + 500));
    }

    #[test]
    fn narrow_entries_store_probe_replace() {
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        table.store(key(42), 0, 1);
        assert_eq!(table.probe(key(42), 0), None, "depth 0 is never stored");
        table.store(key(42), 2, 400);
        table.store(key(42), 1, 20);
        assert_eq!(table.probe(key(42), 2), Some(400));
        assert_eq!(table.probe(key(42), 1), Some(20), "each depth has its entry");
        assert_eq!(table.probe(key(43), 2), None);
        // The largest two-ply count there is fits; larger ones are not
        // stored (nor mistaken for others).
        table.store(key(46), 2, 218 * 218);
        assert_eq!(table.probe(key(46), 2), Some(218 * 218));
        assert_eq!(table.probe(key(46), 1), None, "a two-ply count is no one-ply one");
        table.store(key(46), 3, 218 * 218 * 218);
        assert_eq!(table.probe(key(46), 3), Some(218 * 218 * 218), "so does a three-ply one");
        assert_eq!(table.probe(key(46), 2), Some(218 * 218));
        table.store(key(47), 3, 1 << 24);
        assert_eq!(table.probe(key(47), 3), None);
        table.store(key(47), 3, (1 << 24) - 1);
        assert_eq!(table.probe(key(47), 3), Some((1 << 24) - 1));
        // Every high byte round-trips, 0 and 255 included.
        for (i, count) in [0u64, 1, 0xffff, 0x1_0000, 0x12_3456, 0xff_0000, 0xfe_ffff].into_iter().enumerate()
        {
            table.store(key(1000 + i as u64), 3, u128::from(count));
            assert_eq!(table.probe(key(1000 + i as u64), 3), Some(count));
        }
        // Eight entries in one bucket: the smallest count is replaced.
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        let narrow = table.narrow.len();
        let keys: Vec<TableKey> = keys_in_bucket(bucket_index(7, 2, narrow), 2, narrow).take(7).collect();
        table.store(key(7), 2, 500);
        for (i, &k) in keys[..6].iter().enumerate() {
            table.store(k, 2, 600 + i as u128 - u128::from(i == 3) * 200);
        }
        table.store(keys[6], 2, 700);
        assert_eq!(table.probe(keys[3], 2), None, "403 was the smallest count");
        assert_eq!(table.probe(keys[6], 2), Some(700));
        assert_eq!(table.probe(key(7), 2), Some(500));
        for (i, &k) in keys[..6].iter().enumerate().filter(|&(i, _)| i != 3) {
            assert_eq!(table.probe(k, 2), Some(600 + i as u64));
        }
    }

    #[test]
    fn narrow_replacement_weighs_counts_not_depths() {
        // Two- and three-ply counts share the narrow buckets; a store
        // replaces the smallest count of either depth.
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        let narrow = table.narrow.len();
        let home = bucket_index(7, 2, narrow);
        let threes: Vec<TableKey> = keys_in_bucket(home, 3, narrow).take(4).collect();
        let twos: Vec<TableKey> = keys_in_bucket(home, 2, narrow).take(4).collect();
        for (i, &k) in threes[..3].iter().enumerate() {
            table.store(k, 3, 900_000 + i as u128);
        }
        for (i, &k) in twos[..3].iter().enumerate() {
            table.store(k, 2, 30 + i as u128);
        }
        table.store(twos[3], 2, 9_500);
        // Full: the next store takes the place of the two-ply count 30.
        table.store(threes[3], 3, 2_000_000);
        assert_eq!(table.probe(twos[0], 2), None, "30 was the smallest count");
        assert_eq!(table.probe(threes[3], 3), Some(2_000_000));
        assert_eq!(table.probe(twos[1], 2), Some(31));
        assert_eq!(table.probe(twos[3], 2), Some(9_500));
        for (i, &k) in threes[..3].iter().enumerate() {
            assert_eq!(table.probe(k, 3), Some(900_000 + i as u64));
        }
    }

    #[test]
    fn positions_that_share_an_index_key_are_told_apart_by_the_check_key() {
        // Two positions whose index keys are equal (a 64-bit Zobrist
        // collision, which a deep count meets several times) land in one
        // bucket; the check key tells them apart. Narrow entries compare its
        // high 48 bits, wide entries all 64.
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        let stored = TableKey { index: 0x0123_4567_89ab_cdef, check: 0xfedc_ba98_7654_3210 };
        for depth in [1, 2, 3, 4, 6] {
            table.store(stored, depth, 77);
            assert_eq!(table.probe(stored, depth), Some(77));
            for bit in 0..64 {
                let other = TableKey { check: stored.check ^ 1 << bit, ..stored };
                let found = table.probe(other, depth);
                if depth <= NARROW_MAX_DEPTH && bit < NARROW_LOW_BITS {
                    assert_eq!(found, Some(77), "depth {depth}, bit {bit}: below what is compared");
                } else {
                    assert_eq!(found, None, "depth {depth}, bit {bit}");
                }
            }
            let other_index = TableKey { index: stored.index ^ 1 << 63, ..stored };
            assert_eq!(table.probe(other_index, depth), None, "depth {depth}: another bucket");
        }
        // An empty narrow entry is no count of the one tag that is 0.
        let zero = TableKey { index: 5, check: 2u64.wrapping_mul(DEPTH_MIX) };
        assert_eq!(narrow_tag(zero, 2), 0);
        assert_eq!(table.probe(zero, 2), None);
    }

    #[test]
    fn the_key_sets_share_no_keys() {
        let board = Board::startpos();
        let (primary, secondary) = (KeySet::Primary.key(&board), KeySet::Secondary.key(&board));
        let all = [primary.index, primary.check, secondary.index, secondary.check];
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b != a), "{all:x?}");
        }
        assert_eq!(primary.index, board.key());
        // Every move of the start position and of positions where en
        // passant follows a double push (e4-e5 beside d7-d5) or does not
        // (the capturer would leave its king to a rook).
        for fen in ["4k3/3p1p2/8/4P3/8/8/8/4K3 b - - 0 1", "7k/1p6/8/K1P4r/8/8/8/8 b - - 0 1"] {
            for mut board in [Board::startpos(), Board::from_fen(fen).unwrap()] {
                for mv in board.legal_moves() {
                    let mut child = board.clone();
                    child.make(mv);
                    if ["d7d5", "b7b5"].contains(&mv.to_string().as_str()) {
                        assert_eq!(child.en_passant().is_some(), mv.to_string() == "d7d5", "{fen}: {mv}");
                    }
                    for set in [KeySet::Primary, KeySet::Secondary] {
                        let key = set.key(&board);
                        assert_eq!(set.key_after(&mut board, mv, key), set.key(&child), "{fen}: {mv}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_narrow_word_and_a_high_byte_of_different_stores_are_rejected() {
        // Every two high bytes differ in the tag bits they fold in, so a
        // word read with another store's high byte never matches its tag.
        for a in 0..=255u8 {
            for b in 0..a {
                assert_ne!(high_byte_spread(a), high_byte_spread(b), "{a} {b}");
            }
        }
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        table.store(key(5), 3, 0x12_3456);
        let bucket = table.narrow_bucket(key(5), 3);
        let slot = bucket.words.iter().position(|w| w.load(Ordering::Relaxed) != 0).unwrap();
        bucket.high[slot].store(0x13, Ordering::Relaxed);
        assert_eq!(table.probe(key(5), 3), None);
        bucket.high[slot].store(0x12, Ordering::Relaxed);
        assert_eq!(table.probe(key(5), 3), Some(0x12_3456));
    }

    #[test]
    fn torn_entries_are_rejected() {
        let table = PerftTable::new(1, KeySet::Primary).unwrap();
        table.store(key(5), 4, 10);
        // Simulate a torn write: new data, old check word.
        let entry = &table.bucket(key(5), 4).entries[0];
        entry.data.store(11 << 8 | 4, Ordering::Relaxed);
        assert_eq!(table.probe(key(5), 4), None);
    }
}
