//! The progress of a long `perft run`, live: a progress line on a terminal
//! (subtrees, nodes, recent rate, ETA), and with `--progress-json FILE` the
//! same figures rewritten atomically about once a second for a dashboard to
//! poll. How the ETA is estimated: [`perft::counting::progress`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use perft::counting::progress::{Progress, Snapshot, Work};
use perft::report::{EtaEstimate, RunProgress};
use serde::Serialize;

use super::output;

/// Percent of the work at which the ETA shown is kept for the report.
const ESTIMATE_AT: [u32; 5] = [10, 25, 50, 75, 90];

/// The bar's length: progress in ten-thousandths.
const BAR_STEPS: u64 = 10_000;

/// The least time between two writes of the progress file.
const WRITE_EVERY: Duration = Duration::from_secs(1);

/// What `--progress-json` holds.
#[derive(Serialize)]
struct ProgressFile<'a> {
    kind: &'static str,
    fen: &'a str,
    depth: u32,
    threads: usize,
    /// The count is over (finished, or stopped).
    done: bool,
    #[serde(flatten)]
    snapshot: Snapshot,
}

struct State {
    progress: Progress,
    resumed: usize,
    /// Percent of the work done before this run (from a journal): the ETA
    /// is kept only at the marks passed in this run.
    start_percent: f64,
    estimates: Vec<EtaEstimate>,
    last_write: Option<Instant>,
}

/// Live progress of one count.
pub struct LiveProgress {
    state: Mutex<State>,
    start: Instant,
    bar: ProgressBar,
    file: Option<PathBuf>,
    fen: String,
    depth: u32,
    threads: usize,
}

impl LiveProgress {
    /// Progress over `work`, shown on a terminal when `visible`, and
    /// written to `file` if given.
    pub fn new(
        work: Work,
        visible: bool,
        file: Option<PathBuf>,
        fen: String,
        depth: u32,
        threads: usize,
    ) -> Self {
        let bar = output::progress_bar(
            BAR_STEPS,
            "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}",
            visible,
        );
        bar.enable_steady_tick(Duration::from_millis(250));
        let state = State {
            progress: Progress::new(work),
            resumed: 0,
            start_percent: 0.0,
            estimates: Vec::new(),
            last_write: None,
        };
        LiveProgress { state: Mutex::new(state), start: Instant::now(), bar, file, fen, depth, threads }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subtrees a journal already holds.
    pub fn resumed(&self, done: &BTreeMap<usize, u128>) {
        let mut state = self.lock();
        for (&index, &nodes) in done {
            state.progress.resumed(index, nodes);
        }
        state.resumed = done.len();
        state.start_percent = state.progress.snapshot(0.0).fraction_done * 100.0;
        self.show(&mut state);
    }

    /// Subtree `index` finished with `nodes` (from any worker thread).
    pub fn finished(&self, index: usize, nodes: u128) {
        let mut state = self.lock();
        let seconds = self.start.elapsed().as_secs_f64();
        state.progress.finished(index, nodes, seconds);
        self.show(&mut state);
    }

    /// Runs `work` while a thread of its own brings the line and the file up
    /// to date every second, so that the elapsed time, the rate and the ETA
    /// move on between completions too (in a perft(11) they are half a
    /// minute apart, and minutes at the start of a resumed run). The thread
    /// ends with `work`.
    pub fn while_ticking<T>(&self, work: impl FnOnce() -> T) -> T {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(WRITE_EVERY) {
                    self.show(&mut self.lock());
                }
            });
            let result = work();
            drop(stop);
            result
        })
    }

    /// The bar, the estimates kept and the file brought up to date (the file
    /// at most once a second).
    fn show(&self, state: &mut State) {
        let snapshot = state.progress.snapshot(self.start.elapsed().as_secs_f64());
        self.bar.set_position((snapshot.fraction_done * BAR_STEPS as f64) as u64);
        self.bar.set_message(describe(&snapshot));
        let percent = snapshot.fraction_done * 100.0;
        if let Some(eta) = snapshot.eta_seconds {
            let start = state.start_percent;
            for &at in ESTIMATE_AT.iter().filter(|&&at| percent >= f64::from(at) && f64::from(at) > start) {
                if state.estimates.iter().all(|e| e.percent != at) {
                    let elapsed_seconds = snapshot.elapsed_seconds;
                    state.estimates.push(EtaEstimate { percent: at, elapsed_seconds, eta_seconds: eta });
                }
            }
        }
        if state.last_write.is_none_or(|t| t.elapsed() >= WRITE_EVERY) {
            state.last_write = Some(Instant::now());
            // A dashboard's file that cannot be written must not stop the
            // count: the final write reports the error.
            let _ = self.write_file(snapshot, false);
        }
    }

    /// Rewrites the progress file, if there is one.
    fn write_file(&self, snapshot: Snapshot, done: bool) -> std::io::Result<()> {
        let Some(path) = &self.file else { return Ok(()) };
        let file = ProgressFile {
            kind: "progress",
            fen: &self.fen,
            depth: self.depth,
            threads: self.threads,
            done,
            snapshot,
        };
        perft::report::write_json_atomic(path, &file)
    }

    /// The run began at `started`, before this progress (its weighing and
    /// its table's set-up): the line's clock counts from there.
    pub fn started_at(self, started: Instant) -> Self {
        LiveProgress { bar: self.bar.with_elapsed(started.elapsed()), ..self }
    }

    /// Ends the display; writes the file a last time (`done`), and returns
    /// what the report keeps, and why that last write failed, if it did
    /// (the file is advisory: the count stands either way).
    pub fn finish(&self) -> (RunProgress, Option<std::io::Error>) {
        self.bar.finish_and_clear();
        let state = self.lock();
        let last = state.progress.snapshot(self.start.elapsed().as_secs_f64());
        let failed = self.write_file(last, true).err();
        let progress = RunProgress {
            subtrees: last.subtrees,
            resumed: state.resumed,
            estimates: state.estimates.clone(),
            last,
        };
        (progress, failed)
    }
}

/// `172/400 subtrees, 1234567 nodes, 812.3 Mnps, ETA 16m 05s`.
fn describe(snapshot: &Snapshot) -> String {
    let eta = snapshot.eta_seconds.map_or("estimating".to_string(), |s| format!("ETA {}", clock(s)));
    format!(
        "{}/{} subtrees, {} nodes, {:.1} Mnps, {eta}",
        snapshot.subtrees_done,
        snapshot.subtrees,
        snapshot.nodes_done,
        snapshot.nodes_per_second / 1e6
    )
}

/// `1h 02m`, `16m 05s`, `42s`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_moves_on_while_no_subtree_finishes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("progress.json");
        let live =
            LiveProgress::new(Work::separate(vec![1.0, 1.0]), false, Some(path.clone()), "fen".into(), 9, 2);
        live.while_ticking(|| std::thread::sleep(Duration::from_millis(2500)));
        let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(file["subtrees_done"], 0);
        assert!(file["elapsed_seconds"].as_f64().unwrap() >= 1.0, "{file}");
        assert_eq!(file["done"], false);
    }
}
