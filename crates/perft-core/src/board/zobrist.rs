//! Zobrist keys.
//!
//! The keys are fixed: they come from SplitMix64 started at a documented seed
//! ([`PRIMARY_SEED`]), drawn in this order: 768 piece-square keys (piece
//! index `0..12` as in [`Piece::ALL`], then square `a1..h8`), 4 castling keys
//! (White king side, White queen side, Black king side, Black queen side),
//! 8 en-passant file keys (a..h), and the side-to-move key (XORed in when
//! Black is to move). Three more independent sets ([`SECONDARY_SEED`],
//! [`TERTIARY_SEED`], [`QUATERNARY_SEED`]) give a hash table a second
//! 64-bit key to check its entries by, and a run repeated with
//! `--verify-hash` a pair of keys unrelated to the first run's.

use crate::types::{CastlingRights, Color, File, Piece, Square};

/// Seed of the keys the board maintains incrementally.
pub const PRIMARY_SEED: u64 = 0x7065_7266_742d_7a6f; // "perft-zo"
/// Seed of an independent key set, for cross-checking hash tables.
pub const SECONDARY_SEED: u64 = 0x7a6f_6272_6973_7432; // "zobrist2"
/// Seed of a third independent key set.
pub const TERTIARY_SEED: u64 = 0x7a6f_6272_6973_7433; // "zobrist3"
/// Seed of a fourth independent key set.
pub const QUATERNARY_SEED: u64 = 0x7a6f_6272_6973_7434; // "zobrist4"

/// One complete set of Zobrist keys.
#[derive(Clone, Debug)]
pub struct ZobristKeys {
    /// Indexed by the piece's byte value (`kind | color << 3`); rows 6 and
    /// 7 are unused.
    pieces: [[u64; 64]; 14],
    castling: [u64; 16],
    en_passant: [u64; 8],
    black_to_move: u64,
}

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl ZobristKeys {
    /// Draws a key set from SplitMix64 seeded with `seed`, in the documented
    /// order.
    pub const fn generate(seed: u64) -> Self {
        let mut state = seed;
        let mut pieces = [[0u64; 64]; 14];
        let mut p = 0;
        while p < 12 {
            let row = Piece::ALL[p] as usize;
            let mut sq = 0;
            while sq < 64 {
                pieces[row][sq] = splitmix64(&mut state);
                sq += 1;
            }
            p += 1;
        }
        let mut single = [0u64; 4];
        let mut i = 0;
        while i < 4 {
            single[i] = splitmix64(&mut state);
            i += 1;
        }
        // The key of a set of rights is the XOR of its single-right keys.
        let mut castling = [0u64; 16];
        let mut bits = 0;
        while bits < 16 {
            let mut right = 0;
            while right < 4 {
                if bits & (1 << right) != 0 {
                    castling[bits] ^= single[right];
                }
                right += 1;
            }
            bits += 1;
        }
        let mut en_passant = [0u64; 8];
        let mut f = 0;
        while f < 8 {
            en_passant[f] = splitmix64(&mut state);
            f += 1;
        }
        let black_to_move = splitmix64(&mut state);
        ZobristKeys { pieces, castling, en_passant, black_to_move }
    }

    /// Key of `piece` standing on `square`.
    #[inline(always)]
    pub fn piece(&self, piece: Piece, square: Square) -> u64 {
        self.pieces[piece as usize][square as usize]
    }

    /// Key of a set of castling rights.
    #[inline(always)]
    pub fn castling(&self, rights: CastlingRights) -> u64 {
        self.castling[rights.bits() as usize]
    }

    /// Key of an en-passant file.
    #[inline(always)]
    pub fn en_passant(&self, file: File) -> u64 {
        self.en_passant[file as usize]
    }

    /// Key XORed in when `color` is to move (zero for White).
    #[inline(always)]
    pub fn side(&self, color: Color) -> u64 {
        match color {
            Color::White => 0,
            Color::Black => self.black_to_move,
        }
    }

    /// Key XORed in when the side to move changes.
    #[inline(always)]
    pub fn side_flip(&self) -> u64 {
        self.black_to_move
    }
}

/// The keys boards maintain.
pub static PRIMARY: ZobristKeys = ZobristKeys::generate(PRIMARY_SEED);
/// An independent key set (see [`crate::Board::key_with`]).
pub static SECONDARY: ZobristKeys = ZobristKeys::generate(SECONDARY_SEED);
/// A third independent key set.
pub static TERTIARY: ZobristKeys = ZobristKeys::generate(TERTIARY_SEED);
/// A fourth independent key set.
pub static QUATERNARY: ZobristKeys = ZobristKeys::generate(QUATERNARY_SEED);
