//! `perft merge`: checks every unit result of a plan and prints the total
//! and the root divide in `run`'s format.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use perft::distributed::merge::{compress_ranges, merge as merge_plan};
use perft::distributed::Keys;

use super::args::MergeArgs;
use super::report_target::ReportTarget;
use super::{output, resolve};
use super::{EXIT_INCOMPLETE, EXIT_MISMATCH, EXIT_OK};

pub fn merge(args: MergeArgs) -> Result<u8> {
    let keys = args.keys.iter().map(|&k| Keys::new(k)).collect::<Result<Vec<Keys>, _>>()?;
    let mut distinct = args.keys.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != args.keys.len() {
        bail!("--keys names a key set twice ({:?}): give 1, 2 or 1,2", args.keys);
    }
    let target = ReportTarget::resolve(args.json.as_deref().map(Some), "merge", false)?;
    refuse_plan_files(&target, &args.plan)?;
    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    let outcome =
        merge_plan(&args.plan, &keys).with_context(|| format!("cannot merge {}", args.plan.display()))?;
    for problem in &outcome.invalid {
        writeln!(
            out,
            "invalid: unit {} (keys {}): {}: {}",
            problem.index,
            problem.keys,
            args.plan.join(&problem.file).display(),
            problem.reason
        )?;
    }
    for d in &outcome.disagreements {
        let totals: Vec<String> = d.totals.iter().map(|(k, n)| format!("key set {k} counts {n}")).collect();
        writeln!(
            out,
            "DISAGREEMENT: unit {}: {}; first different position: line {} of its file ({})",
            d.index,
            totals.join(", "),
            d.position + 2,
            d.fen
        )?;
    }
    let redo = outcome.to_redo();
    if !redo.is_empty() {
        writeln!(out, "missing: {}", compress_ranges(&redo))?;
        if outcome.keys.len() > 1 {
            for keys in &outcome.keys {
                let units: Vec<u32> = outcome
                    .missing
                    .iter()
                    .filter(|m| m.keys == *keys)
                    .flat_map(|m| m.units.iter().map(|u| u.0))
                    .chain(outcome.invalid.iter().filter(|p| p.keys == *keys).map(|p| p.index.0))
                    .collect();
                if !units.is_empty() {
                    writeln!(out, "  keys {keys}: {}", compress_ranges(&units))?;
                }
            }
        }
        writeln!(
            out,
            "{} of {} units to run again (perft unit {} --index I --keys K, or scripts/slurm/submit.sh {} --array LIST --keys K)",
            redo.len(),
            outcome.manifest.unit_count,
            args.plan.display(),
            args.plan.display()
        )?;
    }
    if let Some(nodes) = outcome.nodes {
        output::print_divide(&mut out, outcome.divide.iter().map(|(mv, n)| (mv, *n)), nodes)?;
        let key_text = match &outcome.keys[..] {
            [one] => format!("key set {one}"),
            many => format!(
                "key sets {} agree on every position",
                many.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(",")
            ),
        };
        writeln!(
            out,
            "Merged {} units ({} positions at ply {}, depth {} below each; {key_text}); units took {:.1} s, {:.1} thread-seconds",
            outcome.manifest.unit_count,
            outcome.manifest.unique_positions,
            outcome.manifest.ply,
            outcome.manifest.unit_depth(),
            outcome.unit_seconds,
            outcome.thread_seconds
        )?;
    }
    out.flush()?;
    if let Some(target) = &target {
        target.write(&outcome.report(), &mut out)?;
    }
    Ok(if !outcome.disagreements.is_empty() {
        EXIT_MISMATCH
    } else if !redo.is_empty() {
        EXIT_INCOMPLETE
    } else {
        EXIT_OK
    })
}

/// Refuses, before any work, a report written into the plan's own files:
/// its manifest, a unit file or a result (`merge --json`, `status --json`).
pub(super) fn refuse_plan_files(target: &Option<ReportTarget>, plan: &Path) -> Result<()> {
    let Some(ReportTarget::File(report)) = target else { return Ok(()) };
    ReportTarget::refuse_over(target, "--json", &[(&plan.join("manifest.json"), "the plan's manifest")])?;
    let parent = report.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    for (dir, what) in [("units", "the plan's units"), ("results", "the plan's results")] {
        if resolve::same_path(parent, &plan.join(dir)) {
            bail!(
                "--json {} is in {what} ({}): write the report elsewhere",
                report.display(),
                plan.join(dir).display()
            );
        }
    }
    Ok(())
}
