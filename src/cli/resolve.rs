//! Arguments resolved before any work: thread counts, time limits, engine
//! options and answer patterns, positions, where reports go by default, and
//! outputs refused where they would replace another output or an input.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use perft::board::{Board, CastlingMode, FenOptions};
use perft::counting::MAX_THREADS;
use perft::engine::{AnswerFormat, EngineOptions, DEFAULT_HANDSHAKE};

use super::args::{PatternArgs, PositionArgs};

/// The thread count to use: as asked (1 to [`MAX_THREADS`], refused
/// otherwise before any work starts), or all cores (at most
/// [`MAX_THREADS`]). Where one thread is asked for, the main thread is made
/// to count ([`count_on_main_thread`]).
pub fn threads(requested: Option<usize>) -> Result<usize> {
    match requested {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) if n > MAX_THREADS => bail!(
            "--threads {n} is more than the maximum of {MAX_THREADS} (this machine has {} cores)",
            cores()
        ),
        Some(1) => {
            count_on_main_thread();
            Ok(1)
        }
        Some(n) => Ok(n),
        None => Ok(cores().min(MAX_THREADS)),
    }
}

/// Makes the main thread the one worker of a pool of one thread
/// ([`perft::counting::count_on_this_thread`]), so that one-thread counts
/// start no thread. Does nothing on other threads, or where the main
/// thread's stack is not known to be deep enough (see
/// [`main_stack_suffices`]).
fn count_on_main_thread() {
    if std::thread::current().name() == Some("main") && main_stack_suffices() {
        // Refused only on a thread that is already a worker: it counts as is.
        let _ = perft::counting::count_on_this_thread();
    }
}

/// Whether the main thread's stack may grow to 4 MiB: three times what a
/// hashed count to `MAX_DEPTH` on one thread needs (about 20 KiB a ply).
/// Pool threads get 16 MiB.
#[cfg(unix)]
fn main_stack_suffices() -> bool {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` writes only the struct it is given.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut limit) } == 0;
    known && (limit.rlim_cur == libc::RLIM_INFINITY || limit.rlim_cur >= 4 << 20)
}

/// Windows: the main thread's stack is 1 MiB.
#[cfg(not(unix))]
fn main_stack_suffices() -> bool {
    false
}

/// Hardware threads available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--timeout SECONDS` as a duration: positive and finite.
pub fn timeout(seconds: f64) -> Result<std::time::Duration> {
    if !(seconds > 0.0 && seconds.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// How engines run: told `threads` (UCI `Threads`), stopped by a signal,
/// and given `handshake_seconds` for `uci` and `isready` (by default the
/// smaller of 30 s and the call timeout `timeout_seconds`).
pub fn engine_options(
    threads: Option<usize>,
    handshake_seconds: Option<f64>,
    timeout_seconds: f64,
) -> Result<EngineOptions> {
    let default = DEFAULT_HANDSHAKE.as_secs_f64().min(timeout_seconds);
    let handshake_seconds = handshake_seconds.unwrap_or(default);
    if !(handshake_seconds > 0.0 && handshake_seconds.is_finite()) {
        bail!("--handshake-timeout must be a positive number of seconds");
    }
    Ok(EngineOptions {
        threads,
        stop: Some(&super::INTERRUPTED),
        handshake: std::time::Duration::from_secs_f64(handshake_seconds),
    })
}

/// The answer format of engine `name` among `names`: a `NAME=REGEX`
/// naming it wins over a plain `REGEX` (which applies to every engine).
pub fn answer_format(patterns: &PatternArgs, name: &str, names: &[&str]) -> AnswerFormat {
    let pick = |items: &[String]| {
        let mut general = None;
        let mut own = None;
        for item in items {
            match item.split_once('=') {
                Some((named, regex)) if names.contains(&named) => {
                    if named == name {
                        own = Some(regex.to_string());
                    }
                }
                _ => general = Some(item.clone()),
            }
        }
        own.or(general)
    };
    AnswerFormat { total: pick(&patterns.total_regex), divide: pick(&patterns.divide_regex) }
}

/// Notes for `NAME=REGEX` patterns whose NAME looks like a name but names
/// no engine: such a text is used whole, as a pattern for every engine,
/// which is rarely what was meant.
pub fn pattern_notes(patterns: &PatternArgs, names: &[&str]) -> Vec<String> {
    let options = [("--total-regex", &patterns.total_regex), ("--divide-regex", &patterns.divide_regex)];
    let mut notes = Vec::new();
    for (option, items) in options {
        for item in items.iter() {
            let Some((name, _)) = item.split_once('=') else { continue };
            let looks_like_a_name =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
            if looks_like_a_name && !names.contains(&name) {
                notes.push(format!(
                    "note: {option} {item:?}: {name:?} is not an engine here ({}), so the whole text is a \
                     pattern for every engine",
                    names.join(", ")
                ));
            }
        }
    }
    notes
}

/// The board described by `--fen`/`--startpos`, `--moves`, `--chess960`.
pub fn position(args: &PositionArgs) -> Result<Board> {
    let fen = args.start_fen();
    let fen = fen.as_str();
    let options = FenOptions { castling: CastlingMode::from_chess960(args.chess960), relaxed: args.relaxed };
    let mut board = Board::from_fen_with(fen, options).with_context(|| format!("bad --fen {fen:?}"))?;
    for (i, mv) in args.moves.iter().enumerate() {
        board.play_move(mv).with_context(|| format!("bad --moves entry {} ({mv:?})", i + 1))?;
    }
    Ok(board)
}

/// Where reports go when `--json` names no file: `$PERFT_RESULTS`, else
/// `results` in the current directory.
pub fn results_dir() -> PathBuf {
    std::env::var_os("PERFT_RESULTS")
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| PathBuf::from("results"), PathBuf::from)
}

/// Whether `path` is a suite file rather than a report: `.epd` or
/// `.perft`, or an existing file that does not end in `.json`.
pub fn looks_like_a_suite(path: &Path) -> bool {
    let extension = path.extension().map(|e| e.to_ascii_lowercase());
    match extension.as_deref().and_then(|e| e.to_str()) {
        Some("epd" | "perft") => true,
        Some("json") => false,
        _ => path.is_file(),
    }
}

/// `--json VALUE` given before a positional argument takes it as its file:
/// `perft suite --json tests.epd` means the suite file, not a report over
/// it. A value that names an existing file that is not JSON, or a suite
/// (`.epd`, `.perft`), is handed back as a positional argument (and the
/// flag left without a file); `--json FILE.json` never is.
pub fn json_takes_positional(
    json: &mut Option<Option<PathBuf>>,
    looks_positional: impl Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let value = json.as_ref()?.as_ref()?;
    if !looks_positional(value) {
        return None;
    }
    json.replace(None).flatten()
}

/// Refuses, before any work, two outputs on one file or an output over an
/// input, naming both: `outputs` and `inputs` are each an option (or what
/// the path is to the run, such as `the --checkpoint journal`) and its
/// path. Streams (`-`) are not files and never collide here.
pub fn refuse_collisions(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<()> {
    for (i, (option, path)) in outputs.iter().enumerate() {
        if let Some((other, _)) = outputs[..i].iter().find(|(_, earlier)| same_path(earlier, path)) {
            bail!(
                "{other} and {option} both name {}: one output would replace the other; give each a file of its own",
                path.display()
            );
        }
        if let Some((what, _)) = inputs.iter().find(|(_, input)| same_path(input, path)) {
            bail!(
                "{option} {} is {what}: writing it would replace what the run reads; write it to another file",
                path.display()
            );
        }
    }
    Ok(())
}

/// Whether `a` and `b` name the same file, whether or not it exists yet:
/// their directories resolved (links and `..` followed), their names
/// compared.
pub fn same_path(a: &Path, b: &Path) -> bool {
    if let (Ok(a), Ok(b)) = (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        return a == b;
    }
    let resolve = |p: &Path| {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::canonicalize(dir).ok().zip(p.file_name().map(|n| n.to_os_string()))
    };
    match (resolve(a), resolve(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}
