//! The generator bound to [`Board`]: the board as a [`Position`], on the
//! baseline instruction set or on a kernel's ([`OnIsa`]), and the board's
//! move methods (legal moves, counts, UCI moves).

use core::marker::PhantomData;

use super::{generate, Counter, MoveError, MoveList, MoveSet, Position};
use crate::board::castling::CastlingConfig;
use crate::board::Board;
use crate::kernel::{Baseline, Isa};
use crate::types::{Bitboard, CastlingRights, Color, Move, PieceKind, Square};

impl Position for Board {
    type Isa = Baseline;

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        Board::side_to_move(self)
    }
    #[inline(always)]
    fn pieces(&self, kind: PieceKind) -> Bitboard {
        Board::pieces(self, kind)
    }
    #[inline(always)]
    fn color(&self, color: Color) -> Bitboard {
        Board::color(self, color)
    }
    #[inline(always)]
    fn en_passant(&self) -> Option<Square> {
        Board::en_passant(self)
    }
    #[inline(always)]
    fn castling_rights(&self) -> CastlingRights {
        Board::castling_rights(self)
    }
    #[inline(always)]
    fn castling_config(&self) -> &CastlingConfig {
        Board::castling_config(self)
    }
    #[inline(always)]
    fn is_chess960(&self) -> bool {
        Board::is_chess960(self)
    }
}

/// A board whose moves are generated on the instruction set `K`: the board's
/// own methods run on the baseline one, the counting paths that walk boards
/// (`--full`, `--stats`, hashed counts) on their kernel's.
pub(crate) struct OnIsa<'b, K> {
    board: &'b Board,
    isa: PhantomData<K>,
}

impl<'b, K: Isa> OnIsa<'b, K> {
    /// `board`, on `K`.
    #[inline(always)]
    pub(crate) fn new(board: &'b Board) -> Self {
        OnIsa { board, isa: PhantomData }
    }

    /// [`Board::generate_moves`].
    #[inline(always)]
    pub(crate) fn generate_moves(&self, list: &mut MoveList) {
        generate(self, list);
    }

    /// [`Board::count_legal_moves`].
    #[inline(always)]
    pub(crate) fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        generate(self, &mut counter);
        counter.0
    }

    /// [`Board::checkers`].
    #[inline(always)]
    pub(crate) fn checkers(&self) -> Bitboard {
        let us = self.board.side_to_move();
        let occupied = self.board.color(Color::White) | self.board.color(Color::Black);
        self.attackers(self.board.king(us), !us, occupied)
    }
}

impl<K: Isa> Position for OnIsa<'_, K> {
    type Isa = K;

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }
    #[inline(always)]
    fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.board.pieces(kind)
    }
    #[inline(always)]
    fn color(&self, color: Color) -> Bitboard {
        self.board.color(color)
    }
    #[inline(always)]
    fn en_passant(&self) -> Option<Square> {
        self.board.en_passant()
    }
    #[inline(always)]
    fn castling_rights(&self) -> CastlingRights {
        self.board.castling_rights()
    }
    #[inline(always)]
    fn castling_config(&self) -> &CastlingConfig {
        self.board.castling_config()
    }
    #[inline(always)]
    fn is_chess960(&self) -> bool {
        self.board.is_chess960()
    }
}

impl Board {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, &mut list);
        list
    }

    /// Appends all legal moves to `list`, which must have room for them
    /// (an empty [`MoveList`] always has).
    ///
    /// # Panics
    /// Panics if `list` overflows.
    #[inline]
    pub fn generate_moves(&self, list: &mut MoveList) {
        generate(self, list);
    }

    /// The number of legal moves, counted by set sizes without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        generate(self, &mut counter);
        counter.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Calls `f` with every legal move, grouped into sets that share a
    /// piece and a from-square (see [`MoveSet`]).
    pub fn for_each_move_set(&self, f: impl FnMut(MoveSet)) {
        super::sets::for_each(self, f);
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Finds the legal move written `text` in UCI notation. Castling may be
    /// written king-takes-rook (`e1h1`) always, and as the king's two-square
    /// move (`e1g1`) unless the board is in Chess960 notation.
    ///
    /// # Errors
    /// [`MoveError::Malformed`] if `text` is not UCI notation,
    /// [`MoveError::Illegal`] if no legal move matches.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let malformed = || MoveError::Malformed(text.chars().take(16).collect());
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(malformed());
        }
        let from: Square = text[0..2].parse().map_err(|_| malformed())?;
        let to: Square = text[2..4].parse().map_err(|_| malformed())?;
        let promotion =
            match text.as_bytes().get(4) {
                None => None,
                Some(&c) => match PieceKind::from_char(c as char) {
                    Some(
                        kind @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                    ) if (c as char).is_ascii_lowercase() => Some(kind),
                    _ => return Err(malformed()),
                },
            };
        self.legal_moves()
            .into_iter()
            .find(|mv| {
                mv.from() == from
                    && mv.promotion() == promotion
                    && (mv.to() == to
                        || (mv.is_castle() && !self.is_chess960() && mv.king_destination() == to))
            })
            .ok_or_else(|| MoveError::Illegal { mv: text.to_string(), fen: self.fen() })
    }

    /// Plays `mv` after checking that it is legal.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] (and the board unchanged) if it is not.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal { mv: mv.uci(self.is_chess960()).to_string(), fen: self.fen() });
        }
        self.make(mv);
        Ok(())
    }

    /// Parses `text` as a UCI move ([`Board::parse_uci`]) and plays it.
    ///
    /// # Errors
    /// As [`Board::parse_uci`].
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_uci(text)?;
        self.make(mv);
        Ok(mv)
    }

    /// Writes `mv` in UCI notation for this board (see [`Move::uci`]).
    pub fn uci(&self, mv: Move) -> String {
        mv.uci(self.is_chess960()).to_string()
    }
}
