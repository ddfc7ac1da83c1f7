//! Where a command's JSON report goes (`--json [FILE]`), and its writing
//! there.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use perft::report;
use serde::Serialize;

use super::resolve::{results_dir, same_path};

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
