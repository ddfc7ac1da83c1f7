//! Test results as CI systems read them: every count of a run as a test
//! case (passed, failed, an error, or skipped), grouped by suite file, and
//! written as JUnit XML ([`junit`]) or as GitHub Actions workflow commands
//! and a step summary ([`github`]).
//!
//! [`CiRun`] is built from what `perft suite`, `perft check` and `perft
//! diff` found ([`from_suite`], [`from_check`], [`from_diff`]); the writers
//! only read it.

pub mod github;
pub mod junit;

mod from;

pub use from::{from_check, from_diff, from_suite};

/// One run, as test suites of test cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CiRun {
    /// What ran: `perft suite`, `perft check mine`, `perft diff`.
    pub title: String,
    /// One per suite file (or engine, or report), in order.
    pub suites: Vec<CiSuite>,
    /// Wall time of the run.
    pub seconds: f64,
    /// When it finished (UTC, ISO 8601).
    pub timestamp: String,
    /// Facts about the run worth keeping with it (`engine`, `tool`, ...).
    pub properties: Vec<(String, String)>,
    /// The wrong counts' causes, the most common first.
    pub causes: Vec<CiCause>,
}

/// The test cases of one suite file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CiSuite {
    /// The file as the user named it (or the built-in suite's name, or
    /// the engine's).
    pub name: String,
    /// The file's path, when the cases' lines are lines of a file the user
    /// has (not a built-in suite).
    pub path: Option<String>,
    /// Its cases, in line and depth order.
    pub cases: Vec<CiCase>,
}

/// One count (or one unusable line).
#[derive(Clone, Debug, PartialEq)]
pub struct CiCase {
    /// `file:line depth N` (or `file:line` for a line that could not be
    /// read).
    pub name: String,
    /// 1-based line in the suite file, 0 for the file as a whole.
    pub line: usize,
    /// Wall time.
    pub seconds: f64,
    /// How it went.
    pub outcome: CiOutcome,
    /// For a wrong count, its cause (an index into [`CiRun::causes`]).
    pub cause: Option<usize>,
}

/// How a case went.
#[derive(Clone, Debug, PartialEq)]
pub enum CiOutcome {
    /// The count matched.
    Passed,
    /// A wrong count.
    Failed {
        /// In one line.
        message: String,
        /// In several: the position, the cause, the bisection, the command
        /// that reproduces it.
        details: String,
    },
    /// No count (an unreadable line, an engine that crashed or hung).
    Error {
        /// In one line.
        message: String,
        /// In full.
        details: String,
    },
    /// Not run.
    Skipped {
        /// Why.
        message: String,
    },
}

/// What went wrong in a case that failed or gave no count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem<'a> {
    /// `wrong perft count` or `no perft count`.
    pub title: &'static str,
    /// In one line.
    pub message: &'a str,
    /// In several (may be empty).
    pub details: &'a str,
}

impl CiOutcome {
    /// The problem of a wrong count or an error; `None` for a case that
    /// passed or was skipped.
    pub fn problem(&self) -> Option<Problem<'_>> {
        let (title, message, details) = match self {
            CiOutcome::Failed { message, details } => ("wrong perft count", message, details),
            CiOutcome::Error { message, details } => ("no perft count", message, details),
            CiOutcome::Passed | CiOutcome::Skipped { .. } => return None,
        };
        Some(Problem { title, message, details })
    }
}

/// A cause of wrong counts.
#[derive(Clone, Debug, PartialEq)]
pub struct CiCause {
    /// The cause in words.
    pub description: String,
    /// Wrong counts it explains.
    pub failures: usize,
    /// Its smallest example: `file:line depth N`.
    pub example: String,
    /// The command that reproduces the example, if any.
    pub reproduce: Option<String>,
}

/// Totals of a run or of a suite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases.
    pub tests: usize,
    /// Wrong counts.
    pub failures: usize,
    /// Errors.
    pub errors: usize,
    /// Skipped counts.
    pub skipped: usize,
}

impl Tally {
    /// The totals of `cases`.
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a CiCase>) -> Self {
        let mut tally = Tally::default();
        for case in cases {
            tally.tests += 1;
            match case.outcome {
                CiOutcome::Passed => {}
                CiOutcome::Failed { .. } => tally.failures += 1,
                CiOutcome::Error { .. } => tally.errors += 1,
                CiOutcome::Skipped { .. } => tally.skipped += 1,
            }
        }
        tally
    }

    /// Cases that passed.
    pub fn passed(&self) -> usize {
        self.tests - self.failures - self.errors - self.skipped
    }
}

impl CiRun {
    /// Totals of every suite.
    pub fn tally(&self) -> Tally {
        Tally::of(self.cases().map(|(_, case)| case))
    }

    /// Every case with its suite, in order.
    pub fn cases(&self) -> impl Iterator<Item = (&CiSuite, &CiCase)> {
        self.suites.iter().flat_map(|suite| suite.cases.iter().map(move |case| (suite, case)))
    }
}

impl CiSuite {
    /// Totals of this suite.
    pub fn tally(&self) -> Tally {
        Tally::of(&self.cases)
    }

    /// Wall time of its cases.
    pub fn seconds(&self) -> f64 {
        self.cases.iter().map(|c| c.seconds).sum()
    }
}

/// `file:line depth N`, the name of a count.
pub fn case_name(file: &str, line: usize, depth: u32) -> String {
    format!("{file}:{line} depth {depth}")
}

#[cfg(test)]
mod tests;
