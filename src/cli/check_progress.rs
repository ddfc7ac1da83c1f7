//! How long a check will take, said before it starts (from what probing
//! timed), and its progress while it runs: a bar on a terminal, a line
//! every few seconds on stderr otherwise, each with the time left.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use perft::check::PlannedCheck;
use perft::engine::Costs;
use perft::report::CheckResult;
use perft::suite::{SuiteFile, SuiteOptions, SuitePlan};

use super::{estimate, output, resolve};

/// A check expected to take longer than this is told how to be shorter.
const LONG: f64 = 600.0;
/// An untimed check counting more nodes than this (minutes for most
/// engines) is told how to be smaller.
const BIG: u128 = 10_000_000_000;
/// The `--max-nodes` values a long check may be told of, largest first:
/// the largest that makes it short is suggested (else the smallest).
const SUGGESTED_MAX_NODES: [u128; 4] = [1_000_000, 100_000, 10_000, 1_000];
/// Progress lines on a stderr that is not a terminal, at least this far
/// apart, and a quarter of the time elapsed once that is longer (a long
/// run's log stays short).
const EVERY: Duration = Duration::from_secs(10);

/// The cost of one planned check in seconds, by the probe's timings (the
/// count at its file's value; a count the file does not give is taken as
/// small).
fn cost(costs: &Costs, nodes: Option<u128>) -> f64 {
    costs.estimate(1, nodes.unwrap_or(0)) - if costs.per_process { 0.0 } else { costs.start }
}

/// Says how long the plan will take, and when that is long what would make
/// it shorter (`--max-nodes`, `-j`).
pub fn print_estimate(
    out: &mut dyn Write,
    plan: &SuitePlan,
    costs: &Costs,
    files: &[SuiteFile],
    options: SuiteOptions,
    jobs: usize,
) -> Result<()> {
    if plan.checks() == 0 {
        return Ok(());
    }
    let seconds = estimate(plan.planned(), costs) / jobs as f64;
    let nodes: u128 = plan.planned().iter().filter_map(|c| c.expected).sum();
    let bound = if costs.at_least { "at least" } else { "about" };
    write!(
        out,
        "expected: {bound} {} for {} ({} nodes{})",
        estimate::human_duration(seconds),
        output::plural(plan.checks(), "count"),
        estimate::approximate(nodes),
        if jobs > 1 { format!(", {jobs} engine processes at once") } else { String::new() }
    )?;
    if seconds < LONG {
        writeln!(out)?;
        return Ok(());
    }
    let mut shorter = Vec::new();
    let mut smaller = None;
    for cap in SUGGESTED_MAX_NODES.into_iter().filter(|&cap| options.max_nodes.is_none_or(|m| cap < m)) {
        let plan = SuitePlan::new(files.to_vec(), SuiteOptions { max_nodes: Some(cap), ..options });
        let seconds = estimate(plan.planned(), costs) / jobs as f64;
        smaller = Some((cap, plan.checks(), seconds));
        if seconds < LONG {
            break;
        }
    }
    if let Some((cap, checks, seconds)) = smaller {
        shorter.push(format!(
            "--max-nodes {cap} ({}, {bound} {})",
            output::plural(checks, "count"),
            estimate::human_duration(seconds)
        ));
    }
    if jobs < resolve::cores() {
        shorter.push(format!("-j {} (engine processes at once)", resolve::cores().min(8)));
    }
    writeln!(out, "; shorter: {}", shorter.join(", or "))?;
    Ok(())
}

/// Nodes a plan's checks count in all, as their files give them.
fn planned_nodes(plan: &SuitePlan) -> u128 {
    plan.planned().iter().filter_map(|c| c.expected).sum()
}

/// Says how much the plan counts when the engine was not timed (`why`:
/// given with its kind, so not probed): the counts and nodes, and past [`BIG`] nodes
/// the `--max-nodes` that keeps it under that, since most engines count
/// only tens of millions of nodes a second.
pub fn print_size(
    out: &mut dyn Write,
    plan: &SuitePlan,
    files: &[SuiteFile],
    options: SuiteOptions,
    why: &str,
) -> Result<()> {
    if plan.checks() == 0 {
        return Ok(());
    }
    let nodes = planned_nodes(plan);
    write!(
        out,
        "expected: {} ({} nodes; {why})",
        output::plural(plan.checks(), "count"),
        estimate::approximate(nodes)
    )?;
    if nodes <= BIG {
        writeln!(out)?;
        return Ok(());
    }
    let capped = SUGGESTED_MAX_NODES
        .into_iter()
        .filter(|&cap| options.max_nodes.is_none_or(|m| cap < m))
        .find_map(|cap| {
            let plan = SuitePlan::new(files.to_vec(), SuiteOptions { max_nodes: Some(cap), ..options });
            (planned_nodes(&plan) <= BIG).then(|| (cap, plan.checks(), planned_nodes(&plan)))
        });
    match capped {
        Some((cap, checks, nodes)) => writeln!(
            out,
            "; smaller: --max-nodes {cap} ({}, {} nodes), or -j N for N engine processes at once",
            output::plural(checks, "count"),
            estimate::approximate(nodes)
        )?,
        None => writeln!(out, "; -j N runs N engine processes at once")?,
    }
    Ok(())
}

/// The seconds the planned checks take by the probe's timings, one engine
/// at a time.
fn estimate(planned: &[PlannedCheck], costs: &Costs) -> f64 {
    let start = if costs.per_process { 0.0 } else { costs.start };
    start + planned.iter().map(|c| cost(costs, c.expected)).sum::<f64>()
}

/// Progress lines for a stderr that is not a terminal (where the bar is
/// hidden): now and then (see [`EVERY`]), the checks done and the time
/// left.
pub struct ProgressLines {
    enabled: bool,
    began: Instant,
    total: usize,
    /// The planned checks' costs by the probe's timings, if any.
    costs: Option<Costs>,
    total_cost: f64,
    state: Mutex<LineState>,
}

#[derive(Default)]
struct LineState {
    done: usize,
    failed: usize,
    errors: usize,
    done_cost: f64,
    last: Option<Instant>,
}

impl ProgressLines {
    /// Lines for `planned`, shown when stderr is not a terminal.
    pub fn new(planned: &[PlannedCheck], costs: Option<Costs>) -> Self {
        let total_cost =
            costs.map_or(planned.len() as f64, |c| planned.iter().map(|p| cost(&c, p.expected)).sum());
        ProgressLines {
            enabled: !std::io::stderr().is_terminal(),
            began: Instant::now(),
            total: planned.len(),
            costs,
            total_cost,
            state: Mutex::new(LineState::default()),
        }
    }

    /// One check done: a line when the last was long enough ago.
    pub fn done(&self, result: &CheckResult) {
        if !self.enabled {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.done += 1;
        state.failed += usize::from(!result.ok && result.error.is_none());
        state.errors += usize::from(result.error.is_some());
        state.done_cost += self.costs.map_or(1.0, |c| cost(&c, Some(result.expected)));
        let now = Instant::now();
        let apart = EVERY.max(now.duration_since(self.began) / 4);
        if now.duration_since(*state.last.get_or_insert(self.began)) < apart {
            return;
        }
        state.last = Some(now);
        let elapsed = now.duration_since(self.began).as_secs_f64();
        let fraction = (state.done_cost / self.total_cost.max(f64::MIN_POSITIVE)).clamp(1e-9, 1.0);
        let left = elapsed * (1.0 - fraction) / fraction;
        eprintln!(
            "check: {}/{} counts, {} failed, {}, {} elapsed, about {} left",
            state.done,
            self.total,
            state.failed,
            output::plural(state.errors, "error"),
            estimate::human_duration(elapsed),
            estimate::human_duration(left)
        );
    }
}
