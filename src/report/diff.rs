//! Comparing two reports of the same kind: changed counts, and speed
//! changes judged against the noise of repeated runs.

use std::collections::BTreeSet;
use std::fmt;

use super::{
    t_quantile_975, AnyReport, BenchReport, CompareReport, CompareResult, MachineInfo, Spread, SuiteReport,
    SuiteResult, Timings,
};

/// How a speed changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Slower past the threshold and past the noise.
    Regression,
    /// Faster past the threshold and past the noise.
    Faster,
    /// Past the threshold, but not past the samples' noise.
    WithinNoise,
    /// Within the threshold.
    Unchanged,
}

impl Verdict {
    /// `REGRESSION`, `faster`, `within noise` or `~`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Regression => "REGRESSION",
            Verdict::Faster => "faster",
            Verdict::WithinNoise => "within noise",
            Verdict::Unchanged => "~",
        }
    }
}

/// A speed change, judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedChange {
    /// Percent change of the median speed (positive: faster).
    pub percent: f64,
    /// What it amounts to.
    pub verdict: Verdict,
}

/// Times to judge (seconds per unit of work): their statistics and every
/// sample, when the report kept them.
#[derive(Clone, Copy, Debug)]
pub struct Measured<'a> {
    /// Minimum, median and maximum.
    pub seconds: &'a Timings,
    /// The samples (may be empty).
    pub samples: &'a [f64],
}

impl<'a> Measured<'a> {
    /// `seconds` with its `samples`.
    pub fn new(seconds: &'a Timings, samples: &'a [f64]) -> Self {
        Measured { seconds, samples }
    }
}

/// How the samples of a new time compare with an old one's, against their
/// noise: Welch's t-test, two-sided at 95%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleShift {
    /// Either has fewer than two samples: no noise to judge by.
    TooFewSamples,
    /// The means differ by no more than the noise.
    WithinNoise,
    /// The new mean is longer, past the noise.
    Slower,
    /// The new mean is shorter, past the noise.
    Faster,
}

/// Compares `new` samples (seconds) with `old` ones; see [`SampleShift`].
pub fn sample_shift(old: &[f64], new: &[f64]) -> SampleShift {
    if old.len() < 2 || new.len() < 2 {
        return SampleShift::TooFewSamples;
    }
    let (a, b) = (Spread::of(old), Spread::of(new));
    let (n_a, n_b) = (old.len() as f64, new.len() as f64);
    let (v_a, v_b) = (a.stddev.powi(2) / n_a, b.stddev.powi(2) / n_b);
    let standard_error = (v_a + v_b).sqrt();
    let beyond = if standard_error == 0.0 {
        a.mean != b.mean
    } else {
        let df = (v_a + v_b).powi(2) / (v_a.powi(2) / (n_a - 1.0) + v_b.powi(2) / (n_b - 1.0));
        (a.mean - b.mean).abs() / standard_error > t_quantile_975(df)
    };
    match (beyond, b.mean > a.mean) {
        (false, _) => SampleShift::WithinNoise,
        (true, true) => SampleShift::Slower,
        (true, false) => SampleShift::Faster,
    }
}

/// Judges the change from `old` to `new` times: flagged only past
/// `threshold` percent (of the median speed) and past the noise: when both
/// have several samples, their means must have moved the same way past it
/// (see [`sample_shift`]); otherwise the min-max ranges must not overlap.
pub fn judge(old: Measured, new: Measured, threshold: f64) -> SpeedChange {
    let (o, n) = (old.seconds, new.seconds);
    let percent = if n.median > 0.0 { (o.median / n.median - 1.0) * 100.0 } else { 0.0 };
    let slower = percent <= -threshold && percent < 0.0;
    let faster = percent >= threshold && percent > 0.0;
    if !slower && !faster {
        return SpeedChange { percent, verdict: Verdict::Unchanged };
    }
    let beyond_noise = match sample_shift(old.samples, new.samples) {
        SampleShift::TooFewSamples if slower => n.min > o.max,
        SampleShift::TooFewSamples => n.max < o.min,
        SampleShift::Slower => slower,
        SampleShift::Faster => faster,
        SampleShift::WithinNoise => false,
    };
    let verdict = match (beyond_noise, slower) {
        (false, _) => Verdict::WithinNoise,
        (true, true) => Verdict::Regression,
        (true, false) => Verdict::Faster,
    };
    SpeedChange { percent, verdict }
}

/// One compared row: a position (and, for compare reports, an engine).
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    /// The position's name, `engine: position` for compare reports, or
    /// `total`.
    pub label: String,
    /// Plies counted, if one depth.
    pub depth: Option<u32>,
    /// Old and new speed, nodes per second.
    pub old_speed: f64,
    /// New speed.
    pub new_speed: f64,
    /// The judged change.
    pub change: SpeedChange,
}

/// A count that differs between the two reports (or that was right in the
/// old one and is wrong or missing in the new one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountChange {
    /// What was counted: `kiwipete depth 4`, `tests.epd:3 depth 3`,
    /// `mine on start`.
    pub label: String,
    /// The old count (none: the engine gave none).
    pub old: Option<u128>,
    /// The new count.
    pub new: Option<u128>,
    /// The count the suite, bench set or comparison expects, where the
    /// reports say.
    pub expected: Option<u128>,
    /// Why the new report has no count or a wrong one, as the engine's
    /// problem says (its first line).
    pub why: Option<String>,
}

impl CountChange {
    /// Whether the new count is the expected one, the old was not, and the
    /// new report names no problem with it: the change fixed the count.
    pub fn is_fix(&self) -> bool {
        self.expected.is_some()
            && self.new == self.expected
            && self.old != self.expected
            && self.why.is_none()
    }
}

/// `kiwipete depth 4: 4085603 -> 4085604 (expected 4085603)`, or for a
/// fix `... -> 43238 (now the expected 43238)`.
impl fmt::Display for CountChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |nodes: Option<u128>| nodes.map_or("no count".to_string(), |n| n.to_string());
        write!(f, "{}: {} -> {}", self.label, show(self.old), show(self.new))?;
        if let Some(why) = &self.why {
            write!(f, " ({why})")?;
        }
        match self.expected {
            Some(expected) if self.is_fix() => write!(f, " (now the expected {expected})"),
            Some(expected) => write!(f, " (expected {expected})"),
            None => Ok(()),
        }
    }
}

/// What a diff found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiffOutcome {
    /// Speed rows, in the old report's order.
    pub rows: Vec<DiffRow>,
    /// Counts that changed, fixed ones among them.
    pub changed_counts: Vec<CountChange>,
    /// What is in one report only, and similar remarks.
    pub notes: Vec<String>,
    /// Differences that make the speeds incomparable, compared anyway
    /// because forced.
    pub warnings: Vec<Incomparable>,
}

impl DiffOutcome {
    /// Rows flagged as regressions.
    pub fn regressions(&self) -> usize {
        self.rows.iter().filter(|r| r.change.verdict == Verdict::Regression).count()
    }

    /// Changed counts that are now the expected ones.
    pub fn fixed_counts(&self) -> usize {
        self.changed_counts.iter().filter(|c| c.is_fix()).count()
    }

    /// Whether the new report is worse: a count changed other than to its
    /// expected value, or a speed regressed.
    pub fn is_worse(&self) -> bool {
        self.fixed_counts() < self.changed_counts.len() || self.regressions() > 0
    }
}

/// Why two reports cannot be compared (unless forced).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the reports differ in {what} ({old} vs {new}); {consequence}")]
pub struct Incomparable {
    /// What differs.
    pub what: String,
    /// The old value.
    pub old: String,
    /// The new value.
    pub new: String,
    /// Why that matters.
    pub consequence: &'static str,
}

const SPEEDS: &str = "their speeds are not comparable (--force compares anyway)";

fn incomparable(
    what: &str,
    old: impl ToString,
    new: impl ToString,
    consequence: &'static str,
) -> Incomparable {
    Incomparable { what: what.into(), old: old.to_string(), new: new.to_string(), consequence }
}

/// What must match for two reports' speeds to be compared.
#[derive(Clone, Copy, Debug)]
pub struct SpeedSettings<'a> {
    /// The machine measured on.
    pub machine: &'a MachineInfo,
    /// `bulk`, `full`, or `compare` for engine races.
    pub mode: &'static str,
    /// Threads used.
    pub threads: usize,
}

/// Whether speeds measured under `old` and `new` compare: same machine,
/// CPU kernel, mode and threads.
///
/// # Errors
/// [`Incomparable`] naming the first difference.
pub fn check_settings(old: SpeedSettings, new: SpeedSettings) -> Result<(), Incomparable> {
    if !old.machine.comparable(new.machine) {
        return Err(incomparable(
            "machine",
            format!("{}, {} cores", old.machine.cpu, old.machine.cores),
            format!("{}, {} cores", new.machine.cpu, new.machine.cores),
            SPEEDS,
        ));
    }
    // Reports from before kernels were chosen at run time do not say.
    let (old_kernel, new_kernel) = (old.machine.kernel_name(), new.machine.kernel_name());
    if old_kernel != new_kernel {
        return Err(incomparable("CPU kernel", old_kernel, new_kernel, SPEEDS));
    }
    if old.mode != new.mode {
        return Err(incomparable("mode", old.mode, new.mode, SPEEDS));
    }
    if old.threads != new.threads {
        return Err(incomparable("threads", old.threads, new.threads, SPEEDS));
    }
    Ok(())
}

/// Which of the two reports of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first, older report.
    Old,
    /// The second, newer report.
    New,
}

/// Why two reports were not diffed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DiffError {
    /// A kind `diff` does not compare (run, check).
    #[error("a {kind:?} report; diff compares bench, suite or compare reports")]
    Unsupported {
        /// Which report.
        side: Side,
        /// Its kind.
        kind: &'static str,
    },
    /// Reports of two kinds.
    #[error("one report is a {old} report and the other a {new} report")]
    KindsDiffer {
        /// The old report's kind.
        old: &'static str,
        /// The new report's kind.
        new: &'static str,
    },
    /// Not comparable, and not forced.
    #[error(transparent)]
    Incomparable(#[from] Incomparable),
}

/// What must match for `report`'s speeds to compare with another's.
fn speed_settings(report: &AnyReport) -> Result<SpeedSettings<'_>, &'static str> {
    let (header, mode, threads) = match report {
        AnyReport::Bench(r) => (&r.header, r.mode.name(), r.threads),
        AnyReport::Suite(r) => (&r.header, r.mode.name(), r.threads),
        AnyReport::Compare(r) => (&r.header, "compare", r.threads),
        other => return Err(other.kind()),
    };
    Ok(SpeedSettings { machine: &header.machine, mode, threads })
}

/// Two reports of one kind (bench, suite or compare): their count changes
/// and speed changes. Differences that make the speeds incomparable (machine,
/// mode, threads, bench set, suite checks) refuse the diff unless `force`.
///
/// # Errors
/// [`DiffError`]: a kind diff does not compare, two kinds, or reports that
/// are not comparable and not forced.
pub fn diff_reports(
    old: &AnyReport,
    new: &AnyReport,
    threshold: f64,
    force: bool,
) -> Result<DiffOutcome, DiffError> {
    let old_settings =
        speed_settings(old).map_err(|kind| DiffError::Unsupported { side: Side::Old, kind })?;
    let new_settings =
        speed_settings(new).map_err(|kind| DiffError::Unsupported { side: Side::New, kind })?;
    let settings = check_settings(old_settings, new_settings);
    let mut outcome = match (old, new) {
        (AnyReport::Bench(old), AnyReport::Bench(new)) => diff_bench(old, new, threshold, force)?,
        (AnyReport::Suite(old), AnyReport::Suite(new)) => diff_suite(old, new, threshold, force)?,
        (AnyReport::Compare(old), AnyReport::Compare(new)) => diff_compare(old, new, threshold),
        _ => return Err(DiffError::KindsDiffer { old: old.kind(), new: new.kind() }),
    };
    match settings {
        Err(problem) if !force => return Err(problem.into()),
        Err(problem) => outcome.warnings.push(problem),
        Ok(()) => {}
    }
    Ok(outcome)
}

/// Two bench reports, position by position and in total.
///
/// # Errors
/// [`Incomparable`] for different bench-set versions (unless `force`).
pub fn diff_bench(
    old: &BenchReport,
    new: &BenchReport,
    threshold: f64,
    force: bool,
) -> Result<DiffOutcome, Incomparable> {
    let mut outcome = DiffOutcome::default();
    if old.bench_set_version != new.bench_set_version {
        if !force {
            return Err(incomparable(
                "bench set version",
                &old.bench_set_version,
                &new.bench_set_version,
                SPEEDS,
            ));
        }
        outcome.notes.push(format!(
            "the bench set versions differ ({} vs {}); compared anyway (--force)",
            old.bench_set_version, new.bench_set_version
        ));
    }
    for o in &old.positions {
        let Some(n) = new.positions.iter().find(|n| n.fen == o.fen && n.depth == o.depth) else {
            outcome.notes.push(format!("{} (depth {}) is only in the old report", o.id, o.depth));
            continue;
        };
        if o.nodes != n.nodes {
            outcome.changed_counts.push(CountChange {
                label: format!("{} depth {}", o.id, o.depth),
                old: Some(o.nodes),
                new: Some(n.nodes),
                expected: Some(n.expected),
                why: None,
            });
        }
        outcome.rows.push(DiffRow {
            label: o.id.clone(),
            depth: Some(o.depth),
            old_speed: o.nodes_per_second,
            new_speed: n.nodes_per_second,
            change: judge(
                Measured::new(&o.seconds, &o.samples),
                Measured::new(&n.seconds, &n.samples),
                threshold,
            ),
        });
    }
    for n in
        new.positions.iter().filter(|n| !old.positions.iter().any(|o| o.fen == n.fen && o.depth == n.depth))
    {
        outcome.notes.push(format!("{} (depth {}) is only in the new report", n.id, n.depth));
    }
    outcome.rows.push(DiffRow {
        label: "total".into(),
        depth: None,
        old_speed: old.total.nodes_per_second,
        new_speed: new.total.nodes_per_second,
        change: judge(
            Measured::new(&old.total.seconds, &old.total.samples),
            Measured::new(&new.total.seconds, &new.total.samples),
            threshold,
        ),
    });
    Ok(outcome)
}

/// A suite file's name for matching checks across reports: the bundled
/// default suite was named `positions/default.epd` in older reports.
fn suite_name(file: &str) -> &str {
    if file == "positions/default.epd" {
        "default.epd"
    } else {
        file
    }
}

/// Two suite reports: every check's count, and the overall speed, only
/// when both ran the same checks (files, lines, depths).
///
/// # Errors
/// [`Incomparable`] when the checks differ (unless `force`: then only the
/// checks in both are compared).
pub fn diff_suite(
    old: &SuiteReport,
    new: &SuiteReport,
    threshold: f64,
    force: bool,
) -> Result<DiffOutcome, Incomparable> {
    let checks = |r: &SuiteReport| -> BTreeSet<(String, usize, u32)> {
        r.results.iter().map(|c| (suite_name(&c.file).to_string(), c.line, c.depth)).collect()
    };
    let (old_checks, new_checks) = (checks(old), checks(new));
    let mut outcome = DiffOutcome::default();
    if old_checks != new_checks {
        let common = old_checks.intersection(&new_checks).count();
        if !force {
            return Err(incomparable(
                "the checks they ran",
                format!("{} checks", old_checks.len()),
                format!("{} checks, {common} of them in both", new_checks.len()),
                "suites of different work are not comparable (--force compares the checks in both)",
            ));
        }
        outcome.notes.push(format!("only the {common} checks in both reports are compared (--force)"));
    }
    for o in &old.results {
        let same = |n: &&SuiteResult| {
            suite_name(&n.file) == suite_name(&o.file) && n.line == o.line && n.depth == o.depth
        };
        if let Some(n) = new.results.iter().find(same) {
            if n.nodes != o.nodes {
                outcome.changed_counts.push(CountChange {
                    label: format!("{}:{} depth {}", o.file, o.line, o.depth),
                    old: Some(o.nodes),
                    new: Some(n.nodes),
                    expected: Some(n.expected),
                    why: None,
                });
            }
        }
    }
    let point = |s: &SuiteReport| {
        let seconds = if s.summary.nodes_per_second > 0.0 { 1.0 / s.summary.nodes_per_second } else { 0.0 };
        Timings { min: seconds, median: seconds, max: seconds }
    };
    outcome.rows.push(DiffRow {
        label: "total".into(),
        depth: None,
        old_speed: old.summary.nodes_per_second,
        new_speed: new.summary.nodes_per_second,
        change: judge(Measured::new(&point(old), &[]), Measured::new(&point(new), &[]), threshold),
    });
    Ok(outcome)
}

/// Two compare reports, engine by engine and position by position: "is my
/// engine slower after this change?". Counts that changed (or that were
/// right and are now wrong or missing) are flagged; speeds are judged with
/// the same noise rule as bench reports.
pub fn diff_compare(old: &CompareReport, new: &CompareReport, threshold: f64) -> DiffOutcome {
    let mut outcome = DiffOutcome::default();
    // The same position: the same name, FEN and depth in both reports.
    let same_position = |id: &str| {
        let a = old.positions.iter().find(|p| p.id == id);
        let b = new.positions.iter().find(|p| p.id == id);
        matches!((a, b), (Some(a), Some(b)) if a.fen == b.fen && a.depth == b.depth)
    };
    let matching = |a: &CompareResult, b: &CompareResult| {
        a.engine == b.engine && a.position == b.position && same_position(&a.position)
    };
    for o in &old.results {
        let Some(n) = new.results.iter().find(|n| matching(o, n)) else {
            outcome.notes.push(format!("{} on {} is only in the old report", o.engine, o.position));
            continue;
        };
        if o.nodes != n.nodes || (o.agrees && !n.agrees) {
            outcome.changed_counts.push(CountChange {
                label: format!("{} on {}", o.engine, o.position),
                old: o.nodes,
                new: n.nodes,
                // A right count with a problem (`why`) is no fix.
                expected: new.positions.iter().find(|p| p.id == n.position).map(|p| p.expected),
                why: n.problem.as_deref().map(|p| p.lines().next().unwrap_or("").to_string()),
            });
        }
        match (o.nodes_per_second, n.nodes_per_second) {
            (Some(old_speed), Some(new_speed)) => outcome.rows.push(DiffRow {
                label: format!("{}: {}", o.engine, o.position),
                depth: old.positions.iter().find(|p| p.id == o.position).map(|p| p.depth),
                old_speed,
                new_speed,
                change: judge(
                    Measured::new(&o.seconds, &o.samples),
                    Measured::new(&n.seconds, &n.samples),
                    threshold,
                ),
            }),
            _ => outcome.notes.push(format!(
                "{} on {}: no speed to compare ({})",
                o.engine,
                o.position,
                n.problem.as_deref().or(o.problem.as_deref()).unwrap_or("not timed")
            )),
        }
    }
    for n in new.results.iter().filter(|n| !old.results.iter().any(|o| matching(o, n))) {
        outcome.notes.push(format!("{} on {} is only in the new report", n.engine, n.position));
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(min: f64, median: f64, max: f64) -> Timings {
        Timings { min, median, max }
    }

    fn judged(old: Timings, new: Timings) -> Verdict {
        judge(Measured::new(&old, &[]), Measured::new(&new, &[]), 5.0).verdict
    }

    #[test]
    fn without_samples_the_ranges_must_be_apart() {
        let old = stats(1.0, 1.0, 1.1);
        assert_eq!(judged(old, stats(1.2, 1.2, 1.3)), Verdict::Regression);
        assert_eq!(judged(old, stats(0.5, 1.2, 1.3)), Verdict::WithinNoise, "ranges overlap");
        assert_eq!(judged(old, stats(1.11, 1.03, 1.2)), Verdict::Unchanged, "under the threshold");
        assert_eq!(judged(old, stats(0.8, 0.8, 0.9)), Verdict::Faster);
        let half = judge(Measured::new(&old, &[]), Measured::new(&stats(2.0, 2.0, 2.0), &[]), 5.0);
        assert!((half.percent + 50.0).abs() < 1e-9);
    }

    /// Samples around `mean` with a relative standard deviation of about
    /// `spread` (five samples: mean -1.26, -0.63, 0, +0.63, +1.26 spreads).
    fn samples(mean: f64, spread: f64) -> (Timings, Vec<f64>) {
        let samples: Vec<f64> =
            [-1.26, 0.63, 0.0, -0.63, 1.26].iter().map(|k| mean * (1.0 + k * spread)).collect();
        (crate::bench::stats(&samples), samples)
    }

    /// The acceptance test of the noise rule: 5% slower with 1% spread is
    /// a regression; with 10% spread it is noise.
    #[test]
    fn a_change_is_judged_against_the_samples_noise() {
        let threshold = 2.0;
        let verdict = |old: &(Timings, Vec<f64>), new: &(Timings, Vec<f64>)| {
            judge(Measured::new(&old.0, &old.1), Measured::new(&new.0, &new.1), threshold).verdict
        };
        let (old, slower) = (samples(1.0, 0.01), samples(1.05, 0.01));
        assert!((Spread::of(&old.1).percent - 1.0).abs() < 0.05, "{:?}", Spread::of(&old.1));
        assert_eq!(verdict(&old, &slower), Verdict::Regression);
        assert_eq!(verdict(&slower, &old), Verdict::Faster);
        let (old, slower) = (samples(1.0, 0.10), samples(1.05, 0.10));
        assert_eq!(verdict(&old, &slower), Verdict::WithinNoise);
        assert_eq!(verdict(&slower, &old), Verdict::WithinNoise);
        // Under the threshold nothing is flagged, however steady.
        assert_eq!(verdict(&samples(1.0, 0.001), &samples(1.01, 0.001)), Verdict::Unchanged);
        // Identical samples do not differ; samples with no spread differ
        // by any amount past the threshold.
        assert_eq!(sample_shift(&[1.0, 1.0], &[1.0, 1.0]), SampleShift::WithinNoise);
        assert_eq!(sample_shift(&[1.0, 1.0], &[1.1, 1.1]), SampleShift::Slower);
        assert_eq!(sample_shift(&[1.1, 1.1], &[1.0, 1.0]), SampleShift::Faster);
        assert_eq!(sample_shift(&[1.0], &[1.1, 1.1]), SampleShift::TooFewSamples);
    }

    fn compare_report(results: Vec<CompareResult>) -> CompareReport {
        let position = |id: &str| super::super::ComparePosition {
            id: id.to_string(),
            fen: crate::board::STARTPOS_FEN.to_string(),
            depth: 3,
            expected: 8902,
        };
        CompareReport {
            header: Default::default(),
            threads: 1,
            rounds: 1,
            timeout_seconds: 10.0,
            method: String::new(),
            positions: vec![position("start")],
            engines: Vec::new(),
            results,
            summary: Vec::new(),
            interrupted: false,
        }
    }

    fn result(nodes: Option<u128>, agrees: bool) -> CompareResult {
        CompareResult {
            engine: "mine".to_string(),
            position: "start".to_string(),
            nodes,
            agrees,
            samples: vec![1.0],
            seconds: stats(1.0, 1.0, 1.0),
            nodes_per_second: nodes.filter(|_| agrees).map(|n| n as f64),
            ratio_to_ours: None,
            ratio_to_other: None,
            problem: (!agrees).then(|| "engine crashed\nstderr".to_string()),
        }
    }

    #[test]
    fn a_count_that_vanishes_or_goes_wrong_is_flagged() {
        let good = compare_report(vec![result(Some(8902), true)]);
        let vanished = compare_report(vec![result(None, false)]);
        let outcome = diff_compare(&good, &vanished, 5.0);
        assert_eq!(outcome.changed_counts.len(), 1, "{outcome:?}");
        assert!(
            outcome.changed_counts[0].to_string().contains("8902 -> no count (engine crashed)"),
            "{outcome:?}"
        );
        let wrong = compare_report(vec![result(Some(8903), false)]);
        assert_eq!(diff_compare(&good, &wrong, 5.0).changed_counts.len(), 1);
        assert!(diff_compare(&good, &good, 5.0).changed_counts.is_empty());
        // A position with the same name but another FEN is not matched.
        let mut moved = good.clone();
        moved.positions[0].fen = "8/8/8/4k3/8/8/8/4K3 w - - 0 1".to_string();
        let outcome = diff_compare(&good, &moved, 5.0);
        assert!(outcome.changed_counts.is_empty());
        assert_eq!(outcome.notes.len(), 2, "{outcome:?}");
    }

    #[test]
    fn a_count_that_becomes_the_expected_one_is_a_fix() {
        let wrong = compare_report(vec![result(Some(8903), false)]);
        let right = compare_report(vec![result(Some(8902), true)]);
        let fixed = diff_compare(&wrong, &right, 5.0);
        assert_eq!(fixed.changed_counts.len(), 1, "{fixed:?}");
        assert!(fixed.changed_counts[0].is_fix());
        assert_eq!(
            fixed.changed_counts[0].to_string(),
            "mine on start: 8903 -> 8902 (now the expected 8902)"
        );
        assert_eq!(fixed.fixed_counts(), 1);
        assert!(!fixed.is_worse(), "{fixed:?}");
        // The other way round it leaves the expected count: worse.
        let broken = diff_compare(&right, &wrong, 5.0);
        assert!(!broken.changed_counts[0].is_fix());
        assert!(broken.is_worse(), "{broken:?}");
        assert!(broken.changed_counts[0]
            .to_string()
            .ends_with("8902 -> 8903 (engine crashed) (expected 8902)"));
        // Where no expected count is known, any change is worse.
        let mut unknown = fixed.changed_counts[0].clone();
        unknown.expected = None;
        assert!(!unknown.is_fix());
        assert_eq!(unknown.to_string(), "mine on start: 8903 -> 8902");
    }

    #[test]
    fn reports_of_other_kinds_or_settings_are_refused_unless_forced() {
        let good = compare_report(vec![result(Some(8902), true)]);
        let mut other_threads = good.clone();
        other_threads.threads = 2;
        let (old, new) = (AnyReport::Compare(good.clone()), AnyReport::Compare(other_threads));
        let refused = diff_reports(&old, &new, 5.0, false).unwrap_err();
        assert!(matches!(&refused, DiffError::Incomparable(i) if i.what == "threads"), "{refused:?}");
        let forced = diff_reports(&old, &new, 5.0, true).unwrap();
        assert_eq!(forced.warnings.len(), 1);
        assert!(diff_reports(&old, &old, 5.0, false).unwrap().warnings.is_empty());
        let run = AnyReport::Run(super::super::tests::sample_run());
        assert_eq!(
            diff_reports(&old, &run, 5.0, true),
            Err(DiffError::Unsupported { side: Side::New, kind: "run" })
        );
        let bench = AnyReport::Bench(BenchReport {
            header: good.header.clone(),
            bench_set: String::new(),
            bench_set_version: String::new(),
            threads: 1,
            mode: crate::counting::Mode::Bulk,
            repeat: 1,
            sample_time: 0.5,
            warmup: String::new(),
            positions: Vec::new(),
            total: Default::default(),
            interrupted: false,
        });
        assert_eq!(
            diff_reports(&old, &bench, 5.0, true),
            Err(DiffError::KindsDiffer { old: "compare", new: "bench" })
        );
    }
}
