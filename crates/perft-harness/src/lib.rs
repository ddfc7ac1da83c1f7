//! The engine harness of perft, engine-agnostic: checks another engine's
//! perft against suites ([`check`]), bisects every wrong count down to the
//! position and move it comes from ([`bisect`]), and groups wrong counts by
//! cause ([`check::causes`]). The `perft` tool drives engines that run as
//! processes through it; [`rust`] drives a Rust engine in process, from
//! its own `cargo test`.
//!
//! # A Rust engine's test
//!
//! The engine implements [`rust::MoveGenerator`]; one call checks it
//! against a bundled suite. Here an engine built on the `cozy-chess` crate,
//! with a planted bug (it never promotes to a knight), is found out, its
//! bug named as one cause with the position and the missing moves; with
//! the bug removed it passes:
//!
//! ```
//! use cozy_chess::util::{display_uci_move, parse_uci_move};
//! use cozy_chess::{Board, Move, Piece};
//! use perft_harness::rust::{assert_suite, check_suite, Limits, MoveGenerator, Suite};
//!
//! /// A move generator over cozy-chess (copy-make: a board per ply).
//! struct Cozy {
//!     boards: Vec<Board>,
//!     chess960: bool,
//!     /// The planted bug: promotions to a knight are never generated.
//!     no_knight_promotions: bool,
//! }
//!
//! impl MoveGenerator for Cozy {
//!     fn set_fen(&mut self, fen: &str, chess960: bool) -> Result<(), String> {
//!         let board = Board::from_fen(fen, false).or_else(|_| Board::from_fen(fen, true));
//!         self.boards = vec![board.map_err(|e| format!("{e:?}"))?];
//!         self.chess960 = chess960;
//!         Ok(())
//!     }
//!
//!     fn legal_moves(&mut self) -> Vec<String> {
//!         let board = self.boards.last().expect("a position is set");
//!         let mut moves = Vec::new();
//!         board.generate_moves(|set| {
//!             for mv in set {
//!                 if self.no_knight_promotions && mv.promotion == Some(Piece::Knight) {
//!                     continue;
//!                 }
//!                 // Castling as e1g1 in standard chess, e1h1 in Chess960.
//!                 let text = if self.chess960 { mv.to_string() } else { display_uci_move(board, mv).to_string() };
//!                 moves.push(text);
//!             }
//!             false
//!         });
//!         moves
//!     }
//!
//!     fn make(&mut self, uci: &str) {
//!         let board = self.boards.last().expect("a position is set");
//!         let mv = if self.chess960 { uci.parse::<Move>().ok() } else { parse_uci_move(board, uci).ok() };
//!         let mut next = board.clone();
//!         next.play_unchecked(mv.expect("a move in UCI notation"));
//!         self.boards.push(next);
//!     }
//!
//!     fn unmake(&mut self) {
//!         self.boards.pop();
//!     }
//! }
//!
//! let mut engine = Cozy { boards: Vec::new(), chess960: false, no_knight_promotions: true };
//! let limits = Limits { max_nodes: Some(200_000), ..Limits::default() };
//! let check = check_suite(&mut engine, Suite::Bundled("standard"), limits)?;
//! assert!(!check.passed());
//! // One bug, one cause, whatever the counts it spoils.
//! assert_eq!(check.causes.len(), 1, "{check}");
//! assert!(check.causes[0].description.starts_with("promotion to a knight missing"), "{check}");
//! // The bisection names the position and the moves.
//! let bisection = check.failures().find_map(|r| r.bisection.as_ref()).expect("bisected");
//! assert!(!bisection.missing.is_empty() && bisection.missing.iter().all(|mv| mv.ends_with('n')));
//! println!("{check}"); // the report `perft check` prints
//!
//! // The bug fixed, the suite passes (assert_suite panics with the report
//! // otherwise).
//! engine.no_knight_promotions = false;
//! assert_suite(&mut engine, Suite::Bundled("standard"), limits);
//! # Ok::<(), perft_harness::rust::SuiteError>(())
//! ```
//!
//! The harness never prints or exits; errors are typed.
#![deny(missing_docs)]

pub(crate) use perft_core::{attacks, board, counting, types};

pub mod bisect;
pub mod check;
pub mod engine;
pub mod rust;
pub mod suite;
