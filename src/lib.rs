//! Exact, fast perft.
#![deny(missing_docs)]

pub mod attacks;
pub mod board;
pub mod movegen;
pub mod perft;
pub mod report;
pub mod suite;
pub mod types;

pub use board::{Board, CastlingMode, FenError, FenOptions, PositionError};
pub use movegen::{MoveList, MoveSet};
pub use types::*;
