//! `perft run`: one position, divide and total; optionally hashed,
//! verified, checkpointed and resumable.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::board::Board;
use perft::counting::journal::{count_journaled, plan_tasks, Divide, Journal, JournalHeader};
use perft::counting::progress::{weigh_tasks, Work};
use perft::counting::{
    divide_with_progress, perft_stats, with_threads, CountOptions, KeySet, Mode, PerftTable,
};
use perft::memory::{self, HashSize, TableSize};
use perft::report::{nodes_per_second, DivideEntry, HashInfo, ReportHeader, RunMode, RunProgress, RunReport};
use perft::types::Move;

use super::args::RunArgs;
use super::output::{self, ReportTarget};
use super::run_progress::LiveProgress;
use super::{interrupted_status, EXIT_OK, INTERRUPTED};

/// Counts of this depth or more are followed subtree by subtree, with an
/// ETA (shallower ones take seconds).
const SUBTREE_PROGRESS_DEPTH: u32 = 8;

/// What a count gave: the divide (a root move cut short by a stop has
/// `None`), the nodes taken from a journal, and how it progressed when
/// followed subtree by subtree.
struct Counted {
    divide: Divide,
    resumed: u128,
    progress: Option<RunProgress>,
}

/// The subtrees of a count followed subtree by subtree: the plies of the
/// split, the paths, and the work weighed for the ETA.
struct Subtrees {
    split: u32,
    tasks: Vec<Vec<Move>>,
    work: Work,
    /// When the run started: the progress line's clock counts from there,
    /// the weighing and the table's set-up included.
    started: Instant,
}

/// The subtrees, where the count goes subtree by subtree (deep, journaled,
/// or followed by a progress file). Planned and weighed before the table
/// is made, so that the weighing's working memory (tens of MB at depth 11)
/// is given back before the table takes its own.
fn plan_subtrees(args: &RunArgs, plan: &RunPlan) -> Result<Option<Subtrees>> {
    let journaled = args.checkpoint.is_some() || args.resume.is_some();
    let depth = args.depth;
    if depth == 0 || !(journaled || depth >= SUBTREE_PROGRESS_DEPTH || args.progress_json.is_some()) {
        return Ok(None);
    }
    let board = &plan.board;
    let (split, tasks) = plan_tasks(board, depth);
    let work = with_threads(plan.threads, || weigh_tasks(board, depth, &tasks))?;
    Ok(Some(Subtrees { split, tasks, work, started: plan.started }))
}

/// Counts subtree by subtree: the tree split into subtrees, each weighed
/// for the ETA, each finished one shown and (with a journal) recorded,
/// those already in the journal skipped.
fn count_by_subtrees(
    board: &Board,
    depth: u32,
    search: &CountOptions,
    args: &RunArgs,
    out: &mut dyn Write,
    threads: usize,
    subtrees: Subtrees,
) -> Result<Counted> {
    let Subtrees { split, tasks, work, started } = subtrees;
    let header = JournalHeader { fen: board.fen(), depth, mode: search.mode, split, tasks: tasks.len() };
    let (journal, done) = match (&args.checkpoint, &args.resume) {
        (Some(path), _) => (Some(Journal::create(path, &header)?), Default::default()),
        (None, Some(path)) => {
            let resumed = Journal::resume(path, &header, &tasks, board)?;
            for note in &resumed.notes {
                writeln!(out, "note: {note}")?;
            }
            writeln!(out, "resuming: {} of {} subtrees already done", resumed.done.len(), tasks.len())?;
            (Some(resumed.journal), resumed.done)
        }
        (None, None) => (None, Default::default()),
    };
    let live = LiveProgress::new(work, !args.quiet, args.progress_json.clone(), board.fen(), depth, threads)
        .started_at(started);
    live.resumed(&done);
    let divide = live
        .while_ticking(|| {
            with_threads(threads, || {
                count_journaled(board, depth, search, &tasks, journal.as_ref(), &done, &|i, n| {
                    live.finished(i, n)
                })
            })
        })?
        .context("cannot write the journal; stopped")?;
    // The progress file is advisory: a failure is a warning, never the count.
    let (progress, failed) = live.finish();
    if let (Some(e), Some(path)) = (failed, &args.progress_json) {
        eprintln!(
            "warning: cannot write the --progress-json file {}: {e}; the count is complete",
            path.display()
        );
    }
    Ok(Counted { divide, resumed: done.values().sum(), progress: Some(progress) })
}

/// Counts root move by root move, with a bar of root moves done.
fn count_by_root_moves(
    board: &Board,
    depth: u32,
    search: &CountOptions,
    args: &RunArgs,
    threads: usize,
) -> Result<Counted> {
    let bar = output::progress_bar(
        board.legal_moves().len() as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} root moves",
        !args.quiet && depth >= 6,
    );
    let divide = with_threads(threads, || divide_with_progress(board, depth, search, &|_, _| bar.inc(1)))?;
    bar.finish_and_clear();
    Ok(Counted { divide, resumed: 0, progress: None })
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

/// A run, planned: the position, where its output and report go, and the
/// table it counts with.
struct RunPlan {
    threads: usize,
    board: Board,
    mode: Mode,
    target: Option<ReportTarget>,
    out: Box<dyn Write>,
    /// The hash table's size, if one pays or was asked for.
    choice: Option<TableSize>,
    /// Count again with the second key set.
    verifying: bool,
    /// When the run started (before its table was set up).
    started: Instant,
}

pub fn run(args: RunArgs) -> Result<u8> {
    let mut plan = plan_run(&args)?;
    if args.stats {
        return run_stats(&args, &plan.board, plan.threads, plan.target.take(), plan.out.as_mut());
    }
    choose_run_table(&args, &mut plan)?;
    let subtrees = plan_subtrees(&args, &plan)?;
    // The table's set-up is not part of the count's time (the report has
    // it apart), but the progress line's clock and an interrupted run's
    // time include it.
    let (threads, announce) = (plan.threads, !args.quiet);
    let table = plan
        .choice
        .as_mut()
        .map(|c| output::make_table_saying(c, KeySet::Primary, threads, announce))
        .transpose()?;
    let start = Instant::now();
    let counted = count_run(&args, &mut plan, table.as_ref(), subtrees)?;
    let seconds = start.elapsed().as_secs_f64();
    let hash = table.as_ref().zip(plan.choice.as_ref()).map(|(table, c)| HashInfo::of(table, c));
    drop(table);
    report_run(&args, plan, counted, seconds, hash)
}

/// Arguments read: threads, position, report target (never over a journal
/// the run reads), counting mode.
fn plan_run(args: &RunArgs) -> Result<RunPlan> {
    let threads = output::threads(args.threads)?;
    let board = output::position(&args.position)?;
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "run", false)?;
    let journals = [(&args.checkpoint, "the --checkpoint journal"), (&args.resume, "the --resume journal")];
    let inputs: Vec<(&str, &Path)> =
        journals.iter().filter_map(|(path, what)| path.as_deref().map(|p| (*what, p))).collect();
    let outputs =
        [("--json", ReportTarget::file(&target)), ("--progress-json", args.progress_json.as_deref())];
    let outputs: Vec<(&str, &Path)> = outputs.iter().filter_map(|(name, p)| p.map(|p| (*name, p))).collect();
    output::refuse_collisions(&outputs, &inputs)?;
    if (args.checkpoint.is_some() || args.resume.is_some()) && args.depth < 2 {
        bail!("--checkpoint and --resume need a depth of at least 2");
    }
    let mode = if args.full { Mode::Full } else { Mode::Bulk };
    let out = output::human_output(ReportTarget::is_stdout(&target));
    Ok(RunPlan { threads, board, mode, target, out, choice: None, verifying: false, started: Instant::now() })
}

/// The table: `auto` unless asked otherwise, where a table pays (--full
/// makes every leaf, so a table pays there too); and whether it is
/// verified (with `auto`, a count too small for a table has nothing to
/// verify).
fn choose_run_table(args: &RunArgs, plan: &mut RunPlan) -> Result<()> {
    let (depth, board) = (args.depth, &plan.board);
    let useful = || memory::useful_table_bytes(board, depth);
    let choice = output::choose_table(args.hash, true, useful, &format!("depth {depth}"), 1.0)?;
    if args.hash == Some(HashSize::Auto) && choice.is_none() {
        writeln!(plan.out, "note: no hash table: perft({depth}) here is too small for one to pay")?;
    }
    plan.verifying = args.verify_hash && choice.is_some();
    if args.verify_hash && choice.is_none() {
        if args.hash.is_some_and(|size| size != HashSize::Auto) {
            bail!("--verify-hash needs a hash table (--hash MB or auto)");
        }
        writeln!(
            plan.out,
            "note: --verify-hash: perft({depth}) here is too small for a hash table, so there is nothing to \
             verify; the count is exact"
        )?;
    }
    output::warn_if_absurd(board, depth, plan.threads, choice.is_some());
    plan.choice = choice;
    Ok(())
}

/// The count itself: subtree by subtree (deep, journaled, or followed by a
/// progress file), or root move by root move.
fn count_run(
    args: &RunArgs,
    plan: &mut RunPlan,
    table: Option<&PerftTable>,
    subtrees: Option<Subtrees>,
) -> Result<Counted> {
    let depth = args.depth;
    if depth == 0 {
        return Ok(Counted { divide: Vec::new(), resumed: 0, progress: None });
    }
    let search = CountOptions { table, stop: Some(&INTERRUPTED), ..CountOptions::new(plan.mode) };
    match subtrees {
        Some(subtrees) => {
            count_by_subtrees(&plan.board, depth, &search, args, plan.out.as_mut(), plan.threads, subtrees)
        }
        None => count_by_root_moves(&plan.board, depth, &search, args, plan.threads),
    }
}

/// What a finished (or stopped) count prints and reports; a hashed count
/// is verified first when asked.
fn report_run(
    args: &RunArgs,
    mut plan: RunPlan,
    counted: Counted,
    seconds: f64,
    mut hash: Option<HashInfo>,
) -> Result<u8> {
    let (depth, threads, mode) = (args.depth, plan.threads, plan.mode);
    let Counted { divide, resumed, progress } = counted;
    let board = &plan.board;
    let out = plan.out.as_mut();
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
        let wall = plan.started.elapsed().as_secs_f64();
        let setup = hash.as_ref().map_or(0.0, |h| h.table_setup_s);
        let after = if setup >= 0.05 {
            format!("{wall:.1} s ({setup:.1} s of it setting up the hash table)")
        } else {
            format!("{wall:.1} s")
        };
        print_interrupted(out, board, &divide, nodes, &after, args)?;
        true
    } else if plan.verifying {
        let choice = plan.choice.as_ref().expect("--verify-hash has a table");
        !verify_run(board, depth, mode, choice, threads, &divide, &mut hash, out)?
    } else {
        false
    };
    if stopped {
        if let Some(target) = &plan.target {
            target.write(&report(nodes, hash, true), out)?;
        }
        out.flush()?;
        return Ok(interrupted_status());
    }
    print_total(out, args, board, &divide, nodes, resumed, seconds, threads, mode, hash.as_ref())?;
    if let Some(target) = plan.target.take() {
        let mut sink = std::io::sink();
        target.write(&report(nodes, hash, false), if args.quiet { &mut sink } else { out })?;
    }
    Ok(EXIT_OK)
}

/// Counts again with the second key set (`--verify-hash`), root move by
/// root move, and records the verdict in `hash`; false when a stop cut it
/// short (said on `out`).
///
/// # Errors
/// When the two counts differ: a hash collision corrupted one of them.
#[allow(clippy::too_many_arguments)]
fn verify_run(
    board: &Board,
    depth: u32,
    mode: Mode,
    choice: &TableSize,
    threads: usize,
    divide: &Divide,
    hash: &mut Option<HashInfo>,
    out: &mut dyn Write,
) -> Result<bool> {
    let nodes: u128 = divide.iter().filter_map(|&(_, n)| n).sum();
    // The size the first table ended with, not measured for slow memory again.
    let mut same_size = TableSize { megabytes: choice.megabytes, auto: None };
    let second = output::make_table(&mut same_size, KeySet::Secondary, threads)?;
    let search = CountOptions { table: Some(&second), stop: Some(&INTERRUPTED), ..CountOptions::new(mode) };
    let again = with_threads(threads, || divide_with_progress(board, depth, &search, &|_, _| {}))?;
    if again.iter().any(|(_, n)| n.is_none()) {
        writeln!(out, "interrupted during --verify-hash; the first run's total was {nodes} (not verified)")?;
        return Ok(false);
    }
    let agrees = again == *divide;
    if let Some(hash) = hash.as_mut() {
        hash.verified = Some(agrees);
    }
    if !agrees {
        let other: u128 = again.iter().filter_map(|&(_, n)| n).sum();
        bail!(
            "--verify-hash: the second key set gives {other} nodes, the first {nodes}: a hash collision \
             corrupted one of the runs; rerun without --hash for the exact count"
        );
    }
    Ok(true)
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
fn run_stats(
    args: &RunArgs,
    board: &Board,
    threads: usize,
    target: Option<ReportTarget>,
    out: &mut dyn Write,
) -> Result<u8> {
    let depth = args.depth;
    let start = Instant::now();
    let Some(stats) = with_threads(threads, || perft_stats(board, depth, Some(&INTERRUPTED)))? else {
        let seconds = start.elapsed().as_secs_f64();
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
    let seconds = start.elapsed().as_secs_f64();
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
        start_fen: (!args.position.moves.is_empty())
            .then(|| args.position.fen.clone().unwrap_or_else(|| perft::board::STARTPOS_FEN.to_string())),
        moves: args.position.moves.clone(),
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
