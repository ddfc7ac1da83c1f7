//! Castling geometry, fixed when a board is set up.

use crate::attacks::between;
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, Rank, Square};

/// Where the kings and castling rooks start and what castling needs.
///
/// Rights are only ever lost during a game, so this never changes after
/// setup; the current rights live in the board's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CastlingConfig {
    /// Rook square per (color, side); meaningful only where a right was given.
    pub(crate) rook: [[Square; 2]; 2],
    /// King square per color; meaningful only where that color has a right.
    pub(crate) king: [Square; 2],
    /// Squares that must be empty, king and rook excluded.
    pub(crate) empty: [[Bitboard; 2]; 2],
    /// Squares the king crosses or lands on, none of which may be attacked.
    pub(crate) king_path: [[Bitboard; 2]; 2],
    /// Rights lost when a piece leaves or lands on each square.
    pub(crate) lost: [CastlingRights; 64],
}

impl CastlingConfig {
    /// Geometry for `rights`, whose rooks stand on `rook` and kings on `king`.
    pub(crate) fn new(rights: CastlingRights, rook: [[Square; 2]; 2], king: [Square; 2]) -> Self {
        let mut config = CastlingConfig {
            rook,
            king,
            empty: [[Bitboard::EMPTY; 2]; 2],
            king_path: [[Bitboard::EMPTY; 2]; 2],
            lost: [CastlingRights::NONE; 64],
        };
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if !rights.has(color, side) {
                    continue;
                }
                let k = king[color as usize];
                let r = rook[color as usize][side as usize];
                let king_to = king_destination(color, side);
                let rook_to = rook_destination(color, side);
                let path = between(k, king_to).with(king_to);
                config.king_path[color as usize][side as usize] = path;
                config.empty[color as usize][side as usize] =
                    (path | between(r, rook_to).with(rook_to)).without(k).without(r);
                let lost = &mut config.lost;
                lost[k as usize] = lost[k as usize].union(CastlingRights::of(color));
                lost[r as usize] = lost[r as usize].union(CastlingRights::single(color, side));
            }
        }
        config
    }

    /// Geometry of standard chess with all rights.
    pub(crate) fn standard() -> Self {
        Self::new(
            CastlingRights::ALL,
            [[Square::H1, Square::A1], [Square::H8, Square::A8]],
            [Square::E1, Square::E8],
        )
    }
}

/// Where the king of `color` ends up when castling on `side`.
#[inline(always)]
pub(crate) const fn king_destination(color: Color, side: CastlingSide) -> Square {
    Square::new(side.king_file(), Rank::First.relative_to(color))
}

/// Where the rook of `color` ends up when castling on `side`.
#[inline(always)]
pub(crate) const fn rook_destination(color: Color, side: CastlingSide) -> Square {
    Square::new(side.rook_file(), Rank::First.relative_to(color))
}
