//! `perft unit`: counts one unit of a plan.

use std::io::Write;

use anyhow::{Context, Result};
use perft::distributed::unit::{resolve_index, run_unit, UnitOutcome, UnitRequest, UnitResult};
use perft::distributed::Keys;

use super::args::UnitArgs;
use super::{interrupted_status, resolve, EXIT_OK, INTERRUPTED};

pub fn unit(args: UnitArgs) -> Result<u8> {
    let threads = resolve::threads(args.threads)?;
    let keys = Keys::new(args.keys)?;
    let index =
        resolve_index(args.index.as_deref(), args.index_offset.as_deref(), |name| std::env::var(name).ok())?;
    let request = UnitRequest {
        plan: &args.plan,
        index: index.clone(),
        keys,
        hash: args.hash,
        threads,
        stop: Some(&INTERRUPTED),
    };
    let outcome =
        run_unit(&request).with_context(|| format!("unit {} of {}", index.index, args.plan.display()))?;
    let mut out = std::io::stdout().lock();
    match outcome {
        UnitOutcome::AlreadyDone { path, result } => {
            writeln!(
                out,
                "unit {} (keys {keys}): already done ({} positions, total {}): {}; nothing to count",
                result.index,
                result.positions,
                result.total,
                path.display()
            )?;
            Ok(EXIT_OK)
        }
        UnitOutcome::Finished { path, result, notes } => {
            for note in notes {
                writeln!(out, "note: {note}")?;
            }
            let resumed = match result.resumed_positions {
                0 => String::new(),
                n => format!(", {n} taken from the journal"),
            };
            writeln!(
        out,
                "unit {} (keys {keys}): {} positions counted {} plies deep: total {} in {:.3} s ({} thread{}, {}{resumed})",
                result.index,
                result.positions,
                result.depth,
                result.total,
                result.seconds,
                result.threads,
                if result.threads == 1 { "" } else { "s" },
                table_text(&result),
            )?;
            writeln!(out, "Result: {}", path.display())?;
            Ok(EXIT_OK)
        }
        UnitOutcome::Interrupted { journal, done, positions, notes } => {
            for note in notes {
                writeln!(out, "note: {note}")?;
            }
            writeln!(
        out,
                "interrupted: {done} of {positions} positions finished, journaled in {}; the same command resumes",
                journal.display()
            )?;
            Ok(interrupted_status())
        }
    }
}

/// `hash 6144 MB (auto: cgroup limit 8 GB, 7.5 GB free), set up in 0.4 s`,
/// or `no hash table`.
fn table_text(result: &UnitResult) -> String {
    let why = result.hash_auto.as_ref().map_or(String::new(), |why| format!(" ({why})"));
    match result.hash_mb {
        0 => format!("no hash table{why}"),
        mb => format!("hash {mb} MB{why}, set up in {:.1} s", result.table_setup_s),
    }
}
