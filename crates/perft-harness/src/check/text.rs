//! The report a person reads of a check: each bisection described (the
//! moves named and why, candidates, contradictions), the causes with their
//! smallest example, every wrong count, and the engine's errors. The
//! `perft check` command and [`crate::rust`] print the same text.

use std::io::Write;

use crate::bisect::{
    Bisection, Candidates, Contradiction, Fault, Inconsistency, NamedMove, Why, TERMINAL_NODE,
};
use crate::check::causes::Cause;
use crate::check::{CheckResult, ExpectedFrom};
use crate::suite::is_bundled;

/// Lines of an engine's last output shown under an ERROR line.
const ERROR_OUTPUT_LINES: usize = 8;

/// `1 check`, `2 checks`: a count and a noun, plural when not one.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u'])) {
        format!("{count} {stem}ies")
    } else if noun.ends_with('s') || noun.ends_with("ch") || noun.ends_with('x') {
        format!("{count} {noun}es")
    } else {
        format!("{count} {noun}s")
    }
}

/// `file:line` for messages (the file alone for line 0: the file as a
/// whole); lines of the bundled suites are named `default.epd:121 (built
/// in)`.
pub fn location(file: &str, line: usize) -> String {
    let at = if line == 0 { file.to_string() } else { format!("{file}:{line}") };
    if is_bundled(file) {
        format!("{at} (built in)")
    } else {
        at
    }
}

/// Named moves grouped by why they are wrong: `e8d8 e8f8 (king stepping
/// into an attack: rook on a8); h8h1 (check not answered: rook on a8)`.
fn by_reason(moves: &[NamedMove]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for named in moves {
        let mut reason = match (named.why, named.attackers.is_empty()) {
            (Some(why), false) if why != Why::NotPseudoLegal => {
                format!("{why}: {}", named.attackers.join(", "))
            }
            (Some(why), _) => why.to_string(),
            (None, _) => named.class.to_string(),
        };
        if let Some(detail) = &named.detail {
            reason = format!("{reason}; {detail}");
        }
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
    let kind = match (candidates.fault, candidates.move_list_agrees) {
        (Fault::Extra, true) => "pseudo-legal, illegal here",
        // Without its move list, a legal move counted twice would do too.
        (Fault::Extra, false) => "pseudo-legal, illegal here, or else a legal move counted twice",
        (Fault::Missing, _) => "legal, of the kinds most often dropped",
    };
    let likely = candidates.likely.as_deref().map_or(String::new(), |k| format!("; likely {k}"));
    if candidates.likely.as_deref() == Some(TERMINAL_NODE) {
        writeln!(out, "  likely: it counts this position, which has no legal moves, as one node (a leaf)")?;
        if !candidates.moves.is_empty() {
            writeln!(out, "  other candidates weighed ({kind}): {}", by_reason(&candidates.moves))?;
        }
    } else if candidates.moves.is_empty() {
        writeln!(out, "  candidates: none found{likely}")?;
    } else {
        writeln!(out, "  candidates ({kind}{likely}): {}", by_reason(&candidates.moves))?;
    }
    match &candidates.singled_out {
        Some(how) => writeln!(out, "  singled out: {}", echo_safe(how)),
        None if candidates.likely.is_none() && candidates.fits.len() > 1 => writeln!(
            out,
            "  not singled out: {} fit every count it gave alike (a divide at this position would name the move)",
            and_list(&candidates.fits)
        ),
        None => Ok(()),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

fn describe_inconsistency(out: &mut dyn Write, inconsistent: &Inconsistency) -> std::io::Result<()> {
    let Inconsistency { first, then, depth, ours, .. } = inconsistent;
    if let (Some(terminal), Some((last, _))) = (inconsistent.terminal, inconsistent.path.split_last()) {
        return writeln!(
            out,
            "  terminal position counted as a node: after {last} it is {terminal} (no legal moves), its \
             divide one ply up gives {last}: {first}, asked there it counts {then} at depth {depth} (we \
             count {ours})"
        );
    }
    match (inconsistent.kind, inconsistent.path.split_last()) {
        (Contradiction::DivideAndDirect, Some((last, _))) => writeln!(
            out,
            "  inconsistent: its divide one ply up gives {last}: {first}, but asked after {last} it counts \
             {then} at depth {depth} (we count {ours})"
        ),
        _ => writeln!(
            out,
            "  inconsistent: it counted {first} at depth {depth}, then {then} asked again (we count {ours})"
        ),
    }
}

/// A count that differs where no move differs that the engine names: the
/// last two steps say what is known.
fn describe_unnamed(out: &mut dyn Write, bisection: &Bisection) -> std::io::Result<()> {
    let mut steps = bisection.steps.iter().rev();
    let (Some(last), parent) = (steps.next(), steps.next()) else { return Ok(()) };
    match parent.filter(|p| last.theirs == last.ours && p.theirs != p.ours) {
        Some(parent) => writeln!(
            out,
            "  each child's count agrees with ours, and so does its count one ply deep ({}), yet it counts {} \
             at depth {} where its children sum to {}: either its moves here differ in ways that cancel \
             out one ply deep, or its total is not the sum of its children's counts (it prints no move \
             list to tell)",
            last.ours, parent.theirs, parent.depth, parent.ours
        ),
        None => writeln!(
            out,
            "  the engine counts {} where we count {} (it prints no move list to name the moves)",
            last.theirs, last.ours
        ),
    }
}

/// Describes a bisection: where it ended, the moves it names (or the
/// candidates, or the contradiction), and what the position exercises.
///
/// # Errors
/// Any error writing `out`.
pub fn describe(out: &mut dyn Write, bisection: &Bisection) -> std::io::Result<()> {
    if bisection.path.is_empty() {
        writeln!(out, "  at the test position itself (depth {})", bisection.depth)?;
    } else {
        writeln!(out, "  after {} (depth {} from there)", bisection.path.join(" "), bisection.depth)?;
    }
    writeln!(out, "  position: {}", bisection.fen)?;
    if let Some(lines) = bisection.oversized_divide {
        writeln!(
            out,
            "  note: an answer of it had {lines} lines that read as a divide, more than any position has \
             moves (a divide of every depth, or of every node?), so its move lists were not read from them"
        )?;
    }
    if bisection.asked_by_fen {
        writeln!(
            out,
            "  note: the engine did not apply the moves after the FEN (asked after them, it listed \
             another position's moves): it was asked again with the positions reached as FENs"
        )?;
    }
    if let Some(inconsistent) = &bisection.inconsistent {
        describe_inconsistency(out, inconsistent)?;
    } else if let Some(candidates) = &bisection.candidates {
        describe_candidates(out, candidates)?;
    } else if bisection.moves_known {
        describe_moves(out, bisection)?;
    } else {
        describe_unnamed(out, bisection)?;
    }
    if let (Some(sum), Some(last)) = (bisection.divide_sum, bisection.steps.last()) {
        writeln!(
            out,
            "  note: its divide there sums to {sum}, not to its total {}, so its move list was not read from it",
            last.theirs
        )?;
    }
    let tags: Vec<String> = bisection.tags.iter().map(ToString::to_string).collect();
    writeln!(out, "  exercises: {}", if tags.is_empty() { "nothing special".into() } else { tags.join(", ") })
}

/// Prints the wrong counts, one block per position (its depths together,
/// the bisection once).
///
/// # Errors
/// Any error writing `out`.
pub fn print_failures(out: &mut dyn Write, results: &[CheckResult], name: &str) -> std::io::Result<()> {
    let failures: Vec<&CheckResult> = results.iter().filter(|r| !r.ok && r.error.is_none()).collect();
    for group in failures.chunk_by(|a, b| a.file == b.file && a.line == b.line) {
        let first = group[0];
        writeln!(out, "FAIL {}: {}", location(&first.file, first.line), first.fen)?;
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
/// where else it showed; `every` says where every wrong count is to be had
/// (`--verbose prints every wrong count`).
///
/// # Errors
/// Any error writing `out`.
pub fn print_causes(
    out: &mut dyn Write,
    results: &[CheckResult],
    causes: &[Cause],
    name: &str,
    verbose: bool,
    every: &str,
) -> std::io::Result<()> {
    for (number, cause) in causes.iter().enumerate() {
        writeln!(
            out,
            "CAUSE {} of {}: {}: {} at {}",
            number + 1,
            causes.len(),
            cause.description,
            plural(cause.failures, "wrong count"),
            plural(cause.positions, "position"),
        )?;
        if verbose {
            continue;
        }
        let example = &results[cause.example];
        let says = example.engine_nodes.map_or("-".into(), |n| n.to_string());
        writeln!(
            out,
            "  example: {} depth {}: expected {}, {name} says {says}",
            location(&example.file, example.line),
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
            writeln!(out, "  also at: {}{more} ({every})", files.join("; "))?;
        }
    }
    Ok(())
}

/// Prints the checks the engine failed to answer, with its last output;
/// the same error again is said in a line; start-up failures that made
/// the run give the engine up are said once, by the caller.
///
/// # Errors
/// Any error writing `out`.
pub fn print_engine_errors(
    out: &mut dyn Write,
    results: &[CheckResult],
    verbose: bool,
) -> std::io::Result<()> {
    // Errors that differ only in numbers (a thread id, an address, a
    // count) are one: said in full once, then counted.
    let mut groups: Vec<(String, Vec<&CheckResult>)> = Vec::new();
    for r in results.iter().filter(|r| r.error.is_some()) {
        let key = without_numbers(r.error.as_deref().unwrap_or_default());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    let shown = if verbose { groups.len() } else { groups.len().min(MAX_ERROR_KINDS) };
    for (_, members) in &groups[..shown] {
        let first = members[0];
        let error = first.error.as_deref().unwrap_or_default();
        let mut lines = error.lines();
        let place = location(&first.file, first.line);
        writeln!(out, "ERROR {place}: depth {}: {}", first.depth, echo_safe(lines.next().unwrap_or("")))?;
        // The engine's last output, so logs show what it said.
        let rest: Vec<&str> = lines.collect();
        for line in &rest[rest.len().saturating_sub(ERROR_OUTPUT_LINES)..] {
            writeln!(out, "    {}", echo_safe(line))?;
        }
        if verbose {
            for r in &members[1..] {
                writeln!(
                    out,
                    "ERROR {}: depth {}: the same error again",
                    location(&r.file, r.line),
                    r.depth
                )?;
            }
        } else if members.len() > 1 {
            let more = plural(members.len() - 1, "more check");
            writeln!(out, "  ... and the same error at {more} (--verbose lists them)")?;
        }
    }
    let hidden: usize = groups[shown..].iter().map(|(_, m)| m.len()).sum();
    if hidden > 0 {
        let kinds = plural(groups.len() - shown, "other kind");
        writeln!(out, "  ... and {} of {kinds} (--verbose lists them)", plural(hidden, "error"))?;
    }
    Ok(())
}

/// Kinds of engine error listed without `--verbose`.
const MAX_ERROR_KINDS: usize = 8;

#[cfg(test)]
#[test]
fn errors_that_differ_in_numbers_only_read_the_same() {
    let a = "exited (exit status: 101) before answering; its last output:\nthread '<unnamed>' (4242) panicked at src/castle.rs:12:5: rook at 0x7ffd1a2b";
    let b = "exited (exit status: 101) before answering; its last output:\nthread '<unnamed>' (17) panicked at src/castle.rs:12:5: rook at 0x55aa";
    assert_eq!(without_numbers(a), without_numbers(b));
    assert_ne!(without_numbers(a), without_numbers("exited (signal: 6) before answering"));
}

/// An error's text with every run of digits (and hex digits after `0x`)
/// made `#`: errors that differ only in a thread id, an address or a
/// count read the same.
fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let hex = c == '0' && chars.peek() == Some(&'x');
            if hex {
                chars.next();
            }
            while chars.peek().is_some_and(|d| if hex { d.is_ascii_hexdigit() } else { d.is_ascii_digit() }) {
                chars.next();
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

/// Text from an engine or a suite made safe to print on a terminal or in
/// a CI log: control characters (C0 but tab and line feed, DEL, C1) are
/// escaped as `\xNN` (`\r` as `\r`), so none becomes a terminal escape, a
/// bell or a line break a CI runner splits on; a line that would start a
/// GitHub Actions workflow command (`::` after blanks) gets a `\` before
/// it, and the runner's legacy form `##[`, matched anywhere in a line, is
/// written `##\[`. Lines stay lines; nothing else changes.
pub fn echo_safe(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => escaped.push(c),
            '\r' => escaped.push_str("\\r"),
            c if c.is_control() => escaped.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => escaped.push(c),
        }
    }
    let escaped = escaped.replace("##[", "##\\[");
    let lines: Vec<String> = escaped
        .split('\n')
        .map(|line| {
            let rest = line.trim_start();
            if rest.starts_with("::") {
                format!("{}\\{rest}", &line[..line.len() - rest.len()])
            } else {
                line.to_string()
            }
        })
        .collect();
    lines.join("\n")
}
