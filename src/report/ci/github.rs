//! GitHub Actions: every wrong count and unusable line as an `::error`
//! workflow command on its suite file's line, and a Markdown step summary.
//! (Workflow commands: <https://docs.github.com/actions/reference/workflow-commands-for-github-actions>.)

use std::fmt::Write as _;

use std::path::{Component, Path, PathBuf};

use perft_harness::check::text::{echo_safe, plural};

use super::{CiCase, CiOutcome, CiRun, CiSuite, Problem};

/// At most this many annotations (GitHub shows 10 errors per step and 50
/// per job); one warning says how many more there were.
pub const MAX_ANNOTATIONS: usize = 50;

/// Positions listed in the summary's table of failures.
const SUMMARY_FAILURES: usize = 20;

/// Positions listed as the slowest.
const SUMMARY_SLOWEST: usize = 5;

/// A workflow command's message: engine and suite text in it made safe
/// ([`echo_safe`]: control characters escaped, `##[` broken), then `%`, CR
/// and LF escaped, so the whole message stays one line of one command.
fn escape_data(text: &str) -> String {
    echo_safe(text).replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property: also `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `path` with `.` and `..` taken out by their names alone (no link is
/// followed: the runner knows the checkout's names, not its links).
fn lexical(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if clean.file_name().is_some() => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// A suite file's path as GitHub names files: relative to the workspace
/// (`$GITHUB_WORKSPACE`) when under it, a relative path read from `here`
/// (the current directory, which may be below the workspace); as given,
/// without a leading `./`, otherwise.
fn repository_path(path: &str, workspace: Option<&str>, here: Option<&Path>) -> String {
    let given = path.strip_prefix("./").unwrap_or(path);
    let Some(workspace) = workspace.filter(|w| !w.is_empty()).map(|w| lexical(Path::new(w))) else {
        return given.to_string();
    };
    let absolute = match here {
        Some(here) if Path::new(path).is_relative() => lexical(&here.join(path)),
        _ => lexical(Path::new(path)),
    };
    match absolute.strip_prefix(&workspace) {
        Ok(relative) if absolute.is_absolute() => relative.to_string_lossy().into_owned(),
        _ => given.to_string(),
    }
}

/// The `::error` commands of the run's wrong counts and errors, each on its
/// suite file and line when the file is the user's (`workspace`: the
/// checkout, `$GITHUB_WORKSPACE`, that paths are made relative to; `here`:
/// the directory relative suite paths were given from). Each
/// cause's example comes first (GitHub shows the first ten of a step),
/// then the rest in file order, at most [`MAX_ANNOTATIONS`] in all, then a
/// `::warning` saying how many more there were.
pub fn annotations(run: &CiRun, workspace: Option<&str>, here: Option<&Path>) -> Vec<String> {
    let mut cases: Vec<(&CiSuite, &CiCase, Problem)> =
        run.cases().filter_map(|(suite, case)| Some((suite, case, case.outcome.problem()?))).collect();
    let is_example = |case: &CiCase| case.cause.is_some_and(|c| run.causes[c].example == case.name);
    // Stable: examples first, each group in file order.
    cases.sort_by_key(|(_, case, _)| !is_example(case));
    // One error said again and again (a dead engine's, at every count
    // after it died) is one annotation, which says how often.
    let mut again: Vec<usize> = vec![0; cases.len()];
    let mut first_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut kept = Vec::new();
    for (i, (_, case, problem)) in cases.iter().enumerate() {
        if matches!(case.outcome, CiOutcome::Error { .. }) {
            if let Some(&first) = first_of.get(problem.message) {
                again[first] += 1;
                continue;
            }
            first_of.insert(problem.message, i);
        }
        kept.push(i);
    }
    let cases: Vec<_> = kept.into_iter().map(|i| (cases[i].0, cases[i].1, cases[i].2, again[i])).collect();
    let mut lines: Vec<String> = cases
        .iter()
        .take(MAX_ANNOTATIONS)
        .map(|(suite, case, problem, again)| annotation(suite, case, problem, *again, workspace, here))
        .collect();
    if cases.len() > MAX_ANNOTATIONS {
        lines.push(format!(
            "::warning title={}::{}",
            escape_property(&run.title),
            escape_data(&format!(
                "{} more wrong counts or errors, not annotated (the JUnit report has them all)",
                cases.len() - MAX_ANNOTATIONS
            ))
        ));
    }
    lines
}

/// One `::error` command.
fn annotation(
    suite: &CiSuite,
    case: &CiCase,
    problem: &Problem,
    again: usize,
    workspace: Option<&str>,
    here: Option<&Path>,
) -> String {
    let mut properties = String::new();
    if let Some(path) = &suite.path {
        properties.push_str(&format!("file={},", escape_property(&repository_path(path, workspace, here))));
        if case.line > 0 {
            properties.push_str(&format!("line={},", case.line));
        }
    }
    properties.push_str(&format!("title={}", escape_property(&format!("{}: {}", problem.title, case.name))));
    let mut text = problem.message.to_string();
    if again > 0 {
        text.push_str(&format!(
            " (and the same at {}: the JUnit report lists them)",
            plural(again, "more count")
        ));
    }
    if !problem.details.is_empty() {
        text = format!("{text}\n{}", problem.details);
    }
    format!("::error {properties}::{}", escape_data(text.trim_end()))
}

/// A Markdown cell: `|` escaped, one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The run in Markdown for `$GITHUB_STEP_SUMMARY`: totals per file, the
/// causes, the wrong counts (the first 20), the slowest counts.
pub fn step_summary(run: &CiRun) -> String {
    let mut md = String::new();
    let tally = run.tally();
    let verdict = if tally.failures + tally.errors == 0 { "passed" } else { "FAILED" };
    let _ = writeln!(md, "### {}: {verdict}\n", cell(&run.title));
    let _ = writeln!(
        md,
        "{} passed, {} failed, {} errors, {} skipped in {:.1} s\n",
        tally.passed(),
        tally.failures,
        tally.errors,
        tally.skipped,
        run.seconds
    );
    let _ = writeln!(md, "| file | passed | failed | errors | skipped |\n|---|---:|---:|---:|---:|");
    for suite in &run.suites {
        let t = suite.tally();
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&suite.name),
            t.passed(),
            t.failures,
            t.errors,
            t.skipped
        );
    }
    if !run.causes.is_empty() {
        let _ = writeln!(md, "\n**Causes**\n");
        for (n, cause) in run.causes.iter().enumerate() {
            let _ = writeln!(
                md,
                "{}. {} ({}; example `{}`)",
                n + 1,
                cell(&cause.description),
                plural(cause.failures, "wrong count"),
                cause.example
            );
            if let Some(command) = &cause.reproduce {
                let _ = writeln!(md, "   `{}`", command.replace('`', "'"));
            }
        }
    }
    let failing: Vec<_> = run.cases().filter_map(|(_, c)| Some((c, c.outcome.problem()?.message))).collect();
    if !failing.is_empty() {
        let _ = writeln!(md, "\n**Wrong counts and errors**\n\n| count | what | cause |\n|---|---|---:|");
        for (case, message) in failing.iter().take(SUMMARY_FAILURES) {
            let cause = case.cause.map_or(String::new(), |c| (c + 1).to_string());
            let _ = writeln!(md, "| `{}` | {} | {cause} |", cell(&case.name), cell(message));
        }
        if failing.len() > SUMMARY_FAILURES {
            let _ = writeln!(
                md,
                "\nand {} more (the JUnit report has them all)",
                failing.len() - SUMMARY_FAILURES
            );
        }
    }
    let mut timed: Vec<_> = run.cases().map(|(_, c)| c).filter(|c| c.seconds > 0.0).collect();
    timed.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    if !timed.is_empty() {
        let _ = writeln!(md, "\n**Slowest counts**\n\n| count | seconds |\n|---|---:|");
        for case in timed.iter().take(SUMMARY_SLOWEST) {
            let _ = writeln!(md, "| `{}` | {:.3} |", cell(&case.name), case.seconds);
        }
    }
    md
}
