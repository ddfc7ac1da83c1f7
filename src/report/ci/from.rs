//! [`CiRun`]s built from what `perft suite`, `perft check` and `perft
//! diff` found.

use std::collections::HashMap;

use perft_harness::check::causes::bisected_result;
use perft_harness::check::text::describe;

use super::{case_name, CiCase, CiCause, CiOutcome, CiRun, CiSuite};
use crate::report::diff::{DiffOutcome, Verdict};
use crate::report::{
    speeds_text, CheckReport, CheckResult, SkippedCheck, SuiteError, SuiteReport, SuiteResult,
};
use perft_harness::check::ExpectedFrom;

/// Suites in the order their files first appear, each case sorted by line
/// and depth.
struct Grouper {
    built_in: bool,
    index: HashMap<String, usize>,
    /// Each suite, with its cases keyed by line and depth.
    suites: Vec<(CiSuite, Vec<Keyed>)>,
}

/// A case with the line and depth it is sorted by.
type Keyed = ((usize, u32), CiCase);

impl Grouper {
    fn new(built_in: bool) -> Self {
        Grouper { built_in, index: HashMap::new(), suites: Vec::new() }
    }

    /// Adds `case` to `file`'s suite, sorted by `line` and `depth` (`u32::MAX`
    /// for errors, which follow the counts of their line).
    fn add(&mut self, file: &str, depth: u32, case: CiCase) {
        let (suites, built_in) = (&mut self.suites, self.built_in);
        let at = *self.index.entry(file.to_string()).or_insert_with(|| {
            let path = (!built_in && !file.is_empty()).then(|| file.to_string());
            suites.push((CiSuite { name: file.to_string(), path, cases: Vec::new() }, Vec::new()));
            suites.len() - 1
        });
        self.suites[at].1.push(((case.line, depth), case));
    }

    fn errors(&mut self, errors: &[SuiteError], unnamed: &str) {
        for error in errors {
            let file = if error.file.is_empty() { unnamed } else { error.file.as_str() };
            let name = if error.line > 0 { format!("{file}:{}", error.line) } else { file.to_string() };
            let outcome = error_outcome(&error.message);
            self.add(file, u32::MAX, CiCase { name, line: error.line, seconds: 0.0, outcome, cause: None });
        }
    }

    /// A run stopped by a signal: an error of its own (`unnamed` is the
    /// suite it goes in), so the run is never read as passed.
    fn interrupted(&mut self, interrupted: bool, unnamed: &str) {
        if !interrupted {
            return;
        }
        let outcome = CiOutcome::Error {
            message: "interrupted: a signal stopped the run before every count was made".into(),
            details: String::new(),
        };
        let case = CiCase { name: "interrupted".into(), line: 0, seconds: 0.0, outcome, cause: None };
        self.add(unnamed, u32::MAX, case);
    }

    /// Skipped counts: one case for each, but one for all of a file's that
    /// share a reason when there are several (a `--max-nodes` run skips
    /// thousands, which would bury the report's real cases).
    fn skipped(&mut self, skipped: &[SkippedCheck]) {
        let mut groups: Vec<((&str, String), Vec<&SkippedCheck>)> = Vec::new();
        for check in skipped {
            let key = (check.file.as_str(), check.reason.to_string());
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, checks)) => checks.push(check),
                None => groups.push((key, vec![check])),
            }
        }
        for ((file, reason), checks) in groups {
            let first = checks[0];
            let name = match checks.len() {
                1 => case_name(file, first.line, first.depth),
                n => format!("{file}: {n} counts skipped, from line {}", first.line),
            };
            let outcome = CiOutcome::Skipped { message: reason };
            let case = CiCase { name, line: first.line, seconds: 0.0, outcome, cause: None };
            self.add(file, first.depth, case);
        }
    }

    fn finish(self) -> Vec<CiSuite> {
        self.suites
            .into_iter()
            .map(|(mut suite, mut cases)| {
                cases.sort_by_key(|(key, _)| *key);
                suite.cases = cases.into_iter().map(|(_, case)| case).collect();
                suite
            })
            .collect()
    }
}

/// An error: its first line, and the whole text when it has more.
fn error_outcome(error: &str) -> CiOutcome {
    let message = error.lines().next().unwrap_or_default().to_string();
    let details = if error.trim_end() == message { String::new() } else { error.to_string() };
    CiOutcome::Error { message, details }
}

fn suite_case(result: &SuiteResult) -> CiCase {
    let outcome = if result.ok {
        CiOutcome::Passed
    } else {
        let mut details = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = result.write_details(&mut details, "");
        CiOutcome::Failed {
            message: result.mismatch(),
            details: String::from_utf8_lossy(&details).into_owned(),
        }
    };
    CiCase {
        name: case_name(&result.file, result.line, result.depth),
        line: result.line,
        seconds: result.seconds,
        outcome,
        cause: None,
    }
}

/// A `perft suite` run: a case per count, unusable line and skipped count.
/// `built_in`: the suite is the bundled default (its lines are not lines
/// of a file the user has).
pub fn from_suite(report: &SuiteReport, skipped: &[SkippedCheck], built_in: bool) -> CiRun {
    let mut grouper = Grouper::new(built_in);
    for result in &report.results {
        grouper.add(&result.file, result.depth, suite_case(result));
    }
    grouper.errors(&report.errors, "suite");
    grouper.interrupted(report.interrupted, "suite");
    grouper.skipped(skipped);
    CiRun {
        title: "perft suite".into(),
        suites: grouper.finish(),
        seconds: report.summary.seconds,
        timestamp: report.header.timestamp.clone(),
        properties: vec![
            ("tool".into(), format!("{} {}", report.header.tool.name, report.header.tool.version)),
            ("kernel".into(), report.header.machine.kernel.clone()),
            ("threads".into(), report.threads.to_string()),
        ],
        causes: Vec::new(),
    }
}

/// The case of a check: the count, or the engine's error; a wrong count
/// carries the cause and the bisection (its own or its position's).
fn check_case(report: &CheckReport, index: usize, causes: &HashMap<usize, usize>) -> CiCase {
    let result: &CheckResult = &report.results[index];
    let engine = &report.engine.name;
    let outcome = if result.ok {
        CiOutcome::Passed
    } else if let Some(error) = &result.error {
        error_outcome(error)
    } else {
        let says = result.engine_nodes.map_or("-".into(), |n| n.to_string());
        let from = match result.expected_from {
            ExpectedFrom::File => "",
            ExpectedFrom::Perft => " (from perft)",
        };
        let message =
            format!("depth {}: expected {}{from}, {engine} says {says}", result.depth, result.expected);
        let mut details = String::new();
        if let Some(cause) = causes.get(&index).map(|&c| &report.causes[c]) {
            details.push_str(&format!("cause: {}\n", cause.description));
        }
        details.push_str(&format!("test position: {}\n", result.fen));
        let bisected = bisected_result(&report.results, index);
        let mut described = Vec::new();
        match (&bisected.bisection, &result.bisection_error) {
            (Some(bisection), _) => describe(&mut described, bisection).unwrap_or_default(),
            (None, Some(error)) => described.extend(format!("  bisection stopped: {error}\n").bytes()),
            (None, None) => {}
        }
        details.push_str(&String::from_utf8_lossy(&described));
        if let Some(command) = &bisected.reproduce {
            details.push_str(&format!("  reproduce: {command}\n"));
        }
        CiOutcome::Failed { message, details }
    };
    CiCase {
        name: case_name(&result.file, result.line, result.depth),
        line: result.line,
        seconds: result.seconds,
        outcome,
        cause: causes.get(&index).copied(),
    }
}

/// A `perft check` run: a case per count asked, unusable line and skipped
/// count; wrong counts carry their cause and bisection.
pub fn from_check(report: &CheckReport, skipped: &[SkippedCheck], built_in: bool) -> CiRun {
    let causes: HashMap<usize, usize> = report
        .causes
        .iter()
        .enumerate()
        .flat_map(|(c, cause)| cause.results.iter().map(move |&r| (r, c)))
        .collect();
    let mut grouper = Grouper::new(built_in);
    for (index, result) in report.results.iter().enumerate() {
        grouper.add(&result.file, result.depth, check_case(report, index, &causes));
    }
    grouper.errors(&report.errors, &report.engine.name);
    grouper.interrupted(report.interrupted, &report.engine.name);
    grouper.skipped(skipped);
    let causes = report
        .causes
        .iter()
        .map(|cause| {
            let example = &report.results[cause.example];
            CiCause {
                description: cause.description.clone(),
                failures: cause.failures,
                example: case_name(&example.file, example.line, example.depth),
                reproduce: example.reproduce.clone(),
            }
        })
        .collect();
    CiRun {
        title: format!("perft check {}", report.engine.name),
        suites: grouper.finish(),
        seconds: report.summary.seconds,
        timestamp: report.header.timestamp.clone(),
        properties: vec![
            ("engine".into(), report.engine.name.clone()),
            ("engine spec".into(), report.engine.spec.clone()),
            ("tool".into(), format!("{} {}", report.header.tool.name, report.header.tool.version)),
        ],
        causes,
    }
}

/// A `perft diff` of `old` and `new`: a suite of changed counts (each a
/// failure) and one of speeds (a regression fails).
pub fn from_diff(outcome: &DiffOutcome, old: &str, new: &str, timestamp: String) -> CiRun {
    let counts = CiSuite {
        name: "counts".into(),
        path: None,
        cases: outcome
            .changed_counts
            .iter()
            .map(|change| CiCase {
                name: change.to_string(),
                line: 0,
                seconds: 0.0,
                cause: None,
                // A count now the expected one is a fix: it passes.
                outcome: if change.is_fix() {
                    CiOutcome::Passed
                } else {
                    CiOutcome::Failed {
                        message: format!("count changed: {change}"),
                        details: format!("{old} -> {new}: {change}\n"),
                    }
                },
            })
            .collect(),
    };
    let speeds = CiSuite {
        name: "speed".into(),
        path: None,
        cases: outcome
            .rows
            .iter()
            .map(|row| {
                let name = match row.depth {
                    Some(depth) => format!("{} depth {depth}", row.label),
                    None => row.label.clone(),
                };
                let (old_speed, new_speed) = speeds_text(row.old_speed, row.new_speed);
                let said = format!(
                    "{old_speed} -> {new_speed} ({:+.1}%, {})",
                    row.change.percent,
                    row.change.verdict.label()
                );
                let outcome = if row.change.verdict == Verdict::Regression {
                    CiOutcome::Failed {
                        message: format!("slower: {said}"),
                        details: format!("{old} -> {new}: {said}\n"),
                    }
                } else {
                    CiOutcome::Passed
                };
                CiCase { name, line: 0, seconds: 0.0, outcome, cause: None }
            })
            .collect(),
    };
    CiRun {
        title: "perft diff".into(),
        suites: vec![counts, speeds],
        seconds: 0.0,
        timestamp,
        properties: vec![("old".into(), old.into()), ("new".into(), new.into())],
        causes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::SkipReason;

    fn skip(line: usize, depth: u32, reason: SkipReason) -> SkippedCheck {
        SkippedCheck { file: "a.epd".into(), line, depth, reason }
    }

    #[test]
    fn a_files_skips_of_one_reason_are_one_case() {
        let mut grouper = Grouper::new(false);
        grouper.skipped(&[
            skip(3, 5, SkipReason::MaxNodes(1000)),
            skip(4, 5, SkipReason::MaxNodes(1000)),
            skip(4, 6, SkipReason::MaxNodes(1000)),
            skip(7, 2, SkipReason::Chess960),
        ]);
        let suites = grouper.finish();
        let cases: Vec<(&str, String)> = suites[0]
            .cases
            .iter()
            .map(|c| match &c.outcome {
                CiOutcome::Skipped { message } => (c.name.as_str(), message.clone()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            cases,
            [
                ("a.epd: 3 counts skipped, from line 3", "more nodes than --max-nodes 1000".to_string()),
                ("a.epd:7 depth 2", "a Chess960 position, skipped".to_string()),
            ]
        );
    }
}
