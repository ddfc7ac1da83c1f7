//! Perft: counting the leaves of the legal move tree, serially or in
//! parallel.

mod compact;
pub mod hash;
mod parallel;
pub mod stats;

pub use hash::{KeySet, PerftTable, TableKey};
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
/// reaches a million nodes, then extrapolates ply by ply with the growth
/// of the last two plies (which smooths the odd/even swing of
/// check-heavy positions), raised each ply by as much as that growth rose
/// over the ply before (at most 6%: positions open up as they go). Exact
/// when `depth` itself is reached.
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
    let counts: Vec<f64> = counts.iter().map(|&count| count as f64).collect();
    let (nodes, nodes_at_flat_growth) = extrapolate(&counts, depth);
    Estimate { nodes, nodes_at_flat_growth, counted, seconds }
}

/// The most the growth per ply is assumed to rise from one ply to the
/// next. Fitted to the 1,086 positions of Ethereal's perft suites
/// (standard and Chess960), extrapolated from counts of 10³ to 10⁵ nodes
/// to their deepest published count: the median estimate is 1% low, where
/// growth held flat it is 7-13% low; and to the start position, whose
/// growth rises 5.3% a ply from depth 5 (perft(11) is estimated 11% high,
/// 62% low with flat growth).
const MAX_GROWTH_RISE: f64 = 1.06;

/// Extrapolates `counts` (perft(0), perft(1), ... of one position, the
/// last counted the deepest) to perft(`depth`): with the growth rising as
/// [`estimate_nodes`] says, and with it held flat.
fn extrapolate(counts: &[f64], depth: u32) -> (f64, f64) {
    let k = counts.len() - 1;
    let last = counts[k];
    if k as u32 >= depth || last == 0.0 {
        return (last, last);
    }
    let growth_over_two = |ply: usize| (counts[ply] / counts[ply - 2].max(1.0)).sqrt();
    let growth = if k >= 2 { growth_over_two(k) } else { last / counts[k - 1].max(1.0) };
    let rise = if k >= 3 { (growth / growth_over_two(k - 1)).clamp(1.0, MAX_GROWTH_RISE) } else { 1.0 };
    let plies = (depth - k as u32) as i32;
    let flat = last * growth.powi(plies);
    // Growth times rise, rise², ...: rise to the power 1 + 2 + ... + plies.
    let rising = flat * rise.powi(plies * (plies + 1) / 2);
    (rising, flat)
}

/// What [`estimate_nodes`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimated count (exact when the depth itself was counted).
    pub nodes: f64,
    /// The estimate with the growth per ply held at that of the last two
    /// plies counted: lower than `nodes` in most positions. Tables are
    /// sized from it (their sizes were measured against it).
    pub nodes_at_flat_growth: f64,
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

#[cfg(test)]
mod tests {
    use super::extrapolate;

    /// perft(0) to perft(5) of the start position (OEIS A048987).
    const START: [f64; 6] = [1.0, 20.0, 400.0, 8902.0, 197_281.0, 4_865_609.0];

    #[test]
    fn extrapolation_follows_the_rising_growth_of_the_start_position() {
        for (depth, exact) in [(9, 2_439_530_234_167.0), (11, 2_097_651_003_696_806.0)] {
            let (rising, flat) = extrapolate(&START, depth);
            assert!((0.9..1.15).contains(&(rising / exact)), "perft({depth}) estimated {rising:e}");
            // Growth held flat is what tables are sized from: far lower here.
            assert!(flat < 0.65 * exact, "perft({depth}) with flat growth {flat:e}");
        }
    }

    #[test]
    fn extrapolation_is_exact_at_the_counted_depth_and_bounded() {
        assert_eq!(extrapolate(&START, 5), (4_865_609.0, 4_865_609.0));
        assert_eq!(extrapolate(&START[..3], 2), (400.0, 400.0));
        // Mated or stalemated: nothing to extrapolate.
        assert_eq!(extrapolate(&[1.0, 0.0], 6), (0.0, 0.0));
        // Growth that falls is held flat, never extrapolated downwards.
        let shrinking = [1.0, 40.0, 1_000.0, 20_000.0];
        let (rising, flat) = extrapolate(&shrinking, 6);
        assert_eq!(rising, flat);
        // Growth that leaps is raised by at most MAX_GROWTH_RISE a ply.
        let leaping = [1.0, 2.0, 40.0, 4_000.0];
        let (rising, flat) = extrapolate(&leaping, 5);
        assert!((rising / flat - super::MAX_GROWTH_RISE.powi(3)).abs() < 1e-9, "{rising} {flat}");
    }
}
