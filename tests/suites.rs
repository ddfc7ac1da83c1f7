//! Every bundled public suite, at every depth whose expected count is at most
//! `NODE_CAP` (override with the `PERFT_TEST_NODE_CAP` environment
//! variable), under the default CPU kernel, and under every other kernel
//! this machine runs up to `OTHER_KERNEL_CAP` nodes a check (`PERFT_CPU=v2`
//! runs that level only, its kernel to `NODE_CAP`; CI also passes the
//! default suite's 2 billion nodes under each kernel). The ignored test runs them all to full
//! depth.

mod common;

use std::path::PathBuf;

use perft::board::{Board, FenOptions};
use perft::counting::{perft_on, Mode};
use perft::kernel::Kernel;
use perft::suite::parse_suite;
use rayon::prelude::*;

const NODE_CAP: u128 = 10_000_000;
const OTHER_KERNEL_CAP: u128 = 1_000_000;

fn node_cap() -> u128 {
    std::env::var("PERFT_TEST_NODE_CAP").ok().and_then(|v| v.parse().ok()).unwrap_or(NODE_CAP)
}

/// Runs `file` from `positions/`; returns how many checks ran. Positions on
/// the lines of `strict_rejects` must be refused by strict validation and are
/// then counted in relaxed mode; every other position must pass strict.
fn run_suite(file: &str, strict_rejects: &[usize], cap: u128) -> usize {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = parse_suite(&bytes);
    assert!(parsed.errors.is_empty(), "{file}: unreadable lines {:#?}", parsed.errors);
    assert!(!parsed.entries.is_empty(), "{file}: no positions");

    let checks: Vec<(usize, &str, u32, u128)> = parsed
        .entries
        .iter()
        .flat_map(|e| e.counts.iter().map(move |&(d, n)| (e.line, e.fen.as_str(), d, n)))
        .filter(|&(_, _, _, expected)| expected <= cap)
        .collect();
    let kernels = common::kernels();
    let main = if kernels.contains(&Kernel::detect()) { Kernel::detect() } else { kernels[0] };
    let failures: Vec<String> = checks
        .par_iter()
        .flat_map(|&check| kernels.par_iter().map(move |&kernel| (kernel, check)))
        .filter(|&(kernel, (_, _, _, expected))| kernel == main || expected <= cap.min(OTHER_KERNEL_CAP))
        .filter_map(|(kernel, (line, fen, depth, expected))| {
            let strict = Board::from_fen_with(fen, FenOptions::STRICT);
            let mut board = match (strict, strict_rejects.contains(&line)) {
                (Ok(board), false) => board,
                (Ok(_), true) => return Some(format!("{file}:{line}: {fen}: strict mode accepted it")),
                (Err(e), false) => return Some(format!("{file}:{line}: {fen}: {e}")),
                (Err(_), true) => match Board::from_fen_with(fen, FenOptions::RELAXED) {
                    Ok(board) => board,
                    Err(e) => return Some(format!("{file}:{line}: {fen}: relaxed: {e}")),
                },
            };
            let nodes = perft_on(kernel, &mut board, depth, Mode::Bulk);
            (nodes != expected).then(|| {
                format!(
                    "{file}:{line}: {fen} depth {depth}, kernel {kernel}: expected {expected}, got {nodes}"
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} checks under {} kernels failed:\n{}",
        failures.len(),
        checks.len(),
        kernels.len(),
        failures.join("\n")
    );
    checks.len()
}

#[test]
fn classic_suite() {
    assert!(run_suite("standard.epd", &[51], node_cap()) > 600);
}

#[test]
fn chess960_suite() {
    assert!(run_suite("fischer.epd", &[], node_cap()) > 4000);
}

#[test]
fn sedlak_and_classic_specials() {
    assert!(run_suite("sedlak-and-classic.epd", &[133], node_cap()) > 600);
}

#[test]
fn ferdy_double_checks() {
    assert_eq!(run_suite("ferdy-double-checks.epd", &[], node_cap()), 184);
}

#[test]
fn ferdy_en_passant() {
    assert!(run_suite("ferdy-enpassant.epd", &[], node_cap()) > 3000);
}

#[test]
fn marcel_random_positions() {
    assert!(run_suite("marcel-random.perft", &[], node_cap()) > 30_000);
}

#[test]
fn stockfish_perft_sh_with_double_fischer_random() {
    // Strict mode accepts every line, double-Fischer-random ones included.
    assert!(run_suite("stockfish-perft-sh.epd", &[], node_cap()) >= 4);
}

#[test]
fn tricky_positions_relaxed() {
    let impossible = [121, 127, 133, 139, 145, 151, 157, 163, 169, 180, 199];
    assert_eq!(run_suite("tricky.perft", &impossible, node_cap()), 88);
    let impossible = [104, 110, 116, 122, 128, 134, 144];
    assert_eq!(run_suite("tricky-python-chess.perft", &impossible, node_cap()), 67);
}

#[test]
fn castling_rights_positions() {
    assert_eq!(run_suite("castling-rights.epd", &[], node_cap()), 24);
}

/// Rook endgames, the positions whose last ply is counted eight children at
/// a time on AVX-512 CPUs (counts from Stockfish).
#[test]
fn rook_endgames() {
    assert!(run_suite("rook-endgames.epd", &[], node_cap()) > 1400);
}

#[test]
#[ignore = "full depth: about 4.9 trillion nodes"]
fn all_suites_full_depth() {
    run_suite("standard.epd", &[51], u128::MAX);
    run_suite("fischer.epd", &[], u128::MAX);
    run_suite("sedlak-and-classic.epd", &[133], u128::MAX);
    run_suite("ferdy-double-checks.epd", &[], u128::MAX);
    run_suite("ferdy-enpassant.epd", &[], u128::MAX);
    run_suite("marcel-random.perft", &[], u128::MAX);
    run_suite("tricky.perft", &[121, 127, 133, 139, 145, 151, 157, 163, 169, 180, 199], u128::MAX);
    run_suite("tricky-python-chess.perft", &[104, 110, 116, 122, 128, 134, 144], u128::MAX);
    run_suite("stockfish-perft-sh.epd", &[], u128::MAX);
    run_suite("rook-endgames.epd", &[], u128::MAX);
    run_suite("castling-rights.epd", &[], u128::MAX);
}
