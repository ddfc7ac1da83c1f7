//! `Move`: a move in 16 bits.

use core::fmt;

use crate::types::{CastlingSide, PieceKind, Square};

/// What kind of move a [`Move`] is, stored in its top four bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// Any move not listed below, captures included.
    Normal = 0,
    /// A pawn's two-square first move.
    DoublePush = 1,
    /// Castling, encoded as the king capturing its own rook.
    Castle = 2,
    /// An en-passant capture; `to` is the en-passant square.
    EnPassant = 3,
    /// Promotion to a knight (capturing or not).
    PromoteKnight = 4,
    /// Promotion to a bishop.
    PromoteBishop = 5,
    /// Promotion to a rook.
    PromoteRook = 6,
    /// Promotion to a queen.
    PromoteQueen = 7,
}

impl MoveKind {
    #[inline(always)]
    const fn from_bits_masked(bits: u16) -> Self {
        // SAFETY: `MoveKind` is `repr(u8)` with discriminants 0..8, and the
        // mask keeps the value in that range (see `Square::from_bits_masked`).
        unsafe { core::mem::transmute((bits & 7) as u8) }
    }

    /// The promotion kind for `piece`, which must be knight to queen.
    pub const fn promotion(piece: PieceKind) -> Option<Self> {
        match piece {
            PieceKind::Knight => Some(MoveKind::PromoteKnight),
            PieceKind::Bishop => Some(MoveKind::PromoteBishop),
            PieceKind::Rook => Some(MoveKind::PromoteRook),
            PieceKind::Queen => Some(MoveKind::PromoteQueen),
            _ => None,
        }
    }
}

/// A move: from square (bits 0-5), to square (bits 6-11), [`MoveKind`]
/// (bits 12-15).
///
/// Castling is stored as the king moving onto its own rook's square, so the
/// same encoding serves standard chess and Chess960. A `Move` only has a
/// meaning together with the position it was generated in.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// Builds a move. Nothing is checked.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Self {
        Move(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }

    /// The raw 16-bit encoding.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::to_u16`]. Any `u16` gives some move.
    #[inline(always)]
    pub const fn from_u16(bits: u16) -> Self {
        Move(bits)
    }

    /// The square the moving piece leaves (the king, for castling).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_bits_masked(self.0 as u32)
    }

    /// The target square (the castling rook's square, for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_bits_masked((self.0 >> 6) as u32)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind::from_bits_masked(self.0 >> 12)
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::PromoteKnight => Some(PieceKind::Knight),
            MoveKind::PromoteBishop => Some(PieceKind::Bishop),
            MoveKind::PromoteRook => Some(PieceKind::Rook),
            MoveKind::PromoteQueen => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind(), MoveKind::Castle)
    }

    /// Whether this is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind(), MoveKind::EnPassant)
    }

    /// For castling (king takes rook): the side, from where the rook stands
    /// relative to the king. Meaningless for other moves.
    #[inline(always)]
    pub const fn castling_side(self) -> CastlingSide {
        if (self.to() as u8) > (self.from() as u8) {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        }
    }

    /// The square the king ends on; differs from [`Move::to`] only for
    /// castling.
    pub const fn king_destination(self) -> Square {
        if self.is_castle() {
            Square::new(self.castling_side().king_file(), self.from().rank())
        } else {
            self.to()
        }
    }

    /// The square the moved piece ends on: the rook's for castling (the
    /// piece that can give check), otherwise [`Move::to`].
    pub const fn piece_destination(self) -> Square {
        if self.is_castle() {
            Square::new(self.castling_side().rook_file(), self.from().rank())
        } else {
            self.to()
        }
    }

    /// The move in UCI notation. Castling is written as the king's two-square
    /// move (`e1g1`) in standard chess and as king-takes-rook (`e1h1`) in
    /// Chess960, as Stockfish does with `UCI_Chess960`.
    pub const fn uci(self, chess960: bool) -> Uci {
        Uci { mv: self, chess960 }
    }
}

/// A [`Move`] formatted in UCI notation; see [`Move::uci`].
#[derive(Clone, Copy, Debug)]
pub struct Uci {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let to = if self.chess960 { self.mv.to() } else { self.mv.king_destination() };
        write!(f, "{}{}", self.mv.from(), to)?;
        if let Some(piece) = self.mv.promotion() {
            write!(f, "{}", piece.to_char())?;
        }
        Ok(())
    }
}

/// Formats as UCI with castling written king-takes-rook.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci(true).fmt(f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({} {:?})", self.uci(true), self.kind())
    }
}
