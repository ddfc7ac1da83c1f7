//! `perft run`, step one: its arguments resolved before any work: threads,
//! position, where the report and the human output go (never over a
//! journal the run reads), counting mode.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};
use perft::board::Board;
use perft::counting::Mode;

use crate::cli::args::RunArgs;
use crate::cli::output;
use crate::cli::report_target::ReportTarget;
use crate::cli::resolve::{position, refuse_collisions, threads};

/// A run's arguments, resolved: what every later step reads.
pub struct Resolved {
    pub threads: usize,
    pub board: Board,
    pub mode: Mode,
    pub target: Option<ReportTarget>,
    pub out: Box<dyn Write>,
    /// When the run started (before its table was set up).
    pub started: Instant,
}

/// Arguments read: threads, position, report target (never over a journal
/// the run reads), counting mode.
pub fn resolve(args: &RunArgs) -> Result<Resolved> {
    let threads = threads(args.threads)?;
    let board = position(&args.position)?;
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "run", false)?;
    let journals = [(&args.checkpoint, "the --checkpoint journal"), (&args.resume, "the --resume journal")];
    let inputs: Vec<(&str, &Path)> =
        journals.iter().filter_map(|(path, what)| path.as_deref().map(|p| (*what, p))).collect();
    let outputs =
        [("--json", ReportTarget::file(&target)), ("--progress-json", args.progress_json.as_deref())];
    let outputs: Vec<(&str, &Path)> = outputs.iter().filter_map(|(name, p)| p.map(|p| (*name, p))).collect();
    refuse_collisions(&outputs, &inputs)?;
    if (args.checkpoint.is_some() || args.resume.is_some()) && args.depth < 2 {
        bail!("--checkpoint and --resume need a depth of at least 2");
    }
    let mode = if args.full { Mode::Full } else { Mode::Bulk };
    let out = output::human_output(ReportTarget::is_stdout(&target));
    Ok(Resolved { threads, board, mode, target, out, started: Instant::now() })
}
