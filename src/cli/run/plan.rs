//! `perft run`, step two: the table and the work planned: the hash table
//! chosen (and whether it is verified), the subtrees of a deep, journaled
//! or followed count weighed, and the table made.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Result};
use perft::counting::journal::plan_tasks;
use perft::counting::progress::{weigh_tasks, Work};
use perft::counting::{with_threads, KeySet, PerftTable};
use perft::memory::{self, HashSize, TableSize};
use perft::types::Move;

use super::resolve::Resolved;
use crate::cli::args::RunArgs;
use crate::cli::estimate::warn_if_absurd;
use crate::cli::table::{choose_table, make_table_saying};

/// Counts of this depth or more are followed subtree by subtree, with an
/// ETA (shallower ones take seconds).
const SUBTREE_PROGRESS_DEPTH: u32 = 8;

/// The subtrees of a count followed subtree by subtree: the plies of the
/// split, the paths, and the work weighed for the ETA.
pub struct Subtrees {
    pub split: u32,
    pub tasks: Vec<Vec<Move>>,
    pub work: Work,
    /// When the run started: the progress line's clock counts from there,
    /// the weighing and the table's set-up included.
    pub started: Instant,
}

/// A run, planned: the table it counts with, and how the count goes.
pub struct Plan {
    /// The hash table's size, if one pays or was asked for.
    pub choice: Option<TableSize>,
    /// Count again with the second key set.
    pub verifying: bool,
    /// Where the count goes subtree by subtree.
    pub subtrees: Option<Subtrees>,
    /// The table, made.
    pub table: Option<PerftTable>,
}

/// The table chosen, the subtrees weighed, then the table made. The
/// table's set-up is not part of the count's time (the report has it
/// apart), but the progress line's clock and an interrupted run's time
/// include it.
pub fn plan(args: &RunArgs, run: &mut Resolved) -> Result<Plan> {
    let (mut choice, verifying) = choose_run_table(args, run)?;
    let subtrees = plan_subtrees(args, run)?;
    let (threads, announce) = (run.threads, !args.quiet);
    let table =
        choice.as_mut().map(|c| make_table_saying(c, KeySet::Primary, threads, announce)).transpose()?;
    Ok(Plan { choice, verifying, subtrees, table })
}

/// The table: `auto` unless asked otherwise, where a table pays (--full
/// makes every leaf, so a table pays there too); and whether it is
/// verified (with `auto`, a count too small for a table has nothing to
/// verify).
fn choose_run_table(args: &RunArgs, run: &mut Resolved) -> Result<(Option<TableSize>, bool)> {
    let (depth, board) = (args.depth, &run.board);
    let useful = || memory::useful_table_bytes(board, depth);
    let choice = choose_table(args.hash, true, useful, &format!("depth {depth}"), 1.0)?;
    if args.hash == Some(HashSize::Auto) && choice.is_none() {
        writeln!(run.out, "note: no hash table: perft({depth}) here is too small for one to pay")?;
    }
    let verifying = args.verify_hash && choice.is_some();
    if args.verify_hash && choice.is_none() {
        if args.hash.is_some_and(|size| size != HashSize::Auto) {
            bail!("--verify-hash needs a hash table (--hash MB or auto)");
        }
        writeln!(
            run.out,
            "note: --verify-hash: perft({depth}) here is too small for a hash table, so there is nothing to \
             verify; the count is exact"
        )?;
    }
    warn_if_absurd(board, depth, run.threads, choice.is_some());
    Ok((choice, verifying))
}

/// The subtrees, where the count goes subtree by subtree (deep, journaled,
/// or followed by a progress file). Planned and weighed before the table
/// is made, so that the weighing's working memory (tens of MB at depth 11)
/// is given back before the table takes its own.
fn plan_subtrees(args: &RunArgs, run: &Resolved) -> Result<Option<Subtrees>> {
    let journaled = args.checkpoint.is_some() || args.resume.is_some();
    let depth = args.depth;
    if depth == 0 || !(journaled || depth >= SUBTREE_PROGRESS_DEPTH || args.progress_json.is_some()) {
        return Ok(None);
    }
    let board = &run.board;
    let (split, tasks) = plan_tasks(board, depth);
    let work = with_threads(run.threads, || weigh_tasks(board, depth, &tasks))?;
    Ok(Some(Subtrees { split, tasks, work, started: run.started }))
}
