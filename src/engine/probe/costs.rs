//! What a found engine costs to run: its start-up, a small count, and its
//! speed on a larger one, measured as the run will drive it, so a check can
//! say before it starts how long it will take.

use std::time::{Duration, Instant};

use super::prober::expected;
use super::ProbeOptions;
use crate::board::STARTPOS_FEN;
use crate::engine::build::concrete_engine;
use crate::engine::spec::{EngineSpec, Protocol};
use crate::engine::{measure_startup, EngineOptions, Startup};

/// A speed sample is made larger while the last took less than this.
const SAMPLE_ENOUGH: Duration = Duration::from_millis(250);
/// The deepest speed sample (the start position at depth 5: 4.9 million
/// nodes).
const SAMPLE_DEPTH: u32 = 5;

/// An engine's costs, measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// Its start-up, [`Startup::seconds`]: paid once for an engine kept
    /// running (and again after each crash), at every count for a program
    /// run per count.
    pub start: f64,
    /// Seconds a small count takes, [`Startup::per_count`] (start-up
    /// included for a program run per count).
    pub per_count: f64,
    /// Nodes per second on the largest count timed, when one took long
    /// enough to tell; `None`: too fast or too slow to say.
    pub nps: Option<f64>,
    /// Whether each count starts the program (a command line).
    pub per_process: bool,
    /// A sample ran past the wait: the engine is slower than `nps` says.
    pub at_least: bool,
}

impl Costs {
    /// The start-up figure these costs hold, as [`measure_startup`] gave
    /// it.
    pub fn startup(&self) -> Startup {
        Startup { seconds: self.start, per_count: self.per_count, per_process: self.per_process }
    }

    /// The expected seconds of `counts` counts of `nodes` nodes in all.
    pub fn estimate(&self, counts: usize, nodes: u128) -> f64 {
        let start = if self.per_process { 0.0 } else { self.start };
        let counting = self.nps.map_or(0.0, |nps| nodes as f64 / nps);
        start + counts as f64 * self.per_count + counting
    }
}

/// Times the engine `spec` describes: its start-up as
/// [`measure_startup`] measures it everywhere (three depth-1 counts of the
/// start position on a fresh engine), then larger counts while each takes
/// under [`SAMPLE_ENOUGH`]. `None` if a small count fails.
pub(super) fn measure(spec: &EngineSpec, options: &ProbeOptions) -> Option<Costs> {
    let engine_options =
        EngineOptions { stop: options.stop, handshake: options.start, ..EngineOptions::default() };
    let mut engine = concrete_engine(spec, "probe", &engine_options);
    let timeout = options.wait + options.start;
    let per_process = spec.protocol == Protocol::Command;
    let startup = measure_startup(engine.as_mut(), per_process, timeout).ok()?;
    // A count: whether it answered (right or not: a buggy engine's speed
    // is its speed), the nodes it counted (ours if it did not answer), its
    // seconds.
    let mut time = |depth: u32, timeout: Duration| {
        let expect = expected(STARTPOS_FEN, &[], depth);
        let began = Instant::now();
        let nodes = engine.perft(&expect.position, depth, timeout).map(|run| run.nodes);
        (nodes.is_ok(), nodes.unwrap_or(expect.nodes), began.elapsed().as_secs_f64())
    };
    let (start, per_count) = (startup.seconds, startup.per_count);
    let mut costs = Costs { start, per_count, nps: None, per_process, at_least: false };
    // A sample may take the wait beyond what a small count takes.
    let limit = options.wait + Duration::from_secs_f64(per_count);
    for depth in 3..=SAMPLE_DEPTH {
        let (answered, nodes, seconds) = time(depth, limit);
        if !answered {
            if seconds >= limit.as_secs_f64() {
                // Past the wait: at most this fast.
                costs.nps = Some(nodes as f64 / options.wait.as_secs_f64());
                costs.at_least = true;
            }
            break;
        }
        let counting = seconds - per_count;
        if counting > 0.01 {
            costs.nps = Some(nodes as f64 / counting);
        }
        if seconds >= SAMPLE_ENOUGH.as_secs_f64() {
            break;
        }
    }
    Some(costs)
}
