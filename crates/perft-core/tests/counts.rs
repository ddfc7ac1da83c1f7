//! The core on its own: published perft counts (chessprogramming.org's six
//! positions), and shakmaty as an independent oracle, through every
//! counting entry point.

use perft_core::board::{Board, CastlingMode, FenOptions};
use perft_core::counting::{divide, perft, perft_parallel, with_threads, Mode};

/// (FEN, counts at depths 1, 2, ...), as published.
const PUBLISHED: [(&str, &[u128]); 6] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8_902, 197_281, 4_865_609]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[48, 2_039, 97_862, 4_085_603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2_812, 43_238, 674_624, 11_030_083]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264, 9_467, 422_333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1_486, 62_379, 2_103_487]),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    ),
];

#[test]
fn published_counts() {
    for (fen, counts) in PUBLISHED {
        let board = Board::from_fen(fen).unwrap();
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&mut board.clone(), depth, Mode::Bulk), expected, "{fen} bulk depth {depth}");
            if depth <= 3 {
                assert_eq!(
                    perft(&mut board.clone(), depth, Mode::Full),
                    expected,
                    "{fen} full depth {depth}"
                );
                let sum: u128 = divide(&mut board.clone(), depth, Mode::Bulk).iter().map(|&(_, n)| n).sum();
                assert_eq!(sum, expected, "{fen} divide depth {depth}");
            }
        }
        let depth = counts.len() as u32;
        let parallel = with_threads(2, || perft_parallel(&board, depth, Mode::Bulk)).unwrap();
        assert_eq!(parallel, counts[counts.len() - 1], "{fen} parallel");
    }
}

fn shakmaty_perft(fen: &str, depth: u32, chess960: bool) -> u64 {
    use shakmaty::{fen::Fen, CastlingMode as Mode960, Chess};
    let mode = if chess960 { Mode960::Chess960 } else { Mode960::Standard };
    let position: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
    shakmaty::perft(&position, depth)
}

#[test]
fn shakmaty_agrees() {
    let positions = [
        ("r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1", false),
        ("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3", false),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
        ("1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true),
    ];
    for (fen, chess960) in positions {
        let options = FenOptions { castling: CastlingMode::from_chess960(chess960), relaxed: false };
        let board = Board::from_fen_with(fen, options).unwrap();
        for depth in 1..=4 {
            let ours = perft(&mut board.clone(), depth, Mode::Bulk);
            assert_eq!(ours, u128::from(shakmaty_perft(fen, depth, chess960)), "{fen} depth {depth}");
        }
    }
}

#[test]
fn with_threads_counts_in_place_only_on_a_thread_that_asked() {
    use perft_core::counting::count_on_this_thread;
    let this = || std::thread::current().id();
    // Outside any pool, and on a worker of someone else's pool of one
    // thread: a pool of its own.
    assert_ne!(with_threads(1, this).unwrap(), this());
    let pool = perft_core::counting::thread_pool(1).unwrap();
    pool.install(|| {
        assert_ne!(with_threads(1, this).unwrap(), this());
        // A worker of a pool cannot be taken over again.
        assert!(count_on_this_thread().is_err());
    });
    std::thread::spawn(move || {
        count_on_this_thread().unwrap();
        count_on_this_thread().unwrap();
        // One thread: here, and counting as elsewhere.
        assert_eq!(with_threads(1, this).unwrap(), this());
        assert_eq!(with_threads(1, rayon::current_num_threads).unwrap(), 1);
        let start = Board::startpos();
        assert_eq!(with_threads(1, || perft_parallel(&start, 4, Mode::Bulk)).unwrap(), 197_281);
        // Other sizes: a pool of that size.
        assert_eq!(with_threads(2, rayon::current_num_threads).unwrap(), 2);
        assert_ne!(with_threads(2, this).unwrap(), this());
    })
    .join()
    .unwrap();
}

/// Positions no game reaches (more than sixteen pieces a side, read
/// relaxed) through the bulk path, whose last plies batch children where
/// the CPU allows, against full counting, which makes every leaf.
#[test]
fn crowded_positions_count_the_same_in_bulk_and_in_full() {
    let crowded = [
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "kqqqqqqq/q6q/q6q/q6q/q6q/q6q/br5q/Kbqqqqqq b - - 0 1",
        "knnnnnnn/nnnnnnnn/nnn5/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/5NNN/NNNNNNNN/NNNNNNNK b kq - 0 1",
    ];
    let relaxed = FenOptions { castling: CastlingMode::Standard, relaxed: true };
    for fen in crowded {
        let board = Board::from_fen_with(fen, relaxed).unwrap();
        for depth in 1..=3 {
            let bulk = perft(&mut board.clone(), depth, Mode::Bulk);
            assert_eq!(bulk, perft(&mut board.clone(), depth, Mode::Full), "{fen} depth {depth}");
        }
    }
}
