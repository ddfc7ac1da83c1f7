//! Extended perft statistics: what kind of move reached each node.
//!
//! The columns are those of the chessprogramming wiki's "Perft Results"
//! tables, counted over the nodes at exactly each depth, by the move that
//! reached the node:
//!
//! - **captures**: the move took a piece (en passant included, castling not);
//! - **en passant**, **castles**, **promotions** (each promotion piece counts);
//! - **checks**: the side to move is in check;
//! - **discovered checks**: the piece that moved (for castling, the rook)
//!   is not among the checkers, so every check comes from a line it opened
//!   (a double check by the moved piece and a discovered one is counted
//!   only as a double check, as the wiki's tables do);
//! - **double checks**: two checkers;
//! - **checkmates**: in check with no legal move.
//!
//! Every node is made (no bulk counting), so this runs several times slower
//! than plain perft.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::SERIAL_DEPTH;
use crate::board::Board;
use crate::kernel::{outlined, Baseline, Isa, Job, Kernel};
use crate::movegen::{MoveList, OnIsa};
use crate::types::Move;

/// The statistics of the nodes at one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthStats {
    /// Plies from the root (1 for the root's children).
    pub depth: u32,
    /// Nodes at this depth.
    pub nodes: u128,
    /// Reached by a capture (en passant included).
    pub captures: u128,
    /// Reached by an en-passant capture.
    pub en_passant: u128,
    /// Reached by castling.
    pub castles: u128,
    /// Reached by a promotion.
    pub promotions: u128,
    /// The side to move is in check.
    pub checks: u128,
    /// In check from a piece other than the one that moved.
    pub discovered_checks: u128,
    /// In check from two pieces.
    pub double_checks: u128,
    /// Checkmated.
    pub checkmates: u128,
}

impl DepthStats {
    /// Adds `other`'s counts to these (the depth stays).
    pub fn add(&mut self, other: &DepthStats) {
        self.nodes += other.nodes;
        self.captures += other.captures;
        self.en_passant += other.en_passant;
        self.castles += other.castles;
        self.promotions += other.promotions;
        self.checks += other.checks;
        self.discovered_checks += other.discovered_checks;
        self.double_checks += other.double_checks;
        self.checkmates += other.checkmates;
    }
}

/// Statistics for depths 1 to `depth` (empty for depth 0), on the current
/// rayon pool and the [active](Kernel::active) kernel; `None` if `stop` was
/// raised before the walk finished.
pub fn perft_stats(board: &Board, depth: u32, stop: Option<&AtomicBool>) -> Option<Vec<DepthStats>> {
    perft_stats_on(Kernel::active(), board, depth, stop)
}

/// [`perft_stats`] on `kernel`.
pub fn perft_stats_on(
    kernel: Kernel,
    board: &Board,
    depth: u32,
    stop: Option<&AtomicBool>,
) -> Option<Vec<DepthStats>> {
    let mut rows = if depth == 0 { Vec::new() } else { parallel(kernel, &mut board.fork(), depth, stop)? };
    for (row, depth) in rows.iter_mut().zip(1..) {
        row.depth = depth;
    }
    Some(rows)
}

/// Makes `mv`, records in `row` what kind of move reached the new node and
/// whether it is in check, and leaves the move made. Returns whether it is
/// in check: the caller tells checkmate from the node's own move count.
#[inline(always)]
fn make_and_classify<K: Isa>(board: &mut Board, mv: Move, row: &mut DepthStats) -> bool {
    row.nodes += 1;
    if mv.is_castle() {
        row.castles += 1;
    } else if mv.is_en_passant() {
        row.en_passant += 1;
        row.captures += 1;
    } else if board.piece_on(mv.to()).is_some() {
        row.captures += 1;
    }
    if mv.promotion().is_some() {
        row.promotions += 1;
    }
    board.make(mv);
    let checkers = OnIsa::<K>::new(board).checkers();
    if checkers.is_empty() {
        return false;
    }
    row.checks += 1;
    if (checkers & mv.piece_destination().bitboard()).is_empty() {
        row.discovered_checks += 1;
    }
    if checkers.more_than_one() {
        row.double_checks += 1;
    }
    true
}

/// Serial walk: `rows[0]` gathers the children of `board`, `rows[1]` the
/// grandchildren, and so on, `rows.len()` plies deep. Returns the number of
/// legal moves of `board`.
#[inline(always)]
fn serial<K: Isa>(board: &mut Board, rows: &mut [DepthStats]) -> usize {
    outlined::<K, _>(Serial { board, rows })
}

/// [`serial`], compiled per kernel.
struct Serial<'b, 'r> {
    board: &'b mut Board,
    rows: &'r mut [DepthStats],
}

impl Job for Serial<'_, '_> {
    type Output = usize;

    #[inline(always)]
    fn run<K: Isa>(self) -> usize {
        serial_body::<K>(self.board, self.rows)
    }
}

/// The body of [`serial`].
#[inline(always)]
fn serial_body<K: Isa>(board: &mut Board, rows: &mut [DepthStats]) -> usize {
    let Some((row, deeper)) = rows.split_first_mut() else { return 0 };
    let mut moves = MoveList::new();
    OnIsa::<K>::new(board).generate_moves(&mut moves);
    for &mv in &moves {
        let in_check = make_and_classify::<K>(board, mv, row);
        // Below the last ply the child's own walk generates its moves;
        // at the last ply they are counted only when it is in check.
        let replies = if deeper.is_empty() {
            in_check.then(|| OnIsa::<K>::new(board).count_legal_moves())
        } else {
            Some(serial::<K>(board, deeper) as u64)
        };
        if in_check && replies == Some(0) {
            row.checkmates += 1;
        }
        board.unmake();
    }
    moves.len()
}

/// The walk on the current rayon pool, each child a task on its own board
/// (as [`super::count`] splits), serial from [`SERIAL_DEPTH`] down.
fn parallel(
    kernel: Kernel,
    board: &mut Board,
    depth: u32,
    stop: Option<&AtomicBool>,
) -> Option<Vec<DepthStats>> {
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return None;
    }
    let mut rows = vec![DepthStats::default(); depth as usize];
    if depth <= SERIAL_DEPTH {
        kernel.run(Serial { board, rows: &mut rows });
        return Some(rows);
    }
    let board: &Board = board;
    board
        .legal_moves()
        .par_iter()
        .map(|&mv| {
            let mut child = board.fork();
            let mut rows = vec![DepthStats::default(); depth as usize];
            if make_and_classify::<Baseline>(&mut child, mv, &mut rows[0]) && child.count_legal_moves() == 0 {
                rows[0].checkmates += 1;
            }
            for (row, below) in rows[1..].iter_mut().zip(&parallel(kernel, &mut child, depth - 1, stop)?) {
                row.add(below);
            }
            Some(rows)
        })
        .try_reduce(
            || rows.clone(),
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x.add(y);
                }
                Some(a)
            },
        )
}
