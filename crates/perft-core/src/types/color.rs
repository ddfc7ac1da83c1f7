//! The two sides.

use core::fmt;
use core::ops::Not;

simple_enum!(
    /// A side: White or Black.
    Color, 2, [
        /// The side that moves first.
        White,
        /// The other side.
        Black,
    ]
);

impl Color {
    /// `'w'` or `'b'`, as in FEN.
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The color whose pieces are written in this case in FEN (upper case
    /// is White).
    pub const fn from_case(upper: bool) -> Self {
        if upper {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
