//! Castling rights.

use core::fmt;

use crate::types::{Color, File};

/// Which way a king castles: towards the h-file or towards the a-file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`); the king ends on g1/g8.
    King,
    /// Towards the a-file (`O-O-O`); the king ends on c1/c8.
    Queen,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// The file the king ends on: g or c, in Chess960 too.
    #[inline(always)]
    pub const fn king_file(self) -> File {
        match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        }
    }

    /// The file the rook ends on: f or d, in Chess960 too.
    #[inline(always)]
    pub const fn rook_file(self) -> File {
        match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        }
    }
}

/// A set of castling rights, one bit per (color, side).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: Self = Self(0);
    /// All four rights.
    pub const ALL: Self = Self(15);

    /// The single right of `color` to castle on `side`.
    #[inline(always)]
    pub const fn single(color: Color, side: CastlingSide) -> Self {
        Self(1 << (color as u8 * 2 + side as u8))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn of(color: Color) -> Self {
        Self(3 << (color as u8 * 2))
    }

    /// Whether `color` has any right left.
    #[inline(always)]
    pub const fn any_of(self, color: Color) -> bool {
        !self.intersect(Self::of(color)).is_empty()
    }

    /// Whether `color` may castle on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::single(color, side).0 != 0
    }

    /// The rights in `self` and in `other`.
    #[inline(always)]
    pub const fn intersect(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// The rights in `self` or in `other`.
    #[inline(always)]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The rights in `self` but not in `other`.
    #[inline(always)]
    pub const fn without(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// Whether no right is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights as a 4-bit number (bit `2 * color + side`).
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights(")?;
        for (c, color, side) in [
            ('K', Color::White, CastlingSide::King),
            ('Q', Color::White, CastlingSide::Queen),
            ('k', Color::Black, CastlingSide::King),
            ('q', Color::Black, CastlingSide::Queen),
        ] {
            if self.has(color, side) {
                write!(f, "{c}")?;
            }
        }
        write!(f, ")")
    }
}
