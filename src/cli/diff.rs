//! `perft diff OLD.json NEW.json`: count changes and speed regressions
//! between two bench, suite or compare reports.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::report::diff::{
    check_settings, diff_bench, diff_compare, diff_suite, DiffOutcome, Incomparable, SpeedSettings,
};
use perft::report::{AnyReport, BenchReport, CompareReport, SuiteReport};

use super::args::DiffArgs;
use super::{EXIT_MISMATCH, EXIT_OK};

/// The kinds of report `diff` compares.
enum Report {
    Bench(BenchReport),
    Suite(SuiteReport),
    Compare(CompareReport),
}

impl Report {
    fn kind(&self) -> &'static str {
        match self {
            Report::Bench(_) => "bench",
            Report::Suite(_) => "suite",
            Report::Compare(_) => "compare",
        }
    }

    /// What must match for speeds to compare.
    fn settings(&self) -> SpeedSettings<'_> {
        let (header, mode, threads) = match self {
            Report::Bench(r) => (&r.header, r.mode.as_str(), r.threads),
            Report::Suite(r) => (&r.header, r.mode.as_str(), r.threads),
            Report::Compare(r) => (&r.header, "compare", r.threads),
        };
        SpeedSettings { machine: &header.machine, mode, threads }
    }
}

fn read(path: &Path) -> Result<Report> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match AnyReport::from_json(&text).with_context(|| format!("{}", path.display()))? {
        AnyReport::Bench(r) => Report::Bench(r),
        AnyReport::Suite(r) => Report::Suite(r),
        AnyReport::Compare(r) => Report::Compare(r),
        other => bail!(
            "{}: a {:?} report; diff compares bench, suite or compare reports",
            path.display(),
            other.kind()
        ),
    })
}

/// Refuses `problem` unless forced; forced, it becomes a warning line.
fn refuse_or_warn(problem: Result<(), Incomparable>, force: bool, out: &mut dyn Write) -> Result<()> {
    match (problem, force) {
        (Err(problem), false) => Err(problem.into()),
        (Err(problem), true) => Ok(writeln!(out, "warning: {problem}")?),
        (Ok(()), _) => Ok(()),
    }
}

pub fn diff(args: DiffArgs) -> Result<u8> {
    if !(args.threshold >= 0.0 && args.threshold.is_finite()) {
        bail!("--threshold must be a non-negative percentage");
    }
    let old = read(&args.old)?;
    let new = read(&args.new)?;
    if old.kind() != new.kind() {
        bail!("one report is a {} report and the other a {} report", old.kind(), new.kind());
    }
    let mut out = std::io::stdout().lock();
    refuse_or_warn(check_settings(old.settings(), new.settings()), args.force, &mut out)?;
    let outcome: DiffOutcome = match (&old, &new) {
        (Report::Bench(old), Report::Bench(new)) => diff_bench(old, new, args.threshold, args.force)?,
        (Report::Suite(old), Report::Suite(new)) => diff_suite(old, new, args.threshold, args.force)?,
        (Report::Compare(old), Report::Compare(new)) => diff_compare(old, new, args.threshold),
        _ => unreachable!("the kinds were compared above"),
    };
    for note in &outcome.notes {
        writeln!(out, "note: {note}")?;
    }
    for change in &outcome.changed_counts {
        writeln!(out, "COUNT CHANGED: {change}")?;
    }
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    let right = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
    let first = if matches!(old, Report::Compare(_)) { "engine: position" } else { "position" };
    table.set_header([first, "depth", "old Mnps", "new Mnps", "change", "verdict"]);
    for row in &outcome.rows {
        table.add_row([
            Cell::new(&row.label),
            right(row.depth.map_or(String::new(), |d| d.to_string())),
            right(format!("{:.1}", row.old_speed / 1e6)),
            right(format!("{:.1}", row.new_speed / 1e6)),
            right(format!("{:+.1}%", row.change.percent)),
            Cell::new(row.change.verdict.label()),
        ]);
    }
    writeln!(out, "{table}")?;
    let (counts_changed, regressions) = (outcome.changed_counts.len(), outcome.regressions());
    writeln!(
        out,
        "{counts_changed} count{} changed, {regressions} regression{} (threshold {}%, flagged only when the min-max ranges do not overlap)",
        if counts_changed == 1 { "" } else { "s" },
        if regressions == 1 { "" } else { "s" },
        args.threshold
    )?;
    Ok(if counts_changed > 0 || regressions > 0 { EXIT_MISMATCH } else { EXIT_OK })
}
