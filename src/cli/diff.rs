//! `perft diff OLD.json NEW.json`: count changes (a count now the expected
//! one is a fix) and speed regressions between two bench, suite or compare
//! reports.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::report::ci::from_diff;
use perft::report::diff::{diff_reports, DiffError, Side};
use perft::report::{speeds_text, AnyReport};

use super::args::DiffArgs;
use super::ci_output::CiTarget;
use super::{EXIT_MISMATCH, EXIT_OK};

fn read(path: &Path) -> Result<AnyReport> {
    AnyReport::read_file(path).with_context(|| format!("{}", path.display()))
}

pub fn diff(args: DiffArgs) -> Result<u8> {
    if !(args.threshold >= 0.0 && args.threshold.is_finite()) {
        bail!("--threshold must be a non-negative percentage");
    }
    let ci = CiTarget::resolve(&args.ci, &None, &[args.old.clone(), args.new.clone()])?;
    let old = read(&args.old)?;
    let new = read(&args.new)?;
    let outcome = diff_reports(&old, &new, args.threshold, args.force).map_err(|e| match &e {
        DiffError::Unsupported { side, .. } => {
            let path = if *side == Side::Old { &args.old } else { &args.new };
            anyhow::anyhow!("{}: {e}", path.display())
        }
        _ => e.into(),
    })?;
    let mut out = super::output::human_output(ci.takes_stdout());
    for warning in &outcome.warnings {
        writeln!(out, "warning: {warning}")?;
    }
    for note in &outcome.notes {
        writeln!(out, "note: {note}")?;
    }
    for change in &outcome.changed_counts {
        let what = if change.is_fix() { "COUNT FIXED" } else { "COUNT CHANGED" };
        writeln!(out, "{what}: {change}")?;
    }
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    let right = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
    let first = if matches!(old, AnyReport::Compare(_)) { "engine: position" } else { "position" };
    table.set_header([first, "depth", "old speed", "new speed", "change", "verdict"]);
    for row in &outcome.rows {
        let (old_speed, new_speed) = speeds_text(row.old_speed, row.new_speed);
        table.add_row([
            Cell::new(&row.label),
            right(row.depth.map_or(String::new(), |d| d.to_string())),
            right(old_speed),
            right(new_speed),
            right(format!("{:+.1}%", row.change.percent)),
            Cell::new(row.change.verdict.label()),
        ]);
    }
    writeln!(out, "{table}")?;
    let (counts_changed, regressions) = (outcome.changed_counts.len(), outcome.regressions());
    let fixed = match outcome.fixed_counts() {
        0 => String::new(),
        n => format!(" ({n} fixed: now as expected)"),
    };
    writeln!(
        out,
        "{counts_changed} count{} changed{fixed}, {regressions} regression{} (flagged past {}% and past the \
         noise: Welch's t-test on the samples at 95%, or apart min-max ranges without samples)",
        if counts_changed == 1 { "" } else { "s" },
        if regressions == 1 { "" } else { "s" },
        args.threshold
    )?;
    if ci.wanted() {
        let (old_name, new_name) = (args.old.display().to_string(), args.new.display().to_string());
        ci.emit(&from_diff(&outcome, &old_name, &new_name, perft::report::timestamp()), &mut out)?;
    }
    out.flush()?;
    Ok(if outcome.is_worse() { EXIT_MISMATCH } else { EXIT_OK })
}
