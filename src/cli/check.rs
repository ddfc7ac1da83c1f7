//! `perft check` and `perft debug`: another engine's counts against suites
//! and ours, with automatic bisection of every wrong count.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use perft::bisect::BisectError;
use perft::bisect::{bisect, BisectStep, Bisection};
use perft::board::CastlingMode;
use perft::engine::{Engine, EngineError, EnginePosition, EngineSpec};
use perft::perft::{count, with_threads, Mode, Search};
use perft::report::{
    CheckReport, CheckResult, CheckSummary, CheckedEngine, ReportHeader, SuiteError, SuiteSettings,
};
use perft::suite::{SuiteOptions, SuitePlan};

use super::args::{CheckArgs, DebugArgs};
use super::output::{self, ReportTarget};
use super::suite::suite_files;
use super::{exit_status, interrupted, interrupted_status, EXIT_MISMATCH, EXIT_OK, INTERRUPTED};

/// After this many start-up or handshake failures in a row, `check` stops
/// asking the engine (a silent engine would otherwise cost a handshake
/// timeout for every count).
const MAX_STARTUP_FAILURES: usize = 3;
/// Lines of an engine's last output shown under an ERROR line.
const ERROR_OUTPUT_LINES: usize = 8;

/// `[NAME=]SPEC` into a name and a spec; without a name, the program's file
/// name.
pub fn parse_engine(text: &str, total_regex: Option<&str>) -> Result<(String, EngineSpec)> {
    let colon = text.find(':').unwrap_or(text.len());
    let (name, spec) = match text[..colon].find('=') {
        Some(eq) => (text[..eq].to_string(), &text[eq + 1..]),
        None => (String::new(), text),
    };
    let spec = EngineSpec::parse(spec, total_regex)?;
    let name = if name.is_empty() {
        let program = match &spec {
            EngineSpec::Uci { command } => command[0].clone(),
            EngineSpec::Command { template, .. } => template[0].clone(),
        };
        std::path::Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned())
    } else {
        name
    };
    Ok((name, spec))
}

/// A shell command that reproduces a fault: `perft debug` on the faulty
/// position, one ply deeper than the difference shows.
fn reproduce(engine: &str, bisection: &Bisection) -> String {
    let quote = |s: &str| shlex::try_quote(s).map(|q| q.into_owned()).unwrap_or_else(|_| format!("'{s}'"));
    // Where the move lists are known to differ, one ply shows it.
    let depth = if bisection.moves_known { 1 } else { bisection.depth };
    format!("perft debug --engine {} --fen {} --depth {depth}", quote(engine), quote(&bisection.fen))
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

pub fn check(args: CheckArgs) -> Result<u8> {
    let threads = output::threads(args.threads)?;
    let timeout = output::timeout(args.timeout)?;
    let (name, spec) = parse_engine(&args.engine, args.total_regex.as_deref())?;
    let target = ReportTarget::resolve(args.json.as_deref(), "check", !args.no_json)?;
    let plan = SuitePlan::new(
        suite_files(&args.files),
        SuiteOptions {
            castling: CastlingMode::from_chess960(args.chess960),
            relaxed: args.relaxed,
            max_depth: args.max_depth,
            max_nodes: args.max_nodes,
            fail_fast: args.fail_fast,
            mode: Mode::Bulk,
            extra_depth: args.depth,
        },
    );
    let items = plan.planned();
    let (positions, skipped) = (plan.positions(), plan.skipped());
    let errors = plan.errors().to_vec();
    let mut error_count = plan.error_count();

    let mut engine = spec.build(&name, &output::engine_options(None, args.handshake_timeout)?);
    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    writeln!(out, "checking {name} ({spec}) on {} counts of {positions} positions", items.len())?;
    let bar = output::progress_bar(
        items.len() as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} checks {msg}",
        true,
    );
    let start = Instant::now();
    let total = items.len();
    // The engine's last consecutive start-up failure, and how many.
    let mut startup_failures: (usize, Option<String>) = (0, None);
    let results = with_threads(threads, || -> Result<Vec<CheckResult>> {
        let mut results = Vec::new();
        for item in items {
            if interrupted() || startup_failures.0 >= MAX_STARTUP_FAILURES {
                break;
            }
            let (expected, expected_from) = match item.expected {
                Some(n) => (n, "file"),
                None => {
                    let search = Search { mode: Mode::Bulk, table: None, stop: Some(&INTERRUPTED) };
                    let Some(nodes) = count(&item.board, item.depth, &search) else { break };
                    (nodes, "perft")
                }
            };
            let position = EnginePosition::new(item.fen.clone(), item.board.is_chess960());
            let began = Instant::now();
            let answer = engine.perft(&position, item.depth, timeout);
            let seconds = began.elapsed().as_secs_f64();
            let mut result = CheckResult {
                file: item.file.clone(),
                line: item.line,
                id: item.id.clone(),
                fen: item.fen.clone(),
                depth: item.depth,
                expected,
                expected_from: expected_from.into(),
                engine_nodes: None,
                ok: false,
                seconds,
                error: None,
                bisection: None,
                bisection_error: None,
                reproduce: None,
            };
            match answer {
                // Stopped by a signal: not the engine's fault, not a result.
                Err(EngineError::Interrupted) => break,
                Err(e) => {
                    bar.println(format!(
                        "ERROR {}:{} depth {}: {name} {e}",
                        item.file, item.line, item.depth
                    ));
                    if e.is_startup() {
                        startup_failures = (startup_failures.0 + 1, Some(e.to_string()));
                    } else {
                        startup_failures = (0, None);
                    }
                    result.error = Some(e.to_string());
                }
                Ok(run) => {
                    startup_failures = (0, None);
                    result.engine_nodes = Some(run.nodes);
                    result.ok = run.nodes == expected;
                    if !result.ok {
                        bar.set_message(format!("bisecting {}:{}", item.file, item.line));
                        match bisect(
                            engine.as_mut(),
                            &item.board,
                            &position,
                            item.depth,
                            timeout,
                            &mut |_| {},
                        ) {
                            Ok(bisection) => {
                                result.reproduce = Some(reproduce(&args.engine, &bisection));
                                result.bisection = Some(bisection);
                            }
                            Err(BisectError::Engine(EngineError::Interrupted)) => {
                                result.bisection_error = Some("stopped by an interrupt".into())
                            }
                            Err(e) => result.bisection_error = Some(e.to_string()),
                        }
                    }
                }
            }
            bar.inc(1);
            let failed = !result.ok && result.error.is_none();
            results.push(result);
            if failed && args.fail_fast {
                break;
            }
        }
        Ok(results)
    })??;
    bar.finish_and_clear();

    let interrupted = interrupted();
    let mut failures_by_tag: BTreeMap<String, usize> = BTreeMap::new();
    for r in results.iter().filter(|r| !r.ok && r.error.is_none()) {
        writeln!(
            out,
            "FAIL {}:{}: depth {}: expected {} ({}), {name} says {}",
            r.file,
            r.line,
            r.depth,
            r.expected,
            if r.expected_from == "file" { "from the file" } else { "from perft" },
            r.engine_nodes.unwrap_or(0)
        )?;
        writeln!(out, "  fen: {}", r.fen)?;
        match (&r.bisection, &r.bisection_error) {
            (Some(b), _) => {
                describe(&mut out, b)?;
                for tag in &b.tags {
                    *failures_by_tag.entry(tag.name().to_string()).or_default() += 1;
                }
            }
            (None, Some(e)) => writeln!(out, "  bisection stopped: {e}")?,
            (None, None) => {}
        }
        if let Some(command) = &r.reproduce {
            writeln!(out, "  reproduce: {command}")?;
        }
    }
    let mut previous_error = None;
    for r in results.iter().filter(|r| r.error.is_some()) {
        let error = r.error.as_deref().unwrap_or_default();
        if previous_error == Some(error) {
            writeln!(out, "ERROR {}:{}: depth {}: the same error again", r.file, r.line, r.depth)?;
            continue;
        }
        previous_error = Some(error);
        let mut lines = error.lines();
        writeln!(out, "ERROR {}:{}: depth {}: {}", r.file, r.line, r.depth, lines.next().unwrap_or(""))?;
        // The engine's last output, so logs show what it said.
        let rest: Vec<&str> = lines.collect();
        for line in &rest[rest.len().saturating_sub(ERROR_OUTPUT_LINES)..] {
            writeln!(out, "    {line}")?;
        }
    }
    output::print_suite_errors(&mut out, &errors, target.is_some())?;
    let mut errors = errors;
    if let (MAX_STARTUP_FAILURES.., Some(error)) = startup_failures {
        let message = format!(
            "{name} failed to start {MAX_STARTUP_FAILURES} times in a row; not asked again (last error: {})",
            error.lines().next().unwrap_or("")
        );
        writeln!(out, "ERROR {message}")?;
        errors.push(SuiteError { file: String::new(), line: 0, message });
        error_count += 1;
    }
    let summary = CheckSummary {
        positions,
        checks: results.len(),
        passed: results.iter().filter(|r| r.ok).count(),
        failed: results.iter().filter(|r| !r.ok && r.error.is_none()).count(),
        errors: results.iter().filter(|r| r.error.is_some()).count() + error_count,
        skipped: skipped + (total - results.len()),
        failures_by_tag,
        seconds: start.elapsed().as_secs_f64(),
    };
    writeln!(
        out,
        "{name}: {} checks: {} passed, {} failed, {} errors, {} skipped{}",
        summary.checks,
        summary.passed,
        summary.failed,
        summary.errors,
        summary.skipped,
        if interrupted { " (interrupted)" } else { "" }
    )?;
    if !summary.failures_by_tag.is_empty() {
        let tags: Vec<String> =
            summary.failures_by_tag.iter().map(|(t, n)| format!("{} {n}", t.replace('_', " "))).collect();
        writeln!(out, "failures by what they exercise: {}", tags.join(", "))?;
    }
    let code = exit_status(summary.failed > 0, summary.errors > 0, interrupted);
    if let Some(target) = target {
        let report = CheckReport {
            header: ReportHeader::now("check"),
            engine: CheckedEngine { name: name.clone(), spec: spec.to_string() },
            settings: SuiteSettings {
                max_depth: args.max_depth,
                max_nodes: args.max_nodes,
                relaxed: args.relaxed,
                chess960: args.chess960,
                fail_fast: args.fail_fast,
            },
            results,
            errors,
            summary,
            interrupted,
        };
        target.write(&report, &mut out)?;
    }
    out.flush()?;
    Ok(code)
}

pub fn debug(args: DebugArgs) -> Result<u8> {
    let threads = output::threads(args.threads)?;
    let timeout = output::timeout(args.timeout)?;
    let (name, spec) = parse_engine(&args.engine, args.total_regex.as_deref())?;
    let board = output::position(&args.position)?;
    let fen = args.position.fen.clone().unwrap_or_else(|| perft::board::STARTPOS_FEN.to_string());
    // The moves as played, in the board's notation (the engine is told
    // UCI_Chess960 when it is Chess960).
    let position = EnginePosition {
        fen,
        moves: board.moves_played().map(|m| m.uci(board.is_chess960()).to_string()).collect(),
        chess960: board.is_chess960(),
    };
    let mut engine: Box<dyn Engine> =
        spec.build(&name, &output::engine_options(None, args.handshake_timeout)?);
    println!("debugging {name} ({spec}) at depth {}: {}", args.depth, board.fen());
    // Steps are printed from a pool thread: no stdout lock may be held here.
    let result = with_threads(threads, || {
        bisect(engine.as_mut(), &board, &position, args.depth, timeout, &mut |step: &BisectStep| {
            let at = if step.path.is_empty() { "root".to_string() } else { step.path.join(" ") };
            let next = step.next.as_deref().map_or(String::new(), |m| format!(", descending into {m}"));
            println!(
                "  {at}: depth {}: perft {}, {name} {} ({}){next}",
                step.depth,
                step.ours,
                step.theirs,
                output::signed_difference(step.theirs, step.ours)
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
            writeln!(out, "  reproduce: {}", reproduce(&args.engine, &bisection))?;
            Ok(EXIT_MISMATCH)
        }
        Err(perft::bisect::BisectError::NoDifference { depth, nodes }) => {
            writeln!(out, "{name} agrees: {nodes} nodes at depth {depth}")?;
            Ok(EXIT_OK)
        }
        Err(e) => Err(e).context(format!("{name} failed")),
    }
}
