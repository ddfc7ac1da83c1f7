//! `perft diff OLD.json NEW.json`: count changes and speed regressions
//! between two bench or suite reports.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::report::{self, BenchReport, MachineInfo, Stats, SuiteReport};

use super::args::DiffArgs;
use super::{EXIT_MISMATCH, EXIT_OK};

enum Report {
    Bench(BenchReport),
    Suite(SuiteReport),
}

impl Report {
    /// What must match for speeds to compare: machine, mode, threads.
    fn settings(&self) -> (&MachineInfo, &str, usize) {
        match self {
            Report::Bench(r) => (&r.header.machine, &r.mode, r.threads),
            Report::Suite(r) => (&r.header.machine, &r.mode, r.threads),
        }
    }
}

fn read(path: &Path) -> Result<Report> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let kind = report::report_kind(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    match kind.as_str() {
        "bench" => Ok(Report::Bench(
            report::from_json(&text).with_context(|| format!("{}: not a bench report", path.display()))?,
        )),
        "suite" => Ok(Report::Suite(
            report::from_json(&text).with_context(|| format!("{}: not a suite report", path.display()))?,
        )),
        other => bail!("{}: a {other:?} report; diff compares bench or suite reports", path.display()),
    }
}

/// A speed change, judged.
struct Verdict {
    change: f64,
    label: &'static str,
    regression: bool,
}

/// Speed change from `old` to `new` seconds (per unit of work): flagged
/// only past `threshold` percent and when the min-max ranges do not overlap.
fn judge(old: &Stats, new: &Stats, threshold: f64) -> Verdict {
    let change = if new.median > 0.0 { (old.median / new.median - 1.0) * 100.0 } else { 0.0 };
    let disjoint_slower = new.min > old.max;
    let disjoint_faster = new.max < old.min;
    if change <= -threshold && disjoint_slower {
        Verdict { change, label: "REGRESSION", regression: true }
    } else if change >= threshold && disjoint_faster {
        Verdict { change, label: "faster", regression: false }
    } else {
        Verdict { change, label: "~", regression: false }
    }
}

fn refuse(what: &str, old: &str, new: &str) -> anyhow::Error {
    anyhow::anyhow!("the reports differ in {what} ({old} vs {new}); their speeds are not comparable (--force compares anyway)")
}

fn check_comparable(
    old: (&MachineInfo, &str, usize),
    new: (&MachineInfo, &str, usize),
    force: bool,
) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    if !old.0.comparable(new.0) {
        problems.push(refuse(
            "machine",
            &format!("{}, {} cores", old.0.cpu, old.0.cores),
            &format!("{}, {} cores", new.0.cpu, new.0.cores),
        ));
    }
    if old.1 != new.1 {
        problems.push(refuse("mode", old.1, new.1));
    }
    if old.2 != new.2 {
        problems.push(refuse("threads", &old.2.to_string(), &new.2.to_string()));
    }
    match (problems.into_iter().next(), force) {
        (Some(problem), false) => Err(problem),
        (Some(problem), true) => Ok(vec![format!("warning: {problem:#}")]),
        (None, _) => Ok(Vec::new()),
    }
}

pub fn diff(args: DiffArgs) -> Result<u8> {
    if !(args.threshold >= 0.0 && args.threshold.is_finite()) {
        bail!("--threshold must be a non-negative percentage");
    }
    let old = read(&args.old)?;
    let new = read(&args.new)?;
    let mut out = std::io::stdout().lock();
    let mut counts_changed = 0;
    let mut regressions = 0;
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    let right = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
    if std::mem::discriminant(&old) != std::mem::discriminant(&new) {
        bail!("one report is a bench report and the other a suite report");
    }
    for warning in check_comparable(old.settings(), new.settings(), args.force)? {
        writeln!(out, "{warning}")?;
    }
    match (old, new) {
        (Report::Bench(old), Report::Bench(new)) => {
            if old.bench_set_version != new.bench_set_version && !args.force {
                return Err(refuse("bench set version", &old.bench_set_version, &new.bench_set_version));
            }
            table.set_header(["position", "depth", "old Mnps", "new Mnps", "change", "verdict"]);
            for o in &old.positions {
                let Some(n) = new.positions.iter().find(|n| n.fen == o.fen && n.depth == o.depth) else {
                    writeln!(out, "note: {} (depth {}) is only in the old report", o.id, o.depth)?;
                    continue;
                };
                if o.nodes != n.nodes {
                    writeln!(out, "COUNT CHANGED: {} depth {}: {} -> {}", o.id, o.depth, o.nodes, n.nodes)?;
                    counts_changed += 1;
                }
                let verdict = judge(&o.seconds, &n.seconds, args.threshold);
                regressions += usize::from(verdict.regression);
                table.add_row([
                    Cell::new(&o.id),
                    right(o.depth.to_string()),
                    right(format!("{:.1}", o.nodes_per_second / 1e6)),
                    right(format!("{:.1}", n.nodes_per_second / 1e6)),
                    right(format!("{:+.1}%", verdict.change)),
                    Cell::new(verdict.label),
                ]);
            }
            for n in new
                .positions
                .iter()
                .filter(|n| !old.positions.iter().any(|o| o.fen == n.fen && o.depth == n.depth))
            {
                writeln!(out, "note: {} (depth {}) is only in the new report", n.id, n.depth)?;
            }
            let verdict = judge(&old.total.seconds, &new.total.seconds, args.threshold);
            regressions += usize::from(verdict.regression);
            table.add_row([
                Cell::new("total"),
                Cell::new(""),
                right(format!("{:.1}", old.total.nodes_per_second / 1e6)),
                right(format!("{:.1}", new.total.nodes_per_second / 1e6)),
                right(format!("{:+.1}%", verdict.change)),
                Cell::new(verdict.label),
            ]);
        }
        (Report::Suite(old), Report::Suite(new)) => {
            for o in &old.results {
                let found =
                    new.results.iter().find(|n| n.file == o.file && n.line == o.line && n.depth == o.depth);
                if let Some(n) = found {
                    if n.nodes != o.nodes {
                        writeln!(
                            out,
                            "COUNT CHANGED: {}:{} depth {}: {} -> {} (expected {})",
                            o.file, o.line, o.depth, o.nodes, n.nodes, n.expected
                        )?;
                        counts_changed += 1;
                    }
                }
            }
            let point = |s: &SuiteReport| {
                let seconds =
                    if s.summary.nodes_per_second > 0.0 { 1.0 / s.summary.nodes_per_second } else { 0.0 };
                Stats { min: seconds, median: seconds, max: seconds }
            };
            let verdict = judge(&point(&old), &point(&new), args.threshold);
            regressions += usize::from(verdict.regression);
            table.set_header(["", "checks", "failed", "Mnps", "change", "verdict"]);
            table.add_row([
                Cell::new("old"),
                right(old.summary.checks.to_string()),
                right(old.summary.failed.to_string()),
                right(format!("{:.1}", old.summary.nodes_per_second / 1e6)),
                Cell::new(""),
                Cell::new(""),
            ]);
            table.add_row([
                Cell::new("new"),
                right(new.summary.checks.to_string()),
                right(new.summary.failed.to_string()),
                right(format!("{:.1}", new.summary.nodes_per_second / 1e6)),
                right(format!("{:+.1}%", verdict.change)),
                Cell::new(verdict.label),
            ]);
        }
        _ => unreachable!("the kinds were compared above"),
    }
    writeln!(out, "{table}")?;
    writeln!(
        out,
        "{counts_changed} count{} changed, {regressions} regression{} (threshold {}%, flagged only when the min-max ranges do not overlap)",
        if counts_changed == 1 { "" } else { "s" },
        if regressions == 1 { "" } else { "s" },
        args.threshold
    )?;
    Ok(if counts_changed > 0 || regressions > 0 { EXIT_MISMATCH } else { EXIT_OK })
}
