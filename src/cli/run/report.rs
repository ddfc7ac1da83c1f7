//! `perft run`, step four: the report: the divide and total printed (or
//! what finished before a stop), and the JSON report written.

use std::io::Write;

use anyhow::Result;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::board::Board;
use perft::counting::journal::Divide;
use perft::counting::{DepthStats, Mode};
use perft::report::{nodes_per_second, DivideEntry, HashInfo, ReportHeader, RunMode, RunReport};

use super::count::Counted;
use super::resolve::Resolved;
use crate::cli::args::RunArgs;
use crate::cli::output;
use crate::cli::{interrupted_status, EXIT_OK};

/// What a finished (or stopped) count prints and reports.
pub fn report(args: &RunArgs, mut run: Resolved, counted: Counted) -> Result<u8> {
    let (depth, threads, mode) = (args.depth, run.threads, run.mode);
    let Counted { divide, resumed, progress, seconds, hash, verification_stopped } = counted;
    let board = &run.board;
    let out = run.out.as_mut();
    let finished = divide.iter().all(|(_, n)| n.is_some());
    let nodes: u128 = if depth == 0 { 1 } else { divide.iter().filter_map(|&(_, n)| n).sum() };
    let report = |nodes: u128, hash: Option<HashInfo>, interrupted: bool| RunReport {
        nodes_per_second: nodes_per_second(nodes - resumed.min(nodes), seconds),
        divide: divide
            .iter()
            .filter_map(|&(mv, n)| Some(DivideEntry { mv: board.uci(mv), nodes: n? }))
            .collect(),
        hash,
        interrupted,
        progress: progress.clone(),
        ..report_of(args, board, mode.into(), threads, nodes, seconds)
    };
    let stopped = if !finished {
        let wall = run.started.elapsed().as_secs_f64();
        let setup = hash.as_ref().map_or(0.0, |h| h.table_setup_s);
        let after = if setup >= 0.05 {
            format!("{wall:.1} s ({setup:.1} s of it setting up the hash table)")
        } else {
            format!("{wall:.1} s")
        };
        print_interrupted(out, board, &divide, nodes, &after, args)?;
        true
    } else {
        verification_stopped
    };
    if stopped {
        if let Some(target) = &run.target {
            target.write(&report(nodes, hash, true), out)?;
        }
        out.flush()?;
        return Ok(interrupted_status());
    }
    print_total(out, args, board, &divide, nodes, resumed, seconds, threads, mode, hash.as_ref())?;
    if let Some(target) = run.target.take() {
        let mut sink = std::io::sink();
        target.write(&report(nodes, hash, false), if args.quiet { &mut sink } else { out })?;
    }
    Ok(EXIT_OK)
}

/// What finished before a signal, and how to go on; `after` is the time
/// since the run started, in words.
fn print_interrupted(
    out: &mut dyn Write,
    board: &Board,
    divide: &Divide,
    nodes: u128,
    after: &str,
    args: &RunArgs,
) -> Result<()> {
    writeln!(out, "interrupted after {after}; root moves finished:")?;
    for &(mv, n) in divide {
        if let Some(n) = n {
            writeln!(out, "{}: {n}", board.uci(mv))?;
        }
    }
    let done = divide.iter().filter(|(_, n)| n.is_some()).count();
    writeln!(out, "{done} of {} root moves finished ({nodes} nodes)", divide.len())?;
    if let Some(path) = args.checkpoint.as_ref().or(args.resume.as_ref()) {
        writeln!(
            out,
            "every finished subtree is in {}: rerun with --resume {} to finish",
            path.display(),
            path.display()
        )?;
    }
    Ok(())
}

/// The total (`--quiet`), or the divide, the total and the time.
#[allow(clippy::too_many_arguments)]
fn print_total(
    out: &mut dyn Write,
    args: &RunArgs,
    board: &Board,
    divide: &Divide,
    nodes: u128,
    resumed: u128,
    seconds: f64,
    threads: usize,
    mode: Mode,
    hash: Option<&HashInfo>,
) -> Result<()> {
    if args.quiet {
        writeln!(out, "{nodes}")?;
    } else {
        output::print_divide(out, divide.iter().map(|&(mv, n)| (board.uci(mv), n.unwrap_or(0))), nodes)?;
        let hash_text = hash.map_or(String::new(), |h| format!(", {h}"));
        let resumed_text =
            if resumed > 0 { format!(", {resumed} nodes taken from the journal") } else { String::new() };
        writeln!(
            out,
            "Time {seconds:.3} s, {:.1} Mnps ({} counting, {threads} thread{}, depth {}{hash_text}{resumed_text})",
            output::mnps(nodes - resumed, seconds),
            mode.name(),
            if threads == 1 { "" } else { "s" },
            args.depth,
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `perft run --stats`: the extended statistics table.
pub fn report_stats(
    args: &RunArgs,
    mut run: Resolved,
    (stats, seconds): (Option<Vec<DepthStats>>, f64),
) -> Result<u8> {
    let (depth, threads, board, target) = (args.depth, run.threads, &run.board, run.target.take());
    let out = run.out.as_mut();
    let Some(stats) = stats else {
        writeln!(out, "interrupted after {seconds:.1} s; statistics are only complete at the end")?;
        if let Some(target) = target {
            // Nothing finished: the report only says the run was stopped.
            let report = RunReport {
                interrupted: true,
                ..report_of(args, board, RunMode::Stats, threads, 0, seconds)
            };
            target.write(&report, out)?;
        }
        return Ok(interrupted_status());
    };
    let nodes = stats.last().map_or(1, |row| row.nodes);
    let made: u128 = stats.iter().map(|row| row.nodes).sum();
    if args.quiet {
        writeln!(out, "{nodes}")?;
    } else {
        let mut table = Table::new();
        table.load_style(UTF8_FULL_CONDENSED);
        table.set_header([
            "depth",
            "nodes",
            "captures",
            "e.p.",
            "castles",
            "promotions",
            "checks",
            "discovered",
            "double",
            "mates",
        ]);
        for row in &stats {
            let cells = [
                u128::from(row.depth),
                row.nodes,
                row.captures,
                row.en_passant,
                row.castles,
                row.promotions,
                row.checks,
                row.discovered_checks,
                row.double_checks,
                row.checkmates,
            ];
            table.add_row(cells.map(|n| Cell::new(n).set_alignment(CellAlignment::Right)));
        }
        writeln!(out, "{table}")?;
        output::print_nodes_searched(out, nodes)?;
        writeln!(
            out,
            "Time {seconds:.3} s, {:.1} Mnps ({made} nodes made at all depths, {threads} thread{}, depth {depth})",
            output::mnps(made, seconds),
            if threads == 1 { "" } else { "s" },
        )?;
    }
    out.flush()?;
    if let Some(target) = target {
        let report = RunReport {
            nodes_per_second: nodes_per_second(made, seconds),
            stats,
            ..report_of(args, board, RunMode::Stats, threads, nodes, seconds)
        };
        let mut sink = std::io::sink();
        target.write(&report, if args.quiet { &mut sink } else { out })?;
    }
    Ok(EXIT_OK)
}

/// A run report with the facts every run has (the speed over all `nodes`);
/// the caller fills in the divide, hash and statistics.
fn report_of(
    args: &RunArgs,
    board: &Board,
    mode: RunMode,
    threads: usize,
    nodes: u128,
    seconds: f64,
) -> RunReport {
    RunReport {
        header: ReportHeader::of::<RunReport>(),
        fen: board.fen(),
        start_fen: (!args.position.moves.is_empty()).then(|| args.position.start_fen()),
        // As played, in UCI, however they were given (SAN too).
        moves: board.moves_played().map(|m| m.uci(board.is_chess960()).to_string()).collect(),
        chess960: board.is_chess960(),
        depth: args.depth,
        mode,
        threads,
        nodes,
        seconds,
        nodes_per_second: nodes_per_second(nodes, seconds),
        divide: Vec::new(),
        hash: None,
        stats: Vec::new(),
        interrupted: false,
        progress: None,
    }
}
