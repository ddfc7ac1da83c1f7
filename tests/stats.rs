//! Extended statistics (`perft run --stats`) against the chessprogramming
//! wiki's published tables and against the same columns counted
//! independently with the `shakmaty` crate.

use std::path::PathBuf;

use perft::board::{Board, FenOptions};
use perft::counting::{perft, perft_stats, DepthStats, Mode};
use perft::suite::parse_suite;
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{Chess, Position};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The published tables: (FEN, rows), a disputed value `OLD->NEW` read as NEW.
fn published() -> Vec<(String, Vec<DepthStats>)> {
    let text = std::fs::read_to_string(data("tests/data/cpw-extended-stats.txt")).unwrap();
    let mut tables: Vec<(String, Vec<DepthStats>)> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        if let Some(fen) = line.strip_prefix("fen ") {
            tables.push((fen.to_string(), Vec::new()));
            continue;
        }
        let v: Vec<u128> = line
            .split_whitespace()
            .map(|field| field.rsplit("->").next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(v.len(), 10, "bad row {line:?}");
        tables.last_mut().unwrap().1.push(DepthStats {
            depth: v[0] as u32,
            nodes: v[1],
            captures: v[2],
            en_passant: v[3],
            castles: v[4],
            promotions: v[5],
            checks: v[6],
            discovered_checks: v[7],
            double_checks: v[8],
            checkmates: v[9],
        });
    }
    tables
}

#[test]
fn stats_match_the_published_tables() {
    let tables = published();
    assert_eq!(tables.len(), 2);
    for (fen, rows) in tables {
        let board = Board::from_fen(&fen).unwrap();
        let depth = rows.len() as u32;
        let ours = perft_stats(&board, depth, None).unwrap();
        assert_eq!(ours, rows, "{fen}");
    }
}

/// The same columns counted by walking shakmaty's tree, sharing nothing with
/// our move generator.
fn shakmaty_stats(pos: &Chess, depth: u32, rows: &mut [DepthStats]) {
    let Some((row, deeper)) = rows.split_first_mut() else { return };
    for m in pos.legal_moves() {
        row.nodes += 1;
        row.captures += u128::from(m.is_capture());
        row.en_passant += u128::from(m.is_en_passant());
        row.castles += u128::from(m.is_castle());
        row.promotions += u128::from(m.is_promotion());
        let moved_to = match m {
            shakmaty::Move::Castle { king, rook } => shakmaty::Square::from_coords(
                if rook.file() > king.file() { shakmaty::File::F } else { shakmaty::File::D },
                rook.rank(),
            ),
            _ => m.to(),
        };
        let mut child = pos.clone();
        child.play_unchecked(m);
        let checkers = child.checkers();
        if checkers.any() {
            row.checks += 1;
            row.discovered_checks += u128::from(!checkers.contains(moved_to));
            row.double_checks += u128::from(checkers.more_than_one());
            row.checkmates += u128::from(child.is_checkmate());
        }
        if depth > 1 {
            shakmaty_stats(&child, depth - 1, deeper);
        }
    }
}

#[test]
fn stats_match_shakmaty_on_suite_positions() {
    let mut fens = Vec::new();
    for file in ["standard.epd", "fischer.epd", "ferdy-double-checks.epd", "ferdy-enpassant.epd"] {
        let parsed = parse_suite(&std::fs::read(data("positions").join(file)).unwrap());
        fens.extend(parsed.entries.into_iter().map(|e| e.fen));
    }
    let checked: Vec<u128> = fens
        .par_iter()
        .filter_map(|fen| {
            let board = Board::from_fen_with(fen, FenOptions::default()).ok()?;
            let pos: Chess =
                Fen::from_ascii(fen.as_bytes()).ok()?.into_position(shakmaty::CastlingMode::Chess960).ok()?;
            // Deep enough to see checks, mates and en passant, small enough
            // to run every position.
            let depth = if perft(&mut board.clone(), 3, Mode::Bulk) < 200_000 { 3 } else { 2 };
            let ours = perft_stats(&board, depth, None).unwrap();
            let mut theirs: Vec<DepthStats> =
                (1..=depth).map(|d| DepthStats { depth: d, ..Default::default() }).collect();
            shakmaty_stats(&pos, depth, &mut theirs);
            assert_eq!(ours, theirs, "{fen}");
            Some(ours.iter().map(|r| r.discovered_checks + r.double_checks + r.checkmates).sum())
        })
        .collect();
    assert!(checked.len() > 500, "only {} positions compared", checked.len());
    // The comparison must have exercised the rare columns.
    assert!(checked.iter().sum::<u128>() > 1000);
}

#[test]
fn stats_nodes_agree_with_perft_at_every_depth() {
    let board = Board::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
    let stats = perft_stats(&board, 5, None).unwrap();
    for row in &stats {
        assert_eq!(row.nodes, perft(&mut board.clone(), row.depth, Mode::Bulk), "depth {}", row.depth);
    }
    assert!(perft_stats(&board, 0, None).unwrap().is_empty());
}

#[test]
fn stats_stop_when_asked() {
    let stop = std::sync::atomic::AtomicBool::new(true);
    assert_eq!(perft_stats(&Board::startpos(), 6, Some(&stop)), None);
}

/// The disputed published values (start position depth 7 mates, Kiwipete
/// depth 5 and 6 double checks) counted by both walks. Minutes: run with
/// `cargo test --release --test stats -- --ignored`.
#[test]
#[ignore]
fn disputed_values_match_shakmaty() {
    for (fen, depth) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6),
    ] {
        let board = Board::from_fen(fen).unwrap();
        let ours = perft_stats(&board, depth, None).unwrap();
        let pos: Chess =
            Fen::from_ascii(fen.as_bytes()).unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        // Split at the root (and its children) so both cores work.
        let grandchildren: Vec<(shakmaty::Move, Chess)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (m, child)
            })
            .collect();
        let mut theirs: Vec<DepthStats> =
            (1..=depth).map(|d| DepthStats { depth: d, ..Default::default() }).collect();
        shakmaty_stats(&pos, 1, &mut theirs[..1]);
        let below: Vec<Vec<DepthStats>> = grandchildren
            .par_iter()
            .map(|(_, child)| {
                let mut rows = vec![DepthStats::default(); depth as usize - 1];
                shakmaty_stats(child, depth - 1, &mut rows);
                rows
            })
            .collect();
        for rows in below {
            for (total, row) in theirs[1..].iter_mut().zip(&rows) {
                total.add(row);
            }
        }
        eprintln!("{fen} depth {depth}: {:?}", theirs.last().unwrap());
        assert_eq!(ours, theirs, "{fen}");
    }
}
