//! The board: one bitboard per piece kind and per color, a 64-square mailbox,
//! an incrementally updated Zobrist key, and a copy-state history.
//!
//! [`Board::make`] pushes the small [`Copy`] state (castling rights,
//! en-passant square, rule-50 clock, key) together with the move and the
//! captured piece onto a growable stack; [`Board::unmake`] pops it and puts
//! the pieces back, so nothing incremental is recomputed on the way back.

pub(crate) mod castling;
mod fen;
mod make;
mod named;
mod setup;
mod status;
mod validate;
pub mod zobrist;

use core::fmt;

use crate::attacks::pawn_attacks;
use crate::movegen::Position;
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, Move, Piece, PieceKind, Rank, Square};
pub(crate) use castling::{king_destination, rook_destination, CastlingConfig};
pub use fen::{truncate_chars, whole_sentences, LONGEST_SENTENCE};
pub use fen::{CastlingMode, FenError, FenField, FenOptions};
pub use named::{named_position, NamedPosition, NAMED_POSITIONS};
pub use status::{DrawReason, Outcome};
pub use validate::{PositionError, Problem};
use zobrist::ZobristKeys;

/// The part of the position that [`Board::make`] saves and
/// [`Board::unmake`] restores wholesale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// Zobrist key of the position.
    pub(crate) key: u64,
    /// Plies since the last capture or pawn move.
    pub(crate) rule50: u32,
    /// Castling rights left.
    pub(crate) castling: CastlingRights,
    /// En-passant square, kept only when an en-passant capture is legal.
    pub(crate) en_passant: Option<Square>,
}

/// One history entry: the state before a move, the move, and what it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HistoryEntry {
    pub(crate) state: State,
    pub(crate) mv: Move,
    pub(crate) captured: Option<Piece>,
}

/// A chess position with its move history.
///
/// Build one with [`Board::startpos`] or [`Board::from_fen`]; every board is
/// a valid position under the rules it was accepted with (see
/// [`FenOptions`]). Cloning copies the history too; the clone is independent.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side_to_move: Color,
    state: State,
    /// Game ply of the position before the first move in `history`
    /// (`2 * (fullmove - 1)`, plus one if Black was to move).
    start_ply: u64,
    chess960: bool,
    history: Vec<HistoryEntry>,
    castling: CastlingConfig,
}

/// FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Self {
        Self::from_fen(STARTPOS_FEN).expect("the start position is valid")
    }

    fn empty(side_to_move: Color, chess960: bool, castling: CastlingConfig) -> Self {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side_to_move,
            state: State { key: 0, rule50: 0, castling: CastlingRights::NONE, en_passant: None },
            start_ply: 0,
            chess960,
            history: Vec::with_capacity(64),
            castling,
        }
    }

    // ---------------------------------------------------------------- queries

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The piece on `sq`, if any (one lookup in the mailbox).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq as usize]
    }

    /// All squares occupied by pieces of `kind`, either color.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// All squares occupied by `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn colored(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize] & self.by_color[color as usize]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored(color, PieceKind::King).lsb()
    }

    /// Castling rights left.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.state.castling
    }

    /// The square of the rook `color` castles with on `side`, while that
    /// right exists.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.state.castling.has(color, side).then(|| self.castling.rook[color as usize][side as usize])
    }

    /// The en-passant square, present only when an en-passant capture is
    /// legal (so positions that differ only by a useless double push are the
    /// same position, as the repetition rule requires).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.state.en_passant
    }

    /// Plies since the last capture or pawn move (the FEN halfmove clock).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.state.rule50
    }

    /// The FEN fullmove number: starts at 1, grows after each Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        let ply = self.start_ply + self.history.len() as u64;
        u32::try_from(ply / 2 + 1).unwrap_or(u32::MAX)
    }

    /// The incrementally maintained Zobrist key (see [`zobrist`]).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// Whether castling moves are written the Chess960 way (king takes rook)
    /// and the castling field in Shredder-FEN.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches between Chess960 and standard notation for castling. Only
    /// notation changes; the position is the same.
    ///
    /// # Errors
    /// Turning Chess960 notation off fails, leaving the board as it was, when
    /// a castling right does not have the king on the e-file and the rook in
    /// the corner.
    pub fn set_chess960(&mut self, chess960: bool) -> Result<(), PositionError> {
        if !chess960 {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if let Some(rook) = self.castling_rook(color, side) {
                        validate::check_standard_castling(color, side, self.king(color), rook)
                            .map_err(|p| PositionError::new(vec![p]))?;
                    }
                }
            }
        }
        self.chess960 = chess960;
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn castling_config(&self) -> &CastlingConfig {
        &self.castling
    }

    /// Number of moves made since the board was set up.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since setup, oldest first.
    pub fn moves_played(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|entry| entry.mv)
    }

    /// A copy of the position without its move history: what a worker
    /// needs to search a subtree (cheaper than [`Clone`] deep in a game).
    pub fn fork(&self) -> Board {
        let history = Vec::with_capacity(32);
        Board {
            by_kind: self.by_kind,
            by_color: self.by_color,
            mailbox: self.mailbox,
            side_to_move: self.side_to_move,
            state: self.state,
            start_ply: self.start_ply + self.history.len() as u64,
            chess960: self.chess960,
            history,
            castling: self.castling.clone(),
        }
    }

    // ---------------------------------------------------------------- attacks

    /// Pieces of `by` that attack `sq` when `occupied` holds the blockers.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        Position::attackers(self, sq, by, occupied)
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side_to_move;
        self.attackers(self.king(us), !us, self.occupied())
    }

    /// Pieces of the side to move pinned to their king (moving off the line
    /// would expose the king).
    pub fn pinned(&self) -> Bitboard {
        let us = self.side_to_move;
        let lines = self.checkers_and_pins(us, self.king(us));
        (lines.pinned_straight | lines.pinned_diagonal) & self.color(us)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`
    /// ([`Position::ep_capture_is_legal`], the generator's test). Reads
    /// pieces and side only, not the state, so `make` can call it before
    /// the state is final.
    pub(crate) fn any_legal_ep_capture(&self, ep: Square) -> bool {
        let us = self.side_to_move;
        let capturers = pawn_attacks(!us, ep) & self.colored(us, PieceKind::Pawn);
        capturers.into_iter().any(|c| Position::ep_capture_is_legal(self, c, ep))
    }

    // ---------------------------------------------------------- keys, checks

    /// The Zobrist key of the position computed from scratch with `keys`.
    /// With [`zobrist::PRIMARY`] this equals [`Board::key`].
    pub fn key_with(&self, keys: &ZobristKeys) -> u64 {
        let mut key = keys.side(self.side_to_move) ^ keys.castling(self.state.castling);
        if let Some(ep) = self.state.en_passant {
            key ^= keys.en_passant(ep.file());
        }
        for sq in self.occupied() {
            if let Some(piece) = self.mailbox[sq as usize] {
                key ^= keys.piece(piece, sq);
            }
        }
        key
    }

    /// Checks every redundant or incremental part of the board against a
    /// recomputation.
    ///
    /// # Errors
    /// The first [`Inconsistency`] found.
    pub fn check_consistency(&self) -> Result<(), Inconsistency> {
        let occupied = self.occupied();
        if (self.by_color[0] & self.by_color[1]).any() {
            return Err(Inconsistency::ColorsOverlap);
        }
        let mut union = Bitboard::EMPTY;
        for kind in PieceKind::ALL {
            let bb = self.by_kind[kind as usize];
            if (union & bb).any() {
                return Err(Inconsistency::KindsOverlap(kind));
            }
            union |= bb;
            for square in bb {
                let color = if self.by_color[0].has(square) { Color::White } else { Color::Black };
                let piece = Piece::new(color, kind);
                let mailbox = self.mailbox[square as usize];
                if mailbox != Some(piece) {
                    return Err(Inconsistency::Mailbox { square, bitboards: piece, mailbox });
                }
            }
        }
        if union != occupied {
            return Err(Inconsistency::KindsAndColors);
        }
        for square in !occupied {
            if let Some(piece) = self.mailbox[square as usize] {
                return Err(Inconsistency::StrayPiece { square, piece });
            }
        }
        for color in Color::ALL {
            if self.colored(color, PieceKind::King).count() != 1 {
                return Err(Inconsistency::Kings(color));
            }
        }
        let recomputed = self.key_with(&zobrist::PRIMARY);
        if recomputed != self.state.key {
            return Err(Inconsistency::Key { incremental: self.state.key, recomputed });
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    let king = self.castling.king[color as usize];
                    if self.mailbox[rook as usize] != Some(Piece::new(color, PieceKind::Rook))
                        || self.mailbox[king as usize] != Some(Piece::new(color, PieceKind::King))
                    {
                        return Err(Inconsistency::Castling { color, side });
                    }
                }
            }
        }
        if let Some(ep) = self.state.en_passant {
            let rank = Rank::Sixth.relative_to(self.side_to_move);
            if ep.rank() != rank || !self.any_legal_ep_capture(ep) {
                return Err(Inconsistency::EnPassant(ep));
            }
        }
        Ok(())
    }

    // ------------------------------------------------------ piece placement

    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.by_kind[piece.kind() as usize] |= bb;
        self.by_color[piece.color() as usize] |= bb;
        self.mailbox[sq as usize] = Some(piece);
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.by_kind[piece.kind() as usize] ^= bb;
        self.by_color[piece.color() as usize] ^= bb;
        self.mailbox[sq as usize] = None;
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = from.bitboard() | to.bitboard();
        self.by_kind[piece.kind() as usize] ^= bb;
        self.by_color[piece.color() as usize] ^= bb;
        self.mailbox[from as usize] = None;
        self.mailbox[to as usize] = Some(piece);
    }

    /// A diagram of the board, White at the bottom, with the FEN and key.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            out.push_str(" +---+---+---+---+---+---+---+---+\n");
            for file in 0..8 {
                let sq = Square::index(rank * 8 + file);
                let c = self.mailbox[sq as usize].map_or(' ', Piece::to_char);
                out.push_str(" | ");
                out.push(c);
            }
            out.push_str(&format!(" | {}\n", rank + 1));
        }
        out.push_str(" +---+---+---+---+---+---+---+---+\n");
        out.push_str("   a   b   c   d   e   f   g   h\n\n");
        out.push_str(&format!("Fen: {}\nKey: {:016X}\n", self.fen(), self.key()));
        out
    }
}

impl fmt::Display for Board {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl Default for Board {
    fn default() -> Self {
        Self::startpos()
    }
}

/// A part of a [`Board`] that disagrees with the rest (see
/// [`Board::check_consistency`]): a bug in the board's own code, never in
/// its input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Inconsistency {
    /// A square is in both color bitboards.
    #[error("color bitboards overlap")]
    ColorsOverlap,
    /// A square is in this kind's bitboard and another's.
    #[error("{0:?} bitboard overlaps another kind")]
    KindsOverlap(PieceKind),
    /// The bitboards and the mailbox name different pieces on a square.
    #[error("bitboards say {bitboards:?} on {square}, mailbox says {mailbox:?}")]
    Mailbox {
        /// The square.
        square: Square,
        /// The piece the bitboards place there.
        bitboards: Piece,
        /// What the mailbox holds there.
        mailbox: Option<Piece>,
    },
    /// The kind bitboards and the color bitboards cover different squares.
    #[error("kind and color bitboards disagree")]
    KindsAndColors,
    /// The mailbox has a piece on a square the bitboards leave empty.
    #[error("mailbox has {piece:?} on empty {square}")]
    StrayPiece {
        /// The square.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// A side without exactly one king.
    #[error("{0} does not have exactly one king")]
    Kings(Color),
    /// The incremental Zobrist key differs from one computed from scratch.
    #[error("incremental key {incremental:#018x} != recomputed {recomputed:#018x}")]
    Key {
        /// The key kept by make and unmake.
        incremental: u64,
        /// The key computed from the pieces and state.
        recomputed: u64,
    },
    /// A castling right whose king or rook is not on its square.
    #[error("castling right {color} {side:?} without king and rook")]
    Castling {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
    },
    /// An en-passant square kept without a legal capture onto it.
    #[error("en-passant square {0} kept without a legal capture")]
    EnPassant(Square),
}
