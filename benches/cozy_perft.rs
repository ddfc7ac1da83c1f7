//! `cozy-perft <depth> <fen>`: the cozy-chess crate's own bulk-counting perft
//! (copy-make), printing `Nodes searched: N`, so `perft compare` can race it
//! as a command engine:
//!
//! ```text
//! cargo build --release --example cozy-perft
//! perft compare -e 'cozy-chess=cmd:target/release/examples/cozy-perft {depth} {fen}'
//! ```

use std::process::ExitCode;

#[path = "cozy_chess_perft.rs"]
mod cozy;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(depth), Some(fen)) = (args.get(1).and_then(|d| d.parse::<u32>().ok()), args.get(2)) else {
        eprintln!("usage: cozy-perft <depth> <fen>");
        return ExitCode::from(2);
    };
    // cozy-chess reads Shredder-FEN castling only in its Chess960 mode.
    let board = cozy_chess::Board::from_fen(fen, false).or_else(|_| cozy_chess::Board::from_fen(fen, true));
    match board {
        Ok(board) => {
            println!("Nodes searched: {}", cozy::perft(&board, depth));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bad FEN {fen:?}: {e:?}");
            ExitCode::from(2)
        }
    }
}
