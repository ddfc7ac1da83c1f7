//! `perft status`: where a plan stands, read only.

use std::io::Write;

use anyhow::{Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::distributed::merge::compress_ranges;
use perft::distributed::status::{plan_status, StatusOptions};
use perft::distributed::Keys;

use super::args::StatusArgs;
use super::report_target::ReportTarget;
use super::{estimate, output};
use super::{interrupted, interrupted_status, EXIT_INCOMPLETE, EXIT_OK, INTERRUPTED};

pub fn status(args: StatusArgs) -> Result<u8> {
    let keys = Keys::new(args.keys)?;
    let target = ReportTarget::resolve(args.json.as_deref().map(Some), "status", false)?;
    super::merge::refuse_plan_files(&target, &args.plan)?;
    if !(args.watch.is_finite() && (0.0..=3600.0).contains(&args.watch)) {
        anyhow::bail!("--watch must be 0 to 3600 seconds");
    }
    let options = StatusOptions {
        now: std::time::SystemTime::now(),
        watch: std::time::Duration::from_secs_f64(args.watch),
        stop: Some(&INTERRUPTED),
    };
    let status = plan_status(&args.plan, keys, &options)
        .with_context(|| format!("cannot read {}", args.plan.display()))?;
    let mut quiet = std::io::sink();
    let mut human = output::human_output(ReportTarget::is_stdout(&target));
    let out: &mut dyn Write = if args.quiet { &mut quiet } else { &mut human };
    writeln!(
        out,
        "plan {}: perft({}) of {} in {} units (keys {keys})",
        args.plan.display(),
        status.depth,
        status.fen,
        status.units
    )?;
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    table.set_header(["state", "units", "which"]);
    let missing: Vec<u32> = status.missing.iter().map(|m| m.index.0).collect();
    let running: Vec<u32> = status.running.iter().map(|r| r.index.0).collect();
    let done: Vec<u32> = status.done.iter().map(|u| u.0).collect();
    for (state, units) in [("done", &done), ("running", &running), ("missing", &missing)] {
        let which = if units.is_empty() { "-".to_string() } else { compress_ranges(units) };
        table.add_row([
            Cell::new(state),
            Cell::new(units.len()).set_alignment(CellAlignment::Right),
            Cell::new(which),
        ]);
    }
    writeln!(out, "{table}")?;
    for unit in &status.running {
        let beat = match unit.clock_skew_s {
            Some(ahead) => format!(
                "heartbeat dated {ahead:.0} s in the future (clock skew between this machine and the unit's \
                 or the file server's), changing"
            ),
            None => format!("heartbeat {:.0} s ago", unit.heartbeat_age_s),
        };
        writeln!(
            out,
            "running: unit {} on {}: {} of {} positions journaled, {beat}",
            unit.index,
            unit.host.as_deref().unwrap_or("an unknown host"),
            unit.positions_done,
            unit.positions,
        )?;
    }
    for unit in status.missing.iter().filter(|m| m.reason != "never started") {
        let journaled = match unit.positions_done {
            0 => String::new(),
            n => format!(" ({n} positions journaled: a rerun goes on from there)"),
        };
        writeln!(out, "missing: unit {}: {}{journaled}", unit.index, unit.reason)?;
    }
    writeln!(out, "nodes so far: {} (the done units' share of the total)", status.nodes_done)?;
    match status.seconds_left {
        _ if status.counts.done == status.units => {
            writeln!(out, "every unit is done: run `perft merge {}`", args.plan.display())?
        }
        Some(left) if status.counts.done == 0 => writeln!(
            out,
            "time left: about {} (at the pace of the {} running units' journaled positions; none done yet)",
            estimate::human_duration(left),
            status.counts.running
        )?,
        Some(left) => writeln!(
            out,
            "time left: about {} ({} done in {:.1} s of unit time, {} running)",
            estimate::human_duration(left),
            status.counts.done,
            status.unit_seconds,
            status.counts.running
        )?,
        None => writeln!(out, "time left: not known before a unit is done or journals a position")?,
    }
    if let Some(target) = &target {
        target.write(&status, out)?;
    }
    out.flush()?;
    if interrupted() {
        return Ok(interrupted_status());
    }
    Ok(if status.counts.done == status.units { EXIT_OK } else { EXIT_INCOMPLETE })
}
