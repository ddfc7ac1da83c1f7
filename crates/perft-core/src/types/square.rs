//! Squares, files and ranks.

use core::fmt;
use core::str::FromStr;

use crate::types::{Bitboard, Color};

simple_enum!(
    /// A file (column), `A` to `H`.
    File, 8, [A, B, C, D, E, F, G, H]
);
simple_enum!(
    /// A rank (row), `First` to `Eighth`.
    Rank, 8, [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth]
);
simple_enum!(
    /// A square, `A1 = 0` to `H8 = 63` (little-endian rank-file mapping).
    Square, 64, [
        A1, B1, C1, D1, E1, F1, G1, H1,
        A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3,
        A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5,
        A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7,
        A8, B8, C8, D8, E8, F8, G8, H8
    ]
);

impl File {
    /// The file with index `bits & 7`: every input gives a file.
    #[inline(always)]
    pub(crate) const fn from_bits_masked(bits: u32) -> Self {
        // SAFETY: `File` is `repr(u8)` with discriminants 0..8, and the mask
        // keeps the value in that range. See `Square::from_bits_masked`.
        unsafe { core::mem::transmute((bits & 7) as u8) }
    }

    /// The file's letter, `'a'` to `'h'`.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `'a'..='h'` (or upper case).
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            'a'..='h' => Some(Self::ALL[c as usize - 'a' as usize]),
            'A'..='H' => Some(Self::ALL[c as usize - 'A' as usize]),
            _ => None,
        }
    }

    /// All squares on this file.
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << self as u8)
    }
}

impl Rank {
    /// The rank with index `bits & 7`: every input gives a rank.
    #[inline(always)]
    pub(crate) const fn from_bits_masked(bits: u32) -> Self {
        // SAFETY: `Rank` is `repr(u8)` with discriminants 0..8, and the mask
        // keeps the value in that range. See `Square::from_bits_masked`.
        unsafe { core::mem::transmute((bits & 7) as u8) }
    }

    /// The rank's digit, `'1'` to `'8'`.
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `'1'..='8'`.
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            '1'..='8' => Some(Self::ALL[c as usize - '1' as usize]),
            _ => None,
        }
    }

    /// All squares on this rank.
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(0xff << (8 * self as u8))
    }

    /// This rank seen from `color`'s side: `First` is White's first rank and
    /// Black's eighth.
    pub const fn relative_to(self, color: Color) -> Self {
        match color {
            Color::White => self,
            Color::Black => Self::from_bits_masked(7 - self as u32),
        }
    }
}

impl Square {
    /// The square with index `bits & 63`: every input gives a square.
    #[inline(always)]
    pub(crate) const fn from_bits_masked(bits: u32) -> Self {
        // SAFETY: `Square` is `repr(u8)` with discriminants 0..64, and the
        // mask keeps the value in that range. Written as `Square::ALL[i]`
        // the conversion compiles to a dependent table load on the hot path
        // (bit iteration, move decoding); the transmute is a no-op. Measured
        // with the piece and move-kind conversions: perft 12% faster (4%
        // fewer instructions, shorter dependency chains).
        unsafe { core::mem::transmute((bits & 63) as u8) }
    }

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Self {
        Self::from_bits_masked(rank as u32 * 8 + file as u32)
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::from_bits_masked(self as u32)
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::from_bits_masked(self as u32 >> 3)
    }

    /// A bitboard holding only this square.
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self as u8)
    }

    /// The square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Self {
        Self::from_bits_masked(self as u32 ^ 56)
    }

    /// This square seen from `color`'s side (mirrored for Black).
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Self {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The square `files` to the right and `ranks` up, if it is on the board.
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Self> {
        let file = self as i8 % 8 + files;
        let rank = self as i8 / 8 + ranks;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Self::ALL[(rank * 8 + file) as usize])
        } else {
            None
        }
    }

    /// Square index with `xor` applied; used for the fixed rank distance
    /// between the en-passant square and the pawn's squares.
    #[inline(always)]
    pub(crate) const fn xor(self, bits: u8) -> Self {
        Self::from_bits_masked((self as u8 ^ bits) as u32)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Error for a string that is not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(file), Some(rank)) if f.is_ascii_lowercase() => Ok(Square::new(file, rank)),
                _ => Err(ParseSquareError(s.to_owned())),
            },
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}
