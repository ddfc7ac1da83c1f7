//! What CI systems read of a run: the JUnit XML report (`--junit`) and
//! GitHub Actions annotations and step summary (`--annotations`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use perft::report::ci::{github, junit, CiRun};

use super::args::{Annotations, CiArgs};
use super::output::ReportTarget;

/// Where a run's CI formats go, resolved before the run.
pub struct CiTarget {
    junit: Option<ReportTarget>,
    github: bool,
}

impl CiTarget {
    /// Resolves `--junit` (checked writable now, and refused over one of the
    /// run's `inputs`) and `--annotations` (`auto`: GitHub Actions when
    /// `GITHUB_ACTIONS` is `true`).
    pub fn resolve(args: &CiArgs, json_to_stdout: bool, inputs: &[PathBuf]) -> Result<Self> {
        let junit = match &args.junit {
            Some(path) => ReportTarget::resolve(Some(Some(path.as_path())), "junit", false)?,
            None => None,
        };
        let inputs: Vec<(&Path, &str)> =
            inputs.iter().map(|p| (p.as_path(), "an input of this run")).collect();
        ReportTarget::refuse_over(&junit, "--junit", &inputs)?;
        if json_to_stdout && ReportTarget::is_stdout(&junit) {
            bail!("--json - and --junit - both want standard output: send one of them to a file");
        }
        let github = match args.annotations {
            Annotations::Github => true,
            Annotations::None => false,
            Annotations::Auto => std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        };
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
    /// summary to `$GITHUB_STEP_SUMMARY` when it is set, and writes the
    /// JUnit report.
    pub fn emit(&self, run: &CiRun, out: &mut dyn Write) -> Result<()> {
        if self.github {
            let workspace = std::env::var("GITHUB_WORKSPACE").ok();
            for line in github::annotations(run, workspace.as_deref()) {
                writeln!(out, "{line}")?;
            }
            if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
                if let Err(e) = append(Path::new(&path), github::step_summary(run).as_bytes()) {
                    writeln!(
                        out,
                        "warning: cannot append the step summary to {}: {e}",
                        Path::new(&path).display()
                    )?;
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

/// Appends `bytes` to the file at `path` (the step summary is shared by
/// every step of a job).
fn append(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}
