//! Progress of a long count, and when it will end.
//!
//! A deep count is cut into subtrees ([`super::journal::plan_tasks`]) of
//! very uneven sizes, and with a hash table their cost depends on the order
//! they are counted in: a subtree whose positions a few plies down were
//! already counted under another subtree costs next to nothing (its counts
//! are found in the table), while the same subtree counted first costs its
//! whole size. Weighing each subtree by its size made an ETA that stayed two
//! to four times too long all through a perft(11): the last half of the
//! weight took a fifth of the time.
//!
//! So the work is weighed as the distinct positions a few plies below the
//! subtrees' roots ([`weigh_tasks`]), and progress is the share of them
//! (each weighted by a small count of its own) that the finished subtrees
//! reached: a subtree that finishes adds only the positions no finished
//! subtree had reached before, whatever the order the threads took. The rate is that weight
//! over the later half of the run so far (at least its last minute, and at
//! least its last four subtrees), so the ETA also follows the speed as the
//! table warms, without swinging with every subtree that ends.

use std::collections::{HashMap, VecDeque};

use rayon::prelude::*;

use crate::board::Board;
use crate::counting::{perft, Mode};
use crate::types::Move;

/// Plies of the shallow counts that weigh the work, at most: the walk to the
/// distinct positions and the count below each.
const WEIGHING_PLIES: u32 = 4;

/// Plies below the subtrees' roots that distinct positions are found at, at
/// most.
const DISTINCT_PLIES: u32 = 3;

/// Plies the distinct positions stay above the leaves, at least: each path
/// walked stands for millions of nodes counted.
const DISTINCT_ABOVE_LEAVES: u32 = 5;

/// Paths the weighing may walk, at most (the start position's perft(5):
/// half a second on one thread).
const WEIGHING_PATHS: u128 = 5_000_000;

/// Subtrees weighed at once (see [`weigh_tasks`]).
const WEIGHING_CHUNK: usize = 32;

/// Seconds of completions the rate is measured over, at least.
const RATE_WINDOW: f64 = 60.0;

/// The share of the run so far that the rate is measured over, once that is
/// longer than [`RATE_WINDOW`].
const RATE_SHARE: f64 = 0.5;

/// The work of a count cut into subtrees: the distinct positions a few
/// plies below their roots, each with a weight, and which subtree reaches
/// which.
#[derive(Clone, Debug)]
pub struct Work {
    /// For each subtree, the positions it reaches (indexes into `weights`),
    /// each once.
    reaches: Vec<Vec<u32>>,
    /// Each position's weight.
    weights: Vec<f64>,
}

impl Work {
    /// Subtrees that share nothing, of these weights.
    pub fn separate(weights: Vec<f64>) -> Self {
        Work { reaches: (0..weights.len() as u32).map(|i| vec![i]).collect(), weights }
    }

    /// The distinct positions weighed, over all subtrees.
    pub fn positions(&self) -> usize {
        self.weights.len()
    }
}

/// Weighs the subtrees `tasks` (paths from `board`) of a count to `depth`:
/// the distinct positions a few plies below their roots (up to three, at
/// least five above the leaves, and fewer where that would walk more than
/// five million paths), each weighted by a count of its own that ends at
/// least three plies above the leaves (at most four plies walked and
/// counted in all, fewer with thousands of subtrees; at least 1). Runs on
/// the current rayon pool.
pub fn weigh_tasks(board: &Board, depth: u32, tasks: &[Vec<Move>]) -> Work {
    let root_of = |path: &[Move]| {
        let mut child = board.fork();
        for &mv in path {
            child.make(mv);
        }
        child
    };
    // Fewer plies where there are thousands of subtrees, so that weighing
    // stays well under a second.
    let most_weighed = match tasks.len() {
        0..=1_000 => WEIGHING_PLIES,
        1_001..=20_000 => WEIGHING_PLIES - 1,
        _ => WEIGHING_PLIES - 2,
    };
    // (plies walked to the distinct positions, plies counted below them)
    let plies = |path: &[Move], most_walked: u32| {
        let below = depth.saturating_sub(path.len() as u32);
        let weighed = below.saturating_sub(3).min(most_weighed);
        let walked =
            below.saturating_sub(DISTINCT_ABOVE_LEAVES).min(most_walked).min(weighed.saturating_sub(1));
        (walked, weighed - walked)
    };
    let mut most_walked = DISTINCT_PLIES;
    while most_walked > 0 {
        let paths: u128 = tasks
            .par_iter()
            .map(|path| perft(&mut root_of(path), plies(path, most_walked).0, Mode::Bulk))
            .sum();
        if paths <= WEIGHING_PATHS {
            break;
        }
        most_walked -= 1;
    }
    // A few subtrees at a time, so that only their positions' keys are
    // held at once: the ids and the map stay, the keys go.
    let mut ids = HashMap::new();
    let mut weights = Vec::new();
    let mut reaches = Vec::with_capacity(tasks.len());
    for chunk in tasks.chunks(WEIGHING_CHUNK) {
        let found: Vec<Vec<(u64, f32)>> = chunk
            .par_iter()
            .map(|path| {
                let (walked, counted) = plies(path, most_walked);
                let mut positions = Vec::new();
                positions_below(&mut root_of(path), walked, counted, &mut positions);
                positions.sort_unstable_by_key(|&(key, _)| key);
                positions.dedup_by_key(|&mut (key, _)| key);
                positions
            })
            .collect();
        for positions in found {
            let mut reached = Vec::with_capacity(positions.len());
            for (key, weight) in positions {
                let id = *ids.entry(key).or_insert_with(|| {
                    weights.push(f64::from(weight.max(1.0)));
                    (weights.len() - 1) as u32
                });
                reached.push(id);
            }
            reaches.push(reached);
        }
    }
    Work { reaches, weights }
}

/// Appends the key of every position `walked` plies below `board` (by every
/// path), with its perft at `counted` plies.
fn positions_below(board: &mut Board, walked: u32, counted: u32, out: &mut Vec<(u64, f32)>) {
    if walked == 0 {
        out.push((board.key(), perft(board, counted, Mode::Bulk) as f32));
        return;
    }
    for &mv in &board.legal_moves() {
        board.make(mv);
        positions_below(board, walked - 1, counted, out);
        board.unmake();
    }
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
    work: Work,
    /// Whether a finished subtree reached each position.
    reached: Vec<bool>,
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
    /// Progress over `work`, no subtree done.
    pub fn new(work: Work) -> Self {
        let total_weight = work.weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        Progress {
            reached: vec![false; work.weights.len()],
            work,
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

    /// Counts subtree `index` done with `nodes`; the weight of the positions
    /// it reached first.
    fn done(&mut self, index: usize, nodes: u128) -> f64 {
        let mut weight = 0.0;
        for &id in self.work.reaches.get(index).map_or(&[][..], Vec::as_slice) {
            let id = id as usize;
            if !self.reached[id] {
                self.reached[id] = true;
                weight += self.work.weights[id];
            }
        }
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
            subtrees: self.work.reaches.len(),
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
    fn the_distinct_positions_are_the_published_ones() {
        // Distinct positions of the start position at plies 3 and 4 (OEIS
        // A083276): the subtrees at ply 2 of perft(8) are weighed one ply
        // down, those of perft(9) two.
        let board = Board::startpos();
        for (depth, distinct) in [(8, 5_362), (9, 72_078)] {
            let (split, tasks) = plan_tasks(&board, depth);
            assert_eq!((split, tasks.len()), (2, 400));
            assert_eq!(weigh_tasks(&board, depth, &tasks).positions(), distinct, "perft({depth})");
        }
    }

    #[test]
    fn weights_follow_subtree_sizes() {
        // The weight of the positions each root move reaches in perft(8)'s
        // weighing (a ply walked, two counted), as a share of the weight of
        // all, is within a factor of two of its share of perft(7).
        let board = Board::startpos();
        let (_, tasks) = plan_tasks(&board, 8);
        let work = weigh_tasks(&board, 8, &tasks);
        let mut divide = crate::counting::divide(&mut board.fork(), 7, Mode::Bulk);
        let total: u128 = divide.iter().map(|&(_, n)| n).sum();
        for (mv, nodes) in divide.drain(..) {
            let mut progress = Progress::new(work.clone());
            for (index, _) in tasks.iter().enumerate().filter(|(_, path)| path[0] == mv) {
                progress.resumed(index, 0);
            }
            let (share, weighed) = (nodes as f64 / total as f64, progress.snapshot(0.0).fraction_done);
            assert!(
                weighed / share < 2.0 && share / weighed < 2.0,
                "{mv:?}: {share} of the nodes, {weighed} of the weight"
            );
        }
    }

    #[test]
    fn a_subtree_adds_only_the_positions_not_reached_before() {
        let work = Work {
            reaches: vec![vec![0, 1], vec![1, 2], vec![0, 1, 2], vec![]],
            weights: vec![1.0, 2.0, 3.0],
        };
        let mut progress = Progress::new(work);
        progress.finished(1, 10, 5.0);
        assert!((progress.snapshot(5.0).fraction_done - 5.0 / 6.0).abs() < 1e-9);
        progress.finished(2, 10, 6.0);
        assert_eq!(progress.snapshot(6.0).fraction_done, 1.0);
        progress.finished(0, 10, 7.0);
        progress.finished(3, 10, 8.0);
        let end = progress.snapshot(8.0);
        assert_eq!((end.fraction_done, end.subtrees_done, end.nodes_done), (1.0, 4, 40));
    }

    #[test]
    fn the_eta_holds_when_later_subtrees_meet_counted_positions() {
        // 400 subtrees reach 40 of 4,000 positions each, at random; a
        // subtree takes as long as the positions no subtree started before
        // it reached (the others are in the hash table), plus a little. So
        // the count speeds up fourfold and more as it goes, as a perft(11)
        // of the start position did. Weighed by the positions reached first,
        // the ETA stays within 25% of the end from 10% of the work on;
        // weighed by each subtree's own size it stays far too long.
        let picks = numbers(400 * 40, 4_000, 4242);
        let reaches: Vec<Vec<u32>> =
            picks.chunks(40).map(|chunk| chunk.iter().map(|&p| p as u32 - 1).collect()).collect();
        let mut counted = vec![false; 4_000];
        let durations: Vec<f64> = reaches
            .iter()
            .map(|reached| {
                let new =
                    reached.iter().filter(|&&p| !std::mem::replace(&mut counted[p as usize], true)).count();
                new as f64 + 1.0
            })
            .collect();
        let completions = completions(&durations, 2);
        let end = completions.last().unwrap().0;
        let worst_miss = |work: Work| {
            let mut progress = Progress::new(work);
            let mut worst: f64 = 0.0;
            for &(seconds, index) in &completions {
                progress.finished(index, 1, seconds);
                let snapshot = progress.snapshot(seconds);
                if snapshot.fraction_done >= 0.1 && seconds > 60.0 {
                    let said = seconds + snapshot.eta_seconds.unwrap();
                    worst = worst.max((said / end - 1.0).abs());
                }
            }
            worst
        };
        let mut deduped = reaches.clone();
        for reached in &mut deduped {
            reached.sort_unstable();
            reached.dedup();
        }
        let shared = worst_miss(Work { reaches: deduped.clone(), weights: vec![1.0; 4_000] });
        assert!(shared < 0.25, "the ETA missed the end by {:.0}%", shared * 100.0);
        let sizes = worst_miss(Work::separate(deduped.iter().map(|r| r.len() as f64).collect()));
        assert!(sizes > 0.5, "by sizes alone the ETA missed the end by only {:.0}%", sizes * 100.0);
    }

    #[test]
    fn the_eta_follows_the_recent_rate() {
        // Twenty subtrees of weight 1: ten finish one every 10 s, then the
        // rest one every 2 s (a table warming up).
        let mut progress = Progress::new(Work::separate(vec![1.0; 20]));
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
        let mut progress = Progress::new(Work::separate(weights));
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
        let mut progress = Progress::new(Work::separate(vec![1.0, 1.0, 2.0]));
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
