//! Arguments of the commands that drive other engines: `compare`, `check`,
//! `debug`, `perftree`, and how engines' answers are read.

use std::path::PathBuf;

use clap::Args;

use super::{depth_parser, CiArgs, HashSize, PositionArgs, SelectionArgs};

/// The engine specs, for the help of every command that drives engines.
macro_rules! engine_specs {
    () => {
        "\
Engine specs:
  PROGRAM [ARGS]          the program alone: perft probes how it counts (UCI `go perft`, then
                          commands of its own such as `perft N`, `perft depth N`, `divide N`;
                          a program that exits at once is run per count as PROGRAM DEPTH FEN
                          [MOVES]) and prints the spec that pins what it found
  uci:PROGRAM [ARGS]      a UCI engine: `position fen ...` + `go perft N`
  uci,perft=COMMAND:...   a UCI engine with a perft command of its own (`uci,perft=perft {depth}:./e`)
  console:PROGRAM [ARGS]  a program kept running, without UCI: `position fen ...` + `perft N`;
                          perft=COMMAND and position=COMMAND change them
                          (`console,perft=perft depth {depth},position=setboard {fen}:./e`)
  cmd:TEMPLATE            a command run per count; placeholders {depth}, {fen}, {moves} and
                          {chess960} (true or false: the program plays Chess960)
  qperft:PATH             qperft (`PATH {depth} {fen}`, total from `perft( N)= ...`; no Chess960)
  gigantua:PATH           Gigantua (`PATH {fen} {depth}`, total from `Perft N: ...`; no Chess960)
  KIND,no960:...          declares that the engine does not play Chess960: those positions are
                          skipped (`cmd,no960:./mine {depth} {fen}`, `uci,no960:./mine`)
Totals are read in the forms engines print (`Nodes searched: N`, `Nodes: N`, `Total: N`,
`Moves 197,742`, `perft(5)= N`, `info nodes N`, `N nodes`, a bare number after the divide, a
number equal to the divide's sum, ...), else give --total-regex; divides from `e2e4: 20`,
`e2e4 20`, `e2e4 - 20`, `Move e2e4: 20`, `move 1 : e2e4 : 20` and similar, else give
--divide-regex. Both take REGEX (every engine) or NAME=REGEX (one)."
    };
}

pub(super) const COMPARE_HELP: &str = concat!(
    engine_specs!(),
    "
Each engine's start-up time (median of depth-1 counts) is subtracted from its timings. This
program counts as `perft run` does, bulk counting without a hash table (--hash 0), like for like
with engines whose perft has none; each engine's line says how it ran.

Examples:
  perft compare --engine stockfish=uci:/usr/games/stockfish
  perft compare --engine \"mine=./my-engine\" --positions positions/small.epd --repeat 5
  perft compare --engine sf=uci:/usr/games/stockfish --hash auto    # perft hashed: marked

Exit status:
  0  every engine agreed on every count
  1  an engine reported a different count
  2  bad input or usage, or an engine failed (start, crash, hang, flood, unreadable output)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)"
);

pub(super) const CHECK_HELP: &str = concat!(
    "ENGINE is [NAME=]SPEC.\n",
    engine_specs!(),
    "
Every wrong count is bisected (with the engine's divide, or by asking for each child
position's count) down to the position whose move list differs, and grouped by cause: missing
moves by kind, extra moves by why they are illegal, a move listed twice, a count that differs
where the move list agrees (with candidates), answers that contradict each other. Each cause is
printed once (--verbose prints every wrong count). Positions an engine cannot read (Chess960
for qperft, Gigantua, UCI engines without UCI_Chess960, engines declared no960) are skipped;
depth-0 counts are not asked of engines (perft(0) = 1).

Examples:
  perft check --engine ./my-engine                          # probed; the default suite
  perft check --engine \"mine=uci:./my-engine\" positions/standard.epd --max-nodes 1000000
  perft check --engine \"mine=cmd:./my-engine {depth} {fen}\" --jobs 2 --junit junit.xml

Exit status:
  0  the engine matched every count
  1  the engine got a count wrong
  2  bad input or usage, or the engine failed (start, crash, hang, flood, unreadable output)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)"
);

pub(super) const DEBUG_HELP: &str = concat!(
    "ENGINE is [NAME=]SPEC.\n",
    engine_specs!(),
    "
The engine's divide is compared with ours at the position; the cheapest move whose count
differs is followed (looking one level ahead for a position whose move list differs), down to
the position where a move is missing, extra or listed twice; each step is printed. Where the
engine prints no divide, each child position's count is asked, and its move list is read from
its divide one ply deeper.

Examples:
  perft debug --engine \"mine=uci:./my-engine\" --moves e2e4 e7e5 --depth 3
  perft debug --engine ./my-engine --fen \"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\" --depth 5

Exit status:
  0  the engine agrees
  1  a difference was found
  2  bad input or usage, or the engine failed
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP"
);

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// An engine to race, as NAME=SPEC (repeatable); this program always
    /// takes part as `perft`.
    #[arg(long = "engine", short = 'e', value_name = "NAME=SPEC")]
    pub engines: Vec<String>,
    #[command(flatten)]
    pub patterns: PatternArgs,
    /// Positions with their expected counts [default: positions/bench.epd].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Skip Chess960 positions for every engine (engines that cannot read
    /// them skip them anyway).
    #[arg(long)]
    pub skip_chess960: bool,
    /// Rounds; within a round the engines take turns on each position.
    #[arg(long, short = 'r', value_name = "R", default_value_t = 3)]
    pub repeat: usize,
    /// Seconds one count may take before the engine is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for this program and for UCI engines (their `Threads`
    /// option).
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// This program's hash table: 0 (none, the default, so that it races
    /// like for like with engines whose perft has none), a size in MB, or
    /// `auto` (as `perft run` sizes it). A table is marked in the tables,
    /// the report and the charts.
    #[arg(long, value_name = "MB|auto", default_value = "0")]
    pub hash: HashSize,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/compare-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

/// How engines' answers are read.
#[derive(Debug, Args)]
pub struct PatternArgs {
    /// Pattern for an engine's total: a regular expression whose first
    /// group is the number (`{depth}` stands for the depth); REGEX for
    /// every engine, NAME=REGEX for one (repeatable).
    #[arg(long = "total-regex", value_name = "[NAME=]REGEX")]
    pub total_regex: Vec<String>,
    /// Pattern for one line of an engine's divide, with groups for the move
    /// and the count (named `move` and `count`, or the first two); REGEX or
    /// NAME=REGEX (repeatable).
    #[arg(long = "divide-regex", value_name = "[NAME=]REGEX")]
    pub divide_regex: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The engine to check, [NAME=]SPEC.
    #[arg(long, short = 'e', value_name = "ENGINE")]
    pub engine: String,
    /// Suite files; none runs the bundled default suite.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Also check every position at depth D, with our count as the reference
    /// where the file has none.
    #[arg(long, value_name = "D", value_parser = depth_parser())]
    pub depth: Option<u32>,
    /// Seconds one engine call may take before the engine is killed and
    /// restarted.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for our own counts.
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Engine processes to run at once, each asked its share of the checks
    /// (a slow engine checks a suite N times faster on N free cores).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub patterns: PatternArgs,
    /// Print every wrong count and every engine error, not only one example
    /// of each cause.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/check-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
    #[command(flatten)]
    pub ci: CiArgs,
}

#[derive(Debug, Args)]
pub struct DebugArgs {
    /// The engine to debug, [NAME=]SPEC.
    #[arg(long, short = 'e', value_name = "ENGINE")]
    pub engine: String,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Plies to count.
    #[arg(long, short = 'd', value_name = "N", value_parser = depth_parser())]
    pub depth: u32,
    /// Seconds one engine call may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for our own counts.
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub patterns: PatternArgs,
}

#[derive(Debug, Args)]
pub struct PerftreeArgs {
    /// Plies to count (instead of the DEPTH argument).
    #[arg(long = "depth", short = 'd', value_name = "N", value_parser = depth_parser())]
    pub depth_option: Option<u32>,
    /// DEPTH FEN [MOVES...], as the perftree debugger calls it (without
    /// DEPTH when --depth is given); MOVES are UCI moves played from FEN
    /// first, in one argument or several.
    #[arg(
        value_name = "DEPTH FEN MOVES",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub words: Vec<String>,
}

impl PerftreeArgs {
    /// The depth, the FEN and the moves.
    pub fn parts(&self) -> Result<(u32, &str, Vec<&str>), String> {
        let mut words = self.words.iter().map(String::as_str);
        let depth = match self.depth_option {
            Some(depth) => depth,
            None => {
                let text = words.next().unwrap_or_default();
                text.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                    format!("bad depth {text:?}: a number of plies, at most {}", perft::counting::MAX_DEPTH)
                })?
            }
        };
        let fen = words.next().ok_or("no FEN given")?;
        Ok((depth, fen, words.flat_map(str::split_whitespace).collect()))
    }
}
