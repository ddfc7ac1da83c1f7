//! Comparing engines: the same positions on every engine, interleaved
//! round by round, timed from outside, counts cross-checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::bench::{stats, BenchPosition};
use crate::engine::{measure_startup, Engine, EngineError, EnginePosition, HowRun, Startup};
use crate::report::{CompareEngine, CompareResult, EngineSummary, OtherRatio};
/// Counts faster than this (after subtracting start-up) are not timed.
const MIN_TIMED_SECONDS: f64 = 1e-3;

/// An engine taking part, with the spec it was built from.
pub struct Entrant {
    /// The engine.
    pub engine: Box<dyn Engine>,
    /// How it is run, for the report.
    pub spec: String,
    /// How it counts, as far as known ([`HowRun::text`] is said of it).
    pub how: HowRun,
    /// It counts with a hash table where the others may have none: its
    /// speed is marked as not like for like.
    pub hashed: bool,
    /// Each count starts the program (a command line): its start-up is
    /// paid at every count.
    pub per_process: bool,
}

/// How one timed run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutcome {
    /// Counted: seconds with the count overhead subtracted.
    Timed(f64),
    /// Not asked: the engine cannot count the position (a Chess960 position
    /// for an engine without Chess960). A note, not an error.
    Skipped(String),
    /// It failed: the position and the error.
    Failed(String),
}

/// What happened, for progress display.
pub enum CompareEvent<'a> {
    /// A timed run starts.
    Starting {
        /// Round, from 0.
        round: usize,
        /// The engine.
        engine: &'a str,
        /// The position's name.
        position: &'a str,
        /// Plies.
        depth: u32,
    },
    /// An engine's start-up was measured ([`measure_startup`]), or it
    /// failed to start.
    Startup {
        /// The engine.
        engine: &'a str,
        /// Its start-up, or the error.
        result: Result<Startup, String>,
    },
    /// One timed run ended.
    Run {
        /// Round, from 0.
        round: usize,
        /// The engine.
        engine: &'a str,
        /// The position's name.
        position: &'a str,
        /// How it ended.
        result: RunOutcome,
    },
}

/// Runs the comparison. The first entrant is "ours": ratios are relative to
/// it. Every engine's start-up is measured first, as everywhere
/// ([`measure_startup`]), and the time of its depth-1 count
/// ([`Startup::per_count`]) subtracted from its timings. In round `r` the engines run
/// each position in an order rotated by `r`, so slow drift of a noisy
/// machine falls on all of them alike. An engine that cannot count the
/// start position to depth 1 takes no further part; a position an engine
/// cannot count ([`EngineError::Unsupported`], a Chess960 position for an
/// engine without Chess960) is skipped for that engine, with a note and no
/// error; any other failure is recorded for that run and the comparison
/// goes on. Once `stop` is raised no further run starts, and what was
/// measured is returned.
pub fn run_compare(
    entrants: &mut [Entrant],
    positions: &[BenchPosition],
    rounds: usize,
    timeout: Duration,
    stop: Option<&AtomicBool>,
    progress: &dyn Fn(CompareEvent),
) -> (Vec<CompareEngine>, Vec<CompareResult>) {
    let mut racers: Vec<Racer> = entrants
        .iter_mut()
        .map(|entrant| {
            let report = start_up(entrant, timeout, progress);
            // Only start-up errors so far: those that have none race.
            Racer {
                started: report.errors.is_empty(),
                cells: vec![Cell::default(); positions.len()],
                report,
                entrant,
            }
        })
        .collect();
    race(&mut racers, positions, &RaceRules { rounds, timeout, stop }, progress);
    let results = judge(&racers, positions);
    (racers.into_iter().map(|racer| racer.report).collect(), results)
}

/// One engine through a comparison.
struct Racer<'a> {
    entrant: &'a mut Entrant,
    /// What the report says of it; errors are added as they happen.
    report: CompareEngine,
    /// It counted the start position at start-up.
    started: bool,
    /// What it did on each position.
    cells: Vec<Cell>,
}

/// How the rounds are run.
struct RaceRules<'a> {
    rounds: usize,
    timeout: Duration,
    stop: Option<&'a AtomicBool>,
}

/// What one engine did on one position over the rounds.
#[derive(Clone, Default)]
struct Cell {
    /// Seconds per run, start-up subtracted.
    samples: Vec<f64>,
    /// The count of each run.
    counts: Vec<u128>,
    /// The last error, or why the position was skipped.
    problem: Option<String>,
    /// The engine cannot count this position: not asked again.
    unsupported: bool,
}

/// The engine's start-up ([`measure_startup`]), or why it failed to
/// start.
fn start_up(entrant: &mut Entrant, timeout: Duration, progress: &dyn Fn(CompareEvent)) -> CompareEngine {
    let measured = measure_startup(entrant.engine.as_mut(), entrant.per_process, timeout);
    let name = entrant.engine.name().to_string();
    progress(CompareEvent::Startup { engine: &name, result: measured.clone().map_err(|e| e.to_string()) });
    let startup = measured.as_ref().ok();
    CompareEngine {
        name,
        spec: entrant.spec.clone(),
        run_as: entrant.how.text(),
        how: Some(entrant.how.clone()),
        hashed: entrant.hashed,
        startup_seconds: startup.map_or(0.0, |s| s.seconds),
        count_overhead_seconds: Some(startup.map_or(0.0, |s| s.per_count)),
        errors: measured.err().map(|e| format!("failed to start: {e}")).into_iter().collect(),
    }
}

/// The rounds: every engine that started on every position, in an order
/// rotated each round.
fn race(
    racers: &mut [Racer],
    positions: &[BenchPosition],
    rules: &RaceRules,
    progress: &dyn Fn(CompareEvent),
) {
    let stopped = || rules.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let n = racers.len();
    for round in 0..rules.rounds.max(1) {
        for (p, position) in positions.iter().enumerate() {
            let engine_position = EnginePosition::new(position.fen.clone(), position.board.is_chess960());
            for k in 0..n {
                let racer = &mut racers[(k + round) % n];
                if !racer.started || racer.cells[p].unsupported || stopped() {
                    continue;
                }
                let (engine, depth) = (&racer.report.name, position.depth);
                progress(CompareEvent::Starting { round, engine, position: &position.id, depth });
                let cell = &mut racer.cells[p];
                let result = racer.entrant.engine.perft(&engine_position, position.depth, rules.timeout);
                let event = match result {
                    Ok(run) => {
                        let seconds = (run.seconds - racer.report.overhead()).max(1e-6);
                        cell.samples.push(seconds);
                        cell.counts.push(run.nodes);
                        RunOutcome::Timed(seconds)
                    }
                    Err(EngineError::Unsupported(what)) => {
                        cell.unsupported = true;
                        cell.problem = Some(format!("skipped: it cannot count {what}"));
                        RunOutcome::Skipped(format!("it cannot count {what}"))
                    }
                    Err(error) => {
                        let message = format!("{}: {error}", position.id);
                        racer.report.errors.push(message.clone());
                        cell.problem = Some(error.to_string());
                        RunOutcome::Failed(message)
                    }
                };
                let engine = &racer.report.name;
                progress(CompareEvent::Run { round, engine, position: &position.id, result: event });
            }
        }
    }
}

/// One result per engine and position: timed where the counts agree and
/// the run is long enough to time, else why not; speeds relative to ours
/// (the first engine), or where ours was not timed, to the first engine
/// that was ([`with_other_ratios`]).
fn judge(racers: &[Racer], positions: &[BenchPosition]) -> Vec<CompareResult> {
    let mut results = judge_each(racers, positions);
    with_other_ratios(&mut results);
    results
}

/// Where ours has no speed on a position (too fast to time, say), each
/// engine's speed there divided by that of the first engine timed there,
/// so the others can still be compared with each other.
fn with_other_ratios(results: &mut [CompareResult]) {
    let positions: Vec<String> = results.iter().map(|r| r.position.clone()).collect();
    for position in positions.iter() {
        let here = |r: &CompareResult| &r.position == position;
        if results.iter().filter(|r| here(r)).any(|r| r.ratio_to_ours.is_some()) {
            continue;
        }
        let Some((reference, speed)) =
            results.iter().filter(|r| here(r)).find_map(|r| Some((r.engine.clone(), r.nodes_per_second?)))
        else {
            continue;
        };
        for r in results.iter_mut().filter(|r| &r.position == position) {
            r.ratio_to_other = r
                .nodes_per_second
                .map(|theirs| OtherRatio { engine: reference.clone(), ratio: theirs / speed });
        }
    }
}

/// [`judge`] without the ratios to other engines.
fn judge_each(racers: &[Racer], positions: &[BenchPosition]) -> Vec<CompareResult> {
    let mut results = Vec::new();
    let mut our_speed = vec![None; positions.len()];
    for (e, racer) in racers.iter().enumerate() {
        let engine = &racer.report;
        for (p, position) in positions.iter().enumerate() {
            let cell = &racer.cells[p];
            let seen = &cell.counts;
            let agrees = !seen.is_empty() && seen.iter().all(|&c| c == position.expected);
            let seconds = stats(&cell.samples);
            // A count that takes less than the engine's own count overhead
            // (or a millisecond) cannot be timed against it.
            let too_short = !cell.samples.is_empty()
                && (seconds.median < engine.overhead() || seconds.median < MIN_TIMED_SECONDS);
            let speed = (agrees && !too_short && seconds.median > 0.0)
                .then(|| position.expected as f64 / seconds.median);
            if e == 0 {
                our_speed[p] = speed;
            }
            let problem = if !racer.started {
                Some("failed to start".to_string())
            } else if seen.iter().any(|&c| c != position.expected) {
                Some(format!(
                    "count disagrees: reported {}, expected {}",
                    seen.iter().map(u128::to_string).collect::<Vec<_>>().join("/"),
                    position.expected
                ))
            } else if too_short {
                Some(format!(
                    "too fast to time: {:.2} ms after subtracting {:.2} ms a depth-1 count takes; use a deeper \
                     position",
                    seconds.median * 1e3,
                    engine.overhead() * 1e3
                ))
            } else {
                cell.problem.clone()
            };
            results.push(CompareResult {
                engine: engine.name.clone(),
                position: position.id.clone(),
                nodes: seen.last().copied(),
                agrees,
                samples: cell.samples.clone(),
                seconds,
                nodes_per_second: speed,
                ratio_to_ours: speed.zip(our_speed[p]).map(|(theirs, ours)| theirs / ours),
                ratio_to_other: None,
                problem,
            });
        }
    }
    results
}

/// Each engine's totals over the positions where it was timed and agreed:
/// nodes, median seconds summed, the speed that gives, and the geometric
/// mean of its speed ratios to ours (above 1: faster than ours).
pub fn summarize(engines: &[CompareEngine], results: &[CompareResult]) -> Vec<EngineSummary> {
    engines
        .iter()
        .map(|engine| {
            let timed: Vec<&CompareResult> =
                results.iter().filter(|r| r.engine == engine.name && r.nodes_per_second.is_some()).collect();
            let nodes: u128 = timed.iter().filter_map(|r| r.nodes).sum();
            let seconds = timed.iter().map(|r| r.seconds.median).fold(0.0, |a, b| a + b);
            let ratios: Vec<f64> =
                timed.iter().filter_map(|r| r.ratio_to_ours).filter(|x| *x > 0.0).collect();
            EngineSummary {
                engine: engine.name.clone(),
                positions: timed.len(),
                nodes,
                seconds,
                nodes_per_second: crate::report::nodes_per_second(nodes, seconds),
                geomean_ratio_to_ours: (!ratios.is_empty())
                    .then(|| (ratios.iter().map(|x| x.ln()).sum::<f64>() / ratios.len() as f64).exp()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Timings;

    fn result(engine: &str, position: &str, speed: Option<f64>, ours: Option<f64>) -> CompareResult {
        CompareResult {
            engine: engine.into(),
            position: position.into(),
            nodes: Some(100),
            agrees: true,
            samples: vec![0.1],
            seconds: Timings { min: 0.1, median: 0.1, max: 0.1 },
            nodes_per_second: speed,
            ratio_to_ours: ours,
            ratio_to_other: None,
            problem: None,
        }
    }

    #[test]
    fn where_ours_is_not_timed_the_others_are_given_ratios_to_the_first_timed() {
        let mut results = vec![
            result("perft", "a", Some(10.0), Some(1.0)),
            result("perft", "b", None, None),
            result("sf", "a", Some(5.0), Some(0.5)),
            result("sf", "b", None, None),
            result("slow", "a", Some(1.0), Some(0.1)),
            result("slow", "b", Some(2.0), None),
            result("slower", "b", Some(1.0), None),
        ];
        with_other_ratios(&mut results);
        // Position a has ours: nothing added.
        assert!(results.iter().filter(|r| r.position == "a").all(|r| r.ratio_to_other.is_none()));
        let ratio = |engine: &str| {
            let r = results.iter().find(|r| r.engine == engine && r.position == "b").unwrap();
            r.ratio_to_other.as_ref().map(|o| (o.engine.as_str(), o.ratio))
        };
        assert_eq!(ratio("perft"), None);
        assert_eq!(ratio("sf"), None);
        assert_eq!(ratio("slow"), Some(("slow", 1.0)));
        assert_eq!(ratio("slower"), Some(("slow", 0.5)));
    }
}
