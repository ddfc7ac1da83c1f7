//! Random legal play driven by the input bytes, from a start position the
//! first byte picks: at every ply our legal moves equal shakmaty's, every
//! move we generate is legal there, make/unmake restores the exact board,
//! and the incremental key equals the recomputed one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use perft::board::Board;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "r1k1r3/8/8/8/8/8/8/R1K1R3 w AEae - 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
];

fn sorted(mut moves: Vec<String>) -> Vec<String> {
    moves.sort();
    moves
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, choices)) = data.split_first() else { return };
    let fen = STARTS[first as usize % STARTS.len()];
    let mut board = Board::from_fen(fen).unwrap();
    let mut pos: Chess = Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap();
    let start = board.clone();
    for &choice in choices {
        let ours = sorted(board.legal_moves().iter().map(|m| m.uci(true).to_string()).collect());
        let theirs = sorted(pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Chess960).to_string()).collect());
        assert_eq!(ours, theirs, "{}", board.fen());
        board.check_consistency().unwrap();
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice as usize % moves.len()];
        let before = board.clone();
        board.make(mv);
        assert_eq!(board.unmake(), Some(mv));
        assert!(board == before, "unmake({mv}) changed {}", before.fen());
        board.make(mv);
        let uci = mv.uci(true).to_string();
        let theirs = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Chess960).to_string() == uci)
            .expect("a move we generate is legal");
        pos.play_unchecked(theirs);
    }
    while board.unmake().is_some() {}
    assert!(board == start);
});
