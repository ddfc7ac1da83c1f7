//! What `perft check` and `perft debug` print: each bisection described
//! (the moves named and why, candidates, contradictions), the causes, the
//! engine's errors, the closing lines, and the command that reproduces a
//! fault.

use std::io::Write;

use anyhow::Result;
use perft::bisect::Bisection;
pub use perft::check::text::{describe, print_causes, print_engine_errors, print_failures};
use perft::engine::{EnginePosition, EngineSpec};
use perft::report::{CheckResult, CheckSummary};

use super::args::PatternArgs;
use super::output;

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
    // The checks' own errors, and the others (unreadable lines, the engine
    // given up) said apart, so the checks add up.
    let check_errors = summary.checks - summary.passed - summary.failed;
    let others = summary.errors.saturating_sub(check_errors);
    let others = if others > 0 {
        format!("; {} besides the checks", output::plural(others, "error"))
    } else {
        String::new()
    };
    writeln!(
        out,
        "{name}: {}: {} passed, {} failed, {}, {} skipped{others}{}",
        output::plural(summary.checks, "check"),
        summary.passed,
        summary.failed,
        output::plural(check_errors, "error"),
        summary.skipped,
        if interrupted { " (interrupted)" } else { "" }
    )?;
    if !summary.failures_by_tag.is_empty() {
        let tags: Vec<String> = summary.failures_by_tag.iter().map(|(tag, n)| format!("{tag} {n}")).collect();
        writeln!(out, "failing positions by what they exercise: {}", tags.join(", "))?;
    }
    Ok(())
}
