//! Benchmarks: a fixed set of positions counted repeatedly, with the
//! statistics needed to compare two runs honestly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, CastlingMode, FenError, FenOptions};
use crate::counting::{perft_with, CountOptions, Mode};
use crate::report::{BenchEntry, Spread, Timings};
use crate::suite::{LineError, ParsedSuite};

/// One position of a benchmark set.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// Name (the `id`, or `line N`).
    pub id: String,
    /// The FEN as written.
    pub fen: String,
    /// The board.
    pub board: Board,
    /// Depth to count (the deepest the line lists).
    pub depth: u32,
    /// The count the line expects at that depth.
    pub expected: u128,
}

/// Why a benchmark set cannot be used (a bench set must be clean).
#[derive(Clone, Debug, thiserror::Error)]
pub enum BenchSetError {
    /// A line the suite reader could not read.
    #[error("{0}")]
    Line(LineError),
    /// A line whose position is not a legal one.
    #[error("line {line}: {error}")]
    Fen {
        /// 1-based line number.
        line: usize,
        /// What is wrong with the FEN.
        error: FenError,
    },
    /// A line without a count to time.
    #[error("line {0}: no count of depth 1 or more (;D<depth> <nodes>)")]
    NoCount(usize),
    /// No positions at all.
    #[error("no positions")]
    Empty,
}

/// Reads a benchmark set: every position with its deepest count.
///
/// # Errors
/// [`BenchSetError`] naming the first unusable line.
pub fn bench_positions(parsed: &ParsedSuite) -> Result<Vec<BenchPosition>, BenchSetError> {
    if let Some(error) = parsed.errors.first() {
        return Err(BenchSetError::Line(error.clone()));
    }
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let mut positions = Vec::new();
    for entry in &parsed.entries {
        let board = Board::from_fen_with(&entry.fen, options)
            .map_err(|error| BenchSetError::Fen { line: entry.line, error })?;
        // Depth 0 (perft(0) = 1) times nothing.
        let &(depth, expected) = entry
            .counts
            .iter()
            .filter(|&&(depth, _)| depth > 0)
            .max_by_key(|&&(depth, _)| depth)
            .ok_or(BenchSetError::NoCount(entry.line))?;
        let id = entry.id.clone().unwrap_or_else(|| format!("line {}", entry.line));
        positions.push(BenchPosition { id, fen: entry.fen.clone(), board, depth, expected });
    }
    if positions.is_empty() {
        return Err(BenchSetError::Empty);
    }
    Ok(positions)
}

/// The bench set's version: the text after `bench set` in its first
/// comment line (`# perft bench set v1`), or `unversioned`.
pub fn bench_set_version(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.split_once("bench set").map(|(_, v)| v.trim().to_string()))
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unversioned".into())
}

/// Times of repeated runs as statistics.
pub fn stats(samples: &[f64]) -> Timings {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    };
    Timings {
        min: sorted.first().copied().unwrap_or(0.0),
        median,
        max: sorted.last().copied().unwrap_or(0.0),
    }
}

/// How long each timed sample lasts at least, by default: long enough that
/// timer resolution, scheduling and frequency changes stay small beside it.
pub const DEFAULT_SAMPLE_TIME: Duration = Duration::from_millis(500);

/// Runs the benchmark on the current rayon pool: a warm-up pass one ply
/// shallower, then `repeat` rounds over all positions (position by
/// position within a round, so slow drift affects all alike). In each round
/// a position is counted again and again until the sample has lasted
/// `sample_time`; the sample is the time per count. `progress` is called
/// after each sample with the position's index and its seconds per count.
/// Once `stop` is raised no further count starts; positions never timed
/// are left out of the result.
pub fn run_bench(
    positions: &[BenchPosition],
    repeat: usize,
    sample_time: Duration,
    mode: Mode,
    stop: Option<&AtomicBool>,
    progress: &dyn Fn(usize, f64),
) -> Vec<BenchEntry> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let search = CountOptions { stop, ..CountOptions::new(mode) };
    for position in positions {
        if stopped() {
            break;
        }
        perft_with(&position.board, position.depth.saturating_sub(1), &search);
    }
    let mut samples = vec![Vec::with_capacity(repeat); positions.len()];
    let mut runs = vec![Vec::with_capacity(repeat); positions.len()];
    let mut nodes = vec![0u128; positions.len()];
    let mut all_agree = vec![true; positions.len()];
    'rounds: for _ in 0..repeat.max(1) {
        for (i, position) in positions.iter().enumerate() {
            let start = Instant::now();
            let mut count_runs = 0u32;
            while count_runs == 0 || start.elapsed() < sample_time {
                if stopped() {
                    break 'rounds;
                }
                let Some(count) = perft_with(&position.board, position.depth, &search) else { break 'rounds };
                all_agree[i] &= count == position.expected;
                nodes[i] = count;
                count_runs += 1;
            }
            let seconds = start.elapsed().as_secs_f64() / f64::from(count_runs);
            samples[i].push(seconds);
            runs[i].push(count_runs);
            progress(i, seconds);
        }
    }
    let timed: Vec<bool> = samples.iter().map(|s| !s.is_empty()).collect();
    positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| timed[i])
        .map(|(i, position)| {
            let seconds = stats(&samples[i]);
            BenchEntry {
                id: position.id.clone(),
                fen: position.fen.clone(),
                depth: position.depth,
                nodes: nodes[i],
                expected: position.expected,
                ok: all_agree[i],
                nodes_per_second: crate::report::nodes_per_second(nodes[i], seconds.median),
                seconds,
                spread: Spread::of(&samples[i]),
                samples: std::mem::take(&mut samples[i]),
                runs: std::mem::take(&mut runs[i]),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let s = stats(&[3.0, 1.0, 2.0]);
        assert_eq!((s.min, s.median, s.max), (1.0, 2.0, 3.0));
        assert_eq!(stats(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
        assert_eq!(stats(&[]).median, 0.0);
    }

    #[test]
    fn versions() {
        assert_eq!(bench_set_version(b"# perft bench set v1\n# more\nfen"), "v1");
        assert_eq!(bench_set_version(b"fen ;D1 20"), "unversioned");
    }
}
