//! `perft label`: count positions to a depth and write them as an EPD
//! suite (`FEN ;D1 20 ;D2 400`).

use std::io::Write;

use anyhow::{bail, Context, Result};
use perft::board::{CastlingMode, FenOptions};
use perft::counting::with_threads;
use perft::report::write_atomic;
use perft::suite::{label, load_suite_file};

use super::args::LabelArgs;
use super::{exit_status, interrupted, interrupted_status, INTERRUPTED};
use super::{output, resolve};

pub fn label_command(args: LabelArgs) -> Result<u8> {
    let threads = resolve::threads(args.threads)?;
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    if let Some(out) = &args.out {
        if args.files.iter().any(|input| resolve::same_path(input, out)) {
            bail!("-o {} is one of the input files; write to another file", out.display());
        }
        perft::report::check_writable(out).with_context(|| format!("cannot write {}", out.display()))?;
    }
    let options = FenOptions { castling: CastlingMode::from_chess960(args.chess960), relaxed: args.relaxed };
    let reading = match (args.relaxed, args.chess960) {
        (false, false) => String::new(),
        (relaxed, chess960) => format!(
            "; read it with{}{}",
            if relaxed { " --relaxed" } else { "" },
            if chess960 { " --chess960" } else { "" }
        ),
    };
    let mut text = format!(
        "# perft suite written by `perft label --depth {}` ({} {}): counts at depths 1 to {}{reading}\n",
        args.depth,
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
        args.depth
    );
    let mut stderr = std::io::stderr();
    let (mut bad, mut disagreeing, mut positions) = (0usize, 0usize, 0usize);
    for path in &args.files {
        let name = path.display().to_string();
        let parsed = match load_suite_file(path) {
            Ok(parsed) => parsed,
            Err(message) => {
                writeln!(stderr, "ERROR {name}: {message}")?;
                bad += 1;
                continue;
            }
        };
        let bar = output::progress_bar(
            parsed.entries.len() as u64,
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} positions, ETA {eta}",
            true,
        );
        let outcome = with_threads(threads, || {
            label(&parsed, args.depth, options, Some(&INTERRUPTED), &|_| bar.inc(1))
        })?;
        bar.finish_and_clear();
        let Some((labelled, errors)) = outcome else { break };
        for error in parsed.errors.iter().chain(&errors) {
            writeln!(stderr, "ERROR {}: {}", output::location(&name, error.line), error.message)?;
        }
        bad += parsed.errors.len() + parsed.unlisted_errors + errors.len();
        if let Some(warning) = &parsed.unknown_operation {
            writeln!(stderr, "note: {}: {}", output::location(&name, warning.line), warning.message)?;
        }
        for position in &labelled {
            for &(depth, theirs) in &position.disagreements {
                writeln!(
                    stderr,
                    "MISMATCH {}: the file says D{depth} {theirs}, perft counts {}",
                    output::location(&name, position.line),
                    depth.checked_sub(1).map_or(1, |d| position.counts[d as usize])
                )?;
                disagreeing += 1;
            }
            text.push_str(&position.epd_line());
            text.push('\n');
        }
        positions += labelled.len();
    }
    if interrupted() {
        writeln!(stderr, "interrupted: nothing written")?;
        return Ok(interrupted_status());
    }
    match &args.out {
        Some(path) if positions == 0 && bad > 0 => {
            writeln!(stderr, "nothing labelled: {} not written", path.display())?;
        }
        Some(path) => {
            write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(stderr, "{positions} positions labelled to depth {} in {}", args.depth, path.display())?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(exit_status(disagreeing > 0, bad > 0, false))
}
