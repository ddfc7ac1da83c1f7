//! Basic chess types: squares, bitboards, colors, pieces, moves and castling
//! rights.

/// A field-less enum numbered from 0, with `NUM`, `ALL` and index
/// conversions.
macro_rules! simple_enum {
    ($(#[$meta:meta])* $name:ident, $num:literal, [$($(#[$vmeta:meta])* $variant:ident),* $(,)?]) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum $name { $($(#[$vmeta])* $variant),* }

        impl $name {
            /// Number of values.
            pub const NUM: usize = $num;
            /// All values in index order.
            pub const ALL: [Self; $num] = [$(Self::$variant),*];

            /// The value with index `index`.
            ///
            /// # Panics
            /// Panics if `index >= NUM`.
            #[inline(always)]
            pub const fn index(index: usize) -> Self {
                Self::ALL[index]
            }

            /// The value with index `index`, or `None` if it is out of range.
            #[inline]
            pub const fn try_index(index: usize) -> Option<Self> {
                if index < $num { Some(Self::ALL[index]) } else { None }
            }
        }
    };
}

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod piece;
mod square;

pub use bitboard::{Bitboard, Squares};
pub use castling::{CastlingRights, CastlingSide};
pub use chess_move::{Move, MoveKind, Uci};
pub use color::Color;
pub use piece::{Piece, PieceKind};
pub use square::{File, ParseSquareError, Rank, Square};
