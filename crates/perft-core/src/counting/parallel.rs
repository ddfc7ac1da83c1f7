//! Parallel perft: rayon workers split the tree, each task on its own board.
//!
//! Every node with more than [`SERIAL_DEPTH`] plies left hands its children
//! to rayon as separate tasks, each on its own copy of the board; below that
//! a task runs serially. A narrow root (a check, a few moves) therefore
//! splits one level deeper by itself, and rayon's work stealing balances
//! subtrees of very different sizes. The counts do not depend on the number
//! of threads: only the order in which subtrees finish does.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use rayon::prelude::*;

use super::compact::{count_child_on, Compact};
use super::hash::{PerftTable, TableKey};
use super::{perft_u64, perft_u64_on, Mode, U64_SAFE_DEPTH};
use crate::board::Board;
use crate::kernel::{outlined, Isa, Job, Kernel};
use crate::movegen::{MoveList, OnIsa, MAX_LEGAL_MOVES};
use crate::types::Move;

/// Subtrees with at most this many plies left run serially in one task
/// (and count in `u64`: see [`U64_SAFE_DEPTH`]); on a pool of one thread
/// without a table, one ply more.
pub const SERIAL_DEPTH: u32 = 3;

/// Everything that shapes a count besides the position and the depth.
#[derive(Clone, Copy)]
pub struct CountOptions<'a> {
    /// Bulk or full counting.
    pub mode: Mode,
    /// A shared table of subtree counts, if hashing.
    pub table: Option<&'a PerftTable>,
    /// When set, no new subtree is started and the count comes back `None`.
    pub stop: Option<&'a AtomicBool>,
    /// The compiled version of the counting code that counts.
    pub kernel: Kernel,
}

impl Default for CountOptions<'_> {
    /// [`CountOptions::new`] of bulk counting.
    fn default() -> Self {
        CountOptions::new(Mode::Bulk)
    }
}

impl<'a> CountOptions<'a> {
    /// Plain counting in `mode` on the [active](Kernel::active) kernel: no
    /// table, never stopped.
    pub fn new(mode: Mode) -> Self {
        CountOptions { mode, table: None, stop: None, kernel: Kernel::active() }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// A move of a hashed node, with the child's key.
struct Child {
    mv: Move,
    key: TableKey,
}

/// The children of a hashed node (filled in place by [`prefetch_children`]:
/// returned by value, the array was copied at every node).
type Children = ArrayVec<Child, MAX_LEGAL_MOVES>;

/// Pushes onto `children` every legal move of `board` (whose key is `key`),
/// with the child's key, and starts loading each child's bucket at
/// `child_depth` into the cache. All keys are computed without making the
/// moves, and all prefetches issued before any probe, so that the cache
/// (and TLB) misses of the probes overlap: each right after its key, or in
/// one burst after all keys where the table
/// [prefers that](PerftTable::prefetches_in_bursts).
#[inline(always)]
fn prefetch_children<K: Isa>(
    board: &mut Board,
    key: TableKey,
    child_depth: u32,
    table: &PerftTable,
    children: &mut Children,
) {
    let keys = table.keys();
    let burst = table.prefetches_in_bursts();
    let mut moves = MoveList::new();
    OnIsa::<K>::new(board).generate_moves(&mut moves);
    for &mv in &moves {
        let child_key = keys.key_after(board, mv, key);
        if !burst {
            table.prefetch(child_key, child_depth);
        }
        children.push(Child { mv, key: child_key });
    }
    if burst {
        for child in children.iter() {
            table.prefetch(child.key, child_depth);
        }
    }
}

/// The count of `child` at `child_depth` if `table` holds it, a hit added
/// to `hits`.
#[inline(always)]
fn probe_child(table: &PerftTable, child: &Child, child_depth: u32, hits: &mut u64) -> Option<u64> {
    let found = table.probe(child.key, child_depth);
    *hits += u64::from(found.is_some());
    found
}

/// Serial hashed perft of a node already known to be missing from the
/// table; `key` is its key in the table's key set. All children's buckets
/// are prefetched first ([`prefetch_children`]); then each is probed in
/// turn ([`probe_child`]), and only those not found are searched (and
/// stored). `counters` gathers (probes, hits). `depth` is at most
/// [`SERIAL_DEPTH`], so the count fits a `u64`.
fn hashed(
    kernel: Kernel,
    board: &mut Board,
    key: TableKey,
    depth: u32,
    mode: Mode,
    table: &PerftTable,
    counters: &mut (u64, u64),
) -> u64 {
    debug_assert!(depth <= U64_SAFE_DEPTH);
    if depth <= 2 {
        // Children at one ply are counted, not stored: a probe costs more.
        return perft_u64(kernel, board, depth, mode);
    }
    kernel.run(Hashed { board, key, depth, mode, table, counters })
}

/// [`hashed`] above two plies, compiled per kernel.
struct Hashed<'b, 't, 'c> {
    board: &'b mut Board,
    key: TableKey,
    depth: u32,
    mode: Mode,
    table: &'t PerftTable,
    counters: &'c mut (u64, u64),
}

impl Job for Hashed<'_, '_, '_> {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let Hashed { board, key, depth, mode, table, counters } = self;
        let child_depth = depth - 1;
        let mut children = Children::new();
        // Each child is probed only when its turn comes, not all before
        // the first is counted: counting the children before it hides the
        // rest of its bucket's load, which in a table of gigabytes is often
        // a TLB miss as well. Hashed perft(8), one thread, an 8 GB table,
        // 10 interleaved runs: median 3.72 s against 3.87 s.
        prefetch_children::<K>(board, key, child_depth, table, &mut children);
        counters.0 += children.len() as u64;
        if mode == Mode::Bulk && child_depth <= 2 {
            // Subtrees of one or two plies are counted from the children
            // made as the counting path makes them, not on the board: no
            // keys, no history, no board to copy from.
            let parent = Compact::new(board);
            let mut nodes = 0;
            for child in &children {
                nodes += probe_child(table, child, child_depth, &mut counters.1).unwrap_or_else(|| {
                    let n = count_child_on::<K>(&parent, child.mv, child_depth);
                    table.store(child.key, child_depth, u128::from(n));
                    n
                });
            }
            return nodes;
        }
        let mut nodes = 0;
        for child in &children {
            nodes += probe_child(table, child, child_depth, &mut counters.1).unwrap_or_else(|| {
                board.make(child.mv);
                let n = if child_depth <= 2 {
                    perft_u64_on::<K>(board, child_depth, mode)
                } else {
                    outlined::<K, _>(Hashed {
                        board: &mut *board,
                        key: child.key,
                        depth: child_depth,
                        mode,
                        table,
                        counters: &mut *counters,
                    })
                };
                board.unmake();
                table.store(child.key, child_depth, u128::from(n));
                n
            });
        }
        nodes
    }
}

/// The count of `board` with a table: looked up first, and counted (then
/// stored) only if missing.
fn count_with_table(
    board: &mut Board,
    depth: u32,
    search: &CountOptions,
    table: &PerftTable,
) -> Option<u128> {
    let key = table.keys().key(board);
    if let Some(nodes) = table.probe(key, depth) {
        table.record(1, 1);
        return Some(u128::from(nodes));
    }
    table.record(1, 0);
    count_missing(board, key, depth, search, table)
}

/// The count of a node known to be missing from `table` (`key` is its key
/// there), stored once known: serially at [`SERIAL_DEPTH`] plies or less,
/// else with each child that the table does not hold as a rayon task on a
/// board of its own.
fn count_missing(
    board: &mut Board,
    key: TableKey,
    depth: u32,
    search: &CountOptions,
    table: &PerftTable,
) -> Option<u128> {
    if search.stopped() {
        return None;
    }
    let nodes = if depth <= SERIAL_DEPTH {
        let mut counters = (0, 0);
        let nodes = hashed(search.kernel, board, key, depth, search.mode, table, &mut counters);
        table.record(counters.0, counters.1);
        u128::from(nodes)
    } else {
        let child_depth = depth - 1;
        let mut children = Children::new();
        prefetch_children::<crate::kernel::Baseline>(board, key, child_depth, table, &mut children);
        // Keep only the children the table does not hold.
        let probes = children.len() as u64;
        let (mut found, mut hits) = (0u128, 0);
        children.retain(|child| match probe_child(table, child, child_depth, &mut hits) {
            Some(n) => {
                found += u128::from(n);
                false
            }
            None => true,
        });
        table.record(probes, hits);
        let board: &Board = board;
        let searched = sum_counts(children.par_iter().map(|c| {
            let mut child = board.fork();
            child.make(c.mv);
            count_missing(&mut child, c.key, child_depth, search, table)
        }))?;
        found + searched
    };
    table.store(key, depth, nodes);
    Some(nodes)
}

/// Perft of `board` to `depth` on the current rayon pool, or `None` if
/// `search.stop` was raised before it finished. Exact at any depth: levels
/// above [`SERIAL_DEPTH`] add their children in `u128`.
pub fn perft_with(board: &Board, depth: u32, search: &CountOptions) -> Option<u128> {
    count_owned(&mut board.fork(), depth, search)
}

/// [`perft_with`] on a board the caller gives up (each task owns its board, so
/// a serial task needs no copy of its own).
fn count_owned(board: &mut Board, depth: u32, search: &CountOptions) -> Option<u128> {
    if search.stopped() {
        return None;
    }
    if let Some(table) = search.table {
        return count_with_table(board, depth, search, table);
    }
    // One worker steals nothing: a task one ply above the others costs a
    // board, a make and a call fewer per child, and still stops soon.
    let serial_depth = if rayon::current_num_threads() == 1 { SERIAL_DEPTH + 1 } else { SERIAL_DEPTH };
    if depth <= serial_depth {
        return Some(u128::from(perft_u64(search.kernel, board, depth, search.mode)));
    }
    let board: &Board = board;
    sum_counts(board.legal_moves().par_iter().map(|&mv| {
        let mut child = board.fork();
        child.make(mv);
        count_owned(&mut child, depth - 1, search)
    }))
}

/// The sum of the subtree counts, or `None` if any was cut short.
fn sum_counts(counts: impl ParallelIterator<Item = Option<u128>>) -> Option<u128> {
    counts.try_fold(|| 0u128, |sum, n| n.map(|n| sum + n)).try_reduce(|| 0, |a, b| Some(a + b))
}

/// Perft of `board` to `depth` on the current rayon pool.
pub fn perft_parallel(board: &Board, depth: u32, mode: Mode) -> u128 {
    perft_with(board, depth, &CountOptions::new(mode)).expect("a search without a stop flag always finishes")
}

/// Perft of each root move on the current rayon pool, in move generation
/// order; a root move whose count was cut short by `search.stop` has
/// `None`. `done` is called as each root move's count is known (from any
/// worker thread, in any order).
pub fn divide_with_progress(
    board: &Board,
    depth: u32,
    search: &CountOptions,
    done: &(dyn Fn(Move, u128) + Sync),
) -> Vec<(Move, Option<u128>)> {
    board
        .legal_moves()
        .par_iter()
        .map(|&mv| {
            let mut child = board.fork();
            child.make(mv);
            let nodes = count_owned(&mut child, depth.saturating_sub(1), search);
            if let Some(nodes) = nodes {
                done(mv, nodes);
            }
            (mv, nodes)
        })
        .collect()
}

/// Perft of each root move (divide) on the current rayon pool, in move
/// generation order. `done` is called as each root move's count is known
/// (from any worker thread, in any order).
pub fn divide_parallel(
    board: &Board,
    depth: u32,
    mode: Mode,
    done: &(dyn Fn(Move, u128) + Sync),
) -> Vec<(Move, u128)> {
    divide_with_progress(board, depth, &CountOptions::new(mode), done)
        .into_iter()
        .map(|(mv, n)| (mv, n.expect("a search without a stop flag always finishes")))
        .collect()
}

/// The most worker threads any pool gets: far more than any machine this
/// runs on has cores, and few enough that a typo (`-t 100000`) cannot
/// bring a shared server down.
pub const MAX_THREADS: usize = 1024;

/// Runs `f` on a rayon pool of `threads` threads, clamped to 1 to
/// [`MAX_THREADS`]; with one thread, on the calling thread itself if
/// [`count_on_this_thread`] made it a pool's worker.
///
/// # Errors
/// If the operating system refuses to start the threads.
pub fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> T + Send,
) -> Result<T, rayon::ThreadPoolBuildError> {
    if threads.clamp(1, MAX_THREADS) == 1 && COUNTS_HERE.get() {
        return Ok(f());
    }
    Ok(thread_pool(threads)?.install(f))
}

thread_local! {
    /// Whether [`count_on_this_thread`] made this thread a pool's worker.
    static COUNTS_HERE: Cell<bool> = const { Cell::new(false) };
}

/// Makes the calling thread the one worker of a pool of one thread that
/// lasts until the program ends, so that [`with_threads`] with one thread,
/// called from it, counts on it instead of on a thread started for the
/// purpose (a thread costs 0.1 ms: a few percent of a short run). Meant for
/// a program's main thread. Its stack must have room for the deepest count:
/// about 20 KiB a ply, 1.3 MiB to [`MAX_DEPTH`](super::MAX_DEPTH) (pool
/// threads get 16 MiB). Calling it again does nothing.
///
/// # Errors
/// If the thread is already a worker of another rayon pool.
pub fn count_on_this_thread() -> Result<(), rayon::ThreadPoolBuildError> {
    if COUNTS_HERE.get() {
        return Ok(());
    }
    let pool = pool_builder(1).use_current_thread().build()?;
    // rayon never lets go of a thread it took over; the pool stays with it.
    std::mem::forget(pool);
    COUNTS_HERE.set(true);
    Ok(())
}

/// A rayon pool of `threads` threads, clamped to 1 to [`MAX_THREADS`].
///
/// # Errors
/// If the operating system refuses to start the threads.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    pool_builder(threads).build()
}

/// The settings of every pool that counts: `threads` threads, clamped to 1
/// to [`MAX_THREADS`], and stacks deep enough for any count (for a global
/// pool, `pool_builder(n).build_global()`).
pub fn pool_builder(threads: usize) -> rayon::ThreadPoolBuilder {
    // 16 MiB of stack (reserved, touched only as used): a count to
    // `MAX_DEPTH` nests one parallel level per ply.
    rayon::ThreadPoolBuilder::new().num_threads(threads.clamp(1, MAX_THREADS)).stack_size(16 << 20)
}
