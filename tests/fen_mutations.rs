//! Corrupted FENs never panic; whatever is accepted is a consistent board
//! that move generation, make/unmake and FEN round-trips handle.

mod common;

use perft::board::{Board, CastlingMode, FenOptions};
use perft::counting::{perft, Mode};
use rayon::prelude::*;

const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1",
    "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
];

use common::Rng;

const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0123456789x\t\0";

fn mutate(rng: &mut Rng) -> String {
    let mut bytes = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(4) {
            0 if at < bytes.len() => bytes[at] = c,
            1 => bytes.insert(at, c),
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => {
                let other = rng.below(bytes.len());
                if at < bytes.len() {
                    bytes.swap(at, other);
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn exercise(fen: &str) -> Result<usize, String> {
    let mut accepted = 0;
    for castling in [CastlingMode::Detect, CastlingMode::Standard, CastlingMode::Chess960] {
        for relaxed in [false, true] {
            let options = FenOptions { castling, relaxed };
            let Ok(mut board) = Board::from_fen_with(fen, options) else {
                continue;
            };
            accepted += 1;
            board.check_consistency().map_err(|e| format!("{fen}: {e}"))?;
            let bulk = perft(&mut board, 2, Mode::Bulk);
            let full = perft(&mut board, 2, Mode::Full);
            if bulk != full {
                return Err(format!("{fen} {options:?}: bulk {bulk} != full {full}"));
            }
            let again = Board::from_fen_with(
                &board.fen(),
                FenOptions {
                    castling: if board.is_chess960() {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::Standard
                    },
                    relaxed,
                },
            )
            .map_err(|e| format!("{fen}: own FEN {} refused: {e}", board.fen()))?;
            if again.fen() != board.fen() || again.key() != board.key() {
                return Err(format!("{fen}: round trip {} -> {}", board.fen(), again.fen()));
            }
        }
    }
    Ok(accepted)
}

#[test]
fn mutated_fens_never_panic() {
    let results: Vec<Result<usize, String>> = (0..64u64)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = Rng(0x5eed_0000_0000_0001 ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut accepted = 0;
            for _ in 0..4_000 {
                accepted += exercise(&mutate(&mut rng))?;
            }
            Ok(accepted)
        })
        .collect();
    let mut accepted = 0;
    for result in results {
        accepted += result.unwrap();
    }
    eprintln!("{accepted} (FEN, options) pairs accepted");
    // A fair share of mutations must still be valid, or the test proves little.
    assert!(accepted > 50_000, "only {accepted} accepted");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let len = rng.below(100);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        for relaxed in [false, true] {
            let _ = Board::from_fen_with(&text, FenOptions { castling: CastlingMode::Detect, relaxed });
        }
    }
}
