use super::super::full;
use super::position::{Known, ANY_CASTLING};
use super::*;
use crate::board::Board;
use crate::kernel::{Baseline, Kernel};
use crate::movegen::Position;

/// The counting path's shortcuts (see [`Position::SHORTCUTS`]) find the
/// same checks and pins as the board's plain lookups, and the same
/// counts one and two plies deep as the board's move lists, at every
/// node of random games from positions rich in pins, checks and sliders
/// (two of them Chess960), and from endgames where rooks are the only
/// pieces, or bishops are, with pawns about to promote.
#[test]
fn shortcuts_agree_with_the_board() {
    const {
        assert!(
            <Known<Baseline, ANY_CASTLING, true> as Position>::SHORTCUTS && !<Board as Position>::SHORTCUTS
        )
    };
    let kernels = Kernel::supported();
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "3k4/8/8/1q6/8/3B4/8/1K1R3r w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2r1k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgc - 0 1",
        "8/1P4k1/2r5/8/8/5R2/1K4p1/8 w - - 0 1",
        "r3k2r/1p4P1/8/3R4/8/8/1P4p1/R3K3 b Qkq - 0 1",
        "8/2k5/1p3b2/2p5/2P1P3/3B4/5K2/8 w - - 0 1",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut compared = 0;
    let mut with_pins = 0;
    for fen in fens {
        for _ in 0..60 {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..80 {
                let us = board.side_to_move();
                let king = board.king(us);
                let compact = Compact::new(&board);
                let expected = board.checkers_and_pins(us, king);
                let found = Known::<Baseline, ANY_CASTLING, true>::new(&compact, None, None)
                    .checkers_and_pins(us, king);
                assert_eq!(
                    (found.checkers, found.pinned_straight, found.pinned_diagonal),
                    (expected.checkers, expected.pinned_straight, expected.pinned_diagonal),
                    "{}",
                    board.fen()
                );
                let (moves, children) =
                    (board.legal_moves().len() as u64, full::<Baseline>(&mut board.fork(), 2));
                for &kernel in &kernels {
                    assert_eq!(count(kernel, &compact, 1), moves, "{kernel}: {}", board.fen());
                    assert_eq!(count(kernel, &compact, 2), children, "{kernel}: {}", board.fen());
                }
                compared += 1;
                with_pins += usize::from((expected.pinned_straight | expected.pinned_diagonal).any());
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let pick = crate::attacks::tests::xorshift(&mut state) % moves.len() as u64;
                board.make(moves[pick as usize]);
            }
        }
    }
    assert!(compared > 10_000 && with_pins > 500, "{compared} nodes, {with_pins} with pins");
}

/// Every child made by the counting path from its parent ([`count_child_on`],
/// whose en-passant square is set beside any double push, legal capture or
/// not) counts as the board's child does, one to three plies deep, on every
/// kernel: at every node of random games, and of games rich in en passant.
#[test]
fn children_made_by_the_counting_path_count_as_the_boards() {
    let kernels = Kernel::supported();
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K2R b K - 0 1",
        "4k3/2p5/8/3P4/K2R4/8/8/8 b - - 0 1",
        "4k3/8/8/r1pP2K1/8/8/8/8 w - c6 0 2",
        "8/3p4/8/4P3/1k3K2/8/8/1b6 b - - 0 1",
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut compared = 0;
    let mut double_pushes = 0;
    for fen in fens {
        for _ in 0..8 {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..40 {
                let snapshot = board.fork();
                let parent = Compact::new(&snapshot);
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    board.make(mv);
                    // Three plies at one child in eight: enough to reach
                    // every kind of grandchild, at a fraction of the time.
                    let depths = if compared % 8 == 0 { 1..=3 } else { 1..=2 };
                    let expected: Vec<u64> =
                        depths.clone().map(|d| full::<Baseline>(&mut board.fork(), d)).collect();
                    board.unmake();
                    for &kernel in &kernels {
                        let found: Vec<u64> = depths
                            .clone()
                            .map(|depth| kernel.run(ChildCount { parent: &parent, mv, depth }))
                            .collect();
                        assert_eq!(found, expected, "{kernel}: {} then {mv}", board.fen());
                    }
                    compared += 1;
                    double_pushes += usize::from(mv.kind() == crate::types::MoveKind::DoublePush);
                }
                let pick = crate::attacks::tests::xorshift(&mut state) % moves.len() as u64;
                board.make(moves[pick as usize]);
            }
        }
    }
    assert!(compared > 20_000 && double_pushes > 500, "{compared} children, {double_pushes} double pushes");
}

/// [`count_child_on`] on a kernel.
struct ChildCount<'p, 'a> {
    parent: &'p Compact<'a>,
    mv: crate::types::Move,
    depth: u32,
}

impl crate::kernel::Job for ChildCount<'_, '_> {
    type Output = u64;

    fn run<K: crate::kernel::Isa>(self) -> u64 {
        count_child_on::<K>(self.parent, self.mv, self.depth)
    }
}
