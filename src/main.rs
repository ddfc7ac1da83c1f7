use perft::board::Board;
use perft::perft::{divide, Mode};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let fen = args.get(2).cloned().unwrap_or(perft::board::STARTPOS_FEN.to_string());
    let mut b = Board::from_fen(&fen).unwrap();
    let t = std::time::Instant::now();
    let d = divide(&mut b, depth, Mode::Bulk);
    let total: u64 = d.iter().map(|x| x.1).sum();
    for (m, n) in &d { println!("{}: {}", b.uci(*m), n); }
    let s = t.elapsed().as_secs_f64();
    println!("\nNodes searched: {total}\n{s:.3}s {:.1} Mnps", total as f64 / s / 1e6);
}
