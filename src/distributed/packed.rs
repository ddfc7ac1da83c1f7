//! A position packed into 34 bytes, the exact identity used to merge
//! transpositions: the placement (a nibble per square), the side to move,
//! the castling rights and the en-passant square (which the board keeps only
//! when an en-passant capture is legal). Two positions are equal exactly when
//! their packed bytes are; no hash key stands in for the position.

use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::board::Board;
use crate::types::{CastlingSide, Color, Square};

/// Bytes of a packed position.
pub const PACKED_BYTES: usize = 34;

/// The packed position. Bytes 0-31 hold the squares in FEN order (a8, b8,
/// ..., h1), two to a byte, each `piece + 1` (0 for empty); byte 32 the side
/// to move (bit 7) and the castling rights (bits 0-3); byte 33 the
/// en-passant square (64 for none). Sorting packed positions sorts by
/// placement first, in FEN order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PackedPosition(pub [u8; PACKED_BYTES]);

impl Hash for PackedPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(&self.0);
    }
}

impl PackedPosition {
    /// Packs `board`'s position (not its history or move counters).
    pub fn of(board: &Board) -> PackedPosition {
        let mut bytes = [0u8; PACKED_BYTES];
        for sq in board.occupied() {
            let index = sq as usize;
            let (rank, file) = (index / 8, index % 8);
            let slot = (7 - rank) * 8 + file;
            let nibble = board.piece_on(sq).map_or(0, |p| p as u8 + 1);
            bytes[slot / 2] |= if slot % 2 == 0 { nibble << 4 } else { nibble };
        }
        let side = u8::from(board.side_to_move() == Color::Black) << 7;
        bytes[32] = side | board.castling_rights().bits();
        bytes[33] = board.en_passant().map_or(64, |sq| sq as u8);
        PackedPosition(bytes)
    }

    /// The first four FEN fields (placement, side, castling, en passant) as
    /// [`Board::fen`] writes them, given the castling letters of the root
    /// the position descends from (see [`CastlingLetters`]).
    pub fn fen(&self, letters: &CastlingLetters) -> String {
        const PIECES: &[u8; 15] = b".PNBRQK..pnbrqk";
        let mut fen = String::with_capacity(72);
        for rank in 0..8 {
            let mut empty = 0u8;
            for file in 0..8 {
                let slot = rank * 8 + file;
                let byte = self.0[slot / 2];
                let nibble = if slot % 2 == 0 { byte >> 4 } else { byte & 15 };
                if nibble == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    fen.push(char::from(b'0' + empty));
                    empty = 0;
                }
                fen.push(char::from(PIECES[usize::from(nibble)]));
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank < 7 {
                fen.push('/');
            }
        }
        fen.push_str(if self.0[32] & 0x80 != 0 { " b " } else { " w " });
        let rights = self.0[32] & 15;
        let before = fen.len();
        for (bit, letter) in letters.0.iter().enumerate() {
            if rights & (1 << bit) != 0 {
                fen.push(*letter);
            }
        }
        if fen.len() == before {
            fen.push('-');
        }
        fen.push(' ');
        match Square::try_index(usize::from(self.0[33])) {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen
    }
}

/// The castling letters of one root, in the order of the rights' bits:
/// `KQkq` in standard chess, the rooks' files (`HAha`, Shredder-FEN) in
/// Chess960, as [`Board::fen`] writes them. Every position below the root
/// castles with the same rooks, so the letters of the root serve them all.
pub struct CastlingLetters([char; 4]);

impl CastlingLetters {
    /// The letters of `root`.
    pub fn of(root: &Board) -> CastlingLetters {
        let mut letters = ['K', 'Q', 'k', 'q'];
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let bit = crate::types::CastlingRights::single(color, side).bits().trailing_zeros() as usize;
                let mut letter = match (root.castling_rook(color, side), root.is_chess960()) {
                    (Some(rook), true) => rook.file().to_char(),
                    _ if side == CastlingSide::King => 'k',
                    _ => 'q',
                };
                if color == Color::White {
                    letter = letter.to_ascii_uppercase();
                }
                letters[bit] = letter;
            }
        }
        CastlingLetters(letters)
    }
}

/// A fast hasher for packed positions in the split's maps (multiply and
/// rotate over 8-byte words, then a final avalanche); not for untrusted keys.
#[derive(Default)]
pub struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// Builds [`PackedHasher`]s.
pub type BuildPackedHasher = BuildHasherDefault<PackedHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{CastlingMode, FenOptions};

    fn four_fields(fen: &str) -> String {
        fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
    }

    /// Packing then writing gives the board's own FEN, and packing is
    /// injective, along random games from standard and Chess960 roots.
    #[test]
    fn fen_round_trip_along_random_games() {
        let roots = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
        ];
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut positions = 0;
        for (fen, chess960) in roots {
            // Injective within one root (whose castling letters it uses).
            let mut seen = std::collections::HashMap::new();
            let options = FenOptions { castling: CastlingMode::from_chess960(chess960), relaxed: false };
            for _game in 0..40 {
                let mut board = Board::from_fen_with(fen, options).unwrap();
                let letters = CastlingLetters::of(&board);
                for _ply in 0..60 {
                    let packed = PackedPosition::of(&board);
                    let text = four_fields(&board.fen());
                    assert_eq!(packed.fen(&letters), text);
                    positions += 1;
                    if let Some(other) = seen.insert(packed.0, text.clone()) {
                        assert_eq!(other, text, "two positions packed alike");
                    }
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    board.make(moves[(rng % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(positions > 5000);
    }
}
