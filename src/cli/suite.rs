//! `perft suite`: check counts against suite files.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::counting::{with_threads, KeySet, Mode, PerftTable};
use perft::memory;
use perft::report::ci::from_suite;
use perft::report::{HashInfo, ReportHeader, SuiteReport, SuiteResult, SuiteSettings};
use perft::suite::{load_suite_file, parse_suite, SuiteFile, SuiteOutcome, SuitePlan};

use super::args::SuiteArgs;
use super::ci_output::CiTarget;
use super::report_target::ReportTarget;
use super::{exit_status, INTERRUPTED};
use super::{output, resolve, table};

/// The name reports give the default suite (messages add "built in"): the
/// bundled suite run when no files are given (see
/// `scripts/make-default-suite.py`).
pub const DEFAULT_SUITE_NAME: &str = "default.epd";

/// The files named, read; none means the bundled default suite.
pub fn suite_files(paths: &[std::path::PathBuf]) -> Vec<SuiteFile> {
    if paths.is_empty() {
        return vec![SuiteFile {
            name: DEFAULT_SUITE_NAME.to_string(),
            content: Ok(parse_suite(
                perft::suite::bundled(DEFAULT_SUITE_NAME).map_or(&[], |(_, bytes)| bytes),
            )),
        }];
    }
    paths
        .iter()
        .map(|path| SuiteFile { name: path.display().to_string(), content: load_suite_file(path) })
        .collect()
}

/// Each wrong count with its position and our divide.
fn print_failures(out: &mut dyn Write, results: &[SuiteResult]) -> Result<()> {
    for failure in results.iter().filter(|r| !r.ok) {
        writeln!(out, "FAIL {}: {}", output::location(&failure.file, failure.line), failure.mismatch())?;
        failure.write_details(out, "  ")?;
    }
    Ok(())
}

/// Checks, results and nodes per suite file.
fn print_file_table(out: &mut dyn Write, outcome: &SuiteOutcome) -> Result<()> {
    #[derive(Default)]
    struct Row {
        checks: usize,
        passed: usize,
        failed: usize,
        errors: usize,
        nodes: u128,
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for r in &outcome.results {
        let row = rows.entry(&r.file).or_default();
        row.checks += 1;
        row.passed += usize::from(r.ok);
        row.failed += usize::from(!r.ok);
        row.nodes += r.nodes;
    }
    for (file, &count) in &outcome.error_counts {
        rows.entry(file).or_default().errors += count;
    }
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    table.set_header(["file", "checks", "passed", "failed", "errors", "nodes"]);
    for (file, row) in &rows {
        table.add_row([
            Cell::new(file),
            Cell::new(row.checks).set_alignment(CellAlignment::Right),
            Cell::new(row.passed).set_alignment(CellAlignment::Right),
            Cell::new(row.failed).set_alignment(CellAlignment::Right),
            Cell::new(row.errors).set_alignment(CellAlignment::Right),
            Cell::new(row.nodes).set_alignment(CellAlignment::Right),
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

pub fn suite(mut args: SuiteArgs) -> Result<u8> {
    let threads = resolve::threads(args.threads)?;
    if let Some(file) = resolve::json_takes_positional(&mut args.json, resolve::looks_like_a_suite) {
        args.files.insert(0, file);
    }
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "suite", false)?;
    let ci = CiTarget::resolve(&args.ci, &target, &args.files)?;
    let mode = if args.full { Mode::Full } else { Mode::Bulk };
    let options = args.selection.options(mode, None);
    let plan = SuitePlan::new(suite_files(&args.files), options);
    // A failing check is recounted with a second table a quarter the size.
    let useful = || memory::useful_bytes_for_nodes(plan.expected_nodes() as f64);
    let mut choice = table::choose_table(args.hash, false, useful, "this suite", 1.25)?;
    let hash_table = choice.as_mut().map(|c| table::make_table(c, KeySet::Primary, threads)).transpose()?;
    let warnings = plan.warnings().to_vec();
    let outcome = run_suite(plan, hash_table.as_ref(), threads)?;

    let mut out = output::human_output(ReportTarget::is_stdout(&target) || ci.takes_stdout());
    print_failures(&mut out, &outcome.results)?;
    output::print_suite_errors(&mut out, &outcome.errors, target.is_some())?;
    for warning in &warnings {
        writeln!(out, "note: {}: {}", output::location(&warning.file, warning.line), warning.message)?;
    }
    print_file_table(&mut out, &outcome)?;
    print_summary(&mut out, &outcome, mode, threads)?;
    let hash = hash_table.as_ref().zip(choice.as_ref()).map(|(table, c)| HashInfo::of(table, c));
    if let Some(hash) = &hash {
        writeln!(out, "{hash}")?;
    }
    let s = &outcome.summary;
    let code = exit_status(s.failed > 0, s.errors > 0, outcome.interrupted);
    // A run that read no suite line at all (a missing or empty file)
    // leaves no report file; one with lines to report does.
    let counted = s.checks > 0 || outcome.errors.iter().any(|e| e.line > 0);
    let report = SuiteReport {
        header: ReportHeader::of::<SuiteReport>(),
        threads,
        mode,
        settings: SuiteSettings::from(&options),
        results: outcome.results,
        errors: outcome.errors,
        summary: outcome.summary,
        hash,
        interrupted: outcome.interrupted,
    };
    // Each output attempted, whatever became of the others.
    let ci = if ci.wanted() {
        ci.emit(&from_suite(&report, &outcome.skipped, args.files.is_empty()), &mut out)
    } else {
        Ok(())
    };
    let json = target.map_or(Ok(()), |target| {
        let why_not =
            if outcome.interrupted { "interrupted before the first count" } else { "no suite line was read" };
        target.write_if_counted(counted, why_not, &report, &mut out)
    });
    output::all_written([ci, json])?;
    out.flush()?;
    Ok(code)
}

/// Runs the plan on `threads` threads, with a progress bar weighed by the
/// nodes each check expects.
fn run_suite(plan: SuitePlan, table: Option<&PerftTable>, threads: usize) -> Result<SuiteOutcome> {
    let (total_checks, total_positions) = (plan.checks(), plan.positions_to_check());
    let expected_nodes = plan.expected_nodes();
    let shift = output::progress_shift(expected_nodes);
    let bar = output::progress_bar(
        output::progress_units(expected_nodes, shift),
        "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} ETA {eta}",
        true,
    );
    let start = Instant::now();
    let outcome = with_threads(threads, || {
        plan.run_with(table, Some(&INTERRUPTED), &|result, done| {
            bar.inc(output::progress_units(result.expected, shift));
            bar.set_message(format!(
                "{}/{total_positions} positions, {}/{total_checks} checks, {} nodes, {:.0} Mnps",
                done.positions_done,
                done.checks_done,
                done.nodes_done,
                output::mnps(done.nodes_done, start.elapsed().as_secs_f64())
            ));
        })
    })?;
    bar.finish_and_clear();
    Ok(outcome)
}

/// The closing lines: checks passed, failed, errors, skipped; nodes and speed.
fn print_summary(out: &mut dyn Write, outcome: &SuiteOutcome, mode: Mode, threads: usize) -> Result<()> {
    let s = &outcome.summary;
    writeln!(
        out,
        "{}, {}: {} passed, {} failed, {}, {} skipped{}",
        output::plural(s.positions, "position"),
        output::plural(s.checks, "check"),
        s.passed,
        s.failed,
        output::plural(s.errors, "error"),
        s.skipped,
        if outcome.interrupted {
            " (interrupted)"
        } else if outcome.stopped_early {
            " (stopped at the first failure)"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "{} nodes in {:.3} s: {:.1} Mnps ({} counting, {threads} thread{})",
        s.nodes,
        s.seconds,
        s.nodes_per_second / 1e6,
        mode.name(),
        if threads == 1 { "" } else { "s" }
    )?;
    Ok(())
}
