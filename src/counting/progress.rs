//! Progress of a long count, and when it will end.
//!
//! A deep count is cut into subtrees ([`super::journal::plan_tasks`]) of
//! very uneven sizes: at the start position one root move's tree can be ten
//! times another's. Counting the subtrees done would make an ETA that
//! swings by hours, so each subtree is weighed first by a shallow count of
//! its own ([`weigh_tasks`]: a few plies, well under a second in all), and
//! progress is the weight done over the weight in all. The rate is the
//! weight done over the later half of the run so far (at least its last
//! minute, and at least its last four subtrees), so the ETA follows the
//! speed as it changes (a hash table makes later subtrees faster as it
//! fills, and an ETA from the average rate would stay too long) without
//! swinging with every subtree that ends: in a perft(11) subtrees take half
//! a minute each, and a one-minute window saw two to four of them.

use std::collections::VecDeque;

use rayon::prelude::*;

use crate::board::Board;
use crate::counting::{perft, Mode};
use crate::types::Move;

/// Plies of the shallow count that weighs a subtree, with few subtrees.
const WEIGHING_PLIES: u32 = 4;

/// Seconds of completions the rate is measured over, at least.
const RATE_WINDOW: f64 = 60.0;

/// The share of the run so far that the rate is measured over, once that is
/// longer than [`RATE_WINDOW`].
const RATE_SHARE: f64 = 0.5;

/// The weight of each subtree (`tasks`, paths from `board`, of a count
/// to `depth`): its perft at up to four plies, and at least three fewer
/// than the subtree's (fewer still when there are thousands of subtrees, so
/// that weighing stays well under a second); at least 1. Runs on the
/// current rayon pool.
pub fn weigh_tasks(board: &Board, depth: u32, tasks: &[Vec<Move>]) -> Vec<f64> {
    let plies = match tasks.len() {
        0..=1_000 => WEIGHING_PLIES,
        1_001..=20_000 => WEIGHING_PLIES - 1,
        _ => WEIGHING_PLIES - 2,
    };
    tasks
        .par_iter()
        .map(|path| {
            let mut child = board.fork();
            for &mv in path {
                child.make(mv);
            }
            // At least three plies below the subtree's own depth: weighing
            // costs a few thousandths of the count.
            let plies = depth.saturating_sub(path.len() as u32).saturating_sub(3).min(plies);
            perft(&mut child, plies, Mode::Bulk).max(1) as f64
        })
        .collect()
}

/// What the progress of a count is at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Snapshot {
    /// Subtrees finished (taken from a journal, or counted).
    pub subtrees_done: usize,
    /// Subtrees in all.
    pub subtrees: usize,
    /// Nodes counted so far (the finished subtrees').
    pub nodes_done: u128,
    /// The share of the work done, 0 to 1, by weight.
    pub fraction_done: f64,
    /// Seconds since the count started.
    pub elapsed_seconds: f64,
    /// Nodes per second over the later half of the run (at least its
    /// last minute).
    pub nodes_per_second: f64,
    /// Seconds left, once two subtrees have finished in this run.
    pub eta_seconds: Option<f64>,
}

/// Progress of a count, subtree by subtree.
#[derive(Clone, Debug)]
pub struct Progress {
    weights: Vec<f64>,
    total_weight: f64,
    done_weight: f64,
    subtrees_done: usize,
    nodes_done: u128,
    /// Completions counted in this run, (seconds, weight, nodes): those of
    /// the rate's window (the later half of the run, at least the last
    /// minute), at least [`MIN_KEPT`], and once any were dropped, the one
    /// before them, whose time the rate is measured from.
    recent: VecDeque<(f64, f64, u128)>,
    dropped: bool,
}

/// Completions the rate is measured over, however long ago.
const MIN_KEPT: usize = 4;

impl Progress {
    /// Progress over subtrees of these weights, none done.
    pub fn new(weights: Vec<f64>) -> Self {
        let total_weight = weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        Progress {
            weights,
            total_weight,
            done_weight: 0.0,
            subtrees_done: 0,
            nodes_done: 0,
            recent: VecDeque::new(),
            dropped: false,
        }
    }

    /// Subtree `index` was found done before this run (in a journal): it
    /// counts as done, but not towards the rate.
    pub fn resumed(&mut self, index: usize, nodes: u128) {
        self.done(index, nodes);
    }

    /// Subtree `index` finished with `nodes`, `seconds` after the start.
    pub fn finished(&mut self, index: usize, nodes: u128, seconds: f64) {
        let weight = self.done(index, nodes);
        self.recent.push_back((seconds, weight, nodes));
        let window = RATE_WINDOW.max(seconds * RATE_SHARE);
        while self.recent.len() > MIN_KEPT + 1 && self.recent[1].0 < seconds - window {
            self.recent.pop_front();
            self.dropped = true;
        }
    }

    /// Counts subtree `index` done with `nodes`; its weight.
    fn done(&mut self, index: usize, nodes: u128) -> f64 {
        let weight = self.weights.get(index).copied().unwrap_or(0.0);
        self.done_weight += weight;
        self.subtrees_done += 1;
        self.nodes_done += nodes;
        weight
    }

    /// The progress `seconds` after the start.
    pub fn snapshot(&self, seconds: f64) -> Snapshot {
        let fraction_done = (self.done_weight / self.total_weight).clamp(0.0, 1.0);
        // The rate since the start, or once completions were dropped, since
        // the oldest one kept.
        let (since, counted) = match self.recent.front() {
            Some(&(t, _, _)) if self.dropped => (t, self.recent.range(1..)),
            _ => (0.0, self.recent.range(..)),
        };
        let span = (seconds - since).max(1e-9);
        let (weight, nodes) =
            counted.fold((0.0, 0u128), |(w, n), &(_, weight, nodes)| (w + weight, n + nodes));
        let left = (self.total_weight - self.done_weight).max(0.0);
        // One subtree says little (the first ones meet a cold hash table).
        let enough = self.dropped || self.recent.len() >= 2;
        let eta_seconds = (weight > 0.0 && enough).then(|| left / (weight / span));
        Snapshot {
            subtrees_done: self.subtrees_done,
            subtrees: self.weights.len(),
            nodes_done: self.nodes_done,
            fraction_done,
            elapsed_seconds: seconds,
            nodes_per_second: nodes as f64 / span,
            eta_seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::journal::plan_tasks;

    #[test]
    fn weights_follow_subtree_sizes() {
        let board = Board::startpos();
        let (_, tasks) = plan_tasks(&board, 7);
        let weights = weigh_tasks(&board, 7, &tasks);
        // Sizes at 4 plies rank subtrees as their sizes at 5 do, roughly:
        // the share of weight of each root move is within a factor of two
        // of its share of perft(7).
        let mut divide = crate::counting::divide(&mut board.fork(), 7, Mode::Bulk);
        let total: u128 = divide.iter().map(|&(_, n)| n).sum();
        let weight_total: f64 = weights.iter().sum();
        for (mv, nodes) in divide.drain(..) {
            let weight: f64 = tasks.iter().zip(&weights).filter(|(p, _)| p[0] == mv).map(|(_, &w)| w).sum();
            let (share, weighed) = (nodes as f64 / total as f64, weight / weight_total);
            assert!(
                weighed / share < 2.0 && share / weighed < 2.0,
                "{mv:?}: {share} of the nodes, {weighed} of the weight"
            );
        }
    }

    #[test]
    fn the_eta_follows_the_recent_rate() {
        // Twenty subtrees of weight 1: ten finish one every 10 s, then the
        // rest one every 2 s (a table warming up).
        let mut progress = Progress::new(vec![1.0; 20]);
        assert_eq!(progress.snapshot(1.0).eta_seconds, None);
        for i in 0..10 {
            progress.finished(i, 100, 10.0 * (i + 1) as f64);
        }
        let at_half = progress.snapshot(100.0);
        assert!((at_half.fraction_done - 0.5).abs() < 1e-9);
        assert!((at_half.eta_seconds.unwrap() - 100.0).abs() < 1e-6, "{at_half:?}");
        for i in 10..18 {
            progress.finished(i, 100, 100.0 + 2.0 * (i - 9) as f64);
        }
        // The average rate (18 in 116 s) would say 12.9 s for the last two;
        // the last minute says less, and the nodes per second are recent.
        let late = progress.snapshot(116.0);
        assert_eq!(late.subtrees_done, 18);
        let eta = late.eta_seconds.unwrap();
        assert!(eta < 11.0, "{late:?}");
        assert!(late.nodes_per_second > 18.0 * 100.0 / 116.0, "{late:?}");
        progress.finished(18, 100, 118.0);
        progress.finished(19, 100, 120.0);
        let end = progress.snapshot(120.0);
        assert_eq!((end.fraction_done, end.eta_seconds), (1.0, Some(0.0)));
        assert_eq!(end.nodes_done, 2000);
    }

    /// A fixed pseudo-random sequence of whole numbers from 1 to `top`.
    fn numbers(count: usize, top: u64, mut seed: u64) -> Vec<f64> {
        (0..count)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (1 + (seed >> 33) % top) as f64
            })
            .collect()
    }

    /// The (seconds, index) of each subtree's completion, in time order,
    /// when subtree `i` takes `durations[i]` seconds on whichever of
    /// `workers` workers is free first, taken in order.
    fn completions(durations: &[f64], workers: usize) -> Vec<(f64, usize)> {
        let mut free_at = vec![0.0f64; workers];
        let mut ends: Vec<(f64, usize)> = durations
            .iter()
            .enumerate()
            .map(|(index, duration)| {
                let worker = (0..workers).min_by(|&a, &b| free_at[a].total_cmp(&free_at[b])).unwrap();
                free_at[worker] += duration;
                (free_at[worker], index)
            })
            .collect();
        ends.sort_by(|a, b| a.0.total_cmp(&b.0));
        ends
    }

    #[test]
    fn the_eta_holds_steady_when_subtrees_end_in_lumps() {
        // 400 subtrees of weights 1 to 20 on two workers, each taking half
        // to one and a half times its weight in seconds (weights are
        // estimates): a window of a minute holds a handful of completions
        // and its ETA swings with each; over the later half of the run it
        // stays within 15% of the end from 10% of the work on (30% for the
        // last minute alone).
        let weights = numbers(400, 20, 12345);
        let durations: Vec<f64> =
            weights.iter().zip(numbers(400, 11, 678)).map(|(w, f)| w * (0.4 + f / 10.0)).collect();
        let completions = completions(&durations, 2);
        let end = completions.last().unwrap().0;
        let mut progress = Progress::new(weights);
        let mut worst: f64 = 0.0;
        for &(seconds, index) in &completions {
            progress.finished(index, 1, seconds);
            let snapshot = progress.snapshot(seconds);
            if snapshot.fraction_done >= 0.1 {
                let said = seconds + snapshot.eta_seconds.unwrap();
                worst = worst.max((said / end - 1.0).abs());
            }
        }
        assert!(worst < 0.15, "the ETA missed the end by {:.0}%", worst * 100.0);
    }

    #[test]
    fn resumed_subtrees_count_as_done_but_not_towards_the_rate() {
        let mut progress = Progress::new(vec![1.0, 1.0, 2.0]);
        progress.resumed(2, 500);
        let snapshot = progress.snapshot(10.0);
        assert_eq!((snapshot.subtrees_done, snapshot.nodes_done), (1, 500));
        assert!((snapshot.fraction_done - 0.5).abs() < 1e-9);
        assert_eq!(snapshot.eta_seconds, None);
        progress.finished(0, 100, 20.0);
        assert_eq!(progress.snapshot(20.0).eta_seconds, None, "one subtree is not enough to go by");
        progress.finished(1, 100, 40.0);
        // 2 of weight in 40 s; 0 left.
        assert_eq!(progress.snapshot(40.0).eta_seconds, Some(0.0));
    }
}
