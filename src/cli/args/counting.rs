//! Arguments of the commands that count with this program: `run`, `suite`,
//! `bench`, `label`, and what they share (the position, the suite
//! selection).

use std::path::PathBuf;

use clap::Args;

use super::{depth_parser, CiArgs, HashSize};

pub(super) const LABEL_HELP: &str = "\
Example: perft label --depth 5 my-positions.txt -o my-suite.epd

Counts a position's file already gives are checked against ours (MISMATCH on stderr).

Exit status:
  0  every position labelled
  1  a count the file gave differs from ours (ours is written)
  2  an unreadable line or position (reported and left out)
  130  interrupted (nothing written)";

pub(super) const RUN_HELP: &str = "\
Examples:
  perft run 6                              # the start position, divided by root move
  perft run 5 --fen \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\"
  perft run 3 --moves e2e4 e7e5            # after moves
  perft run 7 -t 1 -q                      # one thread, the total alone
  perft run 6 --stats                      # captures, checks, mates per depth
  perft run 10 --checkpoint d10.journal    # resumable: then --resume d10.journal
  perft run 6 --json run6.json             # and a JSON report

Exit status:
  0  the count finished
  2  bad input or usage (malformed FEN or move, bad option, unwritable report), or
     --verify-hash found that the two key sets disagree
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported;
     --checkpoint keeps it for --resume)";

pub(super) const SUITE_HELP: &str = "\
Examples:
  perft suite                                             # the bundled default suite
  perft suite positions/standard.epd --max-nodes 1000000  # skip the big counts
  perft suite positions/fischer.epd --max-depth 4
  perft suite my-suite.epd --junit junit.xml              # and JUnit XML for CI

Exit status:
  0  every count matched
  1  a count did not match
  2  bad input or usage (unreadable file or line, malformed FEN or move, bad option)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)";

pub(super) const BENCH_HELP: &str = "\
Examples:
  perft bench                                  # the bench set; the report kept in results/
  perft bench -t 2 --repeat 9
  perft bench --json new.json && perft diff base.json new.json

Exit status:
  0  every count matched its expected count
  1  a count did not match
  2  bad input or usage (unreadable positions file, bad option, unwritable report)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)";

#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Files of positions: FENs one a line, EPD lines, or `.perft` records.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Count at depths 1 to D.
    #[arg(long, short = 'd', value_name = "D", value_parser = depth_parser())]
    pub depth: u32,
    /// Write the suite to FILE (atomically) instead of stdout.
    #[arg(long = "out", short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Accept impossible-but-playable positions.
    #[arg(long)]
    pub relaxed: bool,
    /// Read every position's castling the Chess960 way.
    #[arg(long)]
    pub chess960: bool,
}

/// The names `--position` takes ([`perft::board::NAMED_POSITIONS`]).
fn named_position_parser() -> clap::builder::PossibleValuesParser {
    let names = perft::board::NAMED_POSITIONS.iter().flat_map(|p| std::iter::once(&p.name).chain(p.aliases));
    clap::builder::PossibleValuesParser::new(names.map(|name| clap::builder::PossibleValue::new(*name)))
}

/// Where the position comes from.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Start from this FEN (4 to 6 fields; X-FEN and Shredder-FEN accepted).
    #[arg(long, value_name = "FEN", conflicts_with_all = ["startpos", "named"])]
    pub fen: Option<String>,
    /// Start from a usual test position by name: start, kiwipete, endgame,
    /// mirrored, mirrored-flipped, talkchess, edwards, chess960 (or the
    /// wiki's position1 to position6).
    #[arg(long = "position", value_name = "NAME", value_parser = named_position_parser(), conflicts_with = "startpos")]
    pub named: Option<String>,
    /// Start from the standard starting position (the default).
    #[arg(long)]
    pub startpos: bool,
    /// Moves to play first, in UCI (e2e4 e7e5 g1f3) or SAN (e4 e5 Nf3).
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

impl PositionArgs {
    /// The FEN the moves start from: `--fen`, the `--position` named, or
    /// the start position.
    pub fn start_fen(&self) -> String {
        let named = self.named.as_deref().and_then(perft::board::named_position).map(|p| p.fen);
        self.fen.clone().unwrap_or_else(|| named.unwrap_or(perft::board::STARTPOS_FEN).to_string())
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Plies to count (at most 64); or give --depth.
    #[arg(value_name = "DEPTH", value_parser = depth_parser())]
    pub depth_argument: Option<u32>,
    /// Plies to count (at most 64).
    #[arg(long = "depth", short = 'd', value_name = "N", value_parser = depth_parser(), conflicts_with = "depth_argument")]
    pub depth_option: Option<u32>,
    /// The depth, however it was given (set by [`RunArgs::resolve`]).
    #[arg(skip)]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Make every leaf move instead of counting the last ply by set sizes
    /// (bulk counting). Slower; the counts are the same.
    #[arg(long)]
    pub full: bool,
    /// Print only the total.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Share a hash table of subtree counts: MB mebibytes, `auto` (sized
    /// from the depth and the memory this process may use: its cgroup's
    /// limit or the available memory), or 0 for none [default: auto where
    /// the count is large enough for a table to pay].
    #[arg(long, value_name = "MB|auto")]
    pub hash: Option<HashSize>,
    /// Repeat the run with an independent set of hash keys and fail unless
    /// both give the same counts (needs a table).
    #[arg(long)]
    pub verify_hash: bool,
    /// Count, per depth, captures, en passant, castles, promotions, checks,
    /// discovered and double checks and checkmates (every node is made).
    #[arg(long, conflicts_with_all = ["hash", "checkpoint", "resume", "full"])]
    pub stats: bool,
    /// Record every finished subtree in a journal FILE (new), so the run can
    /// resume after a crash, kill or Ctrl-C.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub checkpoint: Option<PathBuf>,
    /// Resume from the journal FILE of an earlier run with the same position,
    /// depth and mode: finished subtrees are skipped, the rest recorded.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Keep FILE up to date (about once a second) with the count's progress
    /// as JSON: subtrees and nodes done, the recent rate, the ETA.
    #[arg(long, value_name = "FILE", conflicts_with = "stats")]
    pub progress_json: Option<PathBuf>,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/run-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

impl RunArgs {
    /// Settles the depth: the argument or `--depth`, else a number that
    /// `--moves` took in (`--moves e2e4 e7e5 3`: the 3 is the depth), or
    /// that `--json` took as its file (`--json 3`: a report, depth 3).
    pub fn resolve(mut self) -> Result<Self, String> {
        let is_number = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if self.depth_argument.or(self.depth_option).is_none() {
            let json_number =
                self.json.as_ref().and_then(|j| j.as_ref()).and_then(|p| p.to_str()).filter(|p| is_number(p));
            if let Some(number) = json_number {
                self.depth_argument = Some(
                    number.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                        format!("depth {number} is beyond the {} plies supported", perft::counting::MAX_DEPTH)
                    })?,
                );
                self.json = Some(None);
            }
        }
        let trailing_number = self.position.moves.last().filter(|m| is_number(m));
        let depth = match (self.depth_argument.or(self.depth_option), trailing_number) {
            (Some(depth), _) => depth,
            (None, Some(number)) => {
                let depth =
                    number.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                        format!("depth {number} is beyond the {} plies supported", perft::counting::MAX_DEPTH)
                    })?;
                self.position.moves.pop();
                depth
            }
            (None, None) => return Err("a depth is needed: perft run DEPTH, or --depth N".into()),
        };
        self.depth = depth;
        Ok(self)
    }
}

/// Which checks of the suites run, and how their positions are read
/// (`suite` and `check`).
#[derive(Debug, Args)]
pub struct SelectionArgs {
    /// Skip depths above D.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Skip checks whose expected count exceeds N.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u128>,
    /// Count impossible-but-playable positions (such as those of
    /// tricky.perft) without the note they get by default.
    #[arg(long, conflicts_with = "strict")]
    pub relaxed: bool,
    /// Refuse impossible-but-playable positions (too much material,
    /// impossible checks or castling rights) as errors.
    #[arg(long)]
    pub strict: bool,
    /// Read every position's castling the Chess960 way (otherwise detected
    /// from the castling field and the placement).
    #[arg(long)]
    pub chess960: bool,
    /// Stop at the first wrong count.
    #[arg(long)]
    pub fail_fast: bool,
    /// Skip Chess960 positions (counted as skipped); `check` skips them
    /// anyway for engines that cannot read them (qperft, Gigantua, UCI
    /// engines without UCI_Chess960).
    #[arg(long)]
    pub skip_chess960: bool,
}

impl SelectionArgs {
    /// The suite options these flags give, counting in `mode`, with
    /// `extra_depth` checked for every position.
    pub fn options(
        &self,
        mode: perft::counting::Mode,
        extra_depth: Option<u32>,
    ) -> perft::suite::SuiteOptions {
        perft::suite::SuiteOptions {
            castling: perft::board::CastlingMode::from_chess960(self.chess960),
            relaxed: self.relaxed,
            strict: self.strict,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            fail_fast: self.fail_fast,
            mode,
            extra_depth,
            skip_chess960: self.skip_chess960,
            skip_depth_zero: false,
        }
    }
}

#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Suite files (EPD with `;D<depth> <nodes>` or `.perft`); none runs the
    /// bundled default suite.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Make every leaf move instead of bulk counting.
    #[arg(long)]
    pub full: bool,
    /// Share a hash table of subtree counts across all positions and
    /// depths: MB mebibytes or `auto` (sized from the deepest count and the
    /// memory this process may use); a failing check's divide is recounted
    /// with a second table indexed by the second key set [default: none].
    #[arg(long, value_name = "MB|auto")]
    pub hash: Option<HashSize>,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/suite-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
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
pub struct BenchArgs {
    /// Benchmark set: EPD or .perft; each position runs at the deepest depth
    /// it lists [default: the bundled positions/bench.epd].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Timed rounds: samples per position.
    #[arg(long, short = 'r', value_name = "R", default_value_t = 5)]
    pub repeat: usize,
    /// Least seconds of one sample: a position is counted again and again
    /// until its sample has lasted this long.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.5)]
    pub sample_time: f64,
    /// Worker threads.
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Make every leaf move instead of bulk counting.
    #[arg(long)]
    pub full: bool,
    /// Write the JSON report to FILE (`-` for stdout) instead of
    /// results/bench-<timestamp>.json (`$PERFT_RESULTS` instead of
    /// results/): a bench always writes its report, so that the history of
    /// its runs stays in one place for `perft diff` and `perft report`.
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report.
    #[arg(long)]
    pub no_json: bool,
}
