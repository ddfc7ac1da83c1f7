//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const EXIT_STATUS: &str = "\
Exit status:
  0  every count matched
  1  a count did not match
  2  bad input or usage (unreadable file, malformed FEN or move, bad option)";

/// Exact, fast perft: count legal move trees, check suites, compare engines.
#[derive(Debug, Parser)]
#[command(name = "perft", version, about, after_help = EXIT_STATUS, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes DEPTH plies below a position, with a divide per
    /// root move in Stockfish's `go perft` format.
    #[command(after_help = EXIT_STATUS)]
    Run(RunArgs),
    /// Check perft counts against EPD (`;D1 20`) or `.perft` suites; with no
    /// files, run the bundled default suite.
    #[command(after_help = EXIT_STATUS)]
    Suite(SuiteArgs),
}

/// Where the position comes from.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Start from this FEN (4 to 6 fields; X-FEN and Shredder-FEN accepted).
    #[arg(long, value_name = "FEN", conflicts_with = "startpos")]
    pub fen: Option<String>,
    /// Start from the standard starting position (the default).
    #[arg(long)]
    pub startpos: bool,
    /// Moves to play first, in UCI notation (e2e4 e7e5 ...).
    #[arg(long, value_name = "MOVE", num_args = 1.., allow_hyphen_values = false)]
    pub moves: Vec<String>,
    /// Write (and read) castling the Chess960 way: king takes rook.
    #[arg(long)]
    pub chess960: bool,
    /// Accept impossible-but-playable positions (too much material,
    /// impossible checks, impossible castling history).
    #[arg(long)]
    pub relaxed: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Plies to count.
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Worker threads [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Make every leaf move instead of counting the last ply by set sizes
    /// (bulk counting). Slower; the counts are the same.
    #[arg(long)]
    pub full: bool,
    /// Print only the total.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/run-<timestamp>.json.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub json: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Suite files (EPD with `;D<depth> <nodes>` or `.perft`); none runs the
    /// bundled default suite.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Skip depths above D.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Skip checks whose expected count exceeds N.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Accept impossible-but-playable positions (such as those of
    /// tricky.perft).
    #[arg(long)]
    pub relaxed: bool,
    /// Read every position's castling the Chess960 way (otherwise detected
    /// from the castling field and the placement).
    #[arg(long)]
    pub chess960: bool,
    /// Stop at the first count mismatch.
    #[arg(long)]
    pub fail_fast: bool,
    /// Make every leaf move instead of bulk counting.
    #[arg(long)]
    pub full: bool,
    /// Write the JSON report to FILE (`-` for stdout) instead of
    /// results/suite-<timestamp>.json.
    #[arg(long, value_name = "FILE", conflicts_with = "no_json")]
    pub json: Option<PathBuf>,
    /// Do not write a JSON report.
    #[arg(long)]
    pub no_json: bool,
}
