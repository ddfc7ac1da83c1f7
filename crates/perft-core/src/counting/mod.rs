//! Perft: counting the leaves of the legal move tree, serially or in
//! parallel.

mod compact;
pub mod hash;
mod parallel;
pub mod stats;

pub use hash::{KeySet, PerftTable};
pub use parallel::{
    count_on_this_thread, divide_parallel, divide_with_progress, perft_parallel, perft_with, pool_builder,
    thread_pool, with_threads, CountOptions, MAX_THREADS, SERIAL_DEPTH,
};
pub use stats::{perft_stats, perft_stats_on, DepthStats};

use crate::board::Board;
use crate::kernel::{outlined, Isa, Job, Kernel};
use crate::movegen::{MoveList, OnIsa, MAX_LEGAL_MOVES};
use crate::types::Move;

/// The deepest count accepted anywhere (suites, the command line, UCI):
/// far beyond anything that can finish, and shallow enough that the
/// recursion always fits the stack.
pub const MAX_DEPTH: u32 = 64;

/// Subtrees at most this many plies deep are counted in `u64`, deeper ones
/// in `u128`. No accepted position has more than [`MAX_LEGAL_MOVES`] (682)
/// legal moves, so a subtree of `d` plies has at most 682^d leaves, and
/// 682^6 ≈ 1.0 · 10¹⁷ is far below 2⁶⁴ ≈ 1.8 · 10¹⁹ (682^7 is not). Counts
/// above this depth can pass 2⁶⁴: perft(14) of the start position is
/// 61,885,021,521,585,529,237.
pub const U64_SAFE_DEPTH: u32 = 6;
const _: () = assert!((MAX_LEGAL_MOVES as u128).pow(U64_SAFE_DEPTH) < u64::MAX as u128);
const _: () = assert!(parallel::SERIAL_DEPTH < U64_SAFE_DEPTH);

/// A rough estimate of perft(`depth`) without hashing, and the seconds
/// one thread took to make it: counts depth 1, 2, ... until a count
/// reaches a million nodes, then extrapolates with the average growth of
/// the last two plies (which smooths the odd/even swing of check-heavy
/// positions). Exact when `depth` itself is reached.
pub fn estimate_nodes(board: &Board, depth: u32) -> Estimate {
    let start = std::time::Instant::now();
    let kernel = Kernel::active();
    let mut board = board.fork();
    let mut counts = vec![1u128];
    let mut k = 0;
    while k < depth && counts[k as usize] < 1_000_000 {
        k += 1;
        counts.push(perft_on(kernel, &mut board, k, Mode::Bulk));
    }
    let counted: u128 = counts.iter().sum();
    let seconds = start.elapsed().as_secs_f64();
    let last = counts[k as usize] as f64;
    if k == depth || last == 0.0 {
        return Estimate { nodes: last, counted, seconds };
    }
    let growth = if k >= 2 {
        (last / counts[k as usize - 2].max(1) as f64).sqrt()
    } else {
        last / counts[k as usize - 1].max(1) as f64
    };
    Estimate { nodes: last * growth.powi((depth - k) as i32), counted, seconds }
}

/// What [`estimate_nodes`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimated count (exact when the depth itself was counted).
    pub nodes: f64,
    /// Nodes the shallower counts visited to make it.
    pub counted: u128,
    /// Seconds they took on one thread.
    pub seconds: f64,
}

/// How leaves are counted; written `"bulk"` or `"full"` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The last ply is counted by set sizes, never made ("bulk counting").
    #[default]
    Bulk,
    /// Every leaf move is made and unmade, as engines without bulk counting
    /// do. Slower; the counts are the same.
    Full,
}

impl Mode {
    /// `"bulk"` or `"full"`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Bulk => "bulk",
            Mode::Full => "full",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Number of leaf nodes `depth` plies below `board` (1 for depth 0), exact
/// at any depth, counted on the [active](Kernel::active) kernel.
pub fn perft(board: &mut Board, depth: u32, mode: Mode) -> u128 {
    perft_on(Kernel::active(), board, depth, mode)
}

/// [`perft`] on `kernel`.
pub fn perft_on(kernel: Kernel, board: &mut Board, depth: u32, mode: Mode) -> u128 {
    if depth <= U64_SAFE_DEPTH {
        return u128::from(perft_u64(kernel, board, depth, mode));
    }
    let moves = board.legal_moves();
    let mut nodes = 0u128;
    for &mv in &moves {
        board.make(mv);
        nodes += perft_on(kernel, board, depth - 1, mode);
        board.unmake();
    }
    nodes
}

/// [`perft`] of a subtree at most [`U64_SAFE_DEPTH`] plies deep, which
/// cannot reach 2⁶⁴: the hot path counts in machine words.
#[inline]
pub(crate) fn perft_u64(kernel: Kernel, board: &mut Board, depth: u32, mode: Mode) -> u64 {
    debug_assert!(depth <= U64_SAFE_DEPTH);
    match (mode, depth) {
        (_, 0) => 1,
        (Mode::Bulk, _) => compact::count(kernel, &compact::Compact::new(board), depth),
        (Mode::Full, _) => kernel.run(Full { board, depth }),
    }
}

/// [`perft_u64`] from code already running on `K`.
#[inline(always)]
pub(crate) fn perft_u64_on<K: Isa>(board: &mut Board, depth: u32, mode: Mode) -> u64 {
    debug_assert!(depth <= U64_SAFE_DEPTH);
    match (mode, depth) {
        (_, 0) => 1,
        (Mode::Bulk, _) => compact::count_on::<K>(&compact::Compact::new(board), depth),
        (Mode::Full, _) => full::<K>(board, depth),
    }
}

/// Perft of each legal move at the root, in generation order, on the
/// [active](Kernel::active) kernel.
pub fn divide(board: &mut Board, depth: u32, mode: Mode) -> Vec<(Move, u128)> {
    let kernel = Kernel::active();
    let moves = board.legal_moves();
    moves
        .into_iter()
        .map(|mv| {
            board.make(mv);
            let nodes = perft_on(kernel, board, depth.saturating_sub(1), mode);
            board.unmake();
            (mv, nodes)
        })
        .collect()
}

/// Every leaf made and unmade on the board (at least 1 ply).
#[inline(always)]
fn full<K: Isa>(board: &mut Board, depth: u32) -> u64 {
    outlined::<K, _>(Full { board, depth })
}

/// [`full`], compiled per kernel.
struct Full<'b> {
    board: &'b mut Board,
    depth: u32,
}

impl Job for Full<'_> {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let Full { board, depth } = self;
        let mut moves = MoveList::new();
        OnIsa::<K>::new(board).generate_moves(&mut moves);
        let mut nodes = 0;
        for &mv in &moves {
            board.make(mv);
            nodes += if depth == 1 { 1 } else { full::<K>(board, depth - 1) };
            board.unmake();
        }
        nodes
    }
}
