//! What CI systems read of a run: the JUnit XML report (`--junit`) and
//! GitHub Actions annotations and step summary (`--annotations`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use perft::report::ci::{github, junit, CiRun};

use super::args::{Annotations, CiArgs};
use super::report_target::ReportTarget;
use super::{output, resolve};

/// Where a run's CI formats go, resolved before the run.
pub struct CiTarget {
    junit: Option<ReportTarget>,
    github: bool,
}

impl CiTarget {
    /// Resolves `--junit` (checked writable now) and `--annotations`
    /// (`auto`: GitHub Actions when `GITHUB_ACTIONS` is `true`), and refuses
    /// before any work an output over another or over one of the run's
    /// `inputs`: the JUnit report, the `json` report and the step summary
    /// (`$GITHUB_STEP_SUMMARY`) each need a file of their own.
    pub fn resolve(args: &CiArgs, json: &Option<ReportTarget>, inputs: &[PathBuf]) -> Result<Self> {
        let junit = match &args.junit {
            Some(path) => ReportTarget::resolve(Some(Some(path.as_path())), "junit", false)?,
            None => None,
        };
        if ReportTarget::is_stdout(json) && ReportTarget::is_stdout(&junit) {
            bail!("--json - and --junit - both want standard output: send one of them to a file");
        }
        let github = match args.annotations {
            Annotations::Github => true,
            Annotations::None => false,
            Annotations::Auto => std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        };
        let summary = if github { step_summary_path() } else { None };
        let outputs: Vec<(&str, &Path)> = [
            ReportTarget::file(json).map(|p| ("--json", p)),
            ReportTarget::file(&junit).map(|p| ("--junit", p)),
            summary.as_deref().map(|p| ("$GITHUB_STEP_SUMMARY", p)),
        ]
        .into_iter()
        .flatten()
        .collect();
        let inputs: Vec<(&str, &Path)> =
            inputs.iter().map(|p| ("an input of this run", p.as_path())).collect();
        resolve::refuse_collisions(&outputs, &inputs)?;
        Ok(CiTarget { junit, github })
    }

    /// Whether the JUnit report goes to standard output (so people read
    /// standard error).
    pub fn takes_stdout(&self) -> bool {
        ReportTarget::is_stdout(&self.junit)
    }

    /// Whether anything is asked of [`CiTarget::emit`].
    pub fn wanted(&self) -> bool {
        self.junit.is_some() || self.github
    }

    /// Writes the annotations to `out` (where people read), appends the step
    /// summary to `$GITHUB_STEP_SUMMARY` when it is set (advisory: a summary
    /// that cannot be written is a warning), and writes the JUnit report.
    pub fn emit(&self, run: &CiRun, out: &mut dyn Write) -> Result<()> {
        if self.github {
            let workspace = std::env::var("GITHUB_WORKSPACE").ok();
            let here = std::env::current_dir().ok();
            for line in github::annotations(run, workspace.as_deref(), here.as_deref()) {
                output::write_own_command(out, &line)?;
            }
            if let Some(path) = step_summary_path() {
                if let Err(e) = append(&path, github::step_summary(run).as_bytes()) {
                    // To stderr: a summary is never worth a failed run, and
                    // the message must not read as a workflow command.
                    eprintln!("warning: cannot append the step summary to {}: {e}", path.display());
                }
            }
        }
        let Some(target) = &self.junit else { return Ok(()) };
        let xml = junit::to_junit(run);
        match target {
            ReportTarget::Stdout => std::io::stdout().lock().write_all(xml.as_bytes())?,
            ReportTarget::Stderr => std::io::stderr().lock().write_all(xml.as_bytes())?,
            ReportTarget::File(path) | ReportTarget::Fresh(path) => {
                perft::report::write_atomic(path, xml.as_bytes())
                    .with_context(|| format!("cannot write the JUnit report to {}", path.display()))?;
                writeln!(out, "JUnit report: {}", path.display())?;
            }
        }
        Ok(())
    }
}

/// `$GITHUB_STEP_SUMMARY`, when it is set and not empty.
fn step_summary_path() -> Option<PathBuf> {
    std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()).map(PathBuf::from)
}

/// Appends `bytes` to the regular file at `path` (the step summary is
/// shared by every step of a job). Anything else there (a FIFO, a device)
/// is refused, never waited on: it is opened without blocking and looked
/// at before a byte is written.
fn append(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let mut file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"));
    }
    file.write_all(bytes)?;
    file.flush()
}
