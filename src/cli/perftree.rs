//! `perft perftree`: the engine interface of the perftree debugger.

use std::io::Write;

use anyhow::{Context, Result};
use perft::board::{Board, FenOptions};
use perft::counting::{divide_parallel, with_threads, Mode};

use super::EXIT_OK;

pub fn perftree(args: super::args::PerftreeArgs) -> Result<u8> {
    super::EXIT_ON_SIGNAL.store(true, std::sync::atomic::Ordering::SeqCst);
    let (depth, fen, moves) = args.parts().map_err(anyhow::Error::msg)?;
    let mut board =
        Board::from_fen_with(fen, FenOptions::RELAXED).with_context(|| format!("bad FEN {fen:?}"))?;
    for mv in moves {
        board.play_uci(mv).with_context(|| format!("bad move {mv:?}"))?;
    }
    let threads = super::resolve::threads(None)?;
    let divide = if depth == 0 {
        Vec::new()
    } else {
        with_threads(threads, || divide_parallel(&board, depth, Mode::Bulk, &|_, _| {}))?
    };
    let total: u128 = if depth == 0 { 1 } else { divide.iter().map(|&(_, n)| n).sum() };
    let mut out = std::io::stdout().lock();
    for (mv, nodes) in divide {
        writeln!(out, "{} {nodes}", board.uci(mv))?;
    }
    writeln!(out, "\n{total}")?;
    out.flush()?;
    Ok(EXIT_OK)
}
