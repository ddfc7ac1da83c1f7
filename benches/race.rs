//! Single-threaded bulk-counting perft race on the five benchmark positions:
//! this crate, the `cozy-chess` crate's bulk-counting perft, and Stockfish's
//! `go perft` (if installed), interleaved round by round, best of N.
//!
//! `cargo bench --bench race` (set `RACE_ROUNDS`, `RACE_DEPTH_DELTA=-1` for a
//! quick run, `STOCKFISH=/path/to/stockfish`). cozy-chess is compiled with the
//! bench's flags: give it `RUSTFLAGS="-C target-cpu=native"` for its best
//! code (ours chooses its CPU kernel at run time either way).

use std::time::{Duration, Instant};

use perft::board::Board;
use perft::counting::{perft, Mode};
use perft::engine::{Engine, EnginePosition, UciEngine};

#[path = "cozy_chess_perft.rs"]
mod cozy;

/// Longer than any count here takes.
const STOCKFISH_TIMEOUT: Duration = Duration::from_secs(600);

const POSITIONS: [(&str, &str, u32, u128); 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    ("mirrored", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706_045_033),
    ("talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89_941_194),
];

fn mnps(nodes: u128, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

fn geomean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

fn main() {
    let rounds: usize = std::env::var("RACE_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let delta: i32 = std::env::var("RACE_DEPTH_DELTA").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let sf_path = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_string());
    // Timed from `go perft` to `Nodes searched`, so its start-up is excluded.
    let mut stockfish = Some(UciEngine::new("stockfish", vec![sf_path.clone()]));
    if let Some(engine) = stockfish.as_mut() {
        engine.set_option("Threads", "1");
    }
    let mut best = vec![[0f64; 3]; POSITIONS.len()];
    for round in 0..rounds {
        for (i, &(name, fen, depth, expected)) in POSITIONS.iter().enumerate() {
            let depth = (depth as i32 + delta).max(1) as u32;
            let check = |who: &str, nodes: u128| {
                if delta == 0 {
                    assert_eq!(nodes, expected, "{who} miscounted {name}");
                }
            };
            let mut board = Board::from_fen(fen).unwrap();
            let start = Instant::now();
            let nodes = perft(&mut board, depth, Mode::Bulk);
            let ours = mnps(nodes, start.elapsed());
            check("perft", nodes);

            let cozy_board: cozy_chess::Board = fen.parse().unwrap();
            let start = Instant::now();
            let cozy_nodes = cozy::perft(&cozy_board, depth);
            let cozy = mnps(u128::from(cozy_nodes), start.elapsed());
            assert_eq!(u128::from(cozy_nodes), nodes, "cozy-chess disagrees on {name}");

            let sf = match stockfish
                .as_mut()
                .map(|sf| sf.perft(&EnginePosition::new(fen, false), depth, STOCKFISH_TIMEOUT))
            {
                Some(Ok(run)) => {
                    assert_eq!(run.nodes, nodes, "stockfish disagrees on {name}");
                    mnps(run.nodes, Duration::from_secs_f64(run.seconds))
                }
                Some(Err(e)) => {
                    eprintln!("stockfish at {sf_path} failed ({e}); racing without it");
                    stockfish = None;
                    f64::NAN
                }
                None => f64::NAN,
            };
            for (slot, value) in best[i].iter_mut().zip([ours, cozy, sf]) {
                *slot = slot.max(value);
            }
            eprintln!("round {round} {name:9} d{depth}: perft {ours:6.0}  cozy-chess {cozy:6.0}  stockfish {sf:6.0} Mnps");
        }
    }
    println!("| position | depth | nodes | perft Mnps | cozy-chess Mnps | Stockfish 15.1 Mnps | perft / Stockfish | perft / cozy-chess |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut vs_sf = Vec::new();
    let mut vs_cozy = Vec::new();
    for (&(name, _, depth, expected), &[ours, cozy, sf]) in POSITIONS.iter().zip(&best) {
        vs_sf.push(ours / sf);
        vs_cozy.push(ours / cozy);
        let depth = (depth as i32 + delta).max(1);
        let nodes = if delta == 0 { expected.to_string() } else { "-".into() };
        println!(
            "| {name} | {depth} | {nodes} | {ours:.0} | {cozy:.0} | {sf:.0} | {:.2}x | {:.2}x |",
            ours / sf,
            ours / cozy
        );
    }
    println!(
        "| geometric mean | | | {:.0} | {:.0} | {:.0} | **{:.2}x** | **{:.2}x** |",
        geomean(&best.iter().map(|b| b[0]).collect::<Vec<_>>()),
        geomean(&best.iter().map(|b| b[1]).collect::<Vec<_>>()),
        geomean(&best.iter().map(|b| b[2]).collect::<Vec<_>>()),
        geomean(&vs_sf),
        geomean(&vs_cozy)
    );
}
