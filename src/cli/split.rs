//! `perft split`: a count cut into units of unique positions, written to a
//! plan directory.

use std::io::Write;

use anyhow::{Context, Result};
use perft::counting::with_threads;
use perft::distributed::plan::{self, SplitRequest, BYTES_PER_POSITION};
use perft::distributed::DistError;

use super::args::SplitArgs;
use super::{interrupted_status, resolve, EXIT_OK, INTERRUPTED};

/// Unique positions one ply may hold: half the memory this process may use
/// (its cgroup's limit or the available memory) at [`BYTES_PER_POSITION`]
/// each (50 million when the system does not say).
fn default_max_positions() -> u64 {
    perft::memory::memory_source().map_or(50_000_000, |source| source.free_bytes() / 2 / BYTES_PER_POSITION)
}

pub fn split(args: SplitArgs) -> Result<u8> {
    let threads = resolve::threads(args.threads)?;
    let board = resolve::position(&args.position)?;
    let request = SplitRequest {
        root: &board,
        depth: args.depth,
        ply: args.ply,
        units: args.units,
        max_positions: args.max_positions.unwrap_or_else(default_max_positions),
        force: args.force,
        stop: Some(&INTERRUPTED),
    };
    let summary = match with_threads(threads, || plan::split(&request, &args.out))? {
        Err(DistError::Interrupted) => {
            eprintln!("interrupted: no plan written; {} is as it was", args.out.display());
            return Ok(interrupted_status());
        }
        other => other.with_context(|| format!("cannot split into {}", args.out.display()))?,
    };
    let mut out = std::io::stdout().lock();
    let m = &summary.manifest;
    let sizes = m.units.iter().map(|u| u.positions);
    let (smallest, largest) = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
    let size_text = if smallest == largest { format!("{smallest}") } else { format!("{smallest}-{largest}") };
    writeln!(
        out,
        "Plan {}: {} unique positions at ply {} (multiplicities sum to {} = perft({})), {} units of {} positions, \
         each position counted {} plies deep (depth {} in all)",
        args.out.display(),
        m.unique_positions,
        m.ply,
        m.multiplicity_sum,
        m.ply,
        m.unit_count,
        size_text,
        m.unit_depth(),
        m.depth
    )?;
    writeln!(
        out,
        "Unit files: {} bytes ({:.1} bytes per position); split in {:.2} s",
        summary.bytes,
        summary.bytes as f64 / m.unique_positions.max(1) as f64,
        summary.seconds
    )?;
    writeln!(
        out,
        "Next: perft unit {} --index I (I = 0 to {}), or scripts/slurm/submit.sh {}; then perft merge {}",
        args.out.display(),
        m.unit_count - 1,
        args.out.display(),
        args.out.display()
    )?;
    Ok(EXIT_OK)
}
