//! Arguments of the commands of a distributed count: `split`, `unit`,
//! `status`, `merge`.

use std::path::PathBuf;

use clap::Args;

use super::{depth_parser, HashSize, PositionArgs};

pub(super) const SPLIT_HELP: &str = "\
Example: perft split --depth 10 --ply 4 --units 64 --out d10
         (then `perft unit d10 --index I` for I in 0..63, then `perft merge d10`)

Exit status:
  0  plan written
  2  bad input or usage (depth, ply, units), a non-empty directory without --force, a ply too
     large for this machine's memory
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (nothing written)

With --force, the new plan is written beside the old one and swapped in at the end: a split
that fails or is stopped leaves the old plan and its results as they were.";

pub(super) const UNIT_HELP: &str = "\
The unit: --index, else the first of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX and
AWS_BATCH_JOB_ARRAY_INDEX that is set and not empty; plus --index-offset (else PERFT_INDEX_OFFSET).
A valid result already present ends the command at once (status 0). Each finished position is
journaled in PLAN/results/unit-NNNNNN.kK.journal; after SIGTERM (preemption), a kill or a crash,
the same command resumes from it.

Exit status:
  0  the result is written (or was already there)
  2  bad input: plan, unit file (checksum), index, options
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (finished positions are journaled)";

pub(super) const MERGE_HELP: &str = "\
Exit status:
  0  every unit present and valid (and the key sets agree): total and divide printed
  1  two key sets disagree on a unit (named)
  2  bad input: the plan cannot be read or a unit file changed
  3  units missing or invalid: `missing: 3,17,250-260` (usable as sbatch --array=...)";

#[derive(Debug, Args)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Total depth of the count.
    #[arg(long, short = 'd', value_name = "D", value_parser = depth_parser())]
    pub depth: u32,
    /// Plies down to the unit positions (1 to D - 1).
    #[arg(long, value_name = "P", value_parser = depth_parser())]
    pub ply: u32,
    /// Number of units (1 to the number of unique positions).
    #[arg(long, value_name = "N")]
    pub units: u32,
    /// The plan directory (created; must be empty unless --force).
    #[arg(long, value_name = "PLAN")]
    pub out: PathBuf,
    /// Replace the plan (manifest, units, results) in a non-empty directory.
    #[arg(long)]
    pub force: bool,
    /// The most unique positions one ply may hold in memory [default: from
    /// the memory available].
    #[arg(long, value_name = "N")]
    pub max_positions: Option<u64>,
    /// Worker threads for the check count, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct UnitArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// The unit, from 0 [default: from SLURM_ARRAY_TASK_ID,
    /// JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX].
    #[arg(long, value_name = "I", allow_hyphen_values = true)]
    pub index: Option<String>,
    /// Added to the unit index, whatever its source [default: from
    /// PERFT_INDEX_OFFSET, else 0]: job arrays whose own indexes must stay
    /// small (Slurm's MaxArraySize) reach units past them.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub index_offset: Option<String>,
    /// Zobrist key set of the hash table: 1 or 2.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub keys: u8,
    /// Hash table shared by the whole unit: MB mebibytes, `auto` (sized
    /// from the unit and the memory this process may use: the job's cgroup
    /// limit or the available memory), or 0 for none.
    #[arg(long, value_name = "MB|auto", default_value = "auto")]
    pub hash: HashSize,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
}

pub(super) const STATUS_HELP: &str = "\
Example: perft status d10
         until perft status d10 --quiet; do sleep 60; done; perft merge d10

A unit is running while its heartbeat (results/unit-NNNNNN.kK.running, rewritten every 15 s) is
at most 120 s old; an older one is a unit that died, and it counts as missing.

Exit status:
  0  every unit is done (run `perft merge`)
  2  the plan cannot be read
  3  some units are running or missing";

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// The key set whose results to look at: 1 or 2.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub keys: u8,
    /// Write the status as JSON to FILE (atomically; `-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Print nothing; the exit status says whether every unit is done.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds to watch a heartbeat that the clocks cannot judge (dated in
    /// the future, or a little stale) for a change before calling its unit
    /// dead; 0 to not watch.
    #[arg(long, value_name = "SECONDS", default_value_t = 17.0)]
    pub watch: f64,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// Key sets whose results to merge: 1, 2 or 1,2 (both must be present
    /// and agree unit by unit).
    #[arg(long, value_name = "K[,K]", value_delimiter = ',', default_value = "1")]
    pub keys: Vec<u8>,
    /// Write a merge report to FILE (atomically; `-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}
