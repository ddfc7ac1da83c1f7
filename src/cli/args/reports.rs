//! Arguments of the commands that read and write reports: `diff`, `report`,
//! and the CI formats (`--junit`, `--annotations`) of `suite`, `check` and
//! `diff`.

use std::path::PathBuf;

use clap::Args;

pub(super) const DIFF_HELP: &str = "\
Compares two reports of the same kind: bench, suite, or compare (another engine's speed before
and after a change). Counts that changed are listed: COUNT FIXED where the new count is the
expected one (the old was not), COUNT CHANGED otherwise. A speed change is a REGRESSION (or
`faster`) only past --threshold and past the noise: when both reports kept several samples
(bench, compare), Welch's t-test on them at 95%; otherwise the min-max ranges must not overlap.
A change past the threshold but not past the noise is reported as `within noise`. Reports from
different machines, CPU kernels, modes, thread counts or bench-set versions, and suite reports
of different checks, are refused unless --force.

Examples:
  perft diff base.json new.json
  perft diff --threshold 5 results/bench-a.json results/bench-b.json

Exit status:
  0  no count changed (or each became the expected one: COUNT FIXED) and no regression
  1  a count changed away from the expected one, or a regression was flagged
  2  bad input, or the reports are not comparable";

pub(super) const REPORT_HELP: &str = "\
Examples:
  perft report --out page.html results/*.json       # charts and tables, one page
  perft report --out charts.svg results/compare-*.json

Compare, bench and run reports are charted; other reports among the files (suite,
check, merge) and files that are not perft reports are skipped with a note each.

Exit status:
  0  the page or picture was written
  2  bad input: nothing to chart, a report that cannot be read (the others are still drawn),
     or an --out that does not end in .html or .svg";

/// Where CI systems read a run: a JUnit XML file and annotations.
#[derive(Debug, Args)]
pub struct CiArgs {
    /// Also write a JUnit XML report to FILE (`-` for stdout): a test case
    /// per count, for GitLab, Jenkins and test-report actions.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Annotate wrong counts for a CI system: `github` (workflow commands on
    /// the suite file's lines, and a summary appended to
    /// $GITHUB_STEP_SUMMARY), `none`, or `auto`: github when GITHUB_ACTIONS
    /// is `true`.
    #[arg(long, value_name = "FORMAT", default_value = "auto")]
    pub annotations: Annotations,
}

/// How wrong counts are annotated (`--annotations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Annotations {
    /// `github` inside GitHub Actions, else none.
    Auto,
    /// GitHub Actions workflow commands and step summary.
    Github,
    /// None.
    None,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier report.
    #[arg(value_name = "OLD.json")]
    pub old: PathBuf,
    /// The later report.
    #[arg(value_name = "NEW.json")]
    pub new: PathBuf,
    /// Smallest change, in percent of the median speed, that is flagged
    /// (when it is also past the noise).
    #[arg(long, value_name = "PCT", default_value_t = 2.0)]
    pub threshold: f64,
    /// Compare reports from different machines, modes or thread counts.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub ci: CiArgs,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Compare, bench and run reports (JSON).
    #[arg(value_name = "FILE.json", required = true)]
    pub files: Vec<PathBuf>,
    /// Output file: `.html` for a page with charts and tables, `.svg` for
    /// the charts alone.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
}
