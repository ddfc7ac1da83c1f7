//! What reading a FEN produces before validation, and how it is read: the
//! castling notation and strictness ([`FenOptions`]), and the FEN's fields
//! read but not yet checked ([`Setup`]). Below both the FEN reader and the
//! validator, which share these.

use crate::types::{CastlingSide, Color, File, Piece, Square};

/// How the castling field is read, and how castling moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CastlingMode {
    /// Standard chess: every castling right needs the king on the e-file and
    /// the rook in the corner; castling is written `e1g1`.
    Standard,
    /// Chess960: rights may name any rook (X-FEN `KQkq` for the outermost
    /// rook or Shredder-FEN file letters); castling is written king-takes-rook.
    Chess960,
    /// Chess960 when the castling field needs it (file letters, or rights
    /// whose king or rook is off its standard square), standard otherwise.
    #[default]
    Detect,
}

impl CastlingMode {
    /// `Chess960` when forced, `Detect` otherwise: how a `--chess960` or
    /// `UCI_Chess960` switch reads positions.
    pub const fn from_chess960(chess960: bool) -> Self {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Detect
        }
    }
}

/// How strictly a FEN is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FenOptions {
    /// Castling notation; see [`CastlingMode`].
    pub castling: CastlingMode,
    /// Accept positions that cannot arise in a game but are still
    /// well-defined to play: too much material, impossible check
    /// combinations, impossible castling history. Public suites such as
    /// `tricky.perft` contain such positions.
    pub relaxed: bool,
}

impl FenOptions {
    /// Strict validation, castling notation detected.
    pub const STRICT: FenOptions = FenOptions { castling: CastlingMode::Detect, relaxed: false };
    /// Relaxed validation, castling notation detected.
    pub const RELAXED: FenOptions = FenOptions { castling: CastlingMode::Detect, relaxed: true };
}

/// One castling right as written in the FEN, before it is matched to a rook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CastlingToken {
    /// `K`/`Q`/`k`/`q`: the outermost rook on that side of the king.
    Outermost(CastlingSide),
    /// A file letter (Shredder-FEN, or X-FEN for an inner rook).
    File(File),
}

/// A FEN split into fields and read, but not yet validated.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub(crate) placement: [Option<Piece>; 64],
    pub(crate) side_to_move: Color,
    pub(crate) castling: Vec<(Color, CastlingToken, char)>,
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}
