//! The bar charts of speeds: a comparison's engines per position, and the
//! runs of `perft run` per position and depth.

use crate::board::STARTPOS_FEN;
use crate::report::{speed_text, CompareReport, CompareResult, RunReport};

use super::bars::{bar_chart, Bar, BarChart, Group, Slot};
use super::style::ChartError;

/// An engine's bar on a position: its median speed, and the speeds of its
/// slowest and fastest samples.
fn compare_bar(result: &CompareResult) -> Option<Bar> {
    let median = result.nodes_per_second?;
    let nodes = result.nodes? as f64;
    let speed = |seconds: f64| if seconds > 0.0 { nodes / seconds } else { median };
    Some(Bar { value: median, low: speed(result.seconds.max), high: speed(result.seconds.min) })
}

/// The word on an engine's empty slot: `skipped` (it cannot count such a
/// position), `wrong count`, `not timed` (too fast to time), `failed`, or
/// `no result` where the report has none.
fn empty_word(result: Option<&CompareResult>) -> &'static str {
    match result {
        None => "no result",
        Some(r) if r.problem.as_deref().is_some_and(|p| p.starts_with("skipped")) => "skipped",
        Some(r) if r.nodes.is_some() && !r.agrees => "wrong count",
        Some(r) if r.problem.as_deref().is_some_and(|p| p.contains("too fast")) => "not timed",
        Some(_) => "failed",
    }
}

/// Bars of speed per position, one slot per engine, with the range of its
/// samples as an error bar and its median written on top, from a compare
/// report; on a log axis where the speeds differ ten times or more. An
/// engine without a speed there (skipped, wrong count, failed) has a
/// hatched slot that says which; an engine that counted with a hash table
/// is named so. No two written values overlap, nor touch an axis (see
/// [`super::bars`]).
///
/// # Errors
/// If plotters cannot draw (never expected for an SVG string).
pub fn compare_chart(report: &CompareReport) -> Result<String, ChartError> {
    let groups = report
        .positions
        .iter()
        .map(|position| {
            let slots = report
                .engines
                .iter()
                .enumerate()
                .map(|(e, engine)| {
                    let result =
                        report.results.iter().find(|r| r.engine == engine.name && r.position == position.id);
                    match result.and_then(compare_bar) {
                        Some(bar) => Slot::Bar(bar, bar_speed(bar.value), e),
                        None => Slot::Empty(empty_word(result), e),
                    }
                })
                .collect();
            Group { name: position.id.clone(), slots }
        })
        .collect();
    let threads = format!("{} thread{}", report.threads, if report.threads == 1 { "" } else { "s" });
    bar_chart(&BarChart {
        title: "Speed per position".into(),
        notes: vec![threads, "bars: median, lines: fastest and slowest round".into()],
        y_desc: "nodes per second".into(),
        groups,
        legend: report.engines.iter().map(|e| report.label(&e.name)).collect(),
    })
}

/// A run's position, short: `start` for the start position, else the FEN's
/// board.
pub fn run_position(run: &RunReport) -> String {
    if run.fen == STARTPOS_FEN {
        "start".into()
    } else {
        run.fen.split(' ').next().unwrap_or_default().to_string()
    }
}

/// A CPU's name without its trade marks and clock: `Intel Xeon` for
/// `Intel(R) Xeon(R) Processor`, `AMD EPYC 7B13` as it is.
fn cpu_name(cpu: &str) -> String {
    let cpu = cpu.split(" @ ").next().unwrap_or(cpu);
    let words: Vec<&str> = cpu
        .split_whitespace()
        .map(|w| w.trim_end_matches("(R)").trim_end_matches("(TM)").trim_end_matches("(tm)"))
        .filter(|w| !w.is_empty() && !matches!(*w, "Processor" | "CPU"))
        .collect();
    words.join(" ")
}

/// The legend entry a run is coloured by: its machine and threads (its
/// table is in the table).
fn run_setup(run: &RunReport) -> String {
    let threads = format!("{} thread{}", run.threads, if run.threads == 1 { "" } else { "s" });
    format!("{}, {threads}", cpu_name(&run.header.machine.cpu))
}

/// A speed written on a bar, in the unit that fits it, up to `Tnps`: the
/// table's units ([`speed_text`]) below 1 Gnps, `975.3 Gnps` above, as
/// counts with a table reach.
pub fn bar_speed(nodes_per_second: f64) -> String {
    match nodes_per_second {
        s if s >= 1e12 => format!("{:.1} Tnps", s / 1e12),
        s if s >= 1e9 => format!("{:.1} Gnps", s / 1e9),
        s => speed_text(s),
    }
}

/// Bars of speed of `perft run` reports: one group per position and depth
/// (in order of depth), one bar per run in order of time, coloured by
/// machine and threads, its speed written on top as in
/// [`compare_chart`].
///
/// # Errors
/// If plotters cannot draw.
pub fn run_chart(runs: &[RunReport]) -> Result<String, ChartError> {
    let mut runs: Vec<&RunReport> = runs.iter().collect();
    runs.sort_by(|a, b| (a.depth, &a.header.timestamp).cmp(&(b.depth, &b.header.timestamp)));
    let mut setups: Vec<String> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for run in runs {
        let setup = run_setup(run);
        let series = setups.iter().position(|s| *s == setup).unwrap_or_else(|| {
            setups.push(setup);
            setups.len() - 1
        });
        let speed = run.nodes_per_second;
        let slot = Slot::Bar(Bar { value: speed, low: speed, high: speed }, bar_speed(speed), series);
        let name = format!("{} depth {}", run_position(run), run.depth);
        match groups.iter_mut().find(|g| g.name == name) {
            Some(group) => group.slots.push(slot),
            None => groups.push(Group { name, slots: vec![slot] }),
        }
    }
    bar_chart(&BarChart {
        title: "Speed of each run".into(),
        notes: vec!["perft run; per position and depth, in order of time".into()],
        y_desc: "nodes per second".into(),
        groups,
        legend: setups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_on_bars_and_machines_in_the_legend_are_short() {
        assert_eq!(bar_speed(975_344_841_037.3), "975.3 Gnps");
        assert_eq!(bar_speed(1.5e12), "1.5 Tnps");
        assert_eq!(bar_speed(51.5e6), "51.5 Mnps");
        assert_eq!(cpu_name("Intel(R) Xeon(R) Processor"), "Intel Xeon");
        assert_eq!(cpu_name("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"), "Intel Core i7-8700");
        assert_eq!(cpu_name("AMD EPYC"), "AMD EPYC");
    }
}
