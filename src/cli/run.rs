//! `perft run`: one position, divide and total.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use perft::perft::{divide_parallel, with_threads, Mode};
use perft::report::{DivideEntry, MachineInfo, RunReport, ToolInfo};

use super::args::RunArgs;
use super::output::{self, ReportTarget};
use super::EXIT_OK;

pub fn run(args: RunArgs) -> Result<u8> {
    let threads = output::threads(args.threads)?;
    let board = output::position(&args.position)?;
    let target = ReportTarget::resolve(args.json.as_deref(), "run", false)?;
    let mode = if args.full { Mode::Full } else { Mode::Bulk };
    let depth = args.depth;

    let root_moves = board.legal_moves().len() as u64;
    let bar = output::progress_bar(
        root_moves,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} root moves",
        !args.quiet && depth >= 6,
    );
    let start = Instant::now();
    let divide = if depth == 0 {
        Vec::new()
    } else {
        with_threads(threads, || divide_parallel(&board, depth, mode, &|_, _| bar.inc(1)))?
    };
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let nodes: u64 = if depth == 0 { 1 } else { divide.iter().map(|&(_, n)| n).sum() };

    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    if args.quiet {
        writeln!(out, "{nodes}")?;
    } else {
        for &(mv, n) in &divide {
            writeln!(out, "{}: {n}", board.uci(mv))?;
        }
        writeln!(out, "\nNodes searched: {nodes}\n")?;
        writeln!(
            out,
            "Time {seconds:.3} s, {:.1} Mnps ({} counting, {threads} thread{}, depth {depth})",
            output::mnps(nodes, seconds),
            mode.name(),
            if threads == 1 { "" } else { "s" },
        )?;
    }
    out.flush()?;

    if let Some(target) = target {
        let report = RunReport {
            kind: "run".into(),
            tool: ToolInfo::current(),
            machine: MachineInfo::detect(),
            timestamp: perft::report::timestamp(),
            fen: board.fen(),
            start_fen: (!args.position.moves.is_empty())
                .then(|| args.position.fen.clone().unwrap_or_else(|| perft::board::STARTPOS_FEN.to_string())),
            moves: args.position.moves.clone(),
            chess960: board.is_chess960(),
            depth,
            mode: mode.name().to_string(),
            threads,
            nodes,
            seconds,
            nodes_per_second: if seconds > 0.0 { nodes as f64 / seconds } else { 0.0 },
            divide: divide.iter().map(|&(mv, n)| DivideEntry { mv: board.uci(mv), nodes: n }).collect(),
        };
        if let Some(path) = target.write(&report)? {
            if !args.quiet {
                writeln!(out, "Report: {}", path.display())?;
            }
        }
    }
    Ok(EXIT_OK)
}
