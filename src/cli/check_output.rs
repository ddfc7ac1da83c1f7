//! What `perft check` and `perft debug` print: each bisection described
//! (the moves named and why, candidates, contradictions), the causes, the
//! engine's errors, the closing lines, and the command that reproduces a
//! fault.

use std::io::Write;

use anyhow::Result;
use perft::bisect::{Bisection, Candidates, Fault, Inconsistency, NamedMove, Why};
use perft::check::causes::Cause;
use perft::check::{CheckOutcome, ExpectedFrom};
use perft::engine::{EnginePosition, EngineSpec};
use perft::report::{CheckResult, CheckSummary};

use super::args::PatternArgs;
use super::output;

/// Lines of an engine's last output shown under an ERROR line.
const ERROR_OUTPUT_LINES: usize = 8;

/// A shell command that reproduces a fault: `perft debug` from the test
/// position as given (`root`, with the moves that reached it) along the
/// bisection's path, so the engine meets the position exactly as it did
/// (en-passant square and all), at the depth that names the moves (for
/// answers that contradicted each other, from the position whose divide
/// gave the first one).
pub fn reproduce(
    engine: &str,
    root: &EnginePosition,
    bisection: &Bisection,
    relaxed: bool,
    patterns: &PatternArgs,
) -> String {
    let quote = |s: &str| shlex::try_quote(s).map(|q| q.into_owned()).unwrap_or_else(|_| format!("'{s}'"));
    let (path, depth) = bisection.reproduce_at();
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
    let moves: Vec<&String> = root.moves.iter().chain(path).collect();
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

/// Named moves grouped by why they are wrong: `e8d8 e8f8 (king stepping
/// into an attack: rook on a8); h8h1 (check not answered: rook on a8)`.
fn by_reason(moves: &[NamedMove]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for named in moves {
        let reason = match (named.why, named.attackers.is_empty()) {
            (Some(why), false) if why != Why::NotPseudoLegal => {
                format!("{why}: {}", named.attackers.join(", "))
            }
            (Some(why), _) => why.to_string(),
            (None, _) => named.class.to_string(),
        };
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, group)) => group.push(&named.uci),
            None => groups.push((reason, vec![&named.uci])),
        }
    }
    let groups: Vec<String> =
        groups.iter().map(|(reason, group)| format!("{} ({reason})", group.join(" "))).collect();
    groups.join("; ")
}

/// The moves a bisection names, with why each extra one is illegal.
fn describe_moves(out: &mut dyn Write, bisection: &Bisection) -> std::io::Result<()> {
    if !bisection.missing.is_empty() {
        writeln!(out, "  missing moves (legal, not generated): {}", bisection.missing.join(" "))?;
    }
    if !bisection.illegal.is_empty() {
        writeln!(out, "  extra moves (generated, not legal): {}", by_reason(&bisection.illegal))?;
    } else if !bisection.extra.is_empty() {
        writeln!(out, "  extra moves (generated, not legal): {}", bisection.extra.join(" "))?;
    }
    if !bisection.duplicates.is_empty() {
        writeln!(out, "  listed twice: {}", bisection.duplicates.join(" "))?;
    }
    if let Some(listed) = bisection.listed_at.filter(|&d| d != bisection.depth) {
        writeln!(
            out,
            "  (its move list read from its divide at depth {listed}: it prints none at depth {})",
            bisection.depth
        )?;
    }
    Ok(())
}

/// A count that differs where the move lists agree: the candidates.
fn describe_candidates(out: &mut dyn Write, candidates: &Candidates) -> std::io::Result<()> {
    let (counted, legal) = (candidates.counted, candidates.legal);
    if candidates.move_list_agrees {
        writeln!(
            out,
            "  the engine lists the same moves as we do, but counts {counted} moves where there are {legal}: \
             the path that counts the last ply differs from the one that lists moves"
        )?;
    } else {
        writeln!(
            out,
            "  the engine prints no move list, and counts {counted} moves where there are {legal}"
        )?;
    }
    let kind = match candidates.fault {
        Fault::Extra => "pseudo-legal, illegal here",
        Fault::Missing => "legal, of the kinds most often dropped",
    };
    let likely = candidates.likely.as_deref().map_or(String::new(), |k| format!("; likely {k}"));
    if candidates.moves.is_empty() {
        writeln!(out, "  candidates: none found{likely}")
    } else {
        writeln!(out, "  candidates ({kind}{likely}): {}", by_reason(&candidates.moves))
    }
}

fn describe_inconsistency(out: &mut dyn Write, inconsistent: &Inconsistency) -> std::io::Result<()> {
    match inconsistent.path.split_last() {
        None => writeln!(
            out,
            "  inconsistent: it counted {} at depth {}, then {} asked again (we count {})",
            inconsistent.first, inconsistent.depth, inconsistent.then, inconsistent.ours
        ),
        Some((last, _)) => writeln!(
            out,
            "  inconsistent: its divide one ply up gives {last}: {}, but asked after {last} it counts {} at \
             depth {} (we count {})",
            inconsistent.first, inconsistent.then, inconsistent.depth, inconsistent.ours
        ),
    }
}

pub fn describe(out: &mut dyn Write, bisection: &Bisection) -> std::io::Result<()> {
    if bisection.path.is_empty() {
        writeln!(out, "  at the test position itself (depth {})", bisection.depth)?;
    } else {
        writeln!(out, "  after {} (depth {} from there)", bisection.path.join(" "), bisection.depth)?;
    }
    writeln!(out, "  position: {}", bisection.fen)?;
    if let Some(inconsistent) = &bisection.inconsistent {
        describe_inconsistency(out, inconsistent)?;
    } else if let Some(candidates) = &bisection.candidates {
        describe_candidates(out, candidates)?;
    } else if bisection.moves_known {
        describe_moves(out, bisection)?;
    } else if let Some(last) = bisection.steps.last() {
        writeln!(
            out,
            "  the engine counts {} where we count {} (it names no moves: its moves that differ cancel out)",
            last.theirs, last.ours
        )?;
    }
    let tags: Vec<String> = bisection.tags.iter().map(ToString::to_string).collect();
    writeln!(out, "  exercises: {}", if tags.is_empty() { "nothing special".into() } else { tags.join(", ") })
}

/// A hint when most Chess960 positions with castling rights failed (a
/// wrong count or an error at some depth), and far more of them than of
/// the other positions: the engine most likely does not play Chess960, and
/// can say so.
pub fn chess960_hint(results: &[CheckResult], name: &str, spec: &EngineSpec) -> Option<String> {
    if spec.chess960.is_some() {
        return None;
    }
    let options = perft::FenOptions { castling: perft::CastlingMode::Detect, relaxed: true };
    // Per test position: whether it is Chess960 with castling rights, and
    // whether it failed.
    let mut lines: std::collections::BTreeMap<(&str, usize), (bool, bool)> =
        std::collections::BTreeMap::new();
    for r in results {
        let entry = lines.entry((r.file.as_str(), r.line)).or_insert_with(|| {
            let castling_960 = perft::Board::from_fen_with(&r.fen, options)
                .is_ok_and(|b| b.is_chess960() && b.castling_rights() != perft::CastlingRights::NONE);
            (castling_960, false)
        });
        entry.1 |= !r.ok;
    }
    let rate = |chess960: bool| {
        let group: Vec<bool> =
            lines.values().filter(|(c, _)| *c == chess960).map(|(_, failed)| *failed).collect();
        let failed = group.iter().filter(|&&f| f).count();
        (failed, group.len(), if group.is_empty() { 0.0 } else { failed as f64 / group.len() as f64 })
    };
    let (failed, total, chess960_rate) = rate(true);
    let (_, _, other_rate) = rate(false);
    if total == 0 || failed * 2 <= total || other_rate * 2.0 >= chess960_rate {
        return None;
    }
    let kind = match spec.protocol {
        perft::engine::Protocol::Uci => "uci",
        perft::engine::Protocol::Console => "console",
        _ => "cmd",
    };
    let how_many = if failed == total {
        format!("every Chess960 position with castling rights ({})", output::plural(total, "position"))
    } else {
        format!("{failed} of the {total} Chess960 positions with castling rights")
    };
    Some(format!(
        "hint: {name} failed {how_many}: if it does not play \
         Chess960, say so with --engine '{name}={kind},no960:...' and they are skipped{}",
        if kind == "cmd" { "; a template can pass it {chess960} (true or false)" } else { "" }
    ))
}

/// The closing lines: the totals, and the failing positions by tag.
pub fn print_summary(
    out: &mut dyn Write,
    name: &str,
    summary: &CheckSummary,
    interrupted: bool,
) -> Result<()> {
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
pub fn print_failures(out: &mut dyn Write, results: &[CheckResult], name: &str) -> Result<()> {
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
pub fn print_causes(
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
pub fn print_engine_errors(out: &mut dyn Write, outcome: &CheckOutcome, verbose: bool) -> Result<()> {
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
