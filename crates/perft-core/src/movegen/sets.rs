//! `MoveSet`: the public, set-wise view of legal moves.

use super::{generate, PawnMoves, Position, Sink};
use crate::types::{Bitboard, Move, MoveKind, PieceKind, Rank, Square};

/// Legal moves of one piece from one square, as a set of target squares.
///
/// A pawn target on the last rank stands for four promotions. A king target
/// holding its own rook is castling (king takes rook); a pawn target that is
/// the en-passant square is an en-passant capture. [`MoveSet::len`] counts
/// the moves, so counting all moves of a position needs no list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet {
    /// The moving piece.
    pub piece: PieceKind,
    /// Where it stands.
    pub from: Square,
    /// Where it may go.
    pub to: Bitboard,
    /// The targets of `to` that are castling or en-passant moves.
    special: Bitboard,
}

impl MoveSet {
    /// Number of moves in the set.
    pub fn len(&self) -> usize {
        if self.piece == PieceKind::Pawn {
            let promotions = self.to & (Rank::First.bitboard() | Rank::Eighth.bitboard());
            (self.to.count() + 3 * promotions.count()) as usize
        } else {
            self.to.count() as usize
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The moves of the set.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.to.into_iter().flat_map(move |to| {
            let kind = if self.special.has(to) {
                if self.piece == PieceKind::King {
                    MoveKind::Castle
                } else {
                    MoveKind::EnPassant
                }
            } else if self.piece == PieceKind::Pawn && (to as i8 - self.from as i8).abs() == 16 {
                MoveKind::DoublePush
            } else {
                MoveKind::Normal
            };
            let promotes = self.piece == PieceKind::Pawn && matches!(to.rank(), Rank::First | Rank::Eighth);
            let kinds: &'static [MoveKind] = if promotes {
                &[
                    MoveKind::PromoteQueen,
                    MoveKind::PromoteRook,
                    MoveKind::PromoteBishop,
                    MoveKind::PromoteKnight,
                ]
            } else {
                match kind {
                    MoveKind::Castle => &[MoveKind::Castle],
                    MoveKind::EnPassant => &[MoveKind::EnPassant],
                    MoveKind::DoublePush => &[MoveKind::DoublePush],
                    _ => &[MoveKind::Normal],
                }
            };
            kinds.iter().map(move |&kind| Move::new(self.from, to, kind))
        })
    }
}

/// Collects set-wise pawn moves per from-square; passes the rest through.
struct Collector<F: FnMut(MoveSet)> {
    f: F,
    pawn_targets: [Bitboard; 64],
    pawn_special: Bitboard,
    pawns: Bitboard,
}

impl<F: FnMut(MoveSet)> Sink for Collector<F> {
    fn piece(&mut self, piece: PieceKind, from: Square, to: Bitboard) {
        if to.any() {
            (self.f)(MoveSet { piece, from, to, special: Bitboard::EMPTY });
        }
    }
    fn pawns(&mut self, to: Bitboard, delta: i8, _: PawnMoves) {
        for sq in to {
            let from = Square::from_bits_masked((sq as i32 - i32::from(delta)) as u32);
            self.pawn_targets[from as usize] |= sq;
            self.pawns |= from;
        }
    }
    fn castle(&mut self, king: Square, rook: Square) {
        let to = rook.bitboard();
        (self.f)(MoveSet { piece: PieceKind::King, from: king, to, special: to });
    }
    fn en_passant(&mut self, from: Square, to: Square) {
        self.pawn_targets[from as usize] |= to;
        self.pawn_special |= to;
        self.pawns |= from;
    }
}

pub(super) fn for_each<P: Position>(board: &P, f: impl FnMut(MoveSet)) {
    let mut collector = Collector {
        f,
        pawn_targets: [Bitboard::EMPTY; 64],
        pawn_special: Bitboard::EMPTY,
        pawns: Bitboard::EMPTY,
    };
    generate(board, &mut collector);
    for from in collector.pawns {
        let to = collector.pawn_targets[from as usize];
        let special = to & collector.pawn_special;
        (collector.f)(MoveSet { piece: PieceKind::Pawn, from, to, special });
    }
}
