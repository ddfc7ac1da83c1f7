//! Perft: counting the leaves of the legal move tree, serially or in
//! parallel.

pub mod hash;
pub mod journal;
mod parallel;
pub mod stats;

pub use hash::{KeySet, PerftTable};
pub use parallel::{count, divide_parallel, divide_with, perft_parallel, with_threads, Search, SERIAL_DEPTH};
pub use stats::{perft_stats, DepthStats};

use crate::board::Board;
use crate::movegen::MoveList;
use crate::types::Move;

/// How leaves are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
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

/// Number of leaf nodes `depth` plies below `board` (1 for depth 0).
pub fn perft(board: &mut Board, depth: u32, mode: Mode) -> u64 {
    match (mode, depth) {
        (_, 0) => 1,
        (Mode::Bulk, _) => bulk(board, depth),
        (Mode::Full, _) => full(board, depth),
    }
}

/// Perft of each legal move at the root, in generation order.
pub fn divide(board: &mut Board, depth: u32, mode: Mode) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    moves
        .into_iter()
        .map(|mv| {
            board.make(mv);
            let nodes = perft(board, depth.saturating_sub(1), mode);
            board.unmake();
            (mv, nodes)
        })
        .collect()
}

fn bulk(board: &mut Board, depth: u32) -> u64 {
    if depth == 1 {
        return board.count_legal_moves();
    }
    let mut moves = MoveList::new();
    board.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        board.make(mv);
        nodes += bulk(board, depth - 1);
        board.unmake();
    }
    nodes
}

fn full(board: &mut Board, depth: u32) -> u64 {
    let moves = board.legal_moves();
    let mut nodes = 0;
    for &mv in &moves {
        board.make(mv);
        nodes += if depth == 1 { 1 } else { full(board, depth - 1) };
        board.unmake();
    }
    nodes
}
