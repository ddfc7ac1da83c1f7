//! Piece kinds and colored pieces.

use crate::types::Color;

simple_enum!(
    /// A kind of piece, without color.
    PieceKind, 6, [Pawn, Knight, Bishop, Rook, Queen, King]
);

impl PieceKind {
    /// The lower-case FEN letter.
    pub const fn to_char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Parses a FEN letter in either case.
    pub const fn from_char(c: char) -> Option<Self> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceKind::Pawn),
            'n' => Some(PieceKind::Knight),
            'b' => Some(PieceKind::Bishop),
            'r' => Some(PieceKind::Rook),
            'q' => Some(PieceKind::Queen),
            'k' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A colored piece, stored in one byte as `kind | color << 3`, so kind and
/// color are bit fields; `Option<Piece>` is one byte too.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Piece {
    WhitePawn = 0,
    WhiteKnight = 1,
    WhiteBishop = 2,
    WhiteRook = 3,
    WhiteQueen = 4,
    WhiteKing = 5,
    BlackPawn = 8,
    BlackKnight = 9,
    BlackBishop = 10,
    BlackRook = 11,
    BlackQueen = 12,
    BlackKing = 13,
}

impl Piece {
    /// All twelve pieces, White's first.
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn,
        Piece::WhiteKnight,
        Piece::WhiteBishop,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::WhiteKing,
        Piece::BlackPawn,
        Piece::BlackKnight,
        Piece::BlackBishop,
        Piece::BlackRook,
        Piece::BlackQueen,
        Piece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Self {
        // SAFETY: `kind` is 0..=5 and `color` 0 or 1, so the value is one of
        // the discriminants above. Like the other bit-field conversions
        // (`Square::from_bits_masked`), this replaces a table load on the
        // make/unmake path.
        unsafe { core::mem::transmute(kind as u8 | (color as u8) << 3) }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        // SAFETY: the low three bits of every discriminant are 0..=5, the
        // discriminants of `PieceKind`.
        unsafe { core::mem::transmute(self as u8 & 7) }
    }

    /// The piece's color.
    #[inline(always)]
    pub const fn color(self) -> Color {
        // SAFETY: bit 3 is the only higher bit used, so this is 0 or 1.
        unsafe { core::mem::transmute(self as u8 >> 3) }
    }

    /// The FEN letter: upper case for White.
    pub const fn to_char(self) -> char {
        let c = self.kind().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter.
    pub const fn from_char(c: char) -> Option<Self> {
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece::new(Color::from_case(c.is_ascii_uppercase()), kind)),
            None => None,
        }
    }
}
