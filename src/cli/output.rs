//! Output: what a person reads (errors, suite errors, divides, progress
//! bars, speeds), every line made safe to print.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use perft::report;

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
