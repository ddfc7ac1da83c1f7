//! `perft check` and `perft debug`: another engine's counts against suites
//! and ours, with automatic bisection of every wrong count.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use perft::bisect::{bisect, BisectError, BisectStep, Target};
use perft::check::causes::group_by_cause;
use perft::check::{run_check, skipped_checks, summarize, CheckEvent, CheckOptions, CheckOutcome};
use perft::counting::{with_threads, Mode};
use perft::engine::{Costs, Engine, EngineOptions, EnginePosition, EngineSpec};
use perft::report::ci::from_check;
use perft::report::{signed_difference, CheckReport, CheckedEngine, ReportHeader, SuiteSettings};
use perft::suite::{SuiteOptions, SuitePlan};

use super::args::{CheckArgs, DebugArgs};
use super::check_output::{
    chess960_hint, describe, print_causes, print_engine_errors, print_failures, print_summary, reproduce,
};
use super::check_progress::{print_estimate, print_size, ProgressLines};
use super::ci_output::CiTarget;
use super::engines::{parse_engine, probing, resolve};
use super::report_target::ReportTarget;
use super::suite::suite_files;
use super::{exit_status, interrupted, interrupted_status, EXIT_MISMATCH, EXIT_OK, INTERRUPTED};
use super::{output, resolve};

/// At most this many engine processes at once (`--jobs`).
const MAX_JOBS: usize = 64;

/// A check run, planned: the engine (probed if given alone), the suite
/// plan, where the report goes and where people read.
struct CheckPlan {
    name: String,
    spec: EngineSpec,
    /// `NAME=SPEC` as found, for the commands that reproduce faults.
    pinned: String,
    timeout: Duration,
    options: SuiteOptions,
    plan: SuitePlan,
    engine_options: EngineOptions,
    target: Option<ReportTarget>,
    ci: CiTarget,
    out: Box<dyn Write>,
    /// What probing timed, for the progress lines' time left.
    costs: Option<Costs>,
}

pub fn check(mut args: CheckArgs) -> Result<u8> {
    let mut planned = plan_check(&mut args)?;
    let start = Instant::now();
    let outcome = run_engine(&args, &planned);
    report_check(&args, &mut planned, outcome, start.elapsed().as_secs_f64())
}

/// Arguments read, the engine probed if need be, the suites planned.
fn plan_check(args: &mut CheckArgs) -> Result<CheckPlan> {
    let threads = resolve::threads(args.threads)?;
    if let Some(file) = resolve::json_takes_positional(&mut args.json, resolve::looks_like_a_suite) {
        args.files.insert(0, file);
    }
    let timeout = resolve::timeout(args.timeout)?;
    if !(1..=MAX_JOBS).contains(&args.jobs) {
        bail!("--jobs must be 1 to {MAX_JOBS}");
    }
    let (name, spec) = parse_engine(&args.engine, &args.patterns)?;
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "check", false)?;
    let ci = CiTarget::resolve(&args.ci, &target, &args.files)?;
    let engine_options = resolve::engine_options(None, args.handshake_timeout, args.timeout)?;
    let mut out = output::human_output(ReportTarget::is_stdout(&target) || ci.takes_stdout());
    for note in resolve::pattern_notes(&args.patterns, &[name.as_str()]) {
        writeln!(out, "{note}")?;
    }
    // The suites are read before the engine is probed (minutes, for a
    // slow engine): a missing file is said at once.
    let files = suite_files(&args.files);
    if let Some(Err(error)) = files.iter().map(|f| f.content.as_ref()).find(|c| c.is_err()) {
        bail!("{error}");
    }
    let probing = probing(args.handshake_timeout, engine_options.handshake);
    let probed = spec.protocol == perft::engine::Protocol::Auto;
    let (spec, costs) = resolve(&name, spec, &probing, &mut out)?;
    // Presets of programs that cannot read Chess960 skip those positions.
    let mut options = args.selection.options(Mode::Bulk, args.depth);
    options.skip_chess960 |= spec.chess960 == Some(false);
    options.skip_depth_zero = true;
    let plan = SuitePlan::new(files.clone(), options);
    // Our counts (references, bisections) run on the global pool, from
    // every engine job's thread.
    let _ = perft::counting::pool_builder(threads).build_global();
    writeln!(
        out,
        "checking {name} ({spec}) on {} of {}{}",
        output::plural(plan.checks(), "count"),
        output::plural(plan.positions(), "position"),
        if args.jobs > 1 { format!(", {} engine processes at once", args.jobs) } else { String::new() }
    )?;
    match &costs {
        Some(costs) => print_estimate(&mut *out, &plan, costs, &files, options, args.jobs)?,
        None => {
            let why =
                if probed { "its timing failed" } else { "the engine was given with its kind, so not timed" };
            print_size(&mut *out, &plan, &files, options, why)?;
        }
    }
    if spec.chess960 == Some(false) && plan.skipped_chess960() > 0 {
        writeln!(
            out,
            "note: {name} does not read Chess960 castling: {} Chess960 checks skipped",
            plan.skipped_chess960()
        )?;
    }
    let pinned = format!("{name}={spec}");
    Ok(CheckPlan { name, spec, pinned, timeout, options, plan, engine_options, target, ci, out, costs })
}

/// Every planned check asked of the engine, with a progress bar; errors
/// printed as they come.
fn run_engine(args: &CheckArgs, planned: &CheckPlan) -> CheckOutcome {
    let CheckPlan { name, spec, plan, engine_options, pinned, timeout, costs, .. } = planned;
    let lines = ProgressLines::new(plan.planned(), *costs);
    let bar = output::progress_bar(
        plan.checks() as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} checks, ETA {eta} {msg}",
        true,
    );
    let outcome = run_check(
        plan.planned(),
        &|| spec.build(name, engine_options),
        &CheckOptions {
            timeout: *timeout,
            jobs: args.jobs,
            fail_fast: args.selection.fail_fast,
            stop: Some(&INTERRUPTED),
        },
        &|item, bisection| {
            let root = EnginePosition::new(item.fen.clone(), item.board.is_chess960());
            reproduce(pinned, &root, bisection, args.selection.relaxed, &args.patterns)
        },
        &|event| match event {
            CheckEvent::Bisecting(item) => {
                bar.set_message(format!("bisecting {}", output::location(&item.file, item.line)))
            }
            CheckEvent::Done(result) => {
                bar.inc(1);
                lines.done(result);
                if let Some(error) = &result.error {
                    let first = error.lines().next().unwrap_or_default();
                    let place = output::location(&result.file, result.line);
                    bar.println(format!("ERROR {place}: depth {}: {name} {first}", result.depth));
                }
            }
        },
    );
    bar.finish_and_clear();
    outcome
}

/// The causes, errors, notes and totals printed; the report written.
fn report_check(
    args: &CheckArgs,
    planned: &mut CheckPlan,
    outcome: CheckOutcome,
    seconds: f64,
) -> Result<u8> {
    let CheckPlan { name, spec, plan, out, .. } = planned;
    let out: &mut dyn Write = out.as_mut();
    let (summary, errors) = summarize(&outcome, plan, name, seconds);
    let causes = group_by_cause(&outcome.results);
    if args.verbose {
        print_failures(out, &outcome.results, name)?;
    }
    print_causes(out, &outcome.results, &causes, name, args.verbose, "--verbose prints every wrong count")?;
    print_engine_errors(out, &outcome.results, args.verbose)?;
    // The plan's unusable lines, then the engine given up, if it was.
    output::print_suite_errors(out, &errors, planned.target.is_some())?;
    print_notes(out, plan, &outcome, name)?;
    print_summary(out, name, &summary, outcome.interrupted)?;
    if let Some(hint) = chess960_hint(&outcome.results, name, spec) {
        writeln!(out, "{hint}")?;
    }
    let code = exit_status(summary.failed > 0, summary.errors > 0, outcome.interrupted);
    // A run that read no suite line at all (a missing or empty file)
    // leaves no report file; one with lines to report does.
    let counted = summary.checks > 0 || errors.iter().any(|e| e.line > 0);
    let skipped = if planned.ci.wanted() { skipped_checks(&outcome, plan) } else { Vec::new() };
    let report = CheckReport {
        header: ReportHeader::of::<CheckReport>(),
        engine: CheckedEngine { name: name.clone(), spec: spec.to_string() },
        settings: SuiteSettings::from(&planned.options),
        results: outcome.results,
        errors,
        causes,
        summary,
        interrupted: outcome.interrupted,
    };
    // Each output attempted, whatever became of the others.
    let ci = if planned.ci.wanted() {
        planned.ci.emit(&from_check(&report, &skipped, args.files.is_empty()), out)
    } else {
        Ok(())
    };
    let json = planned.target.take().map_or(Ok(()), |target| {
        let why_not =
            if report.interrupted { "interrupted before the first count" } else { "no suite line was read" };
        target.write_if_counted(counted, why_not, &report, out)
    });
    output::all_written([ci, json])?;
    out.flush()?;
    Ok(code)
}

/// Notes on what was not asked: unusable suite lines' warnings, depth-0
/// checks, positions the engine cannot count, and what to try when the
/// engine does not count perft the way it was asked.
fn print_notes(out: &mut dyn Write, plan: &SuitePlan, outcome: &CheckOutcome, name: &str) -> Result<()> {
    for warning in plan.warnings() {
        writeln!(out, "note: {}: {}", output::location(&warning.file, warning.line), warning.message)?;
    }
    if plan.skipped_depth_zero() > 0 {
        writeln!(
            out,
            "note: {} not asked of {name}: perft(0) is 1 by definition, and engines read `go perft 0` \
             in different ways",
            output::plural(plan.skipped_depth_zero(), "depth-0 check")
        )?;
    }
    if let Some(reason) = &outcome.unsupported_reason {
        writeln!(
            out,
            "note: {name} cannot count {reason}: {} skipped",
            output::plural(outcome.unsupported, "check")
        )?;
    }
    if let Some(reason) = &outcome.hopeless_reason {
        writeln!(
            out,
            "note: {} deeper than {} plies skipped: {reason}",
            output::plural(outcome.hopeless_checks.len(), "check"),
            perft::check::HOPELESS_DEPTH
        )?;
    }
    if let Some(hint) = outcome.abandoned_hint {
        writeln!(out, "hint: {hint}")?;
    }
    Ok(())
}

pub fn debug(args: DebugArgs) -> Result<u8> {
    let threads = resolve::threads(args.threads)?;
    let timeout = resolve::timeout(args.timeout)?;
    let (name, spec) = parse_engine(&args.engine, &args.patterns)?;
    let board = resolve::position(&args.position)?;
    let fen = args.position.start_fen();
    // The moves as played, in the board's notation (the engine is told
    // UCI_Chess960 when it is Chess960).
    let position = EnginePosition {
        fen,
        moves: board.moves_played().map(|m| m.uci(board.is_chess960()).to_string()).collect(),
        chess960: board.is_chess960(),
    };
    for note in resolve::pattern_notes(&args.patterns, &[name.as_str()]) {
        writeln!(std::io::stdout(), "{note}")?;
    }
    if args.depth == 0 {
        // Nothing to ask: engines read `go perft 0` in different ways
        // (Stockfish starts a search), and perft(0) is 1 whatever they say.
        writeln!(
            std::io::stdout(),
            "depth 0: perft(0) = 1 by definition (the position itself); nothing to debug"
        )?;
        return Ok(EXIT_OK);
    }
    let engine_options = resolve::engine_options(None, args.handshake_timeout, args.timeout)?;
    let probe = probing(args.handshake_timeout, engine_options.handshake);
    let (spec, _) = resolve(&name, spec, &probe, &mut std::io::stdout())?;
    let mut engine: Box<dyn Engine> = spec.build(&name, &engine_options);
    writeln!(
        std::io::stdout(),
        "debugging {name} ({spec}) at depth {}: {}",
        args.depth,
        board.fen_keeping_en_passant()
    )?;
    let target = Target { board: &board, start: &position, depth: args.depth, answered: None };
    // Steps are printed from a pool thread: no stdout lock may be held here.
    let result = with_threads(threads, || {
        bisect(engine.as_mut(), &target, timeout, Some(&INTERRUPTED), &mut |step: &BisectStep| {
            let at = if step.path.is_empty() { "root".to_string() } else { step.path.join(" ") };
            let next = step.next.as_deref().map_or(String::new(), |m| format!(", descending into {m}"));
            // A closed stdout is met again, and reported, below.
            let _ = writeln!(
                std::io::stdout(),
                "  {at}: depth {}: perft {}, {name} {} ({}){next}",
                step.depth,
                step.ours,
                step.theirs,
                signed_difference(step.theirs, step.ours)
            );
        })
    })?;
    let mut out = std::io::stdout().lock();
    if interrupted() {
        writeln!(out, "interrupted; what the bisection found so far is printed above")?;
        return Ok(interrupted_status());
    }
    match result {
        Ok(bisection) => {
            writeln!(out, "found:")?;
            describe(&mut out, &bisection)?;
            let pinned = format!("{name}={spec}");
            let command = reproduce(&pinned, &position, &bisection, args.position.relaxed, &args.patterns);
            writeln!(out, "  reproduce: {command}")?;
            Ok(EXIT_MISMATCH)
        }
        Err(BisectError::NoDifference { depth, nodes }) => {
            writeln!(out, "{name} agrees: {nodes} nodes at depth {depth}")?;
            Ok(EXIT_OK)
        }
        Err(BisectError::FirstQuestion(e) | BisectError::Engine(e)) if e.hint().is_some() => {
            let hint = e.hint().unwrap_or_default();
            Err(anyhow::anyhow!("{e}\nhint: {hint}")).context(format!("{name} failed"))
        }
        Err(e) => Err(e).context(format!("{name} failed")),
    }
}
