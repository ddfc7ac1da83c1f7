//! Estimates of how long a count takes, and counts and times as a person
//! would say them (beside the live progress of `run_progress.rs`).

use perft::board::Board;
use perft::counting::with_threads;

use super::output::plural;
use super::table::best_table_cut;

/// A count as a person would say it: `197,281`, `4.9 million`, `2.07
/// billion`.
pub fn approximate(n: u128) -> String {
    let value = n as f64;
    match value {
        v if v >= 1e12 => format!("{:.3} trillion", v / 1e12),
        v if v >= 1e9 => format!("{:.3} billion", v / 1e9),
        v if v >= 1e6 => format!("{:.1} million", v / 1e6),
        _ => {
            let digits = n.to_string();
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        }
    }
}

/// Seconds as a person would say them: `40 s`, `12 min`, `3.5 h`, `9 days`,
/// `2e9 years`.
pub fn human_duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    match seconds {
        s if !s.is_finite() => "longer than anyone can wait".into(),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 2.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < YEAR => plural((s / 86400.0).round() as usize, "day"),
        s if s < 1e4 * YEAR => plural((s / YEAR).round() as usize, "year"),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// Counting speed on `threads` threads, from a count of `board` of at
/// least 2·10⁷ nodes (or the deepest below `depth` whose next ply would
/// pass 10⁹ nodes or a hundredth of the `total` the run counts), timed: the
/// speed the run itself will see, on this machine and under its load, for
/// at most about 1% more work (perft 8 of the rook endgame counted perft 7
/// as well, 6% more, before the cap).
fn measured_speed(board: &Board, depth: u32, threads: usize, total: f64) -> f64 {
    use perft::counting::{perft_with, CountOptions, Mode};
    let (mut nodes, mut seconds) = (0u128, 0.0);
    for d in 1..depth {
        let previous = nodes.max(1);
        let start = std::time::Instant::now();
        let counted = with_threads(threads, || perft_with(board, d, &CountOptions::new(Mode::Bulk)));
        nodes = counted.ok().flatten().unwrap_or(0);
        seconds = start.elapsed().as_secs_f64();
        let next = nodes.saturating_mul(nodes / previous);
        let cap = (total / 100.0).min(1e9) as u128;
        if nodes >= 20_000_000 || next > cap {
            break;
        }
    }
    nodes as f64 / seconds.max(1e-6)
}

/// Warns on stderr when counting `depth` plies below `board` looks like
/// more than an hour's work, with the table it counts with (`hashed`):
/// without one, from the estimated nodes and the speed measured here; with
/// one, that time cut by the most a table cut a count of this depth in our
/// runs ([`best_table_cut`]), so that a count the table makes short is not
/// called long. Returns whether it warned.
pub fn warn_if_absurd(board: &Board, depth: u32, threads: usize, hashed: bool) -> bool {
    if depth < 8 {
        return false;
    }
    let nodes = perft::counting::estimate_nodes(board, depth).nodes;
    let plain = nodes / measured_speed(board, depth, threads, nodes);
    let cut = best_table_cut(depth);
    let eta = if hashed { plain / cut } else { plain };
    if eta < 3600.0 {
        return false;
    }
    let how = if hashed {
        format!(
            "about {} with its hash table if the table cuts the time {cut:.0}x (it cut perft(9), perft(10) \
             and perft(11) of the start position 22x, 56x and 140x), about {} without one",
            human_duration(eta),
            human_duration(plain)
        )
    } else {
        format!("about {} without a hash table (--hash helps)", human_duration(eta))
    };
    eprintln!(
        "warning: perft {depth} here is about {nodes:.1e} nodes: {how}. It runs anyway: Ctrl-C stops it \
         cleanly, and --checkpoint FILE lets a later run resume."
    );
    true
}
