//! `Bitboard`: a set of squares in one `u64`.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::types::Square;

/// A set of squares; bit `n` is set when [`Square`] `n` is in the set.
///
/// Iterating a bitboard yields its squares from a1 upwards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Self = Self(0);
    /// All 64 squares.
    pub const FULL: Self = Self(!0);
    /// The light squares (h1 is light).
    pub const LIGHT: Self = Self(0x55aa_55aa_55aa_55aa);
    /// The dark squares (a1 is dark).
    pub const DARK: Self = Self(!0x55aa_55aa_55aa_55aa);

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `square` is in the set.
    #[inline(always)]
    pub const fn has(self, square: Square) -> bool {
        self.0 & (1 << square as u8) != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bits_masked(self.0.trailing_zeros()))
        }
    }

    /// The only square of a one-square set, or `None` for any other set.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The lowest square; the set must not be empty (garbage otherwise).
    #[inline(always)]
    pub(crate) const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_bits_masked(self.0.trailing_zeros())
    }

    /// The set with `square` added.
    #[inline(always)]
    pub const fn with(self, square: Square) -> Self {
        Self(self.0 | 1 << square as u8)
    }

    /// The set with `square` removed.
    #[inline(always)]
    pub const fn without(self, square: Square) -> Self {
        Self(self.0 & !(1 << square as u8))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], from a1 upwards.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let square = Square::from_bits_masked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(square)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Self::EMPTY, Self::with)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(square: Square) -> Self {
        square.bitboard()
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $op:tt $assign_trait:ident $assign_fn:ident),*) => {$(
        impl $trait for Bitboard {
            type Output = Self;
            #[inline(always)]
            fn $fn(self, rhs: Self) -> Self { Self(self.0 $op rhs.0) }
        }
        impl $trait<Square> for Bitboard {
            type Output = Self;
            #[inline(always)]
            fn $fn(self, rhs: Square) -> Self { Self(self.0 $op rhs.bitboard().0) }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Self) { self.0 = self.0 $op rhs.0 }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Square) { self.0 = self.0 $op rhs.bitboard().0 }
        }
    )*};
}

bit_ops!(
    BitAnd bitand & BitAndAssign bitand_assign,
    BitOr bitor | BitOrAssign bitor_assign,
    BitXor bitxor ^ BitXorAssign bitxor_assign
);

impl Not for Bitboard {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// Set difference: the squares of `self` that are not in `rhs`.
impl Sub for Bitboard {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0 & !rhs.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            for rank in (0..8).rev() {
                for file in 0..8 {
                    let set = self.0 >> (rank * 8 + file) & 1 != 0;
                    f.write_str(if set { "X" } else { "." })?;
                }
                f.write_str("\n")?;
            }
            Ok(())
        } else {
            write!(f, "Bitboard({:#018x})", self.0)
        }
    }
}
