//! The `cozy-chess` crate's own bulk-counting perft (copy-make), shared by
//! the race benchmark and the `cozy-perft` example.

/// Leaf nodes `depth` plies below `board`, the last ply counted by move-set
/// sizes.
pub fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}
