//! Parallel perft: rayon workers split the tree, each task on its own board.
//!
//! Every node with more than [`SERIAL_DEPTH`] plies left hands its children
//! to rayon as separate tasks, each on its own copy of the board; below that
//! a task runs serially. A narrow root (a check, a few moves) therefore
//! splits one level deeper by itself, and rayon's work stealing balances
//! subtrees of very different sizes. The counts do not depend on the number
//! of threads: only the order in which subtrees finish does.

use rayon::prelude::*;

use super::{perft, Mode};
use crate::board::Board;
use crate::types::Move;

/// Subtrees with at most this many plies left run serially in one task.
pub const SERIAL_DEPTH: u32 = 3;

/// Perft of `board` to `depth` on the current rayon pool.
pub fn perft_parallel(board: &Board, depth: u32, mode: Mode) -> u64 {
    if depth <= SERIAL_DEPTH {
        return perft(&mut board.fork(), depth, mode);
    }
    board
        .legal_moves()
        .par_iter()
        .map(|&mv| {
            let mut child = board.fork();
            child.make(mv);
            perft_parallel(&child, depth - 1, mode)
        })
        .sum()
}

/// Perft of each root move (divide) on the current rayon pool, in move
/// generation order. `done` is called as each root move's count is known
/// (from any worker thread, in any order).
pub fn divide_parallel(
    board: &Board,
    depth: u32,
    mode: Mode,
    done: &(dyn Fn(Move, u64) + Sync),
) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .par_iter()
        .map(|&mv| {
            let mut child = board.fork();
            child.make(mv);
            let nodes = perft_parallel(&child, depth.saturating_sub(1), mode);
            done(mv, nodes);
            (mv, nodes)
        })
        .collect()
}

/// Runs `f` on a rayon pool of `threads` threads (all cores for 0 would be
/// ambiguous, so 0 is treated as 1).
///
/// # Errors
/// If the operating system refuses to start the threads.
pub fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> T + Send,
) -> Result<T, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    Ok(pool.install(f))
}
