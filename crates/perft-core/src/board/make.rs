//! `make` and `unmake`.

use super::zobrist::{self, ZobristKeys};
use super::{king_destination, rook_destination, Board, HistoryEntry};
use crate::attacks::pawn_attacks;
use crate::types::{Move, MoveKind, Piece, PieceKind, Square};

impl Board {
    /// Plays `mv`, which must be legal in this position (as produced by this
    /// board's move generator). Pushes the current state, the move and the
    /// captured piece onto the history for [`Board::unmake`].
    ///
    /// # Panics
    /// May panic, or leave the board inconsistent, if `mv` is not legal here.
    /// Use [`Board::play`] for moves from untrusted sources.
    #[inline(always)]
    pub fn make(&mut self, mv: Move) {
        let keys = &zobrist::PRIMARY;
        let us = self.side_to_move;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let piece = self.mailbox[from as usize].expect("make: no piece on the from square");

        let saved = self.state;
        let mut state = saved;
        state.key ^= keys.side_flip();
        if let Some(ep) = state.en_passant.take() {
            state.key ^= keys.en_passant(ep.file());
        }
        state.rule50 = state.rule50.saturating_add(1);

        let mut captured = None;
        match mv.kind() {
            MoveKind::Normal => {
                if let Some(victim) = self.mailbox[to as usize] {
                    self.remove_piece(victim, to);
                    state.key ^= keys.piece(victim, to);
                    state.rule50 = 0;
                    captured = Some(victim);
                }
                self.move_piece(piece, from, to);
                state.key ^= keys.piece(piece, from) ^ keys.piece(piece, to);
                if piece.kind() == PieceKind::Pawn {
                    state.rule50 = 0;
                }
            }
            MoveKind::DoublePush => {
                self.move_piece(piece, from, to);
                state.key ^= keys.piece(piece, from) ^ keys.piece(piece, to);
                state.rule50 = 0;
            }
            MoveKind::EnPassant => {
                let victim_square = to.xor(8);
                let victim = Piece::new(them, PieceKind::Pawn);
                self.remove_piece(victim, victim_square);
                self.move_piece(piece, from, to);
                state.key ^=
                    keys.piece(victim, victim_square) ^ keys.piece(piece, from) ^ keys.piece(piece, to);
                state.rule50 = 0;
                captured = Some(victim);
            }
            MoveKind::Castle => {
                let side = mv.castling_side();
                let king_to = king_destination(us, side);
                let rook_to = rook_destination(us, side);
                let rook = Piece::new(us, PieceKind::Rook);
                // Remove both before placing either: in Chess960 the squares
                // may overlap.
                self.remove_piece(piece, from);
                self.remove_piece(rook, to);
                self.put_piece(piece, king_to);
                self.put_piece(rook, rook_to);
                state.key ^= keys.piece(piece, from)
                    ^ keys.piece(piece, king_to)
                    ^ keys.piece(rook, to)
                    ^ keys.piece(rook, rook_to);
            }
            MoveKind::PromoteKnight
            | MoveKind::PromoteBishop
            | MoveKind::PromoteRook
            | MoveKind::PromoteQueen => {
                if let Some(victim) = self.mailbox[to as usize] {
                    self.remove_piece(victim, to);
                    state.key ^= keys.piece(victim, to);
                    captured = Some(victim);
                }
                let promoted = Piece::new(us, promoted_kind(mv));
                self.remove_piece(piece, from);
                self.put_piece(promoted, to);
                state.key ^= keys.piece(piece, from) ^ keys.piece(promoted, to);
                state.rule50 = 0;
            }
        }

        if !state.castling.is_empty() {
            let lost = self.castling.lost[from as usize].union(self.castling.lost[to as usize]);
            let rights = state.castling.without(lost);
            if rights != state.castling {
                state.key ^= keys.castling(state.castling) ^ keys.castling(rights);
                state.castling = rights;
            }
        }

        self.side_to_move = them;

        if mv.kind() == MoveKind::DoublePush {
            let ep = Square::from_bits_masked((from as u32 + to as u32) / 2);
            if self.any_legal_ep_capture(ep) {
                state.en_passant = Some(ep);
                state.key ^= keys.en_passant(ep.file());
            }
        }

        self.state = state;
        self.history.push(HistoryEntry { state: saved, mv, captured });
        debug_assert_eq!(self.check_consistency(), Ok(()), "after make({mv:?})");
    }

    /// The Zobrist key the position will have after `mv` (legal here),
    /// without making it; `None` for a double push next to an enemy pawn,
    /// where only making the move tells whether en passant is then legal.
    #[inline]
    pub fn key_after(&self, mv: Move) -> Option<u64> {
        self.key_after_with(mv, &zobrist::PRIMARY, self.state.key)
    }

    /// [`Board::key_after`] in another key set, given this position's key
    /// in that set (`key_with(keys)`, computed once for all its moves).
    #[inline]
    pub fn key_after_with(&self, mv: Move, keys: &ZobristKeys, key: u64) -> Option<u64> {
        let us = self.side_to_move;
        let from = mv.from();
        let to = mv.to();
        let piece = self.mailbox[from as usize]?;
        let mut key = key ^ keys.side_flip();
        if let Some(ep) = self.state.en_passant {
            key ^= keys.en_passant(ep.file());
        }
        match mv.kind() {
            MoveKind::Normal => {
                if let Some(victim) = self.mailbox[to as usize] {
                    key ^= keys.piece(victim, to);
                }
                key ^= keys.piece(piece, from) ^ keys.piece(piece, to);
            }
            MoveKind::DoublePush => {
                let ep = Square::from_bits_masked((from as u32 + to as u32) / 2);
                if (pawn_attacks(us, ep) & self.colored(!us, PieceKind::Pawn)).any() {
                    return None;
                }
                key ^= keys.piece(piece, from) ^ keys.piece(piece, to);
            }
            MoveKind::EnPassant => {
                let victim = Piece::new(!us, PieceKind::Pawn);
                key ^= keys.piece(victim, to.xor(8)) ^ keys.piece(piece, from) ^ keys.piece(piece, to);
            }
            MoveKind::Castle => {
                let side = mv.castling_side();
                let rook = Piece::new(us, PieceKind::Rook);
                key ^= keys.piece(piece, from)
                    ^ keys.piece(piece, king_destination(us, side))
                    ^ keys.piece(rook, to)
                    ^ keys.piece(rook, rook_destination(us, side));
            }
            MoveKind::PromoteKnight
            | MoveKind::PromoteBishop
            | MoveKind::PromoteRook
            | MoveKind::PromoteQueen => {
                if let Some(victim) = self.mailbox[to as usize] {
                    key ^= keys.piece(victim, to);
                }
                key ^= keys.piece(piece, from) ^ keys.piece(Piece::new(us, promoted_kind(mv)), to);
            }
        }
        let rights = self.state.castling;
        if !rights.is_empty() {
            let left =
                rights.without(self.castling.lost[from as usize].union(self.castling.lost[to as usize]));
            key ^= keys.castling(rights) ^ keys.castling(left);
        }
        Some(key)
    }

    /// Takes back the last move made, restoring the saved state; returns the
    /// move, or `None` (changing nothing) when there is no history.
    #[inline(always)]
    pub fn unmake(&mut self) -> Option<Move> {
        let entry = self.history.pop()?;
        let us = !self.side_to_move;
        self.side_to_move = us;
        let mv = entry.mv;
        let from = mv.from();
        let to = mv.to();
        match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                let piece = self.mailbox[to as usize].expect("unmake: moved piece missing");
                self.move_piece(piece, to, from);
                if let Some(victim) = entry.captured {
                    self.put_piece(victim, to);
                }
            }
            MoveKind::EnPassant => {
                self.move_piece(Piece::new(us, PieceKind::Pawn), to, from);
                self.put_piece(Piece::new(!us, PieceKind::Pawn), to.xor(8));
            }
            MoveKind::Castle => {
                let side = mv.castling_side();
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                self.remove_piece(king, king_destination(us, side));
                self.remove_piece(rook, rook_destination(us, side));
                self.put_piece(king, from);
                self.put_piece(rook, to);
            }
            MoveKind::PromoteKnight
            | MoveKind::PromoteBishop
            | MoveKind::PromoteRook
            | MoveKind::PromoteQueen => {
                self.remove_piece(Piece::new(us, promoted_kind(mv)), to);
                self.put_piece(Piece::new(us, PieceKind::Pawn), from);
                if let Some(victim) = entry.captured {
                    self.put_piece(victim, to);
                }
            }
        }
        self.state = entry.state;
        Some(mv)
    }
}

/// The piece a promotion move makes (called on promotions only).
#[inline(always)]
fn promoted_kind(mv: Move) -> PieceKind {
    mv.promotion().unwrap_or(PieceKind::Queen)
}
