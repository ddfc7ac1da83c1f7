//! An engine's start-up, measured one way for every command that drives
//! engines (probing, `check`, `compare`): a fresh engine is asked for the
//! start position at depth 1, then twice more.

use std::time::{Duration, Instant};

use super::{Engine, EngineError, EnginePosition};
use crate::board::STARTPOS_FEN;

/// Depth-1 counts after the first, whose median is what a count costs once
/// the engine runs.
pub const STARTUP_RUNS: usize = 2;

/// What starting an engine costs, and what any count costs on top of its
/// counting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Startup {
    /// The start-up figure, in seconds. For an engine kept running (UCI,
    /// console): the wall time from its start to its answer to its first
    /// depth-1 count, less [`Startup::per_count`] (process start,
    /// handshake, tables; paid once, and again after a crash). For a
    /// program started for every count: [`Startup::per_count`] itself.
    pub seconds: f64,
    /// The median time of the later depth-1 counts, as the engine reports
    /// each call ([`crate::engine::EngineRun::seconds`]): what any count
    /// costs beyond its counting, subtracted from timings.
    pub per_count: f64,
    /// Each count starts the program (a command line).
    pub per_process: bool,
}

/// Why the start-up could not be measured.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StartupError {
    /// A depth-1 count failed.
    #[error("{0}")]
    Engine(EngineError),
    /// It counted the start position to depth 1 as something else than 20.
    #[error("counts {0} moves in the start position, not 20")]
    Miscount(u128),
}

impl Startup {
    /// The figure in words, the same wherever it is printed:
    /// `0.26 s to start, 1.2 ms a depth-1 count after that`, or for a
    /// program started per count `0.26 s to start and count (it is started
    /// for every count)`.
    pub fn text(&self) -> String {
        if self.per_process {
            format!("{:.2} s to start and count (it is started for every count)", self.seconds)
        } else {
            format!(
                "{:.2} s to start, {:.1} ms a depth-1 count after that",
                self.seconds,
                self.per_count * 1e3
            )
        }
    }
}

/// Measures `engine`'s start-up: it must not have been asked anything yet
/// (its first call pays its start). `per_process`: each count starts it.
/// Takes `1 + STARTUP_RUNS` depth-1 counts of the start position, each
/// within `timeout`.
///
/// # Errors
/// [`StartupError`] when a count fails or is not 20.
pub fn measure_startup(
    engine: &mut dyn Engine,
    per_process: bool,
    timeout: Duration,
) -> Result<Startup, StartupError> {
    let startpos = EnginePosition::new(STARTPOS_FEN, false);
    let count = |engine: &mut dyn Engine| -> Result<f64, StartupError> {
        let run = engine.perft(&startpos, 1, timeout).map_err(StartupError::Engine)?;
        match run.nodes {
            20 => Ok(run.seconds),
            nodes => Err(StartupError::Miscount(nodes)),
        }
    };
    let began = Instant::now();
    let first_reported = count(engine)?;
    let first = began.elapsed().as_secs_f64().max(first_reported);
    let mut later = Vec::with_capacity(STARTUP_RUNS);
    for _ in 0..STARTUP_RUNS {
        later.push(count(engine)?);
    }
    let per_count = median(&later);
    let seconds = if per_process {
        let mut all = later.clone();
        all.push(first);
        median(&all)
    } else {
        (first - per_count).max(0.0)
    };
    Ok(Startup { seconds, per_count, per_process })
}

/// The median of `samples` (the mean of the middle two for an even count;
/// 0 for none).
fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineRun;

    /// An engine whose first call takes `start` before it answers, and that
    /// reports `seconds` for every call.
    struct Slow {
        start: Duration,
        seconds: Vec<f64>,
        nodes: u128,
        calls: usize,
    }

    impl Engine for Slow {
        fn name(&self) -> &str {
            "slow"
        }

        fn perft(&mut self, _: &EnginePosition, _: u32, _: Duration) -> Result<EngineRun, EngineError> {
            if self.calls == 0 {
                std::thread::sleep(self.start);
            }
            let seconds = self.seconds[self.calls];
            self.calls += 1;
            Ok(EngineRun { nodes: self.nodes, seconds, divide: None, divide_lines: 0 })
        }
    }

    fn slow(nodes: u128) -> Slow {
        Slow { start: Duration::from_millis(60), seconds: vec![0.002, 0.004, 0.006], nodes, calls: 0 }
    }

    #[test]
    fn a_kept_engine_pays_its_start_once_and_each_count_its_overhead() {
        let mut engine = slow(20);
        let startup = measure_startup(&mut engine, false, Duration::from_secs(5)).unwrap();
        assert_eq!(engine.calls, 1 + STARTUP_RUNS);
        // The later counts as reported: 4 and 6 ms.
        assert!((startup.per_count - 0.005).abs() < 1e-9, "{startup:?}");
        // The first call's wall time (the 60 ms start) less a count.
        assert!(startup.seconds >= 0.055 && startup.seconds < 1.0, "{startup:?}");
        assert!(startup.text().ends_with("5.0 ms a depth-1 count after that"), "{}", startup.text());
    }

    #[test]
    fn a_program_started_per_count_pays_its_start_every_count() {
        let mut engine = slow(20);
        let startup = measure_startup(&mut engine, true, Duration::from_secs(5)).unwrap();
        // Median of the first call's wall time (over 60 ms) and 4 and 6 ms.
        assert!((startup.seconds - 0.006).abs() < 1e-9, "{startup:?}");
        assert!(startup.text().contains("(it is started for every count)"), "{}", startup.text());
    }

    #[test]
    fn a_wrong_depth_1_count_is_no_start_up() {
        let mut engine = slow(19);
        let error = measure_startup(&mut engine, false, Duration::from_secs(5)).unwrap_err();
        assert_eq!(error.to_string(), "counts 19 moves in the start position, not 20");
    }
}
