//! Board behaviour: keys, FEN reading and writing, notation, game status,
//! perft modes.

use perft::board::zobrist::{self, ZobristKeys};
use perft::board::{Board, CastlingMode, DrawReason, FenError, FenField, FenOptions, Outcome, Problem};
use perft::counting::{divide, perft, Mode};
use perft::movegen::{MoveSet, MAX_LEGAL_MOVES};
use perft::{CastlingSide, Color, Move, MoveKind, PieceKind, Square};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(board: &mut Board, moves: &str) {
    for mv in moves.split_whitespace() {
        board.play_uci(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn start_position_key_is_pinned() {
    // Changing the key set (seed, order or derivation) changes this value
    // and invalidates stored hash tables and journals: do it on purpose only.
    assert_eq!(Board::startpos().key(), 0x9573_844c_afb8_799d);
    assert_eq!(Board::startpos().key(), Board::startpos().key_with(&zobrist::PRIMARY));
    assert_ne!(Board::startpos().key_with(&zobrist::SECONDARY), Board::startpos().key());
    assert_eq!(
        Board::startpos().key_with(&ZobristKeys::generate(zobrist::PRIMARY_SEED)),
        Board::startpos().key()
    );
}

#[test]
fn keys_follow_the_position_not_the_path() {
    let mut a = Board::startpos();
    play(&mut a, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(a.key(), Board::startpos().key());
    let mut b = Board::startpos();
    play(&mut b, "e2e4 e7e5 g1f3");
    let mut c = Board::startpos();
    play(&mut c, "g1f3 e7e5 e2e4");
    assert_eq!(
        b.fen().split(' ').take(3).collect::<Vec<_>>(),
        c.fen().split(' ').take(3).collect::<Vec<_>>()
    );
    assert_eq!(b.key(), c.key());
    // Side to move, castling rights and a legal en-passant square all count.
    let white = board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_ne!(white.key(), board("4k3/8/8/8/8/8/8/R3K3 b Q - 0 1").key());
    assert_ne!(white.key(), board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").key());
    let ep = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(ep.en_passant(), Some(Square::D6));
    assert_ne!(ep.key(), board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").key());
}

#[test]
fn en_passant_square_is_kept_only_when_the_capture_is_legal() {
    // No pawn can take: the square is dropped, so the FEN and key are those
    // of the same position without it.
    let useless = board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    assert_eq!(useless.en_passant(), None);
    assert_eq!(useless.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    // The capture would expose the king along the rank: dropped as well.
    let pinned = board("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_eq!(pinned.en_passant(), None);
    assert_eq!(pinned.count_legal_moves(), 6);
    // After a double push next to an enemy pawn it is set by make.
    let mut b = board("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1");
    play(&mut b, "e2e4");
    assert_eq!(b.en_passant(), Some(Square::E3));
    assert!(b.legal_moves().contains(&Move::new(Square::F4, Square::E3, MoveKind::EnPassant)));
}

#[test]
fn fen_round_trips() {
    for fen in [
        perft::board::STARTPOS_FEN,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 57",
    ] {
        assert_eq!(board(fen).fen(), fen);
        assert_eq!(board(fen).to_string(), fen);
    }
    // Four-field FENs get default counters.
    assert_eq!(board("8/8/8/8/8/8/8/K6k w - -").fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
}

#[test]
fn x_fen_and_shredder_fen_castling() {
    // X-FEN: KQkq names the outermost rook on each side of the king.
    let xfen = board("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
    assert!(xfen.is_chess960());
    assert_eq!(xfen.castling_rook(Color::White, CastlingSide::King), Some(Square::E1));
    assert_eq!(xfen.castling_rook(Color::White, CastlingSide::Queen), Some(Square::A1));
    assert_eq!(xfen.castling_rook(Color::Black, CastlingSide::King), Some(Square::E8));
    assert_eq!(xfen.fen(), "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1");
    // A file letter picks an inner rook; Shredder-FEN letters work the same.
    let inner = board("4k3/8/8/8/8/8/8/R1R1K2R w C - 0 1");
    assert_eq!(inner.castling_rook(Color::White, CastlingSide::Queen), Some(Square::C1));
    assert_eq!(inner.castling_rook(Color::White, CastlingSide::King), None);
    // Standard chess stays standard.
    let standard = board(KIWIPETE);
    assert!(!standard.is_chess960());
    assert_eq!(standard.castling_rook(Color::Black, CastlingSide::Queen), Some(Square::A8));
    // Forcing standard mode refuses rights that need Chess960.
    let forced = Board::from_fen_with(
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
        FenOptions { castling: CastlingMode::Standard, relaxed: false },
    );
    assert!(
        matches!(forced, Err(FenError::Position(ref e)) if matches!(e.problems()[0], Problem::InvalidCastling { right: 'K', .. })),
        "{forced:?}"
    );
    // Forcing Chess960 mode on a standard position changes only notation.
    let forced =
        Board::from_fen_with(KIWIPETE, FenOptions { castling: CastlingMode::Chess960, relaxed: false })
            .unwrap();
    assert!(forced.is_chess960());
    assert_eq!(forced.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w HAha - 0 1");
}

#[test]
fn fen_for_engines_writes_x_fen_castling() {
    // Outermost rooks become KQkq; an inner rook keeps its file letter.
    let xfen = board("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
    assert_eq!(xfen.fen_keeping_en_passant(), "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
    let inner = board("rk2r1r1/8/8/8/8/8/8/RK2R1R1 w EAga - 0 1");
    assert_eq!(inner.fen(), "rk2r1r1/8/8/8/8/8/8/RK2R1R1 w EAga - 0 1");
    assert_eq!(inner.fen_keeping_en_passant(), "rk2r1r1/8/8/8/8/8/8/RK2R1R1 w EQkq - 0 1");
    // What it writes reads back to the same position.
    for b in [&xfen, &inner] {
        let again = Board::from_fen_with(
            &b.fen_keeping_en_passant(),
            FenOptions { castling: CastlingMode::Chess960, relaxed: false },
        )
        .unwrap();
        assert_eq!(again.fen(), b.fen());
        assert_eq!(again.key(), b.key());
    }
}

#[test]
fn castling_notation() {
    let mut b = board(KIWIPETE);
    let castles: Vec<String> = b.legal_moves().iter().filter(|m| m.is_castle()).map(|&m| b.uci(m)).collect();
    assert_eq!(castles, ["e1g1", "e1c1"]);
    // Standard boards accept both spellings; Chess960 boards only king-takes-rook.
    assert_eq!(b.parse_uci("e1g1").unwrap(), b.parse_uci("e1h1").unwrap());
    b.set_chess960(true).unwrap();
    assert_eq!(b.uci(b.parse_uci("e1h1").unwrap()), "e1h1");
    assert!(b.parse_uci("e1g1").is_err());
    b.set_chess960(false).unwrap();
    // A king that castles without moving (Chess960, king on g1).
    let mut g = board("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let castle = g.parse_uci("g1h1").unwrap();
    assert!(castle.is_castle());
    g.make(castle);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    g.unmake();
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/6KR w H - 0 1");
}

#[test]
fn uci_errors() {
    let b = Board::startpos();
    for bad in ["", "e2", "e2e9", "e2e4qq", "i2i4", "e7e8x", "e7e8K", "é2e4"] {
        assert!(matches!(b.parse_uci(bad), Err(perft::movegen::MoveError::Malformed(_))), "{bad}");
    }
    assert!(matches!(b.parse_uci("e2e5"), Err(perft::movegen::MoveError::Illegal { .. })));
    let msg = b.parse_uci("e2e5").unwrap_err().to_string();
    assert!(msg.contains("e2e5") && msg.contains("rnbqkbnr"), "{msg}");
}

#[test]
fn fen_syntax_errors_name_the_field() {
    let cases: &[(&str, Option<FenField>)] = &[
        ("", None),
        ("   ", None),
        ("8/8/8/8/8/8/8/K6k", Some(FenField::SideToMove)),
        ("8/8/8/8/8/8/8/K6k w", Some(FenField::Castling)),
        ("8/8/8/8/8/8/8/K6k w -", Some(FenField::EnPassant)),
        ("8/8/8/8/8/8/K6k w - - 0 1", Some(FenField::Placement)),
        ("8/8/8/8/8/8/8/8/K6k w - - 0 1", Some(FenField::Placement)),
        ("8/8/8/8/8/8/8/K7k w - - 0 1", Some(FenField::Placement)),
        ("8/8/8/8/8/8/8/K5k w - - 0 1", Some(FenField::Placement)),
        ("8/8/8/8/8/8/8/K6x w - - 0 1", Some(FenField::Placement)),
        ("8/8/8/8/8/8/8/K6k x - - 0 1", Some(FenField::SideToMove)),
        ("8/8/8/8/8/8/8/K6k w KX - 0 1", Some(FenField::Castling)),
        ("8/8/8/8/8/8/8/K6k w KK - 0 1", Some(FenField::Castling)),
        ("8/8/8/8/8/8/8/K6k w ABC - 0 1", Some(FenField::Castling)),
        ("8/8/8/8/8/8/8/K6k w - e9 0 1", Some(FenField::EnPassant)),
        ("8/8/8/8/8/8/8/K6k w - x 0 1", Some(FenField::EnPassant)),
        ("8/8/8/8/8/8/8/K6k w - - -1 1", Some(FenField::HalfmoveClock)),
        ("8/8/8/8/8/8/8/K6k w - - 0 99999999999", Some(FenField::FullmoveNumber)),
    ];
    for &(fen, field) in cases {
        let err = Board::from_fen(fen).expect_err(fen);
        assert_eq!(err.fen_field(), field, "{fen}: {err}");
        if let Some(field) = field {
            assert!(err.to_string().contains(&field.to_string()), "{fen}: {err}");
        }
    }
    assert!(matches!(Board::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1 x"), Err(FenError::TrailingText(_))));
}

#[test]
fn impossible_positions() {
    let problem = |fen: &str| -> Problem {
        match Board::from_fen(fen) {
            Err(FenError::Position(e)) => e.problems()[0].clone(),
            other => panic!("{fen}: {other:?}"),
        }
    };
    assert_eq!(problem("8/8/8/8/8/8/8/7k w - - 0 1"), Problem::MissingKing(Color::White));
    assert_eq!(problem("K7/8/8/8/8/8/8/K6k w - - 0 1"), Problem::TooManyKings(Color::White));
    assert_eq!(problem("P7/8/8/8/8/8/8/K6k w - - 0 1"), Problem::PawnOnBackRank(Square::A8));
    assert_eq!(problem("8/8/8/8/8/8/8/Kk6 w - - 0 1"), Problem::OppositeCheck(Color::Black));
    assert!(matches!(problem("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), Problem::InvalidCastling { right: 'K', .. }));
    assert!(matches!(problem("4k3/8/8/8/8/8/8/4K2R w k - 0 1"), Problem::InvalidCastling { right: 'k', .. }));
    assert!(matches!(problem("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1"), Problem::InvalidEnPassant { .. }));
    assert!(matches!(problem("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"), Problem::InvalidEnPassant { .. }));
    assert!(matches!(problem("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1"), Problem::InvalidEnPassant { .. }));
    // Three checkers (rook, bishop, knight) on the black king.
    assert!(matches!(problem("4k3/8/3N4/8/B7/8/8/K3R3 b - - 0 1"), Problem::ImpossibleCheck(_)));
    assert!(matches!(
        problem("kn6/pp6/8/8/8/8/QQQQQ3/QQQQQ2K b - - 0 1"),
        Problem::TooMuchMaterial(Color::White)
    ));
    // Relaxed mode accepts the impossible-but-playable kinds only.
    let relaxed = |fen| Board::from_fen_with(fen, FenOptions::RELAXED);
    assert!(relaxed("kn6/pp6/8/8/8/8/QQQQQ3/QQQQQ2K b - - 0 1").is_ok());
    assert_eq!(relaxed("4k3/8/3N4/8/B7/8/8/K3R3 b - - 0 1").unwrap().checkers().count(), 3);
    assert!(relaxed("8/8/8/8/8/8/8/Kk6 w - - 0 1").is_err());
    assert!(relaxed("4k3/8/8/8/8/8/8/4K3 w K - 0 1").is_err());
}

#[test]
fn double_fischer_random_castling_is_chess960_only() {
    // Kings and castling rooks on different files for the two
    // sides: legal double-Fischer-random positions, refused only as
    // standard chess.
    for fen in [
        "qbbnrkr1/p1pppppp/1p4n1/8/2P5/6N1/PPNPPPPP/1BRKBRQ1 b FCge - 1 3",
        "r1k3r1/8/8/8/8/8/8/R3K2R w HAga - 0 1",
    ] {
        let detected = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(detected.is_chess960());
        let forced =
            Board::from_fen_with(fen, FenOptions { castling: CastlingMode::Chess960, relaxed: false });
        assert!(forced.is_ok(), "{fen}");
        let standard =
            Board::from_fen_with(fen, FenOptions { castling: CastlingMode::Standard, relaxed: false });
        assert!(standard.is_err(), "{fen} is not standard chess");
    }
    // A king on a corner file still cannot have started between its rooks.
    assert!(Board::from_fen("4k3/8/8/8/8/8/8/R6K w A - 0 1").is_err());
}

#[test]
fn pins_checkers_and_attackers() {
    use perft::Bitboard;
    let squares = |list: &[Square]| list.iter().fold(Bitboard::EMPTY, |bb, &sq| bb.with(sq));
    // The knight on d2 is pinned by the bishop on b4 and the rook on e3 by
    // the queen on e7; the bishop on g3 is not (the rook on h4 is on no line
    // through the king).
    let b = board("4k3/4q3/8/8/1b5r/4R1B1/3N4/4K3 w - - 0 1");
    assert_eq!(b.pinned(), squares(&[Square::D2, Square::E3]));
    assert!(b.checkers().is_empty());
    // Two of ours between: no pin.
    let b = board("4k3/4q3/8/8/8/4R3/4N3/4K3 w - - 0 1");
    assert!(b.pinned().is_empty());
    // In check from the queen: a checker, not a pin.
    let b = board("4k3/4q3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(b.checkers(), squares(&[Square::E7]));
    assert!(b.pinned().is_empty());
    // Attackers of e4 by each side, with and without the blocker on e2.
    let b = board("7k/8/5n2/3p4/8/2B5/4R3/4K3 w - - 0 1");
    assert_eq!(b.attackers(Square::E4, Color::Black, b.occupied()), squares(&[Square::F6, Square::D5]));
    assert_eq!(b.attackers(Square::E4, Color::White, b.occupied()), squares(&[Square::E2]));
    let without_rook = b.occupied().without(Square::E2);
    assert_eq!(b.attackers(Square::E1, Color::Black, without_rook), Bitboard::EMPTY);
    assert_eq!(
        b.attackers(Square::D2, Color::White, b.occupied()),
        squares(&[Square::C3, Square::E2, Square::E1])
    );
}

#[test]
fn checkmate_and_stalemate() {
    let mut fools = Board::startpos();
    play(&mut fools, "f2f3 e7e5 g2g4 d8h4");
    assert!(fools.is_checkmate());
    assert_eq!(fools.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate() && !stalemate.is_checkmate());
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    assert_eq!(Board::startpos().outcome(), None);
}

#[test]
fn fifty_move_rule() {
    let mut b = board("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(!b.is_fifty_move_draw());
    play(&mut b, "a1a2");
    assert_eq!(b.halfmove_clock(), 100);
    assert!(b.is_fifty_move_draw());
    assert_eq!(b.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoveRule)));
    b.unmake();
    play(&mut b, "e1d2");
    assert!(b.is_fifty_move_draw());
    // A capture or pawn move resets the clock.
    let mut c = board("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
    play(&mut c, "a1a2");
    assert_eq!(c.halfmove_clock(), 0);
    // Checkmate on the hundredth ply is still checkmate.
    let mut mate = board("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut mate, "a1a8");
    assert!(mate.is_checkmate() && !mate.is_fifty_move_draw());
}

#[test]
fn threefold_repetition() {
    let mut b = Board::startpos();
    assert_eq!(b.repetitions(), 1);
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(b.repetitions(), 2);
    assert!(!b.is_threefold_repetition());
    play(&mut b, "g1f3 g8f6 f3g1");
    assert!(!b.is_threefold_repetition());
    play(&mut b, "f6g8");
    assert!(b.is_threefold_repetition());
    assert_eq!(b.outcome(), Some(Outcome::Draw(DrawReason::ThreefoldRepetition)));
    // An irreversible move in between starts the count afresh.
    let mut c = Board::startpos();
    play(&mut c, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(c.repetitions(), 2);
    // Lost castling rights make a different position.
    let mut d = board("r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
    play(&mut d, "a8a7 e1e2 a7a8 e2e1");
    assert_eq!(d.repetitions(), 1);
    play(&mut d, "a8a7 e1e2 a7a8 e2e1 a8a7 e1e2 a7a8 e2e1");
    assert_eq!(d.repetitions(), 3);
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/2N1K3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true),
        ("8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1", false),
        ("8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1", false),
        ("8/8/8/4k3/8/8/8/2n1KN2 w - - 0 1", false),
        ("8/8/8/4k3/8/8/P7/4K3 w - - 0 1", false),
        ("8/8/8/4k3/8/8/8/3RK3 w - - 0 1", false),
    ] {
        assert_eq!(board(fen).is_insufficient_material(), dead, "{fen}");
    }
    assert_eq!(
        board("8/8/8/4k3/8/8/8/2N1K3 w - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
}

#[test]
fn bulk_and_full_perft_agree_and_divide_sums() {
    for (fen, depth) in
        [(perft::board::STARTPOS_FEN, 4), (KIWIPETE, 3), ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4)]
    {
        let mut b = board(fen);
        let bulk = perft(&mut b, depth, Mode::Bulk);
        assert_eq!(perft(&mut b, depth, Mode::Full), bulk);
        let parts = divide(&mut b, depth, Mode::Bulk);
        assert_eq!(parts.len() as u64, b.count_legal_moves());
        assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u128>(), bulk);
        assert_eq!(b.fen(), fen, "perft must leave the board as it found it");
    }
    assert_eq!(perft(&mut Board::startpos(), 0, Mode::Bulk), 1);
    assert_eq!(perft(&mut Board::startpos(), 1, Mode::Full), 20);
}

#[test]
fn move_list_is_large_enough() {
    let b = Board::from_fen_with("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", FenOptions::RELAXED)
        .unwrap();
    assert_eq!(b.legal_moves().len(), 270);
    const { assert!(MAX_LEGAL_MOVES >= 270) };
    assert_eq!(board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").count_legal_moves(), 218);
}

#[test]
fn move_encoding() {
    let mv = Move::new(Square::E7, Square::F8, MoveKind::PromoteKnight);
    assert_eq!((mv.from(), mv.to(), mv.kind()), (Square::E7, Square::F8, MoveKind::PromoteKnight));
    assert_eq!(mv.promotion(), Some(PieceKind::Knight));
    assert_eq!(Move::from_u16(mv.to_u16()), mv);
    assert_eq!(mv.to_string(), "e7f8n");
    assert_eq!(std::mem::size_of::<Move>(), 2);
    let castle = Move::new(Square::E8, Square::A8, MoveKind::Castle);
    assert_eq!(castle.uci(false).to_string(), "e8c8");
    assert_eq!(castle.uci(true).to_string(), "e8a8");
}

#[test]
fn move_sets_describe_every_move() {
    let b = board("r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1");
    let mut sets: Vec<MoveSet> = Vec::new();
    b.for_each_move_set(|s| sets.push(s));
    let total: usize = sets.iter().map(MoveSet::len).sum();
    assert_eq!(total as u64, b.count_legal_moves());
    let king = sets
        .iter()
        .filter(|s| s.piece == PieceKind::King)
        .flat_map(|s| s.moves())
        .filter(|m| m.is_castle())
        .count();
    assert_eq!(king, 2);
    let promotions = sets
        .iter()
        .filter(|s| s.piece == PieceKind::Pawn)
        .flat_map(|s| s.moves())
        .filter(|m| m.promotion().is_some())
        .count();
    assert_eq!(promotions, 8, "b7-b8 and b7xa8, four ways each");
}
