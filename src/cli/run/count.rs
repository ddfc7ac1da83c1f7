//! `perft run`, step three: the count: subtree by subtree (deep, journaled,
//! or followed by a progress file) or root move by root move, a hashed one
//! counted again with the second key set when asked; or, with `--stats`,
//! the extended statistics.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use perft::board::Board;
use perft::counting::journal::{count_journaled, Divide, Journal, JournalHeader};
use perft::counting::{
    divide_with_progress, perft_stats, with_threads, CountOptions, DepthStats, KeySet, Mode, PerftTable,
};
use perft::memory::TableSize;
use perft::report::{HashInfo, RunProgress};

use super::plan::{Plan, Subtrees};
use super::resolve::Resolved;
use crate::cli::args::RunArgs;
use crate::cli::output;
use crate::cli::run_progress::LiveProgress;
use crate::cli::table::make_table;
use crate::cli::INTERRUPTED;

/// What a count gave: the divide (a root move cut short by a stop has
/// `None`), the nodes taken from a journal, how it progressed when
/// followed subtree by subtree, its time, its table, and whether a stop
/// cut its verification short.
pub struct Counted {
    pub divide: Divide,
    pub resumed: u128,
    pub progress: Option<RunProgress>,
    pub seconds: f64,
    pub hash: Option<HashInfo>,
    /// `--verify-hash` was stopped before it finished (said on the output).
    pub verification_stopped: bool,
}

/// The count, timed without the table's set-up; then, where it finished
/// and `--verify-hash` asks, counted again with the second key set (after
/// the first table is given back).
pub fn count(args: &RunArgs, run: &mut Resolved, plan: Plan) -> Result<Counted> {
    let Plan { choice, verifying, subtrees, table } = plan;
    let start = Instant::now();
    let (divide, resumed, progress) = count_run(args, run, table.as_ref(), subtrees)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut hash = table.as_ref().zip(choice.as_ref()).map(|(table, c)| HashInfo::of(table, c));
    drop(table);
    let finished = divide.iter().all(|(_, n)| n.is_some());
    let verification_stopped = if finished && verifying {
        let choice = choice.as_ref().expect("--verify-hash has a table");
        !verify_run(
            &run.board,
            args.depth,
            run.mode,
            choice,
            run.threads,
            &divide,
            &mut hash,
            run.out.as_mut(),
        )?
    } else {
        false
    };
    Ok(Counted { divide, resumed, progress, seconds, hash, verification_stopped })
}

/// A divide, the nodes taken from a journal, and the progress of a count
/// followed subtree by subtree.
type Divided = (Divide, u128, Option<RunProgress>);

/// The count itself: subtree by subtree (deep, journaled, or followed by a
/// progress file), or root move by root move.
fn count_run(
    args: &RunArgs,
    run: &mut Resolved,
    table: Option<&PerftTable>,
    subtrees: Option<Subtrees>,
) -> Result<Divided> {
    let depth = args.depth;
    if depth == 0 {
        return Ok((Vec::new(), 0, None));
    }
    let search = CountOptions { table, stop: Some(&INTERRUPTED), ..CountOptions::new(run.mode) };
    match subtrees {
        Some(subtrees) => {
            count_by_subtrees(&run.board, depth, &search, args, run.out.as_mut(), run.threads, subtrees)
        }
        None => count_by_root_moves(&run.board, depth, &search, args, run.threads),
    }
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
) -> Result<Divided> {
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
    Ok((divide, done.values().sum(), Some(progress)))
}

/// Counts root move by root move, with a bar of root moves done.
fn count_by_root_moves(
    board: &Board,
    depth: u32,
    search: &CountOptions,
    args: &RunArgs,
    threads: usize,
) -> Result<Divided> {
    let bar = output::progress_bar(
        board.legal_moves().len() as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} root moves",
        !args.quiet && depth >= 6,
    );
    let divide = with_threads(threads, || divide_with_progress(board, depth, search, &|_, _| bar.inc(1)))?;
    bar.finish_and_clear();
    Ok((divide, 0, None))
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
    let second = make_table(&mut same_size, KeySet::Secondary, threads)?;
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

/// `--stats`: the extended statistics, timed; `None` where a stop cut them
/// short.
pub fn count_stats(args: &RunArgs, run: &Resolved) -> Result<(Option<Vec<DepthStats>>, f64)> {
    let (board, depth) = (&run.board, args.depth);
    let start = Instant::now();
    let stats = with_threads(run.threads, || perft_stats(board, depth, Some(&INTERRUPTED)))?;
    Ok((stats, start.elapsed().as_secs_f64()))
}
