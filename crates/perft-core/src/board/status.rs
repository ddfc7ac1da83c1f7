//! Game status: checkmate, stalemate, and the draw rules.

use super::Board;
use crate::types::{Bitboard, Color, PieceKind};

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 100 plies without a capture or pawn move (claimable draw).
    FiftyMoveRule,
    /// The position occurred three times (claimable draw).
    ThreefoldRepetition,
    /// Neither side has material to give mate.
    InsufficientMaterial,
}

/// How a game has ended, if it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The game is drawn.
    Draw(DrawReason),
}

impl Board {
    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether 100 plies have passed without a capture or pawn move, and
    /// the position is not checkmate (mate takes precedence).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock() >= 100 && !self.is_checkmate()
    }

    /// How many times the current position has occurred, this time
    /// included, since the last capture or pawn move. Positions are compared
    /// by Zobrist key, side to move, castling rights and en-passant square
    /// (the last two are part of the key).
    pub fn repetitions(&self) -> usize {
        let reversible = (self.halfmove_clock() as usize).min(self.history.len());
        let key = self.key();
        1 + (2..=reversible)
            .step_by(2)
            .filter(|&back| self.history[self.history.len() - back].state.key == key)
            .count()
    }

    /// Whether the current position has occurred at least three times.
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions() >= 3
    }

    /// Whether neither side can ever mate: no pawns, rooks or queens, and
    /// either at most one minor piece in all, or only bishops, all on
    /// squares of one color.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy =
            self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.pieces(PieceKind::Knight);
        let bishops = self.pieces(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }

    /// The game's outcome: checkmate or stalemate first, then insufficient
    /// material, the fifty-move rule and threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Checkmate { winner: !self.side_to_move() }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            Some(Outcome::Draw(DrawReason::InsufficientMaterial))
        } else if self.halfmove_clock() >= 100 {
            Some(Outcome::Draw(DrawReason::FiftyMoveRule))
        } else if self.is_threefold_repetition() {
            Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
        } else {
            None
        }
    }
}
