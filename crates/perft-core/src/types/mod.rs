//! Basic chess types: squares, bitboards, colors, pieces, moves and castling
//! rights.

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod square;

pub use bitboard::{Bitboard, Squares};
pub use castling::{CastlingRights, CastlingSide};
pub use chess_move::{Move, MoveKind, Uci};
pub use color::{Color, Piece, PieceKind};
pub use square::{File, ParseSquareError, Rank, Square};
