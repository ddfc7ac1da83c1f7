//! Shared pieces of the commands: thread counts, positions, report targets,
//! progress bars, human output.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use perft::board::{Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::counting::{with_threads, KeySet, PerftTable, MAX_THREADS};
use perft::engine::{AnswerFormat, EngineOptions, DEFAULT_HANDSHAKE};
use perft::memory::{self, HashSize, TableSize};
use perft::report;
use serde::Serialize;

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
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let options = FenOptions { castling: CastlingMode::from_chess960(args.chess960), relaxed: args.relaxed };
    let mut board = Board::from_fen_with(fen, options).with_context(|| format!("bad --fen {fen:?}"))?;
    for (i, mv) in args.moves.iter().enumerate() {
        board.play_uci(mv).with_context(|| format!("bad --moves entry {} ({mv:?})", i + 1))?;
    }
    Ok(board)
}

/// Where a JSON report goes.
pub enum ReportTarget {
    Stdout,
    Stderr,
    /// A file named on the command line: replaced if it exists.
    File(PathBuf),
    /// A timestamped name in the results directory: never replaces a
    /// file (a run that took the name first keeps it; this one gets
    /// `NAME-2.json`).
    Fresh(PathBuf),
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

/// Names of this program's own standard output and error: reports to them
/// are written through the streams themselves (opening the name again
/// would write over what the stream already holds when it is a file).
const STDOUT_NAMES: [&str; 4] = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
const STDERR_NAMES: [&str; 3] = ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"];

impl ReportTarget {
    /// Resolves `--json [FILE]` (`Some(None)`: the flag without a file):
    /// `-` is stdout; the flag without a file, or no flag with
    /// `default_on`, is a timestamped file in [`results_dir`]. File targets
    /// are checked for writability now, so a long run does not fail at the
    /// end; nothing is created yet.
    pub fn resolve(
        json: Option<Option<&Path>>,
        kind: &str,
        default_on: bool,
    ) -> Result<Option<ReportTarget>> {
        let target = match json {
            Some(Some(path)) if STDOUT_NAMES.iter().any(|name| path == Path::new(name)) => {
                return Ok(Some(ReportTarget::Stdout));
            }
            Some(Some(path)) if STDERR_NAMES.iter().any(|name| path == Path::new(name)) => {
                return Ok(Some(ReportTarget::Stderr));
            }
            Some(Some(path)) => path.to_path_buf(),
            Some(None) => return Self::fresh(kind),
            None if default_on => return Self::fresh(kind),
            None => return Ok(None),
        };
        report::check_writable(&target)
            .with_context(|| format!("cannot write the report to {}", target.display()))?;
        Ok(Some(ReportTarget::File(target)))
    }

    fn fresh(kind: &str) -> Result<Option<ReportTarget>> {
        let target = report::default_report_path(&results_dir(), kind);
        report::check_writable(&target)
            .with_context(|| format!("cannot write the report to {}", target.display()))?;
        Ok(Some(ReportTarget::Fresh(target)))
    }

    /// Refuses, before any work, a report file (given with `option`, such
    /// as `--json`) that is one of the run's inputs (`inputs`: each path,
    /// and what it is to the run, such as `the --checkpoint journal`):
    /// writing it would replace what the run reads.
    pub fn refuse_over(target: &Option<ReportTarget>, option: &str, inputs: &[(&Path, &str)]) -> Result<()> {
        let Some(ReportTarget::File(report)) = target else { return Ok(()) };
        for (input, what) in inputs {
            if same_path(report, input) {
                bail!(
                    "{option} {} is {what}: the report would replace it; write the report to another file",
                    report.display()
                );
            }
        }
        Ok(())
    }

    /// The file a report named on the command line goes to (none for a
    /// stream or a timestamped name, which no other output can share).
    pub fn file(target: &Option<ReportTarget>) -> Option<&Path> {
        match target {
            Some(ReportTarget::File(path)) => Some(path),
            _ => None,
        }
    }

    pub fn is_stdout(target: &Option<ReportTarget>) -> bool {
        matches!(target, Some(ReportTarget::Stdout))
    }

    /// Writes `value`, and for a file says `Report: PATH` on `out`.
    /// Writes the report of a run that may have read nothing (a missing
    /// suite file, say): such a run (`counted` false) leaves no file behind
    /// (a stream still gets its JSON, which a pipe is waiting for).
    /// `why_not` says why, as in `no suite line was read`.
    pub fn write_if_counted(
        &self,
        counted: bool,
        why_not: &str,
        value: &impl Serialize,
        out: &mut dyn Write,
    ) -> Result<()> {
        match self {
            ReportTarget::File(path) | ReportTarget::Fresh(path) if !counted => {
                writeln!(out, "No report written to {}: {why_not}.", path.display())?;
                Ok(())
            }
            _ => self.write(value, out),
        }
    }

    pub fn write(&self, value: &impl Serialize, out: &mut dyn Write) -> Result<()> {
        match self {
            ReportTarget::Stdout => {
                let mut stdout = std::io::stdout().lock();
                // As an io::Error, so that a closed pipe is seen as one.
                serde_json::to_writer_pretty(&mut stdout, value).map_err(std::io::Error::from)?;
                writeln!(stdout)?;
            }
            ReportTarget::Stderr => {
                let mut stderr = std::io::stderr().lock();
                serde_json::to_writer_pretty(&mut stderr, value).map_err(std::io::Error::from)?;
                writeln!(stderr)?;
            }
            ReportTarget::File(path) => {
                report::write_json_atomic(path, value)
                    .with_context(|| format!("cannot write the report to {}", path.display()))?;
                writeln!(out, "Report: {}", path.display())?;
            }
            ReportTarget::Fresh(path) => {
                let mut bytes = serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?;
                bytes.push(b'\n');
                let written = report::write_new_atomic(path, &bytes)
                    .with_context(|| format!("cannot write the report to {}", path.display()))?;
                writeln!(out, "Report: {}", written.display())?;
            }
        }
        Ok(())
    }
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

/// An error and its causes in one line, each cause said once (a cause
/// whose text its error already quotes, as `os error 11: os error 11`, is
/// left out), made safe to print ([`perft::check::text::echo_safe`]): an
/// error may quote an engine or a suite.
pub fn error_text(error: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in error.chain() {
        let text = in_our_words(cause.to_string());
        if text.is_empty() || parts.last().is_some_and(|last| last.contains(&text)) {
            continue;
        }
        parts.push(text);
    }
    perft::check::text::echo_safe(&parts.join(": "))
}

/// The system's words for a missing file (they differ between systems) as
/// every command says it.
fn in_our_words(text: String) -> String {
    const MISSING: [&str; 2] =
        ["No such file or directory (os error 2)", "The system cannot find the file specified. (os error 2)"];
    MISSING.iter().fold(text, |text, words| text.replace(words, "no such file"))
}

/// The end of a run that wrote several outputs, each attempted whatever
/// became of the others: every failure but the last is printed on stderr,
/// the last is the command's error (none: all were written).
pub fn all_written(results: impl IntoIterator<Item = Result<()>>) -> Result<()> {
    let mut failures: Vec<anyhow::Error> = results.into_iter().filter_map(Result::err).collect();
    let Some(last) = failures.pop() else { return Ok(()) };
    for failure in failures {
        let _ = writeln!(std::io::stderr(), "error: {}", error_text(&failure));
    }
    Err(last)
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

pub use perft::check::text::{location, plural};

/// Unreadable lines printed per file; the rest are counted.
const PRINTED_ERRORS_PER_FILE: usize = 10;

/// Prints suite errors as `ERROR file:line: message` lines: at most
/// [`PRINTED_ERRORS_PER_FILE`] line errors per file, then how many more
/// there are; whole-file errors always.
pub fn print_suite_errors(out: &mut dyn Write, errors: &[report::SuiteError], in_report: bool) -> Result<()> {
    let mut index = 0;
    while index < errors.len() {
        let file = &errors[index].file;
        let end = errors[index..].iter().position(|e| &e.file != file).map_or(errors.len(), |n| index + n);
        let mut shown = 0;
        let mut hidden = 0;
        for error in &errors[index..end] {
            if error.line == 0 {
                let place = if error.file.is_empty() { String::new() } else { format!("{}: ", error.file) };
                writeln!(out, "ERROR {place}{}", error.message)?;
            } else if shown < PRINTED_ERRORS_PER_FILE {
                writeln!(out, "ERROR {}: {}", location(&error.file, error.line), error.message)?;
                shown += 1;
            } else {
                hidden += 1;
            }
        }
        if hidden > 0 {
            let whereabouts = if in_report { " (listed in the JSON report)" } else { "" };
            writeln!(out, "ERROR {file}: {hidden} more unreadable lines not shown here{whereabouts}")?;
        }
        index = end;
    }
    Ok(())
}

/// Human output: stdout, or stderr when stdout carries the JSON report;
/// every line through [`EchoSafe`], so that text quoted from an engine or
/// a suite can neither steer a terminal nor start a CI runner's command.
pub fn human_output(report_on_stdout: bool) -> Box<dyn Write> {
    if report_on_stdout {
        Box::new(EchoSafe::new(std::io::stderr()))
    } else {
        Box::new(EchoSafe::new(std::io::stdout()))
    }
}

thread_local! {
    /// Set while [`write_own_command`] writes its line.
    static OWN_LINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Writes `line`, a workflow command of this program's own (an
/// annotation), to `out` as it is: the one way past [`EchoSafe`], which
/// no text written through it can take.
pub fn write_own_command(out: &mut dyn Write, line: &str) -> std::io::Result<()> {
    OWN_LINE.with(|own| own.set(true));
    let written = writeln!(out, "{line}");
    OWN_LINE.with(|own| own.set(false));
    written
}

/// A writer that passes whole lines through
/// [`perft::check::text::echo_safe`], except those [`write_own_command`]
/// writes; a line not yet ended is held until its end (or the writer's
/// drop).
pub struct EchoSafe<W: Write> {
    inner: W,
    line: Vec<u8>,
}

impl<W: Write> EchoSafe<W> {
    pub fn new(inner: W) -> Self {
        EchoSafe { inner, line: Vec::new() }
    }

    fn write_line(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line);
        let safe = if OWN_LINE.with(std::cell::Cell::get) {
            text.into_owned()
        } else {
            perft::check::text::echo_safe(&text)
        };
        self.line.clear();
        self.inner.write_all(safe.as_bytes())
    }
}

impl<W: Write> Write for EchoSafe<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(chunk);
            if chunk.ends_with(b"\n") {
                self.write_line()?;
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for EchoSafe<W> {
    fn drop(&mut self) {
        if !self.line.is_empty() {
            let _ = self.write_line();
        }
        let _ = self.inner.flush();
    }
}

/// A node count as a progress bar position: counts past 2⁶⁴ are shifted
/// right by `shift` bits (see [`progress_shift`]) so they fit its `u64`.
pub fn progress_units(nodes: u128, shift: u32) -> u64 {
    u64::try_from(nodes >> shift).unwrap_or(u64::MAX)
}

/// The shift that makes a total of `nodes` fit a progress bar.
pub fn progress_shift(nodes: u128) -> u32 {
    (128 - nodes.leading_zeros()).saturating_sub(64)
}

/// A progress bar on stderr, or a hidden one when stderr is not a terminal.
pub fn progress_bar(len: u64, template: &str, visible: bool) -> ProgressBar {
    if !visible || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// Prints a divide as Stockfish's `go perft` does: `move: count` lines, a
/// blank line, `Nodes searched: N`, a blank line.
pub fn print_divide(
    out: &mut dyn Write,
    divide: impl IntoIterator<Item = (impl std::fmt::Display, u128)>,
    nodes: u128,
) -> std::io::Result<()> {
    for (mv, n) in divide {
        writeln!(out, "{mv}: {n}")?;
    }
    print_nodes_searched(out, nodes)
}

/// The total line of a divide, with its blank lines, for a count shown
/// without one.
pub fn print_nodes_searched(out: &mut dyn Write, nodes: u128) -> std::io::Result<()> {
    writeln!(out, "\nNodes searched: {nodes}\n")
}

/// Millions of nodes per second.
pub fn mnps(nodes: u128, seconds: f64) -> f64 {
    report::nodes_per_second(nodes, seconds) / 1e6
}

/// Resolves `--hash` (`size`; where not given, `auto` if `default_auto`,
/// else none) for a count that can use `useful()` bytes of table; see
/// [`memory::resolve_table`].
pub fn choose_table(
    size: Option<HashSize>,
    default_auto: bool,
    useful: impl FnOnce() -> u64,
    what: &str,
    tables: f64,
) -> Result<Option<TableSize>> {
    let Some(size) = size.or(default_auto.then_some(HashSize::Auto)) else { return Ok(None) };
    memory::resolve_table(size, useful, what, tables, memory::memory_source).map_err(anyhow::Error::msg)
}

/// Makes the table `choice` names, zeroed by `threads` threads; an
/// automatic one that reaches slow memory is cut to fast memory
/// ([`memory::fit_to_memory_speed`]), and `choice` says so.
pub fn make_table(choice: &mut TableSize, keys: KeySet, threads: usize) -> Result<PerftTable> {
    let mut table = with_threads(threads, || PerftTable::new(choice.megabytes, keys))?.context("--hash")?;
    memory::fit_automatic(choice, &mut table);
    Ok(table)
}

/// A count as a person would say it: `197,281`, `4.9 million`, `2.07
/// billion`.
pub fn approximate(n: u128) -> String {
    let value = n as f64;
    match value {
        v if v >= 1e12 => format!("{:.3} trillion", v / 1e12),
        v if v >= 1e9 => format!("{:.3} billion", v / 1e9),
        v if v >= 1e6 => format!("{:.1} million", v / 1e6),
        _ => {
            let digits = n.to_string();
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        }
    }
}

/// Seconds as a person would say them: `40 s`, `12 min`, `3.5 h`, `9 days`,
/// `2e9 years`.
pub fn human_duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    match seconds {
        s if !s.is_finite() => "longer than anyone can wait".into(),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 2.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < YEAR => plural((s / 86400.0).round() as usize, "day"),
        s if s < 1e4 * YEAR => plural((s / YEAR).round() as usize, "year"),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// Tables of this size or more say so while they are set up: zeroing one
/// takes about a second per GB and thread, which would otherwise pass in
/// silence.
const ANNOUNCED_TABLE_MB: u64 = 256;

/// [`make_table`], and, for a table of [`ANNOUNCED_TABLE_MB`] or more when
/// `announce`, a line on stderr with its size while it is set up and the
/// time it took (`hash table: 6210 MB (auto: enough for depth 10), setting
/// up... done in 24.1 s`).
pub fn make_table_saying(
    choice: &mut TableSize,
    keys: KeySet,
    threads: usize,
    announce: bool,
) -> Result<PerftTable> {
    let announce = announce && choice.megabytes >= ANNOUNCED_TABLE_MB;
    if announce {
        let why = choice.auto.as_deref().map_or(String::new(), |why| format!(" ({why})"));
        eprint!("hash table: {} MB{why}, setting up...", choice.megabytes);
        let _ = std::io::stderr().flush();
    }
    let asked = choice.megabytes;
    let table = make_table(choice, keys, threads)?;
    if announce {
        let cut = if choice.megabytes == asked {
            String::new()
        } else {
            format!(", cut to {} MB (memory beyond it is slow)", choice.megabytes)
        };
        eprintln!(" done in {:.1} s{cut}", table.setup_seconds());
    }
    Ok(table)
}

/// The most a hash table cut a count's time, by depth, in our own runs:
/// the start position on two cores (perft(9) 16 s, perft(10) 178 s,
/// perft(11) 36 min with the automatic table, against about 22x, 56x and
/// 140x those times without one), and 2.5x more for each ply beyond.
fn best_table_cut(depth: u32) -> f64 {
    match depth {
        0..=8 => 10.0,
        9 => 22.0,
        10 => 56.0,
        _ => 140.0 * 2.5f64.powi(depth as i32 - 11),
    }
}

/// Counting speed on `threads` threads, from a count of `board` of at
/// least 2·10⁷ nodes (or the deepest below `depth` whose next ply would
/// pass 10⁹ nodes or a hundredth of the `total` the run counts), timed: the
/// speed the run itself will see, on this machine and under its load, for
/// at most about 1% more work (perft 8 of the rook endgame counted perft 7
/// as well, 6% more, before the cap).
fn measured_speed(board: &Board, depth: u32, threads: usize, total: f64) -> f64 {
    use perft::counting::{perft_with, CountOptions, Mode};
    let (mut nodes, mut seconds) = (0u128, 0.0);
    for d in 1..depth {
        let previous = nodes.max(1);
        let start = std::time::Instant::now();
        let counted = with_threads(threads, || perft_with(board, d, &CountOptions::new(Mode::Bulk)));
        nodes = counted.ok().flatten().unwrap_or(0);
        seconds = start.elapsed().as_secs_f64();
        let next = nodes.saturating_mul(nodes / previous);
        let cap = (total / 100.0).min(1e9) as u128;
        if nodes >= 20_000_000 || next > cap {
            break;
        }
    }
    nodes as f64 / seconds.max(1e-6)
}

/// Warns on stderr when counting `depth` plies below `board` looks like
/// more than an hour's work, with the table it counts with (`hashed`):
/// without one, from the estimated nodes and the speed measured here; with
/// one, that time cut by the most a table cut a count of this depth in our
/// runs ([`best_table_cut`]), so that a count the table makes short is not
/// called long. Returns whether it warned.
pub fn warn_if_absurd(board: &Board, depth: u32, threads: usize, hashed: bool) -> bool {
    if depth < 8 {
        return false;
    }
    let nodes = perft::counting::estimate_nodes(board, depth).nodes;
    let plain = nodes / measured_speed(board, depth, threads, nodes);
    let cut = best_table_cut(depth);
    let eta = if hashed { plain / cut } else { plain };
    if eta < 3600.0 {
        return false;
    }
    let how = if hashed {
        format!(
            "about {} with its hash table if the table cuts the time {cut:.0}x (it cut perft(9), perft(10) \
             and perft(11) of the start position 22x, 56x and 140x), about {} without one",
            human_duration(eta),
            human_duration(plain)
        )
    } else {
        format!("about {} without a hash table (--hash helps)", human_duration(eta))
    };
    eprintln!(
        "warning: perft {depth} here is about {nodes:.1e} nodes: {how}. It runs anyway: Ctrl-C stops it \
         cleanly, and --checkpoint FILE lets a later run resume."
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error whose text quotes its source, as rayon's does.
    #[derive(Debug)]
    struct Quoting(std::io::Error);

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{}", self.0)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn errors_say_each_cause_once_and_safely() {
        let busy = std::io::Error::from_raw_os_error(libc::EAGAIN);
        let error = anyhow::Error::new(Quoting(busy)).context("cannot start the worker threads");
        let text = error_text(&error);
        assert_eq!(text.matches("os error 11").count(), 1, "{text}");
        assert!(text.starts_with("cannot start the worker threads: "), "{text}");
        let quoted = anyhow::anyhow!("the engine said \u{1b}[2J::add-mask::x").context("check");
        assert_eq!(error_text(&quoted), "check: the engine said \\x1b[2J::add-mask::x");
    }

    #[test]
    fn echo_safe_lines_pass_own_commands_only() {
        let mut written = Vec::new();
        {
            let mut out = EchoSafe::new(&mut written);
            write!(out, "  ::add-mask::x\nsaid ##[error]y\r::warning::z\n").unwrap();
            write_own_command(&mut out, "::error title=t::m").unwrap();
            write!(out, "no end").unwrap();
        }
        let text = String::from_utf8(written).unwrap();
        assert_eq!(text, "  \\::add-mask::x\nsaid ##\\[error]y\\r::warning::z\n::error title=t::m\nno end");
    }
}
