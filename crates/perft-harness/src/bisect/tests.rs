//! Why extra moves are illegal, and the candidates of a count that
//! differs where the move lists agree.

use super::*;
use crate::board::{CastlingMode, FenOptions};

fn board(fen: &str) -> Board {
    Board::from_fen_with(fen, FenOptions { castling: CastlingMode::Detect, relaxed: true }).unwrap()
}

fn why(fen: &str, mv: &str) -> (Option<Why>, Vec<String>) {
    let named = illegal_move(&board(fen), fen, mv);
    (named.why, named.attackers)
}

#[test]
fn extra_moves_are_told_why_they_are_illegal() {
    // The king steps into a knight's reach.
    assert_eq!(
        why("4k3/8/8/8/5n2/8/8/4K3 w - - 0 1", "e1e2"),
        (Some(Why::KingIntoCheck), vec!["knight on f4".into()])
    );
    // A pinned bishop leaves the file of the rook behind it.
    assert_eq!(
        why("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3"),
        (Some(Why::PinnedPieceMoves), vec!["rook on e8".into()])
    );
    // In check, a move elsewhere.
    assert_eq!(
        why("4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1", "a2a3"),
        (Some(Why::CheckIgnored), vec!["rook on e8".into()])
    );
    // En passant that takes both pawns off the king's rank.
    assert_eq!(
        why("8/8/8/K1Pp3r/8/8/8/6k1 w - d6 0 2", "c5d6"),
        (Some(Why::EnPassantExposesKing), vec!["rook on h5".into()])
    );
    // An en-passant capture that leaves a check unanswered is that, not a
    // discovered attack.
    assert_eq!(
        why("rn4r1/p3p3/kp1nb1pb/8/P2pP2p/RPB4P/N1P3P1/1Q1K1BRN b - e3 0 24", "d4e3").0,
        Some(Why::CheckIgnored)
    );
    // Castling out of, through and into check.

    assert_eq!(why("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1").0, Some(Why::CastlesOutOfCheck));
    assert_eq!(
        why("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"),
        (Some(Why::CastlesThroughCheck), vec!["f1 attacked".into()])
    );
    assert_eq!(why("6rk/7p/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1").0, Some(Why::CastlesIntoCheck));
    // A bishop moving like a rook, a piece of the other side: not even
    // pseudo-legal.
    for mv in ["e2e4", "e8e7"] {
        assert_eq!(why("4k3/8/8/8/8/8/4B3/4K2R w K - 0 1", mv).0, Some(Why::NotPseudoLegal), "{mv}");
    }
    assert_eq!(Why::CastlesThroughCheck.family(), Family::KingSafety);
    assert_eq!(Why::NotPseudoLegal.family(), Family::NotPseudoLegal);
}

/// `fen` with `moves` played, and what the bisection says of `mv` there:
/// why, attackers or blockers, and the story.
fn after(fen: &str, moves: &[&str], mv: &str) -> (Option<Why>, Vec<String>, String) {
    let mut b = board(fen);
    for text in moves {
        let played = b.parse_uci(text).unwrap();
        b.make(played);
    }
    let named = illegal_move(&b, &b.fen(), mv);
    (named.why, named.attackers, named.detail.unwrap_or_default())
}

#[test]
fn castling_without_the_right_names_the_right_and_what_took_it() {
    // The bishop takes the rook on its corner: the right goes with it.
    let (why, _, detail) = after("r3k2r/8/8/8/8/8/6B1/4K3 w kq - 0 1", &["g2a8"], "e8c8");
    assert_eq!(why, Some(Why::CastlesAfterRookCaptured));
    assert_eq!(
        detail,
        "black's queenside right went with g2a8, the last move: the bishop took the rook on a8"
    );
    assert_eq!(Why::CastlesAfterRookCaptured.family(), Family::CastlingRight);
    // The rook went away and came back; the king went away and came back.
    let moves = ["h8h7", "e1e2", "h7h8", "e2e1"];
    let (why, _, detail) = after("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", &moves, "e8g8");
    assert_eq!(why, Some(Why::CastlesAfterRookMoved));
    assert_eq!(detail, "black's kingside right went with h8h7, 4 plies before: the rook left h8");
    let moves = ["e8e7", "e1e2", "e7e8", "e2e1"];
    let (why, _, detail) = after("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", &moves, "e8g8");
    assert_eq!(why, Some(Why::CastlesAfterKingMoved));
    assert!(detail.starts_with("black's kingside right went with e8e7, 4 plies before"), "{detail}");
    // A right the position never had.
    let (why, _, detail) = after("r3k2r/8/8/8/8/8/8/4K3 b k - 0 1", &[], "e8c8");
    assert_eq!(why, Some(Why::CastlesWithoutRight));
    assert_eq!(detail, "the position gives black no queenside right (castling field `k`)");
    // With the right, through a knight.
    let (why, blockers, _) = after("rn2k2r/8/8/8/8/8/8/4K3 b kq - 0 1", &[], "e8c8");
    assert_eq!((why, blockers), (Some(Why::CastlesThroughPieces), vec!["knight on b8".to_string()]));
    assert_eq!(Why::CastlesThroughPieces.family(), Family::CastlingPath);
}

#[test]
fn en_passant_without_the_square_says_why_there_is_none() {
    let (why, _, detail) = after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &["d7d5", "e1e2", "e8e7"], "e5d6");
    assert_eq!(why, Some(Why::EnPassantWithoutSquare));
    assert!(detail.contains("d7d5 pushed that pawn two squares 3 plies before"), "{detail}");
    let (why, _, detail) = after("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1", &["d6d5"], "e5d6");
    assert_eq!(why, Some(Why::EnPassantWithoutSquare));
    assert!(detail.contains("came with d6d5, which gives no en-passant square"), "{detail}");
    let (_, _, detail) = after("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", &[], "e5d6");
    assert!(detail.contains("no pawn of black's on d5"), "{detail}");
    assert_eq!(Why::EnPassantWithoutSquare.family(), Family::EnPassantSquare);
}

#[test]
fn a_count_too_high_after_a_rook_capture_has_the_castle_as_candidate() {
    let mut b = board("r3k2r/8/8/8/8/8/6B1/4K3 w kq - 0 1");
    b.make(b.parse_uci("g2a8").unwrap());
    let fen = b.fen();
    let legal = b.legal_moves().len() as u128;
    let extra = candidates(&b, &fen, legal, legal + 1, false);
    assert_eq!(extra.moves.len(), 1, "{:?}", extra.moves);
    assert_eq!(
        (extra.moves[0].uci.as_str(), extra.moves[0].why),
        ("e8c8", Some(Why::CastlesAfterRookCaptured))
    );
    assert_eq!(extra.family(), Some(Family::CastlingRight));
}

#[test]
fn pseudo_legal_moves_include_what_a_careless_generator_makes() {
    // The pinned pawn's en-passant capture, onto the square the FEN names.
    let fen = "8/8/8/K1Pp3r/8/8/8/6k1 w - d6 0 2";
    let b = board(fen);
    let pseudo: Vec<String> = pseudo_legal_moves(&b, fen_en_passant(fen)).iter().map(|&m| b.uci(m)).collect();
    assert!(pseudo.contains(&"c5d6".to_string()), "{pseudo:?}");
    assert!(!b.legal_moves().iter().any(|&m| b.uci(m) == "c5d6"));
    let illegal: Vec<String> = illegal_moves(&b, fen).into_iter().map(|m| m.uci).collect();
    assert!(illegal.contains(&"c5d6".to_string()) && !illegal.contains(&"c5c6".to_string()), "{illegal:?}");
    // Every legal move is pseudo-legal.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let b = board(fen);
        let pseudo = pseudo_legal_moves(&b, None);
        assert!(b.legal_moves().iter().all(|m| pseudo.contains(m)), "{fen}");
    }
}

#[test]
fn the_likeliest_candidates_number_the_difference() {
    // One pinned en-passant capture and two king steps into attack: a
    // count one too high is likeliest the capture.
    let fen = "8/2p5/3p4/KP5r/1R2Ppk1/6P1/8/8 b - e3 0 2";
    let b = board(fen);
    let legal = b.legal_moves().len() as u128;
    let extra = candidates(&b, fen, legal, legal + 1, true);
    assert_eq!(extra.fault, Fault::Extra);
    assert_eq!(extra.likely.as_deref(), Some("en passant that exposes its king"));
    assert_eq!(extra.moves[0].uci, "f4e3");
    // Two too many: the two king steps.
    let two = candidates(&b, fen, legal, legal + 2, true);
    assert_eq!(two.likely.as_deref(), Some("king stepping into an attack"));
    // Every illegal move at once: no legality test at all.
    let all = candidates(&b, fen, legal, legal + 3, true);
    assert_eq!(all.likely.as_deref(), Some("every illegal move (no legality test)"));
    // Too few: three promotions of one piece each (knight, bishop or rook)
    // number the difference, so no kind is claimed and all nine stay.
    let promotions = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
    let b = board(promotions);
    let legal = b.legal_moves().len() as u128;
    let missing = candidates(&b, promotions, legal, legal - 3, false);
    assert_eq!(missing.fault, Fault::Missing);
    assert_eq!(missing.likely, None);
    let mut ends: Vec<char> = missing.moves.iter().map(|m| m.uci.chars().last().unwrap()).collect();
    ends.sort_unstable();
    assert_eq!(ends.iter().collect::<String>(), "bbbnnnrrr", "{:?}", missing.moves);
    // Twelve too few: only every promotion numbers it.
    let every = candidates(&b, promotions, legal, legal - 12, false);
    assert_eq!(every.likely.as_deref(), Some("promotions"));
    assert_eq!(every.moves.len(), 12, "{:?}", every.moves);
}

/// A divide listing `moves` (one node each).
fn listing(moves: &[String]) -> divide::TheirDivide {
    divide::TheirDivide { counts: moves.iter().map(|m| (m.clone(), 1)).collect(), duplicates: Vec::new() }
}

#[test]
fn a_divide_of_another_position_is_told_whose_it_is() {
    let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let moves_of = |b: &Board| -> Vec<String> { b.legal_moves().iter().map(|&mv| b.uci(mv)).collect() };
    let mut node = start.clone();
    for text in ["e2e4", "d7d5"] {
        let mv = node.parse_uci(text).unwrap();
        node.make(mv);
    }
    // The engine dropped both moves: it lists the start position's.
    let dropped = not_this_node(&node, 2, &listing(&moves_of(&start)));
    assert_eq!(dropped.as_deref(), Some("the moves of the position before all of them"));
    // It applied only the first: the position one ply back.
    let mut one = start.clone();
    one.make(one.parse_uci("e2e4").unwrap());
    assert_eq!(
        not_this_node(&node, 2, &listing(&moves_of(&one))).as_deref(),
        Some("the moves of the position one ply back")
    );
    // Its own moves are this node's: nothing to say.
    assert_eq!(not_this_node(&node, 2, &listing(&moves_of(&node))), None);
    // At the test position itself nothing is earlier.
    assert_eq!(not_this_node(&start, 0, &listing(&moves_of(&node))), None);
    // Black's moves where White is to move.
    let mut after = node.clone();
    after.make(after.parse_uci("e4d5").unwrap());
    let black_to_move: Vec<String> = moves_of(&after);
    let mut white = node.clone();
    white.make(white.parse_uci("g1f3").unwrap());
    white.make(white.parse_uci("g8f6").unwrap());
    assert_eq!(not_this_node(&white, 4, &listing(&black_to_move)).as_deref(), Some("the other side's moves"));
}
