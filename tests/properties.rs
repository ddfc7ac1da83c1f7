//! Random playouts from every bundled suite position, checked against the
//! `shakmaty` crate move for move, and against our own invariants: unmake
//! restores the exact board, the incremental key equals the recomputed one
//! and the key predicted by `key_after` in both key sets,
//! FEN round-trips, and counting agrees with listing.

mod common;

use std::path::PathBuf;

use common::Rng;
use perft::board::{zobrist, Board, CastlingMode, FenOptions};
use perft::suite::parse_suite;
use perft::Move;
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

fn start_positions() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut fens = Vec::new();
    for file in [
        "standard.epd",
        "fischer.epd",
        "sedlak-and-classic.epd",
        "ferdy-double-checks.epd",
        "ferdy-enpassant.epd",
        "marcel-random.perft",
        "tricky.perft",
    ] {
        let parsed = parse_suite(&std::fs::read(dir.join(file)).unwrap());
        fens.extend(parsed.entries.into_iter().map(|e| e.fen));
    }
    fens
}

fn our_moves(board: &Board) -> Vec<String> {
    let mut moves: Vec<String> = board.legal_moves().iter().map(|m| m.uci(true).to_string()).collect();
    moves.sort();
    moves
}

fn their_moves(pos: &Chess) -> Vec<String> {
    let mut moves: Vec<String> =
        pos.legal_moves().iter().map(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string()).collect();
    moves.sort();
    moves
}

/// FEN fields other than castling (whose notation differs by design).
fn fields_without_castling(fen: &str) -> Vec<String> {
    fen.split(' ').enumerate().filter(|&(i, _)| i != 2).map(|(_, f)| f.to_string()).collect()
}

#[derive(Default)]
struct Tally {
    positions: usize,
    chess960_positions: usize,
}

fn playout(fen: &str, seed: u64, plies: usize) -> Result<Tally, String> {
    let mut tally = Tally::default();
    // Positions strict mode refuses (impossible but playable) are skipped:
    // shakmaty refuses them as well.
    let Ok(mut board) = Board::from_fen(fen) else {
        return Ok(tally);
    };
    let mut pos: Chess = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| format!("{fen}: shakmaty cannot read it: {e}"))?
        .into_position(shakmaty::CastlingMode::Chess960)
        .map_err(|e| format!("{fen}: shakmaty refuses it: {e}"))?;
    let start = board.clone();
    let mut rng = Rng(seed | 1);
    let mut played: Vec<Move> = Vec::new();
    for _ in 0..plies {
        let context =
            || format!("{} after {:?}", fen, played.iter().map(|m| m.to_string()).collect::<Vec<_>>());
        tally.positions += 1;
        if board.is_chess960() {
            tally.chess960_positions += 1;
        }
        let ours = our_moves(&board);
        let theirs = their_moves(&pos);
        if ours != theirs {
            return Err(format!("{}: moves differ\n ours:   {ours:?}\n theirs: {theirs:?}", context()));
        }
        board.check_consistency().map_err(|e| format!("{}: {e}", context()))?;
        let counted = board.count_legal_moves() as usize;
        let mut by_sets = 0;
        let mut from_sets = Vec::new();
        board.for_each_move_set(|set| {
            by_sets += set.len();
            from_sets.extend(set.moves().map(|m| m.uci(true).to_string()));
        });
        from_sets.sort();
        if counted != ours.len() || by_sets != ours.len() || from_sets != ours {
            return Err(format!(
                "{}: count {counted}, sets {by_sets} ({from_sets:?}), list {}",
                context(),
                ours.len()
            ));
        }
        if board.is_checkmate() != pos.is_checkmate() || board.is_stalemate() != pos.is_stalemate() {
            return Err(format!("{}: mate/stalemate status differs", context()));
        }
        let their_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        if fields_without_castling(&board.fen()) != fields_without_castling(&their_fen) {
            return Err(format!("{}: FEN {} vs shakmaty {their_fen}", context(), board.fen()));
        }
        let mode = if board.is_chess960() { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let reread = Board::from_fen_with(&board.fen(), FenOptions { castling: mode, relaxed: false })
            .map_err(|e| format!("{}: own FEN {} rejected: {e}", context(), board.fen()))?;
        if reread.fen() != board.fen() || reread.key() != board.key() {
            return Err(format!("{}: FEN round trip {} -> {}", context(), board.fen(), reread.fen()));
        }

        let moves = board.legal_moves();
        // The key after each move, computed without making it, in both key
        // sets, equals the key once it is made.
        let secondary = board.key_with(&zobrist::SECONDARY);
        for &mv in &moves {
            let (primary_after, secondary_after) =
                (board.key_after(mv), board.key_after_with(mv, &zobrist::SECONDARY, secondary));
            board.make(mv);
            let ok = primary_after.is_none_or(|k| k == board.key())
                && secondary_after.is_none_or(|k| k == board.key_with(&zobrist::SECONDARY))
                && primary_after.is_some() == secondary_after.is_some();
            board.unmake();
            if !ok {
                return Err(format!("{}: key_after({mv}) differs from the key after make", context()));
            }
        }
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        // Make, unmake, compare with a snapshot, then make for real.
        let before = board.clone();
        board.make(mv);
        if board.unmake() != Some(mv) || board != before {
            return Err(format!("{}: unmake({mv}) did not restore the board", context()));
        }
        board.make(mv);
        let uci = mv.uci(true).to_string();
        let their_move = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string() == uci)
            .ok_or_else(|| format!("{}: shakmaty lacks {uci}", context()))?;
        pos.play_unchecked(their_move);
        played.push(mv);
    }
    while board.unmake().is_some() {}
    if board != start {
        return Err(format!("{fen}: unmaking the whole playout did not restore the start"));
    }
    Ok(tally)
}

#[test]
fn random_playouts_match_shakmaty() {
    let fens = start_positions();
    let results: Vec<Result<Tally, String>> = fens
        .par_iter()
        .enumerate()
        .map(|(i, fen)| playout(fen, 0x9e37_79b9_7f4a_7c15 ^ (i as u64 * 0x1000_0000_01b3), 40))
        .collect();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures.iter().take(5).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    let positions: usize = results.iter().map(|r| r.as_ref().unwrap().positions).sum();
    let chess960: usize = results.iter().map(|r| r.as_ref().unwrap().chess960_positions).sum();
    eprintln!("compared {positions} positions ({chess960} Chess960) with shakmaty");
    assert!(positions >= 100_000, "only {positions} positions");
    assert!(chess960 >= 10_000, "only {chess960} Chess960 positions");
}
