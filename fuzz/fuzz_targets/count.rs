//! The counting paths against a slow reference. The position is reached by
//! legal play from a start position (the input's bytes pick the moves) or
//! is a FEN the parser accepts (the input's text, relaxed); a small depth
//! is counted by bulk counting on every CPU kernel this machine runs, with
//! a tiny hash table (collisions and replacements all the time), with
//! `--full` and with `--stats`, and each must equal the count of legal
//! moves made and unmade leaf by leaf.
#![no_main]

use libfuzzer_sys::fuzz_target;
use perft::board::{Board, FenOptions};
use perft::counting::{perft_on, perft_stats_on, perft_with, CountOptions, KeySet, Mode, PerftTable};
use perft::kernel::Kernel;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1k1r3/8/8/8/8/8/8/R1K1R3 w AEae - 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "3k4/8/8/1q6/8/3B4/8/1K1R3r w - - 0 1",
];

/// Leaves `depth` plies below `board`, every move made and unmade.
fn reference(board: &mut Board, depth: u32) -> u128 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in board.legal_moves() {
        board.make(mv);
        nodes += reference(board, depth - 1);
        board.unmake();
    }
    nodes
}

fn position(data: &[u8]) -> Option<(Board, u32)> {
    let (&head, rest) = data.split_first()?;
    let depth = u32::from(head % 3) + 1;
    if head & 0x80 == 0 {
        let mut board = Board::from_fen(STARTS[usize::from(head >> 2) % STARTS.len()]).ok()?;
        for &choice in rest.iter().take(40) {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make(moves[usize::from(choice) % moves.len()]);
        }
        Some((board, depth))
    } else {
        let text = std::str::from_utf8(rest).ok()?;
        Some((Board::from_fen_with(text, FenOptions::RELAXED).ok()?, depth))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((board, depth)) = position(data) else { return };
    // Relaxed positions can have hundreds of moves: keep each input quick.
    if board.legal_moves().len() > 80 {
        return;
    }
    let expected = reference(&mut board.fork(), depth);
    let fen = board.fen();
    for kernel in Kernel::supported() {
        assert_eq!(perft_on(kernel, &mut board.fork(), depth, Mode::Bulk), expected, "{kernel} bulk: {fen} d{depth}");
        let table = PerftTable::with_buckets(2, KeySet::Primary).unwrap();
        let hashed = CountOptions { table: Some(&table), kernel, ..CountOptions::new(Mode::Bulk) };
        assert_eq!(perft_with(&board, depth, &hashed), Some(expected), "{kernel} hashed: {fen} d{depth}");
        // Twice: the second run finds the table full of this position's
        // subtrees.
        assert_eq!(perft_with(&board, depth, &hashed), Some(expected), "{kernel} hashed again: {fen} d{depth}");
        assert_eq!(perft_on(kernel, &mut board.fork(), depth, Mode::Full), expected, "{kernel} full: {fen} d{depth}");
        let stats = perft_stats_on(kernel, &board, depth, None).expect("never stopped");
        assert_eq!(stats[depth as usize - 1].nodes, expected, "{kernel} stats: {fen} d{depth}");
    }
});
