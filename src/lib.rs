//! Exact, fast perft: a chess move generator, a parallel perft runner, a
//! suite checker and JSON reports.
//!
//! The chess core (types, attacks, board, move generation, counting) is
//! the `perft-core` crate, re-exported here under the same module names;
//! an engine author who wants only the move generator depends on that.
//!
//! ```
//! use perft::board::Board;
//! use perft::counting::{perft, Mode};
//!
//! let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
//! let mut board = Board::from_fen(kiwipete)?;
//! assert_eq!(perft(&mut board, 3, Mode::Bulk), 97_862);
//!
//! let mv = board.parse_uci("e1g1")?; // castling, standard notation
//! board.make(mv); // pushes the copied state
//! assert_eq!(board.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
//! board.unmake(); // pops it: nothing is recomputed
//! assert_eq!(board.fen(), kiwipete);
//!
//! let mut moves = 0;
//! board.for_each_move_set(|set| moves += set.len());
//! assert_eq!(moves, 48);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # CPU kernels
//! The counting code is compiled for several levels of x86-64 and the best
//! one this CPU runs is chosen at run time (see [`kernel`]): one portable
//! binary counts at full speed.
//!
//! # Cargo features
//! - `magic`: look sliding-piece attacks up by magic multiplication even
//!   where PEXT (BMI2) is available and fast. By default the `v3` and `v4`
//!   kernels use PEXT, except on AMD Zen 1 and Zen 2.
//!
//! The library never prints or exits; errors are typed.
#![deny(missing_docs)]

pub use perft_core::{attacks, board, kernel, movegen, types};
pub use perft_harness::bisect;

pub mod bench;
pub mod chart;
pub mod check;
pub mod compare;
pub mod counting;
pub mod distributed;
pub mod engine;
pub mod memory;
pub mod report;
pub mod suite;

pub use board::{Board, CastlingMode, FenError, FenOptions, PositionError};
pub use movegen::{MoveList, MoveSet};
pub use types::*;
