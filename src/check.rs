//! Checking another engine against suites and our counts: the harness's
//! runner ([`perft_harness::check`]), and the totals of a run against its
//! plan.

pub use perft_harness::check::*;

use crate::report::{CheckSummary, SkipReason, SkippedCheck, SuiteError};
use crate::suite::SuitePlan;

/// The totals of `outcome` against `plan`, and every error to report: the
/// plan's unusable lines and files, then the engine given up (named
/// `engine`), if it was. `seconds` is the run's wall time.
pub fn summarize(
    outcome: &CheckOutcome,
    plan: &SuitePlan,
    engine: &str,
    seconds: f64,
) -> (CheckSummary, Vec<SuiteError>) {
    let mut errors = plan.errors().to_vec();
    let mut error_count = plan.error_count();
    if let Some(abandoned) = &outcome.abandoned {
        errors.push(SuiteError { file: String::new(), line: 0, message: format!("{engine} {abandoned}") });
        error_count += 1;
    }
    let results = &outcome.results;
    let summary = CheckSummary {
        positions: plan.positions(),
        checks: results.len(),
        passed: results.iter().filter(|r| r.ok).count(),
        failed: results.iter().filter(|r| !r.ok && r.error.is_none()).count(),
        errors: results.iter().filter(|r| r.error.is_some()).count() + error_count,
        skipped: plan.skipped() + outcome.not_run + outcome.unsupported + outcome.hopeless_checks.len(),
        failures_by_tag: failures_by_tag(results),
        seconds,
    };
    (summary, errors)
}

/// Every count of `plan` not asked in `outcome`, and why: skipped by the
/// options, unsupported by the engine, or not run (the run stopped first).
pub fn skipped_checks(outcome: &CheckOutcome, plan: &SuitePlan) -> Vec<SkippedCheck> {
    let ran = outcome.results.iter().map(|r| (r.file.as_str(), r.line, r.depth));
    let unsupported = outcome.unsupported_reason.clone().unwrap_or_default();
    let hopeless = outcome.hopeless_reason.clone().unwrap_or_default();
    plan.skipped_besides(ran, |index| {
        if outcome.unsupported_checks.binary_search(&index).is_ok() {
            SkipReason::Unsupported(unsupported.clone())
        } else if outcome.hopeless_checks.binary_search(&index).is_ok() {
            SkipReason::Unsupported(hopeless.clone())
        } else {
            SkipReason::NotRun
        }
    })
}
