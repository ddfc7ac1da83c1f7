//! `perft check` and `perft debug`: another engine's counts against suites
//! and ours, with automatic bisection of every wrong count.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use perft::bisect::{bisect, BisectStep, Bisection};
use perft::check::causes::{group_by_cause, Cause};
use perft::check::{run_check, CheckEvent, CheckOptions, CheckOutcome, ExpectedFrom};
use perft::counting::{with_threads, Mode};
use perft::engine::{split_name, Engine, EnginePosition, EngineSpec};
use perft::report::{CheckReport, CheckResult, CheckSummary, CheckedEngine, ReportHeader, SuiteSettings};
use perft::suite::SuitePlan;

use super::args::{CheckArgs, DebugArgs, PatternArgs};
use super::output::{self, ReportTarget};
use super::suite::suite_files;
use super::{exit_status, interrupted, interrupted_status, EXIT_MISMATCH, EXIT_OK, INTERRUPTED};

/// Lines of an engine's last output shown under an ERROR line.
const ERROR_OUTPUT_LINES: usize = 8;

/// `[NAME=]SPEC` into a name and a spec; without a name, the program's file
/// name.
pub fn parse_engine(text: &str, patterns: &PatternArgs) -> Result<(String, EngineSpec)> {
    let (name, spec) = split_name(text);
    // The name a NAME=REGEX pattern may use: the given one, or the program's.
    let words = shlex::split(spec.split_once(':').map_or("", |(_, rest)| rest)).unwrap_or_default();
    let program = words
        .first()
        .map(|p| std::path::Path::new(p).file_name().map_or(p.clone(), |n| n.to_string_lossy().into_owned()));
    let name = match name {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => program.unwrap_or_default(),
    };
    let spec = EngineSpec::parse(spec, &output::answer_format(patterns, &name, &[name.as_str()]))?;
    Ok((name, spec))
}

/// A shell command that reproduces a fault: `perft debug` from the test
/// position as given (`root`, with the moves that reached it) along the
/// bisection's path, so the engine meets the position exactly as it did
/// (en-passant square and all); one ply deep where the move lists are
/// known to differ.
fn reproduce(
    engine: &str,
    root: &EnginePosition,
    bisection: &Bisection,
    relaxed: bool,
    patterns: &PatternArgs,
) -> String {
    let quote = |s: &str| shlex::try_quote(s).map(|q| q.into_owned()).unwrap_or_else(|_| format!("'{s}'"));
    let depth = if bisection.moves_known { 1 } else { bisection.depth };
    let mut command = format!("perft debug --engine {} --fen {}", quote(engine), quote(&root.fen));
    for (option, items) in
        [("--total-regex", &patterns.total_regex), ("--divide-regex", &patterns.divide_regex)]
    {
        for item in items {
            command.push_str(&format!(" {option} {}", quote(item)));
        }
    }
    if root.chess960 {
        command.push_str(" --chess960");
    }
    if relaxed {
        command.push_str(" --relaxed");
    }
    let moves: Vec<&String> = root.moves.iter().chain(&bisection.path).collect();
    if !moves.is_empty() {
        command.push_str(" --moves");
        for mv in moves {
            command.push(' ');
            command.push_str(mv);
        }
    }
    command.push_str(&format!(" --depth {depth}"));
    command
}

fn describe(out: &mut dyn Write, bisection: &Bisection) -> std::io::Result<()> {
    if bisection.path.is_empty() {
        writeln!(out, "  at the test position itself (depth {})", bisection.depth)?;
    } else {
        writeln!(out, "  after {} (depth {} from there)", bisection.path.join(" "), bisection.depth)?;
    }
    writeln!(out, "  position: {}", bisection.fen)?;
    if bisection.moves_known {
        if !bisection.missing.is_empty() {
            writeln!(out, "  missing moves (legal, not generated): {}", bisection.missing.join(" "))?;
        }
        if !bisection.extra.is_empty() {
            writeln!(out, "  extra moves (generated, not legal): {}", bisection.extra.join(" "))?;
        }
    } else if let Some(last) = bisection.steps.last() {
        writeln!(
            out,
            "  the engine counts {} where we count {} (no divide to name the moves)",
            last.theirs, last.ours
        )?;
    }
    let tags: Vec<String> = bisection.tags.iter().map(ToString::to_string).collect();
    writeln!(out, "  exercises: {}", if tags.is_empty() { "nothing special".into() } else { tags.join(", ") })
}

/// At most this many engine processes at once (`--jobs`).
const MAX_JOBS: usize = 64;

pub fn check(mut args: CheckArgs) -> Result<u8> {
    let threads = output::threads(args.threads)?;
    if let Some(file) = output::json_takes_positional(&mut args.json, output::looks_like_a_suite) {
        args.files.insert(0, file);
    }
    let timeout = output::timeout(args.timeout)?;
    if !(1..=MAX_JOBS).contains(&args.jobs) {
        bail!("--jobs must be 1 to {MAX_JOBS}");
    }
    let (name, spec) = parse_engine(&args.engine, &args.patterns)?;
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "check", false)?;
    // Presets of programs that cannot read Chess960 skip those positions.
    let no_chess960 = spec.chess960 == Some(false);
    let mut options = args.selection.options(Mode::Bulk, args.depth);
    options.skip_chess960 |= no_chess960;
    options.skip_depth_zero = true;
    let plan = SuitePlan::new(suite_files(&args.files), options);
    // Our counts (references, bisections) run on the global pool, from
    // every engine job's thread.
    let _ = perft::counting::pool_builder(threads).build_global();
    let engine_options = output::engine_options(None, args.handshake_timeout, args.timeout)?;
    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    for note in output::pattern_notes(&args.patterns, &[name.as_str()]) {
        writeln!(out, "{note}")?;
    }
    writeln!(
        out,
        "checking {name} ({spec}) on {} of {}{}",
        output::plural(plan.checks(), "count"),
        output::plural(plan.positions(), "position"),
        if args.jobs > 1 { format!(", {} engine processes at once", args.jobs) } else { String::new() }
    )?;
    if no_chess960 && plan.skipped_chess960() > 0 {
        writeln!(
            out,
            "note: {name} does not read Chess960 castling: {} Chess960 checks skipped",
            plan.skipped_chess960()
        )?;
    }
    let bar = output::progress_bar(
        plan.checks() as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} checks, ETA {eta} {msg}",
        true,
    );
    let start = Instant::now();
    let outcome = run_check(
        &plan,
        &|| spec.build(&name, &engine_options),
        &CheckOptions {
            timeout,
            jobs: args.jobs,
            fail_fast: args.selection.fail_fast,
            stop: Some(&INTERRUPTED),
        },
        &|item, bisection| {
            let root = EnginePosition::new(item.fen.clone(), item.board.is_chess960());
            reproduce(&args.engine, &root, bisection, args.selection.relaxed, &args.patterns)
        },
        &|event| match event {
            CheckEvent::Bisecting(item) => {
                bar.set_message(format!("bisecting {}", output::location(&item.file, item.line)))
            }
            CheckEvent::Done(result) => {
                bar.inc(1);
                if let Some(error) = &result.error {
                    let first = error.lines().next().unwrap_or_default();
                    let place = output::location(&result.file, result.line);
                    bar.println(format!("ERROR {place}: depth {}: {name} {first}", result.depth));
                }
            }
        },
    );
    bar.finish_and_clear();

    let (summary, errors) = outcome.summary(&plan, &name, start.elapsed().as_secs_f64());
    let causes = group_by_cause(&outcome.results);
    if args.verbose {
        print_failures(&mut out, &outcome.results, &name)?;
    }
    print_causes(&mut out, &outcome.results, &causes, &name, args.verbose)?;
    print_engine_errors(&mut out, &outcome, args.verbose)?;
    // The plan's unusable lines, then the engine given up, if it was.
    output::print_suite_errors(&mut out, &errors, target.is_some())?;
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
    print_summary(&mut out, &name, &summary, outcome.interrupted)?;
    if let Some(hint) = chess960_hint(&outcome.results, &name, &spec) {
        writeln!(out, "{hint}")?;
    }
    let code = exit_status(summary.failed > 0, summary.errors > 0, outcome.interrupted);
    // A run that read no suite line at all (a missing or empty file)
    // leaves no report file; one with lines to report does.
    let counted = summary.checks > 0 || errors.iter().any(|e| e.line > 0);
    if let Some(target) = target {
        let report = CheckReport {
            header: ReportHeader::of::<CheckReport>(),
            engine: CheckedEngine { name: name.clone(), spec: spec.to_string() },
            settings: SuiteSettings::from(&options),
            results: outcome.results,
            errors,
            causes,
            summary,
            interrupted: outcome.interrupted,
        };
        target.write_if_counted(counted, &report, &mut out)?;
    }
    out.flush()?;
    Ok(code)
}

/// A hint when every Chess960 position with castling rights failed (a
/// wrong count or an error at some depth): the engine most likely does not
/// play Chess960, and can say so.
fn chess960_hint(results: &[CheckResult], name: &str, spec: &EngineSpec) -> Option<String> {
    if spec.chess960.is_some() {
        return None;
    }
    let options = perft::FenOptions { castling: perft::CastlingMode::Detect, relaxed: true };
    let mut lines: std::collections::BTreeMap<(&str, usize), bool> = std::collections::BTreeMap::new();
    for r in results {
        let castling_960 = perft::Board::from_fen_with(&r.fen, options)
            .is_ok_and(|b| b.is_chess960() && b.castling_rights() != perft::CastlingRights::NONE);
        if castling_960 {
            *lines.entry((r.file.as_str(), r.line)).or_insert(false) |= !r.ok;
        }
    }
    if lines.is_empty() || !lines.values().all(|&failed| failed) {
        return None;
    }
    let kind = if spec.protocol == perft::engine::Protocol::Uci { "uci" } else { "cmd" };
    Some(format!(
        "hint: {name} failed every Chess960 position with castling rights ({}): if it does not play \
         Chess960, say so with --engine '{name}={kind},no960:...' and they are skipped{}",
        output::plural(lines.len(), "position"),
        if kind == "cmd" { "; a template can pass it {chess960} (true or false)" } else { "" }
    ))
}

/// The closing lines: the totals, and the failing positions by tag.
fn print_summary(out: &mut dyn Write, name: &str, summary: &CheckSummary, interrupted: bool) -> Result<()> {
    writeln!(
        out,
        "{name}: {}: {} passed, {} failed, {}, {} skipped{}",
        output::plural(summary.checks, "check"),
        summary.passed,
        summary.failed,
        output::plural(summary.errors, "error"),
        summary.skipped,
        if interrupted { " (interrupted)" } else { "" }
    )?;
    if !summary.failures_by_tag.is_empty() {
        let tags: Vec<String> = summary.failures_by_tag.iter().map(|(tag, n)| format!("{tag} {n}")).collect();
        writeln!(out, "failing positions by what they exercise: {}", tags.join(", "))?;
    }
    Ok(())
}

/// Prints the wrong counts, one block per position (its depths together,
/// the bisection once).
fn print_failures(out: &mut dyn Write, results: &[CheckResult], name: &str) -> Result<()> {
    let failures: Vec<&CheckResult> = results.iter().filter(|r| !r.ok && r.error.is_none()).collect();
    for group in failures.chunk_by(|a, b| a.file == b.file && a.line == b.line) {
        let first = group[0];
        writeln!(out, "FAIL {}: {}", output::location(&first.file, first.line), first.fen)?;
        for r in group {
            let from = match r.expected_from {
                ExpectedFrom::File => "from the file",
                ExpectedFrom::Perft => "from perft",
            };
            let says = r.engine_nodes.map_or("-".into(), |n| n.to_string());
            writeln!(out, "  depth {}: expected {} ({from}), {name} says {says}", r.depth, r.expected)?;
        }
        for r in group {
            match (&r.bisection, &r.bisection_error) {
                (Some(b), _) => describe(out, b)?,
                (None, Some(e)) => writeln!(out, "  bisection at depth {} stopped: {e}", r.depth)?,
                (None, None) => {}
            }
            if let Some(command) = &r.reproduce {
                writeln!(out, "  reproduce: {command}")?;
            }
        }
        if let Some(depth) =
            group.iter().find_map(|r| r.bisected_at).filter(|d| group.iter().all(|r| r.depth != *d))
        {
            writeln!(out, "  (bisected at depth {depth}, listed above)")?;
        }
    }
    Ok(())
}

/// Test positions listed after a cause's example before "and N more".
const CAUSE_PLACES: usize = 8;

/// Prints each cause of wrong counts once: how many counts it explains, its
/// smallest example in full (bisection and a command to reproduce it), and
/// where else it showed.
fn print_causes(
    out: &mut dyn Write,
    results: &[CheckResult],
    causes: &[Cause],
    name: &str,
    verbose: bool,
) -> Result<()> {
    for (number, cause) in causes.iter().enumerate() {
        writeln!(
            out,
            "CAUSE {} of {}: {}: {} at {}",
            number + 1,
            causes.len(),
            cause.description,
            output::plural(cause.failures, "wrong count"),
            output::plural(cause.positions, "position"),
        )?;
        if verbose {
            continue;
        }
        let example = &results[cause.example];
        let says = example.engine_nodes.map_or("-".into(), |n| n.to_string());
        writeln!(
            out,
            "  example: {} depth {}: expected {}, {name} says {says}",
            output::location(&example.file, example.line),
            example.depth,
            example.expected
        )?;
        if example.bisection.as_ref().is_none_or(|b| !b.path.is_empty()) {
            writeln!(out, "  test position: {}", example.fen)?;
        }
        match (&example.bisection, &example.bisection_error) {
            (Some(b), _) => describe(out, b)?,
            (None, Some(e)) => writeln!(out, "  bisection stopped: {e}")?,
            (None, None) => {}
        }
        if let Some(command) = &example.reproduce {
            writeln!(out, "  reproduce: {command}")?;
        }
        // The other test positions, as `file lines 2, 110, ...` per file.
        let mut places: Vec<(&str, usize)> = Vec::new();
        for &i in &cause.results {
            let place = (results[i].file.as_str(), results[i].line);
            if place != (example.file.as_str(), example.line) && !places.contains(&place) {
                places.push(place);
            }
        }
        if !places.is_empty() {
            let more = places.len().saturating_sub(CAUSE_PLACES);
            places.truncate(CAUSE_PLACES);
            let mut files: Vec<String> = Vec::new();
            for group in places.chunk_by(|a, b| a.0 == b.0) {
                let lines: Vec<String> = group.iter().map(|(_, line)| line.to_string()).collect();
                let file = group[0].0;
                let word = if lines.len() == 1 { "line" } else { "lines" };
                files.push(format!("{file} {word} {}", lines.join(", ")));
            }
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            writeln!(out, "  also at: {}{more} (--verbose prints every wrong count)", files.join("; "))?;
        }
    }
    Ok(())
}

/// Prints the checks the engine failed to answer, with its last output;
/// the same error again is said in a line; start-up failures that made
/// the run give the engine up are said once, by the caller.
fn print_engine_errors(out: &mut dyn Write, outcome: &CheckOutcome, verbose: bool) -> Result<()> {
    // Without --verbose, a run of the same error is one line at its end.
    let said_again = |out: &mut dyn Write, repeated: usize| -> std::io::Result<()> {
        if repeated == 0 {
            return Ok(());
        }
        let more = output::plural(repeated, "more check");
        writeln!(out, "  ... and the same error at {more} (--verbose lists them)")
    };
    let mut previous = None;
    let mut repeated = 0usize;
    for r in outcome.results.iter().filter(|r| r.error.is_some()) {
        let error = r.error.as_deref().unwrap_or_default();
        let place = output::location(&r.file, r.line);
        if previous == Some(error) {
            if verbose {
                writeln!(out, "ERROR {place}: depth {}: the same error again", r.depth)?;
            } else {
                repeated += 1;
            }
            continue;
        }
        said_again(out, std::mem::take(&mut repeated))?;
        previous = Some(error);
        let mut lines = error.lines();
        writeln!(out, "ERROR {place}: depth {}: {}", r.depth, lines.next().unwrap_or(""))?;
        // The engine's last output, so logs show what it said.
        let rest: Vec<&str> = lines.collect();
        for line in &rest[rest.len().saturating_sub(ERROR_OUTPUT_LINES)..] {
            writeln!(out, "    {line}")?;
        }
    }
    said_again(out, repeated)?;
    Ok(())
}

pub fn debug(args: DebugArgs) -> Result<u8> {
    let threads = output::threads(args.threads)?;
    let timeout = output::timeout(args.timeout)?;
    let (name, spec) = parse_engine(&args.engine, &args.patterns)?;
    let board = output::position(&args.position)?;
    let fen = args.position.fen.clone().unwrap_or_else(|| perft::board::STARTPOS_FEN.to_string());
    // The moves as played, in the board's notation (the engine is told
    // UCI_Chess960 when it is Chess960).
    let position = EnginePosition {
        fen,
        moves: board.moves_played().map(|m| m.uci(board.is_chess960()).to_string()).collect(),
        chess960: board.is_chess960(),
    };
    for note in output::pattern_notes(&args.patterns, &[name.as_str()]) {
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
    let mut engine: Box<dyn Engine> =
        spec.build(&name, &output::engine_options(None, args.handshake_timeout, args.timeout)?);
    writeln!(
        std::io::stdout(),
        "debugging {name} ({spec}) at depth {}: {}",
        args.depth,
        board.fen_keeping_en_passant()
    )?;
    // Steps are printed from a pool thread: no stdout lock may be held here.
    let result = with_threads(threads, || {
        bisect(
            engine.as_mut(),
            &board,
            &position,
            args.depth,
            timeout,
            Some(&INTERRUPTED),
            &mut |step: &BisectStep| {
                let at = if step.path.is_empty() { "root".to_string() } else { step.path.join(" ") };
                let next = step.next.as_deref().map_or(String::new(), |m| format!(", descending into {m}"));
                // A closed stdout is met again, and reported, below.
                let _ = writeln!(
                    std::io::stdout(),
                    "  {at}: depth {}: perft {}, {name} {} ({}){next}",
                    step.depth,
                    step.ours,
                    step.theirs,
                    output::signed_difference(step.theirs, step.ours)
                );
            },
        )
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
            let command =
                reproduce(&args.engine, &position, &bisection, args.position.relaxed, &args.patterns);
            writeln!(out, "  reproduce: {command}")?;
            Ok(EXIT_MISMATCH)
        }
        Err(perft::bisect::BisectError::NoDifference { depth, nodes }) => {
            writeln!(out, "{name} agrees: {nodes} nodes at depth {depth}")?;
            Ok(EXIT_OK)
        }
        Err(e) => Err(e).context(format!("{name} failed")),
    }
}
