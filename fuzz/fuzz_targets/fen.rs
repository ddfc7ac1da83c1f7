//! Any bytes as a FEN, in every castling and validation mode: parsing never
//! panics, and whatever is accepted is a consistent board whose FEN reads
//! back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use perft::board::{Board, CastlingMode, FenOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for castling in [CastlingMode::Detect, CastlingMode::Standard, CastlingMode::Chess960] {
        for relaxed in [false, true] {
            let options = FenOptions { castling, relaxed };
            let Ok(board) = Board::from_fen_with(text, options) else { continue };
            board.check_consistency().expect("accepted board is consistent");
            let fen = board.fen();
            let mode = if board.is_chess960() { CastlingMode::Chess960 } else { CastlingMode::Standard };
            let again = Board::from_fen_with(&fen, FenOptions { castling: mode, relaxed })
                .unwrap_or_else(|e| panic!("our own FEN {fen} is refused: {e}"));
            assert_eq!(again.fen(), fen);
            assert_eq!(again.key(), board.key());
            // Counting and listing agree.
            assert_eq!(board.count_legal_moves() as usize, board.legal_moves().len());
        }
    }
});
