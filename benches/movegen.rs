//! Criterion benchmarks: legal move generation and counting per position,
//! make/unmake, and perft at a small depth. Each checks its count first and
//! reports throughput in elements (moves or nodes).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use perft::board::Board;
use perft::counting::{perft, Mode};
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32, u128); 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197_281),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97_862),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    ("mirrored", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62_379),
];

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, fen, _, _) in POSITIONS {
        let board = Board::from_fen(fen).unwrap();
        let n = board.legal_moves().len() as u64;
        assert_eq!(board.count_legal_moves(), n);
        group.throughput(Throughput::Elements(n));
        group.bench_with_input(BenchmarkId::new("list", name), &board, |b, board| {
            b.iter(|| black_box(board).legal_moves())
        });
        group.bench_with_input(BenchmarkId::new("count", name), &board, |b, board| {
            b.iter(|| black_box(board).count_legal_moves())
        });
    }
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for (name, fen, _, _) in POSITIONS {
        let mut board = Board::from_fen(fen).unwrap();
        let moves = board.legal_moves();
        let before = board.clone();
        for &mv in &moves {
            board.make(mv);
            board.unmake();
        }
        assert!(board == before);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for &mv in &moves {
                    board.make(black_box(mv));
                    board.unmake();
                }
            })
        });
    }
    group.finish();
}

fn perft_small(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, fen, depth, nodes) in POSITIONS {
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(perft(&mut board, depth, Mode::Bulk), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes as u64));
        group.bench_function(BenchmarkId::new("bulk", format!("{name}-d{depth}")), |b| {
            b.iter(|| perft(&mut board, black_box(depth), Mode::Bulk))
        });
        group.bench_function(BenchmarkId::new("full", format!("{name}-d{depth}")), |b| {
            b.iter(|| perft(&mut board, black_box(depth), Mode::Full))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_small);
criterion_main!(benches);
