//! `make` and `unmake`.

use super::zobrist::{self, ZobristKeys};
use super::{king_destination, rook_destination, Board, HistoryEntry};
use crate::attacks::pawn_attacks;
use crate::types::{CastlingRights, Color, Move, MoveKind, Piece, PieceKind, Square};

/// One change a move makes to the pieces.
#[derive(Clone, Copy)]
enum Change {
    /// A piece taken off a square.
    Off(Piece, Square),
    /// An enemy piece captured on a square.
    Capture(Piece, Square),
    /// A piece put on an empty square.
    On(Piece, Square),
    /// A piece moved from a square to an empty one.
    Slide(Piece, Square, Square),
}

impl Change {
    /// The change of a Zobrist key in `keys`.
    #[inline(always)]
    fn key(self, keys: &ZobristKeys) -> u64 {
        match self {
            Change::Off(piece, sq) | Change::Capture(piece, sq) | Change::On(piece, sq) => {
                keys.piece(piece, sq)
            }
            Change::Slide(piece, from, to) => keys.piece(piece, from) ^ keys.piece(piece, to),
        }
    }
}

/// What is done with each change of a move.
trait ApplyChange {
    /// The piece on `sq` before the move.
    fn occupant(&self, sq: Square) -> Option<Piece>;
    fn apply(&mut self, change: Change);
}

/// Changes `N` keys only, each in its own set.
struct KeyChanges<'a, const N: usize> {
    board: &'a Board,
    keys: [&'a ZobristKeys; N],
    key: [u64; N],
}

impl<const N: usize> ApplyChange for KeyChanges<'_, N> {
    #[inline(always)]
    fn occupant(&self, sq: Square) -> Option<Piece> {
        self.board.mailbox[sq as usize]
    }
    #[inline(always)]
    fn apply(&mut self, change: Change) {
        for (key, keys) in self.key.iter_mut().zip(self.keys) {
            *key ^= change.key(keys);
        }
    }
}

/// Changes the board and its key, and keeps what was captured.
struct BoardChanges<'b> {
    board: &'b mut Board,
    key: u64,
    captured: Option<Piece>,
}

impl ApplyChange for BoardChanges<'_> {
    #[inline(always)]
    fn occupant(&self, sq: Square) -> Option<Piece> {
        self.board.mailbox[sq as usize]
    }
    #[inline(always)]
    fn apply(&mut self, change: Change) {
        self.key ^= change.key(&zobrist::PRIMARY);
        match change {
            Change::Off(piece, sq) => self.board.remove_piece(piece, sq),
            Change::Capture(piece, sq) => {
                self.board.remove_piece(piece, sq);
                self.captured = Some(piece);
            }
            Change::On(piece, sq) => self.board.put_piece(piece, sq),
            Change::Slide(piece, from, to) => self.board.move_piece(piece, from, to),
        }
    }
}

/// Hands `target` the changes of `mv`, a legal move of `piece` by `us`, in
/// order: the one description of what a move does to
/// the pieces, for [`Board::make`] and [`Board::key_after_with`] (a trait
/// with inlined methods, not a closure, so both stay one inlined block). Pieces
/// leave before any arrives (Chess960 castling squares may overlap).
#[inline(always)]
fn changes(mv: Move, us: Color, piece: Piece, target: &mut impl ApplyChange) {
    let (from, to) = (mv.from(), mv.to());
    match mv.kind() {
        MoveKind::Normal => {
            if let Some(victim) = target.occupant(to) {
                target.apply(Change::Capture(victim, to));
            }
            target.apply(Change::Slide(piece, from, to));
        }
        MoveKind::DoublePush => target.apply(Change::Slide(piece, from, to)),
        MoveKind::EnPassant => {
            target.apply(Change::Capture(Piece::new(!us, PieceKind::Pawn), to.xor(8)));
            target.apply(Change::Slide(piece, from, to));
        }
        MoveKind::Castle => {
            let side = mv.castling_side();
            let rook = Piece::new(us, PieceKind::Rook);
            target.apply(Change::Off(piece, from));
            target.apply(Change::Off(rook, to));
            target.apply(Change::On(piece, king_destination(us, side)));
            target.apply(Change::On(rook, rook_destination(us, side)));
        }
        MoveKind::PromoteKnight
        | MoveKind::PromoteBishop
        | MoveKind::PromoteRook
        | MoveKind::PromoteQueen => {
            if let Some(victim) = target.occupant(to) {
                target.apply(Change::Capture(victim, to));
            }
            target.apply(Change::Off(piece, from));
            target.apply(Change::On(Piece::new(us, promoted_kind(mv)), to));
        }
    }
}

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
        let (from, to) = (mv.from(), mv.to());
        let piece = self.mailbox[from as usize].expect("make: no piece on the from square");

        let saved = self.state;
        let mut state = saved;
        let key = self.key_before_changes(keys, saved.key);
        let mut making = BoardChanges { board: self, key, captured: None };
        changes(mv, us, piece, &mut making);
        let BoardChanges { key, captured, .. } = making;
        (state.key, state.castling) = self.castling_after(from, to, keys, key);
        state.en_passant = None;
        state.rule50 = if captured.is_some() || piece.kind() == PieceKind::Pawn {
            0
        } else {
            state.rule50.saturating_add(1)
        };

        self.side_to_move = !us;

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
        self.keys_after_with(mv, [keys], [key]).map(|[key]| key)
    }

    /// [`Board::key_after_with`] in `N` key sets at once, given this
    /// position's keys in them: one pass over the move for all.
    #[inline(always)]
    pub fn keys_after_with<const N: usize>(
        &self,
        mv: Move,
        keys: [&ZobristKeys; N],
        key: [u64; N],
    ) -> Option<[u64; N]> {
        if mv.kind() == MoveKind::DoublePush {
            let us = self.side_to_move;
            let ep = Square::from_bits_masked((mv.from() as u32 + mv.to() as u32) / 2);
            if (pawn_attacks(us, ep) & self.colored(!us, PieceKind::Pawn)).any() {
                return None;
            }
        }
        self.keys_after_without_en_passant(mv, keys, key)
    }

    /// [`Board::keys_after_with`] for any legal `mv`: where only making
    /// the move tells whether it leaves an en-passant square, it is made
    /// and taken back, and the keys of that square added if so.
    #[inline]
    pub fn keys_after_any<const N: usize>(
        &mut self,
        mv: Move,
        keys: [&ZobristKeys; N],
        key: [u64; N],
    ) -> [u64; N] {
        if let Some(after) = self.keys_after_with(mv, keys, key) {
            return after;
        }
        let mut after =
            self.keys_after_without_en_passant(mv, keys, key).expect("a legal move starts on a piece");
        self.make(mv);
        if let Some(ep) = self.state.en_passant {
            for (after, keys) in after.iter_mut().zip(keys) {
                *after ^= keys.en_passant(ep.file());
            }
        }
        self.unmake();
        after
    }

    /// The keys after `mv` as though it left no en-passant square; `None`
    /// if no piece stands on its origin.
    #[inline(always)]
    fn keys_after_without_en_passant<const N: usize>(
        &self,
        mv: Move,
        keys: [&ZobristKeys; N],
        key: [u64; N],
    ) -> Option<[u64; N]> {
        let piece = self.mailbox[mv.from() as usize]?;
        let key = std::array::from_fn(|i| self.key_before_changes(keys[i], key[i]));
        let mut keying = KeyChanges { board: self, keys, key };
        changes(mv, self.side_to_move, piece, &mut keying);
        Some(std::array::from_fn(|i| self.castling_after(mv.from(), mv.to(), keys[i], keying.key[i]).0))
    }

    /// `key` (this position's, in `keys`) with the other side to move and
    /// the en-passant square gone: what every move changes.
    #[inline(always)]
    fn key_before_changes(&self, keys: &ZobristKeys, key: u64) -> u64 {
        let key = key ^ keys.side_flip();
        match self.state.en_passant {
            Some(ep) => key ^ keys.en_passant(ep.file()),
            None => key,
        }
    }

    /// The castling rights left after a move from `from` to `to` (a king or
    /// rook leaving its square, a rook captured on its square), and `key`
    /// changed for them.
    #[inline(always)]
    fn castling_after(
        &self,
        from: Square,
        to: Square,
        keys: &ZobristKeys,
        key: u64,
    ) -> (u64, CastlingRights) {
        let rights = self.state.castling;
        if rights.is_empty() {
            return (key, rights);
        }
        let left = rights.without(self.castling.lost[from as usize].union(self.castling.lost[to as usize]));
        if left == rights {
            (key, rights)
        } else {
            (key ^ keys.castling(rights) ^ keys.castling(left), left)
        }
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
